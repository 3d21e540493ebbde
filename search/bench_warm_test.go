package search_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/internal/gcfloor"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/openjurytest/dbtest"
	"github.com/openjury/openjury/search"
	"github.com/openjury/openjury/server"
)

// BenchmarkWarmReplica measures a whole replica (server.New and Start,
// with the host's heap floor: the API, the web app, the background work
// and the search index) on a SQLite database of 100,000 documents
// (1,000,000 with SEARCH_BENCH_1M=1; one job in 20 a real job, the rest
// submissions, comments and posts of those jobs) once its connections are
// warm. The replica runs in a fresh
// process (this test binary, TestWarmReplicaProcess); this process drives
// it over HTTP from 4 goroutines, two rounds of 400 searches each (the
// quality set's queries, every kind filter, a quarter followed to their
// second page) with a job read after each search and a job list page
// after every fourth, 20 jobs and 20 comments written per round, after
// reading the whole job list page by page (200 a page), as a crawler
// would. The replica runs with the service's defaults (the read cache
// on: its answers count) but for the test kit's fake clock. It reports the replica's start
// (process start to serving, the index loaded), its RSS at start, after
// each round (VmRSS), its peak (VmHWM) and the peak of each phase (the
// list, each round, the rest after: VmRSS sampled every 20 ms), from /proc; its Go heap (from
// /metrics); and, in the second round (warm), the replica's CPU per search
// and the latency of first search pages (p50, p99) and job reads (p50),
// the cost of a smaller page cache. SEARCH_WARM_DOCS sets another size. SEARCH_WARM_DB=/path/to/file.db keeps the seeded
// database for later runs (seeded when the file is missing);
// SEARCH_WARM_DSN_QUERY adds DSN parameters to the replica's database
// URL (e.g. _pragma=cache_size(-4096), to compare page-cache sizes on the
// same database).
// Run: SEARCH_BENCH_1M=1 go test -run '^$' -bench 'BenchmarkWarmReplica/docs=1000000' -benchtime 1x -timeout 60m ./search/
func BenchmarkWarmReplica(b *testing.B) {
	sizes := benchSizes()
	if v, err := strconv.Atoi(os.Getenv("SEARCH_WARM_DOCS")); err == nil && v > 0 {
		sizes = []int{v}
	}
	for _, n := range sizes {
		b.Run(fmt.Sprintf("docs=%d", n), func(b *testing.B) {
			dsn := warmDatabase(b, n)
			if extra := os.Getenv("SEARCH_WARM_DSN_QUERY"); extra != "" {
				dsn += "?" + extra
			}
			for b.Loop() {
				runWarmReplica(b, dsn)
			}
		})
	}
}

// warmDatabase returns the DSN of a SQLite database seeded for
// BenchmarkWarmReplica with n documents: SEARCH_WARM_DB's file (seeded
// only when missing), else a fresh temp file.
func warmDatabase(b *testing.B, n int) string {
	b.Helper()
	path := os.Getenv("SEARCH_WARM_DB")
	if path != "" {
		path = fmt.Sprintf("%s.%d", path, n)
		if _, err := os.Stat(path); err == nil {
			return "sqlite:" + path
		}
	}
	dsn := dbtest.SQLite(b)
	if path != "" {
		dsn = "sqlite:" + path
	}
	start := time.Now()
	seedWarm(b, dsn, n)
	b.Logf("seeded %d documents in %s", n, time.Since(start).Round(time.Second))
	return dsn
}

