package marketplace

import (
	"cmp"
	"context"
	"math/big"
	"math/bits"
	"slices"
	"strconv"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/internal/cursor"
	"github.com/openjury/openjury/internal/valid"
	"github.com/openjury/openjury/stake"
)

// The bounty escrow (docs/rules.md#escrow-and-payouts): a sponsor funds
// their slot (job key, sponsor) of the BountyEscrow contract; the stake
// sync follows the contract's events into the job's escrow state; a
// funded job's close adds its payouts to the snapshot, whose root the
// operator settles on chain; each recipient then claims with a proof.

// EscrowStatus is the state of the escrow slot of a job's sponsor.
type EscrowStatus string

// Escrow states.
const (
	EscrowUnfunded EscrowStatus = "unfunded"
	EscrowFunded   EscrowStatus = "funded"
	EscrowSettled  EscrowStatus = "settled"
	EscrowRefunded EscrowStatus = "refunded"
)

// JobEscrow is the escrow state of a job: what the confirmed events of its
// sponsor's slot say.
type JobEscrow struct {
	Status EscrowStatus
	// Amount is the slot's confirmed funded total (refunds and claims do
	// not lower it, like the contract's fundedOf).
	Amount openjury.MicroUSDC
	// RefundAfter is the slot's refund time; nil before any funding.
	RefundAfter *time.Time
	// Ref is the onchain reference of the last event applied.
	Ref openjury.ChainRef
	// SettledRoot and SettledTotal are the settle's root and total ("" and
	// 0 before it); Mismatch is whether they differ from the job's
	// anchor_root and payout total.
	SettledRoot  openjury.Hash
	SettledTotal openjury.MicroUSDC
	Mismatch     bool
}

// EscrowConfig is the escrow the service follows.
type EscrowConfig struct {
	// Contract is the BountyEscrow; zero means the service follows no
	// escrow (jobs' escrow fields are null and closes make no payouts).
	Contract openjury.Address
	// ChainID is the escrow's chain.
	ChainID int64
	// Treasury receives the platform fee.
	Treasury openjury.Address
}

// Enabled reports whether the service follows an escrow.
func (c EscrowConfig) Enabled() bool { return !c.Contract.IsZero() }

// PPM is one million parts per million.
const PPM = 1_000_000

// ToPPM converts a fraction of 1 to parts per million, to the nearest.
func ToPPM(f float64) int64 {
	r, _ := new(big.Float).Mul(big.NewFloat(f), big.NewFloat(PPM)).Float64()
	if r < 0 {
		return -int64(-r + 0.5)
	}
	return int64(r + 0.5)
}

// EscrowOf returns the escrow state a job shows: its recorded one; else,
// when the service follows an escrow, unfunded; else nil (the escrow
// fields are null).
func (s *Service) EscrowOf(j *Job) *JobEscrow {
	switch {
	case j.Escrow != nil:
		return j.Escrow
	case s.cfg.Escrow.Enabled():
		return &JobEscrow{Status: EscrowUnfunded}
	}
	return nil
}

// Weighted is a coherent juror: an address whose current jury vote is for
// the winning submission, with that vote's weight.
type Weighted struct {
	Address openjury.Address
	Weight  int64
}

