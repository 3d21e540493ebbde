package search_test

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/openjurytest/pgtest"
	"github.com/openjury/openjury/search"
)

// onEachDB runs test on a fresh SQLite database and a fresh PostgreSQL
// one, without any server (no background indexer).
func onEachDB(t *testing.T, test func(t *testing.T, db *bunstore.DB)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { t.Parallel(); test(t, openjurytest.NewDB(t)) })
	t.Run("postgres", func(t *testing.T) { t.Parallel(); test(t, openjurytest.OpenDB(t, pgtest.NewDatabase(t))) })
}

// failing is an embedder that fails while fail is set.
type failing struct {
	search.Embedder
	fail bool
}

func (f *failing) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if f.fail {
		return nil, openjury.E(openjury.Unavailable, "test", "down")
	}
	return f.Embedder.Embed(ctx, texts)
}

// TestIndexingPipeline drives the indexer and follower by hand: leases
// keep a batch to one worker, a document written again while it was
// embedded stays pending, a failed batch is retried, entries of another
// model are embedded again, and a follower applies changes in order.
func TestIndexingPipeline(t *testing.T) {
	t.Parallel()
	onEachDB(t, func(t *testing.T, db *bunstore.DB) {
		ctx := context.Background()
		clock := openjurytest.NewClock()
		store := db.SearchIndex()
		emb := &failing{Embedder: search.NewLocal()}
		m := marketplace.NewService(db, clock, marketplace.Config{})
		author := openjurytest.NewWallet(t).Address()
		post, err := m.CreatePost(ctx, author, marketplace.PostInput{Title: "Falcon", Content: "peregrine speed"})
		require.NoError(t, err)

		// The vector step claims a document once its lexical step is done.
		items, err := store.ClaimPending(ctx, clock.Now(), time.Minute, 10)
		require.NoError(t, err)
		require.Empty(t, items)
		texted, err := store.IndexTexts(ctx, 10)
		require.NoError(t, err)
		require.Equal(t, 1, texted)

		// A claim leases the row: a second claim gets nothing until the
		// lease ends.
		items, err = store.ClaimPending(ctx, clock.Now(), time.Minute, 10)
		require.NoError(t, err)
		require.Equal(t, []search.Pending{{Kind: search.KindPost, ID: post.ID, Gen: 1}}, items)
		again, err := store.ClaimPending(ctx, clock.Now(), time.Minute, 10)
		require.NoError(t, err)
		require.Empty(t, again)

		// The document is written again (a comment deletion's path uses
		// the same queue): the stale batch is not stored.
		require.NoError(t, db.Search().Enqueue(ctx, string(search.KindPost), post.ID, clock.Now()))
		src, err := store.Sources(ctx, items)
		require.NoError(t, err)
		require.Equal(t, "Falcon\nperegrine speed", src[0].Text())
		saved, err := store.SaveEntries(ctx, items, []search.Entry{{Kind: search.KindPost, ID: post.ID, Model: emb.Model(), Vector: search.Quantize([]float32{1})}}, clock.Now())
		require.NoError(t, err)
		require.Zero(t, saved)
		n, err := store.PendingCount(ctx)
		require.NoError(t, err)
		require.Equal(t, int64(1), n)

		// A failing embedder leaves the document pending.
		w := search.NewIndexer(store, emb, clock, search.IndexerConfig{Interval: time.Second}, nil, nil)
		emb.fail = true
		_, err = w.Step(ctx)
		require.Equal(t, openjury.Unavailable, openjury.KindOf(err))
		claimed, err := w.Step(ctx)
		require.NoError(t, err)
		require.Zero(t, claimed, "retried only after the pause")
		clock.Advance(time.Second)
		emb.fail = false
		claimed, err = w.Step(ctx)
		require.NoError(t, err)
		require.Equal(t, 1, claimed)
		n, err = store.PendingCount(ctx)
		require.NoError(t, err)
		require.Zero(t, n)

		// A comment, then its deletion: the follower ends without it.
		c, err := m.AddComment(ctx, author, marketplace.TargetPost, post.ID, marketplace.CommentInput{Content: "gone soon"})
		require.NoError(t, err)
		_, err = w.Step(ctx)
		require.NoError(t, err)
		index := search.NewIndex(search.LocalDim)
		f := search.NewFollower(store, index, emb.Model(), nil, nil)
		require.NoError(t, f.Sync(ctx))
		require.Equal(t, 2, index.Len())
		_, err = m.DeleteComment(ctx, author, c.ID)
		require.NoError(t, err)
		_, err = w.Step(ctx)
		require.NoError(t, err)
		require.NoError(t, f.Sync(ctx))
		require.Equal(t, 1, index.Len())
		changes, err := store.Changes(ctx, 0, 10)
		require.NoError(t, err)
		require.Len(t, changes, 2)
		require.Less(t, changes[0].Seq, changes[1].Seq)
		require.True(t, changes[1].Deleted)
		require.Empty(t, changes[1].Vector.Values)

		// Another model: its entries are embedded again; a follower of
		// the new model ignores the old entries meanwhile.
		other := search.NewIndex(0)
		of := search.NewFollower(store, other, "other-model", nil, nil)
		require.NoError(t, of.Sync(ctx))
		require.Zero(t, other.Len())
		requeued, err := store.RequeueOtherModels(ctx, "other-model", clock.Now())
		require.NoError(t, err)
		require.Equal(t, int64(1), requeued, "the post; the deleted comment stays out")
		requeued, err = store.RequeueOtherModels(ctx, emb.Model(), clock.Now())
		require.NoError(t, err)
		require.Zero(t, requeued)
	})
}

