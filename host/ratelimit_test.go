package main

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRunAppliesRateLimit(t *testing.T) {
	t.Parallel()
	base, _, _ := startHost(t, map[string]string{"SERVICE_RATE_LIMIT_PER_MIN": "2"})
	status := func(path string) (int, string) {
		resp, err := http.Get(base + path)
		require.NoError(t, err)
		defer resp.Body.Close()
		return resp.StatusCode, resp.Header.Get("Retry-After")
	}
	for range 2 {
		code, _ := status("/api/v1/jobs")
		require.Equal(t, http.StatusOK, code)
	}
	code, retry := status("/api/v1/jobs")
	require.Equal(t, http.StatusTooManyRequests, code)
	require.Equal(t, "30", retry)
	code, _ = status("/healthz")
	require.Equal(t, http.StatusOK, code)
}

// TestRunTrustsOnlyConfiguredProxies: with SERVICE_TRUSTED_PROXIES naming
// the loopback "proxy", each X-Forwarded-For client has its own bucket
// and the answers carry the RateLimit headers; signed-in routes also count
// per address.
func TestRunTrustsOnlyConfiguredProxies(t *testing.T) {
	t.Parallel()
	base, _, _ := startHost(t, map[string]string{
		"SERVICE_RATE_LIMIT_PER_MIN": "2",
		"SERVICE_TRUSTED_PROXIES":    "127.0.0.1/32",
	})
	get := func(xff string) *http.Response {
		req, err := http.NewRequest(http.MethodGet, base+"/api/v1/jobs", nil)
		require.NoError(t, err)
		req.Header.Set("X-Forwarded-For", xff)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp
	}
	resp := get("198.51.100.1")
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, `"per-ip";q=2;w=60`, resp.Header.Get("RateLimit-Policy"))
	require.Equal(t, http.StatusOK, get("198.51.100.1").StatusCode)
	require.Equal(t, http.StatusTooManyRequests, get("203.0.113.50, 198.51.100.1").StatusCode)
	require.Equal(t, http.StatusOK, get("198.51.100.2").StatusCode, "another client behind the proxy")
}

// TestRunIgnoresForwardedForByDefault: without trusted proxies the header
// changes nothing.
func TestRunIgnoresForwardedForByDefault(t *testing.T) {
	t.Parallel()
	base, _, _ := startHost(t, map[string]string{"SERVICE_RATE_LIMIT_PER_MIN": "1"})
	codes := make([]int, 3)
	for i := range codes {
		req, err := http.NewRequest(http.MethodGet, base+"/api/v1/jobs", nil)
		require.NoError(t, err)
		req.Header.Set("X-Forwarded-For", "198.51.100."+string(rune('1'+i)))
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		codes[i] = resp.StatusCode
	}
	require.Equal(t, []int{200, 429, 429}, codes)
}
