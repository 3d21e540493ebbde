package bunstore_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/uptrace/bun"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/auth"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest/dbtest"
	"github.com/openjury/openjury/search"
)

// The store methods below are transactions of their own whose function
// runs again when its SQLite group is rolled back for a failed member
// (and on PostgreSQL after a lost race): each test runs one in a group
// that a later member rolls back, and requires what one run would leave,
// in the database and in what the method returns.

// targetKey marks the context of the target of rerun.
type targetKey struct{}

// queryCounter counts the statements of the target of rerun (those bun
// runs, not the prepared hot ones) whose text contains sub; twice is
// how many of them prove that the target's function ran twice.
type queryCounter struct {
	sub   string
	twice int64
	n     atomic.Int64
}

func (c *queryCounter) BeforeQuery(ctx context.Context, e *bun.QueryEvent) context.Context {
	if ctx.Value(targetKey{}) != nil && strings.Contains(e.Query, c.sub) {
		c.n.Add(1)
	}
	return ctx
}

func (c *queryCounter) AfterQuery(context.Context, *bun.QueryEvent) {}

// waitGroupWaiting waits until n transactions wait for db's writer.
func waitGroupWaiting(t *testing.T, db *bunstore.DB, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for bunstore.GroupWaiting(db) < n {
		require.True(t, time.Now().Before(deadline), "%d transactions never waited for the writer", n)
		time.Sleep(time.Millisecond)
	}
}

// rerun runs target as a member of a SQLite group after holdWriter's and
// before one that fails after it wrote, so that the group is rolled back
// and target's function runs again; between, when not nil, queues right
// after the failing member, so it runs and commits between target's two
// runs. ran counts a statement of target's function, which must run twice
// (the test fails rather than pass without a second run). It returns
// target's error.
func rerun(t *testing.T, db *bunstore.DB, ran *queryCounter, target func(ctx context.Context) error, between func() error) error {
	t.Helper()
	waiters := 2
	if between != nil {
		waiters = 3
	}
	first := holdWriter(t, db, waiters)
	before := ran.n.Load()
	targetErr, failErr, betweenErr := make(chan error, 1), make(chan error, 1), make(chan error, 1)
	go func() { targetErr <- target(context.WithValue(context.Background(), targetKey{}, true)) }()
	waitGroupWaiting(t, db, 1)
	errBoom := errors.New("boom")
	go func() {
		failErr <- db.InTx(context.Background(), func(ctx context.Context, tx marketplace.Tx) error {
			if err := tx.Jobs().CreateJob(ctx, job(jobID(99))); err != nil {
				return err
			}
			return errBoom
		})
	}()
	if between != nil {
		// The holder lets the group go on once the last one waits.
		waitGroupWaiting(t, db, 2)
		go func() { betweenErr <- between() }()
	} else {
		betweenErr <- nil
	}
	require.NoError(t, <-first)
	require.ErrorIs(t, <-failErr, errBoom)
	require.NoError(t, <-betweenErr)
	err := <-targetErr
	require.GreaterOrEqual(t, ran.n.Load()-before, ran.twice, "the target's function ran again")
	return err
}

// openRerun opens a migrated SQLite database whose groups are bounded only
// by size, counting the target's statements that contain sub, which its
// function runs once a run.
func openRerun(t *testing.T, sub string) (*bunstore.DB, *queryCounter) {
	db := open(t, dbtest.SQLite(t))
	bunstore.SetGroupBounds(db, 64, time.Hour)
	c := &queryCounter{sub: sub, twice: 2}
	bunstore.AddQueryHook(db, c)
	bunstore.SetHotHook(db, func(ctx context.Context, query string) {
		c.BeforeQuery(ctx, &bun.QueryEvent{Query: query})
	})
	return db, c
}

var rerunAt = time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)

// appendSequenced appends n events and sequences them.
func appendSequenced(t *testing.T, db *bunstore.DB, n int) {
	t.Helper()
	ctx := context.Background()
	for i := range n {
		require.NoError(t, db.Events().Append(ctx, &events.Event{Type: events.PostCreated, CreatedAt: rerunAt,
			Data: events.Data{"i": i}}))
	}
	moved, err := db.EventLog().Sequence(ctx, rerunAt, 100)
	require.NoError(t, err)
	require.Equal(t, n, moved)
}

// TestRerunExpireCountsOnce: Expire run again reports the events it
// deleted once.
func TestRerunExpireCountsOnce(t *testing.T) {
	t.Parallel()
	db, ran := openRerun(t, `DELETE FROM "events"`)
	appendSequenced(t, db, 3)
	var n int64
	err := rerun(t, db, ran, func(ctx context.Context) (err error) {
		n, err = db.EventLog().Expire(ctx, rerunAt.Add(time.Hour), 100)
		return err
	}, nil)
	require.NoError(t, err)
	require.Equal(t, int64(3), n)
	horizon, head, err := db.EventLog().Bounds(context.Background())
	require.NoError(t, err)
	require.Equal(t, [2]int64{3, 3}, [2]int64{horizon, head})
}

