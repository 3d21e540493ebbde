//go:build unix

package transport_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/openjurytest/pgtest"
)

// The handler benchmarks serve the hot paths through the whole handler
// (every middleware layer, the domain service and the store) without a
// network, as the host runs them: rate limits on (high enough never to
// refuse), the access log at warn, the read cache off unless the
// benchmark says so. Each reports, besides ns/op, B/op and allocs/op, the
// CPU time of the process per request (cpu-ns/op: user and system time of
// every thread, so a machine busy with other work changes it far less than
// ns/op). The end-to-end figures, against a ceiling, come from the load
// tool (BENCHMARKS.md).
//
//	go test -run '^$' -bench Handler -benchtime 2000x ./transport/

// benchJobs is how many jobs the handler benchmarks seed; benchWallets how
// many signed-in wallets with stake send the signed-in requests.
const (
	benchJobs    = 200
	benchWallets = 16
	// benchParallelism is how many requests each core has in flight.
	benchParallelism = 16
)

// benchEnv is a server with benchJobs open jobs and benchWallets
// signed-in wallets.
type benchEnv struct {
	h      http.Handler
	jobs   []string
	tokens []string
}

func newBenchEnv(b *testing.B, dsn string, cache time.Duration) *benchEnv {
	b.Helper()
	srv := openjurytest.NewServer(b, openjurytest.WithDSN(dsn), openjurytest.WithConfig(func(c *openjurytest.ServerConfig) {
		c.SemanticSearchEnabled = false
		c.RateLimitPerMin = 1_000_000_000
		c.RateLimitPerAddressPerMin = 1_000_000_000
		c.ReadCacheTTL = cache
		c.Logger = slog.New(slog.NewJSONHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}))
	e := &benchEnv{h: srv.HTTP.Config.Handler}
	ctx := context.Background()
	sponsor := openjurytest.NewWallet(b).Address()
	for i := range benchJobs {
		j, err := srv.Market.CreateJob(ctx, sponsor, marketplace.CreateJobInput{
			Title:  fmt.Sprintf("Benchmark job %d", i),
			Prompt: "Summarise the attached source in one paragraph, with citations. Seeded for the benchmark.",
			Bounty: openjury.MicroUSDC(int64(1+i%100) * openjury.MicroPerUSDC),
			Tags:   []string{"bench", fmt.Sprintf("t%d", i%10)},
		})
		if err != nil {
			b.Fatal(err)
		}
		e.jobs = append(e.jobs, j.ID)
	}
	for range benchWallets {
		w := openjurytest.NewWallet(b)
		srv.SetStake(b, w.Address(), 1000)
		e.tokens = append(e.tokens, srv.SignIn(b, w))
	}
	return e
}

// benchEngines are the databases of the handler benchmarks: SQLite always,
// PostgreSQL where pgtest finds a server.
var benchEngines = []struct {
	name string
	dsn  func(b *testing.B) string
}{
	{"sqlite", func(b *testing.B) string { return "sqlite:" + b.TempDir() + "/openjury.db" }},
	{"postgres", func(b *testing.B) string { return pgtest.NewDatabase(b) }},
}

// serveBench serves b.N requests made by req (from the request's sequence
// number) in parallel and fails on any answer but want; it reports the
// CPU time per request.
func serveBench(b *testing.B, h http.Handler, want int, req func(n int64) *http.Request) {
	b.Helper()
	b.ReportAllocs()
	// Many requests at once, as a busy server has them (SQLite's writes
	// then share commits).
	b.SetParallelism(benchParallelism)
	var seq atomic.Int64
	cpu := cpuTime()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			r := req(seq.Add(1) - 1)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != want {
				b.Errorf("%s %s: %d %s", r.Method, r.URL, w.Code, w.Body)
				return
			}
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
}

// cpuTime is the user and system CPU time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func benchGet(path, token string) *http.Request {
	r := httptest.NewRequest(http.MethodGet, path, nil)
	r.RemoteAddr = "192.0.2.1:1234"
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	return r
}

// BenchmarkHandler serves, on each engine: a page of 20 jobs (list), a job
// by id over benchJobs ids in turn (get) and a submission with one
// evidence item from benchWallets wallets over the jobs (submit), with the
// read cache off; then, with the read cache on (1 s, a fake clock that
// stands still: every read after the first is a hit), the page of jobs
// anonymously and signed in.
func BenchmarkHandler(b *testing.B) {
	for _, engine := range benchEngines {
		b.Run(engine.name, func(b *testing.B) {
			e := newBenchEnv(b, engine.dsn(b), 0)
			b.Run("list", func(b *testing.B) {
				serveBench(b, e.h, http.StatusOK, func(int64) *http.Request { return benchGet("/api/v1/jobs?limit=20", "") })
			})
			b.Run("get", func(b *testing.B) {
				serveBench(b, e.h, http.StatusOK, func(n int64) *http.Request {
					return benchGet("/api/v1/jobs/"+e.jobs[n%benchJobs], "")
				})
			})
			b.Run("submit", func(b *testing.B) {
				// Wallet n/benchJobs % benchWallets on job n % benchJobs:
				// a pair repeats every benchJobs*benchWallets requests,
				// and an agent may submit 5 times to a job.
				if limit := 5 * benchJobs * benchWallets; b.N > limit {
					b.Skipf("at most %d submissions (-benchtime %dx)", limit, limit)
				}
				body := `{"job_id":%q,"content":"An answer from the benchmark.","evidence":[{"type":"url","source_url":"https://example.org/load","quote":"measured"}]}`
				serveBench(b, e.h, http.StatusOK, func(n int64) *http.Request {
					r := httptest.NewRequest(http.MethodPost, "/api/v1/submissions", strings.NewReader(fmt.Sprintf(body, e.jobs[n%benchJobs])))
					r.RemoteAddr = "192.0.2.1:1234"
					r.Header.Set("Content-Type", "application/json")
					r.Header.Set("Authorization", "Bearer "+e.tokens[n/benchJobs%benchWallets])
					return r
				})
			})
			cached := newBenchEnv(b, engine.dsn(b), time.Second)
			b.Run("list-cached", func(b *testing.B) {
				serveBench(b, cached.h, http.StatusOK, func(int64) *http.Request { return benchGet("/api/v1/jobs?limit=20", "") })
			})
			b.Run("list-cached-signed-in", func(b *testing.B) {
				serveBench(b, cached.h, http.StatusOK, func(n int64) *http.Request {
					return benchGet("/api/v1/jobs?limit=20", cached.tokens[n%benchWallets])
				})
			})
		})
	}
}
