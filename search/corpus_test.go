package search_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/openjurytest/pgtest"
	"github.com/openjury/openjury/search"
)

// onEachBackend runs test on a server over SQLite and one over PostgreSQL.
func onEachBackend(t *testing.T, test func(t *testing.T, srv *openjurytest.Server)) {
	t.Helper()
	backends := map[string]func(testing.TB) string{
		"sqlite":   func(testing.TB) string { return "" },
		"postgres": pgtest.NewDatabase,
	}
	for name, dsn := range backends {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			test(t, openjurytest.NewServer(t, openjurytest.WithDSN(dsn(t))))
		})
	}
}

// searchResponse is the decoded SemanticSearchResponse.
type searchResponse struct {
	Query   string `json:"query"`
	Count   int    `json:"count"`
	Results []struct {
		Type       string  `json:"type"`
		ID         string  `json:"id"`
		Similarity float64 `json:"similarity"`
		Title      *string `json:"title"`
		Content    *string `json:"content"`
	} `json:"results"`
}

// query runs GET /api/v1/search/semantic with params and requires 200.
func query(t *testing.T, srv *openjurytest.Server, params url.Values) searchResponse {
	t.Helper()
	res := srv.Do(t, http.MethodGet, "/api/v1/search/semantic?"+params.Encode(), "", nil)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	var out searchResponse
	res.JSON(t, &out)
	require.Equal(t, len(out.Results), out.Count)
	return out
}

// corpus is what the fixed corpus test writes, by name.
type corpus map[string]string

// writeCorpus posts the fixed corpus through the marketplace: jobs,
// submissions with evidence, comments (one per author: the comment rate)
// and posts, some in Russian and Japanese and one of 20,000 characters.
func writeCorpus(t *testing.T, srv *openjurytest.Server) corpus {
	t.Helper()
	ctx := context.Background()
	m := srv.Market
	ids := corpus{}
	sponsor := openjurytest.NewWallet(t).Address()
	job := func(name, title, prompt string) {
		j, err := m.CreateJob(ctx, sponsor, marketplace.CreateJobInput{Title: title, Prompt: prompt, Bounty: 10 * openjury.MicroPerUSDC})
		require.NoError(t, err)
		ids[name] = j.ID
	}
	job("job-siwe", "Summarise EIP-4361 Sign-In with Ethereum", "Write one paragraph explaining how wallets sign in to websites, with sources.")
	job("job-bridge", "Audit the token bridge contract", "Review the Solidity code of our cross-chain bridge before launch.")
	job("job-japanese", "Translate the onboarding guide into Japanese", "The guide has twelve pages about account creation.")
	job("job-pool", "Benchmark PostgreSQL connection pooling", "Compare pgbouncer with an application-side pool under load.")

	submit := func(name, jobName, content, claim, quote string) {
		agent := openjurytest.NewWallet(t).Address()
		srv.SetStake(t, agent, 100)
		s, err := m.Submit(ctx, agent, marketplace.SubmitInput{JobID: ids[jobName], Content: content,
			Evidence: []marketplace.EvidenceInput{{Type: "note", Claim: claim, Quote: quote}}})
		require.NoError(t, err)
		ids[name] = s.ID
	}
	submit("sub-reentrancy", "job-bridge", "The withdraw function updates the balance after the external call.",
		"withdraw is reentrant", "msg.sender.call{value: amount}")
	submit("sub-pgbouncer", "job-pool", "Measured latency at 2000 clients for both setups.",
		"pgbouncer in transaction mode kept latency flat", "p99 stayed under 12 ms")

	comment := func(name string, target marketplace.TargetType, targetName, content string) {
		author := openjurytest.NewWallet(t).Address()
		c, err := m.AddComment(ctx, author, target, ids[targetName], marketplace.CommentInput{Content: content})
		require.NoError(t, err)
		ids[name] = c.ID
	}
	comment("comment-nonce", marketplace.TargetJob, "job-siwe", "Please include the nonce and expiration fields of the message.")
	comment("comment-katakana", marketplace.TargetJob, "job-japanese", "Katakana or kanji for the product names?")
	comment("comment-cei", marketplace.TargetSubmission, "sub-reentrancy", "Great catch: the checks-effects-interactions pattern fixes it.")

	post := func(name, title, content string) {
		p, err := m.CreatePost(ctx, openjurytest.NewWallet(t).Address(), marketplace.PostInput{Title: title, Content: content})
		require.NoError(t, err)
		ids[name] = p.ID
	}
	post("post-garden", "Weekly digest: gardening robots", "Our community built an irrigation robot for tomatoes.")
	post("post-zk", "Zero-knowledge proofs primer", "An introduction to zk-SNARKs and trusted setups.")
	post("post-russian", "Обзор криптографии", "Эллиптические кривые и цифровые подписи простыми словами.")
	post("post-japanese", "東京イベント報告", "東京で開催された開発者イベントの報告です。")
	// 20,000 characters: filler words around one distinctive phrase.
	filler := strings.Repeat("lorem ipsum dolor sit amet ", 400)
	long := filler + "the quasar telemetry pipeline " + filler
	long = long[:20000-len("end")] + "end"
	post("post-long", "Notes", long)
	return ids
}

