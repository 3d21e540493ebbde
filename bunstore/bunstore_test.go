package bunstore_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/auth"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest/dbtest"
	"github.com/openjury/openjury/openjurytest/pgtest"
	"github.com/openjury/openjury/stake"
	"github.com/openjury/openjury/storetest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

func open(t testing.TB, dsn string, opts ...bunstore.Option) *bunstore.DB {
	t.Helper()
	db, err := bunstore.Open(context.Background(), dsn, opts...)
	require.NoError(t, err, "open %s", dsn)
	t.Cleanup(func() { _ = db.Close() })
	return db
}

func sqliteDSN(t testing.TB) string {
	return "sqlite:" + filepath.Join(t.TempDir(), "openjury.db")
}

// backends lists the dialects; the PostgreSQL one skips (or fails on CI)
// when no server is available.
var backends = []struct {
	name string
	dsn  func(tb testing.TB) string
}{
	{"sqlite", sqliteDSN},
	{"postgres", pgtest.NewDatabase},
}

// bunstore runs every optional group of the suite: none may skip.
var (
	_ storetest.SyncBackend        = (*bunstore.DB)(nil)
	_ storetest.SearchBackend      = (*bunstore.DB)(nil)
	_ storetest.IdempotencyBackend = (*bunstore.DB)(nil)
)

func TestStoreSQLite(t *testing.T) {
	t.Parallel()
	storetest.Run(t, storetest.Features{}, func(t *testing.T) storetest.Backend {
		return open(t, dbtest.SQLite(t)) // a copy of a migrated template: Open migrates nothing
	})
}

func TestStorePostgres(t *testing.T) {
	t.Parallel()
	pgtest.NewDatabase(t) // skip (or fail on CI) here once rather than in every subtest
	storetest.Run(t, storetest.Features{RowLocks: true}, func(t *testing.T) storetest.Backend {
		db := open(t, dbtest.Postgres(t))
		// Racing subtests on many cores must stay under the server's
		// max_connections; 6 connections still race for real.
		db.Bun().SetMaxOpenConns(6)
		return db
	})
}

func job(id string) *marketplace.Job {
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	return &marketplace.Job{
		ID: id, Title: "t", Prompt: "p", Tags: []string{"Go"}, Status: marketplace.StatusOpen,
		Sponsor:   openjury.MustAddress("0x1111111111111111111111111111111111111111"),
		CreatedAt: now, FinalVoteStartsAt: now, FinalVoteEndsAt: now.Add(time.Hour),
	}
}

// roundTrip proves the schema is there: a job goes in and comes out.
func roundTrip(t *testing.T, db *bunstore.DB, id string) {
	t.Helper()
	ctx := context.Background()
	require.NoError(t, db.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		return tx.Jobs().CreateJob(ctx, job(id))
	}))
	got, err := db.Jobs().Job(ctx, id)
	require.NoError(t, err)
	require.Equal(t, job(id), got)
}

func TestOpenSQLiteForms(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cases := []struct {
		name, dsn, file string
	}{
		{"sqlite prefix", "sqlite:" + filepath.Join(dir, "a.db"), filepath.Join(dir, "a.db")},
		{"sqlite URL", "sqlite://" + filepath.Join(dir, "b.db"), filepath.Join(dir, "b.db")},
		{"file URI with params", "file:" + filepath.Join(dir, "c.db") + "?mode=rwc&cache=private", filepath.Join(dir, "c.db")},
		{"file URI escaped", "file:" + filepath.Join(dir, "d%20e.db"), filepath.Join(dir, "d e.db")},
		{"plain path", filepath.Join(dir, "f.db"), filepath.Join(dir, "f.db")},
		{"parent directories are created", "sqlite:" + filepath.Join(dir, "x", "y", "g.db"), filepath.Join(dir, "x", "y", "g.db")},
		{"memory", ":memory:", ""},
		{"sqlite memory", "sqlite::memory:", ""},
		{"file memory", "file::memory:", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			db := open(t, tc.dsn)
			require.Equal(t, bunstore.DialectSQLite, db.Dialect())
			require.NoError(t, db.Ping(context.Background()))
			roundTrip(t, db, "00000000-0000-7000-8000-000000000001")
			if tc.file != "" {
				require.FileExists(t, tc.file)
			}
		})
	}
}

