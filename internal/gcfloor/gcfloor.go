// Package gcfloor keeps Go's garbage collector from collecting before the
// heap has reached a floor. A replica with a small live heap (a few MiB)
// otherwise collects every few MiB of garbage, many times a second
// under load, and each collection takes CPU from the requests and
// preempts the SQLite writer; a replica whose live heap is already half
// the floor or more collects as GOGC says.
//
// After each collection it sets the GC percent so that the next goal is
// the floor, never below the percent it started with (GOGC): the goal is
// at least the floor and at least what GOGC gives. GOMEMLIMIT still
// applies on top. It reads the live heap the collector marked
// (runtime/metrics /gc/heap/live:bytes), not the heap in use, which right
// after a collection still counts the unswept garbage and would put the
// goal far below the floor on a small heap.
//
// The floor is for small processes: while the process's resident memory
// is more than ResidentFactor times the floor (a replica holding a large
// search index, whose memory budget the floor's extra MiB would strain),
// it collects as GOGC says.
package gcfloor

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// liveMetric is the heap the last collection marked live; percentMetric
// is the GC percent in force (GOGC, or the last debug.SetGCPercent).
const (
	liveMetric    = "/gc/heap/live:bytes"
	percentMetric = "/gc/gogc:percent"
)

// ResidentFactor is how many times the floor the process's resident
// memory may be for the floor to apply.
const ResidentFactor = 8

// state is the process's: the GC percent is process-wide. Several floors
// may be started (servers in one test process); the highest applies.
var state struct {
	sync.Mutex
	// floors are the started floors' bytes.
	floors []uint64
	// base is the GC percent before the first floor (GOGC), restored when
	// the last one stops; percent is the one set.
	base, percent int
	// armed is set while a token's finalizer waits for a collection.
	armed bool
}

// token is the object whose finalizer runs once after each collection: it
// is unreachable as soon as it is armed, and the finalizer arms it again.
type token struct{ sample []metrics.Sample }

// Start keeps the heap goal at least bytes until the returned stop is
// called; the last stop restores the GC percent of the first Start. It
// does nothing (and stop does nothing) when bytes is 0 or the collector
// is off (GOGC=off).
func Start(bytes uint64) (stop func()) {
	state.Lock()
	defer state.Unlock()
	if bytes == 0 {
		return func() {}
	}
	if len(state.floors) == 0 {
		base := GCPercent()
		if base < 0 {
			return func() {}
		}
		state.base, state.percent = base, base
	}
	state.floors = append(state.floors, bytes)
	if !state.armed {
		state.armed = true
		runtime.SetFinalizer(&token{sample: []metrics.Sample{{Name: liveMetric}}}, afterGC)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			state.Lock()
			defer state.Unlock()
			i := slices.Index(state.floors, bytes)
			state.floors = slices.Delete(state.floors, i, i+1)
			if len(state.floors) == 0 {
				debug.SetGCPercent(state.base)
				state.percent = state.base
			}
		})
	}
}

// afterGC runs after a collection: it sets the percent for the next one
// and arms t for the collection after it, while any floor is started.
func afterGC(t *token) {
	metrics.Read(t.sample)
	state.Lock()
	defer state.Unlock()
	if len(state.floors) == 0 {
		state.armed = false
		return
	}
	floor := slices.Max(state.floors)
	if rss, ok := readResident(); ok && rss > ResidentFactor*floor {
		floor = 0
	}
	if t.sample[0].Value.Kind() == metrics.KindUint64 {
		if p := Percent(t.sample[0].Value.Uint64(), floor, state.base); p != state.percent {
			state.percent = p
			debug.SetGCPercent(p)
		}
	}
	runtime.SetFinalizer(t, afterGC)
}

// readResident is resident; tests replace it.
var readResident = resident

// resident returns the process's resident memory (Linux: the second field
// of /proc/self/statm, in pages); false where it cannot be read, where the
// floor then applies whatever the process's size.
func resident() (uint64, bool) {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0, false
	}
	pages, err := strconv.ParseUint(f[1], 10, 64)
	if err != nil {
		return 0, false
	}
	return pages * uint64(os.Getpagesize()), true
}

// GCPercent is the GC percent in force: GOGC, or the last value set with
// debug.SetGCPercent (by this package or anyone); -1 when the collector is
// off. It reads it from runtime/metrics, without setting it.
func GCPercent() int {
	s := []metrics.Sample{{Name: percentMetric}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 100
	}
	// The runtime reports its int32 percent as a uint64 (-1 when off).
	return int(int32(s[0].Value.Uint64()))
}

// Percent is the GC percent that puts the goal of a heap with live bytes
// live at floor, and never below base (so a floor of 0 gives base): the
// goal of a collection is the live heap times 1 + percent/100.
func Percent(live, floor uint64, base int) int {
	if live == 0 || floor <= live {
		return base
	}
	p := (float64(floor)/float64(live) - 1) * 100
	if p <= float64(base) {
		return base
	}
	return int(min(p, math.MaxInt32))
}
