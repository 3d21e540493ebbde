package openjurytest_test

import (
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/openjurytest/pgtest"
	"github.com/openjury/openjury/server"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// onEachBackend runs test as parallel subtests "sqlite" and "postgres",
// each with a NewServer on that database (pgtest.NewDatabase for
// PostgreSQL).
func onEachBackend(t *testing.T, test func(t *testing.T, srv *openjurytest.Server)) {
	t.Helper()
	backends := map[string]func(testing.TB) string{
		"sqlite":   func(testing.TB) string { return "" }, // NewServer's fresh SQLite file
		"postgres": pgtest.NewDatabase,
	}
	for name, dsn := range backends {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			test(t, openjurytest.NewServer(t, openjurytest.WithDSN(dsn(t))))
		})
	}
}

func TestClock(t *testing.T) {
	t.Parallel()
	c := openjurytest.NewClock()
	require.Equal(t, openjurytest.Epoch, c.Now())
	require.Equal(t, openjurytest.Epoch.Add(time.Hour), c.Advance(time.Hour))
	at := time.Date(2030, 5, 6, 7, 8, 9, 0, time.FixedZone("x", 7200))
	c.Set(at)
	require.True(t, c.Now().Equal(at))
	require.Equal(t, time.UTC, c.Now().Location())
}

// TestServerStory signs in and posts a job through NewServer, on SQLite and
// on PostgreSQL: the whole stack as an embedder's test would drive it.
func TestServerStory(t *testing.T) {
	t.Parallel()
	onEachBackend(t, func(t *testing.T, srv *openjurytest.Server) {
		w := openjurytest.NewWallet(t)
		token := srv.SignIn(t, w)
		require.NotEmpty(t, token)

		srv.Clock.Advance(90 * time.Minute)
		r := srv.Do(t, http.MethodPost, "/api/v1/jobs", token, map[string]any{"title": "t", "prompt": "p", "bounty_usdc": 3})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		job := r.Map(t)
		require.Equal(t, w.Address().String(), job["sponsor_address"])
		require.Equal(t, "2026-01-01T01:30:00.000Z", job["created_at"], "the fake clock drives the server")

		r = srv.Do(t, http.MethodGet, "/api/v1/jobs/"+job["id"].(string), "", nil)
		require.Equal(t, http.StatusOK, r.Status)
		require.Equal(t, job, r.Map(t))

		// Tokens die with the fake clock too.
		srv.Clock.Advance(openjurytest.DefaultTokenTTL)
		r = srv.Do(t, http.MethodPost, "/api/v1/jobs", token, map[string]any{"title": "t", "prompt": "p", "bounty_usdc": 3})
		require.Equal(t, http.StatusUnauthorized, r.Status)
	})
}