// TestOpenRelativePaths opens the host's default form, relative to the
// working directory (so it cannot run in parallel).
func TestOpenRelativePaths(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for i, dsn := range []string{"./data/openjury.db", "sqlite:./data2/openjury.db", "file:data3/openjury.db", "data4.db"} {
		db := open(t, dsn)
		roundTrip(t, db, "00000000-0000-7000-8000-00000000000"+string(rune('1'+i)))
	}
	for _, f := range []string{"data/openjury.db", "data2/openjury.db", "data3/openjury.db", "data4.db"} {
		require.FileExists(t, filepath.Join(dir, f))
	}
}

func TestOpenPostgresForms(t *testing.T) {
	t.Parallel()
	dsn := pgtest.NewDatabase(t)
	for i, scheme := range []string{"postgres://", "postgresql://", "POSTGRES://"} {
		db := open(t, scheme+strings.TrimPrefix(dsn, "postgres://"))
		require.Equal(t, bunstore.DialectPostgres, db.Dialect())
		require.NoError(t, db.Ping(context.Background()))
		roundTrip(t, db, "00000000-0000-7000-8000-00000000000"+string(rune('1'+i)))
	}
}

func TestOpenErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, dsn := range []string{"", "mysql://user:secret@host/db", "sqlite:", "file://otherhost/x.db"} {
		_, err := bunstore.Open(ctx, dsn)
		require.Equal(t, openjury.Invalid, openjury.KindOf(err), "%q: %v", dsn, err)
		require.NotContains(t, err.Error(), "secret")
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	_, err := bunstore.Open(ctx, "postgres://nobody@127.0.0.1:1/none?sslmode=disable&connect_timeout=5")
	require.Equal(t, openjury.Unavailable, openjury.KindOf(err), "%v", err)
	_, err = bunstore.Open(ctx, "sqlite:"+filepath.Join("/proc", "no", "such", "dir", "x.db"))
	require.Error(t, err)
}

func TestPingAfterClose(t *testing.T) {
	t.Parallel()
	db, err := bunstore.Open(context.Background(), sqliteDSN(t))
	require.NoError(t, err)
	require.NoError(t, db.Close())
	require.Equal(t, openjury.Unavailable, openjury.KindOf(db.Ping(context.Background())))
}

func countMigrations(t *testing.T, db *bunstore.DB) int64 {
	t.Helper()
	n, err := db.Bun().NewSelect().TableExpr(bunstore.MigrationsTable).Count(context.Background())
	require.NoError(t, err)
	return n
}

func TestMigrationsIdempotent(t *testing.T) {
	t.Parallel()
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			dsn := be.dsn(t)
			first := open(t, dsn)
			roundTrip(t, first, "00000000-0000-7000-8000-000000000001")
			want := countMigrations(t, first)
			require.Positive(t, want)
			require.NoError(t, first.Close())

			// Replicas starting together on the migrated database, and
			// then on a fresh one: every Open succeeds, each migration is
			// applied once.
			fresh := be.dsn(t)
			for _, target := range []string{dsn, fresh} {
				dbs := make([]*bunstore.DB, 4)
				errs := make([]error, len(dbs))
				var wg sync.WaitGroup
				for i := range dbs {
					wg.Add(1)
					go func() {
						defer wg.Done()
						dbs[i], errs[i] = bunstore.Open(context.Background(), target)
					}()
				}
				wg.Wait()
				for i, err := range errs {
					require.NoError(t, err, "open %d", i)
					t.Cleanup(func() { _ = dbs[i].Close() })
				}
				require.Equal(t, want, countMigrations(t, dbs[0]))
			}
			again := open(t, dsn)
			got, err := again.Jobs().Job(context.Background(), "00000000-0000-7000-8000-000000000001")
			require.NoError(t, err, "data survives reopening")
			require.Equal(t, "t", got.Title)
		})
	}
}

func TestWithoutMigrations(t *testing.T) {
	t.Parallel()
	db := open(t, sqliteDSN(t), bunstore.WithoutMigrations())
	_, err := db.Jobs().Job(context.Background(), "x")
	require.Error(t, err)
	require.Equal(t, openjury.Internal, openjury.KindOf(err), "no jobs table: %v", err)
}

