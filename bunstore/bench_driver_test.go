//go:build cgo && cgosqlite

package bunstore_test

import (
	"context"
	"database/sql"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	_ "modernc.org/sqlite" // "sqlite": the pure Go driver, beside mattn's "sqlite3"

	"github.com/openjury/openjury/bunstore"
)

// BenchmarkSQLiteDrivers compares the two SQLite drivers in one process:
// modernc.org/sqlite (pure Go, the default; the baseline) and
// mattn/go-sqlite3 (cgo, -tags "cgosqlite fts5"). Both run the production SQL of
// the get and list operations (captured from the store with a query hook)
// on the same seeded file, with the same pragmas, 4 goroutines at a time,
// interleaved like compare. Run: go test -tags "cgosqlite fts5" -run x -bench
// SQLiteDrivers ./bunstore/
func BenchmarkSQLiteDrivers(b *testing.B) {
	dsn := seeded(b, sqliteDSN(b))
	path := strings.TrimPrefix(dsn, "sqlite:")
	store := open(b, dsn, bunstore.WithoutMigrations())
	log := &queryLog{}
	bunstore.AddQueryHook(store, log)
	drivers := []struct {
		name string
		db   *sql.DB
	}{}
	for _, d := range []struct{ driver, dsn string }{
		{"sqlite", "file:" + path + "?_pragma=busy_timeout(10000)&_pragma=cache_size(-16384)&_pragma=query_only(1)"},
		{"sqlite3", "file:" + path + "?_busy_timeout=10000&_cache_size=-16384&_query_only=1"},
	} {
		db, err := sql.Open(d.driver, d.dsn)
		if err != nil {
			b.Fatal(err)
		}
		db.SetMaxOpenConns(2)
		b.Cleanup(func() { _ = db.Close() })
		name := map[string]string{"sqlite": "modernc", "sqlite3": "mattn-cgo"}[d.driver]
		drivers = append(drivers, struct {
			name string
			db   *sql.DB
		}{name, db})
	}
	// run reads every row of every query the store ran for op.
	run := func(db *sql.DB, queries []string) error {
		for _, q := range queries {
			rows, err := db.QueryContext(context.Background(), q)
			if err != nil {
				return err
			}
			cols, _ := rows.Columns()
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			for rows.Next() {
				if err := rows.Scan(ptrs...); err != nil {
					return err
				}
			}
			if err := rows.Close(); err != nil {
				return err
			}
		}
		return nil
	}
	for _, o := range benchOps {
		// A pool of captured query sets, so the texts vary like in use.
		r := rand.New(rand.NewPCG(1, 2))
		var sets [][]string
		for range 200 {
			log.take()
			if err := o.op(context.Background(), store, r); err != nil {
				b.Fatal(err)
			}
			sets = append(sets, log.take())
		}
		b.Run(o.name, func(b *testing.B) {
			const workers, batch = 4, 100
			total := make([]time.Duration, len(drivers))
			rounds := 0
			for b.Loop() {
				for k := range drivers {
					i := (k + rounds) % len(drivers)
					start := time.Now()
					var wg sync.WaitGroup
					for w := range workers {
						wg.Add(1)
						go func() {
							defer wg.Done()
							for j := range batch / workers {
								if err := run(drivers[i].db, sets[(w*batch+j+rounds)%len(sets)]); err != nil {
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
			for i, d := range drivers {
				b.ReportMetric(per(i), d.name+"-ns/op")
				b.ReportMetric(per(i)/per(0), d.name+"-x")
			}
		})
	}
}
