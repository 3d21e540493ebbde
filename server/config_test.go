package server

import (
	"bytes"
	"fmt"
	"log/slog"
	"maps"
	"net/netip"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
)

// env turns a map into a getenv function.
func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

const (
	addrA = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" // EIP-55 test vector
	addrB = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"
	addrC = "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB"
	addrD = "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb"
)

func lower(s string) openjury.Address { return openjury.Address(strings.ToLower(s)) }

func TestDefaults(t *testing.T) {
	t.Parallel()
	// With nothing set: local development mode (devmode_test.go).
	c, err := FromEnv(env(map[string]string{"SERVICE_DEV_MODE": "0"}))
	require.NoError(t, err)
	want := Defaults()
	want.DevMode = DevModeOff
	require.Equal(t, want, c)
	require.NoError(t, c.Validate())

	require.Equal(t, ":8080", c.Addr)
	require.Equal(t, "./data/openjury.db", c.DatabaseURL)
	require.Equal(t, "http://localhost:8080", c.BaseURL)
	require.Equal(t, "http://localhost:8080", c.PublicAppURL())
	require.EqualValues(t, 8453, c.ChainID)
	require.Equal(t, "base", c.Network)
	require.Equal(t, openjury.MicroUSDC(10_000_000), c.MinStakeUSDC)
	require.EqualValues(t, 10, c.MinRepScoreToVote)
	require.False(t, c.FinalVoteOpen, "final votes need stake by default")
	require.Equal(t, 600, c.AuthRateLimitPerMin)
	require.Equal(t, 24*time.Hour, c.FinalVoteWindow)
	require.Equal(t, 5*time.Minute, c.ChallengeTTL)
	require.Equal(t, 24*time.Hour, c.AccessTokenTTL)
	require.Empty(t, c.OperatorAddresses)
	require.Empty(t, c.DevSecret)
	require.EqualValues(t, 50, c.AGRMintPerWin)
	require.False(t, c.AuthEIP1271Enabled)
	require.False(t, c.OnchainStakeEnabled)
	require.False(t, c.OnchainSyncEnabled)
	require.EqualValues(t, 20, c.SyncConfirmations)
	require.True(t, c.SemanticSearchEnabled)
	require.Equal(t, "local", c.Embedder)
	require.Equal(t, 300, c.RateLimitPerMin)
	require.Equal(t, "info", c.LogLevel)
	require.Equal(t, 4*runtime.GOMAXPROCS(0), c.DBMaxConns)
}

