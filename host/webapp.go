package main

import (
	"net/http"
	"strings"
)

// apiPrefixes are the paths transport answers; everything else is the web app.
var apiPrefixes = []string{"/api/", "/.well-known/", "/openapi.", "/docs-md/"}

// apiPaths are the exact paths transport answers.
var apiPaths = map[string]bool{"/llms.txt": true, "/agents.json": true, "/healthz": true, "/readyz": true, "/metrics": true}

// withWebApp routes the API and discovery paths to api and the rest to app.
func withWebApp(api, app http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if isAPIPath(r.URL.Path) {
			api.ServeHTTP(w, r)
			return
		}
		app.ServeHTTP(w, r)
	})
}

// isAPIPath reports whether transport serves path.
func isAPIPath(path string) bool {
	if apiPaths[path] {
		return true
	}
	for _, p := range apiPrefixes {
		if strings.HasPrefix(path, p) {
			return true
		}
	}
	return false
}
