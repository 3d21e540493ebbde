// Command load is OpenJury's benchmark: it seeds a database, drives a
// server with bounded scenarios, and reports throughput, p50/p99 and
// errors per operation, each as a ratio to a ceiling measured in the same
// run. Speed is measured here and in benchmarks, never asserted in tests.
//
//	go run ./openjurytest/load                                  # SQLite, in process, 1,000 jobs
//	go run ./openjurytest/load -db postgres -seed 100000        # a throwaway PostgreSQL (pgtest)
//	go build -o /tmp/openjury ./host && \
//	  go run ./openjurytest/load -host /tmp/openjury -seed 1000000 -scenarios deep
//	go run ./openjurytest/load -dsn sqlite:/tmp/big.db -seed 1000000 -seed-only
//	go run ./openjurytest/load -url http://127.0.0.1:8080 -dev-secret s3cret
//	go build -o /tmp/openjury ./host && \
//	  go run ./openjurytest/load -host /tmp/openjury -seed 1000 -scenarios close   # closing.go
//	go build -o /tmp/openjury ./host && \
//	  go run ./openjurytest/load -host /tmp/openjury -seed 1000 -scenarios events -sse 5000   # events.go
//
// The target is, in this order of precedence: a running server (-url), the
// host binary started by the tool on the database (-host), or the service
// in this process (openjurytest.NewServer). The database is -dsn, or a new
// one of kind -db (a SQLite file in a temp dir, or a database on a
// throwaway PostgreSQL server started like the tests do). -seed N fills it
// with N jobs through the store ports before the run (see seed.go).
//
// Every request goes through package client (one client per signed-in
// wallet, all on one connection pool), with client.WithoutRetries: no
// retry, no new sign-in, no automatic Idempotency-Key, so every failure is
// one error of the report. Set-up (sign-in, stake and reputation through
// the dev endpoints, finding jobs and submissions) uses the client too.
//
// With every scenario the tool measures its ceiling: the same client
// calls, through the same net/http client and server stack, answered for
// each operation with a pre-encoded copy of the server's own answer to it
// (one untimed probe request per operation), so the ceiling does the same
// encoding, reading and decoding as the scenario; it runs in -rounds
// rounds alternating with the scenario's own runs. Every figure is
// printed with its ratio to that ceiling, so runs on a busy machine stay
// comparable.
//
// Every scenario is bounded by -d and -n; only loopback targets (and
// loopback PostgreSQL servers) are accepted.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/openjurytest/pgtest"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(2)
	}
}

type config struct {
	url         string
	host        string
	db          string
	dsn         string
	seed        int
	seedOnly    bool
	searchDocs  int
	writers     int
	scenarios   []string
	workers     int
	wallets     int
	duration    time.Duration
	maxRequests int
	ceiling     bool
	rounds      int
	devSecret   string
	rateLimit   int
	readCacheMS int
	cpuProfile  string
	traceFile   string
	progress    time.Duration
	// closeRecords and closeBytes size each big job of the close
	// scenario.
	closeRecords   int
	closeBytes     int64
	closeWriteRate int
	// The events scenario (events.go): streams, how many to open at once,
	// 1 in sseSample times its events; writes a second; webhooks, the
	// posts they get and the target's delivery concurrency.
	sse, sseConnect, sseSample int
	eventRate                  int
	webhooks, webhookEvents    int
	webhookConcurrency         int
}

// Bounds of the flags.
const (
	maxWorkers  = 256
	maxDuration = 10 * time.Minute
	maxSeed     = 10_000_000
	maxWallets  = 1000
)

