package bunstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// gatedFetch is a batcher's fetch that records each batch's keys and waits
// for a release before answering: key "k<n>" has the value n, key "none"
// no row, key "fail" fails its batch.
type gatedFetch struct {
	mu      sync.Mutex
	batches [][]string
	// started gets each batch's keys as it starts; release lets one
	// batch answer.
	started chan []string
	release chan struct{}
	// running and peak count batches in flight.
	running, peak atomic.Int32
}

func newGatedFetch() *gatedFetch {
	return &gatedFetch{started: make(chan []string, 100), release: make(chan struct{}, 100)}
}

func (g *gatedFetch) fetch(_ context.Context, keys []string) (map[string]int, error) {
	n := g.running.Add(1)
	defer g.running.Add(-1)
	for {
		p := g.peak.Load()
		if n <= p || g.peak.CompareAndSwap(p, n) {
			break
		}
	}
	g.mu.Lock()
	g.batches = append(g.batches, slices.Clone(keys))
	g.mu.Unlock()
	g.started <- keys
	<-g.release
	out := map[string]int{}
	for _, k := range keys {
		if k == "fail" {
			return nil, errors.New("batch failed")
		}
		var n int
		if _, err := fmt.Sscanf(k, "k%d", &n); err == nil {
			out[k] = n
		}
	}
	return out, nil
}

// answer is one get's result.
type answer struct {
	v   int
	ok  bool
	err error
}

// goGet runs b.get(ctx, key) in a goroutine and returns where its answer
// arrives.
func goGet(ctx context.Context, b *batcher[int], key string) <-chan answer {
	ch := make(chan answer, 1)
	go func() {
		v, ok, err := b.get(ctx, key)
		ch <- answer{v, ok, err}
	}()
	return ch
}

// waitWaiting waits until n lookups wait for the next batch.
func waitWaiting(t *testing.T, b *batcher[int], n int) {
	t.Helper()
	require.Eventually(t, func() bool {
		b.mu.Lock()
		defer b.mu.Unlock()
		return len(b.waiting) == n
	}, 5*time.Second, time.Millisecond)
}

// TestBatcherJoinsOnlyALaterBatch: a lone lookup runs at once; lookups
// that arrive while the batches in flight fill the limit wait and go
// together in the next batch, never in one that started before them (a
// read after a write sees it), and each gets its own key's answer.
func TestBatcherJoinsOnlyALaterBatch(t *testing.T) {
	t.Parallel()
	g := newGatedFetch()
	b := newBatcher(g.fetch, 1, 64)
	ctx := context.Background()

	first := goGet(ctx, b, "k1")
	require.Equal(t, []string{"k1"}, <-g.started, "a lone lookup runs at once")
	// These arrive while k1's batch runs: they wait for the next one.
	later := map[string]<-chan answer{}
	for _, k := range []string{"k2", "none", "k3", "k2"} {
		later[k+fmt.Sprint(len(later))] = goGet(ctx, b, k)
	}
	waitWaiting(t, b, 4)
	g.release <- struct{}{}
	require.Equal(t, answer{1, true, nil}, <-first)

	next := <-g.started
	require.ElementsMatch(t, []string{"k2", "none", "k3"}, next, "one batch, each key once")
	g.release <- struct{}{}
	for name, ch := range later {
		a := <-ch
		require.NoError(t, a.err, name)
		switch name[:2] {
		case "k2":
			require.Equal(t, answer{2, true, nil}, a, name)
		case "k3":
			require.Equal(t, answer{3, true, nil}, a, name)
		default:
			require.Equal(t, answer{0, false, nil}, a, "%s: no row is not an error", name)
		}
	}
	require.Len(t, g.batches, 2)
	require.Equal(t, int32(1), g.peak.Load())
}

// TestBatcherBounds: no more than limit batches run at once and no batch
// holds more than max keys, however many callers wait; every caller is
// answered.
func TestBatcherBounds(t *testing.T) {
	t.Parallel()
	g := newGatedFetch()
	b := newBatcher(g.fetch, 2, 5)
	ctx := context.Background()
	const callers = 40
	var answers []<-chan answer
	for i := range callers {
		answers = append(answers, goGet(ctx, b, fmt.Sprintf("k%d", i)))
	}
	done := make(chan struct{})
	go func() {
		for range 100 {
			select {
			case <-g.started:
				g.release <- struct{}{}
			case <-done:
				return
			}
		}
	}()
	for i, ch := range answers {
		require.Equal(t, answer{i, true, nil}, <-ch)
	}
	close(done)
	require.LessOrEqual(t, g.peak.Load(), int32(2), "at most limit batches in flight")
	keys := 0
	for _, batch := range g.batches {
		require.LessOrEqual(t, len(batch), 5, "at most max keys a batch")
		keys += len(batch)
	}
	require.Equal(t, callers, keys, "each key read once")
	b.mu.Lock()
	defer b.mu.Unlock()
	require.Zero(t, b.running, "nothing left in flight")
	require.Empty(t, b.waiting)
}

