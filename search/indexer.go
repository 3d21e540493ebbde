package search

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/internal/wait"
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

// EmbedFunc returns the index entries of leased or held documents from
// their sources (Store.IndexInline): one per item, in order.
type EmbedFunc func(ctx context.Context, items []Pending, sources []Source) ([]Entry, error)

// Store keeps the pending queue and the stored index entries (bunstore
// implements it). Every method takes ctx first; errors are Unavailable
// when the database cannot be reached, Internal otherwise.
type Store interface {
	// IndexTexts is the lexical step (docs/rules.md#search): in one
	// transaction of its own, it takes up to n pending documents whose
	// text is not indexed at their current Gen yet, the oldest first,
	// stores their current text in the lexical index (Texts) or removes a
	// gone document from it, and marks them done at that Gen; a document
	// queued again meanwhile is done again by a later call. It returns how
	// many documents it indexed. It is safe to call from several processes
	// at once: a document another call is indexing is left to it.
	IndexTexts(ctx context.Context, n int) (int, error)
	// IndexTextsLeased is IndexTexts that also leases the documents it
	// indexed until now+lease, as ClaimPending does, and returns them
	// with their sources in the same order (Gone for a document that is
	// missing or deleted): the caller embeds them and stores their entries
	// (SaveEntries) without claiming or reading them again.
	IndexTextsLeased(ctx context.Context, n int, now time.Time, lease time.Duration) ([]Pending, []Source, error)
	// IndexInline is the lexical step and the vector step of up to n
	// pending documents together, for an embedder in the process
	// (IndexerConfig.Inline): it takes the documents IndexTexts would,
	// calls embed with them and their sources (Gone for a missing or
	// deleted one) outside any transaction, and stores their text and the
	// entries embed returns as IndexTexts and SaveEntries do, removing
	// them from the queue; a document written again meanwhile stays
	// queued. When embed fails, the documents' text is still stored and
	// their vector step waits until now+pause; the error is returned. It
	// returns how many documents it took (on SQLite: whose queue rows it
	// removed or marked; another worker may have taken some it read) and
	// how many entries it stored. Where the store keeps documents from
	// other workers by a lease while embed runs, the lease is lease long.
	IndexInline(ctx context.Context, n int, now time.Time, lease, pause time.Duration, embed EmbedFunc) (taken, saved int, err error)
	// ClaimPending leases up to n pending documents whose lexical step is
	// done at their current Gen and whose lease has expired (or never was
	// taken) until now+lease, the oldest first (by lease end, then by when
	// they were last queued), so no other worker takes them meanwhile; it
	// returns them in no particular order. It is safe to call from several
	// processes at once.
	ClaimPending(ctx context.Context, now time.Time, lease time.Duration, n int) ([]Pending, error)
	// Sources reads the current state of the documents (one Source per
	// item, in order; Gone for a missing or deleted one).
	Sources(ctx context.Context, items []Pending) ([]Source, error)
	// SaveEntries stores entries in one transaction, each with a new
	// change sequence, and removes their pending rows; an entry whose
	// pending row has another Gen by now (the document changed while it
	// was embedded) or whose lexical step is not done is skipped and stays
	// pending. It returns how many were stored.
	SaveEntries(ctx context.Context, items []Pending, entries []Entry, now time.Time) (int, error)
	// RetryPending moves the leases of items to `at`, when they may be
	// claimed again.
	RetryPending(ctx context.Context, items []Pending, at time.Time) error
	// Changes returns up to limit stored entries with Seq > after, by Seq.
	Changes(ctx context.Context, after int64, limit int) ([]Entry, error)
	// ScanChanges calls fn with each of the entries Changes would return,
	// in order, as it reads them, and returns how many it read; an error
	// of fn stops the scan and is returned. The entry and its vector's
	// values are the store's reading buffers, valid only during the call
	// (fn copies what it keeps), and fn must not call the store. It is how
	// a replica loads its index without a copy of every entry.
	ScanChanges(ctx context.Context, after int64, limit int, fn func(*Entry) error) (int, error)
	// PendingCount counts the pending documents.
	PendingCount(ctx context.Context) (int64, error)
	// RequeueOtherModels queues every stored, not deleted entry embedded
	// by another model than model for the vector step only (its text is
	// indexed already), and returns how many it queued.
	RequeueOtherModels(ctx context.Context, model string, now time.Time) (int64, error)
}