// seedWarm stores n documents at dsn: n/20 jobs created through the
// marketplace and indexed by the indexer (their search rows as a replica
// writes them), then the rest as submissions, comments and posts of those
// jobs written straight to search_text and search_documents with their
// Local vectors, in transactions of 20,000 rows.
func seedWarm(b *testing.B, dsn string, n int) {
	b.Helper()
	ctx := context.Background()
	db, err := bunstore.Open(ctx, dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	titles, sentences := benchSentences()
	rng := rand.New(rand.NewPCG(21, 21))
	body := func() string {
		parts := make([]string, 2+rng.IntN(4))
		for k := range parts {
			parts[k] = sentences[rng.IntN(len(sentences))]
		}
		return strings.Join(parts, " ")
	}
	m := marketplace.NewService(db, openjurytest.NewClock(), marketplace.Config{})
	sponsor := openjurytest.NewWallet(b).Address()
	jobs := make([]string, n/20)
	for i := range jobs {
		j, err := m.CreateJob(ctx, sponsor, marketplace.CreateJobInput{Title: titles[rng.IntN(len(titles))], Prompt: body()})
		if err != nil {
			b.Fatal(err)
		}
		jobs[i] = j.ID
	}
	w := search.NewIndexer(db.SearchIndex(), search.NewLocal(), openjury.SystemClock{}, search.IndexerConfig{}, nil, nil)
	for {
		k, err := w.Step(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if k == 0 {
			break
		}
	}
	var seq int64
	if err := db.Bun().NewRaw("SELECT seq FROM search_seq WHERE id = 1").Scan(ctx, &seq); err != nil {
		b.Fatal(err)
	}
	local, model := search.NewLocal(), search.NewLocal().Model()
	kinds := []search.Kind{search.KindSubmission, search.KindComment, search.KindPost}
	const batch, perTx = 250, 20_000
	rest := n - len(jobs)
	tx, err := db.Bun().BeginTx(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	for start := 0; start < rest; start += batch {
		if start > 0 && start%perTx == 0 {
			if err := tx.Commit(); err != nil {
				b.Fatal(err)
			}
			if tx, err = db.Bun().BeginTx(ctx, nil); err != nil {
				b.Fatal(err)
			}
		}
		var texts, docs strings.Builder
		texts.WriteString("INSERT INTO search_text (kind, doc_id, job_id, title, body, extra) VALUES ")
		docs.WriteString("INSERT INTO search_documents (kind, doc_id, seq, deleted, model, vec, updated_at) VALUES ")
		targs, dargs := make([]any, 0, 5*batch), make([]any, 0, 5*batch)
		for i := start; i < min(rest, start+batch); i++ {
			if i > start {
				texts.WriteString(", ")
				docs.WriteString(", ")
			}
			texts.WriteString("(?, ?, ?, ?, ?, '')")
			docs.WriteString("(?, ?, ?, 0, ?, ?, 0)")
			kind, id, text := kinds[i%len(kinds)], openjury.NewID(), body()
			var job any = jobs[rng.IntN(len(jobs))]
			title := ""
			if kind == search.KindPost {
				job, title = nil, titles[rng.IntN(len(titles))]
			}
			seq++
			targs = append(targs, string(kind), id, job, title, text)
			dargs = append(dargs, string(kind), id, seq, model, search.Quantize(local.Vector(title+"\n"+text)).Encode())
		}
		if _, err := tx.NewRaw(texts.String(), targs...).Exec(ctx); err != nil {
			b.Fatal(err)
		}
		if _, err := tx.NewRaw(docs.String(), dargs...).Exec(ctx); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := tx.NewRaw("UPDATE search_seq SET seq = ? WHERE id = 1", seq).Exec(ctx); err != nil {
		b.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
}

// runWarmReplica starts TestWarmReplicaProcess on dsn, warms it up over
// HTTP and reports its figures.
func runWarmReplica(b *testing.B, dsn string) {
	b.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestWarmReplicaProcess$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), "SEARCH_WARM_REPLICA_DSN="+dsn)
	stdin, err := cmd.StdinPipe()
	require.NoError(b, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(b, err)
	cmd.Stderr = os.Stderr
	require.NoError(b, cmd.Start())
	defer func() { _ = cmd.Process.Kill() }()
	var out bytes.Buffer
	lines := bufio.NewScanner(stdout)
	base := ""
	for base == "" && lines.Scan() {
		out.WriteString(lines.Text() + "\n")
		if _, figures, ok := strings.Cut(lines.Text(), "warmreplica:"); ok {
			for _, f := range strings.Fields(figures) {
				name, v, _ := strings.Cut(f, "=")
				if name == "url" {
					base = v
					continue
				}
				x, err := strconv.ParseFloat(v, 64)
				require.NoError(b, err, f)
				b.ReportMetric(x, name)
			}
		}
	}
	require.NotEmpty(b, base, "no URL from the replica:\n%s", out.String())
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	pid := cmd.Process.Pid
	mib := func(field string) float64 { return float64(procStatusOf(strconv.Itoa(pid), field)) / 1024 }

	c := &warmClient{b: b, base: base, http: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}}}
	// The replica's RSS is sampled every 20 ms: the peak of each phase.
	var phaseMu sync.Mutex
	phase, peaks := "list", map[string]float64{}
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				rss := mib("VmRSS:")
				phaseMu.Lock()
				peaks[phase] = max(peaks[phase], rss)
				phaseMu.Unlock()
			}
		}
	}()
	setPhase := func(p string) { phaseMu.Lock(); phase = p; phaseMu.Unlock() }
	began := time.Now()
	jobs := c.listJobs()
	require.NotEmpty(b, jobs)
	b.ReportMetric(float64(time.Since(began))/float64(time.Millisecond)/float64((len(jobs)+199)/200), "list-ms/page")
	for round := 1; round <= 2; round++ {
		cpu, replicaCPU := cpuTime(), procCPU(pid)
		began := time.Now()
		setPhase(fmt.Sprintf("round%d", round))
		c.signIn() // a fresh author a round: the write rate limits are per address
		searches, gets := c.round(round, jobs)
		b.Logf("round %d: %s (the replica's CPU %s, this process's %s)", round, time.Since(began).Round(time.Millisecond),
			(procCPU(pid) - replicaCPU).Round(time.Millisecond), (cpuTime() - cpu).Round(time.Millisecond))
		b.ReportMetric(mib("VmRSS:"), fmt.Sprintf("RSS-round%d-MiB", round))
		if round == 2 { // warm: the figures of the read paths
			b.ReportMetric(float64(procCPU(pid)-replicaCPU)/float64(time.Millisecond)/float64(len(searches)), "replica-cpu-ms/search")
			slices.Sort(searches)
			slices.Sort(gets)
			b.ReportMetric(float64(searches[len(searches)/2])/float64(time.Millisecond), "search-p50-ms")
			b.ReportMetric(float64(searches[len(searches)*99/100])/float64(time.Millisecond), "search-p99-ms")
			b.ReportMetric(float64(gets[len(gets)/2])/float64(time.Millisecond), "job-p50-ms")
		}
	}
	setPhase("rest")
	time.Sleep(2 * time.Second) // the indexer and follower take the round's writes
	close(stop)
	<-sampled
	for name, peak := range peaks {
		b.ReportMetric(peak, "peak-"+name+"-MiB")
	}
	b.ReportMetric(mib("VmHWM:"), "peak-RSS-MiB")
	b.ReportMetric(mib("VmRSS:"), "steady-RSS-MiB")
	b.ReportMetric(mib("RssAnon:"), "anon-MiB")
	b.ReportMetric(mib("RssFile:"), "file-MiB")
	if heap := c.metric("go_memstats_heap_inuse_bytes"); heap > 0 {
		b.ReportMetric(heap/(1<<20), "go-heap-MiB")
	}
	require.NoError(b, stdin.Close())
	require.NoError(b, cmd.Wait())
}