// TestWithTx runs OpenJury's stores inside the embedder's own transaction.
func TestWithTx(t *testing.T) {
	t.Parallel()
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			db := open(t, be.dsn(t))
			ctx := context.Background()
			_, err := db.Bun().ExecContext(ctx, "CREATE TABLE embedder_things (id TEXT PRIMARY KEY)")
			require.NoError(t, err)
			count := func() int64 {
				n, err := db.Bun().NewSelect().TableExpr("embedder_things").Count(ctx)
				require.NoError(t, err)
				return n
			}

			for _, commit := range []bool{false, true} {
				id := "00000000-0000-7000-8000-000000000001"
				tx, err := db.Bun().BeginTx(ctx, nil)
				require.NoError(t, err)
				_, err = tx.ExecContext(ctx, "INSERT INTO embedder_things (id) VALUES ('thing')")
				require.NoError(t, err)
				stores := db.WithTx(tx)
				require.NoError(t, stores.Jobs().CreateJob(ctx, job(id)))
				_, err = stores.Jobs().JobForUpdate(ctx, id)
				require.NoError(t, err)
				if commit {
					require.NoError(t, tx.Commit())
					_, err = db.Jobs().Job(ctx, id)
					require.NoError(t, err)
					require.Equal(t, int64(1), count())
				} else {
					require.NoError(t, tx.Rollback())
					_, err = db.Jobs().Job(ctx, id)
					require.Equal(t, openjury.NotFound, openjury.KindOf(err))
					require.Equal(t, int64(0), count())
				}
			}
		})
	}
}

func TestMemoryDatabasesArePrivate(t *testing.T) {
	t.Parallel()
	a, b := open(t, ":memory:"), open(t, ":memory:")
	roundTrip(t, a, "00000000-0000-7000-8000-000000000001")
	_, err := b.Jobs().Job(context.Background(), "00000000-0000-7000-8000-000000000001")
	require.Equal(t, openjury.NotFound, openjury.KindOf(err))

	// The auth side works on the one connection as well.
	ctx := context.Background()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	addr := openjury.MustAddress("0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")
	require.NoError(t, a.PutChallenge(ctx, auth.Challenge{Nonce: "n", Address: addr, Message: "m", IssuedAt: now, ExpiresAt: now.Add(time.Minute)}))
	require.NoError(t, a.RedeemChallenge(ctx, addr, "n", now, auth.Token{Hash: "h", Address: addr, CreatedAt: now, ExpiresAt: now.Add(time.Hour)}))
	owner, err := a.TokenOwner(ctx, "h", now)
	require.NoError(t, err)
	require.Equal(t, addr, owner)
}

// TestPoolCallsInsideInTx: on SQLite a pool write inside InTx (and, in
// memory, any pool call) would wait forever for the connection the
// transaction holds; it must fail fast instead.
func TestPoolCallsInsideInTx(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		dsn       func(tb testing.TB) string
		readFails bool
	}{
		{"file", sqliteDSN, false},
		{"memory", func(testing.TB) string { return ":memory:" }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			db := open(t, tc.dsn(t))
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			err := db.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
				err := db.Jobs().CreateJob(ctx, job("00000000-0000-7000-8000-000000000001"))
				require.Equal(t, openjury.Internal, openjury.KindOf(err), "%v", err)
				require.Contains(t, openjury.DetailOf(err), "use the stores of the Tx")
				_, err = db.Jobs().Job(ctx, "00000000-0000-7000-8000-000000000001")
				if tc.readFails {
					require.Equal(t, openjury.Internal, openjury.KindOf(err), "%v", err)
				} else {
					require.Equal(t, openjury.NotFound, openjury.KindOf(err), "%v", err)
				}
				require.Equal(t, openjury.Internal, openjury.KindOf(db.InTx(ctx, func(context.Context, marketplace.Tx) error { return nil })))

				// The same for every store: writes (single statements and
				// multi-statement ones alike) refuse, reads work on a file.
				addr := openjury.MustAddress("0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")
				now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
				for name, err := range map[string]error{
					"PutStake": db.Stake().PutStake(ctx, stake.Stake{Address: addr, Staked: 1, UpdatedAt: now}),
					"RecordSlash": func() error {
						_, err := db.Stake().RecordSlash(ctx, stake.SlashEvent{Agent: addr, Amount: 1, CreatedAt: now})
						return err
					}(),
					"Apply": func() error {
						_, err := db.AGR().Apply(ctx, agr.Entry{Address: addr, Delta: 1, Reason: agr.ReasonDevMint, CreatedAt: now})
						return err
					}(),
					"CreateSubmission": db.Submissions().CreateSubmission(ctx, &marketplace.Submission{JobID: "j", Agent: addr, Content: "c", CreatedAt: now}),
					"PutVote":          db.Votes().PutVote(ctx, &marketplace.Vote{JobID: "j", SubmissionID: "s", Voter: addr, Weight: 1, CreatedAt: now}),
					"PutFinalVote":     db.FinalVotes().PutFinalVote(ctx, &marketplace.FinalVote{JobID: "j", SubmissionID: "s", Voter: addr, CreatedAt: now}),
					"AddReputation":    db.Reputation().AddReputation(ctx, addr, marketplace.ReputationDelta{Score: 1}, now),
					"SetScore":         db.Reputation().SetScore(ctx, addr, 1, now),
					"CreateComment": db.Comments().CreateComment(ctx, &marketplace.Comment{
						Target: marketplace.TargetJob, TargetID: "j", Author: addr, Content: "c", CreatedAt: now}),
					"DeleteComment": db.Comments().DeleteComment(ctx, "c", addr, now),
					"CreatePost":    db.Posts().CreatePost(ctx, &marketplace.Post{Title: "t", Content: "c", Author: addr, Tags: []string{"x"}, CreatedAt: now}),
					"Hit": func() error {
						_, _, err := db.Rates().Hit(ctx, "k", now, time.Minute)
						return err
					}(),
				} {
					require.Equal(t, openjury.Internal, openjury.KindOf(err), "%s: %v", name, err)
				}
				_, err = db.Comments().Comments(ctx, marketplace.TargetJob, "j", 10, nil)
				if tc.readFails {
					require.Equal(t, openjury.Internal, openjury.KindOf(err), "%v", err)
				} else {
					require.NoError(t, err)
				}
				_, err = db.AGR().Status(ctx, addr)
				if tc.readFails {
					require.Equal(t, openjury.Internal, openjury.KindOf(err), "%v", err)
				} else {
					require.NoError(t, err)
				}
				return nil
			})
			require.NoError(t, err)
		})
	}
}

