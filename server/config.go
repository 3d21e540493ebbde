package server

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/big"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/transport"
)

// Config is every setting of the service, read from SERVICE_* environment
// variables by FromEnv (docs/operations.md#configuration). Build one with
// Defaults, FromEnv or Load, check it with Validate, and give it to New.
//
// DevSecret, EmbedderAPIKey and RPCURL are secrets: String, GoString and
// LogValue never show them (only whether they are set), and the password of
// a PostgreSQL DatabaseURL is masked.
type Config struct {
	// Addr is the listen address (SERVICE_ADDR, ":8080"); ":0" picks a free
	// port.
	Addr string
	// DatabaseURL names the database (SERVICE_DATABASE_URL,
	// "./data/openjury.db"): postgres:// or postgresql:// for PostgreSQL;
	// sqlite:PATH, file:PATH or a plain path for SQLite. See bunstore.Open.
	DatabaseURL string
	// BaseURL is the public URL of the service (SERVICE_BASE_URL,
	// "http://localhost:8080"), without a trailing slash. Its host is the
	// sign-in domain.
	BaseURL string
	// AppURL is the URL of the companion web application (SERVICE_APP_URL);
	// empty means BaseURL (see PublicAppURL).
	AppURL string
	// ChainID is the chain of sign-in messages, stake and anchors
	// (SERVICE_CHAIN_ID, 8453).
	ChainID int64
	// Network is the network name (SERVICE_NETWORK, "base").
	Network string
	// USDCAddress is the USDC token contract (SERVICE_USDC_ADDRESS).
	USDCAddress openjury.Address
	// AGRTokenAddress is the AGR token contract (SERVICE_AGR_TOKEN_ADDRESS).
	AGRTokenAddress openjury.Address
	// MinStakeUSDC is the stake needed to submit and vote
	// (SERVICE_MIN_STAKE_USDC, 10 USDC).
	MinStakeUSDC openjury.MicroUSDC
	// MinRepScoreToVote is the reputation needed to sit on a jury
	// (SERVICE_MIN_REP_SCORE_TO_VOTE, 10).
	MinRepScoreToVote int64
	// FinalVoteOpen lets any signed-in address cast final votes
	// (SERVICE_FINAL_VOTE_OPEN, false). By default a final voter needs
	// the stake of a submission (MinStakeUSDC); see
	// marketplace.Config.FinalVoteOpen.
	FinalVoteOpen bool
	// FinalVoteWindow is the default final-vote window of a job
	// (SERVICE_FINAL_VOTE_WINDOW_SECONDS, 86400 s; 60..2592000 s).
	FinalVoteWindow time.Duration
	// ChallengeTTL is the lifetime of a sign-in challenge
	// (SERVICE_CHALLENGE_TTL_SECONDS, 300 s).
	ChallengeTTL time.Duration
	// AccessTokenTTL is the lifetime of a bearer token
	// (SERVICE_ACCESS_TOKEN_TTL_SECONDS, 86400 s).
	AccessTokenTTL time.Duration
	// OperatorAddresses are the operator wallets
	// (SERVICE_OPERATOR_ADDRESSES, comma-separated).
	OperatorAddresses []openjury.Address
	// DevSecret guards the dev endpoints (SERVICE_DEV_SECRET); empty turns
	// them off. Secret.
	DevSecret string
	// AGRMintPerWin is the AGR credited to a winner
	// (SERVICE_AGR_MINT_PER_WIN, 50).
	AGRMintPerWin int64
	// JuryCommitWindow and JuryRevealWindow are the default commit and
	// reveal windows of a commit-reveal job (SERVICE_JURY_COMMIT_SECONDS,
	// 86400 s; SERVICE_JURY_REVEAL_SECONDS, 43200 s; each 60..2592000 s).
	JuryCommitWindow time.Duration
	JuryRevealWindow time.Duration
	// AGRPerCoherentVote is the AGR credited at the close of an unfunded
	// job with jury settings to each juror who voted for the winner
	// (SERVICE_AGR_PER_COHERENT_VOTE, 5).
	AGRPerCoherentVote int64
	// JuryNoShowPenalty is the reputation score a drawn juror without a
	// counted vote loses at the close (SERVICE_JURY_NO_SHOW_PENALTY, 2).
	JuryNoShowPenalty int64
	// AuthEIP1271Enabled turns on contract-wallet sign-in
	// (SERVICE_AUTH_EIP1271_ENABLED); it needs RPCURL.
	AuthEIP1271Enabled bool
	// RPCURL is the chain's JSON-RPC endpoint (SERVICE_RPC_URL). Secret: it
	// may hold a provider key.
	RPCURL string
	// OnchainStakeEnabled takes stake from the stake vault
	// (SERVICE_ONCHAIN_STAKE_ENABLED).
	OnchainStakeEnabled bool
	// StakeContractAddress is the stake vault
	// (SERVICE_STAKE_CONTRACT_ADDRESS).
	StakeContractAddress openjury.Address
	// OnchainSyncEnabled polls stake-vault events
	// (SERVICE_ONCHAIN_SYNC_ENABLED); it needs RPCURL, StakeContractAddress
	// and OnchainStakeEnabled.
	OnchainSyncEnabled bool
	// SyncConfirmations is how many blocks an event must be buried under
	// before it is synced (SERVICE_SYNC_CONFIRMATIONS, 20).
	SyncConfirmations int64
	// AnchorRegistryAddress is the anchor registry contract
	// (SERVICE_ANCHOR_REGISTRY_ADDRESS).
	AnchorRegistryAddress openjury.Address
	// EscrowContractAddress is the BountyEscrow contract the service
	// follows (SERVICE_ESCROW_CONTRACT_ADDRESS): the stake sync also reads
	// its events and a funded job's close adds its payouts to the snapshot
	// (docs/rules.md#escrow-and-payouts). It needs RPCURL (or an injected
	// escrow chain), OnchainSyncEnabled and TreasuryAddress.
	EscrowContractAddress openjury.Address
	// TreasuryAddress receives the platform fee of funded jobs
	// (SERVICE_TREASURY_ADDRESS); the constitution publishes it as
	// TreasuryInfo.contract_address. Required with the escrow.
	TreasuryAddress openjury.Address
	// AgentPayoutPct, PlatformFeePct and JuryPoolPct are the split of a
	// bounty, fractions of 1 that must sum to 1
	// (SERVICE_AGENT_PAYOUT_USDC_PCT 0.85, SERVICE_PLATFORM_FEE_USDC_PCT
	// 0.05, SERVICE_JURY_POOL_USDC_PCT 0.10); each is converted once to
	// parts per million (the nearest) for the payouts.
	AgentPayoutPct float64
	PlatformFeePct float64
	JuryPoolPct    float64
	// SemanticSearchEnabled turns semantic search on
	// (SERVICE_SEMANTIC_SEARCH_ENABLED, true).
	SemanticSearchEnabled bool
	// Embedder is "local" (the built-in embedder) or the base URL of an
	// OpenAI-compatible embeddings API (SERVICE_EMBEDDER, "local").
	Embedder string
	// EmbedderModel is the model of a remote embedder
	// (SERVICE_EMBEDDER_MODEL); required when Embedder is a URL.
	EmbedderModel string
	// EmbedderAPIKey is the key of a remote embedder
	// (SERVICE_EMBEDDER_API_KEY). Secret.
	EmbedderAPIKey string
	// RateLimitPerMin is the number of requests per minute per client
	// (SERVICE_RATE_LIMIT_PER_MIN, 300); 0 turns the limit off.
	RateLimitPerMin int
	// AuthRateLimitPerMin is the number of requests per minute that the
	// unauthenticated sign-in routes (challenge and verify) take together
	// on one replica, from all clients (SERVICE_AUTH_RATE_LIMIT_PER_MIN,
	// 600); 0 turns it off. See transport.Options.AuthRateLimitPerMin.
	AuthRateLimitPerMin int
	// LogLevel is debug, info, warn or error (SERVICE_LOG_LEVEL, "info").
	LogLevel string
	// ShutdownTimeout bounds the graceful shutdown
	// (SERVICE_SHUTDOWN_TIMEOUT_SECONDS, 15 s).
	ShutdownTimeout time.Duration
	// DBMaxConns is the PostgreSQL pool size (SERVICE_DB_MAX_CONNS, 4 x
	// cores: bunstore.DefaultMaxConns); at least 1. SQLite ignores it.
	DBMaxConns int
	// ReadCacheTTL is how long reads of public data are cached
	// (SERVICE_READ_CACHE_MS, 1000 ms; 0 turns the cache off; at most
	// transport.MaxReadCacheTTL).
	ReadCacheTTL time.Duration
	// SyncStartBlock is the first block the stake-vault sync scans when it
	// has no cursor yet (SERVICE_SYNC_START_BLOCK, 0): the vault's
	// deployment block saves scanning the chain's history.
	SyncStartBlock int64
	// SyncPollInterval is how often the stake-vault sync asks for new
	// blocks once caught up (SERVICE_SYNC_POLL_SECONDS, 5 s).
	SyncPollInterval time.Duration
	// TrustedProxies are the reverse proxies whose X-Forwarded-For is
	// believed (SERVICE_TRUSTED_PROXIES: comma-separated CIDRs or single
	// addresses; default none). See transport.Options.TrustedProxies.
	TrustedProxies []netip.Prefix
	// RateLimitPerAddressPerMin is the number of requests per minute per
	// signed-in address on the routes that need sign-in
	// (SERVICE_RATE_LIMIT_PER_ADDRESS_PER_MIN, 300); 0 turns it off.
	RateLimitPerAddressPerMin int
	// ReadHeaderTimeout bounds reading a request's headers
	// (SERVICE_READ_HEADER_TIMEOUT_SECONDS, 10 s): a client that sends them
	// slower is cut off.
	ReadHeaderTimeout time.Duration
	// ReadTimeout bounds reading a whole request, body included
	// (SERVICE_READ_TIMEOUT_SECONDS, 60 s).
	ReadTimeout time.Duration
	// WriteTimeout bounds a request from the end of its headers to the end
	// of its answer (SERVICE_WRITE_TIMEOUT_SECONDS, 60 s).
	WriteTimeout time.Duration
	// IdleTimeout bounds how long an idle keep-alive connection is kept
	// (SERVICE_IDLE_TIMEOUT_SECONDS, 120 s).
	IdleTimeout time.Duration
	// MaxHeaderBytes bounds the size of a request's headers
	// (SERVICE_MAX_HEADER_BYTES, 65536; 4096..1048576); larger ones get 431.
	MaxHeaderBytes int
	// DevMode is SERVICE_DEV_MODE: "auto" (default), "0" (off) or "1" (on);
	// see LocalDev.
	DevMode string
	// LocalDev is local development mode, decided by FromEnv: on with
	// SERVICE_DEV_MODE=1, or with "auto" when SERVICE_ADDR,
	// SERVICE_BASE_URL and SERVICE_DEV_SECRET are all unset. The host then
	// listens on loopback only (LocalDevAddr unless SERVICE_ADDR is set;
	// Validate refuses another address), an empty BaseURL means
	// http://localhost:PORT for the port it listens on, and the dev
	// endpoints need no X-Dev-Secret (docs/operations.md).
	LocalDev bool
	// CORSOrigins are the browser origins allowed to call the API
	// (SERVICE_CORS_ORIGINS, comma-separated, e.g.
	// "https://app.example.com"); the origin of AppURL is added when it
	// differs from BaseURL's (see AllowedOrigins).
	CORSOrigins []string
	// EventRetention is how long the event log keeps events
	// (SERVICE_EVENT_RETENTION_HOURS, 168 h; at least 1 h): a resume from
	// an older id answers 410 (docs/rules.md#events).
	EventRetention time.Duration
	// EventStreamsMax bounds the live event streams one replica serves
	// (SERVICE_EVENT_STREAMS_MAX, 10000); more answer 503.
	EventStreamsMax int
	// WebhookAllowPrivate lets webhooks point at loopback and private
	// addresses, over http too (SERVICE_WEBHOOK_ALLOW_PRIVATE, false):
	// for a receiver on the same machine or network. Link-local and cloud
	// metadata addresses stay refused.
	WebhookAllowPrivate bool
	// WebhookConcurrency is how many webhook deliveries one replica sends
	// at once (SERVICE_WEBHOOK_CONCURRENCY, 16).
	WebhookConcurrency int
	// GCHeapFloorMB is the heap, in MiB, below which the host binary's
	// garbage collector does not collect while the process's resident
	// memory is at most 8 times that (SERVICE_GC_HEAP_FLOOR_MB, 32; 0:
	// off, plain GOGC; see internal/gcfloor). The GC percent is
	// process-wide, so New does not apply it: the host binary does, and a
	// program that embeds the server tunes its own collector.
	GCHeapFloorMB int
}

