package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/stake"
)

func (s *suite) submissionTests() []test {
	return []test{
		{name: "RoundTripEvidence", run: testSubmissionRoundTrip},
		{name: "NoEvidence", run: testSubmissionNoEvidence},
		{name: "NotFound", run: testSubmissionNotFound},
		{name: "Order", run: testSubmissionsOrder},
		{name: "PagesWithTies", run: testSubmissionPages},
		{name: "KeysOnly", run: testSubmissionKeys},
		{name: "SubmitGuard", run: testSubmitGuard},
		{name: "SubmitGuardClosingLease", run: testSubmitGuardLease},
		{name: "ConcurrentFirstSubmissionsSumReputation", run: testConcurrentFirstSubmissions},
		{name: "SubmitLocksAndCountsAfterTheLock", run: testSubmitLock, skip: func(f Features) string {
			if !f.RowLocks {
				return "backend has no row locks (Features.RowLocks is false)"
			}
			return ""
		}},
	}
}

// testGuard is the guard of the Submit tests: a stake of 10, two
// submissions per agent, and a first submission worth 3 points.
var testGuard = marketplace.SubmitGuard{
	MinStake: 10, MaxPerAgent: 2,
	FirstReputation: marketplace.ReputationDelta{Score: 3, Submissions: 1},
}

// testSubmitGuard: Submit inserts exactly what SubmitGuard.Check accepts on
// the state JobForSubmit reads, returns Check's error otherwise and then
// writes nothing, adds the reputation of a first submission only, and
// leaves nothing behind in a transaction that rolls back.
func testSubmitGuard(t *testing.T, b Backend) {
	ctx := context.Background()
	closed := newJob(2, base)
	closed.Status = marketplace.StatusClosed
	create(t, b, newJob(1, base), closed)
	putStake(t, b, stake.Stake{Address: bob, Staked: 10, UpdatedAt: at(1)})
	putStake(t, b, stake.Stake{Address: carol, Staked: 9, UpdatedAt: at(1)})
	putStake(t, b, stake.Stake{Address: sponsor, Staked: 50, UpdatedAt: at(1)})
	// dave has no stake row at all.

	n := 200
	try := func(agent openjury.Address, jobID string) error {
		t.Helper()
		n++
		sub := newSubmission(n, jobID, agent, at(n))
		st, readErr := forSubmit(t, b, jobID, agent)
		before := getReputation(t, b, agent)
		err := b.Submissions().Submit(ctx, sub, testGuard)
		var want error
		if readErr != nil {
			want = readErr
		} else {
			want = testGuard.Check(st, agent)
		}
		if want != nil {
			require.Error(t, err, "submission %d of %s to %s", n, agent, jobID)
			require.Equal(t, openjury.KindOf(want), openjury.KindOf(err))
			require.Equal(t, openjury.DetailOf(want), openjury.DetailOf(err))
			_, gerr := b.Submissions().Submission(ctx, sub.ID)
			requireKind(t, openjury.NotFound, gerr)
			require.Equal(t, before, getReputation(t, b, agent), "a refused submission changes no reputation")
			return err
		}
		require.NoError(t, err, "submission %d of %s to %s", n, agent, jobID)
		require.Equal(t, sub, getSubmission(t, b, sub.ID))
		after := getReputation(t, b, agent)
		if st.Submissions == 0 {
			require.Equal(t, before.Score+3, after.Score, "a first submission adds FirstReputation")
			require.Equal(t, before.Submissions+1, after.Submissions)
			require.Equal(t, before.Wins, after.Wins)
		} else {
			require.Equal(t, before, after, "a later submission adds nothing")
		}
		return nil
	}

	require.NoError(t, try(bob, id(1)))
	require.NoError(t, try(bob, id(1)))
	require.Equal(t, "at most 2 submissions per agent per job", openjury.DetailOf(try(bob, id(1))))
	require.Equal(t, "insufficient stake", openjury.DetailOf(try(carol, id(1))))
	require.Equal(t, "insufficient stake", openjury.DetailOf(try(dave, id(1))))
	require.Equal(t, "job is closed", openjury.DetailOf(try(bob, id(2))))
	requireKind(t, openjury.Forbidden, try(sponsor, id(1)))
	require.Equal(t, "job not found", openjury.DetailOf(try(bob, id(3))))
	require.Equal(t, []string{id(201), id(202)}, listSubmissions(t, b, id(1)))

	// Stake exactly at the minimum of another agent, and the limit counts
	// per agent.
	putStake(t, b, stake.Stake{Address: carol, Staked: 10, UpdatedAt: at(2)})
	require.NoError(t, try(carol, id(1)))

	// A duplicate id is a Conflict and writes nothing more.
	dup := newSubmission(201, id(1), carol, at(300))
	requireKind(t, openjury.Conflict, b.Submissions().Submit(ctx, dup, testGuard))
	require.Equal(t, bob, getSubmission(t, b, id(201)).Agent)

	// Inside a transaction that rolls back, nothing is kept.
	erinSub := newSubmission(301, id(1), erin, at(301))
	putStake(t, b, stake.Stake{Address: erin, Staked: 10, UpdatedAt: at(3)})
	require.Equal(t, errBoom, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		require.NoError(t, tx.Submissions().Submit(ctx, erinSub, testGuard))
		return errBoom
	}))
	_, err := b.Submissions().Submission(ctx, erinSub.ID)
	requireKind(t, openjury.NotFound, err)
	require.Equal(t, marketplace.Reputation{Address: erin}, getReputation(t, b, erin))
}

