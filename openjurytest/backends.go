package openjurytest

import (
	"testing"

	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/openjurytest/dbtest"
)

// OnEachDB runs fn as parallel subtests "sqlite" and "postgres", each on a
// fresh, migrated database (NewDB; OpenDB on dbtest.Postgres). The test
// package must stop pgtest's server from its TestMain (pgtest.Main).
func OnEachDB(t *testing.T, fn func(t *testing.T, db *bunstore.DB)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		fn(t, NewDB(t))
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		fn(t, OpenDB(t, dbtest.Postgres(t)))
	})
}

// OnEachServer runs fn as parallel subtests "sqlite" and "postgres", each
// with a NewServer on a fresh database of that engine (opts apply to
// both). The test package must stop pgtest's server from its TestMain.
func OnEachServer(t *testing.T, fn func(t *testing.T, srv *Server), opts ...Option) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		fn(t, NewServer(t, opts...))
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		fn(t, NewServer(t, append([]Option{WithDSN(dbtest.Postgres(t))}, opts...)...))
	})
}
