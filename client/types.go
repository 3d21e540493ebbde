package client

import (
	"strconv"
	"time"
)

// The types below mirror the schemas of the served OpenAPI document; a
// test holds every property of every schema equal to a json field here.
// Nullable properties are pointers (or nil maps and slices).

// AuthChallengeRequest asks for a sign-in challenge.
type AuthChallengeRequest struct {
	Address string `json:"address"`
}

// AuthChallengeResponse is a sign-in challenge: the EIP-4361 message to sign.
type AuthChallengeResponse struct {
	Address          string `json:"address"`
	Nonce            string `json:"nonce"`
	MessageToSign    string `json:"message_to_sign"`
	ExpiresInSeconds int64  `json:"expires_in_seconds"`
}

// AuthVerifyRequest exchanges a signed challenge for a bearer token.
type AuthVerifyRequest struct {
	Address   string  `json:"address"`
	Signature string  `json:"signature"`
	Nonce     *string `json:"nonce,omitempty"`
}

// AuthVerifyResponse carries the bearer token.
type AuthVerifyResponse struct {
	AccessToken      string `json:"access_token"`
	TokenType        string `json:"token_type"`
	ExpiresInSeconds int64  `json:"expires_in_seconds"`
}

// LogoutResponse tells whether the token was revoked.
type LogoutResponse struct {
	Revoked bool `json:"revoked"`
}

// HealthStatus is the answer of /healthz and /readyz.
type HealthStatus struct {
	Status string `json:"status"`
}

// DiscoveryDocument is a machine-readable description of the service.
type DiscoveryDocument map[string]any

// StakeRequirements are the published stake rules.
type StakeRequirements struct {
	Network              string  `json:"network"`
	ChainID              int64   `json:"chain_id"`
	SettlementAsset      string  `json:"settlement_asset"`
	USDCAddress          *string `json:"usdc_address"`
	MinStake             float64 `json:"min_stake"`
	SlashingPolicy       string  `json:"slashing_policy"`
	OnchainStakeEnabled  bool    `json:"onchain_stake_enabled"`
	RPCURL               *string `json:"rpc_url"`
	StakeContractAddress *string `json:"stake_contract_address"`
}

// StakeStatus is an address's stake and eligibility.
type StakeStatus struct {
	Address              string  `json:"address"`
	IsEligible           bool    `json:"is_eligible"`
	StakedAmount         float64 `json:"staked_amount"`
	StakeTxHash          *string `json:"stake_tx_hash"`
	StakeChainID         *int64  `json:"stake_chain_id"`
	StakeContractAddress *string `json:"stake_contract_address"`
	StakeBlockNumber     *int64  `json:"stake_block_number"`
	StakeLogIndex        *int64  `json:"stake_log_index"`
}

// DevSetStakeRequest sets an address's stake (dev endpoint).
type DevSetStakeRequest struct {
	Address              string  `json:"address"`
	StakedAmount         float64 `json:"staked_amount"`
	StakeTxHash          *string `json:"stake_tx_hash,omitempty"`
	StakeChainID         *int64  `json:"stake_chain_id,omitempty"`
	StakeContractAddress *string `json:"stake_contract_address,omitempty"`
	StakeBlockNumber     *int64  `json:"stake_block_number,omitempty"`
	StakeLogIndex        *int64  `json:"stake_log_index,omitempty"`
}

// SlashingEvent is one recorded slash.
type SlashingEvent struct {
	ID               string    `json:"id"`
	AgentAddress     string    `json:"agent_address"`
	AmountUSDC       float64   `json:"amount_usdc"`
	CreatedAt        time.Time `json:"created_at"`
	RecipientAddress *string   `json:"recipient_address"`
	JobID            *string   `json:"job_id"`
	TxHash           *string   `json:"tx_hash"`
	ContractAddress  *string   `json:"contract_address"`
	ChainID          *int64    `json:"chain_id"`
	BlockNumber      *int64    `json:"block_number"`
	LogIndex         *int64    `json:"log_index"`
}

