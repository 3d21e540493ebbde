// Package bunstore keeps OpenJury's state in PostgreSQL or SQLite through
// bun. One *DB implements every store port of the domain packages
// (marketplace.DB with its job, submission, vote, reputation, thread and
// rate stores, agr.Store and stake.Store through AGR and Stake, and
// auth.Store).
//
// # Opening
//
// Open picks the dialect from the DSN:
//
//	postgres://user:pass@host/db?sslmode=disable   PostgreSQL (pgx v5 via database/sql)
//	postgresql://...                               PostgreSQL
//	sqlite:./data/openjury.db                      SQLite file (parent directory created)
//	file:./data/openjury.db?mode=rwc               SQLite URI, extra parameters kept
//	./data/openjury.db, /abs/path.db               SQLite file
//	:memory:, sqlite::memory:                      SQLite in memory, private to this DB
//
// and applies the embedded, versioned migrations of that dialect (see
// WithoutMigrations). On PostgreSQL the migration runs under a session
// advisory lock, so replicas that start together migrate once; on SQLite
// bun's migration lock row guards it.
//
// # SQLite connections
//
// SQLite allows one writer at a time. bunstore therefore opens two
// database/sql pools on a SQLite file:
//
//   - the writer: exactly one connection. Every write and every InTx runs
//     on it, so writers of this process queue for it instead of failing
//     with SQLITE_BUSY. Its transactions start with BEGIN IMMEDIATE, so a
//     writer in another process waits (busy_timeout) rather than
//     deadlocking on a lock upgrade. The InTx transactions that queue up
//     while one runs share one SQLite transaction (group commit): each runs
//     under its own savepoint, rolled back alone when it fails, and the
//     group commits once, before any of its InTx calls returns (see
//     group.go for the rules: a started transaction is not interrupted by
//     its context, and a group commits when nobody waits, or at 64
//     transactions or 20 ms).
//   - the reader: one connection per core (at least 2), with query_only
//     set, for the reads made outside a transaction. In WAL mode they run
//     in parallel with each other and with the writer and see only
//     committed data.
//
// Every connection gets its pragmas from the DSN, so connections the pools
// open later get them too: busy_timeout=10000, foreign_keys=ON,
// synchronous=NORMAL, a 2 MiB page cache (cache_size), and
// journal_mode=WAL on the writer (WAL is a property of the file, so
// readers inherit it). A pragma the DSN sets itself is kept. Close runs
// PRAGMA optimize (over every table, 0x10012), and so does Optimize (the
// host calls it from its cleanup loop) to keep the planner's statistics
// fresh. The DSN is written for the
// driver sqliteshim picked (modernc.org/sqlite's _pragma=... form, or
// mattn/go-sqlite3's _busy_timeout=... form when built with cgo and the
// cgosqlite tag, with fts5 for search: -tags "cgosqlite fts5").
//
// A single writer pool was the simpler alternative, but reads would then
// wait behind every write transaction; two pools keep reads parallel at the
// cost of one rule: inside an InTx callback use only the stores of its Tx.
// On SQLite a write through the DB's own stores from inside InTx would wait
// for the connection the transaction holds; bunstore detects that through
// the callback's context and returns an Internal error instead of hanging.
//
// An in-memory database (":memory:") exists only inside its connection, so
// it uses one connection for everything and no WAL; there even reads
// through the DB's own stores from inside InTx would wait, and bunstore
// returns the same error for them.
//
// # PostgreSQL
//
// Transactions run at READ COMMITTED; JobForUpdate and JobForSubmit take a
// row lock (SELECT ... FOR UPDATE) that serialises concurrent state changes
// of one job. A statement reads in the snapshot it began with, before any
// wait for a lock, so JobForSubmit counts the agent's submissions in the
// function openjury_submission_count, called above the lock: a VOLATILE
// function's query takes a fresh snapshot, which includes what the lock's
// previous holder committed. The pool is bounded: WithMaxConns connections
// (DefaultMaxConns, 4 x cores, without it), all kept open while idle; keep
// replicas x pool size under the server's max_connections. Queries go out
// in pgx's simple protocol (one round trip, no prepared statement: bun
// inlines the arguments, so preparing every new text would only add a round
// trip) unless the DSN names another default_query_exec_mode.
//
// # Hot statements
//
// The statements of the hottest paths (a job by id, the bearer token, a
// stake, and the statements of a submission: JobForSubmit's one read of the
// locked job, the stake and the count, then its writes) are not bun queries
// with inlined arguments but a fixed set of texts with bound parameters,
// prepared once per connection at Open and reused (prepared.go): SQLite
// skips its parser, PostgreSQL its parse and plan, in one Bind/Execute
// round trip. The set is fixed in the code, so the per-connection statement
// cache is bounded (TestPostgresPoolAndExecMode checks that the session
// holds exactly those statements).
//
// A submission (SubmissionStore.Submit) is one of them on PostgreSQL: a
// single statement whose first CTE is JobForSubmit's read and whose
// writable CTEs insert the submission only where the guard holds (the SQL
// form of marketplace.SubmitGuard.Check), queue it for search and upsert a
// first submission's reputation. A statement is atomic on its own, so a
// submission costs one round trip instead of six (BEGIN, the read, three
// writes, COMMIT). A jury vote (VoteStore.CastVote) is built the same way:
// the job locked and the submission's key read, the vote upserted where
// marketplace.VoteGuard.Check holds, and a first vote's reputation added
// when the upsert inserted (xmax = 0 of its row), in one statement instead
// of seven round trips. The store tests hold each SQL guard to its Check.
//
// # Closing at any size
//
// A close (marketplace, docs/rules.md "Closing at any size") takes the
// job's closing lease (jobs.closing_id, closing_until), reads the job's
// records a keyset page at a time (closing.go: submissions, votes, final
// votes and comments (by comments.job_id) each from their (job_id,
// created_at, id) index; on PostgreSQL with enable_sort off, so a page
// never sorts the rest of a large job's rows whatever the statistics),
// and stages them in short transactions: anchor_records (one row a
// record, its canonical bytes), anchor_nodes (the tree, 128 nodes a row)
// and anchor_leaf_index (each record's leaf position, 1024 a row), under
// a build id registered in anchor_builds. The close's last transaction
// (PutBatch) makes them the job's batch; a build left behind is deleted
// by CleanupBuilds. A comment on a job or its submissions bumps
// jobs.records_rev under the job's lock and carries the new value (rev,
// deleted_rev), so a close covers exactly the comments it read under its
// lease. Batches stored whole by earlier versions are converted by
// migration 20261125000011 (convert.go), in its transaction.
//
// # Lists
//
// Every list query is an index walk in the list's own order, so a page
// costs O(limit) at any cursor depth on both engines (TestListPlans checks
// the plans). The featured-first job list reads two phases, each its own
// walk: active boosts from a small partial index, then the rest from
// (status,) created_at; tag filters walk job_tags / post_tags, which carry
// the status and created_at of their row (kept in step by UpdateJob).
//
// # Storage conventions
//
// Times are BIGINT Unix milliseconds (read back as UTC), USDC amounts BIGINT
// micro-USDC, AGR amounts BIGINT, identifiers TEXT. Job and post tags are
// kept twice: the display spellings as a JSON array on the job or post row,
// and lowercased in job_tags or post_tags for the exact, case-insensitive
// tag filter. A deleted comment keeps its row and content (deleted_at and
// deleted_by set); hiding the content is the service's job. A
// submission's evidence is a JSON array and a jury vote's review a JSON
// object (NULL when absent); both read back as written, except that JSON
// numbers inside them (evidence metadata, review values) read back as
// float64, as encoding/json decodes numbers into any.
//
// # Atomic methods and concurrency
//
// Every store method is atomic on its own. A method of more than one
// statement (CreateJob, CreatePost, RecordSlash, the AGR Apply,
// RedeemChallenge, DeleteExpired) runs outside InTx in a transaction of its own (on SQLite
// on the writer connection), and inside a transaction under a savepoint of
// it: when the method fails, the savepoint is rolled back, so the method
// leaves nothing behind and, on PostgreSQL, the enclosing transaction stays
// usable. The refusals the ports document as outcomes (a second AGR win of
// a job, a debit larger than the balance, a slash event seen before) are
// therefore safe to handle and go on from inside a transaction.
//
// Concurrent writers are serialised by the database, never in process:
// replacing votes, adding to reputation, crediting AGR and putting stakes
// are single INSERT ... ON CONFLICT ... DO UPDATE statements (racing first
// writes end with one row and no error); an AGR debit is UPDATE ... SET
// balance = balance - n WHERE balance >= n, so concurrent spends never
// overdraw; unique indexes keep one win mint per job and one slash per
// onchain reference (chain id, tx hash, log index; an unset chain id or log
// index counts as a value). A rate counter Hit is one INSERT ... ON
// CONFLICT (key) DO UPDATE ... RETURNING that either adds one or starts a
// new window, so concurrent hits on a key get distinct counts; a comment
// delete is UPDATE ... WHERE deleted_at IS NULL, so the first one wins.
//
// # Errors
//
// Every method returns *openjury.Error. Driver errors are translated at the
// boundary: no rows is NotFound; a unique or check constraint violation is
// Conflict (the domain validates input first, so a violated CHECK means the
// state forbids the change, e.g. a balance that would go negative); a
// foreign-key violation is NotFound (the referenced object is missing); a
// serialization failure, deadlock, SQLITE_BUSY/LOCKED, refused or broken
// connection or expired context is Unavailable; anything else is Internal
// with the cause kept for the logs.
//
// # Embedding
//
// Bun returns the primary *bun.DB (the writer on SQLite). WithTx binds the
// stores to a transaction the embedder opened on it, so OpenJury's writes
// can commit atomically with the embedder's own.
package bunstore
