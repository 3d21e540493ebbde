package storetest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/search"
)

// SearchBackend is a Backend that also keeps the search index: the
// pending queue its marketplace.SearchQueue fills (Backend.Search) and
// the stored entries. The Search tests skip backends without it.
type SearchBackend interface {
	SearchIndex() search.Store
}

func (s *suite) searchTests() []test {
	return []test{
		{name: "QueueInTheWritesTransaction", run: testSearchQueueTx},
		{name: "ClaimLeasesOldestFirst", run: testSearchClaim},
		{name: "ConcurrentClaimsTakeEachOnce", run: testSearchClaimRace},
		{name: "SourcesOfEveryKind", run: testSearchSources},
		{name: "SaveEntriesSkipsStaleGen", run: testSearchSave},
		{name: "ScanChangesHandsOverChanges", run: testSearchScanChanges},
		{name: "RetryPendingMovesTheLease", run: testSearchRetry},
		{name: "RequeueOtherModels", run: testSearchRequeue},
		{name: "ConcurrentSavesSeenInSeqOrder", run: testSearchConcurrentSaves},
		{name: "ClaimWaitsForTheLexicalStep", run: testSearchClaimAfterTexts},
		{name: "LeasedLexicalStepReturnsItsSources", run: testSearchTextsLeased},
		{name: "InlineStepsStoreTextsAndEntries", run: testSearchInline},
		{name: "TextsIndexedByTheLexicalStep", run: testSearchTextsFollowWrites},
		{name: "ConcurrentTextIndexersKeepTheNewestText", run: testSearchTextsRace},
		{name: "TextsMatchStemsAndRanks", run: testSearchTextsMatch},
		{name: "TextsRefuseQuerySyntax", run: testSearchTextsSyntax},
	}
}

// SearchTextsBackend is a Backend that also keeps the lexical side of
// search (search.Texts), which its search index store's IndexTexts fills
// from the pending queue. The Texts tests skip backends without it.
type SearchTextsBackend interface {
	SearchTexts() search.Texts
}

// searchTextsOf returns b's text store, or skips the test.
func searchTextsOf(t *testing.T, b Backend) search.Texts {
	t.Helper()
	sb, ok := b.(SearchTextsBackend)
	if !ok {
		t.Skip("the backend has no search texts")
	}
	return sb.SearchTexts()
}

// documents reads the stored documents of keys, sorted by kind and id.
func documents(t *testing.T, x search.Texts, keys ...search.Key) []search.Document {
	t.Helper()
	docs, err := x.Documents(context.Background(), keys)
	require.NoError(t, err)
	slices.SortFunc(docs, func(a, b search.Document) int {
		if c := strings.Compare(string(a.Kind), string(b.Kind)); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return docs
}

// matchIDs runs Match and returns the ids found, best first.
func matchIDs(t *testing.T, x search.Texts, kind search.Kind, limit int, terms ...string) []string {
	t.Helper()
	ms, err := x.Match(context.Background(), terms, kind, limit)
	require.NoError(t, err)
	out := []string{}
	for i, m := range ms {
		if i > 0 {
			require.GreaterOrEqual(t, ms[i-1].Score, m.Score, "best first")
		}
		out = append(out, m.ID)
	}
	return out
}

// indexTexts runs the lexical step until nothing is left to do and
// returns how many documents it indexed.
func indexTexts(t *testing.T, b Backend) int {
	t.Helper()
	s := searchStoreOf(t, b)
	total := 0
	for range 1000 {
		n, err := s.IndexTexts(context.Background(), 100)
		require.NoError(t, err)
		if n == 0 {
			return total
		}
		total += n
	}
	t.Fatal("the lexical step does not end")
	return 0
}

// indexed queues keys as the marketplace's writes do, then runs the
// lexical step.
func indexed(t *testing.T, b Backend, keys ...search.Key) {
	t.Helper()
	for _, k := range keys {
		enqueue(t, b, k.Kind, k.ID, base)
	}
	indexTexts(t, b)
}

// testSearchTextsFollowWrites: the lexical step (IndexTexts) stores the
// text of every queued document, with the job it belongs to, outside the
// writes' transactions (a write stores none; a rolled back one queues
// nothing); a deleted comment leaves Documents with its delete and the
// lexical ranking with the next lexical step; the pending rows stay for
// the vector step.
func testSearchTextsFollowWrites(t *testing.T, b Backend) {
	x := searchTextsOf(t, b)
	s := searchStoreOf(t, b)
	ctx := context.Background()
	job := newJob(1, base)
	job.Title, job.Prompt = "Audit the bridge", "Review the withdrawal path."
	require.Equal(t, errBoom, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		require.NoError(t, tx.Jobs().CreateJob(ctx, job))
		require.NoError(t, tx.Search().Enqueue(ctx, marketplace.DocJob, job.ID, base))
		return errBoom
	}))
	require.Zero(t, indexTexts(t, b), "rolled back with its write: nothing queued")
	create(t, b, job)
	require.Empty(t, documents(t, x, search.Key{Kind: search.KindJob, ID: job.ID}), "a write stores no text itself")
	sub := newSubmission(2, job.ID, alice, base)
	sub.Content = "The withdraw function is reentrant."
	sub.Evidence = []marketplace.Evidence{{Claim: "claim one", Quote: "quote one"}, {Quote: "quote two"}, {Claim: "claim three"}}
	submit(t, b, sub)
	onJob := newComment(3, marketplace.TargetJob, job.ID, bob, base)
	onSub := newComment(4, marketplace.TargetSubmission, sub.ID, bob, base)
	onSub.Content = "A peregrine falcon dives."
	post := newPost(5, carol, base)
	addPosts(t, b, post)
	onPost := newComment(6, marketplace.TargetPost, post.ID, bob, base)
	addComments(t, b, onJob, onSub, onPost)

	keys := []search.Key{
		{Kind: search.KindJob, ID: job.ID}, {Kind: search.KindSubmission, ID: sub.ID}, {Kind: search.KindComment, ID: onJob.ID},
		{Kind: search.KindComment, ID: onSub.ID}, {Kind: search.KindComment, ID: onPost.ID}, {Kind: search.KindPost, ID: post.ID},
		{Kind: search.KindJob, ID: id(99)}, {Kind: search.KindPost, ID: job.ID},
	}
	require.Empty(t, matchIDs(t, x, "", 10, "peregrine"), "not indexed before the lexical step")
	indexed(t, b, keys...)
	require.Equal(t, []search.Document{
		{Key: keys[2], JobID: job.ID, Body: onJob.Content},
		{Key: keys[3], JobID: job.ID, Body: onSub.Content},
		{Key: keys[4], Body: onPost.Content},
		{Key: keys[0], JobID: job.ID, Title: job.Title, Body: job.Prompt},
		{Key: keys[5], Title: post.Title, Body: post.Content},
		{Key: keys[1], JobID: job.ID, Body: sub.Content, Extra: "claim one\nquote one\nquote two\nclaim three"},
	}, documents(t, x, keys...), "unknown keys are left out")
	require.Equal(t, []string{onSub.ID}, matchIDs(t, x, "", 10, "falcons"))
	require.Equal(t, int64(len(keys)), pendingCount(t, s), "the lexical step leaves the rows to the vector step")
	require.Len(t, claimPending(t, s, at(1), 100), len(keys))

	require.NoError(t, b.Comments().DeleteComment(ctx, onSub.ID, bob, at(5)))
	require.Empty(t, documents(t, x, keys[3]), "a deleted comment leaves Documents with its delete")
	require.Equal(t, []string{onSub.ID}, matchIDs(t, x, "", 10, "falcons"), "the ranking keeps it until the lexical step")
	enqueue(t, b, search.KindComment, onSub.ID, at(5))
	require.Equal(t, 1, indexTexts(t, b))
	require.Empty(t, matchIDs(t, x, "", 10, "falcons"), "which takes it out of the lexical ranking")
	require.Len(t, documents(t, x, keys...), 5)
	none, err := x.Documents(ctx, nil)
	require.NoError(t, err)
	require.Empty(t, none)
	n, err := s.IndexTexts(ctx, 0)
	require.NoError(t, err)
	require.Zero(t, n)
}

