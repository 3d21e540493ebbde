package marketplace_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/stake"
)

var loopConfig = marketplace.Config{
	DefaultFinalVoteWindow: time.Hour,
	MinStake:               10 * openjury.MicroPerUSDC,
	MinRepScoreToVote:      10,
	AGRMintPerWin:          50,
}

// world is a marketplace with wallets that can be staked and scored.
type world struct {
	t     *testing.T
	ctx   context.Context
	db    *bunstore.DB
	clock *openjurytest.Clock
	svc   *marketplace.Service
}

func newWorld(t *testing.T, db *bunstore.DB) *world {
	clk := openjurytest.NewClock()
	return &world{t: t, ctx: context.Background(), db: db, clock: clk, svc: marketplace.NewService(db, clk, loopConfig)}
}

// backends runs fn on SQLite and on PostgreSQL.
func backends(t *testing.T, fn func(t *testing.T, db *bunstore.DB)) {
	openjurytest.OnEachDB(t, fn)
}

func (w *world) addr(n byte) openjury.Address {
	b := [20]byte{19: n, 0: 0xab}
	return openjury.AddressFromBytes(b)
}

func (w *world) stake(a openjury.Address, usdc int64) {
	w.t.Helper()
	require.NoError(w.t, w.db.Stake().PutStake(w.ctx, stake.Stake{Address: a, Staked: openjury.MicroUSDC(usdc * openjury.MicroPerUSDC), UpdatedAt: w.clock.Now()}))
}

func (w *world) score(a openjury.Address, score int64) {
	w.t.Helper()
	_, err := w.svc.DevSetReputation(w.ctx, a, score)
	require.NoError(w.t, err)
}

func (w *world) job(sponsor openjury.Address) *marketplace.Job {
	w.t.Helper()
	j, err := w.svc.CreateJob(w.ctx, sponsor, marketplace.CreateJobInput{Title: "job", Prompt: "do it", Bounty: 100 * openjury.MicroPerUSDC})
	require.NoError(w.t, err)
	return j
}

func (w *world) submit(agent openjury.Address, jobID string) *marketplace.Submission {
	w.t.Helper()
	s, err := w.svc.Submit(w.ctx, agent, marketplace.SubmitInput{JobID: jobID, Content: "work of " + agent.String()})
	require.NoError(w.t, err)
	return s
}

func requireKind(t *testing.T, err error, kind openjury.Kind, detail string) {
	t.Helper()
	require.Error(t, err)
	require.Equal(t, kind, openjury.KindOf(err), "%v", err)
	if detail != "" {
		require.Equal(t, detail, openjury.DetailOf(err))
	}
}

func TestWeight(t *testing.T) {
	t.Parallel()
	for score, want := range map[int64]int64{-5: 1, 0: 1, 1: 2, 3: 2, 4: 3, 8: 3, 9: 4, 15: 4, 16: 5, 24: 5, 25: 5, 1 << 40: 5} {
		require.Equal(t, want, marketplace.Weight(score), "score %d", score)
	}
	require.Equal(t, int64(1), marketplace.Level(0))
	require.Equal(t, int64(1), marketplace.Level(99))
	require.Equal(t, int64(2), marketplace.Level(100))
	require.Equal(t, []string{}, marketplace.Badges(marketplace.Reputation{}))
	require.Equal(t, []string{"first_submission", "first_win", "ten_wins", "juror"},
		marketplace.Badges(marketplace.Reputation{Submissions: 3, Wins: 10, JuryVotes: 1}))
}

