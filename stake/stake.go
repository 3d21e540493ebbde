package stake

import (
	"context"
	"time"

	"github.com/openjury/openjury"
)

// Stake is an address's current stake.
type Stake struct {
	Address openjury.Address
	Staked  openjury.MicroUSDC
	// Ref anchors the last stake update onchain (stake_* fields).
	Ref       openjury.ChainRef
	UpdatedAt time.Time
}

// Eligible reports whether a stake meets the minimum: the one rule used by
// submissions and jury votes alike.
func Eligible(s Stake, minStake openjury.MicroUSDC) bool {
	return s.Staked >= minStake
}

// SlashEvent records a slash of an agent's stake.
type SlashEvent struct {
	ID        string
	Agent     openjury.Address
	Amount    openjury.MicroUSDC
	Recipient openjury.Address
	JobID     string
	// Ref is the onchain record of the slash, when there is one.
	Ref       openjury.ChainRef
	CreatedAt time.Time
}

// SlashFilter selects slash events, newest first.
type SlashFilter struct {
	// Agent keeps events of this agent when not zero.
	Agent openjury.Address
	// JobID keeps events of this job when not empty.
	JobID string
	// Limit is the page size.
	Limit int
	// After starts the page after this position (created_at, id; both
	// descending).
	After *Cursor
}

// Cursor is a position in a newest-first list.
type Cursor struct {
	At time.Time
	ID string
}

// Store keeps stakes and slash events. Each method is atomic on its own,
// and joins the caller's transaction when it is a store of a transaction.
type Store interface {
	// Stake returns the stake of addr: a zero Stake (with Address set) when
	// none was ever recorded. It writes nothing.
	Stake(ctx context.Context, addr openjury.Address) (Stake, error)
	// PutStake inserts or replaces the stake of s.Address and appends its
	// ChangedEvent to the event log, atomically.
	PutStake(ctx context.Context, s Stake) error
	// RecordSlash stores e and lowers the agent's stake by e.Amount, not
	// below zero, and appends e's SlashedEvent and the stake's
	// ChangedEvent (when the agent has a stake), atomically, and returns
	// the stake after. Errors: Conflict when an event with the same
	// onchain reference (chain id, tx hash, log index) exists already.
	RecordSlash(ctx context.Context, e SlashEvent) (Stake, error)
	// Slashes lists events newest first (created_at, then id, descending).
	Slashes(ctx context.Context, f SlashFilter) ([]SlashEvent, error)
}
