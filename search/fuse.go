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

// ranked is a document of the fused ranking.
type ranked struct {
	Key
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

// after reports whether r ranks after the position (similarity, kind, id).
func (r ranked) after(similarity float64, kind Kind, id string) bool {
	return ranked{Key{kind, id}, similarity}.less(r)
}

// fuse ranks the documents of lex (the lexical ranking, best first;
// lexOK false when the query had no words to look for) and vec (the
// vector ranking, best first; vecOK false when it could not be
// consulted).
func (f Fusion) fuse(lex []Match, lexOK bool, vec []Hit, vecOK bool) []ranked {
	best := 0.0
	if lexOK {
		best += f.Lexical / (f.K + 1)
	}
	if vecOK {
		best += f.Vector / (f.K + 1)
	}
	scores := make(map[Key]float64, len(lex)+len(vec))
	for i, m := range lex {
		scores[m.Key] += f.Lexical / (f.K + float64(i+1))
	}
	for i, h := range vec {
		scores[Key{h.Kind, h.ID}] += f.Vector / (f.K + float64(i+1))
	}
	out := make([]ranked, 0, len(scores))
	for k, s := range scores {
		if s > 0 && best > 0 {
			out = append(out, ranked{Key: k, Similarity: min(1, s/best)})
		}
	}
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