// DefaultGCHeapFloorMB is the default GCHeapFloorMB; maxGCHeapFloorMB
// bounds it (64 GiB).
const (
	DefaultGCHeapFloorMB = 32
	maxGCHeapFloorMB     = 65536
)

// EmbedderLocal is the Embedder value of the built-in embedder.
const EmbedderLocal = "local"

// Limits of the final-vote window (docs/rules.md#jobs): the marketplace's,
// so the setting and a job's own window obey one rule.
const (
	MinFinalVoteWindow = marketplace.MinFinalVoteWindow
	MaxFinalVoteWindow = marketplace.MaxFinalVoteWindow
)

// Defaults of the settings that tests and embedders name (the test kit
// publishes them as openjurytest.DefaultChainID, ...); Defaults holds
// every default.
const (
	DefaultChainID           = 8453
	DefaultNetwork           = "base"
	DefaultMinStakeUSDC      = 10 * openjury.MicroPerUSDC
	DefaultMinRepScoreToVote = 10
	DefaultAGRMintPerWin     = 50
	DefaultJuryCommitWindow  = marketplace.DefaultJuryCommitWindow
	DefaultJuryRevealWindow  = marketplace.DefaultJuryRevealWindow
	DefaultChallengeTTL      = 5 * time.Minute
	DefaultAccessTokenTTL    = 24 * time.Hour
	DefaultFinalVoteWindow   = marketplace.DefaultFinalVoteWindow
)

