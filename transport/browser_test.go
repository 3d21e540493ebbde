package transport_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/transport"
)

// raw serves req without the OpenAPI check (preflights are not API
// operations).
func (e *env) raw(req *http.Request) *http.Response {
	e.t.Helper()
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	return rec.Result()
}

// TestSecurityHeaders: every answer, success or error, carries the
// security headers; routes with cacheable documents keep their own
// Cache-Control; there is no Server banner.
func TestSecurityHeaders(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withRoute("GET /test/panic", func(http.ResponseWriter, *http.Request) error { panic("boom") }))
	check := func(r response, cacheControl string) {
		t.Helper()
		require.Equal(t, "nosniff", r.Header.Get("X-Content-Type-Options"))
		require.Equal(t, "no-referrer", r.Header.Get("Referrer-Policy"))
		require.Equal(t, "DENY", r.Header.Get("X-Frame-Options"))
		require.Equal(t, "default-src 'none'; frame-ancestors 'none'", r.Header.Get("Content-Security-Policy"))
		require.Equal(t, "max-age=31536000", r.Header.Get("Strict-Transport-Security"), "the base URL is https")
		require.Equal(t, cacheControl, r.Header.Get("Cache-Control"))
		require.Empty(t, r.Header.Get("Server"))
	}
	check(e.get("/api/v1/jobs"), "no-store")
	check(e.do("GET", "/api/v1/jobs/nope", nil), "no-store")
	check(e.do("POST", "/api/v1/jobs", validJob()), "no-store")
	check(e.do("GET", "/no/such/route", nil), "no-store")
	check(e.do("GET", "/test/panic", nil), "no-store")
	check(e.get("/healthz"), "no-store")
	check(e.get("/.well-known/agent.json"), "public, max-age=300")
	check(e.get("/llms.txt"), "public, max-age=300")

	plain := newEnv(t, withOptions(func(o *transport.Options) { o.BaseURL = "http://localhost:8080" }))
	require.Empty(t, plain.get("/api/v1/jobs").Header.Get("Strict-Transport-Security"), "no HSTS over plain http")
}

func preflight(origin, method, headers string) *http.Request {
	req := httptest.NewRequest(http.MethodOptions, "/api/v1/jobs", nil)
	req.Header.Set("Origin", origin)
	req.Header.Set("Access-Control-Request-Method", method)
	if headers != "" {
		req.Header.Set("Access-Control-Request-Headers", headers)
	}
	return req
}

