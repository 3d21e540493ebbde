package events

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/internal/whsig"
)

// Defaults of a Deliverer.
const (
	// DefaultConcurrency is how many deliveries a replica sends at once.
	DefaultConcurrency = 16
	// DeliveryLease is how long a claimed delivery is a worker's: longer
	// than an attempt can take, so only a crashed worker's claims expire.
	DeliveryLease = 2 * time.Minute
	// dispatchBatch bounds the events one dispatcher step reads.
	dispatchBatch = 500
	// expireDeliveriesBatch bounds one step of the deliveries' cleanup.
	expireDeliveriesBatch = 1000
)

// Request is one HTTP POST of a delivery.
type Request struct {
	URL    string
	Header map[string]string
	Body   []byte
}

// Sender posts a delivery and returns the receiver's HTTP status, or an
// error when it got none (refused address, connection, timeout). It
// checks the address it connects to against the URL policy (DNS may have
// changed since the webhook was registered) and reads at most a small
// part of the answer.
type Sender interface {
	Send(ctx context.Context, r Request) (status int, err error)
}

// Renderer renders a delivery's body and its content type: for a webhook
// the event as the API serves it, for an A2A push config the task of the
// config.
type Renderer func(ctx context.Context, w *Webhook, e *Event) (body []byte, contentType string, err error)

// DelivererConfig configures a Deliverer.
type DelivererConfig struct {
	// Sender posts deliveries. Required.
	Sender Sender
	// Render renders bodies. Required.
	Render Renderer
	// Concurrency bounds the deliveries sent at once (0:
	// DefaultConcurrency).
	Concurrency int
	// Jitter spreads a retry delay (nil: uniformly within +-20%).
	Jitter func(time.Duration) time.Duration
	// Observe, when set, is told of every attempt once it is recorded
	// (metrics).
	Observe func(Attempt)
}

// Deliverer turns sequenced events into deliveries (Dispatch) and sends
// due deliveries (Deliver), with the retry schedule and the rule that
// disables an endpoint failing for DisableAfter. Both are safe to run on
// every replica at once: the dispatcher's turn and the deliveries' leases
// are the database's.
type Deliverer struct {
	store WebhookStore
	log   *Service
	clock openjury.Clock
	cfg   DelivererConfig
}

// NewDeliverer returns a Deliverer.
func NewDeliverer(store WebhookStore, log *Service, clock openjury.Clock, cfg DelivererConfig) *Deliverer {
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = DefaultConcurrency
	}
	if cfg.Jitter == nil {
		cfg.Jitter = func(d time.Duration) time.Duration {
			return d + time.Duration((rand.Float64()*0.4-0.2)*float64(d))
		}
	}
	return &Deliverer{store: store, log: log, clock: clock, cfg: cfg}
}

// Plan returns the deliveries of evs to hooks: one per event and endpoint
// that Wants it, due at now.
func Plan(evs []*Event, hooks []*Webhook, now time.Time) []*Delivery {
	var out []*Delivery
	for _, e := range evs {
		for _, w := range hooks {
			if w.DisabledAt == nil && w.Wants(e) {
				out = append(out, &Delivery{ID: openjury.NewID(), WebhookID: w.ID, EventSeq: e.Seq, EventType: e.Type,
					Status: DeliveryPending, NextAttemptAt: &now, CreatedAt: now})
			}
		}
	}
	return out
}

// Dispatch turns the events sequenced since the last step into
// deliveries, until it has caught up, and returns how many events it
// read.
func (d *Deliverer) Dispatch(ctx context.Context) (int, error) {
	total := 0
	for {
		now := openjury.Truncate(d.clock.Now())
		n, err := d.store.Dispatch(ctx, dispatchBatch, func(evs []*Event, hooks []*Webhook) []*Delivery {
			return Plan(evs, hooks, now)
		})
		total += n
		if err != nil || n < dispatchBatch {
			return total, openjury.Wrap("events.Dispatch", err)
		}
	}
}

