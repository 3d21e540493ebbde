package search_test

import (
	"context"
	"fmt"
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
		JobID      *string `json:"job_id"`
		Similarity float64 `json:"similarity"`
		Title      *string `json:"title"`
		Content    *string `json:"content"`
		Snippet    string  `json:"snippet"`
	} `json:"results"`
	NextCursor *string `json:"next_cursor"`
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

		// Stemming: "translation" finds "Translate", "translating" too.
		for _, q := range []string{"translation", "translating guides"} {
			require.Equal(t, ids["job-japanese"], query(t, srv, url.Values{"q": {q}}).Results[0].ID, q)
		}

		// Every result: a known type, similarity in 0..1, title only for
		// jobs and posts, content present, the job it belongs to;
		// ordered by similarity, then type, then id.
		rank := map[string]int{"job": 0, "submission": 1, "comment": 2, "post": 3}
		jobOf := map[string]*string{}
		for name, id := range ids {
			var job string
			switch name {
			case "job-siwe", "comment-nonce":
				job = ids["job-siwe"]
			case "job-bridge", "sub-reentrancy", "comment-cei":
				job = ids["job-bridge"]
			case "job-japanese", "comment-katakana":
				job = ids["job-japanese"]
			case "job-pool", "sub-pgbouncer":
				job = ids["job-pool"]
			default:
				jobOf[id] = nil // posts
				continue
			}
			jobOf[id] = &job
		}
		broad := url.Values{"q": {"guide bridge withdraw pgbouncer nonce katakana robot snarks telemetry"}, "limit": {"50"}}
		all := query(t, srv, broad)
		require.GreaterOrEqual(t, len(all.Results), 9)
		require.Nil(t, all.NextCursor)
		for i, r := range all.Results {
			require.Greater(t, r.Similarity, 0.0)
			require.LessOrEqual(t, r.Similarity, 1.0)
			require.Equal(t, r.Type == "job" || r.Type == "post", r.Title != nil, r.Type)
			require.NotNil(t, r.Content)
			require.Equal(t, jobOf[r.ID], r.JobID, "job_id of %s %s", r.Type, r.ID)
			require.Contains(t, r.Snippet, "<mark>", "%s %s: %s", r.Type, r.ID, r.Snippet)
			if i > 0 {
				p := all.Results[i-1]
				require.True(t, p.Similarity > r.Similarity || (p.Similarity == r.Similarity &&
					(rank[p.Type] < rank[r.Type] || (p.Type == r.Type && p.ID < r.ID))), "order at %d", i)
			}
		}

		// Pages: limit 2 with the cursors gives the same results in the
		// same order; a cursor of another query or a forged one is 400.
		var paged []string
		page := url.Values{"q": broad["q"], "limit": {"2"}}
		for range 20 {
			res := query(t, srv, page)
			for _, r := range res.Results {
				paged = append(paged, r.ID)
			}
			if res.NextCursor == nil {
				break
			}
			require.Len(t, res.Results, 2)
			page.Set("cursor", *res.NextCursor)
		}
		var whole []string
		for _, r := range all.Results {
			whole = append(whole, r.ID)
		}
		require.Equal(t, whole, paged)
		first := query(t, srv, url.Values{"q": broad["q"], "limit": {"2"}})
		for _, bad := range []url.Values{
			{"q": {"another query"}, "cursor": {*first.NextCursor}},
			{"q": broad["q"], "type": {"job"}, "cursor": {*first.NextCursor}},
			{"q": broad["q"], "cursor": {"not-a-cursor"}},
			{"q": broad["q"], "cursor": {"eyJzIjowLjUsImsiOjksImkiOiJ4In0"}},
		} {
			res := srv.Do(t, http.MethodGet, "/api/v1/search/semantic?"+bad.Encode(), "", nil)
			require.Equal(t, http.StatusBadRequest, res.Status, "%v", bad)
			require.Equal(t, "cursor: not a cursor from this list", res.Map(t)["detail"])
		}

		// Snippets: the matched words marked, the rest escaped; a long
		// document shows the passage around them.
		nonce := query(t, srv, url.Values{"q": {"nonce and expiration"}, "limit": {"1"}}).Results[0]
		require.Equal(t, "Please include the <mark>nonce</mark> and <mark>expiration</mark> fields of the message.", nonce.Snippet)
		long := query(t, srv, url.Values{"q": {"quasar telemetry"}, "limit": {"1"}}).Results[0]
		require.Len(t, *long.Content, 300, "content: the beginning of the long post")
		require.Contains(t, long.Snippet, "<mark>quasar</mark> <mark>telemetry</mark> pipeline")
		require.True(t, strings.HasPrefix(long.Snippet, "…") && strings.HasSuffix(long.Snippet, "…"), long.Snippet)

		// Unrelated words find nothing.
		require.Empty(t, query(t, srv, url.Values{"q": {"florb zanquix wibblethorp"}}).Results)

		// Type filters and limits.
		for typ, q := range map[string]string{"job": "bridge guide", "submission": "pgbouncer withdraw", "comment": "nonce katakana", "post": "robot snarks"} {
			res := query(t, srv, url.Values{"q": {q}, "type": {typ}})
			require.Len(t, res.Results, 2, typ)
			for _, r := range res.Results {
				require.Equal(t, typ, r.Type)
			}
		}
		require.Len(t, query(t, srv, url.Values{"q": broad["q"], "limit": {"3"}}).Results, 3)
		require.Equal(t, "padded", query(t, srv, url.Values{"q": {"  padded \n"}}).Query)

		// A deleted comment leaves the results as its delete commits,
		// before the indexer or the follower ran.
		_, err := srv.Market.DeleteComment(context.Background(), openjurytest.NewWallet(t).Address(), ids["comment-nonce"])
		require.Equal(t, openjury.Forbidden, openjury.KindOf(err), "only its author or an operator")
		c, err := srv.DB.Comments().Comment(context.Background(), ids["comment-nonce"])
		require.NoError(t, err)
		_, err = srv.Market.DeleteComment(context.Background(), c.Author, c.ID)
		require.NoError(t, err)
		for _, r := range query(t, srv, url.Values{"q": {"nonce and expiration"}, "limit": {"50"}}).Results {
			require.NotEqual(t, ids["comment-nonce"], r.ID)
		}
		// And a new document is found by its words once the indexer's
		// lexical step ran (within its poll interval).
		p, err := srv.Market.CreatePost(context.Background(), openjurytest.NewWallet(t).Address(), marketplace.PostInput{Title: "Heliotrope", Content: "marmalade recipes"})
		require.NoError(t, err)
		var fresh searchResponse
		require.Eventually(t, func() bool {
			fresh = query(t, srv, url.Values{"q": {"heliotrope marmalade"}})
			return len(fresh.Results) > 0
		}, 20*time.Second, 10*time.Millisecond)
		require.Len(t, fresh.Results, 1)
		require.Equal(t, p.ID, fresh.Results[0].ID)
		require.Nil(t, fresh.Results[0].JobID)
	})
}

