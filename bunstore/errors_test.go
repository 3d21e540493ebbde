package bunstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/require"
	"github.com/uptrace/bun/driver/sqliteshim"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/openjurytest/pgtest"
)

func TestTranslateTable(t *testing.T) {
	t.Parallel()
	cause := errors.New("some driver failure")
	domain := openjury.E(openjury.Forbidden, "", "not yours")
	cases := []struct {
		name string
		err  error
		kind openjury.Kind
	}{
		{"no rows", sql.ErrNoRows, openjury.NotFound},
		{"wrapped no rows", fmt.Errorf("scan: %w", sql.ErrNoRows), openjury.NotFound},
		{"pg unique", &pgconn.PgError{Code: "23505"}, openjury.Conflict},
		{"pg check", &pgconn.PgError{Code: "23514"}, openjury.Conflict},
		{"pg foreign key", &pgconn.PgError{Code: "23503"}, openjury.NotFound},
		{"pg serialization", &pgconn.PgError{Code: "40001"}, openjury.Unavailable},
		{"pg deadlock", &pgconn.PgError{Code: "40P01"}, openjury.Unavailable},
		{"pg lock timeout", &pgconn.PgError{Code: "55P03"}, openjury.Unavailable},
		{"pg connection class", &pgconn.PgError{Code: "08006"}, openjury.Unavailable},
		{"pg too many connections", &pgconn.PgError{Code: "53300"}, openjury.Unavailable},
		{"pg shutdown", &pgconn.PgError{Code: "57P01"}, openjury.Unavailable},
		{"pg syntax", &pgconn.PgError{Code: "42601"}, openjury.Internal},
		{"pg not null", &pgconn.PgError{Code: "23502"}, openjury.Internal},
		{"sqlite message unique", errors.New("UNIQUE constraint failed: jobs.id"), openjury.Conflict},
		{"sqlite message check", errors.New("CHECK constraint failed: bounty_micro >= 0"), openjury.Conflict},
		{"sqlite message fk", errors.New("FOREIGN KEY constraint failed"), openjury.NotFound},
		{"sqlite message busy", errors.New("database is locked"), openjury.Unavailable},
		{"sqlite message table locked", errors.New("database table is locked: jobs"), openjury.Unavailable},
		{"deadline", context.DeadlineExceeded, openjury.Unavailable},
		{"canceled", fmt.Errorf("query: %w", context.Canceled), openjury.Unavailable},
		{"bad conn", driver.ErrBadConn, openjury.Unavailable},
		{"conn done", sql.ErrConnDone, openjury.Unavailable},
		{"refused", &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}, openjury.Unavailable},
		{"other", cause, openjury.Internal},
		{"domain error keeps its kind", domain, openjury.Forbidden},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := translate("bunstore.Test", tc.err)
			var oe *openjury.Error
			require.ErrorAs(t, err, &oe)
			require.Equal(t, tc.kind, oe.Kind, "%v", err)
			require.Equal(t, "bunstore.Test", oe.Op)
			if tc.err != domain {
				require.ErrorIs(t, err, tc.err, "the cause is kept")
			}
			if tc.kind != openjury.Internal {
				require.NotEmpty(t, oe.Detail)
			}
		})
	}
	require.NoError(t, translate("op", nil))
}

// TestTranslateRealErrors provokes each constraint in each database and
// checks the raw driver error translates to the right kind.
func TestTranslateRealErrors(t *testing.T) {
	t.Parallel()
	for _, be := range []struct {
		name string
		dsn  func(tb testing.TB) string
	}{
		{"sqlite", func(t testing.TB) string { return "sqlite:" + filepath.Join(t.TempDir(), "x.db") }},
		{"postgres", pgtest.NewDatabase},
	} {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			d, err := Open(context.Background(), be.dsn(t))
			require.NoError(t, err)
			t.Cleanup(func() { _ = d.Close() })
			ctx := context.Background()
			insertJob := func(id string, bounty int) error {
				_, err := d.w.ExecContext(ctx, `INSERT INTO jobs (id, title, prompt, bounty_micro, status, sponsor_address,
					created_at, final_vote_starts_at, final_vote_ends_at) VALUES (?, 't', 'p', ?, 'open', '0x', 0, 0, 0)`, id, bounty)
				return err
			}
			require.NoError(t, insertJob("j1", 1))
			for _, tc := range []struct {
				name string
				err  error
				kind openjury.Kind
			}{
				{"unique", insertJob("j1", 1), openjury.Conflict},
				{"check", insertJob("j2", -1), openjury.Conflict},
				{"foreign key", func() error {
					_, err := d.w.ExecContext(ctx, "INSERT INTO job_tags (job_id, tag) VALUES ('missing', 'x')")
					return err
				}(), openjury.NotFound},
				{"no rows", d.w.QueryRowContext(ctx, "SELECT id FROM jobs WHERE id = 'none'").Scan(new(string)), openjury.NotFound},
				{"syntax", func() error { _, err := d.w.ExecContext(ctx, "SELEC 1"); return err }(), openjury.Internal},
			} {
				require.Error(t, tc.err, tc.name)
				require.Equal(t, tc.kind, openjury.KindOf(translate("op", tc.err)), "%s: %v", tc.name, tc.err)
			}
		})
	}
}

