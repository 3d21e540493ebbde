package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/stake"
)

// EventBackend is a Backend that also keeps the sequenced event log its
// outbox (Backend.Events) fills. The Events tests skip backends without
// it.
type EventBackend interface {
	EventLog() events.Log
}

func (s *suite) eventTests() []test {
	return []test{
		{name: "OutboxInTheWritesTransaction", run: testEventOutboxTx},
		{name: "SequenceCompletesAndIndexes", run: testEventSequence},
		{name: "SubmitEventsInOrder", run: testEventSubmit},
		{name: "ReadFilters", run: testEventReadFilters},
		{name: "AudienceOnlyThroughItsAddresses", run: testEventAudience},
		{name: "TimersWaitUntilDue", run: testEventTimers},
		{name: "ExpireMovesTheHorizon", run: testEventExpire},
		{name: "RacingWritersResumingConsumer", run: func(t *testing.T, b Backend) { testEventRace(t, b, s.f.RowLocks) }},
	}
}

// eventLogOf returns b's event log, or skips the test.
func eventLogOf(t *testing.T, b Backend) events.Log {
	t.Helper()
	eb, ok := b.(EventBackend)
	if !ok {
		t.Skip("the backend has no event log")
	}
	return eb.EventLog()
}

// drawnJuror is the drawn juror of the Events tests.
var drawnJuror = openjury.MustAddress("0x4444444444444444444444444444444444444444")

// sequenceAll runs sequencer passes at now until the outbox is empty of
// due events, and returns how many events they moved.
func sequenceAll(t *testing.T, log events.Log, now time.Time) int {
	t.Helper()
	total := 0
	for {
		n, err := log.Sequence(context.Background(), now, 3) // small batches: several passes
		require.NoError(t, err)
		total += n
		if n == 0 {
			return total
		}
	}
}

// readAll reads every event f selects after position after.
func readAll(t *testing.T, log events.Log, f events.Filter, after int64) []*events.Event {
	t.Helper()
	_, head, err := log.Bounds(context.Background())
	require.NoError(t, err)
	evs, err := log.Read(context.Background(), f, after, head, 1000)
	require.NoError(t, err)
	return evs
}

// typesOf lists the types of evs.
func typesOf(evs []*events.Event) []events.Type {
	out := make([]events.Type, len(evs))
	for i, e := range evs {
		out[i] = e.Type
	}
	return out
}

func appendEvents(t *testing.T, b Backend, evs ...*events.Event) {
	t.Helper()
	require.NoError(t, b.InTx(context.Background(), func(ctx context.Context, tx marketplace.Tx) error {
		return tx.Events().Append(ctx, evs...)
	}))
}

// testEventOutboxTx: events appended in a transaction that rolls back are
// never sequenced; those of a committed one are, once, in write order.
func testEventOutboxTx(t *testing.T, b Backend) {
	log := eventLogOf(t, b)
	ctx := context.Background()
	boom := errors.New("boom")
	err := b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		if err := tx.Events().Append(ctx, &events.Event{Type: events.PostCreated, CreatedAt: base, Actor: alice}); err != nil {
			return err
		}
		return boom
	})
	require.ErrorIs(t, err, boom)
	require.Equal(t, 0, sequenceAll(t, log, base))

	appendEvents(t, b,
		&events.Event{Type: events.PostCreated, CreatedAt: base, Actor: alice, Data: events.Data{"n": 1}},
		&events.Event{Type: events.StakeChanged, CreatedAt: base, Subjects: []openjury.Address{other}, Data: events.Data{"n": 2}})
	require.Equal(t, 2, sequenceAll(t, log, base))
	require.Equal(t, 0, sequenceAll(t, log, base), "an event is sequenced once")
	got := readAll(t, log, events.Filter{}, 0)
	require.Equal(t, []events.Type{events.PostCreated, events.StakeChanged}, typesOf(got))
	require.Equal(t, []int64{1, 2}, []int64{got[0].Seq, got[1].Seq})
	require.Equal(t, events.Data{"n": json.Number("1")}, got[0].Data, "numbers read back exactly, as json.Number")
	require.Equal(t, []openjury.Address{other}, got[1].Subjects)
	require.Equal(t, base, got[0].CreatedAt)
	horizon, head, err := log.Bounds(ctx)
	require.NoError(t, err)
	require.Equal(t, [2]int64{0, 2}, [2]int64{horizon, head})

	// Unknown types are refused at the outbox.
	err = b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		return tx.Events().Append(ctx, &events.Event{Type: "job.exploded", CreatedAt: base})
	})
	require.Error(t, err)
}

