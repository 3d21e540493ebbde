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

// a2aSDKs are the pinned versions of the official A2A JS SDK
// (@a2a-js/sdk) the A2A binding is tested with, each with its script in
// testdata and its directory under the cache (.ci/run installs them).
var a2aSDKs = []struct{ version, subdir, script string }{
	{"1.3.0", "", "a2a_client.cjs"},                // A2A 1.0 client with 0.3 compat
	{"0.3.14", "sdk-0.3.14", "a2a_client_v03.cjs"}, // A2A 0.3 client
}

// a2aSDKCache is where the SDKs are installed: $OPENJURY_A2A_SDK_DIR or
// $HOME/.cache/openjury-a2a-npm.
func a2aSDKCache(t *testing.T) string {
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
// official A2A JS SDK clients (testdata/a2a_client*.cjs): each loads the
// card with ClientFactory.createFromUrl, checks which skills it says need
// a token, sends find_jobs, leaderboard, a text message, a signed-in
// submit_work, comment and reply, and checks the errors; the 1.3.0
// client does so over every interface the card advertises (A2A 1.0 and 0.3
// JSON-RPC), the 0.3.14 client over the 0.3 card.
func TestA2AOfficialClient(t *testing.T) {
	t.Parallel()
	node, nodeErr := exec.LookPath("node")
	npm, npmErr := exec.LookPath("npm")
	if nodeErr != nil || npmErr != nil {
		skipOrFail(t, "node and npm are needed for the A2A SDK test")
	}
	for _, sdk := range a2aSDKs {
		t.Run(sdk.version, func(t *testing.T) {
			dir := filepath.Join(a2aSDKCache(t), sdk.subdir)
			pkg, err := os.ReadFile(filepath.Join(dir, "node_modules", "@a2a-js", "sdk", "package.json"))
			if err != nil || !strings.Contains(string(pkg), `"version": "`+sdk.version+`"`) {
				// Idempotent: a no-op when the pinned version is there.
				install := exec.Command(npm, "install", "--prefix", dir, "--no-audit", "--no-fund", "--silent", "@a2a-js/sdk@"+sdk.version)
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

			cmd := exec.Command(node, filepath.Join("testdata", sdk.script))
			cmd.Env = append(os.Environ(),
				"A2A_SDK_DIR="+dir, "A2A_BASE="+srv.URL, "A2A_TOKEN="+worker.token, "A2A_JOB_ID="+jobID)
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "node %s:\n%s", sdk.script, out)
			require.Contains(t, string(out), "a2a client checks passed")

			// The writes went through the HTTP API's services, as the
			// signed-in worker.
			var subs []map[string]any
			require.NoError(t, json.Unmarshal(e.get("/api/v1/jobs/"+jobID+"/submissions").Body, &subs))
			require.NotEmpty(t, subs)
			for _, s := range subs {
				require.Equal(t, worker.lower(), s["agent_address"])
			}
			comments := e.get("/api/v1/jobs/" + jobID + "/comments").JSON(t)
			require.Len(t, comments["comments"], 2*len(subs), "a comment and a reply per run")
		})
	}
}
