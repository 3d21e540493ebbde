package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/openjury/openjury/openjurytest"
)

// deepPages is how deep the deep scenario reads a tag list by cursor.
const deepPages = 50

// commentsPerWallet is the per-address comment limit of a minute
// (CONTRACT): the comment budget of a run is this times -wallets.
const commentsPerWallet = 20

// fixtures are what the scenarios work on, found or made before the run.
type fixtures struct {
	jobs   []string   // open jobs
	pairs  []votePair // seeded submissions, with their job
	tokens []string   // signed-in wallets with stake and reputation
	// deepPath is page deepPages of the seedTagAll list (or the last page
	// reached, deepReached).
	deepPath    string
	deepReached int
	listBody    int          // bytes of a GET /api/v1/jobs?limit=20 answer
	commentsOK  atomic.Int64 // comments the wallets may still post
	submitBody  func(job string) []byte
	commentBody []byte
}

type votePair struct{ job, submission string }

// request is one request of a scenario.
type request struct {
	op, method, path, token string
	body                    []byte
}

// scenario yields the seq-th request of a run; ok false ends the worker.
type scenario struct {
	name string
	next func(f *fixtures, seq int64) (request, bool)
}

var allScenarios = []string{"list", "tag", "deep", "get", "tallies", "submit", "vote", "comment", "mix"}

func scenarioByName(name string) *scenario {
	get := func(path string) request { return request{op: "GET " + path, method: http.MethodGet, path: path} }
	pick := func(l []string, seq int64) string { return l[seq%int64(len(l))] }
	single := map[string]func(f *fixtures, seq int64) (request, bool){
		"list": func(*fixtures, int64) (request, bool) { return get("/api/v1/jobs?limit=20"), true },
		"tag": func(_ *fixtures, seq int64) (request, bool) {
			r := get(fmt.Sprintf("/api/v1/jobs?limit=20&tag=t%d", seq%10))
			r.op = "GET /api/v1/jobs?limit=20&tag=t{n}"
			return r, true
		},
		"deep": func(f *fixtures, _ int64) (request, bool) {
			r := get(f.deepPath)
			r.op = fmt.Sprintf("GET /api/v1/jobs?limit=20&tag=%s page %d", seedTagAll, f.deepReached)
			return r, true
		},
		"get": func(f *fixtures, seq int64) (request, bool) {
			r := get("/api/v1/jobs/" + pick(f.jobs, seq))
			r.op = "GET /api/v1/jobs/{job_id}"
			return r, true
		},
		"tallies": func(f *fixtures, seq int64) (request, bool) {
			if len(f.pairs) == 0 {
				return request{}, false
			}
			r := get("/api/v1/jobs/" + f.pairs[seq%int64(len(f.pairs))].job + "/votes")
			r.op = "GET /api/v1/jobs/{job_id}/votes"
			return r, true
		},
		"submit": func(f *fixtures, seq int64) (request, bool) {
			// (wallet, job) pairs repeat every len(jobs)*len(tokens)
			// requests; an agent may submit 5 times to a job.
			job := pick(f.jobs, seq)
			tok := pick(f.tokens, seq/int64(len(f.jobs)))
			return request{op: "POST /api/v1/submissions", method: http.MethodPost, path: "/api/v1/submissions", token: tok, body: f.submitBody(job)}, true
		},
		"vote": func(f *fixtures, seq int64) (request, bool) {
			if len(f.pairs) == 0 {
				return request{}, false
			}
			p := f.pairs[(seq/int64(len(f.tokens)))%int64(len(f.pairs))]
			body, _ := json.Marshal(map[string]string{"job_id": p.job, "submission_id": p.submission})
			return request{op: "POST /api/v1/votes", method: http.MethodPost, path: "/api/v1/votes", token: pick(f.tokens, seq), body: body}, true
		},
		"comment": func(f *fixtures, seq int64) (request, bool) {
			if f.commentsOK.Add(-1) < 0 {
				return request{}, false
			}
			return request{op: "POST /api/v1/jobs/{job_id}/comments", method: http.MethodPost,
				path: "/api/v1/jobs/" + pick(f.jobs, seq) + "/comments", token: pick(f.tokens, seq), body: f.commentBody}, true
		},
	}
	if name == "mix" {
		// A realistic mix, mostly anonymous reads: per 100 requests.
		weights := []struct {
			n    int64
			name string
		}{{30, "list"}, {30, "get"}, {10, "tag"}, {10, "tallies"}, {5, "deep"}, {8, "submit"}, {5, "vote"}, {2, "comment"}}
		return &scenario{name: name, next: func(f *fixtures, seq int64) (request, bool) {
			k := seq % 100
			for _, w := range weights {
				if k < w.n {
					// Each operation gets its own dense sequence.
					if r, ok := single[w.name](f, seq/100*w.n+k); ok {
						return r, true
					}
					break
				}
				k -= w.n
			}
			return single["get"](f, seq)
		}}
	}
	if fn, ok := single[name]; ok {
		return &scenario{name: name, next: fn}
	}
	return nil
}

