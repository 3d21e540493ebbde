package bunstore_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/uptrace/bun"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/search"
	"github.com/openjury/openjury/stake"
)

// planRows is how many rows the plan test puts in each listed table.
const planRows = 10000

// planBase is the created_at (Unix ms) of row 0 of the plan test's data;
// row i is planBase + i seconds.
const planBase int64 = 1_700_000_000_000

// planRef is the reference time of the job lists, after every row: the
// boosts of jobs i%1000 == 0 are active at it, those of the other
// i%500 == 0 expired.
var planRef = time.UnixMilli(planBase + 1e10).UTC()

// planAt is the created_at of row i.
func planAt(i int) time.Time { return time.UnixMilli(planBase + int64(i)*1000).UTC() }

// planSeed fills every listed table with planRows rows in one transaction,
// with SQL that generates them in the database (a recursive CTE, which
// both dialects run): jobs with tags, statuses and boosts, posts with tags,
// comments, ledger entries, AGR balances, slash events, reputation,
// submissions and jury and final votes spread over 100 jobs, and stakes.
var planSeed = []string{
	`INSERT INTO jobs (id, title, prompt, bounty_micro, tags, status, sponsor_address, created_at,
		featured_score, featured_until, final_vote_starts_at, final_vote_ends_at, anchor_batch_id, anchor_root, escrow_status)
	SELECT 'j' || (100000 + i), 'title', 'prompt', 1000000, '[]',
		CASE WHEN i % 3 = 0 THEN 'closed' ELSE 'open' END, 'sponsor' || (i % 100), {base} + i * 1000,
		CASE WHEN i % 500 = 0 THEN i ELSE 0 END,
		CASE WHEN i % 1000 = 0 THEN {ref} + 3600000 WHEN i % 500 = 0 THEN {ref} - 3600000 END,
		{base} + i * 1000, {base} + i * 1000 + 86400000,
		CASE WHEN i % 100 = 1 THEN 'b' || i END, CASE WHEN i % 100 = 1 THEN '0x' || i END,
		CASE WHEN i % 10 = 0 THEN 'funded' WHEN i % 10 = 1 THEN 'settled' END
	FROM n`,
	`INSERT INTO job_tags (job_id, tag, status, created_at)
	SELECT 'j' || (100000 + i), 'tag' || (i % 10), CASE WHEN i % 3 = 0 THEN 'closed' ELSE 'open' END, {base} + i * 1000
	FROM n`,
	`INSERT INTO job_tags (job_id, tag, status, created_at)
	SELECT 'j' || (100000 + i), 'common', CASE WHEN i % 3 = 0 THEN 'closed' ELSE 'open' END, {base} + i * 1000
	FROM n`,
	`INSERT INTO posts (id, title, content, author_address, tags, created_at)
	SELECT 'p' || (100000 + i), 'title', 'content', 'author' || (i % 100), '[]', {base} + i * 1000 FROM n`,
	`INSERT INTO post_tags (post_id, tag, created_at)
	SELECT 'p' || (100000 + i), 'tag' || (i % 10), {base} + i * 1000 FROM n`,
	`INSERT INTO comments (id, target_type, target_id, job_id, rev, author_address, content, created_at)
	SELECT 'c' || (100000 + i), 'job', 'j' || (100000 + i % 100 + 1), 'j' || (100000 + i % 100 + 1), i, 'author' || (i % 100), 'content', {base} + i * 1000 FROM n`,
	`INSERT INTO agr_ledger (id, address, delta, reason, created_at)
	SELECT 'l' || (100000 + i), 'addr' || (i % 100), 5, 'dev_mint', {base} + i * 1000 FROM n`,
	`INSERT INTO agr_balances (address, balance, earned, spent)
	SELECT 'addr' || i, i, i, 0 FROM n`,
	`INSERT INTO slash_events (id, agent_address, amount_micro, job_id, created_at)
	SELECT 'e' || (100000 + i), 'addr' || (i % 100), 1000, 'j' || (100000 + i % 97 + 1), {base} + i * 1000 FROM n`,
	`INSERT INTO reputation (address, score, updated_at)
	SELECT 'addr' || (100000 + i), i % 997, {base} FROM n`,
	`INSERT INTO submissions (id, job_id, agent_address, content, evidence, created_at)
	SELECT 's' || (100000 + i), 'j' || (100000 + i % 100 + 1), 'agent' || (i % 1000), 'content', '[]', {base} + i * 1000 FROM n`,
	`INSERT INTO stakes (address, staked_micro, updated_at)
	SELECT 'agent' || i, i * 1000, {base} + i * 1000 FROM n`,
	`INSERT INTO votes (id, job_id, submission_id, voter_address, weight, created_at)
	SELECT 'v' || (100000 + i), 'j' || (100000 + i % 100 + 1), 's' || (100000 + i), 'voter' || i, 1 + i % 5, {base} + i * 1000 FROM n`,
	`INSERT INTO final_votes (id, job_id, submission_id, voter_address, created_at)
	SELECT 'f' || (100000 + i), 'j' || (100000 + i % 100 + 1), 's' || (100000 + i), 'voter' || i, {base} + i * 1000 FROM n`,
	`INSERT INTO anchor_records (batch_id, ord, record_id, body)
	SELECT 'b' || (i % 100), i / 100, 'submission:r' || i, {blob320} FROM n`,
	`INSERT INTO anchor_nodes (batch_id, level, chunk, hashes)
	SELECT 'b' || (i % 100), i / 100 % 10, i / 1000, {blob320} FROM n`,
	`INSERT INTO anchor_leaf_index (batch_id, chunk, idxs)
	SELECT 'b' || (i % 100), i / 100 - 1, CASE WHEN i < 100 THEN {blob4} ELSE {blob32} END FROM n`,
	`INSERT INTO job_payouts (job_id, recipient, amount_micro, roles)
	SELECT 'j' || (100000 + i % 100 + 1), 'r' || (100000 + i), 1 + i, '["juror"]' FROM n`,
	`INSERT INTO escrow_events (chain_id, tx_hash, log_index, job_id, kind, contract_address, block_number, sponsor,
		recipient, amount_micro, created_at)
	SELECT 8453, 't' || i, 0, 'j' || (100000 + i % 100 + 1), CASE WHEN i % 2 = 0 THEN 'claimed' ELSE 'funded' END, 'c', i,
		'sponsor', CASE WHEN i % 2 = 0 THEN 'r' || (100000 + i) END, 1, {base} + i * 1000 FROM n`,
	`INSERT INTO anchor_builds (batch_id, job_id, started_at)
	SELECT 'x' || i, 'j' || (100000 + i), {base} + i * 1000 FROM n`,
	// A busy address for a profile's lists: a hundred submissions, jury
	// votes and final votes (one a job, on the jobs the others use, so the
	// tables' statistics keep their shape), spread over the whole time.
	`INSERT INTO submissions (id, job_id, agent_address, content, evidence, created_at)
	SELECT 'h' || (100000 + i), 'j' || (100000 + i % 100 + 1), 'busy', 'content', '[]', {base} + i * 100000 FROM n WHERE i <= 100`,
	`INSERT INTO votes (id, job_id, submission_id, voter_address, weight, created_at)
	SELECT 'hv' || (100000 + i), 'j' || (100000 + i % 100 + 1), 'h' || (100000 + i), 'busy', 1, {base} + i * 100000 FROM n WHERE i <= 100`,
	`INSERT INTO final_votes (id, job_id, submission_id, voter_address, created_at)
	SELECT 'hf' || (100000 + i), 'j' || (100000 + i % 100 + 1), 'h' || (100000 + i), 'busy', {base} + i * 100000 FROM n WHERE i <= 100`,
	`INSERT INTO events (seq, type, job_id, actor, subjects, audience, restricted, tags, data, created_at)
	SELECT i, CASE WHEN i % 200 = 7 THEN 'final_vote.opened' WHEN i % 4 = 0 THEN 'job.created' WHEN i % 4 = 1 THEN 'submission.created' WHEN i % 4 = 2 THEN 'vote.cast' ELSE 'post.created' END,
		CASE WHEN i % 2 = 0 THEN 'j' || (100000 + i % 100 + 1) END, 'addr' || (i % 100), '[]', '[]', 0, '[]', '{}', {base} + i * 1000 FROM n`,
	`INSERT INTO event_keys (key, seq) SELECT 'a:addr' || (i % 100), i FROM n`,
	`INSERT INTO event_keys (key, seq) SELECT 't:tag' || (i % 10), i FROM n`,
	`INSERT INTO webhooks (id, kind, owner_address, url, types, job_id, tag, secret, created_at)
	SELECT 'w' || i, 'webhook', 'addr' || (i % 1000), 'https://h.example/' || i, '[]',
		CASE WHEN i % 3 = 0 THEN 'j' || (100000 + i) END, CASE WHEN i % 3 = 1 THEN 'tag' || (i % 10) END, 'x', {base} + i * 1000
	FROM n`,
	`INSERT INTO webhook_deliveries (id, webhook_id, event_seq, event_type, status, next_attempt_at, created_at)
	SELECT 'd' || (100000 + i), 'w' || (i % 100 + 1), i, 'job.created', CASE WHEN i % 10 = 0 THEN 'pending' ELSE 'delivered' END,
		CASE WHEN i % 10 = 0 THEN {base} + i * 1000 END, {base} + i * 1000 FROM n`,
}

