package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/openjurytest/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// row is one line of the report: scenario, operation, ok, errors.
var row = regexp.MustCompile(`(?m)^(\S+)\s+(.+?)\s+(\d+)\s+(\d+)\s+(\d+)\s+\S+\s+\S+\s+(\S+)$`)

// checkReport requires for every scenario a ceiling row and its own rows,
// each with answers, no errors and a ratio to the ceiling.
func checkReport(t *testing.T, out string, scenarios ...string) {
	t.Helper()
	ceilings, answers := map[string]int{}, map[string]int{}
	for _, r := range row.FindAllStringSubmatch(out, -1) {
		ok, err := strconv.Atoi(r[3])
		require.NoError(t, err)
		require.Positive(t, ok, "answers of %s %s:\n%s", r[1], r[2], out)
		require.Equal(t, "0", r[4], "errors of %s %s:\n%s", r[1], r[2], out)
		require.True(t, strings.HasSuffix(r[6], "%"), "ratio to the ceiling of %s %s:\n%s", r[1], r[2], out)
		if strings.HasPrefix(r[2], "ceiling: ") {
			ceilings[r[1]] += ok
		} else {
			answers[r[1]] += ok
		}
	}
	for _, s := range scenarios {
		require.Positive(t, ceilings[s], "ceiling of %s:\n%s", s, out)
		require.Positive(t, answers[s], "scenario %s:\n%s", s, out)
	}
}

func TestSeedAndRunSQLite(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	require.NoError(t, run([]string{"-seed", "1200", "-search-docs", "300", "-c", "2", "-wallets", "3", "-n", "60", "-d", "30s"}, &out))
	require.Contains(t, out.String(), "seed: 1200 jobs, 480 submissions, 240 votes, 120 comments")
	require.Contains(t, out.String(), "search: the index answers the seeded jobs")
	require.Contains(t, out.String(), "tag=bench page 50 ", "the deep scenario reaches page 50")
	require.Contains(t, out.String(), "peak RSS of this process")
	require.Regexp(t, `CPU per answer: this process \(server and load generator\) [0-9.]+(µs|ms)`, out.String())
	require.Regexp(t, `submit .*\n.*CPU per answer.*\n +SQLite's writer held: [0-9]+% of the time`, out.String())
	checkReport(t, out.String(), allScenarios...)
}

// TestProfileAndTrace: -cpuprofile and -trace write a CPU profile (gzipped
// protocol buffers) and an execution trace of the in-process scenarios.
func TestProfileAndTrace(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	prof, tr := filepath.Join(dir, "cpu.prof"), filepath.Join(dir, "run.trace")
	var out bytes.Buffer
	require.NoError(t, run([]string{"-seed", "100", "-c", "2", "-wallets", "2", "-n", "20", "-rounds", "1", "-scenarios", "get,submit",
		"-cpuprofile", prof, "-trace", tr}, &out))
	checkReport(t, out.String(), "get", "submit")
	b, err := os.ReadFile(prof)
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(b, []byte{0x1f, 0x8b}), "a gzipped profile")
	b, err = os.ReadFile(tr)
	require.NoError(t, err)
	require.Regexp(t, `^go 1\.\d+ trace`, string(b[:min(len(b), 32)]))
	require.Greater(t, len(b), 1024)
}

func TestSeedOnlyThenRunPostgres(t *testing.T) {
	t.Parallel()
	dsn := pgtest.NewDatabase(t)
	var out bytes.Buffer
	require.NoError(t, run([]string{"-dsn", dsn, "-seed", "300", "-seed-only", "-writers", "3"}, &out))
	require.Contains(t, out.String(), "seed: 300 jobs, 120 submissions, 60 votes, 30 comments")
	out.Reset()
	require.NoError(t, run([]string{"-dsn", dsn, "-c", "2", "-wallets", "2", "-n", "20", "-scenarios", "get,submit,vote,tallies,mix"}, &out))
	require.Contains(t, out.String(), "in-process server on postgres")
	require.NotContains(t, out.String(), "writer held", "PostgreSQL has no one writer")
	checkReport(t, out.String(), "get", "submit", "vote", "tallies", "mix")
}

// TestFailuresAreCounted: past the server's rate limit every refused
// request is one error of the report, none retried (the client runs with
// client.WithoutRetries; a retry would wait the 60 s of Retry-After).
func TestFailuresAreCounted(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	// About 290 requests of set-up, then 400 list requests against a limit
	// of 500 a minute (the in-process server's clock stands still).
	require.NoError(t, run([]string{"-seed", "300", "-c", "2", "-wallets", "1", "-n", "400", "-d", "1m",
		"-scenarios", "list", "-ceiling=false", "-rate-limit", "500"}, &out))
	rows := row.FindAllStringSubmatch(out.String(), -1)
	require.Len(t, rows, 1, out.String())
	ok, err := strconv.Atoi(rows[0][3])
	require.NoError(t, err)
	errs, err := strconv.Atoi(rows[0][4])
	require.NoError(t, err)
	require.Positive(t, ok, out.String())
	require.Positive(t, errs, out.String())
	require.Equal(t, 400, ok+errs, "every request is counted once:\n%s", out.String())
	require.Contains(t, out.String(), "first error: openjury: 429: too many requests")
}

