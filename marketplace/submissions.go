package marketplace

import (
	"context"
	"encoding/json"
	"math"
	"strings"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/internal/cursor"
	"github.com/openjury/openjury/internal/valid"
	"github.com/openjury/openjury/stake"
)

// Limits on submissions and votes (docs/rules.md#submissions,
// docs/rules.md#jury-votes).
const (
	MaxSubmissionsPerAgent = 5
	// MaxContentChars bounds the content of a submission, a comment or a
	// post.
	MaxContentChars = 20000
	// MaxEvidence bounds the evidence items of a submission; the other
	// Max... and Min/MaxConfidence bound an item's fields (characters,
	// serialised bytes of metadata).
	MaxEvidence          = 50
	MaxEvidenceTypeChars = 64
	MaxSourceURLChars    = 2048
	MaxSnapshotURIChars  = 4096
	MaxSnapshotHashChars = 256
	MaxQuoteChars        = 4000
	MaxClaimChars        = 4000
	MinConfidence        = 0.0
	MaxConfidence        = 1.0
	MaxMetadataBytes     = 8 << 10
	// MaxReviewBytes bounds a jury vote's review, serialised.
	MaxReviewBytes = 8 << 10
	// MaxVoteWeight is the largest weight of a jury vote.
	MaxVoteWeight = 5
)

// EvidenceInput is one evidence item of a submission. Its rules are in
// submitRules.
type EvidenceInput struct {
	Type         string         `name:"type"`
	SourceURL    string         `name:"source_url"`
	RetrievedAt  string         `name:"retrieved_at" validate:"omitempty,datetime=2006-01-02T15:04:05Z07:00"`
	SnapshotURI  string         `name:"snapshot_uri"`
	SnapshotHash string         `name:"snapshot_hash"`
	Quote        string         `name:"quote"`
	Claim        string         `name:"claim"`
	Confidence   *float64       `name:"confidence"`
	Metadata     map[string]any `name:"metadata"`
}

// SubmitInput is a submission of work to a job. Its rules are in
// submitRules.
type SubmitInput struct {
	JobID    string          `name:"job_id" validate:"required"`
	Content  string          `name:"content"`
	Evidence []EvidenceInput `name:"evidence"`
}

// submitRules validates SubmitInput and its evidence, with the limits
// above.
var submitRules = valid.New(
	valid.For[SubmitInput](valid.Rules{
		"Content":  "notblank," + valid.Max(MaxContentChars),
		"Evidence": valid.Max(MaxEvidence) + ",dive",
	}),
	valid.For[EvidenceInput](valid.Rules{
		"Type":         valid.Max(MaxEvidenceTypeChars),
		"SourceURL":    "omitempty," + valid.Max(MaxSourceURLChars) + ",http_url",
		"SnapshotURI":  valid.Max(MaxSnapshotURIChars),
		"SnapshotHash": valid.Max(MaxSnapshotHashChars),
		"Quote":        valid.Max(MaxQuoteChars),
		"Claim":        valid.Max(MaxClaimChars),
		"Confidence":   "omitnil," + valid.Min(MinConfidence) + "," + valid.Max(MaxConfidence),
	}),
)

// Submit records an agent's work on an open job. The agent's first
// accepted submission on a job adds 1 to their reputation score.
// Errors: Invalid, Forbidden ("insufficient stake", own job), NotFound,
// Conflict (closed job, job being closed, more than 5 submissions).
func (s *Service) Submit(ctx context.Context, agent openjury.Address, in SubmitInput) (*Submission, error) {
	const op = "marketplace.Submit"
	if err := submitRules.Struct(op, in); err != nil {
		return nil, err
	}
	evidence := make([]Evidence, len(in.Evidence))
	for i, e := range in.Evidence {
		if e.Metadata != nil {
			raw, err := json.Marshal(e.Metadata)
			if err != nil {
				return nil, openjury.Errorf(openjury.Invalid, op, "evidence[%d].metadata: must be a JSON object", i)
			}
			if len(raw) > MaxMetadataBytes {
				return nil, openjury.Errorf(openjury.Invalid, op, "evidence[%d].metadata: must be at most %d KiB when serialised", i, MaxMetadataBytes>>10)
			}
		}
		evidence[i] = Evidence(e)
	}
	now := openjury.Truncate(s.clock.Now())
	sub := &Submission{ID: openjury.NewID(), JobID: strings.TrimSpace(in.JobID), Agent: agent, Content: in.Content, Evidence: evidence, CreatedAt: now}
	// One atomic store call checks the guard with the job locked and
	// writes the submission, its search queue row and the reputation of a
	// first submission (on PostgreSQL one statement).
	err := checkJobID(sub.JobID)
	if err == nil {
		err = s.db.Submissions().Submit(ctx, sub, SubmitGuard{
			MinStake:        s.cfg.MinStake,
			MaxPerAgent:     MaxSubmissionsPerAgent,
			FirstReputation: ReputationDelta{Score: 1, Submissions: 1},
			Now:             now,
		})
	}
	if openjury.IsKind(err, openjury.NotFound) {
		// The stake check comes first for an unknown job too; its stake
		// was not read, so read it now (a failing request only).
		if serr := stake.Check(ctx, s.db.Stake(), agent, s.cfg.MinStake); serr != nil {
			return nil, openjury.Wrap(op, serr)
		}
	}
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	return sub, nil
}

