package wire

// SemanticSearchResult is one search hit. JobID is the job it belongs to
// (null for posts and their comments); Title is null for the kinds without
// one (submissions, comments); Similarity the fused relevance in
// 0..1; Snippet HTML: the passage around the query's words, escaped, the
// matched words in <mark>…</mark>.
type SemanticSearchResult struct {
	Type       string  `json:"type"`
	ID         string  `json:"id"`
	JobID      *string `json:"job_id"`
	Similarity float64 `json:"similarity"`
	Title      *string `json:"title"`
	Content    *string `json:"content"`
	Snippet    string  `json:"snippet"`
}

// SemanticSearchResponse is one page of a search; NextCursor (null on the
// last page) continues it.
type SemanticSearchResponse struct {
	Query      string                 `json:"query"`
	Results    []SemanticSearchResult `json:"results"`
	Count      int64                  `json:"count"`
	NextCursor *string                `json:"next_cursor"`
}
