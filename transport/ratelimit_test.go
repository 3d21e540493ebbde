package transport_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strconv"
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

// TestEveryLimitedRouteDeclares429: with the general limit on, a route
// answers 429 exactly when its path counts against the limits, so the
// document declares 429 on those and only those (probes and discovery
// documents are exempt and must not promise a 429 they never send); and
// any route answers 400 to a NUL in its URL.
func TestEveryLimitedRouteDeclares429(t *testing.T) {
	t.Parallel()
	doc, err := openapi3.NewLoader().LoadFromData(transport.OpenAPIDocument("http://x"))
	require.NoError(t, err)
	placeholder := regexp.MustCompile(`\{[^}]+\}`)
	e := newEnv(t)
	rateLimited := transport.RateLimited(e.svc, e.opts)
	exempt, n := map[string]bool{}, 0
	for path, item := range doc.Paths.Map() {
		limited := rateLimited(placeholder.ReplaceAllString(path, "x"))
		if !limited {
			exempt[path] = true
		}
		for method, op := range item.Operations() {
			require.NotNil(t, op.Responses.Value("400"), "%s %s does not declare 400", method, path)
			has429 := op.Responses.Value("429") != nil
			require.Equal(t, limited, has429, "%s %s: declares 429 = %v, rate limited = %v", method, path, has429, limited)
			if limited {
				n++
			}
		}
	}
	require.Greater(t, n, 40)
	require.Len(t, exempt, 14, "exempt paths: %v", slices.Sorted(maps.Keys(exempt)))
	require.True(t, exempt["/.well-known/agent-card.json"] && exempt["/healthz"] && exempt["/docs-md/agent-playbook.md"])
}

// TestRateLimitBehindTrustedProxy: behind a trusted proxy each client
// (the right-most untrusted X-Forwarded-For entry) has its own bucket, and
// the access log names it; a client that is not a trusted proxy cannot
// escape its bucket with a forged X-Forwarded-For.
func TestRateLimitBehindTrustedProxy(t *testing.T) {
	t.Parallel()
	trusted, invalid := transport.ParseTrustedProxies("10.0.0.0/8")
	require.Empty(t, invalid)
	e := newEnv(t, withOptions(func(o *transport.Options) {
		o.RateLimitPerMin = 2
		o.TrustedProxies = trusted
	}))
	get := func(peer, xff string) response {
		req := newRequest(t, http.MethodGet, "/api/v1/jobs", "")
		req.RemoteAddr = peer + ":4242"
		if xff != "" {
			req.Header.Set("X-Forwarded-For", xff)
		}
		return e.serve(req)
	}
	for range 2 {
		require.Equal(t, http.StatusOK, get("10.0.0.1", "6.6.6.6, 198.51.100.1").Code)
	}
	require.Equal(t, http.StatusTooManyRequests, get("10.0.0.1", "7.7.7.7, 198.51.100.1").Code,
		"a forged left part does not make a new client")
	require.Equal(t, http.StatusOK, get("10.0.0.1", "198.51.100.2").Code, "another client behind the proxy")
	require.Contains(t, e.logs.String(), `"client_ip":"198.51.100.2"`)

	for range 2 {
		require.Equal(t, http.StatusOK, get("203.0.113.9", "").Code)
	}
	for i := range 3 {
		r := get("203.0.113.9", "198.51.100."+strconv.Itoa(100+i))
		require.Equal(t, http.StatusTooManyRequests, r.Code, "an untrusted peer's X-Forwarded-For is ignored")
	}
}

// TestRateLimitHeaders: limited answers carry RateLimit-Policy and
// RateLimit (draft-ietf-httpapi-ratelimit-headers), 429 besides
// Retry-After; probes and discovery documents are exempt and carry none.
func TestRateLimitHeaders(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withOptions(func(o *transport.Options) { o.RateLimitPerMin = 3; o.ReadCacheTTL = time.Second }))
	r := e.get("/api/v1/jobs")
	require.Equal(t, `"per-ip";q=3;w=60`, r.Header.Get("RateLimit-Policy"))
	require.Equal(t, `"per-ip";r=2;t=20`, r.Header.Get("RateLimit"))
	r = e.get("/api/v1/jobs") // answered by the read cache: its own counts
	require.Equal(t, `"per-ip";r=1;t=40`, r.Header.Get("RateLimit"))
	r = e.get("/api/v1/jobs")
	require.Equal(t, `"per-ip";r=0;t=60`, r.Header.Get("RateLimit"))
	r = e.do("GET", "/api/v1/jobs", nil)
	require.Equal(t, http.StatusTooManyRequests, r.Code)
	require.Equal(t, "20", r.Header.Get("Retry-After"))
	require.Equal(t, `"per-ip";q=3;w=60`, r.Header.Get("RateLimit-Policy"))
	require.Equal(t, `"per-ip";r=0;t=20`, r.Header.Get("RateLimit"))

	for _, path := range []string{"/healthz", "/readyz", "/metrics", "/.well-known/agent.json",
		"/.well-known/agent-card.json", "/.well-known/service.json", "/agents.json", "/llms.txt",
		"/openapi.json", "/openapi.yaml", "/docs-md/agent-playbook.md", "/docs-md/agent-heartbeat.md"} {
		for range 4 {
			r := e.do("GET", path, nil)
			require.Equal(t, http.StatusOK, r.Code, "%s is exempt", path)
			require.Empty(t, r.Header.Get("RateLimit"), path)
		}
	}
}