// planBlobs are the {blob32}, {blob320} and {blob4} of planSeed per
// dialect: 32, 320 and 4 zero bytes.
var planBlobs = map[string][]string{
	bunstore.DialectSQLite:   {"zeroblob(32)", "zeroblob(320)", "zeroblob(4)"},
	bunstore.DialectPostgres: {"decode(repeat('00', 32), 'hex')", "decode(repeat('00', 320), 'hex')", "decode(repeat('00', 4), 'hex')"},
}

// seedPlan runs planSeed with planRows rows in one transaction, then
// ANALYZE.
func seedPlan(t testing.TB, db *bunstore.DB) { seedRows(t, db, planRows) }

// seedRows is seedPlan with rows rows per table.
func seedRows(t testing.TB, db *bunstore.DB, rows int) {
	t.Helper()
	seedRange(t, db, 1, rows)
	analyzePlan(t, db)
}

// seedRange inserts rows from to to (both included) of every table of
// planSeed in one transaction.
func seedRange(t testing.TB, db *bunstore.DB, from, to int) {
	t.Helper()
	ctx := context.Background()
	blobs := planBlobs[db.Dialect()]
	r := strings.NewReplacer("{base}", fmt.Sprint(planBase), "{ref}", fmt.Sprint(planRef.UnixMilli()),
		"{blob32}", blobs[0], "{blob320}", blobs[1], "{blob4}", blobs[2])
	numbers := fmt.Sprintf("WITH RECURSIVE n(i) AS (SELECT %d UNION ALL SELECT i + 1 FROM n WHERE i < %d) ", from, to)
	require.NoError(t, db.Bun().RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		for _, q := range planSeed {
			// INSERT INTO t (cols) WITH ... SELECT ...: both dialects.
			i := strings.Index(q, "SELECT")
			if _, err := tx.ExecContext(ctx, r.Replace(q[:i]+numbers+q[i:])); err != nil {
				return fmt.Errorf("%s: %w", q[:40], err)
			}
		}
		return nil
	}))
}

// analyzePlan refreshes the planner's statistics of every table.
func analyzePlan(t testing.TB, db *bunstore.DB) {
	t.Helper()
	ctx := context.Background()
	// PostgreSQL: VACUUM too, as autovacuum would, so the visibility map
	// lets the planner weigh index-only scans.
	analyze := "ANALYZE"
	if db.Dialect() == bunstore.DialectPostgres {
		analyze = "VACUUM ANALYZE"
	}
	_, err := db.Bun().ExecContext(ctx, analyze)
	require.NoError(t, err)
}

// noAutovacuum turns autovacuum off for table on PostgreSQL, for a test
// that checks plans under statistics it took itself before inserting more:
// a worker analysing the table while those rows are being inserted counts
// only the committed ones against all the pages, and one analysing it
// after replaces the test's statistics. On SQLite it does nothing.
func noAutovacuum(t testing.TB, db *bunstore.DB, table string) {
	t.Helper()
	if db.Dialect() != bunstore.DialectPostgres {
		return
	}
	_, err := db.Bun().ExecContext(context.Background(), "ALTER TABLE "+table+" SET (autovacuum_enabled = false)")
	require.NoError(t, err)
}

// queryLog is a bun query hook that records the SELECTs the store runs.
type queryLog struct {
	// all records every query, not only the SELECTs.
	all     bool
	mu      sync.Mutex
	queries []string
}

func (l *queryLog) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context { return ctx }

func (l *queryLog) AfterQuery(_ context.Context, e *bun.QueryEvent) {
	if l.all || strings.HasPrefix(e.Query, "SELECT") {
		l.mu.Lock()
		l.queries = append(l.queries, e.Query)
		l.mu.Unlock()
	}
}

// take returns and forgets the recorded queries.
func (l *queryLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	q := l.queries
	l.queries = nil
	return q
}

// planCase is one list call of a store method and the index its plan
// must walk.
type planCase struct {
	name string
	// index must appear in the plan of the call's last query (one of
	// "a|b": for a filter most rows pass, walking the unfiltered order's
	// index is as good); a job list that reads the boosted phase first
	// walks boost there.
	index, boost string
	// whole is for reads of one job's whole set (tallies, submission
	// keys): they may sort that set (for tallies: their groups), never
	// scan the table.
	whole bool
	// claims: a second query reads the page's claims by
	// escrow_events_job_recipient_idx (a few probes).
	claims bool
	call   func(ctx context.Context, db *bunstore.DB) error
	// hot, instead of call, is a prepared hot statement (the store runs
	// it outside bun's query hooks) and its parameters, explained as is.
	hot func(db *bunstore.DB) (string, []any)
	// page, for a job list, is its filter: a page is one prepared
	// statement (not seen by the query hook), whose plans pagePlans
	// returns. The statement walks boost (when set) and index.
	page *marketplace.JobFilter
}

