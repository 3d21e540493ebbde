package client

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
)

// Defaults of a Client.
const (
	// DefaultMaxRetries bounds the retries of one call after 429, 503 or a
	// network failure.
	DefaultMaxRetries = 3
	// DefaultMaxRetryWait caps one wait, whatever Retry-After says.
	DefaultMaxRetryWait = 30 * time.Second
	// DefaultMaxResponseBytes caps the body of one answer.
	DefaultMaxResponseBytes = 8 << 20
)

// ErrResponseTooLarge is the error (wrapped) of an answer whose body is
// longer than the client's cap (WithMaxResponseBytes). It is never retried.
var ErrResponseTooLarge = errors.New("client: response body too large")

// Client calls one OpenJury server. It is safe for concurrent use.
type Client struct {
	base         string
	http         *http.Client
	signer       Signer
	devSecret    string
	maxRetries   int
	maxRetryWait time.Duration
	noRetries    bool
	maxBody      int64
	userAgent    string
	chainID      int64
	insecureHTTP bool
	now          func() time.Time
	onSignIn     func(AuthVerifyResponse)

	mu    sync.Mutex
	token string
}

// Option configures a Client.
type Option func(*Client)

// WithHTTPClient sets the underlying HTTP client (default: one with a 60 s timeout).
func WithHTTPClient(h *http.Client) Option { return func(c *Client) { c.http = h } }

// WithSigner makes the client sign in by itself with s.
func WithSigner(s Signer) Option { return func(c *Client) { c.signer = s } }

// WithToken starts the client with a bearer token (re-sign-in still needs a signer).
func WithToken(token string) Option { return func(c *Client) { c.token = token } }

// WithSignInHook calls f after every successful sign-in, Login's and
// those the client makes by itself (first authenticated call, after a
// 401), with the verify answer: a command line saves the token and its
// lifetime there, to start its next run with WithToken.
func WithSignInHook(f func(AuthVerifyResponse)) Option { return func(c *Client) { c.onSignIn = f } }

// WithDevSecret sets the X-Dev-Secret sent to the dev endpoints.
func WithDevSecret(secret string) Option { return func(c *Client) { c.devSecret = secret } }

// WithRetries sets the retry bound and the longest single wait.
func WithRetries(maxRetries int, maxWait time.Duration) Option {
	return func(c *Client) { c.maxRetries, c.maxRetryWait = maxRetries, maxWait }
}

// WithoutRetries switches off everything the client does by itself after
// an attempt fails: no retry after a network error, 429, 503 or an
// Idempotency-Key still in flight (409), and no new sign-in after a 401;
// every call is one HTTP request and its failure is returned as it is. It
// also stops the automatic Idempotency-Key of authenticated POSTs (it only
// makes the client's own retries safe); a key set with
// ContextWithIdempotencyKey is still sent. Measurements (the load tool) use
// it so that every failure counts and every request does the server work
// of its own body.
func WithoutRetries() Option { return func(c *Client) { c.noRetries = true } }

// WithMaxResponseBytes caps the body of one answer (default
// DefaultMaxResponseBytes); a longer one fails the call with
// ErrResponseTooLarge instead of being read into memory. n <= 0 keeps the
// default.
func WithMaxResponseBytes(n int64) Option {
	return func(c *Client) {
		if n > 0 {
			c.maxBody = n
		}
	}
}

// idempotencyKeyCtx is the context key of ContextWithIdempotencyKey.
type idempotencyKeyCtx struct{}

// ContextWithIdempotencyKey returns a context whose authenticated POSTs
// carry key as their Idempotency-Key instead of a new random one, so a
// caller that retries by itself (or across processes) repeats the same
// key and the server runs the operation once.
func ContextWithIdempotencyKey(ctx context.Context, key string) context.Context {
	return context.WithValue(ctx, idempotencyKeyCtx{}, key)
}

// New returns a client of the server at baseURL (e.g. http://localhost:8080).
// A plain http:// URL is refused (ErrInsecureURL) unless its host is
// loopback (localhost, 127.0.0.0/8, ::1) or WithInsecureHTTP is given.
func New(baseURL string, opts ...Option) (*Client, error) {
	u, err := url.Parse(baseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("client: base URL %q: want http(s)://host[:port]", baseURL)
	}
	c := &Client{
		base:         strings.TrimRight(baseURL, "/"),
		http:         &http.Client{Timeout: 60 * time.Second},
		maxRetries:   DefaultMaxRetries,
		maxRetryWait: DefaultMaxRetryWait,
		maxBody:      DefaultMaxResponseBytes,
		userAgent:    "openjury-go-client/1",
		now:          time.Now,
	}
	for _, o := range opts {
		o(c)
	}
	if err := checkBaseURL(u, c.insecureHTTP); err != nil {
		return nil, err
	}
	return c, nil
}

