package bunstore

import (
	"context"
	"fmt"
	"reflect"
	"time"

	"github.com/uptrace/bun"

	"github.com/openjury/openjury/marketplace"
)

// AddQueryHook adds h to every pool of d, for tests that look at the SQL
// the store methods run.
func AddQueryHook(d *DB, h bun.QueryHook) {
	d.w.AddQueryHook(h)
	if d.r != d.w {
		d.r.AddQueryHook(h)
	}
}

// SQLiteRowWrites are the hot statements that SQLite runs once per
// written row (submissions, votes, events, queued and indexed documents),
// by name; empty on PostgreSQL.
func SQLiteRowWrites(d *DB) map[string]string {
	if d.dialect != DialectSQLite {
		return nil
	}
	h := d.hot
	return map[string]string{"insertSubmission": h.insertSubmission.native, "enqueueSearch": h.enqueueSearch.native,
		"addReputation": h.addReputation.native, "touchCrossing": h.touchCrossing.native, "appendEvent": h.appendEvent.native,
		"insertEvent": h.insertEvent.native, "insertEventKey": h.insertEventKey.native, "deleteSequenced": h.deleteSequenced.native,
		"dropPending": h.dropPending.native, "dropHeld": h.dropHeld.native}
}

// HotStatements is how many statements d prepares on each connection.
func HotStatements(d *DB) int { return len(d.hot.all()) }

// GroupWaiting is how many transactions wait for d's SQLite writer.
func GroupWaiting(d *DB) int { return int(d.group.waiting.Load()) }

// SetGroupBounds changes how many successful transactions, and for how
// long, a group of d's SQLite writer may take; call it before any
// transaction.
func SetGroupBounds(d *DB, members int, age time.Duration) {
	d.group.maxMembers, d.group.maxAge = members, age
}

// JobForSubmitSQL is the text of JobForSubmit's statement with ?
// parameters (agent, job id, agent), for plan tests.
func JobForSubmitSQL(d *DB) string { return d.hot.jobForSubmit.generic }

// SubmitGuardSQL is the text of the read of a submission's guard with ?
// parameters (agent, job id, agent), for plan tests.
func SubmitGuardSQL(d *DB) string { return d.hot.submitGuard.generic }

// JobsByIDSQL is the text of the batched read of jobs by id on PostgreSQL
// (one text[] parameter), for plan tests.
func JobsByIDSQL(d *DB) string { return d.hot.jobsByID.generic }

// TokensByHashSQL is the text of the batched read of bearer tokens on
// PostgreSQL (one text[] parameter), for plan tests.
func TokensByHashSQL(d *DB) string { return d.hot.tokensByHash.generic }

// JobHeadSQL is the text of a job by id's head on SQLite (jobHeadQuery)
// with a ? parameter, for plan tests.
func JobHeadSQL(d *DB) string { return d.hot.jobHeadByID.generic }

// JobWhole reads job id with its whole row in one statement (the hot
// statement jobByID), as a job by id read before its head (jobHead).
func JobWhole(ctx context.Context, d *DB, id string) (*marketplace.Job, error) {
	row, err := queryOnePlanned[jobRow](ctx, d, d.r, d.hot.jobByID, d.jobPlan, id)
	if err != nil {
		return nil, err
	}
	return row.job()
}

// ReceiptColumn is a receipt column of jobs: whether it is NOT NULL and
// whether it holds text (else an integer).
type ReceiptColumn struct{ NotNull, Text bool }

// JobReceiptColumns are the receipt columns of jobs (jobReceiptPrefixes)
// by name.
func JobReceiptColumns(d *DB) map[string]ReceiptColumn {
	out := map[string]ReceiptColumn{}
	for _, f := range d.w.Table(reflect.TypeFor[jobRow]()).Fields {
		if isReceiptColumn(f.Name) {
			out[f.Name] = ReceiptColumn{NotNull: f.NotNull, Text: f.IndirectType.Kind() == reflect.String}
		}
	}
	return out
}

// SubmitBatchSQL is the text of a batch of submissions' one statement on
// PostgreSQL with ? parameters (see submitBatchQuery), for plan tests.
func SubmitBatchSQL(d *DB) string { return d.hot.submitBatch.generic }

