package transport_test

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/transport"
)

func TestUnknownRoute(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, path := range []string{"/", "/nope", "/api/v1/jobs/x/y", "/api/v2/jobs"} {
		r := e.do("GET", path, nil)
		requireError(t, r, http.StatusNotFound, "route not found")
		require.NotEmpty(t, r.Header.Get(transport.HeaderRequestID))
	}
}

func TestMethodNotAllowed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.do("DELETE", "/api/v1/jobs", nil)
	requireError(t, r, http.StatusMethodNotAllowed, "method not allowed")
	require.Equal(t, "GET, HEAD, POST", r.Header.Get("Allow"))

	r = e.do("GET", "/api/v1/agents/auth/challenge", nil)
	requireError(t, r, http.StatusMethodNotAllowed, "method not allowed")
	require.Equal(t, "POST", r.Header.Get("Allow"))
}

func TestHealth(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.do("GET", "/healthz", nil)
	require.Equal(t, http.StatusOK, r.Code)
	require.JSONEq(t, `{"status":"ok"}`, string(r.Body))
	require.Equal(t, "application/json", r.Header.Get("Content-Type"))

	r = e.do("GET", "/readyz", nil)
	require.Equal(t, http.StatusOK, r.Code)
	require.JSONEq(t, `{"status":"ready"}`, string(r.Body))

	e.setReady(errors.New("dial tcp 10.0.0.1:5432: connection refused"))
	r = e.do("GET", "/readyz", nil)
	requireError(t, r, http.StatusServiceUnavailable, "database unavailable")
	require.NotContains(t, string(r.Body), "10.0.0.1")
	require.Contains(t, e.logs.String(), "connection refused")

	e.setReady(nil)
	require.Equal(t, http.StatusOK, e.do("GET", "/readyz", nil).Code)

	// A nil Ready means always ready.
	svc := e.svc
	svc.Ready = nil
	e.h = transport.NewHandler(svc, transport.Options{})
	require.Equal(t, http.StatusOK, e.do("GET", "/readyz", nil).Code)
}

func TestRequestID(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	long := strings.Repeat("a", 128)
	for _, id := range []string{"abc-123", "A.b_C-9", long} {
		r := e.do("GET", "/healthz", nil, header{transport.HeaderRequestID, id})
		require.Equal(t, id, r.Header.Get(transport.HeaderRequestID))
	}
	for _, id := range []string{"", "has space", "semi;colon", "<script>", long + "a", "ünï"} {
		r := e.do("GET", "/healthz", nil, header{transport.HeaderRequestID, id})
		got := r.Header.Get(transport.HeaderRequestID)
		require.NotEqual(t, id, got)
		require.True(t, openjury.ValidID(got), "generated id %q", got)
	}
	a := e.do("GET", "/healthz", nil).Header.Get(transport.HeaderRequestID)
	b := e.do("GET", "/healthz", nil).Header.Get(transport.HeaderRequestID)
	require.NotEqual(t, a, b)

	// Error responses carry it too, and the handler sees the same id.
	var seen string
	e = newEnv(t, withRoute("GET /test/id", func(w http.ResponseWriter, r *http.Request) error {
		seen = transport.RequestID(r.Context())
		return openjury.E(openjury.Conflict, "test", "busy")
	}))
	r := e.do("GET", "/test/id", nil, header{transport.HeaderRequestID, "req-1"})
	requireError(t, r, http.StatusConflict, "busy")
	require.Equal(t, "req-1", r.Header.Get(transport.HeaderRequestID))
	require.Equal(t, "req-1", seen)
}