// testEventSequence: an event of a job takes the job's tags and sponsor
// when sequenced, and is found through its keys.
func testEventSequence(t *testing.T, b Backend) {
	log := eventLogOf(t, b)
	j := newJob(1, base)
	j.Tags = []string{"Research", "ai"}
	create(t, b, j)
	appendEvents(t, b, &events.Event{Type: events.SubmissionCreated, CreatedAt: base, JobID: j.ID, Actor: alice,
		Tags: []string{"ai", "extra"}, Data: events.Data{"job_id": j.ID}})
	require.Equal(t, 1, sequenceAll(t, log, base))
	got := readAll(t, log, events.Filter{}, 0)
	require.Len(t, got, 1)
	require.Equal(t, []string{"ai", "extra", "Research"}, got[0].Tags)
	require.Equal(t, []openjury.Address{sponsor}, got[0].Subjects)
	for _, f := range []events.Filter{{Address: sponsor}, {Address: alice}, {Tag: "research"}, {Tag: "extra"}, {JobID: j.ID},
		{Types: []events.Type{events.SubmissionCreated}}, {Address: alice, Tag: "ai", JobID: j.ID}} {
		require.Len(t, readAll(t, log, f, 0), 1, "filter %+v", f)
	}
	for _, f := range []events.Filter{{Address: other}, {Tag: "nope"}, {JobID: id(2)}, {Types: []events.Type{events.JobCreated}},
		{Address: alice, Tag: "nope"}, {Address: alice, JobID: id(2)}, {Tag: "ai", Types: []events.Type{events.VoteCast}}} {
		require.Empty(t, readAll(t, log, f, 0), "filter %+v", f)
	}
}