// SubmissionPage is a page of a job's submissions, oldest first;
// NextCursor is "" on the last page.
type SubmissionPage struct {
	Submissions []*Submission
	NextCursor  string
}

// Submissions lists a job's submissions oldest first (created_at, then
// id), a page at a time: in.Limit 0 means DefaultListLimit, else
// 1..MaxListLimit. Errors: Invalid (limit, cursor), NotFound.
func (s *Service) Submissions(ctx context.Context, jobID string, in ListInput) (SubmissionPage, error) {
	const op = "marketplace.Submissions"
	limit, err := valid.Limit(op, in.Limit, DefaultListLimit, MaxListLimit)
	if err != nil {
		return SubmissionPage{}, err
	}
	after, err := cursor.After[Cursor](op, in.Cursor)
	if err != nil {
		return SubmissionPage{}, err
	}
	job, err := s.Job(ctx, jobID)
	if err != nil {
		return SubmissionPage{}, err
	}
	subs, err := s.db.Submissions().Submissions(ctx, job.ID, limit+1, after)
	if err != nil {
		return SubmissionPage{}, openjury.Wrap(op, err)
	}
	var p SubmissionPage
	p.Submissions, p.NextCursor = cursor.Cut(subs, limit, func(last *Submission) string {
		return cursor.EncodeTimeID(last.CreatedAt, last.ID)
	})
	return p, nil
}

// lockJob locks and returns a job inside a transaction. A malformed id is
// NotFound like an unknown one.
func lockJob(ctx context.Context, tx Tx, id string) (*Job, error) {
	if err := checkJobID(id); err != nil {
		return nil, err
	}
	return tx.Jobs().JobForUpdate(ctx, id)
}

// checkJobID returns NotFound "job not found" for an id no job can have
// (a malformed one), without asking the database; Invalid for one holding
// a NUL character (docs/rules.md#conventions:
// NUL in input is 400).
func checkJobID(id string) error {
	if err := valid.Text("marketplace.lockJob", "job_id", id); err != nil {
		return err
	}
	if !openjury.ValidID(id) {
		return openjury.E(openjury.NotFound, "marketplace.lockJob", "job not found")
	}
	return nil
}

// submissionOf returns a submission and checks it belongs to job.
// Errors: NotFound "submission not found", Invalid when it belongs to
// another job.
func submissionOf(ctx context.Context, tx Tx, job *Job, id, field string) (*Submission, error) {
	const op = "marketplace.submissionOf"
	if err := valid.Text(op, field, id); err != nil {
		return nil, err
	}
	if !openjury.ValidID(id) {
		return nil, openjury.E(openjury.NotFound, op, "submission not found")
	}
	sub, err := tx.Submissions().Submission(ctx, id)
	if err != nil {
		return nil, err
	}
	if sub.JobID != job.ID {
		return nil, openjury.Errorf(openjury.Invalid, op, "%s: not a submission of this job", field)
	}
	return sub, nil
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
	if err := stake.Check(ctx, s.db.Stake(), voter, s.cfg.MinStake); err != nil {
		return nil, openjury.Wrap(op, err)
	}
	rep, err := s.db.Reputation().Reputation(ctx, voter)
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	if rep.Score < s.cfg.MinRepScoreToVote {
		return nil, openjury.E(openjury.Forbidden, op, "insufficient reputation to vote")
	}
	vote := &Vote{ID: openjury.NewID(), JobID: strings.TrimSpace(in.JobID), SubmissionID: strings.TrimSpace(in.SubmissionID),
		Voter: voter, Weight: Weight(rep.Score), Review: in.Review, CreatedAt: now}
	err = checkJobID(vote.JobID)
	if err == nil {
		err = s.db.Votes().CastVote(ctx, vote, VoteGuard{FirstReputation: ReputationDelta{JuryVotes: 1}, Now: now})
	}
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	return vote, nil
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
		return tx.Votes().PutFinalVote(ctx, vote)
	})
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	return vote, nil
}

// VotingSummary returns a job's jury tallies. Errors: NotFound.
func (s *Service) VotingSummary(ctx context.Context, jobID string) ([]Tally, error) {
	job, err := s.Job(ctx, jobID)
	if err != nil {
		return nil, err
	}
	t, err := s.db.Votes().Tally(ctx, job.ID)
	return t, openjury.Wrap("marketplace.VotingSummary", err)
}

// FinalSummary returns a job's final vote tallies. Errors: NotFound.
func (s *Service) FinalSummary(ctx context.Context, jobID string) ([]Tally, error) {
	job, err := s.Job(ctx, jobID)
	if err != nil {
		return nil, err
	}
	t, err := s.db.Votes().FinalTally(ctx, job.ID)
	return t, openjury.Wrap("marketplace.FinalSummary", err)
}
