package stake

import (
	"context"
	"strings"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/internal/cursor"
	"github.com/openjury/openjury/internal/valid"
)

// List limits of the slashing events list.
const (
	DefaultListLimit = 50
	MaxListLimit     = 200
)

// DefaultSlashingPolicy describes slashing when the host sets none.
const DefaultSlashingPolicy = "Stake may be slashed for fraudulent submissions or collusive votes; " +
	"every slash is recorded and listed at /api/v1/slashing/events."

// Config holds the stake settings published as StakeRequirements.
type Config struct {
	MinStake       openjury.MicroUSDC
	Network        string
	ChainID        int64
	USDCAddress    openjury.Address
	OnchainEnabled bool
	StakeContract  openjury.Address
	SlashingPolicy string
}

// Service answers stake questions and records stakes and slashes.
type Service struct {
	store Store
	clock openjury.Clock
	cfg   Config
}

// NewService returns a Service over store.
func NewService(store Store, clock openjury.Clock, cfg Config) *Service {
	if cfg.SlashingPolicy == "" {
		cfg.SlashingPolicy = DefaultSlashingPolicy
	}
	return &Service{store: store, clock: clock, cfg: cfg}
}

// Requirements returns the published stake requirements.
func (s *Service) Requirements() Config { return s.cfg }

// Status is a stake with its eligibility.
type Status struct {
	Stake
	Eligible bool
}

// Status returns the stake of the address given as text.
// Errors: Invalid for a malformed address.
func (s *Service) Status(ctx context.Context, address string) (Status, error) {
	const op = "stake.Status"
	addr, err := openjury.ParseAddress("address", address)
	if err != nil {
		return Status{}, openjury.Wrap(op, err)
	}
	st, err := s.store.Stake(ctx, addr)
	if err != nil {
		return Status{}, openjury.Wrap(op, err)
	}
	return Status{Stake: st, Eligible: Eligible(st, s.cfg.MinStake)}, nil
}

// Check returns Forbidden "insufficient stake" unless addr is eligible,
// reading through store (a transaction's store inside a transaction).
func Check(ctx context.Context, store Store, addr openjury.Address, minStake openjury.MicroUSDC) error {
	st, err := store.Stake(ctx, addr)
	if err != nil {
		return err
	}
	return Require(st, minStake)
}

// Require is Check on a stake already read (as Store.Stake returns it: a
// zero Stake when none was recorded): Forbidden "insufficient stake"
// unless st is Eligible.
func Require(st Stake, minStake openjury.MicroUSDC) error {
	if !Eligible(st, minStake) {
		return openjury.E(openjury.Forbidden, "stake.Require", "insufficient stake")
	}
	return nil
}

// SetInput sets an address's stake (the dev endpoint).
type SetInput struct {
	Address openjury.Address
	Staked  openjury.MicroUSDC
	Ref     openjury.ChainRef
}

// ErrSyncedFromChain is the detail of the dev endpoints' Conflict while
// onchain stake is on: the stake-vault sync owns the stakes then.
const ErrSyncedFromChain = "stake is synced from chain"

// DevSet sets a stake directly. Errors: Conflict (ErrSyncedFromChain) when
// onchain stake is on, Invalid.
func (s *Service) DevSet(ctx context.Context, in SetInput) (Status, error) {
	const op = "stake.DevSet"
	if s.cfg.OnchainEnabled {
		return Status{}, openjury.E(openjury.Conflict, op, ErrSyncedFromChain)
	}
	if in.Address.IsZero() {
		return Status{}, openjury.E(openjury.Invalid, op, "address: is required")
	}
	if in.Staked < 0 {
		return Status{}, openjury.E(openjury.Invalid, op, "staked_amount: must be at least 0")
	}
	if err := ValidateRef(op, "stake_", in.Ref); err != nil {
		return Status{}, err
	}
	st := Stake{Address: in.Address, Staked: in.Staked, Ref: in.Ref, UpdatedAt: openjury.Truncate(s.clock.Now())}
	if err := s.store.PutStake(ctx, st); err != nil {
		return Status{}, openjury.Wrap(op, err)
	}
	return Status{Stake: st, Eligible: Eligible(st, s.cfg.MinStake)}, nil
}

