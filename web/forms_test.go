package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest"
)

// requireRefused checks a refusal shown on the form's own page: its
// status, the message in a person's words (in the page's error summary
// and next to the field, when field is set) and no API field name.
func requireRefused(t *testing.T, a answer, status int, field, msg string) {
	t.Helper()
	require.Equal(t, status, a.status, a.body)
	require.Equal(t, "text/html; charset=utf-8", a.header.Get("Content-Type"))
	require.Contains(t, a.body, `id="problem"`, "the page leads with its error summary")
	require.Contains(t, a.body, msg)
	if field != "" {
		require.Contains(t, a.body, `aria-invalid="true" aria-describedby="`+field+`-err"`, "the field is marked")
		require.Contains(t, a.body, `<p class="field-error" id="`+field+`-err">`+msg, "the message is next to the field")
	}
	for _, api := range []string{"bounty_usdc:", "amount_agr", "duration_hours is", "winner_submission_id", "final_vote_window_seconds"} {
		require.NotContains(t, a.body[strings.Index(a.body, `id="problem"`):], api+" ", "an API field name reached the page")
	}
}

// location is the path of a redirect, without its query and fragment.
func location(t *testing.T, a answer) string {
	t.Helper()
	require.Equal(t, http.StatusSeeOther, a.status, a.body)
	u, err := url.Parse(a.header.Get("Location"))
	require.NoError(t, err)
	return u.Path
}

// session is a signed-in browser for the form tests: its cookie value and
// CSRF token.
type session struct{ token, csrf string }

func signedIn(t *testing.T, srv *openjurytest.Server, front *httptest.Server, w *openjurytest.Wallet) session {
	t.Helper()
	token := srv.SignIn(t, w)
	return session{token: token, csrf: csrfOf(t, getPage(t, front, "/", token).body)}
}

// post posts form (with the session's CSRF token) to path.
func (s session) post(t *testing.T, front *httptest.Server, path string, form url.Values) answer {
	t.Helper()
	form.Set("csrf", s.csrf)
	return postForm(t, front, path, s.token, form)
}

func TestActionsNeedSessionAndCSRF(t *testing.T) {
	openjurytest.OnEachServer(t, func(t *testing.T, srv *openjurytest.Server) {
		sponsor, other := openjurytest.NewWallet(t), openjurytest.NewWallet(t)
		front := app(t, srv, sponsor)
		token, otherToken := srv.SignIn(t, sponsor), srv.SignIn(t, other)
		job, err := srv.Market.CreateJob(context.Background(), sponsor.Address(), marketplace.CreateJobInput{Title: "CSRF", Prompt: "p"})
		require.NoError(t, err)
		csrf := csrfOf(t, getPage(t, front, "/jobs/"+job.ID, token).body)
		otherCSRF := csrfOf(t, getPage(t, front, "/jobs/"+job.ID, otherToken).body)
		require.NotEqual(t, csrf, otherCSRF, "the token is bound to the session")

		x := openjury.NewID()
		for _, path := range []string{"/app/jobs", "/app/jobs/" + job.ID + "/comment", "/app/jobs/" + job.ID + "/final-vote",
			"/app/jobs/" + job.ID + "/boost", "/app/jobs/" + job.ID + "/close", "/app/signout", "/app/jobs/" + job.ID + "/submit",
			"/app/jobs/" + job.ID + "/vote", "/app/jobs/" + job.ID + "/finalize", "/app/submissions/" + x + "/comment",
			"/app/posts", "/app/posts/" + x + "/comment", "/app/comments/" + x + "/delete"} {
			form := url.Values{"content": {"x"}, "csrf": {csrf}, "confirm": {"yes"}}
			requireErrorPage(t, postForm(t, front, path, "", form), http.StatusUnauthorized, "Sign in with your wallet first")
			requireErrorPage(t, postForm(t, front, path, token, url.Values{"content": {"x"}}), http.StatusForbidden, "security token")
			requireErrorPage(t, postForm(t, front, path, token, url.Values{"content": {"x"}, "csrf": {"wrong"}}), http.StatusForbidden, "security token")
			requireErrorPage(t, postForm(t, front, path, token, url.Values{"content": {"x"}, "csrf": {otherCSRF}}), http.StatusForbidden, "security token")
		}
		// A CSRF token matching a dead session: the session has expired.
		dead := srv.SignIn(t, other)
		deadCSRF := csrfOf(t, getPage(t, front, "/", dead).body)
		require.NoError(t, srv.Auth.Logout(context.Background(), dead))
		a := postForm(t, front, "/app/jobs/"+job.ID+"/comment", dead, url.Values{"content": {"x"}, "csrf": {deadCSRF}})
		requireErrorPage(t, a, http.StatusUnauthorized, "session has expired")
		require.Contains(t, a.header.Get("Set-Cookie"), "Max-Age=0")

		page, err := srv.Market.Comments(context.Background(), marketplace.TargetJob, job.ID, marketplace.ListInput{})
		require.NoError(t, err)
		require.Empty(t, page.Comments, "no rejected action changed anything")
		got, err := srv.Market.Job(context.Background(), job.ID)
		require.NoError(t, err)
		require.Equal(t, marketplace.StatusOpen, got.Status)
	})
}

