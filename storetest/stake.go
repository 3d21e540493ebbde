package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/stake"
)

func (s *suite) stakeTests() []test {
	return []test{
		{name: "UnknownIsZero", run: testStakeUnknown},
		{name: "PutRoundTrip", run: testStakeRoundTrip},
		{name: "SlashLowersNotBelowZero", run: testSlashLowers},
		{name: "SlashDuplicateRefConflict", run: testSlashDuplicate},
		{name: "SlashRoundTrip", run: testSlashRoundTrip},
		{name: "SlashesFiltersOrderPages", run: testSlashesList},
	}
}

// hash returns a valid transaction hash numbered n.
func hash(n int) openjury.Hash { return openjury.Hash(fmt.Sprintf("0x%064x", n)) }

// at returns base plus ms milliseconds.
func at(ms int) time.Time { return base.Add(time.Duration(ms) * time.Millisecond) }

func fullRef(n int) openjury.ChainRef {
	return openjury.ChainRef{
		TxHash: hash(n), ChainID: ptr(int64(8453)), Contract: other,
		BlockNumber: ptr(int64(1) << 40), LogIndex: ptr(int64(0)),
	}
}

func getStake(t *testing.T, b Backend, addr openjury.Address) stake.Stake {
	t.Helper()
	st, err := b.Stake().Stake(context.Background(), addr)
	require.NoError(t, err)
	return st
}

func putStake(t *testing.T, b Backend, st stake.Stake) {
	t.Helper()
	require.NoError(t, b.Stake().PutStake(context.Background(), st))
}

func slashIDs(es []stake.SlashEvent) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.ID
	}
	return out
}

func slashes(t *testing.T, b Backend, f stake.SlashFilter) []stake.SlashEvent {
	t.Helper()
	es, err := b.Stake().Slashes(context.Background(), f)
	require.NoError(t, err)
	return es
}

func slash(n int, agent openjury.Address, amount openjury.MicroUSDC, created time.Time) stake.SlashEvent {
	return stake.SlashEvent{ID: id(n), Agent: agent, Amount: amount, CreatedAt: created}
}

func testStakeUnknown(t *testing.T, b Backend) {
	ctx := context.Background()
	require.Equal(t, stake.Stake{Address: alice}, getStake(t, b, alice))
	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		st, err := tx.Stake().Stake(ctx, bob)
		require.NoError(t, err)
		require.Equal(t, stake.Stake{Address: bob}, st)
		return nil
	}))
	require.Empty(t, slashes(t, b, stake.SlashFilter{Limit: 10}))

	// A slash of an agent that never staked leaves the stake at zero.
	after, err := b.Stake().RecordSlash(ctx, slash(1, alice, 5, base))
	require.NoError(t, err)
	require.Equal(t, alice, after.Address)
	require.Zero(t, after.Staked)
	require.True(t, after.Ref.IsZero())
	require.Zero(t, getStake(t, b, alice).Staked)
	require.Equal(t, []string{id(1)}, slashIDs(slashes(t, b, stake.SlashFilter{Limit: 10})))
}

func testStakeRoundTrip(t *testing.T, b Backend) {
	ctx := context.Background()
	full := stake.Stake{Address: alice, Staked: 1_000_000_000_000 * openjury.MicroPerUSDC, Ref: fullRef(1), UpdatedAt: at(1)}
	putStake(t, b, full)
	got := getStake(t, b, alice)
	require.Equal(t, full, got)
	require.Equal(t, time.UTC, got.UpdatedAt.Location())
	require.Equal(t, stake.Stake{Address: bob}, getStake(t, b, bob), "another address is untouched")

	// Each part of the reference alone: the others read back unset, and a
	// replacement clears what the previous stake had set.
	parts := []openjury.ChainRef{
		{},
		{TxHash: hash(2)},
		{ChainID: ptr(int64(1))},
		{Contract: other},
		{BlockNumber: ptr(int64(0))},
		{LogIndex: ptr(int64(7))},
	}
	for i, ref := range parts {
		st := stake.Stake{Address: alice, Staked: openjury.MicroUSDC(i), Ref: ref, UpdatedAt: at(10 + i)}
		putStake(t, b, st)
		require.Equal(t, st, getStake(t, b, alice), "ref %d", i)
	}

	// Inside a transaction: the write is visible to the transaction, and
	// after the commit to everyone.
	st := stake.Stake{Address: bob, Staked: 3, Ref: fullRef(3), UpdatedAt: at(20)}
	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		require.NoError(t, tx.Stake().PutStake(ctx, st))
		got, err := tx.Stake().Stake(ctx, bob)
		require.NoError(t, err)
		require.Equal(t, st, got)
		return nil
	}))
	require.Equal(t, st, getStake(t, b, bob))
}

