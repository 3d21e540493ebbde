package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/stake"
)

// SyncBackend is a Backend that also keeps the stake-vault sync's lease,
// cursor and batches. The Sync tests skip backends without it.
type SyncBackend interface {
	Sync() stake.SyncStore
}

func (s *suite) syncTests() []test {
	return []test{
		{name: "LeaseOneHolder", run: testLeaseOneHolder},
		{name: "LeaseRaceOneWinner", run: testLeaseRace},
		{name: "ApplyWritesAndAdvances", run: testApplySync},
		{name: "ApplyRefusesLostLease", run: testApplyLostLease},
		{name: "ApplyIdempotentByChainRef", run: testApplyIdempotent},
		{name: "ApplyRaceOneWinner", run: testApplyRace},
	}
}

func syncStoreOf(t *testing.T, b Backend) stake.SyncStore {
	t.Helper()
	sb, ok := b.(SyncBackend)
	if !ok {
		t.Skip("the backend has no stake-vault sync store")
	}
	return sb.Sync()
}

const leaseName = "stake-vault:8453:test"

func testLeaseOneHolder(t *testing.T, b Backend) {
	ctx := context.Background()
	s := syncStoreOf(t, b)
	acquire := func(owner string, now time.Time) bool {
		ok, err := s.AcquireLease(ctx, leaseName, owner, now, now.Add(10*time.Second))
		require.NoError(t, err)
		return ok
	}
	require.True(t, acquire("a", at(0)), "a free lease is taken")
	require.False(t, acquire("b", at(1000)), "an unexpired lease of another owner is not")
	require.True(t, acquire("a", at(5000)), "the holder renews: now until 15 s")
	require.False(t, acquire("b", at(14_999)))
	require.True(t, acquire("b", at(15_000)), "an expired lease is taken over")
	require.False(t, acquire("a", at(15_001)))
	require.NoError(t, s.ReleaseLease(ctx, leaseName, "a"), "releasing a lease one does not hold does nothing")
	require.False(t, acquire("a", at(15_002)))
	require.NoError(t, s.ReleaseLease(ctx, leaseName, "b"))
	require.True(t, acquire("a", at(15_003)), "a released lease is free at once")
	ok, err := s.AcquireLease(ctx, "another", "b", at(15_004), at(25_000))
	require.NoError(t, err)
	require.True(t, ok, "leases of other names are independent")
}

func testLeaseRace(t *testing.T, b Backend) {
	ctx := context.Background()
	s := syncStoreOf(t, b)
	// Let the first lease expire, so the racers compete for the takeover.
	ok, err := s.AcquireLease(ctx, leaseName, "old", at(0), at(1))
	require.NoError(t, err)
	require.True(t, ok)
	const n = 8
	var wg sync.WaitGroup
	wins := make(chan string, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			owner := fmt.Sprintf("w%d", i)
			ok, err := s.AcquireLease(ctx, leaseName, owner, at(1000), at(60_000))
			if err == nil && ok {
				wins <- owner
			}
		}()
	}
	wg.Wait()
	close(wins)
	var winners []string
	for w := range wins {
		winners = append(winners, w)
	}
	require.Len(t, winners, 1, "exactly one worker takes the lease")
}

// syncRef is a full onchain reference of a vault event at (block, index).
func syncRef(tx int, block, index int64) openjury.ChainRef {
	return openjury.ChainRef{TxHash: hash(tx), ChainID: ptr(int64(8453)), Contract: other, BlockNumber: &block, LogIndex: &index}
}

func takeLease(t *testing.T, s stake.SyncStore, owner string) {
	t.Helper()
	ok, err := s.AcquireLease(context.Background(), leaseName, owner, at(0), at(600_000))
	require.NoError(t, err)
	require.True(t, ok)
}

func batch(from, next int64) stake.SyncBatch {
	return stake.SyncBatch{Lease: leaseName, Owner: "a", Now: at(1000), Cursor: leaseName, From: from, Next: next}
}

func testApplySync(t *testing.T, b Backend) {
	ctx := context.Background()
	s := syncStoreOf(t, b)
	takeLease(t, s, "a")
	_, found, err := s.SyncCursor(ctx, leaseName)
	require.NoError(t, err)
	require.False(t, found)

	bt := batch(5, 10)
	bt.Stakes = []stake.Stake{
		{Address: alice, Staked: 7_000_000, Ref: syncRef(1, 6, 2), UpdatedAt: at(1000)},
		{Address: bob, Staked: 0, Ref: syncRef(2, 9, 0), UpdatedAt: at(1000)},
	}
	bt.Slashes = []stake.SlashEvent{{
		ID: openjury.NewID(), Agent: bob, Amount: 3_000_000, Recipient: other,
		Ref: syncRef(2, 9, 0), CreatedAt: at(1000),
	}}
	require.NoError(t, s.ApplySync(ctx, bt))
	next, found, err := s.SyncCursor(ctx, leaseName)
	require.NoError(t, err)
	require.True(t, found)
	require.Equal(t, int64(10), next)
	require.Equal(t, bt.Stakes[0], getStake(t, b, alice))
	require.Equal(t, bt.Stakes[1], getStake(t, b, bob), "a sync write does not touch the amount with the slash")
	events, err := b.Stake().Slashes(ctx, stake.SlashFilter{Limit: 10})
	require.NoError(t, err)
	require.Equal(t, bt.Slashes, events)

	// The same batch again: the cursor moved, nothing is written twice.
	err = s.ApplySync(ctx, bt)
	require.Equal(t, openjury.Conflict, openjury.KindOf(err))
	events, err = b.Stake().Slashes(ctx, stake.SlashFilter{Limit: 10})
	require.NoError(t, err)
	require.Len(t, events, 1)
}

