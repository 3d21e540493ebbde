package transport

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/search"
	"github.com/openjury/openjury/wire"
)

func (s *server) searchRoutes() []route {
	return []route{
		{pattern: "GET /api/v1/search/semantic", op: "semanticSearch", service: "semantic_search", h: s.semanticSearch},
	}
}

// errSearchDisabled answers the search route of a server without search.
var errSearchDisabled = openjury.E(openjury.NotImplemented, "transport.search",
	"semantic search is disabled on this server (SERVICE_SEMANTIC_SEARCH_ENABLED=0)")

func (s *server) semanticSearch(w http.ResponseWriter, r *http.Request) error {
	if s.svc.Search == nil {
		return errSearchDisabled
	}
	q := r.URL.Query()
	if !q.Has("q") {
		return openjury.E(openjury.Invalid, opDecode, "q: is required")
	}
	kind, err := search.ParseType(q.Get("type"))
	if err != nil {
		return err
	}
	limit, err := queryInt(r, "limit", search.DefaultLimit, 1, search.MaxLimit)
	if err != nil {
		return err
	}
	res, err := s.svc.Search.Search(r.Context(), search.Request{Q: q.Get("q"), Kind: kind, Limit: limit, Cursor: q.Get("cursor")})
	if err != nil {
		return err
	}
	out := wire.SemanticSearchResponse{Query: res.Query, Results: make([]wire.SemanticSearchResult, len(res.Results)), Count: int64(len(res.Results))}
	for i, x := range res.Results {
		item := wire.SemanticSearchResult{Type: string(x.Kind), ID: x.ID, Similarity: x.Similarity, Content: &x.Content, Snippet: x.Snippet.HTML()}
		if x.Kind.HasTitle() {
			item.Title = &x.Title
		}
		if x.JobID != "" {
			item.JobID = &x.JobID
		}
		out.Results[i] = item
	}
	if res.NextCursor != "" {
		out.NextCursor = &res.NextCursor
	}
	return respond(w, out)
}

// searchMetrics is a search.Recorder on Prometheus collectors.
type searchMetrics struct {
	indexed  prometheus.Counter
	errors   prometheus.Counter
	pending  prometheus.Gauge
	duration prometheus.Histogram
}

// SearchMetrics registers the semantic search metrics on reg and returns
// the search.Recorder that feeds them: documents indexed, embedder errors,
// pending queue length and query latency. Give reg to the handler too
// (Options.Registry) to serve them at GET /metrics. Calling it again with
// the same registry reuses the collectors.
func SearchMetrics(reg prometheus.Registerer) search.Recorder {
	return &searchMetrics{
		indexed: register(reg, prometheus.NewCounter(prometheus.CounterOpts{
			Name: "openjury_search_documents_indexed_total",
			Help: "Search index entries stored by this replica's indexer (embedded or removed documents).",
		})),
		errors: register(reg, prometheus.NewCounter(prometheus.CounterOpts{
			Name: "openjury_search_embed_errors_total",
			Help: "Failed embedder calls (indexing batches and queries).",
		})),
		pending: register(reg, prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "openjury_search_pending_documents",
			Help: "Documents waiting to be indexed, as last counted by this replica's indexer.",
		})),
		duration: register(reg, prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "openjury_search_query_duration_seconds",
			Help:    "Time to answer a semantic search query (embedding the query and searching the index).",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		})),
	}
}

func (m *searchMetrics) Indexed(n int)         { m.indexed.Add(float64(n)) }
func (m *searchMetrics) EmbedError()           { m.errors.Inc() }
func (m *searchMetrics) Pending(n int64)       { m.pending.Set(float64(n)) }
func (m *searchMetrics) Query(d time.Duration) { m.duration.Observe(d.Seconds()) }
