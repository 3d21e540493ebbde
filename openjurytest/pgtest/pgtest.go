// Package pgtest gives tests a fresh, empty PostgreSQL database.
//
// NewDatabase creates one database per test (CREATE DATABASE with a unique
// name) and drops it when the test ends. The databases live on one server
// per test process:
//
//   - when TEST_DATABASE_URL is set (postgres://...), on that server; the
//     URL's user must be allowed to create databases;
//   - otherwise on a throwaway server that pgtest starts itself, lazily on
//     the first NewDatabase call, with initdb and pg_ctl found on PATH or
//     in /usr/lib/postgresql/*/bin (highest version). The server runs in a
//     temp dir on a free port of 127.0.0.1 with durability turned off
//     (fsync, synchronous_commit and full_page_writes off) and trust
//     authentication. PostgreSQL refuses to run as root, so when the test
//     runs as root the server runs as the "postgres" system user.
//
// A test package that uses pgtest stops the server it started from its
// TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }
//
// Without PostgreSQL (no TEST_DATABASE_URL and no initdb) NewDatabase skips
// the test with a loud message, except when the CI environment variable is
// set: CI must never skip, so there it fails the test.
//
// A test binary killed before Main returns (for example by go test's
// -timeout) leaves its server behind; the next process that starts a
// server stops such orphans and removes their directories.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// EnvURL names the environment variable holding the URL of an existing
// server to create test databases on.
const EnvURL = "TEST_DATABASE_URL"

const (
	// startTimeout bounds initdb and the wait for the server to accept
	// connections.
	startTimeout = 60 * time.Second
	// dirPrefix starts the name of every server directory under /tmp.
	dirPrefix = "pgtest-"
	// ownerFile holds the pid of the process that started the server.
	ownerFile = "owner.pid"
)

// libGlob finds the bin directories of Debian-style PostgreSQL installs.
var libGlob = "/usr/lib/postgresql/*/bin"

// server is the one server of this test process.
type server struct {
	adminURL string // URL of the maintenance database ("postgres")
	dir      string // temp dir of a server we started; "" for TEST_DATABASE_URL
	pgCtl    string
	as       *runAs // run PostgreSQL programs as this user; nil: as ourselves
	skip     string // non-empty: no PostgreSQL here; the skip message
	err      error  // start failure
}

var (
	once       sync.Once
	srv        *server
	mainCalled atomic.Bool
	warnOnce   sync.Once
	stopOnce   sync.Once
	seq        atomic.Int64
)

// NewDatabase returns the URL (postgres://...) of a new, empty database
// created for this test and dropped, with every connection to it, when the
// test ends. Close your own pools in a Cleanup registered after this call
// (Cleanups run last-in first-out) or let the forced drop cut them.
//
// It skips the test when no PostgreSQL is available (fails it when CI is
// set) and fails it when the server cannot be started.
func NewDatabase(tb testing.TB) string {
	tb.Helper()
	return newDatabase(tb, "")
}

// NewDatabaseFrom is NewDatabase with the new database a copy of the
// database template (see Template), which is much faster than migrating
// an empty one.
func NewDatabaseFrom(tb testing.TB, template string) string {
	tb.Helper()
	return newDatabase(tb, template)
}

// newDatabase creates the test's database, a copy of template when it is
// not empty.
func newDatabase(tb testing.TB, template string) string {
	tb.Helper()
	once.Do(func() { srv = start() })
	srv.require(tb)
	name := dbName(tb.Name())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	stmt := "CREATE DATABASE " + pgx.Identifier{name}.Sanitize()
	if template != "" {
		stmt += " TEMPLATE " + pgx.Identifier{template}.Sanitize()
	}
	if err := srv.admin(ctx, stmt); err != nil {
		tb.Fatalf("pgtest: create database %s: %v", name, err)
	}
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := srv.admin(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
			tb.Errorf("pgtest: drop database %s: %v", name, err)
		}
	})
	return srv.urlOf(tb, name)
}

