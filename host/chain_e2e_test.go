package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/openjurytest/simchain"
	"github.com/openjury/openjury/server"
)

// hostProc is the host binary running as a child process.
type hostProc struct {
	t    *testing.T
	cmd  *exec.Cmd
	base string
	logs *openjurytest.Buffer
	done chan error
}

// buildHost builds the host binary once for the test.
func buildHost(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "openjury")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	return bin
}

// startBinary runs bin with the given SERVICE_* settings and waits for its
// "listening on" line. It is stopped (SIGTERM) when the test ends.
func startBinary(t *testing.T, bin string, vars map[string]string) *hostProc {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}
	for k, v := range vars {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	p := &hostProc{t: t, cmd: cmd, logs: &openjurytest.Buffer{}, done: make(chan error, 1)}
	cmd.Stderr = p.logs
	require.NoError(t, cmd.Start())
	listening := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := listeningRE.FindStringSubmatch(sc.Text()); m != nil {
				listening <- m[1]
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
	}()
	go func() { p.done <- cmd.Wait() }()
	t.Cleanup(p.stop)
	select {
	case u := <-listening:
		p.base = u
	case err := <-p.done:
		t.Fatalf("host exited early: %v\n%s", err, p.logs.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("host did not start\n%s", p.logs.String())
	}
	return p
}

// stop shuts the host down gracefully (it gives its sync lease up).
func (p *hostProc) stop() {
	if p.cmd.ProcessState != nil {
		return
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-p.done:
		require.NoError(p.t, err, "host exit: %s", p.logs.String())
	case <-time.After(30 * time.Second):
		_ = p.cmd.Process.Kill()
		p.t.Fatalf("host did not stop\n%s", p.logs.String())
	}
}

func (p *hostProc) call(method, path, token string, body any) (int, map[string]any) {
	p.t.Helper()
	return callJSON(p.t, method, p.base+path, token, body)
}

// signIn signs signer's signature in for address (a contract wallet's, or
// the signer's own) and returns the status and token.
func (p *hostProc) signIn(address openjury.Address, signer *openjurytest.Wallet) (int, string) {
	p.t.Helper()
	st, ch := p.call("POST", "/api/v1/agents/auth/challenge", "", map[string]string{"address": address.String()})
	require.Equal(p.t, http.StatusOK, st, "%v", ch)
	st, v := p.call("POST", "/api/v1/agents/auth/verify", "", map[string]string{
		"address": address.String(), "signature": signer.Sign(p.t, ch["message_to_sign"].(string)),
		"nonce": ch["nonce"].(string), // a contract wallet is asked about this challenge only
	})
	tok, _ := v["access_token"].(string)
	return st, tok
}

// metric returns the value of an unlabelled metric on /metrics.
func (p *hostProc) metric(name string) float64 {
	p.t.Helper()
	resp, err := http.Get(p.base + "/metrics")
	require.NoError(p.t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(p.t, err)
	for line := range strings.SplitSeq(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			require.NoError(p.t, err)
			return f
		}
	}
	p.t.Fatalf("metric %s not found", name)
	return 0
}

// stakeOf returns staked_amount and is_eligible of addr.
func (p *hostProc) stakeOf(addr openjury.Address) (float64, bool) {
	p.t.Helper()
	st, m := p.call("GET", "/api/v1/stake/status?address="+addr.String(), "", nil)
	require.Equal(p.t, http.StatusOK, st, "%v", m)
	return m["staked_amount"].(float64), m["is_eligible"].(bool)
}

// slashes returns the slashing events of addr.
func (p *hostProc) slashes(addr openjury.Address) []map[string]any {
	p.t.Helper()
	st, m := p.call("GET", "/api/v1/slashing/events?limit=200&address="+addr.String(), "", nil)
	require.Equal(p.t, http.StatusOK, st, "%v", m)
	var out []map[string]any
	for _, e := range m["events"].([]any) {
		out = append(out, e.(map[string]any))
	}
	return out
}

// TestChainEndToEnd runs the host binary against a simulated chain served
// over JSON-RPC: contract-wallet sign-in, the stake-vault sync moving stake,
// eligibility and the slashing list after the confirmations, a restart that
// resumes from the cursor, two hosts on one database syncing once, an
// anchor receipt checked on chain, and an RPC outage (sign-in 503, the
// sync recovers).
func TestChainEndToEnd(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs the host binary against a simulated chain")
	}
	ch := simchain.New(t, simchain.WithHTTP())
	bin := buildHost(t)
	vars := map[string]string{
		"SERVICE_ADDR":                   "127.0.0.1:0",
		"SERVICE_DATABASE_URL":           "sqlite:" + filepath.Join(t.TempDir(), "openjury.db"),
		"SERVICE_CHAIN_ID":               strconv.Itoa(simchain.ChainID),
		"SERVICE_MIN_STAKE_USDC":         "10",
		"SERVICE_AUTH_EIP1271_ENABLED":   "1",
		"SERVICE_RPC_URL":                ch.URL,
		"SERVICE_ONCHAIN_STAKE_ENABLED":  "1",
		"SERVICE_ONCHAIN_SYNC_ENABLED":   "1",
		"SERVICE_STAKE_CONTRACT_ADDRESS": openjury.AddressFromBytes(ch.VaultAddr).String(),
		"SERVICE_SYNC_CONFIRMATIONS":     "2",
		"SERVICE_SYNC_POLL_SECONDS":      "1",
		"SERVICE_RATE_LIMIT_PER_MIN":     "0",
		"SERVICE_DEV_SECRET":             "dev",
	}
	// Anchor receipts are checked on chain against the registry.
	operator := openjurytest.NewWallet(t)
	vars["SERVICE_ANCHOR_REGISTRY_ADDRESS"] = openjury.AddressFromBytes(ch.RegistryAddr).String()
	vars["SERVICE_OPERATOR_ADDRESSES"] = operator.Address().String()
	a := startBinary(t, bin, vars)
	eventually := func(what string, cond func() bool) {
		t.Helper()
		require.Eventually(t, cond, 30*time.Second, 100*time.Millisecond, what)
	}

	// Contract-wallet sign-in: the owner key's signature for the wallet
	// address gets a token, another key's gets 401.
	owner, stranger := openjurytest.NewWallet(t), openjurytest.NewWallet(t)
	wallet := openjury.AddressFromBytes(ch.DeployWallet(common.Address(owner.Address().Bytes())))
	st, tok := a.signIn(wallet, owner)
	require.Equal(t, http.StatusOK, st)
	require.NotEmpty(t, tok)
	st, _ = a.signIn(wallet, stranger)
	require.Equal(t, http.StatusUnauthorized, st)

	// The dev stake endpoint does not fight the sync.
	req, err := http.NewRequest("POST", a.base+"/api/v1/stake/dev_set",
		strings.NewReader(`{"address":"`+wallet.String()+`","staked_amount":100}`))
	require.NoError(t, err)
	req.Header.Set("X-Dev-Secret", "dev")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	_ = resp.Body.Close()
	require.Equal(t, http.StatusConflict, resp.StatusCode)

	alice, bob, payer, treasury := ch.Accounts[0], ch.Accounts[1], ch.Accounts[2], ch.Accounts[3]
	aliceW := openjurytest.WalletFromKey(alice.Key)
	st, aliceTok := a.signIn(alice.Addr(), aliceW)
	require.Equal(t, http.StatusOK, st)
	st, sponsorTok := a.signIn(stranger.Address(), stranger)
	require.Equal(t, http.StatusOK, st)
	newJob := func() string {
		st, j := a.call("POST", "/api/v1/jobs", sponsorTok, map[string]any{
			"title": "t", "prompt": "p", "bounty_usdc": 1, "tags": []string{"x"},
		})
		require.Equal(t, http.StatusOK, st, "%v", j)
		return j["id"].(string)
	}
	submit := func(jobID string) int {
		st, _ := a.call("POST", "/api/v1/submissions", aliceTok, map[string]any{"job_id": jobID, "content": "work"})
		return st
	}
	require.Equal(t, http.StatusForbidden, submit(newJob()), "no stake yet")

	// deposit: synced only after the confirmations.
	ch.Deposit(alice, alice.Address, 15_000_000)
	time.Sleep(1500 * time.Millisecond)
	staked, _ := a.stakeOf(alice.Addr())
	require.Zero(t, staked, "one confirmation is not enough")
	ch.Mine(2)
	eventually("alice's deposit synced", func() bool { s, ok := a.stakeOf(alice.Addr()); return s == 15 && ok })
	require.Equal(t, http.StatusOK, submit(newJob()), "eligible: may submit")

	// Anchors: close a job, post its root with postAnchor on the node and
	// record the receipt as the operator: a wrong block is 400, the real
	// receipt 200.
	anchored := newJob()
	st, sub := a.call("POST", "/api/v1/submissions", aliceTok, map[string]any{"job_id": anchored, "content": "work"})
	require.Equal(t, http.StatusOK, st, "%v", sub)
	st, closed := a.call("POST", "/api/v1/jobs/"+anchored+"/close", sponsorTok, map[string]any{"winner_submission_id": sub["submission"].(map[string]any)["id"]})
	require.Equal(t, http.StatusOK, st, "%v", closed)
	st, batch := a.call("GET", "/api/v1/jobs/"+anchored+"/anchor", "", nil)
	require.Equal(t, http.StatusOK, st, "%v", batch)
	posted := ch.Send(ch.Registry.PostAnchor(ch.Deployer.Opts, common.HexToHash(batch["anchor_root"].(string)),
		batch["anchor_uri"].(string), 1, common.HexToHash(batch["salt"].(string))))
	st, opTok := a.signIn(operator.Address(), operator)
	require.Equal(t, http.StatusOK, st)
	receipt := map[string]any{
		"anchor_tx_hash": posted.TxHash.Hex(), "anchor_chain_id": simchain.ChainID,
		"anchor_contract_address": openjury.AddressFromBytes(ch.RegistryAddr).String(),
		"anchor_block_number":     posted.BlockNumber.Int64() + 1, "anchor_log_index": posted.Logs[0].Index,
	}
	st, m := a.call("POST", "/api/v1/jobs/"+anchored+"/anchor_receipt", opTok, receipt)
	require.Equal(t, http.StatusBadRequest, st, "%v", m)
	require.Contains(t, m["detail"], "anchor_block_number")
	receipt["anchor_block_number"] = posted.BlockNumber.Int64()
	st, m = a.call("POST", "/api/v1/jobs/"+anchored+"/anchor_receipt", opTok, receipt)
	require.Equal(t, http.StatusOK, st, "%v", m)
	require.Equal(t, openjury.HashFromBytes(posted.TxHash).String(), m["anchor_tx_hash"])

	// depositFor, withdraw, slash.
	ch.Deposit(payer, bob.Address, 7_000_000)
	ch.Withdraw(alice, 6_000_000)
	slash := ch.Slash(bob.Address, treasury.Address, 3_000_000)
	ch.Mine(2)
	eventually("bob's stake synced", func() bool { s, _ := a.stakeOf(bob.Addr()); return s == 4 })
	staked, eligible := a.stakeOf(alice.Addr())
	require.Equal(t, 9.0, staked)
	require.False(t, eligible)
	require.Equal(t, http.StatusForbidden, submit(newJob()), "below the minimum after the withdrawal")
	ev := a.slashes(bob.Addr())
	require.Len(t, ev, 1)
	require.Equal(t, 3.0, ev[0]["amount_usdc"])
	require.Equal(t, treasury.Addr().String(), ev[0]["recipient_address"])
	require.Equal(t, openjury.HashFromBytes(slash.TxHash).String(), ev[0]["tx_hash"])
	require.EqualValues(t, simchain.ChainID, ev[0]["chain_id"])
	require.Nil(t, ev[0]["job_id"])

	// Restart mid-stream: events while the host is down are synced once
	// it is back, from its cursor, with no duplicate and no gap.
	a.stop()
	ch.Slash(alice.Address, treasury.Address, 1_000_000)
	ch.Deposit(payer, bob.Address, 2_000_000)
	ch.Slash(bob.Address, treasury.Address, 500_000)
	ch.Mine(2)
	a = startBinary(t, bin, vars)
	eventually("synced after the restart", func() bool { s, _ := a.stakeOf(bob.Addr()); return s == 5.5 })
	staked, _ = a.stakeOf(alice.Addr())
	require.Equal(t, 8.0, staked)
	require.Len(t, a.slashes(bob.Addr()), 2)
	require.Len(t, a.slashes(alice.Addr()), 1)

	// Two hosts on one database: one holds the lease, events land once.
	b := startBinary(t, bin, vars)
	for i := range 3 {
		ch.Slash(bob.Address, treasury.Address, int64(100_000*(i+1)))
	}
	ch.Mine(2)
	eventually("the slashes synced", func() bool { return len(a.slashes(bob.Addr())) == 5 })
	require.Len(t, b.slashes(bob.Addr()), 5)
	staked, _ = b.stakeOf(bob.Addr())
	require.InDelta(t, 4.9, staked, 1e-9)
	require.Equal(t, 1.0, a.metric("openjury_stake_sync_leader")+b.metric("openjury_stake_sync_leader"), "one leader")
	require.Equal(t, 2.0, a.metric("openjury_stake_sync_lag_blocks")+b.metric("openjury_stake_sync_lag_blocks"),
		"the leader is its two confirmations behind the head; the other reports nothing")
	b.stop()

	// RPC outage: contract-wallet sign-in answers 503, the worker backs
	// off and recovers once the node is back.
	errorsBefore := a.metric("openjury_stake_sync_errors_total")
	ch.Proxy().Stop()
	st, _ = a.signIn(wallet, owner)
	require.Equal(t, http.StatusServiceUnavailable, st)
	ch.Deposit(payer, bob.Address, 10_000_000)
	ch.Mine(2)
	eventually("the worker noticed the outage", func() bool {
		return a.metric("openjury_stake_sync_errors_total") > errorsBefore
	})
	ch.Proxy().Start()
	eventually("synced after the outage", func() bool { s, _ := a.stakeOf(bob.Addr()); return s > 14.8 })
	staked, eligible = a.stakeOf(bob.Addr())
	require.InDelta(t, 14.9, staked, 1e-9)
	require.True(t, eligible)
	st, _ = a.signIn(wallet, owner)
	require.Equal(t, http.StatusOK, st)
	require.NotContains(t, a.logs.String(), ch.URL, "the RPC URL is never logged")
	require.NotContains(t, a.logs.String(), ch.Proxy().Addr(), "nor its host")
}

