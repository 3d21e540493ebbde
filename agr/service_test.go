package agr_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/openjurytest"
)

func TestService(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openjurytest.NewDB(t)
	clk := openjurytest.NewClock()
	svc := agr.NewService(db.AGR(), clk)
	a := openjury.MustAddress("0x00000000000000000000000000000000000000a1")

	st, err := svc.Status(ctx, a.Checksum())
	require.NoError(t, err)
	require.Equal(t, agr.Status{Address: a}, st)
	_, err = svc.Status(ctx, "0xzz")
	require.Equal(t, openjury.Invalid, openjury.KindOf(err))

	for _, amount := range []int64{0, -5, agr.MaxDevMint + 1} {
		_, err := svc.DevMint(ctx, a, amount)
		require.Equal(t, "amount: must be between 1 and 1000000000", openjury.DetailOf(err))
	}
	_, err = svc.DevMint(ctx, "", 1)
	require.Equal(t, openjury.Invalid, openjury.KindOf(err))

	for i := range 3 {
		clk.Advance(time.Second)
		st, err = svc.DevMint(ctx, a, int64(10*(i+1)))
		require.NoError(t, err)
	}
	require.Equal(t, agr.Status{Address: a, Balance: 60, Earned: 60}, st)
	clk.Advance(time.Second)
	st, err = agr.Debit(ctx, db.AGR(), a, 25, agr.ReasonBoost, openjury.NewID(), clk.Now())
	require.NoError(t, err)
	require.Equal(t, agr.Status{Address: a, Balance: 35, Earned: 60, Spent: 25}, st)
	_, err = agr.Debit(ctx, db.AGR(), a, 36, agr.ReasonBoost, "", clk.Now())
	require.Equal(t, openjury.PaymentRequired, openjury.KindOf(err))
	require.Equal(t, "insufficient AGR balance", openjury.DetailOf(err))

	page, err := svc.Ledger(ctx, agr.LedgerInput{Address: a.String(), Limit: 3})
	require.NoError(t, err)
	require.Equal(t, a, page.Address)
	require.Equal(t, []int64{-25, 30, 20}, deltas(page.Entries), "newest first")
	require.NotEmpty(t, page.NextCursor)
	page, err = svc.Ledger(ctx, agr.LedgerInput{Address: a.String(), Limit: 3, Cursor: page.NextCursor})
	require.NoError(t, err)
	require.Equal(t, []int64{10}, deltas(page.Entries))
	require.Empty(t, page.NextCursor)

	for in, detail := range map[agr.LedgerInput]string{
		{Address: a.String(), Limit: 201}:    "limit: must be between 1 and 200",
		{Address: ""}:                        "address: must be 0x followed by 40 hex digits",
		{Address: a.String(), Cursor: "!!!"}: "cursor: not a cursor from this list",
	} {
		_, err := svc.Ledger(ctx, in)
		require.Equal(t, openjury.Invalid, openjury.KindOf(err))
		require.Equal(t, detail, openjury.DetailOf(err))
	}
}

func deltas(es []agr.Entry) []int64 {
	out := make([]int64, len(es))
	for i, e := range es {
		out[i] = e.Delta
	}
	return out
}
