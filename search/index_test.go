package search_test

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/search"
)

func TestIndexTiesAndLimits(t *testing.T) {
	t.Parallel()
	x := search.NewIndex(2)
	v := search.Quantize([]float32{1, 0})
	require.NoError(t, x.Upsert(
		search.Doc{Kind: search.KindPost, ID: "a", Vector: v},
		search.Doc{Kind: search.KindJob, ID: "b", Vector: v},
		search.Doc{Kind: search.KindJob, ID: "a", Vector: search.Vec8{Scale: 3, Values: []int8{100, 0}}}, // normalised: equal
		search.Doc{Kind: search.KindComment, ID: "c", Vector: v},
		search.Doc{Kind: search.KindSubmission, ID: "d", Vector: search.Quantize([]float32{0, 1})},
		search.Doc{Kind: search.KindSubmission, ID: "e", Vector: search.Quantize([]float32{-1, 0})},
	))
	got := x.Query([]float32{2, 0}, "", 10)
	var order []string
	for _, r := range got {
		order = append(order, string(r.Kind)+"/"+r.ID)
	}
	require.Equal(t, []string{"job/a", "job/b", "comment/c", "post/a", "submission/d", "submission/e"}, order)
	require.InDelta(t, 1, got[0].Similarity, 1e-6)
	require.InDelta(t, 0, got[4].Similarity, 1e-6)
	require.InDelta(t, -1, got[5].Similarity, 1e-6)

	require.Len(t, x.Query([]float32{1, 0}, "", 2), 2)
	subs := x.Query([]float32{1, 0}, search.KindSubmission, 10)
	require.Len(t, subs, 2)
	require.Equal(t, "d", subs[0].ID)
	require.Empty(t, x.Query([]float32{1, 0, 0}, "", 10), "another dimension")
}

func TestIndexChanges(t *testing.T) {
	t.Parallel()
	x := search.NewIndex(0)
	require.Empty(t, x.Query([]float32{1}, "", 5))
	require.NoError(t, x.Upsert(search.Doc{Kind: search.KindJob, ID: "j", Vector: search.Quantize([]float32{1, 0})}))
	require.Equal(t, 2, x.Dim(), "adopted from the first vector")
	err := x.Upsert(search.Doc{Kind: search.KindJob, ID: "k", Vector: search.Quantize([]float32{1, 0, 0})})
	require.Equal(t, openjury.Invalid, openjury.KindOf(err))
	err = x.Upsert(search.Doc{Kind: "vote", ID: "k", Vector: search.Quantize([]float32{1, 0})})
	require.Equal(t, openjury.Invalid, openjury.KindOf(err))

	// Replace, delete, reuse the slot.
	require.NoError(t, x.Upsert(search.Doc{Kind: search.KindJob, ID: "j", Vector: search.Quantize([]float32{0, 1})}))
	require.Equal(t, 1, x.Len())
	require.InDelta(t, 1, x.Query([]float32{0, 1}, "", 1)[0].Similarity, 1e-6)
	x.Delete(search.KindJob, "j")
	x.Delete(search.KindJob, "absent")
	require.Empty(t, x.Query([]float32{0, 1}, "", 5))
	require.NoError(t, x.Upsert(search.Doc{Kind: search.KindPost, ID: "p", Vector: search.Quantize([]float32{1, 1})}))
	got := x.Query([]float32{0, 1}, "", 5)
	require.Len(t, got, 1)
	require.Equal(t, "p", got[0].ID)
	require.Equal(t, 1, x.Len())
}

// TestIndexMatchesBruteForce: over enough documents for the parallel scan,
// the results equal a brute-force ranking of the quantised vectors, for
// dense and sparse queries and with a kind filter.
func TestIndexMatchesBruteForce(t *testing.T) {
	t.Parallel()
	const n, dim = 20000, 16
	rng := rand.New(rand.NewPCG(1, 2))
	x := search.NewIndex(dim)
	vecs := make([][]float32, n)
	docs := make([]search.Doc, n)
	for i := range vecs {
		v := make([]float32, dim)
		for d := range v {
			v[d] = float32(rng.NormFloat64())
		}
		q := search.Quantize(v)
		vecs[i] = q.Float32()
		docs[i] = search.Doc{Kind: search.Kinds[i%4], ID: string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676)), Vector: q}
	}
	require.NoError(t, x.Upsert(docs...))
	unit := func(v []float32) []float64 {
		var s float64
		for _, f := range v {
			s += float64(f) * float64(f)
		}
		out := make([]float64, len(v))
		for i, f := range v {
			out[i] = float64(f) / math.Sqrt(s)
		}
		return out
	}
	for _, tc := range []struct {
		q    []float32
		kind search.Kind
	}{
		{vecs[7], ""},
		{[]float32{0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, -2, 0, 0, 0, 0}, ""},
		{vecs[99], search.KindComment},
	} {
		qu := unit(tc.q)
		type scored struct {
			i int
			s float64
		}
		var want []scored
		for i, v := range vecs {
			if tc.kind != "" && docs[i].Kind != tc.kind {
				continue
			}
			var s float64
			for d, f := range unit(v) {
				s += f * qu[d]
			}
			want = append(want, scored{i, s})
		}
		slices.SortFunc(want, func(a, b scored) int { return cmp.Compare(b.s, a.s) })
		got := x.Query(tc.q, tc.kind, 10)
		require.Len(t, got, 10)
		for k, r := range got {
			require.InDelta(t, want[k].s, r.Similarity, 1e-4, "rank %d", k)
			if k < 9 && math.Abs(want[k].s-want[k+1].s) > 1e-4 && (k == 0 || math.Abs(want[k].s-want[k-1].s) > 1e-4) {
				require.Equal(t, docs[want[k].i].ID, r.ID, "rank %d", k)
			}
		}
	}
}