// testSearchTextsRace: lexical steps racing each other (replicas) on the
// same pending rows while writes delete comments and queue them again
// leave, once nothing is left to do, exactly the live comments' text: a
// step that read a comment before its delete never stores that text over
// the delete's, and none marks a document done that it did not index.
func testSearchTextsRace(t *testing.T, b Backend) {
	x := searchTextsOf(t, b)
	s := searchStoreOf(t, b)
	ctx := context.Background()
	job := newJob(1, base)
	create(t, b, job)
	const docs = 60
	cs := make([]*marketplace.Comment, docs)
	keys := make([]search.Key, docs)
	for i := range cs {
		cs[i] = newComment(i+2, marketplace.TargetJob, job.ID, bob, base)
		keys[i] = search.Key{Kind: search.KindComment, ID: cs[i].ID}
	}
	addComments(t, b, cs...)
	for _, k := range keys {
		enqueue(t, b, k.Kind, k.ID, base)
	}
	var deleted sync.Map
	errs := raceN(4, func(w int) error {
		if w == 0 {
			// The writer: every third comment deleted and queued, each in
			// one transaction, while the others index.
			for i := 0; i < docs; i += 3 {
				err := b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
					if err := tx.Comments().DeleteComment(ctx, cs[i].ID, bob, at(i)); err != nil {
						return err
					}
					return tx.Search().Enqueue(ctx, marketplace.DocComment, cs[i].ID, at(i))
				})
				if err != nil {
					return err
				}
				deleted.Store(cs[i].ID, true)
			}
			return nil
		}
		for range 200 {
			if _, err := s.IndexTexts(ctx, 5); err != nil {
				return err
			}
		}
		return nil
	})
	for i, err := range errs {
		require.NoError(t, err, "worker %d", i)
	}
	indexTexts(t, b)
	got := map[string]bool{}
	for _, d := range documents(t, x, keys...) {
		got[d.ID] = true
	}
	raw := 0
	for _, c := range cs {
		_, gone := deleted.Load(c.ID)
		require.Equal(t, !gone, got[c.ID], "comment %s (deleted: %v)", c.ID, gone)
		if !gone {
			raw++
		}
	}
	require.Equal(t, raw, len(matchIDs(t, x, search.KindComment, 200, "comment")), "the ranking holds the live comments only")
	require.Len(t, claimPending(t, s, at(1000), 200), docs, "every document done lexically, none left out")
}

