package transport_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/transport"
)

// withSignedReads turns on the read cache and a per-address limit of
// perAddr requests a minute (the per-IP limit far above it).
func withSignedReads(perAddr int) envOption {
	return withOptions(func(o *transport.Options) {
		o.ReadCacheTTL = time.Second
		o.RateLimitPerMin = 1000
		o.RateLimitPerAddressPerMin = perAddr
	})
}

// replica is another handler on e's database and services, with its own
// read cache, token cache and limits.
func (e *env) replica() *env {
	return &env{t: e.t, h: transport.NewHandler(e.svc, e.opts), clock: e.clock, store: e.store, logs: e.logs, svc: e.svc, opts: e.opts, testPaths: e.testPaths}
}

// signedGet is a GET with the caller's bearer token from client IP ip.
func (e *env) signedGet(path, token, ip string) response {
	e.t.Helper()
	req := newRequest(e.t, http.MethodGet, path, "")
	req.RemoteAddr = ip + ":4242"
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return e.serve(req)
}

// countedPerAddress reports whether r's answer was counted against a
// per-address limit (its RateLimit header has the per-address item).
func countedPerAddress(r response) bool {
	return strings.Contains(r.Header.Get("RateLimit"), `"per-address"`)
}

// TestSignedReadsShareTheCache: a signed-in read of public data is
// answered from the same cache as an anonymous one, and its token from the
// token cache, so neither needs the database (it is closed at the end);
// the caller's own write on this replica is still in its next read.
func TestSignedReadsShareTheCache(t *testing.T) {
	t.Parallel()
	a := newEnv(t, withSignedReads(100))
	b := a.replica()
	sponsor := a.agent(0, 0)
	job1 := a.newJob(sponsor.token)

	r := b.signedGet("/api/v1/jobs", sponsor.token, "203.0.113.1")
	require.Equal(t, []string{job1}, jobIDs(t, r))
	require.True(t, countedPerAddress(r), "a signed-in read counts against its address: %v", r.Header)
	require.Equal(t, []string{job1}, jobIDs(t, b.get("/api/v1/jobs")), "an anonymous read gets the same entry")

	job2 := a.newJob(sponsor.token)
	require.Equal(t, []string{job1}, jobIDs(t, b.signedGet("/api/v1/jobs", sponsor.token, "203.0.113.1")),
		"a write through another replica is seen within the TTL, signed in or not")

	job3 := b.newJob(sponsor.token)
	require.Equal(t, []string{job3, job2, job1}, jobIDs(t, b.signedGet("/api/v1/jobs", sponsor.token, "203.0.113.1")),
		"the caller's own write on this replica is in its next read")

	cached := b.signedGet("/api/v1/jobs/"+job1, sponsor.token, "203.0.113.1")
	require.Equal(t, http.StatusOK, cached.Code)
	require.NoError(t, a.store.Close())
	again := b.signedGet("/api/v1/jobs/"+job1, sponsor.token, "203.0.113.2")
	require.Equal(t, http.StatusOK, again.Code, "answered with no database: %s", again.Body)
	require.Equal(t, cached.Body, again.Body)
	require.True(t, countedPerAddress(again), "the token came from the token cache")
}

