package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/events"
)

// WebhookBackend is an EventBackend that also keeps webhooks and their
// deliveries. The Webhooks tests skip backends without it.
type WebhookBackend interface {
	EventBackend
	Webhooks() events.WebhookStore
}

func (s *suite) webhookTests() []test {
	return []test{
		{name: "CreateListRotateDelete", run: testWebhookCRUD},
		{name: "RacingCreatesKeepTheLimit", run: testWebhookLimitRace},
		{name: "DispatchMatchesEachEventOnce", run: testWebhookDispatch},
		{name: "DispatchWithoutEndpointsReadsNothing", run: testWebhookDispatchIdle},
		{name: "RacingDispatchersAndClaims", run: testWebhookRace},
		{name: "AttemptsRetryFailAndDisable", run: testWebhookAttempts},
		{name: "DeliveriesPageAndExpire", run: testWebhookDeliveries},
	}
}

// webhookStoreOf returns b's webhook store and event log, or skips.
func webhookStoreOf(t *testing.T, b Backend) (events.WebhookStore, events.Log) {
	t.Helper()
	wb, ok := b.(WebhookBackend)
	if !ok {
		t.Skip("the backend has no webhook store")
	}
	return wb.Webhooks(), wb.EventLog()
}

func newWebhook(n int, owner openjury.Address) *events.Webhook {
	return &events.Webhook{ID: id(500 + n), Kind: events.KindWebhook, Owner: owner, URL: fmt.Sprintf("https://hooks.example/%d", n),
		Types: []events.Type{}, Secret: "whsec_c2VjcmV0", CreatedAt: base.Add(time.Duration(n) * time.Millisecond)}
}

func testWebhookCRUD(t *testing.T, b Backend) {
	ws, _ := webhookStoreOf(t, b)
	ctx := context.Background()
	create(t, b, newJob(1, base))
	w := newWebhook(1, alice)
	w.Types, w.JobID, w.Tag = []events.Type{events.JobClosed, events.VoteCast}, id(1), "go"
	require.NoError(t, ws.CreateWebhook(ctx, w, 20))
	got, err := ws.Webhook(ctx, w.ID)
	require.NoError(t, err)
	require.Equal(t, w, got)
	push := newWebhook(2, alice)
	push.Kind, push.Push = events.KindA2A, &events.PushConfig{TaskID: "task-1", ConfigID: "c1", Token: "tok", AuthScheme: "Bearer", Credentials: "cred", Protocol: "0.3"}
	require.NoError(t, ws.CreateWebhook(ctx, push, 20))
	got, err = ws.Webhook(ctx, push.ID)
	require.NoError(t, err)
	require.Equal(t, push, got)

	list, err := ws.Webhooks(ctx, alice, events.KindWebhook, "")
	require.NoError(t, err)
	require.Equal(t, []*events.Webhook{w}, list)
	list, err = ws.Webhooks(ctx, alice, events.KindA2A, "task-1")
	require.NoError(t, err)
	require.Equal(t, []*events.Webhook{push}, list)

	until := base.Add(time.Hour)
	rotated, err := ws.RotateSecret(ctx, w.ID, "whsec_bmV3", until)
	require.NoError(t, err)
	require.Equal(t, "whsec_bmV3", rotated.Secret)
	require.Equal(t, w.Secret, rotated.PreviousSecret)
	require.Equal(t, until, *rotated.PreviousUntil)
	require.Equal(t, []string{"whsec_bmV3", w.Secret}, rotated.Secrets(base))
	require.Equal(t, []string{"whsec_bmV3"}, rotated.Secrets(until))

	ok, err := ws.JobExists(ctx, id(1))
	require.NoError(t, err)
	require.True(t, ok)
	ok, err = ws.JobExists(ctx, id(2))
	require.NoError(t, err)
	require.False(t, ok)

	require.NoError(t, ws.DeleteWebhook(ctx, w.ID))
	requireKind(t, openjury.NotFound, ws.DeleteWebhook(ctx, w.ID))
	_, err = ws.Webhook(ctx, w.ID)
	requireKind(t, openjury.NotFound, err)
	_, err = ws.RotateSecret(ctx, w.ID, "whsec_eA==", until)
	requireKind(t, openjury.NotFound, err)
}