func parse(args []string) (config, error) {
	fs := flag.NewFlagSet("load", flag.ContinueOnError)
	var c config
	var scen string
	fs.StringVar(&c.url, "url", "", "base URL of a running server on loopback")
	fs.StringVar(&c.host, "host", "", "path of the host binary to start on the database (go build -o PATH ./host)")
	fs.StringVar(&c.db, "db", "sqlite", "kind of the new database when -dsn is empty: sqlite or postgres")
	fs.StringVar(&c.dsn, "dsn", "", "database to seed and serve (sqlite:PATH or postgres://... on loopback)")
	fs.IntVar(&c.seed, "seed", -1, "jobs to seed before the run (-1: 1000 into a new database, 0 into -dsn or with -url)")
	fs.BoolVar(&c.seedOnly, "seed-only", false, "seed -dsn and exit")
	fs.IntVar(&c.searchDocs, "search-docs", 0, "queue the newest N seeded jobs for the search index (the target's indexer embeds them; the search scenario waits for them)")
	fs.IntVar(&c.writers, "writers", 0, "concurrent seeding transactions (0: 1 on SQLite, 4 on PostgreSQL)")
	fs.StringVar(&scen, "scenarios", strings.Join(allScenarios, ","), "comma-separated scenarios: "+strings.Join(allScenarios, ", ")+
		", or "+closeScenario+" (closing two big jobs while writing to others; not in the default list)")
	fs.IntVar(&c.workers, "c", 16, "concurrent connections")
	fs.IntVar(&c.wallets, "wallets", 64, "signed-in wallets (submit, vote, comment); each may comment 20 times a minute")
	fs.DurationVar(&c.duration, "d", 5*time.Second, "how long each scenario runs")
	fs.IntVar(&c.maxRequests, "n", 200000, "at most this many requests per scenario")
	fs.BoolVar(&c.ceiling, "ceiling", true, "measure the ceiling with every scenario and print ratios to it")
	fs.IntVar(&c.rounds, "rounds", 3, "rounds per scenario, each a ceiling run then a scenario run (with -ceiling)")
	fs.StringVar(&c.devSecret, "dev-secret", "", "X-Dev-Secret of the -url server (to give the wallets stake and reputation)")
	fs.IntVar(&c.rateLimit, "rate-limit", 1_000_000_000, "SERVICE_RATE_LIMIT_PER_MIN and SERVICE_RATE_LIMIT_PER_ADDRESS_PER_MIN of the started host or in-process server (high: the limiters run but never refuse)")
	fs.IntVar(&c.readCacheMS, "read-cache-ms", 1000, "SERVICE_READ_CACHE_MS of the started host or in-process server (0: off, to measure the queries)")
	fs.StringVar(&c.cpuProfile, "cpuprofile", "", "write a CPU profile of the scenarios to this file (in-process target: server and client)")
	fs.StringVar(&c.traceFile, "trace", "", "write an execution trace of the scenarios to this file (in-process target; go tool trace -pprof=sched F shows how long goroutines waited for a CPU)")
	fs.DurationVar(&c.progress, "progress", 5*time.Second, "how often long phases (seeding) report progress")
	fs.IntVar(&c.closeRecords, "close-records", 100_000, "records of each big job of the close scenario (job, submissions, votes, final votes, comments)")
	fs.Int64Var(&c.closeBytes, "close-bytes", 1<<30, "bytes of text of each big job of the close scenario")
	fs.IntVar(&c.closeWriteRate, "close-write-rate", 100, "requests a second the close scenario's workers send to other jobs while it closes")
	fs.IntVar(&c.sse, "sse", 5000, "live event streams the events scenario opens")
	fs.IntVar(&c.sseConnect, "sse-connect", 200, "streams the events scenario opens at a time")
	fs.IntVar(&c.sseSample, "sse-sample", 10, "1 stream in this many times its events (commit -> delivery)")
	fs.IntVar(&c.eventRate, "event-rate", 50, "writes a second (jobs and submissions) of the events scenario")
	fs.IntVar(&c.webhooks, "webhooks", 10, "webhooks of the events scenario on a local receiver (at most 20; 0: none)")
	fs.IntVar(&c.webhookEvents, "webhook-events", 500, "posts the webhooks of the events scenario receive")
	fs.IntVar(&c.webhookConcurrency, "webhook-concurrency", 16, "SERVICE_WEBHOOK_CONCURRENCY of the started host or in-process server")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	for _, s := range strings.Split(scen, ",") {
		if s = strings.TrimSpace(s); s != "" {
			c.scenarios = append(c.scenarios, s)
		}
	}
	switch {
	case c.workers < 1 || c.workers > maxWorkers:
		return c, fmt.Errorf("need 1 <= -c <= %d", maxWorkers)
	case c.duration <= 0 || c.duration > maxDuration:
		return c, fmt.Errorf("need 0 < -d <= %s", maxDuration)
	case c.maxRequests < 1:
		return c, errors.New("need -n >= 1")
	case c.seed > maxSeed:
		return c, fmt.Errorf("need -seed <= %d", maxSeed)
	case c.wallets < 1 || c.wallets > maxWallets:
		return c, fmt.Errorf("need 1 <= -wallets <= %d", maxWallets)
	case c.db != "sqlite" && c.db != "postgres":
		return c, errors.New("-db must be sqlite or postgres")
	case c.seedOnly && c.dsn == "":
		return c, errors.New("-seed-only needs -dsn")
	case c.url != "" && c.seed > 0 && c.dsn == "":
		return c, errors.New("seeding with -url needs -dsn (the server's database)")
	case c.readCacheMS < 0 || c.readCacheMS > 1000:
		return c, errors.New("need 0 <= -read-cache-ms <= 1000")
	case c.rounds < 1 || c.rounds > 100:
		return c, errors.New("need 1 <= -rounds <= 100")
	case c.progress <= 0:
		return c, errors.New("need -progress > 0")
	case c.searchDocs < 0:
		return c, errors.New("need -search-docs >= 0")
	}
	for _, s := range c.scenarios {
		if s == eventsScenario {
			if c.sse < 1 || c.sseConnect < 1 || c.sseSample < 1 || c.eventRate < 1 || c.eventRate > 10_000 ||
				c.webhooks < 0 || c.webhooks > 20 || c.webhookEvents < 1 || c.webhookConcurrency < 1 {
				return c, errors.New("need -sse, -sse-connect, -sse-sample >= 1, 1 <= -event-rate <= 10000, 0 <= -webhooks <= 20, -webhook-events >= 1, -webhook-concurrency >= 1")
			}
			continue
		}
		if s == closeScenario {
			if c.url != "" {
				return c, errors.New("the close scenario seeds its jobs: it needs -host or the in-process target, not -url")
			}
			if c.closeRecords < 10 || c.closeBytes < 1 || c.closeWriteRate < 1 || c.closeWriteRate > 100_000 {
				return c, errors.New("need -close-records >= 10, -close-bytes >= 1 and 1 <= -close-write-rate <= 100000")
			}
			continue
		}
		if scenarioByName(s) == nil {
			return c, fmt.Errorf("unknown scenario %q (known: %s)", s, strings.Join(allScenarios, ", "))
		}
	}
	if c.url != "" {
		if err := loopbackOnly(c.url); err != nil {
			return c, err
		}
	}
	if err := loopbackDSN(c.dsn); err != nil {
		return c, err
	}
	if c.seed < 0 {
		c.seed = 0
		if c.dsn == "" && c.url == "" {
			c.seed = 1000
		}
	}
	return c, nil
}