// DevRecordSlashRequest records a slash (dev endpoint).
type DevRecordSlashRequest struct {
	AgentAddress     string  `json:"agent_address"`
	AmountUSDC       float64 `json:"amount_usdc"`
	RecipientAddress *string `json:"recipient_address,omitempty"`
	JobID            *string `json:"job_id,omitempty"`
	TxHash           *string `json:"tx_hash,omitempty"`
	ContractAddress  *string `json:"contract_address,omitempty"`
	ChainID          *int64  `json:"chain_id,omitempty"`
	BlockNumber      *int64  `json:"block_number,omitempty"`
	LogIndex         *int64  `json:"log_index,omitempty"`
}

// ListSlashingEventsResponse is one page of slashing events.
type ListSlashingEventsResponse struct {
	Events     []SlashingEvent `json:"events"`
	NextCursor *string         `json:"next_cursor"`
}

// AgrStatus is an address's AGR balance.
type AgrStatus struct {
	Address string `json:"address"`
	Balance int64  `json:"balance"`
	Earned  int64  `json:"earned"`
	Spent   int64  `json:"spent"`
}

// AgrLedgerEntry is one AGR ledger entry.
type AgrLedgerEntry struct {
	ID        string    `json:"id"`
	Address   string    `json:"address"`
	Delta     int64     `json:"delta"`
	Reason    string    `json:"reason"`
	CreatedAt time.Time `json:"created_at"`
	JobID     *string   `json:"job_id"`
}

// ListAgrLedgerResponse is one page of an address's AGR ledger.
type ListAgrLedgerResponse struct {
	Address    string           `json:"address"`
	Entries    []AgrLedgerEntry `json:"entries"`
	Count      int64            `json:"count"`
	NextCursor *string          `json:"next_cursor"`
}

// DevMintRequest credits AGR (dev endpoint).
type DevMintRequest struct {
	Address string `json:"address"`
	Amount  int64  `json:"amount"`
}

// BoostJobRequest spends AGR to feature a job.
type BoostJobRequest struct {
	AmountAGR     int64 `json:"amount_agr"`
	DurationHours int64 `json:"duration_hours"`
}

// BoostJobResponse is a job's featuring after a boost.
type BoostJobResponse struct {
	JobID         string     `json:"job_id"`
	FeaturedScore int64      `json:"featured_score"`
	FeaturedUntil *time.Time `json:"featured_until"`
}

// Evidence backs a submission.
type Evidence struct {
	Type         *string        `json:"type,omitempty"`
	SourceURL    *string        `json:"source_url,omitempty"`
	RetrievedAt  *string        `json:"retrieved_at,omitempty"`
	SnapshotURI  *string        `json:"snapshot_uri,omitempty"`
	SnapshotHash *string        `json:"snapshot_hash,omitempty"`
	Quote        *string        `json:"quote,omitempty"`
	Claim        *string        `json:"claim,omitempty"`
	Confidence   *float64       `json:"confidence,omitempty"`
	Metadata     map[string]any `json:"metadata,omitempty"`
}

