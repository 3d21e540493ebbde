package marketplace

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/internal/valid"
)

// Limits on jury votes (docs/rules.md#jury-votes).
const (
	// MaxReviewBytes bounds a jury vote's review, serialised.
	MaxReviewBytes = 8 << 10
	// MaxVoteWeight is the largest weight of a jury vote.
	MaxVoteWeight = 5
)

// Vote is a jury vote: one per (job, voter), replaced by a newer one.
type Vote struct {
	ID           string
	JobID        string
	SubmissionID string
	Voter        openjury.Address
	Weight       int64
	// Review is the free-form checklist and note; nil when absent.
	Review    map[string]any
	CreatedAt time.Time
}

// Tally sums the current votes of one submission. For jury votes Weight is
// the sum of weights; for final votes it equals Voters. Earliest is the
// time of the earliest current vote for it.
type Tally struct {
	SubmissionID string
	Weight       int64
	Voters       int64
	Earliest     time.Time
}

// VoteState is a job locked for a jury vote and the submission voted for,
// as VoteStore.CastVote reads them in one statement.
type VoteState struct {
	// Job is the locked job.
	Job *Job
	// SubmissionJobID and SubmissionAgent are the job and the agent of the
	// submission voted for; SubmissionJobID is "" when no submission has
	// the id.
	SubmissionJobID string
	SubmissionAgent openjury.Address
	// Drawn is whether the voter is on the job's drawn panel (read only
	// for a job with a panel).
	Drawn bool
}

// VoteGuard is the rule a jury vote must pass once its job is locked
// (VoteStore.CastVote), and what a voter's first vote on a job adds to the
// voter's reputation. The checks of the voter alone (stake, reputation)
// come before it.
type VoteGuard struct {
	// FirstReputation is added to the voter's reputation with its first
	// vote on a job.
	FirstReputation ReputationDelta
	// Now is the time of the vote: a closing lease live at Now refuses
	// it.
	Now time.Time
	// Event, when not nil, is appended to the event outbox with the vote,
	// the voted submission's agent added to its Subjects by the store
	// (which reads it with the guard's state).
	Event *events.Event
}

// Check returns why st refuses a jury vote of voter, checked in this
// order: Conflict "job is closed", Conflict "job is being closed" (a
// closing lease live at g.Now), Invalid on a commit-reveal job (its votes
// are commitments), NotFound "submission not found", Invalid when the
// submission is another job's, Forbidden for the submission's agent and
// for the job's sponsor, Forbidden "not drawn" on a job with a panel the
// voter is not on. It returns nil when the vote is accepted. A store that
// checks the rule in SQL must accept exactly what Check accepts. Of the
// job Check reads only ID, Status, ClosingUntil, JuryMode, Sponsor and
// JurySize, and a store may read only those (bunstore's PostgreSQL
// CastVote does).
func (g VoteGuard) Check(st *VoteState, voter openjury.Address) error {
	const op = "marketplace.Vote"
	switch {
	case st.Job.Status != StatusOpen:
		return openjury.E(openjury.Conflict, op, "job is closed")
	case st.Job.BeingClosed(g.Now):
		return openjury.E(openjury.Conflict, op, DetailBeingClosed)
	case st.Job.JuryMode == JuryCommitReveal:
		return openjury.E(openjury.Invalid, op, DetailCommitRequired)
	case st.SubmissionJobID == "":
		return openjury.E(openjury.NotFound, op, "submission not found")
	case st.SubmissionJobID != st.Job.ID:
		return openjury.E(openjury.Invalid, op, "submission_id: not a submission of this job")
	case st.SubmissionAgent == voter:
		return openjury.E(openjury.Forbidden, op, "you may not vote for your own submission")
	case st.Job.Sponsor == voter:
		return openjury.E(openjury.Forbidden, op, "the sponsor may not vote on their own job")
	case st.Job.JurySize > 0 && !st.Drawn:
		return openjury.E(openjury.Forbidden, op, DetailNotDrawn)
	}
	return nil
}

// DetailCommitRequired is the detail of the Invalid of an open jury vote
// on a commit-reveal job.
const DetailCommitRequired = "commitment: is required: this job's jury votes are commit-reveal (commit, then reveal)"

