package stake

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"time"

	"github.com/openjury/openjury"
)

// EventKind names a stake-vault event (docs/onchain.md#contracts).
type EventKind string

// The stake-vault events the sync follows.
const (
	EventDeposited EventKind = "Deposited"
	EventWithdrawn EventKind = "Withdrawn"
	EventSlashed   EventKind = "Slashed"
)

// VaultEvent is one decoded stake-vault log.
type VaultEvent struct {
	Kind EventKind
	// Agent is the agent whose stake moved.
	Agent openjury.Address
	// Payer is the depositor of a Deposited event.
	Payer openjury.Address
	// Recipient receives a Slashed event's tokens.
	Recipient openjury.Address
	// Amount is the amount of a Deposited or Withdrawn event and the
	// actualAmount of a Slashed event, in micro-USDC (token base units).
	Amount openjury.MicroUSDC
	// Requested is the requestedAmount of a Slashed event.
	Requested openjury.MicroUSDC
	// TxHash, Contract, Block and LogIndex place the log onchain; LogIndex
	// is the block-level index of JSON-RPC's logIndex.
	TxHash   openjury.Hash
	Contract openjury.Address
	Block    int64
	LogIndex int64
}

// Vault reads a stake vault onchain (implemented by ethchain.Client and by
// openjurytest's fake chain). Every method returns Unavailable when the
// chain cannot be asked.
type Vault interface {
	// Head returns the number of the newest block.
	Head(ctx context.Context) (int64, error)
	// VaultEvents returns the vault's Deposited, Withdrawn and Slashed
	// events in blocks from..to (both included), in any order.
	VaultEvents(ctx context.Context, from, to int64) ([]VaultEvent, error)
	// StakeOf returns stakeOf(agent) at the end of block.
	StakeOf(ctx context.Context, agent openjury.Address, block int64) (openjury.MicroUSDC, error)
}

// SyncBatch is what one scan writes, in one transaction.
type SyncBatch struct {
	// Lease and Owner name the lease the writer must still hold at Now.
	Lease string
	Owner string
	Now   time.Time
	// Cursor names the cursor; From is the value it must still have (the
	// first block scanned) and Next the value it gets (the first block of
	// the next scan).
	Cursor string
	From   int64
	Next   int64
	// Stakes are the agents' stakes after the scanned events, each with
	// the reference of its event.
	Stakes []Stake
	// Slashes are the scanned Slashed events.
	Slashes []SlashEvent
}

// SyncStore keeps the sync's lease and cursor and writes its batches.
type SyncStore interface {
	// AcquireLease takes the named lease for owner until until, or renews
	// it when owner holds it already. It returns whether owner holds the
	// lease after the call: false while another owner's lease is
	// unexpired at now.
	AcquireLease(ctx context.Context, name, owner string, now, until time.Time) (bool, error)
	// ReleaseLease ends owner's lease; it does nothing when owner does not
	// hold it.
	ReleaseLease(ctx context.Context, name, owner string) error
	// SyncCursor returns the next block of the named cursor and whether
	// one is stored.
	SyncCursor(ctx context.Context, name string) (int64, bool, error)
	// ApplySync writes b in one transaction: it checks that b.Owner holds
	// b.Lease unexpired at b.Now and that the cursor is still at b.From
	// (an absent cursor counts as b.From), writes b.Stakes (a stake whose
	// stored onchain reference is at the same or a later (block, log
	// index) position of the same chain is kept), inserts b.Slashes
	// (skipping events whose (chain id, tx hash, log index) is stored
	// already), appending the ChangedEvent of each stake and the
	// SlashedEvent of each slash it writes, and sets the cursor to b.Next. Errors: Conflict when the
	// lease or the cursor moved, nothing written then.
	ApplySync(ctx context.Context, b SyncBatch) error
}

// Follower is another contract the sync follows under its lease, over the
// same confirmed blocks, with a cursor of its own (so a contract added
// later is read from SyncConfig.StartBlock, not from where the vault's
// cursor is): the bounty escrow's events (marketplace.EscrowSyncer).
type Follower interface {
	// Cursor names the follower's cursor.
	Cursor() string
	// Follow reads the follower's events of blocks r.From..r.To and
	// writes them in one transaction that checks that r.Owner holds
	// r.Lease unexpired at r.Now and moves the cursor from r.From to
	// r.To+1 (SyncStore.ApplySync's rules). It returns how many events it
	// wrote. Errors: Unavailable, Conflict.
	Follow(ctx context.Context, r FollowRange) (int, error)
}