// testSearchClaimAfterTexts: the vector step claims a document only once
// its lexical step is done at its current gen, and SaveEntries never
// removes a row whose lexical step is not done; documents queued again by
// RequeueOtherModels (another model) need no lexical step.
func testSearchClaimAfterTexts(t *testing.T, b Backend) {
	s := searchStoreOf(t, b)
	ctx := context.Background()
	enqueue(t, b, search.KindJob, id(1), at(1))
	items := []search.Pending{{Kind: search.KindJob, ID: id(1), Gen: 1}}
	got, err := s.ClaimPending(ctx, at(2), searchLease, 10)
	require.NoError(t, err)
	require.Empty(t, got, "not indexed lexically yet")
	saved, err := s.SaveEntries(ctx, items, entriesOf(items, "m"), at(2))
	require.NoError(t, err)
	require.Zero(t, saved, "an entry for a row not done lexically is not stored")
	require.Equal(t, int64(1), pendingCount(t, s))
	require.Equal(t, 1, indexTexts(t, b))
	got, err = s.ClaimPending(ctx, at(3), searchLease, 10)
	require.NoError(t, err)
	require.Equal(t, items, got)

	enqueue(t, b, search.KindJob, id(1), at(4)) // queued again: gen 2
	got, err = s.ClaimPending(ctx, at(5), searchLease, 10)
	require.NoError(t, err)
	require.Empty(t, got, "gen 2 is not indexed lexically yet")
	require.Equal(t, 1, indexTexts(t, b))
	items = claimPending(t, s, at(6), 10)
	require.Equal(t, []search.Pending{{Kind: search.KindJob, ID: id(1), Gen: 2}}, items)
	saved, err = s.SaveEntries(ctx, items, entriesOf(items, "old"), at(7))
	require.NoError(t, err)
	require.Equal(t, 1, saved)
	require.Zero(t, pendingCount(t, s))

	n, err := s.RequeueOtherModels(ctx, "new", at(8))
	require.NoError(t, err)
	require.Equal(t, int64(1), n)
	got, err = s.ClaimPending(ctx, at(9), searchLease, 10)
	require.NoError(t, err)
	require.Equal(t, []search.Pending{{Kind: search.KindJob, ID: id(1), Gen: 1}}, got, "requeued: claimable at once")
	require.Zero(t, indexTexts(t, b), "and nothing to do lexically")
}

// testSearchTextsLeased: the lexical step that leases what it indexed
// returns those documents with their sources (a missing one Gone) and
// leases them: no claim takes them until the lease ends, and their
// entries save at once.
func testSearchTextsLeased(t *testing.T, b Backend) {
	s := searchStoreOf(t, b)
	ctx := context.Background()
	job := newJob(1, base)
	create(t, b, job)
	sub := newSubmission(2, job.ID, alice, base)
	sub.Evidence = []marketplace.Evidence{{Claim: "claim one", Quote: "quote one"}}
	submit(t, b, sub)
	enqueue(t, b, search.KindJob, job.ID, at(1))
	enqueue(t, b, search.KindSubmission, sub.ID, at(2))
	enqueue(t, b, search.KindPost, id(99), at(3))
	items, sources, err := s.IndexTextsLeased(ctx, 10, at(4), searchLease)
	require.NoError(t, err)
	require.Len(t, items, 3)
	require.Len(t, sources, 3)
	byID := map[string]search.Source{}
	for i, it := range items {
		require.Equal(t, [2]string{string(it.Kind), it.ID}, [2]string{string(sources[i].Kind), sources[i].ID}, "in the same order")
		byID[it.ID] = sources[i]
	}
	require.Equal(t, search.Source{Kind: search.KindJob, ID: job.ID, Title: job.Title, Body: job.Prompt}, byID[job.ID])
	require.Equal(t, sub.Content+"\nclaim one\nquote one", byID[sub.ID].Text())
	require.Equal(t, search.Source{Kind: search.KindPost, ID: id(99), Gone: true}, byID[id(99)])
	require.Zero(t, indexTexts(t, b), "indexed lexically")
	got, err := s.ClaimPending(ctx, at(5), searchLease, 10)
	require.NoError(t, err)
	require.Empty(t, got, "leased")
	got, err = s.ClaimPending(ctx, at(4).Add(searchLease), searchLease, 10)
	require.NoError(t, err)
	require.ElementsMatch(t, items, got, "claimable once the lease ends")
	saved, err := s.SaveEntries(ctx, items, entriesOf(items, "m"), at(6))
	require.NoError(t, err)
	require.Equal(t, 3, saved)
	require.Zero(t, pendingCount(t, s))
	items, sources, err = s.IndexTextsLeased(ctx, 10, at(7), searchLease)
	require.NoError(t, err)
	require.Empty(t, items)
	require.Empty(t, sources)
}