// testSubmitGuardLease: a closing lease live at the guard's Now refuses a
// submission (Conflict "job is being closed"), one that has ended does
// not; Submit agrees with SubmitGuard.Check either way.
func testSubmitGuardLease(t *testing.T, b Backend) {
	ctx := context.Background()
	create(t, b, newJob(1, base))
	putStake(t, b, stake.Stake{Address: bob, Staked: 10, UpdatedAt: at(1)})
	require.NoError(t, claim(t, b, 1, id(9), base, at(1000)))
	for i, now := range []time.Time{at(0), at(999), at(1000), at(5000)} {
		g := testGuard
		g.Now = now
		st, err := forSubmit(t, b, id(1), bob)
		require.NoError(t, err)
		want := g.Check(st, bob)
		sub := newSubmission(300+i, id(1), bob, now)
		err = b.Submissions().Submit(ctx, sub, g)
		if i < 2 {
			require.Equal(t, marketplace.DetailBeingClosed, openjury.DetailOf(want))
			requireKind(t, openjury.Conflict, err)
			require.Equal(t, marketplace.DetailBeingClosed, openjury.DetailOf(err))
			continue
		}
		require.NoError(t, want)
		require.NoError(t, err, "the lease ended at %s", at(1000))
	}
	require.Equal(t, []string{id(302), id(303)}, listSubmissions(t, b, id(1)))
}

// testSubmitLock: Submit waits for a transaction holding the job's lock
// and counts the submissions it committed meanwhile, so an agent racing
// itself cannot pass the limit.
func testSubmitLock(t *testing.T, b Backend) {
	create(t, b, newJob(1, base))
	putStake(t, b, stake.Stake{Address: alice, Staked: 10, UpdatedAt: at(1)})
	submit(t, b, newSubmission(100, id(1), alice, at(1)))
	release := holdLockWith(t, b, func(ctx context.Context, tx marketplace.Tx) (*marketplace.Job, error) {
		return tx.Jobs().JobForUpdate(ctx, id(1))
	}, func(ctx context.Context, tx marketplace.Tx) error {
		return tx.Submissions().CreateSubmission(ctx, newSubmission(101, id(1), alice, at(2)))
	})
	err := waitsForLock(t, b, release, "Submit", func(ctx context.Context, tx marketplace.Tx) (error, error) {
		return tx.Submissions().Submit(ctx, newSubmission(102, id(1), alice, at(3)), testGuard), nil
	})
	requireKind(t, openjury.Conflict, err)
	require.Equal(t, "at most 2 submissions per agent per job", openjury.DetailOf(err))
	require.Equal(t, []string{id(100), id(101)}, listSubmissions(t, b, id(1)))
}

// testConcurrentFirstSubmissions: one agent's first submissions to many
// jobs at once each add their reputation exactly once, whether the
// agent's reputation row does not exist yet (the racers insert it) or
// does (they all change it).
func testConcurrentFirstSubmissions(t *testing.T, b Backend) {
	const jobs = 12
	for n := 1; n <= 2*jobs; n++ {
		create(t, b, newJob(n, base))
	}
	putStake(t, b, stake.Stake{Address: erin, Staked: 10, UpdatedAt: at(1)})
	for round := range 2 {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		errs := raceN(jobs, func(i int) error {
			n := round*jobs + i + 1
			return b.Submissions().Submit(ctx, newSubmission(100+n, id(n), erin, at(n)), testGuard)
		})
		cancel()
		for i, err := range errs {
			require.NoError(t, err, "round %d, submission %d", round, i)
		}
		r := getReputation(t, b, erin)
		done := int64((round + 1) * jobs)
		require.Equal(t, [2]int64{done * testGuard.FirstReputation.Score, done}, [2]int64{r.Score, r.Submissions},
			"round %d: score, submissions", round)
	}
}