func run(args []string, out io.Writer) (err error) {
	c, err := parse(args)
	if err != nil {
		return err
	}
	tb := &runTB{name: "load", out: out}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
		tb.cleanup()
	}()
	ctx := context.Background()
	dsn := c.dsn
	if dsn == "" && c.url == "" {
		dsn = newDatabase(tb, c.db)
	}
	newest := "" // the newest seeded job queued for the search index
	if c.seed > 0 {
		if newest, err = seedDatabase(ctx, dsn, c, out); err != nil {
			return err
		}
	}
	var closing *closeFixture
	if slices.Contains(c.scenarios, closeScenario) {
		if closing, err = seedClosing(ctx, dsn, c, out); err != nil {
			return err
		}
	}
	if c.seedOnly {
		return nil
	}
	t, err := startTarget(tb, c, dsn, out)
	if err != nil {
		return err
	}
	if c.db == "postgres" && c.dsn == "" && c.url == "" {
		t.dbPID = pgtest.ServerPID()
	}
	fix, err := setUp(ctx, t, c)
	if err != nil {
		return err
	}
	if t.clients, err = newClients(t.base, t.http, t.devSecret, fix.tokens); err != nil {
		return err
	}
	if newest != "" && slices.Contains(c.scenarios, "search") {
		if err := waitIndexed(ctx, t.clients.anon, newest, out); err != nil {
			return err
		}
	}
	for _, r := range []struct {
		path  string
		start func(io.Writer) error
		stop  func()
	}{{c.cpuProfile, pprof.StartCPUProfile, pprof.StopCPUProfile}, {c.traceFile, trace.Start, trace.Stop}} {
		if r.path == "" {
			continue
		}
		stop, err := record(r.path, r.start, r.stop)
		if err != nil {
			return err
		}
		defer stop()
	}
	fmt.Fprintf(out, "target: %s, %d connections, %s and %d requests per scenario in %d rounds\n",
		t.describe, c.workers, c.duration, c.maxRequests, c.rounds)
	rep := &report{out: out, cpuOf: t.rssOf, dbOf: "PostgreSQL (server and backends)"}
	for _, name := range c.scenarios {
		if name == eventsScenario {
			if err := runEvents(ctx, t, fix, c, out); err != nil {
				return err
			}
			continue
		}
		if name == closeScenario {
			if err := runClose(ctx, t, fix, closing, c, out); err != nil {
				return err
			}
			continue
		}
		ceil, res, err := measure(t, fix, c, scenarioByName(name))
		if err != nil {
			return err
		}
		rep.scenario(name, ceil, res)
	}
	if rss := t.peakRSS(); rss > 0 {
		fmt.Fprintf(out, "peak RSS of %s: %d MB\n", t.rssOf, rss>>20)
	}
	return nil
}

