package bunstore

import (
	"context"
	"database/sql"
	"errors"
	"math/rand/v2"
	"net/url"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" database/sql driver
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/auth"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/stake"
)

// DefaultMaxConns is the PostgreSQL pool size when Open is not given
// WithMaxConns: 4 x the cores Go may use (CONTRACT: SERVICE_DB_MAX_CONNS).
func DefaultMaxConns() int { return 4 * runtime.GOMAXPROCS(0) }

// The dialect names returned by DB.Dialect.
const (
	DialectPostgres = "postgres"
	DialectSQLite   = "sqlite"
)

var (
	_ marketplace.DB = (*DB)(nil)
	_ marketplace.Tx = txStores{}
	_ auth.Store     = (*DB)(nil)

	_ marketplace.JobStore        = jobStore{}
	_ marketplace.SubmissionStore = submissionStore{}
	_ marketplace.VoteStore       = voteStore{}
	_ marketplace.FinalVoteStore  = finalVoteStore{}
	_ marketplace.ReputationStore = reputationStore{}
	_ marketplace.CommentStore    = commentStore{}
	_ marketplace.PostStore       = postStore{}
	_ marketplace.RateStore       = rateStore{}
	_ agr.Store                   = agrStore{}
	_ stake.Store                 = stakeStore{}
)

// Option changes how Open opens a database.
type Option func(*options)

type options struct {
	migrate  bool
	maxConns int
	progress func(MigrationProgress)
	// until, when set, stops the migrations after the one of that
	// version (tests of upgrades from an older schema).
	until string
}

// MigrationProgress is what Open reports while it migrates
// (WithMigrationProgress): Total migrations are pending, and Applying (from
// 1) is the one starting now, named Name. The first report, made before any
// runs, has Applying 0 and no Name.
type MigrationProgress struct {
	Applying, Total int
	Name            string
}

// WithMigrationProgress makes Open call fn with the number of pending
// migrations before it applies any, then before each one, so a start that
// migrates a large database (which can take minutes) can say what it is
// doing. fn runs on Open's goroutine and must not block.
func WithMigrationProgress(fn func(MigrationProgress)) Option {
	return func(o *options) { o.progress = fn }
}

// WithMaxConns bounds the PostgreSQL pool to n connections (n >= 1; a
// smaller n means DefaultMaxConns), all kept open while idle, so a busy
// server neither queues behind too few connections nor opens more than
// the server's max_connections allows across replicas. A request beyond n
// waits for a free connection (honouring its context). SQLite ignores it:
// its pools are one writer and a reader pool sized by bunstore.
func WithMaxConns(n int) Option {
	return func(o *options) { o.maxConns = n }
}

// WithoutMigrations makes Open skip the schema migrations, for a database
// already migrated by an earlier Open (for example in a deploy step) or for
// tools that must not change the schema.
func WithoutMigrations() Option {
	return func(o *options) { o.migrate = false }
}

// DB is an OpenJury database on PostgreSQL or SQLite. It implements
// marketplace.DB (whose AGR and Stake give the agr.Store and stake.Store)
// and auth.Store, and is safe for concurrent use.
type DB struct {
	dialect string
	// w is the primary pool; on SQLite the single writer connection.
	w *bun.DB
	// r serves reads outside a transaction; on PostgreSQL and in-memory
	// SQLite it is w.
	r *bun.DB
	// single is true for in-memory SQLite: reads need that connection too.
	single bool
	// group runs SQLite's write transactions (group commit); nil on
	// PostgreSQL, whose transactions run side by side.
	group *group
	// hot are the texts of the hot statements, stmts their prepared
	// statements (see prepared.go).
	hot   hotStatements
	stmts statements
	// jobPlan scans jobRow's columns without bun (rowscan.go), submitPlan
	// submitStateRow's.
	jobPlan, submitPlan rowPlan
	// jobHeadPlan scans jobHeadRow's (a job by id on SQLite, jobHead).
	jobHeadPlan rowPlan
	// hotRuns counts the runs of hot statements (which bypass bun's query
	// hooks), for tests that count a method's statements.
	hotRuns atomic.Int64
	// hotHook, set by tests only, sees every run of a hot statement.
	hotHook func(ctx context.Context, query string)
	// appended is signalled (never blocking) after a transaction that
	// appended events to the outbox committed: the replica's sequencer
	// need not wait for its next poll (EventsAppended).
	appended chan struct{}
	// jobs and tokens batch the reads of a job by id outside a
	// transaction and of a bearer token's owner on PostgreSQL (batch.go);
	// nil on SQLite.
	jobs   *batcher[*jobRow]
	tokens *batcher[tokenRow]
	// submits batches the submissions outside a transaction on
	// PostgreSQL (submitBatch); nil on SQLite.
	submits *coalescer[submitCall, submitResult]
	// submitsAlone counts the batched submissions written by statements
	// of their own (BatchedSubmits).
	submitsAlone atomic.Int64
	// ckpt runs the checkpoints of a SQLite file (checkpoint.go); nil on
	// PostgreSQL and in-memory SQLite.
	ckpt *checkpointer
}

