package web_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/web"
)

// noRedirects is a client that returns redirects instead of following them.
var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// answer is a read response.
type answer struct {
	status int
	header http.Header
	body   string
}

// send makes a request to front with the session cookie (when not "") and
// reads the answer.
func send(t *testing.T, req *http.Request, session string) answer {
	t.Helper()
	if session != "" {
		req.AddCookie(&http.Cookie{Name: web.SessionCookie, Value: session})
	}
	resp, err := noRedirects.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return answer{resp.StatusCode, resp.Header, string(body)}
}

// postForm posts form to front's path with the session cookie.
func postForm(t *testing.T, front *httptest.Server, path, session string, form url.Values) answer {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, front.URL+path, strings.NewReader(form.Encode()))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return send(t, req, session)
}

// postSession posts body to /app/session with a content type.
func postSession(t *testing.T, front *httptest.Server, ctype, body string, header ...string) answer {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, front.URL+"/app/session", strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", ctype)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return send(t, req, "")
}

// getPage gets a page of front with the session cookie.
func getPage(t *testing.T, front *httptest.Server, path, session string) answer {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, front.URL+path, nil)
	require.NoError(t, err)
	return send(t, req, session)
}

// csrfOf extracts the CSRF token of the first action form of a page.
func csrfOf(t *testing.T, page string) string {
	t.Helper()
	const marker = `name="csrf" value="`
	i := strings.Index(page, marker)
	require.GreaterOrEqual(t, i, 0, "the page has a CSRF field")
	rest := page[i+len(marker):]
	return rest[:strings.IndexByte(rest, '"')]
}

func requireErrorPage(t *testing.T, a answer, status int, msg string) {
	t.Helper()
	require.Equal(t, status, a.status, a.body)
	require.Equal(t, "text/html; charset=utf-8", a.header.Get("Content-Type"))
	require.Contains(t, a.body, msg)
}

func TestSessionCookie(t *testing.T) {
	openjurytest.OnEachServer(t, func(t *testing.T, srv *openjurytest.Server) {
		sponsor := openjurytest.NewWallet(t)
		front := app(t, srv, sponsor)
		token := srv.SignIn(t, sponsor)

		a := postSession(t, front, "text/plain", `{"token":"x"}`)
		require.Equal(t, http.StatusUnsupportedMediaType, a.status)
		require.Contains(t, a.body, `"detail":"Content-Type must be application/json"`)
		a = postSession(t, front, "application/json", `{"token":`)
		require.Equal(t, http.StatusBadRequest, a.status)
		require.Contains(t, a.body, "token")
		a = postSession(t, front, "application/json", `{}`)
		require.Equal(t, http.StatusBadRequest, a.status)
		require.Contains(t, a.body, `"detail":"token is required"`)
		a = postSession(t, front, "application/json", `{"token":"not-a-live-token"}`)
		require.Equal(t, http.StatusUnauthorized, a.status)
		require.Contains(t, a.body, "not valid")
		require.Empty(t, a.header.Values("Set-Cookie"))
		a = postSession(t, front, "application/json", `{"token":"`+strings.Repeat("t", 5000)+`"}`)
		require.Equal(t, http.StatusRequestEntityTooLarge, a.status)
		a = postSession(t, front, "application/json", `{"token":"`+token+`"}`, "Sec-Fetch-Site", "cross-site")
		require.Equal(t, http.StatusForbidden, a.status, "another site cannot sign a browser in")
		require.Empty(t, a.header.Values("Set-Cookie"))

		a = postSession(t, front, "application/json", `{"token":"`+token+`"}`, "Sec-Fetch-Site", "same-origin")
		require.Equal(t, http.StatusOK, a.status, a.body)
		var who struct {
			Address string `json:"address"`
		}
		require.NoError(t, json.Unmarshal([]byte(a.body), &who))
		require.Equal(t, sponsor.Address().String(), who.Address)
		require.NotContains(t, a.body, token)
		cookie := a.header.Get("Set-Cookie")
		require.True(t, strings.HasPrefix(cookie, web.SessionCookie+"="+token+";"), cookie)
		for _, attr := range []string{"; Path=/", "; HttpOnly", "; SameSite=Strict"} {
			require.Contains(t, cookie, attr)
		}
		require.NotContains(t, cookie, "Secure", "plain http on loopback")

		job, err := srv.Market.CreateJob(context.Background(), sponsor.Address(), marketplace.CreateJobInput{Title: "Signed-in page", Prompt: "p"})
		require.NoError(t, err)
		for _, path := range []string{"/", "/jobs/" + job.ID, "/leaderboard", "/posts", "/agents/" + sponsor.Address().String(), "/nope"} {
			signed := getPage(t, front, path, token)
			require.Contains(t, signed.body, "Signed in as", path)
			require.Contains(t, signed.body, `action="/app/signout"`, path)
			require.NotContains(t, signed.body, token, "the cookie value never appears in a page")
			require.Equal(t, "private, no-store", signed.header.Get("Cache-Control"), path)
			anon := getPage(t, front, path, "")
			require.NotContains(t, anon.body, "Signed in as", path)
			require.NotContains(t, anon.body, `name="csrf"`, path)
			require.Contains(t, anon.body, `id="signin"`, path)
			require.Equal(t, signed.status, anon.status, path)
		}
		jobPage := getPage(t, front, "/jobs/"+job.ID, token).body
		require.Contains(t, jobPage, `action="/app/jobs/`+job.ID+`/comment"`)
		require.Contains(t, jobPage, `action="/app/jobs/`+job.ID+`/boost"`)
		require.Contains(t, getPage(t, front, "/jobs/new", token).body, `action="/app/jobs"`)
		// A revoked or unknown token reads as anonymous.
		require.NotContains(t, getPage(t, front, "/", "unknown-token").body, "Signed in as")

		csrf := csrfOf(t, jobPage)
		a = postForm(t, front, "/app/signout", token, url.Values{"csrf": {csrf}})
		require.Equal(t, http.StatusSeeOther, a.status, a.body)
		require.Equal(t, "/", a.header.Get("Location"))
		require.Contains(t, a.header.Get("Set-Cookie"), web.SessionCookie+"=;")
		require.Contains(t, a.header.Get("Set-Cookie"), "Max-Age=0")
		_, err = srv.Auth.Authenticate(context.Background(), token)
		require.Error(t, err, "signing out revokes the token")
		require.NotContains(t, getPage(t, front, "/", token).body, "Signed in as")
	})
}