// urlOf returns the URL of database name on the server.
func (s *server) urlOf(tb testing.TB, name string) string {
	u, err := url.Parse(s.adminURL)
	if err != nil {
		tb.Fatalf("pgtest: %v", err)
	}
	u.Path = "/" + name
	return u.String()
}

// templateDB is a template database of this process: created once, by
// the first test that asks for its key.
type templateDB struct {
	once sync.Once
	name string
	err  error
}

var (
	templatesMu sync.Mutex
	templates   = map[string]*templateDB{}
)

// Template returns the name of a database of this process prepared once
// by prepare (given its URL, which prepare must stop using before it
// returns), for NewDatabaseFrom: tests that need the same starting state
// (a migrated schema) copy it instead of building it again. Stop drops
// the templates. It skips or fails tb like NewDatabase.
func Template(tb testing.TB, key string, prepare func(url string) error) string {
	tb.Helper()
	once.Do(func() { srv = start() })
	srv.require(tb)
	templatesMu.Lock()
	t := templates[key]
	if t == nil {
		t = &templateDB{}
		templates[key] = t
	}
	templatesMu.Unlock()
	t.once.Do(func() {
		name := fmt.Sprintf("t%d_tmpl_%s", os.Getpid(), unsafeChars.ReplaceAllString(strings.ToLower(key), "_"))
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if t.err = srv.admin(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); t.err != nil {
			return
		}
		if t.err = prepare(srv.urlOf(tb, name)); t.err == nil {
			t.name = name
		}
	})
	if t.err != nil {
		tb.Fatalf("pgtest: template %s: %v", key, t.err)
	}
	return t.name
}

// dropTemplates drops the template databases of this process.
func (s *server) dropTemplates() error {
	templatesMu.Lock()
	defer templatesMu.Unlock()
	var errs []error
	for _, t := range templates {
		if t.name == "" {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		errs = append(errs, s.admin(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{t.name}.Sanitize()+" WITH (FORCE)"))
		cancel()
	}
	return errors.Join(errs...)
}

// require skips or fails the test when the server is not usable.
func (s *server) require(tb testing.TB) {
	tb.Helper()
	if s.skip != "" {
		if os.Getenv("CI") != "" {
			tb.Fatalf("pgtest: %s (CI is set, so PostgreSQL tests must not be skipped)", s.skip)
			return
		}
		tb.Skipf("\n\n!!!!! SKIPPING PostgreSQL tests: %s !!!!!\n\n", s.skip)
		return
	}
	if s.err != nil {
		tb.Fatalf("pgtest: %v", s.err)
		return
	}
	if s.dir != "" && !mainCalled.Load() {
		warnOnce.Do(func() {
			tb.Logf("pgtest: TestMain does not call pgtest.Main; the server in %s will be left running", s.dir)
		})
	}
}

// Main runs the tests of m and then, if this process started a PostgreSQL
// server, stops it and removes its directory. It returns the exit code for
// os.Exit.
func Main(m *testing.M) int {
	mainCalled.Store(true)
	code := m.Run()
	if err := Stop(); err != nil {
		fmt.Fprintf(os.Stderr, "pgtest: %v\n", err)
	}
	return code
}

// Stop stops the server this process started, if any, and removes its
// directory. Main calls it; programs outside go test (the load tool) call
// it when they are done with their databases. Later calls do nothing.
func Stop() error {
	var err error
	stopOnce.Do(func() {
		if srv == nil || srv.err != nil || srv.skip != "" {
			return
		}
		if srv.dir == "" { // a server of TEST_DATABASE_URL: leave no template behind
			err = srv.dropTemplates()
			return
		}
		err = srv.stop()
	})
	return err
}

// ServerPID is the process id of the server this process started (its
// postmaster; the backends are its children), or 0 when it started none
// (no NewDatabase yet, TEST_DATABASE_URL, no PostgreSQL). The load tool
// reads the server's CPU time through it.
func ServerPID() int {
	if srv == nil || srv.dir == "" || srv.err != nil || srv.skip != "" {
		return 0
	}
	b, err := os.ReadFile(filepath.Join(srv.dir, "data", "postmaster.pid"))
	if err != nil {
		return 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		return 0
	}
	return pid
}

// admin runs one statement on the maintenance database.
func (s *server) admin(ctx context.Context, sql string) error {
	conn, err := pgx.Connect(ctx, s.adminURL)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	_, err = conn.Exec(ctx, sql)
	return err
}

var unsafeChars = regexp.MustCompile(`[^a-z0-9_]+`)

// dbName returns a unique database name that hints at the test's name.
func dbName(testName string) string {
	hint := unsafeChars.ReplaceAllString(strings.ToLower(testName), "_")
	if len(hint) > 32 {
		hint = hint[len(hint)-32:]
	}
	return fmt.Sprintf("t%d_%d_%s", os.Getpid(), seq.Add(1), strings.Trim(hint, "_"))
}

// start finds or starts the server.
func start() *server {
	if raw := os.Getenv(EnvURL); raw != "" {
		return &server{adminURL: raw}
	}
	initdb, pgCtl := findBinaries()
	if initdb == "" {
		return &server{skip: "no initdb found on PATH or in /usr/lib/postgresql/*/bin and " + EnvURL + " unset; install postgresql to run them"}
	}
	s := &server{pgCtl: pgCtl}
	s.err = s.boot(initdb)
	return s
}

// findBinaries returns initdb and pg_ctl from one directory: PATH first,
// then the highest version under /usr/lib/postgresql.
func findBinaries() (initdb, pgCtl string) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		if c := filepath.Join(filepath.Dir(p), "pg_ctl"); isExec(c) {
			return p, c
		}
		if c, err := exec.LookPath("pg_ctl"); err == nil {
			return p, c
		}
	}
	dirs, _ := filepath.Glob(libGlob)
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		i, c := filepath.Join(d, "initdb"), filepath.Join(d, "pg_ctl")
		if isExec(i) && isExec(c) {
			return i, c
		}
	}
	return "", ""
}

