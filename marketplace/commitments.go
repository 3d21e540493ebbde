package marketplace

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/internal/valid"
	"github.com/openjury/openjury/stake"
)

// Commitment is a juror's hidden jury vote on a commit-reveal job: one per
// (job, voter), replaced by a newer one during the commit window, and
// revealed once in the reveal window (docs/rules.md, "Jury integrity").
type Commitment struct {
	ID         string
	JobID      string
	Voter      openjury.Address
	Commitment openjury.Hash
	CreatedAt  time.Time
	// RevealedAt is set by the matching reveal; nil before.
	RevealedAt *time.Time
}

// CommitmentStore keeps the commitments of commit-reveal jury votes.
type CommitmentStore interface {
	// PutCommitment inserts c, or replaces the voter's commitment on the
	// job (its commitment and created_at) in the same statement; the stored
	// row keeps its id, which is set on c.
	PutCommitment(ctx context.Context, c *Commitment) error
	// Commitment returns the commitment of voter on a job. Errors:
	// NotFound.
	Commitment(ctx context.Context, jobID string, voter openjury.Address) (*Commitment, error)
	// CountCommitments counts a job's commitments.
	CountCommitments(ctx context.Context, jobID string) (int64, error)
	// MarkRevealed sets revealed_at of the voter's commitment on the job,
	// only when it is not revealed. Errors: Conflict "already revealed";
	// NotFound.
	MarkRevealed(ctx context.Context, jobID string, voter openjury.Address, at time.Time) error
}

// SubmissionKey32 is keccak256 of a submission id's bytes, the
// submissionKey of a commitment.
func SubmissionKey32(submissionID string) [32]byte {
	return [32]byte(crypto.Keccak256([]byte(submissionID)))
}

// CommitmentOf is the commitment to a jury vote for submissionID on jobID
// by voter with salt: keccak256(abi.encode(bytes32 jobKey, bytes32
// submissionKey, address voter, bytes32 salt)), jobKey =
// keccak256(bytes(job_id)) (anchor.JobKey) and submissionKey =
// keccak256(bytes(submission_id)). Anyone can compute it; without the
// salt, nobody can tell which submission it is for.
func CommitmentOf(jobID, submissionID string, voter openjury.Address, salt [32]byte) openjury.Hash {
	var words [4 * 32]byte
	jk, sk, a := anchor.JobKey(jobID), SubmissionKey32(submissionID), voter.Bytes()
	copy(words[0:32], jk[:])
	copy(words[32:64], sk[:])
	copy(words[64+12:96], a[:])
	copy(words[96:128], salt[:])
	return openjury.HashFromBytes([32]byte(crypto.Keccak256(words[:])))
}

// CommitInput is a commitment to a jury vote.
type CommitInput struct {
	JobID      string `name:"job_id" validate:"required"`
	Commitment string `name:"commitment" validate:"required"`
}

// Commit records or replaces the caller's commitment on a commit-reveal
// job during its commit window. The voter needs the stake and reputation
// of a jury vote; the checks come in this order: stake, reputation, then,
// with the job locked: job (NotFound), jury mode (Invalid on an open-mode
// job), sponsor (Forbidden), panel (Forbidden "not drawn"), closed,
// being closed, window (Conflict).
func (s *Service) Commit(ctx context.Context, voter openjury.Address, in CommitInput) (*Commitment, error) {
	const op = "marketplace.Commit"
	if err := valid.Struct(op, in); err != nil {
		return nil, err
	}
	commitment, err := openjury.ParseHash("commitment", strings.TrimSpace(in.Commitment))
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	if _, err := s.checkJuror(ctx, op, voter); err != nil {
		return nil, err
	}
	now := openjury.Truncate(s.clock.Now())
	var c *Commitment
	err = s.db.InTx(ctx, func(ctx context.Context, tx Tx) error {
		job, err := lockJob(ctx, tx, strings.TrimSpace(in.JobID))
		if err != nil {
			return err
		}
		if err := s.checkJuryJob(ctx, tx, op, job, voter, now); err != nil {
			return err
		}
		if !now.Before(*job.JuryCommitEndsAt) {
			return openjury.E(openjury.Conflict, op, "commit window has ended")
		}
		c = &Commitment{ID: openjury.NewID(), JobID: job.ID, Voter: voter, Commitment: commitment, CreatedAt: now}
		return tx.Commitments().PutCommitment(ctx, c)
	})
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	return c, nil
}

