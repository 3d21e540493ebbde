package bunstore_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest/pgtest"
)

// The storage benchmarks read a database seeded like the plan test
// (-bench.rows rows per table, planRows by default): a job by id and a tag-filtered job page from a
// cursor, each call with other arguments, so every query text is new (bun
// inlines arguments). The variants of one benchmark run interleaved, a
// batch of each per round in a rotating order, so a machine shared with
// other work slows them alike; each reports its time per operation
// (<variant>-ns/op) and its ratio to the first variant, the baseline
// (<variant>-x). The figures are in BENCHMARKS.md ("Storage choices").

// benchRows is how many rows per table the storage benchmarks seed.
var benchRows = flag.Int("bench.rows", planRows, "rows per table of the bunstore storage benchmarks")

// benchGet reads a random job by id.
func benchGet(ctx context.Context, db *bunstore.DB, r *rand.Rand) error {
	_, err := db.Jobs().Job(ctx, fmt.Sprint("j", 100001+r.IntN(*benchRows)))
	return err
}

// benchList reads 20 jobs with a tag from a random cursor.
func benchList(ctx context.Context, db *bunstore.DB, r *rand.Rand) error {
	i := 100 + r.IntN(*benchRows-100)
	_, err := db.Jobs().ListJobs(ctx, marketplace.JobFilter{
		Tag: fmt.Sprint("tag", r.IntN(10)), Ref: planRef, Limit: 20,
		After: &marketplace.JobCursor{CreatedAt: planAt(i), ID: fmt.Sprint("j", 100000+i)},
	})
	return err
}

var benchOps = []struct {
	name string
	op   func(ctx context.Context, db *bunstore.DB, r *rand.Rand) error
}{{"get", benchGet}, {"list", benchList}}

// withParam adds a query parameter to a DSN.
func withParam(dsn, kv string) string {
	if strings.Contains(dsn, "?") {
		return dsn + "&" + kv
	}
	return dsn + "?" + kv
}

// seeded returns the DSN of a database seeded by seedPlan (and closed).
func seeded(b *testing.B, dsn string) string {
	db := open(b, dsn)
	seedRows(b, db, *benchRows)
	if err := db.Close(); err != nil {
		b.Fatal(err)
	}
	return dsn
}

// benchVariant is one database opened one way.
type benchVariant struct {
	name string
	db   *bunstore.DB
}

// compare runs op on every variant, batch operations per variant and
// round from workers goroutines, and reports per variant the mean time per
// operation and its ratio to variants[0].
func compare(b *testing.B, variants []benchVariant, workers, batch int, op func(ctx context.Context, db *bunstore.DB, r *rand.Rand) error) {
	total := make([]time.Duration, len(variants))
	rounds := 0
	for b.Loop() {
		for k := range variants {
			i := (k + rounds) % len(variants)
			start := time.Now()
			var wg sync.WaitGroup
			for w := range workers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					r := rand.New(rand.NewPCG(uint64(rounds), uint64(w)))
					for range batch / workers {
						if err := op(context.Background(), variants[i].db, r); err != nil {
							b.Error(err)
							return
						}
					}
				}()
			}
			wg.Wait()
			total[i] += time.Since(start)
		}
		rounds++
	}
	per := func(i int) float64 { return float64(total[i].Nanoseconds()) / float64(rounds*batch) }
	for i, v := range variants {
		b.ReportMetric(per(i), v.name+"-ns/op")
		b.ReportMetric(per(i)/per(0), v.name+"-x")
	}
}

// BenchmarkPostgresExecMode compares pgx's query exec modes, one query at
// a time: cache_statement (pgx's default and the baseline: a prepare
// round trip for every new text), exec (one round trip, unnamed
// statement) and simple_protocol.
func BenchmarkPostgresExecMode(b *testing.B) {
	base := seeded(b, pgtest.NewDatabase(b))
	var variants []benchVariant
	for _, mode := range []string{"cache_statement", "exec", "simple_protocol"} {
		db := open(b, withParam(base, "default_query_exec_mode="+mode), bunstore.WithoutMigrations(), bunstore.WithMaxConns(2))
		variants = append(variants, benchVariant{mode, db})
	}
	for _, o := range benchOps {
		b.Run(o.name, func(b *testing.B) { compare(b, variants, 1, 50, o.op) })
	}
}

// BenchmarkSQLiteReads compares, for parallel reads (4 goroutines) on a
// SQLite file through the reader pool, SQLite's default page cache (2 MB:
// the baseline), bunstore's (sqliteCacheSize), and bunstore's with a
// 256 MiB mmap_size (modernc.org/sqlite only). Run it with -tags "cgosqlite fts5"
// for mattn/go-sqlite3 (cgo) instead of modernc.org/sqlite.
func BenchmarkSQLiteReads(b *testing.B) {
	dsn := seeded(b, sqliteDSN(b))
	variants := []benchVariant{
		{"sqlite-defaults", open(b, withParam(dsn, "_pragma=cache_size(-2000)&_cache_size=-2000"), bunstore.WithoutMigrations())},
		{"bunstore", open(b, dsn, bunstore.WithoutMigrations())},
		{"mmap-256MiB", open(b, withParam(dsn, "_pragma=mmap_size(268435456)"), bunstore.WithoutMigrations())},
	}
	for _, o := range benchOps {
		b.Run(o.name, func(b *testing.B) { compare(b, variants, 4, 100, o.op) })
	}
}

// BenchmarkSQLiteReaders compares reader pool sizes (1, the baseline, 2,
// 4 and 8 connections) under 8 goroutines reading at once, with
// bunstore's pragmas.
func BenchmarkSQLiteReaders(b *testing.B) {
	dsn := seeded(b, sqliteDSN(b))
	var variants []benchVariant
	for _, n := range []int{1, 2, 4, 8} {
		db := open(b, dsn, bunstore.WithoutMigrations())
		db.SQLDBs()[bunstore.PoolReader].SetMaxOpenConns(n)
		variants = append(variants, benchVariant{fmt.Sprint("readers=", n), db})
	}
	for _, o := range benchOps {
		b.Run(o.name, func(b *testing.B) { compare(b, variants, 8, 160, o.op) })
	}
}
