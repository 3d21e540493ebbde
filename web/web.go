package web

import (
	"bytes"
	"context"
	"embed"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/auth"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/search"
	"github.com/openjury/openjury/stake"
	"github.com/openjury/openjury/transport"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// pages are the templates, parsed once; NewHandler clones them to bind
// their clock.
var pages = template.Must(template.New("").Funcs(funcs()).ParseFS(templateFS, "templates/*.html"))

// Market is the part of marketplace.Service the web app uses: the reads
// of the pages and the writes of the signed-in actions.
type Market interface {
	Config() marketplace.Config
	IsOperator(addr openjury.Address) bool
	ListJobs(ctx context.Context, in marketplace.ListJobsInput) (marketplace.JobPage, error)
	SubmissionCounts(ctx context.Context, jobIDs []string) (map[string]int, error)
	Job(ctx context.Context, id string) (*marketplace.Job, error)
	JobView(ctx context.Context, id string, in marketplace.JobViewInput) (*marketplace.JobView, error)
	Jury(ctx context.Context, jobID string) (*marketplace.Jury, error)
	Submission(ctx context.Context, id string) (*marketplace.Submission, error)
	Comments(ctx context.Context, target marketplace.TargetType, targetID string, in marketplace.ListInput) (marketplace.CommentPage, error)
	Leaderboard(ctx context.Context, in marketplace.LeaderboardInput) (marketplace.LeaderboardPage, error)
	Post(ctx context.Context, id string) (*marketplace.Post, error)
	ListPosts(ctx context.Context, in marketplace.ListPostsInput) (marketplace.PostPage, error)
	Profile(ctx context.Context, address string, in marketplace.ProfileInput) (*marketplace.Profile, error)

	CreateJob(ctx context.Context, sponsor openjury.Address, in marketplace.CreateJobInput) (*marketplace.Job, error)
	Submit(ctx context.Context, agent openjury.Address, in marketplace.SubmitInput) (*marketplace.Submission, error)
	Vote(ctx context.Context, voter openjury.Address, in marketplace.VoteInput) (*marketplace.Vote, error)
	Commit(ctx context.Context, voter openjury.Address, in marketplace.CommitInput) (*marketplace.Commitment, error)
	Reveal(ctx context.Context, voter openjury.Address, in marketplace.RevealInput) (*marketplace.Vote, error)
	FinalVote(ctx context.Context, voter openjury.Address, in marketplace.FinalVoteInput) (*marketplace.FinalVote, error)
	CloseJob(ctx context.Context, caller openjury.Address, jobID string, in marketplace.CloseInput) (*marketplace.CloseResult, error)
	FinalizeJob(ctx context.Context, caller openjury.Address, jobID string) (*marketplace.CloseResult, error)
	Boost(ctx context.Context, caller openjury.Address, jobID string, in marketplace.BoostInput) (*marketplace.Job, error)
	AddComment(ctx context.Context, author openjury.Address, target marketplace.TargetType, targetID string, in marketplace.CommentInput) (*marketplace.Comment, error)
	DeleteComment(ctx context.Context, caller openjury.Address, id string) (*marketplace.Comment, error)
	CreatePost(ctx context.Context, author openjury.Address, in marketplace.PostInput) (*marketplace.Post, error)

	// EscrowOf and Payouts show a job's USDC escrow and its payouts.
	EscrowOf(j *marketplace.Job) *marketplace.JobEscrow
	Payouts(ctx context.Context, jobID string, in marketplace.PayoutsInput) (*marketplace.PayoutPage, error)
}

// Auth is the part of auth.Service the app's sign-in and session cookie
// use.
type Auth interface {
	Challenge(ctx context.Context, address string) (auth.Challenge, error)
	Verify(ctx context.Context, in auth.VerifyInput) (string, error)
	Authenticate(ctx context.Context, token string) (openjury.Address, error)
	Logout(ctx context.Context, token string) error
}

// Services are the domain services the web app uses, and how it is served.
type Services struct {
	Market Market
	// Auth signs people in and resolves the session cookie; nil means
	// nobody can sign in (the pages are read-only).
	Auth Auth
	// Stake and AGR, when set, turn on a profile's stake and AGR parts
	// (read with the profile through Market, in one statement, from the
	// store the services share with it); AGR also gives a refused boost
	// the balance it names.
	Stake *stake.Service
	AGR   *agr.Service
	// Search answers the job list's search box; nil when semantic search
	// is disabled (the box is then hidden).
	Search *search.Service
	// Clock tells the pages' relative times ("5 minutes ago"); nil means
	// openjury.SystemClock.
	Clock openjury.Clock
	// Logger receives recovered panics and internal errors; nil means
	// slog.Default().
	Logger *slog.Logger
	// SecureCookie marks the session cookie Secure (set it when the app's
	// public URL is https; a request over TLS gets it anyway).
	SecureCookie bool
	// APIURL is the base URL of the JSON API when it is on another origin
	// than the app (the pages' scripts then call it through CORS, and the
	// Content-Security-Policy allows it); "" means the app's own origin.
	APIURL string
}

// NewHandler returns the web app's handler: the pages (the job list at
// /, jobs, submissions, posts, profiles, the leaderboard, sign-in), the
// signed-in actions under /app/ and the static assets under /static/;
// anything else is an HTML 404 page. Every answer carries security
// headers and a panic becomes a 500 page.
func NewHandler(s Services) http.Handler {
	logger := s.Logger
	if logger == nil {
		logger = slog.Default()
	}
	clock := s.Clock
	if clock == nil {
		clock = openjury.SystemClock{}
	}
	api := strings.TrimRight(s.APIURL, "/")
	a := &app{s: s, log: logger, api: api, csp: cspFor(api), clock: clock}
	if s.Market != nil {
		cfg := s.Market.Config()
		a.explain = explainer{minStake: cfg.MinStake, minRep: cfg.MinRepScoreToVote}
	}
	a.tmpl = template.Must(pages.Clone()).Funcs(template.FuncMap{
		"ago":   func(t time.Time) string { return relTime(clock.Now(), t) },
		"when":  func(t time.Time) template.HTML { return whenHTML(clock.Now(), t) },
		"phase": func(j *marketplace.Job) string { return window(j, clock.Now()) },
		"featured": func(j *marketplace.Job) bool {
			return j.FeaturedUntil != nil && j.FeaturedUntil.After(clock.Now())
		},
		"jobBadges": func(j *marketplace.Job) template.HTML {
			var w htmlw
			w.jobBadges(j, clock.Now())
			return w.html()
		},
	})
	mux := http.NewServeMux()
	a.routeActions(mux)
	a.routeSignIn(mux)
	a.routePages(mux)
	static, _ := fs.Sub(staticFS, "static")
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		a.errorPage(w, r, http.StatusNotFound, "Page not found")
	})
	return secure(a.csp, a.recoverPanics(a.refuseNUL(mux)))
}

