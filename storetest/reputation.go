package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
)

func (s *suite) reputationTests() []test {
	return []test{
		{name: "UnknownIsZero", run: testReputationUnknown},
		{name: "AddAndSetScore", run: testReputationAdd},
		{name: "ConcurrentAddsSum", run: testReputationConcurrent},
		{name: "AddMany", run: testReputationAddMany},
		{name: "LeaderboardOrderAndPages", run: testLeaderboard},
		{name: "JobOutcome", run: testJobOutcome},
	}
}

func getReputation(t *testing.T, b Backend, addr openjury.Address) marketplace.Reputation {
	t.Helper()
	r, err := b.Reputation().Reputation(context.Background(), addr)
	require.NoError(t, err)
	return r
}

func leaderboard(t *testing.T, b Backend, limit int, after *marketplace.LeaderCursor) []marketplace.Reputation {
	t.Helper()
	rs, err := b.Reputation().Leaderboard(context.Background(), limit, after)
	require.NoError(t, err)
	return rs
}

func leaders(rs []marketplace.Reputation) []openjury.Address {
	out := make([]openjury.Address, len(rs))
	for i, r := range rs {
		out[i] = r.Address
	}
	return out
}

func testReputationUnknown(t *testing.T, b Backend) {
	require.Equal(t, marketplace.Reputation{Address: alice}, getReputation(t, b, alice))
	require.NoError(t, b.InTx(context.Background(), func(ctx context.Context, tx marketplace.Tx) error {
		r, err := tx.Reputation().Reputation(ctx, bob)
		require.NoError(t, err)
		require.Equal(t, marketplace.Reputation{Address: bob}, r)
		return nil
	}))
	require.Empty(t, leaderboard(t, b, 10, nil), "reading an unknown address wrote a record")
}

func testReputationAdd(t *testing.T, b Backend) {
	ctx := context.Background()
	rep := b.Reputation()
	require.NoError(t, rep.AddReputation(ctx, alice, marketplace.ReputationDelta{Score: 10, Wins: 1}, at(1)))
	want := marketplace.Reputation{Address: alice, Score: 10, Wins: 1, UpdatedAt: at(1)}
	got := getReputation(t, b, alice)
	require.Equal(t, want, got)
	require.Equal(t, time.UTC, got.UpdatedAt.Location())

	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		require.NoError(t, tx.Reputation().AddReputation(ctx, alice,
			marketplace.ReputationDelta{Score: 1, Losses: 2, Submissions: 3, JuryVotes: 4}, at(2)))
		r, err := tx.Reputation().Reputation(ctx, alice)
		require.NoError(t, err)
		require.Equal(t, marketplace.Reputation{Address: alice, Score: 11, Wins: 1, Losses: 2, Submissions: 3, JuryVotes: 4, UpdatedAt: at(2)}, r)
		return nil
	}))
	require.NoError(t, rep.AddReputation(ctx, alice, marketplace.ReputationDelta{Score: -20}, at(3)))
	want = marketplace.Reputation{Address: alice, Score: -9, Wins: 1, Losses: 2, Submissions: 3, JuryVotes: 4, UpdatedAt: at(3)}
	require.Equal(t, want, getReputation(t, b, alice), "the score may go negative")

	// SetScore changes the score and the time only.
	require.NoError(t, rep.SetScore(ctx, alice, 250, at(4)))
	want.Score, want.UpdatedAt = 250, at(4)
	require.Equal(t, want, getReputation(t, b, alice))
	// ... and creates a missing record.
	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		return tx.Reputation().SetScore(ctx, bob, 7, at(5))
	}))
	require.Equal(t, marketplace.Reputation{Address: bob, Score: 7, UpdatedAt: at(5)}, getReputation(t, b, bob))
	require.Equal(t, marketplace.Reputation{Address: carol}, getReputation(t, b, carol))
}

func testReputationConcurrent(t *testing.T, b Backend) {
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	d := marketplace.ReputationDelta{Score: 10, Wins: 1, Losses: 2, Submissions: 3, JuryVotes: 4}
	errs := raceN(10, func(i int) error {
		if i%2 == 0 {
			return b.Reputation().AddReputation(ctx, alice, d, at(i))
		}
		return b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
			return tx.Reputation().AddReputation(ctx, alice, d, at(i))
		})
	})
	for i, err := range errs {
		require.NoError(t, err, "goroutine %d", i)
	}
	got := getReputation(t, b, alice)
	require.Equal(t, int64(100), got.Score, "an increment was lost")
	require.Equal(t, int64(10), got.Wins)
	require.Equal(t, int64(20), got.Losses)
	require.Equal(t, int64(30), got.Submissions)
	require.Equal(t, int64(40), got.JuryVotes)
}

