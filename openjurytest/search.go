package openjurytest

import (
	"context"
	"testing"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/search"
	"github.com/openjury/openjury/transport"
)

// defaultSearchInterval is the poll interval of a test server's search
// indexer and follower.
const defaultSearchInterval = 20 * time.Millisecond

// startSearch builds the server's search service and runs its indexer and
// follower in the background until the test ends. Leases and latencies
// use the wall clock: they are machinery, not domain time.
func (s *Server) startSearch(tb testing.TB, cfg ServerConfig) {
	emb := cfg.Embedder
	if emb == nil {
		emb = search.NewLocal()
	}
	interval := cfg.SearchInterval
	if interval <= 0 {
		interval = defaultSearchInterval
	}
	rec := transport.SearchMetrics(s.Registry)
	index := search.NewIndex(0)
	wall := openjury.SystemClock{}
	s.Search = search.NewService(index, emb, wall, rec)
	s.SearchIndexer = search.NewIndexer(s.DB.SearchIndex(), emb, wall, search.IndexerConfig{Interval: interval, MaxBackoff: 4 * interval}, rec, cfg.Logger)
	s.SearchFollower = search.NewFollower(s.DB.SearchIndex(), index, emb.Model(), rec, cfg.Logger)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{}, 2)
	go func() { s.SearchIndexer.Run(ctx); done <- struct{}{} }()
	go func() { s.SearchFollower.Run(ctx, interval); done <- struct{}{} }()
	tb.Cleanup(func() { cancel(); <-done; <-done })
}

// FlushSearch waits until no document is pending (running indexer steps
// itself meanwhile) and the follower has applied every stored entry, so
// the server's search answers reflect every write made before the call.
// It fails the test after 10 s.
func (s *Server) FlushSearch(tb testing.TB) {
	tb.Helper()
	if s.SearchIndexer == nil {
		tb.Fatalf("openjurytest: FlushSearch: search is disabled")
	}
	ctx := context.Background()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := s.SearchIndexer.Step(ctx); err != nil {
			tb.Logf("openjurytest: FlushSearch: indexer step: %v", err)
		}
		n, err := s.DB.SearchIndex().PendingCount(ctx)
		if err != nil {
			tb.Fatalf("openjurytest: FlushSearch: %v", err)
		}
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			tb.Fatalf("openjurytest: FlushSearch: %d documents still pending after 10 s", n)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := s.SearchFollower.Sync(ctx); err != nil {
		tb.Fatalf("openjurytest: FlushSearch: follower: %v", err)
	}
}
