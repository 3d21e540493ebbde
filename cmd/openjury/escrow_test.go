package main_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"math/big"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/client"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/openjurytest/simchain"
)

// agentOf is the agent of a simulated chain's funded account.
func agentOf(a simchain.Account) agent {
	return agent{key: hex.EncodeToString(crypto.FromECDSA(a.Key)), addr: strings.ToLower(a.Address.Hex())}
}

// TestEscrowEndToEnd is the bounty escrow from funding to payouts on a
// simulated chain served over HTTP JSON-RPC, with the service following it
// (stake sync and escrow events after two confirmations) and every
// onchain step sent by the built openjury command: the sponsor funds a job
// with 100.000001 USDC; two agents submit; three jurors vote (weights 4
// and 5 for the winner, 4 for the other); the sponsor closes; the operator
// settles; the winner, both coherent jurors and the treasury claim exactly
// 85,000,002 / 4,444,444 / 5,555,555 / 5,000,000 micro-USDC; a second
// claim and a claim with another's proof revert; a second funded job
// never closed is refunded after its refund time; an unfunded job closes
// exactly as before (schema 1, no payouts); replaying the sync from block
// 0 changes nothing.
func TestEscrowEndToEnd(t *testing.T) {
	t.Parallel()
	ch := simchain.New(t, simchain.WithHTTP())
	acc := ch.Accounts
	sponsorAcc, winnerAcc, loserAcc, j4Acc, j5Acc, joAcc, treasuryAcc := acc[0], acc[1], acc[2], acc[3], acc[4], acc[5], acc[6]
	addrOf := func(a common.Address) openjury.Address { return openjury.AddressFromBytes(a) }
	srv := openjurytest.NewServer(t, openjurytest.WithConfig(func(c *openjurytest.ServerConfig) {
		c.ChainID = simchain.ChainID
		c.RPCURL = ch.URL
		c.OnchainStakeEnabled, c.OnchainSyncEnabled = true, true
		c.StakeContractAddress = addrOf(ch.VaultAddr)
		c.EscrowContractAddress = addrOf(ch.EscrowAddr)
		c.TreasuryAddress = treasuryAcc.Addr()
		c.SyncConfirmations = 2
		c.SyncPollInterval = time.Second
		c.SemanticSearchEnabled = false
	}))
	srv.Clock.Set(time.Now())
	ctx := context.Background()
	// While a command runs, a block every 100 ms, as a chain makes them:
	// the command waits for its transactions to be mined. Only this
	// goroutine mines meanwhile (the simulated chain's Commit is not safe
	// for concurrent use).
	mining := func(fn func()) {
		done := make(chan struct{})
		go func() { defer close(done); fn() }()
		for {
			select {
			case <-done:
				return
			case <-time.After(100 * time.Millisecond):
				ch.Backend.Commit()
			}
		}
	}
	env := []string{"OPENJURY_RPC_URL=" + ch.URL}
	cmd := func(a *agent, args ...string) (r result) {
		t.Helper()
		mining(func() { r = run(t, srv.URL, a, env, args...) })
		return r
	}
	cli := func(a *agent, v any, args ...string) {
		t.Helper()
		r := cmd(a, append(args, "--json")...)
		require.Equal(t, 0, r.code, "openjury %v: %s", args, r.stderr)
		if v != nil {
			require.NoError(t, json.Unmarshal([]byte(r.stdout), v), r.stdout)
		}
	}
	eventually := func(what string, cond func() bool) {
		t.Helper()
		require.Eventually(t, func() bool { ch.Mine(1); return cond() }, 60*time.Second, 200*time.Millisecond, what)
	}
	api, err := client.New(srv.URL)
	require.NoError(t, err)
	job := func(id string) client.Job {
		t.Helper()
		j, err := api.GetJob(ctx, id)
		require.NoError(t, err)
		return j
	}

	// Stake on chain for the agents and jurors; reputation for the jurors.
	for _, a := range []simchain.Account{winnerAcc, loserAcc, j4Acc, j5Acc, joAcc} {
		ch.Deposit(a, a.Address, 10_000_000)
	}
	srv.SetReputation(t, j4Acc.Addr(), 10) // weight 4
	srv.SetReputation(t, joAcc.Addr(), 10) // weight 4
	srv.SetReputation(t, j5Acc.Addr(), 16) // weight 5
	eventually("the stakes synced", func() bool {
		st, err := api.GetStakeStatus(ctx, j5Acc.Addr().String())
		return err == nil && st.IsEligible
	})

	sponsor, winner, loser := agentOf(sponsorAcc), agentOf(winnerAcc), agentOf(loserAcc)
	j4, j5, jo, treasury, operator := agentOf(j4Acc), agentOf(j5Acc), agentOf(joAcc), agentOf(treasuryAcc), agentOf(ch.Deployer)
	var funded, idle, plain client.Job
	cli(&sponsor, &funded, "post-job", "--title", "Funded", "--prompt", "Paid by the verdict.", "--bounty", "100.000001")
	cli(&sponsor, &idle, "post-job", "--title", "Never closed", "--prompt", "Refunded.", "--bounty", "3")
	cli(&sponsor, &plain, "post-job", "--title", "Unfunded", "--prompt", "A promise.", "--bounty", "1")
	require.Equal(t, "unfunded", *funded.EscrowStatus)

	// Fund: approve + fund for one, one EIP-3009 transaction for the other.
	ch.Mint(sponsorAcc.Address, 103_000_001)
	cli(&sponsor, nil, "escrow", "fund", funded.ID, "100.000001")
	refundAt := ch.BlockTime() + 3600
	cli(&sponsor, nil, "escrow", "fund", idle.ID, "3", "--authorization", "--refund-after", big.NewInt(int64(refundAt)).String())
	// Someone else's funding of their own slot of the job's key is not the job's.
	ch.Fund(loserAcc, anchor.JobKey(funded.ID), 7, refundAt)
	eventually("the fundings synced", func() bool {
		a, b := job(funded.ID), job(idle.ID)
		return a.EscrowStatus != nil && *a.EscrowStatus == "funded" && b.EscrowStatus != nil && *b.EscrowStatus == "funded"
	})
	require.Equal(t, "100.000001", job(funded.ID).EscrowAmountUSDC.String(), "only the sponsor's slot counts: exactly")
	listed, err := api.ListJobs(ctx, client.JobFilter{Funded: true})
	require.NoError(t, err)
	require.Len(t, listed.Jobs, 2)

	// Two agents submit, three jurors vote, the sponsor closes.
	var win, lose client.Submission
	cli(&winner, &win, "submit", funded.ID, "--content", "the answer")
	cli(&loser, &lose, "submit", funded.ID, "--content", "another answer")
	cli(&j4, nil, "vote", funded.ID, win.ID)
	cli(&j5, nil, "vote", funded.ID, win.ID)
	cli(&jo, nil, "vote", funded.ID, lose.ID)
	cli(&sponsor, nil, "close", funded.ID, win.ID)
	var status struct {
		Status  *string         `json:"escrow_status"`
		Payouts []client.Payout `json:"payouts"`
		OnChain struct {
			Status string `json:"status"`
		} `json:"onchain"`
	}
	cli(nil, &status, "escrow", "status", funded.ID)
	require.Len(t, status.Payouts, 4)
	require.Equal(t, "funded", *status.Status)
	require.Equal(t, "funded", status.OnChain.Status)

	// The operator settles (after checking the snapshot's root).
	var settled struct {
		TxHash string `json:"tx_hash"`
	}
	cli(&operator, &settled, "escrow", "settle", funded.ID)
	require.NotEmpty(t, settled.TxHash)
	eventually("the settle synced", func() bool {
		s := job(funded.ID).EscrowStatus
		return s != nil && *s == "settled"
	})
	require.False(t, *job(funded.ID).EscrowMismatch)

	// Everyone claims; the treasury's is sent by someone else for it.
	usdc := func(a common.Address) int64 {
		b, err := ch.USDC.BalanceOf(&bind.CallOpts{}, a)
		require.NoError(t, err)
		return b.Int64()
	}
	before := map[common.Address]int64{}
	for _, a := range []simchain.Account{winnerAcc, j4Acc, j5Acc, treasuryAcc} {
		before[a.Address] = usdc(a.Address)
	}
	cli(&winner, nil, "claim", funded.ID)
	cli(&j4, nil, "claim", funded.ID)
	// j5 claims through the MCP tool of `openjury mcp` (stdio, with a
	// chain node); the same claim as the command's.
	mining(func() {
		cmd := exec.Command(binary, "mcp")
		cmd.Env = []string{"OPENJURY_URL=" + srv.URL, "OPENJURY_PRIVATE_KEY=" + j5.key, "OPENJURY_RPC_URL=" + ch.URL,
			"OPENJURY_HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH")}
		session, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		require.NoError(t, err)
		defer session.Close()
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "claim_payout", Arguments: map[string]any{"job_id": funded.ID}})
		require.NoError(t, err)
		require.False(t, res.IsError, "%v", res.Content)
		got := res.StructuredContent.(map[string]any)
		require.Equal(t, j5.addr, got["recipient"])
		require.Equal(t, "5555555", got["amount_micro_usdc"])
		require.NotEmpty(t, got["tx_hash"])
	})
	cli(&loser, nil, "claim", funded.ID, "--recipient", treasury.addr)
	for a, want := range map[common.Address]int64{winnerAcc.Address: 85_000_002, j4Acc.Address: 4_444_444, j5Acc.Address: 5_555_555, treasuryAcc.Address: 5_000_000} {
		require.Equal(t, want, usdc(a)-before[a], "claimed by %s", a.Hex())
	}
	// A second claim, and a claim of j4's amount with j5's proof, revert.
	p, err := api.GetJobPayouts(ctx, funded.ID, client.PayoutFilter{})
	require.NoError(t, err)
	proofOf := map[string][][32]byte{}
	for _, po := range p.Payouts {
		for _, h := range po.Proof {
			proofOf[po.Recipient] = append(proofOf[po.Recipient], common.HexToHash(h))
		}
	}
	key := anchor.JobKey(funded.ID)
	_, err = ch.Escrow.Claim(winnerAcc.Opts, key, sponsorAcc.Address, winnerAcc.Address, big.NewInt(85_000_002), proofOf[winner.addr])
	require.ErrorContains(t, err, "revert", "a second claim")
	_, err = ch.Escrow.Claim(joAcc.Opts, key, sponsorAcc.Address, joAcc.Address, big.NewInt(4_444_444), proofOf[j4.addr])
	require.ErrorContains(t, err, "revert", "another's proof")
	r := cmd(&winner, "claim", funded.ID)
	require.NotZero(t, r.code)
	require.Contains(t, r.stderr, "claimed already")
	eventually("the claims synced", func() bool {
		p, err := api.GetJobPayouts(ctx, funded.ID, client.PayoutFilter{})
		if err != nil {
			return false
		}
		for _, po := range p.Payouts {
			if !po.Claimed {
				return false
			}
		}
		return true
	})

	// The job never closed: refunded after its refund time, not before.
	r = cmd(&sponsor, "escrow", "refund", idle.ID)
	require.NotZero(t, r.code, "too early: %s", r.stdout)
	ch.AdjustTime(2 * time.Hour)
	ch.Mine(1)
	balance := usdc(sponsorAcc.Address)
	cli(&sponsor, nil, "escrow", "refund", idle.ID)
	require.Equal(t, int64(3_000_000), usdc(sponsorAcc.Address)-balance)
	eventually("the refund synced", func() bool {
		s := job(idle.ID).EscrowStatus
		return s != nil && *s == "refunded"
	})

	// The unfunded job closes as before: schema 1, no payouts.
	var sub client.Submission
	cli(&winner, &sub, "submit", plain.ID, "--content", "x")
	cli(&sponsor, nil, "close", plain.ID, sub.ID)
	closed := job(plain.ID)
	require.EqualValues(t, 1, *closed.AnchorSchemaVersion)
	require.Equal(t, "unfunded", *closed.EscrowStatus)
	none, err := api.GetJobPayouts(ctx, plain.ID, client.PayoutFilter{})
	require.NoError(t, err)
	require.Empty(t, none.Payouts)

	// Replaying the escrow's events from block 0 changes nothing.
	snapshot := func() []any {
		p, err := api.GetJobPayouts(ctx, funded.ID, client.PayoutFilter{})
		require.NoError(t, err)
		return []any{job(funded.ID), job(idle.ID), job(plain.ID), p}
	}
	was := snapshot()
	cursor := "bounty-escrow:" + big.NewInt(simchain.ChainID).String() + ":" + addrOf(ch.EscrowAddr).String()
	res, err := srv.DB.Bun().NewUpdate().Table("sync_cursors").Set("next_block = 0").Where("name = ?", cursor).Exec(ctx)
	require.NoError(t, err)
	n, _ := res.RowsAffected()
	require.EqualValues(t, 1, n, "the escrow's cursor")
	eventually("the replay caught up", func() bool {
		var next int64
		err := srv.DB.Bun().NewSelect().Table("sync_cursors").Column("next_block").Where("name = ?", cursor).Scan(ctx, &next)
		return err == nil && next > 10
	})
	require.Equal(t, was, snapshot())

	// The snapshot still verifies (schema 2) through the command.
	var verified struct {
		OK bool `json:"ok"`
	}
	cli(nil, &verified, "anchor", "verify", funded.ID)
	require.True(t, verified.OK)
}
