package bunstore_test

import (
	"context"
	"testing"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/openjurytest/dbtest"
)

// BenchmarkSequence moves events from the outbox to the log, 256 a pass
// (the sequencer's batch): each op is one event of a submission's shape
// (an actor, a subject and three tags: five index keys). The outbox is
// filled outside the timer. Run it with -benchmem to see allocations per
// event.
func BenchmarkSequence(b *testing.B) {
	for _, engine := range []struct {
		name string
		dsn  func(testing.TB) string
	}{{"sqlite", dbtest.SQLite}, {"postgres", dbtest.Postgres}} {
		b.Run(engine.name, func(b *testing.B) {
			db := open(b, engine.dsn(b))
			ctx := context.Background()
			const batch = 256
			ev := func(i int) *events.Event {
				return &events.Event{Type: events.SubmissionCreated, CreatedAt: rerunAt,
					Actor:    openjury.Address("0x00000000000000000000000000000000000000a1"),
					Subjects: []openjury.Address{"0x00000000000000000000000000000000000000b2"},
					Tags:     []string{"alpha", "beta", "gamma"}, Data: events.Data{"submission_id": i}}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for done := 0; done < b.N; {
				n := min(batch, b.N-done)
				b.StopTimer()
				evs := make([]*events.Event, n)
				for i := range evs {
					evs[i] = ev(done + i)
				}
				if err := db.Events().Append(ctx, evs...); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				moved, err := db.EventLog().Sequence(ctx, rerunAt, batch)
				if err != nil || moved != n {
					b.Fatalf("moved %d of %d: %v", moved, n, err)
				}
				done += n
			}
		})
	}
}
