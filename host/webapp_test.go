package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/web"
)

// TestAppOnAnotherOrigin: with SERVICE_APP_URL on another origin, the
// app's pages call the API at SERVICE_BASE_URL (their CSP allows it) and
// CORS lets that origin preflight and send bearer requests; an unlisted
// origin gets no CORS grant.
func TestAppOnAnotherOrigin(t *testing.T) {
	t.Parallel()
	const appOrigin = "https://app.example.com"
	const apiURL = "https://api.example.com"
	base, _, _ := startHost(t, map[string]string{"SERVICE_APP_URL": appOrigin + "/", "SERVICE_BASE_URL": apiURL})
	sponsor := openjurytest.NewWallet(t)
	token := signIn(t, base, sponsor)

	preflight := func(origin, method, headers string) *http.Response {
		req, err := http.NewRequest(http.MethodOptions, base+"/api/v1/jobs", nil)
		require.NoError(t, err)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", method)
		req.Header.Set("Access-Control-Request-Headers", headers)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp
	}
	createJob := func(origin string) *http.Response {
		req, err := http.NewRequest(http.MethodPost, base+"/api/v1/jobs", strings.NewReader(`{"title":"From the app","prompt":"p","bounty_usdc":1}`))
		require.NoError(t, err)
		req.Header.Set("Origin", origin)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp
	}

	resp := preflight(appOrigin, "POST", "authorization,content-type")
	require.Equal(t, http.StatusNoContent, resp.StatusCode)
	require.Equal(t, appOrigin, resp.Header.Get("Access-Control-Allow-Origin"))
	require.Contains(t, resp.Header.Get("Access-Control-Allow-Methods"), "POST")
	require.Contains(t, strings.ToLower(resp.Header.Get("Access-Control-Allow-Headers")), "authorization")
	resp = createJob(appOrigin)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, appOrigin, resp.Header.Get("Access-Control-Allow-Origin"), "the bearer request is readable by the app")

	for _, other := range []string{"https://evil.example.com", "http://app.example.com", "https://app.example.com.evil.net"} {
		resp = preflight(other, "POST", "authorization,content-type")
		require.Empty(t, resp.Header.Get("Access-Control-Allow-Origin"), other)
		require.Empty(t, resp.Header.Get("Access-Control-Allow-Methods"), other)
		resp = createJob(other)
		require.Empty(t, resp.Header.Get("Access-Control-Allow-Origin"), "%s: the browser may not read the answer", other)
	}

	// The pages served here call the API at the base URL, and the session
	// cookie of an https app is Secure.
	resp, err := http.Get(base + "/")
	require.NoError(t, err)
	page, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	require.Contains(t, string(page), `data-api="`+apiURL+`"`)
	require.Contains(t, resp.Header.Get("Content-Security-Policy"), "connect-src 'self' "+apiURL+";")
	cookie := sessionCookie(t, base, token)
	require.Contains(t, cookie, "; Secure")
	require.Contains(t, cookie, "; HttpOnly")
}

// sessionCookie posts token to the host's POST /app/session and returns
// the Set-Cookie of the answer.
func sessionCookie(t *testing.T, base, token string) string {
	t.Helper()
	resp, err := http.Post(base+"/app/session", "application/json", strings.NewReader(`{"token":"`+token+`"}`))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	return resp.Header.Get("Set-Cookie")
}

// TestAppOnTheSameOrigin: by default the pages call the API on their own
// origin and the cookie is not Secure on plain http.
func TestAppOnTheSameOrigin(t *testing.T) {
	t.Parallel()
	base, _, _ := startHost(t, nil)
	resp, err := http.Get(base + "/")
	require.NoError(t, err)
	page, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.NotContains(t, string(page), "data-api=")
	require.Contains(t, resp.Header.Get("Content-Security-Policy"), "connect-src 'self';")
	cookie := sessionCookie(t, base, signIn(t, base, openjurytest.NewWallet(t)))
	require.NotContains(t, cookie, "Secure")
	require.Contains(t, cookie, "SameSite=Strict")
}

