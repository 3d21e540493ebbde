package openjurytest_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/openjurytest"
)

// TestCrashKeepsAcknowledgedWrites builds the host binary, runs it as a
// subprocess under concurrent writes (jobs posted by several signed-in
// agents), kills it with SIGKILL mid-stream, restarts it on the same
// database and requires every acknowledged write (a 200 with the job's id)
// to be there, on SQLite (whose file must then pass PRAGMA
// integrity_check) and on PostgreSQL.
func TestCrashKeepsAcknowledgedWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and kills the host binary; plain go test runs it")
	}
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "openjury-host")
	goTool, err := exec.LookPath("go")
	if err != nil {
		goTool = filepath.Join(runtime.GOROOT(), "bin", "go") // the toolchain running this test
	}
	out, err := exec.Command(goTool, "build", "-o", bin, "github.com/openjury/openjury/host").CombinedOutput()
	require.NoError(t, err, "go build: %s", out)

	onEachDatabaseFile(t, func(t *testing.T, dsn string) {
		var acked []string // ids of acknowledged jobs, over every round
		var tokens []string
		for round := range 2 {
			h := startBinary(t, bin, dsn)
			if round == 0 {
				for range 4 {
					tokens = append(tokens, h.signIn(t))
				}
			}
			h.requireJobs(t, acked)
			acked = append(acked, h.writeUntilKilled(t, tokens, 1500*time.Millisecond)...)
		}
		require.Greater(t, len(acked), 20, "the writers must actually write")
		h := startBinary(t, bin, dsn)
		h.requireJobs(t, acked)
		h.kill(t)
		if strings.HasPrefix(dsn, "sqlite:") {
			db, err := bunstore.Open(context.Background(), dsn)
			require.NoError(t, err)
			defer db.Close()
			var check string
			require.NoError(t, db.Bun().QueryRowContext(context.Background(), "PRAGMA integrity_check").Scan(&check))
			require.Equal(t, "ok", check)
		}
		t.Logf("%d acknowledged writes survived SIGKILL", len(acked))
	})
}

// hostProcess is a running host binary.
type hostProcess struct {
	cmd  *exec.Cmd
	base string
	done chan struct{}
}

var listeningLine = regexp.MustCompile(`listening on (http://\S+)`)

// startBinary starts bin on a free port of 127.0.0.1 and the database dsn
// and waits until it listens. It is killed when the test ends.
func startBinary(t *testing.T, bin, dsn string) *hostProcess {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(),
		"SERVICE_ADDR=127.0.0.1:0",
		"SERVICE_DATABASE_URL="+dsn,
		"SERVICE_RATE_LIMIT_PER_MIN=0",
		"SERVICE_RATE_LIMIT_PER_ADDRESS_PER_MIN=0", // the writers post as fast as they can
		"SERVICE_LOG_LEVEL=error",
		"SERVICE_BASE_URL=http://127.0.0.1",
	)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	h := &hostProcess{cmd: cmd, done: make(chan struct{})}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := listeningLine.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
	}()
	go func() { _ = cmd.Wait(); close(h.done) }()
	t.Cleanup(func() { h.kill(t) })
	select {
	case h.base = <-found:
	case <-h.done:
		t.Fatalf("host exited early: %s", stderr.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("host did not listen: %s", stderr.String())
	}
	return h
}

// kill sends SIGKILL and waits for the process to end.
func (h *hostProcess) kill(t *testing.T) {
	t.Helper()
	_ = h.cmd.Process.Kill()
	<-h.done
}

// call sends a JSON request and returns the status and decoded body; a
// transport error (the process died) is returned as is.
func (h *hostProcess) call(method, path, token string, body any) (int, map[string]any, error) {
	raw, err := json.Marshal(body)
	if err != nil {
		return 0, nil, err
	}
	req, err := http.NewRequest(method, h.base+path, bytes.NewReader(raw))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	var m map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		return resp.StatusCode, nil, err
	}
	return resp.StatusCode, m, nil
}

// signIn signs a new wallet in and returns its token.
func (h *hostProcess) signIn(t *testing.T) string {
	t.Helper()
	w := openjurytest.NewWallet(t)
	status, c, err := h.call("POST", "/api/v1/agents/auth/challenge", "", map[string]string{"address": w.Address().String()})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, status, "%v", c)
	status, v, err := h.call("POST", "/api/v1/agents/auth/verify", "", map[string]string{
		"address": w.Address().String(), "signature": w.Sign(t, c["message_to_sign"].(string)),
	})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, status, "%v", v)
	return v["access_token"].(string)
}

// writeUntilKilled posts jobs from one goroutine per token, kills the
// process after d while they run, and returns the ids of the jobs the
// server acknowledged.
func (h *hostProcess) writeUntilKilled(t *testing.T, tokens []string, d time.Duration) []string {
	t.Helper()
	var (
		mu    sync.Mutex
		acked []string
		wg    sync.WaitGroup
	)
	for i, token := range tokens {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ; n++ {
				status, job, err := h.call("POST", "/api/v1/jobs", token, map[string]any{
					"title": fmt.Sprintf("crash %d-%d", i, n), "prompt": "p", "bounty_usdc": 1,
				})
				if err != nil {
					return // the process died
				}
				if status != http.StatusOK {
					t.Errorf("POST /api/v1/jobs: %d %v", status, job)
					return
				}
				mu.Lock()
				acked = append(acked, job["id"].(string))
				mu.Unlock()
			}
		}()
	}
	time.Sleep(d)
	h.kill(t)
	wg.Wait()
	return acked
}

// requireJobs requires every job in ids to be readable.
func (h *hostProcess) requireJobs(t *testing.T, ids []string) {
	t.Helper()
	for _, id := range ids {
		req, err := http.NewRequest("GET", h.base+"/api/v1/jobs/"+id, nil)
		require.NoError(t, err)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		_ = resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode, "acknowledged job %s is missing", id)
	}
}