// testSearchInline: IndexInline stores the text and the entry of each
// document it takes and removes it from the queue, calling embed outside
// any transaction with the documents' sources; a document written again
// while it was embedded stays queued and is done by the next step; when
// embed fails the texts are stored, the error returned, and the vector
// step waits until now+pause.
func testSearchInline(t *testing.T, b Backend) {
	s := searchStoreOf(t, b)
	ctx := context.Background()
	j1, j2, j3 := newJob(1, base), newJob(2, base), newJob(3, base)
	create(t, b, j1, j2, j3)
	enqueue(t, b, search.KindJob, j1.ID, at(1))
	enqueue(t, b, search.KindJob, j2.ID, at(2))
	enqueue(t, b, search.KindPost, id(99), at(3)) // gone
	var seen []search.Source
	inline := func(now time.Time, pause time.Duration, embed search.EmbedFunc) (int, int) {
		t.Helper()
		taken, saved, err := s.IndexInline(ctx, 10, now, searchLease, pause, embed)
		require.NoError(t, err)
		return taken, saved
	}
	entries := func(_ context.Context, items []search.Pending, sources []search.Source) ([]search.Entry, error) {
		out := entriesOf(items, "m")
		for i, src := range sources {
			require.Equal(t, [2]string{string(items[i].Kind), items[i].ID}, [2]string{string(src.Kind), src.ID}, "in the same order")
			if src.Gone {
				out[i] = search.Entry{Kind: src.Kind, ID: src.ID, Deleted: true, Model: "m"}
			}
		}
		return out, nil
	}
	taken, saved := inline(at(4), time.Second, func(ctx context.Context, items []search.Pending, sources []search.Source) ([]search.Entry, error) {
		seen = sources
		enqueue(t, b, search.KindJob, j2.ID, at(4)) // written again while embedded: outside any transaction
		return entries(ctx, items, sources)
	})
	require.Len(t, seen, 3)
	require.Equal(t, search.Source{Kind: search.KindJob, ID: j1.ID, Title: j1.Title, Body: j1.Prompt}, seen[0])
	require.Equal(t, search.Source{Kind: search.KindPost, ID: id(99), Gone: true}, seen[2])
	require.Equal(t, 2, saved, "the job written again is left")
	require.GreaterOrEqual(t, taken, saved)
	require.LessOrEqual(t, taken, 3)
	require.Equal(t, int64(1), pendingCount(t, s))
	got := changes(t, s, 0, 10)
	require.Len(t, got, 2)
	require.ElementsMatch(t, []string{j1.ID, id(99)}, []string{got[0].ID, got[1].ID})
	for _, e := range got {
		require.Equal(t, e.ID == id(99), e.Deleted)
	}
	texts, hasTexts := b.(SearchTextsBackend)
	if hasTexts {
		require.Len(t, documents(t, texts.SearchTexts(), search.Key{Kind: search.KindJob, ID: j1.ID}), 1, "its text stored")
	}

	// The next step does the job written again, and nothing is left.
	taken, saved = inline(at(5), time.Second, entries)
	require.Equal(t, [2]int{1, 1}, [2]int{taken, saved})
	require.Zero(t, pendingCount(t, s))
	taken, saved = inline(at(6), time.Second, func(context.Context, []search.Pending, []search.Source) ([]search.Entry, error) {
		t.Fatal("embed called with nothing taken")
		return nil, nil
	})
	require.Equal(t, [2]int{0, 0}, [2]int{taken, saved})

	// A vector step that claims a document while it is embedded (another
	// worker, its lexical step done meanwhile) keeps it: each document is
	// taken once, and stored once.
	j4 := newJob(4, base)
	create(t, b, j4)
	enqueue(t, b, search.KindJob, j4.ID, at(7))
	var claimed []search.Pending
	taken, saved = inline(at(8), time.Second, func(ctx context.Context, items []search.Pending, sources []search.Source) ([]search.Entry, error) {
		claimed = claimPending(t, s, at(8), 10)
		return entries(ctx, items, sources)
	})
	byClaimer, err := s.SaveEntries(ctx, claimed, entriesOf(claimed, "m"), at(9))
	require.NoError(t, err)
	require.Equal(t, 1, taken+len(claimed), "taken once")
	require.Equal(t, 1, saved+byClaimer, "stored once")
	require.Zero(t, pendingCount(t, s))

	// embed fails: the text is stored, the vector step waits for pause.
	enqueue(t, b, search.KindJob, j3.ID, at(10))
	boom := errors.New("boom")
	taken, saved, err = s.IndexInline(ctx, 10, at(11), searchLease, 5*time.Second, func(context.Context, []search.Pending, []search.Source) ([]search.Entry, error) {
		return nil, boom
	})
	require.ErrorIs(t, err, boom)
	require.Equal(t, [2]int{1, 0}, [2]int{taken, saved})
	if hasTexts {
		require.Len(t, documents(t, texts.SearchTexts(), search.Key{Kind: search.KindJob, ID: j3.ID}), 1, "its text stored")
	}
	require.Zero(t, indexTexts(t, b), "its lexical step done")
	none, err := s.ClaimPending(ctx, at(12), searchLease, 10)
	require.NoError(t, err)
	require.Empty(t, none, "held until the pause ends")
	retried, err := s.ClaimPending(ctx, at(11).Add(5*time.Second), searchLease, 10)
	require.NoError(t, err)
	require.Equal(t, []search.Pending{{Kind: search.KindJob, ID: j3.ID, Gen: 1}}, retried)
}

// txTexts returns the text store of tx when the backend offers one.
func txTexts(t *testing.T, b Backend, tx marketplace.Tx) search.Texts {
	t.Helper()
	if tt, ok := tx.(SearchTextsBackend); ok {
		return tt.SearchTexts()
	}
	t.Skip("the backend's transactions have no search texts")
	return nil
}

