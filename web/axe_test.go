package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/web"
	"github.com/stretchr/testify/require"
)

// axeVersion is the axe-core release the accessibility test injects.
const axeVersion = "4.10.3"

// axeSource returns axe.min.js, installing axe-core from npm into a cache
// directory ($OPENJURY_CACHE or the user cache dir) the first time.
func axeSource(t *testing.T) string {
	t.Helper()
	base := os.Getenv("OPENJURY_CACHE")
	if base == "" {
		d, err := os.UserCacheDir()
		require.NoError(t, err)
		base = filepath.Join(d, "openjury")
	}
	dir := filepath.Join(base, "axe-core-"+axeVersion)
	file := filepath.Join(dir, "node_modules", "axe-core", "axe.min.js")
	if _, err := os.Stat(file); err != nil {
		if _, err := exec.LookPath("npm"); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatal("npm not found: the accessibility test needs axe-core")
			}
			t.Skip("SKIPPED: npm not found: the accessibility test did not run")
		}
		require.NoError(t, os.MkdirAll(dir, 0o755))
		out, err := exec.Command("npm", "install", "--prefix", dir, "--no-audit", "--no-fund", "axe-core@"+axeVersion).CombinedOutput()
		require.NoError(t, err, "npm install axe-core: %s", out)
	}
	src, err := os.ReadFile(file)
	require.NoError(t, err)
	return string(src)
}

// axeViolation is the part of an axe-core result the test reports.
type axeViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target []any `json:"target"`
	} `json:"nodes"`
}

// showcase is a small, lively marketplace for the accessibility check and
// the screenshots: an open job with submissions, evidence, both kinds of
// votes and threaded comments on the job and a submission; a closed job;
// a post with comments; a profile with every list.
type showcase struct {
	sponsor, agent, rival, juror *openjurytest.Wallet
	open, closed                 *marketplace.Job
	// sealed is a commit-reveal job with a panel drawn from two (the juror, who
	// has committed, and the agent), in its commit window.
	sealed        *marketplace.Job
	sub, rivalSub *marketplace.Submission
	post          *marketplace.Post
	comment       *marketplace.Comment
}