// Split divides total (F, micro-USDC) among the recipients of a closed
// funded job (docs/rules.md#escrow-and-payouts): platform = floor(F x
// feePPM / 1e6) to treasury; pool = floor(F x juryPPM / 1e6); each
// coherent juror j gets floor(pool x w_j / W), W the sum of their weights;
// the winner's agent gets F - platform - the jurors' shares (every
// remainder, and the whole pool when no juror was coherent). Shares are
// summed per recipient address; zero amounts are left out. The payouts are
// in recipient order, each with its roles (winner, juror, platform).
func Split(total openjury.MicroUSDC, feePPM, juryPPM int64, winner, treasury openjury.Address, jurors []Weighted) []anchor.Payout {
	if total <= 0 || feePPM < 0 || juryPPM < 0 || feePPM+juryPPM > PPM {
		return nil
	}
	f := uint64(total)
	platform, pool := mulDiv(f, uint64(feePPM), PPM), mulDiv(f, uint64(juryPPM), PPM)
	var weight uint64
	for _, j := range jurors {
		weight += uint64(max(j.Weight, 0))
	}
	type share struct {
		amount uint64
		roles  [3]bool // winner, juror, platform
	}
	shares := make(map[openjury.Address]*share, len(jurors)+2)
	add := func(a openjury.Address, v uint64, role int) {
		s := shares[a]
		if s == nil {
			s = &share{}
			shares[a] = s
		}
		s.amount += v
		s.roles[role] = true
	}
	rest := f - platform
	if weight > 0 {
		for _, j := range jurors {
			v := mulDiv(pool, uint64(max(j.Weight, 0)), weight)
			rest -= v
			add(j.Address, v, 1)
		}
	}
	add(winner, rest, 0)
	add(treasury, platform, 2)
	names := [3]string{anchor.RoleWinner, anchor.RoleJuror, anchor.RolePlatform}
	out := make([]anchor.Payout, 0, len(shares))
	for a, s := range shares {
		if s.amount == 0 {
			continue
		}
		p := anchor.Payout{Recipient: a, Amount: s.amount, Roles: []string{}}
		for i, on := range s.roles {
			if on {
				p.Roles = append(p.Roles, names[i])
			}
		}
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b anchor.Payout) int { return cmp.Compare(a.Recipient, b.Recipient) })
	return out
}

// mulDiv is floor(a x b / c), exact through a 128-bit product; the
// quotient must fit 64 bits (it does for every use: a share is at most the
// amount it is taken from).
func mulDiv(a, b, c uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	q, _ := bits.Div64(hi, lo, c)
	return q
}

// EscrowEventKind names a BountyEscrow event.
type EscrowEventKind string

// The escrow events the sync follows.
const (
	EscrowEventFunded   EscrowEventKind = "funded"   // BountyFunded
	EscrowEventSettled  EscrowEventKind = "settled"  // BountySettled
	EscrowEventClaimed  EscrowEventKind = "claimed"  // PayoutClaimed
	EscrowEventRefunded EscrowEventKind = "refunded" // BountyRefunded
)

// EscrowEvent is one decoded BountyEscrow log.
type EscrowEvent struct {
	Kind EscrowEventKind
	// JobKey and Sponsor name the slot.
	JobKey  openjury.Hash
	Sponsor openjury.Address
	// Recipient is a PayoutClaimed event's.
	Recipient openjury.Address
	// Amount is the amount of a BountyFunded, PayoutClaimed or
	// BountyRefunded event; Total a BountyFunded event's funded total
	// since, or a BountySettled event's total (micro-USDC).
	Amount openjury.MicroUSDC
	Total  openjury.MicroUSDC
	// RefundAfter is a BountyFunded event's (unix seconds).
	RefundAfter int64
	// Root is a BountySettled event's.
	Root openjury.Hash
	// TxHash, Contract, Block and LogIndex place the log onchain; LogIndex
	// is the block-level index of JSON-RPC's logIndex.
	TxHash   openjury.Hash
	Contract openjury.Address
	Block    int64
	LogIndex int64
}

// Ref is the onchain reference of ev on chain chainID.
func (ev EscrowEvent) Ref(chainID int64) openjury.ChainRef {
	block, index := ev.Block, ev.LogIndex
	return openjury.ChainRef{TxHash: ev.TxHash, ChainID: &chainID, Contract: ev.Contract, BlockNumber: &block, LogIndex: &index}
}

// JobPayout is a payout of a closed funded job with its claim.
type JobPayout struct {
	anchor.Payout
	// Claim is the PayoutClaimed event that paid it; zero until claimed.
	Claim openjury.ChainRef
}

