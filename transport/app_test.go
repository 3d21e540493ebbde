package transport_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/transport"
)

// appMark is the header the test app sets on its answers.
const appMark = "X-Test-App"

// withApp serves app as Options.App.
func withApp(app http.Handler) envOption {
	return withOptions(func(o *transport.Options) { o.App = app })
}

// serveRaw serves a request without the OpenAPI check (app paths are not
// in the document).
func (e *env) serveRaw(method, path, body string) *http.Response {
	e.t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.RemoteAddr = "203.0.113.7:4242"
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	return rec.Result()
}

// TestAppRouting: Options.App gets exactly the paths that are not the
// API's; the API's paths (its prefixes and every registered exact path,
// /a2a included) and unknown paths under the API's prefixes stay with the
// API, behind its request id.
func TestAppRouting(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withApp(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set(appMark, "1")
		w.WriteHeader(http.StatusAccepted)
	})))
	for _, path := range []string{"/", "/jobs/x", "/apix", "/a2ax", "/openapi.txt", "/app/session", "/static/app.js", "/healthzz"} {
		res := e.serveRaw(http.MethodGet, path, "")
		require.Equal(t, http.StatusAccepted, res.StatusCode, path)
		require.Equal(t, "1", res.Header.Get(appMark), path)
		require.NotEmpty(t, res.Header.Get(transport.HeaderRequestID), "%s: the app's answers carry a request id", path)
	}
	for _, path := range []string{"/api/v1/jobs", "/api/v1/nope", "/.well-known/agent-card.json", "/.well-known/nope",
		"/docs-md/agent-playbook.md", "/openapi.yaml", "/openapi.json", "/llms.txt", "/agents.json", "/healthz", "/readyz", "/metrics"} {
		res := e.serveRaw(http.MethodGet, path, "")
		require.Empty(t, res.Header.Get(appMark), path)
		require.NotEqual(t, http.StatusAccepted, res.StatusCode, path)
	}
	// The A2A endpoint is the API's: a JSON-RPC answer, not the app's.
	res := e.serveRaw(http.MethodPost, transport.A2APath, `{"jsonrpc":"2.0","id":1,"method":"nope"}`)
	require.Empty(t, res.Header.Get(appMark))
	require.Contains(t, res.Header.Get("Content-Type"), "application/json")

	// Without App, other paths get the API's JSON 404.
	plain := newEnv(t)
	res = plain.serveRaw(http.MethodGet, "/jobs/x", "")
	require.Equal(t, http.StatusNotFound, res.StatusCode)
	require.Contains(t, res.Header.Get("Content-Type"), "application/json")
}

// TestAppSharesTheRateLimits: the app's requests count against the
// client IP's budget of the API and are refused with 429 past it; a
// signed-in action's LimitAddress shares the address's budget with its
// bearer requests, and is a no-op outside a handler with App.
func TestAppSharesTheRateLimits(t *testing.T) {
	t.Parallel()
	var limitErr error
	user := openjury.MustAddress("0x00000000000000000000000000000000000000aa")
	e := newEnv(t, withOptions(func(o *transport.Options) {
		o.RateLimitPerMin = 3
		o.RateLimitPerAddressPerMin = 2
		o.App = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost {
				limitErr = transport.LimitAddress(w, r, user)
			}
			w.WriteHeader(http.StatusOK)
		})
	}))
	require.Equal(t, http.StatusOK, e.serveRaw(http.MethodGet, "/api/v1/jobs", "").StatusCode)
	require.Equal(t, http.StatusOK, e.serveRaw(http.MethodGet, "/", "").StatusCode)
	require.Equal(t, http.StatusOK, e.serveRaw(http.MethodGet, "/jobs/x", "").StatusCode)
	res := e.serveRaw(http.MethodGet, "/", "")
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode, "the app shares the IP's budget")
	require.Equal(t, "20", res.Header.Get("Retry-After"))
	res = e.serveRaw(http.MethodGet, "/api/v1/jobs", "")
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode, "and the API sees what the app spent")

	// The per-address budget: 2 a minute (the IP's 3 are whole again).
	e.clock.Advance(time.Minute)
	for i := range 2 {
		require.Equal(t, http.StatusOK, e.serveRaw(http.MethodPost, "/app/jobs/x/comment", "").StatusCode)
		require.NoError(t, limitErr, "action %d", i)
	}
	res = e.serveRaw(http.MethodPost, "/app/jobs/x/comment", "")
	require.Equal(t, openjury.RateLimited, openjury.KindOf(limitErr))
	require.Equal(t, "30", transport.RetryAfter(limitErr))
	require.NotEmpty(t, res.Header.Get(transport.HeaderRateLimit))

	// Outside a handler with App there is nothing to count against.
	rec := httptest.NewRecorder()
	require.NoError(t, transport.LimitAddress(rec, httptest.NewRequest(http.MethodPost, "/x", nil), user))
}

