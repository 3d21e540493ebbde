package transport

import (
	"maps"
	"net/http"
	"slices"
)

// NewHandlerWithRoute returns NewHandler's handler with one extra route, so
// tests can exercise the error table and panic recovery end to end.
func NewHandlerWithRoute(s Services, o Options, pattern string, h func(http.ResponseWriter, *http.Request) error) http.Handler {
	return newServer(s, o, func(srv *server) { srv.handle(pattern, h) }).handler()
}

// RoutePatterns returns the ServeMux patterns NewHandler registers, sorted.
func RoutePatterns(s Services, o Options) []string {
	return slices.Sorted(maps.Keys(newServer(s, o, nil).patterns))
}

// NewHandlerWithAuthedRoute is NewHandlerWithRoute with h behind the
// bearer check (and so behind Idempotency-Key handling on POST).
func NewHandlerWithAuthedRoute(s Services, o Options, pattern string, h func(http.ResponseWriter, *http.Request) error) http.Handler {
	return newServer(s, o, func(srv *server) { srv.handle(pattern, srv.authed(h)) }).handler()
}

// RateLimited reports whether requests to path count against the rate
// limits (discovery documents and probes do not).
func RateLimited(path string) bool { return rateLimited(path) }