// BaseURL is the server's base URL.
func (c *Client) BaseURL() string { return c.base }

// Token is the current bearer token ("" before sign-in).
func (c *Client) Token() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.token
}

// Address is the signer's address in lowercase hex, or "" without a signer.
func (c *Client) Address() string {
	if c.signer == nil {
		return ""
	}
	return strings.ToLower(c.signer.Address().Hex())
}

// Login signs in with the client's signer: it asks for a challenge, checks
// its message, signs it and exchanges the signature for a bearer token,
// which the client keeps for its next calls. The signer is asked only for
// an EIP-4361 message naming this server (its domain and URI are the base
// URL's), this signer's address, the challenge's nonce and the chain id of
// WithChainID (any chain without it), that has not expired; any other
// message fails with an error wrapping ErrSignInRefused that says what did
// not match.
func (c *Client) Login(ctx context.Context) (AuthVerifyResponse, error) {
	if c.signer == nil {
		return AuthVerifyResponse{}, errors.New("client: sign-in needs a signer (WithSigner)")
	}
	addr := c.Address()
	ch, err := c.CreateAuthChallenge(ctx, AuthChallengeRequest{Address: addr})
	if err != nil {
		return AuthVerifyResponse{}, err
	}
	if err := c.checkSignIn(ch.MessageToSign, ch.Nonce, c.now()); err != nil {
		return AuthVerifyResponse{}, err
	}
	sig, err := c.signer.SignPersonal(ctx, []byte(ch.MessageToSign))
	if err != nil {
		return AuthVerifyResponse{}, err
	}
	nonce := ch.Nonce
	v, err := c.VerifyAuthChallenge(ctx, AuthVerifyRequest{Address: addr, Signature: "0x" + hex.EncodeToString(sig), Nonce: &nonce})
	if err != nil {
		return AuthVerifyResponse{}, err
	}
	c.mu.Lock()
	c.token = v.AccessToken
	c.mu.Unlock()
	if c.onSignIn != nil {
		c.onSignIn(v)
	}
	return v, nil
}

// access says how a call authenticates.
type access int

const (
	public access = iota
	bearer
	dev
)

// call is one operation: method, path (already escaped), query, body.
type call struct {
	method string
	path   string
	query  url.Values
	body   any
	auth   access
	// accept is the Accept header ("" means application/json).
	accept string
}

// response is what do returns: the body and headers of a 2xx answer.
type response struct {
	status int
	header http.Header
	body   []byte
}

// do runs a call with sign-in, re-sign-in after 401, one Idempotency-Key
// across the retries of an authenticated POST, Retry-After on 429/503 and
// a bounded wait while the server still runs an earlier attempt with the
// same key (409); WithoutRetries leaves only the first attempt.
func (c *Client) do(ctx context.Context, cl call, out any) (*response, error) {
	var payload []byte
	if cl.body != nil {
		b, err := json.Marshal(cl.body)
		if err != nil {
			return nil, fmt.Errorf("client: encode request: %w", err)
		}
		payload = b
	}
	idemKey := ""
	if cl.auth == bearer && cl.method == http.MethodPost {
		if k, ok := ctx.Value(idempotencyKeyCtx{}).(string); ok && k != "" {
			idemKey = k
		} else if !c.noRetries {
			idemKey = uuid.NewString()
		}
	}
	if cl.auth == bearer && c.Token() == "" && c.signer != nil {
		if _, err := c.Login(ctx); err != nil {
			return nil, err
		}
	}
	retries := c.maxRetries
	if c.noRetries {
		retries = 0
	}
	relogged := c.noRetries
	for attempt := 0; ; attempt++ {
		resp, err := c.once(ctx, cl, payload, idemKey)
		if err != nil {
			retryable := (cl.method != http.MethodPost || idemKey != "") && !errors.Is(err, ErrResponseTooLarge)
			if ctx.Err() != nil || !retryable || attempt >= retries {
				return nil, err
			}
			if werr := c.wait(ctx, backoff(attempt)); werr != nil {
				return nil, werr
			}
			continue
		}
		switch {
		case resp.status == http.StatusUnauthorized && cl.auth == bearer && c.signer != nil && !relogged:
			relogged = true
			if _, err := c.Login(ctx); err != nil {
				return nil, err
			}
			continue
		case (resp.status == http.StatusTooManyRequests || resp.status == http.StatusServiceUnavailable ||
			(idemKey != "" && keyInFlight(resp))) && attempt < retries:
			if werr := c.wait(ctx, retryAfter(resp.header, attempt)); werr != nil {
				return nil, werr
			}
			continue
		case resp.status < 200 || resp.status > 299:
			return resp, errorOf(resp)
		}
		if out != nil {
			if err := json.Unmarshal(resp.body, out); err != nil {
				return resp, fmt.Errorf("client: decode %s %s: %w", cl.method, cl.path, err)
			}
		}
		return resp, nil
	}
}

