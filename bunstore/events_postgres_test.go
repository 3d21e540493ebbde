package bunstore_test

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/uptrace/bun"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/openjurytest/dbtest"
)

// seqActor is the actor of the events of the sequencer tests: each event
// has two keys, its actor's and its tag's.
const seqActor = openjury.Address("0x00000000000000000000000000000000000000a1")

// appendNumbered appends events numbered from..to-1 (Data "i").
func appendNumbered(t *testing.T, db *bunstore.DB, from, to int) {
	t.Helper()
	for i := from; i < to; i++ {
		require.NoError(t, db.Events().Append(context.Background(), &events.Event{Type: events.PostCreated,
			CreatedAt: rerunAt, Actor: seqActor, Tags: []string{"seq"}, Data: events.Data{"i": i}}))
	}
}

// requireLogOnce requires the log to hold the events numbered 0..n-1 once
// each, at seqs 1..n, with their two keys each, and the outbox empty.
func requireLogOnce(t *testing.T, db *bunstore.DB, n int) {
	t.Helper()
	ctx := context.Background()
	horizon, head, err := db.EventLog().Bounds(ctx)
	require.NoError(t, err)
	require.Equal(t, [2]int64{0, int64(n)}, [2]int64{horizon, head})
	evs, err := db.EventLog().Read(ctx, events.Filter{}, 0, head, n+10)
	require.NoError(t, err)
	require.Len(t, evs, n)
	seen := map[string]bool{}
	for i, ev := range evs {
		require.Equal(t, int64(i+1), ev.Seq)
		k := ev.Data["i"].(interface{ String() string }).String()
		require.False(t, seen[k], "event %s sequenced twice", k)
		seen[k] = true
	}
	var keys, outbox int
	require.NoError(t, db.Bun().NewRaw("SELECT count(*) FROM event_keys").Scan(ctx, &keys))
	require.NoError(t, db.Bun().NewRaw("SELECT count(*) FROM event_outbox").Scan(ctx, &outbox))
	require.Equal(t, [2]int{2 * n, 0}, [2]int{keys, outbox}, "keys, outbox rows")
	byActor, err := db.EventLog().Read(ctx, events.Filter{Address: seqActor}, 0, head, n+10)
	require.NoError(t, err)
	require.Len(t, byActor, n)
}

// passBetween runs another sequencer pass right after the target's read
// of the outbox, once.
type passBetween struct {
	db    *bunstore.DB
	fired atomic.Bool
	moved int
	err   error
}

func (p *passBetween) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context { return ctx }

func (p *passBetween) AfterQuery(ctx context.Context, e *bun.QueryEvent) {
	// The read of the events (not Waiting's SELECT EXISTS before it).
	read := strings.HasPrefix(e.Query, "SELECT ") && !strings.HasPrefix(e.Query, "SELECT EXISTS") &&
		strings.Contains(e.Query, `FROM "event_outbox"`)
	if ctx.Value(targetKey{}) == nil || !read || !p.fired.CompareAndSwap(false, true) {
		return
	}
	p.moved, p.err = p.db.EventLog().Sequence(context.Background(), rerunAt, 100)
}

// TestSequencePostgresMovedMeanwhile: on PostgreSQL a pass reads the
// outbox before it takes the turn; when another pass moves those events
// in between, it moves none (no event is logged twice) and the next pass
// finds nothing left.
func TestSequencePostgresMovedMeanwhile(t *testing.T) {
	t.Parallel()
	db := open(t, dbtest.Postgres(t))
	appendNumbered(t, db, 0, 3)
	between := &passBetween{db: db}
	bunstore.AddQueryHook(db, between)
	moved, err := db.EventLog().Sequence(context.WithValue(context.Background(), targetKey{}, true), rerunAt, 100)
	require.NoError(t, err)
	require.NoError(t, between.err)
	require.True(t, between.fired.Load(), "the other pass never ran")
	require.Equal(t, [2]int{0, 3}, [2]int{moved, between.moved}, "moved by the target, by the pass between")
	again, err := db.EventLog().Sequence(context.Background(), rerunAt, 100)
	require.NoError(t, err)
	require.Zero(t, again)
	requireLogOnce(t, db, 3)
}

// TestSequencePostgresRacingPasses: several passes at once (as from
// several replicas) while writers append: every event is logged once, at
// dense seqs in one order, with its keys.
func TestSequencePostgresRacingPasses(t *testing.T) {
	t.Parallel()
	db := open(t, dbtest.Postgres(t))
	const writers, each, passes = 3, 40, 4
	var wg sync.WaitGroup
	var writing atomic.Int32
	writing.Store(writers)
	for w := range writers {
		wg.Go(func() {
			defer writing.Add(-1)
			appendNumbered(t, db, w*each, (w+1)*each)
		})
	}
	var moved atomic.Int64
	for range passes {
		wg.Go(func() {
			for {
				done := writing.Load() == 0
				n, err := db.EventLog().Sequence(context.Background(), rerunAt, 7)
				if !assertNoError(t, err) {
					return
				}
				moved.Add(int64(n))
				if done && n == 0 {
					return
				}
			}
		})
	}
	wg.Wait()
	for {
		n, err := db.EventLog().Sequence(context.Background(), rerunAt, 100)
		require.NoError(t, err)
		if n == 0 {
			break
		}
		moved.Add(int64(n))
	}
	require.Equal(t, int64(writers*each), moved.Load())
	requireLogOnce(t, db, writers*each)
}

// assertNoError reports err from a goroutine other than the test's.
func assertNoError(t *testing.T, err error) bool {
	t.Helper()
	if err != nil {
		t.Errorf("unexpected error: %v", err)
		return false
	}
	return true
}
