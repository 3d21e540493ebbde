package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openjury/openjury/client"
)

// ErrInvalidToken is what HTTPOptions.Authenticate returns for a bearer
// token that is unknown, expired or revoked.
var ErrInvalidToken = errors.New("mcpserver: invalid or expired token")

// eventWaitSlack is the time an events call may take beyond its wait.
const eventWaitSlack = 30 * time.Second

// DefaultMaxBodyBytes bounds the body of one MCP request over HTTP when
// HTTPOptions.MaxBodyBytes is zero: 1 MiB, the API's own limit.
const DefaultMaxBodyBytes int64 = 1 << 20

// HTTPOptions configure the streamable HTTP handler.
type HTTPOptions struct {
	// API serves the HTTP API the tools call, in process (the host's
	// handler, with its middleware: every tool call is one or more API
	// requests from the MCP request's client address, counted by the
	// same rate limits and logged with the same request id). Required.
	API http.Handler
	// BaseURL is the service's public base URL (e.g.
	// https://jury.example.com): the host of the API requests. Required.
	BaseURL string
	// ResourceMetadataURL is the URL of the OAuth protected-resource
	// metadata document (RFC 9728) of the /mcp resource, named in the
	// WWW-Authenticate header of every 401. Required.
	ResourceMetadataURL string
	// Authenticate resolves a bearer token to its address (lowercase
	// hex), or returns ErrInvalidToken for a token that is unknown,
	// expired or revoked; any other error is answered 503. Required.
	Authenticate func(ctx context.Context, token string) (string, error)
	// MaxBodyBytes bounds a request's body (413 beyond); zero means
	// DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// Logger receives the SDK's logs; nil discards them.
	Logger *slog.Logger
}

// NewHTTPHandler returns the MCP server over the streamable HTTP transport
// in the SDK's stateless mode: every POST is answered on its own (JSON
// responses, no session, nothing kept between requests), so any replica
// answers any request. The tool set is New's.
//
// Authorization (docs/interface.md, "MCP"): the read tools need no token.
// A request whose Authorization header carries a token that does not
// resolve (unknown, expired, revoked) is answered 401 with
// `WWW-Authenticate: Bearer error="invalid_token", resource_metadata="..."`
// whatever it asks; a tools/call of a write tool without an Authorization
// header is answered 401 with `WWW-Authenticate: Bearer
// resource_metadata="..."`. Both bodies are {"detail": "..."}. With a valid
// token the write tools act for its address; the token is passed through
// to the API.
//
// NewHTTPHandler panics when a required option is missing, a wiring
// mistake.
func NewHTTPHandler(o HTTPOptions) http.Handler {
	if o.API == nil || o.BaseURL == "" || o.ResourceMetadataURL == "" || o.Authenticate == nil {
		panic("mcpserver.NewHTTPHandler: API, BaseURL, ResourceMetadataURL and Authenticate are required")
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	h := &httpHandler{o: o, base: strings.TrimRight(o.BaseURL, "/")}
	h.signInHint = "sign in: send \"Authorization: Bearer <token>\" with an OpenJury token (Sign-In with Ethereum; see " + o.ResourceMetadataURL + ")"
	b := newBuilder(h.caller, "The read tools need no token. The write tools act for the bearer of the Authorization header: an OpenJury access token from Sign-In with Ethereum (see the playbook and "+o.ResourceMetadataURL+").")
	h.writes = b.writes
	h.sdk = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return b.server }, &mcp.StreamableHTTPOptions{
		Stateless:    true,
		JSONResponse: true,
		Logger:       o.Logger,
		// The API's middleware decides the Host (local development mode
		// answers loopback host names only).
		DisableLocalhostProtection: true,
		MaxRequestBodyBytes:        o.MaxBodyBytes,
	})
	return h
}

// httpHandler checks a request's authorization, then hands it to the SDK.
type httpHandler struct {
	o          HTTPOptions
	base       string
	sdk        http.Handler
	writes     map[string]bool
	signInHint string
}

// requestCaller is the caller of one HTTP request, kept in its context.
type requestCaller struct {
	token, address string
	// outer is the MCP request, whose client address and forwarding
	// header the API requests carry, with its request id (requestID).
	outer     *http.Request
	requestID string
}

type requestCallerKey struct{}

