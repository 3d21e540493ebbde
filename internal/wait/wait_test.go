package wait

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestFor: no wait for d <= 0, the whole d otherwise, cut short by a wake
// or by the end of the context, which it reports.
func TestFor(t *testing.T) {
	ctx := context.Background()
	start := time.Now()
	require.True(t, For(ctx, 0, nil))
	require.True(t, For(ctx, -time.Second, nil))
	require.Less(t, time.Since(start), 20*time.Millisecond)

	start = time.Now()
	require.True(t, For(ctx, 30*time.Millisecond, nil))
	require.GreaterOrEqual(t, time.Since(start), 30*time.Millisecond)

	wake := make(chan struct{}, 1)
	wake <- struct{}{}
	start = time.Now()
	require.True(t, For(ctx, time.Hour, wake))
	require.Less(t, time.Since(start), time.Second, "a wake ends the wait")

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	start = time.Now()
	require.False(t, For(cancelled, time.Hour, nil))
	require.False(t, For(cancelled, 0, nil))
	require.Less(t, time.Since(start), time.Second, "a cancelled context ends the wait")
}