// TestStoryFinalDecision drives a whole job: three submissions, jury votes
// of different weights, final votes in and out of the window, finalize
// refusals and success, and the resulting reputation, AGR and ledger.
func TestStoryFinalDecision(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		w := newWorld(t, db)
		sponsor, a, b, c := w.addr(1), w.addr(2), w.addr(3), w.addr(4)
		j1, j2, outsider := w.addr(11), w.addr(12), w.addr(13)
		for _, x := range []openjury.Address{a, b, c, j1, j2} {
			w.stake(x, 10)
		}
		w.score(j1, 16) // weight 5
		w.score(j2, 10) // weight 4

		job := w.job(sponsor)

		// Submissions: stake, sponsor and limits.
		_, err := w.svc.Submit(w.ctx, outsider, marketplace.SubmitInput{JobID: job.ID, Content: "x"})
		requireKind(t, err, openjury.Forbidden, "insufficient stake")
		w.stake(sponsor, 100)
		_, err = w.svc.Submit(w.ctx, sponsor, marketplace.SubmitInput{JobID: job.ID, Content: "x"})
		requireKind(t, err, openjury.Forbidden, "the sponsor may not submit to their own job")
		_, err = w.svc.Submit(w.ctx, a, marketplace.SubmitInput{JobID: openjury.NewID(), Content: "x"})
		requireKind(t, err, openjury.NotFound, "")

		sa := w.submit(a, job.ID)
		w.clock.Advance(time.Second)
		sb := w.submit(b, job.ID)
		w.clock.Advance(time.Second)
		sc := w.submit(c, job.ID)
		for range 4 {
			w.submit(c, job.ID)
		}
		_, err = w.svc.Submit(w.ctx, c, marketplace.SubmitInput{JobID: job.ID, Content: "sixth"})
		requireKind(t, err, openjury.Conflict, "at most 5 submissions per agent per job")
		page, err := w.svc.Submissions(w.ctx, job.ID, marketplace.ListInput{})
		require.NoError(t, err)
		subs := page.Submissions
		require.Len(t, subs, 7)
		require.Empty(t, page.NextCursor, "one page")
		require.Equal(t, sa.ID, subs[0].ID, "oldest first")
		first, err := w.svc.Submissions(w.ctx, job.ID, marketplace.ListInput{Limit: 4})
		require.NoError(t, err)
		require.Equal(t, subs[:4], first.Submissions)
		second, err := w.svc.Submissions(w.ctx, job.ID, marketplace.ListInput{Limit: 4, Cursor: first.NextCursor})
		require.NoError(t, err)
		require.Equal(t, subs[4:], second.Submissions)
		require.Empty(t, second.NextCursor, "the last page")
		_, err = w.svc.Submissions(w.ctx, job.ID, marketplace.ListInput{Limit: 201})
		requireKind(t, err, openjury.Invalid, "")
		_, err = w.svc.Submissions(w.ctx, job.ID, marketplace.ListInput{Cursor: "nope"})
		requireKind(t, err, openjury.Invalid, "")

		// Jury votes.
		_, err = w.svc.Vote(w.ctx, a, marketplace.VoteInput{JobID: job.ID, SubmissionID: sb.ID})
		requireKind(t, err, openjury.Forbidden, "insufficient reputation to vote") // a has score 1
		w.score(a, 10)
		_, err = w.svc.Vote(w.ctx, a, marketplace.VoteInput{JobID: job.ID, SubmissionID: sa.ID})
		requireKind(t, err, openjury.Forbidden, "you may not vote for your own submission")
		w.score(sponsor, 50)
		_, err = w.svc.Vote(w.ctx, sponsor, marketplace.VoteInput{JobID: job.ID, SubmissionID: sa.ID})
		requireKind(t, err, openjury.Forbidden, "the sponsor may not vote on their own job")
		other := w.job(sponsor)
		otherSub := w.submit(b, other.ID)
		_, err = w.svc.Vote(w.ctx, j1, marketplace.VoteInput{JobID: job.ID, SubmissionID: otherSub.ID})
		requireKind(t, err, openjury.Invalid, "submission_id: not a submission of this job")
		_, err = w.svc.Vote(w.ctx, j1, marketplace.VoteInput{JobID: job.ID, SubmissionID: openjury.NewID()})
		requireKind(t, err, openjury.NotFound, "")

		v1, err := w.svc.Vote(w.ctx, j1, marketplace.VoteInput{JobID: job.ID, SubmissionID: sa.ID, Review: map[string]any{"note": "ok"}})
		require.NoError(t, err)
		require.Equal(t, int64(5), v1.Weight)
		w.clock.Advance(time.Second)
		v1b, err := w.svc.Vote(w.ctx, j1, marketplace.VoteInput{JobID: job.ID, SubmissionID: sb.ID})
		require.NoError(t, err)
		require.Equal(t, v1.ID, v1b.ID, "a new vote replaces the old and keeps its id")
		_, err = w.svc.Vote(w.ctx, j2, marketplace.VoteInput{JobID: job.ID, SubmissionID: sc.ID})
		require.NoError(t, err)
		_, err = w.svc.Vote(w.ctx, a, marketplace.VoteInput{JobID: job.ID, SubmissionID: sc.ID})
		require.NoError(t, err) // weight 4 (score 10)
		tally, err := w.svc.VotingSummary(w.ctx, job.ID)
		require.NoError(t, err)
		require.Len(t, tally, 2)
		require.Equal(t, sc.ID, tally[0].SubmissionID)
		require.Equal(t, int64(8), tally[0].Weight)
		require.Equal(t, int64(2), tally[0].Voters)
		require.Equal(t, sb.ID, tally[1].SubmissionID)
		require.Equal(t, int64(5), tally[1].Weight)

		// Final votes: stake first (even outside the window), then before
		// the window, inside, own submission.
		w.clock.Set(job.CreatedAt.Add(-time.Second))
		_, err = w.svc.FinalVote(w.ctx, outsider, marketplace.FinalVoteInput{JobID: job.ID, SubmissionID: sa.ID})
		requireKind(t, err, openjury.Forbidden, "insufficient stake")
		w.stake(outsider, 10)
		_, err = w.svc.FinalVote(w.ctx, outsider, marketplace.FinalVoteInput{JobID: job.ID, SubmissionID: sa.ID})
		requireKind(t, err, openjury.Conflict, "final voting has not started")
		w.clock.Set(job.CreatedAt.Add(10 * time.Minute))
		_, err = w.svc.FinalVote(w.ctx, a, marketplace.FinalVoteInput{JobID: job.ID, SubmissionID: sa.ID})
		requireKind(t, err, openjury.Forbidden, "you may not cast a final vote for your own submission")
		// A tie on final votes between sa and sb (one each) is broken by jury
		// weight: sb has 5, sa has none.
		f1, err := w.svc.FinalVote(w.ctx, outsider, marketplace.FinalVoteInput{JobID: job.ID, SubmissionID: sc.ID})
		require.NoError(t, err)
		f1b, err := w.svc.FinalVote(w.ctx, outsider, marketplace.FinalVoteInput{JobID: job.ID, SubmissionID: sa.ID})
		require.NoError(t, err)
		require.Equal(t, f1.ID, f1b.ID)
		_, err = w.svc.FinalVote(w.ctx, sponsor, marketplace.FinalVoteInput{JobID: job.ID, SubmissionID: sb.ID})
		require.NoError(t, err, "any staked address may cast a final vote, the sponsor too")
		final, err := w.svc.FinalSummary(w.ctx, job.ID)
		require.NoError(t, err)
		require.Len(t, final, 2)

		// Finalize: before the end, then after the end by a non-voter, then a voter.
		_, err = w.svc.FinalizeJob(w.ctx, outsider, job.ID)
		requireKind(t, err, openjury.Conflict, "final voting window has not ended")
		w.clock.Set(job.FinalVoteEndsAt)
		_, err = w.svc.FinalVote(w.ctx, j2, marketplace.FinalVoteInput{JobID: job.ID, SubmissionID: sa.ID})
		requireKind(t, err, openjury.Conflict, "final voting window has ended")
		_, err = w.svc.FinalizeJob(w.ctx, j1, job.ID)
		requireKind(t, err, openjury.Forbidden, "only an address that cast a final vote may finalize")
		_, err = w.svc.FinalizeJob(w.ctx, outsider, openjury.NewID())
		requireKind(t, err, openjury.NotFound, "")
		res, err := w.svc.FinalizeJob(w.ctx, outsider, job.ID)
		require.NoError(t, err)
		require.Equal(t, sb.ID, res.WinnerSubmissionID, "tie on final votes goes to the larger jury weight")
		require.Equal(t, marketplace.StatusClosed, res.Job.Status)
		require.Equal(t, w.clock.Now(), *res.Job.ClosedAt)
		require.Len(t, res.Tally, 2)
		_, err = w.svc.FinalizeJob(w.ctx, outsider, job.ID)
		requireKind(t, err, openjury.Conflict, "job is closed")
		_, err = w.svc.Submit(w.ctx, a, marketplace.SubmitInput{JobID: job.ID, Content: "late"})
		requireKind(t, err, openjury.Conflict, "job is closed")
		_, err = w.svc.Vote(w.ctx, j1, marketplace.VoteInput{JobID: job.ID, SubmissionID: sa.ID})
		requireKind(t, err, openjury.Conflict, "job is closed")

		// Reputation: b won (+10, 1 win), a and c lost; first submissions +1.
		rb, err := w.svc.Reputation(w.ctx, b.String())
		require.NoError(t, err)
		require.Equal(t, int64(1+1+10), rb.Score, "two first submissions (two jobs) and one win")
		require.Equal(t, int64(1), rb.Wins)
		require.Equal(t, int64(0), rb.Losses)
		ra, err := w.svc.Reputation(w.ctx, a.String())
		require.NoError(t, err)
		require.Equal(t, int64(10), ra.Score, "dev_set to 10 after its first submission")
		require.Equal(t, int64(1), ra.Losses)
		require.Equal(t, []string{"first_submission", "juror"}, marketplace.Badges(ra))
		rc, err := w.svc.Reputation(w.ctx, c.String())
		require.NoError(t, err)
		require.Equal(t, int64(1), rc.Score, "one first submission, however many it made")
		require.Equal(t, int64(1), rc.Losses, "one loss per job, not per submission")

		// AGR: the winner got the mint once, with a ledger line naming the job.
		st, err := db.AGR().Status(w.ctx, b)
		require.NoError(t, err)
		require.Equal(t, agr.Status{Address: b, Balance: 50, Earned: 50}, st)
		ledger, err := db.AGR().Ledger(w.ctx, b, 10, nil)
		require.NoError(t, err)
		require.Len(t, ledger, 1)
		require.Equal(t, agr.ReasonWin, ledger[0].Reason)
		require.Equal(t, job.ID, ledger[0].JobID)
		require.Equal(t, int64(50), ledger[0].Delta)
		for _, loser := range []openjury.Address{a, c} {
			st, err := db.AGR().Status(w.ctx, loser)
			require.NoError(t, err)
			require.Zero(t, st.Balance)
		}
	})
}

