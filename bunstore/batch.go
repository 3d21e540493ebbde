package bunstore

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// coalescer runs the calls of concurrent callers in batches, one statement a
// batch: while batches are in flight, the calls that arrive wait and go
// together in the next one. A lone call runs at once, as a batch of one,
// so it waits for nothing; under load, one round trip and one statement
// serve many requests. On PostgreSQL a statement's fixed cost (the round
// trip's two system calls on the host, the protocol and executor start on
// the server) was most of a job read's CPU, and concurrent writing
// statements on a small machine cost each other more than the writes
// themselves (BENCHMARKS.md, "Batched reads on PostgreSQL" and "Batched
// submissions on PostgreSQL").
//
// A call joins only a batch that starts after it arrived, so a read after
// a committed write sees it (read-your-writes), as a statement of its own
// would.
type coalescer[I, O any] struct {
	// run answers a batch: out[i] is the answer to in[i].
	run func(ctx context.Context, in []I) ([]O, error)
	// limit is the most batches in flight, max the most calls in one.
	limit, max int

	// calls counts the calls that went in a batch, batches the batches.
	calls, batches atomic.Int64

	mu sync.Mutex
	// waiting are the calls for the next batch; running counts the
	// batches in flight.
	waiting []*call[I, O]
	running int
}

// batchTimeout bounds a batch's statement: it runs without its callers'
// cancellation (it answers them all), so a database that stops answering
// fails the batch's calls after this long instead of holding a slot
// forever while new calls queue behind it.
const batchTimeout = 30 * time.Second

// call is one caller's input and, once its batch ran, its answer.
type call[I, O any] struct {
	in   I
	out  O
	err  error
	done chan struct{}
}

// do returns the answer to in. ctx bounds the caller's wait; a batch it
// starts runs to its end for the others.
func (g *coalescer[I, O]) do(ctx context.Context, in I) (O, error) {
	g.calls.Add(1)
	c := &call[I, O]{in: in, done: make(chan struct{})}
	g.mu.Lock()
	g.waiting = append(g.waiting, c)
	var batch []*call[I, O]
	if g.running < g.limit {
		g.running++
		batch = g.take()
	}
	g.mu.Unlock()
	if batch != nil {
		g.runBatch(context.WithoutCancel(ctx), batch)
	}
	select {
	case <-c.done:
		return c.out, c.err
	case <-ctx.Done():
		var zero O
		return zero, ctx.Err()
	}
}

// take removes the next batch from waiting (g.mu held).
func (g *coalescer[I, O]) take() []*call[I, O] {
	n := min(len(g.waiting), g.max)
	batch := g.waiting[:n:n]
	g.waiting = g.waiting[n:]
	if len(g.waiting) == 0 {
		g.waiting = nil
	}
	return batch
}

// runSafe runs in within batchTimeout; a panic in it, or an answer of the
// wrong length, fails the batch (its calls get an error) instead of
// leaving them waiting, or ending the process from a batch's own
// goroutine.
func (g *coalescer[I, O]) runSafe(ctx context.Context, in []I) (out []O, err error) {
	ctx, cancel := context.WithTimeout(ctx, batchTimeout)
	defer cancel()
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("bunstore: batch panicked: %v", r)
		}
	}()
	out, err = g.run(ctx, in)
	if err == nil && len(out) != len(in) {
		return nil, fmt.Errorf("bunstore: a batch of %d answered %d", len(in), len(out))
	}
	return out, err
}

// runBatch runs batch, answers its calls and, while calls wait, runs the
// next batch in a goroutine of its own (the caller has its answer). ctx
// carries no cancellation (see do).
func (g *coalescer[I, O]) runBatch(ctx context.Context, batch []*call[I, O]) {
	in := make([]I, len(batch))
	for i, c := range batch {
		in[i] = c.in
	}
	g.batches.Add(1)
	out, err := g.runSafe(ctx, in)
	for i, c := range batch {
		if err != nil {
			c.err = err
		} else {
			c.out = out[i]
		}
		close(c.done)
	}
	g.mu.Lock()
	var next []*call[I, O]
	if len(g.waiting) > 0 {
		next = g.take()
	} else {
		g.running--
	}
	g.mu.Unlock()
	if next != nil {
		go g.runBatch(ctx, next)
	}
}

