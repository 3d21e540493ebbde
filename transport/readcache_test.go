package transport_test

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/transport"
)

// jobIDs lists the ids of a GET /api/v1/jobs answer.
func jobIDs(t *testing.T, r response) []string {
	t.Helper()
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
	var ids []string
	for _, j := range r.JSON(t)["jobs"].([]any) {
		ids = append(ids, j.(map[string]any)["id"].(string))
	}
	return ids
}

func withReadCache(ttl time.Duration) envOption {
	return withOptions(func(o *transport.Options) { o.ReadCacheTTL = ttl })
}

// TestReadCacheReadYourWrites: two replicas (handlers) share one database,
// each with its own cache. A write through a replica is in its next read
// there at once; the other replica sees it within the TTL, never later.
func TestReadCacheReadYourWrites(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withReadCache(time.Second))
	a := e // replica A is e's handler
	b := &env{t: t, h: transport.NewHandler(e.svc, e.opts), clock: e.clock, store: e.store, logs: e.logs, svc: e.svc, opts: e.opts, testPaths: e.testPaths}

	sponsor := a.agent(0, 0)
	job1 := a.newJob(sponsor.token)
	require.Equal(t, []string{job1}, jobIDs(t, a.get("/api/v1/jobs")))
	require.Equal(t, []string{job1}, jobIDs(t, b.get("/api/v1/jobs")))

	job2 := a.newJob(sponsor.token)
	require.Equal(t, []string{job2, job1}, jobIDs(t, a.get("/api/v1/jobs")), "the writer's replica shows the write at once")
	require.Equal(t, []string{job1}, jobIDs(t, b.get("/api/v1/jobs")), "the other replica serves its cached answer")
	require.Equal(t, []string{job1}, jobIDs(t, b.do("GET", "/api/v1/jobs", nil, bearer(sponsor.token))), "a signed-in read of public data shares the cache")
	require.Equal(t, []string{job2, job1}, jobIDs(t, b.get("/api/v1/jobs?limit=5")), "another query is another entry")

	e.clock.Advance(999 * time.Millisecond)
	require.Equal(t, []string{job1}, jobIDs(t, b.get("/api/v1/jobs")), "still within the TTL")
	e.clock.Advance(time.Millisecond)
	require.Equal(t, []string{job2, job1}, jobIDs(t, b.get("/api/v1/jobs")), "stale for at most the TTL")

	// A write on B empties B's cache too, whatever it touched.
	worker := a.agent(minStake, 0)
	require.JSONEq(t, "[]", string(b.get("/api/v1/jobs/"+job1+"/submissions").Body))
	sub := b.submit(worker.token, job1, "work")
	subs := b.get("/api/v1/jobs/" + job1 + "/submissions")
	require.Contains(t, string(subs.Body), sub["id"].(string))

	// A refused write (4xx) commits nothing and keeps the cache.
	before := a.get("/api/v1/jobs/" + job1)
	require.Equal(t, http.StatusUnauthorized, a.do("POST", "/api/v1/jobs", validJob()).Code)
	after := a.get("/api/v1/jobs/" + job1)
	require.Equal(t, before.Body, after.Body)
	require.NotEqual(t, before.Header.Get("X-Request-Id"), after.Header.Get("X-Request-Id"), "a cached answer has its own request id")
	require.Equal(t, before.Header.Get("Content-Length"), after.Header.Get("Content-Length"))
}

// TestReadCacheStalenessBounded: a change made outside the handler (the
// other replicas' case) shows within MaxReadCacheTTL even when a longer TTL
// is asked for, and cached answers are logged and counted under their
// route.
func TestReadCacheStalenessBounded(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withReadCache(time.Hour))
	sponsor := e.agent(0, 0)
	job := e.newJob(sponsor.token)
	w := newWallet(t)
	path := "/api/v1/reputation/" + w.lower()
	require.Equal(t, float64(0), e.get(path).JSON(t)["score"])
	_, err := e.svc.Market.DevSetReputation(context.Background(), openjury.MustAddress(w.addr), 42)
	require.NoError(t, err)
	require.Equal(t, float64(0), e.get(path).JSON(t)["score"], "cached")
	e.clock.Advance(transport.MaxReadCacheTTL)
	require.Equal(t, float64(42), e.get(path).JSON(t)["score"], "a TTL over the bound is cut to it")

	for range 3 {
		e.get("/api/v1/jobs/" + job)
	}
	m := e.get("/metrics")
	count := regexp.MustCompile(`openjury_http_requests_total\{method="GET",route="GET /api/v1/jobs/\{job_id\}",status="200"\} (\d+)`).FindStringSubmatch(string(m.Body))
	require.NotNil(t, count, "%s", m.Body)
	require.Equal(t, "3", count[1], "cached answers count under their route")
	logged := regexp.MustCompile(`"route":"GET /api/v1/jobs/\{job_id\}"`).FindAllString(e.logs.String(), -1)
	require.Len(t, logged, 3, "cached answers are logged under their route")
}

