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
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/search"
	"github.com/openjury/openjury/stake"
	"github.com/openjury/openjury/transport"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// formLimits are the input limits the pages' forms state (maxlength,
// max), from the marketplace's constants.
type formLimits struct {
	TitleChars, BoostAGR, BoostHours int
}

var pages = template.Must(template.New("").Funcs(template.FuncMap{
	"limits": func() formLimits {
		return formLimits{TitleChars: marketplace.MaxTitleChars, BoostAGR: marketplace.MaxBoostAGR, BoostHours: marketplace.MaxBoostHours}
	},
	"pct":    pct,
	"usdc":   func(micro uint64) string { return openjury.MicroUSDC(micro).String() },
	"badges": marketplace.Badges,
	"level":  marketplace.Level,
	"rfc3339": func(t interface{ Format(string) string }) string {
		return t.Format("2006-01-02T15:04:05Z07:00")
	},
}).ParseFS(templateFS, "templates/*.html"))

// Market is the part of marketplace.Service the web app uses: the reads
// of the pages and the writes of the signed-in actions.
type Market interface {
	ListJobs(ctx context.Context, in marketplace.ListJobsInput) (marketplace.JobPage, error)
	Job(ctx context.Context, id string) (*marketplace.Job, error)
	Submissions(ctx context.Context, jobID string, in marketplace.ListInput) (marketplace.SubmissionPage, error)
	VotingSummary(ctx context.Context, jobID string) ([]marketplace.Tally, error)
	FinalSummary(ctx context.Context, jobID string) ([]marketplace.Tally, error)
	Jury(ctx context.Context, jobID string) (*marketplace.Jury, error)
	Comments(ctx context.Context, target marketplace.TargetType, targetID string, in marketplace.ListInput) (marketplace.CommentPage, error)
	Reputation(ctx context.Context, address string) (marketplace.Reputation, error)
	Leaderboard(ctx context.Context, in marketplace.LeaderboardInput) (marketplace.LeaderboardPage, error)
	Post(ctx context.Context, id string) (*marketplace.Post, error)
	ListPosts(ctx context.Context, in marketplace.ListPostsInput) (marketplace.PostPage, error)

	CreateJob(ctx context.Context, sponsor openjury.Address, in marketplace.CreateJobInput) (*marketplace.Job, error)
	FinalVote(ctx context.Context, voter openjury.Address, in marketplace.FinalVoteInput) (*marketplace.FinalVote, error)
	Commit(ctx context.Context, voter openjury.Address, in marketplace.CommitInput) (*marketplace.Commitment, error)
	Reveal(ctx context.Context, voter openjury.Address, in marketplace.RevealInput) (*marketplace.Vote, error)
	AddComment(ctx context.Context, author openjury.Address, target marketplace.TargetType, targetID string, in marketplace.CommentInput) (*marketplace.Comment, error)
	Boost(ctx context.Context, caller openjury.Address, jobID string, in marketplace.BoostInput) (*marketplace.Job, error)
	CloseJob(ctx context.Context, caller openjury.Address, jobID string, in marketplace.CloseInput) (*marketplace.CloseResult, error)

	// EscrowOf and Payouts show a job's USDC escrow and its payouts.
	EscrowOf(j *marketplace.Job) *marketplace.JobEscrow
	Payouts(ctx context.Context, jobID string, in marketplace.PayoutsInput) (*marketplace.PayoutPage, error)
}

// Auth is the part of auth.Service the session cookie uses.
type Auth interface {
	Authenticate(ctx context.Context, token string) (openjury.Address, error)
	Logout(ctx context.Context, token string) error
}

// Services are the domain services the web app uses, and how it is served.
type Services struct {
	Market Market
	// Auth resolves the session cookie; nil means nobody can sign in
	// (the pages are read-only).
	Auth  Auth
	Stake *stake.Service
	AGR   *agr.Service
	// Search answers the job list's search box; nil when semantic search
	// is disabled (the box is then hidden).
	Search *search.Service
	// Logger receives recovered panics and internal errors; nil means
	// slog.Default().
	Logger *slog.Logger
	// Clock tells the pages which jury windows are open; nil means the
	// system clock.
	Clock openjury.Clock
	// SecureCookie marks the session cookie Secure (set it when the app's
	// public URL is https; a request over TLS gets it anyway).
	SecureCookie bool
	// APIURL is the base URL of the JSON API when it is on another origin
	// than the app (the pages' scripts then call it through CORS, and the
	// Content-Security-Policy allows it); "" means the app's own origin.
	APIURL string
}

// juryView is a job's jury on its page, with the time the page was made
// (which windows are open).
type juryView struct {
	*marketplace.Jury
	Now time.Time
}

// CommitOpen reports whether the commit window is open.
func (v juryView) CommitOpen() bool {
	j := v.Job
	return j.Status == marketplace.StatusOpen && j.JuryCommitEndsAt != nil && v.Now.Before(*j.JuryCommitEndsAt)
}

