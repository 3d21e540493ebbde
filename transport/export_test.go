package transport

import (
	"net/http"
	"slices"
	"strings"
)

// NewHandlerWithRoute returns NewHandler's handler with one extra route, so
// tests can exercise the error table and panic recovery end to end.
func NewHandlerWithRoute(s Services, o Options, pattern string, h func(http.ResponseWriter, *http.Request) error) http.Handler {
	return newServer(s, o, func(srv *server) { srv.handle(pattern, h) }).handler()
}

// RouteInfo is the metadata of a route NewHandler registers.
type RouteInfo struct {
	// Pattern is the ServeMux pattern, OperationID the operationId.
	Pattern, OperationID string
	// Auth is "none", "bearer", "operator" or "dev".
	Auth string
	// Cached: reads, signed in or not, may come from the read cache.
	Cached bool
	// Service is the name in service.json's endpoints ("" for none).
	Service string
}

// Routes returns the routes NewHandler registers, sorted by pattern.
func Routes(s Services, o Options) []RouteInfo {
	var out []RouteInfo
	for _, rt := range newServer(s, o, nil).routeList {
		out = append(out, RouteInfo{Pattern: rt.pattern, OperationID: rt.op, Auth: rt.auth.String(), Cached: rt.cached, Service: rt.service})
	}
	slices.SortFunc(out, func(a, b RouteInfo) int { return strings.Compare(a.Pattern, b.Pattern) })
	return out
}

// NewHandlerWithAuthedRoute is NewHandlerWithRoute with h behind the
// bearer check (and so behind Idempotency-Key handling on POST).
func NewHandlerWithAuthedRoute(s Services, o Options, pattern string, h func(http.ResponseWriter, *http.Request) error) http.Handler {
	return newServer(s, o, func(srv *server) { srv.handle(pattern, srv.authed(h)) }).handler()
}

// RateLimited returns whether requests to a path count against the rate
// limits of the handler NewHandler(s, o) builds (discovery documents and
// probes do not).
func RateLimited(s Services, o Options) func(path string) bool {
	return newServer(s, o, nil).rateLimited
}

// A2ASkillRoutes returns, for each A2A skill id, the pattern and auth mode
// of the route it runs on the handler NewHandler(s, o) builds ("" when no
// route has its operation id).
func A2ASkillRoutes(s Services, o Options) map[string][2]string {
	srv := newServer(s, o, nil)
	out := map[string][2]string{}
	for _, sk := range a2aSkills {
		if rt := srv.byOp[sk.op]; rt != nil {
			out[sk.id] = [2]string{rt.pattern, rt.auth.String()}
		} else {
			out[sk.id] = [2]string{}
		}
	}
	return out
}

// Limits of headers, for the test that holds the OpenAPI bounds equal to
// the Go limits.
const (
	MaxRequestIDLen      = maxRequestIDLen
	MaxIdempotencyKeyLen = maxIdempotencyKey
)