func TestFromEnvEveryVariable(t *testing.T) {
	t.Parallel()
	vars := map[string]string{
		"SERVICE_ADDR":                      "127.0.0.1:9090",
		"SERVICE_DATABASE_URL":              "postgres://jury:pw@db:5432/jury?sslmode=disable",
		"SERVICE_BASE_URL":                  "https://jury.example.com/",
		"SERVICE_APP_URL":                   "https://app.example.com",
		"SERVICE_CHAIN_ID":                  "84532",
		"SERVICE_NETWORK":                   "base-sepolia",
		"SERVICE_USDC_ADDRESS":              addrA,
		"SERVICE_AGR_TOKEN_ADDRESS":         strings.ToLower(addrB),
		"SERVICE_MIN_STAKE_USDC":            "2.5",
		"SERVICE_MIN_REP_SCORE_TO_VOTE":     "7",
		"SERVICE_FINAL_VOTE_WINDOW_SECONDS": "3600",
		"SERVICE_CHALLENGE_TTL_SECONDS":     "120",
		"SERVICE_ACCESS_TOKEN_TTL_SECONDS":  "7200",
		"SERVICE_OPERATOR_ADDRESSES":        " " + addrA + " , " + addrB + ",,",
		"SERVICE_DEV_SECRET":                "s3cret",
		"SERVICE_AGR_MINT_PER_WIN":          "75",
		"SERVICE_JURY_COMMIT_SECONDS":       "600",
		"SERVICE_JURY_REVEAL_SECONDS":       "300",
		"SERVICE_AGR_PER_COHERENT_VOTE":     "7",
		"SERVICE_JURY_NO_SHOW_PENALTY":      "3",
		"SERVICE_AUTH_EIP1271_ENABLED":      "true",
		"SERVICE_RPC_URL":                   "https://rpc.example.com/v2/KEY",
		"SERVICE_ONCHAIN_STAKE_ENABLED":     "1",
		"SERVICE_STAKE_CONTRACT_ADDRESS":    addrC,
		"SERVICE_ONCHAIN_SYNC_ENABLED":      "TRUE",
		"SERVICE_SYNC_CONFIRMATIONS":        "5",
		"SERVICE_ANCHOR_REGISTRY_ADDRESS":   addrD,
		"SERVICE_ESCROW_CONTRACT_ADDRESS":   addrB,
		"SERVICE_TREASURY_ADDRESS":          addrA,
		"SERVICE_AGENT_PAYOUT_USDC_PCT":     "0.7",
		"SERVICE_PLATFORM_FEE_USDC_PCT":     "0.1",
		"SERVICE_JURY_POOL_USDC_PCT":        "0.2",
		"SERVICE_SEMANTIC_SEARCH_ENABLED":   "0",
		"SERVICE_EMBEDDER":                  "https://embed.example.com/v1",
		"SERVICE_EMBEDDER_MODEL":            "text-embedding-3-small",
		"SERVICE_EMBEDDER_API_KEY":          "sk-test",
		"SERVICE_RATE_LIMIT_PER_MIN":        "60",
		"SERVICE_LOG_LEVEL":                 "DEBUG",
		"SERVICE_SHUTDOWN_TIMEOUT_SECONDS":  "3",
		"SERVICE_DB_MAX_CONNS":              "12",
		"SERVICE_READ_CACHE_MS":             "250",
		"SERVICE_SYNC_START_BLOCK":          "123",
		"SERVICE_SYNC_POLL_SECONDS":         "2",

		"SERVICE_TRUSTED_PROXIES":                "10.0.0.0/8",
		"SERVICE_RATE_LIMIT_PER_ADDRESS_PER_MIN": "30",
		"SERVICE_FINAL_VOTE_OPEN":                "1",
		"SERVICE_AUTH_RATE_LIMIT_PER_MIN":        "120",
		"SERVICE_READ_HEADER_TIMEOUT_SECONDS":    "5",
		"SERVICE_READ_TIMEOUT_SECONDS":           "20",
		"SERVICE_WRITE_TIMEOUT_SECONDS":          "30",
		"SERVICE_IDLE_TIMEOUT_SECONDS":           "40",
		"SERVICE_MAX_HEADER_BYTES":               "16384",
		"SERVICE_CORS_ORIGINS":                   "https://other.example.com",
		"SERVICE_DEV_MODE":                       "auto",
		"SERVICE_EVENT_RETENTION_HOURS":          "48",
		"SERVICE_EVENT_STREAMS_MAX":              "500",
		"SERVICE_WEBHOOK_ALLOW_PRIVATE":          "1",
		"SERVICE_WEBHOOK_CONCURRENCY":            "4",
		"SERVICE_GC_HEAP_FLOOR_MB":               "0",
	}
	var read []string
	c, err := FromEnv(func(name string) string {
		read = append(read, name)
		return vars[name]
	})
	require.NoError(t, err)
	require.ElementsMatch(t, slices.Collect(maps.Keys(vars)), read, "this test sets every variable FromEnv reads, once")
	require.Equal(t, Config{
		Addr:                  "127.0.0.1:9090",
		DatabaseURL:           "postgres://jury:pw@db:5432/jury?sslmode=disable",
		BaseURL:               "https://jury.example.com",
		AppURL:                "https://app.example.com",
		ChainID:               84532,
		Network:               "base-sepolia",
		USDCAddress:           lower(addrA),
		AGRTokenAddress:       lower(addrB),
		MinStakeUSDC:          2_500_000,
		MinRepScoreToVote:     7,
		FinalVoteWindow:       time.Hour,
		ChallengeTTL:          2 * time.Minute,
		AccessTokenTTL:        2 * time.Hour,
		OperatorAddresses:     []openjury.Address{lower(addrA), lower(addrB)},
		DevSecret:             "s3cret",
		AGRMintPerWin:         75,
		JuryCommitWindow:      10 * time.Minute,
		JuryRevealWindow:      5 * time.Minute,
		AGRPerCoherentVote:    7,
		JuryNoShowPenalty:     3,
		AuthEIP1271Enabled:    true,
		RPCURL:                "https://rpc.example.com/v2/KEY",
		OnchainStakeEnabled:   true,
		StakeContractAddress:  lower(addrC),
		OnchainSyncEnabled:    true,
		SyncConfirmations:     5,
		AnchorRegistryAddress: lower(addrD),
		EscrowContractAddress: lower(addrB),
		TreasuryAddress:       lower(addrA),
		AgentPayoutPct:        0.7,
		PlatformFeePct:        0.1,
		JuryPoolPct:           0.2,
		SemanticSearchEnabled: false,
		Embedder:              "https://embed.example.com/v1",
		EmbedderModel:         "text-embedding-3-small",
		EmbedderAPIKey:        "sk-test",
		RateLimitPerMin:       60,
		AuthRateLimitPerMin:   120,
		FinalVoteOpen:         true,
		LogLevel:              "debug",
		ShutdownTimeout:       3 * time.Second,
		DBMaxConns:            12,
		ReadCacheTTL:          250 * time.Millisecond,
		SyncStartBlock:        123,
		SyncPollInterval:      2 * time.Second,

		TrustedProxies:            []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")},
		RateLimitPerAddressPerMin: 30,
		ReadHeaderTimeout:         5 * time.Second,
		ReadTimeout:               20 * time.Second,
		WriteTimeout:              30 * time.Second,
		IdleTimeout:               40 * time.Second,
		MaxHeaderBytes:            16384,
		CORSOrigins:               []string{"https://other.example.com"},
		DevMode:                   DevModeAuto,
		EventRetention:            48 * time.Hour,
		EventStreamsMax:           500,
		WebhookAllowPrivate:       true,
		WebhookConcurrency:        4,
		GCHeapFloorMB:             0,
	}, c)
	require.NoError(t, c.Validate())
	require.Equal(t, "https://app.example.com", c.PublicAppURL())
}

