package transport_test

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/transport"
)

// withEvents wires the event log, a running hub (streams at most
// maxStreams, 0: no bound) and webhooks into the handler, with the given
// stream heartbeat.
func withEvents(heartbeat time.Duration, maxStreams int) envOption {
	return func(e *env) {
		svc := events.NewService(e.store.EventLog(), e.clock, events.Config{})
		hub := events.NewHub(svc, events.HubConfig{Frame: transport.EventFrame, Poll: 10 * time.Millisecond, Batch: -1, MaxSubscribers: maxStreams})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { hub.Run(ctx); close(done) }()
		e.t.Cleanup(func() { hub.Stop(); cancel(); <-done })
		e.svc.Events, e.svc.EventHub = svc, hub
		e.svc.Webhooks = events.NewWebhooks(e.store.Webhooks(), svc, e.clock, events.WebhookConfig{})
		e.opts.EventHeartbeat = heartbeat
		e.h = transport.NewHandler(e.svc, e.opts)
	}
}

// streamLines opens the stream at path on a live server of e and returns
// its lines as they come.
func streamLines(t *testing.T, srv *httptest.Server, path string, header http.Header) (*http.Response, <-chan string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, srv.URL+path, nil)
	require.NoError(t, err)
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := srv.Client().Do(req)
	require.NoError(t, err)
	lines := make(chan string, 1000)
	if resp.StatusCode == http.StatusOK {
		go func() {
			defer close(lines)
			sc := bufio.NewScanner(resp.Body)
			for sc.Scan() {
				lines <- sc.Text()
			}
		}()
	}
	t.Cleanup(func() { _ = resp.Body.Close() })
	return resp, lines
}

// nextLine waits for a line with prefix.
func nextLine(t *testing.T, lines <-chan string, prefix string) string {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case l, ok := <-lines:
			require.True(t, ok, "the stream ended waiting for %q", prefix)
			if strings.HasPrefix(l, prefix) {
				return l
			}
		case <-timeout:
			t.Fatalf("no line %q", prefix)
		}
	}
}

// TestEventStreamHeartbeat: an idle stream sends a comment line with the
// stream's position every heartbeat; the headers keep proxies from
// buffering; Last-Event-ID wins over ?after=; the hub's Stop ends the
// stream (a server shutting down).
func TestEventStreamHeartbeat(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withEvents(30*time.Millisecond, 0))
	srv := httptest.NewServer(e.h)
	t.Cleanup(srv.Close)
	sponsor := e.agent(0, 0)
	e.newJob(sponsor.token)
	require.NoError(t, e.svc.Events.Flush(context.Background()))

	resp, lines := streamLines(t, srv, "/api/v1/events/stream?after=evt_0000000000000000", http.Header{"Last-Event-Id": {"evt_0000000000000001"}})
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	require.Equal(t, "no-cache", resp.Header.Get("Cache-Control"))
	require.Equal(t, "no", resp.Header.Get("X-Accel-Buffering"))
	require.NotEmpty(t, resp.Header.Get(transport.HeaderRequestID))
	require.Equal(t, "retry: 2000", nextLine(t, lines, "retry:"))
	require.Equal(t, "id: evt_0000000000000001", nextLine(t, lines, "id:"), "Last-Event-ID wins over after")
	// A heartbeat may come first on a slow machine (it repeats position
	// 1); the first event's frame is event 2.
	id := nextLine(t, lines, "id:")
	for id == "id: evt_0000000000000001" {
		id = nextLine(t, lines, "id:")
	}
	require.Equal(t, "id: evt_0000000000000002", id, "event 2 (final_vote.opened) is the first after 1")
	require.Equal(t, "event: final_vote.opened", nextLine(t, lines, "event:"))
	require.Equal(t, ": heartbeat", nextLine(t, lines, ": heartbeat"))
	require.Equal(t, "id: evt_0000000000000002", nextLine(t, lines, "id:"), "the heartbeat carries the position")
	require.Equal(t, ": heartbeat", nextLine(t, lines, ": heartbeat"), "and comes again")

	e.svc.EventHub.Stop()
	require.Eventually(t, func() bool {
		for {
			select {
			case _, ok := <-lines:
				if !ok {
					return true
				}
			default:
				return false
			}
		}
	}, 5*time.Second, 10*time.Millisecond, "the stream ends when the hub stops")
}

// TestEventRoutesRefuse: bad filters and resume points are 400; without
// an event log the routes answer 501; past the replica's bound on
// streams, 503.
func TestEventRoutesRefuse(t *testing.T) {
	t.Parallel()
	off := newEnv(t)
	for _, p := range []string{"/api/v1/events", "/api/v1/events/stream"} {
		requireError(t, off.do("GET", p, nil), http.StatusNotImplemented, "the event log is not enabled on this server")
	}
	requireError(t, off.do("GET", "/api/v1/webhooks", nil, bearer(off.agent(0, 0).token)), http.StatusNotImplemented, "webhooks are not enabled on this server")

	e := newEnv(t, withEvents(time.Minute, 1))
	for _, q := range []string{"type=nope", "address=0xzz", "job_id=1", "after=evt_1"} {
		r := e.do("GET", "/api/v1/events/stream?"+q, nil)
		require.Equal(t, http.StatusBadRequest, r.Code, "%s: %s", q, r.Body)
	}
	r := e.do("GET", "/api/v1/events/stream", nil, header{"Last-Event-ID", "garbage"})
	require.Equal(t, http.StatusBadRequest, r.Code, "%s", r.Body)
	require.Contains(t, r.JSON(t)["detail"], "after: not an event id")

	srv := httptest.NewServer(e.h)
	t.Cleanup(srv.Close)
	resp, lines := streamLines(t, srv, "/api/v1/events/stream", nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	nextLine(t, lines, "retry:")
	second, _ := streamLines(t, srv, "/api/v1/events/stream", nil)
	require.Equal(t, http.StatusServiceUnavailable, second.StatusCode)
}

// TestEventStreamsBypassTheReadCache: with the anonymous-read cache on,
// concurrent anonymous streams of one URL each get their own stream (a
// stream never ends: sharing its read would hold the others forever).
func TestEventStreamsBypassTheReadCache(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withOptions(func(o *transport.Options) { o.ReadCacheTTL = time.Second }), withEvents(time.Minute, 0))
	srv := httptest.NewServer(e.h)
	t.Cleanup(srv.Close)
	var all []<-chan string
	for range 3 {
		resp, lines := streamLines(t, srv, "/api/v1/events/stream?type=job.created", nil)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		all = append(all, lines)
	}
	for _, lines := range all {
		require.Equal(t, "retry: 2000", nextLine(t, lines, "retry:"))
	}
}
