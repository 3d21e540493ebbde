package bunstore

import (
	"context"
	"database/sql"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/uptrace/bun"
)

// Prepared statements for the hot paths.
//
// bun writes arguments into the SQL text, so every call of a bun query is
// parsed and planned again: on SQLite about 40% of a short statement's
// time goes to the parser (and the pure-Go driver allocates and frees the
// statement's memory each time); on PostgreSQL the simple protocol parses
// and plans every query. The statements of the hottest paths (a job by
// id, a bearer token, a stake, the statements of a submission) are
// therefore written once with bound parameters, prepared once per
// connection of a pool and reused. The set is fixed in the code, so each
// connection holds at most len(hot) statements: a bounded statement
// cache. On PostgreSQL a prepared statement runs as Bind/Execute, one
// round trip without parse or plan.
//
// Their text is built from the bun models (the column lists stay the
// models'), with ? for parameters, numbered $n on PostgreSQL.

// hot is one hot statement: its text with ? parameters (run through bun
// where a statement cannot be prepared) and its text for the dialect.
type hot struct {
	generic string
	native  string
}

// newHot returns the hot statement q (? parameters) for dialect.
func newHot(dialect, q string) hot {
	h := hot{generic: q, native: q}
	if dialect == DialectPostgres {
		var b strings.Builder
		n := 0
		for _, r := range q {
			if r == '?' {
				n++
				b.WriteString("$" + strconv.Itoa(n))
				continue
			}
			b.WriteRune(r)
		}
		h.native = b.String()
	}
	return h
}

// hotStatements are the texts of the hot statements of one DB.
type hotStatements struct {
	jobByID, jobByIDForUpdate, jobForSubmit, tokenOwner, stakeOf,
	insertSubmission, enqueueSearch, addReputation hot
	// juryChildren, juryLeaf, juryTotal and jurorStake are the reads of a
	// jury draw (jury.go): a draw of 21 runs about a hundred of them.
	juryChildren, juryLeaf, juryTotal, jurorStake hot
	// submit and castVote are the one statements of a guarded submission
	// and a guarded jury vote on PostgreSQL (submitQuery, castVoteQuery),
	// sequence the write of a sequencer pass there (sequenceQuery); empty
	// on SQLite.
	submit, castVote, sequence hot
	// submitBatch is submit for many submissions (submitBatchQuery) on
	// PostgreSQL; empty on SQLite.
	submitBatch hot
	// jobsByID reads the jobs of a text[] of ids (DB.jobs), tokensByHash
	// the address and expiry of the tokens of a text[] of digests
	// (DB.tokens), on PostgreSQL; empty on SQLite.
	jobsByID, tokensByHash hot
	// jobHeadByID is a job by id without its receipts (jobHeadQuery) on
	// SQLite; empty on PostgreSQL.
	jobHeadByID hot
	// touchCrossing is reputationStore.touchCrossings' read for one
	// address on SQLite; empty on PostgreSQL.
	touchCrossing hot
	// insertEvent, insertEventKey and deleteSequenced are the sequencer's
	// writes on SQLite, one row a run (eventStore.Sequence); empty on
	// PostgreSQL.
	insertEvent, insertEventKey, deleteSequenced hot
	// appendEvent is an outbox row's insert on SQLite (eventStore.Append);
	// empty on PostgreSQL.
	appendEvent hot
	// putDocument and dropPending are the indexer's writes of one
	// document's vector and its queue row on SQLite
	// (searchStore.SaveEntries); empty on PostgreSQL.
	putDocument, dropPending hot
	// dropHeld is the inline step's removal of a row it read, still at
	// its gen and not leased by another worker (searchStore.dropHeld).
	dropHeld hot
	// totalChanges reads SQLite's count of rows changed on the connection
	// (group.go: whether a failed group member wrote); empty on
	// PostgreSQL.
	totalChanges hot
	// submitGuard reads only what SubmitGuard.Check reads of a job (locked
	// on PostgreSQL), the agent's stake and count (submitGuardQuery): on
	// SQLite Submit's read, on PostgreSQL the CTE st of submit.
	submitGuard hot
	// web are the web app's reads (profile.go).
	web webHot
	// jobPages are the statements of a page of jobs, by shape
	// (jobPageQuery); the shapes no filter has are empty.
	jobPages [jobPageShapes]hot
}

