package marketplace_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/marketplace"
)

// TestEventTagLimitIsTheJobs: the event log's tag filter bound is a job's
// tag bound (events cannot import marketplace).
func TestEventTagLimitIsTheJobs(t *testing.T) {
	t.Parallel()
	require.Equal(t, marketplace.MaxTagChars, events.MaxTagChars)
}

// eventTypes sequences and lists the types of every event after after.
func eventTypes(t *testing.T, w *world, after int64) ([]events.Type, []*events.Event) {
	t.Helper()
	log := events.NewService(w.db.EventLog(), w.clock, events.Config{})
	require.NoError(t, log.Flush(w.ctx))
	_, head, err := log.Bounds(w.ctx)
	require.NoError(t, err)
	evs, err := w.db.EventLog().Tail(w.ctx, after, head, 1000)
	require.NoError(t, err)
	var out []events.Type
	for _, e := range evs {
		out = append(out, e.Type)
	}
	return out, evs
}

// TestRefusedWritesLeaveNoEvent: a write the rules refuse (in the store's
// guarded statement on PostgreSQL, its transaction on SQLite) writes no
// event; the writes that pass write exactly theirs.
func TestRefusedWritesLeaveNoEvent(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		w := newWorld(t, db)
		sponsor, a, juror, poor := w.addr(1), w.addr(2), w.addr(3), w.addr(4)
		w.stake(a, 10)
		w.stake(juror, 10)
		w.score(juror, 10)
		_, before := eventTypes(t, w, 0)
		start := before[len(before)-1].Seq
		job := w.job(sponsor)
		sub := w.submit(a, job.ID)

		_, err := w.svc.Submit(w.ctx, sponsor, marketplace.SubmitInput{JobID: job.ID, Content: "mine"})
		require.Error(t, err) // no stake
		_, err = w.svc.Submit(w.ctx, poor, marketplace.SubmitInput{JobID: job.ID, Content: "x"})
		require.Error(t, err)
		_, err = w.svc.Vote(w.ctx, a, marketplace.VoteInput{JobID: job.ID, SubmissionID: sub.ID})
		require.Error(t, err) // own submission, no reputation
		_, err = w.svc.Vote(w.ctx, juror, marketplace.VoteInput{JobID: job.ID, SubmissionID: openjury.NewID()})
		require.Error(t, err) // unknown submission
		_, err = w.svc.Vote(w.ctx, juror, marketplace.VoteInput{JobID: job.ID, SubmissionID: sub.ID})
		require.NoError(t, err)
		_, err = w.svc.Vote(w.ctx, juror, marketplace.VoteInput{JobID: job.ID, SubmissionID: sub.ID})
		require.NoError(t, err) // a replaced vote is a vote again
		_, err = w.svc.CloseJob(w.ctx, a, job.ID, marketplace.CloseInput{WinnerSubmissionID: sub.ID})
		require.Error(t, err) // not the sponsor
		_, err = w.svc.CloseJob(w.ctx, sponsor, job.ID, marketplace.CloseInput{WinnerSubmissionID: sub.ID})
		require.NoError(t, err)
		_, err = w.svc.Submit(w.ctx, a, marketplace.SubmitInput{JobID: job.ID, Content: "late"})
		require.Error(t, err) // closed
		_, err = w.svc.FinalVote(w.ctx, juror, marketplace.FinalVoteInput{JobID: job.ID, SubmissionID: sub.ID})
		require.Error(t, err) // closed
		_, err = w.svc.Boost(w.ctx, juror, job.ID, marketplace.BoostInput{AmountAGR: 1, DurationHours: 1})
		require.Error(t, err) // closed

		types, evs := eventTypes(t, w, start)
		require.Equal(t, []events.Type{events.JobCreated, events.FinalVoteOpened, events.SubmissionCreated,
			events.VoteCast, events.VoteCast, events.JobClosed}, types)
		vote := evs[3]
		require.Equal(t, juror, vote.Actor)
		require.ElementsMatch(t, []openjury.Address{a, sponsor}, vote.Subjects, "the voted agent (from the store's statement) and the sponsor")
		require.Equal(t, sub.ID, evs[2].Data["submission_id"])
		require.Equal(t, a.String(), evs[5].Data["winner_address"])
	})
}
