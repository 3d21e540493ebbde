package transport

import (
	"context"
	"log/slog"
	"maps"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/a2atask"
	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/auth"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/idempotency"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/search"
	"github.com/openjury/openjury/stake"
)

// DefaultMaxBodyBytes is the request body limit used when
// Options.MaxBodyBytes is zero: 1 MiB.
const DefaultMaxBodyBytes int64 = 1 << 20

// Services are the domain services the handler serves. Auth, Market, Stake
// and AGR are required.
type Services struct {
	// Auth signs agents in and resolves bearer tokens.
	Auth *auth.Service
	// Market holds jobs, submissions, votes, closing, reputation and boosts.
	Market *marketplace.Service
	// Stake publishes the stake requirements and keeps stakes and slashes.
	// Its MinStake should equal Market's (the one the marketplace
	// enforces); NewHandler logs a warning when they differ.
	Stake *stake.Service
	// AGR keeps the offchain AGR credit accounts.
	AGR *agr.Service
	// Anchor serves the anchor snapshots of closed jobs and records their
	// receipts. Nil leaves the anchor routes out (404 "route not found").
	Anchor *anchor.Service
	// Ready reports whether the service can take traffic (normally a
	// database ping); GET /readyz answers 503 while it returns an error.
	// Nil means always ready.
	Ready func(ctx context.Context) error
	// Idempotency stores the responses of authenticated POSTs sent with an
	// Idempotency-Key header (bunstore.DB implements it). Nil ignores the
	// header.
	Idempotency idempotency.Store
	// Search answers GET /api/v1/search/semantic; nil means semantic
	// search is disabled (SERVICE_SEMANTIC_SEARCH_ENABLED=0): 501.
	Search *search.Service
	// Events serves the event log (GET /api/v1/events) and EventHub the
	// live stream (GET /api/v1/events/stream) from the replica's fan-out,
	// whose frames must be EventFrame's. Nil: those routes answer 501.
	Events   *events.Service
	EventHub *events.Hub
	// Webhooks manages the signed-in callers' webhooks
	// (/api/v1/webhooks); nil: those routes answer 501.
	Webhooks *events.Webhooks
	// A2ATasks keeps the A2A tasks (a job posted or work submitted
	// through A2A); with Webhooks it turns on tasks/get and push
	// notifications. Nil: A2A answers every message directly, keeps no
	// task, and tasks/get answers "task not found".
	A2ATasks a2atask.Store
}