// ValidateRef checks the numeric parts of an onchain reference: chain id
// positive, block number and log index not negative. prefix names the
// fields in errors ("stake_", "close_", "").
func ValidateRef(op, prefix string, r openjury.ChainRef) error {
	if r.ChainID != nil && *r.ChainID <= 0 {
		return openjury.Errorf(openjury.Invalid, op, "%schain_id: must be positive", prefix)
	}
	if r.BlockNumber != nil && *r.BlockNumber < 0 {
		return openjury.Errorf(openjury.Invalid, op, "%sblock_number: must be at least 0", prefix)
	}
	if r.LogIndex != nil && *r.LogIndex < 0 {
		return openjury.Errorf(openjury.Invalid, op, "%slog_index: must be at least 0", prefix)
	}
	return nil
}

// SlashInput records a slash (the dev endpoint).
type SlashInput struct {
	Agent     openjury.Address
	Amount    openjury.MicroUSDC
	Recipient openjury.Address
	JobID     string
	Ref       openjury.ChainRef
}

// DevRecordSlash stores a slash event and lowers the agent's offchain stake
// by its amount, not below zero. Errors: Invalid, Conflict for a repeated
// onchain reference, and Conflict (ErrSyncedFromChain) when onchain stake
// is on (slashes then come from the vault's Slashed events).
func (s *Service) DevRecordSlash(ctx context.Context, in SlashInput) (SlashEvent, error) {
	const op = "stake.DevRecordSlash"
	if s.cfg.OnchainEnabled {
		return SlashEvent{}, openjury.E(openjury.Conflict, op, ErrSyncedFromChain)
	}
	switch {
	case in.Agent.IsZero():
		return SlashEvent{}, openjury.E(openjury.Invalid, op, "agent_address: is required")
	case in.Amount <= 0:
		return SlashEvent{}, openjury.E(openjury.Invalid, op, "amount_usdc: must be greater than 0")
	case in.JobID != "" && !openjury.ValidID(in.JobID):
		return SlashEvent{}, openjury.E(openjury.Invalid, op, "job_id: must be an id")
	}
	if err := ValidateRef(op, "", in.Ref); err != nil {
		return SlashEvent{}, err
	}
	e := SlashEvent{
		ID: openjury.NewID(), Agent: in.Agent, Amount: in.Amount, Recipient: in.Recipient,
		JobID: in.JobID, Ref: in.Ref, CreatedAt: openjury.Truncate(s.clock.Now()),
	}
	if _, err := s.store.RecordSlash(ctx, e); err != nil {
		return SlashEvent{}, openjury.Wrap(op, err)
	}
	return e, nil
}

// ListInput selects slash events.
type ListInput struct {
	Address string
	JobID   string
	Limit   int
	Cursor  string
}

// Page is a page of slash events; NextCursor is "" on the last page.
type Page struct {
	Events     []SlashEvent
	NextCursor string
}

// Slashes lists slash events newest first. Errors: Invalid.
func (s *Service) Slashes(ctx context.Context, in ListInput) (Page, error) {
	const op = "stake.Slashes"
	f := SlashFilter{JobID: strings.TrimSpace(in.JobID)}
	if f.JobID != "" && !openjury.ValidID(f.JobID) {
		return Page{}, openjury.E(openjury.Invalid, op, "job_id: must be an id")
	}
	var err error
	if f.Limit, err = valid.Limit(op, in.Limit, DefaultListLimit, MaxListLimit); err != nil {
		return Page{}, err
	}
	if in.Address != "" { // never trimmed: " 0x..." is not an address
		if f.Agent, err = openjury.ParseAddress("address", in.Address); err != nil {
			return Page{}, openjury.Wrap(op, err)
		}
	}
	if f.After, err = cursor.After[Cursor](op, in.Cursor); err != nil {
		return Page{}, err
	}
	want := f.Limit
	f.Limit++
	events, err := s.store.Slashes(ctx, f)
	if err != nil {
		return Page{}, openjury.Wrap(op, err)
	}
	var p Page
	p.Events, p.NextCursor = cursor.Cut(events, want, func(last SlashEvent) string {
		return cursor.EncodeTimeID(last.CreatedAt, last.ID)
	})
	return p, nil
}