// testSearchTextsMatch: a document holding any of the terms matches; the
// terms are stemmed ("translation" finds "translated"); a title match
// ranks above a body match of the same word; the kind filter and the
// limit hold; no terms match nothing.
func testSearchTextsMatch(t *testing.T, b Backend) {
	x := searchTextsOf(t, b)
	titled := newJob(1, base)
	titled.Title, titled.Prompt = "Translation of the handbook", "Twelve pages, plain language."
	inBody := newJob(2, base)
	inBody.Title, inBody.Prompt = "Handbook work", "The handbook should be translated into Spanish."
	other := newJob(3, base)
	other.Title, other.Prompt = "Audit the bridge", "Review the withdrawal path."
	create(t, b, titled, inBody, other)
	post := newPost(4, carol, base)
	post.Title, post.Content = "Translators wanted", "We translate guides."
	addPosts(t, b, post)
	indexed(t, b, search.Key{Kind: search.KindJob, ID: titled.ID}, search.Key{Kind: search.KindJob, ID: inBody.ID},
		search.Key{Kind: search.KindJob, ID: other.ID}, search.Key{Kind: search.KindPost, ID: post.ID})

	require.Equal(t, []string{titled.ID, inBody.ID}, matchIDs(t, x, search.KindJob, 10, "translation"), "stemmed; the title counts more")
	require.ElementsMatch(t, []string{titled.ID, inBody.ID, post.ID}, matchIDs(t, x, "", 10, "translating"))
	require.Equal(t, []string{post.ID}, matchIDs(t, x, search.KindPost, 10, "translation"))
	require.ElementsMatch(t, []string{titled.ID, inBody.ID, other.ID}, matchIDs(t, x, search.KindJob, 10, "bridge", "handbook"), "any of the terms")
	require.Len(t, matchIDs(t, x, "", 2, "translation"), 2, "the limit")
	require.Empty(t, matchIDs(t, x, "", 10))
	require.Empty(t, matchIDs(t, x, "", 10, "quasar"))
	require.Empty(t, matchIDs(t, x, "", 0, "translation"))
}

// testSearchTextsSyntax: terms that would be query syntax in tsquery or
// FTS5 (quotes, operators, prefixes, column filters, parentheses) are
// refused quietly, never run: no error, no match from them.
func testSearchTextsSyntax(t *testing.T, b Backend) {
	x := searchTextsOf(t, b)
	j := newJob(1, base)
	j.Title, j.Prompt = "Audit the bridge", "Review the withdrawal path."
	create(t, b, j)
	indexed(t, b, search.Key{Kind: search.KindJob, ID: j.ID})
	for _, hostile := range []string{`"`, `bridge"`, `'bridge`, `bridge:*`, `title:bridge`, `bridge OR audit`, `(bridge)`, `bridge&audit`, `!bridge`, `NEAR(a b)`, `*`, `-bridge`, `bri\dge`} {
		require.Empty(t, matchIDs(t, x, "", 10, hostile), "%q", hostile)
	}
	require.Equal(t, []string{j.ID}, matchIDs(t, x, "", 10, `"x"`, "bridge"), "the plain term still counts")
}

// searchStoreOf returns b's search index store, or skips the test.
func searchStoreOf(t *testing.T, b Backend) search.Store {
	t.Helper()
	sb, ok := b.(SearchBackend)
	if !ok {
		t.Skip("the backend has no search index store")
	}
	return sb.SearchIndex()
}

// searchLease is the lease of the Search tests' claims.
const searchLease = time.Minute

// claimPending runs the lexical step on everything queued (the vector
// step claims only documents it has done), then claims.
func claimPending(t *testing.T, s search.Store, now time.Time, n int) []search.Pending {
	t.Helper()
	for {
		k, err := s.IndexTexts(context.Background(), 100)
		require.NoError(t, err)
		if k == 0 {
			break
		}
	}
	items, err := s.ClaimPending(context.Background(), now, searchLease, n)
	require.NoError(t, err)
	return items
}

func pendingCount(t *testing.T, s search.Store) int64 {
	t.Helper()
	n, err := s.PendingCount(context.Background())
	require.NoError(t, err)
	return n
}

func enqueue(t *testing.T, b Backend, kind search.Kind, docID string, now time.Time) {
	t.Helper()
	require.NoError(t, b.Search().Enqueue(context.Background(), string(kind), docID, now))
}

// enqueueAndClaim queues documents id(1)..id(n) of kind at at(1)..at(n)
// and claims them all at at(10).
func enqueueAndClaim(t *testing.T, b Backend, s search.Store, kind search.Kind, n int) []search.Pending {
	t.Helper()
	for i := 1; i <= n; i++ {
		enqueue(t, b, kind, id(i), at(i))
	}
	items := claimPending(t, s, at(10), 10)
	require.Len(t, items, n)
	return items
}

