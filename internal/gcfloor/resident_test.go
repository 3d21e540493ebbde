package gcfloor

import (
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestLargeProcessKeepsGOGC: while the process's resident memory is more
// than ResidentFactor times the floor the percent stays GOGC; once it is
// not, the floor applies. The process's own size is read for real.
func TestLargeProcessKeepsGOGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	rss, ok := resident()
	require.True(t, ok, "this test runs on Linux")
	require.Positive(t, rss)

	var size atomic.Uint64
	size.Store(1 << 40)
	readResident = func() (uint64, bool) { return size.Load(), true }
	defer func() { readResident = resident }()
	stop := Start(1 << 30)
	defer stop()
	for range 5 {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
	}
	require.Equal(t, 100, GCPercent(), "a process of 1 TiB keeps GOGC")

	size.Store(1 << 20)
	require.Eventually(t, func() bool {
		runtime.GC()
		return GCPercent() > 1000
	}, 10*time.Second, 10*time.Millisecond, "a small one gets the floor")
}