// RevealOpen reports whether the reveal window is open.
func (v juryView) RevealOpen() bool {
	j := v.Job
	return j.Status == marketplace.StatusOpen && j.JuryCommitEndsAt != nil && !v.Now.Before(*j.JuryCommitEndsAt) && v.Now.Before(*j.JuryRevealEndsAt)
}

// Hidden reports whether the tallies are hidden.
func (v juryView) Hidden() bool { return v.Job.TalliesHidden(v.Now) }

// bar is one row of a tally chart.
type bar struct {
	marketplace.Tally
	Percent int
}

// pct turns tallies into bars scaled to the total weight, in steps of 5
// (the stylesheet has a class per step: no inline style under the CSP).
func pct(ts []marketplace.Tally) []bar {
	var total int64
	for _, t := range ts {
		total += t.Weight
	}
	out := make([]bar, len(ts))
	for i, t := range ts {
		out[i] = bar{Tally: t}
		if total > 0 {
			out[i].Percent = int(t.Weight*20/total) * 5
		}
	}
	return out
}

// NewHandler returns the web app's handler: the job list at /, job pages
// at /jobs/{id}, the leaderboard, profiles at /agents/{address}, posts,
// and static assets under /static/; anything else is an HTML 404 page.
// Every answer carries security headers and a panic becomes a 500 page.
func NewHandler(s Services) http.Handler {
	logger := s.Logger
	if logger == nil {
		logger = slog.Default()
	}
	api := strings.TrimRight(s.APIURL, "/")
	if s.Clock == nil {
		s.Clock = openjury.SystemClock{}
	}
	a := &app{s: s, log: logger, api: api, csp: cspFor(api)}
	mux := http.NewServeMux()
	a.routeActions(mux)
	static, _ := fs.Sub(staticFS, "static")
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		data := map[string]any{"Tag": q.Get("tag"), "SearchOn": s.Search != nil}
		// Without semantic search, q is ignored and the plain list answers.
		if query := strings.TrimSpace(q.Get("q")); query != "" && s.Search != nil {
			data["Q"] = query
			res, err := s.Search.Search(r.Context(), search.Request{Q: query, Kind: search.KindJob, Limit: 20})
			if err != nil {
				a.failPage(w, r, err)
				return
			}
			data["Results"] = res.Results
			a.page(w, r, http.StatusOK, "jobs.html", "Jobs", data)
			return
		}
		page, err := s.Market.ListJobs(r.Context(), marketplace.ListJobsInput{Tag: q.Get("tag"), Cursor: q.Get("cursor")})
		if err != nil {
			a.failPage(w, r, err)
			return
		}
		data["Page"] = page
		a.page(w, r, http.StatusOK, "jobs.html", "Jobs", data)
	})
	mux.HandleFunc("GET /jobs/{id}", func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		j, err := s.Market.Job(ctx, r.PathValue("id"))
		if err != nil {
			a.failPage(w, r, err)
			return
		}
		q := r.URL.Query()
		subs, err := s.Market.Submissions(ctx, j.ID, marketplace.ListInput{Cursor: q.Get("cursor")})
		if err != nil {
			a.failPage(w, r, err)
			return
		}
		jury, err := s.Market.VotingSummary(ctx, j.ID)
		if err != nil {
			a.failPage(w, r, err)
			return
		}
		final, err := s.Market.FinalSummary(ctx, j.ID)
		if err != nil {
			a.failPage(w, r, err)
			return
		}
		comments, err := s.Market.Comments(ctx, marketplace.TargetJob, j.ID, marketplace.ListInput{Cursor: q.Get("comments")})
		if err != nil {
			a.failPage(w, r, err)
			return
		}
		payouts, err := s.Market.Payouts(ctx, j.ID, marketplace.PayoutsInput{Limit: marketplace.MaxListLimit})
		if err != nil {
			a.failPage(w, r, err)
			return
		}
		data := map[string]any{"Job": j, "Subs": subs, "Jury": jury, "Final": final, "Comments": comments,
			"Escrow": s.Market.EscrowOf(j), "Payouts": payouts}
		if j.HasJury() {
			panel, err := s.Market.Jury(ctx, j.ID)
			if err != nil {
				a.failPage(w, r, err)
				return
			}
			data["Panel"] = juryView{Jury: panel, Now: a.now()}
		}
		a.page(w, r, http.StatusOK, "job.html", j.Title, data)
	})
	mux.HandleFunc("GET /search", func(w http.ResponseWriter, r *http.Request) {
		if s.Search == nil {
			a.errorPage(w, r, http.StatusNotImplemented, "Search is disabled on this server.")
			return
		}
		q := r.URL.Query()
		typ := q.Get("type")
		if typ == "" {
			typ = search.TypeAll
		}
		data := map[string]any{"Q": strings.TrimSpace(q.Get("q")), "Type": typ, "MaxChars": search.MaxQueryChars,
			"Types": append([]string{search.TypeAll}, "job", "submission", "comment", "post")}
		if data["Q"] != "" {
			kind, err := search.ParseType(typ)
			if err != nil {
				a.failPage(w, r, err)
				return
			}
			res, err := s.Search.Search(r.Context(), search.Request{Q: q.Get("q"), Kind: kind, Limit: search.DefaultLimit, Cursor: q.Get("cursor")})
			if err != nil {
				a.failPage(w, r, err)
				return
			}
			data["Res"] = res
		}
		a.page(w, r, http.StatusOK, "search.html", "Search", data)
	})
	mux.HandleFunc("GET /leaderboard", func(w http.ResponseWriter, r *http.Request) {
		page, err := s.Market.Leaderboard(r.Context(), marketplace.LeaderboardInput{Cursor: r.URL.Query().Get("cursor")})
		if err != nil {
			a.failPage(w, r, err)
			return
		}
		a.page(w, r, http.StatusOK, "leaderboard.html", "Leaderboard", map[string]any{"Page": page})
	})
	mux.HandleFunc("GET /agents/{address}", func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		addr, err := openjury.ParseAddress("address", r.PathValue("address"))
		if err != nil {
			a.errorPage(w, r, http.StatusNotFound, "No such address")
			return
		}
		rep, err := s.Market.Reputation(ctx, addr.String())
		if err != nil {
			a.failPage(w, r, err)
			return
		}
		data := map[string]any{"Rep": rep}
		if s.Stake != nil {
			st, err := s.Stake.Status(ctx, addr.String())
			if err != nil {
				a.failPage(w, r, err)
				return
			}
			data["Stake"] = st
		}
		if s.AGR != nil {
			bal, err := s.AGR.Status(ctx, addr.String())
			if err != nil {
				a.failPage(w, r, err)
				return
			}
			ledger, err := s.AGR.Ledger(ctx, agr.LedgerInput{Address: addr.String(), Cursor: r.URL.Query().Get("cursor")})
			if err != nil {
				a.failPage(w, r, err)
				return
			}
			data["AGR"], data["Ledger"] = bal, ledger
		}
		a.page(w, r, http.StatusOK, "profile.html", addr.String(), data)
	})
	mux.HandleFunc("GET /posts", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		page, err := s.Market.ListPosts(r.Context(), marketplace.ListPostsInput{Tag: q.Get("tag"), Cursor: q.Get("cursor")})
		if err != nil {
			a.failPage(w, r, err)
			return
		}
		a.page(w, r, http.StatusOK, "posts.html", "Posts", map[string]any{"Page": page, "Tag": q.Get("tag")})
	})
	mux.HandleFunc("GET /posts/{id}", func(w http.ResponseWriter, r *http.Request) {
		p, err := s.Market.Post(r.Context(), r.PathValue("id"))
		if err != nil {
			a.failPage(w, r, err)
			return
		}
		comments, err := s.Market.Comments(r.Context(), marketplace.TargetPost, p.ID, marketplace.ListInput{Cursor: r.URL.Query().Get("comments")})
		if err != nil {
			a.failPage(w, r, err)
			return
		}
		a.page(w, r, http.StatusOK, "post.html", p.Title, map[string]any{"Post": p, "Comments": comments})
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		a.errorPage(w, r, http.StatusNotFound, "Page not found")
	})
	return secure(a.csp, recoverPanics(logger, a.refuseNUL(mux)))
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