func seedShowcase(t *testing.T, srv *openjurytest.Server) *showcase {
	t.Helper()
	bg := context.Background()
	s := &showcase{sponsor: openjurytest.NewWallet(t), agent: openjurytest.NewWallet(t), rival: openjurytest.NewWallet(t), juror: openjurytest.NewWallet(t)}
	for _, w := range []*openjurytest.Wallet{s.sponsor, s.agent, s.rival, s.juror} {
		srv.SetStake(t, w.Address(), 25)
	}
	srv.SetReputation(t, s.juror.Address(), 120)
	srv.SetReputation(t, s.agent.Address(), 40)
	srv.MintAGR(t, s.sponsor.Address(), 100)
	var err error
	for i, title := range []string{"Audit the staking vault for reentrancy", "Translate the onboarding guide into Spanish", "Benchmark three embedding models on our corpus"} {
		j, err := srv.Market.CreateJob(bg, s.rival.Address(), marketplace.CreateJobInput{Title: title, Prompt: "See the linked material.",
			Bounty: openjury.MicroUSDC(int64(40+i*35) * openjury.MicroPerUSDC), Tags: []string{[]string{"security", "i18n", "ml"}[i]}})
		require.NoError(t, err)
		srv.Clock.Advance(time.Hour)
		if i == 0 {
			_, err = srv.Market.Boost(bg, s.rival.Address(), j.ID, marketplace.BoostInput{AmountAGR: 1, DurationHours: 48})
			require.ErrorContains(t, err, "insufficient AGR", "the rival has no AGR: not boosted")
		}
	}
	s.open, err = srv.Market.CreateJob(bg, s.sponsor.Address(), marketplace.CreateJobInput{Title: "Summarise the EIP-4361 discussion for newcomers",
		Prompt: "Write one page that a newcomer can read in five minutes.\nCite every source you use.", Bounty: 125 * openjury.MicroPerUSDC, Tags: []string{"research", "ethereum"}})
	require.NoError(t, err)
	_, err = srv.Market.Boost(bg, s.sponsor.Address(), s.open.ID, marketplace.BoostInput{AmountAGR: 10, DurationHours: 72})
	require.NoError(t, err)
	conf := 0.9
	s.sub, err = srv.Market.Submit(bg, s.agent.Address(), marketplace.SubmitInput{JobID: s.open.ID,
		Content:  "Sign-In with Ethereum, in one page\nEIP-4361 defines a plain-text message a wallet signs to prove control of an address...",
		Evidence: []marketplace.EvidenceInput{{Type: "web", SourceURL: "https://eips.ethereum.org/EIPS/eip-4361", Quote: "Sign-In with Ethereum describes how Ethereum accounts authenticate with off-chain services.", Claim: "The standard's own summary.", Confidence: &conf}}})
	require.NoError(t, err)
	s.rivalSub, err = srv.Market.Submit(bg, s.rival.Address(), marketplace.SubmitInput{JobID: s.open.ID, Content: "SIWE explained with diagrams\nThree diagrams and a glossary."})
	require.NoError(t, err)
	_, err = srv.Market.Vote(bg, s.juror.Address(), marketplace.VoteInput{JobID: s.open.ID, SubmissionID: s.sub.ID})
	require.NoError(t, err)
	_, err = srv.Market.FinalVote(bg, s.juror.Address(), marketplace.FinalVoteInput{JobID: s.open.ID, SubmissionID: s.sub.ID})
	require.NoError(t, err)
	_, err = srv.Market.FinalVote(bg, s.agent.Address(), marketplace.FinalVoteInput{JobID: s.open.ID, SubmissionID: s.rivalSub.ID})
	require.NoError(t, err)
	s.comment, err = srv.Market.AddComment(bg, s.sponsor.Address(), marketplace.TargetJob, s.open.ID, marketplace.CommentInput{Content: "Please keep it under 600 words."})
	require.NoError(t, err)
	reply, err := srv.Market.AddComment(bg, s.agent.Address(), marketplace.TargetJob, s.open.ID, marketplace.CommentInput{Content: "Mine is 540.", ParentID: s.comment.ID})
	require.NoError(t, err)
	_, err = srv.Market.AddComment(bg, s.sponsor.Address(), marketplace.TargetJob, s.open.ID, marketplace.CommentInput{Content: "Perfect, thanks.", ParentID: reply.ID})
	require.NoError(t, err)
	_, err = srv.Market.AddComment(bg, s.juror.Address(), marketplace.TargetSubmission, s.sub.ID, marketplace.CommentInput{Content: "Clear and well sourced."})
	require.NoError(t, err)

	s.closed, err = srv.Market.CreateJob(bg, s.sponsor.Address(), marketplace.CreateJobInput{Title: "Name our jury feature", Prompt: "Three names, one line each.", Bounty: 15 * openjury.MicroPerUSDC, Tags: []string{"naming"}})
	require.NoError(t, err)
	won, err := srv.Market.Submit(bg, s.agent.Address(), marketplace.SubmitInput{JobID: s.closed.ID, Content: "Verdict, Panel, Bench"})
	require.NoError(t, err)
	_, err = srv.Market.CloseJob(bg, s.sponsor.Address(), s.closed.ID, marketplace.CloseInput{WinnerSubmissionID: won.ID})
	require.NoError(t, err)
	// The juror and the agent are the eligible set (stake and reputation):
	// a panel of three draws both.
	three, commitWin, revealWin := int64(3), int64(48*3600), int64(24*3600)
	s.sealed, err = srv.Market.CreateJob(bg, s.sponsor.Address(), marketplace.CreateJobInput{Title: "Rank five L2 bridges by security",
		Prompt: "A table with one row a bridge and your reasons.", Bounty: 60 * openjury.MicroPerUSDC, Tags: []string{"research"},
		JuryMode: "commit_reveal", JurySize: &three, JuryCommitSeconds: &commitWin, JuryRevealSeconds: &revealWin})
	require.NoError(t, err)
	sealedSub, err := srv.Market.Submit(bg, s.agent.Address(), marketplace.SubmitInput{JobID: s.sealed.ID, Content: "Five bridges, ranked\nThe table and a paragraph a bridge."})
	require.NoError(t, err)
	_, err = srv.Market.Submit(bg, s.rival.Address(), marketplace.SubmitInput{JobID: s.sealed.ID, Content: "Bridge security scores\nScored on five criteria."})
	require.NoError(t, err)
	_, err = srv.Market.Commit(bg, s.juror.Address(), marketplace.CommitInput{JobID: s.sealed.ID,
		Commitment: marketplace.CommitmentOf(s.sealed.ID, sealedSub.ID, s.juror.Address(), [32]byte{9}).String()})
	require.NoError(t, err)
	s.post, err = srv.Market.CreatePost(bg, s.agent.Address(), marketplace.PostInput{Title: "How I source my summaries", Content: "Primary sources first, then the discussion threads.", Tags: []string{"method"}})
	require.NoError(t, err)
	_, err = srv.Market.AddComment(bg, s.juror.Address(), marketplace.TargetPost, s.post.ID, marketplace.CommentInput{Content: "Same here."})
	require.NoError(t, err)
	srv.FlushSearch(t)
	return s
}

