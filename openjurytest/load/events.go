package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/openjury/openjury/client"
)

// The events scenario (-scenarios events) measures the event log's
// delivery (docs/rules.md#events):
//
//  1. -sse live streams (GET /api/v1/events/stream?type=job.created,
//     submission.created) are opened on the target, each its own
//     connection, -sse-connect at a time; the target's resident memory and
//     goroutines are read from its /metrics before and after, for the
//     memory one stream costs.
//  2. For -d, -event-rate writes a second (new jobs, and submissions to
//     them) go through the API while every stream reads; each stream of a
//     sample (1 in -sse-sample) times every job.created it gets against
//     the moment the write that made it was answered (its commit): the
//     p50/p99/max delay from commit to delivery, and how many events each
//     stream got (every stream must get every event).
//  3. -webhooks webhooks on a receiver in this process (the target needs
//     SERVICE_WEBHOOK_ALLOW_PRIVATE=1, set for the targets the tool starts)
//     get -webhook-events new posts as fast as the writers make them: the
//     deliveries a second from the first write to the last delivery.
const eventsScenario = "events"

// eventsConnectTimeout bounds opening every stream.
const eventsConnectTimeout = 5 * time.Minute

// subscriber is one live stream of the scenario.
type subscriber struct {
	got    atomic.Int64
	sample bool
}

// eventsRun is the state the streams and the writers share.
type eventsRun struct {
	// acked maps a job id to when its creation was answered.
	acked sync.Map
	mu    sync.Mutex
	delay []time.Duration
	// firstErr is the first stream failure.
	errs     atomic.Int64
	firstErr atomic.Value
}

func (r *eventsRun) fail(err error) {
	if r.errs.Add(1) == 1 {
		r.firstErr.Store(err.Error())
	}
}

// runEvents runs the events scenario on the target.
func runEvents(ctx context.Context, t *target, fix *fixtures, c config, out io.Writer) error {
	if len(t.clients.wallets) == 0 {
		return errors.New("events: no signed-in wallets (-wallets)")
	}
	streams := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: -1, DisableCompression: true}}
	defer streams.CloseIdleConnections()
	before, err := targetMemory(ctx, t)
	if err != nil {
		return err
	}
	run := &eventsRun{}
	subs := make([]*subscriber, c.sse)
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	var readers sync.WaitGroup
	began := time.Now()
	sem := make(chan struct{}, c.sseConnect)
	var opened atomic.Int64
	connectErr := make(chan error, 1)
	var connecting sync.WaitGroup
	for i := range subs {
		subs[i] = &subscriber{sample: i%c.sseSample == 0}
		sem <- struct{}{}
		connecting.Add(1)
		go func() {
			defer connecting.Done()
			body, err := openStream(sctx, streams, t.base)
			<-sem
			if err != nil {
				select {
				case connectErr <- fmt.Errorf("events: stream %d: %w", i, err):
				default:
				}
				return
			}
			opened.Add(1)
			readers.Go(func() { readStream(body, subs[i], run) })
		}()
	}
	connecting.Wait()
	select {
	case err := <-connectErr:
		return err
	default:
	}
	connectTook := time.Since(began)
	time.Sleep(2 * time.Second) // let the target settle before reading its memory
	after, err := targetMemory(ctx, t)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "events: %d streams open in %s (%d connections a time)\n", opened.Load(), connectTook.Round(time.Millisecond), c.sseConnect)
	per := func(a, b int64) string { return fmt.Sprintf("%.1f KiB", float64(a-b)/float64(c.sse)/1024) }
	fmt.Fprintf(out, "events: target memory per stream: RSS %s, Go heap in use %s, %.1f goroutines (%s)\n",
		per(after.rss, before.rss), per(after.heap, before.heap), float64(after.goroutines-before.goroutines)/float64(c.sse), t.rssOf)

	// Writes while every stream reads.
	jobs, subsMade, writeErrs := writeEvents(sctx, t, fix, c, run)
	time.Sleep(2 * time.Second) // the last events reach the streams
	var got []int64
	for _, s := range subs {
		got = append(got, s.got.Load())
	}
	slices.Sort(got)
	run.mu.Lock()
	delays := slices.Clone(run.delay)
	run.mu.Unlock()
	slices.Sort(delays)
	want := int64(jobs + subsMade)
	fmt.Fprintf(out, "events: %d jobs and %d submissions written in %s (%d write errors): each stream got %d..%d of %d events; %d stream errors%s\n",
		jobs, subsMade, c.duration, writeErrs, got[0], got[len(got)-1], want, run.errs.Load(), firstErrOf(run))
	if len(delays) > 0 {
		fmt.Fprintf(out, "events: commit -> delivery over %d deliveries (%d sampled streams): p50 %s, p99 %s, max %s\n",
			len(delays), (c.sse+c.sseSample-1)/c.sseSample, pct(delays, 50), pct(delays, 99), delays[len(delays)-1].Round(time.Millisecond))
	}
	stop()
	streams.CloseIdleConnections()
	readers.Wait()
	if c.webhooks > 0 {
		return runWebhooks(ctx, t, c, out)
	}
	return nil
}