// Options tune the handler. The zero value is usable.
type Options struct {
	// Logger receives the access log and error logs. Nil discards them.
	Logger *slog.Logger
	// BaseURL is the public base URL of the service, e.g.
	// "https://jury.example.com", used for absolute links.
	BaseURL string
	// MaxBodyBytes limits request bodies; larger ones get 413. Zero means
	// DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// Clock measures request durations and gives the server time of the
	// bootstrap document. Nil means openjury.SystemClock.
	Clock openjury.Clock
	// AppURL is the public URL of the companion web application (the
	// spec's {app_url}); empty means BaseURL.
	AppURL string
	// DevSecret guards the dev endpoints (stake, slashing, reputation and
	// AGR dev_* routes), compared in constant time with the X-Dev-Secret
	// header. Empty turns the dev endpoints off: they answer 401 "dev
	// endpoints disabled: ..." (with how to turn them on). It is never
	// logged.
	DevSecret string
	// DevOpen lets every caller use the dev endpoints without
	// X-Dev-Secret: the host's local development mode, which listens on
	// loopback only (docs/operations.md). Never set it on a server that
	// another machine can reach.
	DevOpen bool
	// Operators are the operator wallets (anchor receipts). Comment
	// moderation is decided by the marketplace, from
	// marketplace.Config.Operators; the two lists should be equal and
	// NewHandler logs a warning when they differ.
	Operators []openjury.Address
	// AGRTokenAddress is the AGR token contract published in the economy
	// policy; zero means none ("").
	AGRTokenAddress openjury.Address
	// RateLimitPerMin is the general request limit per client and
	// replica (SERVICE_RATE_LIMIT_PER_MIN), a client being an IPv4
	// address or an IPv6 /64 network (IPv4-mapped IPv6 counts as IPv4): a
	// bucket holding a minute's worth of requests, refilled continuously.
	// Over it: 429 with Retry-After. /healthz, /readyz and /metrics are
	// exempt. Zero or less turns it off. The client IP is the socket
	// peer, or the right-most untrusted X-Forwarded-For entry when the
	// peer is in TrustedProxies.
	// Limited answers carry RateLimit and RateLimit-Policy headers
	// (draft-ietf-httpapi-ratelimit-headers); the discovery documents are
	// exempt too.
	RateLimitPerMin int
	// RateLimitPerAddressPerMin is the request limit per signed-in address
	// and replica (SERVICE_RATE_LIMIT_PER_ADDRESS_PER_MIN), counted on
	// requests whose bearer token resolves, whatever their IP, like
	// RateLimitPerMin: the requests to routes that need sign-in, and the
	// reads of public data that carry a token (resolved through a cache
	// of TokenCacheTTL). Zero or less turns it off.
	RateLimitPerAddressPerMin int
	// AuthRateLimitPerMin is the replica's budget of sign-in requests
	// (SERVICE_AUTH_RATE_LIMIT_PER_MIN): POSTs to
	// /api/v1/agents/auth/challenge and /verify from all clients together
	// share one bucket holding a minute's worth, refilled continuously,
	// besides each client's own RateLimitPerMin. Past it: 429 with
	// Retry-After. It bounds the database writes and chain calls
	// (EIP-1271) that a flood of sign-ins from many networks can cause.
	// Zero or less turns it off (the host's default is
	// DefaultAuthRateLimitPerMin).
	AuthRateLimitPerMin int
	// RateLimitBuckets bounds how many client buckets each of the per-IP
	// and per-address limits keeps (0: DefaultRateLimitBuckets); see
	// clientLimiter for which bucket a new client replaces.
	RateLimitBuckets int
	// TrustedProxies are the reverse proxies (SERVICE_TRUSTED_PROXIES;
	// ParseTrustedProxies reads the setting) whose X-Forwarded-For header
	// is believed: when the socket peer is in one of them, the client IP
	// of rate limits and logs is the right-most X-Forwarded-For entry that
	// is not. Empty: the socket peer, always.
	TrustedProxies []netip.Prefix
	// CORSOrigins are the browser origins allowed to call the API
	// (SERVICE_CORS_ORIGINS), e.g. "https://app.example.com"; the origin
	// of AppURL joins them when it differs from BaseURL's (see
	// AllowedOrigins). Preflights are answered for them (methods GET,
	// HEAD, POST, DELETE; request headers Authorization, Content-Type,
	// Idempotency-Key, X-Request-Id); any other origin gets no CORS
	// header, so browsers refuse it.
	CORSOrigins []string
	// Registry receives the handler's metrics, served at GET /metrics with
	// everything else registered on it. Nil means a registry of the
	// handler's own. To add collectors (database pool statistics, the
	// host's own metrics), pass a registry and register them on it, or
	// list them in Collectors.
	Registry *prometheus.Registry
	// Collectors are registered on the registry by NewHandler, e.g.
	// collectors.NewDBStatsCollector for each pool of bunstore.DB.SQLDBs.
	Collectors []prometheus.Collector
	// ReadCacheTTL turns on the read cache: 200 answers of the public read
	// routes (jobs, a job, its submissions, votes, final votes and
	// comments, posts, reputation, leaderboard), which do not depend on
	// the caller, are kept this long, at most MaxReadCacheTTL, and served
	// to anonymous and signed-in GETs alike, so a write through another
	// replica is seen within it. Every write answered by this handler
	// empties the cache, so a caller's next read on this replica sees its
	// own write. Zero or less turns it off.
	ReadCacheTTL time.Duration
	// EventHeartbeat is how often an idle event stream sends a comment
	// line (0: DefaultEventHeartbeat).
	EventHeartbeat time.Duration
	// App, when set, answers every request whose path is not the API's
	// (the API's paths are /api/..., /.well-known/..., /docs-md/... and
	// the exact paths of the registered routes, such as /a2a, /openapi.json
	// and /healthz): the companion web app. It is served behind the same
	// panic recovery, request id, client IP, access log and per-IP rate
	// limit as the API (one budget per client IP for both), and an answered
	// write through it (any method but GET, HEAD and OPTIONS, unless
	// refused with a 4xx) empties the read cache like an API
	// write. Its own headers and bodies are left alone (no API security
	// headers, CORS, read cache or body limit), except that its 404 to a
	// client whose Accept does not prefer text/html (an agent, curl) is
	// replaced by the API's JSON 404: only browsers get the app's page. Its signed-in actions call
	// LimitAddress to share the per-address budget. Nil: such paths get the
	// API's JSON 404.
	App http.Handler
}

