package transport_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/openjurytest"
)

// pushReceiver records the push notifications it gets.
type pushReceiver struct {
	mu  sync.Mutex
	got []pushed
}

type pushed struct {
	header http.Header
	body   []byte
}

func (p *pushReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	p.mu.Lock()
	p.got = append(p.got, pushed{header: r.Header.Clone(), body: b})
	p.mu.Unlock()
}

func (p *pushReceiver) all() []pushed {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]pushed(nil), p.got...)
}

// TestA2ATasksOfficialClient: with the official A2A JS SDK clients (A2A
// 1.0 and 0.3), a job posted through A2A is a task: working while the job
// is open, read again with tasks/get (its creator only); a push
// notification config set on it receives the completed task when the job
// closes (0.3: the Task; 1.0: a StreamResponse), through the webhook
// machinery, with its token and authentication; the task then reads
// completed, and the config is deleted.
func TestA2ATasksOfficialClient(t *testing.T) {
	t.Parallel()
	node, nodeErr := exec.LookPath("node")
	npm, npmErr := exec.LookPath("npm")
	if nodeErr != nil || npmErr != nil {
		skipOrFail(t, "node and npm are needed for the A2A SDK test")
	}
	for _, tc := range []struct{ sdk, subdir, mode string }{{"1.3.0", "", "1.0"}, {"0.3.14", "sdk-0.3.14", "0.3"}} {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(a2aSDKCache(t), tc.subdir)
			pkg, err := os.ReadFile(filepath.Join(dir, "node_modules", "@a2a-js", "sdk", "package.json"))
			if err != nil || !strings.Contains(string(pkg), `"version": "`+tc.sdk+`"`) {
				install := exec.Command(npm, "install", "--prefix", dir, "--no-audit", "--no-fund", "--silent", "@a2a-js/sdk@"+tc.sdk)
				if out, err := install.CombinedOutput(); err != nil {
					skipOrFail(t, "installing @a2a-js/sdk: "+err.Error()+": "+string(out))
				}
			}
			recv := &pushReceiver{}
			hook := httptest.NewServer(recv)
			t.Cleanup(hook.Close)
			srv := openjurytest.NewServer(t, openjurytest.WithConfig(func(c *openjurytest.ServerConfig) { c.WebhookAllowPrivate = true }))
			sponsor, worker := openjurytest.NewWallet(t), openjurytest.NewWallet(t)
			st, wt := srv.SignIn(t, sponsor), srv.SignIn(t, worker)
			srv.SetStake(t, worker.Address(), 10)

			runNode := func(env ...string) map[string]string {
				t.Helper()
				cmd := exec.Command(node, filepath.Join("testdata", "a2a_tasks_client.cjs"))
				cmd.Env = append(os.Environ(), append([]string{"A2A_SDK_DIR=" + dir, "A2A_BASE=" + srv.URL, "A2A_TOKEN=" + st, "A2A_MODE=" + tc.mode}, env...)...)
				out, err := cmd.Output()
				var ee *exec.ExitError
				if err != nil && errors.As(err, &ee) {
					t.Fatalf("node: %v\n%s\n%s", err, out, ee.Stderr)
				}
				require.NoError(t, err)
				var res map[string]string
				require.NoError(t, json.Unmarshal(out, &res), "%s", out)
				return res
			}
			created := runNode("A2A_PHASE=create", "A2A_PUSH_URL="+hook.URL+"/push")

			// Work is submitted and the sponsor closes the job: the push
			// notification brings the completed task.
			r := srv.Do(t, http.MethodPost, "/api/v1/submissions", wt, map[string]any{"job_id": created["job_id"], "content": "work"})
			require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
			subID := r.Map(t)["submission"].(map[string]any)["id"].(string)
			r = srv.Do(t, http.MethodPost, "/api/v1/jobs/"+created["job_id"]+"/close", st, map[string]any{"winner_submission_id": subID})
			require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
			require.Eventually(t, func() bool { return len(recv.all()) > 0 }, 15*time.Second, 10*time.Millisecond)
			p := recv.all()[0]
			require.Equal(t, "Bearer push-secret", p.header.Get("Authorization"))
			require.Equal(t, "tok-1", p.header.Get("X-A2A-Notification-Token"))
			var task map[string]any
			if tc.mode == "1.0" {
				require.Equal(t, "application/a2a+json", p.header.Get("Content-Type"))
				var sr map[string]map[string]any
				require.NoError(t, json.Unmarshal(p.body, &sr), "%s", p.body)
				task = sr["task"]
				require.Equal(t, "TASK_STATE_COMPLETED", task["status"].(map[string]any)["state"])
			} else {
				require.NoError(t, json.Unmarshal(p.body, &task), "%s", p.body)
				require.Equal(t, "task", task["kind"])
				require.Equal(t, "completed", task["status"].(map[string]any)["state"])
			}
			require.Equal(t, created["task_id"], task["id"])

			checked := runNode("A2A_PHASE=check", "A2A_TASK_ID="+created["task_id"], "A2A_CONFIG_ID="+created["config_id"])
			require.NotEmpty(t, checked["state"])
		})
	}
}