// testEventSubmit: the event of a submission (SubmitGuard.Event) is
// sequenced exactly once when its submission commits, completed from its
// job, after every event that was due before it, and never when its
// submission is refused or its transaction rolls back; a timer not yet due
// does not hold it back.
func testEventSubmit(t *testing.T, b Backend) {
	log := eventLogOf(t, b)
	ctx := context.Background()
	j := newJob(1, base)
	j.Tags = []string{"Research"}
	create(t, b, j)
	putStake(t, b, stake.Stake{Address: bob, Staked: 10, UpdatedAt: at(1)})
	putStake(t, b, stake.Stake{Address: carol, Staked: 10, UpdatedAt: at(1)})
	sequenceAll(t, log, at(1)) // the setup's own events, if any
	_, start, err := log.Bounds(ctx)
	require.NoError(t, err)
	submitAt := func(n int, agent openjury.Address, ms int) (*marketplace.Submission, marketplace.SubmitGuard) {
		sub := newSubmission(n, j.ID, agent, at(ms))
		g := testGuard
		g.Now = sub.CreatedAt
		g.Event = &events.Event{Type: events.SubmissionCreated, CreatedAt: sub.CreatedAt, JobID: j.ID, Actor: agent,
			Data: events.Data{"submission_id": sub.ID}}
		return sub, g
	}

	// A timer due later and an event due now wait in the outbox: the
	// first submission's event comes after the one due.
	appendEvents(t, b,
		&events.Event{Type: events.FinalVoteOpened, CreatedAt: at(10_000), JobID: j.ID},
		&events.Event{Type: events.PostCreated, CreatedAt: at(1), Actor: alice})
	s1, g1 := submitAt(11, bob, 2)
	require.NoError(t, b.Submissions().Submit(ctx, s1, g1))
	require.Equal(t, 2, sequenceAll(t, log, at(2)))

	// Nothing due waits (the timer is not due): the next one, a refused
	// one (the limit of two) and one rolled back.
	s2, g2 := submitAt(12, bob, 3)
	require.NoError(t, b.Submissions().Submit(ctx, s2, g2))
	s3, g3 := submitAt(13, bob, 4)
	require.Error(t, b.Submissions().Submit(ctx, s3, g3))
	s4, g4 := submitAt(14, carol, 5)
	require.Equal(t, errBoom, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		require.NoError(t, tx.Submissions().Submit(ctx, s4, g4))
		return errBoom
	}))
	require.Equal(t, 1, sequenceAll(t, log, at(5)), "the second submission's event, counted once")
	require.Equal(t, 0, sequenceAll(t, log, at(5)))

	s5, g5 := submitAt(15, carol, 6)
	require.NoError(t, b.Submissions().Submit(ctx, s5, g5))
	require.Equal(t, 1, sequenceAll(t, log, at(6)), "the third submission's event")
	require.Equal(t, 1, sequenceAll(t, log, at(10_000)), "the timer, once due")

	got := readAll(t, log, events.Filter{}, start)
	require.Equal(t, []events.Type{events.PostCreated, events.SubmissionCreated, events.SubmissionCreated, events.SubmissionCreated, events.FinalVoteOpened}, typesOf(got))
	for i, e := range got {
		require.Equal(t, start+int64(i+1), e.Seq)
	}
	var ids []any
	for _, e := range got[1:4] {
		ids = append(ids, e.Data["submission_id"])
		require.Equal(t, []string{"Research"}, e.Tags, "completed with the job's tags")
		require.Equal(t, []openjury.Address{sponsor}, e.Subjects, "and its sponsor")
	}
	require.Equal(t, []any{s1.ID, s2.ID, s5.ID}, ids)
	require.Equal(t, at(3), got[2].CreatedAt)
	require.Len(t, readAll(t, log, events.Filter{Address: bob}, start), 2)
	require.Len(t, readAll(t, log, events.Filter{Address: sponsor}, start), 4, "the submissions' and the timer's")
	require.Len(t, readAll(t, log, events.Filter{Tag: "research", Address: carol}, start), 1)
	_, head, err := log.Bounds(ctx)
	require.NoError(t, err)
	require.Equal(t, start+5, head)
}

// testEventReadFilters: reads return the range (after, upto] in order, at
// most limit, for every driving filter.
func testEventReadFilters(t *testing.T, b Backend) {
	log := eventLogOf(t, b)
	ctx := context.Background()
	j1, j2 := newJob(1, base), newJob(2, base)
	j1.Tags = []string{"go"}
	create(t, b, j1, j2)
	var evs []*events.Event
	for i := range 30 {
		job := j1.ID
		if i%3 == 0 {
			job = j2.ID
		}
		actor := alice
		if i%2 == 0 {
			actor = other
		}
		typ := events.SubmissionCreated
		if i%5 == 0 {
			typ = events.VoteCast
		}
		evs = append(evs, &events.Event{Type: typ, CreatedAt: base, JobID: job, Actor: actor, Data: events.Data{"i": i}})
	}
	appendEvents(t, b, evs...)
	require.Equal(t, 30, sequenceAll(t, log, base))
	want := func(f events.Filter, after, upto int64) []int64 {
		var out []int64
		for i, e := range evs {
			seq := int64(i + 1)
			e.Seq = seq
			cp := *e
			if cp.JobID == j1.ID {
				cp.Tags = []string{"go"}
			}
			cp.Subjects = []openjury.Address{sponsor}
			if seq > after && seq <= upto && f.Match(&cp) {
				out = append(out, seq)
			}
		}
		return out
	}
	filters := []events.Filter{
		{}, {Address: alice}, {Address: sponsor}, {Tag: "go"}, {JobID: j2.ID},
		{Types: []events.Type{events.VoteCast}}, {Types: []events.Type{events.VoteCast, events.SubmissionCreated}},
		{Address: alice, Types: []events.Type{events.VoteCast}}, {Tag: "go", Address: other}, {JobID: j1.ID, Tag: "go"},
	}
	for _, f := range filters {
		for _, r := range [][2]int64{{0, 30}, {4, 17}, {29, 30}, {30, 30}} {
			got, err := log.Read(ctx, f, r[0], r[1], 1000)
			require.NoError(t, err)
			seqs := []int64{}
			for _, e := range got {
				seqs = append(seqs, e.Seq)
			}
			w := want(f, r[0], r[1])
			if w == nil {
				w = []int64{}
			}
			require.Equal(t, w, seqs, "filter %+v range %v", f, r)
			// Pages of 4 walk the same list.
			var paged []int64
			after := r[0]
			for {
				page, err := log.Read(ctx, f, after, r[1], 4)
				require.NoError(t, err)
				for _, e := range page {
					paged = append(paged, e.Seq)
				}
				if len(page) < 4 {
					break
				}
				after = page[len(page)-1].Seq
			}
			if paged == nil {
				paged = []int64{}
			}
			require.Equal(t, w, paged, "paged: filter %+v range %v", f, r)
		}
	}
}

