package main

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/internal/gcfloor"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/server"
)

func TestRunInvalidConfig(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	err := run(t.Context(), env(map[string]string{
		"SERVICE_CHAIN_ID":             "x",
		"SERVICE_BASE_URL":             "nope",
		"SERVICE_AUTH_EIP1271_ENABLED": "1",
		"SERVICE_DEV_SECRET":           "devsecret",
		"SERVICE_EMBEDDER_API_KEY":     "sk-embedkey",
	}), &stdout, &stderr)
	var ce *server.ConfigError
	require.ErrorAs(t, err, &ce)
	require.Len(t, ce.Problems, 3)
	out := stderr.String()
	require.Contains(t, out, "invalid configuration")
	require.Contains(t, out, "SERVICE_CHAIN_ID: must be an integer")
	require.Contains(t, out, "SERVICE_BASE_URL: must be an absolute http(s) URL")
	require.Contains(t, out, "SERVICE_AUTH_EIP1271_ENABLED: requires SERVICE_RPC_URL")
	require.NotContains(t, out, "devsecret")
	require.NotContains(t, out, "sk-embedkey")
	require.Empty(t, stdout.String())
}

// TestRunInvalidSecretsNotEchoed: a malformed RPC URL or embedder URL is
// reported without its value, which may hold a key or a password.
func TestRunInvalidSecretsNotEchoed(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	err := run(t.Context(), env(map[string]string{
		"SERVICE_RPC_URL":  "rpc.example/v2/rpckey",
		"SERVICE_EMBEDDER": "embed user:embedpass",
	}), &stdout, &stderr)
	var ce *server.ConfigError
	require.ErrorAs(t, err, &ce)
	require.Len(t, ce.Problems, 2)
	out := stderr.String()
	require.Contains(t, out, "SERVICE_RPC_URL: must be an absolute http(s) or ws(s) URL")
	require.Contains(t, out, "SERVICE_EMBEDDER: must be")
	require.NotContains(t, out, "rpckey")
	require.NotContains(t, out, "embedpass")
	require.Empty(t, stdout.String())
}