// Defaults returns every setting's default outside local development mode
// (FromEnv with no variable set turns that mode on: see LocalDev).
func Defaults() Config {
	return Config{
		Addr:                  ":8080",
		DatabaseURL:           "./data/openjury.db",
		BaseURL:               "http://localhost:8080",
		ChainID:               DefaultChainID,
		Network:               DefaultNetwork,
		MinStakeUSDC:          DefaultMinStakeUSDC,
		MinRepScoreToVote:     DefaultMinRepScoreToVote,
		FinalVoteWindow:       DefaultFinalVoteWindow,
		ChallengeTTL:          DefaultChallengeTTL,
		AccessTokenTTL:        DefaultAccessTokenTTL,
		OperatorAddresses:     []openjury.Address{},
		AGRMintPerWin:         DefaultAGRMintPerWin,
		JuryCommitWindow:      DefaultJuryCommitWindow,
		JuryRevealWindow:      DefaultJuryRevealWindow,
		AGRPerCoherentVote:    marketplace.DefaultAGRPerCoherentVote,
		JuryNoShowPenalty:     marketplace.DefaultJuryNoShowPenalty,
		SyncConfirmations:     20,
		AgentPayoutPct:        marketplace.DefaultEconomy.AgentPayoutPct,
		PlatformFeePct:        marketplace.DefaultEconomy.PlatformFeePct,
		JuryPoolPct:           marketplace.DefaultEconomy.JuryPoolPct,
		SemanticSearchEnabled: true,
		Embedder:              EmbedderLocal,
		RateLimitPerMin:       300,
		AuthRateLimitPerMin:   transport.DefaultAuthRateLimitPerMin,
		LogLevel:              "info",
		ShutdownTimeout:       15 * time.Second,
		DBMaxConns:            bunstore.DefaultMaxConns(),
		ReadCacheTTL:          time.Second,
		SyncPollInterval:      5 * time.Second,

		RateLimitPerAddressPerMin: 300,
		ReadHeaderTimeout:         10 * time.Second,
		ReadTimeout:               time.Minute,
		WriteTimeout:              time.Minute,
		IdleTimeout:               2 * time.Minute,
		MaxHeaderBytes:            64 << 10,
		DevMode:                   DevModeAuto,
		EventRetention:            events.DefaultRetention,
		EventStreamsMax:           DefaultEventStreamsMax,
		WebhookConcurrency:        events.DefaultConcurrency,
		GCHeapFloorMB:             DefaultGCHeapFloorMB,
	}
}

// PublicAppURL returns AppURL, or BaseURL when AppURL is empty.
func (c Config) PublicAppURL() string {
	if c.AppURL != "" {
		return c.AppURL
	}
	return c.BaseURL
}

// ConfigError lists every problem found in a configuration, one sentence
// each, naming the variable.
type ConfigError struct {
	Problems []string
}

// Error implements error.
func (e *ConfigError) Error() string {
	return "invalid configuration: " + strings.Join(e.Problems, "; ")
}

// problems collects configuration problems.
type problems []string

func (p *problems) add(format string, args ...any) { *p = append(*p, fmt.Sprintf(format, args...)) }

func (p problems) err() error {
	if len(p) == 0 {
		return nil
	}
	return &ConfigError{Problems: p}
}

