package search

import "slices"

// Fusion is weighted reciprocal rank fusion (Cormack, Clarke and
// Büttcher, SIGIR 2009): a document at rank r (from 1) of a ranking scores
// weight/(K + r) from it, and its fused relevance is the sum over the
// rankings, divided by the best possible (first in every ranking that was
// consulted), so it lies in 0..1. Ranks, unlike raw scores, need no
// calibration between BM25 and cosine similarity.
type Fusion struct {
	// K damps the difference between top ranks (60 in the paper).
	K float64
	// Lexical and Vector weigh the two rankings.
	Lexical, Vector float64
}

// The ranks of a document fit a byte (a cursor stores them so).
const _ = uint8(MaxResults)

// ranked is a document of the fused ranking.
type ranked struct {
	Key
	// Lex and Vec are the document's ranks (from 1) in the lexical and
	// the vector ranking, 0 when it is not in one.
	Lex, Vec uint8
	// Similarity is the fused relevance of those ranks (Fusion.similarity).
	Similarity float64
}

// less orders the fused ranking: similarity descending, then kind (in the
// order of Kinds), then id.
func (r ranked) less(o ranked) bool {
	if r.Similarity != o.Similarity {
		return r.Similarity > o.Similarity
	}
	if r.Kind != o.Kind {
		return r.Kind.rank() < o.Kind.rank()
	}
	return r.ID < o.ID
}

// rankings tells which rankings a query consulted: the lexical one when
// the query had words to look for, the vector one when the embedder
// answered.
type rankings struct{ lex, vec bool }

// similarity is the fused relevance of a document at lexical rank lex and
// vector rank vec (0: not in that ranking), in 0..1. Page 1 and the
// cursor of the following pages compute it with this one function, so a
// document shows the same similarity on every page.
func (f Fusion) similarity(used rankings, lex, vec uint8) float64 {
	best, s := 0.0, 0.0
	if used.lex {
		best += f.Lexical / (f.K + 1)
		if lex > 0 {
			s += f.Lexical / (f.K + float64(lex))
		}
	}
	if used.vec {
		best += f.Vector / (f.K + 1)
		if vec > 0 {
			s += f.Vector / (f.K + float64(vec))
		}
	}
	if s <= 0 || best <= 0 {
		return 0
	}
	return min(1, s/best)
}

// fuse ranks the documents of lex (the lexical ranking, best first) and
// vec (the vector ranking, best first), each holding at most MaxResults
// documents, of the rankings used: the best MaxResults documents of a
// positive fused relevance.
func (f Fusion) fuse(lex []Match, vec []Hit, used rankings) []ranked {
	at := make(map[Key]int, len(lex)+len(vec))
	out := make([]ranked, 0, len(lex)+len(vec))
	add := func(k Key) *ranked {
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, ranked{Key: k})
		}
		return &out[i]
	}
	if used.lex {
		for i, m := range lex[:min(len(lex), MaxResults)] {
			add(m.Key).Lex = uint8(i + 1)
		}
	}
	if used.vec {
		for i, h := range vec[:min(len(vec), MaxResults)] {
			add(Key{h.Kind, h.ID}).Vec = uint8(i + 1)
		}
	}
	n := 0
	for _, r := range out {
		if r.Similarity = f.similarity(used, r.Lex, r.Vec); r.Similarity > 0 {
			out[n] = r
			n++
		}
	}
	out = out[:n]
	slices.SortFunc(out, func(a, b ranked) int {
		if a.less(b) {
			return -1
		}
		if b.less(a) {
			return 1
		}
		return 0
	})
	if len(out) > MaxResults {
		out = out[:MaxResults]
	}
	return out
}
