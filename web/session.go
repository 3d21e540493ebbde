package web

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
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

// actionFunc is one signed-in action: it reads the parsed form and returns
// where to go next (a path of this app), or an error.
type actionFunc func(w http.ResponseWriter, r *http.Request, me openjury.Address) (string, error)

// action wraps a form POST: it bounds and parses the form, requires the
// session cookie (401 page without one) and its CSRF token (403 page when
// missing or wrong, checked before the token is looked up), resolves the
// caller, runs fn, and redirects (303) to where fn says. Errors are pages
// with the status of their kind and their client-safe message.
func (a *app) action(fn actionFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
		if err := r.ParseForm(); err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				a.errorPage(w, r, http.StatusRequestEntityTooLarge, "The form is too large.")
				return
			}
			a.errorPage(w, r, http.StatusBadRequest, "The form could not be read.")
			return
		}
		for _, vs := range r.PostForm {
			for _, v := range vs {
				if strings.ContainsRune(v, 0) {
					a.errorPage(w, r, http.StatusBadRequest, nulMessage)
					return
				}
			}
		}
		if a.s.Auth == nil {
			a.errorPage(w, r, http.StatusNotImplemented, "Sign-in is not available here.")
			return
		}
		token := sessionToken(r)
		if token == "" {
			a.errorPage(w, r, http.StatusUnauthorized, "Sign in with your wallet first.")
			return
		}
		if got := r.PostForm.Get(CSRFField); got == "" || !hmac.Equal([]byte(got), []byte(csrfToken(token))) {
			a.errorPage(w, r, http.StatusForbidden, "The form is missing its security token or it does not match your session: reload the page and try again.")
			return
		}
		me, err := a.s.Auth.Authenticate(r.Context(), token)
		if err != nil {
			if openjury.KindOf(err) == openjury.Unauthenticated {
				a.setSession(w, r, "")
				a.errorPage(w, r, http.StatusUnauthorized, "Your session has expired: sign in with your wallet again.")
				return
			}
			a.failPage(w, r, err)
			return
		}
		if err := transport.LimitAddress(w, r, me); err != nil {
			a.failPage(w, r, err)
			return
		}
		next, err := fn(w, r, me)
		if err != nil {
			a.failPage(w, r, err)
			return
		}
		http.Redirect(w, r, next, http.StatusSeeOther)
	}
}

// invalid is an Invalid error naming a form field.
func invalid(field, msg string) error {
	return openjury.E(openjury.Invalid, "web.form", field+" "+msg)
}

// formInt parses a required integer form field.
func formInt(r *http.Request, field string) (int64, error) {
	v := strings.TrimSpace(r.PostForm.Get(field))
	if v == "" {
		return 0, invalid(field, "is required")
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, invalid(field, "must be a whole number")
	}
	return n, nil
}

// jobPath is the page of a job, with an optional fragment.
func jobPath(id, fragment string) string {
	p := "/jobs/" + url.PathEscape(id)
	if fragment != "" {
		p += "#" + fragment
	}
	return p
}

