package bunstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/sqlitedialect"
	"github.com/uptrace/bun/driver/sqliteshim"

	"github.com/openjury/openjury"
)

// busyTimeoutMillis is how long a SQLite connection waits for a lock held
// by another connection (of another process) before giving up with
// SQLITE_BUSY.
const busyTimeoutMillis = "10000"

// sqliteCacheKiB is the page cache of every SQLite connection (the writer
// and each reader), in KiB: 2 MiB, SQLite's own default. The pure-Go
// driver's allocator gives each 4.3 KB page an 8 KB slot, so a full cache
// costs about twice its size in RSS, once per busy connection: at 16 MiB
// the three connections of a 2-core replica held about 90 MiB, which with
// the search index took a warm 1,000,000-document replica to 480 MiB
// (search.BenchmarkWarmReplica;
// docs/operations.md, "Memory of a replica"). A smaller cache costs nothing measurable: the file's pages
// sit in the OS page cache, which is not the process's RSS, and a miss is
// a copy from it. On the warm 1,000,000-document replica 2 MiB against
// 16 MiB measured the same CPU per search (177-201 ms against 213 ms on a
// busy machine), a start 27 MiB lower but about 1 CPU second longer
// (8.1-8.4 s against 6.5-7.2 s: the load reads every stored vector), and
// a warm replica 128 MiB lower with the read cache's new bound (353 MiB
// against 480 MiB); BenchmarkHandler's job list and job reads did not
// move (within the machine's noise); BenchmarkSQLiteReads measured no
// difference at 10,000 rows, and none for a 256 MiB mmap_size either,
// which is therefore left off: mapped pages count in the process's RSS.
// A DSN that sets cache_size itself keeps its own (TestSQLiteCacheSize).
const sqliteCacheKiB = 2048

// sqliteReaders is the size of the reader pool of a SQLite file: one
// connection per core Go may use, at least 2. SQLite reads are CPU work
// here (the file sits in the page cache), so more connections than cores
// only contend: BenchmarkSQLiteReaders measured 2 readers fastest on 2
// cores, 4 a little slower and 8 slower than 1 (BENCHMARKS.md).
func sqliteReaders() int { return max(2, runtime.GOMAXPROCS(0)) }

// sqliteTarget is a SQLite database named by a DSN.
type sqliteTarget struct {
	// path is the file path (decoded), or ":memory:".
	path string
	// query holds the parameters given in the DSN, kept as they are.
	query url.Values
	// memory is true for an in-memory database.
	memory bool
}

// parseSQLite understands "sqlite:<path>", "sqlite://<path>",
// "file:<path>" (a SQLite URI, percent-decoded) and a plain path, each with
// optional "?params".
func parseSQLite(dsn string) (sqliteTarget, error) {
	const op = "bunstore.Open"
	rest, uri := dsn, false
	lower := strings.ToLower(rest)
	switch {
	case strings.HasPrefix(lower, "sqlite://"):
		rest = rest[len("sqlite://"):]
	case strings.HasPrefix(lower, "sqlite:"):
		rest = rest[len("sqlite:"):]
	case strings.HasPrefix(lower, "file:"):
		rest, uri = rest[len("file:"):], true
		if strings.HasPrefix(rest, "//") { // file://[localhost]/abs/path
			rest = rest[2:]
			i := strings.IndexByte(rest, '/')
			if i < 0 || (i > 0 && rest[:i] != "localhost") {
				return sqliteTarget{}, openjury.Errorf(openjury.Invalid, op, "database URL: unsupported SQLite URI %q", dsn)
			}
			rest = rest[i:]
		}
	case strings.Contains(rest, "://"):
		return sqliteTarget{}, openjury.Errorf(openjury.Invalid, op,
			"database URL: unsupported scheme in %q (want postgres://, postgresql://, sqlite:, file: or a path)", redact(dsn))
	}
	t := sqliteTarget{path: rest, query: url.Values{}}
	if i := strings.IndexByte(rest, '?'); i >= 0 {
		q, err := url.ParseQuery(rest[i+1:])
		if err != nil {
			return sqliteTarget{}, openjury.Errorf(openjury.Invalid, op, "database URL: bad parameters: %v", err)
		}
		t.path, t.query = rest[:i], q
	}
	if uri {
		p, err := url.PathUnescape(t.path)
		if err != nil {
			return sqliteTarget{}, openjury.Errorf(openjury.Invalid, op, "database URL: %v", err)
		}
		t.path = p
	}
	if t.path == "" {
		return sqliteTarget{}, openjury.E(openjury.Invalid, op, "database URL: empty SQLite path")
	}
	t.memory = t.path == ":memory:" || t.query.Get("mode") == "memory"
	return t, nil
}

// redact hides a password in a URL for error messages.
func redact(dsn string) string {
	if u, err := url.Parse(dsn); err == nil {
		return u.Redacted()
	}
	return "(unparsable URL)"
}

