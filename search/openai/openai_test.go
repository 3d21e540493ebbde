package openai_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/openjurytest/pgtest"
	"github.com/openjury/openjury/search"
	"github.com/openjury/openjury/search/openai"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

const apiKey = "sk-test-secret-key"

// fakeAPI speaks the embeddings protocol with search.Local's vectors,
// answering the data in reverse order (clients must sort by index). While
// down it answers 503, or fails status times when failing > 0.
type fakeAPI struct {
	*httptest.Server
	down     atomic.Bool
	failing  atomic.Int32
	status   int
	requests atomic.Int32
	mu       sync.Mutex
	batches  []int
	models   []string
}

func newFakeAPI(t *testing.T) *fakeAPI {
	f := &fakeAPI{status: http.StatusServiceUnavailable}
	local := search.NewLocal()
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.requests.Add(1)
		if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
			http.NotFound(w, r)
			return
		}
		if r.Header.Get("Authorization") != "Bearer "+apiKey {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, `{"error":{"message":"Incorrect API key provided: `+r.Header.Get("Authorization")+`"}}`)
			return
		}
		if f.down.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		if f.failing.Add(-1) >= 0 {
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(f.status)
			return
		}
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Input) == 0 {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		f.mu.Lock()
		f.batches = append(f.batches, len(req.Input))
		f.models = append(f.models, req.Model)
		f.mu.Unlock()
		type item struct {
			Object    string    `json:"object"`
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		var data []item
		for i := len(req.Input) - 1; i >= 0; i-- {
			data = append(data, item{"embedding", i, local.Vector(req.Input[i])})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": req.Model})
	}))
	t.Cleanup(f.Close)
	return f
}

func newClient(t *testing.T, f *fakeAPI, mod func(*openai.Config)) *openai.Client {
	cfg := openai.Config{BaseURL: f.URL + "/v1", Model: "test-embed", APIKey: apiKey, BatchSize: 2, Backoff: time.Millisecond, Timeout: 2 * time.Second}
	if mod != nil {
		mod(&cfg)
	}
	c, err := openai.New(cfg)
	require.NoError(t, err)
	return c
}

func TestEmbedBatchesInOrder(t *testing.T) {
	t.Parallel()
	f := newFakeAPI(t)
	c := newClient(t, f, nil)
	texts := []string{"one", "two", "three", "four", "five"}
	vecs, err := c.Embed(context.Background(), texts)
	require.NoError(t, err)
	require.Len(t, vecs, 5)
	local := search.NewLocal()
	for i, text := range texts {
		require.Equal(t, local.Vector(text), vecs[i], text)
	}
	require.Equal(t, []int{2, 2, 1}, f.batches)
	require.Equal(t, []string{"test-embed", "test-embed", "test-embed"}, f.models)
	require.Equal(t, "openai:test-embed", c.Model())
}

func TestEmbedRetries(t *testing.T) {
	t.Parallel()
	f := newFakeAPI(t)
	c := newClient(t, f, nil)
	f.failing.Store(2) // two 503s, then success
	vecs, err := c.Embed(context.Background(), []string{"retry me"})
	require.NoError(t, err)
	require.Len(t, vecs, 1)
	require.Equal(t, int32(3), f.requests.Load())
}

func TestEmbedOutage(t *testing.T) {
	t.Parallel()
	f := newFakeAPI(t)
	c := newClient(t, f, nil)
	f.down.Store(true)
	_, err := c.Embed(context.Background(), []string{"x"})
	require.Equal(t, openjury.Unavailable, openjury.KindOf(err))
	require.Equal(t, int32(1+openai.DefaultMaxRetries), f.requests.Load(), "the first try and the retries")

	// A server that is gone entirely.
	gone := newClient(t, f, func(c *openai.Config) { c.BaseURL = "http://127.0.0.1:1/v1"; c.MaxRetries = -1 })
	_, err = gone.Embed(context.Background(), []string{"x"})
	require.Equal(t, openjury.Unavailable, openjury.KindOf(err))
}

