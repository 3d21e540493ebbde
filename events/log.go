package events

import (
	"context"
	"strings"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/internal/valid"
)

// Limits and defaults of the event log (docs/rules.md#events).
const (
	// DefaultListLimit and MaxListLimit bound a page of GET /api/v1/events.
	DefaultListLimit = 100
	MaxListLimit     = 500
	// DefaultRetention is how long events are kept
	// (SERVICE_EVENT_RETENTION_HOURS).
	DefaultRetention = 168 * time.Hour
	// DefaultScanWindow bounds the positions one read of a filtered page
	// looks through: a page that finds fewer events than its limit within
	// it ends there, with a cursor after the window, so a rare filter
	// costs bounded work per page.
	DefaultScanWindow = 50_000
	// SequenceBatch is how many events one sequencer pass moves at most.
	SequenceBatch = 500
	// expireBatch is how many events one retention step deletes at most.
	expireBatch = 1000
)

// Outbox is where a state change writes its events: inside its own
// transaction, so an event exists exactly when its change committed.
type Outbox interface {
	// Append adds events to the outbox. Their Seq stays 0.
	Append(ctx context.Context, evs ...*Event) error
	// CancelTimers deletes the events of the job, of the given types,
	// still waiting in the outbox with a CreatedAt after now: timers a
	// change made pointless (a job closed before its reveal window
	// opened).
	CancelTimers(ctx context.Context, jobID string, types []Type, now time.Time) error
}

// Log is the sequenced event log.
type Log interface {
	// Sequence runs one pass of the sequencer at now: in one transaction
	// it takes up to limit events that have committed to the outbox and
	// whose CreatedAt is at or before now, in the order they were
	// written, completes those of a job (Complete, from the job's row),
	// numbers them after the last number given and moves them into the
	// log with their index keys (Keys). It returns how many it moved: 0
	// when none was waiting, or when another pass (of another replica)
	// is running, which it does not wait for.
	Sequence(ctx context.Context, now time.Time, limit int) (int, error)
	// Waiting reports whether the outbox holds committed events due at
	// now (what Sequence would move).
	Waiting(ctx context.Context, now time.Time) (bool, error)
	// Bounds returns the horizon (the number of the last event retention
	// deleted; events after it are kept) and the head (the last number
	// given); 0 and 0 for a new log.
	Bounds(ctx context.Context) (horizon, head int64, err error)
	// Read returns the events numbered in (after, upto] that f selects,
	// in order, at most limit of them.
	Read(ctx context.Context, f Filter, after, upto int64, limit int) ([]*Event, error)
	// Tail returns the events numbered in (after, upto], those with an
	// audience included, in order, at most limit of them: what the
	// fan-out and the webhook dispatcher deliver, each to whom it may.
	Tail(ctx context.Context, after, upto int64, limit int) ([]*Event, error)
	// Expire deletes, oldest first, up to limit events created before
	// `before`, stopping at the first one that is not, with their index
	// keys, and moves the horizon to the last one deleted, in one
	// transaction. It returns how many it deleted.
	Expire(ctx context.Context, before time.Time, limit int) (int64, error)
}

// Config holds the event log's settings.
type Config struct {
	// Retention is how long events are kept (0: DefaultRetention).
	Retention time.Duration
	// ScanWindow is the DefaultScanWindow of reads (0: the default).
	ScanWindow int64
}

// Service reads the log, runs the sequencer and expires old events.
type Service struct {
	log   Log
	clock openjury.Clock
	cfg   Config
}

// NewService returns a Service over log.
func NewService(log Log, clock openjury.Clock, cfg Config) *Service {
	if cfg.Retention <= 0 {
		cfg.Retention = DefaultRetention
	}
	if cfg.ScanWindow <= 0 {
		cfg.ScanWindow = DefaultScanWindow
	}
	return &Service{log: log, clock: clock, cfg: cfg}
}

