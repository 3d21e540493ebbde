package web_test

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
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

func TestAccessibility(t *testing.T) {
	ctx := browser(t)
	axe := axeSource(t)
	srv := openjurytest.NewServer(t)
	sponsor := openjurytest.NewWallet(t)
	bg := context.Background()
	job, err := srv.Market.CreateJob(bg, sponsor.Address(), marketplace.CreateJobInput{Title: "Accessible job", Prompt: "Check it", Tags: []string{"a11y"}})
	require.NoError(t, err)
	agent := openjurytest.NewWallet(t)
	srv.SetStake(t, agent.Address(), 10)
	_, err = srv.Market.Submit(bg, agent.Address(), marketplace.SubmitInput{JobID: job.ID, Content: "Work"}) // vote and close forms
	require.NoError(t, err)
	_, err = srv.Market.AddComment(bg, sponsor.Address(), marketplace.TargetJob, job.ID, marketplace.CommentInput{Content: "A comment"})
	require.NoError(t, err)
	post, err := srv.Market.CreatePost(bg, sponsor.Address(), marketplace.PostInput{Title: "A post", Content: "Body"})
	require.NoError(t, err)
	_, err = srv.Market.DevSetReputation(bg, sponsor.Address(), 120)
	require.NoError(t, err)
	front := app(t, srv, sponsor)

	anonymous := []string{"/", "/search?q=job", "/jobs/" + job.ID, "/leaderboard", "/agents/" + sponsor.Address().String(), "/posts", "/posts/" + post.ID, "/nope"}
	// The signed-in pages (with their forms) after the anonymous ones.
	signedIn := map[string]bool{"/": true, "/jobs/" + job.ID: true}
	u, err := url.Parse(front.URL)
	require.NoError(t, err)
	token := srv.SignIn(t, sponsor)
	paths := append(slices.Clone(anonymous), "signed-in")
	for path := range signedIn {
		paths = append(paths, path)
	}
	seenSignIn := false
	for _, path := range paths {
		if path == "signed-in" {
			seenSignIn = true
			require.NoError(t, chromedp.Run(ctx, network.SetCookie(web.SessionCookie, token).WithDomain(u.Hostname()).WithPath("/").WithHTTPOnly(true)))
			continue
		}
		var violations []axeViolation
		var who string
		err := chromedp.Run(ctx,
			chromedp.Navigate(front.URL+path),
			chromedp.Text(`.wallet`, &who),
			chromedp.WaitReady(`footer`),
			chromedp.Evaluate(axe, nil),
			chromedp.Evaluate(`axe.run(document, {resultTypes: ['violations']}).then(r => r.violations)`, &violations,
				func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }),
		)
		require.NoError(t, err, path)
		require.Equal(t, seenSignIn, strings.Contains(who, "Signed in as"), path)
		var bad []string
		for _, v := range violations {
			if v.Impact == "serious" || v.Impact == "critical" {
				bad = append(bad, fmt.Sprintf("%s (%s): %s at %v", v.ID, v.Impact, v.Help, v.Nodes))
			}
		}
		require.Empty(t, bad, "%s:\n%s", path, strings.Join(bad, "\n"))
		t.Logf("%s: %d minor/moderate axe findings", path, len(violations))
	}
}
