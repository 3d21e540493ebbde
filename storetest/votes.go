package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
)

func (s *suite) voteTests() []test {
	return []test{
		{name: "ReplaceKeepsID", run: testVoteReplace},
		{name: "NotFound", run: testVoteNotFound},
		{name: "TallyOrder", run: testTally},
		{name: "ConcurrentFirstVotesOneRow", run: testConcurrentVotes},
		{name: "CastVoteGuard", run: testCastVoteGuard},
		{name: "CastVoteGuardClosingLease", run: testCastVoteGuardLease},
		{name: "ConcurrentCastVotesOneFirst", run: testConcurrentCastVotes},
	}
}

// voteGuard is the guard of the CastVote tests: a first vote is worth one
// jury vote and 2 points.
var voteGuard = marketplace.VoteGuard{FirstReputation: marketplace.ReputationDelta{Score: 2, JuryVotes: 1}}

// testCastVoteGuard: CastVote writes exactly what VoteGuard.Check accepts
// on the locked job and the submission's key, returns Check's error
// otherwise and then writes nothing, keeps the stored id when it replaces
// a vote, adds the reputation of a voter's first vote on a job only, and
// leaves nothing behind in a transaction that rolls back.
func testCastVoteGuard(t *testing.T, b Backend) {
	ctx := context.Background()
	voteFixture(t, b) // job 1: submissions 101..105 of carol; job 2: 201
	closed := newJob(3, base)
	closed.Status = marketplace.StatusClosed
	create(t, b, closed)
	submit(t, b, newSubmission(301, id(3), carol, base))

	n := 400
	cast := func(voter openjury.Address, jobID string, sub string) error {
		t.Helper()
		n++
		v := &marketplace.Vote{ID: id(n), JobID: jobID, SubmissionID: sub, Voter: voter, Weight: 2, CreatedAt: at(n)}
		want := voteWant(t, b, jobID, sub, voter)
		before := getReputation(t, b, voter)
		prior, priorErr := b.Votes().Vote(ctx, jobID, voter)
		err := b.Votes().CastVote(ctx, v, voteGuard)
		if want != nil {
			require.Error(t, err, "vote %d of %s on %s for %s", n, voter, jobID, sub)
			require.Equal(t, openjury.KindOf(want), openjury.KindOf(err))
			require.Equal(t, openjury.DetailOf(want), openjury.DetailOf(err))
			require.Equal(t, before, getReputation(t, b, voter), "a refused vote changes no reputation")
			if priorErr == nil {
				require.Equal(t, prior, getVote(t, b, jobID, voter), "a refused vote leaves the vote")
			}
			return err
		}
		require.NoError(t, err, "vote %d of %s on %s for %s", n, voter, jobID, sub)
		got := getVote(t, b, jobID, voter)
		require.Equal(t, sub, got.SubmissionID)
		require.Equal(t, v.ID, got.ID, "v.ID is the stored id")
		after := getReputation(t, b, voter)
		if priorErr == nil {
			require.Equal(t, prior.ID, got.ID, "a replaced vote keeps its id")
			require.Equal(t, before, after, "a replaced vote adds nothing")
		} else {
			require.Equal(t, before.JuryVotes+1, after.JuryVotes, "a first vote adds FirstReputation")
			require.Equal(t, before.Score+2, after.Score)
		}
		return nil
	}

	require.NoError(t, cast(alice, id(1), id(101)))
	require.NoError(t, cast(alice, id(1), id(102)), "a replacement")
	require.NoError(t, cast(alice, id(2), id(201)), "another job is another first vote")
	reviewed := &marketplace.Vote{ID: id(450), JobID: id(2), SubmissionID: id(201), Voter: bob, Weight: 3,
		Review: map[string]any{"score": 0.5, "note": "ünïcode ✓"}, CreatedAt: at(450)}
	require.NoError(t, b.Votes().CastVote(ctx, reviewed, voteGuard))
	require.Equal(t, reviewed, getVote(t, b, id(2), bob), "the whole vote, review included, reads back")
	require.Equal(t, "job is closed", openjury.DetailOf(cast(bob, id(3), id(301))))
	require.Equal(t, "submission not found", openjury.DetailOf(cast(bob, id(1), id(999))))
	require.Equal(t, "submission not found", openjury.DetailOf(cast(bob, id(1), "not-an-id")))
	require.Equal(t, "submission_id: not a submission of this job", openjury.DetailOf(cast(bob, id(1), id(201))))
	requireKind(t, openjury.Forbidden, cast(carol, id(1), id(101)))
	requireKind(t, openjury.Forbidden, cast(sponsor, id(1), id(101)))
	require.Equal(t, "job not found", openjury.DetailOf(cast(bob, id(9), id(101))))
	require.Equal(t, "submission_id: not a submission of this job", openjury.DetailOf(cast(alice, id(1), id(301))),
		"a refused replacement keeps the vote")

	// Inside a transaction that rolls back, nothing is kept.
	require.Equal(t, errBoom, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		require.NoError(t, tx.Votes().CastVote(ctx, newVote(499, id(1), 103, erin, 1, at(499)), voteGuard))
		return errBoom
	}))
	_, err := b.Votes().Vote(ctx, id(1), erin)
	requireKind(t, openjury.NotFound, err)
	require.Equal(t, marketplace.Reputation{Address: erin}, getReputation(t, b, erin))
}

