package search_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/openjurytest/dbtest"
	"github.com/openjury/openjury/openjurytest/pgtest"
	"github.com/openjury/openjury/search"
)

// benchQueries are typical queries (a few words each).
var benchQueries = []string{
	"reentrant withdraw in the bridge contract",
	"postgres connection pooling benchmark",
	"translate the onboarding guide",
	"zero knowledge proof primer",
	"irrigation robot",
	"sign in with ethereum wallet nonce",
	"gas optimisation of the staking vault",
	"summarise the governance proposal",
}

// fillIndex fills an index with n documents of random unit vectors
// (query cost does not depend on the values) with realistic ids, titles
// and snippets.
func fillIndex(tb testing.TB, n int) *search.Index {
	tb.Helper()
	rng := rand.New(rand.NewPCG(7, 11))
	x := search.NewIndex(search.LocalDim)
	const chunk = 4096
	docs := make([]search.Doc, 0, chunk)
	for i := 0; i < n; i++ {
		v := make([]float32, search.LocalDim)
		for d := range v {
			v[d] = float32(rng.NormFloat64())
		}
		docs = append(docs, search.Doc{Kind: search.Kinds[i%4], ID: openjury.NewID(), Vector: search.Quantize(v)})
		if len(docs) == chunk || i == n-1 {
			if err := x.Upsert(docs...); err != nil {
				tb.Fatal(err)
			}
			docs = docs[:0]
		}
	}
	return x
}

// cpuTime is the CPU time the process used so far (user and system, all
// threads). The machine is shared: wall-clock figures include waiting for
// a CPU, so the benchmarks report CPU time per operation too.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time per operation since start in ms.
func reportCPU(b *testing.B, start time.Duration, ops int) {
	b.ReportMetric(float64(cpuTime()-start)/float64(time.Millisecond)/float64(ops), "cpu-ms/op")
}

// reportLatency reports the p50 and p99 of the durations in ms.
func reportLatency(b *testing.B, d []time.Duration) {
	slices.Sort(d)
	p := func(q float64) float64 { return float64(d[int(q*float64(len(d)-1))]) / float64(time.Millisecond) }
	b.ReportMetric(p(0.50), "p50-ms")
	b.ReportMetric(p(0.99), "p99-ms")
}

// BenchmarkVectorQuery measures the vector half of a query: embedding it
// with the Local embedder and scanning the index for the top
// search.MaxResults, and the scan alone with a dense query vector (a
// remote embedder's), at 100,000 and 1,000,000 documents.
// Run: go test -run '^$' -bench BenchmarkVectorQuery -benchtime 200x ./search/
func BenchmarkVectorQuery(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		if n > 100_000 && os.Getenv("SEARCH_BENCH_1M") == "" {
			continue
		}
		x := fillIndex(b, n)
		local := search.NewLocal()
		b.Run(fmt.Sprintf("local/docs=%d", n), func(b *testing.B) {
			var ds []time.Duration
			i := 0
			cpu := cpuTime()
			for b.Loop() {
				start := time.Now()
				_ = x.Query(local.Vector(benchQueries[i%len(benchQueries)]), "", search.MaxResults)
				ds = append(ds, time.Since(start))
				i++
			}
			reportCPU(b, cpu, i)
			reportLatency(b, ds)
		})
		b.Run(fmt.Sprintf("dense/docs=%d", n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(3, 5))
			q := make([]float32, search.LocalDim)
			var ds []time.Duration
			cpu := cpuTime()
			for b.Loop() {
				for d := range q {
					q[d] = float32(rng.NormFloat64())
				}
				start := time.Now()
				_ = x.Query(q, "", search.MaxResults)
				ds = append(ds, time.Since(start))
			}
			reportCPU(b, cpu, len(ds))
			reportLatency(b, ds)
		})
	}
}