// testEventAudience: an event with an audience is read only through a
// filter on an address of its audience, never by other filters.
func testEventAudience(t *testing.T, b Backend) {
	log := eventLogOf(t, b)
	j := newJob(1, base)
	j.Tags = []string{"go"}
	create(t, b, j)
	appendEvents(t, b,
		&events.Event{Type: events.JuryDrawn, CreatedAt: base, JobID: j.ID, Subjects: []openjury.Address{drawnJuror},
			Audience: []openjury.Address{drawnJuror}, Data: events.Data{"juror_address": drawnJuror.String()}},
		&events.Event{Type: events.JobCreated, CreatedAt: base, JobID: j.ID, Actor: sponsor})
	require.Equal(t, 2, sequenceAll(t, log, base))
	for _, f := range []events.Filter{{}, {JobID: j.ID}, {Tag: "go"}, {Types: []events.Type{events.JuryDrawn}}, {Address: sponsor}, {Address: other}} {
		for _, e := range readAll(t, log, f, 0) {
			require.NotEqual(t, events.JuryDrawn, e.Type, "filter %+v sees the draw", f)
		}
	}
	got := readAll(t, log, events.Filter{Address: drawnJuror}, 0)
	require.Equal(t, []events.Type{events.JuryDrawn}, typesOf(got))
	got = readAll(t, log, events.Filter{Address: drawnJuror, JobID: j.ID, Tag: "go", Types: []events.Type{events.JuryDrawn}}, 0)
	require.Equal(t, []events.Type{events.JuryDrawn}, typesOf(got))
	// Tail (the fan-out's and the dispatcher's read) has every event.
	all, err := log.Tail(context.Background(), 0, 2, 10)
	require.NoError(t, err)
	require.Equal(t, []events.Type{events.JuryDrawn, events.JobCreated}, typesOf(all))
	require.Equal(t, []openjury.Address{drawnJuror}, all[0].Audience)
}

// testEventTimers: an event created in the future waits in the outbox
// until then; CancelTimers drops a job's waiting timers of given types.
func testEventTimers(t *testing.T, b Backend) {
	log := eventLogOf(t, b)
	ctx := context.Background()
	create(t, b, newJob(1, base), newJob(2, base))
	later := base.Add(time.Hour)
	appendEvents(t, b,
		&events.Event{Type: events.FinalVoteOpened, CreatedAt: later, JobID: id(1)},
		&events.Event{Type: events.JuryRevealOpened, CreatedAt: later, JobID: id(1)},
		&events.Event{Type: events.FinalVoteOpened, CreatedAt: later, JobID: id(2)},
		&events.Event{Type: events.JobCreated, CreatedAt: base, JobID: id(1)})
	require.Equal(t, 1, sequenceAll(t, log, base))
	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		return tx.Events().CancelTimers(ctx, id(1), []events.Type{events.FinalVoteOpened}, base)
	}))
	require.Equal(t, 0, sequenceAll(t, log, later.Add(-time.Millisecond)))
	require.Equal(t, 2, sequenceAll(t, log, later))
	got := readAll(t, log, events.Filter{}, 1)
	require.Equal(t, []events.Type{events.JuryRevealOpened, events.FinalVoteOpened}, typesOf(got))
	require.Equal(t, []string{id(1), id(2)}, []string{got[0].JobID, got[1].JobID})
	require.Equal(t, later, got[0].CreatedAt)
}

