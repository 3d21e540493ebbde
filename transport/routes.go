package transport

import (
	"fmt"
	"slices"
	"strings"
)

// route is one route of the API with its metadata. Each route is declared
// once, in its area's ...Routes function (jobRoutes in jobs_handlers.go,
// ...), and everything that needs to know about routes reads this one
// table: the router, the bearer and dev-secret checks, the read cache, the
// metrics (route label and domain counters), the rate limits, the
// discovery documents and the A2A skills, and the test that holds the
// table equal to the OpenAPI document (operation ids and security).
type route struct {
	// pattern is the ServeMux pattern, "METHOD /path"; it is also the
	// route label of the metrics and the access log.
	pattern string
	// op is the operationId of the route's operation in openapi.yaml.
	op string
	// auth is who may call the route; register puts the check in front
	// of h.
	auth authMode
	// cached marks a public read whose answer does not depend on the
	// caller: its GETs, signed in or not, may be answered from the read
	// cache (Options.ReadCacheTTL).
	cached bool
	// service is the operation's name in the endpoints of
	// /.well-known/service.json; "" leaves it out.
	service string
	// count is the domain counter a 200 answer increments (metrics.go).
	count counter
	// rate is how the rate limits apply to the route.
	rate rateClass
	// h serves the route.
	h handlerFunc
}

// authMode says who may call a route.
type authMode int

const (
	// authNone: anyone.
	authNone authMode = iota
	// authBearer: a signed-in caller (Authorization: Bearer); 401
	// otherwise, before the body is read.
	authBearer
	// authOperator: a signed-in caller whom the service then checks
	// against the operator list (403 for others); documented as bearer.
	authOperator
	// authDev: the dev secret (X-Dev-Secret), or anyone in local
	// development mode (Options.DevOpen); documented as devSecret.
	authDev
)

// String names the mode as tests and errors print it.
func (a authMode) String() string {
	switch a {
	case authNone:
		return "none"
	case authBearer:
		return "bearer"
	case authOperator:
		return "operator"
	case authDev:
		return "dev"
	}
	return fmt.Sprintf("authMode(%d)", int(a))
}

// rateClass says how the rate limits apply to a route.
type rateClass int

const (
	// rateDefault: the per-IP and, once signed in, per-address limits.
	rateDefault rateClass = iota
	// rateExempt: no limit (probes, the metrics scrape, the discovery
	// documents).
	rateExempt
	// rateSignIn: rateDefault plus the replica's shared sign-in budget
	// (Options.AuthRateLimitPerMin) for POSTs.
	rateSignIn
)

// allRoutes are the routes of the API, area by area. A new area adds its
// function here; a new route of an existing area goes in its area's
// function only.
func (s *server) allRoutes() []route {
	return slices.Concat(
		s.healthRoutes(),
		s.authRoutes(),
		s.jobRoutes(),
		s.stakeRoutes(),
		s.agrRoutes(),
		s.submissionRoutes(),
		s.voteRoutes(),
		s.juryRoutes(),
		s.closingRoutes(),
		s.anchorRoutes(),
		s.escrowRoutes(),
		s.reputationRoutes(),
		s.economyRoutes(),
		s.threadRoutes(),
		s.bootstrapRoutes(),
		s.openAPIRoutes(),
		s.discoveryRoutes(),
		s.metricsRoutes(),
		s.searchRoutes(),
		s.eventRoutes(),
		s.webhookRoutes(),
		s.a2aRoutes(),
	)
}

// register adds rt to the router behind the check of its auth mode and to
// the route table. A pattern or an operation id registered twice is a
// programming error: it panics.
func (s *server) register(rt route) {
	if _, dup := s.byPattern[rt.pattern]; dup {
		panic("transport: route registered twice: " + rt.pattern)
	}
	if rt.op != "" {
		if _, dup := s.byOp[rt.op]; dup {
			panic("transport: operation id registered twice: " + rt.op)
		}
	}
	h := rt.h
	switch rt.auth {
	case authBearer, authOperator:
		h = s.authed(h)
	case authDev:
		h = s.devOnly(h)
	}
	r := &rt
	s.routeList = append(s.routeList, r)
	s.byPattern[rt.pattern] = r
	if rt.op != "" {
		s.byOp[rt.op] = r
	}
	if rt.rate != rateDefault {
		path := rt.path()
		if rt.rate == rateExempt {
			s.unlimitedPaths[path] = true
		} else {
			s.signInPaths[path] = true
		}
	}
	s.mux.Handle(rt.pattern, s.wrap(h))
}

// handle registers h for a pattern without metadata (tests add routes with
// it).
func (s *server) handle(pattern string, h handlerFunc) {
	s.register(route{pattern: pattern, h: h})
}

// method returns the method of the route's pattern.
func (rt *route) method() string {
	m, _, _ := strings.Cut(rt.pattern, " ")
	return m
}

// path returns the path of the route's pattern.
func (rt *route) path() string {
	_, p, _ := strings.Cut(rt.pattern, " ")
	return p
}
