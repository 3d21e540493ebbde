package web_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/search"
	"github.com/openjury/openjury/stake"
	"github.com/openjury/openjury/web"
	"github.com/stretchr/testify/require"
)

func get(t *testing.T, srv *httptest.Server, path string) (int, string) {
	t.Helper()
	resp, err := http.Get(srv.URL + path)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, "text/html; charset=utf-8", resp.Header.Get("Content-Type"))
	require.Less(t, len(body), 100<<10, "every page is under 100 KB")
	require.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"))
	require.Contains(t, resp.Header.Get("Content-Security-Policy"), "script-src 'self'")
	require.NotEmpty(t, resp.Header.Get("Referrer-Policy"))
	return resp.StatusCode, string(body)
}

func TestPages(t *testing.T) {
	openjurytest.OnEachDB(t, func(t *testing.T, db *bunstore.DB) {
		market := marketplace.NewService(db, openjurytest.NewClock(), marketplace.Config{})
		sponsor := openjury.MustAddress("0x1111111111111111111111111111111111111111")
		j, err := market.CreateJob(context.Background(), sponsor, marketplace.CreateJobInput{
			Title: "<script>alert(1)</script> Summarize", Prompt: "Read & <b>summarize</b>", Tags: []string{"docs"},
		})
		require.NoError(t, err)
		conf := 0.75
		_, err = market.Submit(context.Background(), openjury.MustAddress("0x2222222222222222222222222222222222222222"), marketplace.SubmitInput{
			JobID: j.ID, Content: "Work <i>done</i>",
			Evidence: []marketplace.EvidenceInput{{Type: "web", SourceURL: "https://example.com/a", Quote: "a <q>", Claim: "c1", Confidence: &conf}},
		})
		require.NoError(t, err)
		clock := openjurytest.NewClock()
		agrSvc := agr.NewService(db.AGR(), clock)
		stakeSvc := stake.NewService(db.Stake(), clock, stake.Config{})
		_, err = market.AddComment(context.Background(), sponsor, marketplace.TargetJob, j.ID, marketplace.CommentInput{Content: "Nice <img src=x>"})
		require.NoError(t, err)
		post, err := market.CreatePost(context.Background(), sponsor, marketplace.PostInput{Title: "Hello <em>all</em>", Content: "Post & body", Tags: []string{"news"}})
		require.NoError(t, err)
		_, err = market.AddComment(context.Background(), sponsor, marketplace.TargetPost, post.ID, marketplace.CommentInput{Content: "post reply"})
		require.NoError(t, err)
		_, err = market.DevSetReputation(context.Background(), sponsor, 250)
		require.NoError(t, err)
		_, err = agrSvc.DevMint(context.Background(), sponsor, 42)
		require.NoError(t, err)
		srv := httptest.NewServer(web.NewHandler(web.Services{Market: market, AGR: agrSvc, Stake: stakeSvc}))
		defer srv.Close()

		status, body := get(t, srv, "/")
		require.Equal(t, http.StatusOK, status)
		require.Contains(t, body, `href="/jobs/`+j.ID+`"`)
		require.Contains(t, body, "&lt;script&gt;alert(1)&lt;/script&gt; Summarize")
		require.NotContains(t, body, "<script>alert(1)")
		require.Contains(t, body, `<main id="main"`)

		status, body = get(t, srv, "/?tag=docs")
		require.Equal(t, http.StatusOK, status)
		require.Contains(t, body, j.ID)
		status, body = get(t, srv, "/?tag=other")
		require.Equal(t, http.StatusOK, status)
		require.NotContains(t, body, j.ID)

		status, body = get(t, srv, "/jobs/"+j.ID)
		require.Equal(t, http.StatusOK, status)
		require.Contains(t, body, "Read &amp; &lt;b&gt;summarize&lt;/b&gt;")
		require.Contains(t, body, sponsor.String())
		require.Contains(t, body, "Work &lt;i&gt;done&lt;/i&gt;")
		require.Contains(t, body, `href="https://example.com/a"`)
		require.Contains(t, body, "a &lt;q&gt;")
		require.Contains(t, body, "Confidence:</span> 75%")

		require.Contains(t, body, "Nice &lt;img src=x&gt;")
		require.Contains(t, body, `id="discussion"`)
		require.Contains(t, body, `<time datetime="2026-01-02T00:00:00Z" title="2026-01-02 00:00 UTC">`, "the window's end, exact on hover")

		status, body = get(t, srv, "/leaderboard")
		require.Equal(t, http.StatusOK, status)
		require.Contains(t, body, `href="/agents/`+sponsor.String()+`"`)
		require.Contains(t, body, `<td class="num">250</td><td class="num">3</td>`)

		status, body = get(t, srv, "/agents/"+sponsor.String())
		require.Equal(t, http.StatusOK, status)
		require.Contains(t, body, `id="score">250</span><span class="stat-note">level 3<`)
		require.Contains(t, body, `id="agr-balance">42<`)
		require.Contains(t, body, "eligible to submit and vote")
		status, _ = get(t, srv, "/agents/not-an-address")
		require.Equal(t, http.StatusNotFound, status)

		status, body = get(t, srv, "/posts")
		require.Equal(t, http.StatusOK, status)
		require.Contains(t, body, `href="/posts/`+post.ID+`"`)
		require.Contains(t, body, "Hello &lt;em&gt;all&lt;/em&gt;")
		status, body = get(t, srv, "/posts/"+post.ID)
		require.Equal(t, http.StatusOK, status)
		require.Contains(t, body, "Post &amp; body")
		require.Contains(t, body, "post reply")
		status, _ = get(t, srv, "/posts/"+openjury.NewID())
		require.Equal(t, http.StatusNotFound, status)

		status, _ = get(t, srv, "/jobs/nope")
		require.Equal(t, http.StatusNotFound, status)
		status, _ = get(t, srv, "/jobs/"+openjury.NewID())
		require.Equal(t, http.StatusNotFound, status)
		status, body = get(t, srv, "/unknown")
		require.Equal(t, http.StatusNotFound, status)
		require.Contains(t, body, "Page not found")
		status, _ = get(t, srv, "/?cursor=garbage")
		require.Equal(t, http.StatusBadRequest, status)
	})
}