func TestSponsorClose(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		w := newWorld(t, db)
		sponsor, a, b := w.addr(1), w.addr(2), w.addr(3)
		w.stake(a, 10)
		w.stake(b, 10)
		job := w.job(sponsor)
		sa, sb := w.submit(a, job.ID), w.submit(b, job.ID)
		other := w.job(sponsor)
		so := w.submit(a, other.ID)

		chain := int64(8453)
		ref := openjury.ChainRef{TxHash: openjury.Hash("0x" + string(make64('a'))), ChainID: &chain}
		_, err := w.svc.CloseJob(w.ctx, sponsor, openjury.NewID(), marketplace.CloseInput{WinnerSubmissionID: sa.ID})
		requireKind(t, err, openjury.NotFound, "")
		_, err = w.svc.CloseJob(w.ctx, a, job.ID, marketplace.CloseInput{WinnerSubmissionID: sa.ID})
		requireKind(t, err, openjury.Forbidden, "only the sponsor may close this job")
		_, err = w.svc.CloseJob(w.ctx, sponsor, job.ID, marketplace.CloseInput{WinnerSubmissionID: so.ID})
		requireKind(t, err, openjury.Invalid, "winner_submission_id: not a submission of this job")
		_, err = w.svc.CloseJob(w.ctx, sponsor, job.ID, marketplace.CloseInput{WinnerSubmissionID: openjury.NewID()})
		requireKind(t, err, openjury.Invalid, "winner_submission_id: not a submission of this job")
		_, err = w.svc.CloseJob(w.ctx, sponsor, job.ID, marketplace.CloseInput{})
		requireKind(t, err, openjury.Invalid, "winner_submission_id: is required")
		bad := int64(-1)
		_, err = w.svc.CloseJob(w.ctx, sponsor, job.ID, marketplace.CloseInput{WinnerSubmissionID: sb.ID, Ref: openjury.ChainRef{LogIndex: &bad}})
		requireKind(t, err, openjury.Invalid, "close_log_index: must be at least 0")

		res, err := w.svc.CloseJob(w.ctx, sponsor, job.ID, marketplace.CloseInput{WinnerSubmissionID: sb.ID, Ref: ref})
		require.NoError(t, err)
		require.Equal(t, sb.ID, res.Job.WinnerSubmissionID)
		got, err := w.svc.Job(w.ctx, job.ID)
		require.NoError(t, err)
		require.Equal(t, marketplace.StatusClosed, got.Status)
		require.Equal(t, ref, got.Close)

		_, err = w.svc.CloseJob(w.ctx, sponsor, job.ID, marketplace.CloseInput{WinnerSubmissionID: sa.ID})
		requireKind(t, err, openjury.Conflict, "job is closed")
		_, err = w.svc.CloseJob(w.ctx, a, job.ID, marketplace.CloseInput{WinnerSubmissionID: sa.ID})
		requireKind(t, err, openjury.Conflict, "job is closed") // 409 comes before 403

		rb, err := w.svc.Reputation(w.ctx, b.String())
		require.NoError(t, err)
		require.Equal(t, int64(11), rb.Score)
		ra, err := w.svc.Reputation(w.ctx, a.String())
		require.NoError(t, err)
		require.Equal(t, int64(1), ra.Losses)
		require.Equal(t, int64(2), ra.Score, "first submissions on two jobs")

		page, err := w.svc.Leaderboard(w.ctx, marketplace.LeaderboardInput{Limit: 1})
		require.NoError(t, err)
		require.Equal(t, b, page.Entries[0].Address)
		page, err = w.svc.Leaderboard(w.ctx, marketplace.LeaderboardInput{Limit: 1, Cursor: page.NextCursor})
		require.NoError(t, err)
		require.Equal(t, a, page.Entries[0].Address)
		require.Empty(t, page.NextCursor)
	})
}

