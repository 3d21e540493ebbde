package openjurytest_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/idempotency"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/openjurytest/pgtest"
	"github.com/openjury/openjury/transport"
)

// postWithKey posts body to srv as token's owner with an Idempotency-Key
// and returns the status, whether it was replayed, and the body.
func postWithKey(t *testing.T, srv *openjurytest.Server, token, path, key, body string) (int, bool, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, srv.URL+path, bytes.NewReader([]byte(body)))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set(transport.HeaderIdempotencyKey, key)
	resp, err := srv.HTTP.Client().Do(req)
	require.NoError(t, err)
	raw, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	require.NoError(t, err)
	openjurytest.ValidateResponse(t, req, resp.StatusCode, resp.Header, raw)
	return resp.StatusCode, resp.Header.Get(transport.HeaderIdempotentReplayed) == "true", raw
}

// TestIdempotencyAcrossReplicas runs two handlers (replicas) on one
// database: a key used on one replica replays on the other, and 20
// parallel requests with one key, spread over both, create one job.
func TestIdempotencyAcrossReplicas(t *testing.T) {
	t.Parallel()
	onEachDatabaseFile(t, func(t *testing.T, shared string) {
		clock := openjurytest.NewClock()
		a := openjurytest.NewServer(t, openjurytest.WithDSN(shared), openjurytest.WithClock(clock))
		b := openjurytest.NewServer(t, openjurytest.WithDSN(shared), openjurytest.WithClock(clock))
		wallet := openjurytest.NewWallet(t)
		token := a.SignIn(t, wallet)
		const job = `{"title":"t","prompt":"p","bounty_usdc":1}`

		status, replayed, first := postWithKey(t, a, token, "/api/v1/jobs", "seq", job)
		require.Equal(t, http.StatusOK, status)
		require.False(t, replayed)
		status, replayed, again := postWithKey(t, b, token, "/api/v1/jobs", "seq", job)
		require.Equal(t, http.StatusOK, status)
		require.True(t, replayed, "the other replica replays")
		require.Equal(t, string(first), string(again))
		status, _, _ = postWithKey(t, b, token, "/api/v1/jobs", "seq", `{"title":"other","prompt":"p","bounty_usdc":1}`)
		require.Equal(t, http.StatusUnprocessableEntity, status)

		var wg sync.WaitGroup
		var mu sync.Mutex
		ran, conflicts := 0, 0
		for i := range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				srv := a
				if i%2 == 1 {
					srv = b
				}
				status, replayed, _ := postWithKey(t, srv, token, "/api/v1/jobs", "par", job)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case status == http.StatusOK && !replayed:
					ran++
				case status == http.StatusConflict:
					conflicts++
				case status != http.StatusOK:
					t.Errorf("unexpected status %d", status)
				}
			}()
		}
		wg.Wait()
		require.Equal(t, 1, ran, "exactly one request ran (%d in-flight conflicts)", conflicts)
		var list struct {
			Jobs []map[string]any `json:"jobs"`
		}
		a.Do(t, http.MethodGet, "/api/v1/jobs?limit=200", "", nil).JSON(t, &list)
		require.Len(t, list.Jobs, 2, "one job per key")

		// A day later the key runs again (the expired record is taken
		// over), and the cleanup deletes what expired.
		clock.Advance(idempotency.TTL)
		token = a.SignIn(t, wallet) // the first token expired too
		status, replayed, _ = postWithKey(t, b, token, "/api/v1/jobs", "seq", job)
		require.Equal(t, http.StatusOK, status)
		require.False(t, replayed)
		clock.Advance(idempotency.TTL)
		n, err := a.DB.DeleteExpiredIdempotencyKeys(context.Background(), clock.Now())
		require.NoError(t, err)
		require.Equal(t, int64(2), n, "the keys seq and par")
	})
}

// onEachDatabaseFile runs fn as parallel subtests "sqlite" and "postgres",
// each with the DSN of a fresh database that several servers or processes
// may open: a SQLite file in a temp dir, or a pgtest database.
func onEachDatabaseFile(t *testing.T, fn func(t *testing.T, dsn string)) {
	t.Helper()
	dsns := map[string]func(t *testing.T) string{
		"sqlite":   func(t *testing.T) string { return "sqlite:" + filepath.Join(t.TempDir(), "shared.db") },
		"postgres": func(t *testing.T) string { return pgtest.NewDatabase(t) },
	}
	for name, dsn := range dsns {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fn(t, dsn(t))
		})
	}
}