// testCastVoteGuardLease: a closing lease live at the guard's Now refuses
// a jury vote (Conflict "job is being closed"), one that has ended does
// not.
func testCastVoteGuardLease(t *testing.T, b Backend) {
	ctx := context.Background()
	voteFixture(t, b)
	require.NoError(t, claim(t, b, 1, id(9), base, at(1000)))
	for i, now := range []time.Time{at(0), at(999), at(1000)} {
		g := voteGuard
		g.Now = now
		err := b.Votes().CastVote(ctx, newVote(400+i, id(1), 101, alice, 1, now), g)
		if i < 2 {
			requireKind(t, openjury.Conflict, err)
			require.Equal(t, marketplace.DetailBeingClosed, openjury.DetailOf(err))
			_, verr := b.Votes().Vote(ctx, id(1), alice)
			requireKind(t, openjury.NotFound, verr)
			continue
		}
		require.NoError(t, err)
	}
	require.Equal(t, id(402), getVote(t, b, id(1), alice).ID)
	// Another job's lease is not this job's.
	require.NoError(t, b.Votes().CastVote(ctx, newVote(410, id(2), 201, alice, 1, at(0)), voteGuard))
}

// voteWant is what VoteGuard.Check says of a vote, on the state as the
// ports read it: NotFound for an unknown job.
func voteWant(t *testing.T, b Backend, jobID, subID string, voter openjury.Address) error {
	t.Helper()
	ctx := context.Background()
	j, err := b.Jobs().Job(ctx, jobID)
	if err != nil {
		return err
	}
	st := &marketplace.VoteState{Job: j}
	if sub, err := b.Submissions().Submission(ctx, subID); err == nil {
		st.SubmissionJobID, st.SubmissionAgent = sub.JobID, sub.Agent
	}
	return voteGuard.Check(st, voter)
}

// testConcurrentCastVotes: one voter's racing first votes on a job (on
// the DB, inside InTx, or half and half) end with one vote and one first
// vote's reputation.
func testConcurrentCastVotes(t *testing.T, b Backend) {
	voteFixture(t, b)
	for mode, voter := range racingVoters {
		stored := concurrentUpserts(t, b, mode, func(ctx context.Context, s marketplace.Stores, i int) (string, error) {
			v := newVote(100*(mode+1)+i, id(1), 101+i%5, voter, int64(1+i%5), at(i))
			err := s.Votes().CastVote(ctx, v, voteGuard)
			return v.ID, err
		})
		require.Equal(t, stored, getVote(t, b, id(1), voter).ID, "mode %d", mode)
		r := getReputation(t, b, voter)
		require.Equal(t, int64(1), r.JuryVotes, "mode %d: one first vote", mode)
		require.Equal(t, int64(2), r.Score, "mode %d", mode)
	}
}

// voteFixture creates job 1 with submissions 101..105 and job 2 with
// submission 201.
func voteFixture(t *testing.T, b Backend) {
	t.Helper()
	create(t, b, newJob(1, base), newJob(2, base))
	for n := 101; n <= 105; n++ {
		submit(t, b, newSubmission(n, id(1), carol, base))
	}
	submit(t, b, newSubmission(201, id(2), carol, base))
}

func newVote(n int, jobID string, subN int, voter openjury.Address, weight int64, created time.Time) *marketplace.Vote {
	return &marketplace.Vote{ID: id(n), JobID: jobID, SubmissionID: id(subN), Voter: voter, Weight: weight, CreatedAt: created}
}

func putVotes(t *testing.T, b Backend, vs ...*marketplace.Vote) {
	t.Helper()
	for _, v := range vs {
		require.NoError(t, b.Votes().PutVote(context.Background(), v), "vote %s", v.ID)
	}
}

