package main

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/openjury/openjury/web"
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

// webServices completes the web app's services from the configuration:
// the session cookie is Secure when the app's public URL is https, and
// when the app's origin is not the API's (SERVICE_APP_URL on another
// origin) its pages call the API at SERVICE_BASE_URL through CORS.
func webServices(cfg Config, s web.Services) web.Services {
	app, errA := url.Parse(cfg.PublicAppURL())
	base, errB := url.Parse(cfg.BaseURL)
	if errA != nil || errB != nil { // Validate checked both
		return s
	}
	s.SecureCookie = strings.EqualFold(app.Scheme, "https")
	if !strings.EqualFold(app.Scheme+"://"+app.Host, base.Scheme+"://"+base.Host) {
		s.APIURL = strings.TrimRight(cfg.BaseURL, "/")
	}
	return s
}