func TestRunServesAndStops(t *testing.T) {
	t.Parallel()
	base, stderr, stop := startHost(t, map[string]string{
		"SERVICE_ADDR":                  ":0",
		"SERVICE_LOG_LEVEL":             "debug",
		"SERVICE_DEV_SECRET":            "devsecret",
		"SERVICE_MIN_STAKE_USDC":        "12.5",
		"SERVICE_MIN_REP_SCORE_TO_VOTE": "7",
		"SERVICE_AGR_MINT_PER_WIN":      "9",
		"SERVICE_USDC_ADDRESS":          addrA,
		"SERVICE_AGR_TOKEN_ADDRESS":     addrB,
		"SERVICE_RPC_URL":               "https://rpc.example.com/secret-key",
		"SERVICE_EMBEDDER_API_KEY":      "sk-embedkey",
	})

	get := func(path string) (int, map[string]any) {
		t.Helper()
		return callJSON(t, http.MethodGet, base+path, "", nil)
	}
	code, body := get("/healthz")
	require.Equal(t, http.StatusOK, code)
	require.Equal(t, "ok", body["status"])
	code, body = get("/readyz")
	require.Equal(t, http.StatusOK, code)
	require.Equal(t, "ready", body["status"])
	code, body = get("/api/v1/jobs")
	require.Equal(t, http.StatusOK, code)
	require.Equal(t, []any{}, body["jobs"])

	// The database is wired in: a challenge is stored.
	resp, err := http.Post(base+"/api/v1/agents/auth/challenge", "application/json",
		strings.NewReader(`{"address":"`+addrA+`"}`))
	require.NoError(t, err)
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", raw)
	require.Contains(t, string(raw), "localhost:8080 wants you to sign in")

	// The stake, AGR and economy settings are wired in; the RPC URL is
	// never returned.
	code, body = get("/api/v1/stake/requirements")
	require.Equal(t, http.StatusOK, code)
	require.Equal(t, 12.5, body["min_stake"])
	require.Equal(t, "base", body["network"])
	require.EqualValues(t, 8453, body["chain_id"])
	require.Equal(t, strings.ToLower(addrA), body["usdc_address"])
	require.Nil(t, body["rpc_url"])
	code, body = get("/api/v1/economy/policy")
	require.Equal(t, http.StatusOK, code)
	require.Equal(t, strings.ToLower(addrB), body["agr_token_address"])
	require.EqualValues(t, 9, body["agr_mint_per_win"])
	code, body = get("/api/v1/governance/constitution")
	require.Equal(t, http.StatusOK, code)
	require.EqualValues(t, 7, body["voting"].(map[string]any)["min_rep_score_to_vote"])
	code, body = get("/api/v1/agent/bootstrap")
	require.Equal(t, http.StatusOK, code)
	require.Equal(t, "http://localhost:8080/llms.txt", body["specs"].(map[string]any)["llms_txt"])
	require.NotContains(t, fmt.Sprint(body), "secret-key")

	// The dev secret opens the dev endpoints.
	devPost := func(secret string) int {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, base+"/api/v1/stake/dev_set",
			strings.NewReader(`{"address":"`+addrA+`","staked_amount":12.5}`))
		require.NoError(t, err)
		req.Header.Set("X-Dev-Secret", secret)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}
	require.Equal(t, http.StatusUnauthorized, devPost("wrong"))
	require.Equal(t, http.StatusOK, devPost("devsecret"))
	code, body = get("/api/v1/stake/status?address=" + addrA)
	require.Equal(t, http.StatusOK, code)
	require.Equal(t, true, body["is_eligible"])

	// Metrics: the handler's own and the database pools' (SQLite: a writer
	// and a reader pool); no secret.
	resp, err = http.Get(base + "/metrics")
	require.NoError(t, err)
	raw, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	metrics := string(raw)
	require.Contains(t, metrics, `openjury_http_requests_total{method="GET",route="GET /healthz",status="200"} 1`)
	require.Contains(t, metrics, `go_sql_max_open_connections{db_name="writer"} 1`)
	require.Contains(t, metrics, `go_sql_open_connections{db_name="reader"}`)
	// SQLite reads each job and token on its own: no batches.
	require.Contains(t, metrics, "openjury_db_batched_reads_total 0")
	require.Contains(t, metrics, "openjury_db_batch_statements_total 0")
	require.Contains(t, metrics, "openjury_db_batched_submissions_total 0")
	require.Contains(t, metrics, "openjury_db_submission_batches_total 0")
	require.Contains(t, metrics, "openjury_db_submissions_alone_total 0")
	// The stake written above went through SQLite's one writer.
	for _, name := range []string{"openjury_db_writer_busy_seconds_total", "openjury_db_write_groups_total", "openjury_db_write_group_members_total"} {
		m := regexp.MustCompile(`(?m)^` + name + ` (\S+)$`).FindStringSubmatch(metrics)
		require.NotNil(t, m, name)
		v, err := strconv.ParseFloat(m[1], 64)
		require.NoError(t, err, name)
		require.Positive(t, v, name)
	}
	require.NotContains(t, metrics, "secret-key")
	require.NotContains(t, metrics, "devsecret")
	require.NotContains(t, metrics, "sk-embedkey")

	stop()
	logs := stderr.String()
	require.Contains(t, logs, `"msg":"listening"`)
	require.Contains(t, logs, `"msg":"shutting down"`)
	require.Contains(t, logs, `"msg":"stopped"`)
	require.Contains(t, logs, `"route":"GET /healthz"`)
	require.NotContains(t, logs, "devsecret")
	require.NotContains(t, logs, "secret-key")
	require.NotContains(t, logs, "sk-embedkey")
}

// TestRunKeepsTheHeapFloor: the host applies SERVICE_GC_HEAP_FLOOR_MB
// while it runs (the GC percent rises toward the floor's goal after a
// collection) and puts GOGC back when it stops. Not parallel: the GC
// percent is the process's.
func TestRunKeepsTheHeapFloor(t *testing.T) {
	require.Equal(t, 100, gcfloor.GCPercent())
	_, _, stop := startHost(t, map[string]string{"SERVICE_GC_HEAP_FLOOR_MB": "2048"})
	require.Eventually(t, func() bool {
		runtime.GC()
		return gcfloor.GCPercent() > 1000
	}, 10*time.Second, 10*time.Millisecond, "a 2 GiB floor over this test's small heap")
	stop()
	require.Equal(t, 100, gcfloor.GCPercent())
}

func TestRunListenError(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	var stdout, stderr openjurytest.Buffer
	err = run(t.Context(), env(map[string]string{
		"SERVICE_ADDR":         ln.Addr().String(),
		"SERVICE_DATABASE_URL": "sqlite:" + filepath.Join(t.TempDir(), "openjury.db"),
	}), &stdout, &stderr)
	require.ErrorContains(t, err, "listen:")
}
