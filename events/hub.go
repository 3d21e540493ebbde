package events

import (
	"context"
	"errors"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/openjury/openjury"
)

// Defaults of a Hub.
const (
	// DefaultHubPoll is how often a hub reads the log for events it was
	// not told of (sequenced by another replica).
	DefaultHubPoll = 100 * time.Millisecond
	// DefaultHubRing is how many recent events a hub keeps in memory.
	DefaultHubRing = 8192
	// DefaultHubBatch is the least time between two reads of the log by a
	// hub, however often it is poked: events that commit meanwhile go out
	// together, so each subscriber is woken (and writes) once for them
	// (with thousands of subscribers, waking them for every single event
	// costs more than the wait).
	DefaultHubBatch = 100 * time.Millisecond
	// hubRead bounds one read of the log by the hub.
	hubRead = 1000
	// catchUpPage bounds one catch-up read of a subscriber that is behind
	// the hub's memory.
	catchUpPage = 500
)

// HubConfig configures a Hub.
type HubConfig struct {
	// Frame renders an event as subscribers receive it (a Server-Sent
	// Events frame); it runs once per event, its bytes shared by every
	// subscriber. Required.
	Frame func(*Event) []byte
	// Poll is how often the hub reads the log when nobody pokes it (0:
	// DefaultHubPoll).
	Poll time.Duration
	// Ring is how many recent events the hub keeps (0: DefaultHubRing).
	Ring int
	// Batch is the least time between two reads of the log (0:
	// DefaultHubBatch; negative: none).
	Batch time.Duration
	// MaxSubscribers bounds the live subscriptions of the replica (0: no
	// bound).
	MaxSubscribers int
}

// Hub is a replica's fan-out of the log to its live subscribers (the
// event stream): one reader of the log per replica, however many
// subscribers. It keeps the latest events, each rendered once, in a ring;
// every subscriber takes what its filter selects from the ring, and a
// subscriber behind the ring (a resume from an older id) catches up by
// reading the log itself, a page at a time, until it reaches the ring.
// New events wake every waiting subscriber by closing one channel. With
// no subscriber the hub only follows the log's head: the ring starts
// again there, and nothing is read or rendered.
type Hub struct {
	svc *Service
	cfg HubConfig

	mu sync.RWMutex
	// ring holds the events numbered in (start, head], in order, as
	// items; at most cfg.Ring of them.
	ring        []hubItem
	start, head int64
	// ready is closed once the hub has read the log's head.
	ready chan struct{}
	// notify is closed (and replaced) when head moves.
	notify chan struct{}

	poke chan struct{}
	// stopped is closed by Stop: subscriptions end.
	stopped     chan struct{}
	stopOnce    sync.Once
	subscribers atomic.Int64
	// lastDelay is the delay between the newest event's CreatedAt and
	// the hub reading it, in nanoseconds (metrics).
	lastDelay atomic.Int64
}

// hubItem is an event with its rendered frame.
type hubItem struct {
	ev    *Event
	frame []byte
}

// NewHub returns a Hub reading svc's log; Run starts it.
func NewHub(svc *Service, cfg HubConfig) *Hub {
	if cfg.Poll <= 0 {
		cfg.Poll = DefaultHubPoll
	}
	if cfg.Ring <= 0 {
		cfg.Ring = DefaultHubRing
	}
	if cfg.Batch == 0 {
		cfg.Batch = DefaultHubBatch
	}
	return &Hub{svc: svc, cfg: cfg, ready: make(chan struct{}), notify: make(chan struct{}), poke: make(chan struct{}, 1),
		stopped: make(chan struct{})}
}

// Poke makes the hub read the log now (the replica's sequencer moved
// events). It never blocks.
func (h *Hub) Poke() {
	select {
	case h.poke <- struct{}{}:
	default:
	}
}

// ErrHubStopped is the error of Subscription.Next once the hub stopped.
var ErrHubStopped = errors.New("events: the hub stopped")

