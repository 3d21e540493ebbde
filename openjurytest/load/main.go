// Command load drives an OpenJury server with a bounded mix of requests and
// reports throughput and latency percentiles per operation. Speed is
// measured here and in benchmarks, never asserted in tests.
//
//	go run ./openjurytest/load                       # in-process server on SQLite
//	go run ./openjurytest/load -url http://127.0.0.1:8080 -c 8 -d 10s
//
// Each worker signs in with its own fresh wallet, then loops: post a job,
// read it, list jobs, list by tag. The run stops after -d or -n requests,
// whichever comes first. Only loopback targets are accepted.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/openjury/openjury/openjurytest"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(2)
	}
}

type config struct {
	url         string
	workers     int
	duration    time.Duration
	maxRequests int
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("load", flag.ContinueOnError)
	var c config
	fs.StringVar(&c.url, "url", "", "base URL of a running server on loopback (empty: start one in process on SQLite)")
	fs.IntVar(&c.workers, "c", 4, "concurrent workers (each its own wallet)")
	fs.DurationVar(&c.duration, "d", 5*time.Second, "how long to run")
	fs.IntVar(&c.maxRequests, "n", 20000, "stop after this many requests")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if c.workers < 1 || c.workers > 256 || c.duration <= 0 || c.duration > 10*time.Minute || c.maxRequests < 1 {
		return errors.New("need 1 <= -c <= 256, 0 < -d <= 10m and -n >= 1")
	}
	tb := &runTB{name: "load"}
	defer tb.cleanup()
	base := c.url
	if base == "" {
		srv := openjurytest.NewServer(tb)
		base = srv.URL
	} else if err := loopbackOnly(base); err != nil {
		return err
	}
	res, err := drive(tb, base, c)
	if err != nil {
		return err
	}
	res.print(out, c)
	return nil
}

// loopbackOnly refuses targets off this machine.
func loopbackOnly(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return fmt.Errorf("bad -url %q", raw)
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("-url must be on loopback (127.0.0.0/8, ::1 or localhost), not %q", host)
	}
	return nil
}

type results struct {
	mu       sync.Mutex
	lat      map[string][]time.Duration
	errs     map[string]int
	elapsed  time.Duration
	requests int
}

func (r *results) add(op string, d time.Duration, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.requests++
	if err != nil {
		r.errs[op]++
		return
	}
	r.lat[op] = append(r.lat[op], d)
}

func drive(tb *runTB, base string, c config) (*results, error) {
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: c.workers}}
	res := &results{lat: map[string][]time.Duration{}, errs: map[string]int{}}
	ctx, cancel := context.WithTimeout(context.Background(), c.duration)
	defer cancel()
	var budget sync.Mutex
	left := c.maxRequests
	take := func() bool {
		budget.Lock()
		defer budget.Unlock()
		if left == 0 || ctx.Err() != nil {
			return false
		}
		left--
		return true
	}
	tokens := make([]string, c.workers)
	for i := range tokens {
		tok, err := signIn(client, base, openjurytest.NewWallet(tb), tb)
		if err != nil {
			return nil, err
		}
		tokens[i] = tok
	}
	start := time.Now()
	var wg sync.WaitGroup
	for w := range c.workers {
		wg.Go(func() {
			timed := func(op string, fn func() error) bool {
				if !take() {
					return false
				}
				t0 := time.Now()
				err := fn()
				res.add(op, time.Since(t0), err)
				return true
			}
			for i := 0; ; i++ {
				tag := fmt.Sprintf("t%d", i%10)
				var job struct {
					ID string `json:"id"`
				}
				ok := timed("POST /api/v1/jobs", func() error {
					return call(client, http.MethodPost, base+"/api/v1/jobs", tokens[w], map[string]any{
						"title": "load", "prompt": "measure me", "bounty_usdc": 1, "tags": []string{tag},
					}, &job)
				}) && timed("GET /api/v1/jobs/{job_id}", func() error {
					return call(client, http.MethodGet, base+"/api/v1/jobs/"+job.ID, "", nil, nil)
				}) && timed("GET /api/v1/jobs", func() error {
					return call(client, http.MethodGet, base+"/api/v1/jobs?limit=50", "", nil, nil)
				}) && timed("GET /api/v1/jobs?tag=", func() error {
					return call(client, http.MethodGet, base+"/api/v1/jobs?limit=50&tag="+tag, "", nil, nil)
				})
				if !ok {
					return
				}
			}
		})
	}
	wg.Wait()
	res.elapsed = time.Since(start)
	return res, nil
}

// call sends one JSON request and decodes a 200 answer into out (when not
// nil); any other status is an error.
func call(client *http.Client, method, u, token string, body, out any) error {
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, u, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s: %d %s", method, u, resp.StatusCode, raw)
	}
	if out != nil {
		return json.Unmarshal(raw, out)
	}
	return nil
}

// signIn runs challenge and verify for w and returns the token.
func signIn(client *http.Client, base string, w *openjurytest.Wallet, tb testing.TB) (string, error) {
	var ch struct {
		Message string `json:"message_to_sign"`
	}
	if err := call(client, http.MethodPost, base+"/api/v1/agents/auth/challenge", "", map[string]string{"address": w.Address().String()}, &ch); err != nil {
		return "", err
	}
	var v struct {
		Token string `json:"access_token"`
	}
	err := call(client, http.MethodPost, base+"/api/v1/agents/auth/verify", "", map[string]string{
		"address": w.Address().String(), "signature": w.Sign(tb, ch.Message),
	}, &v)
	return v.Token, err
}

func (r *results) print(out io.Writer, c config) {
	fmt.Fprintf(out, "workers=%d elapsed=%s requests=%d throughput=%.0f req/s\n",
		c.workers, r.elapsed.Round(time.Millisecond), r.requests, float64(r.requests)/r.elapsed.Seconds())
	ops := make([]string, 0, len(r.lat))
	for op := range r.lat {
		ops = append(ops, op)
	}
	for op := range r.errs {
		if !slices.Contains(ops, op) {
			ops = append(ops, op)
		}
	}
	sort.Strings(ops)
	fmt.Fprintf(out, "%-28s %7s %6s %9s %9s %9s\n", "operation", "ok", "errors", "p50", "p90", "p99")
	for _, op := range ops {
		l := r.lat[op]
		slices.Sort(l)
		fmt.Fprintf(out, "%-28s %7d %6d %9s %9s %9s\n", op, len(l), r.errs[op], pct(l, 50), pct(l, 90), pct(l, 99))
	}
}

func pct(sorted []time.Duration, p int) string {
	if len(sorted) == 0 {
		return "-"
	}
	i := min(len(sorted)-1, len(sorted)*p/100)
	return sorted[i].Round(10 * time.Microsecond).String()
}

// runTB lets the test kit (NewServer, NewWallet) run outside go test: it
// collects cleanups and turns failures into a panic with the message.
type runTB struct {
	testing.TB
	name     string
	mu       sync.Mutex
	cleanups []func()
	dir      string
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
func (t *runTB) TempDir() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.dir == "" {
		d, err := os.MkdirTemp("", "openjury-load-")
		if err != nil {
			panic(err)
		}
		t.dir = d
	}
	return t.dir
}

func (t *runTB) cleanup() {
	t.mu.Lock()
	fs := t.cleanups
	t.mu.Unlock()
	for i := len(fs) - 1; i >= 0; i-- {
		fs[i]()
	}
	if t.dir != "" {
		_ = os.RemoveAll(t.dir)
	}
}