// caller is the caller of a tool call made in an HTTP request: a client
// of the API in process, with the request's token.
func (h *httpHandler) caller(ctx context.Context) caller {
	rc, _ := ctx.Value(requestCallerKey{}).(*requestCaller)
	if rc == nil {
		rc = &requestCaller{}
	}
	opts := []client.Option{
		client.WithHTTPClient(&http.Client{Transport: inProcess{api: h.o.API, outer: rc.outer, requestID: rc.requestID}}),
		client.WithInsecureHTTP(), // no network: the API is called in process
		client.WithoutRetries(),   // the MCP client retries, with its own budget
	}
	if rc.token != "" {
		opts = append(opts, client.WithToken(rc.token))
	}
	c, err := client.New(h.base, opts...)
	if err != nil { // BaseURL was checked by the host's configuration
		panic("mcpserver: " + err.Error())
	}
	return caller{c: c, address: rc.address, signed: rc.token != "", signInHint: h.signInHint}
}

func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeDetail(w, http.StatusMethodNotAllowed, "method not allowed: the MCP endpoint is stateless and takes POST only")
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, h.o.MaxBodyBytes+1))
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe) || int64(len(body)) > h.o.MaxBodyBytes:
		writeDetail(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body too large: at most %d bytes", h.o.MaxBodyBytes))
		return
	case err != nil:
		writeDetail(w, http.StatusBadRequest, "cannot read the request body")
		return
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		writeDetail(w, http.StatusUnsupportedMediaType, "Content-Type must be application/json (a JSON-RPC message of the MCP streamable HTTP transport)")
		return
	}
	calls := toolCalls(body)
	if slices.Contains(calls, "events") {
		// The events tool may wait for the next event: the answer may
		// come later than the server's usual write timeout allows.
		_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(MaxEventWaitSeconds*time.Second + eventWaitSlack))
	}
	rc := &requestCaller{outer: r, requestID: w.Header().Get("X-Request-Id")}
	if authz := r.Header.Get("Authorization"); authz != "" {
		token, ok := bearer(authz)
		if !ok {
			h.unauthorized(w, `error="invalid_request"`, `Authorization must be "Bearer <token>"`)
			return
		}
		addr, err := h.o.Authenticate(r.Context(), token)
		switch {
		case errors.Is(err, ErrInvalidToken):
			h.unauthorized(w, `error="invalid_token", error_description="the token is unknown, expired or revoked"`,
				"invalid or expired token: sign in again (POST /api/v1/agents/auth/challenge, then /verify)")
			return
		case err != nil:
			w.Header().Set("Retry-After", "1")
			writeDetail(w, http.StatusServiceUnavailable, "cannot check the token now: retry shortly")
			return
		}
		rc.token, rc.address = token, addr
	} else if tool := h.writeCall(calls); tool != "" {
		h.unauthorized(w, "", "tool "+tool+" needs a signed-in caller: "+h.signInHint)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	jw := &jsonErrors{ResponseWriter: w}
	h.sdk.ServeHTTP(jw, r.WithContext(context.WithValue(r.Context(), requestCallerKey{}, rc)))
	jw.finish()
}

// unauthorized answers 401 with the Bearer challenge naming the
// protected-resource metadata (RFC 9728 section 5.1) and params (RFC 6750
// section 3: none when the request had no credentials).
func (h *httpHandler) unauthorized(w http.ResponseWriter, params, detail string) {
	challenge := "Bearer "
	if params != "" {
		challenge += params + ", "
	}
	w.Header().Set("WWW-Authenticate", challenge+`resource_metadata="`+h.o.ResourceMetadataURL+`"`)
	writeDetail(w, http.StatusUnauthorized, detail)
}

// bearer is the token of an Authorization header "Bearer <token>" (the
// scheme case-insensitive).
func bearer(authz string) (string, bool) {
	scheme, token, ok := strings.Cut(authz, " ")
	token = strings.TrimSpace(token)
	return token, ok && strings.EqualFold(scheme, "Bearer") && token != "" && !strings.ContainsAny(token, " \t")
}

// rpcCall is the part of a JSON-RPC message the authorization check reads.
type rpcCall struct {
	Method string `json:"method"`
	Params struct {
		Name string `json:"name"`
	} `json:"params"`
}

