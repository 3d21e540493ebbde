package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/auth"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/ethchain"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/stake"
	"github.com/openjury/openjury/transport"
	"github.com/openjury/openjury/web"
)

// cleanupInterval is how often expired challenges and tokens are deleted.
const cleanupInterval = 5 * time.Minute

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Getenv, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		var ce *ConfigError
		if errors.As(err, &ce) {
			os.Exit(2) // run listed the problems
		}
		fmt.Fprintln(os.Stderr, "openjury:", err)
		os.Exit(1)
	}
}

// run reads the configuration, serves until ctx is cancelled and shuts down
// gracefully. It returns a *ConfigError (after printing every problem to
// stderr) when the configuration is invalid, nil after a clean shutdown.
// Logs go to stderr. stdout gets what a person starting the host wants to
// see: the database's migration progress, a "listening on" line per
// listener, in local development mode what that mode turns on and how to
// leave it, and last "OpenJury is running at BASE_URL/" once it serves.
func run(ctx context.Context, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := loadConfig(getenv)
	if err != nil {
		fmt.Fprintln(stderr, "openjury: invalid configuration:")
		var ce *ConfigError
		if errors.As(err, &ce) {
			for _, p := range ce.Problems {
				fmt.Fprintf(stderr, "  - %s\n", p)
			}
		}
		return err
	}
	level, _ := parseLevel(cfg.LogLevel)
	logger := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: level}))

	db, err := openDatabase(ctx, cfg, stdout)
	if err != nil {
		return fmt.Errorf("open database: %w", err)
	}
	defer func() {
		if err := db.Close(); err != nil {
			logger.Warn("closing the database", slog.String("error", err.Error()))
		}
	}()
	listeners, err := listen(cfg)
	if err != nil {
		return err
	}
	defer func() {
		for _, ln := range listeners {
			_ = ln.Close() // already closed after a Serve; an early return needs it
		}
	}()
	if cfg.BaseURL == "" {
		cfg.BaseURL = localBaseURL(listeners[0])
	}
	logger.Info("starting", slog.Any("config", cfg))

	clock := openjury.SystemClock{}
	// The chain adapter, when a setting needs it. Its node must serve
	// SERVICE_CHAIN_ID: another chain is a configuration error, listed
	// like the others. A node that is down at start does not stop the
	// service: calls answer 503 (sign-in) or back off (the sync), and the
	// adapter checks the chain id before its first call that reads the
	// chain.
	var chain *ethchain.Client
	checkReceipts := cfg.RPCURL != "" && !cfg.AnchorRegistryAddress.IsZero()
	if cfg.RPCURL != "" && (cfg.AuthEIP1271Enabled || cfg.OnchainSyncEnabled || checkReceipts) {
		chain, err = ethchain.Dial(ctx, cfg.RPCURL, ethchain.Options{StakeVault: cfg.StakeContractAddress, ChainID: cfg.ChainID})
		if err != nil {
			return fmt.Errorf("chain: %w", err) // never holds the URL
		}
		defer chain.Close()
		if err := checkChain(ctx, chain, logger); err != nil {
			fmt.Fprintln(stderr, "openjury: invalid configuration:")
			for _, p := range err.Problems {
				fmt.Fprintf(stderr, "  - %s\n", p)
			}
			return err
		}
	}
	var verifier auth.ContractVerifier
	if cfg.AuthEIP1271Enabled {
		verifier = chain
	}
	base, _ := url.Parse(cfg.BaseURL) // Validate checked it
	authSvc := auth.NewService(db, clock, auth.Config{
		Domain:       base.Host,
		URI:          cfg.BaseURL,
		ChainID:      cfg.ChainID,
		ChallengeTTL: cfg.ChallengeTTL,
		TokenTTL:     cfg.AccessTokenTTL,
	}, verifier)
	// Anchor receipts are checked on chain when both the node and the
	// registry are known, else stored as given (docs/rules.md#anchors).
	var receipts anchor.ReceiptChecker
	if checkReceipts {
		receipts = ethchain.NewReceiptChecker(chain, cfg.AnchorRegistryAddress, cfg.ChainID)
		logger.Info("anchor receipts are checked on chain", slog.String("anchor_registry_address", cfg.AnchorRegistryAddress.String()))
	}
	stakeSvc := stake.NewService(db.Stake(), clock, stake.Config{
		MinStake:       cfg.MinStakeUSDC,
		Network:        cfg.Network,
		ChainID:        cfg.ChainID,
		USDCAddress:    cfg.USDCAddress,
		OnchainEnabled: cfg.OnchainStakeEnabled,
		StakeContract:  cfg.StakeContractAddress,
	})
	agrSvc := agr.NewService(db.AGR(), clock)
	market := marketplace.NewService(db, clock, marketplace.Config{
		DefaultFinalVoteWindow: cfg.FinalVoteWindow,
		MinStake:               cfg.MinStakeUSDC,
		MinRepScoreToVote:      cfg.MinRepScoreToVote,
		FinalVoteOpen:          cfg.FinalVoteOpen,
		AGRMintPerWin:          cfg.AGRMintPerWin,
		Operators:              cfg.OperatorAddresses,
		BaseURL:                cfg.BaseURL,
	})
	// Served at GET /metrics with the handler's own metrics.
	registry := prometheus.NewRegistry()
	for name, pool := range db.SQLDBs() {
		registry.MustRegister(collectors.NewDBStatsCollector(pool, name))
	}
	searchSvc, startSearch, err := newSearch(cfg, db, clock, registry, logger)
	if err != nil {
		return err
	}
	handler := transport.NewHandler(transport.Services{
		Auth:   authSvc,
		Market: market,
		Stake:  stakeSvc,
		AGR:    agrSvc,
		Anchor: anchor.NewService(db, anchor.Config{Operators: cfg.OperatorAddresses, Checker: receipts}),
		Ready:  db.Ping,

		Idempotency: db,
		Search:      searchSvc,
	}, transport.Options{
		Logger:          logger,
		BaseURL:         cfg.BaseURL,
		AppURL:          cfg.PublicAppURL(),
		Clock:           clock,
		DevSecret:       cfg.DevSecret,
		DevOpen:         cfg.LocalDev,
		Operators:       cfg.OperatorAddresses,
		AGRTokenAddress: cfg.AGRTokenAddress,
		Registry:        registry,
		RateLimitPerMin: cfg.RateLimitPerMin,
		ReadCacheTTL:    cfg.ReadCacheTTL,

		RateLimitPerAddressPerMin: cfg.RateLimitPerAddressPerMin,
		AuthRateLimitPerMin:       cfg.AuthRateLimitPerMin,
		TrustedProxies:            cfg.TrustedProxies,
		CORSOrigins:               cfg.CORSOrigins,
		// The web app gets every other path, behind the API's rate limits.
		App: web.NewHandler(webServices(cfg, web.Services{Market: market, Auth: authSvc, Stake: stakeSvc, AGR: agrSvc, Search: searchSvc, Logger: logger})),
	})

	// The index is loaded before the first request; the worker and the
	// follower stop after the server (deferred before db.Close runs).
	if cfg.SemanticSearchEnabled {
		fmt.Fprintln(stdout, "OpenJury: loading the search index")
	}
	defer startSearch(ctx)()

	if cfg.LocalDev {
		handler = loopbackHostsOnly(handler)
	}
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: cfg.ReadHeaderTimeout,
		ReadTimeout:       cfg.ReadTimeout,
		WriteTimeout:      cfg.WriteTimeout,
		IdleTimeout:       cfg.IdleTimeout,
		MaxHeaderBytes:    cfg.MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	serveErr := make(chan error, len(listeners))
	for _, ln := range listeners {
		go func() { serveErr <- srv.Serve(ln) }()
		addr := "http://" + ln.Addr().String()
		fmt.Fprintf(stdout, "listening on %s\n", addr)
		logger.Info("listening", slog.String("url", addr))
	}
	if cfg.LocalDev {
		printLocalDev(stdout)
		logger.Info("local development mode: loopback only, dev endpoints open without X-Dev-Secret")
	}
	fmt.Fprintf(stdout, "OpenJury is running at %s/\n", cfg.BaseURL) // the last line of the start

	cleanupCtx, stopCleanup := context.WithCancel(ctx)
	cleanupDone := make(chan struct{})
	go func() {
		defer close(cleanupDone)
		cleanupLoop(cleanupCtx, logger, cleanupInterval, map[string]func(context.Context) (int64, error){
			"auth":  authSvc.Cleanup,
			"rates": market.CleanupRates,
			// Staged rows of closes whose closer crashed.
			"anchors": market.CleanupAnchors,
			"optimize": func(ctx context.Context) (int64, error) {
				return 0, db.Optimize(ctx)
			},
			"idempotency": func(ctx context.Context) (int64, error) {
				return db.DeleteExpiredIdempotencyKeys(ctx, clock.Now())
			},
		})
	}()

	syncDone := make(chan struct{})
	if cfg.OnchainSyncEnabled {
		syncer := stake.NewSyncer(chain, db.Sync(), clock, stake.SyncConfig{
			ChainID:       cfg.ChainID,
			Contract:      cfg.StakeContractAddress,
			Confirmations: cfg.SyncConfirmations,
			StartBlock:    cfg.SyncStartBlock,
			Owner:         syncOwner(),
			LeaseTTL:      syncLeaseTTL(cfg.SyncPollInterval),
		})
		metrics := newSyncMetrics(registry)
		go func() {
			defer close(syncDone)
			runStakeSync(cleanupCtx, logger, syncer, metrics, cfg.SyncPollInterval)
		}()
	} else {
		close(syncDone)
	}

	var runErr error
	select {
	case <-ctx.Done():
		logger.Info("shutting down")
	case err := <-serveErr:
		runErr = fmt.Errorf("serve: %w", err)
	}
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cfg.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		_ = srv.Close()
		runErr = errors.Join(runErr, fmt.Errorf("shutdown: %w", err))
	}
	stopCleanup()
	<-cleanupDone
	<-syncDone
	if runErr == nil {
		logger.Info("stopped")
	}
	return runErr
}