// EscrowStore keeps the escrow state of jobs and their payouts.
type EscrowStore interface {
	// AdvanceSync checks, in the caller's transaction, that owner holds
	// the sync lease named lease unexpired at now and that the cursor
	// named cursor is at from (an absent one counts as from), and moves it
	// to next; the conditional updates lock both rows until the commit.
	// Errors: Conflict when the lease or the cursor moved.
	AdvanceSync(ctx context.Context, lease, owner string, now time.Time, cursor string, from, next int64) error
	// JobByKey returns the job whose escrow key is key, locked like
	// JobForUpdate. Errors: NotFound.
	JobByKey(ctx context.Context, key openjury.Hash) (*Job, error)
	// AddEscrowEvent records ev, an event of job jobID on chain chainID,
	// unless an event with its (chain id, tx hash, log index) is recorded
	// already; it reports whether it inserted it.
	AddEscrowEvent(ctx context.Context, jobID string, chainID int64, ev EscrowEvent, now time.Time) (bool, error)
	// SetJobEscrow writes a job's escrow state. Errors: NotFound.
	SetJobEscrow(ctx context.Context, jobID string, e *JobEscrow) error
	// PutPayouts stores the payouts of a closing job (its close's
	// transaction). Errors: Conflict when the job has payouts already.
	PutPayouts(ctx context.Context, jobID string, payouts []anchor.Payout) error
	// Payouts returns up to limit payouts of a job with a recipient after
	// `after` ("" from the first) in recipient order, each with its claim:
	// the recorded claimed event of that recipient, if any. recipient,
	// when not zero, keeps only that recipient's.
	Payouts(ctx context.Context, jobID string, recipient, after openjury.Address, limit int) ([]JobPayout, error)
}

// ApplyEscrowEvent returns the escrow state of job after ev (with
// reference ref, on the job's sponsor's slot): funding sets the funded
// total and refund time (and unfunded becomes funded), the settle fixes
// the root and total and whether they match the job's anchor_root and
// payout total, a refund before the settle empties the slot (refunded)
// and after it takes the excess (the job stays settled), a claim moves
// only the reference. An event at or before the position of the last one
// applied changes nothing (changed false).
func ApplyEscrowEvent(job *Job, ev EscrowEvent, ref openjury.ChainRef) (next *JobEscrow, changed bool) {
	prev := JobEscrow{Status: EscrowUnfunded}
	if job.Escrow != nil {
		prev = *job.Escrow
		if !after(ref, prev.Ref) {
			return job.Escrow, false
		}
	}
	e := prev
	e.Ref = ref
	switch ev.Kind {
	case EscrowEventFunded:
		e.Amount = ev.Total
		t := time.Unix(ev.RefundAfter, 0).UTC()
		e.RefundAfter = &t
		if e.Status == EscrowUnfunded {
			e.Status = EscrowFunded
		}
	case EscrowEventSettled:
		e.Status, e.SettledRoot, e.SettledTotal = EscrowSettled, ev.Root, ev.Total
		e.Mismatch = job.Anchor == nil || job.PayoutTotal == nil || ev.Root != job.Anchor.Root || ev.Total != *job.PayoutTotal
	case EscrowEventRefunded:
		if e.Status == EscrowFunded || e.Status == EscrowUnfunded {
			e.Status = EscrowRefunded
		}
	}
	return &e, true
}

// after reports whether ref's (block, log index) comes after stored's on
// the same chain; always when stored has no position on it.
func after(ref, stored openjury.ChainRef) bool {
	if stored.ChainID == nil || ref.ChainID == nil || *stored.ChainID != *ref.ChainID ||
		stored.BlockNumber == nil || ref.BlockNumber == nil || stored.LogIndex == nil || ref.LogIndex == nil {
		return true
	}
	return cmp.Or(cmp.Compare(*ref.BlockNumber, *stored.BlockNumber), cmp.Compare(*ref.LogIndex, *stored.LogIndex)) > 0
}