// TestPostJobForm: the form posts a job (tags, window); each refusal is
// shown next to its field in words, with everything typed kept.
func TestPostJobForm(t *testing.T) {
	openjurytest.OnEachServer(t, func(t *testing.T, srv *openjurytest.Server) {
		sponsor := openjurytest.NewWallet(t)
		front := app(t, srv, sponsor)
		s := signedIn(t, srv, front, sponsor)
		form := getPage(t, front, "/jobs/new", s.token).body
		require.Contains(t, form, fmt.Sprintf(`name="title" required maxlength="%d"`, marketplace.MaxTitleChars), "the form states the limit")
		require.Contains(t, getPage(t, front, "/jobs/new", "").body, `href="/signin?next=/jobs/new"`, "signed out, the page says how to sign in")

		valid := func() url.Values {
			return url.Values{"title": {"From the <form>"}, "prompt": {"Do it\nwell"}, "bounty_usdc": {"12.5"}, "tags": {" web , forms,"}, "window": {"2"}, "window_unit": {"days"}}
		}
		bad := valid()
		bad.Set("bounty_usdc", "lots")
		a := s.post(t, front, "/app/jobs", bad)
		requireRefused(t, a, http.StatusBadRequest, "nj-bounty", "Enter an amount in USDC, like 25 or 12.50.")
		require.Contains(t, a.body, `value="From the &lt;form&gt;"`, "the title typed is kept")
		require.Contains(t, a.body, ">Do it\nwell</textarea>", "the prompt typed is kept")
		require.Contains(t, a.body, `value=" web , forms,"`)
		require.Contains(t, a.body, `<option value="days" selected>`)

		bad = valid()
		bad.Set("title", strings.Repeat("t", marketplace.MaxTitleChars+1))
		requireRefused(t, s.post(t, front, "/app/jobs", bad), http.StatusBadRequest, "nj-title", fmt.Sprintf("Use at most %d characters (this has %d).", marketplace.MaxTitleChars, marketplace.MaxTitleChars+1))
		bad.Set("title", "  ")
		requireRefused(t, s.post(t, front, "/app/jobs", bad), http.StatusBadRequest, "nj-title", "Give it a title.")
		bad = valid()
		bad.Set("window", "soon")
		requireRefused(t, s.post(t, front, "/app/jobs", bad), http.StatusBadRequest, "nj-window", "Enter a whole number from 1 minute to 30 days")
		bad = valid()
		bad.Set("tags", strings.Repeat("x", marketplace.MaxTagChars+1))
		requireRefused(t, s.post(t, front, "/app/jobs", bad), http.StatusBadRequest, "nj-tags", "Each tag has 1 to 32 characters.")
		list, err := srv.Market.ListJobs(context.Background(), marketplace.ListJobsInput{})
		require.NoError(t, err)
		require.Empty(t, list.Jobs, "no refused form posted anything")

		a = s.post(t, front, "/app/jobs", valid())
		path := location(t, a)
		require.Contains(t, a.header.Get("Location"), "ok=posted")
		job, err := srv.Market.Job(context.Background(), strings.TrimPrefix(path, "/jobs/"))
		require.NoError(t, err)
		require.Equal(t, "From the <form>", job.Title)
		require.Equal(t, sponsor.Address(), job.Sponsor)
		require.Equal(t, []string{"web", "forms"}, job.Tags)
		require.Equal(t, "12.5", job.Bounty.String())
		require.Equal(t, 48*time.Hour, job.FinalVoteEndsAt.Sub(job.CreatedAt))
		page := getPage(t, front, a.header.Get("Location"), s.token).body
		require.Contains(t, page, "Your job is posted.")
		require.Contains(t, getPage(t, front, "/", "").body, "From the &lt;form&gt;")

		// Bodies over the limit are refused before anything else.
		requireErrorPage(t, s.post(t, front, "/app/jobs", url.Values{"prompt": {strings.Repeat("p", 2<<20)}}), http.StatusRequestEntityTooLarge, "too large")
	})
}