// TestWritesQueueInTheirTransaction: a write that fails leaves nothing
// pending, one that commits leaves its document.
func TestWritesQueueInTheirTransaction(t *testing.T) {
	t.Parallel()
	db := openjurytest.NewDB(t)
	ctx := context.Background()
	boom := errors.New("boom")
	err := db.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		require.NoError(t, tx.Search().Enqueue(ctx, "job", "j1", time.Now()))
		return boom
	})
	require.ErrorIs(t, err, boom)
	n, err := db.SearchIndex().PendingCount(ctx)
	require.NoError(t, err)
	require.Zero(t, n)
	_, err = marketplace.NewService(db, openjurytest.NewClock(), marketplace.Config{}).
		CreateJob(ctx, openjurytest.NewWallet(t).Address(), marketplace.CreateJobInput{Title: "t", Prompt: "p"})
	require.NoError(t, err)
	n, err = db.SearchIndex().PendingCount(ctx)
	require.NoError(t, err)
	require.Equal(t, int64(1), n)
}

// TestConcurrentIndexers: several indexers (replicas) drain one queue
// together while a follower polls: every document is stored exactly once
// and the follower, polling all along, ends with all of them (the change
// sequence never lets it skip an entry committed late).
func TestConcurrentIndexers(t *testing.T) {
	t.Parallel()
	for _, inline := range []string{"two-step", "inline", "mixed"} {
		t.Run(inline, func(t *testing.T) {
			t.Parallel()
			testConcurrentIndexers(t, inline)
		})
	}
}

// testConcurrentIndexers is TestConcurrentIndexers with no, all or every
// other indexer Inline (the lexical step leasing and storing what it
// indexed).
func testConcurrentIndexers(t *testing.T, inline string) {
	onEachDB(t, func(t *testing.T, db *bunstore.DB) {
		ctx := context.Background()
		const n = 200
		m := marketplace.NewService(db, openjurytest.NewClock(), marketplace.Config{})
		sponsor := openjurytest.NewWallet(t).Address()
		for i := range n {
			_, err := m.CreateJob(ctx, sponsor, marketplace.CreateJobInput{Title: fmt.Sprintf("Job %d", i), Prompt: "p"})
			require.NoError(t, err)
		}
		emb := search.NewLocal()
		index := search.NewIndex(search.LocalDim)
		f := search.NewFollower(db.SearchIndex(), index, emb.Model(), nil, nil)
		var wg sync.WaitGroup
		stored := make([]int, 4)
		for w := range stored {
			cfg := search.IndexerConfig{Batch: 7, TextBatch: 11, Inline: inline == "inline" || inline == "mixed" && w%2 == 0}
			indexer := search.NewIndexer(db.SearchIndex(), emb, openjury.SystemClock{}, cfg, nil, nil)
			wg.Go(func() {
				for {
					k, err := indexer.Step(ctx)
					if !assert.NoError(t, err) || k == 0 {
						return
					}
					stored[w] += k
				}
			})
		}
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
	poll:
		for {
			require.NoError(t, f.Sync(ctx))
			select {
			case <-done:
				break poll
			default:
			}
		}
		require.NoError(t, f.Sync(ctx))
		require.Equal(t, n, stored[0]+stored[1]+stored[2]+stored[3], "each document claimed once")
		require.Equal(t, n, index.Len())
		changes, err := db.SearchIndex().Changes(ctx, 0, 1000)
		require.NoError(t, err)
		require.Len(t, changes, n)
		for i, c := range changes {
			require.Equal(t, int64(i+1), c.Seq, "gapless, in commit order")
			require.Len(t, c.Vector.Values, search.LocalDim)
		}
	})
}