// Config returns the service's settings.
func (s *Service) Config() Config { return s.cfg }

// FilterInput is a filter as a request gives it: comma-separated types,
// a job id, an address and a tag, each optional.
type FilterInput struct {
	Types   string
	JobID   string
	Address string
	Tag     string
}

// ParseFilter checks a filter's input. Errors: Invalid naming the field
// (type, job_id, address, tag).
func ParseFilter(op string, in FilterInput) (Filter, error) {
	var f Filter
	for _, field := range [][2]string{{"type", in.Types}, {"job_id", in.JobID}, {"address", in.Address}, {"tag", in.Tag}} {
		if err := valid.Text(op, field[0], field[1]); err != nil {
			return Filter{}, err
		}
	}
	if in.Types != "" {
		for t := range strings.SplitSeq(in.Types, ",") {
			t = strings.TrimSpace(t)
			if !Known(Type(t)) {
				return Filter{}, openjury.Errorf(openjury.Invalid, op, "type: unknown event type %q", t)
			}
			f.Types = append(f.Types, Type(t))
		}
	}
	if in.JobID != "" {
		if !openjury.ValidID(in.JobID) {
			return Filter{}, openjury.E(openjury.Invalid, op, "job_id: must be a job id")
		}
		f.JobID = in.JobID
	}
	if in.Address != "" {
		a, err := openjury.ParseAddress("address", in.Address)
		if err != nil {
			return Filter{}, openjury.Wrap(op, err)
		}
		f.Address = a
	}
	if tag := strings.ToLower(strings.TrimSpace(in.Tag)); tag != "" {
		if len([]rune(tag)) > MaxTagChars {
			return Filter{}, openjury.Errorf(openjury.Invalid, op, "tag: must be at most %d characters", MaxTagChars)
		}
		f.Tag = tag
	}
	return f, nil
}

// MaxTagChars bounds a tag filter (the longest tag a job or post can
// carry).
const MaxTagChars = 32

// ListInput selects a page of the log.
type ListInput struct {
	// After is an event id (or a page's NextCursor): the page starts after
	// it. Empty starts at the oldest event kept.
	After string
	// Limit is the page size: 0 means DefaultListLimit, else
	// 1..MaxListLimit.
	Limit int
	// Filter selects the events.
	Filter FilterInput
}

// Page is one page of the log.
type Page struct {
	// Events are in delivery order.
	Events []*Event
	// NextCursor is the id to pass as After for the next page: after the
	// last event of this page when it is full, else after everything this
	// page looked through (up to the head, or the end of its scan window).
	// An empty page with a NextCursor means the reader is up to date (or,
	// with a filter, that the window held nothing for it).
	NextCursor string
}

// List returns a page of the log. Errors: Invalid (limit, after,
// filter), Gone when after is older than the retention kept.
func (s *Service) List(ctx context.Context, in ListInput) (Page, error) {
	const op = "events.List"
	limit, err := valid.Limit(op, in.Limit, DefaultListLimit, MaxListLimit)
	if err != nil {
		return Page{}, err
	}
	f, err := ParseFilter(op, in.Filter)
	if err != nil {
		return Page{}, err
	}
	var after int64 = -1
	if in.After != "" {
		if after, err = ParseID("after", in.After); err != nil {
			return Page{}, err
		}
	}
	return s.Page(ctx, f, after, limit)
}

