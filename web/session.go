package web

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"mime"
	"net/http"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/transport"
)

// SessionCookie is the name of the HttpOnly cookie that holds the signed-in
// browser's bearer token.
const SessionCookie = "openjury_session"

// CSRFField is the name of the hidden form field that carries the CSRF
// token of every action form.
const CSRFField = "csrf"

// maxFormBytes bounds an action's form body (a 20,000-character prompt,
// percent-encoded, fits).
const maxFormBytes = 1 << 20

// maxSessionBytes bounds the body of POST /app/session.
const maxSessionBytes = 4 << 10

// csrfLabel is the message the CSRF token is the HMAC of.
const csrfLabel = "openjury/web/csrf/v1"

// viewer is the signed-in browser of a request: its address and the CSRF
// token its forms carry.
type viewer struct {
	Address openjury.Address
	CSRF    string
}

// csrfToken is the synchronizer token of a session: HMAC-SHA256 keyed with
// the session's bearer token. Only the HttpOnly cookie holds that token
// (256 random bits), so a page of another site can neither read nor
// compute it, and every replica derives the same value without a shared
// key; the token itself cannot be recovered from it.
func csrfToken(session string) string {
	m := hmac.New(sha256.New, []byte(session))
	m.Write([]byte(csrfLabel))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// sessionToken returns the bearer token of the session cookie, or "".
func sessionToken(r *http.Request) string {
	c, err := r.Cookie(SessionCookie)
	if err != nil {
		return ""
	}
	return c.Value
}

// viewerOf resolves the session cookie of a page request: nil for an
// anonymous browser or one whose token is no longer valid (the page then
// renders as for anyone).
func (a *app) viewerOf(r *http.Request) *viewer {
	token := sessionToken(r)
	if token == "" || a.s.Auth == nil {
		return nil
	}
	addr, err := a.s.Auth.Authenticate(r.Context(), token)
	if err != nil {
		return nil
	}
	return &viewer{Address: addr, CSRF: csrfToken(token)}
}

// setSession sets (or, with token "", clears) the session cookie:
// HttpOnly, SameSite=Strict, Path=/, and Secure on https.
func (a *app) setSession(w http.ResponseWriter, r *http.Request, token string) {
	c := &http.Cookie{
		Name: SessionCookie, Value: token, Path: "/",
		HttpOnly: true, SameSite: http.SameSiteStrictMode,
		Secure: a.s.SecureCookie || r.TLS != nil,
	}
	if token == "" {
		c.MaxAge = -1
	}
	http.SetCookie(w, c)
}

// jsonDetail answers {"detail": msg} with status.
func jsonDetail(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"detail": msg})
}

// createSession serves POST /app/session: the JSON body {"token"} is a
// bearer token from POST /api/v1/agents/auth/verify; when it is live, the
// answer sets the session cookie and is {"address"}. Only a same-origin
// JSON request is accepted (a form of another site can send neither), so
// no other site can sign a browser into its own session.
func (a *app) createSession(w http.ResponseWriter, r *http.Request) {
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" {
		jsonDetail(w, http.StatusForbidden, "sign-in must come from this site's pages")
		return
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		jsonDetail(w, http.StatusUnsupportedMediaType, "Content-Type must be application/json")
		return
	}
	var body struct {
		Token *string `json:"token"`
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxSessionBytes))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			jsonDetail(w, http.StatusRequestEntityTooLarge, "request body too large")
			return
		}
		jsonDetail(w, http.StatusBadRequest, "body must be a JSON object {\"token\": string}")
		return
	}
	if body.Token == nil || *body.Token == "" {
		jsonDetail(w, http.StatusBadRequest, "token is required")
		return
	}
	if a.s.Auth == nil {
		jsonDetail(w, http.StatusNotImplemented, "sign-in is not available")
		return
	}
	addr, err := a.s.Auth.Authenticate(r.Context(), *body.Token)
	if err != nil {
		status := transport.StatusOf(openjury.KindOf(err))
		if status >= http.StatusInternalServerError {
			a.log.Error("web: sign-in", "error", err.Error())
			jsonDetail(w, status, "sign-in failed; try again")
			return
		}
		jsonDetail(w, http.StatusUnauthorized, "token is not valid (expired or revoked): sign in again")
		return
	}
	a.setSession(w, r, *body.Token)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(map[string]string{"address": addr.String()})
}
