package transport

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// RouteUnmatched is the route label of requests no route matched (404 and
// 405 answers), so unknown paths cannot blow up the label set.
const RouteUnmatched = "unmatched"

// RouteApp is the route label of the requests Options.App answers (the
// web app's pages, forms and static files): one label for all of them, so
// the app's own paths never become labels.
const RouteApp = "app"

// methodOther is the method label of requests with a method outside the
// standard ones: the method is caller-chosen text.
const methodOther = "OTHER"

// metrics holds the handler's Prometheus collectors.
type metrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	// counters are the domain counters; events maps a route pattern to
	// the one a 200 answer of that route increments (route.count).
	counters map[counter]prometheus.Counter
	events   map[string]prometheus.Counter
	handler  http.Handler
	// children caches the series of each (route, method, status), so a
	// request does not hash its label values again: seriesKey -> *series.
	// The keys are bounded: registered routes, standard methods, statuses.
	children sync.Map
}

type seriesKey struct {
	route, method string
	status        int
}

// series are the collectors a request of one (route, method, status)
// feeds; event is the domain counter of a 200 answer, or nil.
type series struct {
	requests prometheus.Counter
	duration prometheus.Observer
	event    prometheus.Counter
}

// series returns the collectors of (route, method, status).
func (m *metrics) series(route, method string, status int) *series {
	k := seriesKey{route: route, method: method, status: status}
	if c, ok := m.children.Load(k); ok {
		return c.(*series)
	}
	code := strconv.Itoa(status)
	c := &series{
		requests: m.requests.WithLabelValues(route, method, code),
		duration: m.duration.WithLabelValues(route, method, code),
	}
	if status == http.StatusOK {
		c.event = m.events[route]
	}
	got, _ := m.children.LoadOrStore(k, c)
	return got.(*series)
}

// newMetrics registers the handler's collectors, the Go and process
// collectors and extra on reg (a new registry when nil). A collector that
// is already registered (a second handler on the same registry) is reused,
// not an error.
func newMetrics(reg *prometheus.Registry, extra []prometheus.Collector, log *slog.Logger) *metrics {
	if reg == nil {
		reg = prometheus.NewRegistry()
	}
	labels := []string{"route", "method", "status"}
	m := &metrics{
		requests: register(reg, prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "openjury_http_requests_total",
			Help: "HTTP requests served, by route pattern, method and status.",
		}, labels)),
		duration: register(reg, prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "openjury_http_request_duration_seconds",
			Help:    "Time to serve an HTTP request, by route pattern, method and status.",
			Buckets: prometheus.DefBuckets,
		}, labels)),
	}
	signins := register(reg, prometheus.NewCounter(prometheus.CounterOpts{
		Name: "openjury_signins_total",
		Help: "Successful sign-ins (bearer tokens issued by verify).",
	}))
	submissions := register(reg, prometheus.NewCounter(prometheus.CounterOpts{
		Name: "openjury_submissions_total",
		Help: "Accepted submissions.",
	}))
	votes := register(reg, prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "openjury_votes_total",
		Help: "Accepted votes (a replacing vote counts again), by kind: jury or final.",
	}, []string{"kind"}))
	closes := register(reg, prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "openjury_job_closes_total",
		Help: "Jobs closed, by way: sponsor (manual close) or finalize (final decision votes).",
	}, []string{"via"}))
	m.counters = map[counter]prometheus.Counter{
		countSignIn:       signins,
		countSubmission:   submissions,
		countJuryVote:     votes.WithLabelValues("jury"),
		countFinalVote:    votes.WithLabelValues("final"),
		countSponsorClose: closes.WithLabelValues("sponsor"),
		countFinalize:     closes.WithLabelValues("finalize"),
	}
	// The Go and process collectors are optional: a registry that already
	// has its own (perhaps with other options, so other descriptors) keeps
	// them.
	for _, c := range []prometheus.Collector{
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	} {
		if err := reg.Register(c); err != nil {
			log.Debug("metrics: the registry has its own runtime collector", slog.String("error", err.Error()))
		}
	}
	for _, c := range extra {
		register(reg, c)
	}
	m.handler = promhttp.HandlerFor(reg, promhttp.HandlerOpts{
		ErrorLog:      promLogger{log},
		ErrorHandling: promhttp.ContinueOnError,
	})
	return m
}

