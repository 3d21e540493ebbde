package search

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/internal/valid"
)

// Kind is the type of an indexed document.
type Kind string

// The kinds of indexed documents (the spec's SemanticSearchResult.type).
const (
	KindJob        Kind = "job"
	KindSubmission Kind = "submission"
	KindComment    Kind = "comment"
	KindPost       Kind = "post"
)

// Kinds lists every Kind in their tie-break order (results of equal
// similarity are ordered by kind in this order, then by id).
var Kinds = []Kind{KindJob, KindSubmission, KindComment, KindPost}

// TypeAll is the type parameter that selects every kind.
const TypeAll = "all"

// Query limits (spec: q at most 500 characters, limit default 20, 1..50).
const (
	MaxQueryChars = 500
	DefaultLimit  = 20
	MaxLimit      = 50
	// SnippetChars bounds the content returned with a result, and the
	// length of its highlighted snippet.
	SnippetChars = 300
	// MaxResults is how many results of one query the pages of its cursor
	// reach: each ranking contributes its best MaxResults documents.
	MaxResults = 200
	// maxTerms bounds the words of a query the lexical ranking uses.
	maxTerms = 32
)

// Valid reports whether k is one of Kinds.
func (k Kind) Valid() bool { return k.rank() > 0 }

// HasTitle reports whether documents of kind k have a title (jobs and
// posts); results of the other kinds carry a null title.
func (k Kind) HasTitle() bool { return k == KindJob || k == KindPost }

// rank is k's position in Kinds plus one, 0 when k is not a kind.
func (k Kind) rank() uint8 {
	for i, x := range Kinds {
		if x == k {
			return uint8(i + 1)
		}
	}
	return 0
}

// kindOfRank is the inverse of rank.
func kindOfRank(r uint8) Kind { return Kinds[r-1] }

// ParseType turns the type parameter into a kind filter: "" and "all"
// give "" (every kind). Errors: Invalid naming `type`.
func ParseType(s string) (Kind, error) {
	if s == "" || s == TypeAll {
		return "", nil
	}
	if k := Kind(s); k.Valid() {
		return k, nil
	}
	return "", openjury.E(openjury.Invalid, "search.ParseType", "type: must be one of job, submission, comment, post, all")
}

// Key names a document.
type Key struct {
	Kind Kind
	ID   string
}

// Match is a document of a lexical query with the engine's relevance
// (higher is better; comparable only within one answer).
type Match struct {
	Key
	Score float64
}

// Document is the stored text of a searchable document.
type Document struct {
	Key
	// JobID is the job the document belongs to: a job's own id, a
	// submission's job, the job of a comment on a job or on one of its
	// submissions; "" for posts and comments on posts.
	JobID string
	// Title is a job's or post's title.
	Title string
	// Body is a job's prompt or the content of a submission, comment or
	// post.
	Body string
	// Extra is a submission's evidence claims and quotes, one per line.
	Extra string
}

// Texts is the lexical side of search, which the Indexer's lexical step
// fills from the pending queue (bunstore implements it with PostgreSQL's
// full-text search and SQLite's FTS5, both with English stemming). Every
// method takes ctx first; errors are Unavailable when the database cannot
// be reached, Internal otherwise.
type Texts interface {
	// Match returns up to limit documents of kind ("" for every kind)
	// that contain at least one of terms (lowercase words without
	// English stop words; the engine stems them, so "translation" finds
	// "translated"), most relevant first, ties by kind then id. No terms
	// match nothing.
	Match(ctx context.Context, terms []string, kind Kind, limit int) ([]Match, error)
	// Documents returns the stored documents of keys, in any order; a key
	// without a document (deleted meanwhile) is left out.
	Documents(ctx context.Context, keys []Key) ([]Document, error)
}

// Result is one search hit.
type Result struct {
	Kind Kind
	ID   string
	// JobID is the job the document belongs to ("" for none): see
	// Document.JobID.
	JobID string
	// Similarity is the document's fused relevance in 0..1
	// (docs/rules.md#search): its reciprocal ranks in the lexical and the
	// vector ranking, weighed and divided by the best possible, so 1 is
	// first in both.
	Similarity float64
	// Title is the document's title; meaningful only when Kind.HasTitle.
	Title string
	// Content is the beginning of the document's body (at most
	// SnippetChars characters).
	Content string
	// Snippet is a passage of the document's text (body, then evidence)
	// of about SnippetChars characters around the query's words, with
	// them marked.
	Snippet Snippet
}

// Request is a query.
type Request struct {
	// Q is the query text: trimmed, it must hold 1..MaxQueryChars
	// characters.
	Q string
	// Kind filters the results ("" for every kind).
	Kind Kind
	// Limit is the page size, 1..MaxLimit.
	Limit int
	// Cursor is the NextCursor of the previous page of the same query
	// and kind ("" for the first page): it carries the rest of the first
	// page's ranking (docs/rules.md#search).
	Cursor string
}