// TestCORS: SERVICE_CORS_ORIGINS and the companion app's origin may call
// the API from a browser (preflight answered, CORS headers on answers,
// errors and 429s included); any other origin gets no CORS header.
func TestCORS(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withOptions(func(o *transport.Options) {
		o.CORSOrigins = []string{"https://allowed.example.com"}
		o.AppURL = "https://app.example.com/web"
		o.ReadCacheTTL = transport.MaxReadCacheTTL
		o.RateLimitPerMin = 6
	}))
	for _, origin := range []string{"https://allowed.example.com", "https://app.example.com"} {
		res := e.raw(preflight(origin, "POST", "authorization, content-type, idempotency-key"))
		require.Equal(t, http.StatusNoContent, res.StatusCode, origin)
		require.Equal(t, origin, res.Header.Get("Access-Control-Allow-Origin"))
		require.Contains(t, res.Header.Get("Access-Control-Allow-Methods"), "POST")
		allowed := strings.ToLower(res.Header.Get("Access-Control-Allow-Headers"))
		for _, h := range []string{"authorization", "content-type", "idempotency-key"} {
			require.Contains(t, allowed, h)
		}
		require.Equal(t, "600", res.Header.Get("Access-Control-Max-Age"))
		require.Empty(t, res.Header.Get("Access-Control-Allow-Credentials"), "bearer tokens, no cookies")
	}
	require.Equal(t, "https://allowed.example.com",
		e.raw(preflight("https://allowed.example.com", "DELETE", "")).Header.Get("Access-Control-Allow-Origin"))
	// A browser MCP client of POST /mcp, and a stream resuming by id.
	for _, h := range []string{"authorization, content-type, mcp-protocol-version", "last-event-id"} {
		res := e.raw(preflight("https://allowed.example.com", "POST", h))
		require.Equal(t, "https://allowed.example.com", res.Header.Get("Access-Control-Allow-Origin"), h)
	}

	for _, bad := range []*http.Request{
		preflight("https://evil.example.com", "POST", "authorization"),
		preflight("https://allowed.example.com.evil.example", "POST", ""),
		preflight("http://allowed.example.com", "POST", ""),
		preflight("https://allowed.example.com", "PUT", ""),
		preflight("https://allowed.example.com", "POST", "x-dev-secret"),
	} {
		res := e.raw(bad)
		require.Empty(t, res.Header.Get("Access-Control-Allow-Origin"), "%s %s %s", bad.Header.Get("Origin"),
			bad.Header.Get("Access-Control-Request-Method"), bad.Header.Get("Access-Control-Request-Headers"))
		require.Empty(t, res.Header.Get("Access-Control-Allow-Methods"))
	}

	get := func(origin string) response {
		req := httptest.NewRequest(http.MethodGet, "/api/v1/jobs", nil)
		req.Header.Set("Origin", origin)
		return e.serve(req)
	}
	// The allowed origin first, so the read cache holds the answer the
	// refused origin gets next: it must not carry the allowed origin.
	r := get("https://allowed.example.com")
	require.Equal(t, http.StatusOK, r.Code)
	require.Equal(t, "https://allowed.example.com", r.Header.Get("Access-Control-Allow-Origin"))
	exposed := strings.ToLower(r.Header.Get("Access-Control-Expose-Headers"))
	for _, h := range []string{"x-request-id", "x-next-cursor", "retry-after", "ratelimit", "ratelimit-policy", "idempotent-replayed"} {
		require.Contains(t, exposed, h)
	}
	r = get("https://evil.example.com")
	require.Equal(t, http.StatusOK, r.Code, "not a browser-enforced check on the server side")
	require.Empty(t, r.Header.Get("Access-Control-Allow-Origin"))
	require.Empty(t, r.Header.Get("Access-Control-Expose-Headers"))
	r = get("https://app.example.com")
	require.Equal(t, "https://app.example.com", r.Header.Get("Access-Control-Allow-Origin"))

	// Errors, 429 included, carry the headers too, so the app can read them.
	req := httptest.NewRequest(http.MethodPost, "/api/v1/jobs", strings.NewReader("{}"))
	req.Header.Set("Origin", "https://app.example.com")
	r = e.serve(req)
	require.Equal(t, http.StatusUnauthorized, r.Code)
	require.Equal(t, "https://app.example.com", r.Header.Get("Access-Control-Allow-Origin"))
	for i := 0; i < 10 && r.Code != http.StatusTooManyRequests; i++ {
		r = get("https://app.example.com")
	}
	require.Equal(t, http.StatusTooManyRequests, r.Code)
	require.Equal(t, "https://app.example.com", r.Header.Get("Access-Control-Allow-Origin"))
	require.Contains(t, strings.ToLower(r.Header.Get("Access-Control-Expose-Headers")), "retry-after")
}

// TestCORSOffByDefault: with no origins and the app on the API's origin,
// no CORS header is ever sent and a preflight is not answered as one.
func TestCORSOffByDefault(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withOptions(func(o *transport.Options) { o.AppURL = "https://jury.example.com/app" }))
	res := e.raw(preflight("https://jury.example.com", "POST", "authorization"))
	require.Empty(t, res.Header.Get("Access-Control-Allow-Origin"))
	require.Equal(t, http.StatusMethodNotAllowed, res.StatusCode)
	req := httptest.NewRequest(http.MethodGet, "/api/v1/jobs", nil)
	req.Header.Set("Origin", "https://other.example.com")
	require.Empty(t, e.serve(req).Header.Get("Access-Control-Allow-Origin"))
}

func TestAllowedOrigins(t *testing.T) {
	t.Parallel()
	require.Equal(t, []string{"https://a.example.com", "http://localhost:5173", "https://app.example.com"},
		transport.AllowedOrigins([]string{"https://A.example.com/", "http://localhost:5173", "https://a.example.com", "not an origin"},
			"https://jury.example.com", "https://app.example.com/path"))
	require.Empty(t, transport.AllowedOrigins(nil, "https://jury.example.com", "https://jury.example.com/app"))
	require.Empty(t, transport.AllowedOrigins(nil, "https://jury.example.com", ""))
	for _, bad := range []string{"*", "https://a.example.com/x", "ftp://a.example.com", "https://user@a.example.com", "https://a.example.com?x=1", "a.example.com"} {
		_, ok := transport.ParseOrigin(bad)
		require.False(t, ok, bad)
	}
}