var (
	carol = openjury.MustAddress("0xcccccccccccccccccccccccccccccccccccccccc")
	dave  = openjury.MustAddress("0xdddddddddddddddddddddddddddddddddddddddd")
	erin  = openjury.MustAddress("0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee")
	frank = openjury.MustAddress("0xffffffffffffffffffffffffffffffffffffffff")
)

func newSubmission(n int, jobID string, agent openjury.Address, created time.Time) *marketplace.Submission {
	return &marketplace.Submission{
		ID: id(n), JobID: jobID, Agent: agent, Content: "answer " + id(n),
		Evidence: []marketplace.Evidence{}, CreatedAt: created,
	}
}

func submit(t *testing.T, b Backend, subs ...*marketplace.Submission) {
	t.Helper()
	ctx := context.Background()
	for _, s := range subs {
		require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
			return tx.Submissions().CreateSubmission(ctx, s)
		}), "submit %s", s.ID)
	}
}

func getSubmission(t *testing.T, b Backend, subID string) *marketplace.Submission {
	t.Helper()
	s, err := b.Submissions().Submission(context.Background(), subID)
	require.NoError(t, err)
	return s
}

func listSubmissions(t *testing.T, b Backend, jobID string) []string {
	t.Helper()
	subs, err := b.Submissions().Submissions(context.Background(), jobID, 1000, nil)
	require.NoError(t, err)
	out := make([]string, len(subs))
	for i, s := range subs {
		out[i] = s.ID
	}
	return out
}

func testSubmissionRoundTrip(t *testing.T, b Backend) {
	create(t, b, newJob(1, base))
	s := newSubmission(100, id(1), alice, at(5))
	s.Content = "line 1\nünïcödé ✓ 'quotes' \"too\"; DROP TABLE submissions; --"
	s.Evidence = []marketplace.Evidence{
		{
			Type: "web", SourceURL: "https://example.com/a?b=c&d=e#f", RetrievedAt: "2026-11-21T12:00:00.123Z",
			SnapshotURI: "ipfs://bafy", SnapshotHash: "sha256:abc", Quote: "“quoted”\n", Claim: "the claim",
			Confidence: ptr(0.0), // a set zero stays set
			// JSON numbers read back as float64, so the fixture uses them.
			Metadata: map[string]any{
				"n": 1.5, "int": 42.0, "s": "x", "b": true, "null": nil,
				"list":   []any{1.0, "two", false, nil, map[string]any{"k": "v"}},
				"nested": map[string]any{"deeper": map[string]any{"empty": map[string]any{}, "list": []any{}}},
			},
		},
		{Claim: "only a claim"},                            // every other field absent
		{Confidence: ptr(1.0), Metadata: map[string]any{}}, // empty, not absent
		{},
	}
	submit(t, b, s)

	got := getSubmission(t, b, s.ID)
	require.Equal(t, s, got)
	require.Nil(t, got.Evidence[1].Confidence)
	require.Nil(t, got.Evidence[1].Metadata)
	require.NotNil(t, got.Evidence[2].Metadata)
	require.Equal(t, time.UTC, got.CreatedAt.Location())

	subs, err := b.Submissions().Submissions(context.Background(), id(1), 10, nil)
	require.NoError(t, err)
	require.Equal(t, []*marketplace.Submission{s}, subs)

	require.NoError(t, b.InTx(context.Background(), func(ctx context.Context, tx marketplace.Tx) error {
		got, err := tx.Submissions().Submission(ctx, s.ID)
		require.NoError(t, err)
		require.Equal(t, s, got)
		return nil
	}))
}

func testSubmissionNoEvidence(t *testing.T, b Backend) {
	create(t, b, newJob(1, base))
	s := newSubmission(100, id(1), alice, base)
	s.Evidence = nil
	require.NoError(t, b.Submissions().CreateSubmission(context.Background(), s), "outside InTx")
	got := getSubmission(t, b, s.ID)
	require.Empty(t, got.Evidence)
	got.Evidence = nil
	require.Equal(t, s, got)
}

