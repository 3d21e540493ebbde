package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/auth"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/ethchain"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/mcpserver"
	"github.com/openjury/openjury/search"
	"github.com/openjury/openjury/stake"
	"github.com/openjury/openjury/transport"
	"github.com/openjury/openjury/web"
)

// cleanupInterval is how often expired challenges and tokens, ended rate
// windows, old idempotency records and staged anchor rows are deleted.
const cleanupInterval = 5 * time.Minute

// Server is the whole OpenJury service built from a Config: the database,
// the domain services, the HTTP handler (the API with the web app beside
// it) and the background work (search indexing, cleanup, the stake-vault
// sync). The binary (./host), the test kit (openjurytest.NewServer) and
// embedders all build this one type.
//
// The exported fields are what New wired, for callers that use the
// services directly (an embedder's own routes, tests); replacing one
// changes nothing.
type Server struct {
	// DB is the database, opened and migrated by New, closed by Close.
	DB *bunstore.DB
	// Auth is the sign-in service.
	Auth *auth.Service
	// Market is the marketplace service.
	Market *marketplace.Service
	// Stake is the stake service.
	Stake *stake.Service
	// AGR is the AGR credit service.
	AGR *agr.Service
	// Anchor serves anchor snapshots and records their receipts.
	Anchor *anchor.Service
	// Search is the semantic search service; nil when
	// Config.SemanticSearchEnabled is false.
	Search *search.Service
	// SearchIndexer embeds queued documents and SearchFollower keeps the
	// in-memory index in step with the stored vectors; Start runs both.
	// Nil when search is off.
	SearchIndexer  *search.Indexer
	SearchFollower *search.Follower
	// Registry holds the metrics served at GET /metrics.
	Registry *prometheus.Registry
	// Events serves the event log, EventHub is the replica's fan-out of
	// it to live streams, Webhooks manages webhooks and Deliverer sends
	// their deliveries; Start runs the fan-out, the sequencer, the
	// dispatcher and the deliverer.
	Events    *events.Service
	EventHub  *events.Hub
	Webhooks  *events.Webhooks
	Deliverer *events.Deliverer

	cfg     Config
	clock   openjury.Clock
	log     *slog.Logger
	out     io.Writer
	handler http.Handler
	search  *searchParts
	// chain is the dialled node; nil when no use of the chain needs it.
	chain *ethchain.Client
	// juryChain seeds jury draws; nil without a chain (server seeds).
	juryChain marketplace.JuryChain
	// sync runs the stake-vault sync; nil when it is off.
	sync        *stake.Syncer
	syncMetrics *syncMetrics
	events      *eventParts

	mu sync.Mutex
	// listeners were opened by New (local development mode names itself
	// after their port) for Run to serve.
	listeners []net.Listener
	started   bool
	running   bool
	closed    bool
	// stopWork ends the background work; work counts its goroutines.
	stopWork context.CancelFunc
	work     sync.WaitGroup
}

// Option changes how New builds a Server beyond what Config says: the
// parts a test or an embedder brings of its own.
type Option func(*options)

// options are what the Options set.
type options struct {
	clock      openjury.Clock
	logger     *slog.Logger
	logs       io.Writer
	progress   io.Writer
	registry   *prometheus.Registry
	embedder   search.Embedder
	searchPoll time.Duration
	verifier   auth.ContractVerifier
	receipts   anchor.ReceiptChecker
	vault      stake.Vault
	escrow     marketplace.EscrowChain
	juryChain  marketplace.JuryChain
	resolver   events.Resolver
}

// WithClock gives every service clk instead of the system clock (a test's
// fake clock). Machinery (search leases and latencies, timeouts) keeps the
// wall clock.
func WithClock(clk openjury.Clock) Option { return func(o *options) { o.clock = clk } }

// WithLogger sends the logs to l instead of JSON lines on stderr at
// Config.LogLevel.
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.logger = l } }

// WithOutput sends what a person starting the service reads (database
// migration progress, the "listening on" lines, local development mode,
// "OpenJury is running at URL/") to progress, and the JSON log lines (at
// Config.LogLevel) to logs. By default progress is discarded and logs go
// to stderr; nil keeps a default; WithLogger takes precedence over logs.
func WithOutput(progress, logs io.Writer) Option {
	return func(o *options) { o.progress, o.logs = progress, logs }
}