func TestFromEnvReportsEveryParseError(t *testing.T) {
	t.Parallel()
	c, err := FromEnv(env(map[string]string{
		"SERVICE_CHAIN_ID":                "base",
		"SERVICE_MIN_STAKE_USDC":          "1.0000001",
		"SERVICE_CHALLENGE_TTL_SECONDS":   "5m",
		"SERVICE_AUTH_EIP1271_ENABLED":    "yes",
		"SERVICE_SEMANTIC_SEARCH_ENABLED": "on",
		"SERVICE_SYNC_CONFIRMATIONS":      "1.5",
		"SERVICE_RATE_LIMIT_PER_MIN":      "many",
		"SERVICE_FINAL_VOTE_OPEN":         "yes",
	}))
	var ce *ConfigError
	require.ErrorAs(t, err, &ce)
	require.Equal(t, []string{
		`SERVICE_CHAIN_ID: must be an integer, got "base"`,
		`SERVICE_MIN_STAKE_USDC: at most 6 decimals allowed (got "1.0000001")`,
		`SERVICE_FINAL_VOTE_OPEN: must be 1, 0, true or false, got "yes"`,
		`SERVICE_CHALLENGE_TTL_SECONDS: must be an integer, got "5m"`,
		`SERVICE_AUTH_EIP1271_ENABLED: must be 1, 0, true or false, got "yes"`,
		`SERVICE_SYNC_CONFIRMATIONS: must be an integer, got "1.5"`,
		`SERVICE_SEMANTIC_SEARCH_ENABLED: must be 1, 0, true or false, got "on"`,
		`SERVICE_RATE_LIMIT_PER_MIN: must be an integer, got "many"`,
	}, ce.Problems)
	// Fields that failed keep their defaults.
	d := Defaults()
	require.Equal(t, d.ChainID, c.ChainID)
	require.Equal(t, d.ChallengeTTL, c.ChallengeTTL)
	require.Equal(t, d.SemanticSearchEnabled, c.SemanticSearchEnabled)
}