// Response is the answer to a query: the trimmed query and one page of
// results, by similarity descending, then kind (in the order of Kinds),
// then id.
type Response struct {
	Query   string
	Results []Result
	// NextCursor continues with the next page of the same ranking; ""
	// when there is none.
	NextCursor string
}

// Recorder receives the service's measurements (for example Prometheus
// collectors in the host). Every method must be safe for concurrent use.
type Recorder interface {
	// Indexed counts n documents stored in the index (embedded or removed).
	Indexed(n int)
	// EmbedError counts one failed embedder call.
	EmbedError()
	// Pending reports the length of the pending queue.
	Pending(n int64)
	// Query records the time one query took.
	Query(d time.Duration)
}

// nopRecorder records nothing.
type nopRecorder struct{}

func (nopRecorder) Indexed(int)         {}
func (nopRecorder) EmbedError()         {}
func (nopRecorder) Pending(int64)       {}
func (nopRecorder) Query(time.Duration) {}

// Config tunes a Service. Zero values take the embedder's defaults
// (Tuned).
type Config struct {
	// MinSimilarity is the relevance floor of the vector ranking: a
	// document less cosine-similar to the query is left out of it.
	MinSimilarity float64
	// Fusion weighs the two rankings.
	Fusion Fusion
}

// Tuned is implemented by embedders that know the Config they rank best
// with (measured by the quality test, search/quality_test.go).
type Tuned interface {
	SearchConfig() Config
}

// DefaultConfig is the Config of an embedder that is not Tuned (a remote
// model): cosine below 0.25 is left out (unrelated texts of common
// embedding models score 0 to 0.2), and both rankings weigh the same.
var DefaultConfig = Config{MinSimilarity: 0.25, Fusion: Fusion{K: 60, Lexical: 1, Vector: 1}}

// Service answers search queries by hybrid ranking: the database's
// full-text ranking (Texts) fused with the cosine ranking of the
// in-memory vector Index.
type Service struct {
	index    *Index
	embedder Embedder
	texts    Texts
	clock    openjury.Clock
	rec      Recorder
	cfg      Config
}

// NewService returns a Service querying texts and index, with query
// vectors from embedder (the same embedder that filled the index). rec
// may be nil; zero fields of cfg take the embedder's defaults.
func NewService(index *Index, embedder Embedder, texts Texts, clock openjury.Clock, rec Recorder, cfg Config) *Service {
	if rec == nil {
		rec = nopRecorder{}
	}
	def := DefaultConfig
	if t, ok := embedder.(Tuned); ok {
		def = t.SearchConfig()
	}
	if cfg.MinSimilarity == 0 {
		cfg.MinSimilarity = def.MinSimilarity
	}
	if cfg.Fusion == (Fusion{}) {
		cfg.Fusion = def.Fusion
	}
	return &Service{index: index, embedder: embedder, texts: texts, clock: clock, rec: rec, cfg: cfg}
}

// Config returns the configuration the service ranks with.
func (s *Service) Config() Config { return s.cfg }

// Search runs a query. Errors: Invalid naming the parameter (q, limit,
// type, cursor; a NUL character in q); Unavailable when the database
// cannot be reached. A failing embedder does not fail the query: the
// answer then comes from the lexical ranking alone (the failure is
// counted by Recorder.EmbedError).
func (s *Service) Search(ctx context.Context, in Request) (*Response, error) {
	const op = "search.Search"
	start := s.clock.Now()
	if err := valid.Text(op, "q", in.Q); err != nil {
		return nil, err
	}
	q := strings.TrimSpace(in.Q)
	if q == "" {
		return nil, openjury.E(openjury.Invalid, op, "q: is required and must not be blank")
	}
	if n := utf8.RuneCountInString(q); n > MaxQueryChars {
		return nil, openjury.Errorf(openjury.Invalid, op, "q: must be at most %d characters (got %d)", MaxQueryChars, n)
	}
	if in.Kind != "" && !in.Kind.Valid() {
		return nil, openjury.E(openjury.Invalid, op, "type: must be one of job, submission, comment, post, all")
	}
	if in.Limit < 1 || in.Limit > MaxLimit {
		return nil, openjury.Errorf(openjury.Invalid, op, "limit: must be between 1 and %d", MaxLimit)
	}
	fp := fingerprint(q, in.Kind)
	terms := QueryTerms(q)
	var used rankings
	var ranking []ranked
	if in.Cursor != "" {
		// The following pages continue the first page's ranking.
		var err error
		if used, ranking, err = decodeCursor(op, in.Cursor, fp, in.Kind, s.cfg.Fusion); err != nil {
			return nil, err
		}
	} else {
		var lex []Match
		if used.lex = len(terms) > 0; used.lex {
			var err error
			if lex, err = s.texts.Match(ctx, terms, in.Kind, MaxResults); err != nil {
				return nil, openjury.Wrap(op, err)
			}
		}
		var vec []Hit
		vec, used.vec = s.vectorHits(ctx, q, in.Kind)
		ranking = s.cfg.Fusion.fuse(lex, vec, used)
	}
	results, rest, err := s.page(ctx, terms, ranking, in.Limit)
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	out := &Response{Query: q, Results: results}
	if len(rest) > 0 {
		out.NextCursor = encodeCursor(fp, used, rest)
	}
	s.rec.Query(s.clock.Now().Sub(start))
	return out, nil
}

