package wire

import "encoding/json"

// Job is a topic with a USDC reward (docs/rules.md#jobs). Every property
// is always present; optional ones are null when unknown: the anchor_*
// ones until the job has a snapshot, the escrow_* ones when the server
// follows no escrow.
type Job struct {
	ID                    string      `json:"id"`
	Title                 string      `json:"title"`
	Prompt                string      `json:"prompt"`
	BountyUSDC            json.Number `json:"bounty_usdc"`
	Tags                  []string    `json:"tags"`
	Status                string      `json:"status"`
	SponsorAddress        *string     `json:"sponsor_address"`
	CreatedAt             Time        `json:"created_at"`
	WinnerSubmissionID    *string     `json:"winner_submission_id"`
	ClosedAt              *Time       `json:"closed_at"`
	CloseTxHash           *string     `json:"close_tx_hash"`
	CloseChainID          *int64      `json:"close_chain_id"`
	CloseContractAddress  *string     `json:"close_contract_address"`
	CloseBlockNumber      *int64      `json:"close_block_number"`
	CloseLogIndex         *int64      `json:"close_log_index"`
	AnchorRoot            *string     `json:"anchor_root"`
	AnchorURI             *string     `json:"anchor_uri"`
	AnchorSchemaVersion   *int64      `json:"anchor_schema_version"`
	AnchorSalt            *string     `json:"anchor_salt"`
	AnchorTxHash          *string     `json:"anchor_tx_hash"`
	AnchorChainID         *int64      `json:"anchor_chain_id"`
	AnchorContractAddress *string     `json:"anchor_contract_address"`
	AnchorBlockNumber     *int64      `json:"anchor_block_number"`
	AnchorLogIndex        *int64      `json:"anchor_log_index"`
	FinalVoteStartsAt     *Time       `json:"final_vote_starts_at"`
	FinalVoteEndsAt       *Time       `json:"final_vote_ends_at"`
	FeaturedScore         int64       `json:"featured_score"`
	FeaturedUntil         *Time       `json:"featured_until"`
	// The jury settings (docs/rules.md, "Jury integrity"): JuryMode is
	// "open" or "commit_reveal"; JurySize the size of a drawn panel (null:
	// none); the windows' ends are null in open mode.
	JuryMode         string `json:"jury_mode"`
	JurySize         *int64 `json:"jury_size"`
	JuryCommitEndsAt *Time  `json:"jury_commit_ends_at"`
	JuryRevealEndsAt *Time  `json:"jury_reveal_ends_at"`
	// The escrow of the sponsor's slot (docs/rules.md#escrow-and-payouts);
	// EscrowStatus is unfunded, funded, settled or refunded.
	EscrowStatus          *string      `json:"escrow_status"`
	EscrowAmountUSDC      *json.Number `json:"escrow_amount_usdc"`
	EscrowRefundAfter     *Time        `json:"escrow_refund_after"`
	EscrowTxHash          *string      `json:"escrow_tx_hash"`
	EscrowChainID         *int64       `json:"escrow_chain_id"`
	EscrowContractAddress *string      `json:"escrow_contract_address"`
	EscrowBlockNumber     *int64       `json:"escrow_block_number"`
	EscrowLogIndex        *int64       `json:"escrow_log_index"`
	EscrowMismatch        *bool        `json:"escrow_mismatch"`
}

// CreateJobRequest posts a job. JuryMode is "open" (or empty) or
// "commit_reveal"; JurySize an odd panel size; the jury windows are for
// commit_reveal only.
type CreateJobRequest struct {
	Title                  string   `json:"title"`
	Prompt                 string   `json:"prompt"`
	BountyUSDC             Number   `json:"bounty_usdc,omitempty"`
	Tags                   []string `json:"tags,omitempty"`
	FinalVoteWindowSeconds *int64   `json:"final_vote_window_seconds,omitempty"`
	JuryMode               string   `json:"jury_mode,omitempty"`
	JurySize               *int64   `json:"jury_size,omitempty"`
	JuryCommitSeconds      *int64   `json:"jury_commit_seconds,omitempty"`
	JuryRevealSeconds      *int64   `json:"jury_reveal_seconds,omitempty"`
}

// ListJobsResponse is one page of jobs; NextCursor (null on the last
// page) continues it.
type ListJobsResponse struct {
	Jobs       []Job   `json:"jobs"`
	NextCursor *string `json:"next_cursor"`
}