// testEventExpire: retention deletes the oldest events created before a
// time, a batch at a time, with their keys, and moves the horizon.
func testEventExpire(t *testing.T, b Backend) {
	log := eventLogOf(t, b)
	ctx := context.Background()
	for i := range 10 {
		appendEvents(t, b, &events.Event{Type: events.PostCreated, CreatedAt: base.Add(time.Duration(i) * time.Minute), Actor: alice, Tags: []string{"x"}})
	}
	require.Equal(t, 10, sequenceAll(t, log, base.Add(time.Hour)))
	n, err := log.Expire(ctx, base.Add(7*time.Minute), 4)
	require.NoError(t, err)
	require.Equal(t, int64(4), n)
	horizon, head, err := log.Bounds(ctx)
	require.NoError(t, err)
	require.Equal(t, [2]int64{4, 10}, [2]int64{horizon, head})
	n, err = log.Expire(ctx, base.Add(7*time.Minute), 4)
	require.NoError(t, err)
	require.Equal(t, int64(3), n, "stops at the first event that is not expired")
	n, err = log.Expire(ctx, base.Add(7*time.Minute), 4)
	require.NoError(t, err)
	require.Zero(t, n)
	horizon, _, err = log.Bounds(ctx)
	require.NoError(t, err)
	require.Equal(t, int64(7), horizon)
	for _, f := range []events.Filter{{}, {Address: alice}, {Tag: "x"}} {
		got := readAll(t, log, f, 0)
		require.Len(t, got, 3, "filter %+v", f)
		require.Equal(t, int64(8), got[0].Seq)
	}
	// Numbers go on after the horizon, even with the log emptied.
	n, err = log.Expire(ctx, base.Add(time.Hour), 100)
	require.NoError(t, err)
	require.Equal(t, int64(3), n)
	appendEvents(t, b, &events.Event{Type: events.PostCreated, CreatedAt: base, Actor: alice})
	require.Equal(t, 1, sequenceAll(t, log, base))
	horizon, head, err = log.Bounds(ctx)
	require.NoError(t, err)
	require.Equal(t, [2]int64{10, 11}, [2]int64{horizon, head})
}