// TestConstraintErrors checks the translation of real constraint
// violations of each database.
func TestConstraintErrors(t *testing.T) {
	t.Parallel()
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			db := open(t, be.dsn(t))
			ctx := context.Background()
			roundTrip(t, db, "00000000-0000-7000-8000-000000000001")

			err := db.Jobs().CreateJob(ctx, job("00000000-0000-7000-8000-000000000001"))
			require.Equal(t, openjury.Conflict, openjury.KindOf(err), "duplicate id: %v", err)
			require.Equal(t, "job already exists", openjury.DetailOf(err))

			neg := job("00000000-0000-7000-8000-000000000002")
			neg.Bounty = -1
			err = db.Jobs().CreateJob(ctx, neg)
			require.Equal(t, openjury.Conflict, openjury.KindOf(err), "check violation: %v", err)

			bad := job("00000000-0000-7000-8000-000000000003")
			bad.Status = "pending"
			err = db.Jobs().CreateJob(ctx, bad)
			require.Equal(t, openjury.Conflict, openjury.KindOf(err), "status check: %v", err)

			var got int
			require.NoError(t, db.Bun().NewRaw("SELECT COUNT(*) FROM jobs").Scan(ctx, &got))
			require.Equal(t, 1, got, "failed creates left rows behind")
		})
	}
}

// TestReadsOfUnknownWriteNothing: reading the stake, AGR account or
// reputation of an unknown address (inside a transaction too) leaves no
// row, and a slash of an agent that never staked creates no stake row.
func TestReadsOfUnknownWriteNothing(t *testing.T) {
	t.Parallel()
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			db := open(t, be.dsn(t))
			ctx := context.Background()
			addr := openjury.MustAddress("0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")
			read := func(s marketplace.Stores) error {
				if _, err := s.Stake().Stake(ctx, addr); err != nil {
					return err
				}
				if _, err := s.AGR().Status(ctx, addr); err != nil {
					return err
				}
				_, err := s.Reputation().Reputation(ctx, addr)
				return err
			}
			require.NoError(t, read(db))
			require.NoError(t, db.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error { return read(tx) }))
			_, err := db.Stake().RecordSlash(ctx, stake.SlashEvent{Agent: addr, Amount: 1, CreatedAt: time.Now()})
			require.NoError(t, err)
			for _, table := range []string{"stakes", "agr_balances", "agr_ledger", "reputation"} {
				n, err := db.Bun().NewSelect().TableExpr(table).Count(ctx)
				require.NoError(t, err)
				require.Zero(t, n, table)
			}
		})
	}
}

