package web_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/web"
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
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
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

// signer holds the test wallets the page's injected provider and the test
// signing endpoint act for, and which one is current.
type signer struct {
	mu      sync.Mutex
	wallets map[openjury.Address]*openjurytest.Wallet
	current openjury.Address
}

func newSigner(ws ...*openjurytest.Wallet) *signer {
	s := &signer{wallets: map[openjury.Address]*openjurytest.Wallet{}}
	for _, w := range ws {
		s.wallets[w.Address()] = w
	}
	if len(ws) > 0 {
		s.current = ws[0].Address()
	}
	return s
}

// use makes w the wallet the provider answers for.
func (s *signer) use(w *openjurytest.Wallet) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.wallets[w.Address()] = w
	s.current = w.Address()
}

func (s *signer) wallet() *openjurytest.Wallet {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.wallets[s.current]
}

// app serves the web app, the JSON API of srv and the test-only signing
// endpoints of wallet, composed as the host composes them.
func app(t *testing.T, srv *openjurytest.Server, wallet *openjurytest.Wallet) *httptest.Server {
	return appWith(t, srv, newSigner(wallet))
}

// appWith is app with the signer's wallets: /test/account answers the
// current wallet's address, /test/sign signs the body with it.
func appWith(t *testing.T, srv *openjurytest.Server, sg *signer) *httptest.Server {
	t.Helper()
	pages := web.NewHandler(web.Services{Market: srv.Market, Auth: srv.Auth, Stake: srv.Stake, AGR: srv.AGR, Search: srv.Search, Clock: srv.Clock})
	api := srv.HTTP.Config.Handler
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/test/account":
			_, _ = io.WriteString(w, sg.wallet().Address().Checksum())
		case r.URL.Path == "/test/sign":
			msg, _ := io.ReadAll(r.Body)
			_, _ = io.WriteString(w, sg.wallet().Sign(t, string(msg)))
		case strings.HasPrefix(r.URL.Path, "/api/"):
			api.ServeHTTP(w, r)
		default:
			pages.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(front.Close)
	return front
}

// testWallets announces two wallets through EIP-6963, as a browser with
// two wallet extensions does: "Other Wallet" refuses every request (the
// person declines), "Test Wallet" answers for the test's current wallet
// through /test/account and /test/sign.
const testWallets = `(() => {
  const utf8 = (h) => new TextDecoder().decode(new Uint8Array(h.slice(2).match(/../g).map((b) => parseInt(b, 16))));
  const test = { request: async ({ method, params }) => {
    if (method === 'eth_requestAccounts') return [await (await fetch('/test/account')).text()];
    if (method === 'personal_sign') {
      const m = params[0].startsWith('0x') ? utf8(params[0]) : params[0];
      return (await fetch('/test/sign', { method: 'POST', body: m })).text();
    }
    throw new Error('unsupported ' + method);
  } };
  const refuser = { request: async () => { const e = new Error('User rejected the request.'); e.code = 4001; throw e; } };
  const icon = 'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"%3E%3Crect width="8" height="8" fill="%233d3ad6"/%3E%3C/svg%3E';
  const announce = () => {
    for (const [uuid, name, provider] of [['u-other', 'Other Wallet', refuser], ['u-test', 'Test Wallet', test]]) {
      window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info: { uuid, name, icon, rdns: 'test.' + uuid }, provider }) }));
    }
  };
  window.addEventListener('eip6963:requestProvider', announce);
})();`

// loads runs action (a click that submits a form or signs in) and waits,
// at most a minute, for the page it leads to, which must answer status
// (200 when none is given): the next step then never looks at the page
// being left. Errors name the step (what), so a hang says where it was.
func loads(what string, action chromedp.Action, status ...int) chromedp.Action {
	want := http.StatusOK
	if len(status) > 0 {
		want = status[0]
	}
	return chromedp.ActionFunc(func(ctx context.Context) error {
		ctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		resp, err := chromedp.RunResponse(ctx, action)
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		if resp == nil || int(resp.Status) != want {
			return fmt.Errorf("%s: the page after the action did not answer %d: %+v", what, want, resp)
		}
		return nil
	})
}

// injectWallets adds the test wallets to every page the tab loads.
func injectWallets() chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := page.AddScriptToEvaluateOnNewDocument(testWallets).Do(ctx)
		return err
	})
}

