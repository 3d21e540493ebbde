package bunstore_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/bunstore"
)

// TestJobHead: a job by id on SQLite reads the row without its receipts
// first, in one statement when the job has none, and answers exactly as
// the whole row does whichever receipt column holds a value: each of the
// 29 in turn, set alone on a job that had none.
func TestJobHead(t *testing.T) {
	t.Parallel()
	db := open(t, sqliteDSN(t))
	ctx := context.Background()
	n := 0
	newJob := func() string {
		n++
		id := fmt.Sprintf("00000000-0000-7000-8000-%012d", n)
		require.NoError(t, db.Jobs().CreateJob(ctx, job(id)))
		return id
	}
	check := func(id, col string) {
		t.Helper()
		want, err := bunstore.JobWhole(ctx, db, id)
		require.NoError(t, err, col)
		got, err := db.Jobs().Job(ctx, id)
		require.NoError(t, err, col)
		require.Equal(t, want, got, col)
	}

	plain := newJob()
	before := bunstore.HotRuns(db)
	check(plain, "none")
	require.Equal(t, int64(2), bunstore.HotRuns(db)-before, "JobWhole's statement, then Job's one")

	cols := bunstore.JobReceiptColumns(db)
	require.Len(t, cols, 29, "the close, anchor and escrow columns")
	// A value each column takes (its CHECK constraint's, where it has one).
	value := func(col string) any {
		if v, ok := map[string]any{"escrow_status": "funded", "escrow_mismatch": 1}[col]; ok {
			return v
		}
		if cols[col].Text {
			return "x"
		}
		return 7
	}
	plainJob, err := bunstore.JobWhole(ctx, db, plain)
	require.NoError(t, err)
	shown := 0
	for col := range cols {
		// The column alone, then with its group's key (an anchor or an
		// escrow shows only with it).
		for _, with := range []string{"", "anchor_batch_id", "escrow_status"} {
			id := newJob()
			for _, c := range []string{col, with} {
				if c == "" {
					continue
				}
				_, err := db.Bun().ExecContext(ctx, "UPDATE jobs SET "+c+" = ? WHERE id = ?", value(c), id)
				require.NoError(t, err, c)
			}
			check(id, col+" with "+with)
			if with == "" {
				whole, err := bunstore.JobWhole(ctx, db, id)
				require.NoError(t, err)
				whole.ID = plain
				if !assert.ObjectsAreEqual(plainJob, whole) {
					shown++
				}
			}
		}
	}
	require.GreaterOrEqual(t, shown, 3, "a close's, an anchor's and an escrow's columns show alone")
}
