package web

import (
	"bytes"
	"context"
	"embed"
	"html/template"
	"net/http"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
)

//go:embed templates/*.html
var templateFS embed.FS

var pages = template.Must(template.ParseFS(templateFS, "templates/*.html"))

// Market is the part of marketplace.Service the pages read.
type Market interface {
	ListJobs(ctx context.Context, in marketplace.ListJobsInput) (marketplace.JobPage, error)
	Job(ctx context.Context, id string) (*marketplace.Job, error)
	Submissions(ctx context.Context, jobID string, in marketplace.ListInput) (marketplace.SubmissionPage, error)
}

// Services are the domain services the pages read.
type Services struct {
	Market Market
}

// NewHandler returns the web app's handler: the job list at / and a job
// page at /jobs/{id}; anything else is an HTML 404 page.
func NewHandler(s Services) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		page, err := s.Market.ListJobs(r.Context(), marketplace.ListJobsInput{Tag: q.Get("tag"), Cursor: q.Get("cursor")})
		if err != nil {
			failPage(w, err)
			return
		}
		render(w, http.StatusOK, "jobs.html", map[string]any{"Page": page, "Tag": q.Get("tag")})
	})
	mux.HandleFunc("GET /jobs/{id}", func(w http.ResponseWriter, r *http.Request) {
		j, err := s.Market.Job(r.Context(), r.PathValue("id"))
		if err != nil {
			failPage(w, err)
			return
		}
		subs, err := s.Market.Submissions(r.Context(), j.ID, marketplace.ListInput{Cursor: r.URL.Query().Get("cursor")})
		if err != nil {
			failPage(w, err)
			return
		}
		render(w, http.StatusOK, "job.html", map[string]any{"Job": j, "Subs": subs})
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		render(w, http.StatusNotFound, "error.html", map[string]any{"Message": "Page not found"})
	})
	return mux
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