// counter names a domain counter; a route's count field picks the one its
// 200 answers increment.
type counter int

const (
	countNone         counter = iota
	countSignIn               // openjury_signins_total
	countSubmission           // openjury_submissions_total
	countJuryVote             // openjury_votes_total{kind="jury"}
	countFinalVote            // openjury_votes_total{kind="final"}
	countSponsorClose         // openjury_job_closes_total{via="sponsor"}
	countFinalize             // openjury_job_closes_total{via="finalize"}
)

// countRoutes maps the pattern of each route with a domain counter to that
// counter. It runs once, before the handler serves.
func (m *metrics) countRoutes(routes []*route) {
	m.events = map[string]prometheus.Counter{}
	for _, rt := range routes {
		if rt.count == countNone {
			continue
		}
		c, ok := m.counters[rt.count]
		if !ok {
			panic(fmt.Sprintf("transport: route %s counts an unknown counter %d", rt.pattern, rt.count))
		}
		m.events[rt.pattern] = c
	}
}

// register registers c on reg and returns it or, when an equal collector
// is already registered, that one. Other registration errors (a name
// reused with other labels) are wiring mistakes and panic.
func register[C prometheus.Collector](reg prometheus.Registerer, c C) C {
	err := reg.Register(c)
	if err == nil {
		return c
	}
	var are prometheus.AlreadyRegisteredError
	if errors.As(err, &are) {
		if existing, ok := are.ExistingCollector.(C); ok {
			return existing
		}
		return c // same descriptors, other type: keep ours unregistered
	}
	panic(fmt.Sprintf("transport: registering metrics: %v", err))
}

func (s *server) metricsRoutes() []route {
	return []route{
		{pattern: "GET /metrics", op: "getMetrics", service: "metrics", rate: rateExempt, h: func(w http.ResponseWriter, r *http.Request) error {
			s.metrics.handler.ServeHTTP(w, r)
			return nil
		}},
	}
}

// observe counts and times every request under its route pattern (see
// RouteUnmatched) and feeds the domain counters.
func (s *server) observe(next http.Handler) http.Handler {
	return s.observeAs(next, s.routeOf)
}

// observeAs is observe with the route label given by route.
func (s *server) observeAs(next http.Handler, route func(*http.Request) string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := s.clock.Now()
		serveRecorded(w, r, next, func(_ *recorder, status int) {
			c := s.metrics.series(route(r), methodLabel(r.Method), status)
			c.requests.Inc()
			c.duration.Observe(s.clock.Now().Sub(start).Seconds())
			if c.event != nil {
				c.event.Inc()
			}
		})
	})
}

// routeOf returns the pattern of the route that served r. Requests answered
// without reaching a route handler (a body over the limit, a redirect to
// the clean form of a path) are looked up in the router; requests no route
// matches are RouteUnmatched.
func (s *server) routeOf(r *http.Request) string {
	if info := infoFrom(r.Context()); info != nil && info.route != "" {
		return info.route
	}
	// Only registered patterns, so a caller can never choose a label.
	if _, pattern := s.mux.Handler(r); s.byPattern[pattern] != nil {
		return pattern
	}
	return RouteUnmatched
}

// methodLabel bounds the method label to the standard methods.
func methodLabel(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return m
	}
	return methodOther
}

// promLogger sends promhttp's errors to the handler's logger.
type promLogger struct{ log *slog.Logger }

func (l promLogger) Println(v ...any) {
	l.log.Warn("metrics: "+fmt.Sprint(v...), slog.String("component", "metrics"))
}
