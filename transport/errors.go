package transport

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/openjury/openjury"
)

// DefaultRetryAfter is the Retry-After of a 429 whose error does not say
// how long to wait.
const DefaultRetryAfter = 60 * time.Second

// internalDetail is the only detail a 500 response ever carries.
const internalDetail = "internal error"

// StatusOf is the one table from error Kind to HTTP status. Kinds it does
// not know (added after this code) are treated as Internal: 500.
func StatusOf(k openjury.Kind) int {
	switch k {
	case openjury.Invalid:
		return http.StatusBadRequest
	case openjury.Unauthenticated:
		return http.StatusUnauthorized
	case openjury.PaymentRequired:
		return http.StatusPaymentRequired
	case openjury.Forbidden:
		return http.StatusForbidden
	case openjury.NotFound:
		return http.StatusNotFound
	case openjury.Conflict:
		return http.StatusConflict
	case openjury.TooLarge:
		return http.StatusRequestEntityTooLarge
	case openjury.RateLimited:
		return http.StatusTooManyRequests
	case openjury.NotImplemented:
		return http.StatusNotImplemented
	case openjury.Unavailable:
		return http.StatusServiceUnavailable
	default:
		return http.StatusInternalServerError
	}
}

// errorBody is the body of every error response.
type errorBody struct {
	Detail string `json:"detail"`
}

// statusError is a transport-level answer with no domain Kind (405).
type statusError struct {
	status int
	detail string
}

func (e *statusError) Error() string { return e.detail }

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
		writeJSON(w, se.status, errorBody{Detail: se.detail})
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
		s.log.LogAttrs(r.Context(), level, "internal error",
			slog.String("request_id", requestIDFrom(r.Context())),
			slog.String("method", r.Method), slog.String("path", r.URL.Path),
			slog.String("error", err.Error()))
	case kind == openjury.Unavailable:
		s.log.LogAttrs(r.Context(), slog.LevelWarn, "dependency unavailable",
			slog.String("request_id", requestIDFrom(r.Context())),
			slog.String("method", r.Method), slog.String("path", r.URL.Path),
			slog.String("error", err.Error()))
	}
	if detail == "" {
		detail = defaultDetail(status)
	}
	switch kind {
	case openjury.Unauthenticated:
		w.Header().Set("WWW-Authenticate", "Bearer")
	case openjury.RateLimited:
		wait := DefaultRetryAfter
		var ra retryAfterer
		if errors.As(err, &ra) && ra.RetryAfter() > 0 {
			wait = ra.RetryAfter()
		}
		secs := int64((wait + time.Second - 1) / time.Second)
		w.Header().Set("Retry-After", strconv.FormatInt(secs, 10))
	}
	writeJSON(w, status, errorBody{Detail: detail})
}

// defaultDetail is the detail of an error that brings none: the status
// text in lower case, e.g. "not found".
func defaultDetail(status int) string {
	switch status {
	case http.StatusBadRequest:
		return "invalid request"
	case http.StatusUnauthorized:
		return "authentication required"
	case http.StatusPaymentRequired:
		return "payment required"
	case http.StatusForbidden:
		return "forbidden"
	case http.StatusNotFound:
		return "not found"
	case http.StatusConflict:
		return "conflict"
	case http.StatusRequestEntityTooLarge:
		return "request body too large"
	case http.StatusTooManyRequests:
		return "too many requests"
	case http.StatusNotImplemented:
		return "not implemented"
	case http.StatusServiceUnavailable:
		return "service unavailable"
	default:
		return internalDetail
	}
}
