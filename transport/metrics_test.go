package transport_test

import (
	"bufio"
	"bytes"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/transport"
)

// scrape is one read of GET /metrics: series (name{labels}) -> value.
type scrape map[string]float64

// scrape reads GET /metrics.
func (e *env) scrape() scrape {
	e.t.Helper()
	r := e.get("/metrics")
	require.True(e.t, strings.HasPrefix(r.Header.Get("Content-Type"), "text/plain"), r.Header.Get("Content-Type"))
	return parseMetrics(e.t, r.Body)
}

// parseMetrics reads the Prometheus text format: one "series value" per
// line, comments skipped.
func parseMetrics(t *testing.T, body []byte) scrape {
	t.Helper()
	s := scrape{}
	sc := bufio.NewScanner(bytes.NewReader(body))
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		require.Positive(t, i, "line %q", line)
		v, err := strconv.ParseFloat(line[i+1:], 64)
		require.NoError(t, err, "line %q", line)
		s[line[:i]] = v
	}
	require.NoError(t, sc.Err())
	return s
}

// series names a series: labels are name/value pairs, written as the
// exposition format does: sorted by name, a bucket's le last.
func series(name string, labels ...string) string {
	if len(labels) == 0 {
		return name
	}
	var pairs []string
	le := ""
	for i := 0; i+1 < len(labels); i += 2 {
		p := labels[i] + `="` + labels[i+1] + `"`
		if labels[i] == "le" {
			le = p
			continue
		}
		pairs = append(pairs, p)
	}
	slices.Sort(pairs)
	if le != "" {
		pairs = append(pairs, le)
	}
	return name + "{" + strings.Join(pairs, ",") + "}"
}

// requests names a series of the request counter.
func requests(route, method string, status int) string {
	return series("openjury_http_requests_total", "route", route, "method", method, "status", strconv.Itoa(status))
}

// requireValue checks that the series exists with the value.
func (s scrape) requireValue(t *testing.T, name string, want float64) {
	t.Helper()
	got, ok := s[name]
	require.True(t, ok, "no series %s", name)
	require.Equal(t, want, got, name)
}

func TestMetricsRequests(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.get("/healthz")
	e.get("/healthz")
	requireError(t, e.do("GET", "/api/v1/jobs/x/votes", nil), http.StatusNotFound, "job not found") // a wildcard pattern
	requireError(t, e.do("GET", "/no/such/path", nil), http.StatusNotFound, "route not found")
	requireError(t, e.do("GET", "/no/other/path", nil), http.StatusNotFound, "route not found")
	requireError(t, e.do("DELETE", "/api/v1/jobs", nil), http.StatusMethodNotAllowed, "method not allowed")
	requireError(t, e.do("BREW", "/healthz", nil), http.StatusMethodNotAllowed, "method not allowed")
	requireError(t, e.do("POST", "/api/v1/jobs", validJob()), http.StatusUnauthorized, "missing bearer token")

	s := e.scrape()
	s.requireValue(t, requests("GET /healthz", "GET", 200), 2)
	s.requireValue(t, requests("GET /api/v1/jobs/{job_id}/votes", "GET", 404), 1)
	s.requireValue(t, requests("POST /api/v1/jobs", "POST", 401), 1)
	// Unknown paths and methods share one label value, and odd methods
	// one method value: the label set stays bounded.
	s.requireValue(t, requests(transport.RouteUnmatched, "GET", 404), 2)
	s.requireValue(t, requests(transport.RouteUnmatched, "DELETE", 405), 1)
	s.requireValue(t, requests(transport.RouteUnmatched, "OTHER", 405), 1)
	for name := range s {
		require.NotContains(t, name, "/no/", "a raw path became a label")
		require.NotContains(t, name, "BREW")
	}

	// The duration histogram has the same labels.
	h := "openjury_http_request_duration_seconds"
	labels := []string{"route", "GET /healthz", "method", "GET", "status", "200"}
	s.requireValue(t, series(h+"_count", labels...), 2)
	s.requireValue(t, series(h+"_bucket", append(labels, "le", "+Inf")...), 2)
	s.requireValue(t, series(h+"_bucket", append(labels, "le", "0.005")...), 2) // the fake clock stands still
	require.Contains(t, s, series(h+"_sum", labels...))

	// Go and process collectors.
	require.Contains(t, s, "go_goroutines")
	require.Contains(t, s, "process_start_time_seconds")

	// The scrape itself is counted on the next one.
	e.scrape().requireValue(t, requests("GET /metrics", "GET", 200), 1)

	// The domain counters exist from the start.
	s.requireValue(t, "openjury_signins_total", 0)
	s.requireValue(t, "openjury_submissions_total", 0)
	s.requireValue(t, series("openjury_votes_total", "kind", "jury"), 0)
	s.requireValue(t, series("openjury_votes_total", "kind", "final"), 0)
	s.requireValue(t, series("openjury_job_closes_total", "via", "sponsor"), 0)
	s.requireValue(t, series("openjury_job_closes_total", "via", "finalize"), 0)
}