// TestEmptyIDsGetIDs: a store given an event, entry, submission or vote
// without an id gives it a new one.
func TestEmptyIDsGetIDs(t *testing.T) {
	t.Parallel()
	db := open(t, sqliteDSN(t))
	ctx := context.Background()
	addr := openjury.MustAddress("0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	jobID := "00000000-0000-7000-8000-000000000001"
	roundTrip(t, db, jobID)
	sub := &marketplace.Submission{JobID: jobID, Agent: addr, Content: "c", CreatedAt: now}
	require.NoError(t, db.Submissions().CreateSubmission(ctx, sub))
	require.True(t, openjury.ValidID(sub.ID), sub.ID)
	_, err := db.AGR().Apply(ctx, agr.Entry{Address: addr, Delta: 1, Reason: agr.ReasonDevMint, CreatedAt: now})
	require.NoError(t, err)
	entries, err := db.AGR().Ledger(ctx, addr, 10, nil)
	require.NoError(t, err)
	require.Len(t, entries, 1)
	require.True(t, openjury.ValidID(entries[0].ID), entries[0].ID)
	_, err = db.Stake().RecordSlash(ctx, stake.SlashEvent{Agent: addr, Amount: 1, CreatedAt: now})
	require.NoError(t, err)
	events, err := db.Stake().Slashes(ctx, stake.SlashFilter{Limit: 10})
	require.NoError(t, err)
	require.Len(t, events, 1)
	require.True(t, openjury.ValidID(events[0].ID), events[0].ID)
}

// TestThreadErrors checks what the comment and post stores make of constraint
// violations the service prevents: a duplicate id, an unknown parent, an
// unknown target type. None leaves a row behind.
func TestThreadErrors(t *testing.T) {
	t.Parallel()
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			db := open(t, be.dsn(t))
			ctx := context.Background()
			now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			addr := openjury.MustAddress("0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")
			comment := func(n int) *marketplace.Comment {
				return &marketplace.Comment{ID: "00000000-0000-7000-8000-00000000000" + string(rune('0'+n)),
					Target: marketplace.TargetJob, TargetID: "j", Author: addr, Content: "c", CreatedAt: now}
			}
			require.NoError(t, db.Comments().CreateComment(ctx, comment(1)))

			err := db.Comments().CreateComment(ctx, comment(1))
			require.Equal(t, openjury.Conflict, openjury.KindOf(err), "%v", err)
			require.Equal(t, "comment already exists", openjury.DetailOf(err))

			orphan := comment(2)
			orphan.ParentID = "00000000-0000-7000-8000-000000000009"
			err = db.Comments().CreateComment(ctx, orphan)
			require.Equal(t, openjury.NotFound, openjury.KindOf(err), "%v", err)
			require.Equal(t, "parent comment not found", openjury.DetailOf(err))

			odd := comment(3)
			odd.Target = "agent"
			err = db.Comments().CreateComment(ctx, odd)
			require.Equal(t, openjury.Conflict, openjury.KindOf(err), "%v", err)

			post := &marketplace.Post{ID: "00000000-0000-7000-8000-000000000001", Title: "t", Content: "c", Author: addr, Tags: []string{"A", "a"}, CreatedAt: now}
			require.NoError(t, db.Posts().CreatePost(ctx, post))
			err = db.Posts().CreatePost(ctx, post)
			require.Equal(t, openjury.Conflict, openjury.KindOf(err), "%v", err)
			require.Equal(t, "post already exists", openjury.DetailOf(err))

			for table, want := range map[string]int{"comments": 1, "posts": 1, "post_tags": 1} {
				var got int
				require.NoError(t, db.Bun().NewRaw("SELECT COUNT(*) FROM "+table).Scan(ctx, &got))
				require.Equal(t, want, got, table)
			}
		})
	}
}

