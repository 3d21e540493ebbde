package marketplace

import (
	"context"
	"encoding/json"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/events"
)

// emitted appends evs to tx's event outbox when err, the result of the
// write they tell of, is nil, and returns err otherwise: the events of a
// change are written in the change's own transaction (docs/rules.md#events).
// It lets a write's last statement read
// `return emitted(ctx, tx, tx.Jobs().UpdateJob(ctx, job), ev)`.
func emitted(ctx context.Context, tx Tx, err error, evs ...*events.Event) error {
	if err != nil {
		return err
	}
	return tx.Events().Append(ctx, evs...)
}

// timeData is t as the API writes times (RFC 3339, milliseconds, Z).
func timeData(t time.Time) string { return openjury.FormatTime(t) }

// usdcData is an amount as the API writes USDC: a JSON number with at
// most 6 decimals, exactly.
func usdcData(m openjury.MicroUSDC) json.Number { return json.Number(m.String()) }

// addressData is a as the API writes an address, or nil when it is zero.
func addressData(a openjury.Address) any {
	if a.IsZero() {
		return nil
	}
	return a.String()
}

// stringData is s, or nil when it is empty.
func stringData(s string) any {
	if s == "" {
		return nil
	}
	return s
}
