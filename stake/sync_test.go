package stake_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/stake"
)

var (
	vaultAddr = openjury.MustAddress("0x00000000000000000000000000000000000000f0")
	alice     = openjury.MustAddress("0x00000000000000000000000000000000000000a1")
	bob       = openjury.MustAddress("0x00000000000000000000000000000000000000b2")
	treasury  = openjury.MustAddress("0x00000000000000000000000000000000000000c3")
)

const syncChainID = 8453

type syncFixture struct {
	chain *openjurytest.Chain
	db    *bunstore.DB
	clk   *openjurytest.Clock
}

func newSyncFixture(t *testing.T) *syncFixture {
	return &syncFixture{chain: openjurytest.NewChain(), db: openjurytest.NewDB(t), clk: openjurytest.NewClock()}
}

// syncer returns a worker named owner; maxRange 0 means the default.
func (f *syncFixture) syncer(owner string, confirmations, maxRange int64) *stake.Syncer {
	return stake.NewSyncer(f.chain, f.db.Sync(), f.clk, stake.SyncConfig{
		ChainID: syncChainID, Contract: vaultAddr, Confirmations: confirmations,
		MaxRange: maxRange, Owner: owner, LeaseTTL: 30 * time.Second,
	})
}

func txHash(n int) openjury.Hash { return openjury.Hash(fmt.Sprintf("0x%064x", n)) }

func ev(kind stake.EventKind, agent openjury.Address, amount openjury.MicroUSDC, block, index int64, tx int) stake.VaultEvent {
	e := stake.VaultEvent{Kind: kind, Agent: agent, Amount: amount, TxHash: txHash(tx), Contract: vaultAddr, Block: block, LogIndex: index}
	if kind == stake.EventSlashed {
		e.Recipient, e.Requested = treasury, amount
	}
	return e
}

func (f *syncFixture) stakeOf(t *testing.T, a openjury.Address) stake.Stake {
	t.Helper()
	st, err := f.db.Stake().Stake(context.Background(), a)
	require.NoError(t, err)
	return st
}

func (f *syncFixture) slashes(t *testing.T) []stake.SlashEvent {
	t.Helper()
	events, err := f.db.Stake().Slashes(context.Background(), stake.SlashFilter{Limit: 100})
	require.NoError(t, err)
	return events
}

// TestSyncOrderAndConfirmations: events are applied in (block, log index)
// order whatever order the chain lists them in, only once confirmed, with
// stakeOf read at the event's block and the event's reference.
func TestSyncOrderAndConfirmations(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newSyncFixture(t)
	// Listed out of order: the block-3 events come back index 1 first.
	f.chain.AddEvent(ev(stake.EventWithdrawn, alice, 5_000_000, 3, 1, 2), 15_000_000)
	f.chain.AddEvent(ev(stake.EventDeposited, alice, 20_000_000, 3, 0, 1), 20_000_000)
	f.chain.AddEvent(ev(stake.EventSlashed, alice, 4_000_000, 5, 0, 3), 11_000_000)
	f.chain.SetHead(6)
	s := f.syncer("w1", 2, 0)

	res, err := s.Step(ctx)
	require.NoError(t, err)
	require.Equal(t, stake.StepResult{Leader: true, Head: 6, Next: 5, Events: 2, CaughtUp: true}, res)
	require.Equal(t, int64(2), res.Lag())
	st := f.stakeOf(t, alice)
	// stakeOf at block 3 is the state after both events of the block; the
	// reference is the last event's.
	require.Equal(t, openjury.MicroUSDC(15_000_000), st.Staked)
	require.Equal(t, txHash(2), st.Ref.TxHash)
	require.Equal(t, int64(1), *st.Ref.LogIndex)
	require.Equal(t, int64(3), *st.Ref.BlockNumber)
	require.Equal(t, int64(syncChainID), *st.Ref.ChainID)
	require.Equal(t, vaultAddr, st.Ref.Contract)
	require.Equal(t, f.clk.Now(), st.UpdatedAt)
	require.Empty(t, f.slashes(t), "the block-5 slash waits for its confirmations")

	// Nothing new is confirmed: no chain scan.
	res, err = s.Step(ctx)
	require.NoError(t, err)
	require.True(t, res.CaughtUp)
	require.Zero(t, res.Events)

	f.chain.SetHead(7)
	res, err = s.Step(ctx)
	require.NoError(t, err)
	require.Equal(t, 1, res.Events)
	require.Equal(t, int64(6), res.Next)
	require.Equal(t, openjury.MicroUSDC(11_000_000), f.stakeOf(t, alice).Staked)
	sl := f.slashes(t)
	require.Len(t, sl, 1)
	require.Equal(t, alice, sl[0].Agent)
	require.Equal(t, openjury.MicroUSDC(4_000_000), sl[0].Amount)
	require.Equal(t, treasury, sl[0].Recipient)
	require.Empty(t, sl[0].JobID)
	require.Equal(t, txHash(3), sl[0].Ref.TxHash)
	require.Equal(t, int64(5), *sl[0].Ref.BlockNumber)
}

