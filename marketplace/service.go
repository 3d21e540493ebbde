package marketplace

import (
	"io"
	"slices"
	"time"

	"github.com/openjury/openjury"
)

// Config holds the marketplace settings.
type Config struct {
	// DefaultFinalVoteWindow is the final-vote window of a job created
	// without final_vote_window_seconds.
	DefaultFinalVoteWindow time.Duration
	// MinStake is the stake needed to submit, to cast jury votes and,
	// unless FinalVoteOpen, to cast final votes.
	MinStake openjury.MicroUSDC
	// MinRepScoreToVote is the reputation score needed to cast jury votes.
	MinRepScoreToVote int64
	// FinalVoteOpen lets any signed-in address cast final votes
	// (SERVICE_FINAL_VOTE_OPEN=1). False, the default, asks a final voter
	// for the stake a submission needs (MinStake): without it, a handful
	// of fresh wallets could decide any job (docs/rules.md#final-votes).
	FinalVoteOpen bool
	// AGRMintPerWin is credited to the winner of a job (0: none).
	AGRMintPerWin int64
	// Economy is the published USDC split.
	Economy Economy
	// Escrow is the bounty escrow the service follows (zero: none).
	Escrow EscrowConfig
	// Operators may delete any comment.
	Operators []openjury.Address
	// BaseURL is the public base URL of the service; a job's anchor_uri
	// is {BaseURL}/api/v1/jobs/{job_id}/anchor/snapshot.
	BaseURL string
	// SaltSource gives the 32 random bytes of each snapshot's salt; nil
	// means crypto/rand. Tests may fix it.
	SaltSource io.Reader
	// JuryCommitWindow and JuryRevealWindow are the windows of a
	// commit-reveal job created without them (0: DefaultJuryCommitWindow,
	// DefaultJuryRevealWindow).
	JuryCommitWindow time.Duration
	JuryRevealWindow time.Duration
	// AGRPerCoherentVote is credited, at the close of an unfunded job with
	// jury settings (Job.HasJury), to each juror whose counted vote is for
	// the winner (0: none).
	AGRPerCoherentVote int64
	// JuryNoShowPenalty is taken from the reputation score (not below 0)
	// of each drawn juror without a counted vote at a close after the
	// jury's window (0: none).
	JuryNoShowPenalty int64
	// JuryChain, when set, seeds draws with a block hash (the block
	// JurySeedBlockOffset after the head at creation, once
	// JuryConfirmations more blocks follow it); nil: the server's random
	// seed, published with the panel.
	JuryChain         JuryChain
	JuryConfirmations int64
	// JurySeedSource gives the 32 bytes of server seeds; nil means
	// crypto/rand. Tests may fix it.
	JurySeedSource io.Reader
}

// Economy is the published split of a bounty, as fractions of 1, and the
// same in parts per million, which the payouts of a funded close use
// (docs/rules.md#escrow-and-payouts). NewService converts the fractions
// once, to the nearest part per million, when the PPM fields are zero.
type Economy struct {
	AgentPayoutPct float64
	PlatformFeePct float64
	JuryPoolPct    float64

	AgentPayoutPPM int64
	PlatformFeePPM int64
	JuryPoolPPM    int64
}

// DefaultEconomy is the split used when Config.Economy is zero.
var DefaultEconomy = Economy{AgentPayoutPct: 0.85, PlatformFeePct: 0.05, JuryPoolPct: 0.10}

// Service carries out the marketplace operations.
type Service struct {
	db    DB
	clock openjury.Clock
	cfg   Config
}

// NewService returns a Service over db. A zero DefaultFinalVoteWindow
// becomes 24 hours.
func NewService(db DB, clock openjury.Clock, cfg Config) *Service {
	if cfg.DefaultFinalVoteWindow <= 0 {
		cfg.DefaultFinalVoteWindow = DefaultFinalVoteWindow
	}
	if cfg.JuryCommitWindow <= 0 {
		cfg.JuryCommitWindow = DefaultJuryCommitWindow
	}
	if cfg.JuryRevealWindow <= 0 {
		cfg.JuryRevealWindow = DefaultJuryRevealWindow
	}
	if cfg.Economy == (Economy{}) {
		cfg.Economy = DefaultEconomy
	}
	if e := &cfg.Economy; e.AgentPayoutPPM == 0 && e.PlatformFeePPM == 0 && e.JuryPoolPPM == 0 {
		e.AgentPayoutPPM, e.PlatformFeePPM, e.JuryPoolPPM = ToPPM(e.AgentPayoutPct), ToPPM(e.PlatformFeePct), ToPPM(e.JuryPoolPct)
	}
	cfg.Operators = slices.Clone(cfg.Operators)
	return &Service{db: db, clock: clock, cfg: cfg}
}

// Config returns the service's settings.
func (s *Service) Config() Config {
	c := s.cfg
	c.Operators = slices.Clone(c.Operators)
	return c
}