// newDatabase makes a new database of the given kind and returns its DSN.
func newDatabase(tb *runTB, kind string) string {
	if kind == "postgres" {
		tb.Cleanup(func() {
			if err := pgtest.Stop(); err != nil {
				fmt.Fprintln(tb.out, "load:", err)
			}
		})
		return pgtest.NewDatabase(tb)
	}
	return "sqlite:" + tb.TempDir() + "/openjury.db"
}

// seedDatabase opens dsn (migrating it) and seeds c.seed jobs, all of them
// in the lexical index of search; it returns
// the id of the newest job queued for the search index ("" for none).
func seedDatabase(ctx context.Context, dsn string, c config, out io.Writer) (string, error) {
	db, err := bunstore.Open(ctx, dsn)
	if err != nil {
		return "", fmt.Errorf("open %s: %w", redact(dsn), err)
	}
	defer db.Close()
	writers := c.writers
	if writers <= 0 {
		writers = 1
		if db.Dialect() == bunstore.DialectPostgres {
			writers = 4
		}
	}
	s := &seeder{db: db, now: time.Now(), total: c.seed, writers: writers, out: out, every: c.progress, searchDocs: c.searchDocs}
	if _, err = s.seed(ctx); err != nil {
		return "", err
	}
	// Every seeded document is found by its words, as if each write had
	// queued it for the indexer's lexical step; only the newest
	// -search-docs jobs wait for their vectors.
	if err := db.RebuildSearchTexts(ctx); err != nil {
		return "", fmt.Errorf("seed: the lexical index: %w", err)
	}
	// As after any bulk load: the planner's statistics before the first
	// request, not a minute later from autovacuum.
	if err := db.Analyze(ctx); err != nil {
		return "", fmt.Errorf("seed: analyze: %w", err)
	}
	return s.newestIndexed, nil
}

// loopbackOnly refuses targets off this machine.
func loopbackOnly(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return fmt.Errorf("bad -url %q", raw)
	}
	if !loopbackHost(u.Hostname()) {
		return fmt.Errorf("-url must be on loopback (127.0.0.0/8, ::1 or localhost), not %q", u.Hostname())
	}
	return nil
}

// loopbackDSN refuses PostgreSQL servers off this machine; SQLite files
// and Unix sockets are local anyway.
func loopbackDSN(dsn string) error {
	if !strings.HasPrefix(dsn, "postgres://") && !strings.HasPrefix(dsn, "postgresql://") {
		return nil
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return errors.New("bad -dsn")
	}
	if h := u.Hostname(); h != "" && !loopbackHost(h) {
		return fmt.Errorf("-dsn must be on loopback, not %q", h)
	}
	return nil
}

func loopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// redact drops the password of a DSN for messages.
func redact(dsn string) string {
	if u, err := url.Parse(dsn); err == nil && u.User != nil {
		u.User = url.User(u.User.Username())
		return u.String()
	}
	return dsn
}

// runTB lets the test kit (NewServer, NewWallet, pgtest) run outside go
// test: it collects cleanups and turns failures into a panic with the
// message, which run returns as its error.
type runTB struct {
	testing.TB
	name     string
	out      io.Writer
	mu       sync.Mutex
	cleanups []func()
	dirs     []string
}

func (t *runTB) Helper()      {}
func (t *runTB) Name() string { return t.name }
func (t *runTB) Cleanup(f func()) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.cleanups = append(t.cleanups, f)
}
func (t *runTB) Fatalf(format string, args ...any) { panic(fmt.Sprintf(format, args...)) }
func (t *runTB) Errorf(format string, args ...any) { panic(fmt.Sprintf(format, args...)) }
func (t *runTB) Skipf(format string, args ...any)  { panic(fmt.Sprintf(format, args...)) }
func (t *runTB) Logf(string, ...any)               {}

// TempDir returns a new directory at each call, as testing.T's does (the
// load tool's database and the kit's default one must not share a path),
// removed by cleanup.
func (t *runTB) TempDir() string {
	d, err := os.MkdirTemp("", "openjury-load-")
	if err != nil {
		panic(err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.dirs = append(t.dirs, d)
	return d
}

func (t *runTB) cleanup() {
	t.mu.Lock()
	fs := t.cleanups
	t.cleanups = nil
	t.mu.Unlock()
	for i := len(fs) - 1; i >= 0; i-- {
		fs[i]()
	}
	for _, d := range t.dirs {
		_ = os.RemoveAll(d)
	}
}

// record creates the file at path and starts a recording into it (a CPU
// profile, an execution trace); the returned func stops it and closes the
// file.
func record(path string, start func(io.Writer) error, stop func()) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := start(f); err != nil {
		_ = f.Close()
		return nil, err
	}
	return func() {
		stop()
		_ = f.Close()
	}, nil
}
