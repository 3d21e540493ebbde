package transport_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestChallenge(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	w := newWallet(t)
	r := e.do("POST", "/api/v1/agents/auth/challenge", map[string]any{"address": w.addr})
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
	require.Equal(t, "application/json", r.Header.Get("Content-Type"))
	require.Equal(t, "no-store", r.Header.Get("Cache-Control"))
	m := r.JSON(t)
	require.Len(t, m, 4)
	require.Equal(t, w.lower(), m["address"])
	nonce, _ := m["nonce"].(string)
	require.Regexp(t, regexp.MustCompile(`^[0-9a-f]{32}$`), nonce)
	require.EqualValues(t, 300, m["expires_in_seconds"])
	msg, _ := m["message_to_sign"].(string)
	require.True(t, strings.HasPrefix(msg, "jury.example.com wants you to sign in with your Ethereum account:\n"+w.addr+"\n"), msg)
	require.Contains(t, msg, "\nNonce: "+nonce+"\n")
	require.Contains(t, msg, "\nChain ID: 8453\n")
	require.Contains(t, msg, "\nURI: https://jury.example.com\n")

	// Lowercase input works too and answers in lowercase.
	require.Equal(t, w.lower(), e.challenge(w.lower())["address"])
}

func TestChallengeBadRequests(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	w := newWallet(t)
	// Break the EIP-55 checksum: flip the case of one letter.
	bad := []byte(w.addr)
	for i := 2; i < len(bad); i++ {
		if c := bad[i]; c >= 'a' && c <= 'f' {
			bad[i] = c - 32
			break
		} else if c >= 'A' && c <= 'F' {
			bad[i] = c + 32
			break
		}
	}
	cases := []struct {
		name, body, detail string
	}{
		{"short", `{"address":"0x1234"}`, "address: must be 0x followed by 40 hex digits"},
		{"not hex", `{"address":"0x` + strings.Repeat("g", 40) + `"}`, "address: must be 0x followed by 40 hex digits"},
		{"empty", `{"address":""}`, "address: must be 0x followed by 40 hex digits"},
		{"bad checksum", `{"address":"` + string(bad) + `"}`, "address: mixed-case address fails the EIP-55 checksum"},
		{"missing", `{}`, "address: is required"},
		{"null", `{"address":null}`, "address: is required"},
		{"number", `{"address":42}`, "address: must be a string"},
		{"no body", ``, "request body is required"},
		{"malformed", `{"address":`, "malformed JSON: unexpected end of input"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := e.do("POST", "/api/v1/agents/auth/challenge", tc.body)
			requireError(t, r, http.StatusBadRequest, tc.detail)
		})
	}
}

func TestVerifyAndUseToken(t *testing.T) {
	t.Parallel()
	for _, v27 := range []bool{false, true} {
		t.Run(fmt.Sprintf("v27=%v", v27), func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			w := newWallet(t)
			c := e.challenge(w.addr)
			r := e.do("POST", "/api/v1/agents/auth/verify", map[string]any{
				"address":   w.lower(),
				"signature": w.sign(t, c["message_to_sign"].(string), v27),
				"nonce":     c["nonce"],
			})
			require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
			require.Equal(t, "no-store", r.Header.Get("Cache-Control"))
			m := r.JSON(t)
			require.Equal(t, "bearer", m["token_type"])
			require.EqualValues(t, 86400, m["expires_in_seconds"])
			token, _ := m["access_token"].(string)
			require.Regexp(t, regexp.MustCompile(`^[A-Za-z0-9_-]{43}$`), token)

			job := e.createJob(token, validJob())
			require.Equal(t, w.lower(), job["sponsor_address"])
		})
	}
}