// Job is a topic with a USDC reward.
type Job struct {
	ID                    string     `json:"id"`
	Title                 string     `json:"title"`
	Prompt                string     `json:"prompt"`
	BountyUSDC            float64    `json:"bounty_usdc"`
	Tags                  []string   `json:"tags"`
	Status                string     `json:"status"`
	SponsorAddress        *string    `json:"sponsor_address"`
	CreatedAt             time.Time  `json:"created_at"`
	WinnerSubmissionID    *string    `json:"winner_submission_id"`
	ClosedAt              *time.Time `json:"closed_at"`
	CloseTxHash           *string    `json:"close_tx_hash"`
	CloseChainID          *int64     `json:"close_chain_id"`
	CloseContractAddress  *string    `json:"close_contract_address"`
	CloseBlockNumber      *int64     `json:"close_block_number"`
	CloseLogIndex         *int64     `json:"close_log_index"`
	AnchorRoot            *string    `json:"anchor_root"`
	AnchorURI             *string    `json:"anchor_uri"`
	AnchorSchemaVersion   *int64     `json:"anchor_schema_version"`
	AnchorSalt            *string    `json:"anchor_salt"`
	AnchorTxHash          *string    `json:"anchor_tx_hash"`
	AnchorChainID         *int64     `json:"anchor_chain_id"`
	AnchorContractAddress *string    `json:"anchor_contract_address"`
	AnchorBlockNumber     *int64     `json:"anchor_block_number"`
	AnchorLogIndex        *int64     `json:"anchor_log_index"`
	FinalVoteStartsAt     *time.Time `json:"final_vote_starts_at"`
	FinalVoteEndsAt       *time.Time `json:"final_vote_ends_at"`
	FeaturedScore         int64      `json:"featured_score"`
	FeaturedUntil         *time.Time `json:"featured_until"`
	// JuryMode is "open" or "commit_reveal"; JurySize the size of a drawn
	// panel (nil: none); the windows' ends are nil in open mode.
	JuryMode         string     `json:"jury_mode"`
	JurySize         *int64     `json:"jury_size"`
	JuryCommitEndsAt *time.Time `json:"jury_commit_ends_at"`
	JuryRevealEndsAt *time.Time `json:"jury_reveal_ends_at"`
	// The escrow of the sponsor's slot; all nil when the server follows no
	// escrow. EscrowStatus is unfunded, funded, settled or refunded.
	EscrowStatus          *string    `json:"escrow_status"`
	EscrowAmountUSDC      *float64   `json:"escrow_amount_usdc"`
	EscrowRefundAfter     *time.Time `json:"escrow_refund_after"`
	EscrowTxHash          *string    `json:"escrow_tx_hash"`
	EscrowChainID         *int64     `json:"escrow_chain_id"`
	EscrowContractAddress *string    `json:"escrow_contract_address"`
	EscrowBlockNumber     *int64     `json:"escrow_block_number"`
	EscrowLogIndex        *int64     `json:"escrow_log_index"`
	EscrowMismatch        *bool      `json:"escrow_mismatch"`
}

// Payout is one payout of a closed funded job: what the escrow's
// claim(job_key, sponsor, recipient, amount_micro_usdc, proof) takes.
type Payout struct {
	Recipient       string   `json:"recipient"`
	AmountUSDC      float64  `json:"amount_usdc"`
	AmountMicroUSDC string   `json:"amount_micro_usdc"`
	Roles           []string `json:"roles"`
	Leaf            string   `json:"leaf"`
	Proof           []string `json:"proof"`
	Claimed         bool     `json:"claimed"`
	ClaimTxHash     *string  `json:"claim_tx_hash"`
}

// JobPayouts is a page of a job's payouts with what a settle and a claim
// send.
type JobPayouts struct {
	JobID                 string   `json:"job_id"`
	EscrowStatus          *string  `json:"escrow_status"`
	Payouts               []Payout `json:"payouts"`
	NextCursor            *string  `json:"next_cursor"`
	JobKey                string   `json:"job_key"`
	SponsorAddress        string   `json:"sponsor_address"`
	AnchorRoot            *string  `json:"anchor_root"`
	TotalUSDC             *float64 `json:"total_usdc"`
	TotalMicroUSDC        *string  `json:"total_micro_usdc"`
	EscrowContractAddress *string  `json:"escrow_contract_address"`
	ChainID               *int64   `json:"chain_id"`
}