func make64(ch byte) []byte {
	b := make([]byte, 64)
	for i := range b {
		b[i] = ch
	}
	return b
}

func TestPickWinnerTieBreaks(t *testing.T) {
	t.Parallel()
	t0 := openjurytest.Epoch
	subs := []marketplace.SubmissionKey{
		{ID: "a", CreatedAt: t0.Add(2 * time.Second)},
		{ID: "b", CreatedAt: t0.Add(time.Second)},
		{ID: "c", CreatedAt: t0.Add(time.Second)},
		{ID: "d", CreatedAt: t0},
	}
	final := func(votes ...int64) []marketplace.Tally {
		out := []marketplace.Tally{}
		for i, v := range votes {
			out = append(out, marketplace.Tally{SubmissionID: subs[i].ID, Weight: v, Voters: v})
		}
		return out
	}
	jury := []marketplace.Tally{{SubmissionID: "a", Weight: 3}, {SubmissionID: "b", Weight: 3}, {SubmissionID: "c", Weight: 3}, {SubmissionID: "d", Weight: 1}}
	require.Equal(t, "d", marketplace.PickWinner(final(1, 1, 1, 2), jury, subs), "most final votes")
	require.Equal(t, "b", marketplace.PickWinner(final(2, 2, 2, 2), jury, subs), "then jury weight, then the earlier submission, then the smaller id")
	require.Equal(t, "a", marketplace.PickWinner(final(2, 2, 2, 2), []marketplace.Tally{{SubmissionID: "a", Weight: 4}}, subs), "jury weight beats age")
	require.Equal(t, "b", marketplace.PickWinner(final(0, 1, 1, 0), nil, subs), "same time: smaller id")
}

