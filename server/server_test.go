package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/server"
	"github.com/openjury/openjury/stake"
)

// testConfig is a valid configuration outside local development mode on
// a fresh SQLite file.
func testConfig(t *testing.T) server.Config {
	t.Helper()
	cfg := server.Defaults()
	cfg.DatabaseURL = "sqlite:" + filepath.Join(t.TempDir(), "openjury.db")
	cfg.BaseURL = "https://jury.example.com"
	return cfg
}

// quiet discards the logs.
var quiet = server.WithLogger(slog.New(slog.DiscardHandler))

// TestNewInjectedChainPorts: a stake vault and a contract-wallet verifier
// given as options replace the node: the sync needs no SERVICE_RPC_URL
// then (without the vault it does), moves stake from the vault's events
// once started, and a contract wallet signs in through the verifier while
// an address it does not approve is refused.
func TestNewInjectedChainPorts(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	chain := openjurytest.NewChain()
	vault := openjury.MustAddress("0x00000000000000000000000000000000000000fa")
	agent := openjurytest.NewWallet(t).Address()
	chain.AddEvent(stake.VaultEvent{Kind: stake.EventDeposited, Agent: agent, Payer: agent, Amount: 12_000_000,
		TxHash: openjury.Hash(fmt.Sprintf("0x%064x", 1)), Contract: vault, Block: 3}, 12_000_000)

	cfg := testConfig(t)
	cfg.OnchainStakeEnabled, cfg.OnchainSyncEnabled = true, true
	cfg.StakeContractAddress, cfg.SyncConfirmations = vault, 0
	_, err := server.New(ctx, cfg, quiet)
	var ce *server.ConfigError
	require.ErrorAs(t, err, &ce)
	require.Equal(t, []string{"SERVICE_ONCHAIN_SYNC_ENABLED: requires SERVICE_RPC_URL"}, ce.Problems)

	srv, err := server.New(ctx, cfg, quiet, server.WithStakeVault(chain), server.WithContractVerifier(chain))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, srv.Close()) })
	require.True(t, srv.Config().AuthEIP1271Enabled, "the verifier turns contract wallets on")
	st, err := srv.Stake.Status(ctx, agent.String())
	require.NoError(t, err)
	require.Zero(t, st.Staked, "nothing runs before Start")

	require.NoError(t, srv.Start(ctx))
	require.Eventually(t, func() bool {
		st, err := srv.Stake.Status(ctx, agent.String())
		return err == nil && st.Staked == 12_000_000
	}, 10*time.Second, 10*time.Millisecond, "the deposit is synced from the injected vault")
	families, err := srv.Registry.Gather()
	require.NoError(t, err)
	names := map[string]bool{}
	for _, f := range families {
		names[f.GetName()] = true
	}
	require.True(t, names["openjury_stake_sync_events_total"], "the sync's metrics are on the registry")
	require.True(t, names["go_sql_open_connections"], "the database pools' metrics are on the registry")

	// Contract-wallet sign-in through the injected verifier.
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	wallet := openjury.MustAddress("0x00000000000000000000000000000000000000cc")
	chain.SetWallet(wallet, func([32]byte, []byte) bool { return true })
	signer := openjurytest.NewWallet(t)
	require.Equal(t, http.StatusOK, signInAs(t, hs.URL, wallet, signer))
	stranger := openjury.MustAddress("0x00000000000000000000000000000000000000cd")
	require.Equal(t, http.StatusUnauthorized, signInAs(t, hs.URL, stranger, signer), "an address the chain does not approve")
}

// signInAs asks for a challenge for address, answers it with signer's
// signature and returns the status of the verify call.
func signInAs(t *testing.T, base string, address openjury.Address, signer *openjurytest.Wallet) int {
	t.Helper()
	code, ch := postJSON(t, base+"/api/v1/agents/auth/challenge", map[string]string{"address": address.String()})
	require.Equal(t, http.StatusOK, code, "%v", ch)
	code, _ = postJSON(t, base+"/api/v1/agents/auth/verify", map[string]string{
		"address": address.String(), "signature": signer.Sign(t, ch["message_to_sign"].(string)), "nonce": ch["nonce"].(string),
	})
	return code
}

