package server

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/events/webhook"
	"github.com/openjury/openjury/internal/wait"
	"github.com/openjury/openjury/transport"
)

// Pace of the event machinery (docs/rules.md#events): a replica's own
// writes wake its sequencer at once; events written through other
// replicas are found within these polls.
const (
	// sequencePoll is how often a replica's sequencer looks at the outbox
	// when its own writes did not wake it.
	sequencePoll = 100 * time.Millisecond
	// sequenceGather is how long the sequencer waits after a busy pass
	// (one that moved at least sequenceBusy events) before it looks again:
	// under a stream of writes each pass then takes more events at once,
	// and the writes of the log (an event's index keys land on the pages
	// of the events before it with the same keys) are shared by more of
	// them. After a quieter pass the next runs as soon as a write wakes
	// it, so a replica that writes little adds no wait to its events.
	sequenceGather = 20 * time.Millisecond
	sequenceBusy   = 32
	// dispatchPoll is how often the webhook dispatcher looks for events
	// the replica's sequencer did not tell it of.
	dispatchPoll = 250 * time.Millisecond
	// deliverPoll is how often the deliverer looks for due deliveries
	// (retries come due on their own).
	deliverPoll = 500 * time.Millisecond
)

// eventParts are the pieces of the event log New wires and Start runs.
type eventParts struct {
	svc       *events.Service
	hub       *events.Hub
	webhooks  *events.Webhooks
	deliverer *events.Deliverer
	// dispatched wakes the deliverer after the dispatcher made
	// deliveries; sequenced wakes the dispatcher after the sequencer
	// moved events.
	dispatched, sequenced chan struct{}
	metrics               *eventMetrics
}

// eventMetrics are the event machinery's Prometheus collectors.
type eventMetrics struct {
	sequenced  prometheus.Counter
	deliveries *prometheus.CounterVec
	errors     *prometheus.CounterVec
}

// newEvents builds the event log's services: the log, the replica's
// fan-out, webhooks and their deliverer (resolver nil: the system's DNS).
func newEvents(cfg Config, db *bunstore.DB, clock openjury.Clock, resolver events.Resolver, render events.Renderer, reg prometheus.Registerer) (*eventParts, error) {
	if resolver == nil {
		resolver = net.DefaultResolver
	}
	svc := events.NewService(db.EventLog(), clock, events.Config{Retention: cfg.EventRetention})
	policy := events.URLPolicy{AllowPrivate: cfg.WebhookAllowPrivate, Resolver: resolver}
	p := &eventParts{
		svc:        svc,
		hub:        events.NewHub(svc, events.HubConfig{Frame: transport.EventFrame, MaxSubscribers: cfg.EventStreamsMax}),
		webhooks:   events.NewWebhooks(db.Webhooks(), svc, clock, events.WebhookConfig{Policy: policy}),
		dispatched: make(chan struct{}, 1),
		sequenced:  make(chan struct{}, 1),
	}
	m, err := newEventMetrics(reg, p.hub)
	if err != nil {
		return nil, err
	}
	p.metrics = m
	p.deliverer = events.NewDeliverer(db.Webhooks(), svc, clock, events.DelivererConfig{
		Sender:      webhook.New(webhook.Config{Policy: policy, MaxConnsPerHost: cfg.WebhookConcurrency}),
		Render:      render,
		Concurrency: cfg.WebhookConcurrency,
		Observe: func(a events.Attempt) {
			outcome := "delivered"
			switch {
			case a.OK:
			case a.Next != nil:
				outcome = "retry"
			default:
				outcome = "failed"
			}
			m.deliveries.WithLabelValues(outcome).Inc()
		},
	})
	return p, nil
}

func newEventMetrics(reg prometheus.Registerer, hub *events.Hub) (*eventMetrics, error) {
	m := &eventMetrics{
		sequenced: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "openjury_events_sequenced_total",
			Help: "Events this replica's sequencer moved from the outbox into the log.",
		}),
		deliveries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "openjury_webhook_attempts_total",
			Help: "Webhook delivery attempts of this replica by outcome: delivered, retry (failed, tried again later), failed (for good).",
		}, []string{"outcome"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "openjury_event_errors_total",
			Help: "Failed steps of the event machinery by part: sequencer, dispatcher, deliverer.",
		}, []string{"part"}),
	}
	subscribers := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "openjury_event_streams",
		Help: "Live event streams (GET /api/v1/events/stream) this replica serves.",
	}, func() float64 { return float64(hub.Subscribers()) })
	head := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "openjury_event_hub_head",
		Help: "The last event position this replica's fan-out has read.",
	}, func() float64 { return float64(hub.Head()) })
	for _, c := range []prometheus.Collector{m.sequenced, m.deliveries, m.errors, subscribers, head} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("event metrics: %w", err)
		}
	}
	return m, nil
}

// wake signals c without blocking.
func wake(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// start runs the event machinery until ctx ends: the fan-out, the
// sequencer (woken by this replica's writes), the webhook dispatcher and
// the deliverer.
func (p *eventParts) start(ctx context.Context, work interface{ Go(func()) }, appended <-chan struct{}, logger *slog.Logger) {
	work.Go(func() { p.hub.Run(ctx) })
	work.Go(func() {
		loop(ctx, sequencePoll, appended, func() {
			n, err := p.svc.Sequence(ctx)
			if err != nil && ctx.Err() == nil {
				p.metrics.errors.WithLabelValues("sequencer").Inc()
				logger.Warn("event sequencer failed", slog.String("error", err.Error()))
			}
			if n > 0 {
				p.metrics.sequenced.Add(float64(n))
				p.hub.Poke()
				wake(p.sequenced)
			}
			wait.For(ctx, gatherAfter(n), nil)
		})
	})
	work.Go(func() {
		loop(ctx, dispatchPoll, p.sequenced, func() {
			n, err := p.deliverer.Dispatch(ctx)
			if err != nil && ctx.Err() == nil {
				p.metrics.errors.WithLabelValues("dispatcher").Inc()
				logger.Warn("webhook dispatcher failed", slog.String("error", err.Error()))
			}
			if n > 0 {
				wake(p.dispatched)
			}
		})
	})
	work.Go(func() {
		p.deliverer.Run(ctx, deliverPoll, p.dispatched, func(err error) {
			p.metrics.errors.WithLabelValues("deliverer").Inc()
			logger.Warn("webhook deliverer failed", slog.String("error", err.Error()))
		})
	})
}

// gatherAfter is how long the sequencer waits after a pass that moved n
// events before it looks again (sequenceGather).
func gatherAfter(n int) time.Duration {
	if n >= sequenceBusy {
		return sequenceGather
	}
	return 0
}

// loop calls step at once, then whenever woken or every poll, until ctx
// ends.
func loop(ctx context.Context, poll time.Duration, woken <-chan struct{}, step func()) {
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		step()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-woken:
		}
	}
}
