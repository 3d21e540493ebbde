package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/openjurytest/simchain"
	"github.com/openjury/openjury/web"
)

// chainWallet is window.ethereum for account %q whose transactions the
// test server's /test/send signs with the account's key and sends to the
// simulated chain (as a browser wallet would).
const chainWallet = `window.ethereum = { request: async ({ method, params }) => {
  if (method === 'eth_requestAccounts') return [%q];
  if (method === 'eth_sendTransaction') {
    const r = await fetch('/test/send', { method: 'POST', body: JSON.stringify(params[0]) });
    if (!r.ok) throw new Error(await r.text());
    return r.text();
  }
  throw new Error('unsupported ' + method);
} };`

// sendFrom signs and sends, from acc on ch, the eth_sendTransaction
// parameters of a request body, mines it and returns its hash.
func sendFrom(ch *simchain.Chain, acc simchain.Account, body []byte) (string, error) {
	var p struct {
		From string `json:"from"`
		To   string `json:"to"`
		Data string `json:"data"`
	}
	if err := json.Unmarshal(body, &p); err != nil {
		return "", err
	}
	if !strings.EqualFold(p.From, acc.Address.Hex()) {
		return "", fmt.Errorf("the wallet holds %s, not %s", acc.Address.Hex(), p.From)
	}
	data, err := hexutil.Decode(p.Data)
	if err != nil {
		return "", err
	}
	ctx := context.Background()
	to := common.HexToAddress(p.To)
	nonce, err := ch.Client.PendingNonceAt(ctx, acc.Address)
	if err != nil {
		return "", err
	}
	gas, err := ch.Client.EstimateGas(ctx, ethereum.CallMsg{From: acc.Address, To: &to, Data: data})
	if err != nil {
		return "", err // a revert
	}
	tip, err := ch.Client.SuggestGasTipCap(ctx)
	if err != nil {
		return "", err
	}
	head, err := ch.Client.HeaderByNumber(ctx, nil)
	if err != nil {
		return "", err
	}
	tx := types.NewTx(&types.DynamicFeeTx{ChainID: big.NewInt(simchain.ChainID), Nonce: nonce, GasTipCap: tip,
		GasFeeCap: new(big.Int).Add(tip, new(big.Int).Mul(head.BaseFee, big.NewInt(2))), Gas: gas, To: &to, Data: data})
	signed, err := acc.Opts.Signer(acc.Address, tx)
	if err != nil {
		return "", err
	}
	if err := ch.Client.SendTransaction(ctx, signed); err != nil {
		return "", err
	}
	ch.Backend.Commit()
	return signed.Hash().Hex(), nil
}

