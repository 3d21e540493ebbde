package events_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest"
)

var alice = openjury.MustAddress("0x3333333333333333333333333333333333333333")

// hubWorld is a log on SQLite with a running hub whose ring holds ring
// events and whose frames are the events' ids.
type hubWorld struct {
	db interface {
		InTx(context.Context, func(context.Context, marketplace.Tx) error) error
	}
	svc   *events.Service
	hub   *events.Hub
	clock *openjurytest.Clock
	n     int
	// rendered counts the hub's renderings of an event (Frame).
	rendered atomic.Int64
}

func newHubWorld(t *testing.T, ring, maxSubs int) *hubWorld {
	t.Helper()
	db := openjurytest.NewDB(t)
	clock := openjurytest.NewClock()
	svc := events.NewService(db.EventLog(), clock, events.Config{ScanWindow: 7, Retention: time.Hour})
	w := &hubWorld{db: db, svc: svc, clock: clock}
	w.hub = events.NewHub(svc, events.HubConfig{Frame: func(e *events.Event) []byte { w.rendered.Add(1); return []byte(e.ID()) },
		Poll: 5 * time.Millisecond, Ring: ring, Batch: -1, MaxSubscribers: maxSubs})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { w.hub.Run(ctx); close(done) }()
	t.Cleanup(func() { w.hub.Stop(); cancel(); <-done })
	return w
}

// caughtUp waits until the hub has read up to the log's head.
func (w *hubWorld) caughtUp(t *testing.T) {
	t.Helper()
	require.Eventually(t, func() bool { _, head, _ := w.svc.Bounds(context.Background()); return w.hub.Head() == head }, 5*time.Second, time.Millisecond)
}

// write appends n events (posts, every third a stake change) and
// sequences them; it returns the ids of the posts.
func (w *hubWorld) write(t *testing.T, n int) []string {
	t.Helper()
	var posts []string
	for range n {
		w.n++
		typ := events.PostCreated
		if w.n%3 == 0 {
			typ = events.StakeChanged
		}
		require.NoError(t, w.db.InTx(context.Background(), func(ctx context.Context, tx marketplace.Tx) error {
			return tx.Events().Append(ctx, &events.Event{Type: typ, CreatedAt: w.clock.Now(), Actor: alice})
		}))
		require.NoError(t, w.svc.Flush(context.Background()))
		if typ == events.PostCreated {
			_, head, err := w.svc.Bounds(context.Background())
			require.NoError(t, err)
			posts = append(posts, events.FormatID(head))
		}
	}
	w.hub.Poke()
	return posts
}

// collect reads sub until it has want frames.
func collect(t *testing.T, sub *events.Subscription, want int) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var got []string
	for len(got) < want {
		frames, err := sub.Next(ctx, 50*time.Millisecond, 5)
		require.NoError(t, err, "after %d of %d: %v", len(got), want, got)
		require.LessOrEqual(t, len(frames), 5)
		for _, f := range frames {
			got = append(got, string(f))
		}
	}
	return got
}

// TestHubCatchUpAcrossTheRing: a subscriber that resumes far behind the
// hub's memory (a ring of 4) reads the log itself, through filtered
// windows smaller than the gap, then joins the ring; while more events
// arrive, it gets each selected event once, in order; a live subscriber
// gets only new events.
func TestHubCatchUpAcrossTheRing(t *testing.T) {
	t.Parallel()
	w := newHubWorld(t, 4, 0)
	posts := w.write(t, 40)
	w.caughtUp(t)

	ctx := context.Background()
	live, err := w.hub.Subscribe(ctx, events.Filter{Types: []events.Type{events.PostCreated}}, -1)
	require.NoError(t, err)
	defer live.Close()
	back, err := w.hub.Subscribe(ctx, events.Filter{Types: []events.Type{events.PostCreated}}, 0)
	require.NoError(t, err)
	defer back.Close()
	require.Equal(t, int64(2), w.hub.Subscribers())

	// 30 more events, 20 of them posts, come while it reads.
	var more []string
	var wg sync.WaitGroup
	wg.Go(func() { more = w.write(t, 30) })
	got := collect(t, back, len(posts)+20)
	wg.Wait()
	require.Len(t, more, 20)
	require.Equal(t, append(append([]string{}, posts...), more...), got)
	require.Equal(t, more, collect(t, live, len(more)), "a live subscriber starts at the head")

	frames, err := back.Next(ctx, 20*time.Millisecond, 5)
	require.NoError(t, err)
	require.Empty(t, frames, "nothing more: the wait ends empty (a heartbeat)")
}

// TestHubIdleReadsNothing: a hub nobody subscribes to follows the log's
// head without reading or rendering its events; a subscriber that comes
// later from an older position still gets every event, in order, from
// the log, and then the live ones through the ring.
func TestHubIdleReadsNothing(t *testing.T) {
	t.Parallel()
	w := newHubWorld(t, 100, 0)
	posts := w.write(t, 12)
	w.caughtUp(t)
	require.Zero(t, w.rendered.Load(), "no subscriber: nothing read into the ring")

	ctx := context.Background()
	back, err := w.hub.Subscribe(ctx, events.Filter{Types: []events.Type{events.PostCreated}}, 0)
	require.NoError(t, err)
	defer back.Close()
	require.Equal(t, posts, collect(t, back, len(posts)), "caught up from the log")
	more := w.write(t, 6)
	w.caughtUp(t)
	require.Equal(t, more, collect(t, back, len(more)), "then live")
	require.Positive(t, w.rendered.Load())
}

// TestHubGoneAndLimits: a subscription whose next events retention
// deleted ends with Gone; subscriptions past MaxSubscribers are refused;
// Stop ends every Next.
func TestHubGoneAndLimits(t *testing.T) {
	t.Parallel()
	w := newHubWorld(t, 2, 2)
	w.write(t, 10)
	ctx := context.Background()
	old, err := w.hub.Subscribe(ctx, events.Filter{}, 0)
	require.NoError(t, err)
	second, err := w.hub.Subscribe(ctx, events.Filter{}, -1)
	require.NoError(t, err)
	_, err = w.hub.Subscribe(ctx, events.Filter{}, -1)
	require.Equal(t, openjury.Unavailable, openjury.KindOf(err))
	require.Equal(t, events.ErrTooManySubscribers, openjury.DetailOf(err))
	second.Close()
	second.Close() // twice is fine
	third, err := w.hub.Subscribe(ctx, events.Filter{}, -1)
	require.NoError(t, err, "a closed subscription frees its place")

	w.clock.Advance(2 * time.Hour)
	w.write(t, 10) // the hub's ring moves past the old subscription
	n, err := w.svc.Cleanup(ctx)
	require.NoError(t, err)
	require.EqualValues(t, 10, n)
	_, err = old.Next(ctx, time.Second, 5)
	require.Equal(t, openjury.Gone, openjury.KindOf(err), "%v", err)

	third.Close()
	fresh, err := w.hub.Subscribe(ctx, events.Filter{}, -1) // at the head: nothing to read
	require.NoError(t, err)
	stopped := make(chan error, 1)
	go func() {
		_, err := fresh.Next(ctx, time.Minute, 5)
		stopped <- err
	}()
	w.hub.Stop()
	require.ErrorIs(t, <-stopped, events.ErrHubStopped)
}