// IndexerConfig tunes an Indexer. Zero values take the defaults.
type IndexerConfig struct {
	// Batch is how many documents one step embeds at most (default 64).
	Batch int
	// TextBatch is how many documents one lexical step indexes at most
	// (default 256): one transaction, and one full-text index flush, for
	// all of them.
	TextBatch int
	// Lease is how long a claimed batch is reserved (default 1 minute).
	Lease time.Duration
	// Interval is the pause between polls of an empty queue (default
	// 250 ms).
	Interval time.Duration
	// MaxBackoff bounds the pause after failures, which doubles from
	// Interval (default 30 s).
	MaxBackoff time.Duration
	// Inline makes the lexical step embed and store the documents it
	// takes at once (Store.IndexInline): one read of each document, no
	// claim, and on SQLite one write for both steps. It is for an
	// embedder in the process (Local), which neither waits on a network
	// nor fails; the vector step still runs for what is left (another
	// model's entries, a batch whose embedding or save failed, once its
	// lease ends).
	Inline bool
}

func (c *IndexerConfig) defaults() {
	if c.Batch <= 0 {
		c.Batch = 64
	}
	if c.TextBatch <= 0 {
		c.TextBatch = 256
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

// Indexer indexes pending documents in two steps: the lexical step
// stores their text in the database's full-text index, the vector step
// then embeds them and stores their entries. The lexical step never waits
// on the embedder, its failures or its backoff, so a document is found by
// its words while the embedder is down (docs/rules.md#search). Several
// Indexers (one per replica) may run on one database.
type Indexer struct {
	store    Store
	embedder Embedder
	clock    openjury.Clock
	cfg      IndexerConfig
	rec      Recorder
	log      *slog.Logger
	// texted wakes Run's vector loop when the lexical loop has indexed
	// documents (capacity 1: a wake-up is never lost, never queued twice).
	texted chan struct{}
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
	return &Indexer{store: store, embedder: embedder, clock: clock, cfg: cfg, rec: rec, log: log, texted: make(chan struct{}, 1)}
}

// Step runs the lexical step on one batch, then claims one batch for the
// vector step, embeds it and stores the entries. It returns how many
// documents it took for the vector step (0: the queue had nothing to
// take): with Inline, those the lexical step leased and stored too. When
// the embedder fails the batch is retried after the pause; the lexical
// step's work is kept.
func (w *Indexer) Step(ctx context.Context) (int, error) {
	taken, err := w.lexicalStep(ctx)
	if !w.cfg.Inline {
		taken = 0 // indexed lexically only, not taken
	}
	if err != nil {
		return taken, err
	}
	n, err := w.embedStep(ctx)
	return taken + n, err
}

// lexicalStep is the lexical loop's step: IndexTexts, or inlineStep when
// the configuration says Inline.
func (w *Indexer) lexicalStep(ctx context.Context) (int, error) {
	if w.cfg.Inline {
		return w.inlineStep(ctx)
	}
	return w.IndexTexts(ctx)
}

// IndexTexts runs the lexical step on one batch (Store.IndexTexts) and
// returns how many documents it indexed.
func (w *Indexer) IndexTexts(ctx context.Context) (int, error) {
	n, err := w.store.IndexTexts(ctx, w.cfg.TextBatch)
	return n, openjury.Wrap("search.Indexer.IndexTexts", err)
}

// inlineStep is the lexical step with the vector step of the same
// documents (IndexerConfig.Inline, Store.IndexInline). It returns how
// many documents it indexed lexically.
func (w *Indexer) inlineStep(ctx context.Context) (int, error) {
	const op = "search.Indexer.IndexTexts"
	now := w.clock.Now()
	failed := false
	taken, saved, err := w.store.IndexInline(ctx, w.cfg.TextBatch, now, w.cfg.Lease, w.cfg.Interval, func(ctx context.Context, items []Pending, sources []Source) ([]Entry, error) {
		entries, err := w.embed(ctx, op, sources)
		failed = err != nil
		return entries, err
	})
	if failed {
		w.rec.EmbedError()
	}
	if err != nil {
		return taken, openjury.Wrap(op, err)
	}
	w.rec.Indexed(saved)
	return taken, nil
}

// embedStep is the vector step of Step.
func (w *Indexer) embedStep(ctx context.Context) (int, error) {
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
	return len(items), w.embedSave(ctx, op, now, items, sources)
}

// embedSave embeds the sources of leased items and stores their entries;
// when the embedder fails, the items' leases move to now+Interval.
func (w *Indexer) embedSave(ctx context.Context, op string, now time.Time, items []Pending, sources []Source) error {
	entries, err := w.embed(ctx, op, sources)
	if err != nil {
		w.rec.EmbedError()
		// The lease keeps the batch from other workers until then.
		if rerr := w.store.RetryPending(context.WithoutCancel(ctx), items, now.Add(w.cfg.Interval)); rerr != nil {
			w.log.Warn("search: releasing a failed batch", slog.String("error", rerr.Error()))
		}
		return openjury.Wrap(op, err)
	}
	saved, err := w.store.SaveEntries(ctx, items, entries, w.clock.Now())
	if err != nil {
		return openjury.Wrap(op, err)
	}
	w.rec.Indexed(saved)
	return nil
}

// embed returns the entries of sources: a gone one's deletion, the
// others' quantized vectors, embedded in batches of Batch texts.
func (w *Indexer) embed(ctx context.Context, op string, sources []Source) ([]Entry, error) {
	entries := make([]Entry, len(sources))
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
	for start := 0; start < len(texts); start += w.cfg.Batch {
		end := min(start+w.cfg.Batch, len(texts))
		vecs, err := w.embedder.Embed(ctx, texts[start:end])
		if err == nil && len(vecs) != end-start {
			err = openjury.Errorf(openjury.Internal, op, "the embedder returned %d vectors for %d texts", len(vecs), end-start)
		}
		if err != nil {
			return nil, err
		}
		for k, v := range vecs {
			entries[at[start+k]].Vector = Quantize(v)
		}
	}
	return entries, nil
}

// Run requeues the entries of other models, then runs the two steps in
// loops of their own until ctx ends: the lexical step, and the vector
// step, which the lexical loop wakes when it has indexed documents. Each
// loop runs again at once after a full batch, after Interval when its
// queue was empty, and with its own doubling pause (up to MaxBackoff)
// after failures: an embedder that fails or is slow holds back only the
// vector step.
func (w *Indexer) Run(ctx context.Context) {
	if n, err := w.store.RequeueOtherModels(ctx, w.embedder.Model(), w.clock.Now()); err != nil {
		w.log.Warn("search: requeueing entries of other models", slog.String("error", err.Error()))
	} else if n > 0 {
		w.log.Info("search: embedding again the entries of another model", slog.Int64("documents", n))
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		w.loop(ctx, "search: indexing texts failed", w.cfg.TextBatch, nil, func(ctx context.Context) (int, error) {
			n, err := w.lexicalStep(ctx)
			if n > 0 && !w.cfg.Inline {
				select {
				case w.texted <- struct{}{}:
				default:
				}
			}
			return n, err
		})
	})
	var counted time.Time
	w.loop(ctx, "search: indexing failed", w.cfg.Batch, w.texted, func(ctx context.Context) (int, error) {
		n, err := w.embedStep(ctx)
		// The queue length is counted for the metric at most every
		// pendingCountEvery (a count reads the whole queue).
		if now := w.clock.Now(); now.Sub(counted) >= pendingCountEvery {
			counted = now
			if c, err := w.store.PendingCount(ctx); err == nil {
				w.rec.Pending(c)
			}
		}
		return n, err
	})
	wg.Wait()
}

// loop runs step until ctx ends: at once again after a full batch
// (batch documents), after Interval (or a receive from wake) otherwise,
// and after a doubling pause (up to MaxBackoff, wake ignored) after a
// failure, logged with msg.
func (w *Indexer) loop(ctx context.Context, msg string, batch int, wake <-chan struct{}, step func(context.Context) (int, error)) {
	pause := w.cfg.Interval
	for {
		n, err := step(ctx)
		if ctx.Err() != nil {
			return
		}
		d, wakeUp := w.cfg.Interval, wake
		switch {
		case err != nil:
			w.log.Warn(msg, slog.String("error", err.Error()), slog.Duration("retry_in", pause))
			d, wakeUp = pause, nil
			pause = min(2*pause, w.cfg.MaxBackoff)
		case n == batch:
			d = 0
			pause = w.cfg.Interval
		default:
			pause = w.cfg.Interval
		}
		if !wait.For(ctx, d, wakeUp) {
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
	// page is how many entries one ScanChanges call reads.
	page int
	// batch holds the entries read and not yet written into the index
	// (apply), their vectors' values back to back in values.
	batch  []Doc
	values []int8
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
	return &Follower{store: store, index: index, model: model, rec: rec, log: log, page: followPage}
}

// followPage is how many entries one ScanChanges call reads: one query
// and one short read transaction on the database per page.
const followPage = 5000

// Sync applies every stored change after the last one applied, page by
// page, as the entries are read (docs/operations.md#semantic-search):
// each vector is copied from the driver's row buffer into one batch
// buffer the Follower reuses, and from there, a batch at a time, into the
// index's blocks, so loading a million entries at a replica's start holds
// no more than a batch beside the index. An entry of another model, a
// deleted one, one of another dimension or an unknown kind leaves the
// index. When a page fails, the
// entries read before it are applied and the next Sync goes on after
// them.
func (f *Follower) Sync(ctx context.Context) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	for {
		n, err := f.store.ScanChanges(ctx, f.after, f.page, f.apply)
		f.flush()
		if err != nil {
			return openjury.Wrap("search.Follower.Sync", err)
		}
		if n < f.page {
			return nil
		}
	}
}

// applyBatch is how many entries the Follower gathers before it writes
// them into the index (Index.Upsert writes a batch column by column).
const applyBatch = 1024

// apply takes one stored entry (Sync): a vector to put in the index joins
// the batch; anything else removes the document, after the batch is
// written (the entries keep their order).
func (f *Follower) apply(e *Entry) error {
	f.after = e.Seq
	dim := f.index.Dim()
	if dim == 0 && len(f.batch) > 0 {
		dim = len(f.batch[0].Vector.Values)
	}
	if e.Deleted || e.Model != f.model || !e.Kind.Valid() || len(e.Vector.Values) == 0 || (dim != 0 && len(e.Vector.Values) != dim) {
		f.flush()
		f.index.Delete(e.Kind, e.ID)
		return nil
	}
	if len(f.batch) == applyBatch {
		f.flush()
	}
	if f.values == nil {
		f.values = make([]int8, 0, applyBatch*len(e.Vector.Values))
	}
	at := len(f.values)
	f.values = append(f.values, e.Vector.Values...)
	f.batch = append(f.batch, Doc{Kind: e.Kind, ID: e.ID, Vector: Vec8{Scale: e.Vector.Scale, Values: f.values[at:len(f.values):len(f.values)]}})
	return nil
}

// flush writes the batch into the index and empties it (its buffers are
// kept for the next).
func (f *Follower) flush() {
	if len(f.batch) == 0 {
		return
	}
	if err := f.index.Upsert(f.batch...); err != nil {
		f.log.Warn("search: skipping stored entries", slog.String("error", err.Error()))
	}
	clear(f.batch)
	f.batch, f.values = f.batch[:0], f.values[:0]
}

// Run calls Sync every interval until ctx ends (the first Sync at once).
func (f *Follower) Run(ctx context.Context, interval time.Duration) {
	for {
		if err := f.Sync(ctx); err != nil && ctx.Err() == nil {
			f.log.Warn("search: following the index failed", slog.String("error", err.Error()))
		}
		if !wait.For(ctx, interval, nil) {
			return
		}
	}
}