func TestBoost(t *testing.T) {
	t.Parallel()
	w := newWorld(t, openjurytest.NewDB(t))
	sponsor, fan := w.addr(1), w.addr(2)
	job := w.job(sponsor)
	_, err := w.svc.Boost(w.ctx, fan, job.ID, marketplace.BoostInput{AmountAGR: 10, DurationHours: 1})
	requireKind(t, err, openjury.PaymentRequired, "insufficient AGR balance")
	_, err = agr.Credit(w.ctx, w.db.AGR(), fan, 100, agr.ReasonDevMint, "", w.clock.Now())
	require.NoError(t, err)
	_, err = w.svc.Boost(w.ctx, fan, job.ID, marketplace.BoostInput{AmountAGR: 0, DurationHours: 1})
	requireKind(t, err, openjury.Invalid, "amount_agr: must be at least 1")
	_, err = w.svc.Boost(w.ctx, fan, job.ID, marketplace.BoostInput{AmountAGR: 1, DurationHours: 721})
	requireKind(t, err, openjury.Invalid, "duration_hours: must be at most 720")
	_, err = w.svc.Boost(w.ctx, fan, openjury.NewID(), marketplace.BoostInput{AmountAGR: 1, DurationHours: 1})
	requireKind(t, err, openjury.NotFound, "")

	j, err := w.svc.Boost(w.ctx, fan, job.ID, marketplace.BoostInput{AmountAGR: 10, DurationHours: 2})
	require.NoError(t, err)
	require.Equal(t, int64(10), j.FeaturedScore)
	require.Equal(t, w.clock.Now().Add(2*time.Hour), *j.FeaturedUntil)
	w.clock.Advance(time.Hour)
	j, err = w.svc.Boost(w.ctx, fan, job.ID, marketplace.BoostInput{AmountAGR: 5, DurationHours: 1})
	require.NoError(t, err)
	require.Equal(t, int64(15), j.FeaturedScore)
	require.Equal(t, w.clock.Now().Add(2*time.Hour), *j.FeaturedUntil, "extends from the current featured_until")
	w.clock.Advance(5 * time.Hour)
	j, err = w.svc.Boost(w.ctx, fan, job.ID, marketplace.BoostInput{AmountAGR: 5, DurationHours: 1})
	require.NoError(t, err)
	require.Equal(t, w.clock.Now().Add(time.Hour), *j.FeaturedUntil, "an expired boost restarts from now")
	st, err := w.db.AGR().Status(w.ctx, fan)
	require.NoError(t, err)
	require.Equal(t, agr.Status{Address: fan, Balance: 80, Earned: 100, Spent: 20}, st)
}