// Stop ends every subscription's Next with ErrHubStopped (a server
// shutting down ends its streams, which would otherwise never end).
func (h *Hub) Stop() { h.stopOnce.Do(func() { close(h.stopped) }) }

// Subscribers returns how many subscriptions are open.
func (h *Hub) Subscribers() int64 { return h.subscribers.Load() }

// Head returns the last position the hub has read.
func (h *Hub) Head() int64 {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.head
}

// Run reads the log until ctx ends: at start its head, then new events
// whenever poked and every Poll. A failed read is retried at the next
// tick.
func (h *Hub) Run(ctx context.Context) {
	t := time.NewTicker(h.cfg.Poll)
	defer t.Stop()
	for {
		began := time.Now()
		// A failed read is retried at the next tick; subscribers keep
		// what they have.
		_ = h.advance(ctx)
		if wait := h.cfg.Batch - time.Since(began); wait > 0 {
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-h.poke:
		}
	}
}

// advance reads the events after the hub's head into the ring.
func (h *Hub) advance(ctx context.Context) error {
	_, head, err := h.svc.Bounds(ctx)
	if err != nil {
		return err
	}
	h.mu.RLock()
	from := h.head
	started := isClosed(h.ready)
	h.mu.RUnlock()
	if !started {
		h.mu.Lock()
		h.start, h.head = head, head
		close(h.ready)
		h.mu.Unlock()
		return nil
	}
	if h.subscribers.Load() == 0 && head > from {
		// Nobody to fan out to: the ring starts again at the head, and the
		// log is not read. A subscriber that comes later from an older
		// position catches up from the log, as from behind a full ring.
		h.mu.Lock()
		h.ring, h.start, h.head = nil, head, head
		close(h.notify)
		h.notify = make(chan struct{})
		h.mu.Unlock()
		return nil
	}
	for from < head {
		evs, err := h.svc.Tail(ctx, from, head, hubRead)
		if err != nil {
			return err
		}
		to := head
		if len(evs) == hubRead {
			to = evs[len(evs)-1].Seq
		}
		items := make([]hubItem, len(evs))
		for i, e := range evs {
			items[i] = hubItem{ev: e, frame: h.cfg.Frame(e)}
		}
		if len(evs) > 0 {
			h.lastDelay.Store(int64(h.svc.clock.Now().Sub(evs[len(evs)-1].CreatedAt)))
		}
		h.mu.Lock()
		h.ring = append(h.ring, items...)
		if over := len(h.ring) - h.cfg.Ring; over > 0 {
			h.start = h.ring[over-1].ev.Seq
			h.ring = append(h.ring[:0:0], h.ring[over:]...)
		}
		h.head = to
		close(h.notify)
		h.notify = make(chan struct{})
		h.mu.Unlock()
		from = to
	}
	return nil
}

// isClosed reports whether c is closed.
func isClosed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// LastDelay is how old the newest event was when the hub read it.
func (h *Hub) LastDelay() time.Duration { return time.Duration(h.lastDelay.Load()) }

// Subscription is one live subscriber: its filter and how far it has
// read.
type Subscription struct {
	hub    *Hub
	filter Filter
	pos    int64
	closed bool
}

// ErrTooManySubscribers is the detail of the Unavailable answer of a
// Subscribe over HubConfig.MaxSubscribers.
const ErrTooManySubscribers = "too many event streams on this server; try again later"

