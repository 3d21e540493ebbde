package transport_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/auth"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/stake"
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
	// testPaths are the paths of test-only routes (withRoute), which the
	// OpenAPI document does not describe.
	testPaths map[string]bool
}

type envOption func(*env)

// withRoute adds a test-only route to the handler.
func withRoute(pattern string, h func(http.ResponseWriter, *http.Request) error) envOption {
	return func(e *env) {
		e.h = transport.NewHandlerWithRoute(e.svc, e.opts, pattern, h)
		_, path, _ := strings.Cut(pattern, " ")
		e.testPaths[path] = true
	}
}

func withMaxBody(n int64) envOption {
	return func(e *env) { e.opts.MaxBodyBytes = n; e.h = transport.NewHandler(e.svc, e.opts) }
}

// withOptions edits the handler options.
func withOptions(fn func(*transport.Options)) envOption {
	return func(e *env) { fn(&e.opts); e.h = transport.NewHandler(e.svc, e.opts) }
}

// withMarketConfig rebuilds the market with its config edited by fn.
func withMarketConfig(fn func(*marketplace.Config)) envOption {
	return func(e *env) {
		mc := e.svc.Market.Config()
		fn(&mc)
		e.svc.Market = marketplace.NewService(e.store, e.clock, mc)
		e.h = transport.NewHandler(e.svc, e.opts)
	}
}

// withStakeConfig rebuilds the stake service with cfg (and the market with
// the same minimum stake).
func withStakeConfig(cfg stake.Config) envOption {
	return func(e *env) {
		e.svc.Stake = stake.NewService(e.store.Stake(), e.clock, cfg)
		mc := e.svc.Market.Config()
		mc.MinStake = cfg.MinStake
		e.svc.Market = marketplace.NewService(e.store, e.clock, mc)
		e.h = transport.NewHandler(e.svc, e.opts)
	}
}

// Test settings of newEnv.
const (
	devSecret   = "s3cret-dev"
	minStake    = 10 // USDC
	minRep      = 10
	mintPerWin  = 50
	testChainID = 8453
)