// openDatabase opens and migrates the database of cfg, telling stdout
// what it does: a start that migrates a large database can take minutes.
func openDatabase(ctx context.Context, cfg Config, stdout io.Writer) (*bunstore.DB, error) {
	began := time.Now()
	fmt.Fprintf(stdout, "OpenJury: opening the database %s\n", redactURL(cfg.DatabaseURL))
	applied := 0
	db, err := bunstore.Open(ctx, cfg.DatabaseURL, bunstore.WithMaxConns(cfg.DBMaxConns),
		bunstore.WithMigrationProgress(func(p bunstore.MigrationProgress) {
			switch {
			case p.Applying == 0 && p.Total > 0:
				fmt.Fprintf(stdout, "OpenJury: applying %d database migrations\n", p.Total)
			case p.Applying > 0:
				applied = p.Applying
				fmt.Fprintf(stdout, "OpenJury:   %d/%d %s (at %s)\n", p.Applying, p.Total, p.Name, time.Since(began).Round(time.Millisecond))
			}
		}))
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(stdout, "OpenJury: database ready (%d migrations applied) in %s\n", applied, time.Since(began).Round(time.Millisecond))
	return db, nil
}

// checkChain makes sure the chain node serves SERVICE_CHAIN_ID for every
// user of it (contract-wallet sign-in, the stake sync, anchor receipts):
// another chain is a *ConfigError; a node that cannot be asked now is
// logged and checked again before the adapter's first call.
func checkChain(ctx context.Context, chain *ethchain.Client, logger *slog.Logger) *ConfigError {
	err := chain.CheckChainID(ctx)
	switch openjury.KindOf(err) {
	case openjury.Invalid:
		// The detail names both chain ids, never the URL.
		return &ConfigError{Problems: []string{"SERVICE_CHAIN_ID: " + openjury.DetailOf(err) + " (at SERVICE_RPC_URL)"}}
	case openjury.Unavailable:
		logger.Warn("the chain node cannot be asked for its chain id at start; it is checked before its first use",
			slog.String("error", err.Error()))
	}
	return nil
}

// loadConfig reads and validates the configuration, reporting the problems
// of both steps together.
func loadConfig(getenv func(string) string) (Config, error) {
	cfg, err := FromEnv(getenv)
	var all []string
	var ce *ConfigError
	if errors.As(err, &ce) {
		all = append(all, ce.Problems...)
	}
	if errors.As(cfg.Validate(), &ce) {
		all = append(all, ce.Problems...)
	}
	if len(all) > 0 {
		return cfg, &ConfigError{Problems: all}
	}
	return cfg, nil
}

// cleanupLoop runs every named cleanup (expired challenges and tokens,
// ended rate windows) every interval until ctx ends.
func cleanupLoop(ctx context.Context, logger *slog.Logger, interval time.Duration, jobs map[string]func(context.Context) (int64, error)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			for name, job := range jobs {
				n, err := job(ctx)
				if err != nil {
					if ctx.Err() == nil {
						logger.Warn("cleanup failed", slog.String("cleanup", name), slog.String("error", err.Error()))
					}
					continue
				}
				logger.Debug("cleanup", slog.String("cleanup", name), slog.Int64("deleted", n))
			}
		}
	}
}