// routeActions registers the session and the signed-in actions.
func (a *app) routeActions(mux *http.ServeMux) {
	mux.HandleFunc("POST /app/session", a.createSession)
	mux.HandleFunc("POST /app/signout", a.action(func(w http.ResponseWriter, r *http.Request, _ openjury.Address) (string, error) {
		if err := a.s.Auth.Logout(r.Context(), sessionToken(r)); err != nil {
			return "", err
		}
		a.setSession(w, r, "")
		return "/", nil
	}))
	mux.HandleFunc("POST /app/jobs", a.action(func(_ http.ResponseWriter, r *http.Request, me openjury.Address) (string, error) {
		f := r.PostForm
		bounty, err := openjury.ParseUSDC("bounty_usdc", f.Get("bounty_usdc"))
		if err != nil {
			return "", err
		}
		var tags []string
		for _, t := range strings.Split(f.Get("tags"), ",") {
			if t = strings.TrimSpace(t); t != "" {
				tags = append(tags, t)
			}
		}
		if _, err := a.s.Market.CreateJob(r.Context(), me, marketplace.CreateJobInput{
			Title: f.Get("title"), Prompt: f.Get("prompt"), Bounty: bounty, Tags: tags,
		}); err != nil {
			return "", err
		}
		return "/", nil
	}))
	mux.HandleFunc("POST /app/jobs/{id}/final-vote", a.action(func(_ http.ResponseWriter, r *http.Request, me openjury.Address) (string, error) {
		sub := r.PostForm.Get("submission_id")
		if sub == "" {
			return "", invalid("submission_id", "is required")
		}
		if _, err := a.s.Market.FinalVote(r.Context(), me, marketplace.FinalVoteInput{JobID: r.PathValue("id"), SubmissionID: sub}); err != nil {
			return "", err
		}
		transport.CountEvent(r, transport.EventFinalVote)
		return jobPath(r.PathValue("id"), "final"), nil
	}))
	mux.HandleFunc("POST /app/jobs/{id}/commit", a.action(func(_ http.ResponseWriter, r *http.Request, me openjury.Address) (string, error) {
		// Only the commitment comes: the browser keeps the submission and
		// the salt (static/jury.js) until the reveal.
		c := r.PostForm.Get("commitment")
		if c == "" {
			return "", invalid("commitment", "is required")
		}
		if _, err := a.s.Market.Commit(r.Context(), me, marketplace.CommitInput{JobID: r.PathValue("id"), Commitment: c}); err != nil {
			return "", err
		}
		transport.CountEvent(r, transport.EventJuryVote)
		return jobPath(r.PathValue("id"), "panel"), nil
	}))
	mux.HandleFunc("POST /app/jobs/{id}/reveal", a.action(func(_ http.ResponseWriter, r *http.Request, me openjury.Address) (string, error) {
		f := r.PostForm
		for _, field := range []string{"submission_id", "salt"} {
			if f.Get(field) == "" {
				return "", invalid(field, "is required")
			}
		}
		if _, err := a.s.Market.Reveal(r.Context(), me, marketplace.RevealInput{JobID: r.PathValue("id"), SubmissionID: f.Get("submission_id"), Salt: f.Get("salt")}); err != nil {
			return "", err
		}
		transport.CountEvent(r, transport.EventJuryVote)
		return jobPath(r.PathValue("id"), "panel"), nil
	}))
	mux.HandleFunc("POST /app/jobs/{id}/comment", a.action(func(_ http.ResponseWriter, r *http.Request, me openjury.Address) (string, error) {
		c, err := a.s.Market.AddComment(r.Context(), me, marketplace.TargetJob, r.PathValue("id"), marketplace.CommentInput{Content: r.PostForm.Get("content")})
		if err != nil {
			return "", err
		}
		return jobPath(r.PathValue("id"), "c-"+c.ID), nil
	}))
	mux.HandleFunc("POST /app/jobs/{id}/boost", a.action(func(_ http.ResponseWriter, r *http.Request, me openjury.Address) (string, error) {
		amount, err := formInt(r, "amount_agr")
		if err != nil {
			return "", err
		}
		hours, err := formInt(r, "duration_hours")
		if err != nil {
			return "", err
		}
		if _, err := a.s.Market.Boost(r.Context(), me, r.PathValue("id"), marketplace.BoostInput{AmountAGR: amount, DurationHours: hours}); err != nil {
			return "", err
		}
		return jobPath(r.PathValue("id"), ""), nil
	}))
	mux.HandleFunc("POST /app/jobs/{id}/close", a.action(func(_ http.ResponseWriter, r *http.Request, me openjury.Address) (string, error) {
		sub := r.PostForm.Get("winner_submission_id")
		if sub == "" {
			return "", invalid("winner_submission_id", "is required")
		}
		if _, err := a.s.Market.CloseJob(r.Context(), me, r.PathValue("id"), marketplace.CloseInput{WinnerSubmissionID: sub}); err != nil {
			return "", err
		}
		transport.CountEvent(r, transport.EventSponsorClose)
		return jobPath(r.PathValue("id"), ""), nil
	}))
}