// signInWithWallet signs in on the sign-in page through the EIP-6963
// chooser: the first choice is declined (the page says so), the second
// signs.
func signInWithWallet(front string, declined *string) chromedp.Tasks {
	return chromedp.Tasks{
		chromedp.Navigate(front + "/signin?next=/"),
		chromedp.WaitVisible(`button[data-wallet="Other Wallet"]`),
		chromedp.WaitVisible(`button[data-wallet="Test Wallet"]`),
		chromedp.Click(`button[data-wallet="Other Wallet"]`),
		chromedp.Poll(`document.querySelector('#wallet-status').textContent.includes('declined')`, nil),
		chromedp.Text(`#wallet-status`, declined),
		loads("sign in with the wallet", chromedp.Click(`button[data-wallet="Test Wallet"]`)),
		chromedp.WaitVisible(`#signout`),
	}
}

// signInByPasting signs in without a browser wallet: the address is
// typed, the message shown is signed in Go (as another tool would) and
// the signature pasted.
func signInByPasting(t *testing.T, front string, w *openjurytest.Wallet) chromedp.Tasks {
	var message string
	return chromedp.Tasks{
		chromedp.Navigate(front + "/signin?next=/posts"),
		chromedp.WaitVisible(`#si-address`),
		chromedp.SendKeys(`#si-address`, w.Address().Checksum()),
		loads("get the message", chromedp.Click(`#signin-address button`)),
		chromedp.Value(`#si-message`, &message),
		chromedp.ActionFunc(func(ctx context.Context) error {
			return chromedp.SendKeys(`#si-signature`, w.Sign(t, message)).Do(ctx)
		}),
		loads("paste the signature", chromedp.Click(`#signin-sign button`)),
		chromedp.WaitVisible(`#signout`),
	}
}

// whoAmI reads the signed-in address the header shows.
func whoAmI(who *string) chromedp.Action {
	return chromedp.AttributeValue(`#who`, "title", who, nil)
}

