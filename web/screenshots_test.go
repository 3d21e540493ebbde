package web_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/web"
)

// screenshotDir is where TestScreenshots writes: the repository's
// docs/screenshots with UPDATE_SCREENSHOTS=1 (to commit them), else a
// temporary directory, so an ordinary run changes no file.
func screenshotDir(t *testing.T) string {
	if os.Getenv("UPDATE_SCREENSHOTS") == "1" {
		d := filepath.Join("..", "docs", "screenshots")
		require.NoError(t, os.MkdirAll(d, 0o755))
		return d
	}
	return t.TempDir()
}

// screenshot captures the page loaded in the browser as dir/name-desktop.png
// and dir/name-phone.png (the widths of the accessibility check), scrolled
// to the element sel when it is not "", and leaves the desktop width.
func screenshot(dir, name, sel string) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		for _, w := range widths {
			if err := chromedp.EmulateViewport(w.width, w.height).Do(ctx); err != nil {
				return err
			}
			if sel != "" {
				if err := chromedp.ScrollIntoView(sel).Do(ctx); err != nil {
					return err
				}
			}
			var png []byte
			if err := chromedp.CaptureScreenshot(&png).Do(ctx); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(dir, name+"-"+w.name+".png"), png, 0o644); err != nil {
				return err
			}
		}
		return chromedp.EmulateViewport(widths[0].width, widths[0].height).Do(ctx)
	})
}

// TestScreenshots takes PNG screenshots of the main pages, at desktop and
// 375-px phone widths (and the job page in the dark scheme), of the
// showcase marketplace seen by a signed-in juror:
//
//	UPDATE_SCREENSHOTS=1 go test -run 'TestScreenshots|TestBrowserClaim|TestBrowserJury' ./web/
//
// writes them into docs/screenshots, which the README links (the other
// two tests add a funded job, its payouts and a commit-reveal job's
// reveal, which need a chain or a clock past the commit window).
func TestScreenshots(t *testing.T) {
	ctx := browser(t)
	srv := openjurytest.NewServer(t)
	s := seedShowcase(t, srv)
	front := app(t, srv, s.juror)
	dir := screenshotDir(t)
	require.NoError(t, chromedp.Run(ctx, injectWallets()))
	token := srv.SignIn(t, s.juror)
	host := front.Listener.Addr().String()
	shots := []struct{ name, path string }{
		{"jobs", "/"},
		{"job", "/jobs/" + s.open.ID},
		{"job-votes", "/jobs/" + s.open.ID + "#votes-h"},
		{"profile", "/agents/" + s.agent.Address().String()},
		{"signin", "/signin"},
		{"posts", "/posts/" + s.post.ID},
		{"job-commit", "/jobs/" + s.sealed.ID + "#jury-panel"},
		{"search", "/search?q=bridge"},
		{"newjob", "/jobs/new#nj-jury"},
	}
	take := func(name string) {
		t.Helper()
		var png []byte
		require.NoError(t, chromedp.Run(ctx, chromedp.WaitReady(`footer`), chromedp.CaptureScreenshot(&png)))
		require.True(t, bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")), "%s is a PNG", name)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644))
	}
	for _, w := range widths {
		require.NoError(t, chromedp.Run(ctx, chromedp.EmulateViewport(w.width, w.height)))
		for _, sh := range shots {
			cookie := network.SetCookie(web.SessionCookie, token).WithDomain(host[:bytes.IndexByte([]byte(host), ':')]).WithPath("/").WithHTTPOnly(true)
			if sh.name == "signin" {
				require.NoError(t, chromedp.Run(ctx, network.ClearBrowserCookies()))
			} else {
				require.NoError(t, chromedp.Run(ctx, cookie))
			}
			require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(front.URL+sh.path)), sh.path)
			if sh.name == "signin" {
				require.NoError(t, chromedp.Run(ctx, chromedp.WaitVisible(`button[data-wallet="Test Wallet"]`)))
			}
			take(sh.name + "-" + w.name)
		}
	}
	require.NoError(t, chromedp.Run(ctx, chromedp.EmulateViewport(widths[0].width, widths[0].height),
		emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}),
		chromedp.Navigate(front.URL+"/jobs/"+s.open.ID)))
	take("job-dark")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(entries), 2*len(shots)+1)
}
