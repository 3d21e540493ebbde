package transport

import (
	"context"
	"net/http"
	"strings"

	"github.com/openjury/openjury"
)

// apiPrefixes are the path prefixes the API answers (unknown paths under
// them get its JSON 404): /api/ and the discovery documents' prefixes. The
// exact paths of the registered routes are the API's too.
var apiPrefixes = append([]string{"/api/"}, unlimitedPrefixes...)

// servesAPI reports whether path is the API's rather than Options.App's.
func (s *server) servesAPI(path string) bool {
	if s.apiPaths[path] {
		return true
	}
	for _, p := range apiPrefixes {
		if strings.HasPrefix(path, p) {
			return true
		}
	}
	return false
}

// withApp sends the API's paths to api and every other path to app.
func (s *server) withApp(api, app http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.servesAPI(r.URL.Path) {
			api.ServeHTTP(w, r)
			return
		}
		app.ServeHTTP(w, r)
	})
}

// appServerKey is the context key of the server that serves Options.App.
type appServerKey struct{}

// appContext lets LimitAddress find this server from the app's requests.
func (s *server) appContext(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), appServerKey{}, s)))
	})
}

// LimitAddress takes one request of addr's per-address rate limit
// (Options.RateLimitPerAddressPerMin) for a request served through
// Options.App, so a web app's signed-in action shares the budget of the
// address's bearer requests, and sets the RateLimit headers on w. It
// returns a RateLimited error (with its retry hint: see RetryAfter) when
// the budget is spent, and nil when it is not, when the per-address limit
// is off, or when r did not come through a handler with Options.App.
func LimitAddress(w http.ResponseWriter, r *http.Request, addr openjury.Address) error {
	s, ok := r.Context().Value(appServerKey{}).(*server)
	if !ok {
		return nil
	}
	return s.limitAddress(w, r, addr)
}

// Event is a domain event that the metrics' domain counters count when
// the app, not an API route, caused it (see CountEvent).
type Event int

// The events an app can cause, with the counter each feeds.
const (
	// EventFinalVote is an accepted final decision vote
	// (openjury_votes_total{kind="final"}).
	EventFinalVote Event = iota + 1
	// EventSponsorClose is a job closed by its sponsor
	// (openjury_job_closes_total{via="sponsor"}).
	EventSponsorClose
)

// eventRoutes maps an Event to the API route whose successful answers
// count the same event.
var eventRoutes = map[Event]string{
	EventFinalVote:    routeFinalVote,
	EventSponsorClose: routeCloseJob,
}

// CountEvent counts e in the domain counters of the handler that served r
// through Options.App, as that handler counts a successful answer of the
// API route that does the same, so the counters do not depend on whether
// a person acted in the app or an agent through the API. It does nothing
// for a request that did not come through a handler with Options.App.
func CountEvent(r *http.Request, e Event) {
	s, ok := r.Context().Value(appServerKey{}).(*server)
	if !ok {
		return
	}
	if c := s.metrics.events[eventRoutes[e]]; c != nil {
		c.Inc()
	}
}
