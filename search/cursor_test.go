package search_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/search"
)

// memTexts is a search.Texts in memory: a document matches the terms its
// words hold, scored by how many; ties by kind then id.
type memTexts struct {
	mu   sync.Mutex
	docs map[search.Key]search.Document
}

func (m *memTexts) Match(_ context.Context, terms []string, kind search.Kind, limit int) ([]search.Match, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []search.Match
	for k, d := range m.docs {
		if kind != "" && k.Kind != kind {
			continue
		}
		words := strings.Fields(strings.ToLower(d.Title + " " + d.Body))
		score := 0
		for _, t := range terms {
			if slices.Contains(words, t) {
				score++
			}
		}
		if score > 0 {
			out = append(out, search.Match{Key: k, Score: float64(score)})
		}
	}
	slices.SortFunc(out, func(a, b search.Match) int {
		if a.Score != b.Score {
			return int(b.Score - a.Score)
		}
		if a.Kind != b.Kind {
			return slices.Index(search.Kinds, a.Kind) - slices.Index(search.Kinds, b.Kind)
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out[:min(len(out), limit)], nil
}

func (m *memTexts) Documents(_ context.Context, keys []search.Key) ([]search.Document, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := []search.Document{}
	for _, k := range keys {
		if d, ok := m.docs[k]; ok {
			out = append(out, d)
		}
	}
	return out, nil
}

// pagingWorld is a search service over memTexts and an index, with
// writes that reach both sides as the triggers and the indexer would.
type pagingWorld struct {
	t     *testing.T
	texts *memTexts
	index *search.Index
	local *search.Local
	svc   *search.Service
	rng   *rand.Rand
}

func newPagingWorld(t *testing.T) *pagingWorld {
	w := &pagingWorld{t: t, texts: &memTexts{docs: map[search.Key]search.Document{}}, index: search.NewIndex(search.LocalDim),
		local: search.NewLocal(), rng: rand.New(rand.NewPCG(28, 28))}
	w.svc = w.service(w.index)
	return w
}

// service is a replica: the same database, its own vector index.
func (w *pagingWorld) service(index *search.Index) *search.Service {
	return search.NewService(index, w.local, w.texts, openjurytest.NewClock(), nil, search.Config{})
}

var pagingWords = strings.Fields("bridge audit contract withdraw guide ledger oracle vault relay token keeper harbor")

// put writes a document of kind with words from pagingWords, to the
// lexical side and (vector true) to the index.
func (w *pagingWorld) put(kind search.Kind, id string, words int, vector bool) search.Key {
	parts := make([]string, words)
	for i := range parts {
		parts[i] = pagingWords[w.rng.IntN(len(pagingWords))]
	}
	d := search.Document{Key: search.Key{Kind: kind, ID: id}, Body: strings.Join(parts, " ")}
	if kind.HasTitle() {
		d.Title = "Notes"
	}
	w.texts.mu.Lock()
	w.texts.docs[d.Key] = d
	w.texts.mu.Unlock()
	if vector {
		require.NoError(w.t, w.index.Upsert(search.Doc{Kind: kind, ID: id, Vector: search.Quantize(w.local.Vector(d.Title + "\n" + d.Body))}))
	}
	return d.Key
}

func (w *pagingWorld) remove(k search.Key) {
	w.texts.mu.Lock()
	delete(w.texts.docs, k)
	w.texts.mu.Unlock()
	w.index.Delete(k.Kind, k.ID)
}

// fill writes n documents of every kind.
func (w *pagingWorld) fill(n int) {
	for i := range n {
		w.put(search.Kinds[i%len(search.Kinds)], openjury.NewID(), 3+w.rng.IntN(6), true)
	}
}

// search runs a query and requires success.
func (w *pagingWorld) search(svc *search.Service, req search.Request) *search.Response {
	w.t.Helper()
	res, err := svc.Search(context.Background(), req)
	require.NoError(w.t, err)
	return res
}

// whole is the ranking of q as one unchanging world pages it.
func (w *pagingWorld) whole(q string, kind search.Kind) []search.Result {
	var out []search.Result
	req := search.Request{Q: q, Kind: kind, Limit: search.MaxLimit}
	for {
		res := w.search(w.svc, req)
		out = append(out, res.Results...)
		if res.NextCursor == "" {
			return out
		}
		req.Cursor = res.NextCursor
	}
}

// TestCursorPagesOneRanking: the pages of a query are the ranking its
// first page saw, in order, each document once, while documents arrive
// on both sides (with words that rank them first), others are deleted or
// changed, and the pages are answered by a replica whose vector index has
// nothing yet.
func TestCursorPagesOneRanking(t *testing.T) {
	t.Parallel()
	for _, kind := range []search.Kind{"", search.KindComment} {
		t.Run("type="+string(kind), func(t *testing.T) {
			t.Parallel()
			w := newPagingWorld(t)
			w.fill(400)
			const q = "bridge audit withdraw guide"
			want := w.whole(q, kind)
			require.Greater(t, len(want), 3*search.MaxLimit/2, "the ranking spans pages")
			require.LessOrEqual(t, len(want), search.MaxResults)

			first := w.search(w.svc, search.Request{Q: q, Kind: kind, Limit: 7})
			require.NotEmpty(t, first.NextCursor)
			require.Less(t, len(first.NextCursor), 5200, "a cursor stays small")
			got := append([]search.Result(nil), first.Results...)
			deleted := map[search.Key]bool{}
			changed := map[string]string{}
			lagging := w.service(search.NewIndex(search.LocalDim))
			cur := first.NextCursor
			for page := 0; cur != ""; page++ {
				// Writes between pages: new documents matching every word
				// (lexical only, vector only, both), a deletion and a change
				// of documents still to come.
				for i, kd := range search.Kinds {
					id := openjury.NewID()
					w.put(kd, id, 0, false)
					w.texts.docs[search.Key{Kind: kd, ID: id}] = search.Document{Key: search.Key{Kind: kd, ID: id}, Body: q + " " + q}
					require.NoError(t, w.index.Upsert(search.Doc{Kind: kd, ID: openjury.NewID(), Vector: search.Quantize(w.local.Vector(q))}))
					if i == 0 {
						require.NoError(t, w.index.Upsert(search.Doc{Kind: kd, ID: id, Vector: search.Quantize(w.local.Vector(q))}))
					}
				}
				next := slices.IndexFunc(want, func(r search.Result) bool { return r.ID == got[len(got)-1].ID }) + 1
				if ahead := next + 3; ahead < len(want) {
					k := search.Key{Kind: want[ahead].Kind, ID: want[ahead].ID}
					w.remove(k)
					deleted[k] = true
				}
				if ahead := next + 5; ahead < len(want) {
					k := search.Key{Kind: want[ahead].Kind, ID: want[ahead].ID}
					body := fmt.Sprintf("changed on page %d", page)
					w.texts.mu.Lock()
					d := w.texts.docs[k]
					d.Body = body
					w.texts.docs[k] = d
					w.texts.mu.Unlock()
					changed[k.ID] = body
				}
				svc := w.svc
				if page%2 == 1 {
					svc = lagging
				}
				res := w.search(svc, search.Request{Q: q, Kind: kind, Limit: 7, Cursor: cur})
				require.NotEmpty(t, res.Results, "page %d", page)
				got = append(got, res.Results...)
				cur = res.NextCursor
			}

			var wantIDs, gotIDs []string
			for _, r := range want {
				if !deleted[search.Key{Kind: r.Kind, ID: r.ID}] {
					wantIDs = append(wantIDs, r.ID)
				}
			}
			sims := map[string]float64{}
			for _, r := range want {
				sims[r.ID] = r.Similarity
			}
			for _, r := range got {
				gotIDs = append(gotIDs, r.ID)
				require.Equal(t, sims[r.ID], r.Similarity, "%s keeps its similarity", r.ID)
				if body, ok := changed[r.ID]; ok {
					require.Equal(t, body, r.Content, "a changed document shows its current text")
				}
				if kind != "" {
					require.Equal(t, kind, r.Kind)
				}
			}
			require.NotEmpty(t, deleted)
			require.NotEmpty(t, changed)
			require.Equal(t, wantIDs, gotIDs, "the first page's ranking, less the deleted documents, each once")
		})
	}
}

// TestCursorDeletedFillPage: documents deleted after the first page are
// left out and the next ones fill their places; a page is short only
// when most of what follows was deleted, and the cursor still ends.
func TestCursorDeletedFillPage(t *testing.T) {
	t.Parallel()
	w := newPagingWorld(t)
	w.fill(200)
	const q = "oracle vault relay"
	want := w.whole(q, "")
	require.Greater(t, len(want), 40)
	first := w.search(w.svc, search.Request{Q: q, Limit: 5})
	// Delete the next 3 documents: page 2 is the 5 after them.
	for _, r := range want[5:8] {
		w.remove(search.Key{Kind: r.Kind, ID: r.ID})
	}
	second := w.search(w.svc, search.Request{Q: q, Limit: 5, Cursor: first.NextCursor})
	require.Len(t, second.Results, 5)
	for i, r := range second.Results {
		require.Equal(t, want[8+i].ID, r.ID)
	}
	// Delete everything that follows: the next page is empty and last.
	for _, r := range want[13:] {
		w.remove(search.Key{Kind: r.Kind, ID: r.ID})
	}
	third := w.search(w.svc, search.Request{Q: q, Limit: 5, Cursor: second.NextCursor})
	require.Empty(t, third.Results)
	for third.NextCursor != "" {
		third = w.search(w.svc, search.Request{Q: q, Limit: 5, Cursor: third.NextCursor})
		require.Empty(t, third.Results)
	}
}

// TestCursorForged: a cursor of another query or type, garbage, and
// every edit of a real cursor that breaks its structure are 400 "cursor:
// not a cursor from this list"; no edit panics or fails otherwise.
func TestCursorForged(t *testing.T) {
	t.Parallel()
	w := newPagingWorld(t)
	w.fill(200)
	const q = "ledger oracle keeper"
	first := w.search(w.svc, search.Request{Q: q, Kind: search.KindJob, Limit: 3})
	require.NotEmpty(t, first.NextCursor)
	raw, err := base64.RawURLEncoding.DecodeString(first.NextCursor)
	require.NoError(t, err)
	const header, entry = 10, 19
	require.Zero(t, (len(raw)-header)%entry, "UUID entries")
	enc := base64.RawURLEncoding.EncodeToString
	edit := func(f func(b []byte) []byte) string { return enc(f(append([]byte(nil), raw...))) }

	invalid := func(req search.Request, why string) {
		t.Helper()
		_, err := w.svc.Search(context.Background(), req)
		require.Equal(t, openjury.Invalid, openjury.KindOf(err), "%s: %v", why, err)
		require.Equal(t, "cursor: not a cursor from this list", openjury.DetailOf(err), why)
	}
	invalid(search.Request{Q: "another query", Kind: search.KindJob, Limit: 3, Cursor: first.NextCursor}, "another query")
	invalid(search.Request{Q: q, Limit: 3, Cursor: first.NextCursor}, "another type")
	invalid(search.Request{Q: q, Kind: search.KindPost, Limit: 3, Cursor: first.NextCursor}, "another type")
	for why, c := range map[string]string{
		"not base64":        "!!!",
		"a JSON cursor":     "eyJzIjowLjUsImsiOjksImkiOiJ4In0",
		"header only":       edit(func(b []byte) []byte { return b[:header] }),
		"a cut entry":       edit(func(b []byte) []byte { return b[:len(b)-1] }),
		"another version":   edit(func(b []byte) []byte { b[0] = 2; return b }),
		"no ranking used":   edit(func(b []byte) []byte { b[1] = 0; return b }),
		"unknown rankings":  edit(func(b []byte) []byte { b[1] |= 4; return b }),
		"another kind":      edit(func(b []byte) []byte { b[header] = 2; return b }),
		"no kind":           edit(func(b []byte) []byte { b[header] = 0; return b }),
		"rank out of range": edit(func(b []byte) []byte { b[header+1] = 201; return b }),
		"no rank":           edit(func(b []byte) []byte { b[header+1], b[header+2] = 0, 0; return b }),
		"a repeated entry":  edit(func(b []byte) []byte { return append(b, b[header:header+entry]...) }),
		"too long":          strings.Repeat("A", 20000),
		"raw id with a quote": edit(func(b []byte) []byte {
			return append(b[:header], 1|0x80, b[header+1], b[header+2], 3, 'a', '\'', 'b')
		}),
	} {
		invalid(search.Request{Q: q, Kind: search.KindJob, Limit: 3, Cursor: c}, why)
	}
	if len(raw) >= header+2*entry {
		invalid(search.Request{Q: q, Kind: search.KindJob, Limit: 3, Cursor: edit(func(b []byte) []byte {
			e1 := append([]byte(nil), b[header:header+entry]...)
			copy(b[header:], b[header+entry:header+2*entry])
			copy(b[header+entry:], e1)
			return b
		})}, "entries out of order")
	}
	// Every one-bit edit: 400, or a page (an edited id names a document
	// that does not exist, or another one of the same kind).
	for i := range len(raw) * 8 {
		c := edit(func(b []byte) []byte { b[i/8] ^= 1 << (i % 8); return b })
		res, err := w.svc.Search(context.Background(), search.Request{Q: q, Kind: search.KindJob, Limit: 3, Cursor: c})
		if err != nil {
			require.Equal(t, openjury.Invalid, openjury.KindOf(err), "bit %d: %v", i, err)
			continue
		}
		for _, r := range res.Results {
			require.Equal(t, search.KindJob, r.Kind, "bit %d", i)
		}
	}
}

// FuzzSearchCursor: any cursor gives a page or 400, never a panic or
// another error.
func FuzzSearchCursor(f *testing.F) {
	w := newPagingWorld(&testing.T{})
	w.fill(60)
	first, err := w.svc.Search(context.Background(), search.Request{Q: "token relay", Limit: 2})
	if err != nil || first.NextCursor == "" {
		f.Fatal("no cursor", err)
	}
	f.Add(first.NextCursor)
	f.Add("")
	f.Add("AQM")
	f.Fuzz(func(t *testing.T, c string) {
		_, err := w.svc.Search(context.Background(), search.Request{Q: "token relay", Limit: 2, Cursor: c})
		if err != nil && openjury.KindOf(err) != openjury.Invalid {
			t.Fatalf("cursor %q: %v", c, err)
		}
	})
}