// do sends r and fails unless the answer is 200.
func (t *target) do(r request, secret string) (*http.Response, []byte, error) {
	var body io.Reader
	if r.body != nil {
		body = bytes.NewReader(r.body)
	}
	req, err := http.NewRequest(r.method, t.base+r.path, body)
	if err != nil {
		return nil, nil, err
	}
	if r.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if r.token != "" {
		req.Header.Set("Authorization", "Bearer "+r.token)
	}
	if secret != "" {
		req.Header.Set("X-Dev-Secret", secret)
	}
	resp, err := t.client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return resp, raw, fmt.Errorf("%d %s", resp.StatusCode, bytes.TrimSpace(raw[:min(len(raw), 200)]))
	}
	return resp, raw, nil
}

// call sends a setup request with a JSON body and decodes the answer into
// out when it is not nil.
func (t *target) call(method, path, token, secret string, in, out any) (*http.Response, error) {
	r := request{method: method, path: path, token: token}
	if in != nil {
		raw, err := json.Marshal(in)
		if err != nil {
			return nil, err
		}
		r.body = raw
	}
	resp, raw, err := t.do(r, secret)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			return nil, fmt.Errorf("%s %s: %w", method, path, err)
		}
	}
	return resp, nil
}

// setUp signs the wallets in (with stake and reputation through the dev
// endpoints), finds open jobs, seeded submissions, the size of a list
// answer and the deep page.
func setUp(t *target, c config) (*fixtures, error) {
	f := &fixtures{
		commentBody: []byte(`{"content":"A comment from the load tool."}`),
		submitBody: func(job string) []byte {
			b, _ := json.Marshal(map[string]any{"job_id": job, "content": "An answer from the load tool.",
				"evidence": []map[string]any{{"type": "url", "source_url": "https://example.org/load", "quote": "measured"}}})
			return b
		},
	}
	f.commentsOK.Store(int64(commentsPerWallet * c.wallets))
	tb := &runTB{name: "load-setup"}
	defer tb.cleanup()
	for range c.wallets {
		w := openjurytest.NewWallet(tb)
		tok, err := signIn(t, w, tb)
		if err != nil {
			return nil, err
		}
		f.tokens = append(f.tokens, tok)
		if t.devSecret == "" {
			continue
		}
		addr := w.Address().String()
		if _, err := t.call(http.MethodPost, "/api/v1/stake/dev_set", "", t.devSecret, map[string]any{"address": addr, "staked_amount": 1000}, nil); err != nil {
			return nil, err
		}
		if _, err := t.call(http.MethodPost, "/api/v1/reputation/dev_set", "", t.devSecret, map[string]any{"address": addr, "score": 100}, nil); err != nil {
			return nil, err
		}
	}
	var page struct {
		Jobs []struct {
			ID string `json:"id"`
		} `json:"jobs"`
		Next *string `json:"next_cursor"`
	}
	path := "/api/v1/jobs?status=open&limit=200"
	for range 10 {
		if _, err := t.call(http.MethodGet, path, "", "", nil, &page); err != nil {
			return nil, err
		}
		for _, j := range page.Jobs {
			f.jobs = append(f.jobs, j.ID)
		}
		if page.Next == nil {
			break
		}
		path = "/api/v1/jobs?status=open&limit=200&cursor=" + url.QueryEscape(*page.Next)
	}
	if len(f.jobs) == 0 {
		return nil, errors.New("no open jobs to work on: seed some (-seed N)")
	}
	_, raw, err := t.do(request{method: http.MethodGet, path: "/api/v1/jobs?limit=20"}, "")
	if err != nil {
		return nil, err
	}
	f.listBody = len(raw)
	f.deepPath = "/api/v1/jobs?limit=20&tag=" + seedTagAll
	for f.deepReached = 1; f.deepReached < deepPages; f.deepReached++ {
		page.Next = nil
		if _, err := t.call(http.MethodGet, f.deepPath, "", "", nil, &page); err != nil {
			return nil, err
		}
		if page.Next == nil {
			break
		}
		f.deepPath = "/api/v1/jobs?limit=20&tag=" + seedTagAll + "&cursor=" + url.QueryEscape(*page.Next)
	}
	for _, job := range f.jobs[:min(len(f.jobs), 300)] {
		var subs []struct {
			ID string `json:"id"`
		}
		if _, err := t.call(http.MethodGet, "/api/v1/jobs/"+job+"/submissions", "", "", nil, &subs); err != nil {
			return nil, err
		}
		for _, s := range subs {
			f.pairs = append(f.pairs, votePair{job: job, submission: s.ID})
		}
	}
	return f, nil
}