func testSlashLowers(t *testing.T, b Backend) {
	ctx := context.Background()
	putStake(t, b, stake.Stake{Address: alice, Staked: 10_000_000, Ref: fullRef(1), UpdatedAt: base})
	putStake(t, b, stake.Stake{Address: bob, Staked: 4_000_000, UpdatedAt: base})

	after, err := b.Stake().RecordSlash(ctx, slash(1, alice, 3_000_000, at(1)))
	require.NoError(t, err)
	require.Equal(t, openjury.MicroUSDC(7_000_000), after.Staked)
	require.Equal(t, after, getStake(t, b, alice), "RecordSlash returns the stake after")

	// More than the stake: down to zero, not below.
	after, err = b.Stake().RecordSlash(ctx, slash(2, alice, 7_000_001, at(2)))
	require.NoError(t, err)
	require.Zero(t, after.Staked)
	require.Equal(t, after, getStake(t, b, alice))
	after, err = b.Stake().RecordSlash(ctx, slash(3, alice, 1, at(3)))
	require.NoError(t, err)
	require.Zero(t, after.Staked)

	// Exactly the stake, inside a transaction.
	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		after, err := tx.Stake().RecordSlash(ctx, slash(4, bob, 4_000_000, at(4)))
		require.NoError(t, err)
		require.Zero(t, after.Staked)
		got, err := tx.Stake().Stake(ctx, bob)
		require.NoError(t, err)
		require.Equal(t, after, got)
		return nil
	}))
	require.Zero(t, getStake(t, b, bob).Staked)
	require.Equal(t, []string{id(4), id(3), id(2), id(1)}, slashIDs(slashes(t, b, stake.SlashFilter{Limit: 10})))
}

func testSlashDuplicate(t *testing.T, b Backend) {
	ctx := context.Background()
	putStake(t, b, stake.Stake{Address: alice, Staked: 100, UpdatedAt: base})
	first := slash(1, alice, 10, at(1))
	first.Ref = fullRef(1)
	_, err := b.Stake().RecordSlash(ctx, first)
	require.NoError(t, err)

	dup := slash(2, alice, 50, at(2))
	dup.Ref = fullRef(1)
	dup.Ref.Contract = "" // the contract and block are not part of the key
	dup.Ref.BlockNumber = ptr(int64(5))
	_, err = b.Stake().RecordSlash(ctx, dup)
	requireKind(t, openjury.Conflict, err)
	require.Equal(t, openjury.MicroUSDC(90), getStake(t, b, alice).Staked, "a rejected slash lowered the stake")
	require.Equal(t, []string{id(1)}, slashIDs(slashes(t, b, stake.SlashFilter{Limit: 10})))

	// Inside a transaction too, and the transaction goes on.
	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		_, err := tx.Stake().RecordSlash(ctx, dup)
		requireKind(t, openjury.Conflict, err)
		next := slash(3, alice, 1, at(3))
		next.Ref = fullRef(3)
		after, err := tx.Stake().RecordSlash(ctx, next)
		require.NoError(t, err)
		require.Equal(t, openjury.MicroUSDC(89), after.Staked)
		return nil
	}))
	require.Equal(t, openjury.MicroUSDC(89), getStake(t, b, alice).Staked)

	// Another log index, another chain or another hash is another event;
	// events without a hash never collide.
	n := 10
	for _, ref := range []openjury.ChainRef{
		{TxHash: hash(1), ChainID: ptr(int64(8453)), LogIndex: ptr(int64(1))},
		{TxHash: hash(1), ChainID: ptr(int64(1)), LogIndex: ptr(int64(0))},
		{TxHash: hash(2), ChainID: ptr(int64(8453)), LogIndex: ptr(int64(0))},
		{TxHash: hash(1)},
		{},
		{},
		{ChainID: ptr(int64(8453)), LogIndex: ptr(int64(0))},
		{ChainID: ptr(int64(8453)), LogIndex: ptr(int64(0))},
	} {
		n++
		e := slash(n, alice, 1, at(n))
		e.Ref = ref
		_, err := b.Stake().RecordSlash(ctx, e)
		require.NoError(t, err, "ref %+v", ref)
	}
	require.Equal(t, openjury.MicroUSDC(81), getStake(t, b, alice).Staked)

	// Unset parts count as values: the same hash without chain id and log
	// index again is the same reference.
	again := slash(30, alice, 1, at(30))
	again.Ref = openjury.ChainRef{TxHash: hash(1)}
	_, err = b.Stake().RecordSlash(ctx, again)
	requireKind(t, openjury.Conflict, err)
	require.Equal(t, openjury.MicroUSDC(81), getStake(t, b, alice).Staked)
	require.Len(t, slashes(t, b, stake.SlashFilter{Limit: 100}), 10)
}