// recoverPanics turns a panic into a logged 500 page (the pages render into
// a buffer first, so nothing has been written when a handler panics).
func recoverPanics(logger *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler { //nolint:errorlint // sentinel value compared as net/http does
					panic(v)
				}
				logger.Error("web: panic", "path", r.URL.Path, "panic", v)
				render(w, http.StatusInternalServerError, "error.html", map[string]any{"Title": "Something went wrong", "Message": "Something went wrong"})
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
	api string
	csp string
}

// now is the time of the pages.
func (a *app) now() time.Time { return openjury.Truncate(a.s.Clock.Now()) }

// page renders a page with the layout's data: its title, the signed-in
// viewer (nil when anonymous) and the API base URL. A signed-in page is
// never stored by caches: it carries the session's CSRF token.
func (a *app) page(w http.ResponseWriter, r *http.Request, status int, name, title string, data map[string]any) {
	me := a.viewerOf(r)
	if me != nil {
		w.Header().Set("Cache-Control", "private, no-store")
	}
	data["Title"], data["Me"], data["API"] = title, me, a.api
	render(w, status, name, data)
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
		if msg == "" {
			msg = http.StatusText(status)
		}
		a.errorPage(w, r, status, msg)
	}
}

// render executes a page into a buffer first, so a template error never
// sends half a page.
func render(w http.ResponseWriter, status int, name string, data any) {
	var buf bytes.Buffer
	if err := pages.ExecuteTemplate(&buf, name, data); err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}