// planCases covers every list query with and without its filters, from
// the start and from a cursor deep inside.
func planCases() []planCase {
	const limit = 21
	// Two jobs in three are open.
	const openJobs = "jobs_status_created_at_id_idx|jobs_created_at_id_idx"
	// One in three is closed: walking the unfiltered order reads three
	// rows a listed one.
	const closedJobs = openJobs
	jobs := func(status marketplace.Status, tag string, after *marketplace.JobCursor) *marketplace.JobFilter {
		return &marketplace.JobFilter{Status: status, Tag: tag, Ref: planRef, Limit: limit, After: after}
	}
	funded := func(status marketplace.Status, after *marketplace.JobCursor) *marketplace.JobFilter {
		return &marketplace.JobFilter{Status: status, Funded: true, Ref: planRef, Limit: limit, After: after}
	}
	payouts := func(after openjury.Address) func(ctx context.Context, db *bunstore.DB) error {
		return func(ctx context.Context, db *bunstore.DB) error {
			p, err := db.Escrow().Payouts(ctx, "j100008", "", after, limit)
			if err == nil && len(p) != limit {
				err = fmt.Errorf("%d payouts", len(p))
			}
			return err
		}
	}
	boosted := &marketplace.JobCursor{Rank: 9000, CreatedAt: planAt(9000), ID: "j109000"}
	deep := &marketplace.JobCursor{CreatedAt: planAt(5000), ID: "j105000"}
	posts := func(tag string, after *marketplace.Cursor) func(ctx context.Context, db *bunstore.DB) error {
		return func(ctx context.Context, db *bunstore.DB) error {
			_, err := db.Posts().Posts(ctx, marketplace.PostFilter{Tag: tag, Limit: limit, After: after})
			return err
		}
	}
	slashes := func(agent openjury.Address, job string, after *stake.Cursor) func(ctx context.Context, db *bunstore.DB) error {
		return func(ctx context.Context, db *bunstore.DB) error {
			_, err := db.Stake().Slashes(ctx, stake.SlashFilter{Agent: agent, JobID: job, Limit: limit, After: after})
			return err
		}
	}
	mid := &marketplace.Cursor{At: planAt(5000), ID: "x105000"}
	midSlash := &stake.Cursor{At: planAt(5000), ID: "e105000"}
	cases := []planCase{
		{name: "jobs all", index: "jobs_created_at_id_idx", boost: "jobs_boost_idx", page: jobs("", "", nil)},
		{name: "jobs all deep", index: "jobs_created_at_id_idx", page: jobs("", "", deep)},
		{name: "jobs open", index: openJobs, boost: "jobs_boost_status_idx", page: jobs(marketplace.StatusOpen, "", nil)},
		{name: "jobs open deep", index: openJobs, page: jobs(marketplace.StatusOpen, "", deep)},
		{name: "jobs tag", index: "job_tags_tag_created_at_id_idx", boost: "jobs_boost_idx", page: jobs("", "tag3", nil)},
		{name: "jobs tag deep", index: "job_tags_tag_created_at_id_idx", page: jobs("", "tag3", deep)},
		{name: "jobs open tag", index: "job_tags_tag_status_created_at_id_idx", boost: "jobs_boost_status_idx", page: jobs(marketplace.StatusOpen, "common", nil)},
		{name: "jobs open tag deep", index: "job_tags_tag_status_created_at_id_idx", page: jobs(marketplace.StatusOpen, "common", deep)},
		{name: "jobs boosted cursor", index: "jobs_created_at_id_idx", boost: "jobs_boost_idx", page: jobs("", "", boosted)},
		{name: "jobs open boosted cursor", index: openJobs, boost: "jobs_boost_status_idx", page: jobs(marketplace.StatusOpen, "", boosted)},
		{name: "jobs funded", index: "jobs_funded_created_at_id_idx", boost: "jobs_boost_idx", page: funded("", nil)},
		{name: "jobs funded deep", index: "jobs_funded_created_at_id_idx", page: funded("", deep)},
		{name: "jobs open funded", index: "jobs_funded_status_created_at_id_idx|jobs_funded_created_at_id_idx", boost: "jobs_boost_status_idx", page: funded(marketplace.StatusOpen, nil)},
		{name: "jobs open funded deep", index: "jobs_funded_status_created_at_id_idx|jobs_funded_created_at_id_idx", page: funded(marketplace.StatusOpen, deep)},
		{name: "payouts", index: "job_payouts_pkey|sqlite_autoindex_job_payouts_1", claims: true, call: payouts("")},
		{name: "payouts deep", index: "job_payouts_pkey|sqlite_autoindex_job_payouts_1", claims: true, call: payouts("r100500")},
		{name: "posts", index: "posts_created_at_id_idx", call: posts("", nil)},
		{name: "posts deep", index: "posts_created_at_id_idx", call: posts("", mid)},
		{name: "posts tag", index: "post_tags_tag_created_at_id_idx", call: posts("tag4", nil)},
		{name: "posts tag deep", index: "post_tags_tag_created_at_id_idx", call: posts("tag4", mid)},
		{name: "slashes", index: "slash_events_created_at_id_idx", call: slashes("", "", nil)},
		{name: "slashes deep", index: "slash_events_created_at_id_idx", call: slashes("", "", midSlash)},
		{name: "slashes agent", index: "slash_events_agent_created_at_id_idx", call: slashes("addr7", "", nil)},
		{name: "slashes agent deep", index: "slash_events_agent_created_at_id_idx", call: slashes("addr7", "", midSlash)},
		{name: "slashes job", index: "slash_events_job_created_at_id_idx", call: slashes("", "j100005", nil)},
		{name: "slashes job deep", index: "slash_events_job_created_at_id_idx", call: slashes("", "j100005", midSlash)},
		{name: "slashes agent job", index: "slash_events_agent_job_created_at_id_idx", call: slashes("addr7", "j100005", midSlash)},
		// One job in three is closed: the web app's closed-only filter.
		{name: "jobs closed", index: closedJobs, boost: "jobs_boost_status_idx", page: jobs(marketplace.StatusClosed, "", nil)},
		{name: "jobs closed deep", index: closedJobs, page: jobs(marketplace.StatusClosed, "", deep)},
	}
	for _, after := range []*marketplace.Cursor{nil, mid} {
		sfx := map[bool]string{true: "", false: " deep"}[after == nil]
		cases = append(cases,
			planCase{name: "comments" + sfx, index: "comments_target_created_at_id_idx", call: func(ctx context.Context, db *bunstore.DB) error {
				_, err := db.Comments().Comments(ctx, marketplace.TargetJob, "j100008", limit, after)
				return err
			}},
			planCase{name: "submissions" + sfx, index: "submissions_job_created_at_id_idx", call: func(ctx context.Context, db *bunstore.DB) error {
				_, err := db.Submissions().Submissions(ctx, "j100008", limit, after)
				return err
			}},
		)
	}
	// A profile's lists (hot statements), from an address's newest entry
	// and from deep inside (sponsor7 has 100 jobs; busy 100 submissions
	// and votes of each kind).
	for _, at := range []struct {
		ms int64
		id string
	}{{math.MaxInt64, ""}, {planAt(5000).UnixMilli(), "x105000"}} {
		sfx := map[bool]string{true: "", false: " deep"}[at.id == ""]
		for name, c := range map[string]struct{ index, addr string }{
			"jobsBySponsor": {"jobs_sponsor_created_at_id_idx", "sponsor7"}, "subsByAgent": {"submissions_agent_created_at_id_idx", "busy"},
			"votesByVoter": {"votes_voter_created_at_id_idx", "busy"}, "finalsByVoter": {"final_votes_voter_created_at_id_idx", "busy"},
		} {
			cases = append(cases, planCase{name: name + sfx, index: c.index, hot: func(db *bunstore.DB) (string, []any) {
				return bunstore.WebSQL(db)[name], []any{c.addr, at.ms, at.id, limit}
			}})
		}
	}
	// A profile in one statement: the reputation's probe and each list's
	// walk of its index (one case per index), from the start and deep;
	// with its account, also the stake's and AGR balance's probes and the
	// ledger's walk.
	profileIndexes := []string{"reputation_pkey|sqlite_autoindex_reputation_1", "jobs_sponsor_created_at_id_idx",
		"submissions_agent_created_at_id_idx", "votes_voter_created_at_id_idx", "final_votes_voter_created_at_id_idx"}
	accountIndexes := []string{"stakes_pkey|sqlite_autoindex_stakes_1", "agr_balances_pkey|sqlite_autoindex_agr_balances_1",
		"agr_ledger_address_created_at_id_idx"}
	for _, at := range []struct {
		ms int64
		id string
	}{{math.MaxInt64, ""}, {planAt(5000).UnixMilli(), "x105000"}} {
		sfx := map[bool]string{true: "", false: " deep"}[at.id == ""]
		for _, account := range []bool{false, true} {
			indexes, name, stmt := profileIndexes, "profile ", "profile"
			if account {
				indexes, name, stmt = append(slices.Clone(profileIndexes), accountIndexes...), "profile with account ", "profileAccount"
			}
			for _, index := range indexes {
				cases = append(cases, planCase{name: name + index + sfx, index: index, hot: func(db *bunstore.DB) (string, []any) {
					args := []any{"addr7", "sponsor7", at.ms, at.id, limit}
					for range 3 {
						args = append(args, "busy", at.ms, at.id, limit)
					}
					if account {
						args = append(args, "agent7", "addr7", "addr7", at.ms, at.id, limit)
					}
					return bunstore.WebSQL(db)[stmt], args
				}})
			}
		}
	}
	// The first comments of each of a page's submissions and a job list's
	// submission counts: one LIMITed walk a target, the unused slots too.
	threadSlots, countSlots := bunstore.WebSlots()
	cases = append(cases,
		planCase{name: "comments of submissions", index: "comments_target_created_at_id_idx", hot: func(db *bunstore.DB) (string, []any) {
			var args []any
			for i := range threadSlots {
				args = append(args, "job", fmt.Sprintf("j1000%02d", i), limit)
			}
			args[len(args)-2] = ""
			return bunstore.WebSQL(db)["threads"], args
		}},
		// A count reads at most its LIMIT of each job's rows, in whatever
		// order (PostgreSQL may count a small job through a bitmap).
		planCase{name: "submission counts", index: "submissions_job_created_at_id_idx|submissions_job_agent_idx", whole: true, hot: func(db *bunstore.DB) (string, []any) {
			var args []any
			for i := range countSlots {
				id := fmt.Sprintf("j1000%02d", i)
				args = append(args, id, id, 1000)
			}
			return bunstore.WebSQL(db)["counts"], args
		}},
	)
	for _, after := range []*marketplace.LeaderCursor{nil, {Score: 500, Address: "addr105000"}} {
		cases = append(cases, planCase{name: fmt.Sprint("leaderboard after ", after), index: "reputation_score_address_idx",
			call: func(ctx context.Context, db *bunstore.DB) error {
				_, err := db.Reputation().Leaderboard(ctx, limit, after)
				return err
			}})
	}
	return append(append(cases,
		planCase{name: "ledger", index: "agr_ledger_address_created_at_id_idx", hot: func(db *bunstore.DB) (string, []any) {
			return bunstore.WebSQL(db)["ledger"], []any{"addr7", int64(math.MaxInt64), "", limit}
		}},
		planCase{name: "ledger deep", index: "agr_ledger_address_created_at_id_idx", hot: func(db *bunstore.DB) (string, []any) {
			return bunstore.WebSQL(db)["ledger"], []any{"addr7", planAt(5000).UnixMilli(), "l105000", limit}
		}},
		// A profile's reputation: a primary-key probe.
		planCase{name: "reputation of", index: "reputation_pkey|sqlite_autoindex_reputation_1", hot: func(db *bunstore.DB) (string, []any) {
			return bunstore.WebSQL(db)["reputationOf"], []any{"addr7"}
		}},
		// Heads of a tally's submissions: primary-key probes.
		planCase{name: "submission heads", index: "submissions_pkey|sqlite_autoindex_submissions_1", whole: true, call: func(ctx context.Context, db *bunstore.DB) error {
			_, err := db.Submissions().SubmissionHeads(ctx, []string{"s100008", "s100009", "s100010"})
			return err
		}},
		planCase{name: "submission keys", index: "submissions_job_created_at_id_idx|submissions_job_agent_idx", whole: true, call: func(ctx context.Context, db *bunstore.DB) error {
			_, err := db.Submissions().SubmissionKeys(ctx, "j100008")
			return err
		}},
		planCase{name: "tally", index: "votes_job_submission_idx|votes_job_id_voter_address_key|votes_job_created_at_id_idx", whole: true, call: func(ctx context.Context, db *bunstore.DB) error {
			_, err := db.Votes().Tally(ctx, "j100008")
			return err
		}},
		planCase{name: "final tally", index: "final_votes_job_submission_idx|final_votes_job_id_voter_address_key|final_votes_job_created_at_id_idx", whole: true, call: func(ctx context.Context, db *bunstore.DB) error {
			_, err := db.FinalVotes().FinalTally(ctx, "j100008")
			return err
		}},
	), closingPlanCases()...)
}