func TestPanicRecovery(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withRoute("GET /test/panic", func(w http.ResponseWriter, r *http.Request) error {
		panic("boom: secret state")
	}))
	r := e.do("GET", "/test/panic", nil, header{transport.HeaderRequestID, "panic-1"})
	requireError(t, r, http.StatusInternalServerError, "internal error")
	require.Equal(t, "panic-1", r.Header.Get(transport.HeaderRequestID))
	require.NotContains(t, string(r.Body), "secret")
	logs := e.logs.String()
	require.Contains(t, logs, `"msg":"panic serving request"`)
	require.Contains(t, logs, `"request_id":"panic-1"`)
	require.Contains(t, logs, "boom: secret state")
	require.Contains(t, logs, "TestPanicRecovery", "stack trace logged")
	require.Contains(t, logs, `"status":500`, "access log records the 500")

	// The server keeps serving.
	require.Equal(t, http.StatusOK, e.do("GET", "/healthz", nil).Code)
}

func TestPanicAfterWrite(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withRoute("GET /test/late-panic", func(w http.ResponseWriter, r *http.Request) error {
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte(`{"partial":`))
		panic("late")
	}))
	// The response has started, so the connection is aborted (net/http
	// treats http.ErrAbortHandler as a silent abort).
	require.PanicsWithValue(t, http.ErrAbortHandler, func() {
		e.do("GET", "/test/late-panic", nil)
	})
	require.Contains(t, e.logs.String(), `"panic":"late"`)
}

type retryErr struct{ d time.Duration }

func (e retryErr) Error() string             { return "slow down" }
func (e retryErr) RetryAfter() time.Duration { return e.d }

// TestErrorTableDefaults: every Kind has its status and, when the error
// brings no detail, its default detail.
func TestErrorTableDefaults(t *testing.T) {
	t.Parallel()
	cases := []struct {
		kind   openjury.Kind
		status int
		detail string
	}{
		{openjury.Internal, 500, "internal error"},
		{openjury.Invalid, 400, "invalid request"},
		{openjury.Unauthenticated, 401, "authentication required"},
		{openjury.PaymentRequired, 402, "payment required"},
		{openjury.Forbidden, 403, "forbidden"},
		{openjury.NotFound, 404, "not found"},
		{openjury.Conflict, 409, "conflict"},
		{openjury.TooLarge, 413, "request body too large"},
		{openjury.RateLimited, 429, "too many requests"},
		{openjury.NotImplemented, 501, "not implemented"},
		{openjury.Unavailable, 503, "service unavailable"},
		{openjury.Gone, 410, "gone"},
		{openjury.Kind(200), 500, "internal error"},
	}
	for _, tc := range cases {
		require.Equal(t, tc.status, transport.StatusOf(tc.kind), "kind %s", tc.kind)
	}
	e := newEnv(t, withRoute("GET /test/err", func(_ http.ResponseWriter, r *http.Request) error {
		k, err := strconv.Atoi(r.URL.Query().Get("kind"))
		if err != nil {
			return err
		}
		return openjury.E(openjury.Kind(k), "op", "")
	}))
	for _, tc := range cases {
		r := e.do("GET", fmt.Sprintf("/test/err?kind=%d", tc.kind), nil)
		requireError(t, r, tc.status, tc.detail)
	}
}