func firstErrOf(r *eventsRun) string {
	if s, ok := r.firstErr.Load().(string); ok {
		return " (first: " + s + ")"
	}
	return ""
}

// openStream opens one stream and waits for its preamble (subscribed).
func openStream(ctx context.Context, hc *http.Client, base string) (*bufio.Reader, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/api/v1/events/stream?type=job.created,submission.created", nil)
	if err != nil {
		return nil, err
	}
	res, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(res.Body, 512))
		_ = res.Body.Close()
		return nil, fmt.Errorf("status %d: %s", res.StatusCode, b)
	}
	br := bufio.NewReaderSize(res.Body, 4096)
	for {
		line, err := br.ReadSlice('\n')
		if err != nil {
			return nil, err
		}
		if len(line) == 1 { // the blank line that ends the preamble
			return br, nil
		}
	}
}

// readStream reads a stream until it ends, counting its events; a sampled
// stream times each job.created against its write's answer.
func readStream(br *bufio.Reader, s *subscriber, run *eventsRun) {
	jobCreated := []byte("event: job.created")
	isJob := false
	for {
		line, err := br.ReadSlice('\n')
		if err != nil {
			if !errors.Is(err, context.Canceled) && !strings.Contains(err.Error(), "canceled") && !errors.Is(err, io.EOF) {
				run.fail(err)
			}
			return
		}
		switch {
		case bytes.HasPrefix(line, []byte("event: ")):
			isJob = bytes.HasPrefix(line, jobCreated)
		case bytes.HasPrefix(line, []byte("data: ")):
			s.got.Add(1)
			if s.sample && isJob {
				at := time.Now()
				if id := jsonField(line, "job_id"); id != "" {
					if acked, ok := run.acked.Load(id); ok {
						run.mu.Lock()
						run.delay = append(run.delay, max(0, at.Sub(acked.(time.Time))))
						run.mu.Unlock()
					}
				}
			}
		}
	}
}

