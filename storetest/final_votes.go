package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
)

func (s *suite) finalVoteTests() []test {
	return []test{
		{name: "ReplaceKeepsID", run: testFinalVoteReplace},
		{name: "TallyOrder", run: testFinalTally},
		{name: "ConcurrentFirstVotesOneRow", run: testConcurrentFinalVotes},
	}
}

func newFinalVote(n int, jobID string, subN int, voter openjury.Address, created time.Time) *marketplace.FinalVote {
	return &marketplace.FinalVote{ID: id(n), JobID: jobID, SubmissionID: id(subN), Voter: voter, CreatedAt: created}
}

func putFinalVotes(t *testing.T, b Backend, vs ...*marketplace.FinalVote) {
	t.Helper()
	for _, v := range vs {
		require.NoError(t, b.FinalVotes().PutFinalVote(context.Background(), v), "final vote %s", v.ID)
	}
}

func getFinalVote(t *testing.T, b Backend, jobID string, voter openjury.Address) *marketplace.FinalVote {
	t.Helper()
	v, err := b.FinalVotes().FinalVote(context.Background(), jobID, voter)
	require.NoError(t, err)
	return v
}

func testFinalVoteReplace(t *testing.T, b Backend) {
	ctx := context.Background()
	voteFixture(t, b)
	first := newFinalVote(1, id(1), 101, alice, at(1))
	putFinalVotes(t, b, first)
	require.Equal(t, first, getFinalVote(t, b, id(1), alice))

	second := newFinalVote(2, id(1), 103, alice, at(7))
	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		return tx.FinalVotes().PutFinalVote(ctx, second)
	}))
	require.Equal(t, id(1), second.ID)
	require.Equal(t, second, getFinalVote(t, b, id(1), alice))
	require.Equal(t, []marketplace.Tally{{SubmissionID: id(103), Weight: 1, Voters: 1, Earliest: at(7)}}, tally(t, b, id(1), true))

	// Jury votes and final votes are separate.
	_, err := b.Votes().Vote(ctx, id(1), alice)
	requireKind(t, openjury.NotFound, err)
	require.Empty(t, tally(t, b, id(1), false))

	fresh := newFinalVote(3, id(1), 101, bob, at(8))
	fresh.ID = ""
	putFinalVotes(t, b, fresh)
	require.NotEmpty(t, fresh.ID)
	require.Equal(t, fresh, getFinalVote(t, b, id(1), bob))
}

func testFinalTally(t *testing.T, b Backend) {
	voteFixture(t, b)
	putFinalVotes(t, b,
		newFinalVote(1, id(1), 101, alice, at(5)),
		newFinalVote(2, id(1), 101, bob, at(6)),
		newFinalVote(3, id(1), 102, carol, at(8)),
		newFinalVote(4, id(1), 102, dave, at(9)), // replaced below: 102's earliest becomes 2
		newFinalVote(5, id(1), 103, erin, at(1)),
		newFinalVote(6, id(1), 104, frank, at(7)),
		newFinalVote(7, id(2), 201, frank, at(0)),
	)
	putFinalVotes(t, b,
		newFinalVote(8, id(1), 102, dave, at(2)),
		newFinalVote(9, id(1), 104, sponsor, at(5)),
	)
	require.Equal(t, []marketplace.Tally{
		{SubmissionID: id(102), Weight: 2, Voters: 2, Earliest: at(2)},
		// 101 and 104 tie on votes and earliest current vote: id order.
		{SubmissionID: id(101), Weight: 2, Voters: 2, Earliest: at(5)},
		{SubmissionID: id(104), Weight: 2, Voters: 2, Earliest: at(5)},
		{SubmissionID: id(103), Weight: 1, Voters: 1, Earliest: at(1)},
	}, tally(t, b, id(1), true))
	require.Equal(t, []marketplace.Tally{{SubmissionID: id(201), Weight: 1, Voters: 1, Earliest: at(0)}}, tally(t, b, id(2), true))
	require.Empty(t, tally(t, b, id(1), false))
}

func testConcurrentFinalVotes(t *testing.T, b Backend) {
	voteFixture(t, b)
	for mode, voter := range racingVoters {
		stored := concurrentUpserts(t, b, mode, func(ctx context.Context, s marketplace.Stores, i int) (string, error) {
			v := newFinalVote(100*(mode+1)+i, id(1), 101+i%5, voter, at(i))
			err := s.FinalVotes().PutFinalVote(ctx, v)
			return v.ID, err
		})
		require.Equal(t, stored, getFinalVote(t, b, id(1), voter).ID, "mode %d", mode)
	}
	var voters int64
	for _, ts := range tally(t, b, id(1), true) {
		voters += ts.Voters
		require.Equal(t, ts.Voters, ts.Weight)
	}
	require.Equal(t, int64(len(racingVoters)), voters, "one row per voter remains")
}
