package marketplace

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/internal/cursor"
	"github.com/openjury/openjury/internal/valid"
	"github.com/openjury/openjury/stake"
)

// Limits on submissions (docs/rules.md#submissions).
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
	// Event, when not nil, is appended to the event outbox with the
	// submission.
	Event *events.Event
}

// Check returns why st refuses a submission of agent, checked in this
// order: Forbidden "insufficient stake", Conflict "job is closed",
// Conflict "job is being closed" (a closing lease live at g.Now),
// Forbidden for the job's sponsor, Conflict at g.MaxPerAgent submissions.
// It returns nil when the submission is accepted. A store that checks the
// rule in SQL must accept exactly what Check accepts. Check reads only
// st.Stake.Staked, st.Job.Status, st.Job.ClosingUntil, st.Job.Sponsor and
// st.Submissions, and a store may read only those (bunstore's SQLite
// Submit does): a rule that reads more must say so here and in the stores.
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
	// reputation at s.CreatedAt; and it appends g.Event. Errors: NotFound
	// "job not found", the error of g.Check; nothing is written with
	// either.
	Submit(ctx context.Context, s *Submission, g SubmitGuard) error
	// Submission returns one submission. Errors: NotFound.
	Submission(ctx context.Context, id string) (*Submission, error)
	// Submissions lists up to limit submissions of a job oldest first
	// (created_at, id), after the cursor when it is not nil; none for an
	// unknown job.
	Submissions(ctx context.Context, jobID string, limit int, after *Cursor) ([]*Submission, error)
	// SubmissionHeads returns the heads of the submissions whose id is in
	// ids (the ids no submission has are left out), in the order of ids;
	// it reads neither whole contents nor evidence.
	SubmissionHeads(ctx context.Context, ids []string) ([]SubmissionHead, error)
	// SubmissionCounts counts the submissions of each job in jobIDs, each
	// count stopping at limit (so the read is bounded by len(jobIDs) x
	// limit), by job id; a job without submissions is absent.
	SubmissionCounts(ctx context.Context, jobIDs []string, limit int) (map[string]int, error)
	// SubmissionKeys lists the id, agent and time of every submission of a
	// job, oldest first (created_at, id); it never reads their content.
	SubmissionKeys(ctx context.Context, jobID string) ([]SubmissionKey, error)
}

// EvidenceInput is one evidence item of a submission.
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

// SubmitInput is a submission of work to a job.
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
			Event: &events.Event{Type: events.SubmissionCreated, CreatedAt: now, JobID: sub.JobID, Actor: agent,
				Data: events.Data{"job_id": sub.JobID, "submission_id": sub.ID, "agent_address": agent.String(), "created_at": timeData(now)}},
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

// Submission returns one submission. Errors: NotFound, Invalid (a NUL in
// id).
func (s *Service) Submission(ctx context.Context, id string) (*Submission, error) {
	const op = "marketplace.Submission"
	if err := valid.Text(op, "submission_id", id); err != nil {
		return nil, err
	}
	if !openjury.ValidID(id) {
		return nil, openjury.E(openjury.NotFound, op, "submission not found")
	}
	sub, err := s.db.Submissions().Submission(ctx, id)
	if openjury.IsKind(err, openjury.NotFound) {
		return nil, openjury.E(openjury.NotFound, op, "submission not found")
	}
	return sub, openjury.Wrap(op, err)
}

// CountCap is where SubmissionCounts stops counting: a job with CountCap
// submissions or more counts CountCap (a list shows "1000+").
const CountCap = 1000

// SubmissionCounts counts the submissions of the given jobs (ids no job
// has count 0), each up to CountCap, in one read. Errors: Invalid when
// more than MaxListLimit ids are given.
func (s *Service) SubmissionCounts(ctx context.Context, jobIDs []string) (map[string]int, error) {
	const op = "marketplace.SubmissionCounts"
	if len(jobIDs) > MaxListLimit {
		return nil, openjury.Errorf(openjury.Invalid, op, "job_ids: must have at most %d items", MaxListLimit)
	}
	counts, err := s.db.Submissions().SubmissionCounts(ctx, jobIDs, CountCap)
	return counts, openjury.Wrap(op, err)
}

// HeadOf is the head of a submission's content: its first HeadChars
// characters, as SubmissionStore.SubmissionHeads reads them.
func HeadOf(content string) string {
	n := 0
	for i := range content {
		if n == HeadChars {
			return content[:i]
		}
		n++
	}
	return content
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