// WithRegistry registers the service's metrics on reg (served at GET
// /metrics with everything else on it) instead of a registry of its own.
func WithRegistry(reg *prometheus.Registry) Option { return func(o *options) { o.registry = reg } }

// WithEmbedder embeds search documents and queries with e instead of the
// embedder Config.Embedder names.
func WithEmbedder(e search.Embedder) Option { return func(o *options) { o.embedder = e } }

// WithSearchPoll makes the search indexer and follower poll every d (a
// test's short interval) instead of 250 ms and 300 ms; the indexer's
// backoff after failures stops at 4 d.
func WithSearchPoll(d time.Duration) Option { return func(o *options) { o.searchPoll = d } }

// WithContractVerifier answers EIP-1271 contract-wallet sign-ins through v
// (a fake chain, an adapter of your own) instead of the node at
// Config.RPCURL, and turns them on (Config.AuthEIP1271Enabled).
func WithContractVerifier(v auth.ContractVerifier) Option {
	return func(o *options) { o.verifier = v }
}

// WithReceiptChecker checks anchor receipts through c instead of the node
// at Config.RPCURL against Config.AnchorRegistryAddress, and turns the
// check on.
func WithReceiptChecker(c anchor.ReceiptChecker) Option {
	return func(o *options) { o.receipts = c }
}

// WithStakeVault has the stake-vault sync read v instead of the node at
// Config.RPCURL. The sync still runs only with Config.OnchainSyncEnabled
// (which then needs no RPC URL).
func WithStakeVault(v stake.Vault) Option { return func(o *options) { o.vault = v } }

// WithEscrowChain has the sync read the bounty escrow's events from e
// instead of the node at Config.RPCURL. The escrow is still followed only
// with Config.EscrowContractAddress (which then needs no RPC URL).
func WithEscrowChain(e marketplace.EscrowChain) Option { return func(o *options) { o.escrow = e } }

// WithJuryChain seeds jury draws with block hashes from c instead of the
// node at Config.RPCURL (docs/rules.md, "Jury integrity").
func WithJuryChain(c marketplace.JuryChain) Option { return func(o *options) { o.juryChain = c } }

// WithWebhookResolver resolves webhook hosts through r instead of the
// system's DNS, at registration and at each delivery's connection (a
// test's scripted DNS).
func WithWebhookResolver(r events.Resolver) Option { return func(o *options) { o.resolver = r } }

// ErrClosed is returned by Start and Run on a closed Server.
var ErrClosed = errors.New("server: closed")