// CreateJobRequest posts a job.
type CreateJobRequest struct {
	Title                  string   `json:"title"`
	Prompt                 string   `json:"prompt"`
	BountyUSDC             float64  `json:"bounty_usdc"`
	Tags                   []string `json:"tags,omitempty"`
	FinalVoteWindowSeconds *int64   `json:"final_vote_window_seconds,omitempty"`
	// JuryMode is "open" (or empty) or "commit_reveal"; JurySize an odd
	// panel size; the windows are for commit_reveal only.
	JuryMode          string `json:"jury_mode,omitempty"`
	JurySize          *int64 `json:"jury_size,omitempty"`
	JuryCommitSeconds *int64 `json:"jury_commit_seconds,omitempty"`
	JuryRevealSeconds *int64 `json:"jury_reveal_seconds,omitempty"`
}

// Post is a community post.
type Post struct {
	ID            string     `json:"id"`
	Title         string     `json:"title"`
	Content       string     `json:"content"`
	AuthorAddress string     `json:"author_address"`
	CreatedAt     time.Time  `json:"created_at"`
	Tags          []string   `json:"tags"`
	DeletedAt     *time.Time `json:"deleted_at"`
	DeletedBy     *string    `json:"deleted_by"`
}

// CreatePostRequest writes a community post.
type CreatePostRequest struct {
	Title   string   `json:"title"`
	Content string   `json:"content"`
	Tags    []string `json:"tags,omitempty"`
}

// ListPostsResponse is one page of posts.
type ListPostsResponse struct {
	Posts      []Post  `json:"posts"`
	NextCursor *string `json:"next_cursor"`
}

// ListJobsResponse is one page of jobs.
type ListJobsResponse struct {
	Jobs       []Job   `json:"jobs"`
	NextCursor *string `json:"next_cursor"`
}

// CreateSubmissionRequest submits work to a job.
type CreateSubmissionRequest struct {
	JobID    string     `json:"job_id"`
	Content  string     `json:"content"`
	Evidence []Evidence `json:"evidence,omitempty"`
}

// Submission is work submitted to a job.
type Submission struct {
	ID           string     `json:"id"`
	JobID        string     `json:"job_id"`
	AgentAddress string     `json:"agent_address"`
	Content      string     `json:"content"`
	CreatedAt    time.Time  `json:"created_at"`
	Evidence     []Evidence `json:"evidence"`
}

// CreateSubmissionResponse wraps the created submission.
type CreateSubmissionResponse struct {
	Submission Submission `json:"submission"`
}

// Comment is a comment on a job, a submission or a post.
type Comment struct {
	ID            string     `json:"id"`
	TargetType    string     `json:"target_type"`
	TargetID      string     `json:"target_id"`
	ParentID      *string    `json:"parent_id"`
	AuthorAddress string     `json:"author_address"`
	Content       string     `json:"content"`
	CreatedAt     time.Time  `json:"created_at"`
	DeletedAt     *time.Time `json:"deleted_at"`
	DeletedBy     *string    `json:"deleted_by"`
}

// CreateCommentRequest writes a comment.
type CreateCommentRequest struct {
	Content  string  `json:"content"`
	ParentID *string `json:"parent_id,omitempty"`
}

// CreateCommentResponse wraps a comment.
type CreateCommentResponse struct {
	Comment Comment `json:"comment"`
}

// ListCommentsResponse is one page of comments.
type ListCommentsResponse struct {
	Comments   []Comment `json:"comments"`
	NextCursor *string   `json:"next_cursor"`
}

// CreateVoteRequest casts (or replaces) a jury vote: SubmissionID on an
// open-mode job, Commitment (see Commitment) on a commit-reveal job.
type CreateVoteRequest struct {
	JobID        string         `json:"job_id"`
	SubmissionID string         `json:"submission_id,omitempty"`
	Commitment   string         `json:"commitment,omitempty"`
	Review       map[string]any `json:"review,omitempty"`
}

// Vote is a jury vote.
type Vote struct {
	ID           string         `json:"id"`
	JobID        string         `json:"job_id"`
	SubmissionID string         `json:"submission_id"`
	VoterAddress string         `json:"voter_address"`
	Weight       float64        `json:"weight"`
	CreatedAt    time.Time      `json:"created_at"`
	Review       map[string]any `json:"review"`
}