// Open opens the database named by dsn, checks that it answers and applies
// the migrations (unless WithoutMigrations). See the package documentation
// for the DSN forms. Errors: Invalid for an unusable DSN, Unavailable when
// the database cannot be reached, Internal when a migration fails.
func Open(ctx context.Context, dsn string, opts ...Option) (*DB, error) {
	const op = "bunstore.Open"
	o := options{migrate: true}
	for _, opt := range opts {
		opt(&o)
	}
	var (
		d   *DB
		err error
	)
	lower := strings.ToLower(dsn)
	if strings.HasPrefix(lower, "postgres://") || strings.HasPrefix(lower, "postgresql://") {
		d, err = openPostgres(dsn, o.maxConns)
	} else {
		d, err = openSQLite(dsn)
	}
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	if err := d.firstPing(ctx); err != nil {
		_ = d.Close()
		return nil, openjury.Wrap(op, err)
	}
	if o.migrate {
		if err := d.migrate(ctx, o.progress, o.until); err != nil {
			_ = d.Close()
			return nil, openjury.Wrap(op, err)
		}
	}
	d.prepareHot(ctx)
	return d, nil
}

// pgExecMode is the pgx query exec mode bunstore uses unless the DSN names
// one (default_query_exec_mode). bun inlines arguments into the SQL text,
// so pgx's default (cache_statement) would prepare every new text, a
// second round trip per query, and keep up to 512 useless statements per
// connection. simple_protocol sends each query as one Query message, one
// round trip and no server-side statement; it measured fastest
// (BENCHMARKS.md, "Storage choices"). The few queries with $n arguments
// (migration locks) have them quoted by pgx, with
// standard_conforming_strings on as PostgreSQL has it by default.
const pgExecMode = "simple_protocol"

// pgPlanCacheMode is the plan_cache_mode of bunstore's sessions unless the
// DSN names one. It concerns only the hot statements, the prepared ones
// with $n parameters (bun's other queries go by the simple protocol,
// planned each time). Under PostgreSQL's default (auto) the job page
// kept being planned again at every execution, its planning costing twice
// its execution (BENCHMARKS.md, "Read paths"); the generic plans of the
// hot statements are index walks, which the plan tests check
// (plan_test.go: the job pages' generic and custom plans).
const pgPlanCacheMode = "force_generic_plan"

func openPostgres(dsn string, maxConns int) (*DB, error) {
	// pgx wants the scheme in lower case.
	i := strings.Index(dsn, "://")
	dsn = strings.ToLower(dsn[:i]) + dsn[i:]
	if u, err := url.Parse(dsn); err == nil {
		q := u.Query()
		for k, v := range map[string]string{"default_query_exec_mode": pgExecMode, "plan_cache_mode": pgPlanCacheMode} {
			if !q.Has(k) {
				q.Set(k, v)
			}
		}
		u.RawQuery = q.Encode()
		dsn = u.String()
	}
	sqldb, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, openjury.Errorf(openjury.Invalid, "bunstore.Open", "database URL: %v", err)
	}
	if maxConns < 1 {
		maxConns = DefaultMaxConns()
	}
	// A bounded pool whose connections all stay open: database/sql keeps
	// only 2 idle connections by default, so a busy server would open and
	// close connections all the time.
	sqldb.SetMaxOpenConns(maxConns)
	sqldb.SetMaxIdleConns(maxConns)
	sqldb.SetConnMaxIdleTime(5 * time.Minute)
	return newDB(DialectPostgres, bun.NewDB(sqldb, pgdialect.New())), nil
}