// widths are the viewports every page is checked at: a desktop and a
// 375-px phone.
var widths = []struct {
	name          string
	width, height int64
}{{"desktop", 1100, 800}, {"phone", 375, 740}}

// axeCheck runs axe-core on the page loaded in ctx (injecting it first
// when inject) and returns its serious and critical violations and the
// number of all.
func axeCheck(ctx context.Context, axe string, inject bool) ([]string, int, error) {
	var violations []axeViolation
	actions := chromedp.Tasks{chromedp.WaitReady(`footer`)}
	if inject {
		actions = append(actions, chromedp.Evaluate(axe, nil))
	}
	actions = append(actions, chromedp.Evaluate(`axe.run(document, {resultTypes: ['violations']}).then(r => r.violations)`, &violations,
		func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	err := chromedp.Run(ctx, actions)
	var bad []string
	for _, v := range violations {
		if v.Impact == "serious" || v.Impact == "critical" {
			bad = append(bad, fmt.Sprintf("%s (%s): %s at %v", v.ID, v.Impact, v.Help, v.Nodes))
		}
	}
	return bad, len(violations), err
}

// TestAccessibility runs axe-core on every page of the app, anonymous and
// signed in, and on the pages a form leads to (a refusal, a confirmation,
// the sign-in's second step), at desktop and 375-px phone widths, and on
// the main pages in the dark scheme: no serious or critical finding.
func TestAccessibility(t *testing.T) {
	ctx := browser(t)
	axe := axeSource(t)
	srv := openjurytest.NewServer(t)
	s := seedShowcase(t, srv)
	front := app(t, srv, s.sponsor)
	u, err := url.Parse(front.URL)
	require.NoError(t, err)

	pages := []string{"/", "/?status=closed", "/?status=all&tag=research", "/jobs/new", "/jobs/" + s.open.ID, "/jobs/" + s.closed.ID,
		"/submissions/" + s.sub.ID, "/leaderboard", "/agents/" + s.agent.Address().String(), "/agents/" + s.juror.Address().String(),
		"/posts", "/posts/new", "/posts/" + s.post.ID, "/signin", "/nope", "/jobs/" + s.sealed.ID, "/search", "/search?q=bridge", "/?q=summarise"}
	// Pages reached through a form: the steps that lead there.
	type formPage struct {
		name  string
		steps chromedp.Tasks
	}
	formPages := []formPage{
		{"sign-in: the message to sign", chromedp.Tasks{chromedp.Navigate(front.URL + "/signin"), chromedp.SendKeys(`#si-address`, s.juror.Address().String()),
			loads("message", chromedp.Click(`#signin-address button`))}},
		{"sign-in: a refused address", chromedp.Tasks{chromedp.Navigate(front.URL + "/signin"), chromedp.SendKeys(`#si-address`, "0x12"),
			loads("refused", chromedp.Click(`#signin-address button`), http.StatusBadRequest)}},
	}
	signedInPages := []formPage{
		{"post a job: refused", chromedp.Tasks{chromedp.Navigate(front.URL + "/jobs/new"), chromedp.SendKeys(`#nj-title`, "T"), chromedp.SendKeys(`#nj-prompt`, "P"),
			chromedp.SendKeys(`#nj-bounty`, "x"), loads("refused", chromedp.Click(`#create-job button.primary`), http.StatusBadRequest)}},
		{"close: confirmation", chromedp.Tasks{chromedp.Navigate(front.URL + "/jobs/" + s.open.ID),
			loads("confirm", chromedp.Click(`.close-job[data-submission="`+s.sub.ID+`"]`))}},
		{"delete a comment: confirmation", chromedp.Tasks{chromedp.Navigate(front.URL + "/jobs/" + s.open.ID),
			loads("confirm", chromedp.Click(`#c-`+s.comment.ID+` .delete-comment`))}},
		{"boost: refused", chromedp.Tasks{chromedp.Navigate(front.URL + "/jobs/" + s.open.ID), chromedp.Click(`details.boost summary`),
			chromedp.SendKeys(`#boost-amount`, "100000"), loads("refused", chromedp.Click(`#boost button`), http.StatusPaymentRequired)}},
	}
	// Each page is loaded once and checked at both widths (the viewport
	// changes, the page stays): the check is as thorough and takes half
	// the time.
	check := func(name string, steps chromedp.Action) {
		t.Helper()
		require.NoError(t, chromedp.Run(ctx, chromedp.EmulateViewport(widths[0].width, widths[0].height), steps), name)
		for i, w := range widths {
			if i > 0 {
				require.NoError(t, chromedp.Run(ctx, chromedp.EmulateViewport(w.width, w.height)))
			}
			bad, all, err := axeCheck(ctx, axe, i == 0)
			require.NoError(t, err, name)
			require.Empty(t, bad, "%s at %s width:\n%s", name, w.name, strings.Join(bad, "\n"))
			t.Logf("%s (%s): %d minor/moderate axe findings", name, w.name, all)
		}
	}
	for _, p := range pages {
		check(p, chromedp.Navigate(front.URL+p))
	}
	for _, fp := range formPages {
		check(fp.name, fp.steps)
	}
	token := srv.SignIn(t, s.sponsor)
	require.NoError(t, chromedp.Run(ctx, network.SetCookie(web.SessionCookie, token).WithDomain(u.Hostname()).WithPath("/").WithHTTPOnly(true)))
	for _, p := range []string{"/", "/jobs/new", "/jobs/" + s.open.ID, "/jobs/" + s.sealed.ID, "/submissions/" + s.sub.ID, "/posts/" + s.post.ID, "/posts/new", "/agents/" + s.sponsor.Address().String()} {
		var who string
		check("signed in "+p, chromedp.Tasks{chromedp.Navigate(front.URL + p), chromedp.Text(`.account`, &who)})
		require.Contains(t, who, "Sign out", p)
	}
	for _, fp := range signedInPages {
		check(fp.name, fp.steps)
	}
	// The dark scheme: its colours pass too.
	require.NoError(t, chromedp.Run(ctx, emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}})))
	for _, p := range []string{"/", "/jobs/" + s.open.ID, "/agents/" + s.agent.Address().String(), "/signin"} {
		check("dark "+p, chromedp.Navigate(front.URL+p))
	}
}
