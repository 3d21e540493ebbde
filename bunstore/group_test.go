package bunstore_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/uptrace/bun"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/marketplace"
)

// commitCounter counts the COMMITs that reach SQLite.
type commitCounter struct{ n atomic.Int64 }

func (c *commitCounter) BeforeQuery(ctx context.Context, e *bun.QueryEvent) context.Context {
	if strings.EqualFold(strings.TrimSpace(e.Query), "COMMIT") {
		c.n.Add(1)
	}
	return ctx
}

func (c *commitCounter) AfterQuery(context.Context, *bun.QueryEvent) {}

func jobID(i int) string { return fmt.Sprintf("00000000-0000-7000-8000-%012d", i) }

// openGrouped opens a SQLite database whose groups are bounded only by
// size, so that the tests do not depend on how fast the machine is.
func openGrouped(t *testing.T) *bunstore.DB {
	db := open(t, sqliteDSN(t))
	bunstore.SetGroupBounds(db, 64, time.Hour)
	return db
}

// holdWriter starts a transaction that creates job 0 and keeps the SQLite
// writer until n others wait for it. It returns once the transaction
// holds the writer, with a channel of its outcome.
func holdWriter(t *testing.T, db *bunstore.DB, n int) (done <-chan error) {
	t.Helper()
	ch := make(chan error, 1)
	holding := make(chan struct{})
	var once sync.Once // a group rolled back for a failed member runs this again
	go func() {
		ch <- db.InTx(context.Background(), func(ctx context.Context, tx marketplace.Tx) error {
			first := false
			once.Do(func() { first = true; close(holding) })
			if err := tx.Jobs().CreateJob(ctx, job(jobID(0))); err != nil {
				return err
			}
			for first && bunstore.GroupWaiting(db) < n {
				time.Sleep(time.Millisecond)
			}
			return nil
		})
	}()
	<-holding
	return ch
}

// TestGroupCommit runs the transactions that queue for SQLite's writer as
// one group: one SQLite transaction, one COMMIT. Members that fail before
// they write leave the group as it was, each function runs once, the
// others all commit, and nobody sees a member's change before its InTx
// has returned.
func TestGroupCommit(t *testing.T) {
	t.Parallel()
	db := openGrouped(t)
	commits := &commitCounter{}
	bunstore.AddQueryHook(db, commits)
	ctx := context.Background()
	const members = 16
	before, began := db.Writer(), time.Now()
	first := holdWriter(t, db, members)
	errBoom := errors.New("boom")
	var wg sync.WaitGroup
	errs := make([]error, members+1)
	runs := make([]atomic.Int32, members+1)
	for i := 1; i <= members; i++ {
		wg.Go(func() {
			errs[i] = db.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
				runs[i].Add(1)
				// Every member sees the changes of the members before it.
				if _, err := tx.Jobs().Job(ctx, jobID(0)); err != nil {
					return err
				}
				if i%4 == 0 {
					return errBoom // it wrote nothing: the group goes on
				}
				return tx.Jobs().CreateJob(ctx, job(jobID(i)))
			})
		})
	}
	require.NoError(t, <-first)
	wg.Wait()
	for i := 1; i <= members; i++ {
		require.EqualValues(t, 1, runs[i].Load(), "member %d ran once", i)
		_, err := db.Jobs().Job(ctx, jobID(i))
		if i%4 == 0 {
			require.ErrorIs(t, errs[i], errBoom)
			requireKindNotFound(t, err)
			continue
		}
		require.NoError(t, errs[i], "member %d", i)
		require.NoError(t, err, "member %d's job is kept", i)
	}
	succeeded := int64(1 + members - members/4)
	require.Less(t, commits.n.Load(), succeeded, "the queued transactions share COMMITs")
	// DB.Writer counts the same: every successful function, every group
	// (each ended in a COMMIT here), and the writer held no longer than
	// the test ran.
	after := db.Writer()
	assert.Equal(t, succeeded, after.Members-before.Members, "members")
	assert.Equal(t, commits.n.Load(), after.Groups-before.Groups, "groups")
	assert.Greater(t, after.Busy, before.Busy)
	assert.LessOrEqual(t, after.Busy-before.Busy, time.Since(began))
}

// TestWriterStats: on SQLite a write is one more member of one more
// group and holds the writer a while; on PostgreSQL, with no one writer,
// the stats stay zero.
func TestWriterStats(t *testing.T) {
	t.Parallel()
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			db := open(t, be.dsn(t))
			before := db.Writer()
			require.NoError(t, db.Jobs().CreateJob(context.Background(), job(jobID(1))))
			after := db.Writer()
			if be.name == "postgres" {
				assert.Zero(t, after)
				return
			}
			assert.Equal(t, before.Members+1, after.Members)
			assert.Equal(t, before.Groups+1, after.Groups)
			assert.Greater(t, after.Busy, before.Busy)
		})
	}
}