// newDB returns a DB of dialect on the pool w (writer and reader alike
// until the caller sets a reader pool), with its hot statements and row
// plans.
func newDB(dialect string, w *bun.DB) *DB {
	d := &DB{dialect: dialect, w: w, r: w, hot: newHotStatements(dialect, w),
		jobPlan: mustRowPlan[jobRow](w), submitPlan: mustRowPlan[submitStateRow](w, "Stake"), jobHeadPlan: mustRowPlan[jobHeadRow](w),
		appended: make(chan struct{}, 1)}
	if dialect == DialectPostgres {
		d.jobs = newBatcher(d.jobsByID, batchesInFlight, maxBatch)
		d.tokens = newBatcher(d.tokensByHash, batchesInFlight, maxBatch)
		d.submits = &coalescer[submitCall, submitResult]{run: d.submitBatch, limit: batchesInFlight, max: maxBatch}
	}
	return d
}

// optimizeTimeout bounds the PRAGMA optimize of Close.
const optimizeTimeout = 5 * time.Second

// Optimize lets SQLite refresh the statistics its query planner uses
// (PRAGMA optimize: it analyses only tables whose size changed tenfold
// since their statistics were taken, so it is cheap when little changed).
// Its mask 0x10012 weighs every table (0x10000), not only those the
// writer's own queries used (on its own PRAGMA optimize would never
// refresh a table only the readers query), and keeps the analysis limit
// (0x10): a bounded number of rows a table, and no sqlite_stat4 samples,
// with which SQLite would prepare a statement again at every new value
// bound to a column the samples cover. Run it now and then on a
// long-running server (the host does, in its cleanup loop); Close runs it
// too. On PostgreSQL, whose autovacuum does the same, it does nothing.
// Errors: Unavailable.
func (d *DB) Optimize(ctx context.Context) error {
	if d.dialect != DialectSQLite {
		return nil
	}
	if err := d.guard(ctx, "bunstore.Optimize", true); err != nil {
		return err
	}
	if _, err := d.w.ExecContext(ctx, "PRAGMA optimize = 0x10012"); err != nil {
		return unavailable("bunstore.Optimize", err)
	}
	return nil
}

// Analyze refreshes the query planner's statistics of every table now:
// ANALYZE on PostgreSQL, Optimize on SQLite. Run it after a bulk load
// (seeding, a restore): until autovacuum has analysed the new rows,
// PostgreSQL plans the hot statements from empty-table estimates (a
// sequential scan and a sort instead of an index walk) and keeps those
// plans for its prepared statements. Errors: Unavailable.
func (d *DB) Analyze(ctx context.Context) error {
	if d.dialect != DialectPostgres {
		return d.Optimize(ctx)
	}
	if err := d.guard(ctx, "bunstore.Analyze", true); err != nil {
		return err
	}
	if _, err := d.w.ExecContext(ctx, "ANALYZE"); err != nil {
		return unavailable("bunstore.Analyze", err)
	}
	return nil
}

// Close stops the background checkpoints and closes every connection; on
// SQLite it runs Optimize first (its error ignored: closing matters more).
func (d *DB) Close() error {
	var cerr error
	if d.ckpt != nil {
		cerr = d.ckpt.close()
	}
	if d.dialect == DialectSQLite {
		ctx, cancel := context.WithTimeout(context.Background(), optimizeTimeout)
		_ = d.Optimize(ctx)
		cancel()
	}
	d.stmts.close()
	err := d.w.Close()
	if d.r != d.w {
		if rerr := d.r.Close(); err == nil {
			err = rerr
		}
	}
	if err == nil {
		err = cerr
	}
	return translate("bunstore.Close", err)
}

// Ping checks that the database answers, for readiness probes.
// Errors: Unavailable.
func (d *DB) Ping(ctx context.Context) error {
	const op = "bunstore.Ping"
	if err := d.w.PingContext(ctx); err != nil {
		return unavailable(op, err)
	}
	if d.r != d.w {
		if err := d.r.PingContext(ctx); err != nil {
			return unavailable(op, err)
		}
	}
	return nil
}

