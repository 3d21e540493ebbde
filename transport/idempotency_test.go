package transport_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/idempotency"
	"github.com/openjury/openjury/transport"
)

func idemKey(k string) header { return header{transport.HeaderIdempotencyKey, k} }

// jobCount lists up to 200 jobs and returns how many there are.
func (e *env) jobCount() int {
	e.t.Helper()
	return len(e.get("/api/v1/jobs?limit=200").JSON(e.t)["jobs"].([]any))
}

func TestIdempotencyKeyReplaysTheFirstResponse(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a, b := e.agent(0, 0), e.agent(0, 0)

	first := e.do("POST", "/api/v1/jobs", validJob(), bearer(a.token), idemKey("job-1"))
	require.Equal(t, http.StatusOK, first.Code, "body: %s", first.Body)
	require.Empty(t, first.Header.Get(transport.HeaderIdempotentReplayed))
	e.clock.Advance(time.Hour)
	again := e.do("POST", "/api/v1/jobs", validJob(), bearer(a.token), idemKey("job-1"))
	require.Equal(t, http.StatusOK, again.Code)
	require.Equal(t, "true", again.Header.Get(transport.HeaderIdempotentReplayed))
	require.Equal(t, "application/json", again.Header.Get("Content-Type"))
	require.Equal(t, string(first.Body), string(again.Body), "the stored response, byte for byte")
	require.Equal(t, 1, e.jobCount())

	// Another body with the same key: 422, nothing created.
	r := e.do("POST", "/api/v1/jobs", withField(validJob(), "title", "Other"), bearer(a.token), idemKey("job-1"))
	requireError(t, r, http.StatusUnprocessableEntity, "Idempotency-Key: already used with another request body")
	// The key is per caller and per path: other callers and routes run.
	r = e.do("POST", "/api/v1/jobs", validJob(), bearer(b.token), idemKey("job-1"))
	require.Equal(t, http.StatusOK, r.Code)
	require.Empty(t, r.Header.Get(transport.HeaderIdempotentReplayed))
	require.Equal(t, 2, e.jobCount())
	// Without the header nothing changes.
	for range 2 {
		require.Equal(t, http.StatusOK, e.do("POST", "/api/v1/jobs", validJob(), bearer(a.token)).Code)
	}
	require.Equal(t, 4, e.jobCount())

	// A 4xx answer is stored and replayed too.
	bad := e.do("POST", "/api/v1/jobs", `{"title":"t"}`, bearer(a.token), idemKey("bad"))
	requireError(t, bad, http.StatusBadRequest, "prompt: is required")
	bad = e.do("POST", "/api/v1/jobs", `{"title":"t"}`, bearer(a.token), idemKey("bad"))
	requireError(t, bad, http.StatusBadRequest, "prompt: is required")
	require.Equal(t, "true", bad.Header.Get(transport.HeaderIdempotentReplayed))

	// After 24 h the record is gone: the key runs again; cleanup deletes it.
	e.clock.Advance(idempotency.TTL)
	a.token = e.signIn(a.wallet) // the first token expired too
	r = e.do("POST", "/api/v1/jobs", validJob(), bearer(a.token), idemKey("job-1"))
	require.Equal(t, http.StatusOK, r.Code)
	require.Empty(t, r.Header.Get(transport.HeaderIdempotentReplayed))
	require.NotEqual(t, string(first.Body), string(r.Body))
	n, err := e.store.DeleteExpiredIdempotencyKeys(context.Background(), e.clock.Now())
	require.NoError(t, err)
	require.Equal(t, int64(2), n, "b's job-1 and a's bad are expired; a's new job-1 is not")
}

func TestIdempotencyKeyForm(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.agent(0, 0)
	for _, k := range []string{"", " ", "a b", strings.Repeat("k", 256), "ключ", "tab\t"} {
		req := newRequest(t, "POST", "/api/v1/jobs", `{}`)
		req.Header.Set("Authorization", "Bearer "+a.token)
		req.Header[transport.HeaderIdempotencyKey] = []string{k}
		requireError(t, e.serve(req), http.StatusBadRequest, "Idempotency-Key: must be 1 to 255 visible ASCII characters")
	}
	req := newRequest(t, "POST", "/api/v1/jobs", `{}`)
	req.Header.Set("Authorization", "Bearer "+a.token)
	req.Header[transport.HeaderIdempotencyKey] = []string{"a", "b"}
	requireError(t, e.serve(req), http.StatusBadRequest, "Idempotency-Key: must be 1 to 255 visible ASCII characters")
	r := e.do("POST", "/api/v1/jobs", validJob(), bearer(a.token), idemKey(strings.Repeat("~", 255)))
	require.Equal(t, http.StatusOK, r.Code)
	// Unauthenticated requests are refused before the key matters.
	r = e.do("POST", "/api/v1/jobs", validJob(), idemKey("x"))
	require.Equal(t, http.StatusUnauthorized, r.Code)
}