// TestPostJobJuryForm: the jury fields of the new-job form reach the job
// (commit-reveal, panel size, both windows), and each refusal of them is
// shown next to its field in words, with what was chosen kept.
func TestPostJobJuryForm(t *testing.T) {
	openjurytest.OnEachServer(t, func(t *testing.T, srv *openjurytest.Server) {
		sponsor, juror := openjurytest.NewWallet(t), openjurytest.NewWallet(t)
		srv.SetStake(t, juror.Address(), 20)
		srv.SetReputation(t, juror.Address(), 10)
		front := app(t, srv, sponsor)
		s := signedIn(t, srv, front, sponsor)
		form := getPage(t, front, "/jobs/new", s.token).body
		for _, field := range []string{`name="jury_mode" value="open" checked`, `name="jury_mode" value="commit_reveal"`, `name="jury_size"`,
			`name="jury_commit"`, `name="jury_commit_unit"`, `name="jury_reveal"`, `name="jury_reveal_unit"`} {
			require.Contains(t, form, field)
		}
		valid := func() url.Values {
			return url.Values{"title": {"Judged in secret"}, "prompt": {"p"}, "bounty_usdc": {"0"}, "jury_mode": {"commit_reveal"}, "jury_size": {"1"},
				"jury_commit": {"90"}, "jury_commit_unit": {"minutes"}, "jury_reveal": {"2"}, "jury_reveal_unit": {"days"}}
		}
		for _, c := range []struct{ field, value, id, msg string }{
			{"jury_size", "4", "nj-size", "Enter an odd whole number from 1 to 101 for a drawn panel"},
			{"jury_size", "many", "nj-size", "Enter an odd whole number from 1 to 101 for a drawn panel"},
			{"jury_commit", "0", "nj-commit", "Enter a whole number from 1 minute to 30 days"},
			{"jury_reveal", "31", "nj-reveal", "Enter a whole number from 1 minute to 30 days"},
		} {
			bad := valid()
			bad.Set(c.field, c.value)
			a := s.post(t, front, "/app/jobs", bad)
			requireRefused(t, a, http.StatusBadRequest, c.id, c.msg)
			require.Contains(t, a.body, `value="commit_reveal" checked`, "the mode chosen is kept")
			require.Contains(t, a.body, `name="jury_size" inputmode="numeric" size="4" value="`+bad.Get("jury_size")+`"`, "the size typed is kept")
			require.Contains(t, a.body, `name="jury_commit" inputmode="numeric" size="6" value="`+bad.Get("jury_commit")+`"`)
		}
		// Windows without commit-reveal, and a mode the form does not offer.
		bad := valid()
		bad.Set("jury_mode", "open")
		a := s.post(t, front, "/app/jobs", bad)
		requireRefused(t, a, http.StatusBadRequest, "nj-commit", "This window is for a commit-reveal jury only: choose commit-reveal above, or leave it empty.")
		require.Contains(t, a.body, `value="open" checked`)
		bad.Set("jury_mode", "secret")
		a = s.post(t, front, "/app/jobs", bad)
		require.Equal(t, http.StatusBadRequest, a.status, a.body)
		require.Contains(t, a.body, `<p class="field-error" id="nj-mode-err">Choose open votes or commit-reveal.`)
		list, err := srv.Market.ListJobs(context.Background(), marketplace.ListJobsInput{})
		require.NoError(t, err)
		require.Empty(t, list.Jobs, "no refused form posted anything")

		a = s.post(t, front, "/app/jobs", valid())
		job, err := srv.Market.Job(context.Background(), strings.TrimPrefix(location(t, a), "/jobs/"))
		require.NoError(t, err)
		require.Equal(t, marketplace.JuryCommitReveal, job.JuryMode)
		require.Equal(t, 1, job.JurySize)
		require.Equal(t, 90*time.Minute, job.JuryCommitEndsAt.Sub(job.CreatedAt))
		require.Equal(t, 48*time.Hour, job.JuryRevealEndsAt.Sub(*job.JuryCommitEndsAt))
		page := getPage(t, front, a.header.Get("Location"), s.token).body
		require.Contains(t, page, `id="jury-mode" data-mode="commit_reveal"`)
		require.Contains(t, page, `href="/agents/`+juror.Address().String()+`"`, "the panel of one is drawn")
	})
}