// FollowRange is one scan of a Follower.
type FollowRange struct {
	Lease, Owner string
	Now          time.Time
	From, To     int64
}

// DefaultMaxRange is the default number of blocks one scan covers.
const DefaultMaxRange = 2000

// SyncConfig configures a Syncer.
type SyncConfig struct {
	// ChainID and Contract name the chain and the stake vault.
	ChainID  int64
	Contract openjury.Address
	// Confirmations is how many blocks must follow an event's block
	// before it is synced: the event of block b is synced once
	// head >= b + Confirmations.
	Confirmations int64
	// StartBlock is the first block scanned when no cursor is stored.
	StartBlock int64
	// MaxRange bounds the blocks of one scan (default DefaultMaxRange).
	MaxRange int64
	// Owner identifies this worker in the lease (unique per process).
	Owner string
	// LeaseTTL is how long a lease lasts without renewal.
	LeaseTTL time.Duration
	// Followers are the other contracts the sync follows under its lease
	// (each Step scans each one's next confirmed blocks after the vault's).
	Followers []Follower
}

// Syncer copies stake-vault events into the stake store: one scan per
// Step, by whichever worker holds the lease.
type Syncer struct {
	vault Vault
	store SyncStore
	clock openjury.Clock
	cfg   SyncConfig
}

// NewSyncer returns a Syncer. A zero MaxRange becomes DefaultMaxRange.
func NewSyncer(vault Vault, store SyncStore, clock openjury.Clock, cfg SyncConfig) *Syncer {
	if cfg.MaxRange <= 0 {
		cfg.MaxRange = DefaultMaxRange
	}
	return &Syncer{vault: vault, store: store, clock: clock, cfg: cfg}
}

// Name is the lease and cursor name of this vault: one per chain and
// contract.
func (s *Syncer) Name() string {
	return "stake-vault:" + strconv.FormatInt(s.cfg.ChainID, 10) + ":" + string(s.cfg.Contract)
}

// StepResult reports one Step.
type StepResult struct {
	// Leader is whether this worker held the lease; nothing else is set
	// when it did not.
	Leader bool
	// Head is the chain's newest block; Next the first block the next
	// scan starts at.
	Head int64
	Next int64
	// Events is how many events the scan wrote.
	Events int
	// CaughtUp is whether every confirmed block is synced.
	CaughtUp bool
}

// Lag is how many blocks the sync is behind the head: head - (next - 1),
// never below zero.
func (r StepResult) Lag() int64 { return max(0, r.Head-(r.Next-1)) }

// Step takes or renews the lease and, when it holds it, scans the next
// confirmed blocks (at most MaxRange) and writes their events, the stakes
// read at each event's block and the cursor in one transaction; then does
// the same for each follower from its own cursor. The chain is only asked
// outside the transactions. Errors: Unavailable when the chain cannot be
// asked; Conflict when the lease or a cursor moved during the scan
// (another worker took over).
func (s *Syncer) Step(ctx context.Context) (StepResult, error) {
	const op = "stake.Sync"
	name := s.Name()
	now := openjury.Truncate(s.clock.Now())
	held, err := s.store.AcquireLease(ctx, name, s.cfg.Owner, now, now.Add(s.cfg.LeaseTTL))
	if err != nil || !held {
		return StepResult{}, openjury.Wrap(op, err)
	}
	res := StepResult{Leader: true, CaughtUp: true}
	if res.Head, err = s.vault.Head(ctx); err != nil {
		return res, openjury.Wrap(op, err)
	}
	safe := res.Head - s.cfg.Confirmations
	next, to, err := s.window(ctx, name, safe)
	if err != nil {
		return res, openjury.Wrap(op, err)
	}
	res.Next = next
	if to >= next {
		events, err := s.vault.VaultEvents(ctx, next, to)
		if err != nil {
			return res, openjury.Wrap(op, err)
		}
		batch, err := s.batch(ctx, events, now)
		if err != nil {
			return res, openjury.Wrap(op, err)
		}
		batch.Lease, batch.Owner, batch.Cursor = name, s.cfg.Owner, name
		batch.From, batch.Next = next, to+1
		if err := s.store.ApplySync(ctx, batch); err != nil {
			return res, openjury.Wrap(op, err)
		}
		res.Next, res.Events, res.CaughtUp = to+1, len(events), to == safe
	}
	for _, f := range s.cfg.Followers {
		from, to, err := s.window(ctx, f.Cursor(), safe)
		if err != nil {
			return res, openjury.Wrap(op, err)
		}
		if to < from {
			continue
		}
		n, err := f.Follow(ctx, FollowRange{Lease: name, Owner: s.cfg.Owner, Now: now, From: from, To: to})
		if err != nil {
			return res, openjury.Wrap(op, err)
		}
		res.Events += n
		res.CaughtUp = res.CaughtUp && to == safe
	}
	return res, nil
}