func TestIdempotencyKeyParallelCreatesOne(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.agent(0, 0)
	codes := make([]int, 20)
	replayed := make([]bool, 20)
	var wg sync.WaitGroup
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := e.do("POST", "/api/v1/jobs", validJob(), bearer(a.token), idemKey("same"))
			codes[i], replayed[i] = r.Code, r.Header.Get(transport.HeaderIdempotentReplayed) == "true"
		}()
	}
	wg.Wait()
	ran := 0
	for i, c := range codes {
		require.Contains(t, []int{http.StatusOK, http.StatusConflict}, c)
		if c == http.StatusOK && !replayed[i] {
			ran++
		}
	}
	require.Equal(t, 1, ran, "exactly one request ran: %v", codes)
	require.Equal(t, 1, e.jobCount())
}

// blockingRoute is an authenticated POST test route that counts its runs,
// waits for release and answers status.
type blockingRoute struct {
	runs    atomic.Int32
	started chan struct{}
	release chan struct{}
	status  atomic.Int32
}

func newBlockingRoute() *blockingRoute {
	b := &blockingRoute{started: make(chan struct{}, 10), release: make(chan struct{})}
	b.status.Store(http.StatusOK)
	return b
}

func (b *blockingRoute) handle(w http.ResponseWriter, r *http.Request) error {
	n := b.runs.Add(1)
	b.started <- struct{}{}
	<-b.release
	if s := int(b.status.Load()); s >= 500 {
		return openjury.E(openjury.Unavailable, "test", "try again")
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"run":` + string(rune('0'+n)) + `}`))
	return nil
}

func TestIdempotencyKeyInFlightAndLease(t *testing.T) {
	t.Parallel()
	route := newBlockingRoute()
	e := newEnv(t)
	e.h = transport.NewHandlerWithAuthedRoute(e.svc, e.opts, "POST /test/slow", route.handle)
	e.testPaths["/test/slow"] = true
	a := e.agent(0, 0)
	done := make(chan response, 1)
	go func() { done <- e.do("POST", "/test/slow", `{}`, bearer(a.token), idemKey("k")) }()
	<-route.started
	r := e.do("POST", "/test/slow", `{}`, bearer(a.token), idemKey("k"))
	requireError(t, r, http.StatusConflict, "Idempotency-Key: a request with this key is still in progress; retry later")
	require.Equal(t, "1", r.Header.Get("Retry-After"), "the in-flight conflict says when to retry")
	close(route.release)
	require.Equal(t, `{"run":1}`, string((<-done).Body))
	r = e.do("POST", "/test/slow", `{}`, bearer(a.token), idemKey("k"))
	require.Equal(t, `{"run":1}`, string(r.Body))
	require.Equal(t, "true", r.Header.Get(transport.HeaderIdempotentReplayed))
	require.Equal(t, int32(1), route.runs.Load())

	// A claim whose request never finishes (a crash) blocks the key only
	// for the lease.
	require.NoError(t, claimForever(e, a, "/test/slow", "crashed"))
	requireError(t, e.do("POST", "/test/slow", `{}`, bearer(a.token), idemKey("crashed")), http.StatusConflict,
		"Idempotency-Key: a request with this key is still in progress; retry later")
	e.clock.Advance(idempotency.Lease)
	r = e.do("POST", "/test/slow", `{}`, bearer(a.token), idemKey("crashed"))
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
	require.Equal(t, `{"run":2}`, string(r.Body))
}

// claimForever claims key for a's POST path as a request that then dies.
func claimForever(e *env, a agent, path, key string) error {
	_, claimed, err := e.store.ClaimIdempotencyKey(context.Background(),
		idempotency.Key{Caller: openjury.MustAddress(a.addr), Method: "POST", Path: path, Key: key},
		"44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a", // sha256("{}")
		"dead", e.clock.Now(), e.clock.Now().Add(idempotency.Lease), e.clock.Now().Add(idempotency.TTL))
	if err == nil && !claimed {
		panic("claimForever: not claimed")
	}
	return err
}

func TestIdempotencyKeyServerErrorsAreNotStored(t *testing.T) {
	t.Parallel()
	route := newBlockingRoute()
	close(route.release)
	e := newEnv(t)
	e.h = transport.NewHandlerWithAuthedRoute(e.svc, e.opts, "POST /test/flaky", route.handle)
	e.testPaths["/test/flaky"] = true
	a := e.agent(0, 0)
	route.status.Store(http.StatusServiceUnavailable)
	r := e.do("POST", "/test/flaky", `{}`, bearer(a.token), idemKey("k"))
	requireError(t, r, http.StatusServiceUnavailable, "try again")
	route.status.Store(http.StatusOK)
	r = e.do("POST", "/test/flaky", `{}`, bearer(a.token), idemKey("k"))
	require.Equal(t, http.StatusOK, r.Code, "the retry runs again")
	require.Empty(t, r.Header.Get(transport.HeaderIdempotentReplayed))
	require.Equal(t, `{"run":2}`, string(r.Body))
	require.Equal(t, int32(2), route.runs.Load())
}