func testSlashRoundTrip(t *testing.T, b Backend) {
	full := stake.SlashEvent{
		ID: id(1), Agent: alice, Amount: 1_000_000_000_000 * openjury.MicroPerUSDC, Recipient: bob,
		JobID: id(77), Ref: fullRef(1), CreatedAt: at(1),
	}
	bare := slash(2, bob, 0, at(2))
	for _, e := range []stake.SlashEvent{full, bare} {
		_, err := b.Stake().RecordSlash(context.Background(), e)
		require.NoError(t, err)
	}
	got := slashes(t, b, stake.SlashFilter{Limit: 10})
	require.Equal(t, []stake.SlashEvent{bare, full}, got)
	require.Equal(t, time.UTC, got[0].CreatedAt.Location())
}

func testSlashesList(t *testing.T, b Backend) {
	ctx := context.Background()
	job1, job2 := id(901), id(902)
	type ev struct {
		n     int
		agent openjury.Address
		job   string
		ms    int
	}
	evs := []ev{
		{1, alice, job1, 1},
		{2, bob, job1, 2},
		{3, alice, "", 3},
		{4, alice, job2, 3}, // same time as 3: higher id first
		{5, bob, job2, 5},
		{6, alice, job1, 0}, // oldest
		{7, bob, "", 5},     // same time as 5
		{8, alice, job1, 9}, // newest
	}
	for _, e := range evs {
		s := slash(e.n, e.agent, 1, at(e.ms))
		s.JobID = e.job
		_, err := b.Stake().RecordSlash(ctx, s)
		require.NoError(t, err)
	}
	all := []string{id(8), id(7), id(5), id(4), id(3), id(2), id(1), id(6)}
	keep := func(pred func(ev) bool) []string {
		byID := map[string]ev{}
		for _, e := range evs {
			byID[id(e.n)] = e
		}
		out := []string{}
		for _, x := range all {
			if pred(byID[x]) {
				out = append(out, x)
			}
		}
		return out
	}
	cases := []struct {
		name string
		f    stake.SlashFilter
		want []string
	}{
		{"all", stake.SlashFilter{}, all},
		{"agent", stake.SlashFilter{Agent: alice}, keep(func(e ev) bool { return e.agent == alice })},
		{"job", stake.SlashFilter{JobID: job1}, keep(func(e ev) bool { return e.job == job1 })},
		{"agent and job", stake.SlashFilter{Agent: bob, JobID: job2}, []string{id(5)}},
		{"unknown job", stake.SlashFilter{JobID: id(999)}, []string{}},
	}
	for _, tc := range cases {
		f := tc.f
		f.Limit = 100
		require.Equal(t, tc.want, slashIDs(slashes(t, b, f)), tc.name)
		// Page through with every page size.
		for _, limit := range []int{1, 2, 3} {
			f.Limit = limit
			f.After = nil
			got := []string{}
			for range 20 {
				page := slashes(t, b, f)
				require.LessOrEqual(t, len(page), limit)
				got = append(got, slashIDs(page)...)
				if len(page) < limit {
					break
				}
				last := page[len(page)-1]
				f.After = &stake.Cursor{At: last.CreatedAt, ID: last.ID}
			}
			require.Equal(t, tc.want, got, "%s, limit %d", tc.name, limit)
		}
	}
	require.Empty(t, slashes(t, b, stake.SlashFilter{Limit: 0}))
	// A cursor between events of the same time.
	require.Equal(t, []string{id(3), id(2)},
		slashIDs(slashes(t, b, stake.SlashFilter{Limit: 2, After: &stake.Cursor{At: at(3), ID: id(4)}})))
}