// checkJuror is the voter's own checks of a jury vote, read outside the
// job's lock: stake, then reputation; it returns the voter's reputation.
// Errors: Forbidden.
func (s *Service) checkJuror(ctx context.Context, op string, voter openjury.Address) (Reputation, error) {
	if err := stake.Check(ctx, s.db.Stake(), voter, s.cfg.MinStake); err != nil {
		return Reputation{}, openjury.Wrap(op, err)
	}
	rep, err := s.db.Reputation().Reputation(ctx, voter)
	if err != nil {
		return Reputation{}, openjury.Wrap(op, err)
	}
	if rep.Score < s.cfg.MinRepScoreToVote {
		return Reputation{}, openjury.E(openjury.Forbidden, op, "insufficient reputation to vote")
	}
	return rep, nil
}

// DetailNotDrawn is the detail of the Forbidden of a juror who is not on
// a job's drawn panel.
const DetailNotDrawn = "not drawn"

// checkJuryJob checks a commit or reveal of voter on job, locked in tx,
// up to the window: the job's mode, the sponsor, the panel, closed, being
// closed.
func (s *Service) checkJuryJob(ctx context.Context, tx Tx, op string, job *Job, voter openjury.Address, now time.Time) error {
	if job.JuryMode != JuryCommitReveal {
		return openjury.E(openjury.Invalid, op, "commitment: this job's jury votes are open: vote with submission_id")
	}
	if job.Sponsor == voter {
		return openjury.E(openjury.Forbidden, op, "the sponsor may not vote on their own job")
	}
	if job.JurySize > 0 {
		drawn, err := tx.Juries().IsDrawn(ctx, job.ID, voter)
		if err != nil {
			return err
		}
		if !drawn {
			return openjury.E(openjury.Forbidden, op, DetailNotDrawn)
		}
	}
	switch {
	case job.Status != StatusOpen:
		return openjury.E(openjury.Conflict, op, "job is closed")
	case job.BeingClosed(now):
		return openjury.E(openjury.Conflict, op, DetailBeingClosed)
	}
	return nil
}

// RevealInput reveals a commitment: the submission it was for and its
// salt, with an optional review like a jury vote's.
type RevealInput struct {
	JobID        string         `name:"job_id" validate:"required"`
	SubmissionID string         `name:"submission_id" validate:"required"`
	Salt         string         `name:"salt" validate:"required"`
	Review       map[string]any `name:"review"`
}