// TestRerunSequenceCountsWhatItMoved: a Sequence whose second run finds
// its events moved by another pass meanwhile reports none moved.
func TestRerunSequenceCountsWhatItMoved(t *testing.T) {
	t.Parallel()
	db, ran := openRerun(t, `SELECT value FROM event_marks WHERE name = 'seq'`)
	ctx := context.Background()
	for i := range 3 {
		require.NoError(t, db.Events().Append(ctx, &events.Event{Type: events.PostCreated, CreatedAt: rerunAt,
			Data: events.Data{"i": i}}))
	}
	var target, other int
	err := rerun(t, db, ran, func(ctx context.Context) (err error) {
		target, err = db.EventLog().Sequence(ctx, rerunAt, 100)
		return err
	}, func() (err error) {
		other, err = db.EventLog().Sequence(ctx, rerunAt, 100)
		return err
	})
	require.NoError(t, err)
	require.Equal(t, [2]int{0, 3}, [2]int{target, other}, "moved by the pass between the runs")
	_, head, err := db.EventLog().Bounds(ctx)
	require.NoError(t, err)
	require.Equal(t, int64(3), head)
}

// TestRerunDispatchCountsWhatItRead: a Dispatch whose second run finds
// the events dispatched by another step meanwhile reports none read.
func TestRerunDispatchCountsWhatItRead(t *testing.T) {
	t.Parallel()
	db, ran := openRerun(t, `SELECT value FROM event_marks WHERE name = 'webhooks'`)
	appendSequenced(t, db, 3)
	none := func([]*events.Event, []*events.Webhook) []*events.Delivery { return nil }
	ctx := context.Background()
	var target, other int
	err := rerun(t, db, ran, func(ctx context.Context) (err error) {
		target, err = db.Webhooks().Dispatch(ctx, 100, none)
		return err
	}, func() (err error) {
		other, err = db.Webhooks().Dispatch(ctx, 100, none)
		return err
	})
	require.NoError(t, err)
	require.Equal(t, [2]int{0, 3}, [2]int{target, other}, "read by the step between the runs")
	behind, err := db.Webhooks().DispatchBehind(ctx)
	require.NoError(t, err)
	require.False(t, behind)
}

// TestRerunSaveEntriesCountsWhatItSaved: SaveEntries whose second run
// finds its pending rows taken by another save meanwhile reports none
// saved.
func TestRerunSaveEntriesCountsWhatItSaved(t *testing.T) {
	t.Parallel()
	db, ran := openRerun(t, `DELETE FROM search_pending`)
	ctx := context.Background()
	s := db.SearchIndex()
	for i := 1; i <= 2; i++ {
		require.NoError(t, db.Search().Enqueue(ctx, marketplace.DocJob, jobID(i), rerunAt))
	}
	_, err := s.IndexTexts(ctx, 10)
	require.NoError(t, err)
	items, err := s.ClaimPending(ctx, rerunAt, time.Minute, 10)
	require.NoError(t, err)
	require.Len(t, items, 2)
	entries := make([]search.Entry, len(items))
	for i, p := range items {
		entries[i] = search.Entry{Kind: p.Kind, ID: p.ID, Model: "m", Vector: search.Vec8{Scale: 1, Values: []int8{1, 2}}}
	}
	var target, other int
	err = rerun(t, db, ran, func(ctx context.Context) (err error) {
		target, err = s.SaveEntries(ctx, items, entries, rerunAt)
		return err
	}, func() (err error) {
		other, err = s.SaveEntries(ctx, items, entries, rerunAt)
		return err
	})
	require.NoError(t, err)
	require.Equal(t, [2]int{0, 2}, [2]int{target, other}, "saved by the save between the runs")
}

// TestRerunIndexInlineCountsWhatItTook: IndexInline whose second run
// finds its document taken by another step meanwhile reports none taken
// or saved.
func TestRerunIndexInlineCountsWhatItTook(t *testing.T) {
	t.Parallel()
	db, ran := openRerun(t, `DELETE FROM search_pending WHERE kind = ? AND doc_id = ? AND gen = ?`)
	ctx := context.Background()
	s := db.SearchIndex()
	require.NoError(t, db.Search().Enqueue(ctx, marketplace.DocJob, jobID(1), rerunAt))
	embed := func(_ context.Context, items []search.Pending, _ []search.Source) ([]search.Entry, error) {
		out := make([]search.Entry, len(items))
		for i, p := range items {
			out[i] = search.Entry{Kind: p.Kind, ID: p.ID, Deleted: true, Model: "m"}
		}
		return out, nil
	}
	var target, other [2]int
	err := rerun(t, db, ran, func(ctx context.Context) (err error) {
		target[0], target[1], err = s.IndexInline(ctx, 10, rerunAt, time.Minute, time.Second, embed)
		return err
	}, func() (err error) {
		other[0], other[1], err = s.IndexInline(ctx, 10, rerunAt, time.Minute, time.Second, embed)
		return err
	})
	require.NoError(t, err)
	require.Equal(t, [2][2]int{{0, 0}, {1, 1}}, [2][2]int{target, other}, "taken by the step between the runs")
	got, err := s.Changes(ctx, 0, 10)
	require.NoError(t, err)
	require.Len(t, got, 1)
}

