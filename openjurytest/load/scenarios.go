package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/openjury/openjury/client"
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
	// deepCursor is the cursor of page deepPages of the seedTagAll list
	// (or of the last page reached, deepReached).
	deepCursor  string
	deepReached int
	// commentsUsed counts the comments handed out, commentsMax bounds
	// them; the k-th comment is posted by wallet k mod len(tokens), so
	// none posts more than its share, whatever order workers run in.
	commentsUsed *atomic.Int64
	commentsMax  int64
}

// forCeiling is f for the ceiling's runs: the same fixtures with a comment
// budget of its own, since nothing the ceiling answers is a comment.
func (f *fixtures) forCeiling() *fixtures {
	cf := *f
	cf.commentsUsed, cf.commentsMax = new(atomic.Int64), math.MaxInt64
	return &cf
}

type votePair struct{ job, submission string }

// clients are the load tool's clients of one server, on one connection
// pool: anon for reads and the dev endpoints, and one per signed-in wallet.
// They never retry and never sign in again (client.WithoutRetries), so
// every failure is counted.
type clients struct {
	anon    *client.Client
	wallets []*client.Client
	// signed are the wallets again, sending their bearer token with every
	// request, public reads too (package client sends it only where the
	// API needs it), as agents that always send it do.
	signed []*client.Client
}

// bearerTransport adds an Authorization header to every request.
type bearerTransport struct {
	next   http.RoundTripper
	header string
}

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", b.header)
	return b.next.RoundTrip(r)
}

// newClients returns the clients of the server at base, the wallets
// holding tokens.
func newClients(base string, hc *http.Client, devSecret string, tokens []string) (*clients, error) {
	opts := []client.Option{client.WithHTTPClient(hc), client.WithoutRetries()}
	anon, err := client.New(base, append(opts, client.WithDevSecret(devSecret))...)
	if err != nil {
		return nil, err
	}
	cs := &clients{anon: anon}
	for _, tok := range tokens {
		w, err := client.New(base, append(opts, client.WithToken(tok))...)
		if err != nil {
			return nil, err
		}
		cs.wallets = append(cs.wallets, w)
		next := hc.Transport
		if next == nil {
			next = http.DefaultTransport
		}
		shc := *hc
		shc.Transport = bearerTransport{next: next, header: "Bearer " + tok}
		sw, err := client.New(base, client.WithHTTPClient(&shc), client.WithoutRetries())
		if err != nil {
			return nil, err
		}
		cs.signed = append(cs.signed, sw)
	}
	return cs, nil
}

// request is one request of a scenario: the operation it reports under
// and the client call that makes it.
type request struct {
	op   string
	call func(ctx context.Context, cs *clients) error
}

// scenario yields the seq-th request of a run; ok false ends the worker.
// parts are the single scenarios it is made of.
type scenario struct {
	name  string
	parts []string
	next  func(f *fixtures, seq int64) (request, bool)
}

var allScenarios = []string{"list", "list-signed", "tag", "deep", "get", "get-signed", "tallies", "submit", "submit-one-agent", "vote", "comment", "search", "mix"}

// searchQueries is how many different queries the search scenario asks in
// turn (so the read cache rarely answers them).
const searchQueries = 10000

// The bodies of the writes.
const (
	submitContent  = "An answer from the load tool."
	commentContent = "A comment from the load tool."
)

// submitEvidence is the one evidence item of every submission.
var submitEvidence = func() []client.Evidence {
	typ, src, quote := "url", "https://example.org/load", "measured"
	return []client.Evidence{{Type: &typ, SourceURL: &src, Quote: &quote}}
}()

// pick returns the seq-th of n items in turn.
func pick(n int, seq int64) int { return int(seq % int64(n)) }

// submitRequest is a submission of wallet w to job.
func submitRequest(job string, w int) request {
	return request{op: "POST /api/v1/submissions", call: func(ctx context.Context, cs *clients) error {
		_, err := cs.wallets[w].CreateSubmission(ctx, client.CreateSubmissionRequest{JobID: job, Content: submitContent, Evidence: submitEvidence})
		return err
	}}
}