// Reveal opens the caller's commitment on a commit-reveal job during its
// reveal window: when CommitmentOf(job, submission, caller, salt) equals
// it, the vote counts from then on, with the weight of the caller's
// reputation at reveal. A second matching reveal returns the same vote.
// Checks, in order: shape, stake, reputation, then with the job locked:
// job (NotFound), mode (Invalid), submission (NotFound, Invalid when of
// another job), own submission and sponsor (Forbidden), closed, being
// closed, window, no commitment (Conflict), mismatch (Invalid; nothing
// changes).
func (s *Service) Reveal(ctx context.Context, voter openjury.Address, in RevealInput) (*Vote, error) {
	const op = "marketplace.Reveal"
	if err := valid.Struct(op, in); err != nil {
		return nil, err
	}
	salt, err := openjury.ParseHash("salt", strings.TrimSpace(in.Salt))
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	saltBytes, err := hashBytes(salt)
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	if in.Review != nil {
		raw, err := json.Marshal(in.Review)
		if err != nil || len(raw) > MaxReviewBytes {
			return nil, openjury.Errorf(openjury.Invalid, op, "review: must be a JSON object of at most %d KiB", MaxReviewBytes>>10)
		}
	}
	if _, err := s.checkJuror(ctx, op, voter); err != nil {
		return nil, err
	}
	now := openjury.Truncate(s.clock.Now())
	var vote *Vote
	err = s.db.InTx(ctx, func(ctx context.Context, tx Tx) error {
		job, err := lockJob(ctx, tx, strings.TrimSpace(in.JobID))
		if err != nil {
			return err
		}
		if job.JuryMode != JuryCommitReveal {
			return openjury.E(openjury.Invalid, op, "this job's jury votes are open: vote with POST /api/v1/votes")
		}
		sub, err := submissionOf(ctx, tx, job, strings.TrimSpace(in.SubmissionID), "submission_id")
		if err != nil {
			return err
		}
		if sub.Agent == voter {
			return openjury.E(openjury.Forbidden, op, "you may not vote for your own submission")
		}
		if err := s.checkJuryJob(ctx, tx, op, job, voter, now); err != nil {
			return err
		}
		switch {
		case now.Before(*job.JuryCommitEndsAt):
			return openjury.E(openjury.Conflict, op, "reveal window has not started")
		case !now.Before(*job.JuryRevealEndsAt):
			return openjury.E(openjury.Conflict, op, "reveal window has ended")
		}
		c, err := tx.Commitments().Commitment(ctx, job.ID, voter)
		if openjury.IsKind(err, openjury.NotFound) {
			return openjury.E(openjury.Conflict, op, "no commitment to reveal")
		}
		if err != nil {
			return err
		}
		if CommitmentOf(job.ID, sub.ID, voter, saltBytes) != c.Commitment {
			return openjury.E(openjury.Invalid, op, "salt: submission_id and salt do not match your commitment")
		}
		if c.RevealedAt != nil {
			vote, err = tx.Votes().Vote(ctx, job.ID, voter)
			return err
		}
		rep, err := tx.Reputation().Reputation(ctx, voter)
		if err != nil {
			return err
		}
		vote = &Vote{ID: openjury.NewID(), JobID: job.ID, SubmissionID: sub.ID, Voter: voter,
			Weight: Weight(rep.Score), Review: in.Review, CreatedAt: now}
		if err := tx.Votes().PutVote(ctx, vote); err != nil {
			return err
		}
		if err := tx.Reputation().AddReputation(ctx, voter, ReputationDelta{JuryVotes: 1}, now); err != nil {
			return err
		}
		return tx.Commitments().MarkRevealed(ctx, job.ID, voter, now)
	})
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	return vote, nil
}

// JurySummary is a job's jury tally as the API shows it: while the tallies
// are hidden (Job.TalliesHidden), no tallies and the number of
// commitments.
type JurySummary struct {
	Tallies []Tally
	Hidden  bool
	// Commitments counts the commitments of a commit-reveal job; -1 for
	// an open-mode job.
	Commitments int64
}

// JurySummary returns a job's jury tallies, hidden until the reveal
// window of a commit-reveal job ends. Errors: NotFound.
func (s *Service) JurySummary(ctx context.Context, jobID string) (JurySummary, error) {
	const op = "marketplace.JurySummary"
	job, err := s.Job(ctx, jobID)
	if err != nil {
		return JurySummary{}, err
	}
	out := JurySummary{Tallies: []Tally{}, Commitments: -1}
	if job.JuryMode == JuryCommitReveal {
		if out.Commitments, err = s.db.Commitments().CountCommitments(ctx, job.ID); err != nil {
			return JurySummary{}, openjury.Wrap(op, err)
		}
		if job.TalliesHidden(openjury.Truncate(s.clock.Now())) {
			out.Hidden = true
			return out, nil
		}
	}
	if out.Tallies, err = s.db.Votes().Tally(ctx, job.ID); err != nil {
		return JurySummary{}, openjury.Wrap(op, err)
	}
	return out, nil
}