// testWebhookLimitRace: racing creates of one owner never pass the limit;
// a delete frees a place.
func testWebhookLimitRace(t *testing.T, b Backend) {
	ws, _ := webhookStoreOf(t, b)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	const max = 3
	errs := raceN(10, func(i int) error { return ws.CreateWebhook(ctx, newWebhook(i, alice), max) })
	ok := 0
	for _, err := range errs {
		if err == nil {
			ok++
			continue
		}
		requireKind(t, openjury.Conflict, err)
	}
	require.Equal(t, max, ok)
	list, err := ws.Webhooks(ctx, alice, events.KindWebhook, "")
	require.NoError(t, err)
	require.Len(t, list, max)
	require.NoError(t, ws.CreateWebhook(ctx, newWebhook(20, other), max), "another owner has its own limit")
	requireKind(t, openjury.Conflict, ws.CreateWebhook(ctx, newWebhook(21, alice), max))
	require.NoError(t, ws.DeleteWebhook(ctx, list[0].ID))
	require.NoError(t, ws.CreateWebhook(ctx, newWebhook(21, alice), max))
}

// dispatchAll runs dispatcher steps until they read nothing.
func dispatchAll(t *testing.T, ws events.WebhookStore) {
	t.Helper()
	for {
		n, err := ws.Dispatch(context.Background(), 2, func(evs []*events.Event, hooks []*events.Webhook) []*events.Delivery {
			return events.Plan(evs, hooks, base)
		})
		require.NoError(t, err)
		if n == 0 {
			return
		}
	}
}

// deliveriesOf lists every delivery of a webhook as "type@seq".
func deliveriesOf(t *testing.T, ws events.WebhookStore, hookID string) []string {
	t.Helper()
	ds, err := ws.Deliveries(context.Background(), hookID, 1000, nil)
	require.NoError(t, err)
	out := []string{}
	for i := len(ds) - 1; i >= 0; i-- {
		out = append(out, fmt.Sprintf("%s@%d", ds[i].EventType, ds[i].EventSeq))
	}
	return out
}

// testWebhookDispatch: each event reaches each endpoint that wants it
// once: catch-all, by type, by job, by tag; an event with an audience only
// its members' endpoints; a disabled endpoint nothing.
func testWebhookDispatch(t *testing.T, b Backend) {
	ws, log := webhookStoreOf(t, b)
	ctx := context.Background()
	j1, j2 := newJob(1, base), newJob(2, base)
	j1.Tags = []string{"Go"}
	create(t, b, j1, j2)
	all := newWebhook(1, alice)
	byType := newWebhook(2, alice)
	byType.Types = []events.Type{events.JobClosed}
	byJob := newWebhook(3, other)
	byJob.JobID = j2.ID
	byTag := newWebhook(4, other)
	byTag.Tag = "go"
	jurorHook := newWebhook(5, drawnJuror)
	off := newWebhook(6, other)
	disabledAt := base
	off.DisabledAt, off.DisabledReason = &disabledAt, "test"
	for _, w := range []*events.Webhook{all, byType, byJob, byTag, jurorHook, off} {
		require.NoError(t, ws.CreateWebhook(ctx, w, 20))
	}
	appendEvents(t, b,
		&events.Event{Type: events.JobCreated, CreatedAt: base, JobID: j1.ID},
		&events.Event{Type: events.JobClosed, CreatedAt: base, JobID: j2.ID},
		&events.Event{Type: events.JuryDrawn, CreatedAt: base, JobID: j1.ID, Subjects: []openjury.Address{drawnJuror}, Audience: []openjury.Address{drawnJuror}},
		&events.Event{Type: events.PostCreated, CreatedAt: base, Tags: []string{"GO"}})
	sequenceAll(t, log, base)
	dispatchAll(t, ws)
	dispatchAll(t, ws) // nothing twice
	require.Equal(t, []string{"job.created@1", "job.closed@2", "post.created@4"}, deliveriesOf(t, ws, all.ID))
	require.Equal(t, []string{"job.closed@2"}, deliveriesOf(t, ws, byType.ID))
	require.Equal(t, []string{"job.closed@2"}, deliveriesOf(t, ws, byJob.ID))
	require.Equal(t, []string{"job.created@1", "post.created@4"}, deliveriesOf(t, ws, byTag.ID))
	require.Equal(t, []string{"job.created@1", "job.closed@2", "jury.drawn@3", "post.created@4"}, deliveriesOf(t, ws, jurorHook.ID))
	require.Empty(t, deliveriesOf(t, ws, off.ID))

	// A webhook registered later gets only later events.
	late := newWebhook(7, alice)
	require.NoError(t, ws.CreateWebhook(ctx, late, 20))
	appendEvents(t, b, &events.Event{Type: events.PostCreated, CreatedAt: base})
	sequenceAll(t, log, base)
	dispatchAll(t, ws)
	require.Equal(t, []string{"post.created@5"}, deliveriesOf(t, ws, late.ID))
}