// TestBrowserEndToEnd drives every action a person takes in headless
// chromium, signed in through both ways: a browser wallet found by
// EIP-6963 (two are installed; the person chooses) and a signature made
// elsewhere and pasted. Each step checks the page and the database.
func TestBrowserEndToEnd(t *testing.T) {
	ctx := browser(t)
	srv := openjurytest.NewServer(t)
	bg := context.Background()
	sponsor, agent, rival, juror := openjurytest.NewWallet(t), openjurytest.NewWallet(t), openjurytest.NewWallet(t), openjurytest.NewWallet(t)
	for _, w := range []*openjurytest.Wallet{agent, rival, juror} {
		srv.SetStake(t, w.Address(), 10)
	}
	srv.SetReputation(t, juror.Address(), 30)
	srv.MintAGR(t, sponsor.Address(), 20)
	// Enough jobs for two pages, and a closed one.
	for i := range 22 {
		_, err := srv.Market.CreateJob(bg, rival.Address(), marketplace.CreateJobInput{Title: fmt.Sprintf("Filler job %02d", i), Prompt: "p", Tags: []string{"filler"}})
		require.NoError(t, err)
	}
	old, err := srv.Market.CreateJob(bg, rival.Address(), marketplace.CreateJobInput{Title: "An old closed job", Prompt: "p"})
	require.NoError(t, err)
	oldSub, err := srv.Market.Submit(bg, agent.Address(), marketplace.SubmitInput{JobID: old.ID, Content: "Old work"})
	require.NoError(t, err)
	_, err = srv.Market.CloseJob(bg, rival.Address(), old.ID, marketplace.CloseInput{WinnerSubmissionID: oldSub.ID})
	require.NoError(t, err)
	sg := newSigner(sponsor)
	front := appWith(t, srv, sg).URL

	// Without a browser wallet, the sign-in page says so and names the
	// other way (no button silently hidden).
	var noWallet, ways string
	err = chromedp.Run(ctx,
		chromedp.Navigate(front+"/signin"),
		chromedp.Poll(`document.querySelector('#wallets-note').textContent.includes('No browser wallet')`, nil),
		chromedp.Text(`#wallets-note`, &noWallet),
		chromedp.Text(`main`, &ways),
	)
	require.NoError(t, err)
	require.Contains(t, noWallet, "sign in with any wallet or tool")
	require.Contains(t, ways, "With any wallet or tool")

	// Browse: pages both ways, the closed filter, a tag, search.
	var firstTitle, pagedBack string
	var closedListed, tagOnly bool
	srv.FlushSearch(t)
	var found bool
	err = chromedp.Run(ctx,
		injectWallets(),
		chromedp.Navigate(front+"/"),
		chromedp.WaitVisible(`.cards.jobs`),
		chromedp.Text(`.cards.jobs li h2`, &firstTitle),
		loads("next page", chromedp.Click(`a[rel="next"]`)),
		chromedp.WaitVisible(`a[rel="prev"]`),
		loads("previous page", chromedp.Click(`a[rel="prev"]`)),
		chromedp.Text(`.cards.jobs li h2`, &pagedBack),
		chromedp.Click(`label[for="st-closed"]`),
		loads("closed jobs", chromedp.Click(`.filters button`)),
		chromedp.Evaluate(`!!document.querySelector('a[href="/jobs/`+old.ID+`"]') && !document.body.textContent.includes('Filler job')`, &closedListed),
		chromedp.Navigate(front+"/?status=all"),
		chromedp.WaitVisible(`.cards.jobs`),
		loads("a tag", chromedp.Click(`a.tag[href^="/?tag=filler"]`)),
		chromedp.Evaluate(`[...document.querySelectorAll('.cards.jobs h2')].every((h) => h.textContent.startsWith('Filler'))`, &tagOnly),
		chromedp.SendKeys(`#q`, "old closed job"),
		loads("search", chromedp.Click(`.filters button`)),
		chromedp.Evaluate(`!!document.querySelector('a[href="/jobs/`+old.ID+`"]')`, &found),
	)
	require.NoError(t, err)
	require.Equal(t, firstTitle, pagedBack, "Previous leads back to the first page")
	require.True(t, closedListed, "the closed filter lists closed jobs only")
	require.True(t, tagOnly)
	require.True(t, found, "search finds the job")

	// Sign in with a browser wallet (EIP-6963, two wallets: choose), post a
	// job (a refusal first, with the text kept), boost it, comment.
	var declined, who, bountyErr, keptTitle string
	const posted = "Summarise the EIP-6963 discussion"
	err = chromedp.Run(ctx,
		signInWithWallet(front, &declined),
		whoAmI(&who),
		chromedp.Navigate(front+"/jobs/new"),
		chromedp.WaitVisible(`#create-job`),
		chromedp.SendKeys(`#nj-title`, posted),
		chromedp.SendKeys(`#nj-prompt`, "One page, with sources."),
		chromedp.SendKeys(`#nj-bounty`, "lots"),
		chromedp.SendKeys(`#nj-tags`, "e2e, wallets"),
		loads("post a job (refused)", chromedp.Click(`#create-job button.primary`), http.StatusBadRequest),
		chromedp.Text(`#nj-bounty-err`, &bountyErr),
		chromedp.Value(`#nj-title`, &keptTitle),
		chromedp.SetValue(`#nj-bounty`, "25"),
		loads("post a job", chromedp.Click(`#create-job button.primary`)),
		chromedp.WaitVisible(`#done`),
	)
	require.NoError(t, err)
	require.Contains(t, declined, "You declined the request in your wallet")
	require.Equal(t, "Signed in as "+sponsor.Address().String(), who)
	require.Equal(t, "⚠ Enter an amount in USDC, like 25 or 12.50."[len("⚠ "):], strings.TrimPrefix(bountyErr, "⚠ "))
	require.Equal(t, posted, keptTitle, "what was typed is kept")
	var job *marketplace.Job
	list, err := srv.Market.SponsoredJobs(bg, sponsor.Address().String(), marketplace.ListInput{})
	require.NoError(t, err)
	require.Len(t, list.Jobs, 1)
	job = list.Jobs[0]
	require.Equal(t, posted, job.Title)
	require.Equal(t, []string{"e2e", "wallets"}, job.Tags)
	jobURL := front + "/jobs/" + job.ID

	var featured bool
	err = chromedp.Run(ctx,
		chromedp.Navigate(jobURL),
		chromedp.Click(`details.boost summary`),
		chromedp.WaitVisible(`#boost-amount`),
		chromedp.SendKeys(`#boost-amount`, "5"),
		loads("boost", chromedp.Click(`#boost button`)),
		chromedp.WaitVisible(`#featured`),
		chromedp.SendKeys(`#comment-`+job.ID+`-text`, "Sources must be public, please."),
		loads("comment on the job", chromedp.Click(`#comment-`+job.ID+` button`)),
		chromedp.WaitVisible(`.comment`),
		chromedp.Navigate(front+"/"),
		chromedp.WaitVisible(`.cards.jobs`),
		chromedp.Evaluate(`!!document.querySelector('a[href="/jobs/`+job.ID+`"]').closest('li').querySelector('.badge.featured')`, &featured),
		loads("sign out", chromedp.Click(`#signout`)),
		chromedp.WaitVisible(`#signin`),
	)
	require.NoError(t, err)
	require.True(t, featured, "the boosted job is marked featured")
	bal, err := srv.AGR.Status(bg, sponsor.Address().String())
	require.NoError(t, err)
	require.EqualValues(t, 15, bal.Balance, "the boost spent 5 AGR")
	comments, err := srv.Market.Comments(bg, marketplace.TargetJob, job.ID, marketplace.ListInput{})
	require.NoError(t, err)
	require.Len(t, comments.Comments, 1)
	sponsorComment := comments.Comments[0]

	// The agent signs in by pasting a signature made elsewhere, submits
	// work with two evidence items (the second row added in the page),
	// replies to the sponsor, comments on its submission, deletes a reply,
	// and writes a post.
	sg.use(agent)
	var landed string
	err = chromedp.Run(ctx,
		signInByPasting(t, front, agent),
		chromedp.Location(&landed),
		whoAmI(&who),
		chromedp.Navigate(jobURL),
		chromedp.WaitVisible(`#submit`),
		chromedp.SendKeys(`#sub-content`, "The discussion, summarised\nThree points: ..."),
		chromedp.SendKeys(`#ev-url-0`, "https://eips.ethereum.org/EIPS/eip-6963"),
		chromedp.SendKeys(`#ev-quote-0`, "Multi Injected Provider Discovery"),
		chromedp.SendKeys(`#ev-conf-0`, "0.9"),
		chromedp.Click(`#more-evidence`),
		chromedp.WaitVisible(`#ev-url-1`),
		chromedp.SendKeys(`#ev-url-1`, "https://ethereum-magicians.org/t/eip-6963"),
		chromedp.SendKeys(`#ev-claim-1`, "The thread agrees on events."),
		loads("submit work", chromedp.Click(`#submit button.primary`)),
		chromedp.WaitVisible(`#done`),
	)
	require.NoError(t, err)
	require.True(t, strings.HasSuffix(landed, "/posts?ok=signedin"), landed)
	require.Equal(t, "Signed in as "+agent.Address().String(), who)
	subs, err := srv.Market.Submissions(bg, job.ID, marketplace.ListInput{})
	require.NoError(t, err)
	require.Len(t, subs.Submissions, 1)
	sub := subs.Submissions[0]
	require.Len(t, sub.Evidence, 2)
	require.Equal(t, "https://ethereum-magicians.org/t/eip-6963", sub.Evidence[1].SourceURL)
	rivalSub, err := srv.Market.Submit(bg, rival.Address(), marketplace.SubmitInput{JobID: job.ID, Content: "A rival summary"})
	require.NoError(t, err)

	err = chromedp.Run(ctx,
		chromedp.Navigate(jobURL),
		chromedp.WaitVisible(`#c-`+sponsorComment.ID+` details.reply summary`),
		chromedp.Click(`#c-`+sponsorComment.ID+` details.reply summary`),
		chromedp.SendKeys(`#r-`+sponsorComment.ID, "They are: every link is public."),
		loads("reply", chromedp.Click(`#reply-`+sponsorComment.ID+` button`)),
		chromedp.WaitVisible(`.comment.d1`),
		chromedp.Click(`#s-`+sub.ID+` details.new-comment summary`),
		chromedp.SendKeys(`#comment-`+sub.ID+`-text`, "Happy to expand point two."),
		loads("comment on the submission", chromedp.Click(`#comment-`+sub.ID+` button`)),
		chromedp.WaitVisible(`#s-`+sub.ID+` .comment`),
	)
	require.NoError(t, err)
	replies, err := srv.Market.Comments(bg, marketplace.TargetJob, job.ID, marketplace.ListInput{})
	require.NoError(t, err)
	require.Len(t, replies.Comments, 2)
	reply := replies.Comments[1]
	require.Equal(t, sponsorComment.ID, reply.ParentID)
	var deletedShown bool
	err = chromedp.Run(ctx,
		loads("delete: the confirmation", chromedp.Click(`#c-`+reply.ID+` .delete-comment`)),
		loads("delete", chromedp.Click(`#confirm`)),
		chromedp.Evaluate(`document.querySelector('#c-`+reply.ID+`').textContent.includes('This comment was deleted.')`, &deletedShown),
		chromedp.Navigate(front+"/posts/new"),
		chromedp.SendKeys(`#np-title`, "How I summarise discussions"),
		chromedp.SendKeys(`#np-content`, "Read everything twice."),
		chromedp.SendKeys(`#np-tags`, "method"),
		loads("write a post", chromedp.Click(`#create-post button.primary`)),
		chromedp.WaitVisible(`#done`),
		loads("sign out", chromedp.Click(`#signout`)),
	)
	require.NoError(t, err)
	require.True(t, deletedShown)
	posts, err := srv.Market.ListPosts(bg, marketplace.ListPostsInput{})
	require.NoError(t, err)
	require.Len(t, posts.Posts, 1)
	require.Equal(t, agent.Address(), posts.Posts[0].Author)
	threads, err := srv.Market.Comments(bg, marketplace.TargetSubmission, sub.ID, marketplace.ListInput{})
	require.NoError(t, err)
	require.Len(t, threads.Comments, 1)

	// The juror (browser wallet): a jury vote, changed; a final vote.
	sg.use(juror)
	var marked, moved, finalMarked string
	err = chromedp.Run(ctx,
		signInWithWallet(front, &declined),
		chromedp.Navigate(jobURL),
		loads("jury vote", chromedp.Click(`.jury-vote[data-submission="`+rivalSub.ID+`"]`)),
		chromedp.Text(`#s-`+rivalSub.ID+` .voted`, &marked),
		loads("change the jury vote", chromedp.Click(`.jury-vote[data-submission="`+sub.ID+`"]`)),
		chromedp.Text(`#s-`+sub.ID+` .voted`, &moved),
		loads("final vote", chromedp.Click(`.final-vote[data-submission="`+sub.ID+`"]`)),
		chromedp.Text(`#final + .hint + .tally li.mine`, &finalMarked),
		loads("sign out", chromedp.Click(`#signout`)),
	)
	require.NoError(t, err)
	require.Contains(t, marked, "You cast your jury vote for this")
	require.Contains(t, moved, "You cast your jury vote for this")
	require.Contains(t, finalMarked, "Your vote")
	tally, err := srv.Market.VotingSummary(bg, job.ID)
	require.NoError(t, err)
	require.Len(t, tally, 1)
	require.Equal(t, sub.ID, tally[0].SubmissionID, "the changed vote counts once, for the new choice")

	// The sponsor closes with the agent's submission, confirming first,
	// then checks the anchor in the browser.
	sg.use(sponsor)
	var confirmText, status, winner, verified string
	err = chromedp.Run(ctx,
		signInWithWallet(front, &declined),
		chromedp.Navigate(jobURL),
		loads("close: the confirmation", chromedp.Click(`.close-job[data-submission="`+sub.ID+`"]`)),
		chromedp.Text(`.confirm`, &confirmText),
		loads("close", chromedp.Click(`#confirm`)),
		chromedp.WaitVisible(`#winner`),
		chromedp.AttributeValue(`#winner`, "data-submission", &winner, nil),
		chromedp.Text(`#job-status`, &status),
		chromedp.WaitVisible(`#verify-anchor`),
		chromedp.Click(`#verify-anchor`),
		chromedp.WaitVisible(`#verify-result.verified`),
		chromedp.Text(`#verify-result`, &verified),
	)
	require.NoError(t, err)
	require.Contains(t, confirmText, "The job closes for good")
	require.Equal(t, sub.ID, winner)
	require.Equal(t, "Closed", status, "capitalised by the stylesheet")
	got, err := srv.Market.Job(bg, job.ID)
	require.NoError(t, err)
	require.Equal(t, sub.ID, got.WinnerSubmissionID)
	require.Contains(t, verified, "Verified: ")
	require.Contains(t, verified, string(got.Anchor.Root))

	// Finalize: a job with a one-minute window, a final vote, then the
	// window ends (the server's clock) and the voter finalizes.
	window := int64(60)
	quick, err := srv.Market.CreateJob(bg, rival.Address(), marketplace.CreateJobInput{Title: "Quick decision", Prompt: "p", FinalVoteWindowSeconds: &window})
	require.NoError(t, err)
	quickSub, err := srv.Market.Submit(bg, agent.Address(), marketplace.SubmitInput{JobID: quick.ID, Content: "Quick work"})
	require.NoError(t, err)
	sg.use(juror)
	err = chromedp.Run(ctx,
		loads("sign out", chromedp.Click(`#signout`)),
		signInWithWallet(front, &declined),
		chromedp.Navigate(front+"/jobs/"+quick.ID),
		loads("final vote", chromedp.Click(`.final-vote[data-submission="`+quickSub.ID+`"]`)),
		chromedp.ActionFunc(func(context.Context) error { srv.Clock.Advance(2 * time.Minute); return nil }),
		chromedp.Navigate(front+"/jobs/"+quick.ID),
		loads("finalize", chromedp.Click(`#finalize button`)),
		chromedp.WaitVisible(`#winner`),
	)
	require.NoError(t, err)
	got, err = srv.Market.Job(bg, quick.ID)
	require.NoError(t, err)
	require.Equal(t, marketplace.StatusClosed, got.Status)
	require.Equal(t, quickSub.ID, got.WinnerSubmissionID)

	// Profiles: the agent's work and the juror's votes.
	var agentProfile, jurorProfile string
	err = chromedp.Run(ctx,
		chromedp.Navigate(front+"/agents/"+agent.Address().String()),
		chromedp.Text(`main`, &agentProfile),
		chromedp.Navigate(front+"/agents/"+juror.Address().String()),
		chromedp.Text(`main`, &jurorProfile),
	)
	require.NoError(t, err)
	require.Contains(t, agentProfile, "“The discussion, summarised”")
	require.Contains(t, agentProfile, "Winner")
	require.Contains(t, agentProfile, "First win")
	require.Contains(t, jurorProfile, "Jury votes")
	require.Contains(t, jurorProfile, "weight")
	require.Contains(t, jurorProfile, "Juror")

	// The sponsor's profile: the job posted, the stake, the AGR balance
	// and its ledger (the boost's debit first), and the address's copy
	// button (the clipboard is stubbed: headless chromium has none).
	var jobsPosted, stats, balance, copied, copiedLabel string
	var ledger []string
	err = chromedp.Run(ctx,
		chromedp.Navigate(front+"/agents/"+sponsor.Address().String()),
		chromedp.Text(`#jobs`, &jobsPosted),
		chromedp.Text(`.stats`, &stats),
		chromedp.Text(`#agr-balance`, &balance),
		chromedp.Evaluate(`[...document.querySelectorAll('#agr tbody tr')].map((r) => r.cells[1].textContent + ' ' + r.cells[2].textContent)`, &ledger),
		chromedp.Evaluate(`navigator.clipboard.writeText = async (t) => { window.copied = t; }; true`, nil),
		chromedp.Click(`.profile-head button.copy`),
		chromedp.Evaluate(`window.copied`, &copied),
		chromedp.Text(`.profile-head button.copy .vh`, &copiedLabel),
	)
	require.NoError(t, err)
	require.Contains(t, jobsPosted, posted)
	require.Contains(t, stats, "below the 10 USDC minimum", "the sponsor has no stake")
	require.Equal(t, "15", balance)
	require.Equal(t, []string{"-5 boosted a job", "+20 minted (development mode)"}, ledger, "newest first")
	require.Equal(t, sponsor.Address().String(), copied, "the copy button copies the whole address")
	require.Equal(t, "Copied", copiedLabel)
}