// TestSubmitForm: work with evidence rows (empty rows skipped, a bad one
// shown on its own row), "add an evidence item" without JavaScript, and
// the refusals of the stake and sponsor rules in words.
func TestSubmitForm(t *testing.T) {
	openjurytest.OnEachServer(t, func(t *testing.T, srv *openjurytest.Server) {
		ctx := context.Background()
		sponsor, agent := openjurytest.NewWallet(t), openjurytest.NewWallet(t)
		front := app(t, srv, sponsor)
		job, err := srv.Market.CreateJob(ctx, sponsor.Address(), marketplace.CreateJobInput{Title: "Work", Prompt: "p"})
		require.NoError(t, err)
		s, sp := signedIn(t, srv, front, agent), signedIn(t, srv, front, sponsor)
		path := "/app/jobs/" + job.ID + "/submit"
		rows := func() url.Values {
			return url.Values{"content": {"My answer\nin detail"},
				"ev_url": {"https://example.com/a", "", "ftp://nope"}, "ev_type": {"web", "", "document"},
				"ev_quote": {"quoted", "", ""}, "ev_claim": {"claim", "", ""}, "ev_confidence": {"80%", "", ""}}
		}
		staked := rows()
		staked["ev_url"][2] = "https://example.com/c"
		requireRefused(t, s.post(t, front, path, staked), http.StatusForbidden, "",
			fmt.Sprintf("You need at least %s USDC staked to do this.", openjury.MicroUSDC(openjurytest.DefaultMinStake)))
		srv.SetStake(t, agent.Address(), 10)
		a := s.post(t, front, path, rows())
		requireRefused(t, a, http.StatusBadRequest, "ev-url-2", "Enter a web address that starts with http:// or https://.")
		require.Contains(t, a.body, `value="ftp://nope"`, "the row keeps what was typed")
		require.Contains(t, a.body, ">My answer\nin detail</textarea>")

		more := rows()
		more.Set("more_evidence", "1")
		a = s.post(t, front, path, more)
		require.Equal(t, http.StatusOK, a.status, "adding a row is not a refusal")
		require.Contains(t, a.body, `id="ev-url-3"`, "one more row")
		require.NotContains(t, a.body, `id="ev-url-4"`)
		page, err := srv.Market.Submissions(ctx, job.ID, marketplace.ListInput{})
		require.NoError(t, err)
		require.Empty(t, page.Submissions)

		good := rows()
		good["ev_url"][2] = "https://example.com/c"
		a = s.post(t, front, path, good)
		require.Equal(t, "/jobs/"+job.ID, location(t, a))
		page, err = srv.Market.Submissions(ctx, job.ID, marketplace.ListInput{})
		require.NoError(t, err)
		require.Len(t, page.Submissions, 1)
		sub := page.Submissions[0]
		require.Equal(t, agent.Address(), sub.Agent)
		require.Len(t, sub.Evidence, 2, "the empty row is left out")
		require.Equal(t, 0.8, *sub.Evidence[0].Confidence)
		require.Equal(t, "document", sub.Evidence[1].Type)
		require.True(t, strings.HasSuffix(a.header.Get("Location"), "#s-"+sub.ID))
		jobPage := getPage(t, front, "/jobs/"+job.ID, "").body
		require.Contains(t, jobPage, ">My answer</a>", "a submission is named by its first line")

		srv.SetStake(t, sponsor.Address(), 10)
		requireRefused(t, sp.post(t, front, path, url.Values{"content": {"mine"}}), http.StatusForbidden, "", "You posted this job, so you cannot submit work to it.")
		requireRefused(t, s.post(t, front, path, url.Values{"content": {" "}}), http.StatusBadRequest, "sub-content", "Write something first.")
	})
}