// warmClient is BenchmarkWarmReplica's HTTP client of the replica.
type warmClient struct {
	b     *testing.B
	base  string
	http  *http.Client
	token string
}

// do sends a request and decodes the JSON answer into v (when not nil);
// any status but want is an error.
func (c *warmClient) do(method, path string, body any, want int, v any) error {
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" && method != http.MethodGet {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, raw)
	}
	if v != nil {
		return json.Unmarshal(raw, v)
	}
	return nil
}

// signIn signs a fresh wallet in: the author of the next writes.
func (c *warmClient) signIn() {
	w := openjurytest.NewWallet(c.b)
	var ch struct {
		Message string `json:"message_to_sign"`
	}
	require.NoError(c.b, c.do(http.MethodPost, "/api/v1/agents/auth/challenge", map[string]string{"address": w.Address().String()}, http.StatusOK, &ch))
	var v struct {
		Token string `json:"access_token"`
	}
	require.NoError(c.b, c.do(http.MethodPost, "/api/v1/agents/auth/verify", map[string]string{"address": w.Address().String(), "signature": w.Sign(c.b, ch.Message)}, http.StatusOK, &v))
	c.token = v.Token
}

// jobPage is a page of GET /api/v1/jobs.
type jobPage struct {
	Jobs []struct {
		ID string `json:"id"`
	} `json:"jobs"`
	NextCursor string `json:"next_cursor"`
}

// listJobs reads the whole job list page by page (as a crawler would)
// and returns the jobs' ids.
func (c *warmClient) listJobs() []string {
	var ids []string
	cursor := ""
	for {
		var p jobPage
		require.NoError(c.b, c.do(http.MethodGet, "/api/v1/jobs?limit=200&cursor="+url.QueryEscape(cursor), nil, http.StatusOK, &p))
		for _, j := range p.Jobs {
			ids = append(ids, j.ID)
		}
		if cursor = p.NextCursor; cursor == "" {
			break
		}
	}
	return ids
}

