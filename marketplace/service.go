package marketplace

import (
	"context"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/openjury/openjury"
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

// Config holds the marketplace settings.
type Config struct {
	// DefaultFinalVoteWindow is the final-vote window of a job created
	// without final_vote_window_seconds.
	DefaultFinalVoteWindow time.Duration
	// MinStake is the stake needed to submit, to cast jury votes and,
	// unless FinalVoteOpen, to cast final votes.
	MinStake openjury.MicroUSDC
	// MinRepScoreToVote is the reputation score needed to cast jury votes.
	MinRepScoreToVote int64
	// FinalVoteOpen lets any signed-in address cast final votes
	// (SERVICE_FINAL_VOTE_OPEN=1). False, the default, asks a final voter
	// for the stake a submission needs (MinStake): without it, a handful
	// of fresh wallets could decide any job (docs/rules.md#final-votes).
	FinalVoteOpen bool
	// AGRMintPerWin is credited to the winner of a job (0: none).
	AGRMintPerWin int64
	// Economy is the published USDC split.
	Economy Economy
	// Operators may delete any comment.
	Operators []openjury.Address
	// BaseURL is the public base URL of the service; a job's anchor_uri
	// is {BaseURL}/api/v1/jobs/{job_id}/anchor/snapshot.
	BaseURL string
	// SaltSource gives the 32 random bytes of each snapshot's salt; nil
	// means crypto/rand. Tests may fix it.
	SaltSource io.Reader
}

// Economy is the published split of a bounty, as fractions of 1.
type Economy struct {
	AgentPayoutPct float64
	PlatformFeePct float64
	JuryPoolPct    float64
}

// DefaultEconomy is the split used when Config.Economy is zero.
var DefaultEconomy = Economy{AgentPayoutPct: 0.85, PlatformFeePct: 0.05, JuryPoolPct: 0.10}

// Service carries out the marketplace operations.
type Service struct {
	db    DB
	clock openjury.Clock
	cfg   Config
}

// NewService returns a Service over db. A zero DefaultFinalVoteWindow
// becomes 24 hours.
func NewService(db DB, clock openjury.Clock, cfg Config) *Service {
	if cfg.DefaultFinalVoteWindow <= 0 {
		cfg.DefaultFinalVoteWindow = DefaultFinalVoteWindow
	}
	if cfg.Economy == (Economy{}) {
		cfg.Economy = DefaultEconomy
	}
	cfg.Operators = slices.Clone(cfg.Operators)
	return &Service{db: db, clock: clock, cfg: cfg}
}

// Config returns the service's settings.
func (s *Service) Config() Config {
	c := s.cfg
	c.Operators = slices.Clone(c.Operators)
	return c
}

// CreateJobInput is a request to post a job.
// Its rules are createJobRules.
type CreateJobInput struct {
	Title                  string             `name:"title"`
	Prompt                 string             `name:"prompt"`
	Bounty                 openjury.MicroUSDC `name:"bounty_usdc"`
	Tags                   []string           `name:"tags"`
	FinalVoteWindowSeconds *int64             `name:"final_vote_window_seconds"`
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
// starts at creation. Errors: Invalid.
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
	}
	err := s.db.InTx(ctx, func(ctx context.Context, tx Tx) error {
		return indexed(ctx, tx, DocJob, j.ID, now, tx.Jobs().CreateJob(ctx, j))
	})
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	return j, nil
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
	// Tag keeps jobs with this tag (exact, case-insensitive).
	Tag string
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
	f := JobFilter{Limit: in.Limit}
	switch in.Status {
	case "", string(StatusOpen):
		f.Status = StatusOpen
	case "all":
		f.Status = ""
	default:
		return JobPage{}, openjury.E(openjury.Invalid, op, "status: must be open or all")
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