// New checks cfg (a *ConfigError listing every problem, like Validate),
// opens and migrates the database, asks the chain node for its chain id
// when a use of the chain needs the node (another chain is a
// *ConfigError), and wires the services and the handler. In local
// development mode with no BaseURL it also opens the listeners, to name
// itself http://localhost:PORT after the port it got. Nothing runs in the
// background until Start or Run; Close releases what New opened, also
// when Start and Run were never called.
func New(ctx context.Context, cfg Config, opts ...Option) (_ *Server, err error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	if o.verifier != nil {
		cfg.AuthEIP1271Enabled = true
	}
	if err := cfg.validate(injected{verifier: o.verifier != nil, vault: o.vault != nil, escrow: o.escrow != nil}); err != nil {
		return nil, err
	}
	if o.progress == nil {
		o.progress = io.Discard
	}
	if o.clock == nil {
		o.clock = openjury.SystemClock{}
	}
	if o.logger == nil {
		if o.logs == nil {
			o.logs = os.Stderr
		}
		level, _ := parseLevel(cfg.LogLevel) // Validate checked it
		o.logger = slog.New(slog.NewJSONHandler(o.logs, &slog.HandlerOptions{Level: level}))
	}
	if o.registry == nil {
		o.registry = prometheus.NewRegistry()
	}
	s := &Server{cfg: cfg, clock: o.clock, log: o.logger, out: o.progress, Registry: o.registry}
	defer func() {
		if err != nil {
			_ = s.Close()
		}
	}()

	if s.DB, err = openDatabase(ctx, cfg, s.out); err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	if s.cfg.BaseURL == "" { // local development mode only (Validate)
		if s.listeners, err = listen(s.cfg); err != nil {
			return nil, err
		}
		s.cfg.BaseURL = localBaseURL(s.listeners[0])
	}
	cfg = s.cfg
	s.log.Info("starting", slog.Any("config", cfg))

	verifier, receipts, escrowChain, err := s.wireChain(ctx, o)
	if err != nil {
		return nil, err
	}
	// The jury's eligible-set index follows this service's minimums: the
	// first start (or one with other minimums) rebuilds it, once.
	if _, err := s.DB.Jurors().JuryVersion(ctx, cfg.MinStakeUSDC, cfg.MinRepScoreToVote); err != nil {
		return nil, fmt.Errorf("jury index: %w", err)
	}
	base, _ := url.Parse(cfg.BaseURL) // Validate checked it
	s.Auth = auth.NewService(s.DB, s.clock, auth.Config{
		Domain:       base.Host,
		URI:          cfg.BaseURL,
		ChainID:      cfg.ChainID,
		ChallengeTTL: cfg.ChallengeTTL,
		TokenTTL:     cfg.AccessTokenTTL,
	}, verifier)
	s.Stake = stake.NewService(s.DB.Stake(), s.clock, stake.Config{
		MinStake:       cfg.MinStakeUSDC,
		Network:        cfg.Network,
		ChainID:        cfg.ChainID,
		USDCAddress:    cfg.USDCAddress,
		OnchainEnabled: cfg.OnchainStakeEnabled,
		StakeContract:  cfg.StakeContractAddress,
	})
	s.AGR = agr.NewService(s.DB.AGR(), s.clock)
	s.Market = marketplace.NewService(s.DB, s.clock, marketplace.Config{
		DefaultFinalVoteWindow: cfg.FinalVoteWindow,
		MinStake:               cfg.MinStakeUSDC,
		MinRepScoreToVote:      cfg.MinRepScoreToVote,
		FinalVoteOpen:          cfg.FinalVoteOpen,
		AGRMintPerWin:          cfg.AGRMintPerWin,
		Economy:                cfg.Economy(),
		Escrow:                 marketplace.EscrowConfig{Contract: cfg.EscrowContractAddress, ChainID: cfg.ChainID, Treasury: cfg.TreasuryAddress},
		Operators:              cfg.OperatorAddresses,
		BaseURL:                cfg.BaseURL,
		JuryCommitWindow:       cfg.JuryCommitWindow,
		JuryRevealWindow:       cfg.JuryRevealWindow,
		AGRPerCoherentVote:     cfg.AGRPerCoherentVote,
		JuryNoShowPenalty:      cfg.JuryNoShowPenalty,
		JuryChain:              s.juryChain,
		JuryConfirmations:      cfg.SyncConfirmations,
	})
	if s.sync != nil && !cfg.EscrowContractAddress.IsZero() {
		s.sync.Follow(marketplace.NewEscrowSyncer(escrowChain, s.DB, marketplace.EscrowSyncConfig{
			ChainID: cfg.ChainID, Contract: cfg.EscrowContractAddress,
			OnMismatch: func(j *marketplace.Job, e *marketplace.JobEscrow) {
				// docs/rules.md#escrow-and-payouts: the settle posted another
				// root or total than the job's; claims cannot follow the
				// snapshot.
				s.log.Error("escrow settled with another root or total than the job's",
					slog.String("job_id", j.ID), slog.String("settled_root", e.SettledRoot.String()),
					slog.String("settled_total", e.SettledTotal.String()), slog.Any("anchor_root", anchorRoot(j)),
					slog.Any("payout_total", j.PayoutTotal))
			},
		}))
	}
	s.Anchor = anchor.NewService(s.DB, anchor.Config{Operators: cfg.OperatorAddresses, Checker: receipts, Clock: s.clock})

	for name, pool := range s.DB.SQLDBs() {
		if err := s.Registry.Register(collectors.NewDBStatsCollector(pool, name)); err != nil {
			return nil, fmt.Errorf("database metrics: %w", err)
		}
	}
	if err := registerDBMetrics(s.Registry, s.DB); err != nil {
		return nil, err
	}
	if s.sync != nil {
		if s.syncMetrics, err = newSyncMetrics(s.Registry); err != nil {
			return nil, err
		}
	}
	if cfg.SemanticSearchEnabled {
		if s.search, err = newSearch(cfg, s.DB, o.embedder, o.searchPoll, s.Registry, s.log); err != nil {
			return nil, err
		}
		s.Search, s.SearchIndexer, s.SearchFollower = s.search.svc, s.search.indexer, s.search.follower
	}

	services := transport.Services{
		Auth:   s.Auth,
		Market: s.Market,
		Stake:  s.Stake,
		AGR:    s.AGR,
		Anchor: s.Anchor,
		Ready:  s.DB.Ping,

		Idempotency: s.DB,
		Search:      s.Search,
		A2ATasks:    s.DB,
	}
	if s.events, err = newEvents(cfg, s.DB, s.clock, o.resolver, transport.NewRenderer(services), s.Registry); err != nil {
		return nil, err
	}
	s.Events, s.EventHub, s.Webhooks, s.Deliverer = s.events.svc, s.events.hub, s.events.webhooks, s.events.deliverer
	services.Events, services.EventHub, services.Webhooks = s.Events, s.EventHub, s.Webhooks
	s.handler = transport.NewHandler(services, transport.Options{
		Logger:          s.log,
		BaseURL:         cfg.BaseURL,
		AppURL:          cfg.PublicAppURL(),
		Clock:           s.clock,
		DevSecret:       cfg.DevSecret,
		DevOpen:         cfg.LocalDev,
		Operators:       cfg.OperatorAddresses,
		AGRTokenAddress: cfg.AGRTokenAddress,
		Registry:        s.Registry,
		RateLimitPerMin: cfg.RateLimitPerMin,
		ReadCacheTTL:    cfg.ReadCacheTTL,

		RateLimitPerAddressPerMin: cfg.RateLimitPerAddressPerMin,
		AuthRateLimitPerMin:       cfg.AuthRateLimitPerMin,
		TrustedProxies:            cfg.TrustedProxies,
		CORSOrigins:               cfg.CORSOrigins,
		// The web app gets every other path, behind the API's rate limits.
		App: web.NewHandler(webServices(cfg, web.Services{Market: s.Market, Auth: s.Auth, Stake: s.Stake, AGR: s.AGR, Search: s.Search, Logger: s.log, Clock: s.clock})),
		MCP: s.newMCP(),
	})
	if cfg.LocalDev {
		s.handler = loopbackHostsOnly(s.handler)
	}
	return s, nil
}

