package client_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/client"
	"github.com/openjury/openjury/idempotency"
	"github.com/openjury/openjury/openjurytest"
)

// inFlight is a RoundTripper in front of a real server that, before the
// first POST to path, claims its Idempotency-Key in the server's store the
// way a request still running does (an earlier attempt whose answer the
// client never got). Once the server has answered that claim's 409
// `holdFor` times, it releases the claim, as the earlier attempt does when
// it fails, so the next attempt runs. It records every status of path.
type inFlight struct {
	t       *testing.T
	srv     *openjurytest.Server
	caller  openjury.Address
	path    string
	holdFor int

	mu       sync.Mutex
	claimed  *idempotency.Key
	statuses []int
	keys     []string
}

const holderToken = "test-holder"

func (f *inFlight) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodPost || req.URL.Path != f.path {
		return http.DefaultTransport.RoundTrip(req)
	}
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, err
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	ctx := context.Background()
	f.mu.Lock()
	defer f.mu.Unlock()
	key := req.Header.Get("Idempotency-Key")
	f.keys = append(f.keys, key)
	if f.claimed == nil {
		k := idempotency.Key{Caller: f.caller, Method: req.Method, Path: req.URL.Path, Key: key}
		sum := sha256.Sum256(body)
		now := f.srv.Clock.Now()
		_, ok, err := f.srv.DB.ClaimIdempotencyKey(ctx, k, hex.EncodeToString(sum[:]), holderToken, now, now.Add(time.Minute), now.Add(time.Hour))
		require.NoError(f.t, err)
		require.True(f.t, ok)
		f.claimed = &k
	}
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	f.statuses = append(f.statuses, res.StatusCode)
	if res.StatusCode == http.StatusConflict && len(f.statuses) == f.holdFor {
		require.NoError(f.t, f.srv.DB.ReleaseIdempotencyKey(ctx, *f.claimed, holderToken))
	}
	return res, nil
}

// TestInFlightKeyIsRetried: a POST whose Idempotency-Key is held by a
// request still running gets 409 from the real server; the client waits
// and retries with the same key until the holder is gone, and the job is
// created once. A key held for longer than the retries surfaces the 409;
// a 409 that is a state conflict is returned at once.
func TestInFlightKeyIsRetried(t *testing.T) {
	t.Parallel()
	onEachBackend(t, func(t *testing.T, srv *openjurytest.Server) {
		ctx := context.Background()
		key := newKeyT(t)
		f := &inFlight{t: t, srv: srv, caller: key.addr, path: "/api/v1/jobs", holdFor: 2}
		c := newClient(t, srv, &recorder{tb: t}, key.hex, client.WithHTTPClient(&http.Client{Transport: f}), client.WithRetries(3, 20*time.Millisecond))
		job, err := c.CreateJob(ctx, client.CreateJobRequest{Title: "Once", Prompt: "Only once.", BountyUSDC: "1"})
		require.NoError(t, err)
		require.Equal(t, []int{http.StatusConflict, http.StatusConflict, http.StatusOK}, f.statuses)
		require.Len(t, f.keys, 3)
		require.Equal(t, f.keys[0], f.keys[2], "every attempt carries the same key")
		list, err := c.ListJobs(ctx, client.JobFilter{Status: "all"})
		require.NoError(t, err)
		require.Len(t, list.Jobs, 1)
		require.Equal(t, job.ID, list.Jobs[0].ID)

		// Held for longer than 1 + 2 attempts: the 409 is the answer.
		held := &inFlight{t: t, srv: srv, caller: key.addr, path: "/api/v1/jobs", holdFor: 100}
		c2 := newClient(t, srv, &recorder{tb: t}, key.hex, client.WithHTTPClient(&http.Client{Transport: held}), client.WithRetries(2, 20*time.Millisecond))
		_, err = c2.CreateJob(ctx, client.CreateJobRequest{Title: "Held", Prompt: "Held.", BountyUSDC: "1"})
		var e *client.Error
		require.ErrorAs(t, err, &e)
		require.Equal(t, http.StatusConflict, e.Status)
		require.Contains(t, e.Detail, "still in progress")
		require.Len(t, held.statuses, 3)

		// The same with WithoutRetries: one attempt.
		once := &inFlight{t: t, srv: srv, caller: key.addr, path: "/api/v1/jobs", holdFor: 100}
		c3 := newClient(t, srv, &recorder{tb: t}, key.hex, client.WithHTTPClient(&http.Client{Transport: once}), client.WithoutRetries())
		_, err = c3.CreateJob(client.ContextWithIdempotencyKey(ctx, "my-key-1"), client.CreateJobRequest{Title: "Held", Prompt: "Held.", BountyUSDC: "1"})
		require.ErrorAs(t, err, &e)
		require.Equal(t, http.StatusConflict, e.Status)
		require.Equal(t, []string{"my-key-1"}, once.keys)

		// A state conflict (closing a closed job) is not retried.
		agent := newClient(t, srv, &recorder{tb: t}, newKeyT(t).hex)
		_, err = agent.DevSetStake(ctx, client.DevSetStakeRequest{Address: agent.Address(), StakedAmount: "20"})
		require.NoError(t, err)
		sub, err := agent.CreateSubmission(ctx, client.CreateSubmissionRequest{JobID: job.ID, Content: "Done."})
		require.NoError(t, err)
		closes := &inFlight{t: t, srv: srv, caller: key.addr, path: "/api/v1/jobs/" + job.ID + "/close", holdFor: 1}
		sponsor := newClient(t, srv, &recorder{tb: t}, key.hex, client.WithHTTPClient(&http.Client{Transport: closes}), client.WithRetries(3, 20*time.Millisecond))
		_, err = sponsor.CloseJob(ctx, job.ID, client.CloseJobRequest{WinnerSubmissionID: sub.Submission.ID})
		require.NoError(t, err, "the held key is released after the first 409")
		closes.claimed = nil
		closes.statuses, closes.keys = nil, nil
		_, err = sponsor.CloseJob(ctx, job.ID, client.CloseJobRequest{WinnerSubmissionID: sub.Submission.ID})
		require.ErrorAs(t, err, &e)
		require.Equal(t, http.StatusConflict, e.Status)
		require.NotContains(t, e.Detail, "in progress")
		require.Equal(t, []int{http.StatusConflict, http.StatusConflict}, closes.statuses,
			"the key in flight is retried, the closed job's 409 is not")
	})
}

