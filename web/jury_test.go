package web_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
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
	require.Contains(t, page.body, `id="jury-mode" data-mode="commit_reveal"`)
	require.Contains(t, page.body, `href="/agents/`+juror.Address().String()+`"`, "the drawn juror is listed")
	require.Contains(t, page.body, `<form id="commit"`)
	require.Contains(t, page.body, `<option value="`+subID+`">“work” by `, "the choices name the submissions")
	require.NotContains(t, page.body, `<form id="reveal"`)
	require.NotContains(t, page.body, `class="btn jury-vote"`, "no open jury vote on a commit-reveal job")
	require.Contains(t, page.body, `id="tally-hidden"`)

	var salt [32]byte
	salt[0] = 7
	commitment := marketplace.CommitmentOf(jobID, subID, juror.Address(), salt)
	done := postForm(t, front, "/app/jobs/"+jobID+"/commit", session, url.Values{"csrf": {csrfOf(t, page.body)}, "commitment": {commitment.String()}})
	require.Equal(t, http.StatusSeeOther, done.status, done.body)
	require.Equal(t, "/jobs/"+jobID+"?ok=committed#jury-panel", done.header.Get("Location"))
	bad := postForm(t, front, "/app/jobs/"+jobID+"/commit", session, url.Values{"csrf": {csrfOf(t, page.body)}})
	requireRefused(t, bad, http.StatusBadRequest, "commitment", "Choose a submission: this browser then computes the commitment.")
	bad = postForm(t, front, "/app/jobs/"+jobID+"/commit", session, url.Values{"csrf": {csrfOf(t, page.body)}, "commitment": {"0x12"}})
	requireRefused(t, bad, http.StatusBadRequest, "commitment", "A commitment is 0x followed by 64 hexadecimal digits.")
	require.Contains(t, bad.body, `value="0x12"`, "what was typed is kept")
	// The sponsor sees the jury but no commit form.
	require.NotContains(t, getPage(t, front, "/jobs/"+jobID, st).body, `<form id="commit"`)

	srv.Clock.Advance(time.Minute)
	page = getPage(t, front, "/jobs/"+jobID, session)
	require.Contains(t, page.body, `<form id="reveal"`)
	require.NotContains(t, page.body, `<form id="commit"`)
	late := postForm(t, front, "/app/jobs/"+jobID+"/commit", session, url.Values{"csrf": {csrfOf(t, page.body)}, "commitment": {commitment.String()}})
	requireRefused(t, late, http.StatusConflict, "", "The commit window has ended")
	wrong := postForm(t, front, "/app/jobs/"+jobID+"/reveal", session, url.Values{"csrf": {csrfOf(t, page.body)},
		"submission_id": {subID}, "salt": {openjury.HashFromBytes([32]byte{8}).String()}})
	requireRefused(t, wrong, http.StatusBadRequest, "reveal-salt", "This submission and salt do not match your commitment")
	done = postForm(t, front, "/app/jobs/"+jobID+"/reveal", session, url.Values{"csrf": {csrfOf(t, page.body)},
		"submission_id": {subID}, "salt": {openjury.HashFromBytes(salt).String()}})
	require.Equal(t, "/jobs/"+jobID+"?ok=revealed#jury-panel", done.header.Get("Location"))
	page = getPage(t, front, "/jobs/"+jobID, "")
	require.Contains(t, page.body, `id="tally-hidden"`, "revealed, still hidden until the window ends")

	srv.Clock.Advance(time.Minute)
	page = getPage(t, front, "/jobs/"+jobID, "")
	require.NotContains(t, page.body, `id="tally-hidden"`)
	require.Contains(t, page.body, "1 juror</span>")
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