// TestConcurrency: the database, not the process, keeps the rules.
func TestConcurrency(t *testing.T) {
	t.Parallel()
	const n = 20
	backends(t, func(t *testing.T, db *bunstore.DB) {
		t.Run("boosts", func(t *testing.T) {
			w := newWorld(t, db)
			sponsor, fan := w.addr(1), w.addr(2)
			job := w.job(sponsor)
			_, err := agr.Credit(w.ctx, db.AGR(), fan, 50, agr.ReasonDevMint, "", w.clock.Now())
			require.NoError(t, err)
			errs := parallel(n, func(int) error {
				_, err := w.svc.Boost(w.ctx, fan, job.ID, marketplace.BoostInput{AmountAGR: 10, DurationHours: 1})
				return err
			})
			ok := 0
			for _, err := range errs {
				if err == nil {
					ok++
					continue
				}
				require.Equal(t, openjury.PaymentRequired, openjury.KindOf(err), "%v", err)
			}
			require.Equal(t, 5, ok)
			st, err := db.AGR().Status(w.ctx, fan)
			require.NoError(t, err)
			require.Equal(t, agr.Status{Address: fan, Balance: 0, Earned: 50, Spent: 50}, st)
			ledger, err := db.AGR().Ledger(w.ctx, fan, 100, nil)
			require.NoError(t, err)
			require.Len(t, ledger, 6, "one mint and exactly five debits")
			got, err := w.svc.Job(w.ctx, job.ID)
			require.NoError(t, err)
			require.Equal(t, int64(50), got.FeaturedScore)
		})
		t.Run("first votes", func(t *testing.T) {
			w := newWorld(t, db)
			sponsor, a, juror := w.addr(21), w.addr(22), w.addr(23)
			w.stake(a, 10)
			w.stake(juror, 10)
			w.score(juror, 10)
			job := w.job(sponsor)
			sub := w.submit(a, job.ID)
			errs := parallel(n, func(int) error {
				_, err := w.svc.Vote(w.ctx, juror, marketplace.VoteInput{JobID: job.ID, SubmissionID: sub.ID})
				return err
			})
			for _, err := range errs {
				require.NoError(t, err)
			}
			tally, err := w.svc.VotingSummary(w.ctx, job.ID)
			require.NoError(t, err)
			require.Equal(t, []marketplace.Tally{{SubmissionID: sub.ID, Weight: 4, Voters: 1, Earliest: w.clock.Now()}}, tally)
			rep, err := w.svc.Reputation(w.ctx, juror.String())
			require.NoError(t, err)
			require.Equal(t, int64(1), rep.JuryVotes, "the first vote is counted once")
		})
		t.Run("close races finalize", func(t *testing.T) {
			w := newWorld(t, db)
			sponsor, a, b, voter := w.addr(31), w.addr(32), w.addr(33), w.addr(34)
			w.stake(a, 10)
			w.stake(b, 10)
			w.stake(voter, 10)
			job := w.job(sponsor)
			sa, sb := w.submit(a, job.ID), w.submit(b, job.ID)
			_, err := w.svc.FinalVote(w.ctx, voter, marketplace.FinalVoteInput{JobID: job.ID, SubmissionID: sb.ID})
			require.NoError(t, err)
			w.clock.Set(job.FinalVoteEndsAt)
			winners := make([]string, n)
			errs := parallel(n, func(i int) error {
				var res *marketplace.CloseResult
				var err error
				if i%2 == 0 {
					res, err = w.svc.CloseJob(w.ctx, sponsor, job.ID, marketplace.CloseInput{WinnerSubmissionID: sa.ID})
				} else {
					res, err = w.svc.FinalizeJob(w.ctx, voter, job.ID)
				}
				if err == nil {
					winners[i] = res.WinnerSubmissionID
				}
				return err
			})
			ok, winner := 0, ""
			for i, err := range errs {
				if err == nil {
					ok++
					winner = winners[i]
					continue
				}
				require.Equal(t, openjury.Conflict, openjury.KindOf(err), "%v", err)
			}
			require.Equal(t, 1, ok, "exactly one close")
			got, err := w.svc.Job(w.ctx, job.ID)
			require.NoError(t, err)
			require.Equal(t, winner, got.WinnerSubmissionID)
			winnerAgent := a
			if winner == sb.ID {
				winnerAgent = b
			}
			st, err := db.AGR().Status(w.ctx, winnerAgent)
			require.NoError(t, err)
			require.Equal(t, int64(50), st.Balance, "one mint")
			rep, err := w.svc.Reputation(w.ctx, winnerAgent.String())
			require.NoError(t, err)
			require.Equal(t, int64(1), rep.Wins)
		})
	})
}

