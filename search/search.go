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
	// SnippetChars bounds the content returned with a result.
	SnippetChars = 300
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

// Result is one search hit.
type Result struct {
	Kind Kind
	ID   string
	// Similarity is the cosine similarity of the query and the document,
	// in -1..1.
	Similarity float64
	// Title is the document's title; meaningful only when Kind.HasTitle.
	Title string
	// Content is the beginning of the document's text (at most
	// SnippetChars characters).
	Content string
}

// Response is the answer to a query: the trimmed query and its results,
// by similarity descending, then kind (in the order of Kinds), then id.
type Response struct {
	Query   string
	Results []Result
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

// Service answers semantic search queries from an in-memory Index.
type Service struct {
	index    *Index
	embedder Embedder
	clock    openjury.Clock
	rec      Recorder
}

// NewService returns a Service querying index with query vectors from
// embedder (the same embedder that filled the index). rec may be nil.
func NewService(index *Index, embedder Embedder, clock openjury.Clock, rec Recorder) *Service {
	if rec == nil {
		rec = nopRecorder{}
	}
	return &Service{index: index, embedder: embedder, clock: clock, rec: rec}
}

// Search runs a query: q is trimmed and must hold 1..MaxQueryChars
// characters; kind "" means every kind; limit must be 1..MaxLimit.
// Errors: Invalid naming the parameter (q, limit; a NUL character in q);
// the embedder's errors
// (Unavailable when a remote embedder cannot be reached).
func (s *Service) Search(ctx context.Context, q string, kind Kind, limit int) (*Response, error) {
	const op = "search.Search"
	start := s.clock.Now()
	if err := valid.Text(op, "q", q); err != nil {
		return nil, err
	}
	q = strings.TrimSpace(q)
	if q == "" {
		return nil, openjury.E(openjury.Invalid, op, "q: is required and must not be blank")
	}
	if n := utf8.RuneCountInString(q); n > MaxQueryChars {
		return nil, openjury.Errorf(openjury.Invalid, op, "q: must be at most %d characters (got %d)", MaxQueryChars, n)
	}
	if kind != "" && !kind.Valid() {
		return nil, openjury.E(openjury.Invalid, op, "type: must be one of job, submission, comment, post, all")
	}
	if limit < 1 || limit > MaxLimit {
		return nil, openjury.Errorf(openjury.Invalid, op, "limit: must be between 1 and %d", MaxLimit)
	}
	vecs, err := s.embedder.Embed(ctx, []string{q})
	if err != nil {
		s.rec.EmbedError()
		return nil, openjury.Wrap(op, err)
	}
	if len(vecs) != 1 {
		s.rec.EmbedError()
		return nil, openjury.E(openjury.Internal, op, "the embedder returned no vector for the query")
	}
	results := s.index.Query(vecs[0], kind, limit)
	s.rec.Query(s.clock.Now().Sub(start))
	return &Response{Query: q, Results: results}, nil
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

// Snippet is the content returned with a result: the beginning of Body.
func (s Source) Snippet() string { return TruncateChars(s.Body, SnippetChars) }

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