// TestRerunIssueChallengeReturnsWhatItStored: IssueChallenge whose first
// run found the address's challenges full, and whose second run stores c
// after one of them was redeemed meanwhile, returns c.
func TestRerunIssueChallengeReturnsWhatItStored(t *testing.T) {
	t.Parallel()
	db, ran := openRerun(t, `FROM "auth_challenges" AS "c"`)
	ctx := context.Background()
	addr := openjury.MustAddress("0x2222222222222222222222222222222222222222")
	challenge := func(nonce string, issued time.Time) auth.Challenge {
		return auth.Challenge{Nonce: nonce, Address: addr, Message: "sign " + nonce, IssuedAt: issued, ExpiresAt: issued.Add(time.Hour)}
	}
	require.NoError(t, db.PutChallenge(ctx, challenge("n1", rerunAt)))
	require.NoError(t, db.PutChallenge(ctx, challenge("n2", rerunAt.Add(time.Second))))
	c := challenge("n3", rerunAt.Add(2*time.Second))
	var got auth.Challenge
	err := rerun(t, db, ran, func(ctx context.Context) (err error) {
		got, err = db.IssueChallenge(ctx, c, rerunAt, 2)
		return err
	}, func() error {
		return db.RedeemChallenge(ctx, addr, "n2", rerunAt, auth.Token{Hash: "h", Address: addr, CreatedAt: rerunAt, ExpiresAt: rerunAt.Add(time.Hour)})
	})
	require.NoError(t, err)
	require.Equal(t, "n3", got.Nonce, "the challenge stored by the run that counted")
	live, err := db.LiveChallenges(ctx, addr, "", rerunAt, 10)
	require.NoError(t, err)
	nonces := make([]string, len(live))
	for i, l := range live {
		nonces[i] = l.Nonce
	}
	require.Equal(t, []string{"n3", "n1"}, nonces)
}

// TestRerunPutPayoutsKeepsThemAll: PutPayouts run again inserts every
// payout again.
func TestRerunPutPayoutsKeepsThemAll(t *testing.T) {
	t.Parallel()
	// Its statements are not bun's but for the savepoint of its second
	// run, under which a member runs again.
	db, ran := openRerun(t, "SAVEPOINT")
	ran.twice = 1
	ctx := context.Background()
	require.NoError(t, db.Jobs().CreateJob(ctx, job(jobID(1))))
	payouts := []anchor.Payout{
		{Recipient: openjury.MustAddress("0x3333333333333333333333333333333333333333"), Amount: 7, Roles: []string{"winner"}},
		{Recipient: openjury.MustAddress("0x4444444444444444444444444444444444444444"), Amount: 3, Roles: []string{"juror"}},
	}
	err := rerun(t, db, ran, func(ctx context.Context) error {
		return db.Escrow().PutPayouts(ctx, jobID(1), payouts)
	}, nil)
	require.NoError(t, err)
	got, err := db.Escrow().Payouts(ctx, jobID(1), "", "", 10)
	require.NoError(t, err)
	require.Len(t, got, 2)
}

// TestRerunCreditCoherentCountsOnce: CreditCoherent run again credits each
// coherent juror once and reports them once.
func TestRerunCreditCoherentCountsOnce(t *testing.T) {
	t.Parallel()
	db, ran := openRerun(t, `INSERT INTO "agr_ledger"`)
	ctx := context.Background()
	require.NoError(t, db.Jobs().CreateJob(ctx, job(jobID(1))))
	sub := &marketplace.Submission{ID: jobID(2), JobID: jobID(1), Agent: openjury.MustAddress("0x5555555555555555555555555555555555555555"),
		Content: "answer", Evidence: []marketplace.Evidence{}, CreatedAt: rerunAt}
	require.NoError(t, db.Submissions().CreateSubmission(ctx, sub))
	voters := []openjury.Address{
		openjury.MustAddress("0x6666666666666666666666666666666666666666"),
		openjury.MustAddress("0x7777777777777777777777777777777777777777"),
	}
	for _, v := range voters {
		require.NoError(t, db.Votes().PutVote(ctx, &marketplace.Vote{JobID: jobID(1), SubmissionID: sub.ID, Voter: v, Weight: 1, CreatedAt: rerunAt}))
	}
	var n int64
	err := rerun(t, db, ran, func(ctx context.Context) (err error) {
		n, err = db.JuryOutcomes().CreditCoherent(ctx, jobID(1), sub.ID, 5, rerunAt)
		return err
	}, nil)
	require.NoError(t, err)
	require.Equal(t, int64(2), n)
	for _, v := range voters {
		st, err := db.AGR().Status(ctx, v)
		require.NoError(t, err)
		require.Equal(t, agr.Status{Address: v, Balance: 5, Earned: 5}, st)
	}
}
