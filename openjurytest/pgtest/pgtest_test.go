package pgtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

func TestNewDatabase(t *testing.T) {
	ctx := context.Background()
	var names []string
	t.Run("create", func(t *testing.T) {
		a, b := NewDatabase(t), NewDatabase(t)
		require.NotEqual(t, a, b)
		require.True(t, strings.HasPrefix(a, "postgres://"), a)
		for i, dsn := range []string{a, b} {
			conn, err := pgx.Connect(ctx, dsn)
			require.NoError(t, err)
			var db string
			require.NoError(t, conn.QueryRow(ctx, "SELECT current_database()").Scan(&db))
			names = append(names, db)
			var tables int
			require.NoError(t, conn.QueryRow(ctx, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").Scan(&tables))
			require.Zero(t, tables, "database %d is not empty", i)
			_, err = conn.Exec(ctx, "CREATE TABLE t (x int)")
			require.NoError(t, err)
			// Left open on purpose: the drop must cut it.
		}
	})
	require.Len(t, names, 2)
	conn, err := pgx.Connect(ctx, srv.adminURL)
	require.NoError(t, err)
	defer conn.Close(ctx)
	var n int
	require.NoError(t, conn.QueryRow(ctx, "SELECT count(*) FROM pg_database WHERE datname = ANY($1)", names).Scan(&n))
	require.Zero(t, n, "the databases outlived their test")
}

func TestDBName(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, in := range []string{"TestX", "TestX", strings.Repeat("Sub/Test Ünï-code ", 10), ""} {
		name := dbName(in)
		require.LessOrEqual(t, len(name), 63, name)
		require.Regexp(t, `^t[0-9]+_[0-9]+_[a-z0-9_]*$`, name)
		require.False(t, seen[name], "duplicate %s", name)
		seen[name] = true
	}
}

// fakeTB records how require ended a test.
type fakeTB struct {
	testing.TB
	fatal, skip string
}

func (f *fakeTB) Helper()                        {}
func (f *fakeTB) Fatalf(format string, a ...any) { f.fatal = fmt.Sprintf(format, a...) }
func (f *fakeTB) Skipf(format string, a ...any)  { f.skip = fmt.Sprintf(format, a...) }
func (f *fakeTB) Logf(string, ...any)            {}

func TestRequire(t *testing.T) {
	t.Setenv("CI", "")
	tb := &fakeTB{}
	(&server{skip: "no initdb"}).require(tb)
	require.Contains(t, tb.skip, "SKIPPING PostgreSQL tests: no initdb")
	require.Empty(t, tb.fatal)

	t.Setenv("CI", "true")
	tb = &fakeTB{}
	(&server{skip: "no initdb"}).require(tb)
	require.Contains(t, tb.fatal, "must not be skipped")
	require.Empty(t, tb.skip)

	tb = &fakeTB{}
	(&server{err: fmt.Errorf("boom\nserver log:\nFATAL: x")}).require(tb)
	require.Contains(t, tb.fatal, "FATAL: x")
}

func TestFindBinaries(t *testing.T) {
	dir := t.TempDir()
	for _, v := range []string{"9.6", "15", "13"} {
		bin := filepath.Join(dir, v, "bin")
		require.NoError(t, os.MkdirAll(bin, 0o755))
		for _, p := range []string{"initdb", "pg_ctl"} {
			require.NoError(t, os.WriteFile(filepath.Join(bin, p), []byte("#!/bin/sh\n"), 0o755))
		}
	}
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "16", "bin"), 0o755)) // incomplete: skipped
	old := libGlob
	libGlob = filepath.Join(dir, "*", "bin")
	t.Cleanup(func() { libGlob = old })
	t.Setenv("PATH", t.TempDir())

	initdb, pgCtl := findBinaries()
	require.Equal(t, filepath.Join(dir, "15", "bin", "initdb"), initdb)
	require.Equal(t, filepath.Join(dir, "15", "bin", "pg_ctl"), pgCtl)

	libGlob = filepath.Join(t.TempDir(), "*", "bin")
	initdb, pgCtl = findBinaries()
	require.Empty(t, initdb)
	require.Empty(t, pgCtl)
}
