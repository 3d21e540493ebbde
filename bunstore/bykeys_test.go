package bunstore_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/search"
)

// keyedIndexes are the indexes a read by keys may probe: the primary keys
// of jobs, submissions, comments, posts, webhooks and events on either
// engine.
const keyedIndexes = "sqlite_autoindex_|USING INTEGER PRIMARY KEY|_pkey"

// TestKeyedReadPlans checks, on both engines, that the store's reads of
// rows by a list of keys (the search indexer's documents of every kind,
// submission heads, the webhook deliverer's endpoints and events, the
// sequencer's jobs, a proof's leaf by a bare record id) find their rows,
// and on SQLite that they probe each key's index and scan no table, with
// the planner's statistics taken at 100 rows per table and planRows rows
// in each: what PRAGMA optimize leaves after a quiet start and keeps
// until a table has grown tenfold (the load tool's submissions grow
// fiftyfold in a few seconds). There an IN list of as many keys scans the
// whole table, the plan the reads avoid, while a row-value list of
// VALUES (retention's delete of event keys, rowValues) still probes. On
// PostgreSQL, which keeps the IN list, it checks that the planner sees
// the table's size as it is.
func TestKeyedReadPlans(t *testing.T) {
	t.Parallel()
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			db := open(t, be.dsn(t))
			ctx := context.Background()
			noAutovacuum(t, db, "submissions") // the statistics checked below are the test's own
			seedRows(t, db, 100)               // submissions refer to jobs 1 to 100
			seedRange(t, db, 101, planRows)
			log := &queryLog{}
			bunstore.AddQueryHook(db, log)

			// keys are 256 ids of prefix spread over the table.
			keys := func(prefix string) []string {
				out := make([]string, 256)
				for i := range out {
					out[i] = fmt.Sprintf("%s%d", prefix, 100000+1+i*37)
				}
				return out
			}
			var items []search.Pending
			for kind, prefix := range map[search.Kind]string{search.KindJob: "j", search.KindSubmission: "s",
				search.KindComment: "c", search.KindPost: "p"} {
				for _, id := range keys(prefix) {
					items = append(items, search.Pending{Kind: kind, ID: id, Gen: 1})
				}
			}
			sources, err := db.SearchIndex().Sources(ctx, items)
			require.NoError(t, err)
			require.Len(t, sources, len(items))
			for _, s := range sources {
				require.False(t, s.Gone, "%s %s is found", s.Kind, s.ID)
			}
			heads, err := db.Submissions().SubmissionHeads(ctx, keys("s"))
			require.NoError(t, err)
			require.Len(t, heads, 256)
			// Every tenth delivery is pending, 1,000 of them.
			claims, err := db.Webhooks().ClaimDeliveries(ctx, planRef, time.Minute, 256)
			require.NoError(t, err)
			require.Len(t, claims, 256)
			// The sequencer reads the jobs of its outbox rows (after the
			// seeded log).
			_, err = db.Bun().ExecContext(ctx, fmt.Sprintf(`UPDATE event_marks SET value = %d WHERE name = 'seq'`, planRows))
			require.NoError(t, err)
			_, err = db.Bun().ExecContext(ctx, `INSERT INTO event_outbox (type, job_id, actor, subjects, audience, tags, data, created_at)
				SELECT 'job.created', id, NULL, '[]', '[]', '[]', '{}', 0 FROM jobs ORDER BY id LIMIT 200`)
			require.NoError(t, err)
			moved, err := db.EventLog().Sequence(ctx, planRef, 200)
			require.NoError(t, err)
			require.Equal(t, 200, moved)

			var reads []string
			for _, q := range log.take() {
				if strings.Contains(q, "json_each") || strings.Contains(q, " IN (") {
					reads = append(reads, q)
				}
			}
			// Four kinds of documents, heads, endpoints, events, jobs.
			require.Len(t, reads, 8, strings.Join(reads, "\n"))
			// A proof's leaf by a bare record id: the record under each
			// of its kinds, in a batch of 100 records (r707 is record 7).
			leaves, err := db.AnchorLeaves(ctx, "b7", []string{"job:r707", "submission:r707", "vote:r707", "comment:r707"})
			require.NoError(t, err)
			require.Len(t, leaves, 1)
			leaf := log.take()
			require.Len(t, leaf, 1)
			if db.Dialect() == bunstore.DialectPostgres {
				// The planner scales the statistics of 100 rows to the
				// table's pages now, so it weighs an IN list against the
				// table as it is (here a scan of 10,000 short rows costs
				// less than 256 probes; at a million it would not).
				p := strings.Join(explain(t, db, "SELECT id FROM submissions"), "\n")
				require.Regexp(t, `rows=(9\d{3}|1\d{4}) `, p)
				return
			}
			for _, q := range reads {
				p := explain(t, db, q)
				require.Empty(t, checkPlan(db.Dialect(), p, keyedIndexes, true), "%.300s\nplan:\n%s", q, strings.Join(p, "\n"))
			}
			p := explain(t, db, leaf[0])
			require.Empty(t, checkPlan(db.Dialect(), p, "anchor_records_record_key", true), "%s\nplan:\n%s", leaf[0], strings.Join(p, "\n"))
			in := "SELECT s.id, s.content FROM submissions AS s WHERE s.id IN ('" + strings.Join(keys("s"), "', '") + "')"
			p = explain(t, db, in)
			require.Contains(t, checkPlan(db.Dialect(), p, keyedIndexes, true), "full scan: SCAN s", strings.Join(p, "\n"))
			// The row-value lists of rowValues are planned as a subquery
			// of VALUES, probed key by key under the same statistics.
			q, args := bunstore.ExpireKeysSQL(db, 2000)
			p = explain(t, db, q, args...)
			require.Empty(t, checkPlan(db.Dialect(), p, "event_keys USING PRIMARY KEY", true), strings.Join(p, "\n"))
		})
	}
}
