package mcpserver_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/client"
	"github.com/openjury/openjury/mcpserver"
)

// readTools and writeTools are the tool set, by kind.
var (
	readTools  = []string{"find_jobs", "get_job", "list_comments", "list_posts", "search", "status", "leaderboard", "get_anchor", "get_anchor_proof"}
	writeTools = []string{"post_job", "boost_job", "submit_work", "vote", "final_vote", "finalize_job", "close_job", "comment", "reply"}
)

// connect serves mcpserver.New(c, mcpserver.Local{}) to an in-memory MCP client session.
func connect(t *testing.T, c *client.Client) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := mcpserver.New(c, mcpserver.Local{}).Connect(ctx, st, nil)
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
	cs := connect(t, c)
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	var names []string
	concepts := []string{"job_id", "submission_id", "post_id", "comment_id", "address", "record"}
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
		require.NotEmpty(t, tl.Description, tl.Name)
		a := tl.Annotations
		require.NotNil(t, a, tl.Name)
		require.NotEmpty(t, a.Title, tl.Name)
		require.NotNil(t, a.OpenWorldHint, tl.Name)
		require.False(t, *a.OpenWorldHint, tl.Name)
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
			if strings.HasSuffix(prop, "_id") || prop == "address" {
				require.Contains(t, concepts, prop, "%s: argument %s", tl.Name, prop)
			}
			require.NotContains(t, []string{"target_id", "parent_id", "winner_submission_id", "on"}, prop, tl.Name)
		}
		out := tl.OutputSchema.(map[string]any)
		require.Equal(t, "object", out["type"], tl.Name)
	}
	require.ElementsMatch(t, append(slices.Clone(readTools), writeTools...), names)

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
}

// TestWriteToolsWithoutKey: a server without a key starts, and its write
// tools answer how to set one, without calling the API.
func TestWriteToolsWithoutKey(t *testing.T) {
	t.Parallel()
	c, err := client.New("http://127.0.0.1:1") // nothing listens: any API call would fail differently
	require.NoError(t, err)
	cs := connect(t, c)
	for _, name := range writeTools {
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

	// An unknown argument is refused by name.
	res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_job", Arguments: map[string]any{"job_id": "j", "target_id": "x"}})
	require.NoError(t, err)
	require.True(t, res.IsError)
	require.Contains(t, res.Content[0].(*mcp.TextContent).Text, "target_id")
}
