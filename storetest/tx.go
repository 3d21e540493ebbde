package storetest

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/stake"
)

// racers is how many goroutines race in the concurrency scenarios.
const racers = 16

// waitLimit bounds every wait of the suite, so a broken backend fails
// instead of hanging.
const waitLimit = 30 * time.Second

func (s *suite) txTests() []test {
	rowLocks := func(f Features) string {
		if !f.RowLocks {
			return "backend has no row locks (Features.RowLocks is false)"
		}
		return ""
	}
	return []test{
		{name: "FailedTxRollsBackCreates", run: testRollbackCreates},
		{name: "FailedTxRollsBackUpdates", run: testRollbackUpdates},
		{name: "PanicRollsBack", run: testRollbackPanic},
		{name: "FailedTxRollsBackEveryStore", run: testRollbackEveryStore},
		{name: "RefusedChangesKeepTxUsable", run: testRefusalsKeepTx},
		{name: "UncommittedInvisibleOutside", run: testIsolation},
		{name: "ConcurrentCloseOneWinner", run: testConcurrentClose},
		{name: "ConcurrentIncrementsNoLostUpdate", run: testConcurrentIncrements},
		{name: "RowLockMakesSameRowWait", run: testRowLockWaits, skip: rowLocks},
		{name: "RowLockLeavesOtherRowsFree", run: testRowLockOtherRows, skip: rowLocks},
	}
}

var errBoom = errors.New("storetest: boom")

func testRollbackCreates(t *testing.T, b Backend) {
	ctx := context.Background()
	j1, j2 := newJob(1, base), newJob(2, base)
	j1.Tags = []string{"rollback"}
	err := b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		require.NoError(t, tx.Jobs().CreateJob(ctx, j1))
		require.NoError(t, tx.Jobs().CreateJob(ctx, j2))
		got, err := tx.Jobs().Job(ctx, j2.ID)
		require.NoError(t, err, "a transaction reads its own writes")
		require.Equal(t, j2, got)
		return errBoom
	})
	require.Equal(t, errBoom, err, "InTx returns fn's error as is")
	for _, j := range []*marketplace.Job{j1, j2} {
		_, err := b.Jobs().Job(ctx, j.ID)
		requireKind(t, openjury.NotFound, err)
	}
	require.Empty(t, list(t, b, marketplace.JobFilter{Ref: base, Limit: 10}))
	require.Empty(t, list(t, b, marketplace.JobFilter{Tag: "rollback", Ref: base, Limit: 10}))
	// Nothing was left behind that blocks the same ids.
	create(t, b, j1, j2)
}

func testRollbackUpdates(t *testing.T, b Backend) {
	ctx := context.Background()
	j := newJob(1, base)
	create(t, b, j)
	kindErr := openjury.E(openjury.Conflict, "storetest", "changed my mind")
	err := b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		cur, err := tx.Jobs().JobForUpdate(ctx, j.ID)
		require.NoError(t, err)
		cur.Status = marketplace.StatusClosed
		cur.WinnerSubmissionID = id(9)
		cur.ClosedAt = ptr(base.Add(time.Hour))
		cur.FeaturedScore = 5
		require.NoError(t, tx.Jobs().UpdateJob(ctx, cur))
		require.NoError(t, tx.Jobs().CreateJob(ctx, newJob(2, base)))
		again, err := tx.Jobs().Job(ctx, j.ID)
		require.NoError(t, err)
		require.Equal(t, marketplace.StatusClosed, again.Status)
		return kindErr
	})
	require.Same(t, kindErr, err)
	require.Equal(t, j, getJob(t, b, j.ID))
	_, err = b.Jobs().Job(ctx, id(2))
	requireKind(t, openjury.NotFound, err)
}

func testRollbackPanic(t *testing.T, b Backend) {
	ctx := context.Background()
	func() {
		defer func() { require.Equal(t, "storetest panic", recover()) }()
		_ = b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
			require.NoError(t, tx.Jobs().CreateJob(ctx, newJob(1, base)))
			panic("storetest panic")
		})
	}()
	_, err := b.Jobs().Job(ctx, id(1))
	requireKind(t, openjury.NotFound, err)
	// The connection went back to the pool: the backend still works.
	tctx, cancel := context.WithTimeout(ctx, waitLimit)
	defer cancel()
	require.NoError(t, b.InTx(tctx, func(ctx context.Context, tx marketplace.Tx) error {
		return tx.Jobs().CreateJob(ctx, newJob(1, base))
	}))
	getJob(t, b, id(1))
}