// TestSyncRestartNoDuplicateNoGap: scans bounded to two blocks, a worker
// replaced after every scan and a chain failure in the middle of a scan
// still apply every event exactly once.
func TestSyncRestartNoDuplicateNoGap(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newSyncFixture(t)
	var total openjury.MicroUSDC
	for b := int64(1); b <= 9; b++ {
		total += 1_000_000
		f.chain.AddEvent(ev(stake.EventDeposited, bob, 1_000_000, b, 0, int(b)), total)
		if b%3 == 0 {
			total -= 100_000
			f.chain.AddEvent(ev(stake.EventSlashed, bob, 100_000, b, 1, 100+int(b)), total)
		}
	}
	f.chain.SetHead(9)

	steps := 0
	for {
		s := f.syncer(fmt.Sprintf("w%d", steps), 0, 2) // a "restarted" worker each time
		if steps == 2 {
			f.chain.SetDown(true)
			_, err := s.Step(ctx)
			require.Equal(t, openjury.Unavailable, openjury.KindOf(err))
			f.chain.SetDown(false)
			// The failed worker's lease must lapse before another takes over.
			f.clk.Advance(31 * time.Second)
		}
		res, err := s.Step(ctx)
		require.NoError(t, err)
		require.True(t, res.Leader)
		require.NoError(t, s.Release(ctx))
		steps++
		if res.CaughtUp {
			break
		}
	}
	require.Equal(t, 5, steps, "blocks 1..9 in scans of two")
	require.Equal(t, total, f.stakeOf(t, bob).Staked)
	sl := f.slashes(t)
	require.Len(t, sl, 3, "each slash once")
	seen := map[openjury.Hash]bool{}
	for _, e := range sl {
		require.False(t, seen[e.Ref.TxHash])
		seen[e.Ref.TxHash] = true
	}
	next, _, err := f.db.Sync().SyncCursor(ctx, f.syncer("x", 0, 2).Name())
	require.NoError(t, err)
	require.Equal(t, int64(10), next)
}

// TestSyncOneLeaseTwoWorkers: of two workers only the lease holder scans;
// when it stops renewing, the other takes over from the cursor.
func TestSyncOneLeaseTwoWorkers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newSyncFixture(t)
	f.chain.AddEvent(ev(stake.EventDeposited, alice, 10_000_000, 1, 0, 1), 10_000_000)
	f.chain.SetHead(1)
	a, b := f.syncer("a", 0, 0), f.syncer("b", 0, 0)

	res, err := a.Step(ctx)
	require.NoError(t, err)
	require.True(t, res.Leader)
	calls := f.chain.Calls()
	res, err = b.Step(ctx)
	require.NoError(t, err)
	require.Equal(t, stake.StepResult{}, res, "b is not the leader")
	require.Equal(t, calls, f.chain.Calls(), "a non-leader does not ask the chain")

	f.chain.AddEvent(ev(stake.EventSlashed, alice, 1_000_000, 2, 0, 2), 9_000_000)
	f.clk.Advance(29 * time.Second)
	res, err = b.Step(ctx)
	require.NoError(t, err)
	require.False(t, res.Leader, "a's lease is still live")
	f.clk.Advance(2 * time.Second)
	res, err = b.Step(ctx)
	require.NoError(t, err)
	require.True(t, res.Leader, "a stopped renewing: b takes over")
	require.Equal(t, 1, res.Events, "from the cursor a left: only block 2")
	res, err = a.Step(ctx)
	require.NoError(t, err)
	require.False(t, res.Leader)
	require.Len(t, f.slashes(t), 1)
	require.Equal(t, openjury.MicroUSDC(9_000_000), f.stakeOf(t, alice).Staked)
}

// TestSyncStartBlock: without a cursor the first scan starts at
// StartBlock; earlier events are never read.
func TestSyncStartBlock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newSyncFixture(t)
	f.chain.AddEvent(ev(stake.EventDeposited, alice, 1_000_000, 2, 0, 1), 1_000_000)
	f.chain.AddEvent(ev(stake.EventDeposited, bob, 3_000_000, 8, 0, 2), 3_000_000)
	f.chain.SetHead(8)
	s := stake.NewSyncer(f.chain, f.db.Sync(), f.clk, stake.SyncConfig{
		ChainID: syncChainID, Contract: vaultAddr, StartBlock: 5, Owner: "a", LeaseTTL: time.Minute,
	})
	res, err := s.Step(ctx)
	require.NoError(t, err)
	require.Equal(t, 1, res.Events)
	require.Equal(t, openjury.MicroUSDC(0), f.stakeOf(t, alice).Staked)
	require.Equal(t, openjury.MicroUSDC(3_000_000), f.stakeOf(t, bob).Staked)
}
