package main

import (
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/openjurytest"
)

// TestRunSearch: the host indexes a new job in the background; after a
// restart on the same database the index is loaded from the stored
// vectors (nothing to embed again); SERVICE_SEMANTIC_SEARCH_ENABLED=0
// answers 501.
func TestRunSearch(t *testing.T) {
	t.Parallel()
	dsn := "sqlite:" + filepath.Join(t.TempDir(), "openjury.db")
	base, _, stop := startHost(t, map[string]string{"SERVICE_DATABASE_URL": dsn})
	token := signIn(t, base, openjurytest.NewWallet(t))
	code, job := callJSON(t, "POST", base+"/api/v1/jobs", token, map[string]any{"title": "Catalogue moth species", "prompt": "Night survey with light traps.", "bounty_usdc": 1})
	require.Equal(t, http.StatusOK, code, "%v", job)
	searchURL := "/api/v1/search/semantic?" + url.Values{"q": {"moth survey"}}.Encode()
	first := func(base string) string {
		code, res := callJSON(t, "GET", base+searchURL, "", nil)
		require.Equal(t, http.StatusOK, code, "%v", res)
		results := res["results"].([]any)
		if len(results) == 0 {
			return ""
		}
		return results[0].(map[string]any)["id"].(string)
	}
	require.Eventually(t, func() bool { return first(base) == job["id"] }, 30*time.Second, 20*time.Millisecond)
	// Found by its words at once; wait until its vector is stored too.
	require.Eventually(t, func() bool {
		res, err := http.Get(base + "/metrics")
		if err != nil {
			return false
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return strings.Contains(string(b), "openjury_search_documents_indexed_total 1")
	}, 30*time.Second, 20*time.Millisecond)
	stop()

	base, stderr, _ := startHost(t, map[string]string{"SERVICE_DATABASE_URL": dsn})
	require.Equal(t, job["id"], first(base), "loaded before the first request")
	require.Contains(t, stderr.String(), `"documents":1`)

	off, _, _ := startHost(t, map[string]string{"SERVICE_SEMANTIC_SEARCH_ENABLED": "0"})
	code, body := callJSON(t, "GET", off+searchURL, "", nil)
	require.Equal(t, http.StatusNotImplemented, code)
	require.Contains(t, body["detail"], "disabled")
}
