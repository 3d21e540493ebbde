// Package openai is a search.Embedder on the OpenAI-compatible embeddings
// protocol (POST {base}/embeddings with {"model", "input": [...]}), which
// OpenAI, Ollama, vLLM, llama.cpp's server and text-embeddings-inference
// all speak. It batches inputs, bounds every request with a timeout,
// retries network errors, 429 and 5xx answers with exponential backoff
// (honouring Retry-After), and never logs or returns the API key.
package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/search"
)

var _ search.Embedder = (*Client)(nil)

// Defaults of Config.
const (
	DefaultBatchSize     = 64
	DefaultTimeout       = 30 * time.Second
	DefaultMaxRetries    = 3
	DefaultBackoff       = 500 * time.Millisecond
	DefaultMaxInputChars = 8000
	// maxRetryAfter bounds a server's Retry-After.
	maxRetryAfter = 30 * time.Second
	// maxBody bounds the answer read (a batch of large vectors fits).
	maxBody = 64 << 20
)

// Config configures a Client. BaseURL and Model are required.
type Config struct {
	// BaseURL is the API base, e.g. https://api.openai.com/v1 or
	// http://localhost:11434/v1 (SERVICE_EMBEDDER); requests go to
	// BaseURL + "/embeddings".
	BaseURL string
	// Model is the embedding model (SERVICE_EMBEDDER_MODEL).
	Model string
	// APIKey is sent as a bearer token when not empty
	// (SERVICE_EMBEDDER_API_KEY). Secret: never logged or returned.
	APIKey string
	// HTTPClient sends the requests; nil means a new http.Client.
	HTTPClient *http.Client
	// BatchSize is the most inputs per request (default 64).
	BatchSize int
	// Timeout bounds each request (default 30 s).
	Timeout time.Duration
	// MaxRetries is how often a failed request is retried (default 3;
	// negative: never).
	MaxRetries int
	// Backoff is the first pause before a retry, doubled each time, with
	// jitter (default 500 ms).
	Backoff time.Duration
	// MaxInputChars truncates each input (default 8000 characters), so a
	// long document cannot exceed the model's context and block its batch.
	MaxInputChars int
}

// Client is an OpenAI-compatible embeddings client. It is safe for
// concurrent use.
type Client struct {
	cfg      Config
	endpoint string
	http     *http.Client
}

// New returns a Client. Errors: Invalid when BaseURL is not an absolute
// http(s) URL or Model is empty.
func New(cfg Config) (*Client, error) {
	const op = "openai.New"
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, openjury.E(openjury.Invalid, op, "embedder base URL: must be an absolute http(s) URL")
	}
	if strings.TrimSpace(cfg.Model) == "" {
		return nil, openjury.E(openjury.Invalid, op, "embedder model: is required")
	}
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = DefaultBatchSize
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxRetries == 0 {
		cfg.MaxRetries = DefaultMaxRetries
	}
	if cfg.Backoff <= 0 {
		cfg.Backoff = DefaultBackoff
	}
	if cfg.MaxInputChars <= 0 {
		cfg.MaxInputChars = DefaultMaxInputChars
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{}
	}
	return &Client{cfg: cfg, endpoint: strings.TrimRight(cfg.BaseURL, "/") + "/embeddings", http: hc}, nil
}

// Model implements search.Embedder: "openai:" and the model name.
func (c *Client) Model() string { return "openai:" + c.cfg.Model }

// String describes the client without its key.
func (c *Client) String() string {
	return fmt.Sprintf("openai.Client{endpoint: %s, model: %s}", redact(c.endpoint), c.cfg.Model)
}

// Embed implements search.Embedder, one request per BatchSize inputs.
// Errors: Unavailable when the API cannot be reached or keeps failing,
// Invalid when it refuses the input (4xx other than 408 and 429),
// Internal for an answer that does not follow the protocol.
func (c *Client) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += c.cfg.BatchSize {
		batch := texts[start:min(start+c.cfg.BatchSize, len(texts))]
		vecs, err := c.embedBatch(ctx, batch)
		if err != nil {
			return nil, err
		}
		out = append(out, vecs...)
	}
	return out, nil
}

type request struct {
	Model string   `json:"model"`
	Input []string `json:"input"`
}

type response struct {
	Data []struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
}

// retryable is an error worth another attempt, with the server's wish.
type retryable struct {
	err   error
	after time.Duration
}