func getVote(t *testing.T, b Backend, jobID string, voter openjury.Address) *marketplace.Vote {
	t.Helper()
	v, err := b.Votes().Vote(context.Background(), jobID, voter)
	require.NoError(t, err)
	return v
}

func tally(t *testing.T, b Backend, jobID string, final bool) []marketplace.Tally {
	t.Helper()
	var (
		ts  []marketplace.Tally
		err error
	)
	if final {
		ts, err = b.FinalVotes().FinalTally(context.Background(), jobID)
	} else {
		ts, err = b.Votes().Tally(context.Background(), jobID)
	}
	require.NoError(t, err)
	return ts
}

func testVoteReplace(t *testing.T, b Backend) {
	ctx := context.Background()
	voteFixture(t, b)
	first := newVote(1, id(1), 101, alice, 2, at(1))
	first.Review = map[string]any{"checklist": map[string]any{"sources": true, "score": 4.5}, "note": "ok", "tags": []any{"a", 1.0}}
	putVotes(t, b, first)
	require.Equal(t, id(1), first.ID)
	got := getVote(t, b, id(1), alice)
	require.Equal(t, first, got)
	require.Equal(t, time.UTC, got.CreatedAt.Location())

	// A new vote of the same voter on the same job replaces it: same id,
	// the new submission, weight, review and time.
	second := newVote(2, id(1), 102, alice, 5, at(2))
	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		require.NoError(t, tx.Votes().PutVote(ctx, second))
		require.Equal(t, id(1), second.ID, "PutVote sets the stored id")
		got, err := tx.Votes().Vote(ctx, id(1), alice)
		require.NoError(t, err)
		require.Equal(t, second, got)
		return nil
	}))
	require.Equal(t, second, getVote(t, b, id(1), alice))
	require.Nil(t, getVote(t, b, id(1), alice).Review, "a nil review replaces the old one")
	require.Equal(t, []marketplace.Tally{{SubmissionID: id(102), Weight: 5, Voters: 1, Earliest: at(2)}}, tally(t, b, id(1), false))

	// An empty review is kept as empty, not absent.
	third := newVote(3, id(1), 102, alice, 1, at(3))
	third.Review = map[string]any{}
	putVotes(t, b, third)
	require.Equal(t, id(1), third.ID)
	require.Equal(t, third, getVote(t, b, id(1), alice))

	// Other voters and other jobs get rows of their own; a vote without an
	// id gets one.
	fresh := newVote(4, id(1), 101, bob, 1, at(4))
	fresh.ID = ""
	putVotes(t, b, fresh, newVote(5, id(2), 201, alice, 3, at(5)))
	require.NotEmpty(t, fresh.ID)
	require.NotEqual(t, id(1), fresh.ID)
	require.Equal(t, fresh, getVote(t, b, id(1), bob))
	require.Equal(t, id(5), getVote(t, b, id(2), alice).ID)
	require.Equal(t, id(1), getVote(t, b, id(1), alice).ID)
}

func testVoteNotFound(t *testing.T, b Backend) {
	ctx := context.Background()
	voteFixture(t, b)
	putVotes(t, b, newVote(1, id(1), 101, alice, 1, base))
	putFinalVotes(t, b, newFinalVote(2, id(1), 101, alice, base))
	for _, q := range []struct {
		job   string
		voter openjury.Address
	}{{id(1), bob}, {id(2), alice}, {id(3), alice}} {
		_, err := b.Votes().Vote(ctx, q.job, q.voter)
		requireKind(t, openjury.NotFound, err)
		_, err = b.FinalVotes().FinalVote(ctx, q.job, q.voter)
		requireKind(t, openjury.NotFound, err)
	}
	// Votes for a submission or a job that does not exist.
	requireKind(t, openjury.NotFound, b.Votes().PutVote(ctx, newVote(3, id(1), 999, bob, 1, base)))
	requireKind(t, openjury.NotFound, b.Votes().PutVote(ctx, newVote(4, id(3), 101, bob, 1, base)))
	requireKind(t, openjury.NotFound, b.FinalVotes().PutFinalVote(ctx, newFinalVote(5, id(1), 999, bob, base)))
	err := b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		return tx.FinalVotes().PutFinalVote(ctx, newFinalVote(6, id(3), 101, bob, base))
	})
	requireKind(t, openjury.NotFound, err)
	_, err = b.Votes().Vote(ctx, id(1), bob)
	requireKind(t, openjury.NotFound, err)
	_, err = b.FinalVotes().FinalVote(ctx, id(1), bob)
	requireKind(t, openjury.NotFound, err)
	require.Empty(t, tally(t, b, id(3), false))
	require.Empty(t, tally(t, b, id(3), true))
}