// refuseNUL answers a 400 page to a request whose path or query holds a
// NUL character (docs/rules.md#conventions: NUL anywhere in input is 400,
// whatever the entry point); forms are checked by action, every text field again
// by the domain's validation.
func (a *app) refuseNUL(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.ContainsRune(r.URL.Path, 0) || strings.Contains(r.URL.RawQuery, "%00") || strings.ContainsRune(r.URL.RawQuery, 0) {
			a.errorPage(w, r, http.StatusBadRequest, nulMessage)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// nulMessage is the page's message for input holding a NUL character.
const nulMessage = "The request holds a NUL character, which no field may contain."

// cspFor allows scripts, styles and fetches from the app's own origin
// only, plus fetches from the API's origin when api is another one.
func cspFor(api string) string {
	connect := "'self'"
	if o, ok := transport.ParseOrigin(originOf(api)); ok {
		connect += " " + o
	}
	return "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src " + connect +
		"; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
}

// originOf is the scheme://host of an absolute URL, or "".
func originOf(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.Host == "" {
		return ""
	}
	return p.Scheme + "://" + p.Host
}

// secure sets the security headers on every answer.
func secure(csp string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Frame-Options", "DENY")
		next.ServeHTTP(w, r)
	})
}

// recoverPanics turns a panic into a logged 500 page (the pages render
// into a buffer first, so nothing has been written when a handler panics).
func (a *app) recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler { //nolint:errorlint // sentinel value compared as net/http does
					panic(v)
				}
				a.log.Error("web: panic", "path", r.URL.Path, "panic", v)
				a.render(w, http.StatusInternalServerError, "error.html", map[string]any{"Title": "Something went wrong", "Message": "Something went wrong"})
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// app is the web app's handler state.
type app struct {
	s   Services
	log *slog.Logger
	// api is Services.APIURL without a trailing slash.
	api     string
	csp     string
	clock   openjury.Clock
	tmpl    *template.Template
	explain explainer
}

