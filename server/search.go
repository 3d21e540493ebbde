package server

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/search"
	"github.com/openjury/openjury/search/openai"
	"github.com/openjury/openjury/transport"
)

// searchFollowInterval is how often a replica polls the stored search
// index for changes (a change is searchable everywhere within about this
// plus the indexer's poll and embedding time: under 2 s).
const searchFollowInterval = 300 * time.Millisecond

// searchParts are the pieces of semantic search New wires and Start runs.
type searchParts struct {
	svc      *search.Service
	index    *search.Index
	indexer  *search.Indexer
	follower *search.Follower
	model    string
	// follow is the follower's poll interval.
	follow time.Duration
}

// newSearch builds the semantic search of the configuration: emb (nil: the
// embedder of cfg.Embedder), poll (zero: the indexer's default and
// searchFollowInterval). Leases and latencies use the wall clock: they are
// machinery, not domain time.
func newSearch(cfg Config, db *bunstore.DB, emb search.Embedder, poll time.Duration, reg prometheus.Registerer, logger *slog.Logger) (*searchParts, error) {
	dim := 0 // an embedder of another kind gives the dimension with its first vectors
	// The built-in embedder runs in the process and does not fail: the
	// lexical step embeds what it indexed at once.
	inline := emb == nil && cfg.Embedder == EmbedderLocal
	if emb == nil {
		emb, dim = search.NewLocal(), search.LocalDim
		if cfg.Embedder != EmbedderLocal {
			c, err := openai.New(openai.Config{BaseURL: cfg.Embedder, Model: cfg.EmbedderModel, APIKey: cfg.EmbedderAPIKey})
			if err != nil {
				return nil, fmt.Errorf("search embedder: %w", err)
			}
			emb, dim = c, 0
		}
	}
	icfg, follow := search.IndexerConfig{}, searchFollowInterval
	if poll > 0 {
		icfg, follow = search.IndexerConfig{Interval: poll, MaxBackoff: 4 * poll}, poll
	}
	icfg.Inline = inline
	rec := transport.SearchMetrics(reg)
	wall := openjury.SystemClock{}
	index := search.NewIndex(dim)
	store := db.SearchIndex()
	return &searchParts{
		svc:      search.NewService(index, emb, db.SearchTexts(), wall, rec, search.Config{}),
		index:    index,
		indexer:  search.NewIndexer(store, emb, wall, icfg, rec, logger),
		follower: search.NewFollower(store, index, emb.Model(), rec, logger),
		model:    emb.Model(),
		follow:   follow,
	}, nil
}

// load fills the index from the stored vectors, so the first request
// finds it; a failure is logged and left to the follower to retry.
func (p *searchParts) load(ctx context.Context, logger *slog.Logger) {
	began := time.Now()
	if err := p.follower.Sync(ctx); err != nil {
		logger.Warn("search: loading the index failed; the follower keeps trying", slog.String("error", err.Error()))
	}
	logger.Info("search: index loaded", slog.String("model", p.model), slog.Int("documents", p.index.Len()),
		slog.Duration("took", time.Since(began)))
}