func TestStaticAssets(t *testing.T) {
	srv := httptest.NewServer(web.NewHandler(web.Services{}))
	defer srv.Close()
	for path, ctype := range map[string]string{"/static/app.css": "text/css", "/static/app.js": "javascript"} {
		resp, err := http.Get(srv.URL + path)
		require.NoError(t, err)
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode, path)
		require.Contains(t, resp.Header.Get("Content-Type"), ctype, path)
		require.NotEmpty(t, body)
	}
}

func TestSearchBox(t *testing.T) {
	srv := openjurytest.NewServer(t)
	sponsor := openjury.MustAddress("0x1111111111111111111111111111111111111111")
	j, err := srv.Market.CreateJob(context.Background(), sponsor, marketplace.CreateJobInput{Title: "Translate the <manual>", Prompt: "Translate the manual into French"})
	require.NoError(t, err)
	srv.FlushSearch(t)
	on := httptest.NewServer(web.NewHandler(web.Services{Market: srv.Market, Search: srv.Search}))
	defer on.Close()
	status, body := get(t, on, "/?q=translate+manual")
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, body, `href="/jobs/`+j.ID+`"`)
	require.Contains(t, body, "Translate the &lt;manual&gt;")
	require.Contains(t, body, `id="q"`)

	off := httptest.NewServer(web.NewHandler(web.Services{Market: srv.Market}))
	defer off.Close()
	status, body = get(t, off, "/?q=translate")
	require.Equal(t, http.StatusOK, status)
	require.NotContains(t, body, `id="q"`, "no search box when semantic search is off")
	require.Contains(t, body, j.ID, "the plain list still answers")
}

// TestSearchPage: the search page lists every kind with its highlighted
// snippet (the document's markup escaped, only the matches in <mark>),
// links a hit to its job, pages with the cursor, and answers 501 when
// search is off.
func TestSearchPage(t *testing.T) {
	srv := openjurytest.NewServer(t)
	ctx := context.Background()
	sponsor := openjury.MustAddress("0x1111111111111111111111111111111111111111")
	j, err := srv.Market.CreateJob(ctx, sponsor, marketplace.CreateJobInput{Title: "Heliotrope audit", Prompt: "Check the <script>alert(1)</script> heliotrope widget"})
	require.NoError(t, err)
	c, err := srv.Market.AddComment(ctx, sponsor, marketplace.TargetJob, j.ID, marketplace.CommentInput{Content: "A heliotrope <img src=x onerror=alert(1)> comment"})
	require.NoError(t, err)
	p, err := srv.Market.CreatePost(ctx, sponsor, marketplace.PostInput{Title: "Heliotrope news", Content: "heliotrope & friends"})
	require.NoError(t, err)
	srv.FlushSearch(t)
	on := httptest.NewServer(web.NewHandler(web.Services{Market: srv.Market, Search: srv.Search}))
	defer on.Close()

	status, body := get(t, on, "/search?q=heliotrope")
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, body, `href="/jobs/`+j.ID+`"`)
	require.Contains(t, body, `href="/jobs/`+j.ID+`#c-`+c.ID+`"`, "a comment links to its place on its job")
	require.Contains(t, body, `href="/posts/`+p.ID+`"`)
	require.Contains(t, body, "Check the &lt;script&gt;alert(1)&lt;/script&gt; <mark>heliotrope</mark> widget")
	require.Contains(t, body, "A <mark>heliotrope</mark> &lt;img src=x onerror=alert(1)&gt; comment")
	require.NotContains(t, body, "<script>alert")
	require.NotContains(t, body, "<img src=x")

	status, body = get(t, on, "/search?q=heliotrope&type=post")
	require.Equal(t, http.StatusOK, status)
	require.NotContains(t, body, `href="/jobs/`+j.ID+`"`)

	status, body = get(t, on, "/search?q=heliotrope&type=all")
	require.Equal(t, http.StatusOK, status)
	require.NotContains(t, body, `rel="next"`)
	res, err := srv.Search.Search(ctx, search.Request{Q: "heliotrope", Limit: 1})
	require.NoError(t, err)
	require.NotEmpty(t, res.NextCursor)
	status, body = get(t, on, "/search?q=heliotrope&type=all&cursor="+res.NextCursor)
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, body, "<mark>heliotrope</mark>")
	status, _ = get(t, on, "/search?q=heliotrope&cursor=bogus")
	require.Equal(t, http.StatusBadRequest, status)
	status, _ = get(t, on, "/search?q=heliotrope&type=votes")
	require.Equal(t, http.StatusBadRequest, status)
	status, body = get(t, on, "/search")
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, body, `id="sq"`)

	off := httptest.NewServer(web.NewHandler(web.Services{Market: srv.Market}))
	defer off.Close()
	status, _ = get(t, off, "/search?q=heliotrope")
	require.Equal(t, http.StatusNotImplemented, status)
}