// dsn returns the driver DSN of a connection to t, with the pragmas for a
// writer or a reader connection, and the statements each new connection
// runs for the pragmas the driver's DSN cannot carry (mattn/go-sqlite3 has
// no wal_autocheckpoint parameter).
func (t sqliteTarget) dsn(driverName string, writer bool) (string, []string) {
	q := url.Values{}
	for k, v := range t.query {
		q[k] = append([]string(nil), v...)
	}
	var onConnect []string
	pragma := func(name, value string) {
		if driverName == "sqlite3" { // mattn/go-sqlite3
			if !mattnPragmas[name] {
				onConnect = append(onConnect, "PRAGMA "+name+" = "+value)
				return
			}
			key := "_" + name
			if q.Get(key) == "" {
				q.Set(key, value)
			}
			return
		}
		for _, p := range q["_pragma"] { // modernc.org/sqlite
			if strings.HasPrefix(strings.ToLower(strings.TrimSpace(p)), name) {
				return
			}
		}
		q.Add("_pragma", name+"("+value+")")
	}
	pragma("busy_timeout", busyTimeoutMillis)
	pragma("foreign_keys", "1")
	pragma("synchronous", "NORMAL")
	pragma("cache_size", "-"+strconv.Itoa(sqliteCacheKiB)) // negative: KiB
	if writer {
		if !t.memory {
			pragma("journal_mode", "WAL")
			pragma("wal_autocheckpoint", writerCheckpointPages) // checkpoint.go
		}
		if q.Get("_txlock") == "" {
			q.Set("_txlock", "immediate") // both drivers: BEGIN IMMEDIATE
		}
	} else {
		pragma("query_only", "1")
	}
	path := t.path
	if path != ":memory:" {
		path = strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
	}
	return "file:" + path + "?" + q.Encode(), onConnect
}

// mattnPragmas are the pragmas mattn/go-sqlite3 takes as DSN parameters
// (an underscore before the name).
var mattnPragmas = map[string]bool{"busy_timeout": true, "foreign_keys": true, "synchronous": true,
	"cache_size": true, "journal_mode": true, "query_only": true}

// pool opens a connection pool to t through the registered SQLite driver,
// writer's or reader's.
func (t sqliteTarget) pool(driverName string, writer bool) *sql.DB {
	dsn, onConnect := t.dsn(driverName, writer)
	return sql.OpenDB(sqliteConnector{dsn: dsn, onConnect: onConnect})
}

// sqliteConnector opens connections to one DSN and runs its onConnect
// statements on each before the pool uses it.
type sqliteConnector struct {
	dsn       string
	onConnect []string
}

// Connect opens one connection.
func (c sqliteConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Driver().Open(c.dsn)
	if err != nil || len(c.onConnect) == 0 {
		return conn, err
	}
	ex, ok := conn.(driver.ExecerContext)
	if !ok {
		_ = conn.Close()
		return nil, fmt.Errorf("sqlite driver %T cannot run statements on connect", conn)
	}
	for _, stmt := range c.onConnect {
		if _, err := ex.ExecContext(ctx, stmt, nil); err != nil {
			_ = conn.Close()
			return nil, fmt.Errorf("%s: %w", stmt, err)
		}
	}
	return conn, nil
}

// Driver is the driver sqliteshim registers for this build.
func (sqliteConnector) Driver() driver.Driver { return sqliteshim.Driver() }

// openSQLite opens the writer and reader pools of a SQLite database (one
// pool for an in-memory database); see the package documentation.
func openSQLite(dsn string) (*DB, error) {
	const op = "bunstore.Open"
	t, err := parseSQLite(dsn)
	if err != nil {
		return nil, err
	}
	if !t.memory {
		if dir := filepath.Dir(t.path); dir != "" && dir != "." {
			if err := os.MkdirAll(dir, 0o750); err != nil {
				return nil, openjury.Errorf(openjury.Unavailable, op, "create the database directory: %v", err)
			}
		}
	}
	driver := sqliteshim.DriverName()
	wdb := t.pool(driver, true)
	wdb.SetMaxOpenConns(1)
	wdb.SetMaxIdleConns(1)
	wdb.SetConnMaxLifetime(0)
	wdb.SetConnMaxIdleTime(0)
	w := bun.NewDB(wdb, sqlitedialect.New())
	d := newDB(DialectSQLite, w)
	d.single = t.memory
	d.group = newGroup(w, d.totalChanges)
	if t.memory {
		return d, nil
	}
	rdb := t.pool(driver, false)
	n := sqliteReaders()
	rdb.SetMaxOpenConns(n)
	rdb.SetMaxIdleConns(n)
	d.r = bun.NewDB(rdb, sqlitedialect.New())
	d.ckpt = startCheckpointer(t, driver)
	return d, nil
}