// EscrowChain reads the BountyEscrow's events (implemented by
// ethchain.Client and openjurytest's fake chain). Errors: Unavailable.
type EscrowChain interface {
	// EscrowEvents returns the escrow's BountyFunded, BountySettled,
	// PayoutClaimed and BountyRefunded events in blocks from..to (both
	// included), in any order.
	EscrowEvents(ctx context.Context, from, to int64) ([]EscrowEvent, error)
}

// EscrowSyncConfig configures an EscrowSyncer.
type EscrowSyncConfig struct {
	// ChainID and Contract name the chain and the escrow.
	ChainID  int64
	Contract openjury.Address
	// OnMismatch, when not nil, is called after each commit for every job
	// whose settle just turned out not to match its anchor_root or payout
	// total (the host logs it as an error).
	OnMismatch func(job *Job, settled *JobEscrow)
}

// EscrowSyncer follows the escrow's events into jobs' escrow state. It is
// a stake.Follower: the stake sync runs it under its lease, over the same
// confirmed blocks, with a cursor of its own.
type EscrowSyncer struct {
	chain EscrowChain
	db    DB
	cfg   EscrowSyncConfig
}

var _ stake.Follower = (*EscrowSyncer)(nil)

// NewEscrowSyncer returns an EscrowSyncer.
func NewEscrowSyncer(chain EscrowChain, db DB, cfg EscrowSyncConfig) *EscrowSyncer {
	return &EscrowSyncer{chain: chain, db: db, cfg: cfg}
}

// Cursor is the sync cursor of this escrow: one per chain and contract.
func (s *EscrowSyncer) Cursor() string {
	return "bounty-escrow:" + strconv.FormatInt(s.cfg.ChainID, 10) + ":" + string(s.cfg.Contract)
}

// Follow reads the escrow's events of blocks r.From..r.To and, in one
// transaction that also checks the lease and moves the cursor to r.To+1,
// applies them in (block, log index) order: an event whose job key names
// no job, or whose sponsor is not the job's sponsor (another slot of the
// same key), is ignored; an event recorded already (same chain, tx hash
// and log index) changes nothing. It returns how many events it applied.
// Errors: Unavailable (chain), Conflict (lease or cursor moved).
func (s *EscrowSyncer) Follow(ctx context.Context, r stake.FollowRange) (int, error) {
	const op = "marketplace.EscrowSync"
	events, err := s.chain.EscrowEvents(ctx, r.From, r.To)
	if err != nil {
		return 0, openjury.Wrap(op, err)
	}
	slices.SortStableFunc(events, func(a, b EscrowEvent) int {
		return cmp.Or(cmp.Compare(a.Block, b.Block), cmp.Compare(a.LogIndex, b.LogIndex))
	})
	type mismatch struct {
		job *Job
		e   *JobEscrow
	}
	var applied int
	var mismatches []mismatch
	err = s.db.InTx(ctx, func(ctx context.Context, tx Tx) error {
		applied, mismatches = 0, nil
		if err := tx.Escrow().AdvanceSync(ctx, r.Lease, r.Owner, r.Now, s.Cursor(), r.From, r.To+1); err != nil {
			return err
		}
		for _, ev := range events {
			if !ev.Contract.IsZero() && ev.Contract != s.cfg.Contract {
				continue
			}
			ev.Contract = s.cfg.Contract
			job, err := tx.Escrow().JobByKey(ctx, ev.JobKey)
			if openjury.IsKind(err, openjury.NotFound) {
				continue // not a job of this service
			}
			if err != nil {
				return err
			}
			if job.Sponsor != ev.Sponsor {
				continue // another sponsor's slot of the same key
			}
			inserted, err := tx.Escrow().AddEscrowEvent(ctx, job.ID, s.cfg.ChainID, ev, r.Now)
			if err != nil {
				return err
			}
			if !inserted {
				continue
			}
			applied++
			next, changed := ApplyEscrowEvent(job, ev, ev.Ref(s.cfg.ChainID))
			if !changed {
				continue
			}
			if err := tx.Escrow().SetJobEscrow(ctx, job.ID, next); err != nil {
				return err
			}
			if ev.Kind == EscrowEventSettled && next.Mismatch {
				mismatches = append(mismatches, mismatch{job, next})
			}
		}
		return nil
	})
	if err != nil {
		return 0, openjury.Wrap(op, err)
	}
	if s.cfg.OnMismatch != nil {
		for _, m := range mismatches {
			s.cfg.OnMismatch(m.job, m.e)
		}
	}
	return applied, nil
}