// testRollbackEveryStore writes through every store in one transaction
// that fails: nothing of it stays.
func testRollbackEveryStore(t *testing.T, b Backend) {
	ctx := context.Background()
	j := newJob(1, base)
	sub := newSubmission(100, j.ID, alice, at(1))
	vote := newVote(200, j.ID, 100, bob, 3, at(2))
	final := newFinalVote(201, j.ID, 100, bob, at(3))
	credit := entry(300, bob, 40, agr.ReasonDevMint, "", at(4))
	st := stake.Stake{Address: alice, Staked: 9_000_000, Ref: fullRef(1), UpdatedAt: at(5)}
	sl := slash(400, alice, 1_000_000, at(6))
	sl.Ref = fullRef(2)
	com := newComment(500, marketplace.TargetJob, j.ID, alice, at(9))
	post := newPost(501, alice, at(10), "Rollback")
	rateKey := "comments:" + alice.String()
	n, _ := hit(t, b.Rates(), rateKey, at(11), time.Minute)
	require.Equal(t, int64(1), n)
	err := b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		require.NoError(t, tx.Jobs().CreateJob(ctx, j))
		require.NoError(t, tx.Submissions().CreateSubmission(ctx, sub))
		require.NoError(t, tx.Votes().PutVote(ctx, vote))
		require.NoError(t, tx.FinalVotes().PutFinalVote(ctx, final))
		_, err := tx.AGR().Apply(ctx, credit)
		require.NoError(t, err)
		require.NoError(t, tx.Stake().PutStake(ctx, st))
		after, err := tx.Stake().RecordSlash(ctx, sl)
		require.NoError(t, err)
		require.Equal(t, openjury.MicroUSDC(8_000_000), after.Staked)
		require.NoError(t, tx.Reputation().AddReputation(ctx, alice, marketplace.ReputationDelta{Score: 1, Submissions: 1}, at(7)))
		require.NoError(t, tx.Reputation().SetScore(ctx, bob, 3, at(8)))
		require.NoError(t, tx.Comments().CreateComment(ctx, com))
		require.NoError(t, tx.Posts().CreatePost(ctx, post))
		n, _, err := tx.Rates().Hit(ctx, rateKey, at(12), time.Minute)
		require.NoError(t, err)
		require.Equal(t, int64(2), n)
		return errBoom
	})
	require.Equal(t, errBoom, err)

	_, err = b.Jobs().Job(ctx, j.ID)
	requireKind(t, openjury.NotFound, err)
	_, err = b.Submissions().Submission(ctx, sub.ID)
	requireKind(t, openjury.NotFound, err)
	require.Empty(t, listSubmissions(t, b, j.ID))
	_, err = b.Votes().Vote(ctx, j.ID, bob)
	requireKind(t, openjury.NotFound, err)
	_, err = b.FinalVotes().FinalVote(ctx, j.ID, bob)
	requireKind(t, openjury.NotFound, err)
	require.Empty(t, tally(t, b, j.ID, false))
	require.Empty(t, tally(t, b, j.ID, true))
	require.Equal(t, agr.Status{Address: bob}, status(t, b, bob))
	require.Empty(t, ledger(t, b, bob, 10, nil))
	require.Equal(t, stake.Stake{Address: alice}, getStake(t, b, alice))
	require.Empty(t, slashes(t, b, stake.SlashFilter{Limit: 10}))
	require.Equal(t, marketplace.Reputation{Address: alice}, getReputation(t, b, alice))
	require.Empty(t, leaderboard(t, b, 10, nil))
	_, err = b.Comments().Comment(ctx, com.ID)
	requireKind(t, openjury.NotFound, err)
	require.Empty(t, listComments(t, b, marketplace.TargetJob, j.ID, 10, nil))
	_, err = b.Posts().Post(ctx, post.ID)
	requireKind(t, openjury.NotFound, err)
	require.Empty(t, listPosts(t, b, marketplace.PostFilter{Limit: 10}))
	require.Empty(t, listPosts(t, b, marketplace.PostFilter{Tag: "rollback", Limit: 10}))
	n, start := hit(t, b.Rates(), rateKey, at(13), time.Minute)
	require.Equal(t, int64(2), n, "the rolled-back hit was counted")
	require.Equal(t, at(11), start)

	// Nothing was left behind that blocks doing it all again.
	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		require.NoError(t, tx.Jobs().CreateJob(ctx, j))
		require.NoError(t, tx.Submissions().CreateSubmission(ctx, sub))
		require.NoError(t, tx.Votes().PutVote(ctx, vote))
		_, err := tx.AGR().Apply(ctx, credit)
		require.NoError(t, err)
		if _, err = tx.Stake().RecordSlash(ctx, sl); err != nil {
			return err
		}
		if err := tx.Comments().CreateComment(ctx, com); err != nil {
			return err
		}
		return tx.Posts().CreatePost(ctx, post)
	}))
	require.Equal(t, vote, getVote(t, b, j.ID, bob))
	require.Len(t, ledger(t, b, bob, 10, nil), 1)
	require.Equal(t, com, getComment(t, b, com.ID))
	require.Equal(t, []string{post.ID}, postIDs(listPosts(t, b, marketplace.PostFilter{Tag: "rollback", Limit: 10})))
}

