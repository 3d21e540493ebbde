package marketplace

import (
	"context"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/stake"
)

// Status is the state of a job.
type Status string

// Job states.
const (
	StatusOpen   Status = "open"
	StatusClosed Status = "closed"
)

// Job is a work order with a prompt and a USDC bounty.
type Job struct {
	ID                 string
	Title              string
	Prompt             string
	Bounty             openjury.MicroUSDC
	Tags               []string
	Status             Status
	Sponsor            openjury.Address
	CreatedAt          time.Time
	WinnerSubmissionID string
	ClosedAt           *time.Time
	Close              openjury.ChainRef
	FeaturedScore      int64
	FeaturedUntil      *time.Time
	FinalVoteStartsAt  time.Time
	FinalVoteEndsAt    time.Time
	// Anchor is the snapshot batch, set when the job closes; nil before.
	Anchor *anchor.Batch
	// RecordsRev counts the changes to the job's snapshot records that do
	// not wait for a close (comments on the job and on its submissions,
	// and their deletion): each bumps it under the job's lock, and each
	// comment carries the value of its insert and of its delete, so a
	// close reading RecordsRev under the lock knows which comments it
	// covers (docs/rules.md, "Closing at any size").
	RecordsRev int64
	// ClosingID and ClosingUntil are the closing lease: the id of the
	// close or finalize building the job's snapshot and when its lease
	// ends unless renewed. Empty and nil when none was ever taken; a lease
	// whose end has passed is dead (its closer crashed or gave up).
	ClosingID    string
	ClosingUntil *time.Time
}

// BeingClosed reports whether a close or finalize holds a live closing
// lease on the job at now: submissions, jury votes, final votes and other
// closes then answer Conflict "job is being closed".
func (j *Job) BeingClosed(now time.Time) bool {
	return j.ClosingUntil != nil && j.ClosingUntil.After(now)
}

// DetailBeingClosed is the detail of the Conflict of a write a closing
// lease holds off.
const DetailBeingClosed = "job is being closed"

// JobFilter selects and pages jobs for ListJobs.
type JobFilter struct {
	// Status is StatusOpen, or "" for every status.
	Status Status
	// Tag, when not empty, keeps jobs carrying this tag (exact match,
	// case-insensitive).
	Tag string
	// Ref is the reference time that decides which boosts are active.
	Ref time.Time
	// Limit is the page size; a Limit <= 0 returns nothing.
	Limit int
	// After, when not nil, starts the page after this position.
	After *JobCursor
}

// JobCursor is a position in the job order: active-boost rank (the
// featured score while featured_until > Ref, else 0), created_at, id; all
// descending.
type JobCursor struct {
	Rank      int64
	CreatedAt time.Time
	ID        string
}

// SubmitState is a job locked for a submission and what the submission is
// checked against, as JobStore.JobForSubmit reads them in one statement.
type SubmitState struct {
	// Job is the locked job.
	Job *Job
	// Stake is the submitting agent's stake, as stake.Store.Stake returns
	// it: a zero Stake with Address set when none was ever recorded.
	Stake stake.Stake
	// Submissions is how many submissions the agent has on the job.
	Submissions int
}

// SubmitGuard is the rule a submission must pass, checked against the
// job's SubmitState while the job is locked (SubmissionStore.Submit), and
// what an accepted submission adds to its agent's reputation.
type SubmitGuard struct {
	// MinStake is the stake the agent needs.
	MinStake openjury.MicroUSDC
	// MaxPerAgent is how many submissions one agent may have on a job.
	MaxPerAgent int
	// FirstReputation is added to the agent's reputation with its first
	// submission to a job.
	FirstReputation ReputationDelta
	// Now is the time of the submission: a closing lease live at Now
	// refuses it.
	Now time.Time
}