// Page returns up to limit events f selects after position after (-1:
// from the oldest event kept). Errors: Gone when after is older than the
// retention kept.
func (s *Service) Page(ctx context.Context, f Filter, after int64, limit int) (Page, error) {
	const op = "events.Page"
	horizon, head, err := s.log.Bounds(ctx)
	if err != nil {
		return Page{}, openjury.Wrap(op, err)
	}
	if after < 0 {
		after = horizon
	}
	if after < horizon {
		return Page{}, gone(op)
	}
	upto := min(head, after+s.cfg.ScanWindow)
	var evs []*Event
	if upto > after {
		if evs, err = s.log.Read(ctx, f, after, upto, limit); err != nil {
			return Page{}, openjury.Wrap(op, err)
		}
		// Retention may have run while the page was read: had it deleted
		// events of the page, its horizon has moved past after.
		if h, _, err := s.log.Bounds(ctx); err != nil {
			return Page{}, openjury.Wrap(op, err)
		} else if after < h {
			return Page{}, gone(op)
		}
	}
	next := max(upto, after)
	if len(evs) == limit {
		next = evs[len(evs)-1].Seq
	}
	return Page{Events: evs, NextCursor: FormatID(next)}, nil
}

// gone is the error of a resume point older than the retention kept.
func gone(op string) error {
	return openjury.E(openjury.Gone, op, "after: the events after this id are no longer kept (retention); start again without after")
}

// StreamStart returns where a live stream starts: after the event id
// `after` when given (Errors: Invalid, Gone as List), else at the head.
func (s *Service) StreamStart(ctx context.Context, after string) (int64, error) {
	const op = "events.StreamStart"
	horizon, head, err := s.log.Bounds(ctx)
	if err != nil {
		return 0, openjury.Wrap(op, err)
	}
	if after == "" {
		return head, nil
	}
	pos, err := ParseID("after", after)
	if err != nil {
		return 0, err
	}
	if pos < horizon {
		return 0, gone(op)
	}
	return pos, nil
}

// Sequence runs sequencer passes until one moves less than a full batch,
// and returns how many events they moved in all.
func (s *Service) Sequence(ctx context.Context) (int, error) {
	total := 0
	for {
		n, err := s.log.Sequence(ctx, openjury.Truncate(s.clock.Now()), SequenceBatch)
		total += n
		if err != nil || n < SequenceBatch {
			return total, openjury.Wrap("events.Sequence", err)
		}
	}
}

// Flush runs the sequencer until no committed event due now waits in the
// outbox, waiting out another replica's pass; tests and tools use it to
// read the log at once.
func (s *Service) Flush(ctx context.Context) error {
	for {
		if _, err := s.Sequence(ctx); err != nil {
			return err
		}
		waiting, err := s.log.Waiting(ctx, openjury.Truncate(s.clock.Now()))
		if err != nil || !waiting {
			return openjury.Wrap("events.Flush", err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(2 * time.Millisecond):
		}
	}
}

// Cleanup deletes the events older than the retention, a batch at a time
// (each step an index range of the oldest events), and returns how many
// went.
func (s *Service) Cleanup(ctx context.Context) (int64, error) {
	before := s.clock.Now().Add(-s.cfg.Retention)
	var total int64
	for {
		n, err := s.log.Expire(ctx, before, expireBatch)
		total += n
		if err != nil || n < expireBatch {
			return total, openjury.Wrap("events.Cleanup", err)
		}
	}
}

// Bounds returns the log's horizon and head (see Log.Bounds).
func (s *Service) Bounds(ctx context.Context) (horizon, head int64, err error) {
	horizon, head, err = s.log.Bounds(ctx)
	return horizon, head, openjury.Wrap("events.Bounds", err)
}

// Tail returns up to limit events after position after, up to upto,
// audience or not (see Log.Tail).
func (s *Service) Tail(ctx context.Context, after, upto int64, limit int) ([]*Event, error) {
	evs, err := s.log.Tail(ctx, after, upto, limit)
	return evs, openjury.Wrap("events.Tail", err)
}

// Read returns up to limit events after position after, up to upto, that f
// selects (see Log.Read): the fan-out's catch-up reads.
func (s *Service) Read(ctx context.Context, f Filter, after, upto int64, limit int) ([]*Event, error) {
	evs, err := s.log.Read(ctx, f, after, upto, limit)
	return evs, openjury.Wrap("events.Read", err)
}