// benchSizes are the index sizes of the memory benchmarks: 100,000
// documents, and 1,000,000 with SEARCH_BENCH_1M=1.
func benchSizes() []int {
	if os.Getenv("SEARCH_BENCH_1M") != "" {
		return []int{100_000, 1_000_000}
	}
	return []int{100_000}
}

// BenchmarkIndexMemory reports the bytes per indexed document (the Go
// heap and the blocks kept outside it) and, on Linux, the process's peak
// RSS while the documents are loaded (the peak is reset first, so the
// figure is the index plus the Go runtime and the test binary).
// Run: SEARCH_BENCH_1M=1 go test -run '^$' -bench BenchmarkIndexMemory -benchtime 1x ./search/
func BenchmarkIndexMemory(b *testing.B) {
	for _, n := range benchSizes() {
		b.Run(fmt.Sprintf("docs=%d", n), func(b *testing.B) {
			for b.Loop() {
				runtime.GC()
				debug.FreeOSMemory()
				resetPeakRSS()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				rss0 := rssKiB()
				x := fillIndex(b, n)
				runtime.GC()
				runtime.ReadMemStats(&after)
				b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(n), "heap-bytes/doc")
				if kb := rssKiB(); kb > 0 {
					b.ReportMetric(float64(kb-rss0)*1024/float64(n), "rss-bytes/doc")
				}
				if kb := peakRSSKiB(); kb > 0 {
					b.ReportMetric(float64(kb)/1024, "peak-RSS-MiB")
				}
				runtime.KeepAlive(x)
			}
		})
	}
}

// resetPeakRSS resets VmHWM (Linux; ignored elsewhere).
func resetPeakRSS() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// peakRSSKiB reads VmHWM from /proc/self/status (0 when unknown).
func peakRSSKiB() int64 { return procStatus("VmHWM:") }

// rssKiB reads VmRSS from /proc/self/status (0 when unknown).
func rssKiB() int64 { return procStatus("VmRSS:") }

// procStatus reads a field of /proc/self/status in kB (0 when unknown).
func procStatus(field string) int64 { return procStatusOf("self", field) }

// procStatusOf reads a field of the status of process pid ("self": this
// one) in kB (0 when unknown).
func procStatusOf(pid, field string) int64 {
	raw, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, field); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb
		}
	}
	return 0
}

// benchDoc is a synthetic document of about 80 words.
func benchDoc(rng *rand.Rand) string {
	words := make([]string, 80)
	for i := range words {
		words[i] = fmt.Sprintf("w%dx%d", rng.IntN(5000), rng.IntN(7))
	}
	return strings.Join(words, " ")
}

// BenchmarkLocalEmbed measures the Local embedder's throughput on
// documents of about 80 words (500 characters).
// Run: go test -run '^$' -bench BenchmarkLocalEmbed ./search/
func BenchmarkLocalEmbed(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	docs := make([]string, 1000)
	for i := range docs {
		docs[i] = benchDoc(rng)
	}
	l := search.NewLocal()
	i := 0
	cpu := cpuTime()
	for b.Loop() {
		_ = l.Vector(docs[i%len(docs)])
		i++
	}
	b.ReportMetric(float64(i)/b.Elapsed().Seconds(), "docs/s")
	b.ReportMetric(float64(i)/(cpuTime()-cpu).Seconds(), "docs/cpu-s")
}