func parallel(n int, fn func(i int) error) []error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			errs[i] = fn(i)
		})
	}
	close(start)
	wg.Wait()
	return errs
}

// TestConcurrentClosesSharingAgents closes many jobs at once whose
// submitters are the same agents in opposite orders: every close succeeds
// (no deadlock surfaces as an error) and reputation adds up.
func TestConcurrentClosesSharingAgents(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		w := newWorld(t, db)
		sponsor, a, b := w.addr(1), w.addr(2), w.addr(3)
		w.stake(a, 10)
		w.stake(b, 10)
		const jobs = 12
		type pick struct{ job, winner string }
		picks := make([]pick, jobs)
		for i := range jobs {
			job := w.job(sponsor)
			first, second := a, b
			if i%2 == 1 {
				first, second = b, a
			}
			s1 := w.submit(first, job.ID)
			w.submit(second, job.ID)
			picks[i] = pick{job.ID, s1.ID}
		}
		errs := parallel(jobs, func(i int) error {
			_, err := w.svc.CloseJob(w.ctx, sponsor, picks[i].job, marketplace.CloseInput{WinnerSubmissionID: picks[i].winner})
			return err
		})
		for _, err := range errs {
			require.NoError(t, err)
		}
		for _, x := range []openjury.Address{a, b} {
			rep, err := w.svc.Reputation(w.ctx, x.String())
			require.NoError(t, err)
			require.Equal(t, int64(jobs/2), rep.Wins)
			require.Equal(t, int64(jobs/2), rep.Losses)
			require.Equal(t, int64(jobs+10*jobs/2), rep.Score)
		}
	})
}

// TestSubmitErrorOrder pins the order of Submit's checks, all decided from
// the one statement that reads the job, the stake and the count: stake
// first (even for an unknown or malformed job id), then job not found,
// closed job, own job, the per-agent limit; and reputation only for an
// agent's first submission to a job.
func TestSubmitErrorOrder(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		w := newWorld(t, db)
		sponsor, worker, poor, broke := w.addr(1), w.addr(2), w.addr(3), w.addr(4)
		w.stake(worker, 10)
		w.stake(poor, 9) // below the minimum; broke has no stake row at all
		submit := func(agent openjury.Address, jobID string) error {
			_, err := w.svc.Submit(w.ctx, agent, marketplace.SubmitInput{JobID: jobID, Content: "x"})
			return err
		}
		open, closed := w.job(sponsor), w.job(sponsor)
		winner := w.submit(worker, closed.ID)
		_, err := w.svc.CloseJob(w.ctx, sponsor, closed.ID, marketplace.CloseInput{WinnerSubmissionID: winner.ID})
		require.NoError(t, err)
		unknown := openjury.NewID()

		// Stake comes first, whatever the job.
		for _, agent := range []openjury.Address{poor, broke} {
			for _, jobID := range []string{unknown, "not-an-id", open.ID, closed.ID} {
				requireKind(t, submit(agent, jobID), openjury.Forbidden, "insufficient stake")
			}
		}
		requireKind(t, submit(sponsor, open.ID), openjury.Forbidden, "insufficient stake")

		// Then the job: unknown, closed, own.
		requireKind(t, submit(worker, unknown), openjury.NotFound, "job not found")
		requireKind(t, submit(worker, "not-an-id"), openjury.NotFound, "job not found")
		requireKind(t, submit(worker, closed.ID), openjury.Conflict, "job is closed")
		w.stake(sponsor, 10)
		requireKind(t, submit(sponsor, closed.ID), openjury.Conflict, "job is closed")
		requireKind(t, submit(sponsor, open.ID), openjury.Forbidden, "the sponsor may not submit to their own job")

		// Then the limit; reputation counts the first submission only.
		before := w.rep(worker)
		for range marketplace.MaxSubmissionsPerAgent {
			require.NoError(t, submit(worker, open.ID))
		}
		after := w.rep(worker)
		require.Equal(t, before.Score+1, after.Score)
		require.Equal(t, before.Submissions+1, after.Submissions)
		requireKind(t, submit(worker, open.ID), openjury.Conflict, "at most 5 submissions per agent per job")
		// A stake lowered below the minimum wins over the limit.
		_, err = db.Stake().RecordSlash(w.ctx, stake.SlashEvent{Agent: worker, Amount: 1, CreatedAt: w.clock.Now()})
		require.NoError(t, err)
		requireKind(t, submit(worker, open.ID), openjury.Forbidden, "insufficient stake")
		require.Equal(t, after, w.rep(worker), "refused submissions change nothing")
	})
}

