package transport

import (
	"context"
	"maps"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/openjury/openjury"
)

// apiPrefixes are the path prefixes the API answers (unknown paths under
// them get its JSON 404): /api/ and the discovery documents' prefixes. The
// exact paths of the registered routes are the API's too.
var apiPrefixes = []string{"/api/", "/.well-known/", "/docs-md/"}

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

// jsonNotFound serves app, except that an answer of 404 to a client that
// does not prefer HTML (prefersHTML: no Accept header, */*, or
// application/json, say) is replaced by the API's JSON 404 ("route not
// found"), so an agent mistyping a path reads JSON and only a browser gets
// the app's not-found page (docs/interface.md#conventions). The app's
// other answers pass through untouched.
func (s *server) jsonNotFound(app http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if prefersHTML(r) {
			app.ServeHTTP(w, r)
			return
		}
		before := w.Header().Clone() // the outer layers' headers (request id, rate limits)
		nf := &notFoundWriter{w: w}
		app.ServeHTTP(nf, r)
		if !nf.notFound {
			return
		}
		h := w.Header()
		clear(h) // drop what the app set for its page (content type, CSP, ...)
		maps.Copy(h, before)
		h.Set("X-Content-Type-Options", "nosniff")
		s.writeError(w, r, errRouteNotFound)
	})
}

// notFoundWriter passes an answer through unless its status is 404, whose
// header and body it swallows.
type notFoundWriter struct {
	w                 http.ResponseWriter
	decided, notFound bool
}

func (n *notFoundWriter) Header() http.Header { return n.w.Header() }

func (n *notFoundWriter) WriteHeader(status int) {
	if n.decided {
		return
	}
	n.decided = true
	if status == http.StatusNotFound {
		n.notFound = true
		return
	}
	n.w.WriteHeader(status)
}

func (n *notFoundWriter) Write(b []byte) (int, error) {
	if !n.decided {
		n.WriteHeader(http.StatusOK)
	}
	if n.notFound {
		return len(b), nil
	}
	return n.w.Write(b)
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (n *notFoundWriter) Unwrap() http.ResponseWriter { return n.w }

// prefersHTML reports whether r's Accept header prefers HTML, as a
// browser's does ("text/html,application/xhtml+xml,...,*/*;q=0.8"):
// text/html or application/xhtml+xml is listed with a q above 0 that no
// other listed type exceeds. No Accept header, "*/*" alone or
// "application/json" do not prefer HTML.
func prefersHTML(r *http.Request) bool {
	html, other := 0.0, 0.0
	for _, v := range r.Header.Values("Accept") {
		for part := range strings.SplitSeq(v, ",") {
			mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
			if err != nil {
				continue
			}
			q := 1.0
			if qs, ok := params["q"]; ok {
				if f, err := strconv.ParseFloat(qs, 64); err == nil && f >= 0 && f <= 1 {
					q = f
				}
			}
			if mt == "text/html" || mt == "application/xhtml+xml" {
				html = max(html, q)
			} else {
				other = max(other, q)
			}
		}
	}
	return html > 0 && html >= other
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

// LimitSignIn takes one request of the replica's shared sign-in budget
// (Options.AuthRateLimitPerMin, which the API's sign-in routes spend) for
// a request served through Options.App, so a web app's own sign-in form
// cannot be used to get around it, and sets the RateLimit headers on w.
// It returns a RateLimited error (with its retry hint) when the budget is
// spent, and nil when it is not, when the limit is off, or when r did not
// come through a handler with Options.App.
func LimitSignIn(w http.ResponseWriter, r *http.Request) error {
	s, ok := r.Context().Value(appServerKey{}).(*server)
	if !ok {
		return nil
	}
	return s.limitSignIn(w)
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
	// EventSignIn is a successful sign-in (openjury_signins_total).
	EventSignIn
	// EventSubmission is an accepted submission
	// (openjury_submissions_total).
	EventSubmission
	// EventJuryVote is an accepted jury vote, commitment or reveal
	// (openjury_votes_total{kind="jury"}, as the API's POST /api/v1/votes
	// and /api/v1/votes/reveal count them).
	EventJuryVote
	// EventFinalize is a job closed by its final votes
	// (openjury_job_closes_total{via="finalize"}).
	EventFinalize
)

// eventCounters maps an Event to the domain counter of the API route
// whose successful answers count the same event.
var eventCounters = map[Event]counter{
	EventFinalVote:    countFinalVote,
	EventSponsorClose: countSponsorClose,
	EventSignIn:       countSignIn,
	EventSubmission:   countSubmission,
	EventJuryVote:     countJuryVote,
	EventFinalize:     countFinalize,
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
	if c := s.metrics.counters[eventCounters[e]]; c != nil {
		c.Inc()
	}
}