// errorOf is the *Error of a refused answer: its detail, or its body or
// status text when it has none.
func errorOf(resp *response) *Error {
	e := &Error{Status: resp.status, RequestID: resp.header.Get("X-Request-Id")}
	if json.Unmarshal(resp.body, e) != nil || e.Detail == "" {
		e.Detail = strings.TrimSpace(string(resp.body))
		if e.Detail == "" {
			e.Detail = http.StatusText(resp.status)
		}
	}
	return e
}

// keyInFlight reports whether resp is the 409 of an Idempotency-Key whose
// first request is still running (CONTRACT "Conventions"): a fresh answer
// (not a replay) saying so, or a 409 with Retry-After. Any other 409 is a
// state conflict, returned at once.
func keyInFlight(resp *response) bool {
	if resp.status != http.StatusConflict || resp.header.Get("Idempotent-Replayed") != "" {
		return false
	}
	if resp.header.Get("Retry-After") != "" {
		return true
	}
	var e Error
	return json.Unmarshal(resp.body, &e) == nil &&
		strings.HasPrefix(e.Detail, "Idempotency-Key:") && strings.Contains(e.Detail, "still in progress")
}

// send sends one HTTP request and returns the answer, its body unread.
func (c *Client) send(ctx context.Context, cl call, payload []byte, idemKey string) (*http.Response, error) {
	u := c.base + cl.path
	if len(cl.query) > 0 {
		u += "?" + cl.query.Encode()
	}
	var body io.Reader
	if payload != nil {
		body = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, cl.method, u, body)
	if err != nil {
		return nil, fmt.Errorf("client: %w", err)
	}
	accept := cl.accept
	if accept == "" {
		accept = "application/json"
	}
	req.Header.Set("Accept", accept)
	req.Header.Set("User-Agent", c.userAgent)
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	switch cl.auth {
	case bearer:
		if tok := c.Token(); tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
	case dev:
		if c.devSecret != "" {
			req.Header.Set("X-Dev-Secret", c.devSecret)
		}
	}
	if idemKey != "" {
		req.Header.Set("Idempotency-Key", idemKey)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("client: %s %s: %w", cl.method, cl.path, err)
	}
	return res, nil
}

// once sends one HTTP request and reads the whole answer.
func (c *Client) once(ctx context.Context, cl call, payload []byte, idemKey string) (*response, error) {
	res, err := c.send(ctx, cl, payload, idemKey)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.ContentLength > c.maxBody {
		return nil, fmt.Errorf("client: %s %s: %w: %d bytes, the limit is %d", cl.method, cl.path, ErrResponseTooLarge, res.ContentLength, c.maxBody)
	}
	data, err := io.ReadAll(io.LimitReader(res.Body, c.maxBody+1))
	if err != nil {
		return nil, fmt.Errorf("client: %s %s: read: %w", cl.method, cl.path, err)
	}
	if int64(len(data)) > c.maxBody {
		return nil, fmt.Errorf("client: %s %s: %w: more than %d bytes", cl.method, cl.path, ErrResponseTooLarge, c.maxBody)
	}
	return &response{status: res.StatusCode, header: res.Header, body: data}, nil
}

// wait sleeps d (capped) unless ctx ends first.
func (c *Client) wait(ctx context.Context, d time.Duration) error {
	d = min(d, c.maxRetryWait)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// retryAfter reads Retry-After (seconds or an HTTP date); without one it
// backs off exponentially.
func retryAfter(h http.Header, attempt int) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if s, err := strconv.Atoi(v); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(time.Until(t), 0)
	}
	return backoff(attempt)
}

// backoff is 200 ms doubled per attempt.
func backoff(attempt int) time.Duration { return 200 * time.Millisecond << min(attempt, 6) }

// pathf builds a path with escaped segments.
func pathf(format string, segs ...string) string {
	args := make([]any, len(segs))
	for i, s := range segs {
		args[i] = url.PathEscape(s)
	}
	return fmt.Sprintf(format, args...)
}

// Page selects one page of a list: Limit 0 is the server default.
type Page struct {
	Limit  int
	Cursor string
}

// values adds the page to q.
func (p Page) values(q url.Values) url.Values {
	if q == nil {
		q = url.Values{}
	}
	if p.Limit > 0 {
		q.Set("limit", strconv.Itoa(p.Limit))
	}
	if p.Cursor != "" {
		q.Set("cursor", p.Cursor)
	}
	return q
}