// TestHostServesAPIAndApp: the host's one handler answers the API's paths
// (the A2A endpoint included) with the API and every other path with the
// web app.
func TestHostServesAPIAndApp(t *testing.T) {
	t.Parallel()
	base, _, _ := startHost(t, nil)
	resp, err := http.Post(base+"/a2a", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"no/such"}`))
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	require.Contains(t, resp.Header.Get("Content-Type"), "application/json")
	require.Contains(t, string(body), `"jsonrpc":"2.0"`, "A2A answers JSON-RPC, not the web app's 404 page")
	for path, ctype := range map[string]string{
		"/": "text/html", "/leaderboard": "text/html", "/nope": "application/json",
		"/api/v1/nope": "application/json", "/.well-known/agent-card.json": "application/json",
		"/openapi.json": "application/json", "/llms.txt": "text/plain", "/healthz": "application/json",
	} {
		resp, err := http.Get(base + path)
		require.NoError(t, err)
		resp.Body.Close()
		require.Contains(t, resp.Header.Get("Content-Type"), ctype, path)
		require.NotEmpty(t, resp.Header.Get("X-Request-Id"), path)
	}
	// An unknown path: JSON to a client that asks for it (or says nothing),
	// the web app's page to a browser.
	for accept, ctype := range map[string]string{
		"application/json": "application/json",
		"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8": "text/html",
	} {
		req, err := http.NewRequest(http.MethodGet, base+"/nope", nil)
		require.NoError(t, err)
		req.Header.Set("Accept", accept)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.Equal(t, http.StatusNotFound, resp.StatusCode, accept)
		require.Contains(t, resp.Header.Get("Content-Type"), ctype, accept)
		if ctype == "application/json" {
			require.JSONEq(t, `{"detail":"route not found"}`, string(body))
		}
	}
}

// TestAppActionsAreRateLimited: a signed-in web action spends the
// address's per-address budget, shared with its bearer requests, and past
// it gets a 429 page with Retry-After; pages spend the client IP's budget.
func TestAppActionsAreRateLimited(t *testing.T) {
	t.Parallel()
	base, _, _ := startHost(t, map[string]string{"SERVICE_RATE_LIMIT_PER_ADDRESS_PER_MIN": "3"})
	sponsor := openjurytest.NewWallet(t)
	token := signIn(t, base, sponsor)
	req, err := http.NewRequest(http.MethodPost, base+"/api/v1/jobs", strings.NewReader(`{"title":"Limited","prompt":"p","bounty_usdc":1}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req) // the address's first request
	require.NoError(t, err)
	var job struct {
		ID string `json:"id"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&job))
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)

	cookie := &http.Cookie{Name: web.SessionCookie, Value: token}
	pageReq, err := http.NewRequest(http.MethodGet, base+"/jobs/"+job.ID, nil)
	require.NoError(t, err)
	pageReq.AddCookie(cookie)
	resp, err = http.DefaultClient.Do(pageReq)
	require.NoError(t, err)
	page, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	const marker = `name="csrf" value="`
	i := strings.Index(string(page), marker)
	require.GreaterOrEqual(t, i, 0, "the signed-in page has a CSRF field")
	csrf := string(page[i+len(marker):])
	csrf = csrf[:strings.IndexByte(csrf, '"')]

	noRedirects := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	comment := func() *http.Response {
		form := url.Values{"csrf": {csrf}, "content": {"From the page"}}
		req, err := http.NewRequest(http.MethodPost, base+"/app/jobs/"+job.ID+"/comment", strings.NewReader(form.Encode()))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.AddCookie(cookie)
		resp, err := noRedirects.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp
	}
	require.Equal(t, http.StatusSeeOther, comment().StatusCode)
	require.Equal(t, http.StatusSeeOther, comment().StatusCode)
	resp = comment()
	require.Equal(t, http.StatusTooManyRequests, resp.StatusCode, "the bearer request and two actions spent the 3")
	require.Contains(t, resp.Header.Get("Content-Type"), "text/html")
	require.NotEmpty(t, resp.Header.Get("Retry-After"))
}