// TestReadCacheOffByDefault: without ReadCacheTTL every read is fresh.
func TestReadCacheOffByDefault(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	w := newWallet(t)
	path := "/api/v1/reputation/" + w.lower()
	require.Equal(t, float64(0), e.get(path).JSON(t)["score"])
	e.setRep(w.lower(), 42)
	require.Equal(t, float64(42), e.get(path).JSON(t)["score"])
}

// TestReadCacheInHeartbeat: the heartbeat doc tells agents how stale a
// read can be, from the configuration.
func TestReadCacheInHeartbeat(t *testing.T) {
	t.Parallel()
	on := string(newEnv(t, withReadCache(750*time.Millisecond)).get("/docs-md/agent-heartbeat.md").Body)
	require.Contains(t, on, "they can be up to 750 ms old. A write you make is in your next read on the same replica")
	require.Contains(t, on, "signed in or not", "signed-in reads of public data share the cache")
	require.NotContains(t, on, "never cached")
	off := string(newEnv(t).get("/docs-md/agent-heartbeat.md").Body)
	require.Contains(t, off, "Reads are never cached by the service")
	require.NotContains(t, off, "ms old")
}

// TestReadCacheServesEveryCachedRoute: every route registered as cached
// (among them the comments of a submission) is answered from the cache
// once read, and a read that is not registered as cached is not: with the
// database gone, the cached answers still come back byte for byte and the
// others fail.
func TestReadCacheServesEveryCachedRoute(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withReadCache(time.Second))
	sponsor, worker := e.agent(0, 0), e.agent(minStake, 0)
	job := e.newJob(sponsor.token)
	sub := e.submit(worker.token, job, "work")["id"].(string)
	post := e.createPost(sponsor.token, map[string]any{"title": "t", "content": "c"})["id"].(string)
	values := map[string]string{"job_id": job, "submission_id": sub, "post_id": post, "address": sponsor.addr}
	param := regexp.MustCompile(`\{([^}]+)\}`)

	var cached []string
	kept := map[string]response{}
	for _, rt := range transport.Routes(e.svc, e.opts) {
		if !rt.Cached {
			continue
		}
		cached = append(cached, rt.Pattern)
		method, path, _ := strings.Cut(rt.Pattern, " ")
		require.Equal(t, http.MethodGet, method)
		path = param.ReplaceAllStringFunc(path, func(m string) string {
			v, ok := values[m[1:len(m)-1]]
			require.True(t, ok, "no sample value for %s", m)
			return v
		})
		r := e.get(path)
		require.Equal(t, http.StatusOK, r.Code, "%s: %s", path, r.Body)
		kept[path] = r
	}
	require.Contains(t, cached, "GET /api/v1/submissions/{submission_id}/comments")
	require.Contains(t, cached, "GET /api/v1/jobs/{job_id}/comments")
	require.Contains(t, cached, "GET /api/v1/posts/{post_id}/comments")
	uncached := "/api/v1/agr/status?address=" + sponsor.addr
	require.Equal(t, http.StatusOK, e.get(uncached).Code)

	require.NoError(t, e.store.Close())
	for path, want := range kept {
		got := e.do(http.MethodGet, path, nil)
		require.Equal(t, http.StatusOK, got.Code, "%s is served from the cache", path)
		require.Equal(t, want.Body, got.Body, path)
	}
	require.NotEqual(t, http.StatusOK, e.do(http.MethodGet, uncached, nil).Code, "a read not registered as cached reaches the database")
}
