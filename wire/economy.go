package wire

import "encoding/json"

// EconomyPolicy is the published economy: where USDC settles and how a
// bounty splits. The token addresses are "" when not configured.
type EconomyPolicy struct {
	SettlementNetwork  string  `json:"settlement_network"`
	SettlementChainID  int64   `json:"settlement_chain_id"`
	SettlementAsset    string  `json:"settlement_asset"`
	USDCAddress        string  `json:"usdc_address"`
	AGRTokenAddress    string  `json:"agr_token_address"`
	AgentPayoutUSDCPct float64 `json:"agent_payout_usdc_pct"`
	PlatformFeeUSDCPct float64 `json:"platform_fee_usdc_pct"`
	JuryPoolUSDCPct    float64 `json:"jury_pool_usdc_pct"`
	AGRMintPerWin      int64   `json:"agr_mint_per_win"`
	// EscrowContractAddress is the BountyEscrow the service follows (null:
	// none), where jobs are funded (docs/onchain.md); TreasuryAddress
	// receives the platform fee (null without escrow).
	EscrowContractAddress *string `json:"escrow_contract_address"`
	TreasuryAddress       *string `json:"treasury_address"`
}

// USDCSplit is the usdc_split of the constitution, fractions of 1.
type USDCSplit struct {
	AgentPayout float64 `json:"agent_payout"`
	PlatformFee float64 `json:"platform_fee"`
	JuryPool    float64 `json:"jury_pool"`
}

// VotingRules is the voting object of the constitution: the rules of the
// final vote and of the jury (docs/rules.md, "Jury integrity").
type VotingRules struct {
	DefaultFinalVoteWindowSeconds int64       `json:"default_final_vote_window_seconds"`
	MinFinalVoteWindowSeconds     int64       `json:"min_final_vote_window_seconds"`
	MaxFinalVoteWindowSeconds     int64       `json:"max_final_vote_window_seconds"`
	MinStakeUSDC                  json.Number `json:"min_stake_usdc"`
	MinRepScoreToVote             int64       `json:"min_rep_score_to_vote"`
	JuryWeightRule                string      `json:"jury_weight_rule"`
	MaxJuryWeight                 int64       `json:"max_jury_weight"`
	FinalizeTieBreak              []string    `json:"finalize_tie_break"`
	OneVotePerVoterPerJob         bool        `json:"one_vote_per_voter_per_job"`
	MaxSubmissionsPerAgentPerJob  int64       `json:"max_submissions_per_agent_per_job"`
	SponsorMayClose               bool        `json:"sponsor_may_close"`
	FinalizeRequiresFinalVote     bool        `json:"finalize_requires_final_vote"`
	FinalVoteEligibility          string      `json:"final_vote_eligibility"`
	FinalVoteRequiresStake        bool        `json:"final_vote_requires_stake"`
	WinnerReputationScore         int64       `json:"winner_reputation_score"`
	// The jury's rules (docs/rules.md, "Jury integrity").
	JuryModes                []string `json:"jury_modes"`
	DefaultJuryCommitSeconds int64    `json:"default_jury_commit_seconds"`
	DefaultJuryRevealSeconds int64    `json:"default_jury_reveal_seconds"`
	MinJuryWindowSeconds     int64    `json:"min_jury_window_seconds"`
	MaxJuryWindowSeconds     int64    `json:"max_jury_window_seconds"`
	MaxJurySize              int64    `json:"max_jury_size"`
	JuryCommitmentRule       string   `json:"jury_commitment_rule"`
	JuryDrawAlgorithm        string   `json:"jury_draw_algorithm"`
	JuryDrawRule             string   `json:"jury_draw_rule"`
	JuryDrawSeed             string   `json:"jury_draw_seed"`
	AGRPerCoherentVote       int64    `json:"agr_per_coherent_vote"`
	JuryNoShowPenalty        int64    `json:"jury_no_show_penalty"`
}

// TreasuryInfo describes the settlement treasury.
type TreasuryInfo struct {
	Network         string  `json:"network"`
	ChainID         int64   `json:"chain_id"`
	ContractAddress string  `json:"contract_address"`
	USDCAddress     string  `json:"usdc_address"`
	Note            *string `json:"note"`
}

// Constitution is the service's constitution; Treasury is null without a
// treasury.
type Constitution struct {
	Version          string        `json:"version"`
	EscrowPrinciple  string        `json:"escrow_principle"`
	USDCSplit        USDCSplit     `json:"usdc_split"`
	AGRPolicySummary string        `json:"agr_policy_summary"`
	Voting           VotingRules   `json:"voting"`
	Treasury         *TreasuryInfo `json:"treasury"`
}