func TestValidateReportsEveryProblem(t *testing.T) {
	t.Parallel()
	c := Defaults()
	c.Addr = "localhost"
	c.DatabaseURL = ""
	c.BaseURL = "localhost:8080"
	c.AppURL = "ftp://app"
	c.ChainID = 0
	c.Network = " "
	c.USDCAddress = "0x1234"
	c.AGRTokenAddress = openjury.Address(strings.Replace(addrA, "a", "A", 1)) // bad checksum
	c.MinStakeUSDC = -1
	c.MinRepScoreToVote = -1
	c.FinalVoteWindow = 59 * time.Second
	c.ChallengeTTL = 0
	c.AccessTokenTTL = -time.Second
	c.OperatorAddresses = []openjury.Address{lower(addrA), "nope"}
	c.AGRMintPerWin = -5
	c.AuthEIP1271Enabled = true
	c.OnchainSyncEnabled = true
	c.SyncConfirmations = -1
	c.StakeContractAddress = "0xzz"
	c.AnchorRegistryAddress = "0x"
	c.Embedder = "remote"
	c.RateLimitPerMin = -1
	c.AuthRateLimitPerMin = -1
	c.LogLevel = "verbose"
	c.ShutdownTimeout = 0
	c.DBMaxConns = 0

	err := c.Validate()
	var ce *ConfigError
	require.ErrorAs(t, err, &ce)
	want := []string{
		`SERVICE_ADDR: must be host:port or :port, got "localhost"`,
		`SERVICE_DATABASE_URL: is required`,
		`SERVICE_BASE_URL: must be an absolute http(s) URL, got "localhost:8080"`,
		`SERVICE_APP_URL: must be an absolute http(s) URL, got "ftp://app"`,
		`SERVICE_CHAIN_ID: must be a positive integer, got 0`,
		`SERVICE_NETWORK: is required`,
		`SERVICE_USDC_ADDRESS: must be 0x followed by 40 hex digits, got "0x1234"`,
		`SERVICE_AGR_TOKEN_ADDRESS: mixed-case address fails the EIP-55 checksum`,
		`SERVICE_MIN_STAKE_USDC: must not be negative`,
		`SERVICE_MIN_REP_SCORE_TO_VOTE: must not be negative`,
		`SERVICE_FINAL_VOTE_WINDOW_SECONDS: must be whole seconds in 60..2592000, got 59`,
		`SERVICE_CHALLENGE_TTL_SECONDS: must be positive`,
		`SERVICE_ACCESS_TOKEN_TTL_SECONDS: must be positive`,
		`SERVICE_OPERATOR_ADDRESSES[1]: must be 0x followed by 40 hex digits, got "nope"`,
		`SERVICE_AGR_MINT_PER_WIN: must not be negative`,
		`SERVICE_AUTH_EIP1271_ENABLED: requires SERVICE_RPC_URL`,
		`SERVICE_STAKE_CONTRACT_ADDRESS: must be 0x followed by 40 hex digits`,
		`SERVICE_ONCHAIN_SYNC_ENABLED: requires SERVICE_RPC_URL`,
		`SERVICE_ONCHAIN_SYNC_ENABLED: requires SERVICE_ONCHAIN_STAKE_ENABLED=1`,
		`SERVICE_SYNC_CONFIRMATIONS: must not be negative`,
		`SERVICE_ANCHOR_REGISTRY_ADDRESS: must be 0x followed by 40 hex digits`,
		`SERVICE_EMBEDDER: must be "local" or an absolute http(s) URL`,
		`SERVICE_RATE_LIMIT_PER_MIN: must not be negative (0 turns the limit off)`,
		`SERVICE_AUTH_RATE_LIMIT_PER_MIN: must not be negative (0 turns the limit off)`,
		`SERVICE_LOG_LEVEL: must be debug, info, warn or error, got "verbose"`,
		`SERVICE_SHUTDOWN_TIMEOUT_SECONDS: must be positive`,
		`SERVICE_DB_MAX_CONNS: must be at least 1`,
	}
	require.Len(t, ce.Problems, len(want), "problems:\n%s", strings.Join(ce.Problems, "\n"))
	for i, w := range want {
		require.True(t, strings.HasPrefix(ce.Problems[i], w), "problem %d: got %q, want prefix %q", i, ce.Problems[i], w)
	}
}

