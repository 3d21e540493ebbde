package transport_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/transport"
)

func TestRateLimitPerClient(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withOptions(func(o *transport.Options) { o.RateLimitPerMin = 3 }))
	from := func(ip string) response {
		req := newRequest(t, http.MethodGet, "/api/v1/jobs", "")
		req.RemoteAddr = ip + ":4242"
		return e.serve(req)
	}
	for i := range 3 {
		require.Equal(t, http.StatusOK, from("203.0.113.7").Code, "request %d", i)
	}
	r := from("203.0.113.7")
	requireError(t, r, http.StatusTooManyRequests, "too many requests: slow down")
	require.Equal(t, "20", r.Header.Get("Retry-After"), "3 a minute: one token every 20 s")
	require.NotEmpty(t, r.Header.Get("X-Request-Id"))

	require.Equal(t, http.StatusOK, from("198.51.100.9").Code, "another client has its own bucket")
	for range 5 {
		req := newRequest(t, http.MethodGet, "/healthz", "")
		req.RemoteAddr = "203.0.113.7:4242"
		require.Equal(t, http.StatusOK, e.serve(req).Code, "probes are never limited")
	}

	e.clock.Advance(20 * time.Second)
	require.Equal(t, http.StatusOK, from("203.0.113.7").Code, "a token came back")
	require.Equal(t, http.StatusTooManyRequests, from("203.0.113.7").Code)
}

func TestRateLimitOffByDefault(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for range 50 {
		require.Equal(t, http.StatusOK, e.get("/api/v1/jobs").Code)
	}
}

// TestEveryLimitedRouteDeclares429: with the general limit on, any route
// but the probes can answer 429, so the document must say so; and any route
// answers 400 to a NUL in its URL.
func TestEveryLimitedRouteDeclares429(t *testing.T) {
	t.Parallel()
	doc, err := openapi3.NewLoader().LoadFromData(transport.OpenAPIDocument("http://x"))
	require.NoError(t, err)
	exempt := map[string]bool{"/healthz": true, "/readyz": true, "/metrics": true}
	n := 0
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			require.NotNil(t, op.Responses.Value("400"), "%s %s does not declare 400", method, path)
			if exempt[path] {
				continue
			}
			n++
			require.NotNil(t, op.Responses.Value("429"), "%s %s does not declare 429", method, path)
		}
	}
	require.Greater(t, n, 40)
}