// testWebhookDispatchIdle: with no endpoint enabled (one disabled), a
// dispatcher step moves past the sequenced events without planning them;
// an endpoint registered then gets the later events only.
func testWebhookDispatchIdle(t *testing.T, b Backend) {
	ws, log := webhookStoreOf(t, b)
	ctx := context.Background()
	off := newWebhook(1, alice)
	disabledAt := base
	off.DisabledAt, off.DisabledReason = &disabledAt, "test"
	require.NoError(t, ws.CreateWebhook(ctx, off, 20))
	for i := range 3 {
		appendEvents(t, b, &events.Event{Type: events.PostCreated, CreatedAt: base, Data: events.Data{"i": i}})
	}
	sequenceAll(t, log, base)
	var planned [][]int64
	plan := func(evs []*events.Event, hooks []*events.Webhook) []*events.Delivery {
		var seqs []int64
		for _, e := range evs {
			seqs = append(seqs, e.Seq)
		}
		planned = append(planned, seqs)
		return events.Plan(evs, hooks, base)
	}
	n, err := ws.Dispatch(ctx, 2, plan)
	require.NoError(t, err)
	require.Equal(t, 3, n, "moved past every sequenced event at once")
	require.Empty(t, planned, "nothing read to plan")
	behind, err := ws.DispatchBehind(ctx)
	require.NoError(t, err)
	require.False(t, behind)

	on := newWebhook(2, alice)
	require.NoError(t, ws.CreateWebhook(ctx, on, 20))
	appendEvents(t, b, &events.Event{Type: events.PostCreated, CreatedAt: base})
	sequenceAll(t, log, base)
	n, err = ws.Dispatch(ctx, 2, plan)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	require.Equal(t, [][]int64{{4}}, planned)
	require.Equal(t, []string{"post.created@4"}, deliveriesOf(t, ws, on.ID))
	require.Empty(t, deliveriesOf(t, ws, off.ID))
}

// testWebhookRace: two dispatchers and four claimers race over a stream
// of events: every (event, endpoint) gets exactly one delivery, and no
// delivery is claimed by two workers before its lease ends.
func testWebhookRace(t *testing.T, b Backend) {
	ws, log := webhookStoreOf(t, b)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	hooks := []*events.Webhook{newWebhook(1, alice), newWebhook(2, other)}
	for _, w := range hooks {
		require.NoError(t, ws.CreateWebhook(ctx, w, 20))
	}
	const total = 40
	for i := range total {
		appendEvents(t, b, &events.Event{Type: events.PostCreated, CreatedAt: base, Data: events.Data{"i": i}})
	}
	sequenceAll(t, log, base)
	var mu sync.Mutex
	claimed := map[string]int{}
	errs := raceN(6, func(i int) error {
		for ctx.Err() == nil {
			if i < 2 {
				n, err := ws.Dispatch(ctx, 7, func(evs []*events.Event, hs []*events.Webhook) []*events.Delivery {
					return events.Plan(evs, hs, base)
				})
				if err != nil || n == 0 {
					return err
				}
				continue
			}
			cs, err := ws.ClaimDeliveries(ctx, base, time.Minute, 5)
			if err != nil {
				return err
			}
			mu.Lock()
			for _, c := range cs {
				claimed[c.Delivery.ID]++
			}
			done := len(claimed) == total*len(hooks)
			mu.Unlock()
			if done {
				return nil
			}
		}
		return ctx.Err()
	})
	for _, err := range errs {
		require.NoError(t, err)
	}
	require.Len(t, claimed, total*len(hooks))
	for id, n := range claimed {
		require.Equal(t, 1, n, "delivery %s claimed %d times within its lease", id, n)
	}
	for _, w := range hooks {
		ds := deliveriesOf(t, ws, w.ID)
		require.Len(t, ds, total)
		seen := map[string]bool{}
		for _, d := range ds {
			require.False(t, seen[d], "%s twice", d)
			seen[d] = true
		}
	}
	// Leases end: a crashed worker's claims come back.
	cs, err := ws.ClaimDeliveries(ctx, base.Add(2*time.Minute), time.Minute, 1000)
	require.NoError(t, err)
	require.Len(t, cs, total*len(hooks))
	require.NotNil(t, cs[0].Event)
	require.Equal(t, cs[0].Delivery.EventSeq, cs[0].Event.Seq)
}