// singles are the scenarios of one operation each.
var singles = map[string]func(f *fixtures, seq int64) (request, bool){
	"list": func(*fixtures, int64) (request, bool) {
		return request{op: "GET /api/v1/jobs?limit=20", call: func(ctx context.Context, cs *clients) error {
			_, err := cs.anon.ListJobs(ctx, client.JobFilter{Page: client.Page{Limit: 20}})
			return err
		}}, true
	},
	// list-signed is list sent by the signed-in wallets in turn, with
	// their bearer tokens (clients.signed): public data, answered like an anonymous read,
	// and counted against each wallet's per-address limit.
	"list-signed": func(f *fixtures, seq int64) (request, bool) {
		w := pick(len(f.tokens), seq)
		return request{op: "GET /api/v1/jobs?limit=20 signed in", call: func(ctx context.Context, cs *clients) error {
			_, err := cs.signed[w].ListJobs(ctx, client.JobFilter{Page: client.Page{Limit: 20}})
			return err
		}}, true
	},
	"tag": func(_ *fixtures, seq int64) (request, bool) {
		tag := fmt.Sprintf("t%d", seq%10)
		return request{op: "GET /api/v1/jobs?limit=20&tag=t{n}", call: func(ctx context.Context, cs *clients) error {
			_, err := cs.anon.ListJobs(ctx, client.JobFilter{Tag: tag, Page: client.Page{Limit: 20}})
			return err
		}}, true
	},
	"deep": func(f *fixtures, _ int64) (request, bool) {
		cursor := f.deepCursor
		return request{op: fmt.Sprintf("GET /api/v1/jobs?limit=20&tag=%s page %d", seedTagAll, f.deepReached),
			call: func(ctx context.Context, cs *clients) error {
				_, err := cs.anon.ListJobs(ctx, client.JobFilter{Tag: seedTagAll, Page: client.Page{Limit: 20, Cursor: cursor}})
				return err
			}}, true
	},
	"get": func(f *fixtures, seq int64) (request, bool) {
		job := f.jobs[pick(len(f.jobs), seq)]
		return request{op: "GET /api/v1/jobs/{job_id}", call: func(ctx context.Context, cs *clients) error {
			_, err := cs.anon.GetJob(ctx, job)
			return err
		}}, true
	},
	// get-signed is get sent by the signed-in wallets in turn.
	"get-signed": func(f *fixtures, seq int64) (request, bool) {
		job, w := f.jobs[pick(len(f.jobs), seq)], pick(len(f.tokens), seq)
		return request{op: "GET /api/v1/jobs/{job_id} signed in", call: func(ctx context.Context, cs *clients) error {
			_, err := cs.signed[w].GetJob(ctx, job)
			return err
		}}, true
	},
	"tallies": func(f *fixtures, seq int64) (request, bool) {
		if len(f.pairs) == 0 {
			return request{}, false
		}
		job := f.pairs[pick(len(f.pairs), seq)].job
		return request{op: "GET /api/v1/jobs/{job_id}/votes", call: func(ctx context.Context, cs *clients) error {
			_, err := cs.anon.GetJobVotingSummary(ctx, job)
			return err
		}}, true
	},
	"submit": func(f *fixtures, seq int64) (request, bool) {
		// Many agents to many jobs: consecutive requests come from
		// different wallets to different jobs. (wallet, job) pairs repeat
		// every len(jobs)*len(tokens) requests; an agent may submit 5
		// times to a job.
		job := f.jobs[pick(len(f.jobs), seq)]
		w := pick(len(f.tokens), seq+seq/int64(len(f.jobs)))
		return submitRequest(job, w), true
	},
	"submit-one-agent": func(f *fixtures, seq int64) (request, bool) {
		// One agent to many jobs at once: every connection writes the
		// same agent's reputation row (its first submission to each job).
		job := f.jobs[pick(len(f.jobs), seq)]
		w := pick(len(f.tokens), seq/int64(len(f.jobs)))
		return submitRequest(job, w), true
	},
	"vote": func(f *fixtures, seq int64) (request, bool) {
		if len(f.pairs) == 0 {
			return request{}, false
		}
		p := f.pairs[pick(len(f.pairs), seq/int64(len(f.tokens)))]
		w := pick(len(f.tokens), seq)
		return request{op: "POST /api/v1/votes", call: func(ctx context.Context, cs *clients) error {
			_, err := cs.wallets[w].CreateVote(ctx, client.CreateVoteRequest{JobID: p.job, SubmissionID: p.submission})
			return err
		}}, true
	},
	"comment": func(f *fixtures, seq int64) (request, bool) {
		k := f.commentsUsed.Add(1) - 1
		if k >= f.commentsMax {
			return request{}, false
		}
		job, w := f.jobs[pick(len(f.jobs), seq)], pick(len(f.tokens), k)
		return request{op: "POST /api/v1/jobs/{job_id}/comments", call: func(ctx context.Context, cs *clients) error {
			_, err := cs.wallets[w].CreateJobComment(ctx, job, client.CreateCommentRequest{Content: commentContent})
			return err
		}}, true
	},
	"search": func(_ *fixtures, seq int64) (request, bool) {
		q := fmt.Sprintf("summarise the attached source of seeded job %d with citations", seq%searchQueries)
		return request{op: "GET /api/v1/search/semantic?q={text}&limit=10", call: func(ctx context.Context, cs *clients) error {
			_, err := cs.anon.SemanticSearch(ctx, q, "", 10)
			return err
		}}, true
	},
}