// FromEnv reads the configuration through getenv (os.Getenv in the binary).
// Unset or empty variables keep their defaults. Values that do not parse
// (integers, booleans, amounts) are all reported in one *ConfigError, and
// the field keeps its default; rules between settings are Validate's job.
// Addresses are stored lowercase when valid and as given otherwise, so
// Validate reports them.
func FromEnv(getenv func(string) string) (Config, error) {
	c := Defaults()
	var p problems
	getenv = readOnce(getenv)
	get := func(name string) (string, bool) {
		v := strings.TrimSpace(getenv(name))
		return v, v != ""
	}
	str := func(name string, dst *string) {
		if v, ok := get(name); ok {
			*dst = v
		}
	}
	integer := func(name string, dst *int64) {
		if v, ok := get(name); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				p.add("%s: must be an integer, got %q", name, v)
				return
			}
			*dst = n
		}
	}
	// smallInt reads an integer into an int (an int64 on 64-bit
	// platforms, so out of range only on 32-bit ones).
	smallInt := func(name string, dst *int) {
		n := int64(*dst)
		integer(name, &n)
		if int64(int(n)) != n {
			p.add("%s: out of range", name)
			return
		}
		*dst = int(n)
	}
	seconds := func(name string, dst *time.Duration) {
		n := int64(*dst / time.Second)
		before := len(p)
		integer(name, &n)
		if len(p) > before {
			return
		}
		if n > math.MaxInt64/int64(time.Second) || n < math.MinInt64/int64(time.Second) {
			p.add("%s: out of range", name)
			return
		}
		*dst = time.Duration(n) * time.Second
	}
	boolean := func(name string, dst *bool) {
		if v, ok := get(name); ok {
			switch strings.ToLower(v) {
			case "1", "true":
				*dst = true
			case "0", "false":
				*dst = false
			default:
				p.add("%s: must be 1, 0, true or false, got %q", name, v)
			}
		}
	}
	address := func(name string, dst *openjury.Address) {
		if v, ok := get(name); ok {
			if a, err := openjury.ParseAddress(name, v); err == nil {
				*dst = a
			} else {
				*dst = openjury.Address(v) // Validate reports it
			}
		}
	}

	str("SERVICE_ADDR", &c.Addr)
	str("SERVICE_DATABASE_URL", &c.DatabaseURL)
	str("SERVICE_BASE_URL", &c.BaseURL)
	c.BaseURL = strings.TrimRight(c.BaseURL, "/")
	str("SERVICE_APP_URL", &c.AppURL)
	c.AppURL = strings.TrimRight(c.AppURL, "/")
	integer("SERVICE_CHAIN_ID", &c.ChainID)
	str("SERVICE_NETWORK", &c.Network)
	address("SERVICE_USDC_ADDRESS", &c.USDCAddress)
	address("SERVICE_AGR_TOKEN_ADDRESS", &c.AGRTokenAddress)
	if v, ok := get("SERVICE_MIN_STAKE_USDC"); ok {
		if m, err := openjury.ParseUSDC("SERVICE_MIN_STAKE_USDC", v); err != nil {
			p.add("%s (got %q)", openjury.DetailOf(err), v)
		} else {
			c.MinStakeUSDC = m
		}
	}
	integer("SERVICE_MIN_REP_SCORE_TO_VOTE", &c.MinRepScoreToVote)
	boolean("SERVICE_FINAL_VOTE_OPEN", &c.FinalVoteOpen)
	seconds("SERVICE_FINAL_VOTE_WINDOW_SECONDS", &c.FinalVoteWindow)
	seconds("SERVICE_CHALLENGE_TTL_SECONDS", &c.ChallengeTTL)
	seconds("SERVICE_ACCESS_TOKEN_TTL_SECONDS", &c.AccessTokenTTL)
	if v, ok := get("SERVICE_OPERATOR_ADDRESSES"); ok {
		c.OperatorAddresses = []openjury.Address{}
		for part := range strings.SplitSeq(v, ",") {
			if part = strings.TrimSpace(part); part == "" {
				continue
			}
			a, err := openjury.ParseAddress("SERVICE_OPERATOR_ADDRESSES", part)
			if err != nil {
				a = openjury.Address(part) // Validate reports it
			}
			c.OperatorAddresses = append(c.OperatorAddresses, a)
		}
	}
	if v := getenv("SERVICE_DEV_SECRET"); v != "" {
		c.DevSecret = v // kept exactly: a secret may have edge spaces
	}
	integer("SERVICE_AGR_MINT_PER_WIN", &c.AGRMintPerWin)
	seconds("SERVICE_JURY_COMMIT_SECONDS", &c.JuryCommitWindow)
	seconds("SERVICE_JURY_REVEAL_SECONDS", &c.JuryRevealWindow)
	integer("SERVICE_AGR_PER_COHERENT_VOTE", &c.AGRPerCoherentVote)
	integer("SERVICE_JURY_NO_SHOW_PENALTY", &c.JuryNoShowPenalty)
	boolean("SERVICE_AUTH_EIP1271_ENABLED", &c.AuthEIP1271Enabled)
	str("SERVICE_RPC_URL", &c.RPCURL)
	boolean("SERVICE_ONCHAIN_STAKE_ENABLED", &c.OnchainStakeEnabled)
	address("SERVICE_STAKE_CONTRACT_ADDRESS", &c.StakeContractAddress)
	boolean("SERVICE_ONCHAIN_SYNC_ENABLED", &c.OnchainSyncEnabled)
	integer("SERVICE_SYNC_CONFIRMATIONS", &c.SyncConfirmations)
	address("SERVICE_ANCHOR_REGISTRY_ADDRESS", &c.AnchorRegistryAddress)
	address("SERVICE_ESCROW_CONTRACT_ADDRESS", &c.EscrowContractAddress)
	address("SERVICE_TREASURY_ADDRESS", &c.TreasuryAddress)
	fraction := func(name string, dst *float64) {
		if v, ok := get(name); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
				p.add("%s: must be a number between 0 and 1, got %q", name, v)
				return
			}
			*dst = f
		}
	}
	fraction("SERVICE_AGENT_PAYOUT_USDC_PCT", &c.AgentPayoutPct)
	fraction("SERVICE_PLATFORM_FEE_USDC_PCT", &c.PlatformFeePct)
	fraction("SERVICE_JURY_POOL_USDC_PCT", &c.JuryPoolPct)
	boolean("SERVICE_SEMANTIC_SEARCH_ENABLED", &c.SemanticSearchEnabled)
	str("SERVICE_EMBEDDER", &c.Embedder)
	if strings.EqualFold(c.Embedder, EmbedderLocal) {
		c.Embedder = EmbedderLocal
	}
	str("SERVICE_EMBEDDER_MODEL", &c.EmbedderModel)
	if v := getenv("SERVICE_EMBEDDER_API_KEY"); v != "" {
		c.EmbedderAPIKey = v
	}
	smallInt("SERVICE_RATE_LIMIT_PER_MIN", &c.RateLimitPerMin)
	smallInt("SERVICE_AUTH_RATE_LIMIT_PER_MIN", &c.AuthRateLimitPerMin)
	str("SERVICE_LOG_LEVEL", &c.LogLevel)
	c.LogLevel = strings.ToLower(c.LogLevel)
	seconds("SERVICE_SHUTDOWN_TIMEOUT_SECONDS", &c.ShutdownTimeout)
	smallInt("SERVICE_DB_MAX_CONNS", &c.DBMaxConns)
	cacheMS := c.ReadCacheTTL.Milliseconds()
	integer("SERVICE_READ_CACHE_MS", &cacheMS)
	if cacheMS > int64(math.MaxInt64/time.Millisecond) || cacheMS < int64(math.MinInt64/time.Millisecond) {
		p.add("SERVICE_READ_CACHE_MS: out of range")
	} else {
		c.ReadCacheTTL = time.Duration(cacheMS) * time.Millisecond
	}
	integer("SERVICE_SYNC_START_BLOCK", &c.SyncStartBlock)
	seconds("SERVICE_SYNC_POLL_SECONDS", &c.SyncPollInterval)
	if v, ok := get("SERVICE_TRUSTED_PROXIES"); ok {
		prefixes, invalid := transport.ParseTrustedProxies(v)
		if len(invalid) > 0 {
			p.add("SERVICE_TRUSTED_PROXIES: not a CIDR or IP address: %s", strings.Join(invalid, ", "))
		}
		c.TrustedProxies = prefixes
	}
	smallInt("SERVICE_RATE_LIMIT_PER_ADDRESS_PER_MIN", &c.RateLimitPerAddressPerMin)
	seconds("SERVICE_READ_HEADER_TIMEOUT_SECONDS", &c.ReadHeaderTimeout)
	seconds("SERVICE_READ_TIMEOUT_SECONDS", &c.ReadTimeout)
	seconds("SERVICE_WRITE_TIMEOUT_SECONDS", &c.WriteTimeout)
	seconds("SERVICE_IDLE_TIMEOUT_SECONDS", &c.IdleTimeout)
	smallInt("SERVICE_MAX_HEADER_BYTES", &c.MaxHeaderBytes)
	if v, ok := get("SERVICE_CORS_ORIGINS"); ok {
		for part := range strings.SplitSeq(v, ",") {
			if part = strings.TrimSpace(part); part != "" {
				c.CORSOrigins = append(c.CORSOrigins, part) // Validate checks them
			}
		}
	}
	retention := int64(c.EventRetention / time.Hour)
	integer("SERVICE_EVENT_RETENTION_HOURS", &retention)
	if retention > math.MaxInt64/int64(time.Hour) || retention < 0 {
		p.add("SERVICE_EVENT_RETENTION_HOURS: out of range")
	} else {
		c.EventRetention = time.Duration(retention) * time.Hour
	}
	smallInt("SERVICE_EVENT_STREAMS_MAX", &c.EventStreamsMax)
	boolean("SERVICE_WEBHOOK_ALLOW_PRIVATE", &c.WebhookAllowPrivate)
	smallInt("SERVICE_WEBHOOK_CONCURRENCY", &c.WebhookConcurrency)
	smallInt("SERVICE_GC_HEAP_FLOOR_MB", &c.GCHeapFloorMB)
	readDevMode(&c, getenv, &p)
	return c, p.err()
}