// all returns every hot statement of the dialect.
func (h hotStatements) all() []hot {
	all := []hot{h.jobByID, h.jobByIDForUpdate, h.jobForSubmit, h.submitGuard, h.tokenOwner, h.stakeOf,
		h.insertSubmission, h.enqueueSearch, h.addReputation, h.juryChildren, h.juryLeaf, h.juryTotal, h.jurorStake}
	if h.submit.native != "" {
		all = append(all, h.submit, h.submitBatch, h.castVote, h.sequence, h.jobsByID, h.tokensByHash)
	}
	if h.totalChanges.native != "" {
		all = append(all, h.totalChanges, h.jobHeadByID, h.touchCrossing, h.insertEvent, h.insertEventKey, h.deleteSequenced, h.putDocument, h.dropPending, h.dropHeld, h.appendEvent)
	}
	for _, p := range h.jobPages {
		if p.native != "" {
			all = append(all, p)
		}
	}
	return append(all, h.web.all()...)
}

// newHotStatements builds the hot statements of db's dialect from the
// models.
func newHotStatements(dialect string, db *bun.DB) hotStatements {
	param := bun.Safe("?")
	jobByID := db.NewSelect().Model((*jobRow)(nil)).Where("j.id = ?", param).String()
	forUpdate := jobByID
	if dialect == DialectPostgres {
		forUpdate += " FOR UPDATE"
	}
	h := hotStatements{
		jobByID:          newHot(dialect, jobByID),
		jobByIDForUpdate: newHot(dialect, forUpdate),
		jobForSubmit:     newHot(dialect, jobForSubmitQuery(dialect, db)),
		submitGuard:      newHot(dialect, submitGuardQuery(dialect)),
		tokenOwner: newHot(dialect, db.NewSelect().Model((*tokenRow)(nil)).Column("address").
			Where("t.hash = ?", param).Where("t.expires_at > ?", param).String()),
		stakeOf: newHot(dialect, db.NewSelect().Model((*stakeRow)(nil)).
			Where("s.address = ?", param).Limit(1).String()),
		insertSubmission: newHot(dialect, insertSubmissionInto+` VALUES (?, ?, ?, ?, ?, ?)`),
		enqueueSearch:    newHot(dialect, enqueueSearchInto+" VALUES (?, ?, 1, ?, 0)\n"+enqueueSearchOnConflict),
		addReputation:    newHot(dialect, addReputationInto+" VALUES (?, ?, ?, ?, ?, ?, ?)\n"+addReputationOnConflict),
		juryChildren:     newHot(dialect, childSums),
		juryLeaf:         newHot(dialect, leafJurors),
		juryTotal:        newHot(dialect, eligibleTotal),
		jurorStake:       newHot(dialect, jurorStakeAt),
	}
	h.web = newWebHot(dialect, db)
	if dialect == DialectPostgres {
		h.submit = newHot(dialect, submitQuery(h))
		h.submitBatch = newHot(dialect, submitBatchQuery)
		h.castVote = newHot(dialect, castVoteQuery(h))
		h.sequence = newHot(dialect, sequenceQuery)
		h.jobsByID = newHot(dialect, db.NewSelect().Model((*jobRow)(nil)).Where("j.id = ANY(?::text[])", param).String())
		h.tokensByHash = newHot(dialect, db.NewSelect().Model((*tokenRow)(nil)).Column("hash", "address", "expires_at").
			Where("t.hash = ANY(?::text[])", param).String())
	} else {
		h.totalChanges = newHot(dialect, "SELECT total_changes()")
		h.jobHeadByID = newHot(dialect, jobHeadQuery(db))
		h.touchCrossing = newHot(dialect, touchCrossedQuery)
		h.insertEvent = newHot(dialect, `INSERT INTO events (seq, type, job_id, actor, subjects, audience, restricted, tags, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		h.insertEventKey = newHot(dialect, `INSERT INTO event_keys (key, seq) VALUES (?, ?)`)
		h.deleteSequenced = newHot(dialect, `DELETE FROM event_outbox WHERE pk <= ? AND created_at <= ?`)
		h.appendEvent = newHot(dialect, insertEventInto+` VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
		h.dropPending = newHot(dialect, `DELETE FROM search_pending WHERE kind = ? AND doc_id = ? AND gen = ? AND lex_gen = gen`)
		h.dropHeld = newHot(dialect, `DELETE FROM search_pending WHERE kind = ? AND doc_id = ? AND gen = ? AND lease_until <= ?`)
		h.putDocument = newHot(dialect, putDocumentInto+` VALUES (?, ?, ?, ?, ?, ?, ?, ?)`+putDocumentOnConflict)
	}
	for shape, q := range jobPageSQL(dialect, db) {
		if q != "" {
			h.jobPages[shape] = newHot(dialect, q)
		}
	}
	return h
}

// The write statements of a submission and a vote, in parts, so that the
// hot statements (with VALUES) and the one-statement forms of PostgreSQL
// (with SELECT ... FROM a CTE) share their column lists and conflict
// clauses.
const (
	insertSubmissionInto    = `INSERT INTO submissions (id, job_id, agent_address, content, evidence, created_at)`
	enqueueSearchInto       = `INSERT INTO search_pending (kind, doc_id, gen, queued_at, lease_until)`
	enqueueSearchOnConflict = `ON CONFLICT (kind, doc_id) DO UPDATE SET gen = search_pending.gen + 1, queued_at = excluded.queued_at, lease_until = 0`
	addReputationInto       = `INSERT INTO reputation AS r (address, score, wins, losses, submissions, jury_votes, updated_at)`
	// insertEventInto and eventParams are the event outbox row of a
	// guarded write (outboxArgs gives its arguments).
	insertEventInto         = `INSERT INTO event_outbox (type, job_id, actor, subjects, audience, tags, data, created_at)`
	eventParams             = `?::text, ?::text, ?::text, ?::text, ?::text, ?::text, ?::text, ?::bigint`
	addReputationOnConflict = `ON CONFLICT (address) DO UPDATE SET score = r.score + EXCLUDED.score, wins = r.wins + EXCLUDED.wins, losses = r.losses + EXCLUDED.losses,
submissions = r.submissions + EXCLUDED.submissions, jury_votes = r.jury_votes + EXCLUDED.jury_votes, updated_at = EXCLUDED.updated_at`
)

// submitQuery is the one statement of SubmissionStore.Submit on
// PostgreSQL, built from the hot statements h: the guard's read (the job
// locked, the agent's stake and count: submitGuardQuery) as the CTE st, then, as
// writable CTEs that depend on it, the submission inserted when the guard
// holds on st (the SQL form of marketplace.SubmitGuard.Check, which the
// store tests hold it to), when st counted no submission the agent's
// reputation upsert, its search queue row and its event. It returns st's
// row and whether the submission was inserted. One statement is atomic on
// its own: no BEGIN or COMMIT round trip.
//
// PostgreSQL runs the writable CTEs that the final SELECT does not read in
// the reverse of their order here, so rep, listed first, runs last: the
// agent's reputation row, which every first submission of the agent
// updates (a hot row when an agent submits to many jobs at once), stays
// locked only from its update to the commit, not also through the queue
// and outbox inserts.
//
// The parameters, in order: agent, job id, agent (st); id, agent,
// content, evidence, created_at, minimum stake, open status, agent,
// maximum per agent, the guard's now (a closing lease live at it refuses)
// (ins); agent, the reputation delta's score, wins, losses, submissions,
// jury votes, created_at (rep); search kind, created_at (queued); the
// event's outboxArgs (ev).
func submitQuery(h hotStatements) string {
	return `WITH st AS (` + h.submitGuard.generic + `),
ins AS (` + insertSubmissionInto + `
SELECT ?::text, st.id, ?::text, ?::text, ?::text, ?::bigint FROM st
WHERE COALESCE(st.staked_micro, 0) >= ?::bigint AND st.status = ?::text AND st.sponsor_address <> ?::text AND st.submissions < ?::bigint
AND (st.closing_until IS NULL OR st.closing_until <= ?::bigint)
RETURNING id),
rep AS (` + addReputationInto + `
SELECT ?::text, ?::bigint, ?::bigint, ?::bigint, ?::bigint, ?::bigint, ?::bigint FROM ins, st WHERE st.submissions = 0
` + addReputationOnConflict + `),
queued AS (` + enqueueSearchInto + `
SELECT ?::text, ins.id, 1, ?::bigint, 0 FROM ins
` + enqueueSearchOnConflict + `),
ev AS (` + insertEventInto + `
SELECT ` + eventParams + ` FROM ins WHERE ?::boolean)
SELECT st.*, EXISTS (SELECT 1 FROM ins) AS inserted FROM st`
}

// stmtKey names a statement prepared on a pool.
type stmtKey struct {
	pool  *sql.DB
	query string
}

// statements holds the prepared hot statements of a DB's pools; database/sql
// prepares each on a connection the first time it runs there.
type statements struct {
	mu sync.Mutex
	m  map[stmtKey]*sql.Stmt
}

// get returns the statement q prepared on pool, preparing it (on a free
// connection of pool) the first time.
func (s *statements) get(ctx context.Context, pool *sql.DB, q string) (*sql.Stmt, error) {
	if st, ok := s.lookup(pool, q); ok {
		return st, nil
	}
	st, err := pool.PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.m[stmtKey{pool, q}]; ok {
		_ = st.Close()
		return old, nil
	}
	if s.m == nil {
		s.m = map[stmtKey]*sql.Stmt{}
	}
	s.m[stmtKey{pool, q}] = st
	return st, nil
}

// lookup returns the statement q prepared on pool, if it was.
func (s *statements) lookup(pool *sql.DB, q string) (*sql.Stmt, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.m[stmtKey{pool, q}]
	return st, ok
}

// close closes every prepared statement.
func (s *statements) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, st := range s.m {
		_ = st.Close()
		delete(s.m, k)
	}
}