// TestRunRefusesAnotherChain: for every user of the RPC node (contract-
// wallet sign-in, the stake sync, anchor receipts, the escrow), a node serving another
// chain than SERVICE_CHAIN_ID stops the start with a configuration error
// (the binary exits 2) that names both chain ids and not the RPC URL.
func TestRunRefusesAnotherChain(t *testing.T) {
	t.Parallel()
	ch := simchain.New(t, simchain.WithHTTP())
	users := map[string]map[string]string{
		"sign-in": {"SERVICE_AUTH_EIP1271_ENABLED": "1"},
		"sync": {
			"SERVICE_ONCHAIN_STAKE_ENABLED":  "1",
			"SERVICE_ONCHAIN_SYNC_ENABLED":   "1",
			"SERVICE_STAKE_CONTRACT_ADDRESS": openjury.AddressFromBytes(ch.VaultAddr).String(),
		},
		"receipts": {"SERVICE_ANCHOR_REGISTRY_ADDRESS": openjury.AddressFromBytes(ch.RegistryAddr).String()},
		"escrow": {
			"SERVICE_ONCHAIN_STAKE_ENABLED":   "1",
			"SERVICE_ONCHAIN_SYNC_ENABLED":    "1",
			"SERVICE_STAKE_CONTRACT_ADDRESS":  openjury.AddressFromBytes(ch.VaultAddr).String(),
			"SERVICE_ESCROW_CONTRACT_ADDRESS": openjury.AddressFromBytes(ch.EscrowAddr).String(),
			"SERVICE_TREASURY_ADDRESS":        ch.Accounts[0].Addr().String(),
		},
	}
	for name, vars := range users {
		vars["SERVICE_ADDR"] = "127.0.0.1:0"
		vars["SERVICE_DATABASE_URL"] = "sqlite:" + filepath.Join(t.TempDir(), "openjury.db")
		vars["SERVICE_RPC_URL"] = ch.URL
		vars["SERVICE_CHAIN_ID"] = "8453" // the node serves simchain.ChainID
		var stdout, stderr bytes.Buffer
		err := run(t.Context(), env(vars), &stdout, &stderr)
		var ce *server.ConfigError
		require.ErrorAs(t, err, &ce, "%s: %s", name, stderr.String())
		require.Equal(t, []string{fmt.Sprintf("SERVICE_CHAIN_ID: the chain node serves chain %d, not the configured chain 8453 (at SERVICE_RPC_URL)", simchain.ChainID)}, ce.Problems, name)
		require.Contains(t, stderr.String(), "invalid configuration", name)
		require.NotContains(t, stderr.String(), ch.Proxy().Addr(), "%s: the RPC URL is never printed", name)
		require.NotContains(t, stdout.String(), "listening", name)
	}
}
