package marketplace

import (
	"context"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/internal/cursor"
	"github.com/openjury/openjury/internal/valid"
)

// Reputation is an address's record.
type Reputation struct {
	Address openjury.Address
	Score   int64
	Wins    int64
	Losses  int64
	// Submissions counts jobs with at least one accepted submission.
	Submissions int64
	// JuryVotes counts jobs the address cast a jury vote on.
	JuryVotes int64
	UpdatedAt time.Time
}

// ReputationDelta is an increment of a Reputation.
type ReputationDelta struct {
	Score, Wins, Losses, Submissions, JuryVotes int64
}

// ReputationChange is a delta for one address, an element of
// ReputationStore.AddReputations.
type ReputationChange struct {
	Address openjury.Address
	Delta   ReputationDelta
}

// LeaderCursor is a position in the leaderboard (score descending, then
// address ascending).
type LeaderCursor struct {
	Score   int64
	Address openjury.Address
}

// ReputationStore keeps reputation records.
type ReputationStore interface {
	// Reputation returns the record of addr, zeros when it has none. It
	// writes nothing.
	Reputation(ctx context.Context, addr openjury.Address) (Reputation, error)
	// AddReputation adds d to the record of addr (created when missing) and
	// sets its UpdatedAt to now.
	AddReputation(ctx context.Context, addr openjury.Address, d ReputationDelta, now time.Time) error
	// AddReputations adds each change's delta to its address's record
	// (created when missing) in one statement, locking the rows in address
	// order (so concurrent batches sharing addresses cannot deadlock), and
	// sets their UpdatedAt to now. The addresses must be distinct.
	AddReputations(ctx context.Context, changes []ReputationChange, now time.Time) error
	// AddJobOutcome adds win to the reputation of winner and loss to that
	// of every other distinct agent with a submission to the job, in one
	// statement that reads the agents from the submissions (never into
	// memory) and locks their rows in address order like
	// AddReputations; UpdatedAt becomes now.
	AddJobOutcome(ctx context.Context, jobID string, winner openjury.Address, win, loss ReputationDelta, now time.Time) error
	// SetScore sets the score of addr (created when missing).
	SetScore(ctx context.Context, addr openjury.Address, score int64, now time.Time) error
	// Leaderboard lists up to limit records by score desc, then address
	// asc, after the cursor when it is not nil.
	Leaderboard(ctx context.Context, limit int, after *LeaderCursor) ([]Reputation, error)
}

// Badges an address can earn, derived from its record.
const (
	BadgeFirstSubmission = "first_submission"
	BadgeFirstWin        = "first_win"
	BadgeTenWins         = "ten_wins"
	BadgeJuror           = "juror"
)

// Leaderboard and dev limits.
const (
	DefaultLeaderboardLimit = 50
	MaxLeaderboardLimit     = 200
	MaxDevScore             = 1_000_000_000
)

// Level is floor(score/100) + 1 (at least 1).
func Level(score int64) int64 {
	if score < 0 {
		return 1
	}
	return score/100 + 1
}

// Badges derives the badges of a record, in a fixed order.
func Badges(r Reputation) []string {
	out := []string{}
	if r.Submissions >= 1 {
		out = append(out, BadgeFirstSubmission)
	}
	if r.Wins >= 1 {
		out = append(out, BadgeFirstWin)
	}
	if r.Wins >= 10 {
		out = append(out, BadgeTenWins)
	}
	if r.JuryVotes >= 1 {
		out = append(out, BadgeJuror)
	}
	return out
}

// Reputation returns the record of the address given as text; an unknown
// address has a zero record (and nothing is written). Errors: Invalid.
func (s *Service) Reputation(ctx context.Context, address string) (Reputation, error) {
	const op = "marketplace.Reputation"
	addr, err := openjury.ParseAddress("address", address)
	if err != nil {
		return Reputation{}, openjury.Wrap(op, err)
	}
	r, err := s.db.Reputation().Reputation(ctx, addr)
	r.Address = addr
	return r, openjury.Wrap(op, err)
}

// DevSetReputation sets an address's score (the dev endpoint).
// Errors: Invalid.
func (s *Service) DevSetReputation(ctx context.Context, addr openjury.Address, score int64) (Reputation, error) {
	const op = "marketplace.DevSetReputation"
	if addr.IsZero() {
		return Reputation{}, openjury.E(openjury.Invalid, op, "address: is required")
	}
	if score < 0 || score > MaxDevScore {
		return Reputation{}, openjury.Errorf(openjury.Invalid, op, "score: must be between 0 and %d", MaxDevScore)
	}
	var r Reputation
	err := s.db.InTx(ctx, func(ctx context.Context, tx Tx) error {
		if err := tx.Reputation().SetScore(ctx, addr, score, openjury.Truncate(s.clock.Now())); err != nil {
			return err
		}
		var err error
		r, err = tx.Reputation().Reputation(ctx, addr)
		return err
	})
	return r, openjury.Wrap(op, err)
}

// LeaderboardInput selects a page of the leaderboard.
type LeaderboardInput struct {
	Limit  int
	Cursor string
}

// LeaderboardPage is a page of the leaderboard.
type LeaderboardPage struct {
	Entries    []Reputation
	NextCursor string
}

type leaderCursorJSON struct {
	Score   int64  `json:"s"`
	Address string `json:"a"`
}

// Leaderboard lists records by score desc, then address. Errors: Invalid.
func (s *Service) Leaderboard(ctx context.Context, in LeaderboardInput) (LeaderboardPage, error) {
	const op = "marketplace.Leaderboard"
	limit, err := valid.Limit(op, in.Limit, DefaultLeaderboardLimit, MaxLeaderboardLimit)
	if err != nil {
		return LeaderboardPage{}, err
	}
	var after *LeaderCursor
	if in.Cursor != "" {
		var c leaderCursorJSON
		if err := cursor.Decode(op, in.Cursor, &c); err != nil {
			return LeaderboardPage{}, err
		}
		addr, err := openjury.ParseAddress("cursor", c.Address)
		if err != nil {
			return LeaderboardPage{}, openjury.E(openjury.Invalid, op, cursor.Invalid)
		}
		after = &LeaderCursor{Score: c.Score, Address: addr}
	}
	rows, err := s.db.Reputation().Leaderboard(ctx, limit+1, after)
	if err != nil {
		return LeaderboardPage{}, openjury.Wrap(op, err)
	}
	var p LeaderboardPage
	p.Entries, p.NextCursor = cursor.Cut(rows, limit, func(last Reputation) string {
		return cursor.Encode(leaderCursorJSON{Score: last.Score, Address: last.Address.String()})
	})
	return p, nil
}