// TestRateLimitPerAddress: a signed-in address has its own limit on the
// routes that need sign-in, whatever IP it comes from.
func TestRateLimitPerAddress(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withOptions(func(o *transport.Options) { o.RateLimitPerMin = 100; o.RateLimitPerAddressPerMin = 2 }))
	tok := e.signIn(newWallet(t)) // sign-in needs no token: not counted per address
	other := e.signIn(newWallet(t))
	from := func(ip, token string) response {
		req := newRequest(t, http.MethodPost, "/api/v1/jobs", `{"title":"t","prompt":"p","bounty_usdc":1}`)
		req.Header.Set("Content-Type", "application/json")
		req.RemoteAddr = ip + ":1"
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		return e.serve(req)
	}
	r := from("203.0.113.1", tok)
	require.Equal(t, http.StatusOK, r.Code)
	require.Equal(t, `"per-ip";q=100;w=60, "per-address";q=2;w=60`, r.Header.Get("RateLimit-Policy"))
	require.Equal(t, `"per-ip";r=99;t=1, "per-address";r=1;t=30`, r.Header.Get("RateLimit"))
	require.Equal(t, http.StatusOK, from("203.0.113.2", tok).Code)
	r = from("203.0.113.3", tok)
	requireError(t, r, http.StatusTooManyRequests, "too many requests for this address: slow down")
	require.Equal(t, "30", r.Header.Get("Retry-After"))
	require.Equal(t, `"per-ip";r=99;t=1, "per-address";r=0;t=30`, r.Header.Get("RateLimit"))

	require.Equal(t, http.StatusOK, from("203.0.113.3", other).Code, "another address")
	requireError(t, from("203.0.113.3", ""), http.StatusUnauthorized, "missing bearer token")
	e.clock.Advance(30 * time.Second)
	require.Equal(t, http.StatusOK, from("203.0.113.4", tok).Code)
}

// TestRateLimitKeysIPv6ByNetwork: 1,000 requests from 1,000 addresses of
// one IPv6 /64 all count against one bucket of 3 a minute; another /64
// has its own; an IPv4-mapped IPv6 peer shares its IPv4 address's bucket.
func TestRateLimitKeysIPv6ByNetwork(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withOptions(func(o *transport.Options) { o.RateLimitPerMin = 3 }))
	from := func(remote string) int {
		req := newRequest(t, http.MethodGet, "/api/v1/jobs", "")
		req.RemoteAddr = remote
		return e.serve(req).Code
	}
	ok := 0
	for i := range 1000 {
		if from(fmt.Sprintf("[2001:db8:7:42:%x:%x::%x]:4242", i*7919%65536, i, i+1)) == http.StatusOK {
			ok++
		}
	}
	require.Equal(t, 3, ok, "one /64 is one client")
	require.Equal(t, http.StatusOK, from("[2001:db8:7:43::1]:4242"), "the next /64 is another client")

	for range 3 {
		require.Equal(t, http.StatusOK, from("203.0.113.9:1"))
	}
	require.Equal(t, http.StatusTooManyRequests, from("[::ffff:203.0.113.9]:2"), "IPv4-mapped IPv6 is the IPv4 client")
}

// TestAuthRateLimitIsGlobal: the sign-in routes share one budget per
// replica whatever the client: past it, a client with its own budget left
// gets 429 with Retry-After on challenge and verify, while other routes
// still answer; with the setting off, they are not limited.
func TestAuthRateLimitIsGlobal(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withOptions(func(o *transport.Options) {
		o.RateLimitPerMin = 100
		o.AuthRateLimitPerMin = 4
	}))
	post := func(ip, path string, body any) response {
		w := newWallet(t)
		if body == nil {
			body = map[string]any{"address": w.lower()}
		}
		raw, err := json.Marshal(body)
		require.NoError(t, err)
		req := newRequest(t, http.MethodPost, path, string(raw))
		req.Header.Set("Content-Type", "application/json")
		req.RemoteAddr = ip + ":4242"
		return e.serve(req)
	}
	for i := range 4 { // four networks, one request each
		r := post(fmt.Sprintf("198.51.100.%d", i), "/api/v1/agents/auth/challenge", nil)
		require.Equal(t, http.StatusOK, r.Code, "%s", r.Body)
		require.Contains(t, r.Header.Get(transport.HeaderRateLimitPolicy), `"sign-in";q=4;w=60`)
	}
	r := post("192.0.2.50", "/api/v1/agents/auth/challenge", nil)
	requireError(t, r, http.StatusTooManyRequests, "too many sign-in requests on this server: try again shortly")
	require.Equal(t, "15", r.Header.Get("Retry-After"), "4 a minute: one every 15 s")
	r = post("192.0.2.51", "/api/v1/agents/auth/verify", map[string]any{"address": newWallet(t).lower(), "signature": "0x00"})
	requireError(t, r, http.StatusTooManyRequests, "too many sign-in requests on this server: try again shortly")
	require.NotEmpty(t, r.Header.Get("Retry-After"))
	req := newRequest(t, http.MethodGet, "/api/v1/jobs", "")
	req.RemoteAddr = "192.0.2.50:1"
	require.Equal(t, http.StatusOK, e.serve(req).Code, "other routes keep their own limits")

	e.clock.Advance(15 * time.Second)
	require.Equal(t, http.StatusOK, post("192.0.2.52", "/api/v1/agents/auth/challenge", nil).Code, "a token came back")

	off := newEnv(t)
	for range 20 {
		require.Equal(t, http.StatusOK, off.do("POST", "/api/v1/agents/auth/challenge", map[string]any{"address": newWallet(t).lower()}).Code)
	}
}