func testSubmissionNotFound(t *testing.T, b Backend) {
	ctx := context.Background()
	create(t, b, newJob(1, base))
	_, err := b.Submissions().Submission(ctx, id(100))
	requireKind(t, openjury.NotFound, err)

	// A submission to a job that does not exist.
	err = b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		return tx.Submissions().CreateSubmission(ctx, newSubmission(100, id(2), alice, base))
	})
	requireKind(t, openjury.NotFound, err)
	requireKind(t, openjury.NotFound, b.Submissions().CreateSubmission(ctx, newSubmission(101, id(2), alice, base)))
	for _, x := range []string{id(100), id(101)} {
		_, err = b.Submissions().Submission(ctx, x)
		requireKind(t, openjury.NotFound, err)
	}
	require.Empty(t, listSubmissions(t, b, id(2)))

	submit(t, b, newSubmission(100, id(1), alice, base))
	requireKind(t, openjury.Conflict, b.Submissions().CreateSubmission(ctx, newSubmission(100, id(1), bob, base)))
	require.Equal(t, alice, getSubmission(t, b, id(100)).Agent)
}

func testSubmissionsOrder(t *testing.T, b Backend) {
	create(t, b, newJob(1, base), newJob(2, base))
	submit(t, b,
		newSubmission(105, id(1), alice, at(3)),
		newSubmission(102, id(1), bob, at(3)), // same time as 105: lower id first
		newSubmission(104, id(1), alice, at(1)),
		newSubmission(101, id(1), alice, at(9)),
		newSubmission(103, id(2), alice, at(0)), // another job
	)
	require.Equal(t, []string{id(104), id(102), id(105), id(101)}, listSubmissions(t, b, id(1)))
	require.Equal(t, []string{id(103)}, listSubmissions(t, b, id(2)))
	require.Empty(t, listSubmissions(t, b, id(3)))
}

// testSubmissionPages pages through submissions whose created_at ties:
// every page starts right after the cursor's (created_at, id), so the pages
// together are the whole list in order, each row once.
func testSubmissionPages(t *testing.T, b Backend) {
	ctx := context.Background()
	create(t, b, newJob(1, base), newJob(2, base))
	submit(t, b,
		newSubmission(107, id(1), alice, at(2)),
		newSubmission(103, id(1), bob, at(2)),
		newSubmission(105, id(1), carol, at(2)),
		newSubmission(101, id(1), dave, at(5)),
		newSubmission(102, id(1), erin, at(1)),
		newSubmission(106, id(1), frank, at(5)),
		newSubmission(104, id(2), alice, at(2)), // another job
	)
	want := []string{id(102), id(103), id(105), id(107), id(101), id(106)}
	require.Equal(t, want, listSubmissions(t, b, id(1)))
	for _, size := range []int{1, 2, 4} {
		var got []string
		var after *marketplace.Cursor
		for range 10 {
			page, err := b.Submissions().Submissions(ctx, id(1), size, after)
			require.NoError(t, err)
			require.LessOrEqual(t, len(page), size)
			for _, s := range page {
				got = append(got, s.ID)
			}
			if len(page) < size {
				break
			}
			last := page[len(page)-1]
			after = &marketplace.Cursor{At: last.CreatedAt, ID: last.ID}
		}
		require.Equal(t, want, got, "pages of %d", size)
	}
	none, err := b.Submissions().Submissions(ctx, id(1), 0, nil)
	require.NoError(t, err)
	require.Empty(t, none)
}

// testSubmissionKeys reads the ids, agents and times of a job's
// submissions, oldest first.
func testSubmissionKeys(t *testing.T, b Backend) {
	ctx := context.Background()
	create(t, b, newJob(1, base), newJob(2, base))
	submit(t, b,
		newSubmission(103, id(1), alice, at(2)),
		newSubmission(102, id(1), bob, at(2)),
		newSubmission(101, id(1), alice, at(7)),
		newSubmission(104, id(2), carol, at(0)),
	)
	keys, err := b.Submissions().SubmissionKeys(ctx, id(1))
	require.NoError(t, err)
	require.Equal(t, []marketplace.SubmissionKey{
		{ID: id(102), Agent: bob, CreatedAt: at(2)},
		{ID: id(103), Agent: alice, CreatedAt: at(2)},
		{ID: id(101), Agent: alice, CreatedAt: at(7)},
	}, keys)
	keys, err = b.Submissions().SubmissionKeys(ctx, id(3))
	require.NoError(t, err)
	require.Empty(t, keys)
}
