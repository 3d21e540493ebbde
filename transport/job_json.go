package transport

import (
	"encoding/json"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
)

// jobJSON is the Job resource. Every field of the specification is always
// present; optional ones are null when unknown. featured_score and
// featured_until are additive (docs/rules.md#jobs).
type jobJSON struct {
	ID                    string      `json:"id"`
	Title                 string      `json:"title"`
	Prompt                string      `json:"prompt"`
	BountyUSDC            json.Number `json:"bounty_usdc"`
	Tags                  []string    `json:"tags"`
	Status                string      `json:"status"`
	SponsorAddress        *string     `json:"sponsor_address"`
	CreatedAt             string      `json:"created_at"`
	WinnerSubmissionID    *string     `json:"winner_submission_id"`
	ClosedAt              *string     `json:"closed_at"`
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
	FinalVoteStartsAt     *string     `json:"final_vote_starts_at"`
	FinalVoteEndsAt       *string     `json:"final_vote_ends_at"`
	FeaturedScore         int64       `json:"featured_score"`
	FeaturedUntil         *string     `json:"featured_until"`
	// The jury settings (docs/rules.md, "Jury integrity"): the ends of the
	// windows are null in open mode, jury_size null without a panel.
	JuryMode         string  `json:"jury_mode"`
	JurySize         *int64  `json:"jury_size"`
	JuryCommitEndsAt *string `json:"jury_commit_ends_at"`
	JuryRevealEndsAt *string `json:"jury_reveal_ends_at"`
	// The escrow of the sponsor's slot (docs/rules.md#escrow-and-payouts),
	// null when the service follows no escrow.
	EscrowStatus          *string      `json:"escrow_status"`
	EscrowAmountUSDC      *json.Number `json:"escrow_amount_usdc"`
	EscrowRefundAfter     *string      `json:"escrow_refund_after"`
	EscrowTxHash          *string      `json:"escrow_tx_hash"`
	EscrowChainID         *int64       `json:"escrow_chain_id"`
	EscrowContractAddress *string      `json:"escrow_contract_address"`
	EscrowBlockNumber     *int64       `json:"escrow_block_number"`
	EscrowLogIndex        *int64       `json:"escrow_log_index"`
	EscrowMismatch        *bool        `json:"escrow_mismatch"`
}

// jobJSON converts a domain job with the escrow state it shows
// (marketplace.Service.EscrowOf).
func (s *server) jobJSON(j *marketplace.Job) jobJSON {
	out := newJobJSON(j)
	out.setEscrow(s.svc.Market.EscrowOf(j))
	return out
}

// setEscrow fills the escrow_* fields from e (all null for nil).
func (out *jobJSON) setEscrow(e *marketplace.JobEscrow) {
	if e == nil {
		return
	}
	status, amount, mismatch := string(e.Status), usdcJSON(e.Amount), e.Mismatch
	ref := newChainRefFields(e.Ref)
	out.EscrowStatus, out.EscrowAmountUSDC, out.EscrowMismatch = &status, &amount, &mismatch
	out.EscrowRefundAfter = optTimePtr(e.RefundAfter)
	out.EscrowTxHash, out.EscrowChainID, out.EscrowContractAddress = ref.TxHash, ref.ChainID, ref.Contract
	out.EscrowBlockNumber, out.EscrowLogIndex = ref.BlockNumber, ref.LogIndex
}

// newJobJSON converts a domain job. The anchor_* fields are null until the
// job has a snapshot; the escrow_* fields are null (server.jobJSON sets
// them).
func newJobJSON(j *marketplace.Job) jobJSON {
	closeRef := newChainRefFields(j.Close)
	out := jobJSON{
		ID:                   j.ID,
		Title:                j.Title,
		Prompt:               j.Prompt,
		BountyUSDC:           usdcJSON(j.Bounty),
		Tags:                 orEmpty(j.Tags),
		Status:               string(j.Status),
		SponsorAddress:       optString(j.Sponsor.String()),
		CreatedAt:            openjury.FormatTime(j.CreatedAt),
		WinnerSubmissionID:   optString(j.WinnerSubmissionID),
		ClosedAt:             optTimePtr(j.ClosedAt),
		CloseTxHash:          closeRef.TxHash,
		CloseChainID:         closeRef.ChainID,
		CloseContractAddress: closeRef.Contract,
		CloseBlockNumber:     closeRef.BlockNumber,
		CloseLogIndex:        closeRef.LogIndex,
		FinalVoteStartsAt:    optTime(j.FinalVoteStartsAt),
		FinalVoteEndsAt:      optTime(j.FinalVoteEndsAt),
		FeaturedScore:        j.FeaturedScore,
		FeaturedUntil:        optTimePtr(j.FeaturedUntil),
		JuryMode:             j.JuryMode.Name(),
		JurySize:             optSize(j.JurySize),
		JuryCommitEndsAt:     optTimePtr(j.JuryCommitEndsAt),
		JuryRevealEndsAt:     optTimePtr(j.JuryRevealEndsAt),
	}
	if b := j.Anchor; b != nil {
		a := newAnchorBatchJSON(b)
		version := int64(a.SchemaVersion)
		out.AnchorRoot, out.AnchorURI, out.AnchorSchemaVersion, out.AnchorSalt = &a.AnchorRoot, &a.AnchorURI, &version, &a.Salt
		out.AnchorTxHash, out.AnchorChainID, out.AnchorContractAddress = a.AnchorTxHash, a.AnchorChainID, a.AnchorContractAddress
		out.AnchorBlockNumber, out.AnchorLogIndex = a.AnchorBlockNumber, a.AnchorLogIndex
	}
	return out
}

// optSize is nil for 0, else n.
func optSize(n int) *int64 {
	if n == 0 {
		return nil
	}
	v := int64(n)
	return &v
}

// mapEach converts every element of s with f. The result is never nil, so
// an empty list is encoded as [], not null.
func mapEach[E, T any](s []E, f func(E) T) []T {
	out := make([]T, len(s))
	for i, e := range s {
		out[i] = f(e)
	}
	return out
}

// orEmpty is s, or an empty slice (encoded as []) for nil.
func orEmpty[E any](s []E) []E {
	if s == nil {
		return []E{}
	}
	return s
}

// usdcJSON renders an amount as an exact JSON number, e.g. 12.5.
func usdcJSON(m openjury.MicroUSDC) json.Number { return json.Number(m.String()) }

// optString is nil for "", else a pointer to s.
func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// deref is *p, or "" for nil: the inverse of optString.
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// optTime formats t, or is nil for the zero time.
func optTime(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := openjury.FormatTime(t)
	return &s
}

// optTimePtr formats *t, or is nil for nil.
func optTimePtr(t *time.Time) *string {
	if t == nil {
		return nil
	}
	return optTime(*t)
}