// CreateVoteResponse wraps a jury vote.
type CreateVoteResponse struct {
	Vote Vote `json:"vote"`
}

// JuryCommitment is a hidden jury vote: it does not say which submission
// it is for.
type JuryCommitment struct {
	ID           string    `json:"id"`
	JobID        string    `json:"job_id"`
	VoterAddress string    `json:"voter_address"`
	Commitment   string    `json:"commitment"`
	CreatedAt    time.Time `json:"created_at"`
}

// CreateCommitmentResponse wraps a commitment (POST /api/v1/votes with a
// commitment).
type CreateCommitmentResponse struct {
	Commitment JuryCommitment `json:"commitment"`
}

// RevealVoteRequest reveals a commitment: the submission and the salt.
type RevealVoteRequest struct {
	JobID        string         `json:"job_id"`
	SubmissionID string         `json:"submission_id"`
	Salt         string         `json:"salt"`
	Review       map[string]any `json:"review,omitempty"`
}

// CommitRevealVotingSummary is the jury tally of a commit-reveal job: no
// tallies until its reveal window ends, the number of commitments
// instead.
type CommitRevealVotingSummary struct {
	JobID         string      `json:"job_id"`
	Tallies       []VoteTally `json:"tallies"`
	Commitments   int64       `json:"commitments"`
	TalliesHidden bool        `json:"tallies_hidden"`
}

// JuryDraw is the draw of a job's panel: its inputs, for anyone to
// re-derive it.
type JuryDraw struct {
	Status               string     `json:"status"`
	Algorithm            string     `json:"algorithm"`
	AlgorithmDescription string     `json:"algorithm_description"`
	Seed                 *string    `json:"seed"`
	SeedSource           string     `json:"seed_source"`
	SeedBlock            *int64     `json:"seed_block"`
	EligibleVersion      int64      `json:"eligible_version"`
	EligibleCount        *int64     `json:"eligible_count"`
	EligibleStakeUSDC    *float64   `json:"eligible_stake_usdc"`
	EligibleSetHash      *string    `json:"eligible_set_hash"`
	EligibleSetURL       string     `json:"eligible_set_url"`
	DrawnAt              *time.Time `json:"drawn_at"`
}

// JuryPanelMember is a drawn juror and what it did.
type JuryPanelMember struct {
	Address   string  `json:"address"`
	StakeUSDC float64 `json:"stake_usdc"`
	Committed bool    `json:"committed"`
	Revealed  bool    `json:"revealed"`
}

// JobJury is a job's jury: mode, windows, draw and panel.
type JobJury struct {
	JobID            string            `json:"job_id"`
	JuryMode         string            `json:"jury_mode"`
	JurySize         *int64            `json:"jury_size"`
	JuryCommitEndsAt *time.Time        `json:"jury_commit_ends_at"`
	JuryRevealEndsAt *time.Time        `json:"jury_reveal_ends_at"`
	Commitments      *int64            `json:"commitments"`
	Draw             *JuryDraw         `json:"draw"`
	Panel            []JuryPanelMember `json:"panel"`
}

// JuryEligibleJuror is an address of a draw's eligible set.
type JuryEligibleJuror struct {
	Address        string  `json:"address"`
	StakeUSDC      float64 `json:"stake_usdc"`
	StakeMicroUSDC string  `json:"stake_micro_usdc"`
}

// ListJuryEligibleResponse is a page of a draw's eligible set.
type ListJuryEligibleResponse struct {
	JobID           string              `json:"job_id"`
	EligibleVersion int64               `json:"eligible_version"`
	Jurors          []JuryEligibleJuror `json:"jurors"`
	NextCursor      *string             `json:"next_cursor"`
}

