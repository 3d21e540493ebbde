package marketplace_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest"
)

var sponsor = openjury.MustAddress("0x00000000000000000000000000000000000000aa")

type fixture struct {
	svc   *marketplace.Service
	db    *bunstore.DB
	clock *openjurytest.Clock
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	db := openjurytest.NewDB(t)
	clk := openjurytest.NewClock()
	return &fixture{svc: marketplace.NewService(db, clk, marketplace.Config{DefaultFinalVoteWindow: 2 * time.Hour}), db: db, clock: clk}
}

func (f *fixture) create(t *testing.T, title string, tags ...string) *marketplace.Job {
	t.Helper()
	j, err := f.svc.CreateJob(context.Background(), sponsor, marketplace.CreateJobInput{Title: title, Prompt: "do " + title, Bounty: 5 * openjury.MicroPerUSDC, Tags: tags})
	require.NoError(t, err)
	return j
}

func TestCreateJob(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	window := int64(600)
	j, err := f.svc.CreateJob(ctx, sponsor, marketplace.CreateJobInput{
		Title: "Summarise", Prompt: "Summarise the paper", Bounty: 12_500_000,
		Tags: []string{" Go ", "go", "AI", "ai ", "search"}, FinalVoteWindowSeconds: &window,
	})
	require.NoError(t, err)
	require.True(t, openjury.ValidID(j.ID))
	require.Equal(t, []string{"Go", "AI", "search"}, j.Tags, "trimmed, de-duplicated case-insensitively, first spelling kept")
	require.Equal(t, marketplace.StatusOpen, j.Status)
	require.Equal(t, sponsor, j.Sponsor)
	require.Equal(t, f.clock.Now(), j.CreatedAt)
	require.Equal(t, j.CreatedAt, j.FinalVoteStartsAt, "the window starts at creation")
	require.Equal(t, j.CreatedAt.Add(10*time.Minute), j.FinalVoteEndsAt)

	got, err := f.svc.Job(ctx, j.ID)
	require.NoError(t, err)
	require.Equal(t, j, got)

	d := f.create(t, "default window")
	require.Equal(t, d.CreatedAt.Add(2*time.Hour), d.FinalVoteEndsAt, "the configured default window")
	require.Equal(t, []string{}, d.Tags)

	_, err = f.svc.Job(ctx, openjury.NewID())
	require.Equal(t, openjury.NotFound, openjury.KindOf(err))
	_, err = f.svc.Job(ctx, "../etc/passwd")
	require.Equal(t, openjury.NotFound, openjury.KindOf(err))
	_, err = f.svc.CreateJob(ctx, "", marketplace.CreateJobInput{Title: "x", Prompt: "y"})
	require.Equal(t, openjury.Unauthenticated, openjury.KindOf(err))
}

func TestCreateJobValidation(t *testing.T) {
	t.Parallel()
	ok := func() marketplace.CreateJobInput {
		return marketplace.CreateJobInput{Title: "t", Prompt: "p", Bounty: 1}
	}
	i64 := func(v int64) *int64 { return &v }
	manyTags := make([]string, 17)
	for i := range manyTags {
		manyTags[i] = string(rune('a' + i))
	}
	cases := []struct {
		name   string
		edit   func(*marketplace.CreateJobInput)
		detail string
	}{
		{"no title", func(in *marketplace.CreateJobInput) { in.Title = "" }, "title: is required and must not be blank"},
		{"blank title", func(in *marketplace.CreateJobInput) { in.Title = " \t\n" }, "title: is required and must not be blank"},
		{"long title", func(in *marketplace.CreateJobInput) { in.Title = strings.Repeat("é", 141) }, "title: must be at most 140 characters"},
		{"blank prompt", func(in *marketplace.CreateJobInput) { in.Prompt = "  " }, "prompt: is required and must not be blank"},
		{"long prompt", func(in *marketplace.CreateJobInput) { in.Prompt = strings.Repeat("p", 20001) }, "prompt: must be at most 20000 characters"},
		{"negative bounty", func(in *marketplace.CreateJobInput) { in.Bounty = -1 }, "bounty_usdc: must be between 0 and 1000000000000"},
		{"huge bounty", func(in *marketplace.CreateJobInput) { in.Bounty = marketplace.MaxBounty + 1 }, "bounty_usdc: must be between 0 and 1000000000000"},
		{"17 tags", func(in *marketplace.CreateJobInput) { in.Tags = manyTags }, "tags: must have at most 16 items"},
		{"blank tag", func(in *marketplace.CreateJobInput) { in.Tags = []string{"ok", "   "} }, "tags[1]: must be at least 1 characters"},
		{"long tag", func(in *marketplace.CreateJobInput) { in.Tags = []string{strings.Repeat("t", 33)} }, "tags[0]: must be at most 32 characters"},
		{"short window", func(in *marketplace.CreateJobInput) { in.FinalVoteWindowSeconds = i64(59) }, "final_vote_window_seconds: must be at least 60"},
		{"long window", func(in *marketplace.CreateJobInput) { in.FinalVoteWindowSeconds = i64(2592001) }, "final_vote_window_seconds: must be at most 2592000"},
	}
	f := newFixture(t)
	for _, tc := range cases {
		in := ok()
		tc.edit(&in)
		_, err := f.svc.CreateJob(context.Background(), sponsor, in)
		require.Equal(t, openjury.Invalid, openjury.KindOf(err), tc.name)
		require.Equal(t, tc.detail, openjury.DetailOf(err), tc.name)
	}
	page, err := f.svc.ListJobs(context.Background(), marketplace.ListJobsInput{Status: "all"})
	require.NoError(t, err)
	require.Empty(t, page.Jobs, "nothing is half-written")

	// The edges themselves are fine.
	in := ok()
	in.Title, in.Bounty, in.FinalVoteWindowSeconds = strings.Repeat("é", 140), marketplace.MaxBounty, i64(60)
	in.Tags = manyTags[:16]
	_, err = f.svc.CreateJob(context.Background(), sponsor, in)
	require.NoError(t, err)
}