// handlerFunc is the form of every route handler: it writes a response and
// returns nil, or returns an error for the wrapper to write.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

// server holds what the handlers share.
type server struct {
	svc   Services
	opts  Options
	log   *slog.Logger
	clock openjury.Clock
	mux   *http.ServeMux
	// routeList is the route table in registration order (routes.go);
	// byPattern and byOp index it by pattern and operation id.
	routeList []*route
	byPattern map[string]*route
	byOp      map[string]*route
	// unlimitedPaths are the exact paths of the routes the rate limits
	// exempt; signInPaths those of the sign-in routes (rateClass).
	unlimitedPaths, signInPaths map[string]bool
	metrics                     *metrics
	// cache is the read cache; nil when off.
	cache *readCache
	// tokens resolves the bearer tokens of reads for the per-address
	// limit (limitSignedReads).
	tokens *tokenCache
	// ipLimiter and addrLimiter are the per-IP and per-address request
	// limits; nil when off.
	ipLimiter, addrLimiter *clientLimiter
	// authLimiter is the sign-in routes' shared budget; nil when off.
	authLimiter *sharedLimiter
	// apiPaths are the exact paths of the registered routes (Options.App
	// gets the paths that are not the API's).
	apiPaths map[string]bool
	// discovery holds the discovery documents, rendered once from
	// BaseURL; nil when BaseURL is empty (rendered per request then).
	discovery *discoveryDocs
}

// NewHandler returns the HTTP handler of the service. It panics when
// s.Auth, s.Market, s.Stake or s.AGR is nil, a wiring mistake.
func NewHandler(s Services, o Options) http.Handler {
	return newServer(s, o, nil).handler()
}

// newServer builds the server and registers its routes; extra registers
// additional routes (tests use it).
func newServer(s Services, o Options, extra func(*server)) *server {
	if s.Auth == nil || s.Market == nil || s.Stake == nil || s.AGR == nil {
		panic("transport.NewHandler: Services.Auth, Market, Stake and AGR are required")
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if o.Clock == nil {
		o.Clock = openjury.SystemClock{}
	}
	o.BaseURL = strings.TrimRight(o.BaseURL, "/")
	o.AppURL = strings.TrimRight(o.AppURL, "/")
	if o.AppURL == "" {
		o.AppURL = o.BaseURL
	}
	o.Operators = slices.Clone(o.Operators)
	o.TrustedProxies = slices.Clone(o.TrustedProxies)
	o.CORSOrigins = slices.Clone(o.CORSOrigins)
	if m, st := s.Market.Config().MinStake, s.Stake.Requirements().MinStake; m != st {
		o.Logger.Warn("transport: the marketplace enforces a minimum stake that differs from the published one",
			slog.String("market_min_stake", m.String()), slog.String("stake_min_stake", st.String()))
	}
	if !sameAddresses(o.Operators, s.Market.Config().Operators) {
		o.Logger.Warn("transport: the operators of the handler differ from the marketplace's (comment moderation)",
			slog.Int("handler_operators", len(o.Operators)), slog.Int("market_operators", len(s.Market.Config().Operators)))
	}
	srv := &server{svc: s, opts: o, log: o.Logger, clock: o.Clock, mux: http.NewServeMux(),
		byPattern: map[string]*route{}, byOp: map[string]*route{}, unlimitedPaths: map[string]bool{}, signInPaths: map[string]bool{}}
	srv.metrics = newMetrics(o.Registry, o.Collectors, o.Logger)
	if o.RateLimitPerMin > 0 {
		srv.ipLimiter = newClientLimiter(o.RateLimitPerMin, o.RateLimitBuckets, o.Clock)
	}
	if o.RateLimitPerAddressPerMin > 0 {
		srv.addrLimiter = newClientLimiter(o.RateLimitPerAddressPerMin, o.RateLimitBuckets, o.Clock)
	}
	if o.AuthRateLimitPerMin > 0 {
		srv.authLimiter = newSharedLimiter(o.AuthRateLimitPerMin, o.Clock)
	}
	for _, rt := range srv.allRoutes() {
		srv.register(rt)
	}
	if extra != nil {
		extra(srv)
	}
	srv.metrics.countRoutes(srv.routeList)
	if o.ReadCacheTTL > 0 {
		cached := map[string]bool{}
		for _, rt := range srv.routeList {
			if rt.cached {
				cached[rt.pattern] = true
			}
		}
		srv.cache = newReadCache(o.ReadCacheTTL, cached)
	}
	srv.tokens = newTokenCache(s.Auth.Authenticate, o.Clock)
	if o.BaseURL != "" {
		srv.discovery = srv.renderDiscovery(o.BaseURL)
	}
	srv.apiPaths = make(map[string]bool, len(srv.routeList))
	for _, rt := range srv.routeList {
		if path := rt.path(); !strings.Contains(path, "{") {
			srv.apiPaths[path] = true
		}
	}
	return srv
}

// handler wraps the router in the middleware chain, outermost first:
// recovery, request id, access log, then for the API security headers,
// metrics, CORS, rate limit, the per-address limit of signed-in reads,
// read cache, body limit; for Options.App the metrics (route label
// RouteApp), the rate limit and the cache invalidation of its writes.
func (s *server) handler() http.Handler {
	var h http.Handler = http.HandlerFunc(s.dispatch)
	h = s.limitBody(h)
	h = s.cacheReads(h)
	h = s.limitSignedReads(h)
	h = s.rateLimit(h)
	h = s.cors(h)
	h = s.observe(h)
	h = s.securityHeaders(h)
	if s.opts.App != nil {
		app := s.rateLimit(s.appContext(s.invalidatesCache(s.jsonNotFound(s.opts.App))))
		h = s.withApp(h, s.observeAs(app, func(*http.Request) string { return RouteApp }))
	}
	h = s.accessLog(h)
	h = s.requestID(h)
	h = s.recoverPanics(h)
	return h
}

// wrap adapts a handlerFunc to http.Handler: it records the matched route
// pattern for the access log and writes a returned error.
func (s *server) wrap(h handlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if info := infoFrom(r.Context()); info != nil {
			info.route = r.Pattern
		}
		if err := h(w, r); err != nil {
			s.writeError(w, r, err)
		}
	})
}

