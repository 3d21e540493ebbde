package web_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/stake"
	"github.com/openjury/openjury/web"
	"github.com/stretchr/testify/require"
)

// chromiumPath returns Debian's chromium (or $CHROMIUM). Outside CI a
// missing browser skips the test loudly; with CI set it fails.
func chromiumPath(t *testing.T) string {
	t.Helper()
	path := os.Getenv("CHROMIUM")
	if path == "" {
		path = "/usr/bin/chromium"
	}
	if _, err := exec.LookPath(path); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("chromium not found at %s (CI must run the browser tests; .ci/run installs it)", path)
		}
		t.Skipf("SKIPPED: chromium not found at %s: the browser end-to-end test did not run (apt-get install chromium)", path)
	}
	return path
}

// browser starts a headless chromium with a fresh profile and returns its
// context (cancelled at cleanup).
func browser(t *testing.T) context.Context {
	t.Helper()
	// Chromium's helper processes may still be writing to the profile when
	// the browser is cancelled, so the profile is removed with retries (and
	// left behind with a log line rather than failing the test); this
	// cleanup is registered first, so it runs after the browser's.
	profile, err := os.MkdirTemp("", "openjury-chromium-")
	require.NoError(t, err)
	t.Cleanup(func() {
		for range 50 {
			if os.RemoveAll(profile) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Logf("could not remove the chromium profile %s", profile)
	})
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath(t)),
		chromedp.Flag("headless", true), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true), chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(profile), chromedp.WindowSize(1200, 900),
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(acancel)
	// The protocol bindings lag Debian's chromium: events with newer enum
	// values fail to decode; they are irrelevant here, so only the rest is
	// logged.
	bctx, bcancel := chromedp.NewContext(actx, chromedp.WithErrorf(func(format string, args ...any) {
		if !strings.Contains(format, "unmarshal event") {
			t.Logf(format, args...)
		}
	}))
	t.Cleanup(bcancel)
	require.NoError(t, chromedp.Run(bctx))
	return bctx
}

// screenshotDir is $OPENJURY_SCREENSHOTS or a temp dir.
func screenshotDir(t *testing.T) string {
	if d := os.Getenv("OPENJURY_SCREENSHOTS"); d != "" {
		require.NoError(t, os.MkdirAll(d, 0o755))
		return d
	}
	return t.TempDir()
}

func screenshot(dir, name string) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		var buf []byte
		if err := chromedp.FullScreenshot(&buf, 80).Do(ctx); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, name+".jpg"), buf, 0o644)
	})
}

// testWallet is window.ethereum backed by the test server's /test/sign,
// which signs with an openjurytest Wallet key.
const testWallet = `window.ethereum = { request: async ({ method, params }) => {
  if (method === 'eth_requestAccounts') return [%q];
  if (method === 'personal_sign') { const r = await fetch('/test/sign', { method: 'POST', body: params[0] }); return r.text(); }
  throw new Error('unsupported ' + method);
} };`

// app serves the web app, the JSON API of srv and the test-only signing
// endpoint of wallet, composed as host composes them.
func app(t *testing.T, srv *openjurytest.Server, wallet *openjurytest.Wallet) *httptest.Server {
	t.Helper()
	pages := web.NewHandler(web.Services{Market: srv.Market, Auth: srv.Auth, Stake: srv.Stake, AGR: srv.AGR, Clock: srv.Clock})
	api := srv.HTTP.Config.Handler
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/test/sign":
			msg, _ := io.ReadAll(r.Body)
			_, _ = io.WriteString(w, wallet.Sign(t, string(msg)))
		case strings.HasPrefix(r.URL.Path, "/api/"):
			api.ServeHTTP(w, r)
		default:
			pages.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(front.Close)
	return front
}

// loads runs action (a click that submits a form or signs in) and waits,
// at most a minute, for the page it leads to, which must answer 200: the
// next step then never looks at the page being left. Errors name the step
// (what), so a hang says where it was.
func loads(what string, action chromedp.Action) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		ctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		resp, err := chromedp.RunResponse(ctx, action)
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		if resp == nil || resp.Status != http.StatusOK {
			return fmt.Errorf("%s: the page after the action did not answer 200: %+v", what, resp)
		}
		return nil
	})
}