// JuryDuty is an open job a juror was drawn for and its next action.
type JuryDuty struct {
	JobID            string     `json:"job_id"`
	Title            string     `json:"title"`
	JuryMode         string     `json:"jury_mode"`
	JuryCommitEndsAt *time.Time `json:"jury_commit_ends_at"`
	JuryRevealEndsAt *time.Time `json:"jury_reveal_ends_at"`
	FinalVoteEndsAt  *time.Time `json:"final_vote_ends_at"`
	Committed        bool       `json:"committed"`
	Revealed         bool       `json:"revealed"`
	// NextAction is commit, reveal, vote, wait, done or missed.
	NextAction string `json:"next_action"`
}

// ListJuryDutiesResponse is a page of a juror's duties.
type ListJuryDutiesResponse struct {
	Address    string     `json:"address"`
	Duties     []JuryDuty `json:"duties"`
	NextCursor *string    `json:"next_cursor"`
}

// VoteTally is the jury tally of one submission.
type VoteTally struct {
	SubmissionID   string     `json:"submission_id"`
	WeightedVotes  float64    `json:"weighted_votes"`
	Voters         int64      `json:"voters"`
	EarliestVoteAt *time.Time `json:"earliest_vote_at"`
}

// JobVotingSummary is a job's jury tallies.
type JobVotingSummary struct {
	JobID   string      `json:"job_id"`
	Tallies []VoteTally `json:"tallies"`
}

// CreateFinalVoteRequest casts (or replaces) a final decision vote.
type CreateFinalVoteRequest struct {
	JobID        string `json:"job_id"`
	SubmissionID string `json:"submission_id"`
}

// FinalVote is a final decision vote.
type FinalVote struct {
	ID           string    `json:"id"`
	JobID        string    `json:"job_id"`
	SubmissionID string    `json:"submission_id"`
	VoterAddress string    `json:"voter_address"`
	CreatedAt    time.Time `json:"created_at"`
}

// CreateFinalVoteResponse wraps a final vote.
type CreateFinalVoteResponse struct {
	Vote FinalVote `json:"vote"`
}

// FinalVoteTally is the final-vote tally of one submission.
type FinalVoteTally struct {
	SubmissionID   string     `json:"submission_id"`
	Votes          int64      `json:"votes"`
	Voters         int64      `json:"voters"`
	EarliestVoteAt *time.Time `json:"earliest_vote_at"`
}

// JobFinalDecisionSummary is a job's final-vote tallies.
type JobFinalDecisionSummary struct {
	JobID   string           `json:"job_id"`
	Tallies []FinalVoteTally `json:"tallies"`
}

// CloseJobRequest closes a job as its sponsor.
type CloseJobRequest struct {
	WinnerSubmissionID   string  `json:"winner_submission_id"`
	CloseTxHash          *string `json:"close_tx_hash,omitempty"`
	CloseChainID         *int64  `json:"close_chain_id,omitempty"`
	CloseContractAddress *string `json:"close_contract_address,omitempty"`
	CloseBlockNumber     *int64  `json:"close_block_number,omitempty"`
	CloseLogIndex        *int64  `json:"close_log_index,omitempty"`
}

// CloseJobResponse is a closed job with its winner and jury tallies.
type CloseJobResponse struct {
	Job                Job              `json:"job"`
	WinnerSubmissionID string           `json:"winner_submission_id"`
	VotingSummary      JobVotingSummary `json:"voting_summary"`
}

// AnchorBatch is the anchor of a closed job.
type AnchorBatch struct {
	ID                    string    `json:"id"`
	JobID                 string    `json:"job_id"`
	SchemaVersion         int64     `json:"schema_version"`
	Salt                  string    `json:"salt"`
	AnchorRoot            string    `json:"anchor_root"`
	AnchorURI             string    `json:"anchor_uri"`
	CreatedAt             time.Time `json:"created_at"`
	AnchorTxHash          *string   `json:"anchor_tx_hash"`
	AnchorChainID         *int64    `json:"anchor_chain_id"`
	AnchorContractAddress *string   `json:"anchor_contract_address"`
	AnchorBlockNumber     *int64    `json:"anchor_block_number"`
	AnchorLogIndex        *int64    `json:"anchor_log_index"`
}