// prepareHot prepares every hot statement on each pool. A statement that
// cannot be prepared (a database opened WithoutMigrations before its
// schema exists) is prepared when first used instead.
func (d *DB) prepareHot(ctx context.Context) {
	pools := []*sql.DB{d.w.DB}
	if d.r != d.w {
		pools = append(pools, d.r.DB)
	}
	for _, pool := range pools {
		for _, h := range d.hot.all() {
			_, _ = d.stmts.get(ctx, pool, h.native)
		}
	}
}

// stmt returns the statement h ready to run on db (a pool of d or a
// transaction on its primary pool) and a function to call when done with
// it; nil (and no error) when db is neither, for the caller to run h
// through bun.
func (d *DB) stmt(ctx context.Context, db bun.IDB, h hot) (*sql.Stmt, func(), error) {
	d.ranHot(ctx, h)
	switch v := db.(type) {
	case *bun.DB:
		st, err := d.stmts.get(ctx, v.DB, h.native)
		return st, func() {}, err
	case bun.Tx:
		// Preparing on the pool would wait for a free connection, which on
		// SQLite is the one this transaction holds: a statement prepared
		// at Open is bound to the transaction's connection (prepared on it
		// if need be); one that is not is prepared for this transaction.
		var ts *sql.Stmt
		if st, ok := d.stmts.lookup(d.w.DB, h.native); ok {
			ts = v.Tx.StmtContext(ctx, st)
		} else {
			var err error
			if ts, err = v.Tx.PrepareContext(ctx, h.native); err != nil {
				return nil, nil, err
			}
		}
		return ts, func() { _ = ts.Close() }, nil
	}
	return nil, nil, nil
}

