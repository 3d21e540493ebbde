package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/stake"
)

// base is the suite's reference time; its milliseconds are not zero so a
// store that drops them fails the round trips.
var base = time.Date(2026, 11, 21, 12, 0, 0, 123_000_000, time.UTC)

var (
	sponsor = openjury.MustAddress("0x1111111111111111111111111111111111111111")
	other   = openjury.MustAddress("0x2222222222222222222222222222222222222222")
)

// id returns a valid, ordered job id: id(2) sorts after id(1).
func id(n int) string { return fmt.Sprintf("00000000-0000-7000-8000-%012d", n) }

func ptr[T any](v T) *T { return &v }

// newJob returns an open job created at created, with its final-vote
// window starting then.
func newJob(n int, created time.Time) *marketplace.Job {
	return &marketplace.Job{
		ID:                id(n),
		Title:             fmt.Sprintf("Job %d", n),
		Prompt:            fmt.Sprintf("Do task %d.", n),
		Bounty:            openjury.MicroUSDC(1_500_000 + n),
		Tags:              []string{},
		Status:            marketplace.StatusOpen,
		Sponsor:           sponsor,
		CreatedAt:         created,
		FinalVoteStartsAt: created,
		FinalVoteEndsAt:   created.Add(24 * time.Hour),
	}
}

func create(t *testing.T, b Backend, jobs ...*marketplace.Job) {
	t.Helper()
	ctx := context.Background()
	for _, j := range jobs {
		require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
			return tx.Jobs().CreateJob(ctx, j)
		}), "create %s", j.ID)
	}
}

func getJob(t *testing.T, b Backend, jobID string) *marketplace.Job {
	t.Helper()
	j, err := b.Jobs().Job(context.Background(), jobID)
	require.NoError(t, err)
	return j
}

func ids(jobs []*marketplace.Job) []string {
	out := make([]string, len(jobs))
	for i, j := range jobs {
		out[i] = j.ID
	}
	return out
}

func list(t *testing.T, b Backend, f marketplace.JobFilter) []string {
	t.Helper()
	jobs, err := b.Jobs().ListJobs(context.Background(), f)
	require.NoError(t, err)
	return ids(jobs)
}

func requireKind(t *testing.T, want openjury.Kind, err error) {
	t.Helper()
	require.Error(t, err)
	require.Equal(t, want, openjury.KindOf(err), "error: %v", err)
}

func (s *suite) jobTests() []test {
	return []test{
		{name: "RoundTripEveryField", run: testJobRoundTrip},
		{name: "RoundTripEmptyOptionals", run: testJobRoundTripEmpty},
		{name: "NotFound", run: testJobNotFound},
		{name: "DuplicateIDConflict", run: testJobDuplicate},
		{name: "UpdateRoundTrip", run: testJobUpdate},
		{name: "UpdateNotFound", run: testJobUpdateNotFound},
		{name: "ListOrder", run: testListOrder},
		{name: "ListStatusFilter", run: testListStatus},
		{name: "ListTagFilter", run: testListTag},
		{name: "ListLimit", run: testListLimit},
		{name: "ListKeysetPagination", run: testListPages},
		{name: "JobForSubmit", run: testJobForSubmit},
		{name: "JobForSubmitLocksAndCountsAfterTheLock", run: testJobForSubmitLock, skip: func(f Features) string {
			if !f.RowLocks {
				return "backend has no row locks (Features.RowLocks is false)"
			}
			return ""
		}},
	}
}

// forSubmit runs JobForSubmit in a transaction of its own.
func forSubmit(t *testing.T, b Backend, jobID string, agent openjury.Address) (*marketplace.SubmitState, error) {
	t.Helper()
	var st *marketplace.SubmitState
	err := b.InTx(context.Background(), func(ctx context.Context, tx marketplace.Tx) error {
		var err error
		st, err = tx.Jobs().JobForSubmit(ctx, jobID, agent)
		return err
	})
	return st, err
}

