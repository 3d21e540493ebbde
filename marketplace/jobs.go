package marketplace

import (
	"context"
	"strings"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/internal/cursor"
	"github.com/openjury/openjury/internal/valid"
)

// Limits on job input (docs/rules.md#jobs). Validation, the OpenAPI
// document (a test holds its bounds equal), the discovery documents and
// the agent's CLI and MCP help all take them from here.
const (
	// MaxTitleChars bounds the title of a job or a post.
	MaxTitleChars = 140
	// MaxPromptChars bounds the prompt of a job.
	MaxPromptChars = 20000
	// MaxTags bounds the tags of a job or a post; MaxTagChars each tag.
	MaxTags                = 16
	MaxTagChars            = 32
	MaxBounty              = openjury.MicroUSDC(1_000_000_000_000 * openjury.MicroPerUSDC)
	MinFinalVoteWindow     = 60 * time.Second
	MaxFinalVoteWindow     = 2592000 * time.Second
	DefaultListLimit       = 50
	MaxListLimit           = 200
	DefaultFinalVoteWindow = 24 * time.Hour
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
	// Escrow is the escrow state of the sponsor's slot, from the synced
	// escrow events; nil before the first (see Service.EscrowOf).
	Escrow *JobEscrow
	// PayoutTotal is the total (F) of the payouts its close made, the
	// total the settle posts; nil for a job closed without payouts, or
	// open.
	PayoutTotal *openjury.MicroUSDC
	// JuryMode is how the job's jury votes: empty for open mode (the
	// default), or JuryCommitReveal; JurySize
	// is the size of its drawn panel, 0 for none (every eligible juror may
	// vote). JuryCommitEndsAt and JuryRevealEndsAt end the commit and
	// reveal windows of a commit-reveal job; nil in open mode
	// (docs/rules.md, "Jury integrity").
	JuryMode         JuryMode
	JurySize         int
	JuryCommitEndsAt *time.Time
	JuryRevealEndsAt *time.Time
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
	// Status is StatusOpen or StatusClosed, or "" for every status.
	Status Status
	// Tag, when not empty, keeps jobs carrying this tag (exact match,
	// case-insensitive).
	Tag string
	// Funded keeps only jobs whose escrow status is funded.
	Funded bool
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

// Cursor is a position in a list ordered by (created_at, id).
type Cursor struct {
	At time.Time
	ID string
}

// ListInput pages a list.
type ListInput struct {
	Limit  int
	Cursor string
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
	// close reference, featured score and until, payout total; not the
	// escrow state, which only EscrowStore.SetJobEscrow writes). Errors:
	// NotFound.
	UpdateJob(ctx context.Context, j *Job) error
	// ListJobs returns up to f.Limit jobs in the order of JobCursor.
	ListJobs(ctx context.Context, f JobFilter) ([]*Job, error)
}

// CreateJobInput is a request to post a job.
type CreateJobInput struct {
	Title                  string             `name:"title"`
	Prompt                 string             `name:"prompt"`
	Bounty                 openjury.MicroUSDC `name:"bounty_usdc"`
	Tags                   []string           `name:"tags"`
	FinalVoteWindowSeconds *int64             `name:"final_vote_window_seconds"`
	// JuryMode is "open" (or empty) or "commit_reveal"; JurySize, when
	// set, the odd size of a panel drawn at creation; the windows of a
	// commit-reveal jury default to Config.JuryCommitWindow and
	// JuryRevealWindow.
	JuryMode          string `name:"jury_mode"`
	JurySize          *int64 `name:"jury_size"`
	JuryCommitSeconds *int64 `name:"jury_commit_seconds"`
	JuryRevealSeconds *int64 `name:"jury_reveal_seconds"`
}

// tagsRule is the rule of the tags of a job or a post.
var tagsRule = valid.Max(MaxTags) + ",dive,min=1," + valid.Max(MaxTagChars)

// createJobRules validates CreateJobInput, with the limits above.
var createJobRules = valid.New(valid.For[CreateJobInput](valid.Rules{
	"Title":                  "notblank," + valid.Max(MaxTitleChars),
	"Prompt":                 "notblank," + valid.Max(MaxPromptChars),
	"Tags":                   tagsRule,
	"FinalVoteWindowSeconds": "omitnil," + valid.Min(MinFinalVoteWindow/time.Second) + "," + valid.Max(MaxFinalVoteWindow/time.Second),
}))

// CreateJob posts a job sponsored by the caller. The final-vote window
// starts at creation, or in commit-reveal mode when the reveal window
// ends. With a jury size, the panel is drawn in the same transaction from
// a server seed, or, with a chain configured, pinned to the eligible set
// of now and drawn once the seed block exists (JuryStep). Errors: Invalid;
// Unavailable (the chain's head, for a panel).
func (s *Service) CreateJob(ctx context.Context, sponsor openjury.Address, in CreateJobInput) (*Job, error) {
	const op = "marketplace.CreateJob"
	if sponsor.IsZero() {
		return nil, openjury.E(openjury.Unauthenticated, op, "sign in to post a job")
	}
	in.Tags = trimTags(in.Tags)
	if err := createJobRules.Struct(op, in); err != nil {
		return nil, err
	}
	if in.Bounty < 0 || in.Bounty > MaxBounty {
		return nil, openjury.Errorf(openjury.Invalid, op, "bounty_usdc: must be between 0 and %s", MaxBounty)
	}
	jury, err := s.checkJury(op, in)
	if err != nil {
		return nil, err
	}
	seedBlock, err := s.seedBlockOf(ctx, op, jury)
	if err != nil {
		return nil, err
	}
	window := s.cfg.DefaultFinalVoteWindow
	if in.FinalVoteWindowSeconds != nil {
		window = time.Duration(*in.FinalVoteWindowSeconds) * time.Second
	}
	now := openjury.Truncate(s.clock.Now())
	j := &Job{
		ID:                openjury.NewID(),
		Title:             in.Title,
		Prompt:            in.Prompt,
		Bounty:            in.Bounty,
		Tags:              NormalizeTags(in.Tags),
		Status:            StatusOpen,
		Sponsor:           sponsor,
		CreatedAt:         now,
		FinalVoteStartsAt: now,
		FinalVoteEndsAt:   now.Add(window),
		JuryMode:          jury.mode,
		JurySize:          jury.size,
	}
	if jury.commitReveal {
		commitEnds := now.Add(jury.commit)
		revealEnds := commitEnds.Add(jury.reveal)
		j.JuryCommitEndsAt, j.JuryRevealEndsAt = &commitEnds, &revealEnds
		j.FinalVoteStartsAt, j.FinalVoteEndsAt = revealEnds, revealEnds.Add(window)
	}
	err = s.db.InTx(ctx, func(ctx context.Context, tx Tx) error {
		if err := tx.Jobs().CreateJob(ctx, j); err != nil {
			return err
		}
		var drawn []*events.Event
		if jury.hasPanel {
			var err error
			if drawn, err = s.drawAtCreation(ctx, tx, j, seedBlock); err != nil {
				return err
			}
		}
		err := indexed(ctx, tx, DocJob, j.ID, now, nil)
		return emitted(ctx, tx, err, jobCreatedEvents(j, drawn)...)
	})
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	return j, nil
}

// jobCreatedEvents are the events of a new job: job.created, the
// jury.drawn events of a panel drawn at creation, then its timers in the
// order they fire: for a commit-reveal job jury.reveal_opened, then
// final_vote.opened (closing the job cancels those still waiting).
func jobCreatedEvents(j *Job, drawn []*events.Event) []*events.Event {
	evs := append([]*events.Event{jobCreatedEvent(j)}, drawn...)
	if j.JuryMode == JuryCommitReveal && j.JuryCommitEndsAt != nil && j.JuryRevealEndsAt != nil {
		evs = append(evs, revealOpenedEvent(j))
	}
	return append(evs, finalVoteOpenedEvent(j))
}

// revealOpenedEvent is the jury.reveal_opened event of a commit-reveal
// job: a timer at the end of its commit window, when its jurors may
// reveal.
func revealOpenedEvent(j *Job) *events.Event {
	return &events.Event{Type: events.JuryRevealOpened, CreatedAt: *j.JuryCommitEndsAt, JobID: j.ID,
		Data: events.Data{"job_id": j.ID, "jury_commit_ends_at": timeData(*j.JuryCommitEndsAt), "jury_reveal_ends_at": timeData(*j.JuryRevealEndsAt)}}
}

// jobCreatedEvent is the job.created event of a new job.
func jobCreatedEvent(j *Job) *events.Event {
	return &events.Event{Type: events.JobCreated, CreatedAt: j.CreatedAt, JobID: j.ID, Actor: j.Sponsor,
		Data: events.Data{
			"job_id": j.ID, "title": j.Title, "bounty_usdc": usdcData(j.Bounty), "tags": j.Tags,
			"sponsor_address": j.Sponsor.String(), "created_at": timeData(j.CreatedAt),
			"final_vote_starts_at": timeData(j.FinalVoteStartsAt), "final_vote_ends_at": timeData(j.FinalVoteEndsAt),
		}}
}

// finalVoteOpenedEvent is the final_vote.opened event of a job: a timer
// at the start of its final-vote window (at creation in open mode).
func finalVoteOpenedEvent(j *Job) *events.Event {
	return &events.Event{Type: events.FinalVoteOpened, CreatedAt: j.FinalVoteStartsAt, JobID: j.ID,
		Data: events.Data{"job_id": j.ID, "final_vote_starts_at": timeData(j.FinalVoteStartsAt), "final_vote_ends_at": timeData(j.FinalVoteEndsAt)}}
}

// Job returns one job. Errors: NotFound, Invalid (a NUL in id).
func (s *Service) Job(ctx context.Context, id string) (*Job, error) {
	const op = "marketplace.Job"
	if err := valid.Text(op, "job_id", id); err != nil {
		return nil, err
	}
	if !openjury.ValidID(id) {
		return nil, openjury.E(openjury.NotFound, op, "job not found")
	}
	j, err := s.db.Jobs().Job(ctx, id)
	return j, openjury.Wrap(op, err)
}

// ListJobsInput selects a page of jobs.
type ListJobsInput struct {
	// Status is "open" (the default when empty) or "all".
	Status string
	// OnlyClosed, with Status "" or "all", lists closed jobs only (the
	// web app's filter; the HTTP API's status stays open or all,
	// docs/rules.md#jobs).
	OnlyClosed bool
	// Tag keeps jobs with this tag (exact, case-insensitive).
	Tag string
	// Funded keeps only jobs whose escrow holds the bounty (escrow status
	// funded).
	Funded bool
	// Limit is the page size: 0 means 50, else 1..200.
	Limit int
	// Cursor is the NextCursor of the previous page, or "".
	Cursor string
}

// JobPage is one page of jobs; NextCursor is "" on the last page.
type JobPage struct {
	Jobs       []*Job
	NextCursor string
}

// ListJobs lists jobs: active boosts first by featured score, then newest
// first, ties by id. Errors: Invalid.
func (s *Service) ListJobs(ctx context.Context, in ListJobsInput) (JobPage, error) {
	const op = "marketplace.ListJobs"
	f := JobFilter{Limit: in.Limit, Funded: in.Funded}
	switch in.Status {
	case "", string(StatusOpen):
		f.Status = StatusOpen
	case "all":
		f.Status = ""
	default:
		return JobPage{}, openjury.E(openjury.Invalid, op, "status: must be open or all")
	}
	if in.OnlyClosed {
		if f.Status == StatusOpen && in.Status != "" {
			return JobPage{}, openjury.E(openjury.Invalid, op, "status: open contradicts closed only")
		}
		f.Status = StatusClosed
	}
	var err error
	if f.Limit, err = valid.Limit(op, in.Limit, DefaultListLimit, MaxListLimit); err != nil {
		return JobPage{}, err
	}
	if f.Tag, err = tagFilter(op, in.Tag); err != nil {
		return JobPage{}, err
	}
	f.Ref = openjury.Truncate(s.clock.Now())
	if in.Cursor != "" {
		c, ref, err := decodeJobCursor(op, in.Cursor)
		if err != nil {
			return JobPage{}, err
		}
		f.After, f.Ref = &c, ref
	}
	want := f.Limit
	f.Limit++
	jobs, err := s.db.Jobs().ListJobs(ctx, f)
	if err != nil {
		return JobPage{}, openjury.Wrap(op, err)
	}
	var page JobPage
	page.Jobs, page.NextCursor = cursor.Cut(jobs, want, func(last *Job) string {
		return encodeJobCursor(JobCursor{Rank: Rank(last, f.Ref), CreatedAt: last.CreatedAt, ID: last.ID}, f.Ref)
	})
	return page, nil
}

// Rank is a job's first sort key at ref: its featured score while the boost
// is active, else 0.
func Rank(j *Job, ref time.Time) int64 {
	if j.FeaturedUntil != nil && j.FeaturedUntil.After(ref) {
		return j.FeaturedScore
	}
	return 0
}

type jobCursorJSON struct {
	Rank int64  `json:"r"`
	At   int64  `json:"c"`
	ID   string `json:"i"`
	Ref  int64  `json:"t"`
}

// encodeJobCursor makes an opaque cursor. The reference time of the first
// page travels with it, so every page of one listing uses the same order.
func encodeJobCursor(c JobCursor, ref time.Time) string {
	return cursor.Encode(jobCursorJSON{Rank: c.Rank, At: c.CreatedAt.UnixMilli(), ID: c.ID, Ref: ref.UnixMilli()})
}

func decodeJobCursor(op, s string) (JobCursor, time.Time, error) {
	var c jobCursorJSON
	if err := cursor.Decode(op, s, &c); err != nil {
		return JobCursor{}, time.Time{}, err
	}
	if !openjury.ValidID(c.ID) || c.Rank < 0 {
		return JobCursor{}, time.Time{}, openjury.E(openjury.Invalid, op, cursor.Invalid)
	}
	return JobCursor{Rank: c.Rank, CreatedAt: time.UnixMilli(c.At).UTC(), ID: c.ID}, time.UnixMilli(c.Ref).UTC(), nil
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

// tagFilter is the tag parameter of a list: trimmed and lowercased for the
// store's case-insensitive match. Errors: Invalid when longer than a tag
// or holding a NUL character.
func tagFilter(op, tag string) (string, error) {
	if err := valid.Text(op, "tag", tag); err != nil {
		return "", err
	}
	tag = strings.ToLower(strings.TrimSpace(tag))
	if len([]rune(tag)) > MaxTagChars {
		return "", openjury.Errorf(openjury.Invalid, op, "tag: must be at most %d characters", MaxTagChars)
	}
	return tag, nil
}

func trimTags(tags []string) []string {
	if tags == nil {
		return nil
	}
	out := make([]string, len(tags))
	for i, t := range tags {
		out[i] = strings.TrimSpace(t)
	}
	return out
}

// NormalizeTags trims tags and drops case-insensitive duplicates, keeping
// the first spelling and the order. It never returns nil.
func NormalizeTags(tags []string) []string {
	out := make([]string, 0, len(tags))
	seen := make(map[string]bool, len(tags))
	for _, t := range tags {
		t = strings.TrimSpace(t)
		k := strings.ToLower(t)
		if t == "" || seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, t)
	}
	return out
}