// TestCorpus: for each of a dozen queries the intended document ranks
// first; type filters, limits, the order, deletion, unicode and long
// documents.
func TestCorpus(t *testing.T) {
	t.Parallel()
	onEachBackend(t, func(t *testing.T, srv *openjurytest.Server) {
		ids := writeCorpus(t, srv)
		srv.FlushSearch(t)

		for _, tc := range []struct{ q, want string }{
			{"sign in with ethereum", "job-siwe"},
			{"bridge contract audit", "job-bridge"},
			{"reentrant withdraw external call", "sub-reentrancy"},
			{"japanese translation of the guide", "job-japanese"},
			{"postgres pool benchmark", "job-pool"},
			{"pgbouncer transaction mode latency", "sub-pgbouncer"},
			{"nonce and expiration", "comment-nonce"},
			{"katakana kanji", "comment-katakana"},
			{"checks effects interactions", "comment-cei"},
			{"irrigation robots for tomatoes", "post-garden"},
			{"zk-snarks trusted setup", "post-zk"},
			{"криптография и подписи", "post-russian"},
			{"東京の開発者イベント", "post-japanese"},
			{"quasar telemetry", "post-long"},
		} {
			res := query(t, srv, url.Values{"q": {tc.q}})
			require.NotEmpty(t, res.Results, tc.q)
			require.Equal(t, ids[tc.want], res.Results[0].ID, "query %q: first result %+v", tc.q, res.Results[0])
			require.Equal(t, tc.q, res.Query)
		}

		// Every result: a known type, similarity in -1..1, title only for
		// jobs and posts, content present; ordered by similarity, then
		// type, then id.
		rank := map[string]int{"job": 0, "submission": 1, "comment": 2, "post": 3}
		all := query(t, srv, url.Values{"q": {"the guide and the bridge"}, "limit": {"50"}})
		require.Len(t, all.Results, len(ids))
		for i, r := range all.Results {
			require.GreaterOrEqual(t, r.Similarity, -1.0)
			require.LessOrEqual(t, r.Similarity, 1.0)
			require.Equal(t, r.Type == "job" || r.Type == "post", r.Title != nil, r.Type)
			require.NotNil(t, r.Content)
			if i > 0 {
				p := all.Results[i-1]
				require.True(t, p.Similarity > r.Similarity || (p.Similarity == r.Similarity &&
					(rank[p.Type] < rank[r.Type] || (p.Type == r.Type && p.ID < r.ID))), "order at %d", i)
			}
		}
		long := query(t, srv, url.Values{"q": {"quasar telemetry"}, "limit": {"1"}})
		require.Len(t, *long.Results[0].Content, 300, "a snippet of the long post")

		// Type filters and limits.
		for _, typ := range []string{"job", "submission", "comment", "post"} {
			res := query(t, srv, url.Values{"q": {"bridge pool guide robots"}, "type": {typ}})
			require.NotEmpty(t, res.Results)
			for _, r := range res.Results {
				require.Equal(t, typ, r.Type)
			}
		}
		require.Len(t, query(t, srv, url.Values{"q": {"bridge"}, "limit": {"3"}}).Results, 3)
		require.Len(t, query(t, srv, url.Values{"q": {"bridge"}}).Results, len(ids), "default limit 20 over 14 documents")
		require.Equal(t, "padded", query(t, srv, url.Values{"q": {"  padded \n"}}).Query)

		// A deleted comment leaves the results.
		_, err := srv.Market.DeleteComment(context.Background(), openjurytest.NewWallet(t).Address(), ids["comment-nonce"])
		require.Equal(t, openjury.Forbidden, openjury.KindOf(err), "only its author or an operator")
		c, err := srv.DB.Comments().Comment(context.Background(), ids["comment-nonce"])
		require.NoError(t, err)
		_, err = srv.Market.DeleteComment(context.Background(), c.Author, c.ID)
		require.NoError(t, err)
		srv.FlushSearch(t)
		for _, r := range query(t, srv, url.Values{"q": {"nonce and expiration"}, "limit": {"50"}}).Results {
			require.NotEqual(t, ids["comment-nonce"], r.ID)
		}
		require.Len(t, query(t, srv, url.Values{"q": {"bridge"}, "limit": {"50"}}).Results, len(ids)-1)
	})
}

