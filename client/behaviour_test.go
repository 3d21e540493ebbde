package client_test

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/client"
	"github.com/openjury/openjury/openjurytest"
)

// flaky is a RoundTripper that answers the first `fail` requests whose
// path has the suffix with status (after forwarding them when forward is
// set), with Retry-After: 0, and remembers the Idempotency-Key of each.
type flaky struct {
	suffix  string
	status  int
	fail    int32
	forward bool
	seen    atomic.Int32
	mu      sync.Mutex
	keys    []string
}

func (f *flaky) RoundTrip(req *http.Request) (*http.Response, error) {
	if !strings.HasSuffix(req.URL.Path, f.suffix) || (f.forward && req.Method != http.MethodPost) {
		return http.DefaultTransport.RoundTrip(req)
	}
	f.mu.Lock()
	f.keys = append(f.keys, req.Header.Get("Idempotency-Key"))
	f.mu.Unlock()
	if f.seen.Add(1) > f.fail {
		return http.DefaultTransport.RoundTrip(req)
	}
	if f.forward {
		res, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			return nil, err
		}
		_ = res.Body.Close()
	}
	return &http.Response{
		StatusCode: f.status,
		Header:     http.Header{"Retry-After": {"0"}, "Content-Type": {"application/json"}},
		Body:       http.NoBody,
		Request:    req,
	}, nil
}

// TestRetryKeepsIdempotencyKey loses the answer of a job creation the
// server did commit: the retry carries the same Idempotency-Key, the
// server replays the first answer, and one job exists.
func TestRetryKeepsIdempotencyKey(t *testing.T) {
	t.Parallel()
	onEachBackend(t, func(t *testing.T, srv *openjurytest.Server) {
		ctx := context.Background()
		f := &flaky{suffix: "/api/v1/jobs", status: http.StatusServiceUnavailable, fail: 1, forward: true}
		c := newClient(t, srv, &recorder{tb: t}, newKeyT(t).hex, client.WithHTTPClient(&http.Client{Transport: f}))
		job, err := c.CreateJob(ctx, client.CreateJobRequest{Title: "Once", Prompt: "Only once.", BountyUSDC: "1"})
		require.NoError(t, err)
		require.Len(t, f.keys, 2)
		require.NotEmpty(t, f.keys[0])
		require.Equal(t, f.keys[0], f.keys[1])
		list, err := c.ListJobs(ctx, client.JobFilter{Status: "all"})
		require.NoError(t, err)
		require.Len(t, list.Jobs, 1)
		require.Equal(t, job.ID, list.Jobs[0].ID)

		// A second call gets a new key.
		_, err = c.CreateJob(ctx, client.CreateJobRequest{Title: "Twice", Prompt: "Again.", BountyUSDC: "1"})
		require.NoError(t, err)
		require.Len(t, f.keys, 3)
		require.NotEqual(t, f.keys[0], f.keys[2])
	})
}

// TestRetryAfterIsBounded: a server that always answers 429 is asked
// 1 + maxRetries times, then the 429 is returned as *client.Error.
func TestRetryAfterIsBounded(t *testing.T) {
	t.Parallel()
	srv := openjurytest.NewServer(t)
	f := &flaky{suffix: "/healthz", status: http.StatusTooManyRequests, fail: 1000}
	c, err := client.New(srv.URL, client.WithHTTPClient(&http.Client{Transport: f}), client.WithRetries(2, time.Second))
	require.NoError(t, err)
	_, err = c.GetHealth(context.Background())
	var e *client.Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, http.StatusTooManyRequests, e.Status)
	require.EqualValues(t, 3, f.seen.Load())

	// Two 429s then success: the call succeeds.
	f2 := &flaky{suffix: "/healthz", status: http.StatusTooManyRequests, fail: 2}
	c2, err := client.New(srv.URL, client.WithHTTPClient(&http.Client{Transport: f2}), client.WithRetries(2, time.Second))
	require.NoError(t, err)
	h, err := c2.GetHealth(context.Background())
	require.NoError(t, err)
	require.Equal(t, "ok", h.Status)
}

