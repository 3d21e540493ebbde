package marketplace_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/openjurytest/pgtest"
)

// BenchmarkCreateJob measures one job insert (one transaction) on SQLite.
func BenchmarkCreateJob(b *testing.B) {
	db := openjurytest.NewDB(b)
	svc := marketplace.NewService(db, openjurytest.NewClock(), marketplace.Config{})
	in := marketplace.CreateJobInput{Title: "bench", Prompt: "bench prompt", Bounty: openjury.MicroPerUSDC, Tags: []string{"a", "b", "c"}}
	b.ResetTimer()
	for b.Loop() {
		if _, err := svc.CreateJob(context.Background(), sponsor, in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkListJobs measures a first page and a tag-filtered page over
// 2,000 jobs on SQLite.
func BenchmarkListJobs(b *testing.B) {
	db := openjurytest.NewDB(b)
	clk := openjurytest.NewClock()
	svc := marketplace.NewService(db, clk, marketplace.Config{})
	for i := range 2000 {
		clk.Advance(time.Second)
		in := marketplace.CreateJobInput{Title: fmt.Sprint("job ", i), Prompt: "p", Bounty: 1, Tags: []string{fmt.Sprint("t", i%20)}}
		if _, err := svc.CreateJob(context.Background(), sponsor, in); err != nil {
			b.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name string
		in   marketplace.ListJobsInput
	}{
		{"first-page-50", marketplace.ListJobsInput{}},
		{"tag-50", marketplace.ListJobsInput{Tag: "t7"}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				page, err := svc.ListJobs(context.Background(), tc.in)
				if err != nil || len(page.Jobs) != 50 {
					b.Fatalf("%v %d", err, len(page.Jobs))
				}
			}
		})
	}
}

// BenchmarkSubmitParallel measures submissions from 32 x GOMAXPROCS agents
// at once, on SQLite (one writer, group commit) and on PostgreSQL (row
// locks, one connection per transaction): the domain and the database
// without HTTP.
func BenchmarkSubmitParallel(b *testing.B) {
	for _, be := range []struct {
		name string
		open func(tb testing.TB) *bunstore.DB
	}{
		{"sqlite", openjurytest.NewDB},
		{"postgres", func(tb testing.TB) *bunstore.DB { return openjurytest.OpenDB(tb, pgtest.NewDatabase(tb)) }},
	} {
		b.Run(be.name, func(b *testing.B) { benchSubmit(b, be.open(b)) })
	}
}

// benchSubmit is BenchmarkSubmitParallel on db: 2,000 jobs, each agent
// submitting to them in turn.
func benchSubmit(b *testing.B, db *bunstore.DB) {
	clk := openjurytest.NewClock()
	svc := marketplace.NewService(db, clk, marketplace.Config{})
	const jobs = 2000
	ids := make([]string, jobs)
	for i := range jobs {
		j, err := svc.CreateJob(context.Background(), sponsor, marketplace.CreateJobInput{Title: fmt.Sprint("job ", i), Prompt: "p", Bounty: 1, Tags: []string{"t"}})
		if err != nil {
			b.Fatal(err)
		}
		ids[i] = j.ID
	}
	var agent atomic.Int64
	b.SetParallelism(32)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		a := openjury.AddressFromBytes([20]byte{19: byte(agent.Add(1)), 18: 7})
		k := 0
		for pb.Next() {
			in := marketplace.SubmitInput{JobID: ids[k%jobs], Content: "work", Evidence: []marketplace.EvidenceInput{{Type: "url", SourceURL: "https://example.com/x", Quote: "q"}}}
			k++
			if _, err := svc.Submit(context.Background(), a, in); err != nil {
				b.Fatal(err)
			}
		}
	})
}
