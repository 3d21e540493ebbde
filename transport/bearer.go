package transport

import (
	"context"
	"net/http"
	"strings"

	"github.com/openjury/openjury"
)

const opBearer = "transport.bearer"

var (
	errNoToken      = openjury.E(openjury.Unauthenticated, opBearer, "missing bearer token")
	errBadAuthValue = openjury.E(openjury.Unauthenticated, opBearer, "authorization header must be: Bearer <token>")
)

// bearerToken extracts the token of an "Authorization: Bearer <token>"
// header; the scheme is case-insensitive. Errors are Unauthenticated.
func bearerToken(r *http.Request) (string, error) {
	h := strings.TrimSpace(r.Header.Get("Authorization"))
	if h == "" {
		return "", errNoToken
	}
	scheme, token, found := strings.Cut(h, " ")
	if !found || !strings.EqualFold(scheme, "Bearer") {
		return "", errBadAuthValue
	}
	token = strings.TrimSpace(token)
	if token == "" || strings.ContainsAny(token, " \t") {
		return "", errBadAuthValue
	}
	return token, nil
}

// authed wraps a handler that needs a signed-in caller: it resolves the
// bearer token through Services.Auth (the database, never the token
// cache) and puts the caller's address in the request context (read it
// with callerFrom). Without a valid token the answer is 401 with
// WWW-Authenticate: Bearer, before the body is read; past the caller's
// per-address limit it is 429 (counted once: limitSignedReads may have
// counted a read already).
func (s *server) authed(h handlerFunc) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		token, err := bearerToken(r)
		if err != nil {
			return err
		}
		addr, err := s.svc.Auth.Authenticate(r.Context(), token)
		if err != nil {
			return err
		}
		if info := infoFrom(r.Context()); info == nil || info.limited != addr {
			if err := s.limitAddress(w, r, addr); err != nil {
				return err
			}
		}
		ctx := context.WithValue(r.Context(), callerKey, caller{addr: addr, token: token})
		return s.idempotent(h)(w, r.WithContext(ctx))
	}
}

// caller is the authenticated party of a request.
type caller struct {
	addr  openjury.Address
	token string
}

// callerFrom returns the caller put in ctx by authed.
func callerFrom(ctx context.Context) caller {
	c, _ := ctx.Value(callerKey).(caller)
	return c
}