// testJobForSubmit reads a job with an agent's stake and submission count:
// a missing job, no stake, a stake, counts of 0, 1 and 2 that leave out
// other agents and other jobs, and a transaction's own writes.
func testJobForSubmit(t *testing.T, b Backend) {
	ctx := context.Background()
	j := newJob(1, base)
	j.Tags = []string{"Go"}
	create(t, b, j, newJob(2, base))

	_, err := forSubmit(t, b, id(3), alice)
	requireKind(t, openjury.NotFound, err)
	require.Equal(t, "job not found", openjury.DetailOf(err))
	_, err = b.Jobs().JobForSubmit(ctx, id(3), alice)
	requireKind(t, openjury.NotFound, err)

	st, err := forSubmit(t, b, j.ID, alice)
	require.NoError(t, err)
	require.Equal(t, &marketplace.SubmitState{Job: j, Stake: stake.Stake{Address: alice}}, st, "no stake, no submissions")

	full := stake.Stake{Address: alice, Staked: 12_500_000, Ref: fullRef(1), UpdatedAt: at(3)}
	putStake(t, b, full)
	putStake(t, b, stake.Stake{Address: bob, Staked: 99_000_000, UpdatedAt: at(4)})
	zero := stake.Stake{Address: carol, UpdatedAt: at(5)} // a row, at zero
	putStake(t, b, zero)

	count := func(jobID string, agent openjury.Address) int {
		t.Helper()
		st, err := forSubmit(t, b, jobID, agent)
		require.NoError(t, err)
		require.Equal(t, getJob(t, b, jobID), st.Job)
		require.Equal(t, getStake(t, b, agent), st.Stake)
		return st.Submissions
	}
	require.Equal(t, 0, count(j.ID, alice))
	st, err = forSubmit(t, b, j.ID, alice)
	require.NoError(t, err)
	require.Equal(t, full, st.Stake, "the whole stake row")
	st, err = forSubmit(t, b, j.ID, carol)
	require.NoError(t, err)
	require.Equal(t, zero, st.Stake, "a stake row at zero")

	submit(t, b, newSubmission(101, j.ID, alice, at(10)))
	require.Equal(t, 1, count(j.ID, alice))
	submit(t, b,
		newSubmission(102, j.ID, bob, at(11)),
		newSubmission(103, j.ID, bob, at(12)),
		newSubmission(104, j.ID, carol, at(13)),
		newSubmission(105, id(2), alice, at(14)), // another job
	)
	require.Equal(t, 1, count(j.ID, alice), "other agents and jobs are not counted")
	submit(t, b, newSubmission(106, j.ID, alice, at(15)))
	require.Equal(t, 2, count(j.ID, alice))
	require.Equal(t, 2, count(j.ID, bob))
	require.Equal(t, 1, count(j.ID, carol))
	require.Equal(t, 1, count(id(2), alice))
	require.Equal(t, 0, count(id(2), bob))
	require.Equal(t, 0, count(j.ID, dave))

	// A transaction counts its own writes, and reads the job as it left it.
	require.Equal(t, errBoom, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		st, err := tx.Jobs().JobForSubmit(ctx, j.ID, alice)
		require.NoError(t, err)
		st.Job.Status = marketplace.StatusClosed
		require.NoError(t, tx.Jobs().UpdateJob(ctx, st.Job))
		require.NoError(t, tx.Submissions().CreateSubmission(ctx, newSubmission(107, j.ID, alice, at(16))))
		again, err := tx.Jobs().JobForSubmit(ctx, j.ID, alice)
		require.NoError(t, err)
		require.Equal(t, 3, again.Submissions)
		require.Equal(t, marketplace.StatusClosed, again.Job.Status)
		return errBoom
	}))
	require.Equal(t, 2, count(j.ID, alice), "rolled back")
}

