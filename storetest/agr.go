package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/marketplace"
)

func (s *suite) agrTests() []test {
	return []test{
		{name: "UnknownIsZero", run: testAGRUnknown},
		{name: "CreditDebitLedger", run: testAGRCreditDebit},
		{name: "LedgerOrderAndPages", run: testAGRLedgerPages},
		{name: "DebitOverBalancePaymentRequired", run: testAGRInsufficient},
		{name: "SecondWinOfJobConflict", run: testAGRWinOnce},
		{name: "ConcurrentDebitsNeverOverdraw", run: testAGRConcurrentDebits},
		{name: "ConcurrentWinsOneMint", run: testAGRConcurrentWins},
	}
}

func entry(n int, addr openjury.Address, delta int64, reason agr.Reason, jobID string, created time.Time) agr.Entry {
	return agr.Entry{ID: id(n), Address: addr, Delta: delta, Reason: reason, JobID: jobID, CreatedAt: created}
}

func apply(t *testing.T, b Backend, e agr.Entry) agr.Status {
	t.Helper()
	st, err := b.AGR().Apply(context.Background(), e)
	require.NoError(t, err, "apply %+v", e)
	return st
}

func status(t *testing.T, b Backend, addr openjury.Address) agr.Status {
	t.Helper()
	st, err := b.AGR().Status(context.Background(), addr)
	require.NoError(t, err)
	return st
}

func ledger(t *testing.T, b Backend, addr openjury.Address, limit int, after *agr.Cursor) []agr.Entry {
	t.Helper()
	es, err := b.AGR().Ledger(context.Background(), addr, limit, after)
	require.NoError(t, err)
	return es
}

func entryIDs(es []agr.Entry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.ID
	}
	return out
}

func testAGRUnknown(t *testing.T, b Backend) {
	require.Equal(t, agr.Status{Address: alice}, status(t, b, alice))
	require.Empty(t, ledger(t, b, alice, 10, nil))
	require.NoError(t, b.InTx(context.Background(), func(ctx context.Context, tx marketplace.Tx) error {
		st, err := tx.AGR().Status(ctx, bob)
		require.NoError(t, err)
		require.Equal(t, agr.Status{Address: bob}, st)
		return nil
	}))
}

func testAGRCreditDebit(t *testing.T, b Backend) {
	ctx := context.Background()
	e1 := entry(1, alice, 100, agr.ReasonDevMint, "", at(1))
	require.Equal(t, agr.Status{Address: alice, Balance: 100, Earned: 100}, apply(t, b, e1))
	e2 := entry(2, alice, -30, agr.ReasonBoost, id(500), at(2))
	require.Equal(t, agr.Status{Address: alice, Balance: 70, Earned: 100, Spent: 30}, apply(t, b, e2))
	e3 := entry(3, alice, 50, agr.ReasonWin, id(501), at(3))
	want := agr.Status{Address: alice, Balance: 120, Earned: 150, Spent: 30}
	require.Equal(t, want, apply(t, b, e3))
	require.Equal(t, want, status(t, b, alice))
	require.Equal(t, agr.Status{Address: bob}, status(t, b, bob), "another address is untouched")

	got := ledger(t, b, alice, 10, nil)
	require.Equal(t, []agr.Entry{e3, e2, e1}, got, "newest first, every field")
	require.Equal(t, time.UTC, got[0].CreatedAt.Location())
	require.Empty(t, ledger(t, b, bob, 10, nil))

	// Inside a transaction: the status the transaction sees moves with it.
	e4 := entry(4, alice, -120, agr.ReasonBoost, id(500), at(4))
	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		st, err := tx.AGR().Apply(ctx, e4)
		require.NoError(t, err)
		require.Equal(t, agr.Status{Address: alice, Balance: 0, Earned: 150, Spent: 150}, st)
		read, err := tx.AGR().Status(ctx, alice)
		require.NoError(t, err)
		require.Equal(t, st, read)
		entries, err := tx.AGR().Ledger(ctx, alice, 1, nil)
		require.NoError(t, err)
		require.Equal(t, []agr.Entry{e4}, entries)
		return nil
	}))
	require.Equal(t, agr.Status{Address: alice, Balance: 0, Earned: 150, Spent: 150}, status(t, b, alice))
}

func testAGRLedgerPages(t *testing.T, b Backend) {
	// Ties in created_at are broken by id, descending.
	times := []int{5, 1, 3, 3, 3, 9, 0, 7}
	for i, ms := range times {
		apply(t, b, entry(i+1, alice, int64(i+1), agr.ReasonDevMint, "", at(ms)))
	}
	apply(t, b, entry(50, bob, 1, agr.ReasonDevMint, "", at(4)))
	want := []string{id(6), id(8), id(1), id(5), id(4), id(3), id(2), id(7)}
	require.Equal(t, want, entryIDs(ledger(t, b, alice, 100, nil)))
	for _, limit := range []int{1, 2, 3, 8} {
		var after *agr.Cursor
		got := []string{}
		for range 20 {
			page := ledger(t, b, alice, limit, after)
			require.LessOrEqual(t, len(page), limit)
			got = append(got, entryIDs(page)...)
			if len(page) < limit {
				break
			}
			last := page[len(page)-1]
			after = &agr.Cursor{At: last.CreatedAt, ID: last.ID}
		}
		require.Equal(t, want, got, "limit %d", limit)
	}
	require.Empty(t, ledger(t, b, alice, 0, nil))
	require.Equal(t, []string{id(3), id(2)}, entryIDs(ledger(t, b, alice, 2, &agr.Cursor{At: at(3), ID: id(4)})))
}