func TestLocalEmbedder(t *testing.T) {
	t.Parallel()
	l := search.NewLocal()
	a := l.Vector("Translate the onboarding guide into Japanese")
	require.Len(t, a, search.LocalDim)
	require.Equal(t, a, l.Vector("Translate the onboarding guide into Japanese"), "deterministic")
	var norm float64
	for _, v := range a {
		norm += float64(v) * float64(v)
	}
	require.InDelta(t, 1, norm, 1e-5)
	require.Equal(t, make([]float32, search.LocalDim), l.Vector(" \n!? "), "no features: zero vector")

	cos := func(x, y []float32) float64 {
		var s float64
		for i := range x {
			s += float64(x[i]) * float64(y[i])
		}
		return s
	}
	// Morphology: inflected forms are closer than unrelated words.
	require.Greater(t, cos(l.Vector("translation"), l.Vector("translate")), cos(l.Vector("translation"), l.Vector("bridge")))
	require.Greater(t, cos(l.Vector("криптография"), l.Vector("криптографии")), cos(l.Vector("криптография"), l.Vector("подписи")))
	vecs, err := l.Embed(context.Background(), []string{"a", "b"})
	require.NoError(t, err)
	require.Len(t, vecs, 2)
}

// TestIndexIDs: UUID ids (kept as 16 bytes) and other ids (kept as
// strings) come back as they went in; the same id under two kinds is two
// documents; a UUID in another spelling is another id.
func TestIndexIDs(t *testing.T) {
	t.Parallel()
	x := search.NewIndex(2)
	v := search.Quantize([]float32{1, 0})
	u := openjury.NewID()
	ids := []string{u, strings.ToUpper(u), "{" + u + "}", "plain", ""}
	for _, id := range ids {
		require.NoError(t, x.Upsert(search.Doc{Kind: search.KindJob, ID: id, Vector: v}, search.Doc{Kind: search.KindPost, ID: id, Vector: v}))
	}
	require.Equal(t, 2*len(ids), x.Len())
	var got []string
	for _, h := range x.Query([]float32{1, 0}, search.KindPost, 50) {
		got = append(got, h.ID)
	}
	require.ElementsMatch(t, ids, got)
	x.Delete(search.KindJob, u)
	x.Delete(search.KindJob, "plain")
	require.Equal(t, 2*len(ids)-2, x.Len())
	for _, h := range x.Query([]float32{1, 0}, search.KindJob, 50) {
		require.NotContains(t, []string{u, "plain"}, h.ID)
	}
}

// TestIndexChurn: many documents upserted, replaced and deleted in random
// order (tombstones, table growth, slot reuse) leave the index equal to a
// map of the live documents.
func TestIndexChurn(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	x := search.NewIndex(4)
	live := map[search.Key]search.Vec8{}
	ids := make([]string, 3000)
	for i := range ids {
		ids[i] = openjury.NewID()
		if i%3 == 0 {
			ids[i] = fmt.Sprintf("id-%d", i)
		}
	}
	for range 40000 {
		k := search.Key{Kind: search.Kinds[rng.IntN(4)], ID: ids[rng.IntN(len(ids))]}
		if rng.IntN(3) == 0 {
			x.Delete(k.Kind, k.ID)
			delete(live, k)
			continue
		}
		v := search.Quantize([]float32{float32(rng.NormFloat64()), float32(rng.NormFloat64()), float32(rng.NormFloat64()), float32(rng.NormFloat64())})
		require.NoError(t, x.Upsert(search.Doc{Kind: k.Kind, ID: k.ID, Vector: v}))
		live[k] = v
	}
	require.Equal(t, len(live), x.Len())
	hits := x.Query([]float32{1, 0, 0, 0}, "", len(live)+10)
	require.Len(t, hits, len(live))
	for _, h := range hits {
		v, ok := live[search.Key{Kind: h.Kind, ID: h.ID}]
		require.True(t, ok, "%v is live", h)
		f := v.Float32()
		var n float64
		for _, c := range f {
			n += float64(c) * float64(c)
		}
		require.InDelta(t, float64(f[0])/math.Sqrt(n), h.Similarity, 1e-5)
	}
}

// TestVec8: quantisation keeps the direction to within a byte's rounding,
// the stored form reads back exactly, and degenerate vectors give zeros.
func TestVec8(t *testing.T) {
	t.Parallel()
	v := []float32{3, -4, 0.01, 0}
	q := search.Quantize(v)
	require.Equal(t, []int8{95, -127, 0, 0}, q.Values)
	back := q.Float32()
	require.InDelta(t, 0.6, back[0], 0.005)
	require.InDelta(t, -0.8, back[1], 1e-5)
	got, err := search.DecodeVec8(q.Encode())
	require.NoError(t, err)
	require.Equal(t, q, got)
	_, err = search.DecodeVec8([]byte{1, 2, 3})
	require.Equal(t, openjury.Invalid, openjury.KindOf(err))
	for _, bad := range [][]float32{{0, 0}, {float32(math.NaN()), 1}, {float32(math.Inf(1)), 1}} {
		z := search.Quantize(bad)
		require.Zero(t, z.Scale)
		require.Equal(t, []int8{0, 0}, z.Values)
	}
}