func TestActionsWithoutAuth(t *testing.T) {
	h := web.NewHandler(web.Services{})
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/app/jobs", strings.NewReader("csrf=x"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.AddCookie(&http.Cookie{Name: web.SessionCookie, Value: "t"})
	h.ServeHTTP(rec, req)
	require.Equal(t, http.StatusNotImplemented, rec.Code)
	require.Contains(t, rec.Body.String(), "Sign-in is not available")
	rec = httptest.NewRecorder()
	req = httptest.NewRequest(http.MethodPost, "/app/session", strings.NewReader(`{"token":"t"}`))
	req.Header.Set("Content-Type", "application/json")
	h.ServeHTTP(rec, req)
	require.Equal(t, http.StatusNotImplemented, rec.Code)
	require.JSONEq(t, `{"detail":"sign-in is not available"}`, rec.Body.String())
}

// TestNULIsABadRequestPage: a NUL character in a page's query or path, or
// in an action's form, answers a 400 page and logs no error, on both
// engines (PostgreSQL text cannot hold NUL: before, a list's tag filter or
// a form's title reached it and answered 500 with an ERROR log); nothing is
// written.
func TestNULIsABadRequestPage(t *testing.T) {
	openjurytest.OnEachServer(t, func(t *testing.T, srv *openjurytest.Server) {
		sponsor := openjurytest.NewWallet(t)
		logs := &openjurytest.Buffer{}
		pages := web.NewHandler(web.Services{Market: srv.Market, Auth: srv.Auth, Stake: srv.Stake, AGR: srv.AGR, Search: srv.Search,
			Logger: slog.New(slog.NewJSONHandler(logs, nil))})
		front := httptest.NewServer(pages)
		t.Cleanup(front.Close)
		token := srv.SignIn(t, sponsor)
		csrf := csrfOf(t, getPage(t, front, "/", token).body)
		job, err := srv.Market.CreateJob(context.Background(), sponsor.Address(), marketplace.CreateJobInput{Title: "t", Prompt: "p"})
		require.NoError(t, err)

		for _, path := range []string{"/?tag=a%00b", "/?q=a%00b", "/?cursor=%00", "/jobs/" + job.ID + "?comments=%00", "/jobs/%00", "/posts?tag=%00", "/agents/0x%00"} {
			requireErrorPage(t, getPage(t, front, path, ""), http.StatusBadRequest, "NUL")
		}
		for path, form := range map[string]url.Values{
			"/app/jobs":                           {"title": {"a\x00b"}, "prompt": {"p"}, "bounty_usdc": {"1"}},
			"/app/jobs/" + job.ID + "/comment":    {"content": {"x\x00"}},
			"/app/jobs/" + job.ID + "/final-vote": {"submission_id": {"\x00"}},
		} {
			form.Set("csrf", csrf)
			requireErrorPage(t, postForm(t, front, path, token, form), http.StatusBadRequest, "NUL")
		}
		require.NotContains(t, logs.String(), `"level":"ERROR"`)
		list, err := srv.Market.ListJobs(context.Background(), marketplace.ListJobsInput{})
		require.NoError(t, err)
		require.Len(t, list.Jobs, 1, "no job was posted")
	})
}