// TestVotesAndClose: a jury vote (refused without reputation, then cast,
// marked, changed), a final vote, and the sponsor's close behind its
// confirmation page; others cannot close.
func TestVotesAndClose(t *testing.T) {
	openjurytest.OnEachServer(t, func(t *testing.T, srv *openjurytest.Server) {
		ctx := context.Background()
		sponsor, a1, a2, juror := openjurytest.NewWallet(t), openjurytest.NewWallet(t), openjurytest.NewWallet(t), openjurytest.NewWallet(t)
		front := app(t, srv, sponsor)
		for _, w := range []*openjurytest.Wallet{a1, a2, juror, sponsor} {
			srv.SetStake(t, w.Address(), 10)
		}
		job, err := srv.Market.CreateJob(ctx, sponsor.Address(), marketplace.CreateJobInput{Title: "Vote on it", Prompt: "p"})
		require.NoError(t, err)
		s1, err := srv.Market.Submit(ctx, a1.Address(), marketplace.SubmitInput{JobID: job.ID, Content: "First answer"})
		require.NoError(t, err)
		s2, err := srv.Market.Submit(ctx, a2.Address(), marketplace.SubmitInput{JobID: job.ID, Content: "Second answer"})
		require.NoError(t, err)
		j, sp := signedIn(t, srv, front, juror), signedIn(t, srv, front, sponsor)
		vote := "/app/jobs/" + job.ID + "/vote"

		a := j.post(t, front, vote, url.Values{"submission_id": {s1.ID}})
		requireRefused(t, a, http.StatusForbidden, "", "Jury votes need a reputation score of at least 10.")
		require.Contains(t, a.body, `<p class="form-error" role="alert">Jury votes need`, "next to the button")
		srv.SetReputation(t, juror.Address(), 30)
		require.Equal(t, "/jobs/"+job.ID, location(t, j.post(t, front, vote, url.Values{"submission_id": {s1.ID}})))
		page := getPage(t, front, "/jobs/"+job.ID, j.token).body
		require.Contains(t, page, "You cast your jury vote for this")
		require.Contains(t, page, `<span class="badge mine">Your vote</span>`)
		require.Contains(t, page, "“First answer”", "the tally names the submission, not its id")
		require.Equal(t, 1, strings.Count(page, `class="btn jury-vote"`), "only the other submission offers a vote")
		require.Equal(t, "/jobs/"+job.ID, location(t, j.post(t, front, vote, url.Values{"submission_id": {s2.ID}})))
		tally, err := srv.Market.VotingSummary(ctx, job.ID)
		require.NoError(t, err)
		require.Len(t, tally, 1)
		require.Equal(t, s2.ID, tally[0].SubmissionID, "the vote moved")
		srv.SetReputation(t, sponsor.Address(), 30)
		requireRefused(t, sp.post(t, front, vote, url.Values{"submission_id": {s1.ID}}), http.StatusForbidden, "", "You posted this job, so you cannot cast jury votes on it.")

		require.Equal(t, "/jobs/"+job.ID, location(t, j.post(t, front, "/app/jobs/"+job.ID+"/final-vote", url.Values{"submission_id": {s2.ID}})))
		require.Contains(t, getPage(t, front, "/jobs/"+job.ID, j.token).body, "You cast your final vote for this")

		// Close: a confirmation page first; only the sponsor.
		closeURL := "/app/jobs/" + job.ID + "/close"
		a = j.post(t, front, closeURL, url.Values{"submission_id": {s1.ID}})
		requireRefused(t, a, http.StatusForbidden, "", "Only the job&#39;s sponsor can close it.")
		a = sp.post(t, front, closeURL, url.Values{"submission_id": {s1.ID}})
		require.Equal(t, http.StatusOK, a.status)
		require.Contains(t, a.body, "Close “Vote on it” with this winner?")
		require.Contains(t, a.body, "“First answer” by "+a1.Address().String())
		require.Contains(t, a.body, `name="confirm" value="yes"`)
		got, err := srv.Market.Job(ctx, job.ID)
		require.NoError(t, err)
		require.Equal(t, marketplace.StatusOpen, got.Status, "nothing closes before the confirmation")
		a = sp.post(t, front, closeURL, url.Values{"submission_id": {s1.ID}, "confirm": {"yes"}})
		require.Equal(t, "/jobs/"+job.ID, location(t, a))
		got, err = srv.Market.Job(ctx, job.ID)
		require.NoError(t, err)
		require.Equal(t, marketplace.StatusClosed, got.Status)
		require.Equal(t, s1.ID, got.WinnerSubmissionID)
		page = getPage(t, front, "/jobs/"+job.ID, "").body
		require.Contains(t, page, `<span class="badge winner">Winner</span>`)
		require.Contains(t, page, `id="winner"`)
		requireRefused(t, sp.post(t, front, closeURL, url.Values{"submission_id": {s1.ID}, "confirm": {"yes"}}), http.StatusConflict, "", "This job is closed")
	})
}