// TestPostgresPoolAndExecMode checks the bounded pool (WithMaxConns, else
// DefaultMaxConns) and the bounded statement cache: with one connection,
// pg_prepared_statements of that session holds exactly the hot statements
// (prepared once, with bound parameters) however many different queries
// run, where pgx's cache_statement mode adds one per new query text.
func TestPostgresPoolAndExecMode(t *testing.T) {
	t.Parallel()
	dsn := pgtest.NewDatabase(t)
	ctx := context.Background()
	require.Equal(t, bunstore.DefaultMaxConns(), open(t, dsn).SQLDBs()[bunstore.PoolPrimary].Stats().MaxOpenConnections)
	prepared := func(dsn string) (n, hot int) {
		db := open(t, dsn, bunstore.WithMaxConns(1))
		require.Equal(t, 1, db.SQLDBs()[bunstore.PoolPrimary].Stats().MaxOpenConnections)
		for i := range 3 {
			_, err := db.Jobs().Job(ctx, fmt.Sprintf("00000000-0000-7000-8000-00000000000%d", i))
			requireKindNotFound(t, err)
			_, err = db.Jobs().ListJobs(ctx, marketplace.JobFilter{Limit: 5 + i, Tag: fmt.Sprint("t", i)})
			require.NoError(t, err)
			_, err = db.Submissions().Submissions(ctx, fmt.Sprintf("00000000-0000-7000-8000-00000000000%d", i), 5+i, nil)
			require.NoError(t, err)
		}
		require.NoError(t, db.Bun().NewRaw("SELECT count(*) FROM pg_prepared_statements").Scan(ctx, &n))
		return n, bunstore.HotStatements(db)
	}
	var mode string
	require.NoError(t, open(t, dsn).Bun().NewRaw("SHOW plan_cache_mode").Scan(ctx, &mode))
	require.Equal(t, "force_generic_plan", mode, "hot statements keep their generic plan")
	n, hot := prepared(dsn)
	require.Positive(t, hot)
	require.Equal(t, hot, n, "only the hot statements are prepared")
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	n, hot = prepared(dsn + sep + "default_query_exec_mode=cache_statement")
	require.Greater(t, n, hot, "the DSN's own mode is kept")
}

func requireKindNotFound(t *testing.T, err error) {
	t.Helper()
	require.Equal(t, openjury.NotFound, openjury.KindOf(err), "%v", err)
}

// TestOptimize runs PRAGMA optimize on SQLite (nothing on PostgreSQL) and
// reports a closed database as Unavailable there.
func TestOptimize(t *testing.T) {
	t.Parallel()
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db, err := bunstore.Open(ctx, be.dsn(t))
			require.NoError(t, err)
			roundTrip(t, db, "00000000-0000-7000-8000-000000000001")
			require.NoError(t, db.Optimize(ctx))
			require.NoError(t, db.Close())
			if db.Dialect() == bunstore.DialectSQLite {
				require.Equal(t, openjury.Unavailable, openjury.KindOf(db.Optimize(ctx)))
			}
		})
	}
}

// TestOptimizeSeesGrownTables checks that Optimize on SQLite analyses a
// table again once it has grown tenfold, though only the readers query it
// (PRAGMA optimize without 0x10000 weighs only the tables the writer's own
// queries used, and the writer never reads the posts), within the
// analysis limit (no sqlite_stat4 samples).
func TestOptimizeSeesGrownTables(t *testing.T) {
	t.Parallel()
	db := open(t, backends[0].dsn(t))
	require.Equal(t, bunstore.DialectSQLite, db.Dialect())
	ctx := context.Background()
	seedRows(t, db, 100)
	seedRange(t, db, 101, planRows)
	rows := func() string {
		var stat string
		require.NoError(t, db.Bun().NewRaw("SELECT stat FROM sqlite_stat1 WHERE idx = 'sqlite_autoindex_posts_1'").Scan(ctx, &stat))
		return strings.Fields(stat)[0]
	}
	require.Equal(t, "100", rows())
	// sqlite_stat4 exists where SQLite was built with samples (modernc's
	// is; the cgo driver's is not).
	var stat4 bool
	require.NoError(t, db.Bun().NewRaw("SELECT count(*) > 0 FROM sqlite_schema WHERE name = 'sqlite_stat4'").Scan(ctx, &stat4))
	if stat4 {
		_, err := db.Bun().ExecContext(ctx, "DELETE FROM sqlite_stat4") // seedRows ran a full ANALYZE
		require.NoError(t, err)
	}
	require.NoError(t, db.Optimize(ctx))
	require.Equal(t, fmt.Sprint(planRows), rows())
	if stat4 {
		// Within the analysis limit: no samples, which would make SQLite
		// prepare a statement again at every new value bound.
		var samples int
		require.NoError(t, db.Bun().NewRaw("SELECT count(*) FROM sqlite_stat4").Scan(ctx, &samples))
		require.Zero(t, samples)
	}
}