// newMCP is the MCP server over streamable HTTP mounted at /mcp: its tools
// call the API in process, through the handler (with its middleware), as
// the bearer of the MCP request's token.
func (s *Server) newMCP() http.Handler {
	return mcpserver.NewHTTPHandler(mcpserver.HTTPOptions{
		API:                 http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }),
		BaseURL:             s.cfg.BaseURL,
		ResourceMetadataURL: strings.TrimRight(s.cfg.BaseURL, "/") + transport.MCPProtectedResourcePath,
		Authenticate: func(ctx context.Context, token string) (string, error) {
			addr, err := s.Auth.Authenticate(ctx, token)
			if openjury.KindOf(err) == openjury.Unauthenticated {
				return "", mcpserver.ErrInvalidToken
			}
			return addr.String(), err
		},
		Logger: s.log,
	})
}

// wireChain picks the chain ports: the injected ones, else the node at
// RPCURL for the uses the settings turn on (dialled once, and asked for
// its chain id: another chain is a *ConfigError; a node that is down at
// start does not stop the service: calls answer 503 (sign-in) or back off
// (the sync), and the adapter checks the chain id before its first call
// that reads the chain). It sets s.sync when the stake-vault sync is on;
// the escrow chain is the one its escrow follower reads.
func (s *Server) wireChain(ctx context.Context, o options) (auth.ContractVerifier, anchor.ReceiptChecker, marketplace.EscrowChain, error) {
	cfg := s.cfg
	verifier, receipts, vault, escrow := o.verifier, o.receipts, o.vault, o.escrow
	s.juryChain = o.juryChain
	checkReceipts := cfg.RPCURL != "" && !cfg.AnchorRegistryAddress.IsZero()
	followEscrow := cfg.OnchainSyncEnabled && !cfg.EscrowContractAddress.IsZero()
	// With a chain configured, jury draws take their seed from it.
	needNode := cfg.RPCURL != "" && ((cfg.AuthEIP1271Enabled && verifier == nil) ||
		(cfg.OnchainSyncEnabled && vault == nil) || (checkReceipts && receipts == nil) || (followEscrow && escrow == nil) ||
		s.juryChain == nil)
	if needNode {
		chain, err := ethchain.Dial(ctx, cfg.RPCURL, ethchain.Options{StakeVault: cfg.StakeContractAddress,
			Escrow: cfg.EscrowContractAddress, ChainID: cfg.ChainID})
		if err != nil {
			return nil, nil, nil, fmt.Errorf("chain: %w", err) // never holds the URL
		}
		s.chain = chain
		if err := checkChain(ctx, chain, s.log); err != nil {
			return nil, nil, nil, err
		}
		if verifier == nil && cfg.AuthEIP1271Enabled {
			verifier = chain
		}
		if vault == nil && cfg.OnchainSyncEnabled {
			vault = chain
		}
		if escrow == nil && followEscrow {
			escrow = chain
		}
		if s.juryChain == nil {
			s.juryChain = chain
		}
		if receipts == nil && checkReceipts {
			// docs/rules.md#anchors: checked on chain when the node and
			// the registry are known, else stored as given.
			receipts = ethchain.NewReceiptChecker(chain, cfg.AnchorRegistryAddress, cfg.ChainID)
			s.log.Info("anchor receipts are checked on chain", slog.String("anchor_registry_address", cfg.AnchorRegistryAddress.String()))
		}
	}
	if cfg.OnchainSyncEnabled {
		s.sync = stake.NewSyncer(vault, s.DB.Sync(), s.clock, stake.SyncConfig{
			ChainID:       cfg.ChainID,
			Contract:      cfg.StakeContractAddress,
			Confirmations: cfg.SyncConfirmations,
			StartBlock:    cfg.SyncStartBlock,
			Owner:         syncOwner(),
			LeaseTTL:      syncLeaseTTL(cfg.SyncPollInterval),
		})
	}
	return verifier, receipts, escrow, nil
}