// VoteStore keeps jury votes.
type VoteStore interface {
	// Vote returns the current jury vote of voter on a job. Errors: NotFound.
	Vote(ctx context.Context, jobID string, voter openjury.Address) (*Vote, error)
	// PutVote inserts v, or replaces the voter's vote on the job: the
	// stored row keeps its id and takes v's submission, weight, review and
	// created_at. It sets v.ID to the stored id.
	PutVote(ctx context.Context, v *Vote) error
	// CastVote casts a jury vote if g accepts it, atomically: it locks the
	// job v.JobID and reads the submission v.SubmissionID (a VoteState)
	// and, when g.Check(state, v.Voter) passes, writes v as PutVote does
	// (v.ID set to the stored id) and, when the voter had no vote on the
	// job, adds g.FirstReputation to the voter's reputation at
	// v.CreatedAt, and appends g.Event (see VoteGuard.Event). Errors:
	// NotFound "job not found", the error of g.Check; nothing is written
	// with either.
	CastVote(ctx context.Context, v *Vote, g VoteGuard) error
	// Tally sums the current jury votes of a job per submission, only
	// submissions with votes, ordered by weight desc, earliest current vote,
	// then submission id.
	Tally(ctx context.Context, jobID string) ([]Tally, error)
}

// Weight is a juror's vote weight at a reputation score:
// min(5, 1 + floor(sqrt(score))).
func Weight(score int64) int64 {
	if score <= 0 {
		return 1
	}
	r := int64(math.Sqrt(float64(score)))
	for r*r > score {
		r--
	}
	for (r+1)*(r+1) <= score {
		r++
	}
	return min(MaxVoteWeight, 1+r)
}

// VoteInput is a jury vote.
type VoteInput struct {
	JobID        string         `name:"job_id" validate:"required"`
	SubmissionID string         `name:"submission_id" validate:"required"`
	Review       map[string]any `name:"review"`
}

// Vote casts or replaces the caller's jury vote on a job. The weight comes
// from the caller's reputation at vote time.
// Errors: Invalid, Forbidden (stake, reputation, own submission, own job),
// NotFound, Conflict (closed job, job being closed).
func (s *Service) Vote(ctx context.Context, voter openjury.Address, in VoteInput) (*Vote, error) {
	const op = "marketplace.Vote"
	if err := valid.Struct(op, in); err != nil {
		return nil, err
	}
	if in.Review != nil {
		raw, err := json.Marshal(in.Review)
		if err != nil || len(raw) > MaxReviewBytes {
			return nil, openjury.Errorf(openjury.Invalid, op, "review: must be a JSON object of at most %d KiB", MaxReviewBytes>>10)
		}
	}
	now := openjury.Truncate(s.clock.Now())
	// The voter's own checks read outside the job's lock (neither row is
	// locked by a vote); then one atomic store call checks the guard with
	// the job locked and writes the vote and a first vote's reputation (on
	// PostgreSQL one statement).
	rep, err := s.checkJuror(ctx, op, voter)
	if err != nil {
		return nil, err
	}
	vote := &Vote{ID: openjury.NewID(), JobID: strings.TrimSpace(in.JobID), SubmissionID: strings.TrimSpace(in.SubmissionID),
		Voter: voter, Weight: Weight(rep.Score), Review: in.Review, CreatedAt: now}
	err = checkJobID(vote.JobID)
	if err == nil {
		err = s.db.Votes().CastVote(ctx, vote, VoteGuard{FirstReputation: ReputationDelta{JuryVotes: 1}, Now: now, Event: voteCastEvent(vote)})
	}
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	return vote, nil
}

// voteCastEvent is the vote.cast event of an open-mode jury vote (its
// choice included); the store adds the voted submission's agent as a
// subject.
func voteCastEvent(v *Vote) *events.Event {
	return &events.Event{Type: events.VoteCast, CreatedAt: v.CreatedAt, JobID: v.JobID, Actor: v.Voter,
		Data: events.Data{"job_id": v.JobID, "submission_id": v.SubmissionID, "voter_address": v.Voter.String(), "weight": v.Weight}}
}

// VotingSummary returns a job's jury tallies: none while they are hidden
// (a commit-reveal job before its reveal window ends; JurySummary also
// counts the commitments). Errors: NotFound.
func (s *Service) VotingSummary(ctx context.Context, jobID string) ([]Tally, error) {
	sum, err := s.JurySummary(ctx, jobID)
	return sum.Tallies, err
}