// hanging is an embedder whose every call blocks until its context ends.
type hanging struct{ search.Embedder }

func (hanging) Embed(ctx context.Context, _ []string) ([][]float32, error) {
	<-ctx.Done()
	return nil, openjury.E(openjury.Unavailable, "test", "hung up")
}

// TestLexicalStepWithoutTheEmbedder: with an embedder that fails every
// call, the indexer's steps still index documents by their words and take
// a deleted comment out of the lexical ranking; the documents stay queued
// for the vector step and are embedded once the embedder is back.
func TestLexicalStepWithoutTheEmbedder(t *testing.T) {
	t.Parallel()
	onEachDB(t, func(t *testing.T, db *bunstore.DB) {
		ctx := context.Background()
		clock := openjurytest.NewClock()
		emb := &failing{Embedder: search.NewLocal(), fail: true}
		m := marketplace.NewService(db, clock, marketplace.Config{})
		author := openjurytest.NewWallet(t).Address()
		post, err := m.CreatePost(ctx, author, marketplace.PostInput{Title: "Heliotrope", Content: "marmalade recipes"})
		require.NoError(t, err)
		c, err := m.AddComment(ctx, author, marketplace.TargetPost, post.ID, marketplace.CommentInput{Content: "saffron lighthouse"})
		require.NoError(t, err)
		index := search.NewIndex(search.LocalDim)
		svc := search.NewService(index, emb, db.SearchTexts(), clock, nil, search.Config{})
		ids := func(q string) []string {
			res, err := svc.Search(ctx, search.Request{Q: q, Limit: 10})
			require.NoError(t, err, "a failing embedder does not fail a query")
			out := []string{}
			for _, r := range res.Results {
				out = append(out, r.ID)
			}
			return out
		}
		require.Empty(t, ids("marmalade saffron"), "not indexed yet")

		w := search.NewIndexer(db.SearchIndex(), emb, clock, search.IndexerConfig{}, nil, nil)
		_, err = w.Step(ctx)
		require.Equal(t, openjury.Unavailable, openjury.KindOf(err), "the vector step fails")
		require.Equal(t, []string{post.ID}, ids("marmalade"), "found by its words all the same")
		require.Equal(t, []string{c.ID}, ids("lighthouses"))

		_, err = m.DeleteComment(ctx, author, c.ID)
		require.NoError(t, err)
		require.Empty(t, ids("lighthouses"), "a deleted comment leaves the answers with its delete")
		n, err := w.IndexTexts(ctx)
		require.NoError(t, err)
		require.Equal(t, 1, n)
		matches, err := db.SearchTexts().Match(ctx, []string{"lighthouse"}, "", 10)
		require.NoError(t, err)
		require.Empty(t, matches, "and the lexical ranking with the next lexical step")

		pending, err := db.SearchIndex().PendingCount(ctx)
		require.NoError(t, err)
		require.Equal(t, int64(2), pending, "both wait for the vector step")
		emb.fail = false
		clock.Advance(time.Minute)
		claimed, err := w.Step(ctx)
		require.NoError(t, err)
		require.Equal(t, 2, claimed)
		require.NoError(t, search.NewFollower(db.SearchIndex(), index, emb.Model(), nil, nil).Sync(ctx))
		require.Equal(t, 1, index.Len(), "the post embedded; the deleted comment not")
	})
}

