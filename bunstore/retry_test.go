package bunstore_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest/pgtest"
)

// TestInTxRetriesDeadlockVictim makes PostgreSQL deadlock two transactions
// (each locks one job, then wants the other's): the victim is run again by
// InTx and both succeed.
func TestInTxRetriesDeadlockVictim(t *testing.T) {
	t.Parallel()
	db := open(t, pgtest.NewDatabase(t))
	ctx := context.Background()
	a, b := job(openjury.NewID()), job(openjury.NewID())
	require.NoError(t, db.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		if err := tx.Jobs().CreateJob(ctx, a); err != nil {
			return err
		}
		return tx.Jobs().CreateJob(ctx, b)
	}))

	var attempts atomic.Int32
	var both sync.WaitGroup // both first locks held, on the first attempts only
	both.Add(2)
	var once [2]sync.Once
	lockBoth := func(i int, first, second string) error {
		return db.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
			attempts.Add(1)
			j, err := tx.Jobs().JobForUpdate(ctx, first)
			if err != nil {
				return err
			}
			once[i].Do(func() { both.Done(); both.Wait() })
			if _, err := tx.Jobs().JobForUpdate(ctx, second); err != nil {
				return err
			}
			j.FeaturedScore++
			return tx.Jobs().UpdateJob(ctx, j)
		})
	}
	errs := make([]error, 2)
	var wg sync.WaitGroup
	wg.Go(func() { errs[0] = lockBoth(0, a.ID, b.ID) })
	wg.Go(func() { errs[1] = lockBoth(1, b.ID, a.ID) })
	wg.Wait()
	require.NoError(t, errs[0])
	require.NoError(t, errs[1])
	// One deadlock victim runs once more; a loaded machine may add one more
	// lost race, never an unbounded number.
	require.GreaterOrEqual(t, attempts.Load(), int32(3), "the deadlock victim runs again")
	require.LessOrEqual(t, attempts.Load(), int32(4))
	for _, j := range []*marketplace.Job{a, b} {
		got, err := db.Jobs().Job(ctx, j.ID)
		require.NoError(t, err)
		require.Equal(t, int64(1), got.FeaturedScore)
	}
}
