package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/openjurytest"
)

func TestWithWebAppRoutes(t *testing.T) {
	api := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusTeapot) })
	app := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusAccepted) })
	h := withWebApp(api, app)
	for path, want := range map[string]int{
		"/api/v1/jobs": http.StatusTeapot, "/.well-known/agent.json": http.StatusTeapot, "/openapi.yaml": http.StatusTeapot,
		"/docs-md/x.md": http.StatusTeapot, "/llms.txt": http.StatusTeapot, "/agents.json": http.StatusTeapot,
		"/healthz": http.StatusTeapot, "/readyz": http.StatusTeapot, "/metrics": http.StatusTeapot,
		"/": http.StatusAccepted, "/jobs/x": http.StatusAccepted, "/apix": http.StatusAccepted,
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		require.Equal(t, want, rec.Code, path)
	}
}

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