// page renders a page with the layout's data: its title, the signed-in
// viewer (nil when anonymous), the API base URL, the note of a finished
// action (the ok parameter) and the form state (nil when fresh). A
// signed-in page is never stored by caches: it carries the session's CSRF
// token.
func (a *app) page(w http.ResponseWriter, r *http.Request, status int, name, title string, data map[string]any) {
	me, _ := data["Me"].(*viewer)
	if _, set := data["Me"]; !set {
		me = a.viewerOf(r)
	}
	if me != nil {
		w.Header().Set("Cache-Control", "private, no-store")
	}
	data["Title"], data["Me"], data["API"], data["SearchOn"] = title, me, a.api, a.s.Search != nil
	if _, set := data["F"]; !set {
		data["F"] = (*formState)(nil)
	}
	if r.Method == http.MethodGet {
		data["OK"] = okNote(r.URL.Query().Get("ok"))
	}
	data["Path"] = r.URL.RequestURI()
	a.render(w, status, name, data)
}

// errorPage answers status with an HTML page saying msg.
func (a *app) errorPage(w http.ResponseWriter, r *http.Request, status int, msg string) {
	a.page(w, r, status, "error.html", msg, map[string]any{"Message": msg})
}

// failPage answers a domain error with the status of its kind and an HTML
// page: the client-safe detail for client errors, a generic message (and a
// log line) for the rest.
func (a *app) failPage(w http.ResponseWriter, r *http.Request, err error) {
	kind := openjury.KindOf(err)
	status := transport.StatusOf(kind)
	switch {
	case kind == openjury.Unavailable:
		a.log.Warn("web: dependency unavailable", "method", r.Method, "path", r.URL.Path, "error", err.Error())
		a.errorPage(w, r, status, "The service is temporarily unavailable; try again shortly.")
	case status >= http.StatusInternalServerError:
		a.log.Error("web: internal error", "method", r.Method, "path", r.URL.Path, "error", err.Error())
		a.errorPage(w, r, http.StatusInternalServerError, "Something went wrong")
	default:
		if kind == openjury.RateLimited {
			w.Header().Set("Retry-After", transport.RetryAfter(err))
		}
		msg := openjury.DetailOf(err)
		if human, ok := a.explain.fixed(msg); ok {
			msg = human
		} else if msg == "" {
			msg = http.StatusText(status)
		} else {
			msg = sentence(msg)
		}
		a.errorPage(w, r, status, msg)
	}
}

// buffers are the pages' render buffers, reused: a page is tens of
// kilobytes, which a fresh buffer would grow to by repeated copies.
var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledBuffer is the largest buffer put back in the pool (a rare huge
// page's buffer is left to the collector).
const maxPooledBuffer = 1 << 20

// render executes a page into a buffer first, so a template error never
// sends half a page.
func (a *app) render(w http.ResponseWriter, status int, name string, data any) {
	buf := buffers.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() <= maxPooledBuffer {
			buffers.Put(buf)
		}
	}()
	if err := a.tmpl.ExecuteTemplate(buf, name, data); err != nil {
		a.log.Error("web: template", "template", name, "error", err.Error())
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}