// mixWeights is the mix scenario: per 100 requests, mostly anonymous reads.
var mixWeights = []struct {
	n    int64
	name string
}{{30, "list"}, {30, "get"}, {10, "tag"}, {10, "tallies"}, {5, "deep"}, {8, "submit"}, {5, "vote"}, {2, "comment"}}

func scenarioByName(name string) *scenario {
	if name == "mix" {
		parts := make([]string, len(mixWeights))
		for i, w := range mixWeights {
			parts[i] = w.name
		}
		return &scenario{name: name, parts: parts, next: func(f *fixtures, seq int64) (request, bool) {
			k := seq % 100
			for _, w := range mixWeights {
				if k < w.n {
					// Each operation gets its own dense sequence.
					if r, ok := singles[w.name](f, seq/100*w.n+k); ok {
						return r, true
					}
					break
				}
				k -= w.n
			}
			return singles["get"](f, seq)
		}}
	}
	if fn, ok := singles[name]; ok {
		return &scenario{name: name, parts: []string{name}, next: fn}
	}
	return nil
}

// setUp signs the wallets in (with stake and reputation through the dev
// endpoints), finds open jobs, seeded submissions and the deep page, all
// through the client.
func setUp(ctx context.Context, t *target, c config) (*fixtures, error) {
	f := &fixtures{commentsUsed: new(atomic.Int64), commentsMax: int64(commentsPerWallet * c.wallets)}
	cs, err := newClients(t.base, t.http, t.devSecret, nil)
	if err != nil {
		return nil, err
	}
	for range c.wallets {
		key, err := crypto.GenerateKey()
		if err != nil {
			return nil, err
		}
		w, err := client.New(t.base, client.WithHTTPClient(t.http), client.WithoutRetries(), client.WithSigner(client.NewKeySigner(key)))
		if err != nil {
			return nil, err
		}
		v, err := w.Login(ctx)
		if err != nil {
			return nil, fmt.Errorf("sign-in: %w", err)
		}
		f.tokens = append(f.tokens, v.AccessToken)
		if t.devSecret == "" {
			continue
		}
		if _, err := cs.anon.DevSetStake(ctx, client.DevSetStakeRequest{Address: w.Address(), StakedAmount: "1000"}); err != nil {
			return nil, fmt.Errorf("dev stake: %w", err)
		}
		if _, err := cs.anon.DevSetReputation(ctx, client.DevSetReputationRequest{Address: w.Address(), Score: 100}); err != nil {
			return nil, fmt.Errorf("dev reputation: %w", err)
		}
	}
	open := client.JobFilter{Status: "open", Page: client.Page{Limit: 200}}
	for range 10 {
		page, err := cs.anon.ListJobs(ctx, open)
		if err != nil {
			return nil, fmt.Errorf("list jobs: %w", err)
		}
		for _, j := range page.Jobs {
			f.jobs = append(f.jobs, j.ID)
		}
		if page.NextCursor == nil {
			break
		}
		open.Cursor = *page.NextCursor
	}
	if len(f.jobs) == 0 {
		return nil, errors.New("no open jobs to work on: seed some (-seed N)")
	}
	deep := client.JobFilter{Tag: seedTagAll, Page: client.Page{Limit: 20}}
	for f.deepReached = 1; f.deepReached < deepPages; f.deepReached++ {
		page, err := cs.anon.ListJobs(ctx, deep)
		if err != nil {
			return nil, fmt.Errorf("deep page: %w", err)
		}
		if page.NextCursor == nil {
			break
		}
		deep.Cursor = *page.NextCursor
	}
	f.deepCursor = deep.Cursor
	for _, job := range f.jobs[:min(len(f.jobs), 300)] {
		subs, _, err := cs.anon.ListJobSubmissions(ctx, job, client.Page{})
		if err != nil {
			return nil, fmt.Errorf("submissions: %w", err)
		}
		for _, s := range subs {
			f.pairs = append(f.pairs, votePair{job: job, submission: s.ID})
		}
	}
	return f, nil
}