// TestFinalizeForm: finalize is refused in words while the window is
// open, then closes the job with the final votes' winner.
func TestFinalizeForm(t *testing.T) {
	openjurytest.OnEachServer(t, func(t *testing.T, srv *openjurytest.Server) {
		ctx := context.Background()
		sponsor, agent, voter := openjurytest.NewWallet(t), openjurytest.NewWallet(t), openjurytest.NewWallet(t)
		front := app(t, srv, sponsor)
		srv.SetStake(t, agent.Address(), 10)
		srv.SetStake(t, voter.Address(), 10)
		window := int64(60)
		job, err := srv.Market.CreateJob(ctx, sponsor.Address(), marketplace.CreateJobInput{Title: "Short window", Prompt: "p", FinalVoteWindowSeconds: &window})
		require.NoError(t, err)
		sub, err := srv.Market.Submit(ctx, agent.Address(), marketplace.SubmitInput{JobID: job.ID, Content: "Done"})
		require.NoError(t, err)
		v := signedIn(t, srv, front, voter)
		require.Equal(t, "/jobs/"+job.ID, location(t, v.post(t, front, "/app/jobs/"+job.ID+"/final-vote", url.Values{"submission_id": {sub.ID}})))
		require.NotContains(t, getPage(t, front, "/jobs/"+job.ID, v.token).body, `id="finalize"`, "no finalize while the window is open")
		requireRefused(t, v.post(t, front, "/app/jobs/"+job.ID+"/finalize", url.Values{}), http.StatusConflict, "", "The final vote is still open")

		srv.Clock.Advance(2 * time.Minute)
		page := getPage(t, front, "/jobs/"+job.ID, v.token).body
		require.Contains(t, page, `id="finalize"`)
		require.Contains(t, page, "ready to finalize")
		require.Equal(t, "/jobs/"+job.ID, location(t, v.post(t, front, "/app/jobs/"+job.ID+"/finalize", url.Values{})))
		got, err := srv.Market.Job(ctx, job.ID)
		require.NoError(t, err)
		require.Equal(t, marketplace.StatusClosed, got.Status)
		require.Equal(t, sub.ID, got.WinnerSubmissionID)
	})
}