// execHot runs the hot statement h with args on db.
func (d *DB) execHot(ctx context.Context, db bun.IDB, h hot, args ...any) (sql.Result, error) {
	st, done, err := d.stmt(ctx, db, h)
	if err != nil {
		return nil, err
	}
	if st == nil {
		return db.ExecContext(ctx, h.generic, args...)
	}
	defer done()
	return st.ExecContext(ctx, args...)
}

// scanHot runs the hot query h with args on db and scans its first row
// into dest (a bun model or scalars, as bun's ScanRow takes them).
// Errors: sql.ErrNoRows when there is none.
func (d *DB) scanHot(ctx context.Context, db bun.IDB, h hot, dest []any, args ...any) error {
	return d.queryHot(ctx, db, h, args, func(rows *sql.Rows) error {
		if !rows.Next() {
			if err := rows.Err(); err != nil {
				return err
			}
			return sql.ErrNoRows
		}
		return d.w.ScanRow(ctx, rows, dest...)
	})
}

// ranHot counts a run of h (DB.hotRuns, DB.hotHook).
func (d *DB) ranHot(ctx context.Context, h hot) {
	d.hotRuns.Add(1)
	if d.hotHook != nil {
		d.hotHook(ctx, h.native)
	}
}

// execHotEach runs the hot statement h n times on db, with args(i) the
// arguments of the i-th run, preparing it once for them all; ran, when
// not nil, gets each run's result.
func (d *DB) execHotEach(ctx context.Context, db bun.IDB, h hot, n int, args func(i int) []any, ran func(i int, res sql.Result) error) error {
	st, done, err := d.stmt(ctx, db, h)
	if err != nil {
		return err
	}
	if st != nil {
		defer done()
	}
	for i := range n {
		if i > 0 {
			d.ranHot(ctx, h)
		}
		var res sql.Result
		if st == nil {
			res, err = db.ExecContext(ctx, h.generic, args(i)...)
		} else {
			res, err = st.ExecContext(ctx, args(i)...)
		}
		if err == nil && ran != nil {
			err = ran(i, res)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// scanHotRows runs the hot query h with args on db and scans every row
// into dest, a pointer to a slice of a bun model.
func (d *DB) scanHotRows(ctx context.Context, db bun.IDB, h hot, dest any, args ...any) error {
	return d.queryHot(ctx, db, h, args, func(rows *sql.Rows) error {
		return d.w.ScanRows(ctx, rows, dest)
	})
}

// queryHot runs the hot query h with args on db and hands its rows to
// scan; the rows are closed after it.
func (d *DB) queryHot(ctx context.Context, db bun.IDB, h hot, args []any, scan func(rows *sql.Rows) error) error {
	st, done, err := d.stmt(ctx, db, h)
	if err != nil {
		return err
	}
	var rows *sql.Rows
	if st == nil {
		rows, err = db.QueryContext(ctx, h.generic, args...)
	} else {
		defer done()
		rows, err = st.QueryContext(ctx, args...)
	}
	if err != nil {
		return err
	}
	defer func() { _ = rows.Close() }()
	if err := scan(rows); err != nil {
		return err
	}
	return rows.Close()
}

// castVoteQuery is the one statement of VoteStore.CastVote on
// PostgreSQL, built like submitQuery: the job locked (the CTE j: its id
// and the columns VoteGuard.Check reads, not the whole row) and the
// submission's job and agent (s), then, as writable CTEs, the vote
// upserted where the guard holds on them (the SQL form of
// marketplace.VoteGuard.Check) and, when the upsert inserted rather than
// replaced, the voter's reputation upsert. Whether the upsert inserted is
// (xmax = 0) of the row it returns: ON CONFLICT sees the votes committed
// while the statement waited for the job's lock, which a read in the
// statement's snapshot would miss. It returns j's columns, the submission's
// job and agent (NULL when there is none) and the stored vote's id (NULL
// when nothing was written). It writes only on open-mode jobs without a
// drawn panel: CastVote checks the others in a transaction (castLocked).
// The parameters, in order: job id;
// submission id; vote id, submission id, voter, weight, review,
// created_at, open status, now, voter, voter (up); voter, the reputation
// delta's score, wins, losses, submissions, jury votes, created_at (rep);
// the event's outboxArgs (ev: the voted submission's agent is added to its
// subjects).
// After the open status comes the guard's now: a closing lease live at it
// refuses the vote.
func castVoteQuery(h hotStatements) string {
	return `WITH j AS (SELECT ` + guardJobColumns + `, jury_mode, jury_size FROM jobs WHERE id = ?::text FOR UPDATE),
s AS (SELECT s.job_id, s.agent_address FROM submissions AS s WHERE s.id = ?::text),
up AS (INSERT INTO votes AS v (id, job_id, submission_id, voter_address, weight, review, created_at)
SELECT ?::text, j.id, ?::text, ?::text, ?::bigint, ?::text, ?::bigint FROM j, s
WHERE j.status = ?::text AND (j.closing_until IS NULL OR j.closing_until <= ?::bigint)
AND s.job_id = j.id AND s.agent_address <> ?::text AND j.sponsor_address <> ?::text
AND j.jury_mode = 'open' AND j.jury_size IS NULL
ON CONFLICT (job_id, voter_address) DO UPDATE SET submission_id = EXCLUDED.submission_id, weight = EXCLUDED.weight,
review = EXCLUDED.review, created_at = EXCLUDED.created_at
RETURNING v.id, (v.xmax = 0) AS inserted),
rep AS (` + addReputationInto + `
SELECT ?::text, ?::bigint, ?::bigint, ?::bigint, ?::bigint, ?::bigint, ?::bigint FROM up WHERE up.inserted
` + addReputationOnConflict + `),
ev AS (` + insertEventInto + `
SELECT ?::text, ?::text, ?::text, (?::jsonb || jsonb_build_array(s.agent_address))::text, ?::text, ?::text, ?::text, ?::bigint FROM up, s WHERE ?::boolean)
SELECT j.*, s.job_id AS sub_job_id, s.agent_address AS sub_agent, up.id AS vote_id FROM j LEFT JOIN s ON true LEFT JOIN up ON true`
}

// submitGuardQuery is the read of a submission's guard, with the
// parameters agent, job id, agent, as jobForSubmitQuery's: of the job by
// its primary key (locked FOR UPDATE on PostgreSQL) only its id and the
// columns SubmitGuard.Check reads (status, sponsor, closing lease), the
// agent's staked amount (NULL without a stake row) and the agent's
// submission count on the job from the index submissions (job_id,
// agent_address), on PostgreSQL counted once the lock is held (as
// jobForSubmitQuery counts). A narrow row matters on both engines: on
// SQLite the read runs in the writer's turn and the driver names and
// types every column of a result; on PostgreSQL every scan of the CTE
// that holds it builds and projects its columns, and the job has some
// sixty.
func submitGuardQuery(dialect string) string {
	lock, count := "", "(SELECT count(*) FROM submissions AS c WHERE c.job_id = j.id AND c.agent_address = ?)"
	if dialect == DialectPostgres {
		lock, count = " FOR UPDATE", "openjury_submission_count(j.id, ?)"
	}
	return `SELECT j.*, s.staked_micro, ` + count + ` AS submissions
FROM (SELECT ` + guardJobColumns + ` FROM jobs WHERE id = ?` + lock + `) AS j
LEFT JOIN stakes AS s ON s.address = ?`
}

// jobForSubmitQuery is the statement of JobForSubmit, with the parameters
// agent, job id, agent: the job by id (locked FOR UPDATE on PostgreSQL; on
// SQLite the write transaction holds the database's one write lock), the
// agent's stake row by its primary key (a LEFT JOIN: NULLs when it has
// none) and the agent's submission count on the job from the index
// submissions (job_id, agent_address). The job is read in a subquery, which
// PostgreSQL does not flatten because of its lock, so the outer select
// list (the count) is computed above the lock, once it is held.
func jobForSubmitQuery(dialect string, db *bun.DB) string {
	param := bun.Safe("?")
	job := db.NewSelect().Model((*jobRow)(nil)).Where("j.id = ?", param)
	if dialect == DialectPostgres {
		job = job.For("UPDATE")
	}
	q := db.NewSelect().TableExpr("(?) AS j", job).ColumnExpr("j.*")
	for _, f := range db.Table(reflect.TypeFor[stakeRow]()).Fields {
		q = q.ColumnExpr("s.? AS ?", bun.Ident(f.Name), bun.Ident("stake_"+f.Name))
	}
	count := "(SELECT count(*) FROM submissions AS c WHERE c.job_id = j.id AND c.agent_address = ?)"
	if dialect == DialectPostgres {
		// Counted once the lock is held, in a fresh snapshot (migration
		// 20261123000010): a subquery would count in the statement's
		// snapshot, taken before it waited for the lock.
		count = "openjury_submission_count(j.id, ?)"
	}
	return q.ColumnExpr(count+" AS submissions", param).
		Join("LEFT JOIN stakes AS s ON s.address = ?", param).
		String()
}

// submitBatchQuery is submitQuery for many submissions in one statement
// (DB.submits, submitBatch), each with its own guard: the jobs locked in
// id order, skipping those another transaction holds (their submissions
// are left to statements of their own, which wait for the lock, so one
// busy job never holds up a batch), each submission's count taken above
// the locks and raised by the batch's earlier submissions of the same
// agent to the same job that every other condition of the guard lets
// through (ok: a submission the count alone refuses leaves the later ones
// refused too), the reputation deltas of the agents' first submissions
// summed per agent (one upsert a row, in address order), the queue rows
// and the events in the batch's order. It returns, in the
// batch's order, the guard's row of each submission (the job's columns
// NULL when there is no such job or it was locked), whether it was
// inserted and whether its job was skipped, locked.
//
// The parameters, one array each, an element a submission: id, job id,
// agent, content, evidence, created_at, minimum stake, maximum per agent,
// the guard's now; the reputation delta's score, wins, losses,
// submissions, jury votes; the event's type, job id, actor, subjects,
// audience, tags, data, created_at and whether there is one. Then the open
// status and the search kind.
const submitBatchQuery = `WITH u AS MATERIALIZED (SELECT * FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[],
?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[],
?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::bigint[], ?::boolean[])
WITH ORDINALITY AS u (id, job_id, agent, content, evidence, created_at, min_stake, max_per_agent, now,
score, wins, losses, subs, jury_votes,
ev_type, ev_job_id, ev_actor, ev_subjects, ev_audience, ev_tags, ev_data, ev_created_at, ev, ord)),
j AS MATERIALIZED (SELECT ` + guardJobColumns + ` FROM jobs WHERE id IN (SELECT job_id FROM u) ORDER BY id FOR UPDATE SKIP LOCKED),
guard AS MATERIALIZED (SELECT u.*, j.id AS job, j.status, j.sponsor_address, j.closing_until, s.staked_micro,
j.id IS NULL AND EXISTS (SELECT 1 FROM jobs AS x WHERE x.id = u.job_id) AS locked,
j.id IS NOT NULL AND COALESCE(s.staked_micro, 0) >= u.min_stake AND j.status = ?::text AND j.sponsor_address <> u.agent
AND (j.closing_until IS NULL OR j.closing_until <= u.now) AS ok
FROM u LEFT JOIN j ON j.id = u.job_id LEFT JOIN stakes AS s ON s.address = u.agent),
st AS MATERIALIZED (SELECT guard.*, openjury_submission_count(guard.job_id, guard.agent)
+ count(*) FILTER (WHERE guard.ok) OVER (PARTITION BY guard.job_id, guard.agent ORDER BY guard.ord ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS submissions
FROM guard),
ins AS (` + insertSubmissionInto + `
SELECT st.id, st.job_id, st.agent, st.content, st.evidence, st.created_at FROM st
WHERE st.ok AND st.submissions < st.max_per_agent
ORDER BY st.ord
RETURNING id),
rep AS (` + addReputationInto + `
SELECT st.agent, sum(st.score)::bigint, sum(st.wins)::bigint, sum(st.losses)::bigint, sum(st.subs)::bigint, sum(st.jury_votes)::bigint, max(st.created_at)
FROM st JOIN ins ON ins.id = st.id WHERE st.submissions = 0 GROUP BY st.agent ORDER BY st.agent
` + addReputationOnConflict + `),
queued AS (` + enqueueSearchInto + `
SELECT ?::text, st.id, 1, st.created_at, 0 FROM st JOIN ins ON ins.id = st.id
` + enqueueSearchOnConflict + `),
ev AS (` + insertEventInto + `
SELECT st.ev_type, st.ev_job_id, st.ev_actor, st.ev_subjects, st.ev_audience, st.ev_tags, st.ev_data, st.ev_created_at
FROM st JOIN ins ON ins.id = st.id WHERE st.ev ORDER BY st.ord)
SELECT st.job, st.status, st.sponsor_address, st.closing_until, st.staked_micro, st.submissions,
st.id IN (SELECT id FROM ins) AS inserted, st.locked
FROM st ORDER BY st.ord`