// anchorRoot is a job's anchor_root, or nil before its close.
func anchorRoot(j *marketplace.Job) any {
	if j.Anchor == nil {
		return nil
	}
	return j.Anchor.Root.String()
}

// Config returns the settings the Server runs with: those given to New,
// with BaseURL filled in by local development mode and
// AuthEIP1271Enabled set by WithContractVerifier.
func (s *Server) Config() Config { return s.cfg }

// Handler returns the HTTP handler: the API and, on every other path, the
// web app; in local development mode it answers only requests for a
// loopback host name (no DNS rebinding onto the open dev endpoints). Mount
// it at "/" beside routes of your own; its routes keep their full paths.
func (s *Server) Handler() http.Handler { return s.handler }

// Start loads the search index from the stored vectors (before it
// returns, so the first request finds it) and runs the background work
// until ctx ends or Close: the search indexer and follower, the cleanup
// loop and, with Config.OnchainSyncEnabled, the stake-vault sync. Run
// calls it; an embedder that serves Handler itself calls it once.
func (s *Server) Start(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return ErrClosed
	case s.started:
		return errors.New("server: already started")
	}
	s.started = true
	ctx, s.stopWork = context.WithCancel(ctx)
	if s.search != nil {
		fmt.Fprintln(s.out, "OpenJury: loading the search index")
		s.search.load(ctx, s.log)
		s.work.Go(func() { s.search.indexer.Run(ctx) })
		s.work.Go(func() { s.search.follower.Run(ctx, s.search.follow) })
	}
	s.work.Go(func() {
		cleanupLoop(ctx, s.log, cleanupInterval, map[string]func(context.Context) (int64, error){
			"auth":  s.Auth.Cleanup,
			"rates": s.Market.CleanupRates,
			// Staged rows of closes whose closer crashed.
			"anchors": s.Market.CleanupAnchors,
			"optimize": func(ctx context.Context) (int64, error) {
				return 0, s.DB.Optimize(ctx)
			},
			"idempotency": func(ctx context.Context) (int64, error) {
				return s.DB.DeleteExpiredIdempotencyKeys(ctx, s.clock.Now())
			},
			"events":             s.Events.Cleanup,
			"webhook_deliveries": s.Deliverer.Cleanup,
		})
	})
	s.events.start(ctx, &s.work, s.DB.EventsAppended(), s.log)
	if s.sync != nil {
		s.work.Go(func() { runStakeSync(ctx, s.log, s.sync, s.syncMetrics, s.cfg.SyncPollInterval) })
	}
	s.work.Go(func() { runJurySteps(ctx, s.log, s.Market, s.cfg.SyncPollInterval) })
	return nil
}

