package openjury

import "time"

// Clock tells the time. Domain code never calls time.Now; it asks the
// injected Clock, so tests can drive time with a fake.
type Clock interface {
	// Now returns the current time.
	Now() time.Time
}

// SystemClock is the Clock of the real world, in UTC.
type SystemClock struct{}

// Now returns the wall-clock time in UTC.
func (SystemClock) Now() time.Time { return time.Now().UTC() }

// TimePrecision is the precision of every stored and returned timestamp.
const TimePrecision = time.Millisecond

// Truncate brings t to the stored precision and to UTC.
func Truncate(t time.Time) time.Time { return t.Truncate(TimePrecision).UTC() }

// FormatTime formats t as RFC 3339 in UTC with millisecond precision and a
// "Z" suffix, the one timestamp form of the API.
func FormatTime(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}