func (w *world) rep(a openjury.Address) marketplace.Reputation {
	w.t.Helper()
	r, err := w.svc.Reputation(w.ctx, a.String())
	require.NoError(w.t, err)
	return r
}

// TestSubmitRaceOneAgent: many submissions of one agent to one job at once
// (with other agents' among them) keep the per-agent limit and add the
// first-submission reputation once: the count is read under the job's lock
// and sees what the lock's previous holders committed.
func TestSubmitRaceOneAgent(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		w := newWorld(t, db)
		agent, others := w.addr(2), []openjury.Address{w.addr(3), w.addr(4)}
		for _, a := range append(others, agent) {
			w.stake(a, 10)
		}
		job := w.job(w.addr(1))
		const racers = 16
		errs := make([]error, racers)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range racers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				who := agent
				if i%4 == 3 {
					who = others[i%2]
				}
				<-start
				_, errs[i] = w.svc.Submit(w.ctx, who, marketplace.SubmitInput{JobID: job.ID, Content: "x"})
			}()
		}
		close(start)
		wg.Wait()
		accepted := 0
		for i, err := range errs {
			if i%4 == 3 {
				require.NoError(t, err, "another agent's submission %d", i)
				continue
			}
			if err == nil {
				accepted++
				continue
			}
			requireKind(t, err, openjury.Conflict, "at most 5 submissions per agent per job")
		}
		require.Equal(t, marketplace.MaxSubmissionsPerAgent, accepted)
		r := w.rep(agent)
		require.Equal(t, int64(1), r.Score, "one first submission")
		require.Equal(t, int64(1), r.Submissions)
	})
}

// TestSubmitFreshWalletsRace is the attack of many fresh wallets at once
// on one job: wallets with no stake row, or a stake one micro-USDC short,
// racing each other and the sponsor, are all refused with the guard's
// reason, and none of them leaves a submission or reputation behind,
// while a staked agent racing among them gets through.
func TestSubmitFreshWalletsRace(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		w := newWorld(t, db)
		sponsor, staked := w.addr(1), w.addr(2)
		w.stake(staked, 10)
		w.stake(sponsor, 10)
		job := w.job(sponsor)
		const fresh = 24
		short := w.addr(3)
		require.NoError(t, db.Stake().PutStake(w.ctx, stake.Stake{Address: short, Staked: loopConfig.MinStake - 1, UpdatedAt: w.clock.Now()}))
		who := []openjury.Address{staked, sponsor, short}
		for i := range fresh {
			who = append(who, w.addr(byte(100+i)))
		}
		errs := make([]error, len(who))
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i, a := range who {
			wg.Go(func() {
				<-start
				_, errs[i] = w.svc.Submit(w.ctx, a, marketplace.SubmitInput{JobID: job.ID, Content: "x"})
			})
		}
		close(start)
		wg.Wait()
		require.NoError(t, errs[0], "the staked agent")
		requireKind(t, errs[1], openjury.Forbidden, "the sponsor may not submit to their own job")
		for i := 2; i < len(who); i++ {
			requireKind(t, errs[i], openjury.Forbidden, "insufficient stake")
			require.Equal(t, marketplace.Reputation{Address: who[i]}, w.rep(who[i]), "a refused wallet gains nothing")
		}
		keys, err := db.Submissions().SubmissionKeys(w.ctx, job.ID)
		require.NoError(t, err)
		require.Len(t, keys, 1)
		require.Equal(t, staked, keys[0].Agent)
	})
}