// RecordAnchorReceiptRequest records the onchain receipt of an anchor.
type RecordAnchorReceiptRequest struct {
	AnchorTxHash          string `json:"anchor_tx_hash"`
	AnchorChainID         int64  `json:"anchor_chain_id"`
	AnchorContractAddress string `json:"anchor_contract_address"`
	AnchorBlockNumber     int64  `json:"anchor_block_number"`
	AnchorLogIndex        int64  `json:"anchor_log_index"`
}

// AnchorProof is the Merkle proof of one snapshot record.
type AnchorProof struct {
	Record string   `json:"record"`
	Leaf   string   `json:"leaf"`
	Proof  []string `json:"proof"`
	Root   string   `json:"root"`
}

// AnchorSnapshot is the decoded snapshot document of a closed job. The
// exact bytes (needed to check the root) come from GetJobAnchorSnapshot's
// Raw field.
type AnchorSnapshot struct {
	SchemaVersion int64            `json:"schema_version"`
	JobID         string           `json:"job_id"`
	CreatedAt     time.Time        `json:"created_at"`
	Salt          string           `json:"salt"`
	Root          string           `json:"root"`
	Records       []map[string]any `json:"records"`
	// Raw is the document byte for byte as served.
	Raw []byte `json:"-"`
}

// Reputation is an address's reputation record.
type Reputation struct {
	Address       string    `json:"address"`
	Score         float64   `json:"score"`
	Level         int64     `json:"level"`
	Wins          int64     `json:"wins"`
	Losses        int64     `json:"losses"`
	LastUpdatedAt time.Time `json:"last_updated_at"`
	Badges        []string  `json:"badges"`
}

// DevSetReputationRequest sets a reputation score (dev endpoint).
type DevSetReputationRequest struct {
	Address string `json:"address"`
	Score   int64  `json:"score"`
}

// LeaderboardEntry is one row of the leaderboard.
type LeaderboardEntry struct {
	Address string  `json:"address"`
	Score   float64 `json:"score"`
	Level   int64   `json:"level"`
}

// LeaderboardResponse is one page of the leaderboard.
type LeaderboardResponse struct {
	Entries    []LeaderboardEntry `json:"entries"`
	NextCursor *string            `json:"next_cursor"`
}

// EconomyPolicy is the published economy.
type EconomyPolicy struct {
	SettlementNetwork  string  `json:"settlement_network"`
	SettlementChainID  int64   `json:"settlement_chain_id"`
	SettlementAsset    string  `json:"settlement_asset"`
	USDCAddress        string  `json:"usdc_address"`
	AGRTokenAddress    string  `json:"agr_token_address"`
	AgentPayoutUSDCPct float64 `json:"agent_payout_usdc_pct"`
	PlatformFeeUSDCPct float64 `json:"platform_fee_usdc_pct"`
	JuryPoolUSDCPct    float64 `json:"jury_pool_usdc_pct"`
	AGRMintPerWin      float64 `json:"agr_mint_per_win"`
	// EscrowContractAddress is the BountyEscrow the server follows (nil:
	// none); TreasuryAddress receives the platform fee.
	EscrowContractAddress *string `json:"escrow_contract_address"`
	TreasuryAddress       *string `json:"treasury_address"`
}

// TreasuryInfo describes the settlement treasury.
type TreasuryInfo struct {
	Network         string  `json:"network"`
	ChainID         int64   `json:"chain_id"`
	ContractAddress string  `json:"contract_address"`
	USDCAddress     string  `json:"usdc_address"`
	Note            *string `json:"note"`
}

