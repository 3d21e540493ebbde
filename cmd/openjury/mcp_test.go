package main_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
	dir = filepath.Join(dir, "sdk-"+mcpSDKVersion)
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err == nil {
		return dir
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"private":true,"type":"module"}`), 0o644))
	cmd := exec.Command("npm", "install", "--no-audit", "--no-fund", "@modelcontextprotocol/sdk@"+mcpSDKVersion)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		unavailable("npm install: " + err.Error() + "\n" + string(out))
	}
	return dir
}

// TestMCPOverStdio drives `openjury mcp` with the official TypeScript MCP
// client: it lists the tools (with schemas and descriptions), reads the
// playbook resource, finds jobs, submits work with evidence, and the
// submission is then seen through the HTTP API.
func TestMCPOverStdio(t *testing.T) {
	t.Parallel()
	dir := npmModules(t)
	script, err := os.ReadFile(filepath.Join("testdata", "mcp_client.mjs"))
	require.NoError(t, err)
	scriptPath := filepath.Join(dir, "mcp_client_test.mjs")
	require.NoError(t, os.WriteFile(scriptPath, script, 0o644))

	srv := newServer(t)
	ctx := context.Background()
	sponsor, worker := newAgent(t), newAgent(t)
	dev, err := client.New(srv.URL, client.WithDevSecret(openjurytest.DevSecret))
	require.NoError(t, err)
	_, err = dev.DevSetStake(ctx, client.DevSetStakeRequest{Address: worker.addr, StakedAmount: 20})
	require.NoError(t, err)
	var job client.Job
	runJSON(t, srv.URL, &sponsor, &job, "post-job", "--title", "MCP job", "--prompt", "Do it over MCP.", "--bounty", "2")

	cmd := exec.Command("node", scriptPath, binary)
	cmd.Env = append(os.Environ(), "OPENJURY_URL="+srv.URL, "OPENJURY_PRIVATE_KEY="+worker.key, "JOB_ID="+job.ID)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	require.NoError(t, err, "node: %s", out)

	var got struct {
		Tools []struct {
			Name        string         `json:"name"`
			Description string         `json:"description"`
			InputSchema map[string]any `json:"inputSchema"`
		} `json:"tools"`
		PlaybookLength int `json:"playbook_length"`
		Found          struct {
			Jobs []client.Job `json:"jobs"`
		} `json:"found"`
		Searched         client.SemanticSearchResponse   `json:"searched"`
		Submitted        client.CreateSubmissionResponse `json:"submitted"`
		SubmittedIsError bool                            `json:"submitted_is_error"`
		BadIsError       bool                            `json:"bad_is_error"`
		BadText          string                          `json:"bad_text"`
		Events           client.ListEventsResponse       `json:"events"`
	}
	require.NoError(t, json.Unmarshal(out, &got), "%s", out)

	names := map[string]bool{}
	for _, tool := range got.Tools {
		names[tool.Name] = true
		require.NotEmpty(t, tool.Description, tool.Name)
		require.Equal(t, "object", tool.InputSchema["type"], tool.Name)
	}
	for _, want := range []string{"find_jobs", "search", "get_job", "submit_work", "vote", "final_vote", "finalize_job", "close_job", "comment", "status", "escrow_status", "get_payouts", "events"} {
		require.True(t, names[want], "tool %s missing", want)
	}
	// The schemas' descriptions quote the limits, from their constants.
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
	require.Contains(t, describes("find_jobs", "limit"), fmt.Sprintf("at most %d; %d with query", marketplace.MaxListLimit, search.MaxLimit))
	require.Equal(t, "the job to submit to", describes("submit_work", "job_id"), "tag descriptions stay")
	require.Positive(t, got.PlaybookLength)
	require.Contains(t, describes("search", "limit"), fmt.Sprintf("at most %d", search.MaxLimit))
	require.Len(t, got.Searched.Results, 1, "found by its words as soon as it is written")
	require.Equal(t, job.ID, *got.Searched.Results[0].JobID)
	require.Contains(t, got.Searched.Results[0].Snippet, "<mark>MCP</mark>")
	require.Len(t, got.Found.Jobs, 1)
	require.Equal(t, job.ID, got.Found.Jobs[0].ID)
	require.False(t, got.SubmittedIsError)
	require.Equal(t, worker.addr, got.Submitted.Submission.AgentAddress)
	require.True(t, got.BadIsError)
	require.NotEmpty(t, got.BadText)
	// The events tool reads the log: the job posted, then the work.
	require.GreaterOrEqual(t, len(got.Events.Events), 1)
	require.Equal(t, "job.created", got.Events.Events[0].Type)
	require.Equal(t, job.ID, *got.Events.Events[0].JobID)
	require.Contains(t, describes("events", "wait_seconds"), "0..60")

	// The submission is there through the HTTP API.
	subs, _, err := dev.ListJobSubmissions(ctx, job.ID, client.Page{})
	require.NoError(t, err)
	require.Len(t, subs, 1)
	require.Equal(t, got.Submitted.Submission.ID, subs[0].ID)
	require.Equal(t, "Work submitted over MCP.", subs[0].Content)
	require.Len(t, subs[0].Evidence, 1)
}