func TestEmbedNeverShowsTheKey(t *testing.T) {
	t.Parallel()
	f := newFakeAPI(t)
	wrong := newClient(t, f, func(c *openai.Config) { c.APIKey = "sk-wrong-key-123" })
	_, err := wrong.Embed(context.Background(), []string{"x"})
	require.Error(t, err)
	require.Equal(t, openjury.Unavailable, openjury.KindOf(err))
	require.NotContains(t, err.Error(), "sk-wrong-key-123", "the fake server echoes the key; the client redacts it")
	require.NotContains(t, wrong.String(), "sk-wrong")

	bad := newClient(t, f, func(c *openai.Config) { c.BaseURL = "http://user:sk-url-secret@127.0.0.1:1/v1"; c.MaxRetries = -1 })
	_, err = bad.Embed(context.Background(), []string{"x"})
	require.NotContains(t, err.Error(), "sk-url-secret")
}

func TestEmbedRefusedInput(t *testing.T) {
	t.Parallel()
	f := newFakeAPI(t)
	f.status = http.StatusBadRequest
	f.failing.Store(1)
	c := newClient(t, f, nil)
	_, err := c.Embed(context.Background(), []string{"x"})
	require.Equal(t, openjury.Invalid, openjury.KindOf(err))
	require.Equal(t, int32(1), f.requests.Load(), "no retry of a refused input")
}

func TestNewValidates(t *testing.T) {
	t.Parallel()
	for _, cfg := range []openai.Config{
		{BaseURL: "", Model: "m"},
		{BaseURL: "ftp://x/v1", Model: "m"},
		{BaseURL: "http://x/v1", Model: " "},
	} {
		_, err := openai.New(cfg)
		require.Equal(t, openjury.Invalid, openjury.KindOf(err), "%+v", cfg)
	}
}

// TestOutageNeverFailsWrites: a server whose remote embedder is down
// keeps accepting writes; the documents wait and are indexed once the
// embedder is back. On SQLite and PostgreSQL.
func TestOutageNeverFailsWrites(t *testing.T) {
	t.Parallel()
	for name, dsn := range map[string]func(testing.TB) string{"sqlite": func(testing.TB) string { return "" }, "postgres": pgtest.NewDatabase} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFakeAPI(t)
			c := newClient(t, f, func(c *openai.Config) { c.MaxRetries = 1 })
			srv := openjurytest.NewServer(t, openjurytest.WithDSN(dsn(t)), openjurytest.WithConfig(func(sc *openjurytest.ServerConfig) { sc.SearchEmbedder = c }))
			f.down.Store(true)

			w := openjurytest.NewWallet(t)
			token := srv.SignIn(t, w)
			res := srv.Do(t, http.MethodPost, "/api/v1/jobs", token, map[string]any{"title": "Map the coral reef", "prompt": "Survey the reef with drones.", "bounty_usdc": 5})
			require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
			jobID := res.Map(t)["id"].(string)
			res = srv.Do(t, http.MethodPost, "/api/v1/posts", token, map[string]any{"title": "Reef photos", "content": "Coral bleaching pictures."})
			require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)

			// Queries go on from the lexical ranking alone while it is
			// down: both documents are found by their words once the
			// indexer's lexical step, which does not wait for the
			// embedder, has run (within 2 s: docs/rules.md#search).
			var lexical struct {
				Results []struct{ ID string } `json:"results"`
			}
			require.Eventually(t, func() bool {
				res := srv.Do(t, http.MethodGet, "/api/v1/search/semantic?q=coral", "", nil)
				require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
				res.JSON(t, &lexical)
				return len(lexical.Results) == 2
			}, 2*time.Second, 20*time.Millisecond, "both documents found by their words while the embedder is down")
			n, err := srv.DB.SearchIndex().PendingCount(context.Background())
			require.NoError(t, err)
			require.Equal(t, int64(2), n, "the documents wait")

			f.down.Store(false)
			require.Eventually(t, func() bool {
				res := srv.Do(t, http.MethodGet, "/api/v1/search/semantic?"+url.Values{"q": {"coral reef drones"}}.Encode(), "", nil)
				var out struct {
					Results []struct{ ID string } `json:"results"`
				}
				res.JSON(t, &out)
				return res.Status == http.StatusOK && len(out.Results) == 2 && out.Results[0].ID == jobID
			}, 30*time.Second, 20*time.Millisecond, "indexed after the recovery")
			_, err = srv.Market.CreatePost(context.Background(), w.Address(), marketplace.PostInput{Title: "After", Content: "recovery"})
			require.NoError(t, err)
		})
	}
}