// round runs one round of the warm-up from 4 goroutines and returns the
// latencies of its first search pages and of its job reads.
func (c *warmClient) round(round int, jobs []string) (searchTimes, getTimes []time.Duration) {
	const workers, searches = 4, 400
	types := []string{"all", "all", "job", "submission", "comment", "post"}
	errs := make(chan error, workers)
	var mu sync.Mutex
	timed := func(d *[]time.Duration, f func() error) error {
		began := time.Now()
		err := f()
		mu.Lock()
		*d = append(*d, time.Since(began))
		mu.Unlock()
		return err
	}
	for g := range workers {
		go func() {
			rng := rand.New(rand.NewPCG(uint64(round), uint64(g)))
			var err error
			for i := g; i < searches && err == nil; i += workers {
				k := i + round*searches
				q := url.Values{"q": {qualityQueries[k%len(qualityQueries)].q}, "type": {types[(k/len(qualityQueries))%len(types)]}}
				var res struct {
					NextCursor string `json:"next_cursor"`
				}
				err = timed(&searchTimes, func() error {
					return c.do(http.MethodGet, "/api/v1/search/semantic?"+q.Encode(), nil, http.StatusOK, &res)
				})
				if err == nil && i%4 == 0 && res.NextCursor != "" {
					q.Set("cursor", res.NextCursor)
					err = c.do(http.MethodGet, "/api/v1/search/semantic?"+q.Encode(), nil, http.StatusOK, nil)
				}
				job := jobs[rng.IntN(len(jobs))]
				if err == nil {
					err = timed(&getTimes, func() error { return c.do(http.MethodGet, "/api/v1/jobs/"+job, nil, http.StatusOK, nil) })
				}
				if err == nil && i%4 == 1 {
					err = c.do(http.MethodGet, "/api/v1/jobs?limit=50", nil, http.StatusOK, nil)
				}
				if err == nil && i%20 == 0 {
					err = c.do(http.MethodPost, "/api/v1/jobs", map[string]any{"title": "Warm-up job", "prompt": qualityQueries[k%len(qualityQueries)].q, "bounty_usdc": 0}, http.StatusOK, nil)
				}
				if err == nil && i%20 == 0 {
					err = c.do(http.MethodPost, "/api/v1/jobs/"+job+"/comments", map[string]any{"content": "A comment on " + qualityQueries[(k+1)%len(qualityQueries)].q}, http.StatusOK, nil)
				}
			}
			errs <- err
		}()
	}
	for range workers {
		require.NoError(c.b, <-errs)
	}
	return searchTimes, getTimes
}

// procCPU is the CPU time process pid used so far (user and system; 0
// when unknown).
func procCPU(pid int) time.Duration {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// The fields after the command's closing parenthesis; utime and stime
	// are the 14th and 15th of the line, in clock ticks (100 a second).
	_, rest, _ := strings.Cut(string(raw), ") ")
	f := strings.Fields(rest)
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+s) * 10 * time.Millisecond
}

// metric reads one unlabelled figure of the replica's /metrics (0 when
// missing).
func (c *warmClient) metric(name string) float64 {
	resp, err := c.http.Get(c.base + "/metrics")
	require.NoError(c.b, err)
	defer resp.Body.Close()
	lines := bufio.NewScanner(resp.Body)
	for lines.Scan() {
		if v, ok := strings.CutPrefix(lines.Text(), name+" "); ok {
			x, _ := strconv.ParseFloat(v, 64)
			return x
		}
	}
	return 0
}

// TestWarmReplicaProcess is BenchmarkWarmReplica's replica: run by the
// benchmark in a process of its own (skipped otherwise), it starts the
// whole service, with the host's heap floor, on SEARCH_WARM_REPLICA_DSN, prints its URL and start
// figures and serves until its stdin closes; then it writes its heap
// profile to SEARCH_WARM_HEAP_PROFILE, when set.
func TestWarmReplicaProcess(t *testing.T) {
	dsn := os.Getenv("SEARCH_WARM_REPLICA_DSN")
	if dsn == "" {
		t.Skip("run by BenchmarkWarmReplica")
	}
	start, cpu := time.Now(), cpuTime()
	// The service's defaults but for the kit's fake clock, the read cache
	// on (openjurytest turns it off): its answers count in a warm replica.
	srv := openjurytest.NewServer(t, openjurytest.WithDSN(dsn), openjurytest.WithConfig(func(c *openjurytest.ServerConfig) {
		c.ReadCacheTTL = server.Defaults().ReadCacheTTL
	}))
	took, cpuTook := time.Since(start), cpuTime()-cpu
	// The host binary's heap floor for the garbage collector, from the
	// end of the start as the host has it.
	defer gcfloor.Start(uint64(server.Defaults().GCHeapFloorMB) << 20)()
	fmt.Printf("warmreplica: url=%s start-s=%.2f start-cpu-s=%.2f start-RSS-MiB=%.1f start-peak-RSS-MiB=%.1f\n",
		srv.URL, took.Seconds(), cpuTook.Seconds(), float64(rssKiB())/1024, float64(peakRSSKiB())/1024)
	_, _ = io.Copy(io.Discard, os.Stdin)
	if path := os.Getenv("SEARCH_WARM_HEAP_PROFILE"); path != "" {
		f, err := os.Create(path)
		require.NoError(t, err)
		defer f.Close()
		require.NoError(t, pprof.WriteHeapProfile(f))
	}
}