func TestValidateRules(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		edit func(*Config)
		want string // "" = valid
	}{
		{"port 0", func(c *Config) { c.Addr = ":0" }, ""},
		{"bad port", func(c *Config) { c.Addr = ":99999" }, `SERVICE_ADDR: port must be a number 0..65535, got "99999"`},
		{"window min", func(c *Config) { c.FinalVoteWindow = 60 * time.Second }, ""},
		{"window max", func(c *Config) { c.FinalVoteWindow = 2592000 * time.Second }, ""},
		{"window over", func(c *Config) { c.FinalVoteWindow = 2592001 * time.Second }, "SERVICE_FINAL_VOTE_WINDOW_SECONDS: must be whole seconds in 60..2592000, got 2.592001e+06"},
		{"eip1271 with rpc", func(c *Config) { c.AuthEIP1271Enabled, c.RPCURL = true, "wss://rpc.example/KEY" }, ""},
		{"rpc not a url", func(c *Config) { c.RPCURL = "rpc.example/KEY" }, "SERVICE_RPC_URL: must be an absolute http(s) or ws(s) URL"},
		{"sync complete", func(c *Config) {
			c.OnchainSyncEnabled, c.OnchainStakeEnabled, c.RPCURL, c.StakeContractAddress = true, true, "https://rpc", lower(addrC)
		}, ""},
		{"sync without stake", func(c *Config) {
			c.OnchainSyncEnabled, c.RPCURL, c.StakeContractAddress = true, "https://rpc", lower(addrC)
		}, "SERVICE_ONCHAIN_SYNC_ENABLED: requires SERVICE_ONCHAIN_STAKE_ENABLED=1"},
		{"embedder url with model", func(c *Config) { c.Embedder, c.EmbedderModel = "http://localhost:11434/v1", "nomic" }, ""},
		{"embedder url without model", func(c *Config) { c.Embedder = "https://api.openai.com/v1" }, "SERVICE_EMBEDDER_MODEL: is required when SERVICE_EMBEDDER is a URL"},
		{"rate limit off", func(c *Config) { c.RateLimitPerMin = 0 }, ""},
		{"uppercase address", func(c *Config) { c.USDCAddress = "0x" + openjury.Address(strings.ToUpper(string(lower(addrA))[2:])) }, `SERVICE_USDC_ADDRESS: mixed-case address fails the EIP-55 checksum, got "0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED"`},
		{"0X address", func(c *Config) { c.USDCAddress = "0X" + lower(addrA)[2:] }, `SERVICE_USDC_ADDRESS: must be 0x followed by 40 hex digits, got "0X5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"`},
		{"sqlite dsn", func(c *Config) { c.DatabaseURL = "sqlite::memory:" }, ""},
		{"event retention an hour", func(c *Config) { c.EventRetention = time.Hour }, ""},
		{"event retention under an hour", func(c *Config) { c.EventRetention = 59 * time.Minute }, "SERVICE_EVENT_RETENTION_HOURS: must be at least 1"},
		{"no event streams", func(c *Config) { c.EventStreamsMax = 0 }, "SERVICE_EVENT_STREAMS_MAX: must be at least 1"},
		{"webhook concurrency 0", func(c *Config) { c.WebhookConcurrency = 0 }, "SERVICE_WEBHOOK_CONCURRENCY: must be in 1..1024"},
		{"webhook concurrency over", func(c *Config) { c.WebhookConcurrency = 1025 }, "SERVICE_WEBHOOK_CONCURRENCY: must be in 1..1024"},
		{"gc heap floor negative", func(c *Config) { c.GCHeapFloorMB = -1 }, "SERVICE_GC_HEAP_FLOOR_MB: must be in 0..65536"},
		{"gc heap floor over", func(c *Config) { c.GCHeapFloorMB = 65537 }, "SERVICE_GC_HEAP_FLOOR_MB: must be in 0..65536"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := Defaults()
			tc.edit(&c)
			err := c.Validate()
			if tc.want == "" {
				require.NoError(t, err)
				return
			}
			var ce *ConfigError
			require.ErrorAs(t, err, &ce)
			require.Equal(t, []string{tc.want}, ce.Problems)
		})
	}
}

