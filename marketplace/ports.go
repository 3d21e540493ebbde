package marketplace

import (
	"context"
	"time"

	"github.com/openjury/openjury"
)

// Evidence backs a submission. Every field is optional: an empty string or
// nil means absent.
type Evidence struct {
	Type         string
	SourceURL    string
	RetrievedAt  string
	SnapshotURI  string
	SnapshotHash string
	Quote        string
	Claim        string
	Confidence   *float64
	Metadata     map[string]any
}

// Submission is an agent's work on a job.
type Submission struct {
	ID        string
	JobID     string
	Agent     openjury.Address
	Content   string
	Evidence  []Evidence
	CreatedAt time.Time
}

// SubmissionKey is what close and finalize decide on about a submission:
// its id, agent and time, never its content or evidence.
type SubmissionKey struct {
	ID        string
	Agent     openjury.Address
	CreatedAt time.Time
}

// ReputationChange is a delta for one address, an element of
// ReputationStore.AddReputations.
type ReputationChange struct {
	Address openjury.Address
	Delta   ReputationDelta
}

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

// FinalVote is a final decision vote: one per (job, voter), replaced by a
// newer one.
type FinalVote struct {
	ID           string
	JobID        string
	SubmissionID string
	Voter        openjury.Address
	CreatedAt    time.Time
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

// Reputation is an address's record.
type Reputation struct {
	Address openjury.Address
	Score   int64
	Wins    int64
	Losses  int64
	// Submissions counts jobs with at least one accepted submission.
	Submissions int64
	// JuryVotes counts jobs the address cast a jury vote on.
	JuryVotes int64
	UpdatedAt time.Time
}

// ReputationDelta is an increment of a Reputation.
type ReputationDelta struct {
	Score, Wins, Losses, Submissions, JuryVotes int64
}

// LeaderCursor is a position in the leaderboard (score descending, then
// address ascending).
type LeaderCursor struct {
	Score   int64
	Address openjury.Address
}

// SubmissionStore keeps submissions.
type SubmissionStore interface {
	// CreateSubmission inserts s. Errors: NotFound when the job does not
	// exist.
	CreateSubmission(ctx context.Context, s *Submission) error
	// Submit inserts s if g accepts it, atomically: it locks the job and
	// reads the SubmitState of s.Agent as JobStore.JobForSubmit does and,
	// when g.Check(state, s.Agent) passes, inserts s, queues it for the
	// search index (DocSubmission) and, when it is the agent's first
	// submission to the job, adds g.FirstReputation to the agent's
	// reputation at s.CreatedAt. Errors: NotFound "job not found", the
	// error of g.Check; nothing is written with either.
	Submit(ctx context.Context, s *Submission, g SubmitGuard) error
	// Submission returns one submission. Errors: NotFound.
	Submission(ctx context.Context, id string) (*Submission, error)
	// Submissions lists up to limit submissions of a job oldest first
	// (created_at, id), after the cursor when it is not nil; none for an
	// unknown job.
	Submissions(ctx context.Context, jobID string, limit int, after *Cursor) ([]*Submission, error)
	// SubmissionKeys lists the id, agent and time of every submission of a
	// job, oldest first (created_at, id); it never reads their content.
	SubmissionKeys(ctx context.Context, jobID string) ([]SubmissionKey, error)
}

// VoteStore keeps jury votes and final decision votes.
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
	// v.CreatedAt. Errors: NotFound "job not found", the error of g.Check;
	// nothing is written with either.
	CastVote(ctx context.Context, v *Vote, g VoteGuard) error
	// Tally sums the current jury votes of a job per submission, only
	// submissions with votes, ordered by weight desc, earliest current vote,
	// then submission id.
	Tally(ctx context.Context, jobID string) ([]Tally, error)
	// FinalVote returns the current final vote of voter on a job.
	// Errors: NotFound.
	FinalVote(ctx context.Context, jobID string, voter openjury.Address) (*FinalVote, error)
	// PutFinalVote inserts or replaces like PutVote.
	PutFinalVote(ctx context.Context, v *FinalVote) error
	// FinalTally sums the current final votes of a job, ordered like Tally
	// (votes desc, earliest current vote, submission id).
	FinalTally(ctx context.Context, jobID string) ([]Tally, error)
}

// ReputationStore keeps reputation records.
type ReputationStore interface {
	// Reputation returns the record of addr, zeros when it has none. It
	// writes nothing.
	Reputation(ctx context.Context, addr openjury.Address) (Reputation, error)
	// AddReputation adds d to the record of addr (created when missing) and
	// sets its UpdatedAt to now.
	AddReputation(ctx context.Context, addr openjury.Address, d ReputationDelta, now time.Time) error
	// AddReputations adds each change's delta to its address's record
	// (created when missing) in one statement, locking the rows in address
	// order (so concurrent batches sharing addresses cannot deadlock), and
	// sets their UpdatedAt to now. The addresses must be distinct.
	AddReputations(ctx context.Context, changes []ReputationChange, now time.Time) error
	// AddJobOutcome adds win to the reputation of winner and loss to that
	// of every other distinct agent with a submission to the job, in one
	// statement that reads the agents from the submissions (never into
	// memory) and locks their rows in address order like
	// AddReputations; UpdatedAt becomes now.
	AddJobOutcome(ctx context.Context, jobID string, winner openjury.Address, win, loss ReputationDelta, now time.Time) error
	// SetScore sets the score of addr (created when missing).
	SetScore(ctx context.Context, addr openjury.Address, score int64, now time.Time) error
	// Leaderboard lists up to limit records by score desc, then address
	// asc, after the cursor when it is not nil.
	Leaderboard(ctx context.Context, limit int, after *LeaderCursor) ([]Reputation, error)
}
