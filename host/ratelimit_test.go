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
