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

// batcher reads rows by key for concurrent callers as one statement per
// batch: while batches are in flight, the lookups that arrive wait and go
// together in the next one. A lone lookup runs at once, as a batch of one,
// so it waits for nothing; under load, one round trip and one statement
// (`id = ANY(...)`) serve many requests. On PostgreSQL a statement's fixed
// cost (the round trip's two system calls on the host, the protocol and
// executor start on the server) was most of a job read's CPU
// (BENCHMARKS.md, "Batched reads on PostgreSQL").
//
// A lookup joins only a batch that starts after it arrived, so a read
// after a committed write sees it (read-your-writes), as a statement of
// its own would.
type batcher[V any] struct {
	// fetch reads the rows of keys (distinct), by key; a key without a
	// row is missing from the map.
	fetch func(ctx context.Context, keys []string) (map[string]V, error)
	// limit is the most batches in flight, max the most keys in one.
	limit, max int

	// reads counts the lookups that went in a batch, statements the
	// batches (BatchedReads).
	reads, statements atomic.Int64

	mu sync.Mutex
	// waiting are the lookups for the next batch; running counts the
	// batches in flight.
	waiting []*lookup[V]
	running int
}

// batchTimeout bounds a batch's statement: it runs without its callers'
// cancellation (it answers them all), so a database that stops answering
// fails the batch's lookups after this long instead of holding a slot
// forever while new lookups queue behind it.
const batchTimeout = 30 * time.Second

// lookup is one caller's key and, once its batch ran, its answer.
type lookup[V any] struct {
	key  string
	v    V
	ok   bool
	err  error
	done chan struct{}
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
	b.reads.Add(1)
	l := &lookup[V]{key: key, done: make(chan struct{})}
	b.mu.Lock()
	b.waiting = append(b.waiting, l)
	var batch []*lookup[V]
	if b.running < b.limit {
		b.running++
		batch = b.take()
	}
	b.mu.Unlock()
	if batch != nil {
		b.run(context.WithoutCancel(ctx), batch)
	}
	select {
	case <-l.done:
		return l.v, l.ok, l.err
	case <-ctx.Done():
		var zero V
		return zero, false, ctx.Err()
	}
}

// take removes the next batch from waiting (b.mu held).
func (b *batcher[V]) take() []*lookup[V] {
	n := min(len(b.waiting), b.max)
	batch := b.waiting[:n:n]
	b.waiting = b.waiting[n:]
	if len(b.waiting) == 0 {
		b.waiting = nil
	}
	return batch
}

// fetchSafe runs fetch within batchTimeout; a panic in it fails the
// batch (its lookups get an error) instead of leaving them waiting, or
// ending the process from a batch's own goroutine.
func (b *batcher[V]) fetchSafe(ctx context.Context, keys []string) (rows map[string]V, err error) {
	ctx, cancel := context.WithTimeout(ctx, batchTimeout)
	defer cancel()
	defer func() {
		if r := recover(); r != nil {
			rows, err = nil, fmt.Errorf("bunstore: batched read panicked: %v", r)
		}
	}()
	return b.fetch(ctx, keys)
}

// run reads batch, answers its lookups and, while lookups wait, runs the
// next batch in a goroutine of its own (the caller has its answer). ctx
// carries no cancellation (see get).
func (b *batcher[V]) run(ctx context.Context, batch []*lookup[V]) {
	keys := make([]string, 0, len(batch))
	seen := make(map[string]struct{}, len(batch))
	for _, l := range batch {
		if _, ok := seen[l.key]; !ok {
			seen[l.key] = struct{}{}
			keys = append(keys, l.key)
		}
	}
	b.statements.Add(1)
	rows, err := b.fetchSafe(ctx, keys)
	for _, l := range batch {
		if err != nil {
			l.err = err
		} else {
			l.v, l.ok = rows[l.key]
		}
		close(l.done)
	}
	b.mu.Lock()
	var next []*lookup[V]
	if len(b.waiting) > 0 {
		next = b.take()
	} else {
		b.running--
	}
	b.mu.Unlock()
	if next != nil {
		go b.run(ctx, next)
	}
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

// counts returns b's reads and statements; zero for a nil b.
func (b *batcher[V]) counts() (reads, statements int64) {
	if b == nil {
		return 0, 0
	}
	return b.reads.Load(), b.statements.Load()
}