func TestBrowserEndToEnd(t *testing.T) {
	ctx := browser(t)
	srv := openjurytest.NewServer(t)
	sponsor, agent := openjurytest.NewWallet(t), openjurytest.NewWallet(t)
	bg := context.Background()
	job, err := srv.Market.CreateJob(bg, sponsor.Address(), marketplace.CreateJobInput{Title: "Browser <job>", Prompt: "Do it", Tags: []string{"e2e"}})
	require.NoError(t, err)
	_, err = srv.Stake.DevSet(bg, stake.SetInput{Address: agent.Address(), Staked: openjurytest.DefaultMinStake})
	require.NoError(t, err)
	// The sponsor casts a final vote below: final votes need stake too.
	_, err = srv.Stake.DevSet(bg, stake.SetInput{Address: sponsor.Address(), Staked: openjurytest.DefaultMinStake})
	require.NoError(t, err)
	sub, err := srv.Market.Submit(bg, agent.Address(), marketplace.SubmitInput{JobID: job.ID, Content: "My work"})
	require.NoError(t, err)
	srv.MintAGR(t, sponsor.Address(), 20) // for the boost
	front := app(t, srv, sponsor)
	shots := screenshotDir(t)

	// Sign in on the job list and post a job with its form.
	const posted = "Posted from the browser"
	var who string
	err = chromedp.Run(ctx,
		chromedp.ActionFunc(func(ctx context.Context) error {
			_, err := page.AddScriptToEvaluateOnNewDocument(fmt.Sprintf(testWallet, sponsor.Address().String())).Do(ctx)
			return err
		}),
		chromedp.Navigate(front.URL+"/"),
		chromedp.WaitVisible(`a[href="/jobs/`+job.ID+`"]`),
		screenshot(shots, "jobs"),
		chromedp.WaitVisible(`#signin`),
		loads("sign in", chromedp.Click(`#signin`)),
		chromedp.WaitVisible(`#create-job`),
		chromedp.Text(`#who`, &who),
		chromedp.SendKeys(`#nj-title`, posted),
		chromedp.SendKeys(`#nj-prompt`, "Write it up"),
		chromedp.SendKeys(`#nj-bounty`, "3.5"),
		chromedp.SendKeys(`#nj-tags`, "e2e, forms"),
		loads("post a job", chromedp.Click(`#create-job button`)),
		chromedp.WaitVisible(`//a[text()="`+posted+`"]`, chromedp.BySearch),
	)
	require.NoError(t, err)
	require.Equal(t, "Signed in as "+sponsor.Address().String(), who)
	list, err := srv.Market.ListJobs(bg, marketplace.ListJobsInput{})
	require.NoError(t, err)
	var newJob *marketplace.Job
	for _, j := range list.Jobs {
		if j.Title == posted {
			newJob = j
		}
	}
	require.NotNil(t, newJob, "the posted job is listed")
	require.Equal(t, sponsor.Address(), newJob.Sponsor)
	require.Equal(t, []string{"e2e", "forms"}, newJob.Tags)

	// Boost it and see it marked featured in the list.
	var featured bool
	err = chromedp.Run(ctx,
		chromedp.Navigate(front.URL+"/jobs/"+newJob.ID),
		chromedp.WaitVisible(`#boost-form`),
		chromedp.SendKeys(`#boost-amount`, "5"),
		loads("boost", chromedp.Click(`#boost-form button`)),
		chromedp.WaitVisible(`#featured`),
		chromedp.Navigate(front.URL+"/"),
		chromedp.WaitVisible(`#create-job`),
		chromedp.Evaluate(`!!document.querySelector('a[href="/jobs/`+newJob.ID+`"]').parentElement.querySelector('.featured')`, &featured),
		screenshot(shots, "jobs-featured"),
	)
	require.NoError(t, err)
	require.True(t, featured, "the boosted job is marked featured")
	boosted, err := srv.Market.Job(bg, newJob.ID)
	require.NoError(t, err)
	require.NotNil(t, boosted.FeaturedUntil)
	bal, err := srv.AGR.Status(bg, sponsor.Address().String())
	require.NoError(t, err)
	require.EqualValues(t, 15, bal.Balance, "the boost spent 5 AGR")

	// Final vote, comment, close as the sponsor, then verify the anchor.
	var status, winner, comment, final, countdown, verified string
	snapshot := `a[href="/api/v1/jobs/` + job.ID + `/anchor/snapshot"]`
	err = chromedp.Run(ctx,
		chromedp.Navigate(front.URL+"/jobs/"+job.ID),
		chromedp.WaitReady(`#job-status`),
		chromedp.Poll(`document.querySelector('.countdown').textContent !== ''`, nil),
		chromedp.Text(`.countdown`, &countdown),
		chromedp.WaitVisible(`.final-vote[data-submission="`+sub.ID+`"]`),
		loads("final vote", chromedp.Click(`.final-vote[data-submission="`+sub.ID+`"]`)),
		chromedp.WaitVisible(`section[aria-labelledby="final"] .tally`),
		chromedp.Text(`section[aria-labelledby="final"] .tally`, &final),
		chromedp.WaitVisible(`#comment`),
		chromedp.SendKeys(`#comment`, "Looks good <b>to me</b>"),
		loads("comment", chromedp.Click(`#comment-form button`)),
		chromedp.WaitVisible(`.comment`),
		chromedp.Text(`.comment .pre`, &comment),
		chromedp.WaitVisible(`.close-job[data-submission="`+sub.ID+`"]`),
		screenshot(shots, "job"),
		loads("close", chromedp.Click(`.close-job[data-submission="`+sub.ID+`"]`)),
		chromedp.WaitVisible(`#winner`),
		chromedp.Text(`#winner`, &winner),
		chromedp.Text(`#job-status`, &status),
		chromedp.WaitVisible(snapshot),
		chromedp.WaitVisible(`#verify-anchor`),
		chromedp.Click(`#verify-anchor`),
		chromedp.WaitVisible(`#verify-result.verified`),
		chromedp.Text(`#verify-result`, &verified),
		screenshot(shots, "job-closed"),
		chromedp.Navigate(front.URL+"/leaderboard"),
		chromedp.WaitVisible(`h1`),
		screenshot(shots, "leaderboard"),
		chromedp.Navigate(front.URL+"/agents/"+agent.Address().String()),
		chromedp.WaitVisible(`h1`),
		screenshot(shots, "profile"),
		loads("sign out", chromedp.Click(`#signout`)),
		chromedp.WaitVisible(`#signin`),
	)
	require.NoError(t, err)
	// The countdown runs on the browser's clock, the window on the test's.
	switch now := time.Now(); {
	case now.Before(job.FinalVoteStartsAt):
		require.Contains(t, countdown, "(opens in ")
	case now.Before(job.FinalVoteEndsAt):
		require.Contains(t, countdown, "(closes in ")
	default:
		require.Equal(t, "(closed)", countdown)
	}
	require.Contains(t, final, "1 voters")
	require.Equal(t, "Looks good <b>to me</b>", comment)
	require.Equal(t, sub.ID, winner)
	require.Equal(t, string(marketplace.StatusClosed), status)

	got, err := srv.Market.Job(bg, job.ID)
	require.NoError(t, err)
	require.Equal(t, sub.ID, got.WinnerSubmissionID)
	require.NotNil(t, got.Anchor)
	require.Contains(t, verified, "Verified: ")
	require.Contains(t, verified, string(got.Anchor.Root))
	page, err := srv.Market.Comments(bg, marketplace.TargetJob, job.ID, marketplace.ListInput{})
	require.NoError(t, err)
	require.Len(t, page.Comments, 1)
	require.Equal(t, sponsor.Address(), page.Comments[0].Author)
}