// signIn runs challenge and verify for w and returns the token.
func signIn(t *target, w *openjurytest.Wallet, tb *runTB) (string, error) {
	var ch struct {
		Message string `json:"message_to_sign"`
	}
	if _, err := t.call(http.MethodPost, "/api/v1/agents/auth/challenge", "", "", map[string]string{"address": w.Address().String()}, &ch); err != nil {
		return "", err
	}
	var v struct {
		Token string `json:"access_token"`
	}
	_, err := t.call(http.MethodPost, "/api/v1/agents/auth/verify", "", "", map[string]string{
		"address": w.Address().String(), "signature": w.Sign(tb, ch.Message),
	}, &v)
	return v.Token, err
}

// share is one bounded drive: its share of the scenario's time and
// requests, and the scenario's request sequence (shared by its rounds).
type share struct {
	duration time.Duration
	requests int64
	seq      *atomic.Int64
}

// drive sends sc's requests on c.workers connections until the run's time
// or requests are used up.
func drive(t *target, f *fixtures, c config, sc *scenario, r share) *result {
	deadline := time.Now().Add(r.duration)
	last := r.seq.Load() + r.requests
	parts := make([]*result, c.workers)
	start := time.Now()
	var wg sync.WaitGroup
	for w := range c.workers {
		res := newResult()
		parts[w] = res
		wg.Go(func() {
			for {
				s := r.seq.Add(1) - 1
				if s >= last || time.Now().After(deadline) {
					return
				}
				rq, ok := sc.next(f, s)
				if !ok {
					return
				}
				t0 := time.Now()
				_, _, err := t.do(rq, "")
				res.record(rq.op, time.Since(t0), err)
			}
		})
	}
	wg.Wait()
	total := newResult()
	total.elapsed = time.Since(start)
	for _, p := range parts {
		total.merge(p)
	}
	return total
}

// ceiling is the same client and net/http server stack answering a
// pre-encoded body: the most this machine can serve at this concurrency,
// the denominator of every ratio.
type ceiling struct {
	srv *http.Server
	t   *target
	sc  *scenario
}

// newCeiling serves a JSON body of size bytes on loopback until close.
func newCeiling(c config, size int) (*ceiling, error) {
	body := append(append([]byte(`{"pad":"`), bytes.Repeat([]byte("x"), max(0, size-11))...), []byte("\"}\n")...)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	length := strconv.Itoa(len(body))
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "application/json")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Length", length)
		_, _ = w.Write(body)
	})}
	go func() { _ = srv.Serve(ln) }()
	op := fmt.Sprintf("ceiling: net/http, %d-byte body", len(body))
	return &ceiling{srv: srv, t: newTarget(c, "http://"+ln.Addr().String()), sc: &scenario{name: "ceiling",
		next: func(*fixtures, int64) (request, bool) {
			return request{op: op, method: http.MethodGet, path: "/"}, true
		}}}, nil
}

func (cl *ceiling) close() {
	_ = cl.srv.Close()
	cl.t.client.CloseIdleConnections()
}

// measure runs sc in c.rounds rounds, each a ceiling run then a scenario
// run of a share of -d and -n, so both see the same machine; the ceiling
// answers a body of the size of sc's first answer.
func measure(t *target, f *fixtures, c config, sc *scenario) (ceil, res *result, err error) {
	size := f.listBody
	var seq atomic.Int64
	if rq, ok := sc.next(f, 0); ok && rq.method == http.MethodGet {
		if _, raw, err := t.do(rq, ""); err == nil {
			size = len(raw)
		}
	}
	res = newResult()
	if c.ceiling {
		cl, err := newCeiling(c, size)
		if err != nil {
			return nil, nil, err
		}
		defer cl.close()
		ceil = newResult()
		var cseq atomic.Int64
		for range c.rounds {
			part := share{duration: c.duration / time.Duration(c.rounds), requests: int64(c.maxRequests / c.rounds), seq: &cseq}
			ceil.add(drive(cl.t, f, c, cl.sc, part))
			part.seq = &seq
			res.add(drive(t, f, c, sc, part))
		}
		return ceil, res, nil
	}
	res.add(drive(t, f, c, sc, share{duration: c.duration, requests: int64(c.maxRequests), seq: &seq}))
	return nil, res, nil
}

// firstLine shortens an error for the report.
func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