// TestAppWritesEmptyTheReadCache: an answered write through the app
// empties the read cache, as an API write does, so the next
// read on this replica sees it; a refused one (4xx) does not.
func TestAppWritesEmptyTheReadCache(t *testing.T) {
	t.Parallel()
	var status = http.StatusSeeOther
	e := newEnv(t, withReadCache(time.Second), withOptions(func(o *transport.Options) {
		o.App = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(status) })
	}))
	sponsor := openjury.MustAddress("0x00000000000000000000000000000000000000bb")
	count := func() int {
		return len(e.get("/api/v1/jobs").JSON(t)["jobs"].([]any))
	}
	require.Equal(t, 0, count())
	create := func() {
		_, err := e.svc.Market.CreateJob(t.Context(), sponsor, marketplace.CreateJobInput{Title: "t", Prompt: "p"})
		require.NoError(t, err)
	}
	create()
	status = http.StatusBadRequest
	e.serveRaw(http.MethodPost, "/app/jobs", "")
	require.Equal(t, 0, count(), "a refused write leaves the cache")
	status = http.StatusSeeOther
	e.serveRaw(http.MethodPost, "/app/jobs", "")
	require.Equal(t, 1, count(), "an answered write empties it")
	create()
	e.serveRaw(http.MethodGet, "/", "")
	require.Equal(t, 1, count(), "an app read does not")
}

// TestAppRequestsAreCounted: the app's answers are counted and timed in
// the HTTP metrics under the one route label RouteApp, whatever their
// path, so the app's paths never become labels.
func TestAppRequestsAreCounted(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withApp(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/missing" {
			http.NotFound(w, r)
			return
		}
		w.WriteHeader(http.StatusOK)
	})))
	for _, path := range []string{"/", "/jobs/a", "/jobs/b"} {
		require.Equal(t, http.StatusOK, e.serveRaw(http.MethodGet, path, "").StatusCode, path)
	}
	require.Equal(t, http.StatusOK, e.serveRaw(http.MethodPost, "/jobs/a/submit", "x=1").StatusCode)
	require.Equal(t, http.StatusNotFound, e.serveRaw(http.MethodGet, "/missing", "").StatusCode)

	s := e.scrape()
	s.requireValue(t, requests(transport.RouteApp, "GET", 200), 3)
	s.requireValue(t, requests(transport.RouteApp, "POST", 200), 1)
	s.requireValue(t, requests(transport.RouteApp, "GET", 404), 1)
	s.requireValue(t, series("openjury_http_request_duration_seconds_count", "route", transport.RouteApp, "method", "GET", "status", "200"), 3)
	for name := range s {
		require.NotContains(t, name, "/jobs/", "an app path became a label")
	}
}

// TestAppEventsFeedTheDomainCounters: CountEvent from the app counts its
// event in the same domain counter as the API route that does the same,
// and is a no-op for a request that did not come through Options.App.
func TestAppEventsFeedTheDomainCounters(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withApp(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		events := map[string]transport.Event{"/final": transport.EventFinalVote, "/close": transport.EventSponsorClose,
			"/signin": transport.EventSignIn, "/submit": transport.EventSubmission, "/vote": transport.EventJuryVote, "/finalize": transport.EventFinalize}
		if ev, ok := events[r.URL.Path]; ok {
			transport.CountEvent(r, ev)
		}
		w.WriteHeader(http.StatusOK)
	})))
	for _, path := range []string{"/final", "/final", "/close", "/other", "/signin", "/submit", "/submit", "/submit", "/vote", "/finalize", "/finalize"} {
		require.Equal(t, http.StatusOK, e.serveRaw(http.MethodPost, path, "").StatusCode, path)
	}
	// Outside a handler with Options.App nothing is counted (and nothing fails).
	transport.CountEvent(httptest.NewRequest(http.MethodPost, "/final", nil), transport.EventFinalVote)

	s := e.scrape()
	s.requireValue(t, series("openjury_votes_total", "kind", "final"), 2)
	s.requireValue(t, series("openjury_job_closes_total", "via", "sponsor"), 1)
	s.requireValue(t, series("openjury_votes_total", "kind", "jury"), 1)
	s.requireValue(t, series("openjury_signins_total"), 1)
	s.requireValue(t, series("openjury_submissions_total"), 3)
	s.requireValue(t, series("openjury_job_closes_total", "via", "finalize"), 2)
}

