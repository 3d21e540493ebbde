package transport

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/openjury/openjury/marketplace"
)

// ConstitutionVersion is the version of the published constitution, the
// service documentation's label.
const ConstitutionVersion = "1.6"

// The sentences of the constitution.
const (
	escrowPrinciple = "Bounties are settled in USDC and each participant pays their own gas: " +
		"the platform never takes custody of funds, sponsors no transactions, and pays a winner " +
		"only under the published split once a job is closed by its sponsor or finalized by final decision votes."
	agrPolicySummary = "AGR credits are offchain and zero-fee: they are minted to the winner of each closed job " +
		"(agr_mint_per_win) and spent on boosts that feature a job in discovery. AGR carries no governance power."
	juryWeightRule = "min(5, 1 + floor(sqrt(score)))"
)

// The final_vote_eligibility values of the constitution: who may cast a
// final vote (marketplace.Config.FinalVoteOpen).
const (
	// finalVoteByStake: staked_amount >= min_stake, like a submission.
	finalVoteByStake = "stake"
	// finalVoteOpen: any signed-in address (SERVICE_FINAL_VOTE_OPEN=1).
	finalVoteOpen = "open"
)

// finalizeTieBreak lists the finalize winner rule in order.
var finalizeTieBreak = []string{
	"most_final_votes",
	"most_jury_weighted_votes",
	"earliest_submission",
	"smallest_submission_id",
}

func (s *server) economyRoutes() []route {
	return []route{
		{pattern: "GET /api/v1/economy/policy", op: "getEconomyPolicy", service: "economy_policy", h: s.economyPolicy},
		{pattern: "GET /api/v1/governance/constitution", op: "getConstitution", service: "constitution", h: s.constitution},
	}
}

// economyPolicyJSON is EconomyPolicy. The addresses are "" when not
// configured (the spec makes them required strings).
type economyPolicyJSON struct {
	SettlementNetwork  string  `json:"settlement_network"`
	SettlementChainID  int64   `json:"settlement_chain_id"`
	SettlementAsset    string  `json:"settlement_asset"`
	USDCAddress        string  `json:"usdc_address"`
	AGRTokenAddress    string  `json:"agr_token_address"`
	AgentPayoutUSDCPct float64 `json:"agent_payout_usdc_pct"`
	PlatformFeeUSDCPct float64 `json:"platform_fee_usdc_pct"`
	JuryPoolUSDCPct    float64 `json:"jury_pool_usdc_pct"`
	AGRMintPerWin      int64   `json:"agr_mint_per_win"`
}

// usdcSplitJSON is the usdc_split of the constitution, fractions of 1.
type usdcSplitJSON struct {
	AgentPayout float64 `json:"agent_payout"`
	PlatformFee float64 `json:"platform_fee"`
	JuryPool    float64 `json:"jury_pool"`
}

