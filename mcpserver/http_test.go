package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/client"
	"github.com/openjury/openjury/openjurytest"
)

// reply is one answer of POST /mcp.
type reply struct {
	status int
	header http.Header
	body   []byte
}

// rpc is the JSON-RPC response in a reply.
type rpc struct {
	Result struct {
		IsError           bool             `json:"isError"`
		Content           []map[string]any `json:"content"`
		StructuredContent map[string]any   `json:"structuredContent"`
		Tools             []map[string]any `json:"tools"`
	} `json:"result"`
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// post sends body to /mcp as an MCP client does (or with the given
// header changes) and checks the answer against the OpenAPI document.
func post(t *testing.T, srv *openjurytest.Server, token string, body any, headers ...string) reply {
	t.Helper()
	raw, ok := body.([]byte)
	if !ok {
		var err error
		raw, err = json.Marshal(body)
		require.NoError(t, err)
	}
	req, err := http.NewRequest(http.MethodPost, srv.URL+"/mcp", bytes.NewReader(raw))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := srv.HTTP.Client().Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	openjurytest.ValidateResponse(t, req, res.StatusCode, res.Header, b)
	return reply{status: res.StatusCode, header: res.Header, body: b}
}

// call is a tools/call request.
func call(name string, args any) map[string]any {
	return map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": map[string]any{"name": name, "arguments": args}}
}

// tool calls a tool over HTTP and returns its decoded JSON-RPC answer; the
// HTTP status must be 200.
func tool(t *testing.T, srv *openjurytest.Server, token, name string, args any) rpc {
	t.Helper()
	r := post(t, srv, token, call(name, args))
	require.Equal(t, http.StatusOK, r.status, "%s: %s", name, r.body)
	var out rpc
	require.NoError(t, json.Unmarshal(r.body, &out))
	require.Nil(t, out.Error, "%s: %s", name, r.body)
	requireNoNulls(t, out.Result.StructuredContent, name)
	return out
}

// ok calls a tool that must succeed and returns its structured result.
func ok(t *testing.T, srv *openjurytest.Server, token, name string, args any) map[string]any {
	t.Helper()
	out := tool(t, srv, token, name, args)
	require.False(t, out.Result.IsError, "%s: %v", name, out.Result.Content)
	require.NotNil(t, out.Result.StructuredContent, name)
	return out.Result.StructuredContent
}

// refused calls a tool that must fail and returns its error text.
func refused(t *testing.T, srv *openjurytest.Server, token, name string, args any) string {
	t.Helper()
	out := tool(t, srv, token, name, args)
	require.True(t, out.Result.IsError, "%s succeeded: %v", name, out.Result.StructuredContent)
	return out.Result.Content[0]["text"].(string)
}

// requireNoNulls fails when v holds a null anywhere.
func requireNoNulls(t *testing.T, v any, where string) {
	t.Helper()
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			require.NotNil(t, e, "%s: %s is null", where, k)
			requireNoNulls(t, e, where+"."+k)
		}
	case []any:
		for i, e := range x {
			requireNoNulls(t, e, fmt.Sprintf("%s[%d]", where, i))
		}
	}
}