// TestAnalyze: after Analyze, PostgreSQL has statistics of the tables
// (it plans the hot statements from them); on SQLite it is Optimize.
func TestAnalyze(t *testing.T) {
	t.Parallel()
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db := open(t, be.dsn(t))
			roundTrip(t, db, "00000000-0000-7000-8000-000000000001")
			require.NoError(t, db.Analyze(ctx))
			if db.Dialect() == bunstore.DialectPostgres {
				var analyzed int
				require.NoError(t, db.Bun().NewRaw(
					`SELECT count(*) FROM pg_stat_user_tables WHERE relname IN ('jobs', 'submissions') AND last_analyze IS NOT NULL`).Scan(ctx, &analyzed))
				require.Equal(t, 2, analyzed)
			}
		})
	}
}

// TestMigrationProgress: a fresh database reports its pending migrations,
// then each one in order as it starts; a migrated one reports none.
func TestMigrationProgress(t *testing.T) {
	t.Parallel()
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			dsn := be.dsn(t)
			var got []bunstore.MigrationProgress
			db := open(t, dsn, bunstore.WithMigrationProgress(func(p bunstore.MigrationProgress) { got = append(got, p) }))
			n := int(countMigrations(t, db))
			require.Len(t, got, n+1)
			require.Equal(t, bunstore.MigrationProgress{Total: n}, got[0])
			for i, p := range got[1:] {
				require.Equal(t, i+1, p.Applying)
				require.Equal(t, n, p.Total)
				require.NotEmpty(t, p.Name)
				if i > 0 {
					require.Greater(t, p.Name, got[i].Name, "in version order")
				}
			}
			got = nil
			open(t, dsn, bunstore.WithMigrationProgress(func(p bunstore.MigrationProgress) { got = append(got, p) }))
			require.Equal(t, []bunstore.MigrationProgress{{Total: 0}}, got)
		})
	}
}

// countBatched counts the batched reads (DB.jobs, DB.tokens) db runs.
func countBatched(db *bunstore.DB) *atomic.Int64 {
	var n atomic.Int64
	bunstore.SetHotHook(db, func(_ context.Context, q string) {
		if strings.Contains(q, "ANY(") {
			n.Add(1)
		}
	})
	return &n
}

// requireNone closes errs and fails on any error in it.
func requireNone(t *testing.T, errs chan error) {
	t.Helper()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
}

// TestConcurrentJobReads: many callers reading jobs at once, on both
// engines, each get their own job (or NotFound for an unknown id), and a
// caller that updates a job then reads it sees its update, while the
// others read around it. On PostgreSQL the reads go in batches (DB.jobs):
// fewer statements than reads.
func TestConcurrentJobReads(t *testing.T) {
	t.Parallel()
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			db := open(t, be.dsn(t))
			ctx := context.Background()
			const jobs, readers, reads = 20, 48, 60
			ids := make([]string, jobs)
			for i := range ids {
				ids[i] = fmt.Sprintf("00000000-0000-7000-8000-%012d", i+1)
				j := job(ids[i])
				j.Title = "title " + ids[i]
				require.NoError(t, db.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
					return tx.Jobs().CreateJob(ctx, j)
				}))
			}
			batched := countBatched(db)
			var wg sync.WaitGroup
			errs := make(chan error, readers+jobs)
			for r := range readers {
				wg.Go(func() {
					for k := range reads {
						i := (r*7 + k) % (jobs + 1)
						if i == jobs {
							// Unknown ids, among them ones PostgreSQL's text
							// cannot hold (a hostile path): NotFound, and the
							// batch they share with others reads on.
							unknown := []string{"00000000-0000-7000-8000-999999999999", "\xff\xfe", "a\x00b"}[k%3]
							_, err := db.Jobs().Job(ctx, unknown)
							if openjury.KindOf(err) != openjury.NotFound {
								errs <- fmt.Errorf("unknown job %q: %v", unknown, err)
								return
							}
							continue
						}
						got, err := db.Jobs().Job(ctx, ids[i])
						if err != nil || got.ID != ids[i] || got.Title != "title "+ids[i] {
							errs <- fmt.Errorf("job %s: %v %+v", ids[i], err, got)
							return
						}
					}
				})
			}
			// Each job's own writer: its read after its update sees it.
			for i := range jobs {
				wg.Go(func() {
					j := job(ids[i])
					for k := range 5 {
						j.FeaturedScore = int64(k + 1)
						if err := db.Jobs().UpdateJob(ctx, j); err != nil {
							errs <- err
							return
						}
						got, err := db.Jobs().Job(ctx, ids[i])
						if err != nil || got.FeaturedScore != j.FeaturedScore {
							errs <- fmt.Errorf("job %s read after its update: %v %+v, want score %d", ids[i], err, got, j.FeaturedScore)
							return
						}
					}
				})
			}
			wg.Wait()
			requireNone(t, errs)
			calls := int64(readers*reads + jobs*5)
			got, statements := db.BatchedReads()
			if db.Dialect() == bunstore.DialectPostgres {
				require.Positive(t, batched.Load())
				require.Less(t, batched.Load(), calls, "concurrent reads share statements")
				t.Logf("%d reads in %d statements", calls, batched.Load())
				// Every read but the ids text cannot hold (two in three of
				// the unknown ones) went in a batch; the statements are the
				// hook's.
				require.Equal(t, batched.Load(), statements)
				require.Greater(t, got, statements)
				require.LessOrEqual(t, got, calls)
				require.Greater(t, got, calls*9/10)
			} else {
				require.Zero(t, batched.Load(), "SQLite reads each job on its own")
				require.Zero(t, got)
				require.Zero(t, statements)
			}
		})
	}
}