// TestPagesIgnoreLaterWrites: on both engines, the pages of a query are
// the ranking of its first page, each document once, while documents
// that match better are written between pages and a comment still to
// come is deleted (it is left out).
func TestPagesIgnoreLaterWrites(t *testing.T) {
	t.Parallel()
	onEachBackend(t, func(t *testing.T, srv *openjurytest.Server) {
		ctx := context.Background()
		m := srv.Market
		post := func(content string) string {
			p, err := m.CreatePost(ctx, openjurytest.NewWallet(t).Address(), marketplace.PostInput{Title: "Harbor log", Content: content})
			require.NoError(t, err)
			return p.ID
		}
		host := post("harbor pilots")
		comments := map[string]openjury.Address{}
		for i := range 10 {
			post(fmt.Sprintf("saffron lighthouse keeper notes, entry %d", i))
			author := openjurytest.NewWallet(t).Address()
			c, err := m.AddComment(ctx, author, marketplace.TargetPost, host, marketplace.CommentInput{Content: fmt.Sprintf("saffron lighthouse comment %d", i)})
			require.NoError(t, err)
			comments[c.ID] = author
		}
		srv.FlushSearch(t)
		params := url.Values{"q": {"saffron lighthouse keeper"}, "limit": {"50"}}
		whole := query(t, srv, params)
		require.Len(t, whole.Results, 20)

		params.Set("limit", "3")
		res := query(t, srv, params)
		got := []string{}
		deleted := ""
		for page := 0; ; page++ {
			for _, r := range res.Results {
				got = append(got, r.ID)
			}
			if res.NextCursor == nil {
				break
			}
			post("saffron lighthouse keeper saffron lighthouse keeper") // ranks first now
			if deleted == "" {
				// A comment after the next page leaves the results.
				for _, r := range whole.Results[len(got)+3:] {
					if author, ok := comments[r.ID]; ok {
						_, err := m.DeleteComment(ctx, author, r.ID)
						require.NoError(t, err)
						deleted = r.ID
						break
					}
				}
			}
			srv.FlushSearch(t)
			params.Set("cursor", *res.NextCursor)
			res = query(t, srv, params)
		}
		require.NotEmpty(t, deleted)
		want := []string{}
		for _, r := range whole.Results {
			if r.ID != deleted {
				want = append(want, r.ID)
			}
		}
		require.Equal(t, want, got)
		params.Del("cursor")
		require.NotEqual(t, whole.Results[0].ID, query(t, srv, params).Results[0].ID, "a new query ranks the new posts")
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