// page reads the documents of the first limit entries of ranking that
// still exist and returns their results and the rest of the ranking. A
// document deleted since it was ranked is left out and the next one takes
// its place: one more read looks ahead up to MaxLimit entries, so a page
// costs at most two reads and is short only when most of them were
// deleted.
func (s *Service) page(ctx context.Context, terms []string, ranking []ranked, limit int) ([]Result, []ranked, error) {
	out := make([]Result, 0, min(limit, len(ranking)))
	hl := newHighlighter(terms)
	next := 0
	for round := 0; round < 2 && len(out) < limit && next < len(ranking); round++ {
		n := limit - len(out)
		if round > 0 {
			n = MaxLimit
		}
		chunk := ranking[next:min(len(ranking), next+n)]
		keys := make([]Key, len(chunk))
		for i, r := range chunk {
			keys[i] = r.Key
		}
		docs, err := s.texts.Documents(ctx, keys)
		if err != nil {
			return nil, nil, err
		}
		byKey := make(map[Key]*Document, len(docs))
		for i := range docs {
			byKey[docs[i].Key] = &docs[i]
		}
		for _, r := range chunk {
			if len(out) == limit {
				break
			}
			next++
			d, ok := byKey[r.Key]
			if !ok {
				continue // deleted since it was ranked
			}
			text := d.Body
			if d.Extra != "" {
				text += "\n" + d.Extra
			}
			out = append(out, Result{
				Kind: r.Kind, ID: r.ID, JobID: d.JobID, Similarity: r.Similarity,
				Title: d.Title, Content: TruncateChars(d.Body, SnippetChars), Snippet: hl.snippet(text, SnippetChars),
			})
		}
	}
	return out, ranking[next:], nil
}

// vectorHits embeds q and returns the index's best MaxResults documents
// at or above the relevance floor; ok is false when the embedder failed
// (the ranking then goes without them).
func (s *Service) vectorHits(ctx context.Context, q string, kind Kind) ([]Hit, bool) {
	vecs, err := s.embedder.Embed(ctx, []string{q})
	if err != nil || len(vecs) != 1 {
		s.rec.EmbedError()
		return nil, false
	}
	hits := s.index.Query(vecs[0], kind, MaxResults)
	n := 0
	for n < len(hits) && hits[n].Similarity >= s.cfg.MinSimilarity {
		n++
	}
	return hits[:n], true
}

// QueryTerms returns the words of q the lexical ranking looks for:
// lowercase runs of letters and digits that are not English stop words,
// each once, in order, at most 32.
func QueryTerms(q string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range tokenize(q) {
		if seen[w] || isStopWord(w) {
			continue
		}
		seen[w] = true
		out = append(out, w)
		if len(out) == maxTerms {
			break
		}
	}
	return out
}

// Source is the stored state of one document, as the Store reads it for
// indexing.
type Source struct {
	Kind Kind
	ID   string
	// Title is the title of a job or post.
	Title string
	// Body is a job's prompt or the content of a submission, comment or
	// post.
	Body string
	// Extra holds a submission's evidence claims and quotes.
	Extra []string
	// Gone is true when the document no longer exists or is deleted (a
	// soft-deleted comment or post): it leaves the index.
	Gone bool
}

// Text is what is embedded for the document (docs/rules.md#search): a
// job's title and prompt, a submission's content and evidence claims and
// quotes, a comment's content, a post's title and content.
func (s Source) Text() string {
	parts := make([]string, 0, 2+len(s.Extra))
	if s.Title != "" {
		parts = append(parts, s.Title)
	}
	parts = append(parts, s.Body)
	for _, e := range s.Extra {
		if e != "" {
			parts = append(parts, e)
		}
	}
	return strings.Join(parts, "\n")
}

// TruncateChars returns the first n characters (runes) of s.
func TruncateChars(s string, n int) string {
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos]
		}
		i++
	}
	return s
}