// TestRunIndexesTextsWhileEmbeddingHangs: Run's lexical step does not
// wait behind an embedder call that never returns: a new document is
// found by its words, and a deleted comment leaves the lexical ranking.
func TestRunIndexesTextsWhileEmbeddingHangs(t *testing.T) {
	t.Parallel()
	db := openjurytest.NewDB(t)
	ctx, cancel := context.WithCancel(context.Background())
	m := marketplace.NewService(db, openjurytest.NewClock(), marketplace.Config{})
	author := openjurytest.NewWallet(t).Address()
	first, err := m.CreatePost(ctx, author, marketplace.PostInput{Title: "First", Content: "embedding hangs on this one"})
	require.NoError(t, err)
	w := search.NewIndexer(db.SearchIndex(), hanging{search.NewLocal()}, openjury.SystemClock{}, search.IndexerConfig{Interval: 5 * time.Millisecond}, nil, nil)
	done := make(chan struct{})
	go func() { defer close(done); w.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })

	match := func(term string) []string {
		ms, err := db.SearchTexts().Match(context.Background(), []string{term}, "", 10)
		require.NoError(t, err)
		out := []string{}
		for _, x := range ms {
			out = append(out, x.ID)
		}
		return out
	}
	require.Eventually(t, func() bool { return len(match("hangs")) == 1 }, 20*time.Second, 5*time.Millisecond)
	// The vector loop is now stuck in Embed with the first post.
	c, err := m.AddComment(ctx, author, marketplace.TargetPost, first.ID, marketplace.CommentInput{Content: "saffron lighthouse"})
	require.NoError(t, err)
	require.Eventually(t, func() bool { return slices.Equal(match("lighthouse"), []string{c.ID}) }, 20*time.Second, 5*time.Millisecond)
	_, err = m.DeleteComment(ctx, author, c.ID)
	require.NoError(t, err)
	require.Eventually(t, func() bool { return len(match("lighthouse")) == 0 }, 20*time.Second, 5*time.Millisecond)
}

// TestFollowerLoadsStoredVectors loads a store of a few thousand entries
// in pages that do not divide it (and batches of the follower's own size)
// and checks that the index holds exactly the stored vectors: not the
// deleted entries, those of another model or dimension, and a legacy
// float32 vector quantised; then rows deleted and rewritten after the
// load leave or change the index on the next Sync.
func TestFollowerLoadsStoredVectors(t *testing.T) {
	t.Parallel()
	onEachDB(t, func(t *testing.T, db *bunstore.DB) {
		ctx := context.Background()
		const n, dim, model = 2600, 16, "m"
		rng := rand.New(rand.NewPCG(8, 8))
		want := map[search.Key][]int8{}
		seq := 0
		insert := func(kind search.Kind, id string, deleted bool, rowModel string, vec, legacy []byte) {
			seq++
			del := 0
			if deleted {
				del = 1
			}
			_, err := db.Bun().NewRaw(`INSERT INTO search_documents (kind, doc_id, seq, deleted, model, vec, vector, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0)
ON CONFLICT (kind, doc_id) DO UPDATE SET seq = EXCLUDED.seq, deleted = EXCLUDED.deleted, model = EXCLUDED.model, vec = EXCLUDED.vec, vector = EXCLUDED.vector`,
				string(kind), id, seq, del, rowModel, vec, legacy).Exec(ctx)
			require.NoError(t, err)
		}
		randomVec := func(d int) search.Vec8 {
			v := make([]float32, d)
			for i := range v {
				v[i] = float32(rng.NormFloat64())
			}
			return search.Quantize(v)
		}
		var keys []search.Key
		for i := range n {
			k := search.Key{Kind: search.Kinds[i%4], ID: openjury.NewID()}
			if i%500 == 7 {
				k.ID = fmt.Sprintf("not-a-uuid-%d", i) // kept beside the blocks
			}
			switch {
			case i%97 == 5:
				insert(k.Kind, k.ID, true, model, nil, nil)
			case i%89 == 3:
				insert(k.Kind, k.ID, false, "other", randomVec(dim).Encode(), nil)
			case i == 1234:
				insert(k.Kind, k.ID, false, model, randomVec(dim+1).Encode(), nil)
			case i%211 == 9:
				f := make([]float32, dim)
				raw := make([]byte, 4*dim)
				for d := range f {
					f[d] = float32(rng.NormFloat64())
					binary.LittleEndian.PutUint32(raw[4*d:], math.Float32bits(f[d]))
				}
				insert(k.Kind, k.ID, false, model, nil, raw)
				want[k] = search.Quantize(f).Values
			default:
				v := randomVec(dim)
				insert(k.Kind, k.ID, false, model, v.Encode(), nil)
				want[k] = v.Values
			}
			keys = append(keys, k)
		}
		check := func(index *search.Index) {
			t.Helper()
			require.Equal(t, len(want), index.Len())
			for _, k := range keys {
				got, ok := index.VectorOf(k.Kind, k.ID)
				w, stored := want[k]
				require.Equal(t, stored, ok, "%v", k)
				if stored {
					require.Equal(t, w, got, "%v", k)
				}
			}
		}
		index := search.NewIndex(0)
		f := search.NewFollower(db.SearchIndex(), index, model, nil, nil)
		search.SetFollowPage(f, 1000)
		require.NoError(t, f.Sync(ctx))
		require.Equal(t, dim, index.Dim())
		check(index)

		// After the load: some documents are deleted, some rewritten, one
		// moves to another model, one new; the next Sync follows.
		for i, k := range keys[:300] {
			switch i % 3 {
			case 0:
				insert(k.Kind, k.ID, true, model, nil, nil)
				delete(want, k)
			case 1:
				v := randomVec(dim)
				insert(k.Kind, k.ID, false, model, v.Encode(), nil)
				want[k] = v.Values
			}
		}
		insert(keys[301].Kind, keys[301].ID, false, "other", randomVec(dim).Encode(), nil)
		delete(want, keys[301])
		k := search.Key{Kind: search.KindPost, ID: openjury.NewID()}
		v := randomVec(dim)
		insert(k.Kind, k.ID, false, model, v.Encode(), nil)
		want[k] = v.Values
		keys = append(keys, k)
		require.NoError(t, f.Sync(ctx))
		check(index)

		// A fresh replica loads the same.
		fresh := search.NewIndex(0)
		g := search.NewFollower(db.SearchIndex(), fresh, model, nil, nil)
		search.SetFollowPage(g, 777)
		require.NoError(t, g.Sync(ctx))
		check(fresh)
	})
}