// TestBrowserJury commits and reveals a jury vote in headless chromium: the
// juror picks a submission, the page computes the commitment (only it is
// posted) and keeps the choice and salt in localStorage; in the reveal
// window the reveal form is filled from them and the reveal counts. The
// stored commitment is the one marketplace.CommitmentOf gives for the kept
// salt; a refused commitment does not replace the kept one.
func TestBrowserJury(t *testing.T) {
	ctx := browser(t)
	srv := openjurytest.NewServer(t)
	s := seedShowcase(t, srv)
	front := app(t, srv, s.agent)
	bg := context.Background()
	// The agent is on the sealed job's panel; the rival's submission is
	// the one it may vote for.
	v, err := srv.Market.JobView(bg, s.sealed.ID, marketplace.JobViewInput{})
	require.NoError(t, err)
	var rivalSub string
	for _, sub := range v.Submissions.Submissions {
		if sub.Agent == s.rival.Address() {
			rivalSub = sub.ID
		}
	}
	require.NotEmpty(t, rivalSub)
	u, err := url.Parse(front.URL)
	require.NoError(t, err)
	token := srv.SignIn(t, s.agent)
	key := "openjury-commit:" + s.sealed.ID + ":" + s.agent.Address().String()
	var kept struct {
		SubmissionID string `json:"submission_id"`
		Salt         string `json:"salt"`
	}
	var keptJSON, note string
	shots := screenshotDir(t)
	err = chromedp.Run(ctx,
		network.SetCookie(web.SessionCookie, token).WithDomain(u.Hostname()).WithPath("/").WithHTTPOnly(true),
		chromedp.Navigate(front.URL+"/jobs/"+s.sealed.ID),
		chromedp.WaitVisible(`#commit`),
		chromedp.SetValue(`#commit-choice`, rivalSub),
		chromedp.Evaluate(`document.querySelector('#commit-choice').dispatchEvent(new Event('change'))`, nil),
		loads("commit", chromedp.Click(`#commit button[type=submit]`)),
		chromedp.WaitVisible(`#done`),
		chromedp.Text(`#done`, &note),
		chromedp.Evaluate(`localStorage.getItem(`+jsLiteral(t, key)+`) || ''`, &keptJSON),
	)
	require.NoError(t, err)
	require.Contains(t, note, "Your commitment is recorded")
	require.NoError(t, json.Unmarshal([]byte(keptJSON), &kept), keptJSON)
	require.Equal(t, rivalSub, kept.SubmissionID)
	salt, err := openjury.ParseHash("salt", kept.Salt)
	require.NoError(t, err)
	saltBytes, err := hex.DecodeString(strings.TrimPrefix(salt.String(), "0x"))
	require.NoError(t, err)
	c, err := srv.DB.Commitments().Commitment(bg, s.sealed.ID, s.agent.Address())
	require.NoError(t, err)
	require.Equal(t, marketplace.CommitmentOf(s.sealed.ID, rivalSub, s.agent.Address(), [32]byte(saltBytes)), c.Commitment,
		"the browser's commitment is the kept choice and salt's")

	// A second commitment the server refuses (the juror's stake is gone)
	// leaves the kept one alone.
	srv.SetStake(t, s.agent.Address(), 0)
	var after string
	err = chromedp.Run(ctx,
		chromedp.Navigate(front.URL+"/jobs/"+s.sealed.ID),
		chromedp.WaitVisible(`#commit`),
		loads("a refused commit", chromedp.Click(`#commit button[type=submit]`), http.StatusForbidden),
		chromedp.WaitVisible(`#problem`),
		chromedp.Navigate(front.URL+"/jobs/"+s.sealed.ID),
		chromedp.WaitVisible(`#commit`),
		chromedp.Evaluate(`localStorage.getItem(`+jsLiteral(t, key)+`) || ''`, &after),
	)
	require.NoError(t, err)
	require.Equal(t, keptJSON, after, "a refused commitment does not replace the kept one")
	srv.SetStake(t, s.agent.Address(), 25)

	// The reveal window (a new session: the first one expired meanwhile):
	// the form is filled from the kept choice and salt.
	srv.Clock.Advance(48*time.Hour + time.Minute)
	var chosen, filled string
	err = chromedp.Run(ctx,
		network.SetCookie(web.SessionCookie, srv.SignIn(t, s.agent)).WithDomain(u.Hostname()).WithPath("/").WithHTTPOnly(true),
		chromedp.Navigate(front.URL+"/jobs/"+s.sealed.ID),
		chromedp.WaitVisible(`#reveal`),
		chromedp.Poll(`document.querySelector('#reveal-salt').value !== ''`, nil, chromedp.WithPollingTimeout(30*time.Second)),
		chromedp.Value(`#reveal-submission`, &chosen),
		chromedp.Value(`#reveal-salt`, &filled),
		screenshot(shots, "job-reveal", "#jury-panel"),
		loads("reveal", chromedp.Click(`#reveal button[type=submit]`)),
		chromedp.WaitVisible(`#done`),
		chromedp.Text(`#done`, &note),
	)
	require.NoError(t, err)
	require.Equal(t, rivalSub, chosen)
	require.Equal(t, kept.Salt, filled)
	require.Contains(t, note, "Your jury vote is revealed")
	view, err := srv.Market.JobView(bg, s.sealed.ID, marketplace.JobViewInput{Viewer: s.agent.Address()})
	require.NoError(t, err)
	require.NotNil(t, view.Vote, "the reveal counted")
	require.Equal(t, rivalSub, view.Vote.SubmissionID)
}

