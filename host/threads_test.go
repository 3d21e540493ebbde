package main

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/openjurytest"
)

// TestRunOperatorsModerate: SERVICE_OPERATOR_ADDRESSES reach the
// marketplace, so an operator may delete anyone's comment and a stranger
// may not.
func TestRunOperatorsModerate(t *testing.T) {
	t.Parallel()
	op, author, stranger := openjurytest.NewWallet(t), openjurytest.NewWallet(t), openjurytest.NewWallet(t)
	base, stderr, _ := startHost(t, map[string]string{
		"SERVICE_OPERATOR_ADDRESSES": addrA + "," + op.Address().String(),
	})

	call := func(method, path, token string, body any) (int, map[string]any) {
		t.Helper()
		return callJSON(t, method, base+path, token, body)
	}
	at, ot, st := signIn(t, base, author), signIn(t, base, op), signIn(t, base, stranger)

	code, job := call("POST", "/api/v1/jobs", at, map[string]any{"title": "t", "prompt": "p", "bounty_usdc": 1})
	require.Equal(t, http.StatusOK, code, "%v", job)
	code, body := call("POST", "/api/v1/jobs/"+job["id"].(string)+"/comments", at, map[string]any{"content": "hi"})
	require.Equal(t, http.StatusOK, code, "%v", body)
	commentID := body["comment"].(map[string]any)["id"].(string)

	code, body = call("DELETE", "/api/v1/comments/"+commentID, st, nil)
	require.Equal(t, http.StatusForbidden, code, "%v", body)
	code, body = call("DELETE", "/api/v1/comments/"+commentID, ot, nil)
	require.Equal(t, http.StatusOK, code, "%v", body)
	require.Equal(t, op.Address().String(), body["comment"].(map[string]any)["deleted_by"])

	// The handler and the marketplace agree: no wiring warning.
	require.NotContains(t, stderr.String(), "operators of the handler differ")
}