// TestReSignInAfterExpiry: once the token expires, the next bearer call
// gets 401, signs in again and succeeds.
func TestReSignInAfterExpiry(t *testing.T) {
	t.Parallel()
	onEachBackend(t, func(t *testing.T, srv *openjurytest.Server) {
		ctx := context.Background()
		c := newClient(t, srv, &recorder{tb: t}, newKeyT(t).hex)
		_, err := c.Login(ctx)
		require.NoError(t, err)
		first := c.Token()
		srv.Clock.Advance(openjurytest.DefaultTokenTTL + time.Minute)
		_, err = c.CreatePost(ctx, client.CreatePostRequest{Title: "After", Content: "expiry"})
		require.NoError(t, err)
		require.NotEqual(t, first, c.Token())

		// Without a signer the 401 is returned.
		bare, err := client.New(srv.URL, client.WithToken(first))
		require.NoError(t, err)
		_, err = bare.CreatePost(ctx, client.CreatePostRequest{Title: "x", Content: "y"})
		var e *client.Error
		require.ErrorAs(t, err, &e)
		require.Equal(t, http.StatusUnauthorized, e.Status)
		require.NotEmpty(t, e.Detail)
	})
}

// TestErrorsCarryStatusAndDetail: a failure is a *client.Error.
func TestErrorsCarryStatusAndDetail(t *testing.T) {
	t.Parallel()
	srv := openjurytest.NewServer(t)
	c, err := client.New(srv.URL)
	require.NoError(t, err)
	_, err = c.GetJob(context.Background(), "01890000-0000-7000-8000-000000000000")
	var e *client.Error
	require.True(t, errors.As(err, &e))
	require.Equal(t, http.StatusNotFound, e.Status)
	require.NotEmpty(t, e.Detail)
	require.NotEmpty(t, e.RequestID)
	_, err = c.GetStakeStatus(context.Background(), "nope")
	require.ErrorAs(t, err, &e)
	require.Equal(t, http.StatusBadRequest, e.Status)
	require.Contains(t, e.Detail, "address")

	_, err = client.New("ftp://x")
	require.Error(t, err)
}

// TestIterators walk pages of two items over five jobs and five comments.
func TestIterators(t *testing.T) {
	t.Parallel()
	onEachBackend(t, func(t *testing.T, srv *openjurytest.Server) {
		ctx := context.Background()
		c := newClient(t, srv, &recorder{tb: t}, newKeyT(t).hex)
		var want []string
		for i := range 5 {
			j, err := c.CreateJob(ctx, client.CreateJobRequest{Title: "Job " + string(rune('a'+i)), Prompt: "p", BountyUSDC: "1"})
			require.NoError(t, err)
			want = append([]string{j.ID}, want...) // newest first
			srv.Clock.Advance(time.Second)
		}
		var got []string
		for j, err := range c.Jobs(ctx, client.JobFilter{Status: "all", Page: client.Page{Limit: 2}}) {
			require.NoError(t, err)
			got = append(got, j.ID)
		}
		require.Equal(t, want, got)

		// Stopping early stops the walk.
		n := 0
		for _, err := range c.Jobs(ctx, client.JobFilter{Status: "all", Page: client.Page{Limit: 2}}) {
			require.NoError(t, err)
			n++
			if n == 3 {
				break
			}
		}
		require.Equal(t, 3, n)

		for i := range 5 {
			_, err := c.CreateJobComment(ctx, want[0], client.CreateCommentRequest{Content: "c" + string(rune('0'+i))})
			require.NoError(t, err)
		}
		var contents []string
		for cm, err := range c.JobComments(ctx, want[0], 2) {
			require.NoError(t, err)
			contents = append(contents, cm.Content)
		}
		require.Equal(t, []string{"c0", "c1", "c2", "c3", "c4"}, contents)

		// An error ends the walk with the error.
		for _, err := range c.JobComments(ctx, "not-an-id", 2) {
			var e *client.Error
			require.ErrorAs(t, err, &e)
		}
	})
}

// TestKeystoreSigner signs in with a go-ethereum keystore file.
func TestKeystoreSigner(t *testing.T) {
	t.Parallel()
	srv := openjurytest.NewServer(t)
	key, err := crypto.GenerateKey()
	require.NoError(t, err)
	ks := keystore.NewKeyStore(t.TempDir(), keystore.LightScryptN, keystore.LightScryptP)
	acct, err := ks.ImportECDSA(key, "pw")
	require.NoError(t, err)
	_, err = client.KeystoreSigner(acct.URL.Path, "wrong")
	require.Error(t, err)
	s, err := client.KeystoreSigner(filepath.Clean(acct.URL.Path), "pw")
	require.NoError(t, err)
	require.Equal(t, crypto.PubkeyToAddress(key.PublicKey), s.Address())
	c, err := client.New(srv.URL, client.WithSigner(s), client.WithClock(srv.Clock.Now))
	require.NoError(t, err)
	v, err := c.Login(context.Background())
	require.NoError(t, err)
	require.NotEmpty(t, v.AccessToken)
}