// dispatch routes a request. Requests no pattern matches get a JSON 404
// ("route not found") or, when the path exists with other methods, a JSON
// 405 with the Allow header, instead of ServeMux's plain-text answers.
func (s *server) dispatch(w http.ResponseWriter, r *http.Request) {
	if strings.ContainsRune(r.URL.Path, 0) || strings.Contains(r.URL.RawQuery, "%00") {
		// NUL cannot be stored or queried (bun inlines arguments into SQL
		// text, and PostgreSQL text cannot hold it): refuse it here.
		s.writeError(w, r, errNULInURL)
		return
	}
	h, pattern := s.mux.Handler(r)
	if pattern != "" {
		s.mux.ServeHTTP(w, r)
		return
	}
	// Let ServeMux's own handler decide between 404 and 405, capture its
	// status and Allow header, and answer in JSON.
	c := &captureWriter{header: http.Header{}}
	h.ServeHTTP(c, r)
	switch c.status {
	case http.StatusMethodNotAllowed:
		if allow := c.header.Get("Allow"); allow != "" {
			w.Header().Set("Allow", allow)
		}
		s.writeError(w, r, errMethodNotAllowed)
	default:
		s.writeError(w, r, errRouteNotFound)
	}
}

var (
	errNULInURL         = openjury.E(openjury.Invalid, "transport.route", "path and query must not contain NUL (%00) characters")
	errRouteNotFound    = openjury.E(openjury.NotFound, "transport.route", "route not found")
	errMethodNotAllowed = &statusError{status: http.StatusMethodNotAllowed, detail: "method not allowed"}
)

// captureWriter records what a handler writes without sending it.
type captureWriter struct {
	header http.Header
	status int
}

func (c *captureWriter) Header() http.Header { return c.header }

func (c *captureWriter) Write(b []byte) (int, error) {
	if c.status == 0 {
		c.status = http.StatusOK
	}
	return len(b), nil
}

func (c *captureWriter) WriteHeader(status int) {
	if c.status == 0 {
		c.status = status
	}
}

// sameAddresses reports whether a and b hold the same addresses, in any
// order and counting duplicates once.
func sameAddresses(a, b []openjury.Address) bool {
	set := func(l []openjury.Address) map[openjury.Address]bool {
		m := make(map[openjury.Address]bool, len(l))
		for _, x := range l {
			m[x] = true
		}
		return m
	}
	return maps.Equal(set(a), set(b))
}
