package transport

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"log/slog"
	"net/http"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/idempotency"
)

// HeaderIdempotencyKey names the request header that makes an
// authenticated POST safe to retry (docs/rules.md#conventions).
const HeaderIdempotencyKey = "Idempotency-Key"

// HeaderIdempotentReplayed is set to "true" on a response replayed for a
// repeated Idempotency-Key.
const HeaderIdempotentReplayed = "Idempotent-Replayed"

// maxIdempotencyKey is the longest Idempotency-Key accepted.
const maxIdempotencyKey = 255

const opIdempotency = "transport.idempotency"

var (
	errIdempotencyKey = openjury.Errorf(openjury.Invalid, opIdempotency,
		"%s: must be 1 to %d visible ASCII characters", HeaderIdempotencyKey, maxIdempotencyKey)
	errIdempotencyInFlight = openjury.Errorf(openjury.Conflict, opIdempotency,
		"%s: a request with this key is still in progress; retry later", HeaderIdempotencyKey)
	errIdempotencyReused = &statusError{status: http.StatusUnprocessableEntity,
		detail: HeaderIdempotencyKey + ": already used with another request body"}
)

// validIdempotencyKey reports whether k is 1..255 visible ASCII characters.
func validIdempotencyKey(k string) bool {
	if k == "" || len(k) > maxIdempotencyKey {
		return false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < 0x21 || k[i] > 0x7e {
			return false
		}
	}
	return true
}

// idempotent makes an authenticated POST honour Idempotency-Key: the first
// response (status below 500, except 401 and 429, which depend on the
// moment) is stored for idempotency.TTL and replayed to a request with the
// same caller, method, path, key and body, with Idempotent-Replayed: true.
// Another body gets 422; a request while the first is running gets 409.
// Requests without the header, other methods, and handlers without a store
// (Services.Idempotency nil) run unchanged. It runs inside authed.
func (s *server) idempotent(h handlerFunc) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		store := s.svc.Idempotency
		values := r.Header.Values(HeaderIdempotencyKey)
		if store == nil || r.Method != http.MethodPost || len(values) == 0 {
			return h(w, r)
		}
		if len(values) != 1 || !validIdempotencyKey(values[0]) {
			return errIdempotencyKey
		}
		body, err := readBody(r)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(body)
		k := idempotency.Key{Caller: callerFrom(r.Context()).addr, Method: r.Method, Path: r.URL.Path, Key: values[0]}
		owner := newClaimToken()
		now := s.clock.Now()
		rec, claimed, err := store.ClaimIdempotencyKey(r.Context(), k, hex.EncodeToString(sum[:]), owner, now, now.Add(idempotency.Lease), now.Add(idempotency.TTL))
		if err != nil {
			return err
		}
		if !claimed {
			switch {
			case rec.Fingerprint != hex.EncodeToString(sum[:]):
				return errIdempotencyReused
			case rec.Status == 0:
				// Retry-After tells clients this conflict passes (a state
				// conflict does not carry it).
				w.Header().Set("Retry-After", "1")
				return errIdempotencyInFlight
			}
			w.Header().Set(HeaderIdempotentReplayed, "true")
			setBodyHeaders(w, rec.ContentType, len(rec.Body))
			w.WriteHeader(rec.Status)
			_, _ = w.Write(rec.Body)
			return nil
		}
		// Run the handler into a buffer, errors rendered as usual.
		buf := s.runBuffered(r, body, h)
		if storable(buf.status) {
			err = store.CompleteIdempotencyKey(context.WithoutCancel(r.Context()), k, owner, idempotency.Record{
				Status: buf.status, ContentType: buf.header.Get("Content-Type"), Body: buf.body.Bytes(),
			})
			if err != nil {
				// The change is done; the response is not stored, so a
				// retry would run again: say so in the log.
				s.logCause(r, slog.LevelError, "idempotency: storing the response failed", err)
				s.releaseClaim(r, store, k, owner)
			}
		} else {
			s.releaseClaim(r, store, k, owner)
		}
		buf.copyTo(w)
		return nil
	}
}

// runBuffered runs h on r with the body restored and returns its response,
// an error h returns written into it as usual. A panic goes on (the
// recovery layer answers 500); the claim then runs out with its lease.
func (s *server) runBuffered(r *http.Request, body []byte, h handlerFunc) *bufferedResponse {
	buf := &bufferedResponse{header: http.Header{}}
	r.Body = io.NopCloser(bytes.NewReader(body))
	if err := h(buf, r); err != nil {
		s.writeError(buf, r, err)
	}
	if buf.status == 0 {
		buf.status = http.StatusOK
	}
	return buf
}

// releaseClaim drops a claim whose response is not stored, logging a
// failure (the lease frees the key then).
func (s *server) releaseClaim(r *http.Request, store idempotency.Store, k idempotency.Key, owner string) {
	if err := store.ReleaseIdempotencyKey(context.WithoutCancel(r.Context()), k, owner); err != nil {
		s.logCause(r, slog.LevelError, "idempotency: releasing a claim failed", err)
	}
}

// storable reports whether a response status is stored for replay: not a
// server error, and not 401 or 429, which say something about the moment
// rather than the request.
func storable(status int) bool {
	return status < 500 && status != http.StatusUnauthorized && status != http.StatusTooManyRequests
}

// readBody reads the whole request body (within the body limit). Errors:
// TooLarge past the limit, Invalid when it cannot be read.
func readBody(r *http.Request) ([]byte, error) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, nil
	}
	b, err := io.ReadAll(r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, errBodyTooLarge
		}
		return nil, openjury.E(openjury.Invalid, opIdempotency, "request body could not be read")
	}
	return b, nil
}

// newClaimToken returns a random token naming one request's claim.
func newClaimToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return hex.EncodeToString(b)
}

// bufferedResponse is an http.ResponseWriter that keeps the response.
type bufferedResponse struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferedResponse) Header() http.Header { return b.header }

func (b *bufferedResponse) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	return b.body.Write(p)
}

func (b *bufferedResponse) WriteHeader(status int) {
	if b.status == 0 {
		b.status = status
	}
}

// copyTo sends the kept response to w.
func (b *bufferedResponse) copyTo(w http.ResponseWriter) {
	h := w.Header()
	for k, v := range b.header {
		h[k] = v
	}
	w.WriteHeader(b.status)
	_, _ = w.Write(b.body.Bytes())
}
