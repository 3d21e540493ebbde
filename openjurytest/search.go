package openjurytest

import (
	"context"
	"testing"
	"time"
)

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
