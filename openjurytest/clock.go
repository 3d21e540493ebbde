package openjurytest

import (
	"sync"
	"time"

	"github.com/openjury/openjury"
)

// Epoch is the time a new Clock starts at: 2026-01-01T00:00:00Z.
var Epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Clock is a fake openjury.Clock that moves only when told to. It is safe
// for concurrent use.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

var _ openjury.Clock = (*Clock)(nil)

// NewClock returns a Clock set to Epoch.
func NewClock() *Clock { return &Clock{now: Epoch} }

// Now returns the clock's current time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Set moves the clock to t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t.UTC()
}

// Advance moves the clock forward by d and returns the new time.
func (c *Clock) Advance(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	return c.now
}