// StopStreams ends the live event streams this server serves (their
// clients reconnect elsewhere, resuming after the last id they got). Run
// calls it when it shuts down; call it before closing a listener whose
// server waits for its requests (httptest.Server.Close).
func (s *Server) StopStreams() {
	if s.EventHub != nil {
		s.EventHub.Stop()
	}
}

// stopBackground ends the background work and waits for it (the stake
// sync gives its lease up on the way out).
func (s *Server) stopBackground() {
	s.StopStreams()
	s.mu.Lock()
	stop := s.stopWork
	s.mu.Unlock()
	if stop != nil {
		stop()
	}
	s.work.Wait()
}

// Run serves until ctx ends, then shuts down gracefully: it listens on
// Config.Addr (and, in local development mode, the other loopback family
// at the same port), starts the background work (Start) unless started
// already, and prints to the progress output (WithOutput) a "listening
// on" line per listener, what local development mode turns on, and last
// "OpenJury is running at BASE_URL/". When ctx ends it stops accepting
// connections, waits up to Config.ShutdownTimeout for the requests in
// flight, then stops the background work. It returns nil after a clean
// shutdown. The database stays open until Close.
func (s *Server) Run(ctx context.Context) error {
	s.mu.Lock()
	switch {
	case s.closed:
		s.mu.Unlock()
		return ErrClosed
	case s.running:
		s.mu.Unlock()
		return errors.New("server: already running")
	}
	s.running = true
	listeners := s.listeners
	s.listeners = nil
	started := s.started
	s.mu.Unlock()

	if len(listeners) == 0 {
		var err error
		if listeners, err = listen(s.cfg); err != nil {
			return err
		}
	}
	defer func() {
		for _, ln := range listeners {
			_ = ln.Close() // already closed after a Serve; an early return needs it
		}
	}()
	if !started {
		// Stopped below, after the requests in flight.
		if err := s.Start(context.WithoutCancel(ctx)); err != nil {
			return err
		}
	}

	srv := &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: s.cfg.ReadHeaderTimeout,
		ReadTimeout:       s.cfg.ReadTimeout,
		WriteTimeout:      s.cfg.WriteTimeout,
		IdleTimeout:       s.cfg.IdleTimeout,
		MaxHeaderBytes:    s.cfg.MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	// Live event streams never end on their own: a shutdown ends them.
	srv.RegisterOnShutdown(s.StopStreams)
	serveErr := make(chan error, len(listeners))
	for _, ln := range listeners {
		go func() { serveErr <- srv.Serve(ln) }()
		addr := "http://" + ln.Addr().String()
		fmt.Fprintf(s.out, "listening on %s\n", addr)
		s.log.Info("listening", slog.String("url", addr))
	}
	if s.cfg.LocalDev {
		printLocalDev(s.out)
		s.log.Info("local development mode: loopback only, dev endpoints open without X-Dev-Secret")
	}
	fmt.Fprintf(s.out, "OpenJury is running at %s/\n", s.cfg.BaseURL) // the last line of the start

	var runErr error
	select {
	case <-ctx.Done():
		s.log.Info("shutting down")
	case err := <-serveErr:
		runErr = fmt.Errorf("serve: %w", err)
	}
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.cfg.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		_ = srv.Close()
		runErr = errors.Join(runErr, fmt.Errorf("shutdown: %w", err))
	}
	s.stopBackground()
	if runErr == nil {
		s.log.Info("stopped")
	}
	return runErr
}

// Close stops the background work (waiting for it), closes listeners
// that were never served, the chain connection and the database. A
// database that fails to close is logged and its error returned. Call it
// once Run has returned (or instead of Run); calling it again does
// nothing.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	listeners := s.listeners
	s.listeners = nil
	s.mu.Unlock()

	s.stopBackground()
	for _, ln := range listeners {
		_ = ln.Close()
	}
	if s.chain != nil {
		s.chain.Close()
	}
	if s.DB == nil {
		return nil
	}
	if err := s.DB.Close(); err != nil {
		s.log.Warn("closing the database", slog.String("error", err.Error()))
		return err
	}
	return nil
}