func testApplyLostLease(t *testing.T, b Backend) {
	ctx := context.Background()
	s := syncStoreOf(t, b)
	takeLease(t, s, "b")
	bt := batch(0, 3)
	bt.Stakes = []stake.Stake{{Address: alice, Staked: 1, Ref: syncRef(1, 1, 0), UpdatedAt: at(1000)}}
	err := s.ApplySync(ctx, bt)
	require.Equal(t, openjury.Conflict, openjury.KindOf(err))
	_, found, err := s.SyncCursor(ctx, leaseName)
	require.NoError(t, err)
	require.False(t, found, "nothing written")
	require.Equal(t, openjury.MicroUSDC(0), getStake(t, b, alice).Staked)

	// An expired lease of the writer is lost too.
	require.NoError(t, s.ReleaseLease(ctx, leaseName, "b"))
	ok, err := s.AcquireLease(ctx, leaseName, "a", at(0), at(500))
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, openjury.Conflict, openjury.KindOf(s.ApplySync(ctx, bt)), "expired at 500, written at 1000")
}

func testApplyIdempotent(t *testing.T, b Backend) {
	ctx := context.Background()
	s := syncStoreOf(t, b)
	takeLease(t, s, "a")
	slash := stake.SlashEvent{ID: openjury.NewID(), Agent: alice, Amount: 1_000_000, Recipient: other, Ref: syncRef(3, 8, 4), CreatedAt: at(1000)}
	first := batch(0, 9)
	first.Stakes = []stake.Stake{{Address: alice, Staked: 4_000_000, Ref: syncRef(3, 8, 4), UpdatedAt: at(1000)}}
	first.Slashes = []stake.SlashEvent{slash}
	require.NoError(t, s.ApplySync(ctx, first))

	// A later batch carrying the same event (a replayed range) and an older
	// stake: neither the slash nor the stake changes.
	again := batch(9, 12)
	again.Now = at(2000)
	dup := slash
	dup.ID = openjury.NewID()
	again.Slashes = []stake.SlashEvent{dup}
	again.Stakes = []stake.Stake{
		{Address: alice, Staked: 9_000_000, Ref: syncRef(3, 8, 4), UpdatedAt: at(2000)},
		{Address: bob, Staked: 2_000_000, Ref: syncRef(4, 11, 0), UpdatedAt: at(2000)},
	}
	require.NoError(t, s.ApplySync(ctx, again))
	require.Equal(t, first.Stakes[0], getStake(t, b, alice), "the same event position is not written again")
	require.Equal(t, again.Stakes[1], getStake(t, b, bob))
	events, err := b.Stake().Slashes(ctx, stake.SlashFilter{Limit: 10})
	require.NoError(t, err)
	require.Equal(t, []stake.SlashEvent{slash}, events)

	// A later event of the same block moves the stake.
	later := batch(12, 13)
	later.Stakes = []stake.Stake{{Address: alice, Staked: 5_000_000, Ref: syncRef(5, 8, 5), UpdatedAt: at(1000)}}
	require.NoError(t, s.ApplySync(ctx, later))
	require.Equal(t, later.Stakes[0], getStake(t, b, alice))
}

func testApplyRace(t *testing.T, b Backend) {
	ctx := context.Background()
	s := syncStoreOf(t, b)
	takeLease(t, s, "a")
	const n = 4
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			bt := batch(0, 5)
			bt.Slashes = []stake.SlashEvent{{ID: openjury.NewID(), Agent: alice, Amount: 1, Ref: syncRef(10+i, 2, 0), CreatedAt: at(1000)}}
			errs[i] = s.ApplySync(ctx, bt)
		}()
	}
	wg.Wait()
	wins := 0
	for _, err := range errs {
		if err == nil {
			wins++
		} else {
			require.Equal(t, openjury.Conflict, openjury.KindOf(err), "%v", err)
		}
	}
	require.Equal(t, 1, wins, "one batch per cursor position")
	events, err := b.Stake().Slashes(ctx, stake.SlashFilter{Limit: 10})
	require.NoError(t, err)
	require.Len(t, events, 1, "the losers wrote nothing")
}