// TestInFlightHonoursRetryAfter: a 409 with Retry-After (as a server may
// send for a key in flight) waits that long before the retry.
func TestInFlightHonoursRetryAfter(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var at []time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		at = append(at, time.Now())
		w.Header().Set("Content-Type", "application/json")
		if len(at) == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusConflict)
			_, _ = w.Write([]byte(`{"detail":"Idempotency-Key: a request with this key is still in progress; retry later"}`))
			return
		}
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(`{"id":"j1","title":"t"}`))
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(srv.URL, client.WithToken("tok"), client.WithRetries(3, 5*time.Second))
	require.NoError(t, err)
	job, err := c.CreateJob(context.Background(), client.CreateJobRequest{Title: "t", Prompt: "p", BountyUSDC: "1"})
	require.NoError(t, err)
	require.Equal(t, "j1", job.ID)
	require.Len(t, at, 2)
	require.GreaterOrEqual(t, at[1].Sub(at[0]), time.Second, "Retry-After: 1 is honoured")
}

// TestResponseBodyCap: an answer longer than the cap fails the call with
// ErrResponseTooLarge, once (no retry), whether its length is declared or
// streamed; an answer of exactly the cap is read.
func TestResponseBodyCap(t *testing.T) {
	t.Parallel()
	srv := openjurytest.NewServer(t)
	ctx := context.Background()
	f := &flaky{suffix: "/openapi.json"}
	small, err := client.New(srv.URL, client.WithMaxResponseBytes(1024), client.WithHTTPClient(&http.Client{Transport: f}))
	require.NoError(t, err)
	_, err = small.GetOpenAPIJSON(ctx)
	require.ErrorIs(t, err, client.ErrResponseTooLarge)
	require.Contains(t, err.Error(), "GET /openapi.json")
	require.EqualValues(t, 1, f.seen.Load(), "not retried")
	h, err := small.GetHealth(ctx)
	require.NoError(t, err)
	require.Equal(t, "ok", h.Status)
	doc, err := client.New(srv.URL)
	require.NoError(t, err)
	b, err := doc.GetOpenAPIJSON(ctx)
	require.NoError(t, err, "the default cap reads the document")
	require.Greater(t, len(b), 1024)

	// A streamed (chunked) body of n bytes.
	stream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		chunk := bytes.Repeat([]byte("x"), 64<<10)
		for n > 0 {
			k := min(n, len(chunk))
			if _, err := w.Write(chunk[:k]); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			n -= k
		}
	}))
	t.Cleanup(stream.Close)
	for _, tc := range []struct {
		n      int
		tooBig bool
	}{{client.DefaultMaxResponseBytes, false}, {client.DefaultMaxResponseBytes + 1, true}, {64 << 20, true}} {
		body, err := fetchN(ctx, stream.URL, tc.n)
		if tc.tooBig {
			require.ErrorIs(t, err, client.ErrResponseTooLarge, "n=%d", tc.n)
			continue
		}
		require.NoError(t, err, "n=%d", tc.n)
		require.Len(t, body, tc.n)
	}
}

// fetchN reads an n-byte streamed body through the client's raw path.
func fetchN(ctx context.Context, base string, n int) ([]byte, error) {
	c, err := client.New(base, client.WithHTTPClient(&http.Client{Transport: queryN(n)}))
	if err != nil {
		return nil, err
	}
	return c.GetLLMsTxt(ctx)
}

// queryN adds ?n=N to every request.
type queryN int

func (q queryN) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	r.URL.RawQuery = fmt.Sprintf("n=%d", int(q))
	return http.DefaultTransport.RoundTrip(r)
}