// window returns the next blocks the named cursor scans: from its stored
// value (or StartBlock) to at most MaxRange blocks on, not past safe (to
// < from: nothing confirmed to scan).
func (s *Syncer) window(ctx context.Context, cursor string, safe int64) (from, to int64, err error) {
	from, found, err := s.store.SyncCursor(ctx, cursor)
	if err != nil {
		return 0, 0, err
	}
	if !found {
		from = s.cfg.StartBlock
	}
	return from, min(safe, from+s.cfg.MaxRange-1), nil
}

// Follow adds a follower (a contract the sync follows under its lease),
// before the first Step.
func (s *Syncer) Follow(f Follower) { s.cfg.Followers = append(s.cfg.Followers, f) }

// Release gives the lease up (on shutdown), so another worker takes over
// without waiting for it to expire.
func (s *Syncer) Release(ctx context.Context) error {
	return openjury.Wrap("stake.SyncRelease", s.store.ReleaseLease(ctx, s.Name(), s.cfg.Owner))
}

// batch orders events by (block, log index) and turns them into stake rows
// (the last event of each agent, with stakeOf at that event's block) and
// slash events.
func (s *Syncer) batch(ctx context.Context, events []VaultEvent, now time.Time) (SyncBatch, error) {
	slices.SortStableFunc(events, func(a, b VaultEvent) int {
		return cmp.Or(cmp.Compare(a.Block, b.Block), cmp.Compare(a.LogIndex, b.LogIndex))
	})
	var b SyncBatch
	last := map[openjury.Address]int{} // agent -> index in b.Stakes
	type at struct {
		agent openjury.Address
		block int64
	}
	read := map[at]openjury.MicroUSDC{}
	for _, ev := range events {
		ref := s.ref(ev)
		if ev.Kind == EventSlashed {
			b.Slashes = append(b.Slashes, SlashEvent{
				ID: openjury.NewID(), Agent: ev.Agent, Amount: ev.Amount, Recipient: ev.Recipient,
				Ref: ref, CreatedAt: now,
			})
		}
		k := at{ev.Agent, ev.Block}
		staked, ok := read[k]
		if !ok {
			var err error
			if staked, err = s.vault.StakeOf(ctx, ev.Agent, ev.Block); err != nil {
				return SyncBatch{}, err
			}
			read[k] = staked
		}
		st := Stake{Address: ev.Agent, Staked: staked, Ref: ref, UpdatedAt: now}
		if i, ok := last[ev.Agent]; ok {
			b.Stakes[i] = st
		} else {
			last[ev.Agent] = len(b.Stakes)
			b.Stakes = append(b.Stakes, st)
		}
	}
	return b, nil
}

// ref is the onchain reference of ev on the configured chain.
func (s *Syncer) ref(ev VaultEvent) openjury.ChainRef {
	chainID, block, index := s.cfg.ChainID, ev.Block, ev.LogIndex
	contract := ev.Contract
	if contract.IsZero() {
		contract = s.cfg.Contract
	}
	return openjury.ChainRef{TxHash: ev.TxHash, ChainID: &chainID, Contract: contract, BlockNumber: &block, LogIndex: &index}
}
