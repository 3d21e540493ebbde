package openjury

import (
	"errors"
	"fmt"
	"time"
)

// Kind classifies an Error. The set is append-only: existing values never
// change meaning or number, new kinds are added at the end.
type Kind uint8

// The kinds of error. Transport maps each to one HTTP status.
const (
	// Internal is an unexpected failure; its cause is logged, never shown.
	Internal Kind = iota
	// Invalid means the input is malformed or out of range.
	Invalid
	// Unauthenticated means credentials are missing, wrong or expired.
	Unauthenticated
	// PaymentRequired means a balance (AGR) is too small.
	PaymentRequired
	// Forbidden means the caller is known but not allowed.
	Forbidden
	// NotFound means the object does not exist.
	NotFound
	// Conflict means the object's state forbids the change.
	Conflict
	// TooLarge means the request is over a size limit.
	TooLarge
	// RateLimited means the caller went over a rate limit.
	RateLimited
	// NotImplemented means the feature is disabled on this server.
	NotImplemented
	// Unavailable means a dependency (database, chain, embedder) is down.
	Unavailable
	// Gone means the object existed but is no longer kept (an event
	// older than the event log's retention).
	Gone
)

var kindNames = [...]string{
	Internal:        "internal",
	Invalid:         "invalid",
	Unauthenticated: "unauthenticated",
	PaymentRequired: "payment_required",
	Forbidden:       "forbidden",
	NotFound:        "not_found",
	Conflict:        "conflict",
	TooLarge:        "too_large",
	RateLimited:     "rate_limited",
	NotImplemented:  "not_implemented",
	Unavailable:     "unavailable",
	Gone:            "gone",
}

// String returns the snake_case name of the kind.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Error is the error type of every OpenJury package.
//
// Kind decides the HTTP status, Detail is the client-safe message, Op names
// the operation that failed (for logs) and Err is the underlying cause, which
// is logged but never shown to clients.
type Error struct {
	Kind   Kind
	Op     string
	Detail string
	Err    error
}

// Error implements the error interface.
func (e *Error) Error() string {
	msg := e.Kind.String()
	if e.Op != "" {
		msg = e.Op + ": " + msg
	}
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// E returns a new *Error of the kind with a client-safe detail.
func E(kind Kind, op, detail string) *Error {
	return &Error{Kind: kind, Op: op, Detail: detail}
}

// Errorf returns a new *Error whose detail is formatted.
func Errorf(kind Kind, op, format string, args ...any) *Error {
	return &Error{Kind: kind, Op: op, Detail: fmt.Sprintf(format, args...)}
}

// Wrap returns an Internal-kind error with op and cause, or keeps the kind of
// an *Error cause, adding op when it has none. It returns nil for nil.
func Wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	var oe *Error
	if errors.As(err, &oe) {
		if oe.Op != "" {
			return err
		}
		cp := *oe
		cp.Op = op
		return &cp
	}
	return &Error{Kind: Internal, Op: op, Err: err}
}

// KindOf returns the Kind of the first *Error in err's chain, or Internal.
func KindOf(err error) Kind {
	var oe *Error
	if errors.As(err, &oe) {
		return oe.Kind
	}
	return Internal
}

// DetailOf returns the client-safe detail of err: the Detail of the first
// *Error in its chain, or "" when there is none.
func DetailOf(err error) string {
	var oe *Error
	if errors.As(err, &oe) {
		return oe.Detail
	}
	return ""
}

// IsKind reports whether err carries the given kind.
func IsKind(err error, kind Kind) bool {
	return err != nil && KindOf(err) == kind
}

// RetryHint is an error cause that tells the client when it may try again.
// Transport turns it into the Retry-After header of a 429 or 503.
type RetryHint time.Duration

// Error describes the hint.
func (h RetryHint) Error() string { return "retry after " + time.Duration(h).String() }

// RetryAfter returns the wait.
func (h RetryHint) RetryAfter() time.Duration { return time.Duration(h) }