// testEventRace is the log's promise under concurrency: writers commit
// their events in an order other than they wrote them (a pause between
// the write and the commit), two sequencers (replicas) race, and a
// consumer that resumes after the last id it saw, many times and with
// small pages, sees every committed event exactly once, in increasing
// order, and never an event of a transaction that rolled back. On a
// backend with row locks (PostgreSQL) commits really do overtake each
// other; the test requires that it saw it happen.
func testEventRace(t *testing.T, b Backend, parallelWrites bool) {
	log := eventLogOf(t, b)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	const writers, perWriter, held = 8, 15, 5
	var written atomic.Int64 // the order of the writes, in each event's data
	// Writer 0 writes first.
	var first sync.WaitGroup
	first.Add(1)
	var firstOnce sync.Once // InTx may run writer 0's first function again
	svc := events.NewService(log, fixedClock{base}, events.Config{})

	done := make(chan struct{})
	var seqWG sync.WaitGroup
	for range 2 {
		seqWG.Go(func() {
			for {
				if _, err := svc.Sequence(ctx); err != nil && ctx.Err() == nil {
					t.Errorf("sequence: %v", err)
					return
				}
				select {
				case <-done:
					return
				case <-time.After(time.Millisecond):
				}
			}
		})
	}

	// The consumer runs while the writers write: it resumes after the
	// last id it saw, with pages of 7, until told how many events were
	// committed and it has seen them all (or the time is up).
	type seenEvent struct {
		seq, order int64
		rollback   bool
	}
	var (
		consumed []seenEvent
		cursor   = events.FormatID(0)
		total    atomic.Int64
		// seenCount is len(consumed), for the held writer.
		seenCount atomic.Int64
	)
	total.Store(-1)
	consumer := make(chan error, 1)
	go func() {
		consumer <- func() error {
			for {
				if n := total.Load(); n >= 0 && int64(len(consumed)) >= n {
					return nil
				}
				if err := ctx.Err(); err != nil {
					return fmt.Errorf("saw %d events: %w", len(consumed), err)
				}
				after, err := events.ParseID("after", cursor)
				if err != nil {
					return err
				}
				page, err := svc.Page(ctx, events.Filter{Types: []events.Type{events.PostCreated}}, after, 7)
				if err != nil {
					return err
				}
				for _, e := range page.Events {
					order, err := e.Data["order"].(json.Number).Int64()
					if err != nil {
						return err
					}
					consumed = append(consumed, seenEvent{e.Seq, order, e.Data["rollback"].(bool)})
				}
				seenCount.Store(int64(len(consumed)))
				cursor = page.NextCursor
				if len(page.Events) == 0 {
					time.Sleep(time.Millisecond)
				}
			}
		}()
	}()

	committed := make(chan int64, writers*perWriter)
	errs := raceN(writers, func(w int) error {
		r := rand.New(rand.NewPCG(uint64(w), 7))
		if w != 0 {
			first.Wait()
		}
		for i := range perWriter {
			var order int64
			rollback := i%7 == 3
			err := b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
				order = written.Add(1)
				if err := tx.Events().Append(ctx, &events.Event{Type: events.PostCreated, CreatedAt: base, Actor: alice,
					Data: events.Data{"order": order, "rollback": rollback}}); err != nil {
					return err
				}
				if w == 0 && i == 0 {
					firstOnce.Do(first.Done)
				}
				// Hold the transaction open a while: writes that began
				// later commit first. With parallel writes, writer 0's
				// first event (the first written) waits until the
				// consumer has seen held later ones: a log that numbered
				// events as they were written would put it behind the
				// consumer's cursor.
				time.Sleep(time.Duration(r.IntN(4)) * time.Millisecond)
				for parallelWrites && w == 0 && i == 0 && seenCount.Load() < held && ctx.Err() == nil {
					time.Sleep(time.Millisecond)
				}
				if rollback {
					return errRollback
				}
				return nil
			})
			switch {
			case rollback && errors.Is(err, errRollback):
			case err != nil:
				return err
			default:
				committed <- order
			}
		}
		return nil
	})
	for _, err := range errs {
		require.NoError(t, err)
	}
	close(committed)
	want := map[int64]bool{}
	for o := range committed {
		want[o] = true
	}
	total.Store(int64(len(want)))
	require.NoError(t, <-consumer)

	seen := map[int64]bool{}
	var last int64
	var orders []int64
	for _, e := range consumed {
		require.Greater(t, e.seq, last, "ids increase")
		last = e.seq
		require.False(t, e.rollback, "an event of a rolled-back transaction")
		require.True(t, want[e.order], "event %d was never committed", e.order)
		require.False(t, seen[e.order], "event %d delivered twice", e.order)
		seen[e.order] = true
		orders = append(orders, e.order)
	}
	require.Len(t, seen, len(want), "every committed event is delivered")
	close(done)
	seqWG.Wait()
	// Nothing more comes: no event twice, none from a rollback.
	n, err := svc.Sequence(ctx)
	require.NoError(t, err)
	require.Zero(t, n)
	after, _ := events.ParseID("after", cursor)
	page, err := svc.Page(ctx, events.Filter{}, after, 100)
	require.NoError(t, err)
	require.Empty(t, page.Events)
	if parallelWrites {
		require.GreaterOrEqual(t, slices.Index(orders, 1), held, "the held event (written first, committed late) comes after the events that overtook it")
	}
	t.Logf("%d events in %d orders; delivery order sorted by write: %v", len(orders), len(want), slices.IsSorted(orders))
}

// errRollback makes an InTx roll back.
var errRollback = errors.New("roll back")

// fixedClock is an openjury.Clock that always reads t.
type fixedClock struct{ t time.Time }

func (c fixedClock) Now() time.Time { return c.t }