func testTally(t *testing.T, b Backend) {
	voteFixture(t, b)
	putVotes(t, b,
		newVote(1, id(1), 101, alice, 5, at(3)),
		newVote(2, id(1), 102, bob, 2, at(1)),
		newVote(3, id(1), 102, carol, 3, at(4)),
		newVote(4, id(1), 103, dave, 5, at(0)), // replaced below by a later vote
		newVote(5, id(1), 104, erin, 7, at(9)),
		newVote(6, id(1), 105, frank, 1, at(0)), // moved to 104 below
		newVote(7, id(2), 201, alice, 5, at(0)), // another job
	)
	putVotes(t, b,
		newVote(8, id(1), 103, dave, 5, at(1)),
		newVote(9, id(1), 104, frank, 1, at(10)),
	)
	want := []marketplace.Tally{
		{SubmissionID: id(104), Weight: 8, Voters: 2, Earliest: at(9)},
		// 102 and 103 tie on weight and earliest current vote: id order.
		{SubmissionID: id(102), Weight: 5, Voters: 2, Earliest: at(1)},
		{SubmissionID: id(103), Weight: 5, Voters: 1, Earliest: at(1)},
		{SubmissionID: id(101), Weight: 5, Voters: 1, Earliest: at(3)},
	}
	got := tally(t, b, id(1), false)
	require.Equal(t, want, got, "105 lost its only vote and is left out")
	require.Equal(t, time.UTC, got[0].Earliest.Location())
	require.Equal(t, []marketplace.Tally{{SubmissionID: id(201), Weight: 5, Voters: 1, Earliest: at(0)}}, tally(t, b, id(2), false))
	require.Empty(t, tally(t, b, id(2), true))

	require.NoError(t, b.InTx(context.Background(), func(ctx context.Context, tx marketplace.Tx) error {
		require.NoError(t, tx.Votes().PutVote(ctx, newVote(10, id(1), 101, bob, 4, at(11))))
		ts, err := tx.Votes().Tally(ctx, id(1))
		require.NoError(t, err)
		require.Equal(t, []marketplace.Tally{
			{SubmissionID: id(101), Weight: 9, Voters: 2, Earliest: at(3)},
			{SubmissionID: id(104), Weight: 8, Voters: 2, Earliest: at(9)},
			{SubmissionID: id(103), Weight: 5, Voters: 1, Earliest: at(1)},
			{SubmissionID: id(102), Weight: 3, Voters: 1, Earliest: at(4)},
		}, ts, "a transaction tallies its own writes")
		return nil
	}))
}

// concurrentUpserts has 20 goroutines put the first vote of one voter on
// one job at once (on the DB, inside InTx, or half and half by mode) and
// checks that every call succeeded and reported the one stored id.
func concurrentUpserts(t *testing.T, b Backend, mode int, put func(ctx context.Context, s marketplace.Stores, i int) (string, error)) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	told := make([]string, 20)
	errs := raceN(len(told), func(i int) error {
		if mode == poolOnly || (mode == mixed && i%2 == 0) {
			var err error
			told[i], err = put(ctx, b, i)
			return err
		}
		return b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
			var err error
			told[i], err = put(ctx, tx, i)
			return err
		})
	})
	for i, err := range errs {
		require.NoError(t, err, "goroutine %d", i)
	}
	for i := range told {
		require.Equal(t, told[0], told[i], "goroutine %d was told another id", i)
	}
	return told[0]
}

// Modes of concurrentUpserts.
const (
	poolOnly = iota
	txOnly
	mixed
)

// racingVoters are the voters of the modes of concurrentUpserts.
var racingVoters = []openjury.Address{alice, bob, dave}

func testConcurrentVotes(t *testing.T, b Backend) {
	voteFixture(t, b)
	for mode, voter := range racingVoters {
		stored := concurrentUpserts(t, b, mode, func(ctx context.Context, s marketplace.Stores, i int) (string, error) {
			v := newVote(100*(mode+1)+i, id(1), 101+i%5, voter, int64(1+i%5), at(i))
			err := s.Votes().PutVote(ctx, v)
			return v.ID, err
		})
		v := getVote(t, b, id(1), voter)
		require.Equal(t, stored, v.ID, "mode %d", mode)
	}
	var voters, weight int64
	for _, ts := range tally(t, b, id(1), false) {
		voters += ts.Voters
		weight += ts.Weight
	}
	require.Equal(t, int64(len(racingVoters)), voters, "one row per voter remains")
	var want int64
	for _, voter := range racingVoters {
		want += getVote(t, b, id(1), voter).Weight
	}
	require.Equal(t, want, weight)
}
