package transport

import (
	"net/http"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
)

func (s *server) voteRoutes() []route {
	return []route{
		{pattern: "POST /api/v1/votes", op: "createVote", service: "create_vote", auth: authBearer, count: countJuryVote, h: s.createVote},
		{pattern: "POST /api/v1/votes/reveal", op: "revealVote", service: "reveal_vote", auth: authBearer, count: countJuryVote, h: s.revealVote},
		{pattern: "GET /api/v1/jobs/{job_id}/votes", op: "getJobVotingSummary", service: "voting_summary", cached: true, h: s.votingSummary},
		{pattern: "POST /api/v1/final_votes", op: "createFinalVote", service: "create_final_vote", auth: authBearer, count: countFinalVote, h: s.createFinalVote},
		{pattern: "GET /api/v1/jobs/{job_id}/final_votes", op: "getJobFinalDecisionSummary", service: "final_vote_summary", cached: true, h: s.finalSummary},
	}
}

// createVoteRequest is CreateVoteRequest: submission_id for an open-mode
// job, commitment for a commit-reveal job.
type createVoteRequest struct {
	JobID        *string        `json:"job_id"`
	SubmissionID *string        `json:"submission_id"`
	Commitment   *string        `json:"commitment"`
	Review       map[string]any `json:"review"`
}

// voteJSON is the Vote resource; review is null when absent.
type voteJSON struct {
	ID           string         `json:"id"`
	JobID        string         `json:"job_id"`
	SubmissionID string         `json:"submission_id"`
	VoterAddress string         `json:"voter_address"`
	Weight       int64          `json:"weight"`
	CreatedAt    string         `json:"created_at"`
	Review       map[string]any `json:"review"`
}

// createVoteResponse is CreateVoteResponse.
type createVoteResponse struct {
	Vote voteJSON `json:"vote"`
}

// voteTallyJSON is VoteTally plus the additive earliest_vote_at, the time
// of the earliest current vote (the second sort key).
type voteTallyJSON struct {
	SubmissionID   string  `json:"submission_id"`
	WeightedVotes  int64   `json:"weighted_votes"`
	Voters         int64   `json:"voters"`
	EarliestVoteAt *string `json:"earliest_vote_at"`
}

// votingSummaryJSON is JobVotingSummary. A commit-reveal job's also
// carries commitments and tallies_hidden (tallies empty until its reveal
// window ends); an open-mode job's shape is the spec's.
type votingSummaryJSON struct {
	JobID         string          `json:"job_id"`
	Tallies       []voteTallyJSON `json:"tallies"`
	Commitments   *int64          `json:"commitments,omitempty"`
	TalliesHidden *bool           `json:"tallies_hidden,omitempty"`
}

func newVotingSummaryJSON(jobID string, tallies []marketplace.Tally) votingSummaryJSON {
	return votingSummaryJSON{JobID: jobID, Tallies: mapEach(tallies, func(t marketplace.Tally) voteTallyJSON {
		return voteTallyJSON{SubmissionID: t.SubmissionID, WeightedVotes: t.Weight, Voters: t.Voters, EarliestVoteAt: optTime(t.Earliest)}
	})}
}

// newJurySummaryJSON is the JobVotingSummary of a JurySummary.
func newJurySummaryJSON(jobID string, sum marketplace.JurySummary) votingSummaryJSON {
	out := newVotingSummaryJSON(jobID, sum.Tallies)
	if sum.Commitments >= 0 {
		n, hidden := sum.Commitments, sum.Hidden
		out.Commitments, out.TalliesHidden = &n, &hidden
	}
	return out
}

// commitmentJSON is the JuryCommitment resource: it never says which
// submission it is for.
type commitmentJSON struct {
	ID           string `json:"id"`
	JobID        string `json:"job_id"`
	VoterAddress string `json:"voter_address"`
	Commitment   string `json:"commitment"`
	CreatedAt    string `json:"created_at"`
}

// createCommitmentResponse is CreateCommitmentResponse.
type createCommitmentResponse struct {
	Commitment commitmentJSON `json:"commitment"`
}

// revealVoteRequest is RevealVoteRequest.
type revealVoteRequest struct {
	JobID        *string        `json:"job_id"`
	SubmissionID *string        `json:"submission_id"`
	Salt         *string        `json:"salt"`
	Review       map[string]any `json:"review"`
}

// newVoteJSON converts a jury vote.
func newVoteJSON(v *marketplace.Vote) voteJSON {
	return voteJSON{
		ID:           v.ID,
		JobID:        v.JobID,
		SubmissionID: v.SubmissionID,
		VoterAddress: v.Voter.String(),
		Weight:       v.Weight,
		CreatedAt:    openjury.FormatTime(v.CreatedAt),
		Review:       v.Review,
	}
}

// createFinalVoteRequest is CreateFinalVoteRequest.
type createFinalVoteRequest struct {
	JobID        *string `json:"job_id"`
	SubmissionID *string `json:"submission_id"`
}

