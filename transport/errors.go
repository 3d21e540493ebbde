package transport

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/wire"
)

// DefaultRetryAfter is the Retry-After of a 429 whose error does not say
// how long to wait.
const DefaultRetryAfter = 60 * time.Second

// internalDetail is the only detail a 500 response ever carries.
const internalDetail = "internal error"

// kindHTTP is the one table from error Kind to HTTP status, with the
// detail of an error that brings none (the status text in lower case).
var kindHTTP = [...]struct {
	status int
	detail string
}{
	openjury.Internal:        {http.StatusInternalServerError, internalDetail},
	openjury.Invalid:         {http.StatusBadRequest, "invalid request"},
	openjury.Unauthenticated: {http.StatusUnauthorized, "authentication required"},
	openjury.PaymentRequired: {http.StatusPaymentRequired, "payment required"},
	openjury.Forbidden:       {http.StatusForbidden, "forbidden"},
	openjury.NotFound:        {http.StatusNotFound, "not found"},
	openjury.Conflict:        {http.StatusConflict, "conflict"},
	openjury.TooLarge:        {http.StatusRequestEntityTooLarge, "request body too large"},
	openjury.RateLimited:     {http.StatusTooManyRequests, "too many requests"},
	openjury.NotImplemented:  {http.StatusNotImplemented, "not implemented"},
	openjury.Unavailable:     {http.StatusServiceUnavailable, "service unavailable"},
	openjury.Gone:            {http.StatusGone, "gone"},
}

// StatusOf is the HTTP status of an error Kind (see kindHTTP). Kinds it
// does not know (added after this code) are treated as Internal: 500.
func StatusOf(k openjury.Kind) int {
	if int(k) < len(kindHTTP) {
		return kindHTTP[k].status
	}
	return http.StatusInternalServerError
}

// defaultDetail is the detail of an error of Kind k that brings none,
// e.g. "not found".
func defaultDetail(k openjury.Kind) string {
	if int(k) < len(kindHTTP) {
		return kindHTTP[k].detail
	}
	return internalDetail
}

// statusError is a transport-level answer with no domain Kind (405).
type statusError struct {
	status int
	detail string
}

func (e *statusError) Error() string { return e.detail }

// RetryAfter is the Retry-After value (whole seconds, rounded up) of a
// RateLimited error: its retry hint (openjury.RetryHint), or
// DefaultRetryAfter when it has none.
func RetryAfter(err error) string {
	wait := DefaultRetryAfter
	var ra retryAfterer
	if errors.As(err, &ra) && ra.RetryAfter() > 0 {
		wait = ra.RetryAfter()
	}
	return strconv.FormatInt(int64((wait+time.Second-1)/time.Second), 10)
}

// retryAfterer is implemented by errors that know how long a rate-limited
// caller should wait.
type retryAfterer interface {
	RetryAfter() time.Duration
}

// writeError writes err as {"detail": ...} with the status of its Kind.
// Internal errors are logged with their cause and answered with "internal
// error"; Unavailable causes are logged as warnings.
func (s *server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	if rec := findRecorder(w); rec != nil && rec.wroteHeader {
		// The handler already started its response; nothing can be added.
		s.log.LogAttrs(r.Context(), slog.LevelError, "error after response started",
			slog.String("request_id", requestIDFrom(r.Context())), slog.String("error", err.Error()))
		return
	}
	var se *statusError
	if errors.As(err, &se) {
		writeJSON(w, se.status, wire.Error{Detail: se.detail})
		return
	}
	kind := openjury.KindOf(err)
	status := StatusOf(kind)
	detail := openjury.DetailOf(err)
	switch {
	case status == http.StatusInternalServerError:
		detail = internalDetail
		level := slog.LevelError
		if errors.Is(err, context.Canceled) && r.Context().Err() != nil {
			level = slog.LevelDebug // the client went away
		}
		s.logCause(r, level, "internal error", err)
	case kind == openjury.Unavailable:
		s.logCause(r, slog.LevelWarn, "dependency unavailable", err)
	}
	if detail == "" {
		detail = defaultDetail(kind)
	}
	switch kind {
	case openjury.Unauthenticated:
		w.Header().Set("WWW-Authenticate", "Bearer")
	case openjury.RateLimited:
		w.Header().Set("Retry-After", RetryAfter(err))
	}
	writeJSON(w, status, wire.Error{Detail: detail})
}

// logCause logs the cause of an error answer with the request it answers.
func (s *server) logCause(r *http.Request, level slog.Level, msg string, err error) {
	s.log.LogAttrs(r.Context(), level, msg,
		slog.String("request_id", requestIDFrom(r.Context())),
		slog.String("method", r.Method), slog.String("path", r.URL.Path),
		slog.String("error", err.Error()))
}