// closingPlanCases are the reads of a close and of a stored batch: the
// snapshot scans from the start and from a deep cursor, a page of a
// batch's records, a leaf by record id, by bare object id and the salt's,
// the nodes of a proof and the cleanup's pick of old builds.
func closingPlanCases() []planCase {
	const limit = 21
	var cases []planCase
	for _, after := range []*marketplace.Cursor{nil, {At: planAt(5000), ID: "x105000"}} {
		sfx := map[bool]string{true: "", false: " deep"}[after == nil]
		all := func(any) bool { return true }
		cases = append(cases,
			planCase{name: "scan submissions" + sfx, index: "submissions_job_created_at_id_idx", call: func(ctx context.Context, db *bunstore.DB) error {
				return db.Snapshots().ScanSubmissions(ctx, "j100008", after, limit, func(s *marketplace.Submission) bool { return all(s) })
			}},
			planCase{name: "scan votes" + sfx, index: "votes_job_created_at_id_idx", call: func(ctx context.Context, db *bunstore.DB) error {
				return db.Snapshots().ScanVotes(ctx, "j100008", after, limit, func(v *marketplace.Vote) bool { return all(v) })
			}},
			planCase{name: "scan final votes" + sfx, index: "final_votes_job_created_at_id_idx", call: func(ctx context.Context, db *bunstore.DB) error {
				return db.Snapshots().ScanFinalVotes(ctx, "j100008", after, limit, func(v *marketplace.FinalVote) bool { return all(v) })
			}},
			planCase{name: "scan comments" + sfx, index: "comments_job_created_at_id_idx", call: func(ctx context.Context, db *bunstore.DB) error {
				return db.Snapshots().ScanComments(ctx, "j100008", 1<<40, after, limit, func(c *marketplace.Comment) bool { return all(c) })
			}},
		)
	}
	leaves := func(want int, keys ...string) func(ctx context.Context, db *bunstore.DB) error {
		return func(ctx context.Context, db *bunstore.DB) error {
			refs, err := db.AnchorLeaves(ctx, "b7", keys)
			if err == nil && len(refs) != want {
				err = fmt.Errorf("%d leaves of %q", len(refs), keys)
			}
			return err
		}
	}
	cases = append(cases, eventPlanCases(limit)...)
	return append(cases,
		planCase{name: "anchor records page", index: "anchor_records_pkey|sqlite_autoindex_anchor_records_1", call: func(ctx context.Context, db *bunstore.DB) error {
			page, err := db.AnchorRecords(ctx, "b7", 40, limit, 1<<20)
			if err == nil && len(page) != limit {
				err = fmt.Errorf("%d records", len(page))
			}
			return err
		}},
		planCase{name: "anchor leaf by record id", index: "anchor_records_record_key", call: leaves(1, "submission:r707")},
		// A bare id: its record id under each type, a few probes of the
		// unique key, sorted into document order.
		planCase{name: "anchor leaf by bare id", index: "anchor_records_record_key", whole: true,
			call: leaves(1, "job:r707", "submission:r707", "vote:r707", "final_vote:r707", "comment:r707")},
		planCase{name: "anchor salt leaf", index: "anchor_leaf_index_pkey|sqlite_autoindex_anchor_leaf_index_1", call: leaves(1, anchor.SaltRecordID)},
		// A proof's nodes: a handful of primary-key probes (PostgreSQL may
		// combine them in a bitmap).
		planCase{name: "anchor nodes", index: "anchor_nodes_pkey|sqlite_autoindex_anchor_nodes_1", whole: true, call: func(ctx context.Context, db *bunstore.DB) error {
			nodes, err := db.AnchorNodes(ctx, "b7", anchor.ProofPath(5, 9000))
			if err == nil && len(nodes) < 2 {
				err = fmt.Errorf("%d nodes", len(nodes))
			}
			return err
		}},
		planCase{name: "cleanup builds", index: "anchor_builds_started_at_idx", call: func(ctx context.Context, db *bunstore.DB) error {
			_, err := db.Anchors().CleanupBuilds(ctx, planAt(1), planRef)
			return err
		}},
	)
}