// Check returns why st refuses a submission of agent, checked in this
// order: Forbidden "insufficient stake", Conflict "job is closed",
// Conflict "job is being closed" (a closing lease live at g.Now),
// Forbidden for the job's sponsor, Conflict at g.MaxPerAgent submissions.
// It returns nil when the submission is accepted. A store that checks the
// rule in SQL must accept exactly what Check accepts.
func (g SubmitGuard) Check(st *SubmitState, agent openjury.Address) error {
	const op = "marketplace.Submit"
	if err := stake.Require(st.Stake, g.MinStake); err != nil {
		return err
	}
	if st.Job.Status != StatusOpen {
		return openjury.E(openjury.Conflict, op, "job is closed")
	}
	if st.Job.BeingClosed(g.Now) {
		return openjury.E(openjury.Conflict, op, DetailBeingClosed)
	}
	if st.Job.Sponsor == agent {
		return openjury.E(openjury.Forbidden, op, "the sponsor may not submit to their own job")
	}
	if st.Submissions >= g.MaxPerAgent {
		return openjury.Errorf(openjury.Conflict, op, "at most %d submissions per agent per job", g.MaxPerAgent)
	}
	return nil
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
}

// Check returns why st refuses a jury vote of voter, checked in this
// order: Conflict "job is closed", Conflict "job is being closed" (a
// closing lease live at g.Now), NotFound "submission not found",
// Invalid when the submission is another job's, Forbidden for the
// submission's agent and for the job's sponsor. It returns nil when the
// vote is accepted. A store that checks the rule in SQL must accept
// exactly what Check accepts.
func (g VoteGuard) Check(st *VoteState, voter openjury.Address) error {
	const op = "marketplace.Vote"
	switch {
	case st.Job.Status != StatusOpen:
		return openjury.E(openjury.Conflict, op, "job is closed")
	case st.Job.BeingClosed(g.Now):
		return openjury.E(openjury.Conflict, op, DetailBeingClosed)
	case st.SubmissionJobID == "":
		return openjury.E(openjury.NotFound, op, "submission not found")
	case st.SubmissionJobID != st.Job.ID:
		return openjury.E(openjury.Invalid, op, "submission_id: not a submission of this job")
	case st.SubmissionAgent == voter:
		return openjury.E(openjury.Forbidden, op, "you may not vote for your own submission")
	case st.Job.Sponsor == voter:
		return openjury.E(openjury.Forbidden, op, "the sponsor may not vote on their own job")
	}
	return nil
}

// JobStore keeps jobs.
type JobStore interface {
	// CreateJob inserts a job. Errors: Conflict for a duplicate id.
	CreateJob(ctx context.Context, j *Job) error
	// Job returns a job. Errors: NotFound.
	Job(ctx context.Context, id string) (*Job, error)
	// JobForUpdate returns a job and locks its row until the transaction
	// ends (SELECT ... FOR UPDATE on PostgreSQL; SQLite serialises writers).
	// Outside a transaction it is Job. Errors: NotFound.
	JobForUpdate(ctx context.Context, id string) (*Job, error)
	// JobForSubmit is JobForUpdate plus what a submission of agent to the
	// job is checked against, read in the same statement: the agent's
	// stake and how many submissions agent has on the job. The count is
	// taken once the lock is held, so it includes the submissions of every
	// transaction that held the lock before. Errors: NotFound "job not
	// found" (nothing else is read then).
	JobForSubmit(ctx context.Context, id string, agent openjury.Address) (*SubmitState, error)
	// UpdateJob writes every mutable field of j (status, winner, closed_at,
	// close reference, featured score and until). Errors: NotFound.
	UpdateJob(ctx context.Context, j *Job) error
	// ListJobs returns up to f.Limit jobs in the order of JobCursor.
	ListJobs(ctx context.Context, f JobFilter) ([]*Job, error)
}

// Stores gives every store the marketplace uses. Outside a transaction
// each call is its own transaction; inside InTx they all share one.
type Stores interface {
	Jobs() JobStore
	Submissions() SubmissionStore
	Votes() VoteStore
	Reputation() ReputationStore
	AGR() agr.Store
	Stake() stake.Store
	Threads() ThreadStore
	Rates() RateStore
	Anchors() AnchorStore
	Snapshots() SnapshotStore
	Search() SearchQueue
}

// Tx is the set of stores bound to one database transaction.
type Tx interface {
	Stores
}

// DB opens transactions.
type DB interface {
	Stores
	// InTx runs fn in one transaction: committed when fn returns nil, rolled
	// back otherwise (fn's error is returned as is). Inside fn, use only the
	// stores of tx: the DB's own stores run outside the transaction (and on
	// SQLite, whose one writer the transaction holds, they refuse).
	InTx(ctx context.Context, fn func(ctx context.Context, tx Tx) error) error
}