// testRefusalsKeepTx: the refusals the AGR and stake ports document (a
// second win, a debit over the balance, a slash seen before) write nothing
// inside a transaction, and the transaction goes on and commits the rest:
// the stake sync skips events it has seen. (PostgreSQL aborts the whole
// transaction on a raw constraint error, so the backend must avoid one or
// contain it, e.g. in a savepoint.)
func testRefusalsKeepTx(t *testing.T, b Backend) {
	ctx := context.Background()
	create(t, b, newJob(1, base))
	apply(t, b, entry(1, alice, 10, agr.ReasonWin, id(1), at(1)))
	seen := slash(2, alice, 1, at(2))
	seen.Ref = fullRef(1)
	_, err := b.Stake().RecordSlash(ctx, seen)
	require.NoError(t, err)

	err = b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		_, err := tx.AGR().Apply(ctx, entry(3, bob, 10, agr.ReasonWin, id(1), at(3)))
		requireKind(t, openjury.Conflict, err)
		_, err = tx.AGR().Apply(ctx, entry(4, bob, -1, agr.ReasonBoost, id(1), at(4)))
		requireKind(t, openjury.PaymentRequired, err)
		again := seen
		again.ID = id(5)
		_, err = tx.Stake().RecordSlash(ctx, again)
		requireKind(t, openjury.Conflict, err)

		// The transaction still works.
		if _, err := tx.AGR().Apply(ctx, entry(8, bob, 5, agr.ReasonDevMint, "", at(8))); err != nil {
			return err
		}
		if err := tx.Submissions().CreateSubmission(ctx, newSubmission(9, id(1), bob, at(9))); err != nil {
			return err
		}
		return tx.Reputation().AddReputation(ctx, bob, marketplace.ReputationDelta{Score: 1}, at(10))
	})
	require.NoError(t, err)
	require.Equal(t, agr.Status{Address: bob, Balance: 5, Earned: 5}, status(t, b, bob))
	require.Equal(t, []string{id(8)}, entryIDs(ledger(t, b, bob, 10, nil)))
	require.Equal(t, []string{id(2)}, slashIDs(slashes(t, b, stake.SlashFilter{Limit: 10})))
	require.Equal(t, []string{id(9)}, listSubmissions(t, b, id(1)))
	require.Equal(t, int64(1), getReputation(t, b, bob).Score)
}

