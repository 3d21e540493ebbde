package server

import (
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestEdgeSettingsDefaults: the server settings have safe defaults.
func TestEdgeSettingsDefaults(t *testing.T) {
	t.Parallel()
	c := Defaults()
	require.Empty(t, c.TrustedProxies)
	require.Equal(t, 300, c.RateLimitPerAddressPerMin)
	require.Equal(t, 10*time.Second, c.ReadHeaderTimeout)
	require.Equal(t, time.Minute, c.ReadTimeout)
	require.Equal(t, time.Minute, c.WriteTimeout)
	require.Equal(t, 2*time.Minute, c.IdleTimeout)
	require.Equal(t, 64<<10, c.MaxHeaderBytes)
	require.Empty(t, c.CORSOrigins)
	require.Empty(t, c.AllowedOrigins(), "the app shares the base URL's origin by default")
}

func TestEdgeSettingsFromEnv(t *testing.T) {
	t.Parallel()
	c, err := FromEnv(env(map[string]string{
		"SERVICE_TRUSTED_PROXIES":                " 10.0.0.0/8, 192.0.2.7 ",
		"SERVICE_RATE_LIMIT_PER_ADDRESS_PER_MIN": "50",
		"SERVICE_READ_HEADER_TIMEOUT_SECONDS":    "2",
		"SERVICE_READ_TIMEOUT_SECONDS":           "3",
		"SERVICE_WRITE_TIMEOUT_SECONDS":          "4",
		"SERVICE_IDLE_TIMEOUT_SECONDS":           "5",
		"SERVICE_MAX_HEADER_BYTES":               "8192",
		"SERVICE_CORS_ORIGINS":                   "https://App.Example.com/, http://localhost:5173",
		"SERVICE_BASE_URL":                       "https://jury.example.com",
		"SERVICE_APP_URL":                        "https://web.example.com/app",
	}))
	require.NoError(t, err)
	require.NoError(t, c.Validate())
	require.Equal(t, []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("192.0.2.7/32")}, c.TrustedProxies)
	require.Equal(t, 50, c.RateLimitPerAddressPerMin)
	require.Equal(t, 2*time.Second, c.ReadHeaderTimeout)
	require.Equal(t, 3*time.Second, c.ReadTimeout)
	require.Equal(t, 4*time.Second, c.WriteTimeout)
	require.Equal(t, 5*time.Second, c.IdleTimeout)
	require.Equal(t, 8192, c.MaxHeaderBytes)
	require.Equal(t, []string{"https://app.example.com", "http://localhost:5173", "https://web.example.com"}, c.AllowedOrigins(),
		"the companion app's origin joins the list when it differs from the base URL's")
	require.Contains(t, c.String(), `trusted_proxies="10.0.0.0/8,192.0.2.7/32"`)

	c.AppURL = "https://jury.example.com/app"
	require.Equal(t, []string{"https://app.example.com", "http://localhost:5173"}, c.AllowedOrigins(), "same origin as the API: nothing to add")
}

func TestEdgeSettingsInvalid(t *testing.T) {
	t.Parallel()
	_, err := Load(env(map[string]string{
		"SERVICE_TRUSTED_PROXIES":                "10.0.0.0/8, 10.0.0.0/33, proxy.local",
		"SERVICE_RATE_LIMIT_PER_ADDRESS_PER_MIN": "-1",
		"SERVICE_READ_HEADER_TIMEOUT_SECONDS":    "0",
		"SERVICE_WRITE_TIMEOUT_SECONDS":          "x",
		"SERVICE_IDLE_TIMEOUT_SECONDS":           "-5",
		"SERVICE_MAX_HEADER_BYTES":               "100",
		"SERVICE_CORS_ORIGINS":                   "https://ok.example.com, https://app.example.com/path, ftp://x.example.com, *",
	}))
	var ce *ConfigError
	require.ErrorAs(t, err, &ce)
	require.ElementsMatch(t, []string{
		"SERVICE_TRUSTED_PROXIES: not a CIDR or IP address: 10.0.0.0/33, proxy.local",
		`SERVICE_WRITE_TIMEOUT_SECONDS: must be an integer, got "x"`,
		"SERVICE_RATE_LIMIT_PER_ADDRESS_PER_MIN: must not be negative (0 turns the limit off)",
		"SERVICE_READ_HEADER_TIMEOUT_SECONDS: must be positive (a server without it can be held open by slow clients)",
		"SERVICE_IDLE_TIMEOUT_SECONDS: must be positive (a server without it can be held open by slow clients)",
		"SERVICE_MAX_HEADER_BYTES: must be in 4096..1048576, got 100",
		`SERVICE_CORS_ORIGINS: "https://app.example.com/path" is not an origin (scheme://host[:port], http or https, no path)`,
		`SERVICE_CORS_ORIGINS: "ftp://x.example.com" is not an origin (scheme://host[:port], http or https, no path)`,
		`SERVICE_CORS_ORIGINS: "*" is not an origin (scheme://host[:port], http or https, no path)`,
	}, ce.Problems)

	c := Defaults()
	c.ReadHeaderTimeout = 2 * time.Minute
	require.EqualError(t, c.Validate(), "invalid configuration: SERVICE_READ_HEADER_TIMEOUT_SECONDS: must not exceed SERVICE_READ_TIMEOUT_SECONDS")
}
