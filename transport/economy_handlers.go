package transport

import (
	"fmt"
	"net/http"
	"time"

	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/wire"
)

// ConstitutionVersion is the version of the published constitution, the
// service documentation's label.
const ConstitutionVersion = "1.7"

// The sentences of the constitution.
const (
	// escrowPrincipleOff is what the service does without an escrow.
	escrowPrincipleOff = "This service follows no escrow contract: a job's bounty_usdc is its sponsor's promise, " +
		"not money the service holds or pays. The platform never takes custody of funds and sponsors no " +
		"transactions; usdc_split is the split a funded job would pay."
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

// escrowPrinciple is the constitution's escrow_principle: what the
// service really does with bounties.
func escrowPrinciple(m marketplace.Config) string {
	e := m.Escrow
	if !e.Enabled() {
		return escrowPrincipleOff
	}
	pct := func(f float64) string { return percent(f) + "%" }
	return fmt.Sprintf("A job's bounty is held in USDC by the BountyEscrow contract %s on chain %d, never by the platform: "+
		"the sponsor funds their own slot of the job (job key = keccak256(job_id)); the verdict (the sponsor's close or "+
		"the final decision votes) fixes the payouts in the job's public snapshot - %s to the winner's agent, %s to "+
		"the jurors who voted for the winning submission by weight, %s platform fee to the treasury %s, exact in "+
		"micro-USDC with every remainder to the winner; an operator key posts the snapshot's Merkle root on chain "+
		"and can move no money; each recipient claims with a Merkle proof and pays their own gas; the sponsor takes "+
		"back funding beyond the settled total, or everything if the job is not settled by the refund time. "+
		"Anyone can recompute the root from the snapshot and compare it with the one on chain. A job without "+
		"escrow funding pays nothing: its bounty_usdc is the sponsor's promise.",
		e.Contract, e.ChainID, pct(m.Economy.AgentPayoutPct), pct(m.Economy.JuryPoolPct), pct(m.Economy.PlatformFeePct), e.Treasury)
}

// juryCommitmentRule is how a juror computes a commitment.
const juryCommitmentRule = "keccak256(abi.encode(bytes32 keccak256(job_id), bytes32 keccak256(submission_id), address voter, bytes32 salt))"

func (s *server) economyPolicyJSON() wire.EconomyPolicy {
	st := s.svc.Stake.Requirements()
	m := s.svc.Market.Config()
	return wire.EconomyPolicy{
		SettlementNetwork:  st.Network,
		SettlementChainID:  st.ChainID,
		SettlementAsset:    settlementAsset,
		USDCAddress:        st.USDCAddress.String(),
		AGRTokenAddress:    s.opts.AGRTokenAddress.String(),
		AgentPayoutUSDCPct: m.Economy.AgentPayoutPct,
		PlatformFeeUSDCPct: m.Economy.PlatformFeePct,
		JuryPoolUSDCPct:    m.Economy.JuryPoolPct,
		AGRMintPerWin:      m.AGRMintPerWin,

		EscrowContractAddress: optAddress(m.Escrow.Contract),
		TreasuryAddress:       optAddress(m.Escrow.Treasury),
	}
}

func (s *server) constitutionJSON() wire.Constitution {
	m := s.svc.Market.Config()
	eligibility := finalVoteByStake
	if m.FinalVoteOpen {
		eligibility = finalVoteOpen
	}
	return wire.Constitution{
		Version:         ConstitutionVersion,
		EscrowPrinciple: escrowPrinciple(m),
		USDCSplit: wire.USDCSplit{
			AgentPayout: m.Economy.AgentPayoutPct,
			PlatformFee: m.Economy.PlatformFeePct,
			JuryPool:    m.Economy.JuryPoolPct,
		},
		AGRPolicySummary: agrPolicySummary,
		Voting: wire.VotingRules{
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
		Treasury: s.treasuryJSON(),
	}
}

// treasuryJSON is the constitution's treasury: the fee's recipient, null
// when none is configured.
func (s *server) treasuryJSON() *wire.TreasuryInfo {
	m := s.svc.Market.Config()
	if m.Escrow.Treasury.IsZero() {
		return nil
	}
	st := s.svc.Stake.Requirements()
	note := "Receives the platform fee of funded jobs; it claims its payout from the escrow like any recipient."
	return &wire.TreasuryInfo{Network: st.Network, ChainID: st.ChainID, ContractAddress: m.Escrow.Treasury.String(),
		USDCAddress: st.USDCAddress.String(), Note: &note}
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