// boost sets featured fields directly through the store, as the boost
// operation of a later issue will.
func (f *fixture) boost(t *testing.T, id string, score int64, until time.Time) {
	t.Helper()
	err := f.db.InTx(context.Background(), func(ctx context.Context, tx marketplace.Tx) error {
		j, err := tx.Jobs().JobForUpdate(ctx, id)
		if err != nil {
			return err
		}
		j.FeaturedScore, j.FeaturedUntil = score, &until
		return tx.Jobs().UpdateJob(ctx, j)
	})
	require.NoError(t, err)
}

func ids(jobs []*marketplace.Job) []string {
	out := make([]string, len(jobs))
	for i, j := range jobs {
		out[i] = j.Title
	}
	return out
}

func TestListOrderFiltersAndPages(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	a := f.create(t, "a", "Go")
	f.clock.Advance(time.Second)
	b := f.create(t, "b", "golang")
	f.clock.Advance(time.Second)
	c := f.create(t, "c", "GO", "rust")
	f.clock.Advance(time.Second)
	d := f.create(t, "d")
	f.clock.Advance(time.Second)
	e := f.create(t, "e")

	now := f.clock.Now()
	f.boost(t, a.ID, 5, now.Add(time.Hour))
	f.boost(t, b.ID, 9, now.Add(time.Hour))
	f.boost(t, d.ID, 100, now.Add(time.Minute))
	_ = c
	_ = e

	page, err := f.svc.ListJobs(ctx, marketplace.ListJobsInput{})
	require.NoError(t, err)
	require.Equal(t, []string{"d", "b", "a", "e", "c"}, ids(page.Jobs), "active boosts first by score, then newest")
	require.Empty(t, page.NextCursor)

	f.clock.Advance(2 * time.Minute)
	page, err = f.svc.ListJobs(ctx, marketplace.ListJobsInput{})
	require.NoError(t, err)
	require.Equal(t, []string{"b", "a", "e", "d", "c"}, ids(page.Jobs), "an expired boost ranks like no boost")

	page, err = f.svc.ListJobs(ctx, marketplace.ListJobsInput{Tag: "go"})
	require.NoError(t, err)
	require.Equal(t, []string{"a", "c"}, ids(page.Jobs), "tag filter is exact and case-insensitive")
	page, err = f.svc.ListJobs(ctx, marketplace.ListJobsInput{Tag: " GoLang "})
	require.NoError(t, err)
	require.Equal(t, []string{"b"}, ids(page.Jobs))

	// Close one job: it leaves the default (open) list but stays in "all".
	require.NoError(t, f.db.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		j, err := tx.Jobs().JobForUpdate(ctx, e.ID)
		if err != nil {
			return err
		}
		closedAt := f.clock.Now()
		j.Status, j.ClosedAt = marketplace.StatusClosed, &closedAt
		return tx.Jobs().UpdateJob(ctx, j)
	}))
	page, err = f.svc.ListJobs(ctx, marketplace.ListJobsInput{Status: "open"})
	require.NoError(t, err)
	require.Equal(t, []string{"b", "a", "d", "c"}, ids(page.Jobs))

	// Walk "all" two at a time: every job exactly once, in order.
	var walked []string
	cursor := ""
	for range 10 {
		page, err = f.svc.ListJobs(ctx, marketplace.ListJobsInput{Status: "all", Limit: 2, Cursor: cursor})
		require.NoError(t, err)
		require.LessOrEqual(t, len(page.Jobs), 2)
		walked = append(walked, ids(page.Jobs)...)
		if page.NextCursor == "" {
			break
		}
		cursor = page.NextCursor
		// Time passing between pages does not reshuffle the listing.
		f.clock.Advance(time.Hour)
	}
	require.Equal(t, []string{"b", "a", "e", "d", "c"}, walked)
}

func TestListJobsValidation(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cases := []struct {
		in     marketplace.ListJobsInput
		detail string
	}{
		{marketplace.ListJobsInput{Status: "closed"}, "status: must be open or all"},
		{marketplace.ListJobsInput{Limit: -1}, "limit: must be between 1 and 200"},
		{marketplace.ListJobsInput{Limit: 201}, "limit: must be between 1 and 200"},
		{marketplace.ListJobsInput{Cursor: "garbage"}, "cursor: not a cursor from this list"},
		{marketplace.ListJobsInput{Tag: strings.Repeat("x", 33)}, "tag: must be at most 32 characters"},
	}
	for _, tc := range cases {
		_, err := f.svc.ListJobs(context.Background(), tc.in)
		require.Equal(t, openjury.Invalid, openjury.KindOf(err), tc.detail)
		require.Equal(t, tc.detail, openjury.DetailOf(err))
	}
}