func testLeaderboard(t *testing.T, b Backend) {
	ctx := context.Background()
	addr := func(n int) openjury.Address { return openjury.MustAddress(fmt.Sprintf("0x%040x", n)) }
	scores := map[int]int64{1: 5, 2: 50, 3: 5, 4: -1, 5: 50, 6: 0, 7: 100, 8: 5}
	for n, score := range scores {
		require.NoError(t, b.Reputation().SetScore(ctx, addr(n), score, at(n)))
	}
	want := []openjury.Address{addr(7), addr(2), addr(5), addr(1), addr(3), addr(8), addr(6), addr(4)}
	all := leaderboard(t, b, 100, nil)
	require.Equal(t, want, leaders(all))
	require.Equal(t, marketplace.Reputation{Address: addr(7), Score: 100, UpdatedAt: at(7)}, all[0], "every field")
	for _, limit := range []int{1, 2, 3, 8} {
		var after *marketplace.LeaderCursor
		got := []openjury.Address{}
		for range 20 {
			page := leaderboard(t, b, limit, after)
			require.LessOrEqual(t, len(page), limit)
			got = append(got, leaders(page)...)
			if len(page) < limit {
				break
			}
			last := page[len(page)-1]
			after = &marketplace.LeaderCursor{Score: last.Score, Address: last.Address}
		}
		require.Equal(t, want, got, "limit %d", limit)
	}
	require.Empty(t, leaderboard(t, b, 0, nil))
	require.Equal(t, []openjury.Address{addr(3), addr(8)},
		leaders(leaderboard(t, b, 2, &marketplace.LeaderCursor{Score: 5, Address: addr(1)})))
}

// testReputationAddMany applies a batch in one call: new and existing
// records, any input order, repeated addresses summed, an empty batch.
func testReputationAddMany(t *testing.T, b Backend) {
	ctx := context.Background()
	rep := b.Reputation()
	require.NoError(t, rep.AddReputation(ctx, bob, marketplace.ReputationDelta{Score: 5, Submissions: 1}, at(1)))
	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		return tx.Reputation().AddReputations(ctx, []marketplace.ReputationChange{
			{Address: carol, Delta: marketplace.ReputationDelta{Losses: 1}},
			{Address: bob, Delta: marketplace.ReputationDelta{Score: 10, Wins: 1}},
			{Address: alice, Delta: marketplace.ReputationDelta{Losses: 1}},
			{Address: carol, Delta: marketplace.ReputationDelta{Score: 2, JuryVotes: 1}},
		}, at(2))
	}))
	require.Equal(t, marketplace.Reputation{Address: alice, Losses: 1, UpdatedAt: at(2)}, getReputation(t, b, alice))
	require.Equal(t, marketplace.Reputation{Address: bob, Score: 15, Wins: 1, Submissions: 1, UpdatedAt: at(2)}, getReputation(t, b, bob))
	require.Equal(t, marketplace.Reputation{Address: carol, Score: 2, Losses: 1, JuryVotes: 1, UpdatedAt: at(2)}, getReputation(t, b, carol))
	require.NoError(t, rep.AddReputations(ctx, nil, at(3)))
	require.Equal(t, at(2), getReputation(t, b, alice).UpdatedAt, "an empty batch writes nothing")
}

// testJobOutcome: the winner gains the win's delta and every other
// distinct submitter one loss's, once each; nobody else changes.
func testJobOutcome(t *testing.T, b Backend) {
	ctx := context.Background()
	create(t, b, newJob(1, base), newJob(2, base))
	submit(t, b, newSubmission(101, id(1), alice, base), newSubmission(102, id(1), alice, base),
		newSubmission(103, id(1), bob, base), newSubmission(104, id(1), carol, base), newSubmission(201, id(2), dave, base))
	win, loss := marketplace.ReputationDelta{Score: 10, Wins: 1}, marketplace.ReputationDelta{Losses: 1}
	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		return tx.Reputation().AddJobOutcome(ctx, id(1), bob, win, loss, at(5))
	}))
	for addr, want := range map[openjury.Address][3]int64{alice: {0, 0, 1}, bob: {10, 1, 0}, carol: {0, 0, 1}, dave: {0, 0, 0}} {
		r := getReputation(t, b, addr)
		require.Equal(t, want, [3]int64{r.Score, r.Wins, r.Losses}, "%s", addr)
	}
	require.Equal(t, at(5), getReputation(t, b, bob).UpdatedAt)
	require.NoError(t, b.Reputation().AddJobOutcome(ctx, id(3), bob, win, loss, at(6)), "a job without submissions")
	require.Equal(t, int64(10), getReputation(t, b, bob).Score)
}