// PayoutsInput selects a page of a job's payouts.
type PayoutsInput struct {
	// Recipient, when not empty, keeps that recipient's payout only.
	Recipient string
	// Limit is the page size: 0 means DefaultListLimit, else
	// 1..MaxListLimit.
	Limit int
	// Cursor is the NextCursor of the previous page, or "".
	Cursor string
}

// PayoutPage is a page of a job's payouts with the job.
type PayoutPage struct {
	Job        *Job
	Payouts    []JobPayout
	NextCursor string
}

type payoutCursorJSON struct {
	Recipient string `json:"r"`
}

// Payouts lists the payouts of a job in recipient order, each with its
// claim: none for an open job or one closed without escrow funding.
// Errors: NotFound (job), Invalid (limit, cursor, recipient).
func (s *Service) Payouts(ctx context.Context, jobID string, in PayoutsInput) (*PayoutPage, error) {
	const op = "marketplace.Payouts"
	limit, err := valid.Limit(op, in.Limit, DefaultListLimit, MaxListLimit)
	if err != nil {
		return nil, err
	}
	var recipient, after openjury.Address
	if in.Recipient != "" {
		if recipient, err = openjury.ParseAddress("recipient", in.Recipient); err != nil {
			return nil, openjury.Wrap(op, err)
		}
	}
	if in.Cursor != "" {
		var c payoutCursorJSON
		if err := cursor.Decode(op, in.Cursor, &c); err != nil {
			return nil, err
		}
		if after, err = openjury.ParseAddress("cursor", c.Recipient); err != nil {
			return nil, openjury.E(openjury.Invalid, op, cursor.Invalid)
		}
	}
	job, err := s.Job(ctx, jobID)
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	page := &PayoutPage{Job: job, Payouts: []JobPayout{}}
	if job.PayoutTotal == nil {
		return page, nil
	}
	rows, err := s.db.Escrow().Payouts(ctx, job.ID, recipient, after, limit+1)
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	page.Payouts, page.NextCursor = cursor.Cut(rows, limit, func(last JobPayout) string {
		return cursor.Encode(payoutCursorJSON{Recipient: last.Recipient.String()})
	})
	return page, nil
}

// payoutBuilder collects a close's coherent jurors while the jury votes
// stream and makes the payouts once they are all read: per juror an
// address and a weight (28 bytes), never the votes themselves.
type payoutBuilder struct {
	jurors []coherent
}

// coherent is a coherent juror as the builder holds it.
type coherent struct {
	addr   [20]byte
	weight int64
}

// vote notes v when it is for the winning submission.
func (b *payoutBuilder) vote(v *Vote, winner string) {
	if v.SubmissionID == winner {
		b.jurors = append(b.jurors, coherent{addr: v.Voter.Bytes(), weight: v.Weight})
	}
}

// payouts splits total among the winner's agent, the coherent jurors and
// the treasury (Split).
func (b *payoutBuilder) payouts(total openjury.MicroUSDC, eco Economy, winner, treasury openjury.Address) []anchor.Payout {
	jurors := make([]Weighted, len(b.jurors))
	for i, j := range b.jurors {
		jurors[i] = Weighted{Address: openjury.AddressFromBytes(j.addr), Weight: j.weight}
	}
	b.jurors = nil
	return Split(total, eco.PlatformFeePPM, eco.JuryPoolPPM, winner, treasury, jurors)
}
