package agr

import (
	"context"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/internal/cursor"
	"github.com/openjury/openjury/internal/valid"
)

// Limits of the AGR operations.
const (
	DefaultLedgerLimit = 50
	MaxLedgerLimit     = 200
	// MaxDevMint bounds one dev mint.
	MaxDevMint = 1_000_000_000
)

// Service reads AGR accounts and mints dev credits.
type Service struct {
	store Store
	clock openjury.Clock
}

// NewService returns a Service over store.
func NewService(store Store, clock openjury.Clock) *Service {
	return &Service{store: store, clock: clock}
}

// Status returns the account of the address given as text.
// Errors: Invalid.
func (s *Service) Status(ctx context.Context, address string) (Status, error) {
	const op = "agr.Status"
	addr, err := openjury.ParseAddress("address", address)
	if err != nil {
		return Status{}, openjury.Wrap(op, err)
	}
	st, err := s.store.Status(ctx, addr)
	st.Address = addr
	return st, openjury.Wrap(op, err)
}

// LedgerInput selects a page of an address's ledger.
type LedgerInput struct {
	Address string
	Limit   int
	Cursor  string
}

// LedgerPage is a page of ledger entries, newest first.
type LedgerPage struct {
	Address    openjury.Address
	Entries    []Entry
	NextCursor string
}

// Ledger lists an address's ledger newest first. Errors: Invalid.
func (s *Service) Ledger(ctx context.Context, in LedgerInput) (LedgerPage, error) {
	const op = "agr.Ledger"
	addr, err := openjury.ParseAddress("address", in.Address)
	if err != nil {
		return LedgerPage{}, openjury.Wrap(op, err)
	}
	limit, err := valid.Limit(op, in.Limit, DefaultLedgerLimit, MaxLedgerLimit)
	if err != nil {
		return LedgerPage{}, err
	}
	after, err := cursor.After[Cursor](op, in.Cursor)
	if err != nil {
		return LedgerPage{}, err
	}
	entries, err := s.store.Ledger(ctx, addr, limit+1, after)
	if err != nil {
		return LedgerPage{}, openjury.Wrap(op, err)
	}
	p := LedgerPage{Address: addr}
	p.Entries, p.NextCursor = cursor.Cut(entries, limit, func(last Entry) string {
		return cursor.EncodeTimeID(last.CreatedAt, last.ID)
	})
	return p, nil
}

// DevMint credits amount to an address (the dev endpoint).
// Errors: Invalid.
func (s *Service) DevMint(ctx context.Context, addr openjury.Address, amount int64) (Status, error) {
	const op = "agr.DevMint"
	if addr.IsZero() {
		return Status{}, openjury.E(openjury.Invalid, op, "address: is required")
	}
	if amount < 1 || amount > MaxDevMint {
		return Status{}, openjury.Errorf(openjury.Invalid, op, "amount: must be between 1 and %d", MaxDevMint)
	}
	st, err := Credit(ctx, s.store, addr, amount, ReasonDevMint, "", openjury.Truncate(s.clock.Now()))
	return st, openjury.Wrap(op, err)
}

// Credit adds amount (> 0) to addr's balance with a ledger entry, through
// store (a transaction's store to join a transaction). Errors: Conflict for
// a second win of a job.
func Credit(ctx context.Context, store Store, addr openjury.Address, amount int64, reason Reason, jobID string, now time.Time) (Status, error) {
	return store.Apply(ctx, Entry{ID: openjury.NewID(), Address: addr, Delta: amount, Reason: reason, JobID: jobID, CreatedAt: now})
}

// Debit takes amount (> 0) from addr's balance with a ledger entry.
// Errors: PaymentRequired "insufficient AGR balance".
func Debit(ctx context.Context, store Store, addr openjury.Address, amount int64, reason Reason, jobID string, now time.Time) (Status, error) {
	return store.Apply(ctx, Entry{ID: openjury.NewID(), Address: addr, Delta: -amount, Reason: reason, JobID: jobID, CreatedAt: now})
}
