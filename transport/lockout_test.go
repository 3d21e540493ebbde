package transport_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/auth"
)

// TestChallengeFloodReturnsFreshChallenge floods challenges for one
// address over HTTP: past auth.FreshPerAddress the newest challenge comes
// back with the seconds it has left, and the owner signs in with it, with
// or without its nonce, after bad verifies.
func TestChallengeFloodReturnsFreshChallenge(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	w, other := newWallet(t), newWallet(t)
	newest := ""
	for range auth.FreshPerAddress {
		c := e.challenge(w.addr)
		require.Equal(t, float64(300), c["expires_in_seconds"])
		newest = max(newest, c["nonce"].(string)) // same issue time: ties go to the greatest nonce
	}
	e.clock.Advance(10 * time.Second)
	got := e.challenge(w.addr)
	require.Equal(t, newest, got["nonce"], "the newest fresh challenge is returned")
	require.Equal(t, float64(290), got["expires_in_seconds"], "with the time it has left")
	msg := got["message_to_sign"].(string)
	for range 10 {
		for _, nonce := range []any{nil, got["nonce"]} {
			r := e.do("POST", "/api/v1/agents/auth/verify", map[string]any{"address": w.addr, "signature": other.sign(t, msg, false), "nonce": nonce})
			require.Equal(t, http.StatusUnauthorized, r.Code, "body: %s", r.Body)
		}
	}
	r := e.do("POST", "/api/v1/agents/auth/verify", map[string]any{"address": w.addr, "signature": w.sign(t, msg, true)})
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
}