// testWebhookAttempts: a failed attempt schedules the next or fails the
// delivery; a success clears the endpoint's failure streak; a streak past
// DisableAfter disables the endpoint and fails its pending deliveries,
// which are then never claimed, and an attempt under way then schedules
// no retry.
func testWebhookAttempts(t *testing.T, b Backend) {
	ws, log := webhookStoreOf(t, b)
	ctx := context.Background()
	w := newWebhook(1, alice)
	require.NoError(t, ws.CreateWebhook(ctx, w, 20))
	for range 3 {
		appendEvents(t, b, &events.Event{Type: events.PostCreated, CreatedAt: base})
	}
	sequenceAll(t, log, base)
	dispatchAll(t, ws)
	cs, err := ws.ClaimDeliveries(ctx, base, time.Minute, 10)
	require.NoError(t, err)
	require.Len(t, cs, 3)
	d1, d2, d3 := cs[0].Delivery.ID, cs[1].Delivery.ID, cs[2].Delivery.ID
	day := 24 * time.Hour

	next := base.Add(5 * time.Second)
	require.NoError(t, ws.RecordAttempt(ctx, events.Attempt{DeliveryID: d1, WebhookID: w.ID, At: base, Status: 500, Error: "HTTP 500", Next: &next, DisableAfter: day, DisableReason: "r"}))
	got, err := ws.Delivery(ctx, d1)
	require.NoError(t, err)
	require.Equal(t, events.DeliveryPending, got.Status)
	require.Equal(t, 1, got.Attempts)
	require.Equal(t, next, *got.NextAttemptAt)
	require.Equal(t, 500, got.ResponseStatus)
	require.Equal(t, "HTTP 500", got.Error)
	hook, err := ws.Webhook(ctx, w.ID)
	require.NoError(t, err)
	require.Equal(t, base, *hook.FailingSince)
	cs, err = ws.ClaimDeliveries(ctx, base.Add(time.Second), time.Minute, 10)
	require.NoError(t, err)
	require.Empty(t, cs, "leased and not yet due")

	// Success clears the streak.
	require.NoError(t, ws.RecordAttempt(ctx, events.Attempt{DeliveryID: d2, WebhookID: w.ID, At: base.Add(time.Second), OK: true, Status: 204, DisableAfter: day}))
	got, err = ws.Delivery(ctx, d2)
	require.NoError(t, err)
	require.Equal(t, events.DeliveryDelivered, got.Status)
	require.Equal(t, base.Add(time.Second), *got.DeliveredAt)
	hook, _ = ws.Webhook(ctx, w.ID)
	require.Nil(t, hook.FailingSince)

	// No Next: failed for good.
	require.NoError(t, ws.RecordAttempt(ctx, events.Attempt{DeliveryID: d3, WebhookID: w.ID, At: base.Add(2 * time.Second), Error: "connection refused", DisableAfter: day, DisableReason: "r"}))
	got, _ = ws.Delivery(ctx, d3)
	require.Equal(t, events.DeliveryFailed, got.Status)
	require.Zero(t, got.ResponseStatus)

	// A streak of a day disables the endpoint and fails the pending; an
	// attempt under way meanwhile (claimed in the same batch) schedules no
	// retry.
	at := base.Add(2*time.Second + day)
	appendEvents(t, b, &events.Event{Type: events.PostCreated, CreatedAt: base})
	sequenceAll(t, log, base)
	dispatchAll(t, ws)
	cs, err = ws.ClaimDeliveries(ctx, at, time.Minute, 10)
	require.NoError(t, err)
	require.Len(t, cs, 2, "the retry and the new delivery")
	d4 := cs[0].Delivery.ID
	if d4 == d1 {
		d4 = cs[1].Delivery.ID
	}
	require.NoError(t, ws.RecordAttempt(ctx, events.Attempt{DeliveryID: d1, WebhookID: w.ID, At: at, Status: 502, Error: "HTTP 502", Next: &at, DisableAfter: day, DisableReason: "every delivery failed"}))
	later := at.Add(time.Minute)
	require.NoError(t, ws.RecordAttempt(ctx, events.Attempt{DeliveryID: d4, WebhookID: w.ID, At: at, Status: 502, Error: "HTTP 502", Next: &later, DisableAfter: day, DisableReason: "every delivery failed"}))
	got, _ = ws.Delivery(ctx, d4)
	require.Equal(t, events.DeliveryFailed, got.Status, "no retry on a disabled endpoint")
	require.Equal(t, "webhook disabled", got.Error)
	require.Equal(t, 1, got.Attempts)
	require.Nil(t, got.NextAttemptAt)
	hook, _ = ws.Webhook(ctx, w.ID)
	require.NotNil(t, hook.DisabledAt)
	require.Equal(t, at, *hook.DisabledAt)
	require.Equal(t, "every delivery failed", hook.DisabledReason)
	got, _ = ws.Delivery(ctx, d1)
	require.Equal(t, events.DeliveryFailed, got.Status)
	require.Equal(t, "webhook disabled", got.Error)
	appendEvents(t, b, &events.Event{Type: events.PostCreated, CreatedAt: base})
	sequenceAll(t, log, base)
	dispatchAll(t, ws)
	cs, err = ws.ClaimDeliveries(ctx, at.Add(time.Hour), time.Minute, 10)
	require.NoError(t, err)
	require.Empty(t, cs, "a disabled endpoint gets nothing")
}