// firstPing is the Ping of Open. On SQLite it retries a busy answer for a
// while: processes opening a fresh file together race to switch it to WAL
// (the writer's journal_mode pragma), and SQLite answers the loser
// SQLITE_BUSY at once, without waiting out busy_timeout, to avoid a lock
// upgrade deadlock. The failed connection is not kept by the pool.
func (d *DB) firstPing(ctx context.Context) error {
	deadline := time.Now().Add(sqliteLockWait)
	for {
		err := d.Ping(ctx)
		if err == nil || d.dialect != DialectSQLite || openjury.DetailOf(err) != detailBusy || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return unavailable("bunstore.Ping", ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// unavailable translates err, turning what would be Internal into
// Unavailable: a failed ping means the database cannot be used.
func unavailable(op string, err error) error {
	err = translate(op, err)
	if openjury.KindOf(err) == openjury.Internal {
		return &openjury.Error{Kind: openjury.Unavailable, Op: op, Detail: detailUnavailable, Err: err}
	}
	return err
}

// Bun returns the primary *bun.DB, for embedders: their own queries and
// transactions (see WithTx). On SQLite it is the one writer connection;
// keep its transactions short.
func (d *DB) Bun() *bun.DB { return d.w }

// Names of the pools returned by SQLDBs.
const (
	PoolPrimary = "primary"
	PoolWriter  = "writer"
	PoolReader  = "reader"
)

// SQLDBs returns the database/sql connection pools by name, for pool
// statistics (for example Prometheus' collectors.NewDBStatsCollector,
// whose db_name label the names suit): PoolWriter and PoolReader on a
// SQLite file, PoolPrimary on PostgreSQL and in-memory SQLite. Do not close
// them; Close does.
func (d *DB) SQLDBs() map[string]*sql.DB {
	if d.r == d.w {
		return map[string]*sql.DB{PoolPrimary: d.w.DB}
	}
	return map[string]*sql.DB{PoolWriter: d.w.DB, PoolReader: d.r.DB}
}

// Dialect returns DialectPostgres or DialectSQLite.
func (d *DB) Dialect() string { return d.dialect }

// Jobs returns the job store outside any transaction: each write is its own
// transaction.
func (d *DB) Jobs() marketplace.JobStore { return jobStore{d.pool()} }

// Submissions returns the submission store outside any transaction.
func (d *DB) Submissions() marketplace.SubmissionStore { return submissionStore{d.pool()} }

// Votes returns the jury vote store outside any transaction.
func (d *DB) Votes() marketplace.VoteStore { return voteStore{d.pool()} }

// FinalVotes returns the final vote store outside any transaction.
func (d *DB) FinalVotes() marketplace.FinalVoteStore { return finalVoteStore{d.pool()} }

// Reputation returns the reputation store outside any transaction.
func (d *DB) Reputation() marketplace.ReputationStore { return reputationStore{d.pool()} }

// Comments returns the comment store outside any transaction: each
// CreateComment and DeleteComment is its own transaction.
func (d *DB) Comments() marketplace.CommentStore { return commentStore{d.pool()} }

// Posts returns the post store outside any transaction: each CreatePost
// is its own transaction.
func (d *DB) Posts() marketplace.PostStore { return postStore{d.pool()} }

// Rates returns the rate counter store outside any transaction: each Hit
// is one statement.
func (d *DB) Rates() marketplace.RateStore { return rateStore{d.pool()} }

// AGR returns the AGR balance and ledger store outside any transaction:
// each Apply is its own transaction.
func (d *DB) AGR() agr.Store { return agrStore{d.pool()} }

// Stake returns the stake and slash store outside any transaction: each
// RecordSlash is its own transaction.
func (d *DB) Stake() stake.Store { return stakeStore{d.pool()} }

// InTx runs fn in one transaction, committed when fn returns nil and rolled
// back otherwise (also when fn panics; the panic goes on). fn's error is
// returned as is. Inside fn use only the stores of tx. fn may run again,
// its earlier run rolled back (runTx: a lost race on PostgreSQL; group: a
// SQLite group rolled back for another member), so it must leave no
// effect outside the transaction. Errors of its own: Unavailable when the
// transaction cannot begin or commit.
func (d *DB) InTx(ctx context.Context, fn func(ctx context.Context, tx marketplace.Tx) error) error {
	const op = "bunstore.InTx"
	if err := d.guard(ctx, op, true); err != nil {
		return err
	}
	return d.runTx(ctx, op, func(ctx context.Context, tx bun.Tx) error {
		return fn(context.WithValue(ctx, inTxKey{}, d), d.WithTx(tx))
	})
}

// maxTxAttempts bounds how often runTx runs a transaction that lost a
// race on PostgreSQL (serialization failure or deadlock).
const maxTxAttempts = 4

// runTx runs fn in a new transaction on the primary pool. fn's error is
// returned as is; begin and commit errors are translated. A transaction
// that PostgreSQL aborted as a serialization failure or a deadlock victim
// is run again, from the start, up to maxTxAttempts times with a short,
// growing pause: it lost a race and nothing of it was kept. fn must
// therefore leave no effect outside the transaction (the domain's rule
// anyway: no RPC or embedder call inside a transaction).
func (d *DB) runTx(ctx context.Context, op string, fn func(ctx context.Context, tx bun.Tx) error) error {
	if _, ok := ctx.Value(txNoteKey{}).(*txNote); !ok {
		note := &txNote{}
		ctx = context.WithValue(ctx, txNoteKey{}, note)
		err := d.runTx(ctx, op, fn)
		if err == nil && note.appended.Load() {
			d.signalAppended()
		}
		return err
	}
	if d.group != nil {
		return d.group.run(ctx, op, fn)
	}
	for attempt := 1; ; attempt++ {
		err := d.runTxOnce(ctx, op, fn)
		if err == nil || attempt == maxTxAttempts || !lostRace(err) {
			return err
		}
		pause := time.Duration(attempt*attempt) * 5 * time.Millisecond
		select {
		case <-ctx.Done():
			return err
		case <-time.After(pause + time.Duration(rand.Int64N(int64(pause)))):
		}
	}
}

// txNote is what a transaction's stores note for after its commit.
type txNote struct {
	// appended is set when the transaction appended events.
	appended atomic.Bool
}

// txNoteKey marks the context of a transaction with its *txNote.
type txNoteKey struct{}

// noteAppended records that the write running with ctx appended events:
// inside a transaction its commit signals EventsAppended; outside one (a
// statement of its own, already committed) it signals at once.
func (d *DB) noteAppended(ctx context.Context) {
	if note, ok := ctx.Value(txNoteKey{}).(*txNote); ok {
		note.appended.Store(true)
		return
	}
	d.signalAppended()
}

func (d *DB) signalAppended() {
	select {
	case d.appended <- struct{}{}:
	default:
	}
}

// EventsAppended is signalled after a write of this DB that appended
// events to the outbox committed (at most one signal waits): the host's
// sequencer runs at once instead of at its next poll. Writes of other
// replicas are not signalled here.
func (d *DB) EventsAppended() <-chan struct{} { return d.appended }

// lostRace reports whether err is PostgreSQL's serialization failure
// (40001) or deadlock (40P01).
func lostRace(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "40001" || pgErr.Code == "40P01")
}

// runTxOnce is one attempt of runTx.
func (d *DB) runTxOnce(ctx context.Context, op string, fn func(ctx context.Context, tx bun.Tx) error) error {
	tx, err := d.w.BeginTx(ctx, nil)
	if err != nil {
		return translate(op, err)
	}
	committed := false
	defer func() {
		if !committed {
			_ = tx.Rollback()
		}
	}()
	if err := fn(ctx, tx); err != nil {
		return err
	}
	committed = true
	return translate(op, tx.Commit())
}

// WithTx returns the stores bound to tx, a transaction the caller opened on
// Bun() and commits or rolls back itself. It lets embedders make OpenJury's
// changes part of their own transactions.
func (d *DB) WithTx(tx bun.Tx) marketplace.Tx {
	return txStores{d.txExec(tx)}
}

// txStores is the set of stores of one transaction.
type txStores struct{ e exec }

func (t txStores) Jobs() marketplace.JobStore               { return jobStore{t.e} }
func (t txStores) Submissions() marketplace.SubmissionStore { return submissionStore{t.e} }
func (t txStores) Votes() marketplace.VoteStore             { return voteStore{t.e} }
func (t txStores) FinalVotes() marketplace.FinalVoteStore   { return finalVoteStore{t.e} }
func (t txStores) Reputation() marketplace.ReputationStore  { return reputationStore{t.e} }
func (t txStores) AGR() agr.Store                           { return agrStore{t.e} }
func (t txStores) Stake() stake.Store                       { return stakeStore{t.e} }
func (t txStores) Comments() marketplace.CommentStore       { return commentStore{t.e} }
func (t txStores) Posts() marketplace.PostStore             { return postStore{t.e} }
func (t txStores) Rates() marketplace.RateStore             { return rateStore{t.e} }

// inTxKey marks the context of an InTx callback with its *DB.
type inTxKey struct{}

// guard refuses a pool operation that would wait for the connection an
// enclosing InTx of the same DB holds (SQLite only): on SQLite writes need
// w's one connection, and on in-memory SQLite reads need it too, so they
// would wait forever.
func (d *DB) guard(ctx context.Context, op string, write bool) error {
	if !(d.single || (write && d.dialect == DialectSQLite)) {
		return nil
	}
	if owner, _ := ctx.Value(inTxKey{}).(*DB); owner == d {
		return openjury.E(openjury.Internal, op,
			"called on the DB inside its own InTx: use the stores of the Tx (SQLite has one writer connection)")
	}
	return nil
}

// exec is where a store runs its queries: the pools, or one transaction.
type exec struct {
	d     *DB
	read  bun.IDB
	write bun.IDB
	// tx is true when read and write are the same transaction.
	tx bool
}

func (d *DB) pool() exec { return exec{d: d, read: d.r, write: d.w} }

// txExec is where the stores of the transaction db (a bun.Tx, or the db
// an inTx callback gets) run.
func (d *DB) txExec(db bun.IDB) exec { return exec{d: d, read: db, write: db, tx: true} }

// reader returns where to read.
func (e exec) reader(ctx context.Context, op string) (bun.IDB, error) {
	if e.tx {
		return e.write, nil
	}
	if err := e.d.guard(ctx, op, false); err != nil {
		return nil, err
	}
	return e.read, nil
}

// writer returns where to run a single-statement write.
func (e exec) writer(ctx context.Context, op string) (bun.IDB, error) {
	if e.tx {
		return e.write, nil
	}
	if err := e.d.guard(ctx, op, true); err != nil {
		return nil, err
	}
	return e.write, nil
}

// writeAll runs fn's writes as one change: in the enclosing transaction
// when there is one (its caller fails the transaction on fn's error), else
// in a new transaction on SQLite, where fn may run several statements (the
// jury index's touches after a score write, reputationStore.touchCrossings),
// and on the primary pool on PostgreSQL, where it runs one.
func (e exec) writeAll(ctx context.Context, op string, fn func(ctx context.Context, db bun.IDB) error) error {
	if !e.tx && e.d.dialect == DialectSQLite {
		return e.inTx(ctx, op, fn)
	}
	db, err := e.writer(ctx, op)
	if err != nil {
		return err
	}
	return fn(ctx, db)
}

// inTx runs fn atomically: in a new transaction on the primary pool, or,
// inside an enclosing transaction, under a savepoint of it. When fn fails
// the savepoint is rolled back, so a failed store method leaves nothing
// behind even if the caller goes on with the transaction, and on
// PostgreSQL the transaction stays usable (an error would otherwise abort
// it). Errors of fn are returned as they are; begin and commit errors are
// translated.
//
// bun's Tx.RunInTx also uses a savepoint, but hands fn the context the
// transaction was begun with instead of ctx, so it is not used here.
func (e exec) inTx(ctx context.Context, op string, fn func(ctx context.Context, db bun.IDB) error) error {
	if e.tx {
		return savepoint(ctx, op, e.write, fn)
	}
	if err := e.d.guard(ctx, op, true); err != nil {
		return err
	}
	return e.d.runTx(ctx, op, func(ctx context.Context, tx bun.Tx) error { return fn(ctx, tx) })
}

// savepoint runs fn under a savepoint of the transaction db: released when
// fn returns nil, rolled back to otherwise (also when fn panics; the panic
// goes on).
func savepoint(ctx context.Context, op string, db bun.IDB, fn func(ctx context.Context, db bun.IDB) error) error {
	// The savepoint keeps the context it was begun with for its release or
	// rollback; without cancellation, so a rollback still runs after ctx
	// ended and the enclosing transaction is left as it was.
	sp, err := db.BeginTx(context.WithoutCancel(ctx), nil)
	if err != nil {
		return translate(op, err)
	}
	done := false
	defer func() {
		if !done {
			_ = sp.Rollback()
		}
	}()
	if err := fn(ctx, sp); err != nil {
		return err
	}
	done = true
	return translate(op, sp.Commit())
}