// openDatabase opens and migrates the database of cfg, telling out what
// it does: a start that migrates a large database can take minutes.
func openDatabase(ctx context.Context, cfg Config, out io.Writer) (*bunstore.DB, error) {
	began := time.Now()
	fmt.Fprintf(out, "OpenJury: opening the database %s\n", redactURL(cfg.DatabaseURL))
	applied := 0
	db, err := bunstore.Open(ctx, cfg.DatabaseURL, bunstore.WithMaxConns(cfg.DBMaxConns),
		bunstore.WithMigrationProgress(func(p bunstore.MigrationProgress) {
			switch {
			case p.Applying == 0 && p.Total > 0:
				fmt.Fprintf(out, "OpenJury: applying %d database migrations\n", p.Total)
			case p.Applying > 0:
				applied = p.Applying
				fmt.Fprintf(out, "OpenJury:   %d/%d %s (at %s)\n", p.Applying, p.Total, p.Name, time.Since(began).Round(time.Millisecond))
			}
		}))
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(out, "OpenJury: database ready (%d migrations applied) in %s\n", applied, time.Since(began).Round(time.Millisecond))
	return db, nil
}

// checkChain makes sure the chain node serves Config.ChainID for every
// user of it (contract-wallet sign-in, the stake sync, anchor receipts):
// another chain is a *ConfigError; a node that cannot be asked now is
// logged and checked again before the adapter's first call.
func checkChain(ctx context.Context, chain *ethchain.Client, logger *slog.Logger) error {
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

// cleanupLoop runs every named cleanup (expired challenges and tokens,
// ended rate windows, ...) every interval until ctx ends.
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

// registerDBMetrics exposes on reg db's batched reads and submissions
// (bunstore.DB.BatchedReads, BatchedSubmits: their count over the
// statements' is the mean batch) and how busy SQLite's one writer was
// (bunstore.DB.Writer).
func registerDBMetrics(reg prometheus.Registerer, db *bunstore.DB) error {
	for _, m := range []struct {
		name, help string
		value      func() float64
	}{
		{"openjury_db_batched_reads_total", "Reads of a job by id and of a bearer token's owner this replica ran in batches (PostgreSQL; 0 on SQLite).",
			func() float64 { r, _ := db.BatchedReads(); return float64(r) }},
		{"openjury_db_batch_statements_total", "Statements that ran this replica's batched reads: reads over statements is the mean batch.",
			func() float64 { _, n := db.BatchedReads(); return float64(n) }},
		{"openjury_db_batched_submissions_total", "Submissions this replica wrote in batches (PostgreSQL; 0 on SQLite).",
			func() float64 { n, _, _ := db.BatchedSubmits(); return float64(n) }},
		{"openjury_db_submission_batches_total", "Statements that wrote those submissions: submissions over batches is the mean batch.",
			func() float64 { _, n, _ := db.BatchedSubmits(); return float64(n) }},
		{"openjury_db_submissions_alone_total", "Batched submissions written with a statement of their own: their job was held by another transaction, or their batch's statement failed.",
			func() float64 { _, _, n := db.BatchedSubmits(); return float64(n) }},
		{"openjury_db_writer_busy_seconds_total", "Seconds this replica held SQLite's one writer (0 on PostgreSQL): a rate near 1 means writes queue for it.",
			func() float64 { return db.Writer().Busy.Seconds() }},
		{"openjury_db_write_groups_total", "SQLite transactions this replica's writes shared by group commit (0 on PostgreSQL).",
			func() float64 { return float64(db.Writer().Groups) }},
		{"openjury_db_write_group_members_total", "Writes that succeeded in those groups: members over groups is the mean group.",
			func() float64 { return float64(db.Writer().Members) }},
	} {
		c := prometheus.NewCounterFunc(prometheus.CounterOpts{Name: m.name, Help: m.help}, m.value)
		if err := reg.Register(c); err != nil {
			return fmt.Errorf("database metrics: %w", err)
		}
	}
	return nil
}
