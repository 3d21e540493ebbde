package transport

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"

	"github.com/openjury/openjury"
)

// HeaderDevSecret carries the dev secret of the dev endpoints.
const HeaderDevSecret = "X-Dev-Secret"

const opDev = "transport.dev"

var (
	errDevDisabled  = openjury.E(openjury.Unauthenticated, opDev, "dev endpoints disabled: set SERVICE_DEV_SECRET (or run locally with the defaults for local development mode)")
	errDevBadSecret = openjury.E(openjury.Unauthenticated, opDev, "invalid dev secret")
)

// devOnly wraps a dev endpoint: with Options.DevOpen it lets every call
// through; without Options.DevSecret it answers 401 "dev endpoints
// disabled: ..." saying how to turn them on; a missing or wrong
// X-Dev-Secret header gets 401 "invalid dev secret". Both answers come
// before the body is read. The comparison is constant-time (over SHA-256
// digests, so not even the length of the secret leaks), and neither value
// is ever logged.
func (s *server) devOnly(h handlerFunc) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		if s.opts.DevOpen {
			return h(w, r)
		}
		if s.opts.DevSecret == "" {
			return errDevDisabled
		}
		got := sha256.Sum256([]byte(r.Header.Get(HeaderDevSecret)))
		want := sha256.Sum256([]byte(s.opts.DevSecret))
		if subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
			return errDevBadSecret
		}
		return h(w, r)
	}
}
