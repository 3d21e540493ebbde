package main_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/client"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/search"
)

// mcpSDKVersion is the npm @modelcontextprotocol/sdk the test installs.
const mcpSDKVersion = "1.32.2"

// npmModules returns a directory whose node_modules holds the official
// TypeScript MCP SDK, installing it with npm into a cache dir
// (OPENJURY_NPM_CACHE, default the user cache dir) when missing. Without
// node or npm the test is skipped loudly, or fails when CI is set.
func npmModules(t *testing.T) string {
	t.Helper()
	unavailable := func(why string) {
		if os.Getenv("CI") != "" {
			t.Fatalf("MCP client test needs node and npm (CI is set): %s", why)
		}
		t.Skipf("SKIPPED: MCP client test needs node and npm with the registry: %s", why)
	}
	for _, bin := range []string{"node", "npm"} {
		if _, err := exec.LookPath(bin); err != nil {
			unavailable(bin + " not found")
		}
	}
	dir := os.Getenv("OPENJURY_NPM_CACHE")
	if dir == "" {
		base, err := os.UserCacheDir()
		require.NoError(t, err)
		dir = filepath.Join(base, "openjury-mcp-test")
	}
	final := filepath.Join(dir, "sdk-"+mcpSDKVersion)
	installed := func() bool {
		_, err := os.Stat(filepath.Join(final, "node_modules", "@modelcontextprotocol", "sdk", "dist", "esm", "client", "index.js"))
		return err == nil
	}
	// The package's parallel tests install once; another process's install
	// is never seen half done: npm fills a directory of its own, renamed
	// into place when whole.
	npmInstall.Lock()
	defer npmInstall.Unlock()
	if installed() {
		return final
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	tmp, err := os.MkdirTemp(dir, "install-")
	require.NoError(t, err)
	defer func() { _ = os.RemoveAll(tmp) }()
	require.NoError(t, os.WriteFile(filepath.Join(tmp, "package.json"), []byte(`{"private":true,"type":"module"}`), 0o644))
	cmd := exec.Command("npm", "install", "--no-audit", "--no-fund", "@modelcontextprotocol/sdk@"+mcpSDKVersion)
	cmd.Dir = tmp
	if out, err := cmd.CombinedOutput(); err != nil {
		unavailable("npm install: " + err.Error() + "\n" + string(out))
	}
	if installed() { // by another process meanwhile
		return final
	}
	// What an interrupted older install left at final goes first.
	require.NoError(t, os.RemoveAll(final))
	if err := os.Rename(tmp, final); err != nil && !installed() {
		require.NoError(t, err, "moving the installed SDK into place")
	}
	return final
}

// npmInstall serialises npmModules' installs within the test process.
var npmInstall sync.Mutex

// mcpRun is what testdata/mcp_client.mjs prints.
type mcpRun struct {
	Mode  string `json:"mode"`
	Tools []struct {
		Name         string         `json:"name"`
		Description  string         `json:"description"`
		InputSchema  map[string]any `json:"inputSchema"`
		OutputSchema map[string]any `json:"outputSchema"`
		Annotations  map[string]any `json:"annotations"`
	} `json:"tools"`
	PlaybookLength int `json:"playbook_length"`
	Found          struct {
		Jobs []client.Job `json:"jobs"`
	} `json:"found"`
	Searched  client.SemanticSearchResponse `json:"searched"`
	Events    client.ListEventsResponse     `json:"events"`
	Escrow    mcpOutcome                    `json:"escrow"`
	Bad       mcpOutcome                    `json:"bad"`
	Write     mcpOutcome                    `json:"write"`
	Submitted mcpOutcome                    `json:"submitted"`
	BadToken  mcpOutcome                    `json:"bad_token"`
}

// mcpOutcome is one tool call seen by the official client: a result, or a
// thrown protocol or transport error.
type mcpOutcome struct {
	IsError    bool           `json:"is_error"`
	Structured map[string]any `json:"structured"`
	Text       string         `json:"text"`
	Thrown     bool           `json:"thrown"`
	Code       any            `json:"code"`
	Message    string         `json:"message"`
}

// runMCPClient runs testdata/mcp_client.mjs with the official TypeScript
// MCP SDK in mode (stdio or http) against target (the binary or the /mcp
// URL), with env added.
func runMCPClient(t *testing.T, mode, target string, env ...string) mcpRun {
	t.Helper()
	dir := npmModules(t)
	script, err := os.ReadFile(filepath.Join("testdata", "mcp_client.mjs"))
	require.NoError(t, err)
	scriptPath := filepath.Join(dir, "mcp_client_test.mjs")
	require.NoError(t, os.WriteFile(scriptPath, script, 0o644))
	cmd := exec.Command("node", scriptPath, mode, target)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	require.NoError(t, err, "node: %s", out)
	var got mcpRun
	require.NoError(t, json.Unmarshal(out, &got), "%s", out)
	return got
}

// checkTools: the official client sees every tool with its description,
// input and output schemas (objects) and annotations; the schemas quote
// the limits from their constants.
func checkTools(t *testing.T, got mcpRun) {
	t.Helper()
	names := map[string]bool{}
	for _, tool := range got.Tools {
		names[tool.Name] = true
		require.NotEmpty(t, tool.Description, tool.Name)
		require.Equal(t, "object", tool.InputSchema["type"], tool.Name)
		require.Equal(t, "object", tool.OutputSchema["type"], tool.Name)
		require.Contains(t, tool.Annotations, "readOnlyHint", tool.Name)
		require.Contains(t, tool.Annotations, "idempotentHint", tool.Name)
	}
	for _, want := range []string{"find_jobs", "get_job", "post_job", "boost_job", "submit_work", "vote", "final_vote",
		"finalize_job", "close_job", "comment", "reply", "list_comments", "list_posts", "search", "status", "leaderboard",
		"get_anchor", "get_anchor_proof", "jury_duties", "escrow_status", "get_payouts", "events"} {
		require.True(t, names[want], "tool %s missing", want)
	}
	// The tools of the agent's machine: the jury's salt stays there, so
	// commit and reveal are served over stdio only; claim_payout needs
	// OPENJURY_RPC_URL, which no run here sets.
	local := got.Mode == "stdio"
	require.Equal(t, local, names["commit_vote"], "commit_vote over %s", got.Mode)
	require.Equal(t, local, names["reveal_vote"], "reveal_vote over %s", got.Mode)
	require.False(t, names["claim_payout"], "no chain node, no claim")
	describes := func(tool, prop string) string {
		for _, tl := range got.Tools {
			if tl.Name == tool {
				p, _ := tl.InputSchema["properties"].(map[string]any)[prop].(map[string]any)
				d, _ := p["description"].(string)
				return d
			}
		}
		return ""
	}
	require.Equal(t, fmt.Sprintf("the work itself (1..%d characters)", marketplace.MaxContentChars), describes("submit_work", "content"))
	require.Contains(t, describes("submit_work", "evidence"), fmt.Sprintf("up to %d evidence items", marketplace.MaxEvidence))
	require.Equal(t, fmt.Sprintf("the comment (1..%d characters)", marketplace.MaxContentChars), describes("comment", "content"))
	require.Contains(t, describes("find_jobs", "limit"), fmt.Sprintf("at most %d", marketplace.MaxListLimit))
	require.Contains(t, describes("search", "limit"), fmt.Sprintf("at most %d", search.MaxLimit))
	require.Equal(t, "the job to submit to", describes("submit_work", "job_id"), "tag descriptions stay")
	require.Contains(t, describes("events", "wait_seconds"), "0..60")
	require.Positive(t, got.PlaybookLength)
}

// checkReads: search finds the job by its words at once, the events tool
// reads the log, escrow_status answers for a server without an escrow.
func checkReads(t *testing.T, got mcpRun, job client.Job) {
	t.Helper()
	require.Len(t, got.Searched.Results, 1, "found by its words as soon as it is written")
	require.Equal(t, job.ID, *got.Searched.Results[0].JobID)
	require.Contains(t, got.Searched.Results[0].Snippet, "<mark>MCP</mark>")
	require.NotEmpty(t, got.Events.Events)
	require.Equal(t, "job.created", got.Events.Events[0].Type)
	require.Equal(t, job.ID, *got.Events.Events[0].JobID)
	require.False(t, got.Escrow.IsError, got.Escrow.Text)
	require.Equal(t, job.ID, got.Escrow.Structured["job_id"])
	require.NotContains(t, got.Escrow.Structured, "escrow_status", "no escrow followed: the null is left out")
}

// mcpStory is a server with an open job and a staked worker.
func mcpStory(t *testing.T) (*openjurytest.Server, client.Job, agent) {
	t.Helper()
	srv := newServer(t)
	sponsor, worker := newAgent(t), newAgent(t)
	dev, err := client.New(srv.URL, client.WithDevSecret(openjurytest.DevSecret))
	require.NoError(t, err)
	_, err = dev.DevSetStake(context.Background(), client.DevSetStakeRequest{Address: worker.addr, StakedAmount: "20"})
	require.NoError(t, err)
	var job client.Job
	runJSON(t, srv.URL, &sponsor, &job, "post-job", "--title", "MCP job", "--prompt", "Do it over MCP.", "--bounty", "2")
	srv.FlushEvents(t)
	return srv, job, worker
}

// requireSubmitted: the job has exactly one submission, the one the MCP
// client made as worker, seen through the HTTP API.
func requireSubmitted(t *testing.T, srv *openjurytest.Server, job client.Job, worker agent, submitted map[string]any, mode string) {
	t.Helper()
	dev, err := client.New(srv.URL)
	require.NoError(t, err)
	subs, _, err := dev.ListJobSubmissions(context.Background(), job.ID, client.Page{})
	require.NoError(t, err)
	require.Len(t, subs, 1)
	sub := submitted["submission"].(map[string]any)
	require.Equal(t, sub["id"], subs[0].ID)
	require.Equal(t, worker.addr, subs[0].AgentAddress)
	require.Equal(t, "Work submitted over MCP ("+mode+").", subs[0].Content)
	require.Len(t, subs[0].Evidence, 1)
}

// TestMCPOverStdio drives `openjury mcp` with the official TypeScript MCP
// client: with a key it lists the tools, reads the playbook resource,
// finds jobs and submits work with evidence (seen then through the HTTP
// API); a refused call is a tool error.
func TestMCPOverStdio(t *testing.T) {
	t.Parallel()
	srv, job, worker := mcpStory(t)
	got := runMCPClient(t, "stdio", binary, "OPENJURY_URL="+srv.URL, "OPENJURY_PRIVATE_KEY="+worker.key, "JOB_ID="+job.ID,
		"OPENJURY_HOME="+t.TempDir())
	checkTools(t, got)
	checkReads(t, got, job)
	require.Len(t, got.Found.Jobs, 1)
	require.Equal(t, job.ID, got.Found.Jobs[0].ID)
	require.True(t, got.Bad.IsError)
	require.Contains(t, got.Bad.Text, "the server refused (404 not found)")
	require.False(t, got.Write.IsError, got.Write.Text)
	requireSubmitted(t, srv, job, worker, got.Write.Structured, "stdio")
}

// TestMCPOverStdioWithoutKey: `openjury mcp` starts without any key: the
// read tools work and a write tool answers how to set one.
func TestMCPOverStdioWithoutKey(t *testing.T) {
	t.Parallel()
	srv, job, _ := mcpStory(t)
	got := runMCPClient(t, "stdio", binary, "OPENJURY_URL="+srv.URL, "JOB_ID="+job.ID, "OPENJURY_HOME="+t.TempDir(), "OPENJURY_PRIVATE_KEY=")
	checkTools(t, got)
	checkReads(t, got, job)
	require.Len(t, got.Found.Jobs, 1)
	require.True(t, got.Write.IsError)
	require.Contains(t, got.Write.Text, "sign in: set OPENJURY_KEY")
}

// TestMCPOverStreamableHTTP drives the host's /mcp with the official
// TypeScript client over the streamable HTTP transport: anonymously it
// lists the tools, reads the playbook and finds jobs, and a write is
// refused with HTTP 401; with the worker's token it submits work; with a
// forged token even connecting is refused with 401.
func TestMCPOverStreamableHTTP(t *testing.T) {
	t.Parallel()
	srv, job, worker := mcpStory(t)
	signer, err := client.KeySignerFromHex(worker.key)
	require.NoError(t, err)
	c, err := client.New(srv.URL, client.WithSigner(signer))
	require.NoError(t, err)
	v, err := c.Login(context.Background())
	require.NoError(t, err)

	got := runMCPClient(t, "http", srv.URL+"/mcp", "JOB_ID="+job.ID, "TOKEN="+v.AccessToken, "BAD_TOKEN=forged-token")
	checkTools(t, got)
	checkReads(t, got, job)
	require.Len(t, got.Found.Jobs, 1)
	require.True(t, got.Bad.IsError)
	require.True(t, got.Write.Thrown, "an anonymous write is an HTTP error")
	require.EqualValues(t, 401, got.Write.Code)
	require.Contains(t, got.Write.Message, "needs a signed-in caller")
	require.False(t, got.Submitted.IsError, got.Submitted.Text)
	requireSubmitted(t, srv, job, worker, got.Submitted.Structured, "http")
	require.True(t, got.BadToken.Thrown)
	require.EqualValues(t, 401, got.BadToken.Code)
	require.Contains(t, got.BadToken.Message, "invalid or expired token")
}