// testJobForSubmitLock: JobForSubmit takes the job's row lock, waits for a
// transaction holding it, and its count includes the submissions that
// transaction committed while it waited (PostgreSQL, READ COMMITTED: a
// count in the locking statement's own snapshot would miss them, and two
// concurrent submissions of one agent would both pass the limit).
func testJobForSubmitLock(t *testing.T, b Backend) {
	create(t, b, newJob(1, base), newJob(2, base))
	submit(t, b, newSubmission(100, id(1), alice, at(1)))
	release := holdLockWith(t, b, func(ctx context.Context, tx marketplace.Tx) (*marketplace.Job, error) {
		st, err := tx.Jobs().JobForSubmit(ctx, id(1), alice)
		if err != nil {
			return nil, err
		}
		if st.Submissions != 1 {
			return nil, fmt.Errorf("holder counted %d submissions, want 1", st.Submissions)
		}
		return st.Job, nil
	}, func(ctx context.Context, tx marketplace.Tx) error {
		return tx.Submissions().CreateSubmission(ctx, newSubmission(101, id(1), alice, at(2)))
	})

	// Another job is not locked.
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		_, err := tx.Jobs().JobForSubmit(ctx, id(2), alice)
		return err
	}), "a lock on job 1 blocked job 2")
	st := waitsForLock(t, b, release, "JobForSubmit", func(ctx context.Context, tx marketplace.Tx) (*marketplace.SubmitState, error) {
		return tx.Jobs().JobForSubmit(ctx, id(1), alice)
	})
	require.Equal(t, int64(7), st.Job.FeaturedScore, "the waiter reads the holder's committed change")
	require.Equal(t, 2, st.Submissions, "the waiter counts the holder's committed submission")
}

func testJobRoundTrip(t *testing.T, b Backend) {
	j := newJob(1, base)
	j.Title = "Summarise: ünïcödé ✓ and 'quotes' \"too\""
	j.Prompt = "line 1\nline 2\t; DROP TABLE jobs; --"
	j.Bounty = 1_000_000_000_000 * openjury.MicroPerUSDC
	j.Tags = []string{"Go", "rust", "Ünïcode"}
	j.Status = marketplace.StatusClosed
	j.WinnerSubmissionID = id(99)
	j.ClosedAt = ptr(base.Add(90*time.Minute + 7*time.Millisecond))
	j.Close = openjury.ChainRef{
		TxHash:      openjury.Hash("0x" + fmt.Sprintf("%064x", 0xabc)),
		ChainID:     ptr(int64(8453)),
		Contract:    other,
		BlockNumber: ptr(int64(1) << 40),
		LogIndex:    ptr(int64(0)), // a set zero must stay set
	}
	j.FeaturedScore = 42
	j.FeaturedUntil = ptr(base.Add(48*time.Hour + 999*time.Millisecond))
	j.FinalVoteStartsAt = base.Add(time.Millisecond)
	j.FinalVoteEndsAt = base.Add(2592000*time.Second + time.Millisecond)
	create(t, b, j)

	got := getJob(t, b, j.ID)
	require.Equal(t, j, got)
	require.Equal(t, time.UTC, got.CreatedAt.Location())

	// Inside a transaction, JobForUpdate reads the same.
	require.NoError(t, b.InTx(context.Background(), func(ctx context.Context, tx marketplace.Tx) error {
		locked, err := tx.Jobs().JobForUpdate(ctx, j.ID)
		require.NoError(t, err)
		require.Equal(t, j, locked)
		return nil
	}))

	listed, err := b.Jobs().ListJobs(context.Background(), marketplace.JobFilter{Ref: base, Limit: 10})
	require.NoError(t, err)
	require.Len(t, listed, 1)
	require.Equal(t, j, listed[0])
}

func testJobRoundTripEmpty(t *testing.T, b Backend) {
	j := newJob(1, base)
	j.Tags = nil
	j.Bounty = 0
	j.Close = openjury.ChainRef{TxHash: openjury.Hash("0x" + fmt.Sprintf("%064x", 1))} // only one part set
	create(t, b, j)

	got := getJob(t, b, j.ID)
	require.Empty(t, got.Tags)
	require.Empty(t, got.WinnerSubmissionID)
	require.Nil(t, got.ClosedAt)
	require.Nil(t, got.FeaturedUntil)
	require.Zero(t, got.FeaturedScore)
	require.Equal(t, j.Close, got.Close)
	require.Nil(t, got.Close.ChainID)
	require.Nil(t, got.Close.BlockNumber)
	require.Nil(t, got.Close.LogIndex)
	require.Empty(t, got.Close.Contract)
	got.Tags = nil
	require.Equal(t, j, got)
}