// testWebhookDeliveries: pages newest first; AddDelivery (a redelivery);
// finished deliveries expire, pending ones stay.
func testWebhookDeliveries(t *testing.T, b Backend) {
	ws, _ := webhookStoreOf(t, b)
	ctx := context.Background()
	w := newWebhook(1, alice)
	require.NoError(t, ws.CreateWebhook(ctx, w, 20))
	for i := range 5 {
		at := base.Add(time.Duration(i) * time.Minute)
		d := &events.Delivery{ID: id(800 + i), WebhookID: w.ID, EventSeq: int64(i + 1), EventType: events.PostCreated,
			Status: events.DeliveryDelivered, Attempts: 1, CreatedAt: at, DeliveredAt: &at, Redelivery: i == 4}
		if i == 0 {
			d.Status, d.NextAttemptAt, d.DeliveredAt = events.DeliveryPending, &at, nil
		}
		require.NoError(t, ws.AddDelivery(ctx, d))
	}
	requireKind(t, openjury.NotFound, ws.AddDelivery(ctx, &events.Delivery{ID: id(900), WebhookID: id(999), EventType: events.PostCreated, Status: events.DeliveryPending, CreatedAt: base}))
	page, err := ws.Deliveries(ctx, w.ID, 2, nil)
	require.NoError(t, err)
	require.Equal(t, []string{id(804), id(803)}, []string{page[0].ID, page[1].ID})
	require.True(t, page[0].Redelivery)
	page, err = ws.Deliveries(ctx, w.ID, 10, &events.DeliveryCursor{At: page[1].CreatedAt, ID: page[1].ID})
	require.NoError(t, err)
	require.Len(t, page, 3)
	n, err := ws.ExpireDeliveries(ctx, base.Add(3*time.Minute), 1)
	require.NoError(t, err)
	require.Equal(t, int64(1), n)
	n, err = ws.ExpireDeliveries(ctx, base.Add(3*time.Minute), 100)
	require.NoError(t, err)
	require.Equal(t, int64(1), n, "the pending one stays")
	page, _ = ws.Deliveries(ctx, w.ID, 10, nil)
	require.Len(t, page, 3)
	require.NoError(t, ws.DeleteWebhook(ctx, w.ID))
	_, err = ws.Delivery(ctx, id(804))
	requireKind(t, openjury.NotFound, err) // deliveries go with their webhook
}