// FlushDispatch runs the dispatcher until it has caught up with the log,
// waiting out another replica's step; tests and tools use it.
func (d *Deliverer) FlushDispatch(ctx context.Context) error {
	for {
		if _, err := d.Dispatch(ctx); err != nil {
			return err
		}
		behind, err := d.store.DispatchBehind(ctx)
		if err != nil || !behind {
			return openjury.Wrap("events.FlushDispatch", err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(2 * time.Millisecond):
		}
	}
}

// Deliver claims the due deliveries (up to the concurrency), sends them
// at once and records each attempt; it returns how many it sent.
func (d *Deliverer) Deliver(ctx context.Context) (int, error) {
	claims, err := d.store.ClaimDeliveries(ctx, openjury.Truncate(d.clock.Now()), DeliveryLease, d.cfg.Concurrency)
	if err != nil {
		return 0, openjury.Wrap("events.Deliver", err)
	}
	return d.sendAll(ctx, claims)
}

// sendAll sends claims at once and records each attempt.
func (d *Deliverer) sendAll(ctx context.Context, claims []Claim) (int, error) {
	var wg sync.WaitGroup
	errs := make([]error, len(claims))
	for i := range claims {
		wg.Go(func() { errs[i] = d.attempt(ctx, claims[i]) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return len(claims), openjury.Wrap("events.Deliver", err)
		}
	}
	return len(claims), nil
}

// Run sends due deliveries until ctx ends, keeping up to the concurrency
// in flight: it claims as many as there are free slots whenever a slot
// frees, wake is signalled (new deliveries were dispatched) or poll
// passes. onError is told of failed claims and records (nil: ignored).
func (d *Deliverer) Run(ctx context.Context, poll time.Duration, wake <-chan struct{}, onError func(error)) {
	slots := make(chan struct{}, d.cfg.Concurrency)
	freed := make(chan struct{}, 1)
	var wg sync.WaitGroup
	defer wg.Wait()
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		free := d.cfg.Concurrency - len(slots)
		var claims []Claim
		if free > 0 {
			var err error
			claims, err = d.store.ClaimDeliveries(ctx, openjury.Truncate(d.clock.Now()), DeliveryLease, free)
			if err != nil && ctx.Err() == nil && onError != nil {
				onError(err)
			}
			for _, c := range claims {
				slots <- struct{}{}
				wg.Go(func() {
					defer func() {
						<-slots
						select {
						case freed <- struct{}{}:
						default:
						}
					}()
					if err := d.attempt(ctx, c); err != nil && onError != nil {
						onError(err)
					}
				})
			}
		}
		if free > 0 && len(claims) == free {
			continue // more may be due: fill the slots as they free
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-wake:
		case <-freed:
		}
	}
}

// attempt sends one claimed delivery and records the outcome.
func (d *Deliverer) attempt(ctx context.Context, c Claim) error {
	a := Attempt{DeliveryID: c.Delivery.ID, WebhookID: c.Webhook.ID, DisableAfter: DisableAfter}
	status, err := d.send(ctx, c)
	a.At = openjury.Truncate(d.clock.Now())
	a.Status = status
	switch {
	case err != nil:
		a.Error = err.Error()
	case status < 200 || status > 299:
		a.Error = "HTTP " + strconv.Itoa(status)
	default:
		a.OK = true
	}
	if !a.OK {
		if n := c.Delivery.Attempts + 1; n <= len(Retries) && c.Event != nil {
			next := a.At.Add(d.cfg.Jitter(Retries[n-1]))
			a.Next = &next
		}
		a.DisableReason = fmt.Sprintf("every delivery failed for %s; last: %s", DisableAfter, a.Error)
	}
	if err := d.store.RecordAttempt(context.WithoutCancel(ctx), a); err != nil {
		return err
	}
	if d.cfg.Observe != nil {
		d.cfg.Observe(a)
	}
	return nil
}

// send renders, signs and posts a claimed delivery.
func (d *Deliverer) send(ctx context.Context, c Claim) (int, error) {
	if c.Event == nil {
		return 0, fmt.Errorf("the event is no longer kept (retention)")
	}
	body, contentType, err := d.cfg.Render(ctx, c.Webhook, c.Event)
	if err != nil {
		return 0, fmt.Errorf("rendering the delivery: %w", err)
	}
	now := d.clock.Now()
	h := map[string]string{"Content-Type": contentType, "User-Agent": "OpenJury-Webhooks/1"}
	if p := c.Webhook.Push; p != nil {
		if p.Token != "" {
			h["X-A2A-Notification-Token"] = p.Token
		}
		if p.AuthScheme != "" && p.Credentials != "" {
			h["Authorization"] = p.AuthScheme + " " + p.Credentials
		}
	} else {
		id := c.Event.ID()
		sig, err := whsig.SignatureHeader(c.Webhook.Secrets(now), id, now, body)
		if err != nil {
			return 0, fmt.Errorf("signing: %w", err)
		}
		h[whsig.HeaderID], h[whsig.HeaderTimestamp], h[whsig.HeaderSignature] = id, strconv.FormatInt(now.Unix(), 10), sig
	}
	sctx, cancel := context.WithTimeout(ctx, DeliveryTimeout)
	defer cancel()
	return d.cfg.Sender.Send(sctx, Request{URL: c.Webhook.URL, Header: h, Body: body})
}

// Cleanup deletes finished deliveries older than the event retention, a
// batch at a time, and returns how many went.
func (d *Deliverer) Cleanup(ctx context.Context) (int64, error) {
	before := d.clock.Now().Add(-d.log.cfg.Retention)
	var total int64
	for {
		n, err := d.store.ExpireDeliveries(ctx, before, expireDeliveriesBatch)
		total += n
		if err != nil || n < expireDeliveriesBatch {
			return total, openjury.Wrap("events.CleanupDeliveries", err)
		}
	}
}