// TestBatcherFailureAndCancel: a failed batch fails each of its lookups
// and the batcher goes on; a caller whose context ends stops waiting while
// its batch runs to its end for the others.
func TestBatcherFailureAndCancel(t *testing.T) {
	t.Parallel()
	g := newGatedFetch()
	b := newBatcher(g.fetch, 1, 64)
	ctx := context.Background()

	first := goGet(ctx, b, "k1")
	<-g.started
	failing := goGet(ctx, b, "fail")
	sharing := goGet(ctx, b, "k4")
	cctx, cancel := context.WithCancel(ctx)
	leaving := goGet(cctx, b, "k5")
	waitWaiting(t, b, 3)
	cancel()
	require.ErrorIs(t, (<-leaving).err, context.Canceled, "a cancelled caller stops waiting")
	g.release <- struct{}{}
	require.Equal(t, answer{1, true, nil}, <-first)
	<-g.started
	g.release <- struct{}{}
	require.EqualError(t, (<-failing).err, "batch failed")
	require.EqualError(t, (<-sharing).err, "batch failed", "the batch's other lookups fail with it")

	after := goGet(ctx, b, "k6")
	<-g.started
	g.release <- struct{}{}
	require.Equal(t, answer{6, true, nil}, <-after, "the batcher goes on after a failure")
}

// TestBatcherLeaderCancelled: the caller that starts a batch may leave
// (its context cancelled) without ending the batch: the query runs on a
// context without its cancellation, and the others get their answers.
func TestBatcherLeaderCancelled(t *testing.T) {
	t.Parallel()
	var sawCancel atomic.Bool
	started, release := make(chan struct{}), make(chan struct{})
	b := newBatcher(func(ctx context.Context, keys []string) (map[string]int, error) {
		started <- struct{}{}
		<-release
		sawCancel.Store(ctx.Err() != nil)
		return map[string]int{keys[0]: 7}, nil
	}, 1, 64)
	ctx, cancel := context.WithCancel(context.Background())
	leader := goGet(ctx, b, "k7")
	<-started
	cancel()
	close(release)
	a := <-leader
	// The leader ran the batch itself, so it may see either its answer or
	// its cancellation; the query never saw the cancellation.
	if a.err != nil {
		require.ErrorIs(t, a.err, context.Canceled)
	} else {
		require.Equal(t, answer{7, true, nil}, a)
	}
	require.False(t, sawCancel.Load(), "the batch's query is not cancelled with its leader")
}

// TestBatcherPanic: a fetch that panics fails its batch's lookups with an
// error, in the caller's goroutine or a batch's own, and the batcher goes
// on.
func TestBatcherPanic(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	started, release := make(chan struct{}, 10), make(chan struct{}, 10)
	b := newBatcher(func(_ context.Context, keys []string) (map[string]int, error) {
		started <- struct{}{}
		<-release
		if calls.Add(1) <= 2 {
			panic("boom")
		}
		return map[string]int{keys[0]: 1}, nil
	}, 1, 64)
	ctx := context.Background()
	first := goGet(ctx, b, "k1")
	<-started
	second := goGet(ctx, b, "k2") // runs in the batch's own goroutine
	waitWaiting(t, b, 1)
	release <- struct{}{}
	require.ErrorContains(t, (<-first).err, "panicked: boom")
	<-started
	release <- struct{}{}
	require.ErrorContains(t, (<-second).err, "panicked: boom")
	third := goGet(ctx, b, "k3")
	<-started
	release <- struct{}{}
	require.Equal(t, answer{1, true, nil}, <-third)
}

// TestBatcherKeysTextCannotHold: a key that is not UTF-8 or holds a NUL
// has no row and runs no statement (in a batch it would fail the others).
func TestBatcherKeysTextCannotHold(t *testing.T) {
	t.Parallel()
	b := newBatcher(func(context.Context, []string) (map[string]int, error) {
		return nil, errors.New("no statement expected")
	}, 1, 64)
	for _, key := range []string{"\xff", "a\x00b", "\xc3"} {
		v, ok, err := b.get(context.Background(), key)
		require.NoError(t, err, "%q", key)
		require.False(t, ok, "%q", key)
		require.Zero(t, v)
	}
}
