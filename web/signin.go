package web

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strings"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/auth"
	"github.com/openjury/openjury/transport"
)

// SignInCookie is the name of the cookie that binds the sign-in page's
// forms to the browser that loaded it (the paste-a-signature path posts
// forms before any session exists).
const SignInCookie = "openjury_signin"

// signInLabel is the message the sign-in forms' token is the HMAC of.
const signInLabel = "openjury/web/signin/v1"

// signInCookieAge is how long the sign-in cookie lives, in seconds.
const signInCookieAge = 3600

// signInToken is the token the sign-in forms carry: HMAC-SHA256 keyed
// with the sign-in cookie's random value. A page of another site can
// neither read the cookie nor send it (SameSite=Strict), so it cannot post
// a signature of its own wallet to sign a browser into its account.
func signInToken(cookie string) string {
	m := hmac.New(sha256.New, []byte(cookie))
	m.Write([]byte(signInLabel))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// signInCookie returns the browser's sign-in cookie, setting a new one
// when it has none.
func (a *app) signInCookie(w http.ResponseWriter, r *http.Request) string {
	if c, err := r.Cookie(SignInCookie); err == nil && len(c.Value) >= 32 {
		return c.Value
	}
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	v := base64.RawURLEncoding.EncodeToString(b)
	http.SetCookie(w, &http.Cookie{Name: SignInCookie, Value: v, Path: "/", MaxAge: signInCookieAge,
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: a.s.SecureCookie || r.TLS != nil})
	return v
}

// signInData is the sign-in page's state.
type signInData struct {
	Token string
	Next  string
	// Step is "address" (ask for it) or "sign" (show the message and ask
	// for its signature).
	Step    string
	Address string
	Nonce   string
	// Message is the message to sign; the form carries it base64-encoded
	// (MessageB64), so no newline of it is changed on the way.
	Message   string
	ExpiresIn int
	Available bool
}

// routeSignIn registers the sign-in page and its two forms.
func (a *app) routeSignIn(mux *http.ServeMux) {
	mux.HandleFunc("GET /signin", func(w http.ResponseWriter, r *http.Request) {
		a.signInPage(w, r, http.StatusOK, signInData{Step: "address", Next: localPath(r.URL.Query().Get("next"), "/")}, nil)
	})
	mux.HandleFunc("POST /app/signin/message", a.signInStep(a.signInMessage))
	mux.HandleFunc("POST /app/signin/verify", a.signInStep(a.signInVerify))
}

// signInPage serves the sign-in page: the browser wallets the page's
// script finds (EIP-6963) and, working everywhere, the message to sign
// with any wallet or tool and a field for its signature.
func (a *app) signInPage(w http.ResponseWriter, r *http.Request, status int, d signInData, st *formState) {
	w.Header().Set("Cache-Control", "no-store")
	d.Token = signInToken(a.signInCookie(w, r))
	d.Available = a.s.Auth != nil
	a.page(w, r, status, "signin.html", "Sign in", map[string]any{"SignIn": d, "F": st})
}

// signInStep wraps a sign-in form: it parses the form, refuses a request
// of another site (Sec-Fetch-Site) or without the sign-in cookie and its
// token, and spends the shared sign-in budget.
func (a *app) signInStep(fn func(w http.ResponseWriter, r *http.Request, d signInData)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		if !a.parseForm(w, r) {
			return
		}
		d := signInData{Step: "address", Next: localPath(r.PostForm.Get("next"), "/"), Address: r.PostForm.Get("address")}
		if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" {
			a.errorPage(w, r, http.StatusForbidden, "Sign-in must come from this site's own sign-in page.")
			return
		}
		c, err := r.Cookie(SignInCookie)
		if err != nil || !hmac.Equal([]byte(r.PostForm.Get(CSRFField)), []byte(signInToken(c.Value))) {
			a.signInPage(w, r, http.StatusForbidden, d, &formState{Form: "signin-address", Values: r.PostForm,
				Message: "This sign-in form has expired or your browser does not keep cookies: try again on this page (cookies must be on to sign in)."})
			return
		}
		if a.s.Auth == nil {
			a.errorPage(w, r, http.StatusNotImplemented, "Sign-in is not available here.")
			return
		}
		if err := transport.LimitSignIn(w, r); err != nil {
			w.Header().Set("Retry-After", transport.RetryAfter(err))
			a.signInPage(w, r, http.StatusTooManyRequests, d, &formState{Form: "signin-address", Values: r.PostForm,
				Message: "Too many people are signing in right now: wait " + transport.RetryAfter(err) + " seconds, then try again."})
			return
		}
		fn(w, r, d)
	}
}

// signInMessage issues a sign-in challenge for the address typed and
// shows its message to sign.
func (a *app) signInMessage(w http.ResponseWriter, r *http.Request, d signInData) {
	addr := strings.TrimSpace(d.Address)
	ch, err := a.s.Auth.Challenge(r.Context(), addr)
	if err != nil {
		if openjury.KindOf(err) != openjury.Invalid {
			a.failPage(w, r, err)
			return
		}
		ref := a.explain.explain(err, r.PostForm, map[string]string{"address": "address"})
		a.signInPage(w, r, http.StatusBadRequest, d, &formState{Form: "signin-address", Values: r.PostForm, Errors: map[string]string{"address": ref.Msg}})
		return
	}
	d.Step, d.Address, d.Nonce, d.Message = "sign", ch.Address.String(), ch.Nonce, ch.Message
	d.ExpiresIn = int(ch.ExpiresAt.Sub(a.clock.Now()).Minutes() + 0.5)
	a.signInPage(w, r, http.StatusOK, d, nil)
}

// signInVerify checks the pasted signature and, when it signs the
// address's challenge, signs the browser in (the session cookie) and
// goes on to where the person was.
func (a *app) signInVerify(w http.ResponseWriter, r *http.Request, d signInData) {
	f := r.PostForm
	d.Step, d.Nonce = "sign", f.Get("nonce")
	if m, err := base64.StdEncoding.DecodeString(f.Get("message_b64")); err == nil {
		d.Message = string(m)
	}
	sig := strings.TrimSpace(f.Get("signature"))
	if sig == "" {
		a.signInPage(w, r, http.StatusBadRequest, d, &formState{Form: "signin-sign", Values: f, Errors: map[string]string{"signature": "Paste the signature of the message above."}})
		return
	}
	token, err := a.s.Auth.Verify(r.Context(), auth.VerifyInput{Address: d.Address, Signature: sig, Nonce: d.Nonce})
	if err != nil {
		switch openjury.KindOf(err) {
		case openjury.Unauthenticated, openjury.Invalid:
			a.signInPage(w, r, http.StatusUnauthorized, d, &formState{Form: "signin-sign", Values: f, Errors: map[string]string{"signature": "This is not a signature of the message above by " + d.Address +
				", or the message has expired. Sign the exact message with that wallet and paste the result, or get a new message."}})
		default:
			a.failPage(w, r, err)
		}
		return
	}
	transport.CountEvent(r, transport.EventSignIn)
	a.setSession(w, r, token)
	http.Redirect(w, r, withOK(d.Next, "signedin", ""), http.StatusSeeOther)
}

// MessageB64 is the message to sign, base64-encoded for a hidden field.
func (d signInData) MessageB64() string { return base64.StdEncoding.EncodeToString([]byte(d.Message)) }
