package web_test

import (
	"context"
	"encoding/base64"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/web"
)

// browserJar is a browser's cookies for the sign-in tests: the sign-in
// cookie the page sets and the session cookie a sign-in sets.
type browserJar map[string]string

func (j browserJar) send(t *testing.T, req *http.Request) answer {
	t.Helper()
	for k, v := range j {
		req.AddCookie(&http.Cookie{Name: k, Value: v})
	}
	a := send(t, req, "")
	for _, c := range (&http.Response{Header: a.header}).Cookies() {
		j[c.Name] = c.Value
	}
	return a
}

func (j browserJar) get(t *testing.T, front *httptest.Server, path string) answer {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, front.URL+path, nil)
	require.NoError(t, err)
	return j.send(t, req)
}

func (j browserJar) post(t *testing.T, front *httptest.Server, path string, form url.Values, header ...string) answer {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, front.URL+path, strings.NewReader(form.Encode()))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return j.send(t, req)
}

var (
	hiddenField = regexp.MustCompile(`<input type="hidden" name="([a-z_0-9]+)" value="([^"]*)">`)
	messageArea = regexp.MustCompile(`(?s)<textarea id="si-message"[^>]*>(.*?)</textarea>`)
)

// formOf collects the hidden fields of the form with id in page.
func formOf(t *testing.T, page, id string) url.Values {
	t.Helper()
	i := strings.Index(page, `<form id="`+id+`"`)
	require.GreaterOrEqual(t, i, 0, "the page has the form %s", id)
	end := strings.Index(page[i:], "</form>")
	v := url.Values{}
	for _, m := range hiddenField.FindAllStringSubmatch(page[i:i+end], -1) {
		v.Set(m[1], html.UnescapeString(m[2]))
	}
	return v
}

// TestSignInByPastingASignature: the sign-in that needs no browser
// wallet: the page shows the message for an address, the signature made
// elsewhere (here in Go) is pasted, and the browser is signed in. A wrong
// address, a wrong signer, a replayed signature, a form of another site
// and a form without the sign-in cookie are refused in words.
func TestSignInByPastingASignature(t *testing.T) {
	openjurytest.OnEachServer(t, func(t *testing.T, srv *openjurytest.Server) {
		w, thief := openjurytest.NewWallet(t), openjurytest.NewWallet(t)
		front := app(t, srv, w)
		jar := browserJar{}
		page := jar.get(t, front, "/signin?next=/posts")
		require.Equal(t, http.StatusOK, page.status)
		require.Contains(t, page.body, "With a browser wallet", "the page names both ways to sign in")
		require.Contains(t, page.body, "With any wallet or tool")
		require.NotEmpty(t, jar[web.SignInCookie])
		require.Contains(t, page.header.Get("Set-Cookie"), "HttpOnly")
		require.Contains(t, page.header.Get("Set-Cookie"), "SameSite=Strict")
		start := formOf(t, page.body, "signin-address")
		require.Equal(t, "/posts", start.Get("next"))

		// Without the sign-in cookie (a form another site made): refused.
		stranger := browserJar{}
		a := stranger.post(t, front, "/app/signin/message", url.Values{"csrf": {start.Get("csrf")}, "address": {w.Address().String()}})
		require.Equal(t, http.StatusForbidden, a.status)
		require.Contains(t, a.body, "cookies must be on")
		a = jar.post(t, front, "/app/signin/message", url.Values{"csrf": {"forged"}, "address": {w.Address().String()}})
		require.Equal(t, http.StatusForbidden, a.status)
		a = jar.post(t, front, "/app/signin/message", url.Values{"csrf": {start.Get("csrf")}, "address": {w.Address().String()}}, "Sec-Fetch-Site", "cross-site")
		require.Equal(t, http.StatusForbidden, a.status)

		form := func(address string) url.Values {
			v := url.Values{}
			for k, vs := range start {
				v[k] = vs
			}
			v.Set("address", address)
			return v
		}
		a = jar.post(t, front, "/app/signin/message", form("0x1234"))
		requireRefused(t, a, http.StatusBadRequest, "si-address", "Enter a wallet address: 0x followed by 40 hexadecimal characters.")
		require.Contains(t, a.body, `value="0x1234"`)

		a = jar.post(t, front, "/app/signin/message", form(w.Address().String()))
		require.Equal(t, http.StatusOK, a.status, a.body)
		m := messageArea.FindStringSubmatch(a.body)
		require.NotNil(t, m, "the page shows the message to sign")
		message := html.UnescapeString(m[1])
		require.Contains(t, message, "Sign in to OpenJury as this agent.")
		require.Contains(t, a.body, "cast wallet sign", "the page says how to sign with a tool")
		require.Contains(t, a.body, "sign-message", "and with the openjury command")
		step := formOf(t, a.body, "signin-sign")
		raw, err := base64.StdEncoding.DecodeString(step.Get("message_b64"))
		require.NoError(t, err)
		require.Equal(t, message, string(raw), "the form carries the message unchanged")

		// The thief's signature of the same message does not sign w in.
		bad := url.Values{}
		for k, vs := range step {
			bad[k] = vs
		}
		bad.Set("signature", thief.Sign(t, message))
		a = jar.post(t, front, "/app/signin/verify", bad)
		requireRefused(t, a, http.StatusUnauthorized, "si-signature", "This is not a signature of the message above by "+w.Address().String())
		require.Contains(t, a.body, html.EscapeString(message)[:40], "the message is shown again")
		require.Empty(t, jar[web.SessionCookie])

		good := url.Values{}
		for k, vs := range step {
			good[k] = vs
		}
		sig := w.Sign(t, message)
		good.Set("signature", "  "+sig+"\n")
		a = jar.post(t, front, "/app/signin/verify", good)
		require.Equal(t, http.StatusSeeOther, a.status, a.body)
		require.Equal(t, "/posts?ok=signedin", a.header.Get("Location"))
		token := jar[web.SessionCookie]
		require.NotEmpty(t, token)
		addr, err := srv.Auth.Authenticate(context.Background(), token)
		require.NoError(t, err)
		require.Equal(t, w.Address(), addr)
		require.Contains(t, jar.get(t, front, "/posts?ok=signedin").body, "You are signed in.")

		// The same signature again: the challenge is spent.
		replay := browserJar{SignInCookie: jar[web.SignInCookie]}
		a = replay.post(t, front, "/app/signin/verify", good)
		require.Equal(t, http.StatusUnauthorized, a.status)
		require.Empty(t, replay[web.SessionCookie])

		// next never leaves the site.
		a = jar.post(t, front, "/app/signin/message", url.Values{"csrf": {start.Get("csrf")}, "address": {w.Address().String()}, "next": {"//evil.example/"}})
		step = formOf(t, a.body, "signin-sign")
		require.Equal(t, "/", step.Get("next"))
	})
}

// SignInCookie is web.SignInCookie, short for the table above.
const SignInCookie = web.SignInCookie
