package search_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/openjurytest/pgtest"
	"github.com/openjury/openjury/search"
)

// benchSentences is the pool the search benchmark writes its documents
// from: every sentence of the quality topics and the background
// templates, so words are as frequent as in a realistic marketplace
// (common ones such as "review" or "contract" match thousands of
// documents at 100,000).
func benchSentences() (titles, sentences []string) {
	for _, tp := range qualityTopics {
		titles = append(titles, tp.title)
		for _, text := range append(append([]string{tp.prompt, tp.postBody}, tp.submissions...), tp.comments...) {
			for _, s := range strings.SplitAfter(text, ". ") {
				if s = strings.TrimSpace(s); s != "" {
					sentences = append(sentences, s)
				}
			}
		}
	}
	for i, subject := range backgroundSubjects {
		titles = append(titles, fmt.Sprintf(bgJobs[i%len(bgJobs)], subject))
		sentences = append(sentences,
			fmt.Sprintf(bgPrompts[i%len(bgPrompts)], 500, subject, bgAudiences[i%len(bgAudiences)], bgAspects[i%len(bgAspects)]),
			fmt.Sprintf(bgSubs[i%len(bgSubs)], 400, subject, bgAspects[(i+1)%len(bgAspects)]),
			fmt.Sprintf(bgComments[i%len(bgComments)], subject, bgAspects[(i+2)%len(bgAspects)]))
	}
	return titles, sentences
}

// fillSearch stores n documents of 2 to 5 sentences (jobs and posts with
// a title) in search_text, as the indexer's lexical step would, and their Local
// vectors in a new index.
func fillSearch(b *testing.B, db *bunstore.DB, n int) *search.Index {
	b.Helper()
	ctx := context.Background()
	titles, sentences := benchSentences()
	rng := rand.New(rand.NewPCG(9, 9))
	local := search.NewLocal()
	x := search.NewIndex(search.LocalDim)
	const batch = 250
	docs := make([]search.Doc, 0, batch)
	// Rows go in transactions of 20,000 (the full-text index flushes once
	// each, not once a statement).
	tx, err := db.Bun().BeginTx(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	for start := 0; start < n; start += batch {
		if start > 0 && start%20_000 == 0 {
			if err := tx.Commit(); err != nil {
				b.Fatal(err)
			}
			if tx, err = db.Bun().BeginTx(ctx, nil); err != nil {
				b.Fatal(err)
			}
		}
		var sql strings.Builder
		sql.WriteString("INSERT INTO search_text (kind, doc_id, job_id, title, body, extra) VALUES ")
		args := make([]any, 0, 6*batch)
		docs = docs[:0]
		for i := start; i < min(n, start+batch); i++ {
			if i > start {
				sql.WriteString(", ")
			}
			sql.WriteString("(?, ?, ?, ?, ?, '')")
			kind := search.Kinds[i%4]
			id := openjury.NewID()
			title := ""
			if kind.HasTitle() {
				title = titles[rng.IntN(len(titles))]
			}
			parts := make([]string, 2+rng.IntN(4))
			for k := range parts {
				parts[k] = sentences[rng.IntN(len(sentences))]
			}
			body := strings.Join(parts, " ")
			var job any
			if kind != search.KindPost {
				job = id
			}
			args = append(args, string(kind), id, job, title, body)
			docs = append(docs, search.Doc{Kind: kind, ID: id, Vector: search.Quantize(local.Vector(title + "\n" + body))})
		}
		if _, err := tx.NewRaw(sql.String(), args...).Exec(ctx); err != nil {
			b.Fatal(err)
		}
		if err := x.Upsert(docs...); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	if db.Dialect() == bunstore.DialectPostgres {
		if _, err := db.Bun().ExecContext(ctx, "ANALYZE search_text"); err != nil {
			b.Fatal(err)
		}
	}
	return x
}

// BenchmarkSearch measures whole queries as the API runs them (hybrid
// ranking: the database's lexical ranking of the best 200, the Local
// embedding and vector scan, fusion, the page's documents read back and
// highlighted; limit 20) over 100,000 documents (SEARCH_BENCH_DOCS
// changes it), on SQLite and on PostgreSQL, cycling through the labelled
// queries of the quality test. It reports p50 and p99 latency and CPU
// time per query (the machine is shared: wall time includes waiting for
// a CPU; on PostgreSQL the server's CPU is not counted), and the process's
// Go heap and RSS once the documents are stored and their vectors loaded
// (the index, the Go runtime and, on SQLite, its page cache); and the
// latency of the second pages of those queries (read from the cursor).
// Run: go test -run '^$' -bench BenchmarkSearch -benchtime 400x -timeout 30m ./search/
// At 1,000,000 documents, one engine at a time: SEARCH_BENCH_DOCS=1000000 go test -run '^$'
// -bench 'BenchmarkSearch/sqlite' -benchtime 100x -timeout 90m ./search/ (then postgres).
func BenchmarkSearch(b *testing.B) {
	n := 100_000
	if v, err := strconv.Atoi(os.Getenv("SEARCH_BENCH_DOCS")); err == nil && v > 0 {
		n = v
	}
	backends := []struct {
		name string
		dsn  func(testing.TB) string
	}{{"sqlite", func(testing.TB) string { return "" }}, {"postgres", pgtest.NewDatabase}}
	for _, be := range backends {
		b.Run(fmt.Sprintf("%s/docs=%d", be.name, n), func(b *testing.B) {
			var db *bunstore.DB
			if dsn := be.dsn(b); dsn != "" {
				db = openjurytest.OpenDB(b, dsn)
			} else {
				db = openjurytest.NewDB(b)
			}
			x := fillSearch(b, db, n)
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			rss := rssKiB()
			svc := search.NewService(x, search.NewLocal(), db.SearchTexts(), openjury.SystemClock{}, nil, search.Config{})
			var ds []time.Duration
			var next []search.Request
			i, results := 0, 0
			cpu := cpuTime()
			for b.Loop() {
				start := time.Now()
				req := search.Request{Q: qualityQueries[i%len(qualityQueries)].q, Limit: search.DefaultLimit}
				res, err := svc.Search(context.Background(), req)
				if err != nil {
					b.Fatal(err)
				}
				ds = append(ds, time.Since(start))
				results += len(res.Results)
				if res.NextCursor != "" {
					req.Cursor = res.NextCursor
					next = append(next, req)
				}
				i++
			}
			reportCPU(b, cpu, i)
			reportLatency(b, ds)
			// The second pages, from the first pages' cursors (after the
			// timed loop: they read their documents and rank nothing).
			ds = ds[:0]
			for _, req := range next {
				start := time.Now()
				if _, err := svc.Search(context.Background(), req); err != nil {
					b.Fatal(err)
				}
				ds = append(ds, time.Since(start))
			}
			if len(ds) > 0 {
				slices.Sort(ds)
				b.ReportMetric(float64(ds[len(ds)/2])/float64(time.Millisecond), "page2-p50-ms")
				b.ReportMetric(float64(ds[(len(ds)-1)*99/100])/float64(time.Millisecond), "page2-p99-ms")
			}
			b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "heap-MiB")
			if rss > 0 {
				b.ReportMetric(float64(rss)/1024, "RSS-MiB")
			}
			b.ReportMetric(float64(results)/float64(i), "results/op")
		})
	}
}
