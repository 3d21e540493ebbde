package openjurytest

import (
	"context"
	"testing"
)

// FlushEvents sequences the events written so far and turns them into
// webhook deliveries now, instead of waiting for the background loops,
// so a test reads the log (or the deliveries) at once.
func (s *Server) FlushEvents(tb testing.TB) {
	tb.Helper()
	ctx := context.Background()
	if err := s.Events.Flush(ctx); err != nil {
		tb.Fatalf("openjurytest: FlushEvents: sequence: %v", err)
	}
	s.EventHub.Poke()
	if err := s.Deliverer.FlushDispatch(ctx); err != nil {
		tb.Fatalf("openjurytest: FlushEvents: dispatch: %v", err)
	}
}