func TestSecretsNeverPrinted(t *testing.T) {
	t.Parallel()
	c, err := FromEnv(env(map[string]string{
		"SERVICE_DATABASE_URL":     "postgres://jury:dbpass1@db/jury?password=dbpass2&sslmode=disable",
		"SERVICE_DEV_SECRET":       "devsecret",
		"SERVICE_RPC_URL":          "https://rpc.example.com/v2/rpckey",
		"SERVICE_EMBEDDER":         "https://user:embedpass@embed.example.com/v1",
		"SERVICE_EMBEDDER_MODEL":   "m",
		"SERVICE_EMBEDDER_API_KEY": "sk-apikey",
	}))
	require.NoError(t, err)
	require.NoError(t, c.Validate())

	var jsonLog, textLog bytes.Buffer
	slog.New(slog.NewJSONHandler(&jsonLog, nil)).Info("cfg", "config", c)
	slog.New(slog.NewTextHandler(&textLog, nil)).Info("cfg", slog.Any("config", c))
	outputs := map[string]string{
		"String": c.String(),
		"%v":     fmt.Sprintf("%v", c),
		"%+v":    fmt.Sprintf("%+v", c),
		"%#v":    fmt.Sprintf("%#v", c),
		"%s":     fmt.Sprintf("%s", c),
		"json":   jsonLog.String(),
		"text":   textLog.String(),
	}
	for name, out := range outputs {
		for _, secret := range []string{"dbpass1", "dbpass2", "devsecret", "rpckey", "rpc.example.com", "embedpass", "sk-apikey"} {
			require.NotContains(t, out, secret, "%s output leaks %q: %s", name, secret, out)
		}
	}
	require.Contains(t, c.String(), `dev_secret_set="true"`)
	require.Contains(t, c.String(), `rpc_url_set="true"`)
	require.Contains(t, c.String(), `embedder_api_key_set="true"`)
	require.Contains(t, jsonLog.String(), `"chain_id":8453`)
	// The new rules show in the start log.
	require.Contains(t, jsonLog.String(), `"final_vote_open":false`)
	require.Contains(t, jsonLog.String(), `"auth_rate_limit_per_min":600`)

	// Validate does not echo secrets either.
	c.RPCURL = "not a url with rpckey"
	c.Embedder = "bad embedpass"
	err = c.Validate()
	require.Error(t, err)
	require.NotContains(t, err.Error(), "rpckey")
	require.NotContains(t, err.Error(), "embedpass")
}

func TestReadCacheSetting(t *testing.T) {
	t.Parallel()
	c, err := FromEnv(env(map[string]string{"SERVICE_READ_CACHE_MS": "0"}))
	require.NoError(t, err)
	require.Zero(t, c.ReadCacheTTL, "0 turns the cache off")
	require.NoError(t, c.Validate())
	require.Equal(t, time.Second, Defaults().ReadCacheTTL)
	for _, v := range []string{"1001", "-1"} {
		c, err := FromEnv(env(map[string]string{"SERVICE_READ_CACHE_MS": v}))
		require.NoError(t, err)
		require.ErrorContains(t, c.Validate(), "SERVICE_READ_CACHE_MS: must be whole milliseconds in 0..1000", v)
	}
	_, err = FromEnv(env(map[string]string{"SERVICE_READ_CACHE_MS": "soon"}))
	require.ErrorContains(t, err, `SERVICE_READ_CACHE_MS: must be an integer, got "soon"`)
}

func TestValidateSyncSettings(t *testing.T) {
	t.Parallel()
	c := Defaults()
	c.SyncStartBlock = -1
	c.SyncPollInterval = 0
	var ce *ConfigError
	require.ErrorAs(t, c.Validate(), &ce)
	require.Equal(t, []string{
		"SERVICE_SYNC_START_BLOCK: must not be negative",
		"SERVICE_SYNC_POLL_SECONDS: must be positive",
	}, ce.Problems)
}