// postJSON posts body as JSON and returns the status and the decoded
// answer.
func postJSON(t *testing.T, url string, body any) (int, map[string]any) {
	t.Helper()
	raw, err := json.Marshal(body)
	require.NoError(t, err)
	resp, err := http.Post(url, "application/json", bytes.NewReader(raw))
	require.NoError(t, err)
	defer resp.Body.Close()
	var m map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&m))
	return resp.StatusCode, m
}

// TestNewRefusesInvalidConfig: New reports every problem at once, like
// Validate, and opens nothing: no database file appears.
func TestNewRefusesInvalidConfig(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.BaseURL = "nope"
	cfg.ChainID = 0
	cfg.DevSecret = "devsecret"
	_, err := server.New(t.Context(), cfg, quiet)
	var ce *server.ConfigError
	require.ErrorAs(t, err, &ce)
	require.Len(t, ce.Problems, 2)
	require.Contains(t, err.Error(), "SERVICE_BASE_URL: must be an absolute http(s) URL")
	require.Contains(t, err.Error(), "SERVICE_CHAIN_ID: must be a positive integer")
	require.NotContains(t, err.Error(), "devsecret")
	_, statErr := os.Stat(strings.TrimPrefix(cfg.DatabaseURL, "sqlite:"))
	require.ErrorIs(t, statErr, os.ErrNotExist)
}

// TestNewReleasesOnFailure: a node serving another chain is a
// configuration error found after New opened the database and, in local
// development mode, the listeners; they are released, so the port is free
// again, and the RPC URL is never in the error.
func TestNewReleasesOnFailure(t *testing.T) {
	t.Parallel()
	node := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		w.Header().Set("Content-Type", "application/json")
		_, _ = fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":"0x1"}`, req.ID) // chain 1 for every call
	}))
	t.Cleanup(node.Close)
	port := freePort(t)

	var progress bytes.Buffer
	cfg := testConfig(t)
	cfg.LocalDev, cfg.DevMode, cfg.DevSecret = true, server.DevModeOn, ""
	cfg.Addr, cfg.BaseURL = "127.0.0.1:"+port, "" // named after the port: New listens
	cfg.RPCURL, cfg.AuthEIP1271Enabled = node.URL+"/secret-key", true
	_, err := server.New(t.Context(), cfg, quiet, server.WithOutput(&progress, nil))
	var ce *server.ConfigError
	require.ErrorAs(t, err, &ce)
	require.Equal(t, []string{"SERVICE_CHAIN_ID: the chain node serves chain 1, not the configured chain 8453 (at SERVICE_RPC_URL)"}, ce.Problems)
	require.NotContains(t, err.Error(), "secret-key")
	require.Contains(t, progress.String(), "OpenJury: database ready", "the database was opened first")

	ln, err := net.Listen("tcp", "127.0.0.1:"+port)
	require.NoError(t, err, "New closed its listener")
	require.NoError(t, ln.Close())
}

// freePort returns a port that was free on 127.0.0.1 a moment ago.
func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}

// TestServerLifecycle: Start runs once; Run serves the progress lines and
// stops when its context ends, leaving the database open until Close;
// Close is idempotent and a closed Server refuses to start or run.
func TestServerLifecycle(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.Addr = "127.0.0.1:0"
	var progress openjurytest.Buffer
	srv, err := server.New(t.Context(), cfg, quiet, server.WithOutput(&progress, nil))
	require.NoError(t, err)
	require.NoError(t, srv.Start(t.Context()))
	require.ErrorContains(t, srv.Start(t.Context()), "already started")

	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	require.Eventually(t, func() bool {
		return strings.Contains(progress.String(), "OpenJury is running at https://jury.example.com/")
	},
		10*time.Second, 10*time.Millisecond)
	addr := strings.TrimPrefix(strings.Fields(progress.String()[strings.Index(progress.String(), "listening on "):])[2], "http://")
	resp, err := http.Get("http://" + addr + "/healthz")
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(20 * time.Second):
		t.Fatal("Run did not return after its context ended")
	}
	require.NoError(t, srv.DB.Ping(t.Context()), "Run leaves the database open")

	require.NoError(t, srv.Close())
	require.NoError(t, srv.Close())
	require.ErrorIs(t, srv.Start(t.Context()), server.ErrClosed)
	require.ErrorIs(t, srv.Run(t.Context()), server.ErrClosed)
	require.Error(t, srv.DB.Ping(t.Context()), "Close closed the database")
}
