package openjurytest_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/openjurytest"
)

// recordingTB records Errorf calls instead of failing.
type recordingTB struct {
	testing.TB
	mu     sync.Mutex
	errors []string
}

func (r *recordingTB) Helper() {}

func (r *recordingTB) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

// jsonHeader is the header of a JSON response of the service.
func jsonHeader() http.Header {
	return http.Header{"Content-Type": {"application/json"}, "X-Request-Id": {"req-1"}}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

// serverWithJob starts a NewServer, signs a new wallet in and posts a job
// as it; r is the answer to the post.
func serverWithJob(t *testing.T) (srv *openjurytest.Server, w *openjurytest.Wallet, r *openjurytest.Response) {
	t.Helper()
	srv = openjurytest.NewServer(t)
	w = openjurytest.NewWallet(t)
	token := srv.SignIn(t, w)
	r = srv.Do(t, http.MethodPost, "/api/v1/jobs", token, map[string]any{"title": "t", "prompt": "p", "bounty_usdc": 3})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	return srv, w, r
}

// TestValidateResponseAcceptsServerTraffic: real responses validate (Do
// checks them too), and ValidateResponse reports nothing for them.
func TestValidateResponseAcceptsServerTraffic(t *testing.T) {
	t.Parallel()
	srv, _, r := serverWithJob(t)

	rec := &recordingTB{TB: t}
	req := httptest.NewRequest(http.MethodPost, "/api/v1/jobs", nil)
	openjurytest.ValidateResponse(rec, req, r.Status, r.Header, r.Body)
	require.Empty(t, rec.errors)

	// The unknown-route answers of the server are accepted as such.
	for _, tc := range []struct{ method, path string }{{"GET", "/nope"}, {"DELETE", "/api/v1/jobs"}} {
		r := srv.Do(t, tc.method, tc.path, "", nil)
		require.Contains(t, []int{404, 405}, r.Status)
	}

	// So is ServeMux's redirect of an unclean path.
	req = httptest.NewRequest(http.MethodGet, "/api//v1/jobs", nil)
	openjurytest.ValidateResponse(rec, req, http.StatusTemporaryRedirect, http.Header{"Location": {"/api/v1/jobs"}}, nil)
	require.Empty(t, rec.errors)
}

// TestValidateResponseFailures: every kind of mismatch fails the test
// with the route, the status and the validator's message.
func TestValidateResponseFailures(t *testing.T) {
	t.Parallel()
	srv, w, r := serverWithJob(t)
	job := r.Map(t)
	jobPath := "/api/v1/jobs/" + job["id"].(string)
	status := srv.Do(t, http.MethodGet, "/api/v1/stake/status?address="+w.Address().String(), "", nil).Map(t)

	// with returns a copy of m with key set to v, or deleted when v is
	// the string "<delete>".
	with := func(m map[string]any, key string, v any) map[string]any {
		out := maps.Clone(m)
		if v == "<delete>" {
			delete(out, key)
		} else {
			out[key] = v
		}
		return out
	}

	cases := []struct {
		name         string
		method, path string
		status       int
		header       http.Header
		body         []byte
		want         string
	}{
		{"unknown path served", "GET", "/nope", 200, jsonHeader(), []byte(`{"status":"ok"}`), "not in the document"},
		{"unknown path as text", "GET", "/nope", 404, http.Header{"Content-Type": {"text/plain"}}, []byte("404 page not found"), "Content-Type"},
		{"unknown method served", "PUT", "/api/v1/jobs", 200, jsonHeader(), []byte(`{}`), "method is not in the document"},
		{"undeclared status", "GET", "/healthz", http.StatusTeapot, jsonHeader(), []byte(`{"detail":"x"}`), "status is not supported"},
		{"wrong body type", "GET", "/healthz", 200, jsonHeader(), []byte(`{"status":5}`), "status"},
		{"value not in enum", "GET", "/healthz", 200, jsonHeader(), []byte(`{"status":"fine"}`), "status"},
		{"undeclared field", "GET", "/healthz", 200, jsonHeader(), []byte(`{"status":"ok","extra":1}`), "extra"},
		{"wrong content type", "GET", "/healthz", 200, http.Header{"Content-Type": {"text/plain"}, "X-Request-Id": {"a"}}, []byte(`ok`), "Content-Type"},
		{"no request id", "GET", "/healthz", 200, http.Header{"Content-Type": {"application/json"}}, []byte(`{"status":"ok"}`), "X-Request-Id"},
		{"not JSON", "GET", "/healthz", 200, jsonHeader(), []byte(`{"status":`), "decode"},
		{"error body not an object", "GET", jobPath, 404, jsonHeader(), []byte(`["job not found"]`), "object"},
		{"401 without WWW-Authenticate", "POST", "/api/v1/jobs", 401, jsonHeader(), []byte(`{"detail":"missing bearer token"}`), "WWW-Authenticate"},
		{"429 without Retry-After", "POST", jobPath + "/comments", 429, jsonHeader(), []byte(`{"detail":"slow down"}`), "Retry-After"},
		{"missing required field", "GET", jobPath, 200, jsonHeader(), mustJSON(t, with(job, "id", "<delete>")), "id"},
		{"optional field omitted", "GET", jobPath, 200, jsonHeader(), mustJSON(t, with(job, "closed_at", "<delete>")), "closed_at"},
		{"null where not nullable", "GET", jobPath, 200, jsonHeader(), mustJSON(t, with(job, "title", nil)), "title"},
		{"limit exceeded", "GET", jobPath, 200, jsonHeader(), mustJSON(t, with(job, "title", strings.Repeat("x", 141))), "title"},
		{"not a uuid", "GET", jobPath, 200, jsonHeader(), mustJSON(t, with(job, "id", "job-1")), "id"},
		{"not a date-time", "GET", jobPath, 200, jsonHeader(), mustJSON(t, with(job, "created_at", "yesterday")), "created_at"},
		{"uppercase address", "GET", "/api/v1/stake/status", 200, jsonHeader(), mustJSON(t, with(status, "address", strings.ToUpper(status["address"].(string)))), "address"},
		{"redirect elsewhere", "GET", "/api//v1/jobs", 307, http.Header{"Location": {"/api/v1/posts"}}, nil, "redirect"},
		{"integer as string", "GET", "/api/v1/stake/status", 200, jsonHeader(), mustJSON(t, with(status, "stake_chain_id", "8453")), "stake_chain_id"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := &recordingTB{TB: t}
			req := httptest.NewRequest(tc.method, tc.path, nil)
			openjurytest.ValidateResponse(rec, req, tc.status, tc.header, tc.body)
			require.Len(t, rec.errors, 1)
			msg := rec.errors[0]
			t.Log(msg)
			require.Contains(t, msg, tc.method+" "+tc.path, "names the route")
			require.Contains(t, msg, fmt.Sprintf("-> %d", tc.status), "names the status")
			require.Contains(t, msg, tc.want)
		})
	}
}