// The escrow's settings: it needs the node, the sync and a treasury; the
// split must be fractions that sum to exactly 1 as decimals; each is
// converted once to the nearest part per million.
func TestEscrowSettings(t *testing.T) {
	t.Parallel()
	problems := func(vars map[string]string) []string {
		t.Helper()
		_, err := Load(env(vars))
		var ce *ConfigError
		if err == nil {
			return nil
		}
		require.ErrorAs(t, err, &ce)
		return ce.Problems
	}
	require.Equal(t, []string{
		"SERVICE_ESCROW_CONTRACT_ADDRESS: requires SERVICE_RPC_URL",
		"SERVICE_ESCROW_CONTRACT_ADDRESS: requires SERVICE_ONCHAIN_SYNC_ENABLED=1 (the sync reads its events)",
		"SERVICE_ESCROW_CONTRACT_ADDRESS: requires SERVICE_TREASURY_ADDRESS (the platform fee's recipient)",
	}, problems(map[string]string{"SERVICE_ESCROW_CONTRACT_ADDRESS": addrA, "SERVICE_ADDR": ":8080"}))
	ok := map[string]string{
		"SERVICE_ADDR": ":8080", "SERVICE_ESCROW_CONTRACT_ADDRESS": addrA, "SERVICE_TREASURY_ADDRESS": addrB,
		"SERVICE_RPC_URL": "https://rpc.example.com", "SERVICE_ONCHAIN_SYNC_ENABLED": "1",
		"SERVICE_ONCHAIN_STAKE_ENABLED": "1", "SERVICE_STAKE_CONTRACT_ADDRESS": addrC,
	}
	require.Empty(t, problems(ok))
	require.Equal(t, []string{`SERVICE_TREASURY_ADDRESS: must be 0x followed by 40 hex digits, got "0x12"`},
		problems(map[string]string{"SERVICE_ADDR": ":8080", "SERVICE_TREASURY_ADDRESS": "0x12"}))
	require.Equal(t, []string{"SERVICE_AGENT_PAYOUT_USDC_PCT, SERVICE_PLATFORM_FEE_USDC_PCT and SERVICE_JURY_POOL_USDC_PCT: must sum to 1, got 1.01"},
		problems(map[string]string{"SERVICE_ADDR": ":8080", "SERVICE_AGENT_PAYOUT_USDC_PCT": "0.86"}))
	require.Equal(t, []string{`SERVICE_JURY_POOL_USDC_PCT: must be a number between 0 and 1, got "ten"`},
		problems(map[string]string{"SERVICE_ADDR": ":8080", "SERVICE_JURY_POOL_USDC_PCT": "ten"}))
	require.Equal(t, []string{"SERVICE_PLATFORM_FEE_USDC_PCT: must be a number between 0 and 1, got -0.05"},
		problems(map[string]string{"SERVICE_ADDR": ":8080", "SERVICE_PLATFORM_FEE_USDC_PCT": "-0.05", "SERVICE_AGENT_PAYOUT_USDC_PCT": "0.95"}))
	// Thirds: 0.3333333 + 0.3333333 + 0.3333334 is 1; each to the nearest
	// part per million.
	c, err := Load(env(map[string]string{"SERVICE_ADDR": ":8080", "SERVICE_AGENT_PAYOUT_USDC_PCT": "0.3333334",
		"SERVICE_PLATFORM_FEE_USDC_PCT": "0.3333333", "SERVICE_JURY_POOL_USDC_PCT": "0.3333333"}))
	require.NoError(t, err)
	e := c.Economy()
	require.Equal(t, [3]int64{333333, 333333, 333333}, [3]int64{e.AgentPayoutPPM, e.PlatformFeePPM, e.JuryPoolPPM})
	d := Defaults().Economy()
	require.Equal(t, [3]int64{850_000, 50_000, 100_000}, [3]int64{d.AgentPayoutPPM, d.PlatformFeePPM, d.JuryPoolPPM})
}