// indexWait bounds the wait for the target's indexer (waitIndexed).
const indexWait = 10 * time.Minute

// waitIndexed waits until the search index answers job id (the newest of
// those the seed queued, so the last its indexer embeds) for its title.
func waitIndexed(ctx context.Context, c *client.Client, id string, out io.Writer) error {
	job, err := c.GetJob(ctx, id)
	if err != nil {
		return fmt.Errorf("search: %w", err)
	}
	start := time.Now()
	for {
		res, err := c.SemanticSearch(ctx, job.Title, "job", 50)
		if err != nil {
			return fmt.Errorf("search: %w", err)
		}
		for _, r := range res.Results {
			if r.ID == id {
				fmt.Fprintf(out, "search: the index answers the seeded jobs after %s\n", time.Since(start).Round(time.Second))
				return nil
			}
		}
		if time.Since(start) > indexWait {
			return fmt.Errorf("search: job %s is not in the index after %s", id, indexWait)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// share is one bounded drive: its share of the scenario's time and
// requests, and the scenario's request sequence (shared by its rounds).
type share struct {
	duration time.Duration
	requests int64
	seq      *atomic.Int64
}

// opKey is the context key of the operation a request belongs to.
type opKey struct{}

// headerOp carries the operation of a request to the ceiling, which
// answers it with the body recorded for that operation. opTransport sets it
// on every request, to the target and the ceiling alike, so both see the
// same client work.
const headerOp = "X-Load-Op"

// opTransport is the load tool's http.RoundTripper: next, with headerOp
// set from the request's context.
type opTransport struct{ next *http.Transport }

func (t opTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if op, ok := req.Context().Value(opKey{}).(string); ok {
		req = req.Clone(req.Context())
		req.Header.Set(headerOp, op)
	}
	return t.next.RoundTrip(req)
}

// CloseIdleConnections lets http.Client.CloseIdleConnections reach next.
func (t opTransport) CloseIdleConnections() { t.next.CloseIdleConnections() }

// drive sends sc's requests through cs on c.workers connections until the
// run's time or requests are used up. Every request is reported under its
// operation, or under label when it is set (the ceiling).
func drive(cs *clients, f *fixtures, c config, sc *scenario, r share, label string) *result {
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
				op := rq.op
				if label != "" {
					op = label
				}
				t0 := time.Now()
				err := rq.call(context.WithValue(context.Background(), opKey{}, rq.op), cs)
				res.record(op, time.Since(t0), err)
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

// answer is a recorded answer of one operation.
type answer struct {
	status      int
	contentType string
	body        []byte
}

// recorder is an http.RoundTripper that keeps the first successful answer
// of every operation.
type recorder struct {
	next    http.RoundTripper
	mu      sync.Mutex
	answers map[string]answer
}

func (rec *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := rec.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(res.Body)
	_ = res.Body.Close()
	if err != nil {
		return nil, err
	}
	res.Body = io.NopCloser(bytes.NewReader(body))
	op, _ := req.Context().Value(opKey{}).(string)
	if res.StatusCode/100 == 2 && op != "" {
		rec.mu.Lock()
		if _, ok := rec.answers[op]; !ok {
			rec.answers[op] = answer{status: res.StatusCode, contentType: res.Header.Get("Content-Type"), body: body}
		}
		rec.mu.Unlock()
	}
	return res, nil
}

// probe sends one request of each operation of sc (untimed, taking the
// next numbers of seq) and returns the answers, the ceiling's bodies.
func probe(t *target, f *fixtures, sc *scenario, seq *atomic.Int64) (map[string]answer, error) {
	rec := &recorder{next: t.http.Transport, answers: map[string]answer{}}
	cs, err := newClients(t.base, &http.Client{Timeout: t.http.Timeout, Transport: rec}, t.devSecret, f.tokens)
	if err != nil {
		return nil, err
	}
	for _, part := range sc.parts {
		if rq, ok := singles[part](f, seq.Add(1)-1); ok {
			_ = rq.call(context.WithValue(context.Background(), opKey{}, rq.op), cs) // a failure shows in the run
		}
	}
	return rec.answers, nil
}

// ceiling is the same client and net/http server stack answering, for
// each operation, a pre-encoded copy of the server's own answer: the most
// this machine can serve at this concurrency with the same client work
// (encoding, sending, reading and decoding), the denominator of every
// ratio.
type ceiling struct {
	srv   *http.Server
	http  *http.Client
	cs    *clients
	label string
}

// newCeiling serves the answers on loopback until close; an operation
// without one (its probe failed) gets {}.
func newCeiling(c config, f *fixtures, answers map[string]answer) (*ceiling, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	lengths := map[string]string{}
	lo, hi := math.MaxInt, 0
	for op, a := range answers {
		lengths[op] = strconv.Itoa(len(a.body))
		lo, hi = min(lo, len(a.body)), max(hi, len(a.body))
	}
	empty := answer{status: http.StatusOK, contentType: "application/json", body: []byte("{}")}
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		op := r.Header.Get(headerOp)
		a, ok := answers[op]
		length := lengths[op]
		if !ok {
			a, length = empty, "2"
		}
		h := w.Header()
		h.Set("Content-Type", a.contentType)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Length", length)
		w.WriteHeader(a.status)
		_, _ = w.Write(a.body)
	})}
	go func() { _ = srv.Serve(ln) }()
	hc := newHTTPClient(c)
	cs, err := newClients("http://"+ln.Addr().String(), hc, "", f.tokens)
	if err != nil {
		_ = srv.Close()
		return nil, err
	}
	label := fmt.Sprintf("ceiling: net/http, %d-byte body", hi)
	switch {
	case len(answers) == 0:
		label = "ceiling: net/http, 2-byte body"
	case len(answers) > 1:
		label = fmt.Sprintf("ceiling: net/http, %d bodies of %d-%d bytes", len(answers), lo, hi)
	}
	return &ceiling{srv: srv, http: hc, cs: cs, label: label}, nil
}

func (cl *ceiling) close() {
	_ = cl.srv.Close()
	cl.http.CloseIdleConnections()
}

// measure runs sc in c.rounds rounds, each a ceiling run then a scenario
// run of a share of -d and -n, so both see the same machine. The ceiling
// answers each operation with the body the server gave its probe.
func measure(t *target, f *fixtures, c config, sc *scenario) (ceil, res *result, err error) {
	var seq atomic.Int64
	res = newResult()
	run := func(part share) {
		before := t.cpu()
		res.add(drive(t.clients, f, c, sc, part, ""))
		after := t.cpu()
		res.cpu.host += after.host - before.host
		res.cpu.db += after.db - before.db
		res.cpu.writer += after.writer - before.writer
	}
	if !c.ceiling {
		run(share{duration: c.duration, requests: int64(c.maxRequests), seq: &seq})
		return nil, res, nil
	}
	answers, err := probe(t, f, sc, &seq)
	if err != nil {
		return nil, nil, err
	}
	cl, err := newCeiling(c, f, answers)
	if err != nil {
		return nil, nil, err
	}
	defer cl.close()
	ceil = newResult()
	cf := f.forCeiling()
	var cseq atomic.Int64
	for range c.rounds {
		part := share{duration: c.duration / time.Duration(c.rounds), requests: int64(c.maxRequests / c.rounds), seq: &cseq}
		ceil.add(drive(cl.cs, cf, c, sc, part, cl.label))
		part.seq = &seq
		run(part)
	}
	return ceil, res, nil
}

// firstLine shortens an error for the report.
func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