func TestMetricsRefusedBeforeRouting(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withMaxBody(64))
	// Refused on its Content-Length, before routing and authentication.
	r := e.do("POST", "/api/v1/jobs", strings.Repeat(" ", 100)+"{}")
	require.Equal(t, http.StatusRequestEntityTooLarge, r.Code)
	// Counted under the route it was sent to.
	e.scrape().requireValue(t, requests("POST /api/v1/jobs", "POST", 413), 1)
}

func TestMetricsRedirectLabel(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// ServeMux redirects an unclean path to its clean form; the request is
	// counted under the route the clean path matches, never under the
	// caller-chosen path.
	// (Served directly: the OpenAPI document does not describe redirects.)
	w := httptest.NewRecorder()
	e.h.ServeHTTP(w, newRequest(t, "GET", "/api//v1/jobs", ""))
	require.Equal(t, http.StatusTemporaryRedirect, w.Code)
	require.Equal(t, "/api/v1/jobs", w.Header().Get("Location"))
	w = httptest.NewRecorder()
	e.h.ServeHTTP(w, newRequest(t, "GET", "/no//such/path", ""))
	require.Equal(t, http.StatusNotFound, w.Code)
	s := e.scrape()
	s.requireValue(t, requests("GET /api/v1/jobs", "GET", http.StatusTemporaryRedirect), 1)
	s.requireValue(t, requests(transport.RouteUnmatched, "GET", http.StatusNotFound), 1)
}

func TestMetricsPanicCounted(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withRoute("GET /boom", func(http.ResponseWriter, *http.Request) error { panic("boom") }))
	require.Equal(t, http.StatusInternalServerError, e.do("GET", "/boom", nil).Code)
	e.scrape().requireValue(t, requests("GET /boom", "GET", 500), 1)
}