// SubmitBatch writes subs, each with its guard, as one batch of DB.submits
// on PostgreSQL and returns each one's answer as Submit gives it.
func SubmitBatch(ctx context.Context, d *DB, subs []*marketplace.Submission, guards []marketplace.SubmitGuard) []error {
	in := make([]submitCall, len(subs))
	for i, s := range subs {
		row, err := toSubmissionRow(s)
		if err != nil {
			panic(err)
		}
		in[i] = submitCall{row: row, g: guards[i]}
	}
	out, err := d.submitBatch(ctx, in)
	errs := make([]error, len(subs))
	for i := range subs {
		if err != nil {
			errs[i] = err
			continue
		}
		errs[i] = d.submitAnswer(ctx, subs[i], guards[i], out[i])
	}
	return errs
}

// SubmitSQL is the text of Submit's one statement on PostgreSQL with ?
// parameters (see submitQuery), for plan tests.
func SubmitSQL(d *DB) string { return d.hot.submit.generic }

// CastVoteSQL is the text of CastVote's one statement on PostgreSQL with ?
// parameters (see castVoteQuery), for plan tests.
func CastVoteSQL(d *DB) string { return d.hot.castVote.generic }

// WithMigrationsUntil makes Open apply the migrations up to version v
// only, to test upgrades from an older schema.
func WithMigrationsUntil(v string) Option {
	return func(o *options) { o.until = v }
}

// JobOutcomeSQL is the text of AddJobOutcome's statement with ?
// parameters, for plan tests.
func JobOutcomeSQL() string { return jobOutcomeQuery }

// DropBuildSQL are the texts of the deletes of a build's staged rows, with
// ? parameters (batch id, batch id, chunk), for plan tests.
func DropBuildSQL() []string { return dropBuildQueries }

// WebSQL are the texts of the web app's hot statements with ?
// parameters, by name, for plan tests: jobs by sponsor, submissions by
// agent, jury and final votes by voter (address, created_at, id, limit);
// threads (target type, id, limit per slot) and counts (id, id, limit per
// slot); the AGR ledger (address, created_at, id, limit), reputation and
// AGR balance (address); profile (the address, then address, created_at,
// id, limit for each of its four lists) and profileAccount (profile's,
// then the address twice and the ledger's address, created_at, id,
// limit).
func WebSQL(d *DB) map[string]string {
	w := d.hot.web
	return map[string]string{"jobsBySponsor": w.jobsBySponsor.generic, "subsByAgent": w.subsByAgent.generic,
		"votesByVoter": w.votesByVoter.generic, "finalsByVoter": w.finalsByVoter.generic, "threads": w.threads.generic, "counts": w.counts.generic,
		"ledger": w.ledger.generic, "reputationOf": w.reputationOf.generic, "agrOf": w.agrOf.generic, "profile": w.profile.generic,
		"profileAccount": w.profileAccount.generic}
}

// WebSlots are how many targets the threads and counts statements take.
func WebSlots() (threads, counts int) { return threadSlots, countSlots }

// JobPageSQL is the statement of the job page f selects, with ?
// parameters and in the dialect's own form, and its arguments, for plan
// tests.
func JobPageSQL(d *DB, f marketplace.JobFilter) (generic, native string, args []any) {
	shape, args := jobPageArgs(f)
	h := d.hot.jobPages[shape]
	return h.generic, h.native, args
}

// JurySQL returns the statements of a draw: a prefix's children's sums,
// a prefix's jurors, a page of the eligible set.
func JurySQL() (children, leaf, scan string) { return childSums, leafJurors, scanVersions }

// JuryPrefixDepth is how many levels of prefix sums a draw walks.
const JuryPrefixDepth = juryPrefixDepth

// HotRuns is how many times d ran a hot statement.
func HotRuns(d *DB) int64 { return d.hotRuns.Load() }

// SetHotHook makes d call hook with every run of a hot statement (which
// bypasses bun's query hooks). Set it before d is used.
func SetHotHook(d *DB, hook func(ctx context.Context, query string)) { d.hotHook = hook }

// SQLiteCacheKiB is the page cache of every SQLite connection, in KiB.
const SQLiteCacheKiB = sqliteCacheKiB

// SQLiteReaders is the size of a SQLite file's reader pool.
func SQLiteReaders() int { return sqliteReaders() }

// AnyEndpointSQL is the dispatcher's read of whether an endpoint is
// enabled.
const AnyEndpointSQL = anyEndpoint

// ExpireKeysSQL is retention's delete of keys for n (key, seq) pairs and
// its arguments: key 'a:addr' || (i % 100) at seq i, i from 1.
func ExpireKeysSQL(d *DB, n int) (string, []any) {
	keys := make([]eventKeyRow, n)
	for i := range keys {
		keys[i] = eventKeyRow{Key: fmt.Sprintf("a:addr%d", (i+1)%100), Seq: int64(i + 1)}
	}
	return expireKeysQuery(d.dialect, keys)
}
