package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/web"
)

// TestJuryForms: a commit-reveal job with a drawn panel shows its jury
// (mode, windows, draw, panel) and, to a signed-in juror, the commit form
// in the commit window and the reveal form in the reveal window; the
// tally stays hidden until the reveal window ends; the forms' actions
// commit (only the commitment is posted) and reveal.
func TestJuryForms(t *testing.T) {
	t.Parallel()
	srv := openjurytest.NewServer(t, openjurytest.WithConfig(func(c *openjurytest.ServerConfig) { c.SemanticSearchEnabled = false }))
	sponsor, worker, juror := openjurytest.NewWallet(t), openjurytest.NewWallet(t), openjurytest.NewWallet(t)
	front := app(t, srv, juror) // the pages judge the jury windows by srv.Clock
	st, wt := srv.SignIn(t, sponsor), srv.SignIn(t, worker)
	srv.SetStake(t, worker.Address(), 20)
	srv.SetStake(t, juror.Address(), 20)
	srv.SetReputation(t, juror.Address(), 10)
	r := srv.Do(t, http.MethodPost, "/api/v1/jobs", st, map[string]any{"title": "t", "prompt": "p", "bounty_usdc": 1,
		"jury_mode": "commit_reveal", "jury_size": 1, "jury_commit_seconds": 60, "jury_reveal_seconds": 60})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	jobID := r.Map(t)["id"].(string)
	r = srv.Do(t, http.MethodPost, "/api/v1/submissions", wt, map[string]any{"job_id": jobID, "content": "work"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	subID := r.Map(t)["submission"].(map[string]any)["id"].(string)

	a := postSession(t, front, "application/json", `{"token":"`+srv.SignIn(t, juror)+`"}`, "Sec-Fetch-Site", "same-origin")
	require.Equal(t, http.StatusOK, a.status, a.body)
	session := a.header.Get("Set-Cookie")
	session = strings.TrimPrefix(session[:strings.IndexByte(session, ';')], web.SessionCookie+"=")

	page := getPage(t, front, "/jobs/"+jobID, session)
	require.Equal(t, http.StatusOK, page.status, page.body)
	require.Contains(t, page.body, `id="jury-mode">commit_reveal`)
	require.Contains(t, page.body, juror.Address().String(), "the drawn juror is listed")
	require.Contains(t, page.body, `id="commit-form"`)
	require.NotContains(t, page.body, `id="reveal-form"`)
	require.Contains(t, page.body, `id="tally-hidden"`)

	var salt [32]byte
	salt[0] = 7
	commitment := marketplace.CommitmentOf(jobID, subID, juror.Address(), salt)
	done := postForm(t, front, "/app/jobs/"+jobID+"/commit", session, url.Values{"csrf": {csrfOf(t, page.body)}, "commitment": {commitment.String()}})
	require.Equal(t, http.StatusSeeOther, done.status, done.body)
	require.Equal(t, "/jobs/"+jobID+"#panel", done.header.Get("Location"))
	bad := postForm(t, front, "/app/jobs/"+jobID+"/commit", session, url.Values{"csrf": {csrfOf(t, page.body)}})
	requireErrorPage(t, bad, http.StatusBadRequest, "commitment")

	srv.Clock.Advance(time.Minute)
	page = getPage(t, front, "/jobs/"+jobID, session)
	require.Contains(t, page.body, `id="reveal-form"`)
	require.NotContains(t, page.body, `id="commit-form"`)
	wrong := postForm(t, front, "/app/jobs/"+jobID+"/reveal", session, url.Values{"csrf": {csrfOf(t, page.body)},
		"submission_id": {subID}, "salt": {openjury.HashFromBytes([32]byte{8}).String()}})
	requireErrorPage(t, wrong, http.StatusBadRequest, "do not match your commitment")
	done = postForm(t, front, "/app/jobs/"+jobID+"/reveal", session, url.Values{"csrf": {csrfOf(t, page.body)},
		"submission_id": {subID}, "salt": {openjury.HashFromBytes(salt).String()}})
	require.Equal(t, http.StatusSeeOther, done.status, done.body)

	srv.Clock.Advance(time.Minute)
	page = getPage(t, front, "/jobs/"+jobID, "")
	require.NotContains(t, page.body, `id="tally-hidden"`)
	require.Contains(t, page.body, "1 voters")
}

// TestJuryCommitmentInBrowser runs web/static/jury.js in chromium: its
// commitment equals marketplace.CommitmentOf, and its salts are 32 fresh
// random bytes.
func TestJuryCommitmentInBrowser(t *testing.T) {
	ctx := browser(t)
	srv := openjurytest.NewServer(t, openjurytest.WithConfig(func(c *openjurytest.ServerConfig) { c.SemanticSearchEnabled = false }))
	front := app(t, srv, openjurytest.NewWallet(t))
	jobID, subID := openjury.NewID(), openjury.NewID()
	voter := openjury.MustAddress("0x00000000000000000000000000000000deadbeef")
	salt := [32]byte{1, 2, 3, 4, 5}
	want := marketplace.CommitmentOf(jobID, subID, voter, salt).String()
	var got string
	var salts []string
	err := chromedp.Run(ctx,
		chromedp.Navigate(front.URL+"/"),
		chromedp.WaitReady(`footer`),
		evalModule("/static/jury.js", `return m.commitmentOf(`+jsLiteral(t, jobID)+`, `+jsLiteral(t, subID)+`, `+jsLiteral(t, voter.String())+`, `+jsLiteral(t, openjury.HashFromBytes(salt).String())+`)`, &got),
		evalModule("/static/jury.js", `return [m.newSalt(), m.newSalt()]`, &salts),
	)
	require.NoError(t, err)
	require.Equal(t, want, got)
	require.Len(t, salts, 2)
	require.NotEqual(t, salts[0], salts[1])
	for _, s := range salts {
		_, err := openjury.ParseHash("salt", s)
		require.NoError(t, err)
	}
}