func TestMetricsDomainCounters(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sponsor := e.agent(0, 0)
	worker := e.agent(minStake, 0)
	juror := e.agent(minStake, minRep)
	voter := e.agent(0, 0)

	// A failed sign-in is not counted.
	w := newWallet(t)
	c := e.challenge(w.addr)
	r := e.do("POST", "/api/v1/agents/auth/verify", map[string]any{
		"address": w.addr, "signature": newWallet(t).sign(t, c["message_to_sign"].(string), false),
	})
	require.Equal(t, http.StatusUnauthorized, r.Code)

	// Job 1: a submission, a jury vote cast and replaced, a final vote,
	// closed by its sponsor.
	job1 := e.newJob(sponsor.token)
	sub1 := e.submit(worker.token, job1, "answer one")["id"].(string)
	r = e.do("POST", "/api/v1/submissions", map[string]any{"job_id": job1, "content": "no stake"}, bearer(voter.token))
	require.Equal(t, http.StatusForbidden, r.Code) // not counted
	e.setStake(voter.lower(), minStake)            // final votes need stake
	e.vote(juror.token, job1, sub1)
	e.vote(juror.token, job1, sub1)
	e.finalVote(voter.token, job1, sub1)
	r = e.do("POST", "/api/v1/jobs/"+job1+"/close", map[string]any{"winner_submission_id": sub1}, bearer(sponsor.token))
	require.Equal(t, http.StatusOK, r.Code, "%s", r.Body)
	r = e.do("POST", "/api/v1/jobs/"+job1+"/close", map[string]any{"winner_submission_id": sub1}, bearer(sponsor.token))
	require.Equal(t, http.StatusConflict, r.Code) // not counted

	// Job 2: a submission and a final vote, finalized after the window.
	job2 := e.newJob(sponsor.token)
	sub2 := e.submit(worker.token, job2, "answer two")["id"].(string)
	e.finalVote(voter.token, job2, sub2)
	e.clock.Advance(25 * time.Hour)
	voter.token = e.signIn(voter.wallet) // the first token has expired
	r = e.do("POST", "/api/v1/jobs/"+job2+"/finalize", nil, bearer(voter.token))
	require.Equal(t, http.StatusOK, r.Code, "%s", r.Body)

	s := e.scrape()
	s.requireValue(t, "openjury_signins_total", 5)
	s.requireValue(t, "openjury_submissions_total", 2)
	s.requireValue(t, series("openjury_votes_total", "kind", "jury"), 2)
	s.requireValue(t, series("openjury_votes_total", "kind", "final"), 2)
	s.requireValue(t, series("openjury_job_closes_total", "via", "sponsor"), 1)
	s.requireValue(t, series("openjury_job_closes_total", "via", "finalize"), 1)
	s.requireValue(t, requests("POST /api/v1/agents/auth/verify", "POST", 200), 5)
	s.requireValue(t, requests("POST /api/v1/agents/auth/verify", "POST", 401), 1)
	s.requireValue(t, requests("POST /api/v1/jobs/{job_id}/close", "POST", 409), 1)
}

func TestMetricsDBStats(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(e *env) {
		for name, db := range e.store.SQLDBs() {
			e.opts.Collectors = append(e.opts.Collectors, collectors.NewDBStatsCollector(db, name))
		}
		e.h = transport.NewHandler(e.svc, e.opts)
	})
	e.get("/api/v1/jobs") // uses the reader pool
	s := e.scrape()
	// A SQLite file has one writer connection and a pool of readers.
	s.requireValue(t, series("go_sql_max_open_connections", "db_name", "writer"), 1)
	require.Contains(t, s, series("go_sql_max_open_connections", "db_name", "reader"))
	require.Contains(t, s, series("go_sql_open_connections", "db_name", "reader"))
	require.Contains(t, s, series("go_sql_wait_count_total", "db_name", "writer"))
}

func TestMetricsSharedRegistry(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	// The host registers its own collectors, including one the handler
	// would register too.
	hostCounter := prometheus.NewCounter(prometheus.CounterOpts{Name: "host_things_total", Help: "Things."})
	reg.MustRegister(hostCounter, collectors.NewGoCollector(collectors.WithGoCollectorRuntimeMetrics(collectors.MetricsGC)))
	hostCounter.Add(3)

	e := newEnv(t, withOptions(func(o *transport.Options) { o.Registry = reg }))
	// A second handler on the same registry shares its metrics.
	other := transport.NewHandler(e.svc, e.opts)
	e.get("/healthz")
	other.ServeHTTP(httptest.NewRecorder(), newRequest(t, "GET", "/healthz", ""))

	s := e.scrape()
	s.requireValue(t, "host_things_total", 3)
	s.requireValue(t, requests("GET /healthz", "GET", 200), 2)
	require.Contains(t, s, "go_goroutines")
	require.Contains(t, s, "go_gc_cycles_total_gc_cycles_total") // the host's Go collector

	// The registry given is the one served.
	mfs, err := reg.Gather()
	require.NoError(t, err)
	var names []string
	for _, mf := range mfs {
		names = append(names, mf.GetName())
	}
	require.Contains(t, names, "openjury_http_requests_total")
	require.Contains(t, names, "openjury_signins_total")
}
