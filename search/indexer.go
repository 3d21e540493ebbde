package search

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/openjury/openjury"
)

// Pending is a document waiting to be (re)indexed: an outbox row written
// by the marketplace write that created, changed or deleted it. Gen grows
// with every new write of the same document.
type Pending struct {
	Kind Kind
	ID   string
	Gen  int64
}

// Entry is a stored index entry of one document: its quantised vector
// (no values when Deleted).
type Entry struct {
	Kind Kind
	ID   string
	// Seq is the entry's change sequence: every stored entry takes a new,
	// larger one, and entries become visible in Seq order.
	Seq     int64
	Deleted bool
	Model   string
	Vector  Vec8
}

// Store keeps the pending queue and the stored index entries (bunstore
// implements it). Every method takes ctx first; errors are Unavailable
// when the database cannot be reached, Internal otherwise.
type Store interface {
	// ClaimPending leases up to n pending documents whose lease has
	// expired (or never was taken) until now+lease, the oldest first (by
	// lease end, then by when they were last queued), so no other worker
	// takes them meanwhile; it returns them in no particular order. It is
	// safe to call from several processes at once.
	ClaimPending(ctx context.Context, now time.Time, lease time.Duration, n int) ([]Pending, error)
	// Sources reads the current state of the documents (one Source per
	// item, in order; Gone for a missing or deleted one).
	Sources(ctx context.Context, items []Pending) ([]Source, error)
	// SaveEntries stores entries in one transaction, each with a new
	// change sequence, and removes their pending rows; an entry whose
	// pending row has another Gen by now (the document changed while it
	// was embedded) is skipped and stays pending. It returns how many were
	// stored.
	SaveEntries(ctx context.Context, items []Pending, entries []Entry, now time.Time) (int, error)
	// RetryPending moves the leases of items to `at`, when they may be
	// claimed again.
	RetryPending(ctx context.Context, items []Pending, at time.Time) error
	// Changes returns up to limit stored entries with Seq > after, by Seq.
	Changes(ctx context.Context, after int64, limit int) ([]Entry, error)
	// PendingCount counts the pending documents.
	PendingCount(ctx context.Context) (int64, error)
	// RequeueOtherModels queues every stored, not deleted entry embedded
	// by another model than model, and returns how many it queued.
	RequeueOtherModels(ctx context.Context, model string, now time.Time) (int64, error)
}

// IndexerConfig tunes an Indexer. Zero values take the defaults.
type IndexerConfig struct {
	// Batch is how many documents one step embeds at most (default 64).
	Batch int
	// Lease is how long a claimed batch is reserved (default 1 minute).
	Lease time.Duration
	// Interval is the pause between polls of an empty queue (default
	// 250 ms).
	Interval time.Duration
	// MaxBackoff bounds the pause after failures, which doubles from
	// Interval (default 30 s).
	MaxBackoff time.Duration
}

func (c *IndexerConfig) defaults() {
	if c.Batch <= 0 {
		c.Batch = 64
	}
	if c.Lease <= 0 {
		c.Lease = time.Minute
	}
	if c.Interval <= 0 {
		c.Interval = 250 * time.Millisecond
	}
	if c.MaxBackoff <= 0 {
		c.MaxBackoff = 30 * time.Second
	}
}

// pendingCountEvery is how often Run counts the pending queue.
const pendingCountEvery = 5 * time.Second

// Indexer embeds pending documents and stores their entries. Several
// Indexers (one per replica) may run on one database.
type Indexer struct {
	store    Store
	embedder Embedder
	clock    openjury.Clock
	cfg      IndexerConfig
	rec      Recorder
	log      *slog.Logger
}