func TestErrorTable(t *testing.T) {
	t.Parallel()
	cases := []struct {
		err    error
		status int
		detail string
	}{
		{openjury.E(openjury.Invalid, "op", "x: bad"), 400, "x: bad"},
		{openjury.E(openjury.Unauthenticated, "op", "who are you"), 401, "who are you"},
		{openjury.E(openjury.PaymentRequired, "op", "insufficient AGR balance"), 402, "insufficient AGR balance"},
		{openjury.E(openjury.Forbidden, "op", "not yours"), 403, "not yours"},
		{openjury.E(openjury.NotFound, "op", "job not found"), 404, "job not found"},
		{openjury.E(openjury.Conflict, "op", "job is closed"), 409, "job is closed"},
		{openjury.E(openjury.TooLarge, "op", "too big"), 413, "too big"},
		{openjury.E(openjury.RateLimited, "op", "slow down"), 429, "slow down"},
		{openjury.E(openjury.NotImplemented, "op", "search disabled"), 501, "search disabled"},
		{openjury.E(openjury.Unavailable, "op", "chain down"), 503, "chain down"},
		{openjury.E(openjury.Internal, "op", "leaky detail"), 500, "internal error"},
		{openjury.E(openjury.NotFound, "op", ""), 404, "not found"},
		{openjury.E(openjury.Kind(200), "op", "future kind"), 500, "internal error"},
		{fmt.Errorf("wrapped: %w", openjury.E(openjury.Forbidden, "op", "deep")), 403, "deep"},
		{errors.New("plain error"), 500, "internal error"},
	}
	for _, tc := range cases {
		t.Run(tc.err.Error(), func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, withRoute("GET /test/err", func(http.ResponseWriter, *http.Request) error { return tc.err }))
			r := e.do("GET", "/test/err", nil)
			requireError(t, r, tc.status, tc.detail)
			if tc.status == 401 {
				require.Equal(t, "Bearer", r.Header.Get("WWW-Authenticate"))
			} else {
				require.Empty(t, r.Header.Get("WWW-Authenticate"))
			}
			if tc.status == 429 {
				require.Equal(t, "60", r.Header.Get("Retry-After"))
			}
		})
	}

	t.Run("retry after from error", func(t *testing.T) {
		t.Parallel()
		err := &openjury.Error{Kind: openjury.RateLimited, Op: "op", Detail: "slow down", Err: retryErr{1500 * time.Millisecond}}
		e := newEnv(t, withRoute("GET /test/err", func(http.ResponseWriter, *http.Request) error { return err }))
		r := e.do("GET", "/test/err", nil)
		requireError(t, r, http.StatusTooManyRequests, "slow down")
		require.Equal(t, "2", r.Header.Get("Retry-After"))
	})
}

func TestInternalErrorIsLoggedNotSent(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withRoute("POST /test/internal", func(http.ResponseWriter, *http.Request) error {
		return openjury.Wrap("store.Save", errors.New("pq: password authentication failed for user root"))
	}))
	r := e.do("POST", "/test/internal", `{}`, header{transport.HeaderRequestID, "int-1"})
	requireError(t, r, http.StatusInternalServerError, "internal error")
	require.NotContains(t, string(r.Body), "password")
	logs := e.logs.String()
	require.Contains(t, logs, `"msg":"internal error"`)
	require.Contains(t, logs, "password authentication failed")
	require.Contains(t, logs, `"request_id":"int-1"`)
}

func TestAccessLogHasNoSecrets(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	w := newWallet(t)
	c := e.challenge(w.addr)
	sig := w.sign(t, c["message_to_sign"].(string), false)
	r := e.do("POST", "/api/v1/agents/auth/verify", map[string]any{"address": w.addr, "signature": sig})
	require.Equal(t, http.StatusOK, r.Code)
	token := r.JSON(t)["access_token"].(string)
	e.createJob(token, validJob())
	e.do("POST", "/api/v1/jobs?x=1", validJob(), header{transport.HeaderRequestID, "log-1"}, bearer(token))

	logs := e.logs.String()
	require.NotContains(t, logs, token)
	require.NotContains(t, logs, strings.TrimPrefix(sig, "0x"))
	require.NotContains(t, logs, c["nonce"].(string))
	require.NotContains(t, strings.ToLower(logs), "authorization")
	require.NotContains(t, logs, "Bearer")

	var line string
	for l := range strings.Lines(logs) {
		if strings.Contains(l, `"request_id":"log-1"`) {
			line = l
		}
	}
	require.NotEmpty(t, line, logs)
	for _, want := range []string{
		`"msg":"request"`, `"method":"POST"`, `"path":"/api/v1/jobs"`, `"route":"POST /api/v1/jobs"`,
		`"status":200`, `"bytes":`, `"duration_ms":`, `"remote":"192.0.2.1:1234"`, `"client_ip":"192.0.2.1"`,
	} {
		require.Contains(t, line, want)
	}
}