// counts returns g's calls and batches; zero for a nil g.
func (g *coalescer[I, O]) counts() (calls, batches int64) {
	if g == nil {
		return 0, 0
	}
	return g.calls.Load(), g.batches.Load()
}

// batcher reads rows by key for concurrent callers, coalescing their
// lookups: each batch reads its distinct keys in one statement
// (`id = ANY(...)`).
type batcher[V any] struct {
	coalescer[string, found[V]]
	// fetch reads the rows of keys (distinct), by key; a key without a
	// row is missing from the map.
	fetch func(ctx context.Context, keys []string) (map[string]V, error)
}

// found is a lookup's answer: the row and whether there is one.
type found[V any] struct {
	v  V
	ok bool
}

// newBatcher returns a batcher of fetch with at most limit batches in
// flight and max lookups in one.
func newBatcher[V any](fetch func(ctx context.Context, keys []string) (map[string]V, error), limit, max int) *batcher[V] {
	b := &batcher[V]{fetch: fetch}
	b.coalescer = coalescer[string, found[V]]{run: b.lookup, limit: limit, max: max}
	return b
}

// lookup answers a batch of keys with one fetch of the distinct ones.
func (b *batcher[V]) lookup(ctx context.Context, in []string) ([]found[V], error) {
	keys := make([]string, 0, len(in))
	seen := make(map[string]struct{}, len(in))
	for _, k := range in {
		if _, ok := seen[k]; !ok {
			seen[k] = struct{}{}
			keys = append(keys, k)
		}
	}
	rows, err := b.fetch(ctx, keys)
	if err != nil {
		return nil, err
	}
	out := make([]found[V], len(in))
	for i, k := range in {
		out[i].v, out[i].ok = rows[k]
	}
	return out, nil
}

// get returns the row of key, false when there is none. ctx bounds the
// caller's wait; a batch it starts runs to its end for the others.
//
// A key PostgreSQL's text cannot hold (not UTF-8, or with a NUL) has no
// row, and is answered without a statement: in a batch it would fail the
// statement for every other lookup in it.
func (b *batcher[V]) get(ctx context.Context, key string) (V, bool, error) {
	if !utf8.ValidString(key) || strings.IndexByte(key, 0) >= 0 {
		var zero V
		return zero, false, nil
	}
	f, err := b.do(ctx, key)
	return f.v, f.ok, err
}

// counts returns b's lookups and batches; zero for a nil b.
func (b *batcher[V]) counts() (reads, statements int64) {
	if b == nil {
		return 0, 0
	}
	return b.coalescer.counts()
}

// BatchedReads reports the reads this DB ran in batches since it opened
// (on PostgreSQL: a job by id outside a transaction, a bearer token's
// owner) and the statements that ran them; both 0 on SQLite, which reads
// each on its own. reads / statements is the mean batch.
func (d *DB) BatchedReads() (reads, statements int64) {
	jr, js := d.jobs.counts()
	tr, ts := d.tokens.counts()
	return jr + tr, js + ts
}

// BatchedSubmits reports the submissions this DB wrote in batches since
// it opened (on PostgreSQL, outside a transaction), the batches that
// wrote them and, of those submissions, the ones written by a statement
// of their own because their job was held by another transaction or
// their batch's statement failed (submitBatch); all 0 on SQLite, whose
// one writer takes them in turn.
func (d *DB) BatchedSubmits() (submits, batches, alone int64) {
	submits, batches = d.submits.counts()
	return submits, batches, d.submitsAlone.Load()
}
