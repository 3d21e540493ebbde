package openjurytest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/auth"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest/dbtest"
	"github.com/openjury/openjury/search"
	"github.com/openjury/openjury/server"
	"github.com/openjury/openjury/stake"
)

// Settings of a NewServer server: the service's defaults
// (server.Defaults), named for tests, and the kit's own dev secret.
const (
	DefaultChainID         = server.DefaultChainID
	DefaultChallengeTTL    = server.DefaultChallengeTTL
	DefaultTokenTTL        = server.DefaultAccessTokenTTL
	DefaultFinalVoteWindow = server.DefaultFinalVoteWindow
	// DefaultMinStake is the stake needed to submit and vote: 10 USDC.
	DefaultMinStake = server.DefaultMinStakeUSDC
	// DefaultMinRepScoreToVote is the reputation needed to cast jury votes.
	DefaultMinRepScoreToVote = server.DefaultMinRepScoreToVote
	// DefaultAGRMintPerWin is the AGR credited to the winner of a job.
	DefaultAGRMintPerWin = server.DefaultAGRMintPerWin
	// DefaultNetwork is the network of the stake requirements.
	DefaultNetwork = server.DefaultNetwork
	// DevSecret is the X-Dev-Secret of a NewServer server's dev endpoints.
	DevSecret = "test-dev-secret"
)

// ServerConfig is what NewServer builds from; Options change it.
type ServerConfig struct {
	// Config holds every setting of the service: server.Defaults, with
	// BaseURL the test server's URL, DatabaseURL a fresh SQLite file in a
	// temp dir, DevSecret DevSecret, and the rate limits and the read
	// cache off (their buckets would follow the fake clock, which stands
	// still).
	server.Config
	// Clock is the clock of every service; nil means NewClock().
	Clock *Clock
	// Logger receives the logs and the access log; nil discards them.
	Logger *slog.Logger
	// AnchorChecker checks anchor receipts on chain; nil stores them as
	// given.
	AnchorChecker anchor.ReceiptChecker
	// Verifier answers EIP-1271 contract-wallet sign-ins (a *Chain, or an
	// ethchain.Client); nil turns them off.
	Verifier auth.ContractVerifier
	// JuryChain seeds jury draws with block hashes (a *Chain); nil: the
	// server seeds them.
	JuryChain marketplace.JuryChain
	// SearchEmbedder embeds search documents and queries; nil means the
	// deterministic search.Local.
	SearchEmbedder search.Embedder
	// SearchInterval is the poll interval of the search indexer and
	// follower; zero means 20 ms.
	SearchInterval time.Duration
	// WebhookResolver resolves webhook hosts (a scripted DNS); nil means
	// the system's.
	WebhookResolver events.Resolver
}

// Option changes a ServerConfig.
type Option func(*ServerConfig)

// WithDSN runs the server on the given database (e.g. a pgtest DSN); ""
// keeps the fresh SQLite file.
func WithDSN(dsn string) Option {
	return func(c *ServerConfig) {
		if dsn != "" {
			c.DatabaseURL = dsn
		}
	}
}

// WithClock uses the given fake clock.
func WithClock(clk *Clock) Option { return func(c *ServerConfig) { c.Clock = clk } }

// WithContractVerifier turns on contract-wallet sign-in through v.
func WithContractVerifier(v auth.ContractVerifier) Option {
	return func(c *ServerConfig) { c.Verifier = v }
}

// WithConfig lets a test edit any setting.
func WithConfig(fn func(*ServerConfig)) Option { return fn }

// Server is a running OpenJury service for tests: a server.Server, the
// type the binary runs, behind an httptest server. Its parts (DB, Auth,
// Market, Stake, AGR, Anchor, Search, SearchIndexer, SearchFollower,
// Registry) are the embedded Server's fields; the test ends it (its Close
// need not be called).
type Server struct {
	*server.Server
	// URL is the base URL, e.g. http://127.0.0.1:41234.
	URL string
	// Clock drives every service of the server.
	Clock *Clock
	// HTTP is the underlying httptest server.
	HTTP *httptest.Server
}

// NewDB opens a fresh, migrated SQLite database in a temp dir, closed when
// the test ends.
func NewDB(tb testing.TB) *bunstore.DB {
	tb.Helper()
	return OpenDB(tb, dbtest.SQLite(tb))
}

// OpenDB opens and migrates the database at dsn, closed when the test ends.
func OpenDB(tb testing.TB, dsn string) *bunstore.DB {
	tb.Helper()
	db, err := bunstore.Open(context.Background(), dsn)
	if err != nil {
		tb.Fatalf("openjurytest: open %s: %v", dsn, err)
	}
	tb.Cleanup(func() { _ = db.Close() })
	return db
}

// defaultSearchInterval is the poll interval of a test server's search
// indexer and follower.
const defaultSearchInterval = 20 * time.Millisecond