// version returns the major version in /usr/lib/postgresql/<v>/bin.
func version(binDir string) float64 {
	v, _ := strconv.ParseFloat(filepath.Base(filepath.Dir(binDir)), 64)
	return v
}

func isExec(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// boot creates the cluster and starts the server. On failure it leaves
// no directory behind.
func (s *server) boot(initdb string) (err error) {
	base := os.TempDir()
	if os.Geteuid() == 0 {
		as, err := postgresUser()
		if err != nil {
			return fmt.Errorf("running as root and PostgreSQL refuses to run as root, but there is no %q user to run it as: %v", "postgres", err)
		}
		s.as = as
		base = "/tmp" // must be traversable by the postgres user
	}
	reapOrphans(base, s.pgCtl)

	dir, err := os.MkdirTemp(base, dirPrefix)
	if err != nil {
		return err
	}
	s.dir = dir
	defer func() {
		if err != nil {
			s.cleanupDir()
		}
	}()
	if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		return err
	}
	if s.as != nil {
		if err := os.Chown(dir, s.as.uid, s.as.gid); err != nil {
			return err
		}
	}
	data := filepath.Join(dir, "data")
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	if out, err := s.run(ctx, initdb, "-D", data, "--auth=trust", "-U", "postgres",
		"--encoding=UTF8", "--locale=C", "--no-sync"); err != nil {
		return fmt.Errorf("initdb failed: %v\n%s", err, out)
	}

	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		port, err := freePort()
		if err != nil {
			return err
		}
		if err := s.writeConf(data, port); err != nil {
			return err
		}
		logFile := filepath.Join(dir, "server.log")
		_ = os.Remove(logFile)
		out, err := s.run(ctx, s.pgCtl, "start", "-w", "-t", strconv.Itoa(int(startTimeout/time.Second)),
			"-D", data, "-l", logFile)
		if err == nil {
			s.adminURL = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
			return nil
		}
		logText, _ := os.ReadFile(logFile)
		lastErr = fmt.Errorf("pg_ctl start failed: %v\n%s\nserver log:\n%s", err, out, logText)
		_, _ = s.run(context.Background(), s.pgCtl, "stop", "-D", data, "-m", "immediate")
		if !strings.Contains(string(logText), "could not bind") && !strings.Contains(string(logText), "already in use") {
			break
		}
	}
	return lastErr
}

