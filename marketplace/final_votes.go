package marketplace

import (
	"context"
	"strings"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/internal/valid"
	"github.com/openjury/openjury/stake"
)

// FinalVote is a final decision vote: one per (job, voter), replaced by a
// newer one.
type FinalVote struct {
	ID           string
	JobID        string
	SubmissionID string
	Voter        openjury.Address
	CreatedAt    time.Time
}

// FinalVoteStore keeps final decision votes.
type FinalVoteStore interface {
	// FinalVote returns the current final vote of voter on a job.
	// Errors: NotFound.
	FinalVote(ctx context.Context, jobID string, voter openjury.Address) (*FinalVote, error)
	// PutFinalVote inserts v, or replaces the voter's final vote on the
	// job like VoteStore.PutVote (v.ID set to the stored id).
	PutFinalVote(ctx context.Context, v *FinalVote) error
	// FinalTally sums the current final votes of a job, ordered like
	// VoteStore.Tally (votes desc, earliest current vote, submission id).
	FinalTally(ctx context.Context, jobID string) ([]Tally, error)
}

// FinalVoteInput is a final decision vote.
type FinalVoteInput struct {
	JobID        string `name:"job_id" validate:"required"`
	SubmissionID string `name:"submission_id" validate:"required"`
}

// FinalVote casts or replaces the caller's final decision vote, inside
// the job's window. The voter needs the stake of a submission unless
// Config.FinalVoteOpen; the checks come in the order of a submission's:
// stake, then the job and submission, own submission, closed job, a
// closing lease, window.
// Errors: Invalid, Forbidden ("insufficient stake", own submission),
// NotFound, Conflict (closed, being closed, window not open).
func (s *Service) FinalVote(ctx context.Context, voter openjury.Address, in FinalVoteInput) (*FinalVote, error) {
	const op = "marketplace.FinalVote"
	if err := valid.Struct(op, in); err != nil {
		return nil, err
	}
	now := openjury.Truncate(s.clock.Now())
	var vote *FinalVote
	err := s.db.InTx(ctx, func(ctx context.Context, tx Tx) error {
		if !s.cfg.FinalVoteOpen {
			// First, as for a submission: even an unknown job answers
			// "insufficient stake" to a voter without it.
			if err := stake.Check(ctx, tx.Stake(), voter, s.cfg.MinStake); err != nil {
				return err
			}
		}
		job, err := lockJob(ctx, tx, strings.TrimSpace(in.JobID))
		if err != nil {
			return err
		}
		sub, err := submissionOf(ctx, tx, job, strings.TrimSpace(in.SubmissionID), "submission_id")
		if err != nil {
			return err
		}
		if sub.Agent == voter {
			return openjury.E(openjury.Forbidden, op, "you may not cast a final vote for your own submission")
		}
		switch {
		case job.Status != StatusOpen:
			return openjury.E(openjury.Conflict, op, "job is closed")
		case job.BeingClosed(now):
			return openjury.E(openjury.Conflict, op, DetailBeingClosed)
		case now.Before(job.FinalVoteStartsAt):
			return openjury.E(openjury.Conflict, op, "final voting has not started")
		case !now.Before(job.FinalVoteEndsAt):
			return openjury.E(openjury.Conflict, op, "final voting window has ended")
		}
		vote = &FinalVote{ID: openjury.NewID(), JobID: job.ID, SubmissionID: sub.ID, Voter: voter, CreatedAt: now}
		return emitted(ctx, tx, tx.FinalVotes().PutFinalVote(ctx, vote), &events.Event{
			Type: events.FinalVoteCast, CreatedAt: now, JobID: job.ID, Actor: voter, Subjects: []openjury.Address{sub.Agent},
			Data: events.Data{"job_id": job.ID, "submission_id": sub.ID, "final_vote_id": vote.ID, "voter_address": voter.String()},
		})
	})
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	return vote, nil
}

// FinalSummary returns a job's final vote tallies. Errors: NotFound.
func (s *Service) FinalSummary(ctx context.Context, jobID string) ([]Tally, error) {
	job, err := s.Job(ctx, jobID)
	if err != nil {
		return nil, err
	}
	t, err := s.db.FinalVotes().FinalTally(ctx, job.ID)
	return t, openjury.Wrap("marketplace.FinalSummary", err)
}