// eventPlanCases are the event log's reads: each filter's driving index
// walked in seq order from a position deep in the log, and the webhook
// lists.
func eventPlanCases(limit int) []planCase {
	read := func(f events.Filter) func(ctx context.Context, db *bunstore.DB) error {
		return func(ctx context.Context, db *bunstore.DB) error {
			evs, err := db.EventLog().Read(ctx, f, 5000, 5000+50_000, limit)
			if err == nil && len(evs) == 0 {
				err = errors.New("no events")
			}
			return err
		}
	}
	const byPK = "events_pkey|INTEGER PRIMARY KEY"
	// SQLite stores event_keys WITHOUT ROWID: its primary key is the table.
	const byKey = "event_keys_pkey|k USING PRIMARY KEY"
	return []planCase{
		{name: "events", index: byPK, call: read(events.Filter{})},
		// A common type: walking the log itself is as good.
		{name: "events of a type", index: "events_type_seq_idx|" + byPK, call: read(events.Filter{Types: []events.Type{events.VoteCast}})},
		// A rare type: its index (PostgreSQL may fetch its few rows of the
		// window in a bitmap and sort them).
		{name: "events of a rare type", index: "events_type_seq_idx", whole: true, call: read(events.Filter{Types: []events.Type{events.FinalVoteOpened}})},
		{name: "events of a job", index: "events_job_id_seq_idx", call: read(events.Filter{JobID: "j100011"})},
		{name: "events of an address", index: byKey, call: read(events.Filter{Address: "addr7"})},
		{name: "events of an address and a type", index: byKey, call: read(events.Filter{Address: "addr7", Types: []events.Type{events.PostCreated}})},
		{name: "events of a tag", index: byKey, call: read(events.Filter{Tag: "tag3"})},
		{name: "events tail", index: byPK, call: func(ctx context.Context, db *bunstore.DB) error {
			_, err := db.EventLog().Tail(ctx, 5000, 6000, 500)
			return err
		}},
		{name: "webhooks of an owner", index: "webhooks_owner_idx", whole: true, call: func(ctx context.Context, db *bunstore.DB) error {
			_, err := db.Webhooks().Webhooks(ctx, "addr3", events.KindWebhook, "")
			return err
		}},
		{name: "deliveries of a webhook", index: "webhook_deliveries_webhook_idx", call: func(ctx context.Context, db *bunstore.DB) error {
			_, err := db.Webhooks().Deliveries(ctx, "w7", limit, &events.DeliveryCursor{At: planAt(5000), ID: "d105000"})
			return err
		}},
	}
}

// TestWritePlans checks the plans of writes that read rows. A close's:
// the reputation outcome reads the job's distinct submitters from
// submissions (job_id, agent_address), and the deletes of a build's
// staged rows walk their primary keys; no full scan. The webhook
// dispatcher's: whether any endpoint is enabled is read from the enabled
// endpoints' index, however many are disabled (here half of them).
func TestWritePlans(t *testing.T) {
	t.Parallel()
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			db := open(t, be.dsn(t))
			seedPlan(t, db)
			outcome := explain(t, db, bunstore.JobOutcomeSQL(), "agent7", 10, 0, "agent7", 1, 0, "agent7", 0, 1,
				"agent7", 0, 0, "agent7", 0, 0, 1, "j100008")
			require.Empty(t, checkPlan(db.Dialect(), outcome, "submissions_job_agent_idx", true), strings.Join(outcome, "\n"))
			for i, q := range bunstore.DropBuildSQL() {
				// Any index on the batch's rows (both lead with batch_id).
				index := []string{"anchor_records_pkey|anchor_records_record_key|sqlite_autoindex_anchor_records_1", "anchor_nodes_pkey|sqlite_autoindex_anchor_nodes_1",
					"anchor_leaf_index_pkey|sqlite_autoindex_anchor_leaf_index_1"}[i]
				p := explain(t, db, q, "b7", "b7", 500)
				require.Empty(t, checkPlan(db.Dialect(), p, index, true), strings.Join(p, "\n"))
			}
			// Retention deletes a chunk of keys by their primary key, a
			// probe each (event_keys has no index by seq).
			q, args := bunstore.ExpireKeysSQL(db, 2000)
			p := explain(t, db, q, args...)
			require.Empty(t, checkPlan(db.Dialect(), p, "event_keys_pkey|event_keys USING PRIMARY KEY", true), strings.Join(p, "\n"))
			_, err := db.Bun().ExecContext(context.Background(), "UPDATE webhooks SET disabled_at = created_at WHERE created_at % 2000 = 0")
			require.NoError(t, err)
			p = explain(t, db, bunstore.AnyEndpointSQL)
			require.Empty(t, checkPlan(db.Dialect(), p, "webhooks_enabled_idx", true), strings.Join(p, "\n"))
		})
	}
}

// explain returns the plan of q (with args for its ? parameters, written
// into the text by bun), one line per node.
func explain(t *testing.T, db *bunstore.DB, q string, args ...any) []string {
	t.Helper()
	prefix, col := "EXPLAIN ", 0
	if db.Dialect() == bunstore.DialectSQLite {
		prefix, col = "EXPLAIN QUERY PLAN ", 3 // id, parent, notused, detail
	}
	rows, err := db.Bun().QueryContext(context.Background(), prefix+q, args...)
	require.NoError(t, err, q)
	return planLines(t, rows, col)
}

var (
	// SQLite: a full scan is "SCAN t" without an index; a sort is a temp
	// b-tree.
	sqliteFullScan = regexp.MustCompile(`^SCAN \S+$|^SCAN \S+ USING (?:INTEGER )?PRIMARY KEY`)
	sqliteSort     = regexp.MustCompile(`USE TEMP B-TREE FOR (?:ORDER BY|GROUP BY|RIGHT PART OF ORDER BY|LAST)`)
	sqliteGroupBy  = regexp.MustCompile(`USE TEMP B-TREE FOR (?:GROUP BY|DISTINCT)`)
	pgSeqScan      = regexp.MustCompile(`Seq Scan`)
	// A bitmap scan reads the matching rows out of order (a sort follows).
	pgBitmapScan = regexp.MustCompile(`Bitmap Heap Scan`)
	pgSort       = regexp.MustCompile(`(?:^|\s)(?:Sort|Incremental Sort)(?:\s|$)`)
)