// writeConf writes the settings of the throwaway server.
func (s *server) writeConf(data string, port int) error {
	conf := fmt.Sprintf(`
# pgtest: a throwaway server for tests; durability is off on purpose.
listen_addresses = '127.0.0.1'
port = %d
unix_socket_directories = '%s'
max_connections = 200
fsync = off
synchronous_commit = off
full_page_writes = off
max_parallel_workers_per_gather = 0
log_min_messages = warning
`, port, s.dir)
	// pgtest.conf is included last, so a retry with a new port overrides.
	name := filepath.Join(data, "pgtest.conf")
	if err := os.WriteFile(name, []byte(conf), 0o644); err != nil {
		return err
	}
	main := filepath.Join(data, "postgresql.conf")
	b, err := os.ReadFile(main)
	if err != nil {
		return err
	}
	if !strings.Contains(string(b), "include 'pgtest.conf'") {
		f, err := os.OpenFile(main, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		_, err = f.WriteString("\ninclude 'pgtest.conf'\n")
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	}
	return nil
}

// run runs a PostgreSQL program, as the postgres user when we are root.
func (s *server) run(ctx context.Context, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = os.TempDir()
	if s.dir != "" {
		cmd.Dir = s.dir
	}
	cmd.Env = append(os.Environ(), "LC_ALL=C", "PGTZ=UTC")
	if s.as != nil {
		s.as.apply(cmd)
		cmd.Env = append(cmd.Env, "HOME="+s.dir, "USER=postgres", "LOGNAME=postgres")
	}
	// pg_ctl start leaves the server running with our pipes as its
	// stdout/stderr unless told otherwise; -l sends its output to the log,
	// and WaitDelay keeps a stray holder of the pipe from hanging us.
	cmd.WaitDelay = 5 * time.Second
	return cmd.CombinedOutput()
}

// stop shuts the server down at once and removes its directory.
func (s *server) stop() error {
	out, err := s.run(context.Background(), s.pgCtl, "stop", "-D", filepath.Join(s.dir, "data"), "-m", "immediate", "-w")
	s.cleanupDir()
	if err != nil {
		return fmt.Errorf("pg_ctl stop: %v\n%s", err, out)
	}
	return nil
}

func (s *server) cleanupDir() {
	if s.dir != "" {
		_ = os.RemoveAll(s.dir)
	}
}

// freePort returns a TCP port of 127.0.0.1 that was free a moment ago.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// reapOrphans stops servers left behind by test processes that died before
// Main could stop them, and removes their directories. A directory is an
// orphan when the pid in its owner file no longer runs.
func reapOrphans(base, pgCtl string) {
	dirs, _ := filepath.Glob(filepath.Join(base, dirPrefix+"*"))
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, ownerFile))
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || pid <= 0 || processAlive(pid) {
			continue
		}
		o := &server{dir: d, pgCtl: pgCtl}
		if os.Geteuid() == 0 {
			o.as = ownerOf(d)
		}
		if _, err := os.Stat(filepath.Join(d, "data", "postmaster.pid")); err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			_, _ = o.run(ctx, pgCtl, "stop", "-D", filepath.Join(d, "data"), "-m", "immediate", "-w")
			cancel()
		}
		_ = os.RemoveAll(d)
	}
}
