package main

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestWithWebAppRoutes(t *testing.T) {
	api := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusTeapot) })
	app := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusAccepted) })
	h := withWebApp(api, app)
	for path, want := range map[string]int{
		"/api/v1/jobs": http.StatusTeapot, "/.well-known/agent.json": http.StatusTeapot, "/openapi.yaml": http.StatusTeapot,
		"/docs-md/x.md": http.StatusTeapot, "/llms.txt": http.StatusTeapot, "/agents.json": http.StatusTeapot,
		"/healthz": http.StatusTeapot, "/readyz": http.StatusTeapot, "/metrics": http.StatusTeapot,
		"/": http.StatusAccepted, "/jobs/x": http.StatusAccepted, "/apix": http.StatusAccepted,
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		require.Equal(t, want, rec.Code, path)
	}
}