func (r *retryable) Error() string { return r.err.Error() }
func (r *retryable) Unwrap() error { return r.err }

func (c *Client) embedBatch(ctx context.Context, texts []string) ([][]float32, error) {
	const op = "openai.Embed"
	in := make([]string, len(texts))
	for i, t := range texts {
		in[i] = search.TruncateChars(t, c.cfg.MaxInputChars)
		if strings.TrimSpace(in[i]) == "" {
			in[i] = " " // some servers refuse empty input
		}
	}
	body, err := json.Marshal(request{Model: c.cfg.Model, Input: in})
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	pause := c.cfg.Backoff
	for attempt := 0; ; attempt++ {
		vecs, err := c.post(ctx, body, len(texts))
		if err == nil {
			return vecs, nil
		}
		var r *retryable
		if !errors.As(err, &r) {
			return nil, err
		}
		if attempt >= c.cfg.MaxRetries || ctx.Err() != nil {
			return nil, &openjury.Error{Kind: openjury.Unavailable, Op: op, Detail: "the embedder is unavailable", Err: r.err}
		}
		wait := pause + time.Duration(rand.Int64N(int64(pause)/2+1))
		if r.after > wait {
			wait = min(r.after, maxRetryAfter)
		}
		pause *= 2
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, &openjury.Error{Kind: openjury.Unavailable, Op: op, Detail: "the embedder is unavailable", Err: ctx.Err()}
		case <-t.C:
		}
	}
}

// post sends one request and decodes its answer.
func (c *Client) post(ctx context.Context, body []byte, n int) ([][]float32, error) {
	const op = "openai.Embed"
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	req.Header.Set("Content-Type", "application/json")
	if c.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		// url.Error carries the URL, which holds no key (the key is a
		// header), but strip credentials a base URL might embed.
		return nil, &retryable{err: fmt.Errorf("POST %s: %s", redact(c.endpoint), errorText(err))}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return nil, &retryable{err: fmt.Errorf("POST %s: reading the answer: %s", redact(c.endpoint), errorText(err))}
	}
	if resp.StatusCode != http.StatusOK {
		text := snippet(raw)
		if c.cfg.APIKey != "" {
			text = strings.ReplaceAll(text, c.cfg.APIKey, "[redacted]") // some servers echo the key
		}
		status := fmt.Errorf("POST %s: status %d: %s", redact(c.endpoint), resp.StatusCode, text)
		switch {
		case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusRequestTimeout || resp.StatusCode >= 500:
			return nil, &retryable{err: status, after: retryAfter(resp.Header.Get("Retry-After"))}
		case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
			return nil, &openjury.Error{Kind: openjury.Unavailable, Op: op, Detail: "the embedder refused the API key", Err: status}
		default:
			return nil, &openjury.Error{Kind: openjury.Invalid, Op: op, Detail: "the embedder refused the input", Err: status}
		}
	}
	var res response
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, &openjury.Error{Kind: openjury.Internal, Op: op, Detail: "the embedder's answer is not valid JSON", Err: err}
	}
	if len(res.Data) != n {
		return nil, openjury.Errorf(openjury.Internal, op, "the embedder returned %d embeddings for %d inputs", len(res.Data), n)
	}
	sort.SliceStable(res.Data, func(i, j int) bool { return res.Data[i].Index < res.Data[j].Index })
	out := make([][]float32, n)
	for i, d := range res.Data {
		if d.Index != i || len(d.Embedding) == 0 || (i > 0 && len(d.Embedding) != len(out[0])) {
			return nil, openjury.E(openjury.Internal, op, "the embedder's answer has missing, repeated or uneven embeddings")
		}
		out[i] = d.Embedding
	}
	return out, nil
}

// errorText is err's text without the URL url.Error repeats.
func errorText(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}

// redact drops user info and the query from a URL for messages.
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(invalid URL)"
	}
	u.User = nil
	u.RawQuery = ""
	return u.String()
}

// retryAfter parses a Retry-After header in seconds (0 when absent or in
// another form).
func retryAfter(v string) time.Duration {
	s, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || s < 0 {
		return 0
	}
	return time.Duration(s) * time.Second
}

// snippet is the beginning of an error answer, for the logs.
func snippet(b []byte) string { return search.TruncateChars(strings.TrimSpace(string(b)), 200) }