// TestHTTPReadWithoutToken: initialize, tools/list and the read tools
// answer without any token, in the stateless mode (no session header),
// and the results leave nulls out.
func TestHTTPReadWithoutToken(t *testing.T) {
	t.Parallel()
	srv := openjurytest.NewServer(t)
	sponsor := openjurytest.NewWallet(t)
	token := srv.SignIn(t, sponsor)
	job := ok(t, srv, token, "post_job", map[string]any{"title": "Read me", "prompt": "Over HTTP.", "bounty_usdc": 3, "tags": []string{"mcp"}})

	r := post(t, srv, "", map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
		"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "t", "version": "1"}}})
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	require.Empty(t, r.header.Get("Mcp-Session-Id"), "stateless: no session")
	require.Contains(t, string(r.body), `"serverInfo"`)

	r = post(t, srv, "", map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	require.Equal(t, http.StatusAccepted, r.status, "%s", r.body)

	var list rpc
	r = post(t, srv, "", map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
	require.Equal(t, http.StatusOK, r.status)
	require.NoError(t, json.Unmarshal(r.body, &list))
	require.NotEmpty(t, list.Result.Tools)

	found := ok(t, srv, "", "find_jobs", map[string]any{"tag": "mcp"})
	jobs := found["jobs"].([]any)
	require.Len(t, jobs, 1)
	got := jobs[0].(map[string]any)
	require.Equal(t, job["id"], got["id"])
	require.NotContains(t, got, "winner_submission_id", "an open job's null winner is left out")
	require.NotContains(t, found, "next_cursor")

	view := ok(t, srv, "", "get_job", map[string]any{"job_id": job["id"]})
	require.Equal(t, "Read me", view["job"].(map[string]any)["title"])
	st := ok(t, srv, "", "status", map[string]any{"address": sponsor.Address().String()})
	require.Equal(t, sponsor.Address().String(), st["address"])

	// Without a token the caller has no address of its own.
	text := refused(t, srv, "", "status", map[string]any{})
	require.Contains(t, text, "address is required")

	// The Go client's method for the operation.
	c, err := client.New(srv.URL)
	require.NoError(t, err)
	res, err := c.McpStreamableHttp(context.Background(), client.JsonRpcRequest{Jsonrpc: "2.0", ID: 7, Method: "tools/list"})
	require.NoError(t, err)
	require.Nil(t, res.Error)
	require.NotEmpty(t, res.Result["tools"])
	srv.Clock.Set(time.Now()) // the client checks the sign-in message's expiry by the real clock
	key, err := crypto.GenerateKey()
	require.NoError(t, err)
	signed, err := client.New(srv.URL, client.WithSigner(client.NewKeySigner(key)))
	require.NoError(t, err)
	res, err = signed.McpStreamableHttp(context.Background(), client.JsonRpcRequest{Jsonrpc: "2.0", ID: 8, Method: "tools/call",
		Params: map[string]any{"name": "status", "arguments": map[string]any{}}})
	require.NoError(t, err)
	require.Equal(t, signed.Address(), res.Result["structuredContent"].(map[string]any)["address"], "the signer's token is sent")
}

// TestHTTPWriteNeedsToken: a write tool without a token, with a token
// that was never issued, with a revoked one or a malformed header is
// answered 401 with a Bearer challenge naming the protected-resource
// metadata; nothing is written. Batches cannot smuggle a write past the
// check.
func TestHTTPWriteNeedsToken(t *testing.T) {
	t.Parallel()
	srv := openjurytest.NewServer(t)
	metadata := `resource_metadata="` + srv.URL + `/.well-known/oauth-protected-resource/mcp"`
	args := map[string]any{"title": "Nope", "prompt": "Should not exist.", "bounty_usdc": 1}

	r := post(t, srv, "", call("post_job", args))
	require.Equal(t, http.StatusUnauthorized, r.status)
	require.Equal(t, "Bearer "+metadata, r.header.Get("WWW-Authenticate"))
	require.Contains(t, string(r.body), "tool post_job needs a signed-in caller")

	batch, err := json.Marshal([]any{
		map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
		call("submit_work", map[string]any{"job_id": "x", "content": "y"}),
	})
	require.NoError(t, err)
	r = post(t, srv, "", batch)
	require.Equal(t, http.StatusUnauthorized, r.status, "%s", r.body)

	w := openjurytest.NewWallet(t)
	revoked := srv.SignIn(t, w)
	require.Equal(t, http.StatusOK, srv.Do(t, http.MethodPost, "/api/v1/agents/auth/logout", revoked, nil).Status)
	for name, token := range map[string]string{"forged": "not-a-real-token-" + strings.Repeat("x", 30), "revoked": revoked} {
		for _, body := range []any{call("post_job", args), call("find_jobs", map[string]any{})} {
			r = post(t, srv, token, body)
			require.Equal(t, http.StatusUnauthorized, r.status, name)
			challenge := r.header.Get("WWW-Authenticate")
			require.True(t, strings.HasPrefix(challenge, `Bearer error="invalid_token"`), challenge)
			require.Contains(t, challenge, metadata)
			require.Contains(t, string(r.body), "sign in again")
		}
	}
	r = post(t, srv, "", call("find_jobs", map[string]any{}), "Authorization", "Basic dXNlcjpwdw==")
	require.Equal(t, http.StatusUnauthorized, r.status)
	require.Contains(t, r.header.Get("WWW-Authenticate"), `error="invalid_request"`)

	// The metadata the challenge names is served.
	doc := srv.Do(t, http.MethodGet, "/.well-known/oauth-protected-resource/mcp", "", nil).Map(t)
	require.Equal(t, srv.URL+"/mcp", doc["resource"])

	// Nothing was written.
	jobs := srv.Do(t, http.MethodGet, "/api/v1/jobs?status=all", "", nil).Map(t)["jobs"].([]any)
	require.Empty(t, jobs)
}

// TestHTTPWritesActForTheBearer: with a token the write tools act for its
// wallet, whatever the arguments say; refusals are tool errors naming the
// API's status; every tool's result matches its output schema (the SDK
// checks it) and leaves nulls out.
func TestHTTPWritesActForTheBearer(t *testing.T) {
	t.Parallel()
	srv := openjurytest.NewServer(t)
	sponsor, worker, juror := openjurytest.NewWallet(t), openjurytest.NewWallet(t), openjurytest.NewWallet(t)
	srv.SetStake(t, worker.Address(), 20)
	srv.SetStake(t, juror.Address(), 20)
	srv.SetReputation(t, juror.Address(), 16)
	srv.MintAGR(t, sponsor.Address(), 10)
	ts, tw, tj := srv.SignIn(t, sponsor), srv.SignIn(t, worker), srv.SignIn(t, juror)

	job := ok(t, srv, ts, "post_job", map[string]any{"title": "Summarise", "prompt": "Summarise the paper.", "bounty_usdc": 5, "final_vote_window_seconds": 60})
	jobID := job["id"].(string)
	require.Equal(t, sponsor.Address().String(), job["sponsor_address"], "the bearer is the sponsor")

	text := refused(t, srv, ts, "submit_work", map[string]any{"job_id": jobID, "content": "my own job"})
	require.Contains(t, text, "the server refused (403 forbidden)")

	sub := ok(t, srv, tw, "submit_work", map[string]any{"job_id": jobID, "content": "The paper shows X.",
		"evidence": []any{map[string]any{"source_url": "https://example.org/p", "quote": "X holds", "confidence": 0.9}}})["submission"].(map[string]any)
	subID := sub["id"].(string)
	require.Equal(t, worker.Address().String(), sub["agent_address"])

	vote := ok(t, srv, tj, "vote", map[string]any{"job_id": jobID, "submission_id": subID})["vote"].(map[string]any)
	require.EqualValues(t, 5, vote["weight"])
	ok(t, srv, tj, "final_vote", map[string]any{"job_id": jobID, "submission_id": subID})
	c := ok(t, srv, tj, "comment", map[string]any{"job_id": jobID, "content": "well sourced"})["comment"].(map[string]any)
	rep := ok(t, srv, tw, "reply", map[string]any{"job_id": jobID, "comment_id": c["id"], "content": "thanks"})["comment"].(map[string]any)
	require.Equal(t, c["id"], rep["parent_id"])
	ok(t, srv, tw, "comment", map[string]any{"submission_id": subID, "content": "on the submission"})
	require.Contains(t, refused(t, srv, tw, "comment", map[string]any{"job_id": jobID, "submission_id": subID, "content": "two targets"}), "exactly one of")
	comments := ok(t, srv, "", "list_comments", map[string]any{"job_id": jobID})["comments"].([]any)
	require.Len(t, comments, 2)

	boost := ok(t, srv, ts, "boost_job", map[string]any{"job_id": jobID, "amount_agr": 4, "duration_hours": 1})
	require.EqualValues(t, 4, boost["featured_score"])
	require.Contains(t, refused(t, srv, ts, "boost_job", map[string]any{"job_id": jobID, "amount_agr": 100, "duration_hours": 1}), "402")

	require.Contains(t, refused(t, srv, tj, "finalize_job", map[string]any{"job_id": jobID}), "409")
	require.Contains(t, refused(t, srv, "", "get_anchor", map[string]any{"job_id": jobID}), "404")
	srv.Clock.Advance(2 * time.Minute)
	closed := ok(t, srv, tj, "finalize_job", map[string]any{"job_id": jobID})
	require.Equal(t, subID, closed["winner_submission_id"])

	anchor := ok(t, srv, "", "get_anchor", map[string]any{"job_id": jobID})
	require.NotContains(t, anchor, "anchor_tx_hash", "no receipt yet: left out")
	proof := ok(t, srv, "", "get_anchor_proof", map[string]any{"job_id": jobID, "record": "submission:" + subID})
	require.Equal(t, anchor["anchor_root"], proof["root"])

	st := ok(t, srv, tw, "status", map[string]any{})
	require.Equal(t, worker.Address().String(), st["address"], "status defaults to the bearer")
	board := ok(t, srv, "", "leaderboard", map[string]any{"limit": 5})
	require.NotEmpty(t, board["entries"])
	ok(t, srv, "", "list_posts", map[string]any{})
	require.Eventually(t, func() bool {
		res := ok(t, srv, "", "search", map[string]any{"query": "Summarise the paper", "type": "job"})
		return len(res["results"].([]any)) > 0
	}, 10*time.Second, 50*time.Millisecond)

	// A second job closed by its sponsor.
	job2 := ok(t, srv, ts, "post_job", map[string]any{"title": "Second", "prompt": "Again.", "bounty_usdc": 1})
	sub2 := ok(t, srv, tw, "submit_work", map[string]any{"job_id": job2["id"], "content": "Again, done."})["submission"].(map[string]any)
	require.Contains(t, refused(t, srv, tw, "close_job", map[string]any{"job_id": job2["id"], "submission_id": sub2["id"]}), "403")
	closed2 := ok(t, srv, ts, "close_job", map[string]any{"job_id": job2["id"], "submission_id": sub2["id"]})
	require.Equal(t, "closed", closed2["job"].(map[string]any)["status"])
}

// TestHTTPTransportErrors: the SDK's own refusals come back as the API's
// JSON errors.
func TestHTTPTransportErrors(t *testing.T) {
	t.Parallel()
	srv := openjurytest.NewServer(t)
	list := map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
	r := post(t, srv, "", list, "Content-Type", "text/plain")
	require.Equal(t, http.StatusUnsupportedMediaType, r.status)
	require.Contains(t, string(r.body), `"detail"`)
	r = post(t, srv, "", list, "Accept", "application/json")
	require.Equal(t, http.StatusBadRequest, r.status)
	require.Contains(t, string(r.body), `"detail":"Accept must contain`)
	res := srv.Do(t, http.MethodGet, "/mcp", "", nil)
	require.Equal(t, http.StatusMethodNotAllowed, res.Status)
}

// TestHTTPToolCallsAreAPIRequests: a tool call's API requests come from
// the MCP request's client, with its request id, so the API's rate limits
// count them (/mcp is no way around them) and the access log ties them to
// the MCP request.
func TestHTTPToolCallsAreAPIRequests(t *testing.T) {
	t.Parallel()
	var logs openjurytest.Buffer
	srv := openjurytest.NewServer(t,
		openjurytest.WithConfig(func(c *openjurytest.ServerConfig) {
			c.RateLimitPerMin = 6 // the fake clock stands still: no refill
			c.Logger = slog.New(slog.NewJSONHandler(&logs, nil))
		}))
	// This request and get_job's read of the job (unknown: it stops
	// there): within the budget.
	r := post(t, srv, "", call("get_job", map[string]any{"job_id": "no-such-job"}), "X-Request-Id", "mcp-request-1")
	require.Equal(t, http.StatusOK, r.status)
	var lines []map[string]any
	for line := range strings.Lines(logs.String()) {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &m))
		if m["msg"] == "request" && m["request_id"] == "mcp-request-1" {
			lines = append(lines, m)
		}
	}
	paths := []string{}
	for _, l := range lines {
		paths = append(paths, l["path"].(string))
	}
	require.ElementsMatch(t, []string{"/mcp", "/api/v1/jobs/no-such-job"}, paths, "the API request carries the MCP request's id")
	for _, l := range lines {
		require.Equal(t, lines[0]["client_ip"], l["client_ip"], "from the same client")
	}

	// The budget is spent by the tool calls' API requests too.
	var limited bool
	for range 5 {
		r := post(t, srv, "", call("find_jobs", map[string]any{}))
		if r.status == http.StatusTooManyRequests {
			limited = true
			break
		}
		var out rpc
		require.NoError(t, json.Unmarshal(r.body, &out))
		if out.Result.IsError {
			require.Contains(t, out.Result.Content[0]["text"], "429")
			limited = true
			break
		}
	}
	require.True(t, limited, "tool calls count against the rate limit")
}

// TestHTTPJuryEscrowEventsSearch: the tools escrow, jury, events and search
// added over the HTTP endpoint: a juror's duties read anonymously, the
// escrow of a job the server holds no escrow for, search pages by cursor,
// the event log paged and waited on (an event written while the call
// waits arrives; a wait with nothing new ends empty at its cursor). The
// tools that keep a salt or send a transaction on the agent's machine
// are not served here, even with a token.
func TestHTTPJuryEscrowEventsSearch(t *testing.T) {
	t.Parallel()
	srv := openjurytest.NewServer(t)
	sponsor, worker, juror := openjurytest.NewWallet(t), openjurytest.NewWallet(t), openjurytest.NewWallet(t)
	srv.SetStake(t, worker.Address(), 20)
	srv.SetStake(t, juror.Address(), 20)
	srv.SetReputation(t, juror.Address(), 10)
	ts, tj := srv.SignIn(t, sponsor), srv.SignIn(t, juror)

	// A commit-reveal job with a panel of one: the only eligible juror
	// (the worker has no reputation) is drawn.
	job := ok(t, srv, ts, "post_job", map[string]any{"title": "Judge the Merkle proofs", "prompt": "Sorted-pair hashing.", "bounty_usdc": 1,
		"jury_mode": "commit_reveal", "jury_size": 1, "jury_commit_seconds": 60, "jury_reveal_seconds": 60})
	jobID := job["id"].(string)
	require.Equal(t, "commit_reveal", job["jury_mode"])
	duties := ok(t, srv, "", "jury_duties", map[string]any{"address": juror.Address().String()})["duties"].([]any)
	require.Len(t, duties, 1)
	require.Equal(t, jobID, duties[0].(map[string]any)["job_id"])
	require.Equal(t, "commit", duties[0].(map[string]any)["next_action"])
	mine := ok(t, srv, tj, "jury_duties", map[string]any{})
	require.Equal(t, juror.Address().String(), mine["address"], "by default the bearer's")
	require.Contains(t, refused(t, srv, "", "jury_duties", map[string]any{}), "address is required")

	// No commit or reveal here: the salt would have to live on the server.
	var list rpc
	r := post(t, srv, tj, map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
	require.NoError(t, json.Unmarshal(r.body, &list))
	for _, tl := range list.Result.Tools {
		require.NotContains(t, []string{"commit_vote", "reveal_vote", "claim_payout"}, tl["name"])
	}
	r = post(t, srv, tj, call("commit_vote", map[string]any{"job_id": jobID, "submission_id": jobID}))
	require.Equal(t, http.StatusOK, r.status)
	require.Contains(t, string(r.body), "unknown tool")

	esc := ok(t, srv, "", "escrow_status", map[string]any{"job_id": jobID})
	require.Equal(t, jobID, esc["job_id"])
	require.NotContains(t, esc, "escrow_status", "the server follows no escrow: left out, not null")
	require.Empty(t, esc["payouts"])
	pay := ok(t, srv, "", "get_payouts", map[string]any{"job_id": jobID, "limit": 10})
	require.Equal(t, jobID, pay["job_id"])
	require.Contains(t, refused(t, srv, "", "get_payouts", map[string]any{"job_id": jobID, "limit": 100000}), "400")
	require.Contains(t, refused(t, srv, "", "escrow_status", map[string]any{"job_id": "not-a-job"}), "the server refused")

	// Search: two matches, one per page.
	ok(t, srv, ts, "post_job", map[string]any{"title": "More Merkle proofs", "prompt": "Proofs again.", "bounty_usdc": 1})
	srv.FlushSearch(t) // both jobs ranked by words and meaning, so the pages see one ranking
	first := ok(t, srv, "", "search", map[string]any{"query": "Merkle proofs", "type": "job", "limit": 1})
	require.Len(t, first["results"], 1)
	require.NotEmpty(t, first["next_cursor"])
	second := ok(t, srv, "", "search", map[string]any{"query": "Merkle proofs", "type": "job", "limit": 1, "cursor": first["next_cursor"]})
	require.Len(t, second["results"], 1)
	require.NotEqual(t, first["results"].([]any)[0].(map[string]any)["id"], second["results"].([]any)[0].(map[string]any)["id"])

	// Events: a page of the log, then waits after its last event.
	srv.FlushEvents(t)
	page := ok(t, srv, "", "events", map[string]any{"types": "job.created", "limit": 1})
	require.Len(t, page["events"], 1)
	require.Equal(t, jobID, page["events"].([]any)[0].(map[string]any)["job_id"])
	all := ok(t, srv, "", "events", map[string]any{})
	last := all["next_cursor"].(string)
	require.Contains(t, refused(t, srv, "", "events", map[string]any{"types": "job.exploded"}), "400")

	quiet := ok(t, srv, "", "events", map[string]any{"after": last, "wait_seconds": 1})
	require.Empty(t, quiet["events"], "nothing new within the wait")
	require.Equal(t, last, quiet["next_cursor"], "the cursor stays where it was")

	done := make(chan map[string]any, 1)
	go func() {
		defer close(done)
		out := tool(t, srv, "", "events", map[string]any{"after": last, "types": "post.created", "wait_seconds": 30})
		if !out.Result.IsError {
			done <- out.Result.StructuredContent
		}
	}()
	time.Sleep(300 * time.Millisecond) // most likely waiting on the stream by now; either way the event must come
	post := srv.Do(t, "POST", "/api/v1/posts", ts, map[string]any{"title": "news", "content": "a post while the tool waits"})
	require.Equal(t, http.StatusOK, post.Status, "%s", post.Body)
	select {
	case got, ok := <-done:
		require.True(t, ok, "the events call failed")
		evs := got["events"].([]any)
		require.Len(t, evs, 1)
		ev := evs[0].(map[string]any)
		require.Equal(t, "post.created", ev["type"])
		require.Equal(t, ev["id"], got["next_cursor"])
	case <-time.After(60 * time.Second):
		t.Fatal("the waiting events call never answered")
	}
}