// Load reads the configuration through getenv (FromEnv) and checks it
// (Validate), reporting the problems of both steps together in one
// *ConfigError: what the binary does at start.
func Load(getenv func(string) string) (Config, error) {
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

// Validate checks every setting and every rule between settings and
// reports all problems at once in a *ConfigError, or returns nil. Messages
// never include secret values.
func (c Config) Validate() error { return c.validate(injected{}) }

// injected says which chain ports New was given as options: a use of the
// chain whose port is given needs no SERVICE_RPC_URL.
type injected struct {
	verifier, vault, escrow bool
}

// validate is Validate knowing the injected chain ports.
func (c Config) validate(in injected) error {
	var p problems
	if c.Addr == "" {
		p.add("SERVICE_ADDR: is required")
	} else if _, port, err := net.SplitHostPort(c.Addr); err != nil {
		p.add("SERVICE_ADDR: must be host:port or :port, got %q", c.Addr)
	} else if n, err := strconv.ParseUint(port, 10, 16); err != nil || n > 65535 {
		p.add("SERVICE_ADDR: port must be a number 0..65535, got %q", port)
	}
	if strings.TrimSpace(c.DatabaseURL) == "" {
		p.add("SERVICE_DATABASE_URL: is required")
	}
	if msg := checkHTTPURL(c.BaseURL, true); msg != "" && !(c.LocalDev && c.BaseURL == "") {
		p.add("SERVICE_BASE_URL: %s", msg)
	}
	if c.AppURL != "" {
		if msg := checkHTTPURL(c.AppURL, true); msg != "" {
			p.add("SERVICE_APP_URL: %s", msg)
		}
	}
	if c.ChainID <= 0 {
		p.add("SERVICE_CHAIN_ID: must be a positive integer, got %d", c.ChainID)
	}
	if strings.TrimSpace(c.Network) == "" {
		p.add("SERVICE_NETWORK: is required")
	}
	checkAddress(&p, "SERVICE_USDC_ADDRESS", c.USDCAddress)
	checkAddress(&p, "SERVICE_AGR_TOKEN_ADDRESS", c.AGRTokenAddress)
	if c.MinStakeUSDC < 0 {
		p.add("SERVICE_MIN_STAKE_USDC: must not be negative")
	}
	if c.MinRepScoreToVote < 0 {
		p.add("SERVICE_MIN_REP_SCORE_TO_VOTE: must not be negative")
	}
	if c.FinalVoteWindow < MinFinalVoteWindow || c.FinalVoteWindow > MaxFinalVoteWindow || c.FinalVoteWindow%time.Second != 0 {
		p.add("SERVICE_FINAL_VOTE_WINDOW_SECONDS: must be whole seconds in %d..%d, got %v",
			int64(MinFinalVoteWindow/time.Second), int64(MaxFinalVoteWindow/time.Second), c.FinalVoteWindow.Seconds())
	}
	if c.ChallengeTTL < time.Second {
		p.add("SERVICE_CHALLENGE_TTL_SECONDS: must be positive")
	}
	if c.AccessTokenTTL < time.Second {
		p.add("SERVICE_ACCESS_TOKEN_TTL_SECONDS: must be positive")
	}
	for i, a := range c.OperatorAddresses {
		checkAddress(&p, fmt.Sprintf("SERVICE_OPERATOR_ADDRESSES[%d]", i), a)
	}
	if c.AGRMintPerWin < 0 {
		p.add("SERVICE_AGR_MINT_PER_WIN: must not be negative")
	}
	for _, w := range []struct {
		name string
		d    time.Duration
	}{{"SERVICE_JURY_COMMIT_SECONDS", c.JuryCommitWindow}, {"SERVICE_JURY_REVEAL_SECONDS", c.JuryRevealWindow}} {
		if w.d < marketplace.MinJuryWindow || w.d > marketplace.MaxJuryWindow || w.d%time.Second != 0 {
			p.add("%s: must be whole seconds in %d..%d, got %v", w.name,
				int64(marketplace.MinJuryWindow/time.Second), int64(marketplace.MaxJuryWindow/time.Second), w.d.Seconds())
		}
	}
	if c.AGRPerCoherentVote < 0 {
		p.add("SERVICE_AGR_PER_COHERENT_VOTE: must not be negative")
	}
	if c.JuryNoShowPenalty < 0 {
		p.add("SERVICE_JURY_NO_SHOW_PENALTY: must not be negative")
	}
	if c.RPCURL != "" {
		if u, err := url.Parse(c.RPCURL); err != nil || u.Host == "" ||
			(u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "ws" && u.Scheme != "wss") {
			// The value may hold a provider key: never echo it.
			p.add("SERVICE_RPC_URL: must be an absolute http(s) or ws(s) URL")
		}
	}
	if c.AuthEIP1271Enabled && c.RPCURL == "" && !in.verifier {
		p.add("SERVICE_AUTH_EIP1271_ENABLED: requires SERVICE_RPC_URL")
	}
	checkAddress(&p, "SERVICE_STAKE_CONTRACT_ADDRESS", c.StakeContractAddress)
	if c.OnchainSyncEnabled {
		if c.RPCURL == "" && !in.vault {
			p.add("SERVICE_ONCHAIN_SYNC_ENABLED: requires SERVICE_RPC_URL")
		}
		if c.StakeContractAddress == "" {
			p.add("SERVICE_ONCHAIN_SYNC_ENABLED: requires SERVICE_STAKE_CONTRACT_ADDRESS")
		}
		if !c.OnchainStakeEnabled {
			p.add("SERVICE_ONCHAIN_SYNC_ENABLED: requires SERVICE_ONCHAIN_STAKE_ENABLED=1")
		}
	}
	if c.SyncConfirmations < 0 {
		p.add("SERVICE_SYNC_CONFIRMATIONS: must not be negative")
	}
	if c.SyncStartBlock < 0 {
		p.add("SERVICE_SYNC_START_BLOCK: must not be negative")
	}
	if c.SyncPollInterval < time.Second {
		p.add("SERVICE_SYNC_POLL_SECONDS: must be positive")
	}
	checkAddress(&p, "SERVICE_ANCHOR_REGISTRY_ADDRESS", c.AnchorRegistryAddress)
	c.validateEscrow(&p, in)
	if c.Embedder != EmbedderLocal {
		if msg := checkHTTPURL(c.Embedder, false); msg != "" {
			p.add("SERVICE_EMBEDDER: must be %q or an absolute http(s) URL", EmbedderLocal)
		} else if strings.TrimSpace(c.EmbedderModel) == "" {
			p.add("SERVICE_EMBEDDER_MODEL: is required when SERVICE_EMBEDDER is a URL")
		}
	}
	if c.RateLimitPerMin < 0 {
		p.add("SERVICE_RATE_LIMIT_PER_MIN: must not be negative (0 turns the limit off)")
	}
	if c.AuthRateLimitPerMin < 0 {
		p.add("SERVICE_AUTH_RATE_LIMIT_PER_MIN: must not be negative (0 turns the limit off)")
	}
	if _, ok := parseLevel(c.LogLevel); !ok {
		p.add("SERVICE_LOG_LEVEL: must be debug, info, warn or error, got %q", c.LogLevel)
	}
	if c.ShutdownTimeout < time.Second {
		p.add("SERVICE_SHUTDOWN_TIMEOUT_SECONDS: must be positive")
	}
	if c.DBMaxConns < 1 {
		p.add("SERVICE_DB_MAX_CONNS: must be at least 1")
	}
	if c.RateLimitPerAddressPerMin < 0 {
		p.add("SERVICE_RATE_LIMIT_PER_ADDRESS_PER_MIN: must not be negative (0 turns the limit off)")
	}
	for _, t := range []struct {
		name string
		d    time.Duration
	}{
		{"SERVICE_READ_HEADER_TIMEOUT_SECONDS", c.ReadHeaderTimeout},
		{"SERVICE_READ_TIMEOUT_SECONDS", c.ReadTimeout},
		{"SERVICE_WRITE_TIMEOUT_SECONDS", c.WriteTimeout},
		{"SERVICE_IDLE_TIMEOUT_SECONDS", c.IdleTimeout},
	} {
		if t.d < time.Second {
			p.add("%s: must be positive (a server without it can be held open by slow clients)", t.name)
		}
	}
	if c.ReadHeaderTimeout > c.ReadTimeout && c.ReadTimeout >= time.Second {
		p.add("SERVICE_READ_HEADER_TIMEOUT_SECONDS: must not exceed SERVICE_READ_TIMEOUT_SECONDS")
	}
	if c.MaxHeaderBytes < minHeaderBytes || c.MaxHeaderBytes > maxHeaderBytes {
		p.add("SERVICE_MAX_HEADER_BYTES: must be in %d..%d, got %d", minHeaderBytes, maxHeaderBytes, c.MaxHeaderBytes)
	}
	for _, o := range c.CORSOrigins {
		if _, ok := transport.ParseOrigin(o); !ok {
			p.add("SERVICE_CORS_ORIGINS: %q is not an origin (scheme://host[:port], http or https, no path)", o)
		}
	}
	if c.ReadCacheTTL < 0 || c.ReadCacheTTL > transport.MaxReadCacheTTL || c.ReadCacheTTL%time.Millisecond != 0 {
		p.add("SERVICE_READ_CACHE_MS: must be whole milliseconds in 0..%d, got %s", transport.MaxReadCacheTTL.Milliseconds(), c.ReadCacheTTL)
	}
	if c.EventRetention < time.Hour {
		p.add("SERVICE_EVENT_RETENTION_HOURS: must be at least 1")
	}
	if c.EventStreamsMax < 1 {
		p.add("SERVICE_EVENT_STREAMS_MAX: must be at least 1")
	}
	if c.WebhookConcurrency < 1 || c.WebhookConcurrency > maxWebhookConcurrency {
		p.add("SERVICE_WEBHOOK_CONCURRENCY: must be in 1..%d", maxWebhookConcurrency)
	}
	if c.GCHeapFloorMB < 0 || c.GCHeapFloorMB > maxGCHeapFloorMB {
		p.add("SERVICE_GC_HEAP_FLOOR_MB: must be in 0..%d", maxGCHeapFloorMB)
	}
	c.validateDevMode(&p)
	return p.err()
}

// validateEscrow checks the escrow and split settings: the escrow needs
// the chain node (or an injected escrow chain), the sync and a treasury;
// each fraction is in 0..1 and together they make exactly 1, as decimals
// (0.85 + 0.05 + 0.10 is 1, whatever binary floating point makes of it).
func (c Config) validateEscrow(p *problems, in injected) {
	checkAddress(p, "SERVICE_ESCROW_CONTRACT_ADDRESS", c.EscrowContractAddress)
	checkAddress(p, "SERVICE_TREASURY_ADDRESS", c.TreasuryAddress)
	if !c.EscrowContractAddress.IsZero() {
		if c.RPCURL == "" && !in.escrow {
			p.add("SERVICE_ESCROW_CONTRACT_ADDRESS: requires SERVICE_RPC_URL")
		}
		if !c.OnchainSyncEnabled {
			p.add("SERVICE_ESCROW_CONTRACT_ADDRESS: requires SERVICE_ONCHAIN_SYNC_ENABLED=1 (the sync reads its events)")
		}
		if c.TreasuryAddress.IsZero() {
			p.add("SERVICE_ESCROW_CONTRACT_ADDRESS: requires SERVICE_TREASURY_ADDRESS (the platform fee's recipient)")
		}
	}
	sum := new(big.Rat)
	ok := true
	for _, f := range []struct {
		name string
		v    float64
	}{
		{"SERVICE_AGENT_PAYOUT_USDC_PCT", c.AgentPayoutPct},
		{"SERVICE_PLATFORM_FEE_USDC_PCT", c.PlatformFeePct},
		{"SERVICE_JURY_POOL_USDC_PCT", c.JuryPoolPct},
	} {
		r, valid := new(big.Rat).SetString(strconv.FormatFloat(f.v, 'f', -1, 64))
		if !valid || f.v < 0 || f.v > 1 {
			p.add("%s: must be a number between 0 and 1, got %v", f.name, f.v)
			ok = false
			continue
		}
		sum.Add(sum, r)
	}
	if ok && sum.Cmp(big.NewRat(1, 1)) != 0 {
		p.add("SERVICE_AGENT_PAYOUT_USDC_PCT, SERVICE_PLATFORM_FEE_USDC_PCT and SERVICE_JURY_POOL_USDC_PCT: must sum to 1, got %s",
			strings.TrimRight(strings.TrimRight(sum.FloatString(9), "0"), "."))
	}
}

// Economy is the split of the settings, for the marketplace.
func (c Config) Economy() marketplace.Economy {
	return marketplace.Economy{AgentPayoutPct: c.AgentPayoutPct, PlatformFeePct: c.PlatformFeePct, JuryPoolPct: c.JuryPoolPct,
		AgentPayoutPPM: marketplace.ToPPM(c.AgentPayoutPct), PlatformFeePPM: marketplace.ToPPM(c.PlatformFeePct),
		JuryPoolPPM: marketplace.ToPPM(c.JuryPoolPct)}
}

// DefaultEventStreamsMax is the default of SERVICE_EVENT_STREAMS_MAX.
const DefaultEventStreamsMax = 10000

// maxWebhookConcurrency bounds SERVICE_WEBHOOK_CONCURRENCY.
const maxWebhookConcurrency = 1024

// Bounds of SERVICE_MAX_HEADER_BYTES: room for a bearer token and the
// usual headers, and at most 1 MiB.
const (
	minHeaderBytes = 4 << 10
	maxHeaderBytes = 1 << 20
)

// AllowedOrigins are the browser origins CORS lets call the API:
// CORSOrigins, plus the origin of the companion app (AppURL) when it
// differs from BaseURL's (transport.AllowedOrigins). Invalid entries are
// left out (Validate reports them).
func (c Config) AllowedOrigins() []string {
	return transport.AllowedOrigins(c.CORSOrigins, c.BaseURL, c.AppURL)
}

// checkHTTPURL returns "" for an absolute http(s) URL with a host, else a
// description of the problem; echo says whether the value may be quoted.
func checkHTTPURL(s string, echo bool) string {
	u, err := url.Parse(s)
	if err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		return ""
	}
	if echo {
		return fmt.Sprintf("must be an absolute http(s) URL, got %q", s)
	}
	return "must be an absolute http(s) URL"
}

