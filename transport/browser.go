package transport

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/rs/cors"
)

// Security headers set on every response (securityHeaders). The API and
// its documents are never framed, never run scripts and leak no referrer.
const (
	contentSecurityPolicy = "default-src 'none'; frame-ancestors 'none'"
	referrerPolicy        = "no-referrer"
	// defaultCacheControl is the Cache-Control of answers whose route sets
	// none: API answers may hold a caller's data and change any moment.
	defaultCacheControl = "no-store"
	// hstsValue is Strict-Transport-Security when BaseURL is https.
	hstsValue = "max-age=31536000"
)

// securityHeaderValues are the headers securityHeaders sets, their keys in
// canonical form and their values shared by every answer: each value has
// len == cap, so an Add copies it and a Set replaces it, never writing into
// the shared array.
var securityHeaderValues = []struct {
	key   string
	value []string
}{
	{"X-Content-Type-Options", []string{"nosniff"}},
	{"Referrer-Policy", []string{referrerPolicy}},
	{"X-Frame-Options", []string{"DENY"}},
	{"Content-Security-Policy", []string{contentSecurityPolicy}},
	{"Cache-Control", []string{defaultCacheControl}},
}

// hstsValues is the shared value of Strict-Transport-Security.
var hstsValues = []string{hstsValue}

// corsMaxAge is how long a browser may keep a preflight answer, in seconds.
const corsMaxAge = 600

// CORS lists of the browser rules (Options.CORSOrigins).
var (
	corsMethods = []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodDelete}
	// Mcp-Protocol-Version is sent by browser MCP clients of POST /mcp,
	// Last-Event-ID by clients resuming the event stream.
	corsHeaders = []string{"Authorization", "Content-Type", HeaderIdempotencyKey, HeaderRequestID,
		"Mcp-Protocol-Version", "Last-Event-ID"}
	// WWW-Authenticate names the MCP resource metadata on a 401.
	corsExposed = []string{HeaderRequestID, "X-Next-Cursor", "Retry-After", HeaderRateLimit,
		HeaderRateLimitPolicy, HeaderIdempotentReplayed, "ETag", "WWW-Authenticate"}
)

// securityHeaders sets the security headers on every response, before the
// inner layers run: X-Content-Type-Options, Referrer-Policy,
// X-Frame-Options, Content-Security-Policy, Strict-Transport-Security
// when the service is served over https, and Cache-Control: no-store,
// which routes with cacheable documents replace. The server sends no
// Server banner.
func (s *server) securityHeaders(next http.Handler) http.Handler {
	hsts := strings.HasPrefix(s.opts.BaseURL, "https://")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		for _, v := range securityHeaderValues {
			h[v.key] = v.value
		}
		if hsts {
			h["Strict-Transport-Security"] = hstsValues
		}
		next.ServeHTTP(w, r)
	})
}

// cors answers CORS preflights and adds the CORS headers for the allowed
// origins (allowedOrigins); other origins get no Access-Control-* header,
// so browsers refuse them. Without allowed origins it does nothing.
func (s *server) cors(next http.Handler) http.Handler {
	origins := AllowedOrigins(s.opts.CORSOrigins, s.opts.BaseURL, s.opts.AppURL)
	if len(origins) == 0 {
		return next
	}
	return cors.New(cors.Options{
		AllowedOrigins:       origins,
		AllowedMethods:       corsMethods,
		AllowedHeaders:       corsHeaders,
		ExposedHeaders:       corsExposed,
		MaxAge:               corsMaxAge,
		OptionsSuccessStatus: http.StatusNoContent,
	}).Handler(next)
}

// ParseOrigin returns the browser origin of s, an http(s) URL without
// path, query or user info ("https://App.example.com/" gives
// "https://app.example.com"), and whether s is one.
func ParseOrigin(s string) (string, bool) {
	u, err := url.Parse(strings.TrimRight(s, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		u.User != nil || u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return "", false
	}
	return strings.ToLower(u.Scheme + "://" + u.Host), true
}

// AllowedOrigins are the origins CORS lets call the API: origins
// (SERVICE_CORS_ORIGINS), plus the origin of appURL (the companion web
// app) when it differs from baseURL's. Entries that are not origins are
// left out.
func AllowedOrigins(origins []string, baseURL, appURL string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if o, ok := ParseOrigin(s); ok && !seen[o] {
			seen[o] = true
			out = append(out, o)
		}
	}
	for _, o := range origins {
		add(o)
	}
	app, errA := url.Parse(appURL)
	base, errB := url.Parse(baseURL)
	if appURL != "" && errA == nil && errB == nil && !strings.EqualFold(app.Scheme+"://"+app.Host, base.Scheme+"://"+base.Host) {
		add(app.Scheme + "://" + app.Host)
	}
	return out
}