func testJobNotFound(t *testing.T, b Backend) {
	ctx := context.Background()
	create(t, b, newJob(1, base))
	_, err := b.Jobs().Job(ctx, id(2))
	requireKind(t, openjury.NotFound, err)
	err = b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		_, err := tx.Jobs().JobForUpdate(ctx, id(2))
		requireKind(t, openjury.NotFound, err)
		_, err = tx.Jobs().Job(ctx, id(3))
		requireKind(t, openjury.NotFound, err)
		return nil
	})
	require.NoError(t, err)
}

func testJobDuplicate(t *testing.T, b Backend) {
	first := newJob(1, base)
	first.Tags = []string{"a"}
	create(t, b, first)
	dup := newJob(1, base.Add(time.Hour))
	dup.Title = "impostor"
	dup.Tags = []string{"b"}
	err := b.InTx(context.Background(), func(ctx context.Context, tx marketplace.Tx) error {
		return tx.Jobs().CreateJob(ctx, dup)
	})
	requireKind(t, openjury.Conflict, err)
	// Outside InTx, CreateJob is its own transaction and also reports it.
	requireKind(t, openjury.Conflict, b.Jobs().CreateJob(context.Background(), dup))
	require.Equal(t, first, getJob(t, b, first.ID))
	require.Empty(t, list(t, b, marketplace.JobFilter{Tag: "b", Ref: base, Limit: 10}), "tags of the rejected job were stored")
}

func testJobUpdate(t *testing.T, b Backend) {
	ctx := context.Background()
	j := newJob(1, base)
	j.Tags = []string{"x"}
	create(t, b, j)
	create(t, b, newJob(2, base)) // must stay untouched

	upd := *j
	upd.Status = marketplace.StatusClosed
	upd.WinnerSubmissionID = id(50)
	upd.ClosedAt = ptr(base.Add(time.Hour + time.Millisecond))
	upd.Close = openjury.ChainRef{
		TxHash: openjury.Hash("0x" + fmt.Sprintf("%064x", 7)), ChainID: ptr(int64(1)),
		Contract: other, BlockNumber: ptr(int64(0)), LogIndex: ptr(int64(3)),
	}
	upd.FeaturedScore = 9
	upd.FeaturedUntil = ptr(base.Add(2 * time.Hour))
	// Immutable fields are not written even when they differ.
	changed := upd
	changed.Title, changed.Prompt, changed.Bounty, changed.Sponsor = "changed", "changed", 1, other
	changed.Tags = []string{"y"}
	changed.CreatedAt, changed.FinalVoteStartsAt, changed.FinalVoteEndsAt = base.Add(time.Hour), base, base
	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		return tx.Jobs().UpdateJob(ctx, &changed)
	}))
	require.Equal(t, &upd, getJob(t, b, j.ID))
	require.Equal(t, newJob(2, base), getJob(t, b, id(2)))

	// Clearing optional fields writes NULLs back; outside InTx works too.
	cleared := upd
	cleared.Status = marketplace.StatusOpen
	cleared.WinnerSubmissionID, cleared.ClosedAt, cleared.Close = "", nil, openjury.ChainRef{}
	cleared.FeaturedScore, cleared.FeaturedUntil = 0, nil
	require.NoError(t, b.Jobs().UpdateJob(ctx, &cleared))
	require.Equal(t, &cleared, getJob(t, b, j.ID))
}

func testJobUpdateNotFound(t *testing.T, b Backend) {
	create(t, b, newJob(1, base))
	err := b.InTx(context.Background(), func(ctx context.Context, tx marketplace.Tx) error {
		return tx.Jobs().UpdateJob(ctx, newJob(2, base))
	})
	requireKind(t, openjury.NotFound, err)
	requireKind(t, openjury.NotFound, b.Jobs().UpdateJob(context.Background(), newJob(3, base)))
}

