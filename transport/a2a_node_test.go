package transport_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/transport"
)

// a2aSDKVersion is the pinned version of the official A2A JS SDK
// (@a2a-js/sdk) the A2A binding is tested with.
const a2aSDKVersion = "1.3.0"

// a2aSDKDir is where the SDK is installed: $OPENJURY_A2A_SDK_DIR or
// $HOME/.cache/openjury-a2a-npm (.ci/run installs it there).
func a2aSDKDir(t *testing.T) string {
	if d := os.Getenv("OPENJURY_A2A_SDK_DIR"); d != "" {
		return d
	}
	home, err := os.UserHomeDir()
	require.NoError(t, err)
	return filepath.Join(home, ".cache", "openjury-a2a-npm")
}

// skipOrFail skips the test loudly, or fails it when CI is set.
func skipOrFail(t *testing.T, msg string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatal(msg)
	}
	t.Skip("SKIPPED (not CI): " + msg)
}

// TestA2AOfficialClient drives the A2A binding through a real host with the
// official A2A JS SDK client (testdata/a2a_client.cjs): it loads the card
// with ClientFactory.createFromUrl, sends find_jobs, get_job, a text
// message, a signed-in submit_work and comment, and checks the errors, over
// every interface the card advertises (A2A 1.0 and 0.3 JSON-RPC).
func TestA2AOfficialClient(t *testing.T) {
	t.Parallel()
	node, nodeErr := exec.LookPath("node")
	npm, npmErr := exec.LookPath("npm")
	if nodeErr != nil || npmErr != nil {
		skipOrFail(t, "node and npm are needed for the A2A SDK test")
	}
	dir := a2aSDKDir(t)
	pkg, err := os.ReadFile(filepath.Join(dir, "node_modules", "@a2a-js", "sdk", "package.json"))
	if err != nil || !strings.Contains(string(pkg), `"version": "`+a2aSDKVersion+`"`) {
		// Idempotent: a no-op when the pinned version is there.
		install := exec.Command(npm, "install", "--prefix", dir, "--no-audit", "--no-fund", "--silent", "@a2a-js/sdk@"+a2aSDKVersion)
		if out, err := install.CombinedOutput(); err != nil {
			skipOrFail(t, "installing @a2a-js/sdk: "+err.Error()+": "+string(out))
		}
	}

	e := newEnv(t)
	var h http.Handler
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
	t.Cleanup(srv.Close)
	e.opts.BaseURL = srv.URL
	h = transport.NewHandler(e.svc, e.opts)

	sponsor := e.agent(0, 0)
	worker := e.agent(minStake, 0)
	jobID := e.newJob(sponsor.token)

	cmd := exec.Command(node, filepath.Join("testdata", "a2a_client.cjs"))
	cmd.Env = append(os.Environ(),
		"A2A_SDK_DIR="+dir, "A2A_BASE="+srv.URL, "A2A_TOKEN="+worker.token, "A2A_JOB_ID="+jobID)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "node a2a_client.cjs:\n%s", out)
	require.Contains(t, string(out), "a2a client checks passed")

	// The writes went through the HTTP API's services: three submissions
	// (one per interface) and three comments.
	var subs []map[string]any
	require.NoError(t, json.Unmarshal(e.get("/api/v1/jobs/"+jobID+"/submissions").Body, &subs))
	require.Len(t, subs, 3)
	for _, s := range subs {
		require.Equal(t, worker.lower(), s["agent_address"])
	}
	comments := e.get("/api/v1/jobs/" + jobID + "/comments").JSON(t)
	require.Len(t, comments["comments"], 3)
}
