package transport_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/auth"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/transport"
)

// env is one handler over fresh fakes.
type env struct {
	t      *testing.T
	h      http.Handler
	clock  *openjurytest.Clock
	store  *bunstore.DB
	logs   *openjurytest.Buffer
	svc    transport.Services
	opts   transport.Options
	ready  error
	readyM sync.Mutex
}

type envOption func(*env)

// withRoute adds a test-only route to the handler.
func withRoute(pattern string, h func(http.ResponseWriter, *http.Request) error) envOption {
	return func(e *env) { e.h = transport.NewHandlerWithRoute(e.svc, e.opts, pattern, h) }
}

func withMaxBody(n int64) envOption {
	return func(e *env) { e.opts.MaxBodyBytes = n; e.h = transport.NewHandler(e.svc, e.opts) }
}

func newEnv(t *testing.T, opts ...envOption) *env {
	t.Helper()
	e := &env{t: t, clock: openjurytest.NewClock(), store: openjurytest.NewDB(t), logs: &openjurytest.Buffer{}}
	authSvc := auth.NewService(e.store, e.clock, auth.Config{
		Domain:       "jury.example.com",
		URI:          "https://jury.example.com",
		ChainID:      8453,
		ChallengeTTL: 5 * time.Minute,
		TokenTTL:     24 * time.Hour,
	}, nil)
	market := marketplace.NewService(e.store, e.clock, marketplace.Config{DefaultFinalVoteWindow: 24 * time.Hour})
	e.svc = transport.Services{
		Auth:   authSvc,
		Market: market,
		Ready: func(context.Context) error {
			e.readyM.Lock()
			defer e.readyM.Unlock()
			return e.ready
		},
	}
	e.opts = transport.Options{
		Logger:  slog.New(slog.NewJSONHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		BaseURL: "https://jury.example.com",
		Clock:   e.clock,
	}
	e.h = transport.NewHandler(e.svc, e.opts)
	for _, o := range opts {
		o(e)
	}
	return e
}

func (e *env) setReady(err error) {
	e.readyM.Lock()
	defer e.readyM.Unlock()
	e.ready = err
}

// response is a finished request.
type response struct {
	Code   int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into a generic map.
func (r response) JSON(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(r.Body, &m), "body: %s", r.Body)
	return m
}

// Detail returns the detail of an error body.
func (r response) Detail(t *testing.T) string {
	t.Helper()
	d, ok := r.JSON(t)["detail"].(string)
	require.True(t, ok, "no detail in %s", r.Body)
	return d
}

type header struct{ k, v string }

func bearer(token string) header { return header{"Authorization", "Bearer " + token} }

// do serves one request. A nil body sends none.
func (e *env) do(method, path string, body any, headers ...header) response {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		require.NoError(e.t, err)
		rd = bytes.NewReader(raw)
	}
	req := httptest.NewRequest(method, path, rd)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for _, h := range headers {
		req.Header.Set(h.k, h.v)
	}
	return e.serve(req)
}

func (e *env) serve(req *http.Request) response {
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	res := rec.Result()
	body, err := io.ReadAll(res.Body)
	require.NoError(e.t, err)
	return response{Code: res.StatusCode, Header: res.Header, Body: body}
}

// requireError checks an error response: status, JSON content type and
// exact detail.
func requireError(t *testing.T, r response, status int, detail string) {
	t.Helper()
	require.Equal(t, status, r.Code, "body: %s", r.Body)
	require.Equal(t, "application/json", r.Header.Get("Content-Type"))
	require.Equal(t, detail, r.Detail(t))
}

// wallet is a test signer.
type wallet struct {
	key  *ecdsa.PrivateKey
	addr string // EIP-55
}

func newWallet(t *testing.T) wallet {
	t.Helper()
	key, err := crypto.GenerateKey()
	require.NoError(t, err)
	return wallet{key: key, addr: crypto.PubkeyToAddress(key.PublicKey).Hex()}
}

func (w wallet) lower() string { return strings.ToLower(w.addr) }

// sign returns an EIP-191 personal_sign signature as 0x hex, with v as 0/1
// or, when v27 is set, as 27/28.
func (w wallet) sign(t *testing.T, msg string, v27 bool) string {
	t.Helper()
	sig, err := crypto.Sign(accounts.TextHash([]byte(msg)), w.key)
	require.NoError(t, err)
	if v27 {
		sig[64] += 27
	}
	return "0x" + hex.EncodeToString(sig)
}

// challenge asks for a challenge and returns its response body.
func (e *env) challenge(addr string) map[string]any {
	e.t.Helper()
	r := e.do("POST", "/api/v1/agents/auth/challenge", map[string]any{"address": addr})
	require.Equal(e.t, http.StatusOK, r.Code, "body: %s", r.Body)
	return r.JSON(e.t)
}

// signIn runs the whole flow and returns a bearer token.
func (e *env) signIn(w wallet) string {
	e.t.Helper()
	c := e.challenge(w.addr)
	r := e.do("POST", "/api/v1/agents/auth/verify", map[string]any{
		"address":   w.addr,
		"signature": w.sign(e.t, c["message_to_sign"].(string), false),
	})
	require.Equal(e.t, http.StatusOK, r.Code, "body: %s", r.Body)
	tok, _ := r.JSON(e.t)["access_token"].(string)
	require.NotEmpty(e.t, tok)
	return tok
}

// createJob posts a job and returns it.
func (e *env) createJob(token string, body map[string]any) map[string]any {
	e.t.Helper()
	r := e.do("POST", "/api/v1/jobs", body, bearer(token))
	require.Equal(e.t, http.StatusOK, r.Code, "body: %s", r.Body)
	return r.JSON(e.t)
}

func validJob() map[string]any {
	return map[string]any{"title": "Summarise the paper", "prompt": "Read it and summarise.", "bounty_usdc": 12.5}
}

func newRequest(t *testing.T, method, path, body string) *http.Request {
	t.Helper()
	return httptest.NewRequest(method, path, strings.NewReader(body))
}