// TestServerLoop runs the whole work-and-jury loop through NewServer on
// SQLite and PostgreSQL, with the helpers setting stake, reputation and
// AGR: submit, vote, final vote, finalize, the win mint, a boost.
func TestServerLoop(t *testing.T) {
	t.Parallel()
	onEachBackend(t, func(t *testing.T, srv *openjurytest.Server) {
		sponsor, worker, juror := openjurytest.NewWallet(t), openjurytest.NewWallet(t), openjurytest.NewWallet(t)
		st, wt, jt := srv.SignIn(t, sponsor), srv.SignIn(t, worker), srv.SignIn(t, juror)

		r := srv.Do(t, http.MethodPost, "/api/v1/jobs", st, map[string]any{"title": "t", "prompt": "p", "bounty_usdc": 3, "final_vote_window_seconds": 600})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		jobID := r.Map(t)["id"].(string)

		// Default minimum stake: 10 USDC.
		sub := map[string]any{"job_id": jobID, "content": "work"}
		r = srv.Do(t, http.MethodPost, "/api/v1/submissions", wt, sub)
		require.Equal(t, http.StatusForbidden, r.Status, "%s", r.Body)
		srv.SetStake(t, worker.Address(), 10)
		r = srv.Do(t, http.MethodPost, "/api/v1/submissions", wt, sub)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		subID := r.Map(t)["submission"].(map[string]any)["id"].(string)

		// Jury vote: stake and reputation (default minimum 10).
		vote := map[string]any{"job_id": jobID, "submission_id": subID}
		srv.SetStake(t, juror.Address(), 10)
		r = srv.Do(t, http.MethodPost, "/api/v1/votes", jt, vote)
		require.Equal(t, http.StatusForbidden, r.Status, "%s", r.Body)
		srv.SetReputation(t, juror.Address(), 9)
		r = srv.Do(t, http.MethodPost, "/api/v1/votes", jt, vote)
		require.Equal(t, http.StatusForbidden, r.Status, "%s", r.Body)
		srv.SetReputation(t, juror.Address(), 10)
		r = srv.Do(t, http.MethodPost, "/api/v1/votes", jt, vote)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		require.EqualValues(t, 4, r.Map(t)["vote"].(map[string]any)["weight"])

		// Final vote, then finalize after the window.
		r = srv.Do(t, http.MethodPost, "/api/v1/final_votes", jt, vote)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		srv.Clock.Advance(10 * time.Minute)
		r = srv.Do(t, http.MethodPost, "/api/v1/jobs/"+jobID+"/finalize", jt, nil)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		require.Equal(t, subID, r.Map(t)["winner_submission_id"])

		// The winner got the default 50 AGR, recorded as a win.
		r = srv.Do(t, http.MethodGet, "/api/v1/agr/ledger?address="+worker.Address().String(), "", nil)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		entry := r.Map(t)["entries"].([]any)[0].(map[string]any)
		require.Equal(t, "win", entry["reason"])
		require.EqualValues(t, openjurytest.DefaultAGRMintPerWin, entry["delta"])
		require.Equal(t, jobID, entry["job_id"])

		// MintAGR funds a boost of another job.
		r = srv.Do(t, http.MethodPost, "/api/v1/jobs", st, map[string]any{"title": "t2", "prompt": "p", "bounty_usdc": 1})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		job2 := r.Map(t)["id"].(string)
		boost := map[string]any{"amount_agr": 70, "duration_hours": 1}
		r = srv.Do(t, http.MethodPost, "/api/v1/jobs/"+job2+"/boost", jt, boost)
		require.Equal(t, http.StatusPaymentRequired, r.Status, "%s", r.Body)
		srv.MintAGR(t, juror.Address(), 70)
		r = srv.Do(t, http.MethodPost, "/api/v1/jobs/"+job2+"/boost", jt, boost)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		require.EqualValues(t, 70, r.Map(t)["featured_score"])

		// The dev endpoints answer to openjurytest.DevSecret.
		req, err := http.NewRequest(http.MethodPost, srv.URL+"/api/v1/agr/dev_mint",
			strings.NewReader(`{"address":"`+sponsor.Address().String()+`","amount":5}`))
		require.NoError(t, err)
		req.Header.Set("X-Dev-Secret", openjurytest.DevSecret)
		resp, err := srv.HTTP.Client().Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode)
	})
}