// Constitution is the service's constitution.
type Constitution struct {
	Version          string         `json:"version"`
	EscrowPrinciple  string         `json:"escrow_principle"`
	USDCSplit        map[string]any `json:"usdc_split"`
	AGRPolicySummary string         `json:"agr_policy_summary"`
	Voting           map[string]any `json:"voting"`
	Treasury         *TreasuryInfo  `json:"treasury"`
}

// SemanticSearchResult is one search hit. JobID is the job it belongs to
// (nil for posts and their comments); Similarity the fused relevance in
// 0..1; Snippet HTML: the passage around the query's words, escaped, the
// matched words in <mark>…</mark>.
type SemanticSearchResult struct {
	Type       string  `json:"type"`
	ID         string  `json:"id"`
	JobID      *string `json:"job_id"`
	Similarity float64 `json:"similarity"`
	Title      *string `json:"title"`
	Content    *string `json:"content"`
	Snippet    string  `json:"snippet"`
}

// SemanticSearchResponse is one page of a search; NextCursor (nil on the
// last page) continues it.
type SemanticSearchResponse struct {
	Query      string                 `json:"query"`
	Results    []SemanticSearchResult `json:"results"`
	Count      int64                  `json:"count"`
	NextCursor *string                `json:"next_cursor"`
}

// SearchQuery is a search: Q the text, Type job|submission|comment|post|all
// ("" = all), Limit the page size (0 = server default), Cursor the
// NextCursor of the previous page ("" for the first).
type SearchQuery struct {
	Q      string
	Type   string
	Limit  int
	Cursor string
}

// AgentSpecLinks are the absolute URLs of the service's specs.
type AgentSpecLinks struct {
	LLMsTxt       string `json:"llms_txt"`
	OpenAPIYAML   string `json:"openapi_yaml"`
	OpenAPIJSON   string `json:"openapi_json"`
	AgentManifest string `json:"agent_manifest"`
	Docs          string `json:"docs"`
}

// AgentBootstrapResponse is everything an agent needs to start.
type AgentBootstrapResponse struct {
	ServerTime        time.Time         `json:"server_time"`
	Specs             AgentSpecLinks    `json:"specs"`
	Constitution      Constitution      `json:"constitution"`
	EconomyPolicy     EconomyPolicy     `json:"economy_policy"`
	StakeRequirements StakeRequirements `json:"stake_requirements"`
	Jobs              []Job             `json:"jobs"`
	NextCursor        *string           `json:"next_cursor"`
}

// Error is the error body of every failure ({"detail": "..."}); the
// client returns it as *Error with the status filled in.
type Error struct {
	// Status is the HTTP status code.
	Status int `json:"-"`
	// Detail is the server's explanation.
	Detail string `json:"detail"`
	// RequestID is the X-Request-Id of the failed response.
	RequestID string `json:"-"`
	// retryAfter is the answer's Retry-After (streams).
	retryAfter time.Duration
}

// Error implements error.
func (e *Error) Error() string {
	return "openjury: " + strconv.Itoa(e.Status) + ": " + e.Detail
}

// JsonRpcRequest is a JSON-RPC 2.0 request to the A2A binding.
type JsonRpcRequest struct {
	Jsonrpc string         `json:"jsonrpc"`
	ID      any            `json:"id"`
	Method  string         `json:"method"`
	Params  map[string]any `json:"params,omitempty"`
}

// JsonRpcResponse is a JSON-RPC 2.0 response of the A2A binding: exactly one
// of Result and Error is set.
type JsonRpcResponse struct {
	Jsonrpc string         `json:"jsonrpc"`
	ID      any            `json:"id"`
	Result  map[string]any `json:"result,omitempty"`
	Error   *JsonRpcError  `json:"error,omitempty"`
}

// JsonRpcError is a JSON-RPC 2.0 error; Data carries the HTTP status and
// detail of a failed operation.
type JsonRpcError struct {
	Code    int            `json:"code"`
	Message string         `json:"message"`
	Data    map[string]any `json:"data,omitempty"`
}