func TestLoopbackOnly(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"http://127.0.0.1:8080", "http://localhost:1", "http://[::1]:80", "http://127.9.9.9"} {
		require.NoError(t, loopbackOnly(ok), ok)
	}
	for _, bad := range []string{"http://10.0.0.1:8080", "http://192.168.1.2", "https://example.com", "not a url", "http://"} {
		require.Error(t, loopbackOnly(bad), bad)
	}
	require.NoError(t, loopbackDSN("postgres://u:p@127.0.0.1:5432/x"))
	require.NoError(t, loopbackDSN("sqlite:/tmp/x.db"))
	require.Error(t, loopbackDSN("postgres://u:p@db.example.com:5432/x"))
	require.Error(t, run([]string{"-url", "http://10.1.2.3:8080"}, &bytes.Buffer{}))
	require.Error(t, run([]string{"-dsn", "postgres://10.1.2.3/x"}, &bytes.Buffer{}))
}

func TestFlags(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"-c", "0"}, {"-d", "11m"}, {"-n", "0"}, {"-db", "mysql"}, {"-seed-only"},
		{"-scenarios", "list,nope"}, {"-read-cache-ms", "1001"}, {"-wallets", "0"}, {"-url", "http://127.0.0.1:1", "-seed", "5"}, {"-search-docs", "-1"},
	} {
		require.Error(t, run(args, &bytes.Buffer{}), "%v", args)
	}
}

// TestCloseScenarioSQLite runs the close scenario small, in process: both
// big jobs close while other jobs take writes, and the snapshot and a
// sample of proofs verify.
func TestCloseScenarioSQLite(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	require.NoError(t, run([]string{"-seed", "200", "-scenarios", "close", "-close-records", "3000", "-close-bytes", "3000000",
		"-c", "2", "-wallets", "3"}, &out))
	text := out.String()
	for _, want := range []string{"close: seeded job", "close: job ", "finalize: job ", "(3000 records", "RSS of this process",
		"other jobs' writes meanwhile", "streamed and verified against the root"} {
		require.Contains(t, text, want, text)
	}
	require.Regexp(t, `\(3000 records\); \d+ proofs verified`, text)
	for _, r := range row.FindAllStringSubmatch(text, -1) {
		require.Equal(t, "0", r[4], "errors of %s %s:\n%s", r[1], r[2], text)
	}
}

// TestSignedScenariosSendTheToken: list-signed and get-signed send the
// wallet's bearer token with the public read; list and get send none.
func TestSignedScenariosSendTheToken(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	seen := map[string]string{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen[r.URL.Path+" "+r.Header.Get("Authorization")] = r.Method
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"jobs":[],"id":"j1"}`))
	}))
	defer srv.Close()
	cs, err := newClients(srv.URL, srv.Client(), "", []string{"tok-a", "tok-b"})
	require.NoError(t, err)
	f := &fixtures{jobs: []string{"j1"}, tokens: []string{"tok-a", "tok-b"}}
	for _, name := range []string{"list", "get", "list-signed", "get-signed"} {
		for seq := range int64(2) {
			rq, ok := singles[name](f, seq)
			require.True(t, ok)
			_ = rq.call(context.Background(), cs)
		}
	}
	require.Equal(t, map[string]string{
		"/api/v1/jobs ": "GET", "/api/v1/jobs/j1 ": "GET",
		"/api/v1/jobs Bearer tok-a": "GET", "/api/v1/jobs Bearer tok-b": "GET",
		"/api/v1/jobs/j1 Bearer tok-a": "GET", "/api/v1/jobs/j1 Bearer tok-b": "GET",
	}, seen)
}

// TestEventsScenario runs a small events scenario in process: streams
// open, each gets every event written meanwhile, the commit-to-delivery
// delay is reported, and the webhooks get every post.
func TestEventsScenario(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	require.NoError(t, run([]string{"-seed", "50", "-scenarios", "events", "-sse", "20", "-sse-connect", "5", "-sse-sample", "2",
		"-event-rate", "20", "-d", "1s", "-webhooks", "2", "-webhook-events", "10", "-wallets", "4"}, &out))
	text := out.String()
	for _, want := range []string{"events: 20 streams open", "memory per stream", "commit -> delivery over", "deliveries/s"} {
		require.Contains(t, text, want, text)
	}
	m := regexp.MustCompile(`each stream got (\d+)\.\.(\d+) of (\d+) events; 0 stream errors`).FindStringSubmatch(text)
	require.NotNil(t, m, text)
	require.Equal(t, m[3], m[1], "every stream got every event:\n%s", text)
	require.Contains(t, text, "20 of 20 deliveries", text)
}