// Subscribe opens a subscription to the events f selects after position
// after; a negative after starts at the hub's head (only new events). It
// waits for the hub to have read the log's head. Errors: Unavailable over
// MaxSubscribers, or when ctx ends first. Close it when done.
func (h *Hub) Subscribe(ctx context.Context, f Filter, after int64) (*Subscription, error) {
	const op = "events.Subscribe"
	select {
	case <-h.ready:
	case <-h.stopped:
		return nil, openjury.E(openjury.Unavailable, op, "the server is shutting down")
	case <-ctx.Done():
		return nil, openjury.E(openjury.Unavailable, op, "the event stream is starting; try again")
	}
	if n := h.subscribers.Add(1); h.cfg.MaxSubscribers > 0 && n > int64(h.cfg.MaxSubscribers) {
		h.subscribers.Add(-1)
		return nil, openjury.E(openjury.Unavailable, op, ErrTooManySubscribers)
	}
	if after < 0 {
		// From now: the log's head (the hub's may lag it by a poll; the
		// subscription then waits for the hub to get there).
		_, head, err := h.svc.Bounds(ctx)
		if err != nil {
			h.subscribers.Add(-1)
			return nil, openjury.Wrap(op, err)
		}
		after = max(head, h.Head())
	}
	return &Subscription{hub: h, filter: f, pos: after}, nil
}

// Close ends the subscription.
func (s *Subscription) Close() {
	if !s.closed {
		s.closed = true
		s.hub.subscribers.Add(-1)
	}
}

// Position returns the position the subscription has read up to: resume
// after it.
func (s *Subscription) Position() int64 { return s.pos }

// Next returns the frames of the next events the subscription selects,
// in order, at most max of them, waiting up to wait for some: an empty
// result means the wait ended (time for a heartbeat). Errors: ctx's end;
// Gone when the subscription fell behind the retention (its next events
// are no longer kept).
func (s *Subscription) Next(ctx context.Context, wait time.Duration, max int) ([][]byte, error) {
	h := s.hub
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		h.mu.RLock()
		start, notify := h.start, h.notify
		if s.pos >= start {
			frames := s.fromRing(max)
			h.mu.RUnlock()
			if len(frames) > 0 {
				return frames, nil
			}
		} else {
			h.mu.RUnlock()
			frames, moved, err := s.catchUp(ctx, start, max)
			if err != nil || len(frames) > 0 {
				return frames, err
			}
			if moved {
				continue
			}
		}
		select {
		case <-notify:
		case <-timer.C:
			return nil, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-h.stopped:
			return nil, ErrHubStopped
		}
	}
}

// fromRing takes up to max frames after s.pos that s selects from the
// ring (h.mu held for reading) and moves s.pos past what it looked at.
func (s *Subscription) fromRing(max int) [][]byte {
	h := s.hub
	i := sort.Search(len(h.ring), func(i int) bool { return h.ring[i].ev.Seq > s.pos })
	var frames [][]byte
	for ; i < len(h.ring); i++ {
		it := h.ring[i]
		if s.filter.Match(it.ev) {
			if len(frames) == max {
				s.pos = h.ring[i-1].ev.Seq
				return frames
			}
			frames = append(frames, it.frame)
		}
	}
	s.pos = max64(s.pos, h.head)
	return frames
}

func max64(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}

// catchUp reads the log after s.pos, up to the ring's start, with s's
// filter: a page of frames, and whether s.pos moved.
func (s *Subscription) catchUp(ctx context.Context, ringStart int64, max int) ([][]byte, bool, error) {
	h := s.hub
	horizon, _, err := h.svc.Bounds(ctx)
	if err != nil {
		return nil, false, err
	}
	if s.pos < horizon {
		return nil, false, gone("events.Subscription")
	}
	upto := min(ringStart, s.pos+h.svc.cfg.ScanWindow)
	evs, err := h.svc.Read(ctx, s.filter, s.pos, upto, min(max, catchUpPage))
	if err != nil {
		return nil, false, err
	}
	// Retention may have run meanwhile (see Service.Page).
	if horizon, _, err = h.svc.Bounds(ctx); err != nil {
		return nil, false, err
	} else if s.pos < horizon {
		return nil, false, gone("events.Subscription")
	}
	frames := make([][]byte, len(evs))
	for i, e := range evs {
		frames[i] = h.cfg.Frame(e)
	}
	before := s.pos
	if len(evs) == min(max, catchUpPage) {
		s.pos = evs[len(evs)-1].Seq
	} else {
		s.pos = upto
	}
	return frames, s.pos != before, nil
}