// TestBrowserJuryFields posts a job with its jury settings from the
// new-job form in chromium, signed in with a pasted signature: an even
// panel size is refused next to its field with every choice kept, then
// the corrected form posts a commit-reveal job with a panel of one and
// its windows, which its page shows (mode, commit and reveal ends, the
// drawn juror).
func TestBrowserJuryFields(t *testing.T) {
	ctx := browser(t)
	srv := openjurytest.NewServer(t, openjurytest.WithConfig(func(c *openjurytest.ServerConfig) { c.SemanticSearchEnabled = false }))
	sponsor, juror := openjurytest.NewWallet(t), openjurytest.NewWallet(t)
	srv.SetStake(t, juror.Address(), 20)
	srv.SetReputation(t, juror.Address(), 10)
	front := app(t, srv, sponsor).URL
	var sizeErr, keptSize, keptCommit, keptUnit, mode, commitEnds, revealEnds, draw string
	var crChecked bool
	err := chromedp.Run(ctx,
		signInByPasting(t, front, sponsor),
		chromedp.Navigate(front+"/jobs/new"),
		chromedp.WaitVisible(`#nj-jury`),
		chromedp.SendKeys(`#nj-title`, "Judged in secret"),
		chromedp.SendKeys(`#nj-prompt`, "Which source is right?"),
		chromedp.SendKeys(`#nj-bounty`, "0"),
		chromedp.Click(`label[for="nj-mode-cr"]`),
		chromedp.SendKeys(`#nj-size`, "2"),
		chromedp.SendKeys(`#nj-commit`, "60"),
		chromedp.SetValue(`#nj-commit-unit`, "minutes"),
		chromedp.SendKeys(`#nj-reveal`, "2"),
		loads("post a job (refused)", chromedp.Click(`#create-job button.primary`), http.StatusBadRequest),
		chromedp.Text(`#nj-size-err`, &sizeErr),
		chromedp.Value(`#nj-size`, &keptSize),
		chromedp.Value(`#nj-commit`, &keptCommit),
		chromedp.Value(`#nj-commit-unit`, &keptUnit),
		chromedp.Evaluate(`document.querySelector('#nj-mode-cr').checked`, &crChecked),
		chromedp.SetValue(`#nj-size`, "1"),
		loads("post a job", chromedp.Click(`#create-job button.primary`)),
		chromedp.WaitVisible(`#jury-panel`),
		chromedp.AttributeValue(`#jury-mode`, "data-mode", &mode, nil),
		chromedp.Text(`#jury-panel dd:nth-of-type(2)`, &commitEnds),
		chromedp.Text(`#jury-panel dd:nth-of-type(3)`, &revealEnds),
		chromedp.Text(`#jury-draw`, &draw),
	)
	require.NoError(t, err)
	require.Contains(t, sizeErr, "Enter an odd whole number from 1 to 101 for a drawn panel")
	require.Equal(t, "2", keptSize, "what was typed is kept")
	require.Equal(t, "60", keptCommit)
	require.Equal(t, "minutes", keptUnit)
	require.True(t, crChecked, "the mode chosen is kept")
	require.Equal(t, "commit_reveal", mode)
	require.Equal(t, "open, ends in 60 minutes", commitEnds)
	require.Equal(t, "opens when the commit ends; ends in 3 hours", revealEnds)
	require.Contains(t, draw, "1 juror drawn from 1 eligible")
	list, err := srv.Market.SponsoredJobs(context.Background(), sponsor.Address().String(), marketplace.ListInput{})
	require.NoError(t, err)
	require.Len(t, list.Jobs, 1, "only the corrected form posted a job")
	j := list.Jobs[0]
	require.Equal(t, 1, j.JurySize)
	require.Equal(t, time.Hour, j.JuryCommitEndsAt.Sub(j.CreatedAt))
	require.Equal(t, 2*time.Hour, j.JuryRevealEndsAt.Sub(*j.JuryCommitEndsAt))
}
