package openjurytest_test

import (
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/openjurytest/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

func TestClock(t *testing.T) {
	t.Parallel()
	c := openjurytest.NewClock()
	require.Equal(t, openjurytest.Epoch, c.Now())
	require.Equal(t, openjurytest.Epoch.Add(time.Hour), c.Advance(time.Hour))
	at := time.Date(2030, 5, 6, 7, 8, 9, 0, time.FixedZone("x", 7200))
	c.Set(at)
	require.True(t, c.Now().Equal(at))
	require.Equal(t, time.UTC, c.Now().Location())
}

// TestServerStory signs in and posts a job through NewServer, on SQLite and
// on PostgreSQL: the whole stack as an embedder's test would drive it.
func TestServerStory(t *testing.T) {
	t.Parallel()
	backends := map[string]func(t *testing.T) []openjurytest.Option{
		"sqlite": func(*testing.T) []openjurytest.Option { return nil },
		"postgres": func(t *testing.T) []openjurytest.Option {
			return []openjurytest.Option{openjurytest.WithDSN(pgtest.NewDatabase(t))}
		},
	}
	for name, opts := range backends {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := openjurytest.NewServer(t, opts(t)...)
			w := openjurytest.NewWallet(t)
			token := srv.SignIn(t, w)
			require.NotEmpty(t, token)

			srv.Clock.Advance(90 * time.Minute)
			r := srv.Do(t, http.MethodPost, "/api/v1/jobs", token, map[string]any{"title": "t", "prompt": "p", "bounty_usdc": 3})
			require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
			job := r.Map(t)
			require.Equal(t, w.Address().String(), job["sponsor_address"])
			require.Equal(t, "2026-01-01T01:30:00.000Z", job["created_at"], "the fake clock drives the server")

			r = srv.Do(t, http.MethodGet, "/api/v1/jobs/"+job["id"].(string), "", nil)
			require.Equal(t, http.StatusOK, r.Status)
			require.Equal(t, job, r.Map(t))

			// Tokens die with the fake clock too.
			srv.Clock.Advance(openjurytest.DefaultTokenTTL)
			r = srv.Do(t, http.MethodPost, "/api/v1/jobs", token, map[string]any{"title": "t", "prompt": "p", "bounty_usdc": 3})
			require.Equal(t, http.StatusUnauthorized, r.Status)
		})
	}
}
