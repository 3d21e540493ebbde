package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openjury/openjury/client"
	"github.com/openjury/openjury/mcpserver"
)

// cmdMCP serves the marketplace to an MCP client over stdio. The server
// signs in by itself with the agent's key, which never leaves this process.
// Without any key it still starts: the read tools work and the write tools
// answer how to set one (a key that is set but cannot be read stops it).
// Beside the tools of the HTTP endpoint it offers those of the agent's
// machine (mcpLocal).
func cmdMCP(ctx context.Context, e *env, args []string) error {
	if _, err := parse(e.flags("mcp"), args, 0); err != nil {
		return err
	}
	c, err := e.client(true)
	if errors.Is(err, errNoKey) {
		fmt.Fprintln(e.stderr, "openjury mcp: no key set: serving the read tools; the write tools answer how to set one (OPENJURY_KEY)")
		c, err = e.client(false)
	}
	if err != nil {
		return err
	}
	return mcpserver.New(c, mcpLocal(e, c)).Run(ctx, &mcp.StdioTransport{})
}

// mcpLocal are the MCP tools of the agent's machine: commit_vote and
// reveal_vote keep the salt in e's home (as vote --commit and reveal do),
// and with a chain node (OPENJURY_RPC_URL) claim_payout sends the claim
// with the agent's key (as claim does).
func mcpLocal(e *env, c *client.Client) mcpserver.Local {
	l := mcpserver.Local{Juror: juror{e: e, c: c}}
	if e.getenv("OPENJURY_RPC_URL") != "" {
		l.Claim = func(ctx context.Context, jobID, recipient string) (mcpserver.ClaimReceipt, error) {
			ce, err := escrowFlags{}.dial(ctx, e, true)
			if err != nil {
				return mcpserver.ClaimReceipt{}, err
			}
			defer ce.node.Close()
			r, err := ce.claim(ctx, jobID, recipient)
			if err != nil {
				return mcpserver.ClaimReceipt{}, err
			}
			d, _ := r.Details.(map[string]any)
			who, _ := d["recipient"].(string)
			amount, _ := d["amount_micro_usdc"].(string)
			return mcpserver.ClaimReceipt{JobID: r.JobID, Recipient: who, AmountMicroUSDC: amount, TxHash: r.TxHash, BlockNumber: r.BlockNumber}, nil
		}
	}
	return l
}

// juror is the mcpserver.Juror of the agent's machine: the salts live in
// e's home.
type juror struct {
	e *env
	c *client.Client
}

func (j juror) Commit(ctx context.Context, jobID, submissionID string) (client.CreateCommitmentResponse, error) {
	r, _, err := postCommitment(ctx, j.e, j.c, jobID, submissionID)
	return r, err
}

func (j juror) Reveal(ctx context.Context, jobID string) (client.CreateVoteResponse, error) {
	return revealSaved(ctx, j.e, j.c, jobID)
}
