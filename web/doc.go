// Package web is the companion web app: server-rendered html/template pages
// over the same domain services as the JSON API (never HTTP to itself), with
// templates, CSS and JavaScript embedded so that `go run ./host` needs no
// build step.
//
// A browser signs in with its wallet through the JSON API and hands the
// bearer token to POST /app/session, which keeps it in an HttpOnly,
// SameSite=Strict cookie. The signed-in actions (post a job, final vote,
// comment, boost, close, sign out) are HTML form posts under /app/ that
// carry a CSRF token bound to the session and call the marketplace service
// directly. The job page's "verify" button checks the anchor snapshot in the
// browser (static/verify.js, with keccak256 in static/keccak.js).
//
// Serve the handler as transport.Options.App, as the host does: the app then
// shares the API's per-IP rate limit, and each signed-in action spends the
// caller's per-address budget (transport.LimitAddress; a 429 page with
// Retry-After past it), and its final votes and closes feed the API's
// domain counters (transport.CountEvent). Served on its own, the app is not
// rate limited or counted.
package web
