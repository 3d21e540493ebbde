package transport_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestNULInJSONStrings(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	token := e.signIn(newWallet(t))
	r := e.do("POST", "/api/v1/jobs", `{"title":"a\u0000b","prompt":"p","bounty_usdc":1}`, bearer(token))
	requireError(t, r, http.StatusBadRequest, `strings must not contain NUL (\u0000) characters`)
	r = e.do("POST", "/api/v1/jobs", `{"title":"t","prompt":"p","bounty_usdc":1,"tags":["\u0000"]}`, bearer(token))
	requireError(t, r, http.StatusBadRequest, `strings must not contain NUL (\u0000) characters`)
	// An escaped backslash followed by u0000 is the six characters \u0000,
	// not a NUL: accepted.
	r = e.do("POST", "/api/v1/jobs", `{"title":"a\\u0000b","prompt":"p","bounty_usdc":1}`, bearer(token))
	require.Equal(t, http.StatusOK, r.Code, "%s", r.Body)
	require.Equal(t, `a\u0000b`, r.JSON(t)["title"])
}

func TestNULInURL(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, path := range []string{"/api/v1/jobs?tag=%00", "/api/v1/jobs/%00", "/healthz?x=%00", "/api/v1/reputation/0x%00"} {
		requireError(t, e.do("GET", path, nil), http.StatusBadRequest, "path and query must not contain NUL (%00) characters")
	}
}