// TestGroupCommitFailureAfterWrites: a member that fails (or panics)
// after it wrote rolls the group back; its changes are gone, the members
// that had succeeded in the group run again and commit, and no function
// runs more than twice, whoever fails.
func TestGroupCommitFailureAfterWrites(t *testing.T) {
	t.Parallel()
	db := openGrouped(t)
	ctx := context.Background()
	const members = 24
	first := holdWriter(t, db, members)
	errBoom := errors.New("boom")
	var wg sync.WaitGroup
	errs := make([]error, members+1)
	panics := make([]any, members+1)
	runs := make([]atomic.Int32, members+1)
	for i := 1; i <= members; i++ {
		wg.Go(func() {
			defer func() { panics[i] = recover() }()
			errs[i] = db.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
				runs[i].Add(1)
				if err := tx.Jobs().CreateJob(ctx, job(jobID(i))); err != nil {
					return err
				}
				switch i % 6 {
				case 0:
					return errBoom
				case 3:
					panic("member panics")
				}
				return nil
			})
		})
	}
	require.NoError(t, <-first)
	wg.Wait()
	again := 0
	for i := 1; i <= members; i++ {
		n := runs[i].Load()
		require.True(t, n == 1 || n == 2, "member %d ran %d times", i, n)
		_, err := db.Jobs().Job(ctx, jobID(i))
		switch i % 6 {
		case 0:
			require.ErrorIs(t, errs[i], errBoom)
			requireKindNotFound(t, err)
		case 3:
			require.Equal(t, "member panics", panics[i])
			requireKindNotFound(t, err)
		default:
			require.NoError(t, errs[i], "member %d", i)
			require.Nil(t, panics[i])
			require.NoError(t, err, "member %d's job is kept", i)
			if n == 2 {
				again++
			}
		}
	}
	require.Positive(t, again, "members of a rolled-back group ran again")
	_, err := db.Jobs().Job(ctx, jobID(0))
	require.NoError(t, err)
}

// TestGroupCommitVisibility: a member's InTx returns only after the group
// committed, so its change is invisible to readers until then.
func TestGroupCommitVisibility(t *testing.T) {
	t.Parallel()
	db := openGrouped(t)
	ctx := context.Background()
	first := holdWriter(t, db, 1)
	second := make(chan error, 1)
	checked := make(chan struct{})
	go func() {
		second <- db.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
			defer close(checked)
			// Job 0 is written (this transaction sees it) but the group has
			// not committed: a reader does not see it and the first InTx
			// has not returned.
			_, err := tx.Jobs().Job(ctx, jobID(0))
			assert.NoError(t, err)
			_, err = db.Jobs().Job(ctx, jobID(0))
			assert.Equal(t, openjury.NotFound, openjury.KindOf(err), "%v", err)
			select {
			case err := <-first:
				t.Errorf("the first InTx returned (%v) before its group committed", err)
			default:
			}
			return tx.Jobs().CreateJob(ctx, job(jobID(1)))
		})
	}()
	<-checked
	require.NoError(t, <-second)
	for i := range 2 {
		_, err := db.Jobs().Job(ctx, jobID(i))
		require.NoError(t, err)
	}
}

// TestGroupCommitPanicsAndCancels: a member's panic reaches its caller
// after its savepoint was rolled back, the other members commit, and the
// writer is free afterwards; a cancelled context stops a transaction
// before it starts and not once it runs (an interrupted SQLite write
// would roll back the whole group).
func TestGroupCommitPanicsAndCancels(t *testing.T) {
	t.Parallel()
	db := openGrouped(t)
	ctx := context.Background()
	first := holdWriter(t, db, 2)
	var wg sync.WaitGroup
	var panicked any
	wg.Go(func() {
		defer func() { panicked = recover() }()
		_ = db.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
			if err := tx.Jobs().CreateJob(ctx, job(jobID(1))); err != nil {
				return err
			}
			panic("member panics")
		})
	})
	cctx, cancel := context.WithCancel(ctx)
	var cancelled error
	wg.Go(func() {
		cancelled = db.InTx(cctx, func(ctx context.Context, tx marketplace.Tx) error {
			cancel()
			return tx.Jobs().CreateJob(ctx, job(jobID(2)))
		})
	})
	require.NoError(t, <-first)
	wg.Wait()
	require.Equal(t, "member panics", panicked)
	require.NoError(t, cancelled, "a started transaction finishes")
	_, err := db.Jobs().Job(ctx, jobID(1))
	requireKindNotFound(t, err)
	for _, id := range []string{jobID(0), jobID(2)} {
		_, err := db.Jobs().Job(ctx, id)
		require.NoError(t, err)
	}
	err = db.InTx(cctx, func(ctx context.Context, tx marketplace.Tx) error {
		return tx.Jobs().CreateJob(ctx, job(jobID(3)))
	})
	require.Equal(t, openjury.Unavailable, openjury.KindOf(err), "a cancelled context does not start: %v", err)
	require.NoError(t, db.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		return tx.Jobs().CreateJob(ctx, job(jobID(4)))
	}), "the writer is free")
}