// TestConcurrentTokenOwners: many callers checking bearer tokens at once,
// on both engines, each get their token's owner, Unauthenticated for an
// expired or unknown one, and a token revoked before a check is refused
// by it, however the checks are batched (DB.tokens on PostgreSQL: fewer
// statements than checks).
func TestConcurrentTokenOwners(t *testing.T) {
	t.Parallel()
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			db := open(t, be.dsn(t))
			ctx := context.Background()
			now := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
			const owners, checkers, checks = 16, 32, 40
			addrs := make([]openjury.Address, owners)
			for i := range addrs {
				addrs[i] = openjury.MustAddress(fmt.Sprintf("0x%040x", i+1))
				nonce := fmt.Sprint("n", i)
				require.NoError(t, db.PutChallenge(ctx, auth.Challenge{Nonce: nonce, Address: addrs[i], Message: "m", IssuedAt: now, ExpiresAt: now.Add(time.Hour)}))
				// Even owners' tokens are live at now, odd ones expire at
				// now (a token is live strictly before its expiry).
				exp := now.Add(time.Hour)
				if i%2 == 1 {
					exp = now
				}
				require.NoError(t, db.RedeemChallenge(ctx, addrs[i], nonce, now.Add(-time.Minute), auth.Token{Hash: fmt.Sprint("h", i), Address: addrs[i], CreatedAt: now.Add(-time.Minute), ExpiresAt: exp}))
			}
			batched := countBatched(db)
			var wg sync.WaitGroup
			errs := make(chan error, checkers+owners)
			for c := range checkers {
				wg.Go(func() {
					for k := range checks {
						i := (c*5 + k) % (owners + 1)
						hash := fmt.Sprint("h", i)
						if i == owners && k%2 == 1 {
							hash = "h\xff" // not UTF-8: unknown, and the others' batch reads on
						}
						addr, err := db.TokenOwner(ctx, hash, now)
						switch {
						case i == owners || i%2 == 1:
							if openjury.KindOf(err) != openjury.Unauthenticated {
								errs <- fmt.Errorf("token %s: %q %v, want Unauthenticated", hash, addr, err)
								return
							}
						case i%4 == 2:
							// revoked below, at some point: either answer
							// but no other.
							if err != nil && openjury.KindOf(err) != openjury.Unauthenticated || err == nil && addr != addrs[i] {
								errs <- fmt.Errorf("token %s: %q %v", hash, addr, err)
								return
							}
						case err != nil || addr != addrs[i]:
							errs <- fmt.Errorf("token %s: %q %v, want %s", hash, addr, err, addrs[i])
							return
						}
					}
				})
			}
			for i := 2; i < owners; i += 4 {
				wg.Go(func() {
					hash := fmt.Sprint("h", i)
					if err := db.RevokeToken(ctx, hash); err != nil {
						errs <- err
						return
					}
					if addr, err := db.TokenOwner(ctx, hash, now); openjury.KindOf(err) != openjury.Unauthenticated {
						errs <- fmt.Errorf("token %s checked after its revocation: %q %v", hash, addr, err)
					}
				})
			}
			wg.Wait()
			requireNone(t, errs)
			if db.Dialect() == bunstore.DialectPostgres {
				require.Positive(t, batched.Load())
				require.Less(t, batched.Load(), int64(checkers*checks), "concurrent checks share statements")
			} else {
				require.Zero(t, batched.Load(), "SQLite checks each token on its own")
			}
		})
	}
}