// checkPlan returns what is wrong with a plan: a full scan of a table, a
// sort of rows (for a whole-set read: a scan or a sort before grouping),
// or no walk of the wanted index. Empty means the plan walks the index in
// the list's order.
func checkPlan(dialect string, plan []string, index string, whole bool) []string {
	var problems []string
	uses := false
	// SQLite reads a subquery it runs as a co-routine (a UNION ALL branch
	// with its own LIMIT) with "SCAN <its alias>": that scans the branch's
	// rows, not a table.
	coroutines := map[string]bool{}
	for _, line := range plan {
		if name, ok := strings.CutPrefix(strings.TrimSpace(line), "CO-ROUTINE "); ok {
			coroutines["SCAN "+name] = true
		}
	}
	for _, line := range plan {
		l := strings.TrimSpace(strings.TrimLeft(line, " ->"))
		if coroutines[l] {
			continue
		}
		for _, ix := range strings.Split(index, "|") {
			uses = uses || strings.Contains(l, ix)
		}
		switch dialect {
		case bunstore.DialectSQLite:
			switch {
			case coroutines[l]:
			case sqliteFullScan.MatchString(l):
				problems = append(problems, "full scan: "+l)
			case whole && sqliteGroupBy.MatchString(l):
				problems = append(problems, "sort before grouping: "+l)
			case !whole && sqliteSort.MatchString(l):
				problems = append(problems, "sort: "+l)
			}
		default:
			switch {
			case pgSeqScan.MatchString(l), !whole && pgBitmapScan.MatchString(l):
				problems = append(problems, "full scan: "+l)
			case !whole && pgSort.MatchString(l):
				problems = append(problems, "sort: "+l)
			}
		}
	}
	if !uses {
		problems = append(problems, "does not walk "+index)
	}
	return problems
}

// TestListPlans checks, on both engines with planRows rows per table and
// ANALYZE run, that the SQL every list method of the store runs (captured
// by a query hook, so the production queries are checked; a job page's one
// prepared statement is explained as it is prepared, see pagePlans) walks
// its index in the list's order, from the start and from a deep cursor: no
// full scan and no sort. Then it drops indexes and checks that the checker
// fails.
func TestListPlans(t *testing.T) {
	t.Parallel()
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			db := open(t, be.dsn(t))
			seedPlan(t, db)
			log := &queryLog{}
			bunstore.AddQueryHook(db, log)
			ctx := context.Background()
			// plans returns the queries of a case and their plans (for a
			// job page: its statement, once per plan pagePlans gives).
			plans := func(c planCase) ([]string, [][]string) {
				if c.hot != nil {
					q, args := c.hot(db)
					return []string{q}, [][]string{explain(t, db, q, args...)}
				}
				log.take()
				if c.page != nil {
					_, err := db.Jobs().ListJobs(ctx, *c.page)
					require.NoError(t, err, c.name)
					require.Empty(t, log.take(), "%s: a job page runs no other query", c.name)
					return pagePlans(t, db, *c.page)
				}
				require.NoError(t, c.call(ctx, db), c.name)
				qs := log.take()
				require.NotEmpty(t, qs, c.name)
				out := make([][]string, len(qs))
				for i, q := range qs {
					out[i] = explain(t, db, q)
				}
				return qs, out
			}
			for _, c := range planCases() {
				qs, ps := plans(c)
				if c.page != nil {
					for i, p := range ps {
						var problems []string
						for _, ix := range []string{c.boost, c.index} {
							if ix != "" {
								problems = append(problems, checkPlan(db.Dialect(), p, ix, c.whole)...)
							}
						}
						require.Empty(t, problems, "%s: query %s\nplan:\n%s", c.name, qs[i], strings.Join(p, "\n"))
					}
					continue
				}
				want, whole := []string{c.index}, []bool{c.whole}
				if c.claims {
					want, whole = append(want, "escrow_events_job_recipient_idx"), []bool{false, true}
				}
				require.Len(t, qs, len(want), c.name)
				for i, p := range ps {
					require.Empty(t, checkPlan(db.Dialect(), p, want[i], whole[i]),
						"%s: query %s\nplan:\n%s", c.name, qs[i], strings.Join(p, "\n"))
				}
			}
			// The first page of the featured-first list reads both phases
			// in one statement; a page after a plain cursor only the
			// plain one.
			first, _ := plans(planCases()[0])
			require.Contains(t, first[0], "featured_until >")
			require.Contains(t, first[0], "UNION ALL")
			require.NotContains(t, first[0], "CASE", "no time expression per row")
			deep, _ := plans(planCases()[1])
			require.NotContains(t, deep[0], "UNION ALL")

			t.Run("fails without the index", func(t *testing.T) {
				for _, d := range []struct {
					index, call string
					// structural: the plan itself degrades (a sort or a
					// full scan), not only the index name goes missing.
					structural bool
				}{
					{"submissions_job_created_at_id_idx", "submissions deep", true},
					{"reputation_score_address_idx", "leaderboard after <nil>", true},
					{"job_tags_tag_created_at_id_idx", "jobs tag deep", false},
					{"submissions_agent_created_at_id_idx", "subsByAgent deep", true},
					{"jobs_boost_idx", "jobs all", false},
					{"jobs_funded_created_at_id_idx", "jobs funded deep", false},
				} {
					_, err := db.Bun().ExecContext(ctx, "DROP INDEX "+d.index)
					require.NoError(t, err)
					found := false
					for _, c := range planCases() {
						if c.name != d.call {
							continue
						}
						found = true
						qs, ps := plans(c)
						var problems []string
						for _, p := range ps {
							for _, ix := range []string{c.boost, c.index} {
								if ix != "" {
									problems = append(problems, checkPlan(db.Dialect(), p, ix, c.whole)...)
								}
							}
						}
						require.Contains(t, problems, "does not walk "+d.index)
						if d.structural {
							degraded := false
							for _, p := range problems {
								degraded = degraded || strings.HasPrefix(p, "sort") || strings.HasPrefix(p, "full scan")
							}
							require.True(t, degraded, "%s without %s: %q\nplan:\n%s", c.name, d.index, problems, strings.Join(ps[0], "\n")+"\n"+qs[0])
						}
					}
					require.True(t, found, d.call)
				}
			})
		})
	}
}

// pagePlans returns a job page's statement and its plans as the store
// runs it, a prepared statement with bound parameters: on SQLite the plan
// of the statement with f's arguments bound; on PostgreSQL the generic
// plan (what a prepared statement settles on after its first runs, planned
// without the arguments' values) and the custom plan of its first runs
// (planned with them).
func pagePlans(t *testing.T, db *bunstore.DB, f marketplace.JobFilter) ([]string, [][]string) {
	t.Helper()
	ctx := context.Background()
	generic, native, args := bunstore.JobPageSQL(db, f)
	require.Equal(t, strings.Count(generic, "?"), len(args), generic)
	if db.Dialect() == bunstore.DialectSQLite {
		rows, err := db.Bun().DB.QueryContext(ctx, "EXPLAIN QUERY PLAN "+native, args...)
		require.NoError(t, err, native)
		return []string{native}, [][]string{planLines(t, rows, 3)}
	}
	conn, err := db.Bun().Conn(ctx)
	require.NoError(t, err)
	defer conn.Close()
	for _, q := range []string{"SET plan_cache_mode = force_generic_plan", "PREPARE openjury_page AS " + native} {
		_, err := conn.ExecContext(ctx, q)
		require.NoError(t, err, q)
	}
	params := strings.TrimSuffix(strings.Repeat("?, ", len(args)), ", ")
	rows, err := conn.QueryContext(ctx, "EXPLAIN EXECUTE openjury_page("+params+")", args...)
	require.NoError(t, err)
	generic1 := planLines(t, rows, 0)
	for _, q := range []string{"DEALLOCATE openjury_page", "RESET plan_cache_mode"} {
		_, err := conn.ExecContext(ctx, q)
		require.NoError(t, err, q)
	}
	return []string{native, generic}, [][]string{generic1, explain(t, db, generic, args...)}
}

