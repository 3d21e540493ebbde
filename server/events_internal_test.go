package server

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/internal/wait"
)

// TestSequencerGather: the sequencer waits after a busy pass only, and a
// wait ends with its context.
func TestSequencerGather(t *testing.T) {
	require.Zero(t, gatherAfter(0))
	require.Zero(t, gatherAfter(sequenceBusy-1))
	require.Equal(t, sequenceGather, gatherAfter(sequenceBusy))
	require.Equal(t, sequenceGather, gatherAfter(10*sequenceBusy))
	require.Less(t, sequenceGather, sequencePoll, "a busy replica's events wait less than a poll")

	start := time.Now()
	wait.For(context.Background(), 0, nil)
	wait.For(context.Background(), -time.Second, nil)
	require.Less(t, time.Since(start), sequenceGather, "no wait after a quiet pass")

	start = time.Now()
	wait.For(context.Background(), 30*time.Millisecond, nil)
	require.GreaterOrEqual(t, time.Since(start), 30*time.Millisecond)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start = time.Now()
	wait.For(ctx, time.Hour, nil)
	require.Less(t, time.Since(start), time.Second, "a cancelled context ends the wait")
}