// checkAddress reports a set address that is not 0x + 40 hex digits with a
// valid EIP-55 checksum.
func checkAddress(p *problems, name string, a openjury.Address) {
	if a == "" {
		return
	}
	if _, err := openjury.ParseAddress(name, string(a)); err != nil {
		p.add("%s, got %q", openjury.DetailOf(err), string(a))
	}
}

// parseLevel maps a LogLevel to a slog.Level.
func parseLevel(s string) (slog.Level, bool) {
	switch s {
	case "debug":
		return slog.LevelDebug, true
	case "info":
		return slog.LevelInfo, true
	case "warn":
		return slog.LevelWarn, true
	case "error":
		return slog.LevelError, true
	}
	return 0, false
}

// attrs lists the settings for logs and String, secrets as "set" flags.
func (c Config) attrs() []slog.Attr {
	ops := make([]string, len(c.OperatorAddresses))
	for i, a := range c.OperatorAddresses {
		ops[i] = string(a)
	}
	return []slog.Attr{
		slog.String("addr", c.Addr),
		slog.String("database_url", redactURL(c.DatabaseURL)),
		slog.String("base_url", c.BaseURL),
		slog.String("app_url", c.PublicAppURL()),
		slog.Int64("chain_id", c.ChainID),
		slog.String("network", c.Network),
		slog.String("usdc_address", string(c.USDCAddress)),
		slog.String("agr_token_address", string(c.AGRTokenAddress)),
		slog.String("min_stake_usdc", c.MinStakeUSDC.String()),
		slog.Int64("min_rep_score_to_vote", c.MinRepScoreToVote),
		slog.Bool("final_vote_open", c.FinalVoteOpen),
		slog.Int64("final_vote_window_seconds", int64(c.FinalVoteWindow/time.Second)),
		slog.Int64("challenge_ttl_seconds", int64(c.ChallengeTTL/time.Second)),
		slog.Int64("access_token_ttl_seconds", int64(c.AccessTokenTTL/time.Second)),
		slog.String("operator_addresses", strings.Join(ops, ",")),
		slog.Bool("dev_secret_set", c.DevSecret != ""),
		slog.Int64("agr_mint_per_win", c.AGRMintPerWin),
		slog.Int64("jury_commit_seconds", int64(c.JuryCommitWindow/time.Second)),
		slog.Int64("jury_reveal_seconds", int64(c.JuryRevealWindow/time.Second)),
		slog.Int64("agr_per_coherent_vote", c.AGRPerCoherentVote),
		slog.Int64("jury_no_show_penalty", c.JuryNoShowPenalty),
		slog.Bool("auth_eip1271_enabled", c.AuthEIP1271Enabled),
		slog.Bool("rpc_url_set", c.RPCURL != ""),
		slog.Bool("onchain_stake_enabled", c.OnchainStakeEnabled),
		slog.String("stake_contract_address", string(c.StakeContractAddress)),
		slog.Bool("onchain_sync_enabled", c.OnchainSyncEnabled),
		slog.Int64("sync_confirmations", c.SyncConfirmations),
		slog.String("anchor_registry_address", string(c.AnchorRegistryAddress)),
		slog.String("escrow_contract_address", string(c.EscrowContractAddress)),
		slog.String("treasury_address", string(c.TreasuryAddress)),
		slog.Float64("agent_payout_usdc_pct", c.AgentPayoutPct),
		slog.Float64("platform_fee_usdc_pct", c.PlatformFeePct),
		slog.Float64("jury_pool_usdc_pct", c.JuryPoolPct),
		slog.Bool("semantic_search_enabled", c.SemanticSearchEnabled),
		slog.String("embedder", redactURL(c.Embedder)),
		slog.String("embedder_model", c.EmbedderModel),
		slog.Bool("embedder_api_key_set", c.EmbedderAPIKey != ""),
		slog.Int("rate_limit_per_min", c.RateLimitPerMin),
		slog.Int("auth_rate_limit_per_min", c.AuthRateLimitPerMin),
		slog.String("log_level", c.LogLevel),
		slog.Int64("shutdown_timeout_seconds", int64(c.ShutdownTimeout/time.Second)),
		slog.Int("db_max_conns", c.DBMaxConns),
		slog.Int64("read_cache_ms", c.ReadCacheTTL.Milliseconds()),
		slog.Int64("sync_start_block", c.SyncStartBlock),
		slog.Int64("sync_poll_seconds", int64(c.SyncPollInterval/time.Second)),
		slog.String("trusted_proxies", prefixList(c.TrustedProxies)),
		slog.Int("rate_limit_per_address_per_min", c.RateLimitPerAddressPerMin),
		slog.Int64("read_header_timeout_seconds", int64(c.ReadHeaderTimeout/time.Second)),
		slog.Int64("read_timeout_seconds", int64(c.ReadTimeout/time.Second)),
		slog.Int64("write_timeout_seconds", int64(c.WriteTimeout/time.Second)),
		slog.Int64("idle_timeout_seconds", int64(c.IdleTimeout/time.Second)),
		slog.Int("max_header_bytes", c.MaxHeaderBytes),
		slog.String("cors_origins", strings.Join(c.AllowedOrigins(), ",")),
		slog.String("dev_mode", c.DevMode),
		slog.Bool("local_dev", c.LocalDev),
		slog.Int64("event_retention_hours", int64(c.EventRetention/time.Hour)),
		slog.Int("event_streams_max", c.EventStreamsMax),
		slog.Bool("webhook_allow_private", c.WebhookAllowPrivate),
		slog.Int("webhook_concurrency", c.WebhookConcurrency),
		slog.Int("gc_heap_floor_mb", c.GCHeapFloorMB),
	}
}

// prefixList renders prefixes comma-separated.
func prefixList(prefixes []netip.Prefix) string {
	parts := make([]string, len(prefixes))
	for i, p := range prefixes {
		parts[i] = p.String()
	}
	return strings.Join(parts, ",")
}

// LogValue implements slog.LogValuer: the settings as a group, without
// secrets.
func (c Config) LogValue() slog.Value { return slog.GroupValue(c.attrs()...) }

// String renders the settings as key=value pairs, without secrets.
func (c Config) String() string {
	var b strings.Builder
	for i, a := range c.attrs() {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s=%s", a.Key, strconv.Quote(a.Value.String()))
	}
	return b.String()
}

// GoString keeps %#v from printing the secret fields.
func (c Config) GoString() string { return "server.Config{" + c.String() + "}" }

// redactURL masks the password of a URL (user info or a password query
// parameter). Values that are not URLs with a scheme are returned as they
// are (SQLite paths); unparseable URLs are hidden.
func redactURL(s string) string {
	if !strings.Contains(s, "://") {
		return s
	}
	u, err := url.Parse(s)
	if err != nil {
		return "(hidden: not a valid URL)"
	}
	if q := u.Query(); q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}
