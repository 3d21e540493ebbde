package bunstore

import (
	"context"
	"database/sql"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/sqlitedialect"

	"github.com/openjury/openjury/openjurytest/pgtest"
)

// TestRowPlans: the planned scan of jobRow reads what bun's scan reads,
// on both engines, for a row with every column set and one with every
// optional column NULL; a field type it does not know is refused when the
// plan is made, and an unexpected column when the rows are read.
func TestRowPlans(t *testing.T) {
	t.Parallel()
	ptr := func(v int64) *int64 { return &v }
	ref := func(n int64) chainRefCols {
		return chainRefCols{TxHash: "0xtx", ChainID: ptr(n), ContractAddress: "0xcontract", BlockNumber: ptr(n + 1), LogIndex: ptr(n + 2)}
	}
	full := &jobRow{ID: "00000000-0000-7000-8000-000000000001", Title: "Full", Prompt: "every column", BountyMicro: 5_000_000,
		Tags: `["a","b"]`, Status: "closed", SponsorAddress: "0x1111111111111111111111111111111111111111", CreatedAt: 1_700_000_000_000,
		ClosedAt: ptr(1_700_000_100_000), Close: ref(10), FeaturedScore: 7, FeaturedUntil: ptr(1_700_000_200_000),
		FinalVoteStartsAt: 1_700_000_010_000, FinalVoteEndsAt: 1_700_000_020_000,
		Anchor: anchorCols{BatchID: "b1", Root: "0xroot", URI: "ipfs://x", SchemaVersion: ptr(2), Salt: "0xsalt", CreatedAt: ptr(1_700_000_300_000),
			Records: ptr(12), Size: ptr(3456), Receipt: ref(20)},
		RecordsRev: 4, ClosingUntil: ptr(1_700_000_400_000), JobKey: "k1",
		Escrow:           escrowCols{Status: "funded", AmountMicro: ptr(5_000_000), RefundAfter: ptr(1_800_000_000_000), Ref: ref(30), Root: "0xsettled", TotalMicro: ptr(4_000_000), Mismatch: 1},
		PayoutTotalMicro: ptr(4_000_000), JuryMode: "commit_reveal", JurySize: ptr(3), JuryCommitEndsAt: ptr(1_700_000_500_000), JuryRevealEndsAt: ptr(1_700_000_600_000)}
	bare := &jobRow{ID: "00000000-0000-7000-8000-000000000002", Title: "Bare", Prompt: "no optional column", BountyMicro: 1,
		Tags: `[]`, Status: "open", SponsorAddress: "0x2222222222222222222222222222222222222222", CreatedAt: 1_700_000_000_001,
		FinalVoteStartsAt: 1_700_000_010_000, FinalVoteEndsAt: 1_700_000_020_000, JuryMode: "open"}
	for _, be := range []struct {
		name string
		dsn  func(t *testing.T) string
	}{
		{"sqlite", func(t *testing.T) string { return "sqlite:" + t.TempDir() + "/rows.db" }},
		{"postgres", func(t *testing.T) string { return pgtest.NewDatabase(t) }},
	} {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			d, err := Open(ctx, be.dsn(t))
			require.NoError(t, err)
			t.Cleanup(func() { _ = d.Close() })
			_, err = d.w.NewInsert().Model(&[]*jobRow{full, bare}).Exec(ctx)
			require.NoError(t, err)
			var viaBun []*jobRow
			require.NoError(t, d.w.NewSelect().Model(&viaBun).OrderExpr("j.id").Scan(ctx))
			require.Len(t, viaBun, 2)
			require.Equal(t, full, viaBun[0], "the fixture round-trips through bun")
			rows, err := d.w.QueryContext(ctx, d.w.NewSelect().Model((*jobRow)(nil)).OrderExpr("j.id").String())
			require.NoError(t, err)
			planned, err := scanPlanned[jobRow](rows, d.jobPlan, 0)
			require.NoError(t, err)
			require.NoError(t, rows.Close())
			require.Equal(t, viaBun, planned)
			for i, r := range planned {
				require.Equal(t, viaBun[i].Close.ChainID, r.Close.ChainID)
			}
			require.Nil(t, planned[1].ClosedAt)
			require.Empty(t, planned[1].Escrow.Status)

			// A submission's read: the job, the agent's stake (NULLs without
			// one) and its count, as bun reads them.
			staked := &stakeRow{Address: "0x3333333333333333333333333333333333333333", StakedMicro: 9, Ref: ref(40), UpdatedAt: 1_700_000_700_000}
			_, err = d.w.NewInsert().Model(staked).Exec(ctx)
			require.NoError(t, err)
			for _, c := range []struct {
				job   *jobRow
				agent string
			}{{full, staked.Address}, {bare, "0x4444444444444444444444444444444444444444"}} {
				args := []any{c.agent, c.job.ID, c.agent}
				var want submitStateRow
				bunRows, err := d.w.QueryContext(ctx, d.hot.jobForSubmit.generic, args...)
				require.NoError(t, err)
				require.True(t, bunRows.Next())
				require.NoError(t, d.w.ScanRow(ctx, bunRows, &want))
				require.NoError(t, bunRows.Close())
				rows, err := d.w.QueryContext(ctx, d.hot.jobForSubmit.generic, args...)
				require.NoError(t, err)
				got, err := scanPlanned[submitStateRow](rows, d.submitPlan, 1)
				require.NoError(t, err)
				require.NoError(t, rows.Close())
				require.Len(t, got, 1)
				require.Equal(t, &want, got[0])
				require.Equal(t, *c.job, got[0].jobRow)
			}

			rows, err = d.w.QueryContext(ctx, "SELECT id, title, 1 AS surprise FROM jobs")
			require.NoError(t, err)
			_, err = scanPlanned[jobRow](rows, d.jobPlan, 0)
			require.ErrorContains(t, err, `column "surprise" is not a field`)
			require.NoError(t, rows.Close())
			rows, err = d.w.QueryContext(ctx, "SELECT title AS bounty_micro FROM jobs")
			require.NoError(t, err)
			_, err = scanPlanned[jobRow](rows, d.jobPlan, 0)
			require.ErrorContains(t, err, "bounty_micro: a string, not an integer")
			require.NoError(t, rows.Close())
		})
	}
	type odd struct {
		bun.BaseModel `bun:"table:odd"`
		ID            string       `bun:"id,pk"`
		When          sql.NullTime `bun:"when"`
	}
	tables := bun.NewDB(nil, sqlitedialect.New())
	_, err := newRowPlan(tables.Table(reflect.TypeFor[odd]()))
	require.ErrorContains(t, err, "has no planned scan")
	_, err = newRowPlan(tables.Table(reflect.TypeFor[submitStateRow]()), "Stakes")
	require.ErrorContains(t, err, "has no field Stakes", "a misspelt nullable side")
}