// testSearchScanChanges: ScanChanges hands over, one by one and in
// order, the entries Changes returns (vectors, a deletion, another model),
// page by page; an error of the callback stops the scan and comes back.
func testSearchScanChanges(t *testing.T, b Backend) {
	s := searchStoreOf(t, b)
	ctx := context.Background()
	items := enqueueAndClaim(t, b, s, search.KindJob, 7)
	entries := entriesOf(items, "m1")
	entries[3] = search.Entry{Kind: items[3].Kind, ID: items[3].ID, Deleted: true, Model: "m1"}
	entries[5].Model = "m2"
	saved, err := s.SaveEntries(ctx, items, entries, at(11))
	require.NoError(t, err)
	require.Equal(t, 7, saved)
	want := changes(t, s, 0, 100)
	require.Len(t, want, 7)

	var got []search.Entry
	var after int64
	for range 10 {
		n, err := s.ScanChanges(ctx, after, 3, func(e *search.Entry) error {
			c := *e // the store's buffers: copied
			c.Vector.Values = slices.Clone(c.Vector.Values)
			got = append(got, c)
			after = e.Seq
			return nil
		})
		require.NoError(t, err)
		require.LessOrEqual(t, n, 3)
		if n < 3 {
			break
		}
	}
	require.Equal(t, want, got)

	stop := fmt.Errorf("stop")
	seen := 0
	n, err := s.ScanChanges(ctx, 0, 100, func(*search.Entry) error {
		seen++
		if seen == 2 {
			return stop
		}
		return nil
	})
	require.ErrorIs(t, err, stop)
	require.Equal(t, 2, n)
	require.Equal(t, 2, seen)
}

// changes reads every stored entry after seq, by pages of limit.
func changes(t *testing.T, s search.Store, after int64, limit int) []search.Entry {
	t.Helper()
	var out []search.Entry
	for range 1000 {
		page, err := s.Changes(context.Background(), after, limit)
		require.NoError(t, err)
		require.LessOrEqual(t, len(page), limit)
		if len(page) == 0 {
			return out
		}
		out = append(out, page...)
		after = page[len(page)-1].Seq
	}
	t.Fatal("the pages do not end")
	return nil
}

// entryOf is the entry the Search tests store for an item.
func entryOf(p search.Pending, model string) search.Entry {
	return search.Entry{Kind: p.Kind, ID: p.ID, Model: model,
		Vector: search.Vec8{Scale: math.SmallestNonzeroFloat32 * float32(p.Gen), Values: []int8{1, -1, int8(p.Gen), math.MaxInt8, math.MinInt8}}}
}

func entriesOf(items []search.Pending, model string) []search.Entry {
	out := make([]search.Entry, len(items))
	for i, p := range items {
		out[i] = entryOf(p, model)
	}
	return out
}

// testSearchQueueTx: a document is queued exactly when the write that
// queues it commits; queueing it again while it waits keeps one pending
// row with the next gen.
func testSearchQueueTx(t *testing.T, b Backend) {
	s := searchStoreOf(t, b)
	ctx := context.Background()
	require.Equal(t, errBoom, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		require.NoError(t, tx.Search().Enqueue(ctx, marketplace.DocJob, id(1), base))
		return errBoom
	}))
	require.Zero(t, pendingCount(t, s), "rolled back with its write")
	require.Empty(t, claimPending(t, s, at(1), 10))

	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		return tx.Search().Enqueue(ctx, marketplace.DocJob, id(1), base)
	}))
	enqueue(t, b, search.KindPost, id(2), at(1))
	enqueue(t, b, search.KindJob, id(1), at(2))
	require.Equal(t, int64(2), pendingCount(t, s))
	require.ElementsMatch(t, []search.Pending{
		{Kind: search.KindPost, ID: id(2), Gen: 1},
		{Kind: search.KindJob, ID: id(1), Gen: 2},
	}, claimPending(t, s, at(3), 10), "one row per document")
}

// testSearchClaim: a claim takes up to n documents, the oldest (by their
// last queueing), in any order, and leases them: nobody else gets them until the lease ends, unless the
// document is queued again, which makes it claimable at once.
func testSearchClaim(t *testing.T, b Backend) {
	s := searchStoreOf(t, b)
	for i, n := range []int{3, 1, 4, 2} {
		enqueue(t, b, search.KindComment, id(n), at(10*n+i))
	}
	now := at(100)
	first := claimPending(t, s, now, 3)
	require.ElementsMatch(t, []search.Pending{
		{Kind: search.KindComment, ID: id(1), Gen: 1},
		{Kind: search.KindComment, ID: id(2), Gen: 1},
		{Kind: search.KindComment, ID: id(3), Gen: 1},
	}, first)
	require.Equal(t, []search.Pending{{Kind: search.KindComment, ID: id(4), Gen: 1}}, claimPending(t, s, now, 10))
	require.Empty(t, claimPending(t, s, now.Add(searchLease-time.Millisecond), 10), "leased")
	require.Equal(t, int64(4), pendingCount(t, s), "claimed documents are still pending")

	enqueue(t, b, search.KindComment, id(2), now.Add(time.Second))
	require.Equal(t, []search.Pending{{Kind: search.KindComment, ID: id(2), Gen: 2}},
		claimPending(t, s, now.Add(2*time.Second), 10), "queued again: claimable at once, next gen")
	again := claimPending(t, s, now.Add(searchLease), 10)
	require.ElementsMatch(t, []search.Pending{
		{Kind: search.KindComment, ID: id(1), Gen: 1},
		{Kind: search.KindComment, ID: id(3), Gen: 1},
		{Kind: search.KindComment, ID: id(4), Gen: 1},
	}, again, "the lease ended")
	require.Empty(t, claimPending(t, s, now.Add(searchLease), 0), "n = 0 claims nothing")
}