// NewIndexer returns an Indexer. rec and log may be nil.
func NewIndexer(store Store, embedder Embedder, clock openjury.Clock, cfg IndexerConfig, rec Recorder, log *slog.Logger) *Indexer {
	cfg.defaults()
	if rec == nil {
		rec = nopRecorder{}
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Indexer{store: store, embedder: embedder, clock: clock, cfg: cfg, rec: rec, log: log}
}

// Step claims one batch, embeds it and stores the entries. It returns how
// many documents it claimed (0: the queue had nothing to take). When the
// embedder fails the batch is retried after the lease.
func (w *Indexer) Step(ctx context.Context) (int, error) {
	const op = "search.Indexer.Step"
	now := w.clock.Now()
	items, err := w.store.ClaimPending(ctx, now, w.cfg.Lease, w.cfg.Batch)
	if err != nil || len(items) == 0 {
		return 0, openjury.Wrap(op, err)
	}
	sources, err := w.store.Sources(ctx, items)
	if err != nil {
		return len(items), openjury.Wrap(op, err)
	}
	entries := make([]Entry, len(items))
	var texts []string
	var at []int
	for i, s := range sources {
		entries[i] = Entry{Kind: s.Kind, ID: s.ID, Deleted: s.Gone, Model: w.embedder.Model()}
		if s.Gone {
			continue
		}
		texts = append(texts, s.Text())
		at = append(at, i)
	}
	if len(texts) > 0 {
		vecs, err := w.embedder.Embed(ctx, texts)
		if err == nil && len(vecs) != len(texts) {
			err = openjury.Errorf(openjury.Internal, op, "the embedder returned %d vectors for %d texts", len(vecs), len(texts))
		}
		if err != nil {
			w.rec.EmbedError()
			// The lease keeps the batch from other workers until then.
			if rerr := w.store.RetryPending(context.WithoutCancel(ctx), items, now.Add(w.cfg.Interval)); rerr != nil {
				w.log.Warn("search: releasing a failed batch", slog.String("error", rerr.Error()))
			}
			return len(items), openjury.Wrap(op, err)
		}
		for k, i := range at {
			entries[i].Vector = Quantize(vecs[k])
		}
	}
	saved, err := w.store.SaveEntries(ctx, items, entries, w.clock.Now())
	if err != nil {
		return len(items), openjury.Wrap(op, err)
	}
	w.rec.Indexed(saved)
	return len(items), nil
}

// Run requeues the entries of other models, then runs Step until ctx
// ends: at once again after a full batch, after Interval when the queue
// was empty, with a doubling pause (up to MaxBackoff) after failures.
func (w *Indexer) Run(ctx context.Context) {
	if n, err := w.store.RequeueOtherModels(ctx, w.embedder.Model(), w.clock.Now()); err != nil {
		w.log.Warn("search: requeueing entries of other models", slog.String("error", err.Error()))
	} else if n > 0 {
		w.log.Info("search: embedding again the entries of another model", slog.Int64("documents", n))
	}
	pause := w.cfg.Interval
	var counted time.Time
	for {
		n, err := w.Step(ctx)
		if ctx.Err() != nil {
			return
		}
		wait := w.cfg.Interval
		switch {
		case err != nil:
			w.log.Warn("search: indexing failed", slog.String("error", err.Error()), slog.Duration("retry_in", pause))
			wait = pause
			pause = min(2*pause, w.cfg.MaxBackoff)
		case n == w.cfg.Batch:
			wait = 0
			pause = w.cfg.Interval
		default:
			pause = w.cfg.Interval
		}
		// The queue length is counted for the metric at most every
		// pendingCountEvery (a count reads the whole queue).
		if now := w.clock.Now(); now.Sub(counted) >= pendingCountEvery {
			counted = now
			if c, err := w.store.PendingCount(ctx); err == nil {
				w.rec.Pending(c)
			}
		}
		if !sleep(ctx, wait) {
			return
		}
	}
}

// Follower keeps an Index equal to the stored entries of one model.
type Follower struct {
	// mu makes Sync safe for concurrent use (a test may sync while Run
	// does).
	mu    sync.Mutex
	store Store
	index *Index
	model string
	rec   Recorder
	log   *slog.Logger
	after int64
}

// NewFollower returns a Follower filling index with the stored entries of
// model (others are left out). rec and log may be nil.
func NewFollower(store Store, index *Index, model string, rec Recorder, log *slog.Logger) *Follower {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if rec == nil {
		rec = nopRecorder{}
	}
	return &Follower{store: store, index: index, model: model, rec: rec, log: log}
}

// followPage is how many entries one Changes call reads.
const followPage = 2000

// Sync applies every stored change after the last one applied, page by
// page.
func (f *Follower) Sync(ctx context.Context) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	for {
		entries, err := f.store.Changes(ctx, f.after, followPage)
		if err != nil {
			return openjury.Wrap("search.Follower.Sync", err)
		}
		var docs []Doc
		for _, e := range entries {
			if dim := f.index.Dim(); e.Deleted || e.Model != f.model || len(e.Vector.Values) == 0 || (dim != 0 && len(e.Vector.Values) != dim) {
				f.flush(&docs)
				f.index.Delete(e.Kind, e.ID)
				continue
			}
			docs = append(docs, Doc{Kind: e.Kind, ID: e.ID, Vector: e.Vector})
		}
		f.flush(&docs)
		if len(entries) > 0 {
			f.after = entries[len(entries)-1].Seq
		}
		if len(entries) < followPage {
			return nil
		}
	}
}

// flush upserts docs (checked by Sync) and empties the list.
func (f *Follower) flush(docs *[]Doc) {
	if len(*docs) == 0 {
		return
	}
	if err := f.index.Upsert(*docs...); err != nil {
		f.log.Warn("search: skipping stored entries", slog.String("error", err.Error()))
	}
	*docs = (*docs)[:0]
}

// Run calls Sync every interval until ctx ends (the first Sync at once).
func (f *Follower) Run(ctx context.Context, interval time.Duration) {
	for {
		if err := f.Sync(ctx); err != nil && ctx.Err() == nil {
			f.log.Warn("search: following the index failed", slog.String("error", err.Error()))
		}
		if !sleep(ctx, interval) {
			return
		}
	}
}

// sleep waits d or until ctx ends; it reports whether ctx is still live.
func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
