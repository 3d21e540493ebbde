package transport

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/wire"
)

// HeaderRequestID is the request id header, read from callers and set on
// every response.
const HeaderRequestID = "X-Request-Id"

// maxRequestIDLen bounds a caller-supplied request id.
const maxRequestIDLen = 128

type ctxKey int

const (
	infoKey ctxKey = iota
	callerKey
)

// requestInfo is per-request state shared between the middleware layers:
// the request id, and the route pattern filled in by the matched handler.
type requestInfo struct {
	id    string
	route string
	// client is the client IP (clientIP), for limits and logs.
	client string
	// limited is the address whose per-address limit this request has
	// counted against already (limitSignedReads), or "".
	limited openjury.Address
}

func infoFrom(ctx context.Context) *requestInfo {
	info, _ := ctx.Value(infoKey).(*requestInfo)
	return info
}

// RequestID returns the id of the request ctx belongs to, or "" outside a
// request served by NewHandler's handler.
func RequestID(ctx context.Context) string {
	return requestIDFrom(ctx)
}

func requestIDFrom(ctx context.Context) string {
	if info := infoFrom(ctx); info != nil {
		return info.id
	}
	return ""
}

// validRequestID reports whether a caller's request id can be reused:
// 1..128 characters of [A-Za-z0-9._-].
func validRequestID(id string) bool {
	if len(id) == 0 || len(id) > maxRequestIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.', c == '_', c == '-':
		default:
			return false
		}
	}
	return true
}

// requestID reuses the caller's X-Request-Id when it is safe, else makes a
// new one, puts it in the context and sets it on the response. It also
// works out the client IP (clientIP) once for the layers inside.
func (s *server) requestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(HeaderRequestID)
		if !validRequestID(id) {
			id = openjury.NewID()
		}
		w.Header().Set(HeaderRequestID, id)
		info := &requestInfo{id: id, client: clientIP(r, s.opts.TrustedProxies)}
		ctx := context.WithValue(r.Context(), infoKey, info)
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// recoverPanics turns a panic into a logged stack trace and a JSON 500, so
// one bad request never takes the process down. It is the outermost layer;
// the request id is read back from the response header.
func (s *server) recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := newRecorder(w)
		defer func() {
			p := recover()
			if p == nil {
				return
			}
			if p == http.ErrAbortHandler { //nolint:errorlint // sentinel panic value
				panic(p)
			}
			s.log.LogAttrs(r.Context(), slog.LevelError, "panic serving request",
				slog.String("request_id", w.Header().Get(HeaderRequestID)),
				slog.String("method", r.Method), slog.String("path", r.URL.Path),
				slog.String("panic", fmt.Sprint(p)), slog.String("stack", string(debug.Stack())))
			if rec.wroteHeader {
				// Too late for an error response: abort the connection so
				// the client does not take a truncated body for a whole one.
				panic(http.ErrAbortHandler)
			}
			writeJSON(rec, http.StatusInternalServerError, wire.Error{Detail: internalDetail})
		}()
		next.ServeHTTP(rec, r)
	})
}

// accessLog writes one JSON log line per request. It logs no header values,
// so tokens, signatures and secrets never reach the log.
func (s *server) accessLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := s.clock.Now()
		serveRecorded(w, r, next, func(rec *recorder, status int) {
			level := slog.LevelInfo
			if status >= 500 {
				level = slog.LevelError
			}
			if !s.log.Enabled(r.Context(), level) {
				return // e.g. SERVICE_LOG_LEVEL=warn: build no line
			}
			info := infoFrom(r.Context())
			var id, route, client string
			if info != nil {
				id, route, client = info.id, info.route, info.client
			}
			s.log.LogAttrs(r.Context(), level, "request",
				slog.String("method", r.Method),
				slog.String("path", r.URL.Path),
				slog.String("route", route),
				slog.Int("status", status),
				slog.Int64("bytes", rec.bytes),
				slog.Float64("duration_ms", float64(s.clock.Now().Sub(start).Microseconds())/1000),
				slog.String("request_id", id),
				slog.String("remote", r.RemoteAddr),
				slog.String("client_ip", client),
			)
		})
	})
}

// serveRecorded serves r through next with w as a *recorder, then calls
// done with the recorder and the status of the answer: 200 when nothing
// was written, 500 when next panicked (the recovery layer answers; done
// runs while the panic goes on).
func serveRecorded(w http.ResponseWriter, r *http.Request, next http.Handler, done func(rec *recorder, status int)) {
	rec := findRecorder(w)
	if rec == nil {
		rec = newRecorder(w)
	}
	returned := false
	defer func() {
		status := rec.status
		if !returned {
			status = http.StatusInternalServerError
		} else if status == 0 {
			status = http.StatusOK
		}
		done(rec, status)
	}()
	next.ServeHTTP(rec, r)
	returned = true
}

// limitBody caps request bodies at MaxBodyBytes: a declared Content-Length
// over the limit is refused at once, and reads past it fail with
// *http.MaxBytesError, which the JSON decoder turns into 413.
func (s *server) limitBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > s.opts.MaxBodyBytes {
			s.writeError(w, r, errBodyTooLarge)
			return
		}
		if r.Body != nil && r.Body != http.NoBody {
			r.Body = http.MaxBytesReader(w, r.Body, s.opts.MaxBodyBytes)
		}
		next.ServeHTTP(w, r)
	})
}

// recorder remembers the status and size of a response.
type recorder struct {
	http.ResponseWriter
	status      int
	bytes       int64
	wroteHeader bool
}

func newRecorder(w http.ResponseWriter) *recorder { return &recorder{ResponseWriter: w} }

// findRecorder returns w as a *recorder, if it is one.
func findRecorder(w http.ResponseWriter) *recorder {
	rec, _ := w.(*recorder)
	return rec
}

func (r *recorder) WriteHeader(status int) {
	if !r.wroteHeader && status >= 200 {
		r.status = status
		r.wroteHeader = true
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *recorder) Write(b []byte) (int, error) {
	if !r.wroteHeader {
		r.status = http.StatusOK
		r.wroteHeader = true
	}
	n, err := r.ResponseWriter.Write(b)
	r.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// Flush implements http.Flusher when the underlying writer does.
func (r *recorder) Flush() {
	if !r.wroteHeader {
		r.status = http.StatusOK
		r.wroteHeader = true
	}
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