// BenchmarkIndexingPipeline measures the whole indexing path on SQLite:
// claim a batch, read the documents, embed them with the Local embedder,
// store the vectors; 5,000 pending jobs per run.
// Run: go test -run '^$' -bench BenchmarkIndexingPipeline -benchtime 1x ./search/
func BenchmarkIndexingPipeline(b *testing.B) {
	const n = 5000
	rng := rand.New(rand.NewPCG(2, 2))
	for b.Loop() {
		b.StopTimer()
		db := openjurytest.NewDB(b)
		m := marketplace.NewService(db, openjurytest.NewClock(), marketplace.Config{})
		sponsor := openjurytest.NewWallet(b).Address()
		for range n {
			if _, err := m.CreateJob(context.Background(), sponsor, marketplace.CreateJobInput{Title: "Job", Prompt: benchDoc(rng)}); err != nil {
				b.Fatal(err)
			}
		}
		w := search.NewIndexer(db.SearchIndex(), search.NewLocal(), openjury.SystemClock{}, search.IndexerConfig{Batch: 128}, nil, nil)
		b.StartTimer()
		start, cpu := time.Now(), cpuTime()
		total := 0
		for {
			k, err := w.Step(context.Background())
			if err != nil {
				b.Fatal(err)
			}
			if k == 0 {
				break
			}
			total += k
		}
		b.ReportMetric(float64(total)/time.Since(start).Seconds(), "docs/s")
		b.ReportMetric(float64(total)/(cpuTime()-cpu).Seconds(), "docs/cpu-s")
	}
}

// BenchmarkIndexTexts measures the indexer's lexical step alone on each
// engine: 5,000 pending jobs per run, indexed into the full-text index in
// batches of the default size (docs/cpu-s is its CPU cost per document,
// which the writes no longer pay).
// Run: go test -run '^$' -bench BenchmarkIndexTexts -benchtime 1x ./search/
func BenchmarkIndexTexts(b *testing.B) {
	const n = 5000
	for _, engine := range []struct {
		name string
		open func(b *testing.B) *bunstore.DB
	}{
		{"sqlite", func(b *testing.B) *bunstore.DB { return openjurytest.NewDB(b) }},
		{"postgres", func(b *testing.B) *bunstore.DB { return openjurytest.OpenDB(b, pgtest.NewDatabase(b)) }},
	} {
		b.Run(engine.name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(3, 3))
			for b.Loop() {
				b.StopTimer()
				db := engine.open(b)
				m := marketplace.NewService(db, openjurytest.NewClock(), marketplace.Config{})
				sponsor := openjurytest.NewWallet(b).Address()
				for range n {
					if _, err := m.CreateJob(context.Background(), sponsor, marketplace.CreateJobInput{Title: "Job", Prompt: benchDoc(rng)}); err != nil {
						b.Fatal(err)
					}
				}
				w := search.NewIndexer(db.SearchIndex(), search.NewLocal(), openjury.SystemClock{}, search.IndexerConfig{}, nil, nil)
				b.StartTimer()
				start, cpu := time.Now(), cpuTime()
				total := 0
				for {
					k, err := w.IndexTexts(context.Background())
					if err != nil {
						b.Fatal(err)
					}
					if k == 0 {
						break
					}
					total += k
				}
				if total != n {
					b.Fatalf("indexed %d documents", total)
				}
				b.ReportMetric(float64(total)/time.Since(start).Seconds(), "docs/s")
				b.ReportMetric(float64(total)/(cpuTime()-cpu).Seconds(), "docs/cpu-s")
			}
		})
	}
}