// orderFixture creates jobs whose order at base exercises every sort key
// and returns their ids in the expected order.
func orderFixture(t *testing.T, b Backend) []string {
	t.Helper()
	ref := base
	at := func(n int, d time.Duration) *marketplace.Job { return newJob(n, ref.Add(-time.Hour+d)) }
	boosted := func(j *marketplace.Job, score int64, until time.Time) *marketplace.Job {
		j.FeaturedScore, j.FeaturedUntil = score, &until
		return j
	}
	j1 := at(1, 0)                                                       // oldest, no boost
	j2 := at(2, time.Second)                                             //
	j3 := at(3, 2*time.Second)                                           // same created_at as j4:
	j4 := at(4, 2*time.Second)                                           // higher id first
	j5 := boosted(at(5, -time.Minute), 5, ref.Add(time.Hour))            // active boost
	j6 := boosted(at(6, -2*time.Minute), 10, ref.Add(time.Millisecond))  // active, higher score
	j7 := boosted(at(7, 3*time.Second), 100, ref.Add(-time.Millisecond)) // expired: rank 0
	j8 := boosted(at(8, 3*time.Second), 50, ref)                         // ends exactly at ref: rank 0
	j9 := boosted(at(9, 500*time.Millisecond), 5, ref.Add(time.Minute))  // same rank as j5, newer
	j10 := at(10, 2*time.Second+time.Millisecond)                        // one ms newer than j3/j4
	j10.Status = marketplace.StatusClosed
	create(t, b, j1, j2, j3, j4, j5, j6, j7, j8, j9, j10)
	return ids([]*marketplace.Job{j6, j9, j5, j8, j7, j10, j4, j3, j2, j1})
}

func testListOrder(t *testing.T, b Backend) {
	want := orderFixture(t, b)
	require.Equal(t, want, list(t, b, marketplace.JobFilter{Ref: base, Limit: 100}))

	// Much later every boost has expired: pure created_at, id order.
	later := base.Add(24 * time.Hour)
	require.Equal(t, []string{id(8), id(7), id(10), id(4), id(3), id(2), id(9), id(1), id(5), id(6)},
		list(t, b, marketplace.JobFilter{Ref: later, Limit: 100}))
}

func testListStatus(t *testing.T, b Backend) {
	open1, open2, closed := newJob(1, base), newJob(2, base.Add(time.Second)), newJob(3, base.Add(2*time.Second))
	closed.Status = marketplace.StatusClosed
	closed.ClosedAt = ptr(base.Add(time.Hour))
	create(t, b, open1, open2, closed)
	require.Equal(t, []string{id(2), id(1)}, list(t, b, marketplace.JobFilter{Status: marketplace.StatusOpen, Ref: base, Limit: 10}))
	require.Equal(t, []string{id(3), id(2), id(1)}, list(t, b, marketplace.JobFilter{Ref: base, Limit: 10}))
	require.Equal(t, []string{id(3)}, list(t, b, marketplace.JobFilter{Status: marketplace.StatusClosed, Ref: base, Limit: 10}))
}

