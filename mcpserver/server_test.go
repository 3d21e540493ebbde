package mcpserver_test

import (
	"context"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/client"
	"github.com/openjury/openjury/mcpserver"
)

// readTools and writeTools are the tool set of both transports, by kind;
// localTools are the write tools of the agent's machine (stdio only).
var (
	readTools = []string{"find_jobs", "get_job", "list_comments", "list_posts", "search", "status", "leaderboard", "get_anchor", "get_anchor_proof",
		"jury_duties", "escrow_status", "get_payouts", "events"}
	writeTools = []string{"post_job", "boost_job", "submit_work", "vote", "final_vote", "finalize_job", "close_job", "comment", "reply"}
	localTools = []string{"commit_vote", "reveal_vote", "claim_payout"}
)

// fakeLocal counts the calls of the local tools' functions.
type fakeLocal struct{ commits, reveals, claims atomic.Int32 }

func (f *fakeLocal) Commit(context.Context, string, string) (client.CreateCommitmentResponse, error) {
	f.commits.Add(1)
	return client.CreateCommitmentResponse{}, nil
}

func (f *fakeLocal) Reveal(context.Context, string) (client.CreateVoteResponse, error) {
	f.reveals.Add(1)
	return client.CreateVoteResponse{}, nil
}

// local is the Local of f: every local tool.
func (f *fakeLocal) local() mcpserver.Local {
	return mcpserver.Local{Juror: f, Claim: func(_ context.Context, jobID, recipient string) (mcpserver.ClaimReceipt, error) {
		f.claims.Add(1)
		return mcpserver.ClaimReceipt{JobID: jobID, Recipient: recipient, TxHash: "0x01"}, nil
	}}
}

// connect serves mcpserver.New(c, local) to an in-memory MCP client
// session.
func connect(t *testing.T, c *client.Client, local mcpserver.Local) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := mcpserver.New(c, local).Connect(ctx, st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// TestToolSet: every tool carries annotations that match what it does, an
// input and an output schema (objects), and names each concept with one
// argument name.
func TestToolSet(t *testing.T) {
	t.Parallel()
	c, err := client.New("http://127.0.0.1:1")
	require.NoError(t, err)
	cs := connect(t, c, new(fakeLocal).local())
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	var names []string
	concepts := []string{"job_id", "submission_id", "post_id", "comment_id", "address", "record", "recipient"}
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
		require.NotEmpty(t, tl.Description, tl.Name)
		a := tl.Annotations
		require.NotNil(t, a, tl.Name)
		require.NotEmpty(t, a.Title, tl.Name)
		require.NotNil(t, a.OpenWorldHint, tl.Name)
		require.Equal(t, tl.Name == "claim_payout", *a.OpenWorldHint, "%s: only the chain transaction acts beyond the marketplace", tl.Name)
		if slices.Contains(readTools, tl.Name) {
			require.True(t, a.ReadOnlyHint, tl.Name)
			require.True(t, a.IdempotentHint, tl.Name)
		} else {
			require.False(t, a.ReadOnlyHint, tl.Name)
			require.NotNil(t, a.DestructiveHint, tl.Name)
		}
		in := tl.InputSchema.(map[string]any)
		require.Equal(t, "object", in["type"], tl.Name)
		require.Equal(t, false, in["additionalProperties"], "%s: unknown arguments are refused", tl.Name)
		for prop := range in["properties"].(map[string]any) {
			if strings.HasSuffix(prop, "_id") || prop == "address" || prop == "recipient" {
				require.Contains(t, concepts, prop, "%s: argument %s", tl.Name, prop)
			}
			require.NotContains(t, []string{"target_id", "parent_id", "winner_submission_id", "on"}, prop, tl.Name)
		}
		out := tl.OutputSchema.(map[string]any)
		require.Equal(t, "object", out["type"], tl.Name)
	}
	require.ElementsMatch(t, slices.Concat(readTools, writeTools, localTools), names)

	// Destructive and idempotent where it matters.
	hints := map[string]*mcp.ToolAnnotations{}
	for _, tl := range res.Tools {
		hints[tl.Name] = tl.Annotations
	}
	require.False(t, *hints["post_job"].DestructiveHint)
	require.False(t, hints["post_job"].IdempotentHint)
	require.True(t, *hints["boost_job"].DestructiveHint, "spends AGR for good")
	require.True(t, *hints["close_job"].DestructiveHint)
	require.True(t, hints["close_job"].IdempotentHint)
	require.True(t, hints["vote"].IdempotentHint, "replaces the caller's vote")
	require.True(t, hints["commit_vote"].IdempotentHint, "replaces the caller's commitment")
	require.True(t, *hints["reveal_vote"].DestructiveHint, "a revealed vote cannot be hidden again")
	require.True(t, *hints["claim_payout"].DestructiveHint, "a transaction, gas spent")
	require.True(t, hints["claim_payout"].IdempotentHint, "a payout is claimed once")

	// Without Local, none of the local tools.
	res, err = connect(t, c, mcpserver.Local{}).ListTools(context.Background(), nil)
	require.NoError(t, err)
	for _, tl := range res.Tools {
		require.NotContains(t, localTools, tl.Name)
	}
}

// TestWriteToolsWithoutKey: a server without a key starts, and its write
// tools answer how to set one, without calling the API.
func TestWriteToolsWithoutKey(t *testing.T) {
	t.Parallel()
	c, err := client.New("http://127.0.0.1:1") // nothing listens: any API call would fail differently
	require.NoError(t, err)
	f := new(fakeLocal)
	cs := connect(t, c, f.local())
	for _, name := range slices.Concat(writeTools, localTools) {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: map[string]any{}})
		require.NoError(t, err, name)
		require.True(t, res.IsError, name)
		text := res.Content[0].(*mcp.TextContent).Text
		if strings.Contains(text, "validating") {
			continue // required arguments are checked first
		}
		require.Equal(t, mcpserver.SignInHint, text, name)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "finalize_job", Arguments: map[string]any{"job_id": "j"}})
	require.NoError(t, err)
	require.Equal(t, mcpserver.SignInHint, res.Content[0].(*mcp.TextContent).Text)
	require.Contains(t, mcpserver.SignInHint, "OPENJURY_KEY")
	for name, args := range map[string]map[string]any{
		"commit_vote":  {"job_id": "j", "submission_id": "s"},
		"reveal_vote":  {"job_id": "j"},
		"claim_payout": {"job_id": "j"},
	} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
		require.NoError(t, err)
		require.Equal(t, mcpserver.SignInHint, res.Content[0].(*mcp.TextContent).Text, name)
	}
	require.Zero(t, f.commits.Load()+f.reveals.Load()+f.claims.Load(), "nothing is committed, revealed or claimed without a key")

	// An unknown argument is refused by name.
	res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_job", Arguments: map[string]any{"job_id": "j", "target_id": "x"}})
	require.NoError(t, err)
	require.True(t, res.IsError)
	require.Contains(t, res.Content[0].(*mcp.TextContent).Text, "target_id")
}
