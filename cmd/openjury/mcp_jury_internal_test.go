package main

import (
	"context"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/client"
	"github.com/openjury/openjury/mcpserver"
	"github.com/openjury/openjury/openjurytest"
)

// TestMCPJuryTools: through the stdio server's tools (mcpLocal), a drawn
// juror sees its duty, commits (the salt kept in its home, mode 0600), is
// refused an early reveal, and reveals in the window; no claim_payout
// without a chain node.
func TestMCPJuryTools(t *testing.T) {
	t.Parallel()
	srv := openjurytest.NewServer(t)
	srv.Clock.Set(time.Now())
	ctx := context.Background()
	key, err := crypto.GenerateKey()
	require.NoError(t, err)
	addr := strings.ToLower(crypto.PubkeyToAddress(key.PublicKey).Hex())
	home := t.TempDir()
	vars := map[string]string{"OPENJURY_URL": srv.URL, "OPENJURY_PRIVATE_KEY": hex.EncodeToString(crypto.FromECDSA(key)), "OPENJURY_HOME": home}
	e := &env{getenv: func(k string) string { return vars[k] }, stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}
	c, err := e.client(true)
	require.NoError(t, err)

	dev, err := client.New(srv.URL, client.WithDevSecret(openjurytest.DevSecret))
	require.NoError(t, err)
	_, err = dev.DevSetStake(ctx, client.DevSetStakeRequest{Address: addr, StakedAmount: "20"})
	require.NoError(t, err)
	_, err = dev.DevSetReputation(ctx, client.DevSetReputationRequest{Address: addr, Score: 10})
	require.NoError(t, err)
	sponsor, worker := openjurytest.NewWallet(t), openjurytest.NewWallet(t)
	st, wt := srv.SignIn(t, sponsor), srv.SignIn(t, worker)
	srv.SetStake(t, worker.Address(), 20)
	r := srv.Do(t, "POST", "/api/v1/jobs", st, map[string]any{"title": "t", "prompt": "p", "bounty_usdc": 1,
		"jury_mode": "commit_reveal", "jury_size": 1, "jury_commit_seconds": 60, "jury_reveal_seconds": 60})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	jobID := r.Map(t)["id"].(string)
	r = srv.Do(t, "POST", "/api/v1/submissions", wt, map[string]any{"job_id": jobID, "content": "work"})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	subID := r.Map(t)["submission"].(map[string]any)["id"].(string)

	ct, st2 := mcp.NewInMemoryTransports()
	server := mcpserver.New(c, mcpLocal(e, c))
	ss, err := server.Connect(ctx, st2, nil)
	require.NoError(t, err)
	defer ss.Close()
	session, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	require.NoError(t, err)
	defer session.Close()
	call := func(name string, args map[string]any) *mcp.CallToolResult {
		t.Helper()
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		require.NoError(t, err)
		return res
	}

	tools, err := session.ListTools(ctx, nil)
	require.NoError(t, err)
	names := map[string]bool{}
	for _, tl := range tools.Tools {
		names[tl.Name] = true
	}
	require.True(t, names["commit_vote"] && names["reveal_vote"])
	require.False(t, names["claim_payout"], "no OPENJURY_RPC_URL")
	duties := call("jury_duties", map[string]any{})
	require.False(t, duties.IsError)
	require.Contains(t, duties.StructuredContent.(map[string]any)["duties"].([]any)[0].(map[string]any)["next_action"], "commit")
	commit := call("commit_vote", map[string]any{"job_id": jobID, "submission_id": subID})
	require.False(t, commit.IsError, "%v", commit.Content)
	path := filepath.Join(home, "salts", jobID+"."+addr+".json")
	info, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), info.Mode().Perm())
	early := call("reveal_vote", map[string]any{"job_id": jobID})
	require.True(t, early.IsError)
	srv.Clock.Advance(time.Minute)
	revealed := call("reveal_vote", map[string]any{"job_id": jobID})
	require.False(t, revealed.IsError, "%v", revealed.Content)
	require.Equal(t, subID, revealed.StructuredContent.(map[string]any)["vote"].(map[string]any)["submission_id"])
}
