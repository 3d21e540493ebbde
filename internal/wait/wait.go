// Package wait is the one context-aware sleep of the background loops
// (the search indexer, the event sequencer): a wait that ends early when
// the loop is woken or shut down.
package wait

import (
	"context"
	"time"
)

// For waits d, or until a receive from wake (nil: none) or the end of
// ctx; it reports whether ctx is still live. A d of 0 or less does not
// wait.
func For(ctx context.Context, d time.Duration, wake <-chan struct{}) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-wake:
		return ctx.Err() == nil
	case <-t.C:
		return true
	}
}
