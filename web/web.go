package web

import (
	"bytes"
	"context"
	"embed"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"strings"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/search"
	"github.com/openjury/openjury/stake"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

var pages = template.Must(template.New("").Funcs(template.FuncMap{
	"pct":    pct,
	"badges": marketplace.Badges,
	"level":  marketplace.Level,
	"rfc3339": func(t interface{ Format(string) string }) string {
		return t.Format("2006-01-02T15:04:05Z07:00")
	},
}).ParseFS(templateFS, "templates/*.html"))

// Market is the part of marketplace.Service the pages read.
type Market interface {
	ListJobs(ctx context.Context, in marketplace.ListJobsInput) (marketplace.JobPage, error)
	Job(ctx context.Context, id string) (*marketplace.Job, error)
	Submissions(ctx context.Context, jobID string, in marketplace.ListInput) (marketplace.SubmissionPage, error)
	VotingSummary(ctx context.Context, jobID string) ([]marketplace.Tally, error)
	FinalSummary(ctx context.Context, jobID string) ([]marketplace.Tally, error)
	Comments(ctx context.Context, target marketplace.TargetType, targetID string, in marketplace.ListInput) (marketplace.CommentPage, error)
	Reputation(ctx context.Context, address string) (marketplace.Reputation, error)
	Leaderboard(ctx context.Context, in marketplace.LeaderboardInput) (marketplace.LeaderboardPage, error)
	Post(ctx context.Context, id string) (*marketplace.Post, error)
	ListPosts(ctx context.Context, in marketplace.ListPostsInput) (marketplace.PostPage, error)
}

// Services are the domain services the pages read.
type Services struct {
	Market Market
	Stake  *stake.Service
	AGR    *agr.Service
	// Search answers the job list's search box; nil when semantic search
	// is disabled (the box is then hidden).
	Search *search.Service
	// Logger receives recovered panics; nil means slog.Default().
	Logger *slog.Logger
}

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
	mux := http.NewServeMux()
	static, _ := fs.Sub(staticFS, "static")
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		data := map[string]any{"Tag": q.Get("tag"), "SearchOn": s.Search != nil}
		// Without semantic search, q is ignored and the plain list answers.
		if query := strings.TrimSpace(q.Get("q")); query != "" && s.Search != nil {
			data["Q"] = query
			res, err := s.Search.Search(r.Context(), query, search.KindJob, 20)
			if err != nil {
				failPage(w, err)
				return
			}
			data["Results"] = res.Results
			render(w, http.StatusOK, "jobs.html", data)
			return
		}
		page, err := s.Market.ListJobs(r.Context(), marketplace.ListJobsInput{Tag: q.Get("tag"), Cursor: q.Get("cursor")})
		if err != nil {
			failPage(w, err)
			return
		}
		data["Page"] = page
		render(w, http.StatusOK, "jobs.html", data)
	})
	mux.HandleFunc("GET /jobs/{id}", func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		j, err := s.Market.Job(ctx, r.PathValue("id"))
		if err != nil {
			failPage(w, err)
			return
		}
		q := r.URL.Query()
		subs, err := s.Market.Submissions(ctx, j.ID, marketplace.ListInput{Cursor: q.Get("cursor")})
		if err != nil {
			failPage(w, err)
			return
		}
		jury, err := s.Market.VotingSummary(ctx, j.ID)
		if err != nil {
			failPage(w, err)
			return
		}
		final, err := s.Market.FinalSummary(ctx, j.ID)
		if err != nil {
			failPage(w, err)
			return
		}
		comments, err := s.Market.Comments(ctx, marketplace.TargetJob, j.ID, marketplace.ListInput{Cursor: q.Get("comments")})
		if err != nil {
			failPage(w, err)
			return
		}
		render(w, http.StatusOK, "job.html", map[string]any{"Job": j, "Subs": subs, "Jury": jury, "Final": final, "Comments": comments})
	})
	mux.HandleFunc("GET /leaderboard", func(w http.ResponseWriter, r *http.Request) {
		page, err := s.Market.Leaderboard(r.Context(), marketplace.LeaderboardInput{Cursor: r.URL.Query().Get("cursor")})
		if err != nil {
			failPage(w, err)
			return
		}
		render(w, http.StatusOK, "leaderboard.html", map[string]any{"Page": page})
	})
	mux.HandleFunc("GET /agents/{address}", func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		addr, err := openjury.ParseAddress("address", r.PathValue("address"))
		if err != nil {
			render(w, http.StatusNotFound, "error.html", map[string]any{"Message": "No such address"})
			return
		}
		rep, err := s.Market.Reputation(ctx, addr.String())
		if err != nil {
			failPage(w, err)
			return
		}
		data := map[string]any{"Rep": rep}
		if s.Stake != nil {
			st, err := s.Stake.Status(ctx, addr.String())
			if err != nil {
				failPage(w, err)
				return
			}
			data["Stake"] = st
		}
		if s.AGR != nil {
			bal, err := s.AGR.Status(ctx, addr.String())
			if err != nil {
				failPage(w, err)
				return
			}
			ledger, err := s.AGR.Ledger(ctx, agr.LedgerInput{Address: addr.String(), Cursor: r.URL.Query().Get("cursor")})
			if err != nil {
				failPage(w, err)
				return
			}
			data["AGR"], data["Ledger"] = bal, ledger
		}
		render(w, http.StatusOK, "profile.html", data)
	})
	mux.HandleFunc("GET /posts", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		page, err := s.Market.ListPosts(r.Context(), marketplace.ListPostsInput{Tag: q.Get("tag"), Cursor: q.Get("cursor")})
		if err != nil {
			failPage(w, err)
			return
		}
		render(w, http.StatusOK, "posts.html", map[string]any{"Page": page, "Tag": q.Get("tag")})
	})
	mux.HandleFunc("GET /posts/{id}", func(w http.ResponseWriter, r *http.Request) {
		p, err := s.Market.Post(r.Context(), r.PathValue("id"))
		if err != nil {
			failPage(w, err)
			return
		}
		comments, err := s.Market.Comments(r.Context(), marketplace.TargetPost, p.ID, marketplace.ListInput{Cursor: r.URL.Query().Get("comments")})
		if err != nil {
			failPage(w, err)
			return
		}
		render(w, http.StatusOK, "post.html", map[string]any{"Post": p, "Comments": comments})
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		render(w, http.StatusNotFound, "error.html", map[string]any{"Message": "Page not found"})
	})
	logger := s.Logger
	if logger == nil {
		logger = slog.Default()
	}
	return secure(recoverPanics(logger, mux))
}

// csp allows scripts, styles and fetches from the app's own origin only.
const csp = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"

// secure sets the security headers on every answer.
func secure(next http.Handler) http.Handler {
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
				render(w, http.StatusInternalServerError, "error.html", map[string]any{"Message": "Something went wrong"})
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// failPage answers a domain error with the matching status and an HTML page
// (the message of client errors; a generic one for the rest).
func failPage(w http.ResponseWriter, err error) {
	switch openjury.KindOf(err) {
	case openjury.NotFound:
		render(w, http.StatusNotFound, "error.html", map[string]any{"Message": "Not found"})
	case openjury.Invalid:
		render(w, http.StatusBadRequest, "error.html", map[string]any{"Message": "Bad request"})
	default:
		render(w, http.StatusInternalServerError, "error.html", map[string]any{"Message": "Something went wrong"})
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