func TestVerifyFailures(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	w, other := newWallet(t), newWallet(t)

	t.Run("wrong signer", func(t *testing.T) {
		c := e.challenge(w.addr)
		r := e.do("POST", "/api/v1/agents/auth/verify", map[string]any{
			"address": w.addr, "signature": other.sign(t, c["message_to_sign"].(string), false),
		})
		requireError(t, r, http.StatusUnauthorized, "signature does not verify for this address")
		require.Equal(t, "Bearer", r.Header.Get("WWW-Authenticate"))
	})
	t.Run("malformed signature", func(t *testing.T) {
		e.challenge(w.addr)
		for _, sig := range []string{"not-hex", "0x", "0x1234"} {
			r := e.do("POST", "/api/v1/agents/auth/verify", map[string]any{"address": w.addr, "signature": sig})
			require.Equal(t, http.StatusUnauthorized, r.Code, "%q: %s", sig, r.Body)
			require.Equal(t, "Bearer", r.Header.Get("WWW-Authenticate"))
		}
	})
	t.Run("consumed challenge", func(t *testing.T) {
		w := newWallet(t)
		c := e.challenge(w.addr)
		body := map[string]any{"address": w.addr, "signature": w.sign(t, c["message_to_sign"].(string), false)}
		require.Equal(t, http.StatusOK, e.do("POST", "/api/v1/agents/auth/verify", body).Code)
		r := e.do("POST", "/api/v1/agents/auth/verify", body)
		require.Equal(t, http.StatusUnauthorized, r.Code, "body: %s", r.Body)
		require.Equal(t, "Bearer", r.Header.Get("WWW-Authenticate"))
	})
	t.Run("expired challenge", func(t *testing.T) {
		e := newEnv(t)
		c := e.challenge(w.addr)
		e.clock.Advance(301 * time.Second)
		r := e.do("POST", "/api/v1/agents/auth/verify", map[string]any{
			"address": w.addr, "signature": w.sign(t, c["message_to_sign"].(string), false),
		})
		require.Equal(t, http.StatusUnauthorized, r.Code, "body: %s", r.Body)
	})
	t.Run("missing fields", func(t *testing.T) {
		r := e.do("POST", "/api/v1/agents/auth/verify", map[string]any{"signature": "0x00"})
		requireError(t, r, http.StatusBadRequest, "address: is required")
		r = e.do("POST", "/api/v1/agents/auth/verify", map[string]any{"address": w.addr})
		requireError(t, r, http.StatusBadRequest, "signature: is required")
		r = e.do("POST", "/api/v1/agents/auth/verify", map[string]any{"address": w.addr, "signature": 5})
		requireError(t, r, http.StatusBadRequest, "signature: must be a string")
	})
}

func TestLogout(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	w := newWallet(t)
	token := e.signIn(w)

	r := e.do("POST", "/api/v1/agents/auth/logout", nil, bearer(token))
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
	require.Equal(t, map[string]any{"revoked": true}, r.JSON(t))

	r = e.do("POST", "/api/v1/jobs", validJob(), bearer(token))
	requireError(t, r, http.StatusUnauthorized, "invalid or expired token")
	require.Equal(t, "Bearer", r.Header.Get("WWW-Authenticate"))

	r = e.do("POST", "/api/v1/agents/auth/logout", nil, bearer(token))
	require.Equal(t, http.StatusUnauthorized, r.Code)
	r = e.do("POST", "/api/v1/agents/auth/logout", nil)
	requireError(t, r, http.StatusUnauthorized, "missing bearer token")
}

func TestBearerHeader(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	token := e.signIn(newWallet(t))
	for _, scheme := range []string{"Bearer", "bearer", "BEARER"} {
		r := e.do("POST", "/api/v1/jobs", validJob(), header{"Authorization", scheme + " " + token})
		require.Equal(t, http.StatusOK, r.Code, "scheme %q: %s", scheme, r.Body)
	}
	cases := []struct{ value, detail string }{
		{"Basic " + token, "authorization header must be: Bearer <token>"},
		{"Bearer", "authorization header must be: Bearer <token>"},
		{"Bearer a b", "authorization header must be: Bearer <token>"},
		{token, "authorization header must be: Bearer <token>"},
		{"Bearer nope", "invalid or expired token"},
	}
	for _, tc := range cases {
		r := e.do("POST", "/api/v1/jobs", validJob(), header{"Authorization", tc.value})
		requireError(t, r, http.StatusUnauthorized, tc.detail)
		require.Equal(t, "Bearer", r.Header.Get("WWW-Authenticate"))
	}
}