// NewServer starts the whole service (server.New, with the web app and
// the background work) on httptest with a fake clock and a fresh SQLite
// database (unless WithDSN says otherwise). It is stopped when the test
// ends.
func NewServer(tb testing.TB, opts ...Option) *Server {
	tb.Helper()
	hs := httptest.NewUnstartedServer(nil)
	cfg := ServerConfig{Config: server.Defaults()}
	cfg.BaseURL = "http://" + hs.Listener.Addr().String()
	cfg.DatabaseURL = dbtest.SQLite(tb)
	cfg.DevSecret = DevSecret
	cfg.RateLimitPerMin, cfg.RateLimitPerAddressPerMin, cfg.AuthRateLimitPerMin = 0, 0, 0
	cfg.ReadCacheTTL = 0
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.Clock == nil {
		cfg.Clock = NewClock()
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.SearchInterval <= 0 {
		cfg.SearchInterval = defaultSearchInterval
	}
	sopts := []server.Option{server.WithClock(cfg.Clock), server.WithLogger(cfg.Logger), server.WithSearchPoll(cfg.SearchInterval)}
	if cfg.Verifier != nil {
		sopts = append(sopts, server.WithContractVerifier(cfg.Verifier))
	}
	if cfg.AnchorChecker != nil {
		sopts = append(sopts, server.WithReceiptChecker(cfg.AnchorChecker))
	}
	if cfg.SearchEmbedder != nil {
		sopts = append(sopts, server.WithEmbedder(cfg.SearchEmbedder))
	}
	if cfg.JuryChain != nil {
		sopts = append(sopts, server.WithJuryChain(cfg.JuryChain))
	}
	if cfg.WebhookResolver != nil {
		sopts = append(sopts, server.WithWebhookResolver(cfg.WebhookResolver))
	}
	host, err := server.New(context.Background(), cfg.Config, sopts...)
	if err != nil {
		hs.Close()
		tb.Fatalf("openjurytest: NewServer: %v", err)
	}
	tb.Cleanup(func() { _ = host.Close() }) // after hs.Close (cleanups run last first)
	if err := host.Start(context.Background()); err != nil {
		hs.Close()
		tb.Fatalf("openjurytest: NewServer: %v", err)
	}
	hs.Config.Handler = host.Handler()
	hs.Start()
	tb.Cleanup(hs.Close)
	tb.Cleanup(host.StopStreams) // before hs.Close, which waits for the streams

	return &Server{Server: host, URL: cfg.BaseURL, Clock: cfg.Clock, HTTP: hs}
}

// Response is a decoded HTTP response.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into v and fails the test when it is not JSON.
func (r *Response) JSON(tb testing.TB, v any) {
	tb.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		tb.Fatalf("openjurytest: decode %q: %v", r.Body, err)
	}
}

// Map decodes the body as a JSON object.
func (r *Response) Map(tb testing.TB) map[string]any {
	tb.Helper()
	var m map[string]any
	r.JSON(tb, &m)
	return m
}

// Do sends a request to the server. body is marshalled to JSON unless it is
// nil, a string or []byte (sent as is). token, when not empty, is sent as a
// bearer credential. Every response is checked against the service's
// OpenAPI document (ValidateResponse); a mismatch fails the test.
func (s *Server) Do(tb testing.TB, method, path, token string, body any) *Response {
	tb.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = bytes.NewReader([]byte(b))
	case []byte:
		rd = bytes.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			tb.Fatalf("openjurytest: marshal body: %v", err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, s.URL+path, rd)
	if err != nil {
		tb.Fatalf("openjurytest: new request: %v", err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := s.HTTP.Client().Do(req)
	if err != nil {
		tb.Fatalf("openjurytest: %s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatalf("openjurytest: read body: %v", err)
	}
	ValidateResponse(tb, req, resp.StatusCode, resp.Header, raw)
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: raw}
}

// SignIn runs the challenge/verify flow over HTTP for w and returns the
// bearer token.
func (s *Server) SignIn(tb testing.TB, w *Wallet) string {
	tb.Helper()
	ch := s.Do(tb, http.MethodPost, "/api/v1/agents/auth/challenge", "", map[string]string{"address": w.Address().String()})
	if ch.Status != http.StatusOK {
		tb.Fatalf("openjurytest: challenge: %d %s", ch.Status, ch.Body)
	}
	var c struct {
		Message string `json:"message_to_sign"`
	}
	ch.JSON(tb, &c)
	vr := s.Do(tb, http.MethodPost, "/api/v1/agents/auth/verify", "", map[string]string{
		"address":   w.Address().String(),
		"signature": w.Sign(tb, c.Message),
	})
	if vr.Status != http.StatusOK {
		tb.Fatalf("openjurytest: verify: %d %s", vr.Status, vr.Body)
	}
	var v struct {
		Token string `json:"access_token"`
	}
	vr.JSON(tb, &v)
	return v.Token
}

// SetStake sets the stake of addr to usdc whole USDC through the stake
// service, failing the test on error.
func (s *Server) SetStake(tb testing.TB, addr openjury.Address, usdc int64) {
	tb.Helper()
	if _, err := s.Stake.DevSet(context.Background(), stake.SetInput{Address: addr, Staked: openjury.MicroUSDC(usdc * openjury.MicroPerUSDC)}); err != nil {
		tb.Fatalf("openjurytest: set stake of %s: %v", addr, err)
	}
}

// SetReputation sets the reputation score of addr through the marketplace
// service, failing the test on error.
func (s *Server) SetReputation(tb testing.TB, addr openjury.Address, score int64) {
	tb.Helper()
	if _, err := s.Market.DevSetReputation(context.Background(), addr, score); err != nil {
		tb.Fatalf("openjurytest: set reputation of %s: %v", addr, err)
	}
}

// MintAGR credits amount AGR to addr through the AGR service, failing the
// test on error.
func (s *Server) MintAGR(tb testing.TB, addr openjury.Address, amount int64) {
	tb.Helper()
	if _, err := s.AGR.DevMint(context.Background(), addr, amount); err != nil {
		tb.Fatalf("openjurytest: mint AGR to %s: %v", addr, err)
	}
}