func testAGRInsufficient(t *testing.T, b Backend) {
	ctx := context.Background()
	apply(t, b, entry(1, alice, 20, agr.ReasonDevMint, "", at(1)))
	before := status(t, b, alice)

	_, err := b.AGR().Apply(ctx, entry(2, alice, -21, agr.ReasonBoost, id(500), at(2)))
	requireKind(t, openjury.PaymentRequired, err)
	require.Equal(t, "insufficient AGR balance", openjury.DetailOf(err))
	require.Equal(t, before, status(t, b, alice))
	require.Equal(t, []string{id(1)}, entryIDs(ledger(t, b, alice, 10, nil)), "a refused debit left a ledger entry")

	// An address without an account has nothing to spend.
	_, err = b.AGR().Apply(ctx, entry(3, bob, -1, agr.ReasonBoost, "", at(3)))
	requireKind(t, openjury.PaymentRequired, err)
	require.Equal(t, agr.Status{Address: bob}, status(t, b, bob))
	require.Empty(t, ledger(t, b, bob, 10, nil))

	// Inside a transaction the refusal writes nothing either, and the
	// transaction goes on.
	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		_, err := tx.AGR().Apply(ctx, entry(4, alice, -21, agr.ReasonBoost, "", at(4)))
		requireKind(t, openjury.PaymentRequired, err)
		st, err := tx.AGR().Apply(ctx, entry(5, alice, -20, agr.ReasonBoost, "", at(5)))
		require.NoError(t, err)
		require.Equal(t, agr.Status{Address: alice, Balance: 0, Earned: 20, Spent: 20}, st)
		return nil
	}))
	require.Equal(t, agr.Status{Address: alice, Balance: 0, Earned: 20, Spent: 20}, status(t, b, alice))
	require.Equal(t, []string{id(5), id(1)}, entryIDs(ledger(t, b, alice, 10, nil)))
}

func testAGRWinOnce(t *testing.T, b Backend) {
	ctx := context.Background()
	job := id(500)
	apply(t, b, entry(1, alice, 10, agr.ReasonWin, job, at(1)))

	_, err := b.AGR().Apply(ctx, entry(2, bob, 10, agr.ReasonWin, job, at(2)))
	requireKind(t, openjury.Conflict, err)
	require.Equal(t, "AGR win already minted for this job", openjury.DetailOf(err))
	_, err = b.AGR().Apply(ctx, entry(3, alice, 99, agr.ReasonWin, job, at(3)))
	requireKind(t, openjury.Conflict, err)
	require.Equal(t, agr.Status{Address: alice, Balance: 10, Earned: 10}, status(t, b, alice))
	require.Equal(t, agr.Status{Address: bob}, status(t, b, bob))
	require.Empty(t, ledger(t, b, bob, 10, nil))

	// Inside a transaction: refused, and the transaction goes on.
	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		_, err := tx.AGR().Apply(ctx, entry(4, bob, 10, agr.ReasonWin, job, at(4)))
		requireKind(t, openjury.Conflict, err)
		_, err = tx.AGR().Apply(ctx, entry(5, bob, 7, agr.ReasonWin, id(501), at(5)))
		return err
	}))
	require.Equal(t, agr.Status{Address: bob, Balance: 7, Earned: 7}, status(t, b, bob))

	// Other reasons may name a job any number of times.
	apply(t, b, entry(6, alice, 5, agr.ReasonDevMint, job, at(6)))
	apply(t, b, entry(7, alice, -1, agr.ReasonBoost, job, at(7)))
	apply(t, b, entry(8, alice, -1, agr.ReasonBoost, job, at(8)))
	require.Equal(t, agr.Status{Address: alice, Balance: 13, Earned: 15, Spent: 2}, status(t, b, alice))
	require.Equal(t, []string{id(8), id(7), id(6), id(1)}, entryIDs(ledger(t, b, alice, 10, nil)))
}

func testAGRConcurrentDebits(t *testing.T, b Backend) {
	apply(t, b, entry(1, alice, 50, agr.ReasonDevMint, "", at(1)))
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	errs := raceN(20, func(i int) error {
		return b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
			_, err := tx.AGR().Apply(ctx, entry(100+i, alice, -10, agr.ReasonBoost, id(500), at(10+i)))
			return err
		})
	})
	ok, refused := 0, 0
	for i, err := range errs {
		switch {
		case err == nil:
			ok++
		case openjury.KindOf(err) == openjury.PaymentRequired:
			refused++
		default:
			t.Fatalf("goroutine %d: unexpected error %v", i, err)
		}
	}
	require.Equal(t, 5, ok)
	require.Equal(t, 15, refused)
	require.Equal(t, agr.Status{Address: alice, Balance: 0, Earned: 50, Spent: 50}, status(t, b, alice))
	boosts := 0
	for _, e := range ledger(t, b, alice, 100, nil) {
		if e.Reason == agr.ReasonBoost {
			boosts++
			require.Equal(t, int64(-10), e.Delta)
		}
	}
	require.Equal(t, 5, boosts)
}

func testAGRConcurrentWins(t *testing.T, b Backend) {
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	job := id(500)
	errs := raceN(10, func(i int) error {
		e := entry(100+i, alice, 25, agr.ReasonWin, job, at(i))
		if i%2 == 0 {
			_, err := b.AGR().Apply(ctx, e)
			return err
		}
		return b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
			_, err := tx.AGR().Apply(ctx, e)
			return err
		})
	})
	winner := oneWinner(t, errs, openjury.Conflict, "minted")
	require.Equal(t, agr.Status{Address: alice, Balance: 25, Earned: 25}, status(t, b, alice))
	require.Equal(t, []string{id(100 + winner)}, entryIDs(ledger(t, b, alice, 100, nil)))
}