// TestServerOperators: the operator setting (OperatorAddresses) reaches the marketplace, which
// decides comment moderation: an operator may delete anyone's comment.
func TestServerOperators(t *testing.T) {
	t.Parallel()
	op, author, stranger := openjurytest.NewWallet(t), openjurytest.NewWallet(t), openjurytest.NewWallet(t)
	srv := openjurytest.NewServer(t, openjurytest.WithConfig(func(c *openjurytest.ServerConfig) {
		c.OperatorAddresses = []openjury.Address{op.Address()}
	}))
	require.True(t, srv.Market.IsOperator(op.Address()))
	require.Equal(t, []openjury.Address{op.Address()}, srv.Market.Config().Operators)
	at, ot, st := srv.SignIn(t, author), srv.SignIn(t, op), srv.SignIn(t, stranger)

	r := srv.Do(t, http.MethodPost, "/api/v1/posts", at, map[string]any{"title": "t", "content": "c"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	postID := r.Map(t)["id"].(string)
	r = srv.Do(t, http.MethodPost, "/api/v1/posts/"+postID+"/comments", at, map[string]any{"content": "hi"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	commentID := r.Map(t)["comment"].(map[string]any)["id"].(string)

	r = srv.Do(t, http.MethodDelete, "/api/v1/comments/"+commentID, st, nil)
	require.Equal(t, http.StatusForbidden, r.Status, "%s", r.Body)
	r = srv.Do(t, http.MethodDelete, "/api/v1/comments/"+commentID, ot, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	c := r.Map(t)["comment"].(map[string]any)
	require.Equal(t, op.Address().String(), c["deleted_by"])
	require.Equal(t, "", c["content"])

}

// TestClientCannotCause500 sends input PostgreSQL itself would refuse (a
// NUL in text) on both backends: a 400, never a 500.
func TestClientCannotCause500(t *testing.T) {
	t.Parallel()
	onEachBackend(t, func(t *testing.T, srv *openjurytest.Server) {
		token := srv.SignIn(t, openjurytest.NewWallet(t))
		r := srv.Do(t, http.MethodPost, "/api/v1/jobs", token, `{"title":"a\u0000b","prompt":"p","bounty_usdc":1}`)
		require.Equal(t, http.StatusBadRequest, r.Status, "%s", r.Body)
		for _, path := range []string{"/api/v1/jobs?tag=%00", "/api/v1/posts?tag=%00", "/api/v1/slashing/events?job_id=%00"} {
			r = srv.Do(t, http.MethodGet, path, "", nil)
			require.Less(t, r.Status, 500, "%s: %d %s", path, r.Status, r.Body)
		}
	})
}

// TestServerIsTheHost: NewServer runs server.Server, the type the binary
// runs, with the service's own defaults: only the settings the kit names
// differ (its URL, database, dev secret, and the limits and the read
// cache, whose clocks would stand still with the fake clock), and the web
// app answers beside the API.
func TestServerIsTheHost(t *testing.T) {
	t.Parallel()
	srv := openjurytest.NewServer(t)
	got := srv.Config()
	want := server.Defaults()
	want.BaseURL, want.DatabaseURL, want.DevSecret = srv.URL, got.DatabaseURL, openjurytest.DevSecret
	want.RateLimitPerMin, want.RateLimitPerAddressPerMin, want.AuthRateLimitPerMin, want.ReadCacheTTL = 0, 0, 0, 0
	require.Equal(t, want, got)
	require.True(t, strings.HasPrefix(got.DatabaseURL, "sqlite:"), got.DatabaseURL)

	req, err := http.NewRequest(http.MethodGet, srv.URL+"/", nil)
	require.NoError(t, err)
	req.Header.Set("Accept", "text/html")
	resp, err := srv.HTTP.Client().Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Contains(t, resp.Header.Get("Content-Type"), "text/html", "the web app's home page")
}

// TestServerJuryChainDraw: with a chain, a job's panel is drawn by the
// server's background jury step once the seed block exists (head at
// creation + 2), from that block's hash; the eligible set hash follows.
func TestServerJuryChainDraw(t *testing.T) {
	t.Parallel()
	chain := openjurytest.NewChain()
	chain.SetHead(50)
	srv := openjurytest.NewServer(t, openjurytest.WithConfig(func(c *openjurytest.ServerConfig) {
		c.JuryChain = chain
		c.SyncPollInterval = time.Second
		c.SyncConfirmations = 1
	}))
	sponsor := openjurytest.NewWallet(t)
	st := srv.SignIn(t, sponsor)
	for range 3 {
		j := openjurytest.NewWallet(t)
		srv.SetStake(t, j.Address(), 20)
		srv.SetReputation(t, j.Address(), 10)
	}
	r := srv.Do(t, http.MethodPost, "/api/v1/jobs", st, map[string]any{"title": "t", "prompt": "p", "bounty_usdc": 3, "jury_size": 3, "jury_mode": "commit_reveal"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	jobID := r.Map(t)["id"].(string)
	jury := func() map[string]any {
		r := srv.Do(t, http.MethodGet, "/api/v1/jobs/"+jobID+"/jury", "", nil)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		return r.Map(t)
	}
	draw := jury()["draw"].(map[string]any)
	require.Equal(t, "pending", draw["status"])
	require.EqualValues(t, 52, draw["seed_block"])
	chain.SetHead(53)
	require.Eventually(t, func() bool {
		d := jury()["draw"].(map[string]any)
		return d["status"] == "drawn" && d["eligible_set_hash"] != nil
	}, 15*time.Second, 100*time.Millisecond)
	j := jury()
	require.Equal(t, openjurytest.BlockHashOf(52).String(), j["draw"].(map[string]any)["seed"])
	require.Len(t, j["panel"], 3)
}