// TestSignedReadsPerAddressLimit: the per-address limit counts signed-in
// reads of public data, cached or not, whatever IP they come from; an
// anonymous read and another address are not held back by it; a read of
// a route that needs sign-in is counted once, not twice.
func TestSignedReadsPerAddressLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withSignedReads(3))
	sponsor := e.agent(0, 0)
	other := e.agent(0, 0)
	e.newJob(sponsor.token) // a write: one of the sponsor's 3

	require.Equal(t, http.StatusOK, e.signedGet("/api/v1/jobs", sponsor.token, "203.0.113.1").Code) // fills the cache
	r := e.signedGet("/api/v1/jobs", sponsor.token, "203.0.113.2")                                  // from the cache
	require.Equal(t, http.StatusOK, r.Code)
	require.Contains(t, r.Header.Get("RateLimit"), `"per-address";r=0;`)
	r = e.signedGet("/api/v1/jobs", sponsor.token, "203.0.113.3")
	requireError(t, r, http.StatusTooManyRequests, "too many requests for this address: slow down")
	require.NotEmpty(t, r.Header.Get("Retry-After"))

	require.Equal(t, http.StatusOK, e.signedGet("/api/v1/jobs", "", "203.0.113.3").Code, "an anonymous read")
	require.Equal(t, http.StatusOK, e.signedGet("/api/v1/jobs", other.token, "203.0.113.3").Code, "another address")
	require.Equal(t, http.StatusOK, e.signedGet("/api/v1/jobs", "not-a-token", "203.0.113.3").Code,
		"a token that does not resolve leaves a public read anonymous")
	e.clock.Advance(time.Minute)
	require.Equal(t, http.StatusOK, e.signedGet("/api/v1/jobs", sponsor.token, "203.0.113.3").Code, "refilled")

	// A GET of a route that needs sign-in: counted once per request.
	const pattern = "GET /api/v1/test-me"
	e.h = transport.NewHandlerWithAuthedRoute(e.svc, e.opts, pattern, func(w http.ResponseWriter, r *http.Request) error {
		w.WriteHeader(http.StatusNoContent)
		return nil
	})
	e.testPaths["/api/v1/test-me"] = true
	fresh := e.agent(0, 0)
	for want := 2; want >= 0; want-- {
		r := e.signedGet("/api/v1/test-me", fresh.token, "203.0.113.4")
		require.Equal(t, http.StatusNoContent, r.Code)
		require.Equal(t, 1, strings.Count(r.Header.Get("RateLimit"), `"per-address"`), r.Header.Get("RateLimit"))
		require.Contains(t, r.Header.Get("RateLimit"), `"per-address";r=`+string(rune('0'+want))+";")
	}
	require.Equal(t, http.StatusTooManyRequests, e.signedGet("/api/v1/test-me", fresh.token, "203.0.113.4").Code)
	requireError(t, e.signedGet("/api/v1/test-me", "not-a-token", "203.0.113.4"), http.StatusUnauthorized, "invalid or expired token")
}

// TestTokenCacheRevocation: a logout through this replica is seen by its
// next read at once; a logout through another replica leaves the token
// counted against its address on public reads for at most TokenCacheTTL,
// while every write checks the database and refuses it at once.
func TestTokenCacheRevocation(t *testing.T) {
	t.Parallel()
	a := newEnv(t, withSignedReads(100))
	b := a.replica()
	sponsor := a.agent(0, 0)
	a.newJob(sponsor.token)
	for _, rep := range []*env{a, b} {
		require.True(t, countedPerAddress(rep.signedGet("/api/v1/jobs", sponsor.token, "203.0.113.1")))
	}

	out := a.do(http.MethodPost, "/api/v1/agents/auth/logout", nil, bearer(sponsor.token))
	require.Equal(t, http.StatusOK, out.Code, "%s", out.Body)
	r := a.signedGet("/api/v1/jobs", sponsor.token, "203.0.113.1")
	require.Equal(t, http.StatusOK, r.Code)
	require.False(t, countedPerAddress(r), "the logout's replica forgot the token at once")

	r = b.signedGet("/api/v1/jobs", sponsor.token, "203.0.113.1")
	require.Equal(t, http.StatusOK, r.Code)
	require.True(t, countedPerAddress(r), "another replica may still count it for a public read")
	requireError(t, b.do(http.MethodPost, "/api/v1/jobs", validJob(), bearer(sponsor.token)),
		http.StatusUnauthorized, "invalid or expired token")

	a.clock.Advance(transport.TokenCacheTTL - time.Millisecond)
	require.True(t, countedPerAddress(b.signedGet("/api/v1/jobs", sponsor.token, "203.0.113.1")), "within the TTL")
	a.clock.Advance(time.Millisecond)
	r = b.signedGet("/api/v1/jobs", sponsor.token, "203.0.113.1")
	require.Equal(t, http.StatusOK, r.Code)
	require.False(t, countedPerAddress(r), "for at most TokenCacheTTL")
}