// toolCalls returns the names of the tools that body (one JSON-RPC
// message or a batch) calls. A body that does not parse calls none: it
// is left to the SDK, which answers it.
func toolCalls(body []byte) []string {
	var msgs []rpcCall
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		if json.Unmarshal(trimmed, &msgs) != nil {
			return nil
		}
	} else {
		var m rpcCall
		if json.Unmarshal(trimmed, &m) != nil {
			return nil
		}
		msgs = []rpcCall{m}
	}
	var names []string
	for _, m := range msgs {
		if m.Method == "tools/call" {
			names = append(names, m.Params.Name)
		}
	}
	return names
}

// writeCall returns the name of a write tool among calls, or "".
func (h *httpHandler) writeCall(calls []string) string {
	for _, name := range calls {
		if h.writes[name] {
			return name
		}
	}
	return ""
}

// writeDetail writes the API's error body {"detail": ...}.
func writeDetail(w http.ResponseWriter, status int, detail string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"detail": detail})
}

// jsonErrors turns the SDK's plain-text error answers (http.Error) into
// the API's {"detail": ...} bodies; everything else passes through.
type jsonErrors struct {
	http.ResponseWriter
	status int
	text   bytes.Buffer
}

func (j *jsonErrors) WriteHeader(status int) {
	if status >= 400 && strings.HasPrefix(j.Header().Get("Content-Type"), "text/plain") {
		j.status = status
		return
	}
	j.ResponseWriter.WriteHeader(status)
}

func (j *jsonErrors) Write(b []byte) (int, error) {
	if j.status != 0 {
		return j.text.Write(b)
	}
	return j.ResponseWriter.Write(b)
}

// Flush sends what was written so far (none of a plain-text error).
func (j *jsonErrors) Flush() {
	if f, ok := j.ResponseWriter.(http.Flusher); ok && j.status == 0 {
		f.Flush()
	}
}

// finish writes a held plain-text error as JSON.
func (j *jsonErrors) finish() {
	if j.status != 0 {
		writeDetail(j.ResponseWriter, j.status, strings.TrimSpace(j.text.String()))
	}
}

// inProcess sends the API requests of a tool call to the API handler in
// this process, as if they came from the MCP request's client: its
// address and X-Forwarded-For, and the MCP request's request id.
type inProcess struct {
	api       http.Handler
	outer     *http.Request
	requestID string
}

func (t inProcess) RoundTrip(req *http.Request) (*http.Response, error) {
	in := req.Clone(req.Context())
	in.RequestURI = req.URL.RequestURI()
	in.Host = req.URL.Host
	if t.outer != nil {
		in.RemoteAddr = t.outer.RemoteAddr
		if v := t.outer.Header.Values("X-Forwarded-For"); len(v) > 0 {
			in.Header["X-Forwarded-For"] = v
		}
	}
	if t.requestID != "" {
		in.Header.Set("X-Request-Id", t.requestID)
	}
	// The API answers in its own goroutine through a pipe, so that a
	// streamed answer (the event stream) reaches the tool as it is
	// written; the response is handed over once its header is written.
	pr, pw := io.Pipe()
	w := &pipeWriter{header: http.Header{}, body: pw, ready: make(chan struct{}), status: http.StatusOK}
	go func() {
		defer func() {
			if p := recover(); p != nil { // the API's middleware recovers; this is a last guard
				_ = pw.CloseWithError(fmt.Errorf("mcpserver: the API panicked: %v", p))
			}
			w.WriteHeader(http.StatusOK) // an answer without a body
			_ = pw.Close()
		}()
		t.api.ServeHTTP(w, in)
	}()
	<-w.ready
	return &http.Response{Status: fmt.Sprintf("%d %s", w.status, http.StatusText(w.status)), StatusCode: w.status,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Header: w.sent, Body: pr, ContentLength: -1, Request: req}, nil
}

// pipeWriter is the http.ResponseWriter of an in-process API request: the
// header is handed over (ready) at the first WriteHeader or Write, the
// body goes through a pipe as it is written.
type pipeWriter struct {
	header, sent http.Header
	body         *io.PipeWriter
	ready        chan struct{}
	status       int
	once         sync.Once
}

func (w *pipeWriter) Header() http.Header { return w.header }

func (w *pipeWriter) WriteHeader(status int) {
	w.once.Do(func() {
		w.status, w.sent = status, w.header.Clone()
		close(w.ready)
	})
}

func (w *pipeWriter) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(b)
}

// Flush does nothing: every Write reaches the reader at once.
func (w *pipeWriter) Flush() {}