// planLines reads the column col of every row of an EXPLAIN.
func planLines(t *testing.T, rows *sql.Rows, col int) []string {
	t.Helper()
	defer rows.Close()
	cols, err := rows.Columns()
	require.NoError(t, err)
	var plan []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		require.NoError(t, rows.Scan(ptrs...))
		plan = append(plan, fmt.Sprint(vals[col]))
	}
	require.NoError(t, rows.Err())
	return plan
}

// TestJobForSubmitPlan checks, on both engines with the plan test's data,
// that JobForSubmit's one statement reads by index only: the job and the
// stake by primary key, the agent's submissions to the job from
// submissions (job_id, agent_address) (on PostgreSQL the count runs in
// openjury_submission_count, whose query is checked on its own); on
// SQLite so does Submit's narrow read of the guard. Then it drops that
// index and checks that the checker fails.
func TestJobForSubmitPlan(t *testing.T) {
	t.Parallel()
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			db := open(t, be.dsn(t))
			seedPlan(t, db)
			ctx := context.Background()
			const job, agent = "j100008", "agent7" // agent7 submitted to j100008
			st, err := db.Jobs().JobForSubmit(ctx, job, agent)
			require.NoError(t, err)
			require.Equal(t, 10, st.Submissions)
			require.Equal(t, openjury.MicroUSDC(7000), st.Stake.Staked)

			plan := func(q string, args ...any) []string { return explain(t, db, q, args...) }
			// count returns the query that counts the agent's submissions.
			count := func() (string, []any) {
				if db.Dialect() == bunstore.DialectSQLite {
					return bunstore.JobForSubmitSQL(db), []any{agent, job, agent}
				}
				var body string
				require.NoError(t, db.Bun().NewRaw("SELECT prosrc FROM pg_proc WHERE proname = 'openjury_submission_count'").Scan(ctx, &body))
				m := regexp.MustCompile(`(?s)SELECT count\(\*\) INTO n (FROM .*?);`).FindStringSubmatch(body)
				require.NotNil(t, m, body)
				q := strings.NewReplacer("p_job_id", "?", "p_agent", "?").Replace("SELECT count(*) " + m[1])
				return q, []any{job, agent}
			}
			check := func(index string) []string {
				var problems []string
				main := plan(bunstore.JobForSubmitSQL(db), agent, job, agent)
				for _, ix := range []string{"jobs_pkey|sqlite_autoindex_jobs_1", "stakes_pkey|sqlite_autoindex_stakes_1"} {
					problems = append(problems, checkPlan(db.Dialect(), main, ix, false)...)
				}
				q, args := count()
				p := plan(q, args...)
				problems = append(problems, checkPlan(db.Dialect(), p, index, false)...)
				if db.Dialect() == bunstore.DialectSQLite {
					// Submit's narrow read of the guard, in the writer's
					// turn: the same probes.
					guard := plan(bunstore.SubmitGuardSQL(db), agent, job, agent)
					for _, ix := range []string{"sqlite_autoindex_jobs_1", "sqlite_autoindex_stakes_1", index} {
						problems = append(problems, checkPlan(db.Dialect(), guard, ix, false)...)
					}
					p = append(p, guard...)
					// A job by id's head (jobHead): the primary key too.
					head := plan(bunstore.JobHeadSQL(db), job)
					problems = append(problems, checkPlan(db.Dialect(), head, "sqlite_autoindex_jobs_1", false)...)
					p = append(p, head...)
				}
				if len(problems) > 0 {
					t.Logf("plans:\n%s\n%s", strings.Join(main, "\n"), strings.Join(p, "\n"))
				}
				return problems
			}
			require.Empty(t, check("submissions_job_agent_idx"))
			if db.Dialect() == bunstore.DialectPostgres {
				require.Contains(t, strings.Join(plan(bunstore.JobForSubmitSQL(db), agent, job, agent), "\n"), "LockRows")
				// Submit's one statement embeds that read; its writes
				// (the insert, the reputation upsert, the queue row, the
				// event's outbox row) scan no table either.
				sub := plan(bunstore.SubmitSQL(db), agent, job, agent,
					"00000000-0000-7000-8000-000000000001", agent, "x", "[]", 1, 0, "open", agent, 5, 1,
					agent, 1, 0, 0, 1, 0, 1, "submission", 1,
					"submission.created", job, agent, "[]", "[]", "[]", "{}", 1, true)
				joined := strings.Join(sub, "\n")
				require.NotContains(t, joined, "Seq Scan", joined)
				require.Contains(t, joined, "LockRows", joined)
				require.Contains(t, joined, "jobs_pkey", joined)
				require.Contains(t, joined, "stakes_pkey", joined)
				// A batch of submissions (DB.submits, one array a column):
				// the jobs and the stakes by primary key too.
				arr := func(v ...any) string {
					q := make([]string, len(v))
					for i, x := range v {
						q[i] = strconv.Quote(fmt.Sprint(x))
					}
					return "{" + strings.Join(q, ",") + "}"
				}
				two := func(v any) string { return arr(v, v) }
				bsub := plan(bunstore.SubmitBatchSQL(db), arr("00000000-0000-7000-8000-000000000003", "00000000-0000-7000-8000-000000000004"),
					arr(job, "j100009"), two(agent), two("x"), two("[]"), two(1), two(0), two(5), two(1),
					two(1), two(0), two(0), two(1), two(0),
					two("submission.created"), arr(job, "j100009"), two(agent), two("[]"), two("[]"), two("[]"), two("{}"), two(1), two("t"),
					"open", "submission")
				joined = strings.Join(bsub, "\n")
				require.NotContains(t, joined, "Seq Scan", joined)
				require.Contains(t, joined, "LockRows", joined)
				require.Contains(t, joined, "jobs_pkey", joined)
				require.Contains(t, joined, "stakes_pkey", joined)
				// A batch of jobs by id (DB.jobs): primary-key probes.
				batch := strings.Join(plan(bunstore.JobsByIDSQL(db), "{j100008,j100009,j100010}"), "\n")
				require.NotContains(t, batch, "Seq Scan", batch)
				require.Contains(t, batch, "jobs_pkey", batch)
				// And of bearer tokens (DB.tokens), among planRows of them.
				_, err := db.Bun().ExecContext(ctx, fmt.Sprintf(`INSERT INTO auth_tokens (hash, address, created_at, expires_at)
					SELECT 'h' || i, 'addr' || i, 0, 1 FROM generate_series(1, %d) AS i`, planRows))
				require.NoError(t, err)
				_, err = db.Bun().ExecContext(ctx, "ANALYZE auth_tokens")
				require.NoError(t, err)
				tokens := strings.Join(plan(bunstore.TokensByHashSQL(db), "{h1,h2,h3}"), "\n")
				require.NotContains(t, tokens, "Seq Scan", tokens)
				require.Contains(t, tokens, "auth_tokens_pkey", tokens)
				// So does CastVote's: the job and the submission by
				// primary key, the vote upserted on its unique key.
				vote := plan(bunstore.CastVoteSQL(db), job, "s1",
					"00000000-0000-7000-8000-000000000002", "s1", agent, 1, nil, 1, "open", 1, agent, agent,
					agent, 0, 0, 0, 0, 1, 1,
					"vote.cast", job, agent, "[]", "[]", "[]", "{}", 1, true)
				joined = strings.Join(vote, "\n")
				require.NotContains(t, joined, "Seq Scan", joined)
				require.Contains(t, joined, "LockRows", joined)
				require.Contains(t, joined, "jobs_pkey", joined)
				require.Contains(t, joined, "submissions_pkey", joined)
			}

			_, err = db.Bun().ExecContext(ctx, "DROP INDEX submissions_job_agent_idx")
			require.NoError(t, err)
			require.Contains(t, check("submissions_job_agent_idx"), "does not walk submissions_job_agent_idx")
		})
	}
}