// TestAppSharesTheSignInBudget: LimitSignIn spends the replica's shared
// sign-in budget that the API's sign-in routes spend, so the app's own
// sign-in form and the API together get no more than the budget; it is a
// no-op outside a handler with App.
func TestAppSharesTheSignInBudget(t *testing.T) {
	t.Parallel()
	var limitErr error
	e := newEnv(t, withOptions(func(o *transport.Options) {
		o.AuthRateLimitPerMin = 3
		o.App = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			limitErr = transport.LimitSignIn(w, r)
			w.WriteHeader(http.StatusOK)
		})
	}))
	for i := range 2 {
		e.serveRaw(http.MethodPost, "/app/signin/verify", "")
		require.NoError(t, limitErr, "app sign-in %d", i)
	}
	res := e.serveRaw(http.MethodPost, "/api/v1/agents/auth/challenge", `{"address":"0x00000000000000000000000000000000000000aa"}`)
	require.Equal(t, http.StatusOK, res.StatusCode, "the API's sign-in takes the third")
	res = e.serveRaw(http.MethodPost, "/app/signin/verify", "")
	require.Equal(t, openjury.RateLimited, openjury.KindOf(limitErr), "the app's fourth is refused")
	require.NotEmpty(t, transport.RetryAfter(limitErr))
	require.NotEmpty(t, res.Header.Get(transport.HeaderRateLimit))
	res = e.serveRaw(http.MethodPost, "/api/v1/agents/auth/challenge", `{"address":"0x00000000000000000000000000000000000000aa"}`)
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode)

	rec := httptest.NewRecorder()
	require.NoError(t, transport.LimitSignIn(rec, httptest.NewRequest(http.MethodPost, "/app/signin/verify", nil)))
}

// TestUnknownRoutesAnswerJSONUnlessBrowser: an app path the app does not
// know answers the API's JSON 404 to a client whose Accept does not prefer
// HTML (none, */*, application/json, JSON preferred over HTML), with the
// request id and none of the app's page headers; a browser gets the app's
// HTML page. The app's other answers reach every client unchanged.
func TestUnknownRoutesAnswerJSONUnlessBrowser(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withApp(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set(appMark, "1")
		w.Header().Set("Content-Security-Policy", "default-src 'self'")
		if r.URL.Path != "/" {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte("<h1>Page not found</h1>"))
			return
		}
		_, _ = w.Write([]byte("<h1>Jobs</h1>"))
	})))
	get := func(path, accept string) *http.Response {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		rec := httptest.NewRecorder()
		e.h.ServeHTTP(rec, req)
		return rec.Result()
	}
	const browser = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,*/*;q=0.8"
	for _, accept := range []string{"", "application/json", "*/*", "application/json, text/html;q=0.9", "text/html;q=0", "text/plain"} {
		res := get("/nope", accept)
		require.Equal(t, http.StatusNotFound, res.StatusCode, accept)
		require.Equal(t, "application/json", res.Header.Get("Content-Type"), accept)
		body, _ := io.ReadAll(res.Body)
		require.JSONEq(t, `{"detail":"route not found"}`, string(body), accept)
		require.NotEmpty(t, res.Header.Get(transport.HeaderRequestID), accept)
		require.Empty(t, res.Header.Get(appMark), "%s: none of the app's headers", accept)
		require.Empty(t, res.Header.Get("Content-Security-Policy"), accept)
	}
	for _, accept := range []string{browser, "text/html", "application/xhtml+xml", "text/html, application/json"} {
		res := get("/nope", accept)
		require.Equal(t, http.StatusNotFound, res.StatusCode, accept)
		require.Equal(t, "text/html; charset=utf-8", res.Header.Get("Content-Type"), accept)
		body, _ := io.ReadAll(res.Body)
		require.Contains(t, string(body), "Page not found", accept)
	}
	for _, accept := range []string{"", "application/json", browser} {
		res := get("/", accept)
		require.Equal(t, http.StatusOK, res.StatusCode, accept)
		body, _ := io.ReadAll(res.Body)
		require.Equal(t, "<h1>Jobs</h1>", string(body), "%s: known app routes answer every client", accept)
	}
}
