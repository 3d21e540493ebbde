package main

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
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

// newSearch builds the semantic search service of the configuration (nil
// when it is disabled) and a start function that loads the index and runs
// the indexer and the follower in the background until the returned stop
// function is called or ctx ends.
func newSearch(cfg Config, db *bunstore.DB, clock openjury.Clock, reg *prometheus.Registry, logger *slog.Logger) (*search.Service, func(context.Context) (stop func()), error) {
	if !cfg.SemanticSearchEnabled {
		return nil, func(context.Context) func() { return func() {} }, nil
	}
	var emb search.Embedder = search.NewLocal()
	dim := search.LocalDim
	if cfg.Embedder != EmbedderLocal {
		c, err := openai.New(openai.Config{BaseURL: cfg.Embedder, Model: cfg.EmbedderModel, APIKey: cfg.EmbedderAPIKey})
		if err != nil {
			return nil, nil, fmt.Errorf("search embedder: %w", err)
		}
		emb, dim = c, 0 // the dimension comes with the first vectors
	}
	rec := transport.SearchMetrics(reg)
	index := search.NewIndex(dim)
	svc := search.NewService(index, emb, clock, rec)
	store := db.SearchIndex()
	indexer := search.NewIndexer(store, emb, clock, search.IndexerConfig{}, rec, logger)
	follower := search.NewFollower(store, index, emb.Model(), rec, logger)
	start := func(ctx context.Context) func() {
		ctx, cancel := context.WithCancel(ctx)
		began := time.Now()
		if err := follower.Sync(ctx); err != nil {
			logger.Warn("search: loading the index failed; the follower keeps trying", slog.String("error", err.Error()))
		}
		logger.Info("search: index loaded", slog.String("model", emb.Model()), slog.Int("documents", index.Len()),
			slog.Duration("took", time.Since(began)))
		var wg sync.WaitGroup
		wg.Go(func() { indexer.Run(ctx) })
		wg.Go(func() { follower.Run(ctx, searchFollowInterval) })
		return func() { cancel(); wg.Wait() }
	}
	return svc, start, nil
}