// counting is a search.Store that counts the vector step's own reads: the
// documents ClaimPending leased and the calls of Sources.
type counting struct {
	search.Store
	claimed, sources atomic.Int64
}

func (c *counting) ClaimPending(ctx context.Context, now time.Time, lease time.Duration, n int) ([]search.Pending, error) {
	got, err := c.Store.ClaimPending(ctx, now, lease, n)
	c.claimed.Add(int64(len(got)))
	return got, err
}

func (c *counting) Sources(ctx context.Context, items []search.Pending) ([]search.Source, error) {
	c.sources.Add(1)
	return c.Store.Sources(ctx, items)
}

// TestInlineIndexing: with Inline, the lexical step stores the entries of
// what it indexed, without a claim or a second read of the documents; a
// batch whose embedding fails keeps its text indexed and is taken by the
// vector step once its lease ends.
func TestInlineIndexing(t *testing.T) {
	t.Parallel()
	onEachDB(t, func(t *testing.T, db *bunstore.DB) {
		ctx := context.Background()
		clock := openjurytest.NewClock()
		m := marketplace.NewService(db, clock, marketplace.Config{})
		sponsor := openjurytest.NewWallet(t).Address()
		for i := range 30 {
			_, err := m.CreateJob(ctx, sponsor, marketplace.CreateJobInput{Title: fmt.Sprintf("Job %d", i), Prompt: "p"})
			require.NoError(t, err)
		}
		store := &counting{Store: db.SearchIndex()}
		emb := &failing{Embedder: search.NewLocal()}
		w := search.NewIndexer(store, emb, clock, search.IndexerConfig{Batch: 7, Inline: true}, nil, nil)
		n, err := w.Step(ctx)
		require.NoError(t, err)
		require.Equal(t, 30, n)
		changes, err := db.SearchIndex().Changes(ctx, 0, 100)
		require.NoError(t, err)
		require.Len(t, changes, 30, "stored by the lexical step")
		for _, c := range changes {
			require.Len(t, c.Vector.Values, search.LocalDim)
		}
		require.Zero(t, store.claimed.Load(), "nothing left to claim")
		require.Zero(t, store.sources.Load(), "the documents read once")

		_, err = m.CreateJob(ctx, sponsor, marketplace.CreateJobInput{Title: "Heliotrope", Prompt: "marmalade"})
		require.NoError(t, err)
		emb.fail = true
		_, err = w.Step(ctx)
		require.Equal(t, openjury.Unavailable, openjury.KindOf(err))
		matches, err := db.SearchTexts().Match(ctx, []string{"marmalade"}, "", 10)
		require.NoError(t, err)
		require.Len(t, matches, 1, "found by its words all the same")
		emb.fail = false
		n, err = w.Step(ctx)
		require.NoError(t, err)
		require.Zero(t, n, "leased until the retry")
		clock.Advance(time.Minute)
		n, err = w.Step(ctx)
		require.NoError(t, err)
		require.Equal(t, 1, n)
		require.EqualValues(t, 1, store.claimed.Load(), "taken by the vector step")
		pending, err := db.SearchIndex().PendingCount(ctx)
		require.NoError(t, err)
		require.Zero(t, pending)
	})
}
