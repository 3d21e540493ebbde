package bunstore_test

import (
	"context"
	"database/sql"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/bunstore"
)

// cacheSizes returns PRAGMA cache_size of every connection of pool, held
// at once so each is a connection of its own.
func cacheSizes(t *testing.T, pool *sql.DB, conns int) []int64 {
	t.Helper()
	ctx := context.Background()
	var sizes []int64
	for range conns {
		c, err := pool.Conn(ctx)
		require.NoError(t, err)
		t.Cleanup(func() { _ = c.Close() })
		var size int64
		require.NoError(t, c.QueryRowContext(ctx, "PRAGMA cache_size").Scan(&size))
		sizes = append(sizes, size)
	}
	return sizes
}

// TestSQLiteCacheSize holds every connection of a SQLite file, the writer
// and each reader, to bunstore's page cache (docs/operations.md, "Memory
// of a replica"), and lets a DSN that names its own cache_size (the
// operator's knob) set it on all of them.
func TestSQLiteCacheSize(t *testing.T) {
	readers := bunstore.SQLiteReaders()
	db := open(t, sqliteDSN(t))
	want := -int64(bunstore.SQLiteCacheKiB)
	require.Equal(t, []int64{want}, cacheSizes(t, db.SQLDBs()[bunstore.PoolWriter], 1))
	for _, got := range cacheSizes(t, db.SQLDBs()[bunstore.PoolReader], readers) {
		require.Equal(t, want, got)
	}

	// Both drivers' spellings: modernc.org/sqlite's and mattn/go-sqlite3's.
	own := open(t, sqliteDSN(t)+"?_pragma=cache_size(-1000)&_cache_size=-1000")
	require.Equal(t, []int64{-1000}, cacheSizes(t, own.SQLDBs()[bunstore.PoolWriter], 1))
	for _, got := range cacheSizes(t, own.SQLDBs()[bunstore.PoolReader], readers) {
		require.Equal(t, int64(-1000), got)
	}
}
