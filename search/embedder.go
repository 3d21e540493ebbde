package search

import (
	"context"
	"math"
	"slices"
	"strings"
	"unicode"
)

// Embedder turns texts into vectors. Vectors of one embedder all have the
// same dimension; Index normalises them, so they need not be unit length.
type Embedder interface {
	// Embed returns one vector per text, in order. Errors: Unavailable
	// when a remote embedder cannot be reached, Invalid for input it
	// refuses.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	// Model names the embedder and its settings. Stored vectors of another
	// model are embedded again.
	Model() string
}

// LocalDim is the dimension of the Local embedder's vectors.
const LocalDim = 256

// Feature weights of the Local embedder: whole words count most, word
// pairs add phrase matches, character n-grams add morphological matches
// (plural, tense, compounds, typos) and work on scripts without spaces.
const (
	weightWord   = 1.0
	weightBigram = 0.5
	weightGram   = 0.25
)

// Local is the built-in embedder: no network, no model files,
// deterministic. It hashes word unigrams and bigrams and character 3- and
// 4-grams of each word (Unicode letters and digits, lowercased) into
// LocalDim signed buckets with sublinear term-frequency weights
// (1 + ln tf) and L2-normalises the result. It matches lexically and
// morphologically, not by meaning. It is safe for concurrent use.
type Local struct{}

// NewLocal returns the built-in embedder.
func NewLocal() *Local { return &Local{} }

// SearchConfig implements Tuned with the settings the quality test
// measured best for this embedder (search/quality_test.go,
// SEARCH_QUALITY_SWEEP=1): its vectors match words and their spellings,
// not meaning, so its ranking weighs half the lexical one; unrelated
// texts share character n-grams up to a cosine of about 0.2, hence the
// floor of 0.25.
func (*Local) SearchConfig() Config {
	return Config{MinSimilarity: 0.25, Fusion: Fusion{K: 60, Lexical: 1, Vector: 0.5}}
}

// Model implements Embedder.
func (*Local) Model() string { return "local-hash-ngram-v1-256" }

// Embed implements Embedder; it never fails.
func (l *Local) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = l.Vector(t)
	}
	return out, nil
}

// Vector embeds one text.
func (*Local) Vector(text string) []float32 {
	// Every feature occurrence is one hash; sorting them groups the
	// occurrences of a feature (its term frequency) and fixes the order
	// of the sums (float addition is not associative), so the vector is
	// bit for bit the same on every run.
	words := tokenize(text)
	feats := make([]uint64, 0, 8*len(words))
	prev := ""
	for _, w := range words {
		if !stopword(w) {
			feats = append(feats, hashFeature('w', w, ""))
		}
		if prev != "" {
			feats = append(feats, hashFeature('b', prev, w))
		}
		prev = w
		feats = addGrams(feats, w)
	}
	slices.Sort(feats)
	vec := make([]float32, LocalDim)
	for i := 0; i < len(feats); {
		h := feats[i]
		j := i + 1
		for j < len(feats) && feats[j] == h {
			j++
		}
		v := classWeight(byte(h)) * sublinear(j-i)
		if h>>63 == 1 {
			v = -v
		}
		vec[(h>>8)%LocalDim] += v
		i = j
	}
	normalize(vec)
	return vec
}

// classWeight is the weight of a feature class.
func classWeight(c byte) float32 {
	switch c {
	case 'w':
		return weightWord
	case 'b':
		return weightBigram
	default:
		return weightGram
	}
}

// sublinear is 1 + ln(tf).
func sublinear(tf int) float32 {
	if tf == 1 {
		return 1
	}
	return 1 + float32(math.Log(float64(tf)))
}

// tokenize lowercases text and splits it into runs of letters and digits.
func tokenize(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r)
	})
}

// addGrams appends the hashes of the character 3- and 4-grams of "<w>"
// (the word with boundary marks).
func addGrams(feats []uint64, w string) []uint64 {
	var buf [64]rune
	rs := append(buf[:0], '<')
	for _, r := range w {
		rs = append(rs, r)
	}
	rs = append(rs, '>')
	for n := 3; n <= 4; n++ {
		for i := 0; i+n <= len(rs); i++ {
			feats = append(feats, hashRunes(byte('0'+n), rs[i:i+n]))
		}
	}
	return feats
}

// FNV-1a 64-bit.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// hashFeature hashes a feature of class c made of a and b. The low byte
// of the result is c (the class picks the weight), the rest the hash.
func hashFeature(c byte, a, b string) uint64 {
	h := uint64(fnvOffset)
	h = (h ^ uint64(c)) * fnvPrime
	for i := 0; i < len(a); i++ {
		h = (h ^ uint64(a[i])) * fnvPrime
	}
	if b != "" {
		h = (h ^ ' ') * fnvPrime
		for i := 0; i < len(b); i++ {
			h = (h ^ uint64(b[i])) * fnvPrime
		}
	}
	return h&^0xff | uint64(c)
}

// hashRunes hashes a character n-gram of class c.
func hashRunes(c byte, rs []rune) uint64 {
	h := uint64(fnvOffset)
	h = (h ^ uint64(c)) * fnvPrime
	for _, r := range rs {
		h = (h ^ uint64(r)) * fnvPrime
	}
	return h&^0xff | uint64(c)
}

// stopwords are frequent English words whose whole-word feature is left
// out (their character n-grams still count).
var stopwords = map[string]bool{
	"a": true, "an": true, "and": true, "are": true, "as": true, "at": true, "be": true, "by": true,
	"for": true, "from": true, "has": true, "have": true, "how": true, "in": true, "is": true, "it": true,
	"its": true, "of": true, "on": true, "or": true, "that": true, "the": true, "this": true, "to": true,
	"was": true, "were": true, "what": true, "which": true, "with": true, "i": true, "we": true, "you": true,
}

func stopword(w string) bool { return stopwords[w] }

// normalize scales v to unit length (a zero vector stays zero).
func normalize(v []float32) {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if sum == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(sum))
	for i := range v {
		v[i] *= inv
	}
}