// TestSearchParameters: every parameter error is 400 naming the parameter.
func TestSearchParameters(t *testing.T) {
	t.Parallel()
	srv := openjurytest.NewServer(t)
	for _, tc := range []struct{ query, field string }{
		{"", "q"},
		{"q=", "q"},
		{"q=%20%20", "q"},
		{"q=" + strings.Repeat("a", 501), "q"},
		{"q=x&type=jobs", "type"},
		{"q=x&type=", ""},
		{"q=x&limit=0", "limit"},
		{"q=x&limit=51", "limit"},
		{"q=x&limit=ten", "limit"},
	} {
		res := srv.Do(t, http.MethodGet, "/api/v1/search/semantic?"+tc.query, "", nil)
		if tc.field == "" {
			require.Equal(t, http.StatusOK, res.Status, tc.query)
			continue
		}
		require.Equal(t, http.StatusBadRequest, res.Status, tc.query)
		require.True(t, strings.HasPrefix(res.Map(t)["detail"].(string), tc.field+":"), "%s: %s", tc.query, res.Body)
	}
	// 500 characters (not bytes) are fine.
	res := srv.Do(t, http.MethodGet, "/api/v1/search/semantic?"+url.Values{"q": {strings.Repeat("я", 500)}}.Encode(), "", nil)
	require.Equal(t, http.StatusOK, res.Status)

	// A NUL in the query is Invalid in the service itself (the web app's
	// search box calls it directly).
	_, err := srv.Search.Search(context.Background(), search.Request{Q: "a\x00b", Limit: search.DefaultLimit})
	require.Equal(t, openjury.Invalid, openjury.KindOf(err))
	require.Equal(t, "q: must not contain NUL characters", openjury.DetailOf(err))
}

// TestSearchDisabled: a server without search answers 501.
func TestSearchDisabled(t *testing.T) {
	t.Parallel()
	srv := openjurytest.NewServer(t, openjurytest.WithConfig(func(c *openjurytest.ServerConfig) { c.SemanticSearchEnabled = false }))
	res := srv.Do(t, http.MethodGet, "/api/v1/search/semantic?q=bridge", "", nil)
	require.Equal(t, http.StatusNotImplemented, res.Status)
	require.Contains(t, res.Map(t)["detail"], "semantic search is disabled")
	// Writes still work, and queue their documents for a later indexer.
	_, err := srv.Market.CreatePost(context.Background(), openjurytest.NewWallet(t).Address(), marketplace.PostInput{Title: "t", Content: "c"})
	require.NoError(t, err)
	n, err := srv.DB.SearchIndex().PendingCount(context.Background())
	require.NoError(t, err)
	require.Equal(t, int64(1), n)
}

// TestReplicasAgree: two servers on one PostgreSQL database; a document
// written through one is found through the other within 2 s, and so is
// its deletion.
func TestReplicasAgree(t *testing.T) {
	t.Parallel()
	dsn := pgtest.NewDatabase(t)
	a := openjurytest.NewServer(t, openjurytest.WithDSN(dsn))
	b := openjurytest.NewServer(t, openjurytest.WithDSN(dsn))
	author := openjurytest.NewWallet(t).Address()
	post, err := a.Market.CreatePost(context.Background(), author, marketplace.PostInput{Title: "Replica check", Content: "heliotrope marmalade"})
	require.NoError(t, err)
	c, err := a.Market.AddComment(context.Background(), author, marketplace.TargetPost, post.ID, marketplace.CommentInput{Content: "saffron lighthouse"})
	require.NoError(t, err)

	found := func(srv *openjurytest.Server, q, id string) bool {
		for _, r := range query(t, srv, url.Values{"q": {q}, "limit": {"5"}}).Results {
			if r.ID == id {
				return true
			}
		}
		return false
	}
	// The replicas must converge; how fast (CONTRACT: within 2 s) is a
	// figure logged here and measured in BENCHMARKS.md, not a wall-clock
	// assertion that a loaded CI machine could break.
	const converge = 20 * time.Second
	start := time.Now()
	require.Eventually(t, func() bool { return found(b, "heliotrope marmalade", post.ID) && found(b, "saffron lighthouse", c.ID) },
		converge, 20*time.Millisecond, "replica b finds what a wrote")
	t.Logf("searchable on the other replica after %v", time.Since(start))

	_, err = a.Market.DeleteComment(context.Background(), author, c.ID)
	require.NoError(t, err)
	require.Eventually(t, func() bool { return !found(b, "saffron lighthouse", c.ID) && !found(a, "saffron lighthouse", c.ID) },
		converge, 20*time.Millisecond, "the deleted comment leaves both replicas")
	require.True(t, found(a, "heliotrope marmalade", post.ID))
}

// TestSearchMetrics: GET /metrics has the search metrics.
func TestSearchMetrics(t *testing.T) {
	t.Parallel()
	srv := openjurytest.NewServer(t)
	_, err := srv.Market.CreatePost(context.Background(), openjurytest.NewWallet(t).Address(), marketplace.PostInput{Title: "Metrics", Content: "counted"})
	require.NoError(t, err)
	srv.FlushSearch(t)
	query(t, srv, url.Values{"q": {"metrics"}})
	res := srv.Do(t, http.MethodGet, "/metrics", "", nil)
	require.Equal(t, http.StatusOK, res.Status)
	body := string(res.Body)
	require.Contains(t, body, "openjury_search_documents_indexed_total 1")
	require.Contains(t, body, "openjury_search_query_duration_seconds_count 1")
	require.Contains(t, body, "openjury_search_embed_errors_total 0")
	require.Contains(t, body, "openjury_search_pending_documents")
}
