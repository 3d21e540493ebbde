package gcfloor_test

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/internal/gcfloor"
)

func TestPercent(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		live, floor uint64
		base, want  int
	}{
		{8 * mib, 32 * mib, 100, 300}, // goal 32 MiB
		{1 * mib, 32 * mib, 100, 3100},
		{16 * mib, 32 * mib, 100, 100}, // GOGC already reaches it
		{20 * mib, 32 * mib, 100, 100}, // never below GOGC
		{64 * mib, 32 * mib, 100, 100}, // above the floor: GOGC
		{8 * mib, 32 * mib, 400, 400},  // a higher GOGC wins
		{0, 32 * mib, 100, 100},        // nothing measured yet
		{1, 1 << 62, 100, 1<<31 - 1},   // bounded
	} {
		require.Equal(t, c.want, gcfloor.Percent(c.live, c.floor, c.base), "live %d floor %d base %d", c.live, c.floor, c.base)
	}
}

// TestStartRaisesThePercentAfterEachCollection: with a floor far above
// this test's live heap, the percent rises after a collection; stop puts
// back the percent of the start, and a floor of 0 changes nothing.
func TestStartRaisesThePercentAfterEachCollection(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	gcfloor.Start(0)()
	runtime.GC()
	require.Equal(t, 100, gcfloor.GCPercent(), "a floor of 0 is off")

	stop := gcfloor.Start(1 << 30)
	require.Eventually(t, func() bool {
		runtime.GC()
		return gcfloor.GCPercent() > 1000
	}, 10*time.Second, 10*time.Millisecond, "the percent rises toward a 1 GiB goal")
	low := gcfloor.GCPercent()
	// A second, higher floor (another server in the process) applies while
	// started; stopping it leaves the first.
	stopHigh := gcfloor.Start(4 << 30)
	require.Eventually(t, func() bool {
		runtime.GC()
		return gcfloor.GCPercent() > 3*low
	}, 10*time.Second, 10*time.Millisecond, "the highest floor applies")
	stopHigh()
	stopHigh()
	require.NotEqual(t, 100, gcfloor.GCPercent(), "the first floor is still started")
	stop()
	require.Equal(t, 100, gcfloor.GCPercent(), "the last stop restores GOGC")
	runtime.GC()
	runtime.GC()
	time.Sleep(50 * time.Millisecond) // a finalizer already queued sees it stopped
	require.Equal(t, 100, gcfloor.GCPercent(), "and later collections leave it")
}

// TestStartOffWithGCOff: with the collector off (GOGC=off) Start leaves it
// off.
func TestStartOffWithGCOff(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	stop := gcfloor.Start(1 << 30)
	runtime.GC()
	time.Sleep(20 * time.Millisecond)
	require.Equal(t, -1, gcfloor.GCPercent())
	stop()
	require.Equal(t, -1, gcfloor.GCPercent())
}