// TestSQLiteBusy: a write lock held by another connection beyond the busy
// timeout is Unavailable.
func TestSQLiteBusy(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "busy.db")
	d, err := Open(context.Background(), path)
	require.NoError(t, err)
	t.Cleanup(func() { _ = d.Close() })
	ctx := context.Background()

	holder, err := d.w.BeginTx(ctx, nil) // BEGIN IMMEDIATE: takes the write lock
	require.NoError(t, err)
	defer holder.Rollback()

	// A second writer that does not wait at all.
	q := url.Values{}
	if sqliteshim.DriverName() == "sqlite3" {
		q.Set("_busy_timeout", "0")
	} else {
		q.Add("_pragma", "busy_timeout(0)")
	}
	raw := sqliteTarget{path: path, query: q}.pool(sqliteshim.DriverName(), true)
	defer raw.Close()
	_, err = raw.ExecContext(ctx, "INSERT INTO job_tags (job_id, tag) VALUES ('x', 'y')")
	require.Error(t, err)
	require.Equal(t, openjury.Unavailable, openjury.KindOf(translate("op", err)), "%v", err)
	require.Equal(t, detailBusy, openjury.DetailOf(translate("op", err)))
}

func TestSQLitePragmas(t *testing.T) {
	t.Parallel()
	d, err := Open(context.Background(), filepath.Join(t.TempDir(), "p.db"))
	require.NoError(t, err)
	t.Cleanup(func() { _ = d.Close() })
	ctx := context.Background()
	pragma := func(db interface {
		QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	}, name string) string {
		var v string
		require.NoError(t, db.QueryRowContext(ctx, "PRAGMA "+name).Scan(&v))
		return v
	}
	for _, db := range []*sql.DB{d.w.DB, d.r.DB} {
		require.Equal(t, "wal", pragma(db, "journal_mode"))
		require.Equal(t, "1", pragma(db, "foreign_keys"))
		require.Equal(t, busyTimeoutMillis, pragma(db, "busy_timeout"))
		require.Equal(t, "1", pragma(db, "synchronous")) // NORMAL
	}
	require.Equal(t, writerCheckpointPages, pragma(d.w.DB, "wal_autocheckpoint"))
	require.Equal(t, "0", pragma(d.w.DB, "query_only"))
	require.Equal(t, "1", pragma(d.r.DB, "query_only"))
	_, err = d.r.ExecContext(ctx, "DELETE FROM jobs")
	require.Error(t, err, "the reader pool cannot write")
	require.Equal(t, 1, d.w.DB.Stats().MaxOpenConnections)
}

// TestSQLiteBackgroundCheckpoint: what the writer commits reaches the
// database file without a checkpoint of the writer's own (the log stays
// under its wal_autocheckpoint), and a closed DB's checkpoints stop.
func TestSQLiteBackgroundCheckpoint(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "c.db")
	d, err := Open(context.Background(), path)
	require.NoError(t, err)
	ctx := context.Background()
	size := func(p string) int64 {
		fi, err := os.Stat(p)
		require.NoError(t, err)
		return fi.Size()
	}
	before := size(path)
	// About 2 MiB of new pages: far below the writer's own threshold.
	_, err = d.w.ExecContext(ctx, "CREATE TABLE bulk (b BLOB)")
	require.NoError(t, err)
	_, err = d.w.ExecContext(ctx, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 512) INSERT INTO bulk SELECT randomblob(4000) FROM n")
	require.NoError(t, err)
	require.Less(t, size(path+"-wal"), int64(4096*4200), "the log is under the writer's threshold")
	require.Eventually(t, func() bool { return size(path) >= before+2_000_000 }, 10*time.Second, 20*time.Millisecond,
		"the background checkpoint copies the log into the file")
	require.NoError(t, d.Close())
	require.Error(t, d.ckpt.db.PingContext(ctx), "the checkpoint connection is closed")
}