// BenchmarkHostLoad measures what a replica does at start with stored
// documents on SQLite (100,000; 1,000,000 with SEARCH_BENCH_1M=1): the
// follower reads every stored entry page by page and fills the index. The
// load runs in a fresh process (this test binary, TestHostLoadProcess),
// as a replica's start does, so its figures are the replica's own: the
// load time, the peak RSS of the whole process from its start (VmHWM: the
// Go runtime, the database's caches and the index) and the RSS once
// loaded, and the index's bytes per document.
// Run: SEARCH_BENCH_1M=1 go test -run '^$' -bench BenchmarkHostLoad -benchtime 1x -timeout 30m ./search/
func BenchmarkHostLoad(b *testing.B) {
	for _, n := range benchSizes() {
		b.Run(fmt.Sprintf("docs=%d", n), func(b *testing.B) {
			dsn := dbtest.SQLite(b)
			db := openjurytest.OpenDB(b, dsn)
			rng := rand.New(rand.NewPCG(5, 5))
			const batch = 500
			model := search.NewLocal().Model()
			for start := 0; start < n; start += batch {
				var sql strings.Builder
				sql.WriteString("INSERT INTO search_documents (kind, doc_id, seq, deleted, model, vec, updated_at) VALUES ")
				args := make([]any, 0, 5*batch)
				vec := make([]float32, search.LocalDim)
				for i := start; i < start+batch; i++ {
					if i > start {
						sql.WriteString(", ")
					}
					sql.WriteString("(?, ?, ?, 0, ?, ?, 0)")
					for d := range vec {
						vec[d] = float32(rng.NormFloat64())
					}
					args = append(args, string(search.Kinds[i%4]), openjury.NewID(), i+1, model, search.Quantize(vec).Encode())
				}
				if _, err := db.Bun().NewRaw(sql.String(), args...).Exec(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
			// The replica opens the database the writer closed (its WAL
			// checkpointed).
			if err := db.Close(); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				cmd := exec.Command(os.Args[0], "-test.run=^TestHostLoadProcess$", "-test.v", "-test.count=1")
				cmd.Env = append(os.Environ(), "SEARCH_HOST_LOAD_DSN="+dsn, "SEARCH_HOST_LOAD_DOCS="+strconv.Itoa(n))
				out, err := cmd.CombinedOutput()
				if err != nil {
					b.Fatalf("%v\n%s", err, out)
				}
				_, figures, ok := strings.Cut(string(out), "hostload:")
				if !ok {
					b.Fatalf("no figures in\n%s", out)
				}
				for _, f := range strings.Fields(strings.SplitN(figures, "\n", 2)[0]) {
					name, v, _ := strings.Cut(f, "=")
					x, err := strconv.ParseFloat(v, 64)
					if err != nil {
						b.Fatalf("figure %q: %v", f, err)
					}
					b.ReportMetric(x, name)
				}
			}
		})
	}
}

// TestHostLoadProcess is BenchmarkHostLoad's replica: run by the
// benchmark in a process of its own (skipped otherwise), it loads the
// stored entries of SEARCH_HOST_LOAD_DSN into a new index as a replica's
// start does, checks it holds SEARCH_HOST_LOAD_DOCS documents and prints
// its figures.
func TestHostLoadProcess(t *testing.T) {
	dsn := os.Getenv("SEARCH_HOST_LOAD_DSN")
	if dsn == "" {
		t.Skip("run by BenchmarkHostLoad")
	}
	want, err := strconv.Atoi(os.Getenv("SEARCH_HOST_LOAD_DOCS"))
	require.NoError(t, err)
	db := openjurytest.OpenDB(t, dsn)
	index := search.NewIndex(search.LocalDim)
	f := search.NewFollower(db.SearchIndex(), index, search.NewLocal().Model(), nil, nil)
	before := rssKiB()
	start, cpu := time.Now(), cpuTime()
	require.NoError(t, f.Sync(context.Background()))
	took, cpuTook := time.Since(start), cpuTime()-cpu
	require.Equal(t, want, index.Len())
	peak := peakRSSKiB()
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Printf("hostload: go-MiB=%.1f ", float64(ms.Sys-ms.HeapReleased)/(1<<20))
	fmt.Printf(" load-s=%.2f load-cpu-s=%.2f peak-RSS-MiB=%.1f RSS-MiB=%.1f anon-MiB=%.1f file-MiB=%.1f before-MiB=%.1f index-bytes/doc=%.1f\n",
		took.Seconds(), cpuTook.Seconds(), float64(peak)/1024, float64(rssKiB())/1024, float64(procStatus("RssAnon:"))/1024, float64(procStatus("RssFile:"))/1024, float64(before)/1024, float64(index.Bytes())/float64(want))
	runtime.KeepAlive(index)
}