// TestBoostForm: a boost without enough AGR says the balance next to the
// amount; a bad number is refused in words; a boost features the job.
func TestBoostForm(t *testing.T) {
	openjurytest.OnEachServer(t, func(t *testing.T, srv *openjurytest.Server) {
		sponsor := openjurytest.NewWallet(t)
		front := app(t, srv, sponsor)
		job, err := srv.Market.CreateJob(context.Background(), sponsor.Address(), marketplace.CreateJobInput{Title: "Boost me", Prompt: "p"})
		require.NoError(t, err)
		s := signedIn(t, srv, front, sponsor)
		path := "/app/jobs/" + job.ID + "/boost"
		jobPage := getPage(t, front, "/jobs/"+job.ID, s.token).body
		require.Contains(t, jobPage, fmt.Sprintf(`name="amount_agr" type="number" min="1" max="%d"`, marketplace.MaxBoostAGR))
		require.Contains(t, jobPage, fmt.Sprintf(`name="duration_hours" type="number" min="1" max="%d"`, marketplace.MaxBoostHours))
		a := s.post(t, front, path, url.Values{"amount_agr": {"5"}, "duration_hours": {"24"}})
		requireRefused(t, a, http.StatusPaymentRequired, "boost-amount", "You have 0 AGR: this boost needs 5.")
		require.Contains(t, a.body, `<details class="boost" open>`, "the boost form is open to show it")
		requireRefused(t, s.post(t, front, path, url.Values{"amount_agr": {"five"}, "duration_hours": {"24"}}), http.StatusBadRequest, "boost-amount", "Enter a whole number, like 24.")
		requireRefused(t, s.post(t, front, path, url.Values{"amount_agr": {"5"}, "duration_hours": {"0"}}), http.StatusBadRequest, "boost-hours",
			fmt.Sprintf("Enter a whole number of hours from 1 to %d.", marketplace.MaxBoostHours))
		srv.MintAGR(t, sponsor.Address(), 10)
		require.Equal(t, "/jobs/"+job.ID, location(t, s.post(t, front, path, url.Values{"amount_agr": {"5"}, "duration_hours": {"24"}})))
		require.Contains(t, getPage(t, front, "/", "").body, `<span class="badge featured">Featured</span>`)
		require.Contains(t, getPage(t, front, "/jobs/"+job.ID, "").body, `id="featured"`)
	})
}