// TestSQLiteRowWritesNoTempTable: the statements SQLite runs once per
// written row scan no table and build no temporary b-tree (OpenEphemeral), which costs an
// allocation and a free of a pager each run: a CHECK with an IN list of
// more than two values, an UPSERT's check of such a table, or an INSERT
// into a view would. (putDocument, the indexer's upsert of a vector, still
// checks search_documents' kind with an IN list: the table is not rebuilt
// for it.)
func TestSQLiteRowWritesNoTempTable(t *testing.T) {
	t.Parallel()
	db := open(t, sqliteDSN(t))
	writes := bunstore.SQLiteRowWrites(db)
	require.NotEmpty(t, writes)
	for name, q := range writes {
		args := make([]any, strings.Count(q, "?")) // NULLs: EXPLAIN runs nothing
		rows, err := db.Bun().DB.QueryContext(context.Background(), "EXPLAIN "+q, args...)
		require.NoError(t, err, name)
		var ops []string
		for rows.Next() {
			var opcode string
			var rest [7]any
			require.NoError(t, rows.Scan(&rest[0], &opcode, &rest[1], &rest[2], &rest[3], &rest[4], &rest[5], &rest[6]), name)
			ops = append(ops, opcode)
		}
		require.NoError(t, rows.Err())
		require.NoError(t, rows.Close())
		require.NotEmpty(t, ops, name)
		require.NotContains(t, ops, "OpenEphemeral", "%s builds a temporary b-tree each run: %s", name, q)
		for _, line := range explain(t, db, q, args...) {
			require.False(t, sqliteFullScan.MatchString(strings.TrimSpace(line)), "%s scans a table: %s\n%s", name, q, line)
		}
	}
}

// TestSearchClaimPlan checks, on both engines, that the indexer's claim
// walks the lease index and sorts nothing (nor does its probe) with
// a long queue the statistics have not seen (analysed while empty, as after
// a quiet start; the load tool's submissions fill it in seconds). On
// PostgreSQL it checks that the claim's lexical condition as an equality of
// the two columns would read and sort the whole queue: the planner
// estimates it at 0.5% of the rows.
func TestSearchClaimPlan(t *testing.T) {
	t.Parallel()
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			db := open(t, be.dsn(t))
			ctx := context.Background()
			noAutovacuum(t, db, "search_pending") // the empty queue's statistics stay
			_, err := db.Bun().ExecContext(ctx, "ANALYZE search_pending")
			require.NoError(t, err)
			// queue adds 2*planRows queued submissions prefix1, prefix2, ...
			// at generation 1, lexically done at lexGen.
			queue := func(prefix string, lexGen int) {
				_, err := db.Bun().ExecContext(ctx, fmt.Sprintf(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < %d)
				INSERT INTO search_pending (kind, doc_id, gen, queued_at, lease_until, lex_gen) SELECT 'submission', '%s' || i, 1, i, 0, %d FROM n`, 2*planRows, prefix, lexGen))
				require.NoError(t, err)
			}
			queue("s", 1)
			log := &queryLog{all: true}
			bunstore.AddQueryHook(db, log)
			got, err := db.SearchIndex().ClaimPending(ctx, time.UnixMilli(1e12), time.Minute, 64)
			require.NoError(t, err)
			require.Len(t, got, 64)
			require.Equal(t, "s1", got[0].ID)
			var claims []string
			for _, q := range log.take() {
				if strings.Contains(q, "search_pending") {
					claims = append(claims, q)
				}
			}
			require.Len(t, claims, 2, "the probe and the claim")
			// The probe stops at its first row, whatever it reads.
			probe := strings.Join(explain(t, db, claims[0]), "\n")
			require.NotRegexp(t, pgSort, probe)
			require.NotRegexp(t, sqliteSort, probe)
			p := explain(t, db, claims[1])
			joined := strings.Join(p, "\n")
			require.Empty(t, checkPlan(db.Dialect(), p, "search_pending_lease_until_queued_at_idx", false), "%s\nplan:\n%s", claims[1], joined)
			require.NotContains(t, joined, "Bitmap", joined)
			// The lexical step's claim (IndexTexts) walks its partial index
			// the same way.
			queue("u", 0)
			marked, err := db.SearchIndex().IndexTexts(ctx, 256) // the indexer's batch
			require.NoError(t, err)
			require.Equal(t, 256, marked)
			var lexical string
			for _, q := range log.take() {
				if strings.HasPrefix(q, "UPDATE search_pending") || strings.HasPrefix(q, "WITH") {
					lexical = q
				}
			}
			require.NotEmpty(t, lexical)
			p = explain(t, db, lexical)
			require.Empty(t, checkPlan(db.Dialect(), p, "search_pending_lexical_idx", false), "%s\nplan:\n%s", lexical, strings.Join(p, "\n"))
			require.NotContains(t, strings.Join(p, "\n"), "Bitmap")
			require.NotContains(t, strings.Join(p, "\n"), "Seq Scan", "%s\nplan:\n%s", lexical, strings.Join(p, "\n"))

			// The inline steps' read on SQLite (IndexInline) walks the same
			// partial index, and their mark of the rows read when embedding
			// fails probes the primary key (their removal of a row held is
			// checked with the row writes: TestSQLiteRowWritesNoTempTable).
			if db.Dialect() == bunstore.DialectSQLite {
				queue("v", 0)
				for _, fail := range []bool{false, true} {
					_, _, err := db.SearchIndex().IndexInline(ctx, 256, time.UnixMilli(1e12), time.Minute, time.Second,
						func(_ context.Context, items []search.Pending, _ []search.Source) ([]search.Entry, error) {
							if fail {
								return nil, errors.New("embedder down")
							}
							out := make([]search.Entry, len(items))
							for i, p := range items {
								out[i] = search.Entry{Kind: p.Kind, ID: p.ID, Deleted: true, Model: "m"}
							}
							return out, nil
						})
					require.Equal(t, fail, err != nil, "%v", err)
				}
				var read, mark string
				for _, q := range log.take() {
					switch {
					case strings.HasPrefix(q, "SELECT kind, doc_id, gen FROM search_pending"):
						read = q
					case strings.HasPrefix(q, "UPDATE search_pending SET lex_gen = gen, lease_until"):
						mark = q
					}
				}
				require.NotEmpty(t, read)
				require.NotEmpty(t, mark)
				p = explain(t, db, read)
				require.Empty(t, checkPlan(db.Dialect(), p, "search_pending_lexical_idx", false), "%s\nplan:\n%s", read, strings.Join(p, "\n"))
				p = explain(t, db, mark)
				require.Empty(t, checkPlan(db.Dialect(), p, "PRIMARY KEY", false), "%s\nplan:\n%s", mark, strings.Join(p, "\n"))
			}

			if db.Dialect() == bunstore.DialectPostgres {
				eq := strings.ReplaceAll(claims[1], "lex_gen >= gen", "lex_gen = gen")
				require.NotEqual(t, claims[1], eq)
				require.NotEmpty(t, checkPlan(db.Dialect(), explain(t, db, eq), "search_pending_lease_until_queued_at_idx", false),
					"the equality's plan reads the whole queue")
			}
			// The rule the claim relies on (on PostgreSQL), checked on both.
			_, err = db.Bun().ExecContext(ctx, "UPDATE search_pending SET lex_gen = gen + 1 WHERE doc_id = 's9'")
			require.ErrorContains(t, err, "search_pending_lex_gen_gen_check")
		})
	}
}