// jsonField returns the string value of the first "name":"..." in b.
func jsonField(b []byte, name string) string {
	key := []byte(`"` + name + `":"`)
	i := bytes.Index(b, key)
	if i < 0 {
		return ""
	}
	rest := b[i+len(key):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 {
		return ""
	}
	return string(rest[:j])
}

// writeEvents writes jobs and, to each, a submission by another wallet,
// at c.eventRate writes a second for c.duration, and records when each
// job's creation was answered. It returns how many jobs and submissions
// it made and how many writes failed.
func writeEvents(ctx context.Context, t *target, fix *fixtures, c config, run *eventsRun) (jobs, subs, errs int) {
	tick := time.NewTicker(time.Second / time.Duration(c.eventRate))
	defer tick.Stop()
	end := time.After(c.duration)
	var mu sync.Mutex
	var wg sync.WaitGroup
	defer wg.Wait()
	ws := t.clients.wallets
	for n := 0; ; n++ {
		select {
		case <-end:
			wg.Wait()
			return jobs, subs, errs
		case <-tick.C:
		}
		sponsor := ws[n%len(ws)]
		wg.Go(func() {
			if n%2 == 0 {
				j, err := sponsor.CreateJob(ctx, client.CreateJobRequest{Title: "Evented job " + strconv.Itoa(n), Prompt: "p", BountyUSDC: "1"})
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					errs++
					return
				}
				run.acked.Store(j.ID, time.Now())
				jobs++
				return
			}
			job := fix.jobs[(n/2)%len(fix.jobs)]
			worker := ws[(n/2+1)%len(ws)]
			_, err := worker.CreateSubmission(ctx, client.CreateSubmissionRequest{JobID: job, Content: submitContent})
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs++
				return
			}
			subs++
		})
	}
}

// targetMemory is what the target's /metrics says of its memory.
type targetMem struct{ rss, heap, goroutines int64 }

func targetMemory(ctx context.Context, t *target) (targetMem, error) {
	b, err := t.clients.anon.GetMetrics(ctx)
	if err != nil {
		return targetMem{}, fmt.Errorf("events: metrics: %w", err)
	}
	var m targetMem
	for line := range strings.Lines(string(b)) {
		name, value, ok := strings.Cut(strings.TrimSpace(line), " ")
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			continue
		}
		switch name {
		case "process_resident_memory_bytes":
			m.rss = int64(v)
		case "go_memstats_heap_inuse_bytes":
			m.heap = int64(v)
		case "go_goroutines":
			m.goroutines = int64(v)
		}
	}
	return m, nil
}

// runWebhooks registers c.webhooks webhooks on a receiver of this process
// and measures the deliveries a second of c.webhookEvents new posts.
func runWebhooks(ctx context.Context, t *target, c config, out io.Writer) error {
	var received atomic.Int64
	var last atomic.Int64
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		received.Add(1)
		last.Store(time.Now().UnixNano())
		w.WriteHeader(http.StatusNoContent)
	}))
	defer recv.Close()
	owner := t.clients.wallets[0]
	for i := range c.webhooks {
		if _, err := owner.CreateWebhook(ctx, client.CreateWebhookRequest{URL: recv.URL + "/hook/" + strconv.Itoa(i), Types: []string{"post.created"}}); err != nil {
			return fmt.Errorf("events: create webhook: %w", err)
		}
	}
	want := int64(c.webhooks * c.webhookEvents)
	start := time.Now()
	var wg sync.WaitGroup
	sem := make(chan struct{}, c.workers)
	var writeErrs atomic.Int64
	for i := range c.webhookEvents {
		sem <- struct{}{}
		w := t.clients.wallets[i%len(t.clients.wallets)]
		wg.Go(func() {
			defer func() { <-sem }()
			if _, err := w.CreatePost(ctx, client.CreatePostRequest{Title: "Hooked " + strconv.Itoa(i), Content: commentContent}); err != nil {
				writeErrs.Add(1)
			}
		})
	}
	wg.Wait()
	written := time.Since(start)
	deadline := time.Now().Add(5 * time.Minute)
	for received.Load() < want-int64(c.webhooks)*writeErrs.Load() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	took := time.Duration(last.Load() - start.UnixNano())
	fmt.Fprintf(out, "events: webhooks: %d posts to %d webhooks written in %s (%d errors): %d of %d deliveries in %s: %.0f deliveries/s\n",
		c.webhookEvents, c.webhooks, written.Round(time.Millisecond), writeErrs.Load(), received.Load(), want,
		took.Round(time.Millisecond), float64(received.Load())/took.Seconds())
	return nil
}