// TestCommentForms: comments and threaded replies on a job, a submission
// and a post; a reply across discussions is refused in words; one's own
// comment is deleted behind a confirmation, another's is not.
func TestCommentForms(t *testing.T) {
	openjurytest.OnEachServer(t, func(t *testing.T, srv *openjurytest.Server) {
		ctx := context.Background()
		sponsor, agent, other := openjurytest.NewWallet(t), openjurytest.NewWallet(t), openjurytest.NewWallet(t)
		front := app(t, srv, sponsor)
		srv.SetStake(t, agent.Address(), 10)
		job, err := srv.Market.CreateJob(ctx, sponsor.Address(), marketplace.CreateJobInput{Title: "Talk", Prompt: "p"})
		require.NoError(t, err)
		sub, err := srv.Market.Submit(ctx, agent.Address(), marketplace.SubmitInput{JobID: job.ID, Content: "Answer"})
		require.NoError(t, err)
		s, o := signedIn(t, srv, front, sponsor), signedIn(t, srv, front, other)
		jobPath := "/jobs/" + job.ID

		a := s.post(t, front, "/app/jobs/"+job.ID+"/comment", url.Values{"content": {"Nice & <b>tidy</b>"}, "back": {jobPath}})
		require.Equal(t, jobPath, location(t, a))
		first, err := srv.Market.Comments(ctx, marketplace.TargetJob, job.ID, marketplace.ListInput{})
		require.NoError(t, err)
		parent := first.Comments[0]
		require.True(t, strings.HasSuffix(a.header.Get("Location"), "#c-"+parent.ID))
		require.Equal(t, jobPath, location(t, o.post(t, front, "/app/jobs/"+job.ID+"/comment", url.Values{"content": {"A reply"}, "parent_id": {parent.ID}, "back": {jobPath}})))
		page := getPage(t, front, jobPath, "").body
		require.Contains(t, page, "Nice &amp; &lt;b&gt;tidy&lt;/b&gt;")
		require.Contains(t, page, `<li class="comment d1"`, "the reply is indented")

		// On the submission, from the job page: back to the job page.
		a = o.post(t, front, "/app/submissions/"+sub.ID+"/comment", url.Values{"content": {"On the answer"}, "back": {jobPath}})
		require.Equal(t, jobPath, location(t, a))
		require.Contains(t, getPage(t, front, jobPath, "").body, "On the answer", "the job page shows a submission's comments")
		require.Contains(t, getPage(t, front, "/submissions/"+sub.ID, "").body, "On the answer")
		a = o.post(t, front, "/app/submissions/"+sub.ID+"/comment", url.Values{"content": {"x"}, "parent_id": {parent.ID}})
		requireRefused(t, a, http.StatusBadRequest, "", "You can only reply to a comment in the same discussion.")
		requireRefused(t, o.post(t, front, "/app/jobs/"+job.ID+"/comment", url.Values{"content": {""}}), http.StatusBadRequest, "comment-"+job.ID+"-text", "Write something first.")
		// An external back is not followed.
		a = o.post(t, front, "/app/jobs/"+job.ID+"/comment", url.Values{"content": {"y"}, "back": {"//evil.example/x"}})
		require.Equal(t, jobPath, location(t, a))

		// Delete: another's comment is refused; one's own after confirming.
		requireErrorPage(t, o.post(t, front, "/app/comments/"+parent.ID+"/delete", url.Values{"confirm": {"yes"}, "back": {jobPath}}), http.StatusForbidden, "You can only delete your own comments.")
		a = s.post(t, front, "/app/comments/"+parent.ID+"/delete", url.Values{"back": {jobPath}})
		require.Equal(t, http.StatusOK, a.status)
		require.Contains(t, a.body, "Delete this comment?")
		require.Contains(t, a.body, "This cannot be undone.")
		a = s.post(t, front, "/app/comments/"+parent.ID+"/delete", url.Values{"back": {jobPath}, "confirm": {"yes"}})
		require.Equal(t, jobPath, location(t, a))
		page = getPage(t, front, jobPath, s.token).body
		require.NotContains(t, page, "tidy")
		require.Contains(t, page, "This comment was deleted.")
		require.Contains(t, page, "A reply", "its replies stay")

		// Posts.
		requireRefused(t, s.post(t, front, "/app/posts", url.Values{"title": {""}, "content": {"Body kept"}}), http.StatusBadRequest, "np-title", "Give it a title.")
		a = s.post(t, front, "/app/posts", url.Values{"title": {"Hello"}, "content": {"World"}, "tags": {"news"}})
		postPath := location(t, a)
		require.True(t, strings.HasPrefix(postPath, "/posts/"))
		require.Equal(t, postPath, location(t, o.post(t, front, "/app"+postPath+"/comment", url.Values{"content": {"Welcome"}, "back": {postPath}})))
		page = getPage(t, front, postPath, "").body
		require.Contains(t, page, "World")
		require.Contains(t, page, "Welcome")
		require.Contains(t, getPage(t, front, "/posts?tag=news", "").body, ">Hello</a>")
	})
}
