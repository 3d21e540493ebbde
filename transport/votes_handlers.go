package transport

import (
	"net/http"

	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/wire"
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

func newVotingSummaryJSON(jobID string, tallies []marketplace.Tally) wire.JobVotingSummary {
	return wire.JobVotingSummary{JobID: jobID, Tallies: mapEach(tallies, func(t marketplace.Tally) wire.VoteTally {
		return wire.VoteTally{SubmissionID: t.SubmissionID, WeightedVotes: t.Weight, Voters: t.Voters, EarliestVoteAt: optTime(t.Earliest)}
	})}
}

// newJurySummaryJSON is the answer for a JurySummary: a
// JobVotingSummary for an open-mode job, a CommitRevealVotingSummary
// (tallies empty until its reveal window ends) for a commit-reveal one.
func newJurySummaryJSON(jobID string, sum marketplace.JurySummary) any {
	out := newVotingSummaryJSON(jobID, sum.Tallies)
	if sum.Commitments < 0 {
		return &out
	}
	return &wire.CommitRevealVotingSummary{JobID: out.JobID, Tallies: out.Tallies, Commitments: sum.Commitments, TalliesHidden: sum.Hidden}
}

// newVoteJSON converts a jury vote.
func newVoteJSON(v *marketplace.Vote) wire.Vote {
	return wire.Vote{
		ID:           v.ID,
		JobID:        v.JobID,
		SubmissionID: v.SubmissionID,
		VoterAddress: v.Voter.String(),
		Weight:       v.Weight,
		CreatedAt:    wire.NewTime(v.CreatedAt),
		Review:       v.Review,
	}
}

func newFinalSummaryJSON(jobID string, tallies []marketplace.Tally) wire.JobFinalDecisionSummary {
	return wire.JobFinalDecisionSummary{JobID: jobID, Tallies: mapEach(tallies, func(t marketplace.Tally) wire.FinalVoteTally {
		return wire.FinalVoteTally{SubmissionID: t.SubmissionID, Votes: t.Weight, Voters: t.Voters, EarliestVoteAt: optTime(t.Earliest)}
	})}
}

func (s *server) createVote(w http.ResponseWriter, r *http.Request) error {
	var req wire.CreateVoteRequest
	m, err := decodeRequest(r, &req)
	if err != nil {
		return err
	}
	if err := m.require("job_id"); err != nil {
		return err
	}
	if m.has("commitment") {
		c, err := s.svc.Market.Commit(r.Context(), callerFrom(r.Context()).addr, marketplace.CommitInput{
			JobID:      req.JobID,
			Commitment: req.Commitment,
		})
		if err != nil {
			return err
		}
		return respond(w, wire.CreateCommitmentResponse{Commitment: wire.JuryCommitment{
			ID: c.ID, JobID: c.JobID, VoterAddress: c.Voter.String(), Commitment: c.Commitment.String(), CreatedAt: wire.NewTime(c.CreatedAt),
		}})
	}
	if err := m.require("submission_id"); err != nil {
		return err
	}
	v, err := s.svc.Market.Vote(r.Context(), callerFrom(r.Context()).addr, marketplace.VoteInput{
		JobID:        req.JobID,
		SubmissionID: req.SubmissionID,
		Review:       req.Review,
	})
	if err != nil {
		return err
	}
	return respond(w, wire.CreateVoteResponse{Vote: newVoteJSON(v)})
}

func (s *server) revealVote(w http.ResponseWriter, r *http.Request) error {
	var req wire.RevealVoteRequest
	m, err := decodeRequest(r, &req)
	if err != nil {
		return err
	}
	if err := m.require("job_id", "submission_id", "salt"); err != nil {
		return err
	}
	v, err := s.svc.Market.Reveal(r.Context(), callerFrom(r.Context()).addr, marketplace.RevealInput{
		JobID: req.JobID, SubmissionID: req.SubmissionID, Salt: req.Salt, Review: req.Review,
	})
	if err != nil {
		return err
	}
	return respond(w, wire.CreateVoteResponse{Vote: newVoteJSON(v)})
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
	var req wire.CreateFinalVoteRequest
	m, err := decodeRequest(r, &req)
	if err != nil {
		return err
	}
	if err := m.require("job_id", "submission_id"); err != nil {
		return err
	}
	v, err := s.svc.Market.FinalVote(r.Context(), callerFrom(r.Context()).addr, marketplace.FinalVoteInput{
		JobID:        req.JobID,
		SubmissionID: req.SubmissionID,
	})
	if err != nil {
		return err
	}
	return respond(w, wire.CreateFinalVoteResponse{Vote: wire.FinalVote{
		ID:           v.ID,
		JobID:        v.JobID,
		SubmissionID: v.SubmissionID,
		VoterAddress: v.Voter.String(),
		CreatedAt:    wire.NewTime(v.CreatedAt),
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