func testListTag(t *testing.T, b Backend) {
	j1, j2, j3, j4 := newJob(1, base), newJob(2, base.Add(time.Second)), newJob(3, base.Add(2*time.Second)), newJob(4, base.Add(3*time.Second))
	j1.Tags = []string{"Go", "Rust"}
	j2.Tags = []string{"golang"}
	j3.Tags = []string{"go-kit", "ÜBER"}
	j4.Tags = []string{"GO"}
	j4.Status = marketplace.StatusClosed
	create(t, b, j1, j2, j3, j4)
	f := func(tag string, status marketplace.Status) marketplace.JobFilter {
		return marketplace.JobFilter{Tag: tag, Status: status, Ref: base, Limit: 10}
	}
	require.Equal(t, []string{id(4), id(1)}, list(t, b, f("go", "")), "exact and case-insensitive")
	require.Equal(t, []string{id(4), id(1)}, list(t, b, f("GO", "")), "filter case does not matter")
	require.Equal(t, []string{id(1)}, list(t, b, f("go", marketplace.StatusOpen)), "tag and status combine")
	require.Equal(t, []string{id(2)}, list(t, b, f("golang", "")))
	require.Equal(t, []string{id(1)}, list(t, b, f("rust", "")))
	require.Equal(t, []string{id(3)}, list(t, b, f("über", "")))
	require.Empty(t, list(t, b, f("ru", "")), "no prefix match")
	require.Empty(t, list(t, b, f("go%", "")), "no pattern match")
	require.Empty(t, list(t, b, f("go-", "")))
	require.Len(t, list(t, b, f("", "")), 4)
	// The display spellings come back as written.
	require.Equal(t, []string{"go-kit", "ÜBER"}, getJob(t, b, id(3)).Tags)

	// Closing a job moves it out of the open tag lists too, in the same
	// transaction, and a boost changes nothing there.
	require.NoError(t, b.InTx(context.Background(), func(ctx context.Context, tx marketplace.Tx) error {
		j1.Status = marketplace.StatusClosed
		if err := tx.Jobs().UpdateJob(ctx, j1); err != nil {
			return err
		}
		open, err := tx.Jobs().ListJobs(ctx, f("go", marketplace.StatusOpen))
		require.NoError(t, err)
		require.Empty(t, ids(open), "inside the transaction")
		return nil
	}))
	require.Empty(t, list(t, b, f("go", marketplace.StatusOpen)))
	require.Empty(t, list(t, b, f("rust", marketplace.StatusOpen)))
	require.Equal(t, []string{id(4), id(1)}, list(t, b, f("go", "")))
	until := base.Add(time.Hour)
	j2.FeaturedScore, j2.FeaturedUntil = 5, &until
	require.NoError(t, b.Jobs().UpdateJob(context.Background(), j2))
	require.Equal(t, []string{id(2)}, list(t, b, f("golang", marketplace.StatusOpen)))
}

func testListLimit(t *testing.T, b Backend) {
	for n := 1; n <= 5; n++ {
		create(t, b, newJob(n, base.Add(time.Duration(n)*time.Second)))
	}
	require.Equal(t, []string{id(5), id(4)}, list(t, b, marketplace.JobFilter{Ref: base, Limit: 2}))
	require.Len(t, list(t, b, marketplace.JobFilter{Ref: base, Limit: 5}), 5)
	require.Len(t, list(t, b, marketplace.JobFilter{Ref: base, Limit: 6}), 5)
	require.Empty(t, list(t, b, marketplace.JobFilter{Ref: base, Limit: 0}))
}

// walk reads the whole list in pages of f.Limit, the way the service
// does: each page starts after the last job of the previous one.
func walk(t *testing.T, b Backend, f marketplace.JobFilter) (all []string, pages int) {
	t.Helper()
	seen := map[string]bool{}
	for pages = 0; pages < 100; pages++ {
		jobs, err := b.Jobs().ListJobs(context.Background(), f)
		require.NoError(t, err)
		require.LessOrEqual(t, len(jobs), f.Limit)
		for _, j := range jobs {
			require.False(t, seen[j.ID], "job %s on two pages", j.ID)
			seen[j.ID] = true
			all = append(all, j.ID)
		}
		if len(jobs) < f.Limit {
			return all, pages + 1
		}
		last := jobs[len(jobs)-1]
		f.After = &marketplace.JobCursor{Rank: marketplace.Rank(last, f.Ref), CreatedAt: last.CreatedAt, ID: last.ID}
	}
	t.Fatal("pagination does not end")
	return nil, 0
}

func testListPages(t *testing.T, b Backend) {
	want := orderFixture(t, b)
	for _, limit := range []int{1, 3, 4, 10} {
		got, pages := walk(t, b, marketplace.JobFilter{Ref: base, Limit: limit})
		require.Equal(t, want, got, "limit %d", limit)
		require.Equal(t, len(want)/limit+1, pages, "limit %d", limit)
	}
	// Filters apply on every page.
	wantOpen := []string{}
	for _, x := range want {
		if x != id(10) {
			wantOpen = append(wantOpen, x)
		}
	}
	got, _ := walk(t, b, marketplace.JobFilter{Status: marketplace.StatusOpen, Ref: base, Limit: 3})
	require.Equal(t, wantOpen, got)
}