// votingRulesJSON is the voting object of the constitution.
type votingRulesJSON struct {
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

// juryCommitmentRule is how a juror computes a commitment.
const juryCommitmentRule = "keccak256(abi.encode(bytes32 keccak256(job_id), bytes32 keccak256(submission_id), address voter, bytes32 salt))"

// treasuryJSON is TreasuryInfo.
type treasuryJSON struct {
	Network         string  `json:"network"`
	ChainID         int64   `json:"chain_id"`
	ContractAddress string  `json:"contract_address"`
	USDCAddress     string  `json:"usdc_address"`
	Note            *string `json:"note"`
}

// constitutionJSON is Constitution. treasury is null: there is no
// treasury contract yet.
type constitutionJSON struct {
	Version          string          `json:"version"`
	EscrowPrinciple  string          `json:"escrow_principle"`
	USDCSplit        usdcSplitJSON   `json:"usdc_split"`
	AGRPolicySummary string          `json:"agr_policy_summary"`
	Voting           votingRulesJSON `json:"voting"`
	Treasury         *treasuryJSON   `json:"treasury"`
}

func (s *server) economyPolicyJSON() economyPolicyJSON {
	st := s.svc.Stake.Requirements()
	m := s.svc.Market.Config()
	return economyPolicyJSON{
		SettlementNetwork:  st.Network,
		SettlementChainID:  st.ChainID,
		SettlementAsset:    settlementAsset,
		USDCAddress:        st.USDCAddress.String(),
		AGRTokenAddress:    s.opts.AGRTokenAddress.String(),
		AgentPayoutUSDCPct: m.Economy.AgentPayoutPct,
		PlatformFeeUSDCPct: m.Economy.PlatformFeePct,
		JuryPoolUSDCPct:    m.Economy.JuryPoolPct,
		AGRMintPerWin:      m.AGRMintPerWin,
	}
}

func (s *server) constitutionJSON() constitutionJSON {
	m := s.svc.Market.Config()
	eligibility := finalVoteByStake
	if m.FinalVoteOpen {
		eligibility = finalVoteOpen
	}
	return constitutionJSON{
		Version:         ConstitutionVersion,
		EscrowPrinciple: escrowPrinciple,
		USDCSplit: usdcSplitJSON{
			AgentPayout: m.Economy.AgentPayoutPct,
			PlatformFee: m.Economy.PlatformFeePct,
			JuryPool:    m.Economy.JuryPoolPct,
		},
		AGRPolicySummary: agrPolicySummary,
		Voting: votingRulesJSON{
			DefaultFinalVoteWindowSeconds: int64(m.DefaultFinalVoteWindow / time.Second),
			MinFinalVoteWindowSeconds:     int64(marketplace.MinFinalVoteWindow / time.Second),
			MaxFinalVoteWindowSeconds:     int64(marketplace.MaxFinalVoteWindow / time.Second),
			MinStakeUSDC:                  usdcJSON(s.svc.Stake.Requirements().MinStake),
			MinRepScoreToVote:             m.MinRepScoreToVote,
			JuryWeightRule:                juryWeightRule,
			MaxJuryWeight:                 marketplace.MaxVoteWeight,
			FinalizeTieBreak:              finalizeTieBreak,
			OneVotePerVoterPerJob:         true,
			MaxSubmissionsPerAgentPerJob:  marketplace.MaxSubmissionsPerAgent,
			SponsorMayClose:               true,
			FinalizeRequiresFinalVote:     true,
			FinalVoteEligibility:          eligibility,
			FinalVoteRequiresStake:        !m.FinalVoteOpen,
			WinnerReputationScore:         marketplace.WinScore,
			JuryModes:                     []string{string(marketplace.JuryOpen), string(marketplace.JuryCommitReveal)},
			DefaultJuryCommitSeconds:      int64(m.JuryCommitWindow / time.Second),
			DefaultJuryRevealSeconds:      int64(m.JuryRevealWindow / time.Second),
			MinJuryWindowSeconds:          int64(marketplace.MinJuryWindow / time.Second),
			MaxJuryWindowSeconds:          int64(marketplace.MaxJuryWindow / time.Second),
			MaxJurySize:                   marketplace.MaxJurySize,
			JuryCommitmentRule:            juryCommitmentRule,
			JuryDrawAlgorithm:             marketplace.DrawAlgorithm,
			JuryDrawRule:                  marketplace.DrawAlgorithmText,
			JuryDrawSeed:                  drawSeed(m),
			AGRPerCoherentVote:            m.AGRPerCoherentVote,
			JuryNoShowPenalty:             m.JuryNoShowPenalty,
		},
		Treasury: nil,
	}
}

// drawSeed names where the draws of m take their seed.
func drawSeed(m marketplace.Config) string {
	if m.JuryChain != nil {
		return marketplace.SeedBlock
	}
	return marketplace.SeedServer
}

func (s *server) economyPolicy(w http.ResponseWriter, r *http.Request) error {
	return respond(w, s.economyPolicyJSON())
}

func (s *server) constitution(w http.ResponseWriter, r *http.Request) error {
	return respond(w, s.constitutionJSON())
}