// testSearchClaimRace: workers claiming the same queue at once (replicas)
// each get distinct documents, and together every one.
func testSearchClaimRace(t *testing.T, b Backend) {
	s := searchStoreOf(t, b)
	const docs = 60
	for i := range docs {
		enqueue(t, b, search.KindJob, id(i+1), at(i))
	}
	require.Equal(t, docs, indexTexts(t, b))
	var mu sync.Mutex
	seen := map[string]int{}
	errs := race(func(int) error {
		for {
			items, err := s.ClaimPending(context.Background(), at(1000), searchLease, 3)
			if err != nil || len(items) == 0 {
				return err
			}
			mu.Lock()
			for _, it := range items {
				seen[it.ID]++
			}
			mu.Unlock()
		}
	})
	for i, err := range errs {
		require.NoError(t, err, "worker %d", i)
	}
	require.Len(t, seen, docs)
	for docID, n := range seen {
		require.Equal(t, 1, n, "document %s claimed %d times", docID, n)
	}
}

// testSearchSources: Sources reads each document's indexed text in the
// items' order: a job's title and prompt, a submission's content with its
// evidence claims and quotes, a comment's and a post's content; a missing
// or deleted document is Gone.
func testSearchSources(t *testing.T, b Backend) {
	s := searchStoreOf(t, b)
	ctx := context.Background()
	job := newJob(1, base)
	create(t, b, job)
	sub := newSubmission(2, job.ID, alice, base)
	sub.Evidence = []marketplace.Evidence{{Claim: "claim one", Quote: "quote one"}, {Quote: "quote two"}}
	submit(t, b, sub)
	kept := newComment(3, marketplace.TargetJob, job.ID, bob, base)
	gone := newComment(4, marketplace.TargetSubmission, sub.ID, bob, base)
	addComments(t, b, kept, gone)
	require.NoError(t, b.Comments().DeleteComment(ctx, gone.ID, bob, at(5)))
	post := newPost(5, carol, base)
	addPosts(t, b, post)

	items := []search.Pending{
		{Kind: search.KindPost, ID: post.ID, Gen: 1},
		{Kind: search.KindComment, ID: gone.ID, Gen: 1},
		{Kind: search.KindJob, ID: id(99), Gen: 1},
		{Kind: search.KindSubmission, ID: sub.ID, Gen: 3},
		{Kind: search.KindComment, ID: kept.ID, Gen: 1},
		{Kind: search.KindJob, ID: job.ID, Gen: 2},
		{Kind: search.KindSubmission, ID: id(98), Gen: 1},
	}
	got, err := s.Sources(ctx, items)
	require.NoError(t, err)
	require.Len(t, got, len(items))
	require.Equal(t, search.Source{Kind: search.KindPost, ID: post.ID, Title: post.Title, Body: post.Content}, got[0])
	require.True(t, got[1].Gone, "a deleted comment leaves the index")
	require.Equal(t, search.KindComment, got[1].Kind)
	require.Equal(t, gone.ID, got[1].ID)
	require.Equal(t, search.Source{Kind: search.KindJob, ID: id(99), Gone: true}, got[2])
	require.Equal(t, sub.Content+"\nclaim one\nquote one\nquote two", got[3].Text())
	require.False(t, got[3].Gone)
	require.Equal(t, search.Source{Kind: search.KindComment, ID: kept.ID, Body: kept.Content}, got[4])
	require.Equal(t, search.Source{Kind: search.KindJob, ID: job.ID, Title: job.Title, Body: job.Prompt}, got[5])
	require.Equal(t, search.Source{Kind: search.KindSubmission, ID: id(98), Gone: true}, got[6])

	none, err := s.Sources(ctx, nil)
	require.NoError(t, err)
	require.Empty(t, none)
}

// testSearchSave: SaveEntries stores the entries of the items whose gen is
// still current, each with a new, larger Seq, and removes their pending
// rows; a document queued again meanwhile is skipped and stays pending.
// Vectors read back exactly; a deleted entry has none; saving a document
// again replaces its entry under a new Seq.
func testSearchSave(t *testing.T, b Backend) {
	s := searchStoreOf(t, b)
	ctx := context.Background()
	items := enqueueAndClaim(t, b, s, search.KindPost, 4)
	enqueue(t, b, search.KindPost, id(2), at(11)) // written again while embedded

	entries := entriesOf(items, "m1")
	entries[2] = search.Entry{Kind: items[2].Kind, ID: items[2].ID, Deleted: true, Model: "m1"}
	entries = append(entries, entries[0]) // listed twice: stored once
	saved, err := s.SaveEntries(ctx, items, entries, at(12))
	require.NoError(t, err)
	require.Equal(t, 3, saved)
	require.Equal(t, int64(1), pendingCount(t, s), "the stale one stays pending")
	require.Equal(t, []search.Pending{{Kind: search.KindPost, ID: id(2), Gen: 2}}, claimPending(t, s, at(13), 10))

	got := changes(t, s, 0, 2)
	require.Len(t, got, 3)
	for i, e := range got {
		if i > 0 {
			require.Greater(t, e.Seq, got[i-1].Seq)
		}
		want := entries[slices.IndexFunc(entries, func(x search.Entry) bool { return x.ID == e.ID })]
		want.Seq = e.Seq
		require.Equal(t, want, e)
	}
	require.Empty(t, got[slices.IndexFunc(got, func(e search.Entry) bool { return e.ID == id(3) })].Vector.Values, "deleted: no vector")
	last := got[2].Seq
	require.Empty(t, changes(t, s, last, 10))

	// A later save of the same document replaces its entry under a new
	// Seq; the changes after the old last Seq hold only it.
	enqueue(t, b, search.KindPost, id(1), at(20))
	again := claimPending(t, s, at(21), 10)
	require.Equal(t, []search.Pending{{Kind: search.KindPost, ID: id(1), Gen: 1}}, again, "its pending row went with the save")
	saved, err = s.SaveEntries(ctx, again, entriesOf(again, "m2"), at(22))
	require.NoError(t, err)
	require.Equal(t, 1, saved)
	after := changes(t, s, last, 10)
	require.Len(t, after, 1)
	require.Greater(t, after[0].Seq, last)
	require.Equal(t, "m2", after[0].Model)
	require.Len(t, changes(t, s, 0, 10), 3, "one entry per document")

	saved, err = s.SaveEntries(ctx, nil, nil, at(23))
	require.NoError(t, err)
	require.Zero(t, saved)
}