func newEnv(t *testing.T, opts ...envOption) *env {
	t.Helper()
	e := &env{t: t, clock: openjurytest.NewClock(), store: openjurytest.NewDB(t), logs: &openjurytest.Buffer{}, testPaths: map[string]bool{}}
	authSvc := auth.NewService(e.store, e.clock, auth.Config{
		Domain:       "jury.example.com",
		URI:          "https://jury.example.com",
		ChainID:      8453,
		ChallengeTTL: 5 * time.Minute,
		TokenTTL:     24 * time.Hour,
	}, nil)
	market := marketplace.NewService(e.store, e.clock, marketplace.Config{
		DefaultFinalVoteWindow: 24 * time.Hour,
		MinStake:               minStake * openjury.MicroPerUSDC,
		MinRepScoreToVote:      minRep,
		AGRMintPerWin:          mintPerWin,
		BaseURL:                "https://jury.example.com",
	})
	stakeSvc := stake.NewService(e.store.Stake(), e.clock, stake.Config{
		MinStake: minStake * openjury.MicroPerUSDC,
		Network:  "base",
		ChainID:  testChainID,
	})
	e.svc = transport.Services{
		Auth:   authSvc,
		Market: market,
		Stake:  stakeSvc,
		AGR:    agr.NewService(e.store.AGR(), e.clock),
		Anchor: anchor.NewService(e.store, anchor.Config{}),

		Idempotency: e.store,
		Ready: func(context.Context) error {
			e.readyM.Lock()
			defer e.readyM.Unlock()
			return e.ready
		},
	}
	e.opts = transport.Options{
		Logger:    slog.New(slog.NewJSONHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		BaseURL:   "https://jury.example.com",
		Clock:     e.clock,
		DevSecret: devSecret,
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

// do serves one request. A nil body sends none. The response is checked
// against the OpenAPI document (see serve).
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

// serve serves req and checks the response against the OpenAPI document
// (except on test-only routes): a mismatch fails the test.
func (e *env) serve(req *http.Request) response {
	e.t.Helper()
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	res := rec.Result()
	body, err := io.ReadAll(res.Body)
	require.NoError(e.t, err)
	if !e.testPaths[req.URL.Path] {
		openjurytest.ValidateResponse(e.t, req, res.StatusCode, res.Header, body)
	}
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

// devHeader is the X-Dev-Secret header of newEnv's handler.
func devHeader() header { return header{transport.HeaderDevSecret, devSecret} }

// agent is a signed-in wallet.
type agent struct {
	wallet
	token string
}

// agent signs a new wallet in and gives it stakeUSDC of stake and a
// reputation score of rep (zero: none), through the services.
func (e *env) agent(stakeUSDC, rep int64) agent {
	e.t.Helper()
	w := newWallet(e.t)
	a := agent{wallet: w, token: e.signIn(w)}
	if stakeUSDC > 0 {
		e.setStake(a.lower(), stakeUSDC)
	}
	if rep > 0 {
		e.setRep(a.lower(), rep)
	}
	return a
}

func (e *env) setStake(addr string, usdc int64) {
	e.t.Helper()
	_, err := e.svc.Stake.DevSet(context.Background(), stake.SetInput{
		Address: openjury.MustAddress(addr), Staked: openjury.MicroUSDC(usdc * openjury.MicroPerUSDC),
	})
	require.NoError(e.t, err)
}

func (e *env) setRep(addr string, score int64) {
	e.t.Helper()
	_, err := e.svc.Market.DevSetReputation(context.Background(), openjury.MustAddress(addr), score)
	require.NoError(e.t, err)
}

func (e *env) mint(addr string, amount int64) {
	e.t.Helper()
	_, err := e.svc.AGR.DevMint(context.Background(), openjury.MustAddress(addr), amount)
	require.NoError(e.t, err)
}

// newJob creates a job sponsored by token's owner and returns its id.
func (e *env) newJob(token string) string {
	e.t.Helper()
	return e.createJob(token, validJob())["id"].(string)
}

// submit posts a submission and returns it.
func (e *env) submit(token, jobID, content string) map[string]any {
	e.t.Helper()
	r := e.do("POST", "/api/v1/submissions", map[string]any{"job_id": jobID, "content": content}, bearer(token))
	require.Equal(e.t, http.StatusOK, r.Code, "body: %s", r.Body)
	return r.JSON(e.t)["submission"].(map[string]any)
}

// vote casts a jury vote and returns the vote.
func (e *env) vote(token, jobID, subID string) map[string]any {
	e.t.Helper()
	r := e.do("POST", "/api/v1/votes", map[string]any{"job_id": jobID, "submission_id": subID}, bearer(token))
	require.Equal(e.t, http.StatusOK, r.Code, "body: %s", r.Body)
	return r.JSON(e.t)["vote"].(map[string]any)
}

// finalVote casts a final vote and returns the vote.
func (e *env) finalVote(token, jobID, subID string) map[string]any {
	e.t.Helper()
	r := e.do("POST", "/api/v1/final_votes", map[string]any{"job_id": jobID, "submission_id": subID}, bearer(token))
	require.Equal(e.t, http.StatusOK, r.Code, "body: %s", r.Body)
	return r.JSON(e.t)["vote"].(map[string]any)
}

// get serves a GET and requires 200.
func (e *env) get(path string) response {
	e.t.Helper()
	r := e.do("GET", path, nil)
	require.Equal(e.t, http.StatusOK, r.Code, "GET %s: %s", path, r.Body)
	return r
}

// requireKeys checks that m has exactly the given keys.
func requireKeys(t *testing.T, m map[string]any, keys ...string) {
	t.Helper()
	got := make([]string, 0, len(m))
	for k := range m {
		got = append(got, k)
	}
	require.ElementsMatch(t, keys, got)
}

// requireNulls checks that each key is present with null.
func requireNulls(t *testing.T, m map[string]any, keys ...string) {
	t.Helper()
	for _, k := range keys {
		v, ok := m[k]
		require.True(t, ok, "field %s missing", k)
		require.Nil(t, v, "field %s", k)
	}
}

// withField returns a copy of body with k set to v (nil: null).
func withField(body map[string]any, k string, v any) map[string]any {
	m := maps.Clone(body)
	m[k] = v
	return m
}

// withoutField returns a copy of body without k.
func withoutField(body map[string]any, k string) map[string]any {
	m := maps.Clone(body)
	delete(m, k)
	return m
}

// manyTags returns n distinct tags: t0, t1, ...
func manyTags(n int) []string {
	tags := make([]string, n)
	for i := range tags {
		tags[i] = fmt.Sprintf("t%d", i)
	}
	return tags
}

// hash32 is a valid 32-byte hash for receipts.
func hash32(b byte) string { return "0x" + strings.Repeat(hex.EncodeToString([]byte{b}), 32) }

// addr20 is a valid lowercase address.
func addr20(b byte) string { return "0x" + strings.Repeat(hex.EncodeToString([]byte{b}), 20) }
