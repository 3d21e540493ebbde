package agr

import (
	"context"
	"time"

	"github.com/openjury/openjury"
)

// Reason says why credits moved.
type Reason string

// Ledger reasons.
const (
	ReasonWin     Reason = "win"
	ReasonBoost   Reason = "boost"
	ReasonDevMint Reason = "dev_mint"
	// ReasonJury credits a coherent juror at the close of a job with jury
	// settings (docs/rules.md, "Jury integrity"), at most once per job and
	// address.
	ReasonJury Reason = "jury"
)

// Status is an address's AGR account.
type Status struct {
	Address openjury.Address
	Balance int64
	Earned  int64
	Spent   int64
}

// Entry is one ledger line: a positive Delta is a credit, a negative one a
// debit.
type Entry struct {
	ID        string
	Address   openjury.Address
	Delta     int64
	Reason    Reason
	JobID     string
	CreatedAt time.Time
}

// Cursor is a position in a newest-first ledger.
type Cursor struct {
	At time.Time
	ID string
}

// Store keeps balances and the ledger. Each method is atomic on its own,
// and joins the caller's transaction when it is a store of a transaction.
type Store interface {
	// Status returns the account of addr, all zeros when it has none. It
	// writes nothing.
	Status(ctx context.Context, addr openjury.Address) (Status, error)
	// Apply appends e and moves the balance by e.Delta atomically: a credit
	// adds to balance and earned, a debit subtracts from balance and adds
	// to spent. Errors: PaymentRequired ("insufficient AGR balance") when a
	// debit is larger than the balance, nothing written; Conflict when e is
	// a ReasonWin entry for a job that already has one.
	Apply(ctx context.Context, e Entry) (Status, error)
	// Ledger returns up to limit entries of addr, newest first (created_at,
	// then id, descending), after the cursor when it is not nil.
	Ledger(ctx context.Context, addr openjury.Address, limit int, after *Cursor) ([]Entry, error)
}
