package transport

import (
	"net/http"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/wire"
)

func (s *server) jobRoutes() []route {
	return []route{
		{pattern: "GET /api/v1/jobs", op: "listJobs", service: "list_jobs", cached: true, h: s.listJobs},
		{pattern: "POST /api/v1/jobs", op: "createJob", service: "create_job", auth: authBearer, h: s.createJob},
		{pattern: "GET /api/v1/jobs/{job_id}", op: "getJob", service: "get_job", cached: true, h: s.getJob},
	}
}

func (s *server) createJob(w http.ResponseWriter, r *http.Request) error {
	var req wire.CreateJobRequest
	m, err := decodeRequest(r, &req)
	if err != nil {
		return err
	}
	if err := m.require("title", "prompt", "bounty_usdc"); err != nil {
		return err
	}
	bounty, err := openjury.ParseUSDC("bounty_usdc", string(req.BountyUSDC))
	if err != nil {
		return err
	}
	job, err := s.svc.Market.CreateJob(r.Context(), callerFrom(r.Context()).addr, marketplace.CreateJobInput{
		Title:                  req.Title,
		Prompt:                 req.Prompt,
		Bounty:                 bounty,
		Tags:                   req.Tags,
		FinalVoteWindowSeconds: req.FinalVoteWindowSeconds,
		JuryMode:               req.JuryMode,
		JurySize:               req.JurySize,
		JuryCommitSeconds:      req.JuryCommitSeconds,
		JuryRevealSeconds:      req.JuryRevealSeconds,
	})
	if err != nil {
		return err
	}
	return respond(w, s.jobJSON(job))
}

func (s *server) getJob(w http.ResponseWriter, r *http.Request) error {
	job, err := s.svc.Market.Job(r.Context(), r.PathValue("job_id"))
	if err != nil {
		return err
	}
	return respond(w, s.jobJSON(job))
}

func (s *server) listJobs(w http.ResponseWriter, r *http.Request) error {
	page, err := s.queryJobs(r, marketplace.DefaultListLimit, marketplace.MaxListLimit)
	if err != nil {
		return err
	}
	return respond(w, wire.ListJobsResponse{Jobs: mapEach(page.Jobs, s.jobJSON), NextCursor: optString(page.NextCursor)})
}

// queryJobs lists the jobs a request's status, tag, funded, limit
// (default def, 1..maxLimit) and cursor query parameters select.
func (s *server) queryJobs(r *http.Request, def, maxLimit int) (marketplace.JobPage, error) {
	limit, err := queryInt(r, "limit", def, 1, maxLimit)
	if err != nil {
		return marketplace.JobPage{}, err
	}
	funded, err := queryBool(r, "funded")
	if err != nil {
		return marketplace.JobPage{}, err
	}
	q := r.URL.Query()
	return s.svc.Market.ListJobs(r.Context(), marketplace.ListJobsInput{
		Status: q.Get("status"),
		Tag:    q.Get("tag"),
		Funded: funded,
		Limit:  limit,
		Cursor: q.Get("cursor"),
	})
}