// TestBrowserClaim funds a job on a simulated chain (served over HTTP
// JSON-RPC and followed by the service), shows the funded badge and the
// escrow on the pages, closes and settles it, and claims the winner's
// payout with the page's claim button through an injected wallet: the
// winner's USDC grows by exactly its payout and the page then shows it
// claimed.
func TestBrowserClaim(t *testing.T) {
	ctx := browser(t)
	ch := simchain.New(t, simchain.WithHTTP())
	sponsorAcc, winnerAcc, treasuryAcc := ch.Accounts[0], ch.Accounts[1], ch.Accounts[2]
	srv := openjurytest.NewServer(t, openjurytest.WithConfig(func(c *openjurytest.ServerConfig) {
		c.ChainID = simchain.ChainID
		c.RPCURL = ch.URL
		c.OnchainStakeEnabled, c.OnchainSyncEnabled = true, true
		c.StakeContractAddress = openjury.AddressFromBytes(ch.VaultAddr)
		c.EscrowContractAddress = openjury.AddressFromBytes(ch.EscrowAddr)
		c.TreasuryAddress = treasuryAcc.Addr()
		c.SyncConfirmations = 1
		c.SyncPollInterval = time.Second
		c.SemanticSearchEnabled = false
	}))
	bg := context.Background()
	eventually := func(what string, cond func() bool) {
		t.Helper()
		require.Eventually(t, func() bool { ch.Mine(1); return cond() }, time.Minute, 200*time.Millisecond, what)
	}
	escrowOf := func(jobID string) *marketplace.JobEscrow {
		j, err := srv.Market.Job(bg, jobID)
		require.NoError(t, err)
		return j.Escrow
	}

	ch.Deposit(winnerAcc, winnerAcc.Address, 10_000_000)
	eventually("the stake synced", func() bool {
		st, err := srv.Stake.Status(bg, winnerAcc.Addr().String())
		return err == nil && st.Eligible
	})
	job, err := srv.Market.CreateJob(bg, sponsorAcc.Addr(), marketplace.CreateJobInput{Title: "Funded <job>", Prompt: "Do it", Bounty: 2 * openjury.MicroPerUSDC})
	require.NoError(t, err)
	ch.Fund(sponsorAcc, anchor.JobKey(job.ID), 2_000_000, ch.BlockTime()+86400)
	eventually("the funding synced", func() bool { e := escrowOf(job.ID); return e != nil && e.Status == marketplace.EscrowFunded })

	pages := web.NewHandler(web.Services{Market: srv.Market, Auth: srv.Auth, Stake: srv.Stake, AGR: srv.AGR})
	api := srv.HTTP.Config.Handler
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/test/send":
			body, _ := io.ReadAll(r.Body)
			hash, err := sendFrom(ch, winnerAcc, body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			_, _ = io.WriteString(w, hash)
		case strings.HasPrefix(r.URL.Path, "/api/"):
			api.ServeHTTP(w, r)
		default:
			pages.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(front.Close)
	shots := screenshotDir(t)
	axe := axeSource(t)
	// accessible checks the page loaded in the browser with axe at both
	// widths.
	accessible := func(name string) chromedp.Action {
		return chromedp.ActionFunc(func(ctx context.Context) error {
			for i, w := range widths {
				if err := chromedp.EmulateViewport(w.width, w.height).Do(ctx); err != nil {
					return err
				}
				bad, _, err := axeCheck(ctx, axe, i == 0)
				if err != nil {
					return err
				}
				if len(bad) > 0 {
					return fmt.Errorf("%s at %s width:\n%s", name, w.name, strings.Join(bad, "\n"))
				}
			}
			return chromedp.EmulateViewport(widths[0].width, widths[0].height).Do(ctx)
		})
	}

	var badge, status string
	err = chromedp.Run(ctx,
		chromedp.ActionFunc(func(ctx context.Context) error {
			_, err := page.AddScriptToEvaluateOnNewDocument(fmt.Sprintf(chainWallet, winnerAcc.Address.Hex())).Do(ctx)
			return err
		}),
		chromedp.Navigate(front.URL+"/"),
		chromedp.WaitVisible(`a[href="/jobs/`+job.ID+`"]`),
		chromedp.Text(`.funded`, &badge),
		chromedp.Navigate(front.URL+"/jobs/"+job.ID),
		chromedp.WaitVisible(`#escrow-status`),
		chromedp.Text(`#escrow-status`, &status),
		screenshot(shots, "job-funded", ""),
		accessible("the funded job"),
	)
	require.NoError(t, err)
	require.Equal(t, "Funded 2 USDC", badge)
	require.Contains(t, status, "Funded: 2 USDC held by the escrow contract")

	sub, err := srv.Market.Submit(bg, winnerAcc.Addr(), marketplace.SubmitInput{JobID: job.ID, Content: "done"})
	require.NoError(t, err)
	res, err := srv.Market.CloseJob(bg, sponsorAcc.Addr(), job.ID, marketplace.CloseInput{WinnerSubmissionID: sub.ID})
	require.NoError(t, err)
	ch.Send(ch.Escrow.Settle(ch.Deployer.Opts, anchor.JobKey(job.ID), sponsorAcc.Address, common.HexToHash(res.Job.Anchor.Root.String()), big.NewInt(2_000_000)))
	eventually("the settle synced", func() bool { e := escrowOf(job.ID); return e != nil && e.Status == marketplace.EscrowSettled })

	balance := func() int64 {
		b, err := ch.USDC.BalanceOf(&bind.CallOpts{}, winnerAcc.Address)
		require.NoError(t, err)
		return b.Int64()
	}
	before := balance()
	claim := `button.claim[data-recipient="` + winnerAcc.Addr().String() + `"]`
	var rows int
	var result string
	err = chromedp.Run(ctx,
		chromedp.Navigate(front.URL+"/jobs/"+job.ID),
		chromedp.WaitVisible(claim),
		chromedp.Evaluate(`document.querySelectorAll('tr.payout').length`, &rows),
		screenshot(shots, "job-payouts", "#payouts"),
		accessible("the payouts"),
		chromedp.Click(claim),
		chromedp.WaitVisible(`#claim-result.verified`),
		chromedp.Text(`#claim-result`, &result),
	)
	require.NoError(t, err)
	require.Equal(t, 2, rows, "the winner and the treasury")
	require.Contains(t, result, "Claim sent: 0x")
	require.Equal(t, int64(1_900_000), balance()-before, "the winner's payout, exactly")

	eventually("the claim synced", func() bool {
		p, err := srv.Market.Payouts(bg, job.ID, marketplace.PayoutsInput{Recipient: winnerAcc.Addr().String()})
		return err == nil && len(p.Payouts) == 1 && !p.Payouts[0].Claim.IsZero()
	})
	var claimed bool
	err = chromedp.Run(ctx,
		chromedp.Navigate(front.URL+"/jobs/"+job.ID),
		chromedp.WaitVisible(`tr.payout`),
		chromedp.Evaluate(`!!document.querySelector('tr.payout[data-recipient="`+winnerAcc.Addr().String()+`"] .claimed')`, &claimed),
	)
	require.NoError(t, err)
	require.True(t, claimed, "the page shows the payout claimed")
}