func testIsolation(t *testing.T, b Backend) {
	j := newJob(1, base)
	err := b.InTx(context.Background(), func(ctx context.Context, tx marketplace.Tx) error {
		require.NoError(t, tx.Jobs().CreateJob(ctx, j))
		require.Equal(t, []string{j.ID}, func() []string {
			jobs, err := tx.Jobs().ListJobs(ctx, marketplace.JobFilter{Ref: base, Limit: 10})
			require.NoError(t, err)
			return ids(jobs)
		}())
		// Another caller (outside this transaction) does not see it yet.
		outside, cancel := context.WithTimeout(context.Background(), waitLimit)
		defer cancel()
		_, err := b.Jobs().Job(outside, j.ID)
		requireKind(t, openjury.NotFound, err)
		return nil
	})
	require.NoError(t, err)
	require.Equal(t, j, getJob(t, b, j.ID))
}

// race runs fn on racers goroutines released together and returns their
// errors by goroutine index.
func race(fn func(i int) error) []error { return raceN(racers, fn) }

// raceN runs fn on n goroutines released together and returns their errors
// by goroutine index.
func raceN(n int, fn func(i int) error) []error {
	errs := make([]error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs[i] = fn(i)
		}()
	}
	close(start)
	wg.Wait()
	return errs
}

// oneWinner requires that exactly one of errs is nil and that every other
// is of the kind lost, and returns the winner's index. did names what the
// winner did, for the failure messages ("goroutines 1 and 2 both <did>",
// "nobody <did>").
func oneWinner(t *testing.T, errs []error, lost openjury.Kind, did string) int {
	t.Helper()
	winner := -1
	for i, err := range errs {
		if err == nil {
			require.Equal(t, -1, winner, "goroutines %d and %d both %s", winner, i, did)
			winner = i
			continue
		}
		require.Equal(t, lost, openjury.KindOf(err), "goroutine %d: %v", i, err)
	}
	require.NotEqual(t, -1, winner, "nobody %s", did)
	return winner
}

func testConcurrentClose(t *testing.T, b Backend) {
	j := newJob(1, base)
	create(t, b, j)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	// Each racer, having read the job, waits a moment for the others to
	// read it too. With working locks they cannot, and the wait just
	// times out; without, every racer sees the job open and the test fails
	// reliably instead of by luck of timing.
	var read atomic.Int32
	allRead := make(chan struct{})
	errs := race(func(i int) error {
		return b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
			cur, err := tx.Jobs().JobForUpdate(ctx, j.ID)
			if err != nil {
				return err
			}
			if read.Add(1) == racers {
				close(allRead)
			}
			select {
			case <-allRead:
			case <-time.After(20 * time.Millisecond):
			}
			if cur.Status != marketplace.StatusOpen {
				return openjury.E(openjury.Conflict, "storetest", "job is closed")
			}
			cur.Status = marketplace.StatusClosed
			cur.WinnerSubmissionID = id(100 + i)
			cur.ClosedAt = ptr(base.Add(time.Duration(i+1) * time.Millisecond))
			return tx.Jobs().UpdateJob(ctx, cur)
		})
	})
	winner := oneWinner(t, errs, openjury.Conflict, "closed the job")
	got := getJob(t, b, j.ID)
	require.Equal(t, marketplace.StatusClosed, got.Status)
	require.Equal(t, id(100+winner), got.WinnerSubmissionID)
	require.Equal(t, base.Add(time.Duration(winner+1)*time.Millisecond), *got.ClosedAt)
}

func testConcurrentIncrements(t *testing.T, b Backend) {
	j := newJob(1, base)
	create(t, b, j)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	errs := race(func(int) error {
		return b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
			cur, err := tx.Jobs().JobForUpdate(ctx, j.ID)
			if err != nil {
				return err
			}
			cur.FeaturedScore++
			return tx.Jobs().UpdateJob(ctx, cur)
		})
	})
	for i, err := range errs {
		require.NoError(t, err, "goroutine %d", i)
	}
	require.Equal(t, int64(racers), getJob(t, b, j.ID).FeaturedScore, "an update was lost")
}

// holdLock locks job jobID in a transaction on another goroutine and keeps
// it until release is called, which then bumps the job's featured score and
// commits, returning the transaction's error.
func holdLock(t *testing.T, b Backend, jobID string) (release func() error) {
	t.Helper()
	return holdLockWith(t, b, func(ctx context.Context, tx marketplace.Tx) (*marketplace.Job, error) {
		return tx.Jobs().JobForUpdate(ctx, jobID)
	}, nil)
}