// testSearchRetry: RetryPending makes claimed documents claimable again
// at the given time, not before; a document queued again meanwhile keeps
// its own state.
func testSearchRetry(t *testing.T, b Backend) {
	s := searchStoreOf(t, b)
	ctx := context.Background()
	enqueue(t, b, search.KindJob, id(1), at(1))
	enqueue(t, b, search.KindJob, id(2), at(2))
	items := claimPending(t, s, at(10), 10)
	require.Len(t, items, 2)
	enqueue(t, b, search.KindJob, id(2), at(11))
	retryAt := at(10).Add(5 * time.Second)
	require.NoError(t, s.RetryPending(ctx, items, retryAt))
	require.Equal(t, []search.Pending{{Kind: search.KindJob, ID: id(2), Gen: 2}}, claimPending(t, s, at(12), 10),
		"queued again: not held back by the retry")
	require.Empty(t, claimPending(t, s, retryAt.Add(-time.Millisecond), 10))
	require.Equal(t, []search.Pending{{Kind: search.KindJob, ID: id(1), Gen: 1}}, claimPending(t, s, retryAt, 10))
	require.NoError(t, s.RetryPending(ctx, nil, retryAt))
}

// testSearchRequeue: RequeueOtherModels queues every stored, not deleted
// entry of another model, once, and nothing of the given model.
func testSearchRequeue(t *testing.T, b Backend) {
	s := searchStoreOf(t, b)
	ctx := context.Background()
	for n := 1; n <= 4; n++ {
		enqueue(t, b, search.KindSubmission, id(n), at(n))
	}
	items := claimPending(t, s, at(10), 10)
	slices.SortFunc(items, func(a, b search.Pending) int { return strings.Compare(a.ID, b.ID) })
	entries := entriesOf(items, "old")
	entries[1].Model = "new"
	entries[2] = search.Entry{Kind: items[2].Kind, ID: items[2].ID, Deleted: true, Model: "old"}
	saved, err := s.SaveEntries(ctx, items, entries, at(11))
	require.NoError(t, err)
	require.Equal(t, 4, saved)
	require.Zero(t, pendingCount(t, s))

	n, err := s.RequeueOtherModels(ctx, "new", at(12))
	require.NoError(t, err)
	require.Equal(t, int64(2), n, "the two live entries of the old model")
	got := claimPending(t, s, at(13), 10)
	require.ElementsMatch(t, []string{id(1), id(4)}, []string{got[0].ID, got[1].ID})
	n, err = s.RequeueOtherModels(ctx, "new", at(14))
	require.NoError(t, err)
	require.Zero(t, n, "already pending")
	n, err = s.RequeueOtherModels(ctx, "old", at(15))
	require.NoError(t, err)
	require.Equal(t, int64(1), n, "the live entry of the new model")
}

// testSearchConcurrentSaves: workers claim and save batches at once while
// a follower polls the changes, moving its cursor only forward: it sees
// every document exactly once, each Seq larger than the one before (an
// entry committed late never gets a Seq below one already visible).
func testSearchConcurrentSaves(t *testing.T, b Backend) {
	s := searchStoreOf(t, b)
	const docs = 120
	for i := range docs {
		enqueue(t, b, search.KindJob, id(i+1), at(i))
	}
	require.Equal(t, docs, indexTexts(t, b))
	ctx := context.Background()
	done := make(chan struct{})
	var follower []search.Entry
	var followErr error
	go func() {
		defer close(done)
		var after int64
		for len(follower) < docs {
			page, err := s.Changes(ctx, after, 50)
			if err != nil {
				followErr = err
				return
			}
			for _, e := range page {
				if e.Seq <= after {
					followErr = fmt.Errorf("seq %d after %d", e.Seq, after)
					return
				}
				after = e.Seq
			}
			follower = append(follower, page...)
		}
	}()
	errs := raceN(4, func(int) error {
		for {
			items, err := s.ClaimPending(ctx, at(1000), searchLease, 7)
			if err != nil || len(items) == 0 {
				return err
			}
			if _, err := s.SaveEntries(ctx, items, entriesOf(items, "m"), at(1001)); err != nil {
				return err
			}
		}
	})
	for i, err := range errs {
		require.NoError(t, err, "worker %d", i)
	}
	select {
	case <-done:
	case <-time.After(waitLimit):
		t.Fatal("the follower did not see every entry")
	}
	require.NoError(t, followErr)
	ids := map[string]bool{}
	for _, e := range follower {
		ids[e.ID] = true
	}
	require.Len(t, ids, docs)
	require.Len(t, follower, docs)
	require.Zero(t, pendingCount(t, s))
}
