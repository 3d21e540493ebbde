package transport

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// fixedClock stands still.
type fixedClock struct{ t time.Time }

func (c fixedClock) Now() time.Time { return c.t }

// slowRead is a cached route's handler that counts its calls and answers
// only when release is closed.
type slowRead struct {
	calls   atomic.Int64
	release chan struct{}
	started chan struct{}
}

func (h *slowRead) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	infoFrom(r.Context()).route = "GET /api/v1/jobs"
	n := h.calls.Add(1)
	h.started <- struct{}{}
	<-h.release
	writeJSON(w, http.StatusOK, map[string]int64{"call": n})
}

func cachedGet(s *server, h http.Handler) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, "/api/v1/jobs?limit=20", nil)
	req = req.WithContext(context.WithValue(req.Context(), infoKey, &requestInfo{id: "x"}))
	rec := httptest.NewRecorder()
	s.cacheReads(h).ServeHTTP(rec, req)
	return rec
}

// TestReadCacheJoinsConcurrentMisses: concurrent misses of one key share
// one read (a late one finds its answer in the cache).
func TestReadCacheJoinsConcurrentMisses(t *testing.T) {
	t.Parallel()
	s := &server{cache: newReadCache(time.Second, map[string]bool{"GET /api/v1/jobs": true}), clock: fixedClock{time.Unix(1_800_000_000, 0)}}
	h := &slowRead{release: make(chan struct{}), started: make(chan struct{}, 16)}
	var wg sync.WaitGroup
	bodies := make([]string, 8)
	for i := range bodies {
		wg.Go(func() { bodies[i] = cachedGet(s, h).Body.String() })
	}
	<-h.started // one read is under way; the others wait for it or find its answer
	close(h.release)
	wg.Wait()
	for _, b := range bodies {
		require.JSONEq(t, `{"call":1}`, b, "the concurrent misses shared the first read")
	}
	require.Equal(t, int64(1), h.calls.Load())
}

// TestReadCacheNoSharingAcrossAWrite: a read that begins after a write
// does not join a read that began before it, and the older read's answer
// is not kept.
func TestReadCacheNoSharingAcrossAWrite(t *testing.T) {
	t.Parallel()
	s := &server{cache: newReadCache(time.Second, map[string]bool{"GET /api/v1/jobs": true}), clock: fixedClock{time.Unix(1_800_000_000, 0)}}
	h := &slowRead{release: make(chan struct{}), started: make(chan struct{}, 16)}
	old := make(chan string)
	go func() { old <- cachedGet(s, h).Body.String() }()
	<-h.started // the old read is under way

	s.cache.invalidate() // a write is answered
	fresh := make(chan string)
	go func() { fresh <- cachedGet(s, h).Body.String() }()
	<-h.started // would block for ever if the new read joined the old one
	require.Equal(t, int64(2), h.calls.Load(), "the read after the write ran on its own")

	close(h.release)
	require.JSONEq(t, `{"call":1}`, <-old)
	require.JSONEq(t, `{"call":2}`, <-fresh)
	require.JSONEq(t, `{"call":2}`, cachedGet(s, h).Body.String(), "the newer answer is the one kept")
	require.Equal(t, int64(2), h.calls.Load())
}

// TestReadCacheSharesOnlyYoungReads: a request that arrives a TTL or more
// after a shared read began does not take its answer.
func TestReadCacheSharesOnlyYoungReads(t *testing.T) {
	t.Parallel()
	clk := newMovingClock(time.Unix(1_800_000_000, 0))
	s := &server{cache: newReadCache(time.Second, map[string]bool{"GET /api/v1/jobs": true}), clock: clk}
	h := &slowRead{release: make(chan struct{}), started: make(chan struct{}, 16)}
	old := make(chan string)
	go func() { old <- cachedGet(s, h).Body.String() }()
	<-h.started // a slow read is under way

	clk.advance(time.Second)
	late := make(chan string)
	go func() { late <- cachedGet(s, h).Body.String() }()
	close(h.release)
	require.JSONEq(t, `{"call":1}`, <-old)
	require.JSONEq(t, `{"call":2}`, <-late, "the late request read for itself")
	require.Equal(t, int64(2), h.calls.Load())
}