// holdLockWith is holdLock with the job locked by lock, and then, when not
// nil, run in the holder's transaction on release before the bump.
func holdLockWith(t *testing.T, b Backend, lock func(ctx context.Context, tx marketplace.Tx) (*marketplace.Job, error),
	then func(ctx context.Context, tx marketplace.Tx) error) (release func() error) {
	t.Helper()
	locked, unlock := make(chan struct{}), make(chan struct{})
	var lockedOnce sync.Once // InTx may run the holder's function again
	done := make(chan error, 1)
	go func() {
		done <- b.InTx(context.Background(), func(ctx context.Context, tx marketplace.Tx) error {
			cur, err := lock(ctx, tx)
			if err != nil {
				return err
			}
			lockedOnce.Do(func() { close(locked) })
			<-unlock
			if then != nil {
				if err := then(ctx, tx); err != nil {
					return err
				}
			}
			cur.FeaturedScore += 7
			return tx.Jobs().UpdateJob(ctx, cur)
		})
	}()
	var (
		once   sync.Once
		result error
	)
	release = func() error {
		once.Do(func() {
			close(unlock)
			select {
			case result = <-done:
			case <-time.After(waitLimit):
				result = errors.New("storetest: the lock holder did not finish")
			}
		})
		return result
	}
	t.Cleanup(func() { _ = release() })
	select {
	case <-locked:
	case err := <-done:
		t.Fatalf("lock holder failed: %v", err)
	case <-time.After(waitLimit):
		t.Fatal("lock holder did not get the lock")
	}
	return release
}

func testRowLockWaits(t *testing.T, b Backend) {
	j := newJob(1, base)
	create(t, b, j)
	release := holdLock(t, b, j.ID)
	got := waitsForLock(t, b, release, "JobForUpdate", func(ctx context.Context, tx marketplace.Tx) (*marketplace.Job, error) {
		return tx.Jobs().JobForUpdate(ctx, j.ID)
	})
	require.Equal(t, int64(7), got.FeaturedScore, "the waiter reads the holder's committed change")
}

// waitsForLock runs lock in a transaction of its own on another goroutine
// while a holder (holdLock) keeps the row, requires that it still waits
// 200 ms later, then releases the holder and returns what lock returned
// once it could go on. what names lock in the failure messages.
func waitsForLock[T any](t *testing.T, b Backend, release func() error, what string,
	lock func(ctx context.Context, tx marketplace.Tx) (T, error)) T {
	t.Helper()
	type result struct {
		v   T
		err error
	}
	got := make(chan result, 1)
	go func() {
		var r result
		r.err = b.InTx(context.Background(), func(ctx context.Context, tx marketplace.Tx) error {
			r.v, r.err = lock(ctx, tx)
			return r.err
		})
		got <- r
	}()
	select {
	case r := <-got:
		t.Fatalf("%s returned (%v) while another transaction held the row", what, r.err)
	case <-time.After(200 * time.Millisecond): // still waiting, as it should
	}
	require.NoError(t, release())
	select {
	case r := <-got:
		require.NoError(t, r.err)
		return r.v
	case <-time.After(waitLimit):
		t.Fatalf("%s still waits after the holder committed", what)
	}
	var zero T
	return zero
}

func testRowLockOtherRows(t *testing.T, b Backend) {
	create(t, b, newJob(1, base), newJob(2, base))
	release := holdLock(t, b, id(1))
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	err := b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		cur, err := tx.Jobs().JobForUpdate(ctx, id(2))
		if err != nil {
			return err
		}
		cur.FeaturedScore = 3
		return tx.Jobs().UpdateJob(ctx, cur)
	})
	require.NoError(t, err, "a lock on job 1 blocked a transaction on job 2")
	require.NoError(t, release())
	require.Equal(t, int64(7), getJob(t, b, id(1)).FeaturedScore)
	require.Equal(t, int64(3), getJob(t, b, id(2)).FeaturedScore)
}