// finalVoteJSON is the FinalVote resource.
type finalVoteJSON struct {
	ID           string `json:"id"`
	JobID        string `json:"job_id"`
	SubmissionID string `json:"submission_id"`
	VoterAddress string `json:"voter_address"`
	CreatedAt    string `json:"created_at"`
}

// createFinalVoteResponse is CreateFinalVoteResponse.
type createFinalVoteResponse struct {
	Vote finalVoteJSON `json:"vote"`
}

// finalVoteTallyJSON is FinalVoteTally plus the additive earliest_vote_at.
type finalVoteTallyJSON struct {
	SubmissionID   string  `json:"submission_id"`
	Votes          int64   `json:"votes"`
	Voters         int64   `json:"voters"`
	EarliestVoteAt *string `json:"earliest_vote_at"`
}

// finalSummaryJSON is JobFinalDecisionSummary.
type finalSummaryJSON struct {
	JobID   string               `json:"job_id"`
	Tallies []finalVoteTallyJSON `json:"tallies"`
}

func newFinalSummaryJSON(jobID string, tallies []marketplace.Tally) finalSummaryJSON {
	return finalSummaryJSON{JobID: jobID, Tallies: mapEach(tallies, func(t marketplace.Tally) finalVoteTallyJSON {
		return finalVoteTallyJSON{SubmissionID: t.SubmissionID, Votes: t.Weight, Voters: t.Voters, EarliestVoteAt: optTime(t.Earliest)}
	})}
}

func (s *server) createVote(w http.ResponseWriter, r *http.Request) error {
	var req createVoteRequest
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	if req.JobID == nil {
		return required("job_id")
	}
	if req.Commitment != nil {
		c, err := s.svc.Market.Commit(r.Context(), callerFrom(r.Context()).addr, marketplace.CommitInput{
			JobID:      *req.JobID,
			Commitment: *req.Commitment,
		})
		if err != nil {
			return err
		}
		return respond(w, createCommitmentResponse{Commitment: commitmentJSON{
			ID: c.ID, JobID: c.JobID, VoterAddress: c.Voter.String(), Commitment: c.Commitment.String(), CreatedAt: openjury.FormatTime(c.CreatedAt),
		}})
	}
	if req.SubmissionID == nil {
		return required("submission_id")
	}
	v, err := s.svc.Market.Vote(r.Context(), callerFrom(r.Context()).addr, marketplace.VoteInput{
		JobID:        *req.JobID,
		SubmissionID: *req.SubmissionID,
		Review:       req.Review,
	})
	if err != nil {
		return err
	}
	return respond(w, createVoteResponse{Vote: newVoteJSON(v)})
}

func (s *server) revealVote(w http.ResponseWriter, r *http.Request) error {
	var req revealVoteRequest
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	switch {
	case req.JobID == nil:
		return required("job_id")
	case req.SubmissionID == nil:
		return required("submission_id")
	case req.Salt == nil:
		return required("salt")
	}
	v, err := s.svc.Market.Reveal(r.Context(), callerFrom(r.Context()).addr, marketplace.RevealInput{
		JobID: *req.JobID, SubmissionID: *req.SubmissionID, Salt: *req.Salt, Review: req.Review,
	})
	if err != nil {
		return err
	}
	return respond(w, createVoteResponse{Vote: newVoteJSON(v)})
}

func (s *server) votingSummary(w http.ResponseWriter, r *http.Request) error {
	jobID := r.PathValue("job_id")
	sum, err := s.svc.Market.JurySummary(r.Context(), jobID)
	if err != nil {
		return err
	}
	return respond(w, newJurySummaryJSON(jobID, sum))
}

func (s *server) createFinalVote(w http.ResponseWriter, r *http.Request) error {
	var req createFinalVoteRequest
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	switch {
	case req.JobID == nil:
		return required("job_id")
	case req.SubmissionID == nil:
		return required("submission_id")
	}
	v, err := s.svc.Market.FinalVote(r.Context(), callerFrom(r.Context()).addr, marketplace.FinalVoteInput{
		JobID:        *req.JobID,
		SubmissionID: *req.SubmissionID,
	})
	if err != nil {
		return err
	}
	return respond(w, createFinalVoteResponse{Vote: finalVoteJSON{
		ID:           v.ID,
		JobID:        v.JobID,
		SubmissionID: v.SubmissionID,
		VoterAddress: v.Voter.String(),
		CreatedAt:    openjury.FormatTime(v.CreatedAt),
	}})
}

func (s *server) finalSummary(w http.ResponseWriter, r *http.Request) error {
	jobID := r.PathValue("job_id")
	tallies, err := s.svc.Market.FinalSummary(r.Context(), jobID)
	if err != nil {
		return err
	}
	return respond(w, newFinalSummaryJSON(jobID, tallies))
}
