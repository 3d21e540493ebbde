package bunstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/events"
)

var _ events.WebhookStore = webhookStore{}

// webhookRow is a row of webhooks.
type webhookRow struct {
	bun.BaseModel `bun:"table:webhooks,alias:w"`

	ID              string  `bun:"id,pk"`
	Kind            string  `bun:"kind,notnull"`
	OwnerAddress    string  `bun:"owner_address,notnull"`
	URL             string  `bun:"url,notnull"`
	Types           string  `bun:"types,notnull"`
	JobID           *string `bun:"job_id"`
	Tag             *string `bun:"tag"`
	Secret          string  `bun:"secret,notnull"`
	PreviousSecret  *string `bun:"previous_secret"`
	PreviousUntil   *int64  `bun:"previous_until"`
	TaskID          *string `bun:"task_id"`
	ConfigID        *string `bun:"config_id"`
	Token           *string `bun:"token"`
	AuthScheme      *string `bun:"auth_scheme"`
	AuthCredentials *string `bun:"auth_credentials"`
	Protocol        *string `bun:"protocol"`
	CreatedAt       int64   `bun:"created_at,notnull"`
	FailingSince    *int64  `bun:"failing_since"`
	DisabledAt      *int64  `bun:"disabled_at"`
	DisabledReason  *string `bun:"disabled_reason"`
}

// deliveryRow is a row of webhook_deliveries.
type deliveryRow struct {
	bun.BaseModel `bun:"table:webhook_deliveries,alias:d"`

	ID             string  `bun:"id,pk"`
	WebhookID      string  `bun:"webhook_id,notnull"`
	EventSeq       int64   `bun:"event_seq,notnull"`
	EventType      string  `bun:"event_type,notnull"`
	Status         string  `bun:"status,notnull"`
	Attempts       int     `bun:"attempts,notnull"`
	NextAttemptAt  *int64  `bun:"next_attempt_at"`
	LeaseUntil     int64   `bun:"lease_until,notnull"`
	LastAttemptAt  *int64  `bun:"last_attempt_at"`
	ResponseStatus *int    `bun:"response_status"`
	Error          *string `bun:"error"`
	CreatedAt      int64   `bun:"created_at,notnull"`
	DeliveredAt    *int64  `bun:"delivered_at"`
	Redelivery     int     `bun:"redelivery,notnull"`
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func toWebhookRow(w *events.Webhook) *webhookRow {
	types := make([]string, len(w.Types))
	for i, t := range w.Types {
		types[i] = string(t)
	}
	r := &webhookRow{
		ID: w.ID, Kind: w.Kind, OwnerAddress: w.Owner.String(), URL: w.URL, Types: jsonText(types),
		JobID: nullString(w.JobID), Tag: nullString(w.Tag), Secret: w.Secret, PreviousSecret: nullString(w.PreviousSecret),
		PreviousUntil: millisPtr(w.PreviousUntil), CreatedAt: millis(w.CreatedAt), FailingSince: millisPtr(w.FailingSince),
		DisabledAt: millisPtr(w.DisabledAt), DisabledReason: nullString(w.DisabledReason),
	}
	if p := w.Push; p != nil {
		r.TaskID, r.ConfigID, r.Token = nullString(p.TaskID), nullString(p.ConfigID), nullString(p.Token)
		r.AuthScheme, r.AuthCredentials, r.Protocol = nullString(p.AuthScheme), nullString(p.Credentials), nullString(p.Protocol)
	}
	return r
}

func (r *webhookRow) webhook() (*events.Webhook, error) {
	w := &events.Webhook{
		ID: r.ID, Kind: r.Kind, Owner: openjury.Address(r.OwnerAddress), URL: r.URL, Types: []events.Type{},
		JobID: deref(r.JobID), Tag: deref(r.Tag), Secret: r.Secret, PreviousSecret: deref(r.PreviousSecret),
		PreviousUntil: fromMillisPtr(r.PreviousUntil), CreatedAt: fromMillis(r.CreatedAt),
		FailingSince: fromMillisPtr(r.FailingSince), DisabledAt: fromMillisPtr(r.DisabledAt), DisabledReason: deref(r.DisabledReason),
	}
	var types []string
	if err := json.Unmarshal([]byte(r.Types), &types); err != nil {
		return nil, err
	}
	for _, t := range types {
		w.Types = append(w.Types, events.Type(t))
	}
	if r.TaskID != nil {
		w.Push = &events.PushConfig{TaskID: *r.TaskID, ConfigID: deref(r.ConfigID), Token: deref(r.Token),
			AuthScheme: deref(r.AuthScheme), Credentials: deref(r.AuthCredentials), Protocol: deref(r.Protocol)}
	}
	return w, nil
}

func toDeliveryRow(d *events.Delivery) *deliveryRow {
	r := &deliveryRow{ID: d.ID, WebhookID: d.WebhookID, EventSeq: d.EventSeq, EventType: string(d.EventType),
		Status: string(d.Status), Attempts: d.Attempts, NextAttemptAt: millisPtr(d.NextAttemptAt),
		LastAttemptAt: millisPtr(d.LastAttemptAt), Error: nullString(d.Error), CreatedAt: millis(d.CreatedAt),
		DeliveredAt: millisPtr(d.DeliveredAt)}
	if d.ResponseStatus != 0 {
		r.ResponseStatus = &d.ResponseStatus
	}
	if d.Redelivery {
		r.Redelivery = 1
	}
	return r
}

func (r *deliveryRow) delivery() *events.Delivery {
	d := &events.Delivery{ID: r.ID, WebhookID: r.WebhookID, EventSeq: r.EventSeq, EventType: events.Type(r.EventType),
		Status: events.DeliveryStatus(r.Status), Attempts: r.Attempts, NextAttemptAt: fromMillisPtr(r.NextAttemptAt),
		LastAttemptAt: fromMillisPtr(r.LastAttemptAt), Error: deref(r.Error), CreatedAt: fromMillis(r.CreatedAt),
		DeliveredAt: fromMillisPtr(r.DeliveredAt), Redelivery: r.Redelivery != 0}
	if r.ResponseStatus != nil {
		d.ResponseStatus = *r.ResponseStatus
	}
	return d
}

// webhookStore implements events.WebhookStore on the pools.
type webhookStore struct{ e exec }

// Webhooks returns the webhook and delivery store.
func (d *DB) Webhooks() events.WebhookStore { return webhookStore{d.pool()} }

// countKey is the webhook_counts key of an endpoint: its owner's for a
// webhook, its task's for an A2A push config.
func countKey(w *events.Webhook) string {
	if w.Push != nil {
		return "a2a:" + w.Push.TaskID
	}
	return "webhook:" + w.Owner.String()
}

// CreateWebhook implements events.WebhookStore: the count's upsert
// refuses to go past max (its row lock serialises racing creates), then
// the insert, in one transaction.
func (s webhookStore) CreateWebhook(ctx context.Context, w *events.Webhook, max int) error {
	const op = "bunstore.CreateWebhook"
	return s.e.inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		res, err := db.NewRaw(`INSERT INTO webhook_counts AS c (key, n) VALUES (?, 1)
ON CONFLICT (key) DO UPDATE SET n = c.n + 1 WHERE c.n < ?`, countKey(w), max).Exec(ctx)
		if n, err := affected(op, res, err); err != nil {
			return err
		} else if n == 0 {
			return openjury.Errorf(openjury.Conflict, op, "at most %d endpoints", max)
		}
		_, err = db.NewInsert().Model(toWebhookRow(w)).Exec(ctx)
		return translateWith(op, err, details{detailDuplicate: "webhook already exists"})
	})
}

// Webhook implements events.WebhookStore.
func (s webhookStore) Webhook(ctx context.Context, id string) (*events.Webhook, error) {
	const op = "bunstore.Webhook"
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	var row webhookRow
	if err := db.NewSelect().Model(&row).Where("w.id = ?", id).Scan(ctx); err != nil {
		return nil, translateWith(op, err, details{detailNotFound: "webhook not found"})
	}
	w, err := row.webhook()
	return w, openjury.Wrap(op, err)
}

// Webhooks implements events.WebhookStore (the index on (owner_address,
// kind, created_at) serves it).
func (s webhookStore) Webhooks(ctx context.Context, owner openjury.Address, kind, taskID string) ([]*events.Webhook, error) {
	const op = "bunstore.Webhooks"
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	var rows []webhookRow
	q := db.NewSelect().Model(&rows).Where("w.owner_address = ?", owner.String()).Where("w.kind = ?", kind)
	if taskID != "" {
		q = q.Where("w.task_id = ?", taskID)
	}
	if err := q.OrderExpr("w.created_at, w.id").Scan(ctx); err != nil {
		return nil, translate(op, err)
	}
	return webhooksOf(op, rows)
}

func webhooksOf(op string, rows []webhookRow) ([]*events.Webhook, error) {
	out := make([]*events.Webhook, len(rows))
	for i := range rows {
		var err error
		if out[i], err = rows[i].webhook(); err != nil {
			return nil, openjury.Wrap(op, err)
		}
	}
	return out, nil
}

// DeleteWebhook implements events.WebhookStore; the deliveries go by the
// foreign key's cascade.
func (s webhookStore) DeleteWebhook(ctx context.Context, id string) error {
	const op = "bunstore.DeleteWebhook"
	return s.e.inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		var rows []webhookRow
		if err := db.NewDelete().Model(&rows).Where("id = ?", id).Returning("*").Scan(ctx); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return translate(op, err)
		}
		if len(rows) == 0 {
			return openjury.E(openjury.NotFound, op, "webhook not found")
		}
		w, err := rows[0].webhook()
		if err != nil {
			return openjury.Wrap(op, err)
		}
		_, err = db.NewRaw("UPDATE webhook_counts SET n = n - 1 WHERE key = ? AND n > 0", countKey(w)).Exec(ctx)
		return translate(op, err)
	})
}

// RotateSecret implements events.WebhookStore with one UPDATE.
func (s webhookStore) RotateSecret(ctx context.Context, id, secret string, previousUntil time.Time) (*events.Webhook, error) {
	const op = "bunstore.RotateSecret"
	db, err := s.e.writer(ctx, op)
	if err != nil {
		return nil, err
	}
	var rows []webhookRow
	err = db.NewUpdate().Model(&rows).
		Set("previous_secret = secret").Set("previous_until = ?", millis(previousUntil)).Set("secret = ?", secret).
		Where("id = ?", id).Returning("*").Scan(ctx)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, translate(op, err)
	}
	if len(rows) == 0 {
		return nil, openjury.E(openjury.NotFound, op, "webhook not found")
	}
	w, err := rows[0].webhook()
	return w, openjury.Wrap(op, err)
}

// JobExists implements events.WebhookStore.
func (s webhookStore) JobExists(ctx context.Context, jobID string) (bool, error) {
	const op = "bunstore.JobExists"
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return false, err
	}
	ok, err := db.NewSelect().Model((*jobRow)(nil)).Where("j.id = ?", jobID).Exists(ctx)
	return ok, translate(op, err)
}

// Deliveries implements events.WebhookStore (the index on (webhook_id,
// created_at, id) serves it, walked backwards).
func (s webhookStore) Deliveries(ctx context.Context, webhookID string, limit int, after *events.DeliveryCursor) ([]*events.Delivery, error) {
	const op = "bunstore.Deliveries"
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	var rows []deliveryRow
	q := db.NewSelect().Model(&rows).Where("d.webhook_id = ?", webhookID)
	if after != nil {
		q = q.Where("(d.created_at, d.id) < (?, ?)", millis(after.At), after.ID)
	}
	if err := q.OrderExpr("d.created_at DESC, d.id DESC").Limit(int64(limit)).Scan(ctx); err != nil {
		return nil, translate(op, err)
	}
	out := make([]*events.Delivery, len(rows))
	for i := range rows {
		out[i] = rows[i].delivery()
	}
	return out, nil
}

// Delivery implements events.WebhookStore.
func (s webhookStore) Delivery(ctx context.Context, id string) (*events.Delivery, error) {
	const op = "bunstore.Delivery"
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	var row deliveryRow
	if err := db.NewSelect().Model(&row).Where("d.id = ?", id).Scan(ctx); err != nil {
		return nil, translateWith(op, err, details{detailNotFound: "delivery not found"})
	}
	return row.delivery(), nil
}

// AddDelivery implements events.WebhookStore.
func (s webhookStore) AddDelivery(ctx context.Context, d *events.Delivery) error {
	const op = "bunstore.AddDelivery"
	db, err := s.e.writer(ctx, op)
	if err != nil {
		return err
	}
	_, err = db.NewInsert().Model(toDeliveryRow(d)).Exec(ctx)
	return translateWith(op, err, details{detailMissingRef: "webhook not found"})
}

// insertChunk bounds the rows of one multi-row INSERT.
const insertChunk = 500

// Dispatch implements events.WebhookStore. An idle dispatcher (its
// position at the log's head) costs one read on the read pool; with no
// endpoint enabled, a step moves to the head without reading the events. The turn
// is the row of event_marks 'webhooks', locked FOR UPDATE SKIP LOCKED on
// PostgreSQL; SQLite's one writer serialises steps anyway.
func (s webhookStore) Dispatch(ctx context.Context, limit int, plan func(evs []*events.Event, hooks []*events.Webhook) []*events.Delivery) (int, error) {
	const op = "bunstore.Dispatch"
	if behind, err := s.DispatchBehind(ctx); err != nil || !behind {
		return 0, err
	}
	read := 0
	err := s.e.inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		read = 0 // a run again (DB.runTx) may find the turn taken
		lock := "SELECT value FROM event_marks WHERE name = ?"
		if s.e.d.dialect == DialectPostgres {
			lock += " FOR UPDATE SKIP LOCKED"
		}
		var pos, head int64
		if err := db.NewRaw(lock, markWebhooks).Scan(ctx, &pos); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return nil // another replica's step holds the turn
			}
			return translate(op, err)
		}
		if err := db.NewRaw("SELECT value FROM event_marks WHERE name = ?", markSeq).Scan(ctx, &head); err != nil {
			return translate(op, err)
		}
		if head <= pos {
			return nil
		}
		// No endpoint enabled: the events up to head (sequenced before this
		// read) go to nobody, and are not read (docs/rules.md, "Events").
		var enabled bool
		if err := db.NewRaw(anyEndpoint).Scan(ctx, &enabled); err != nil {
			return translate(op, err)
		}
		if !enabled {
			if _, err := db.NewRaw("UPDATE event_marks SET value = ? WHERE name = ?", head, markWebhooks).Exec(ctx); err != nil {
				return translate(op, err)
			}
			read = int(head - pos)
			return nil
		}
		evs, err := eventStore{s.e.d.txExec(db)}.Tail(ctx, pos, head, limit)
		if err != nil || len(evs) == 0 {
			return err
		}
		hooks, err := candidateHooks(ctx, db, evs)
		if err != nil {
			return translate(op, err)
		}
		ds := plan(evs, hooks)
		for len(ds) > 0 {
			n := min(len(ds), insertChunk)
			rows := make([]*deliveryRow, n)
			for i, d := range ds[:n] {
				rows[i] = toDeliveryRow(d)
			}
			if _, err := db.NewInsert().Model(&rows).Exec(ctx); err != nil {
				return translate(op, err)
			}
			ds = ds[n:]
		}
		if _, err := db.NewRaw("UPDATE event_marks SET value = ? WHERE name = ?", evs[len(evs)-1].Seq, markWebhooks).Exec(ctx); err != nil {
			return translate(op, err)
		}
		read = len(evs)
		return nil
	})
	return read, err
}

// anyEndpoint reads whether an endpoint is enabled: the first entry of
// webhooks_enabled_idx (a scalar subquery with its order: in EXISTS both
// engines would drop the order and scan the table for the first enabled
// row; TestWritePlans).
const anyEndpoint = `SELECT (SELECT created_at FROM webhooks WHERE disabled_at IS NULL ORDER BY created_at LIMIT 1) IS NOT NULL`

// DispatchBehind implements events.WebhookStore with one read on the
// read pool.
func (s webhookStore) DispatchBehind(ctx context.Context) (bool, error) {
	const op = "bunstore.DispatchBehind"
	rdb, err := s.e.reader(ctx, op)
	if err != nil {
		return false, err
	}
	var behind bool
	err = rdb.NewRaw("SELECT (SELECT value FROM event_marks WHERE name = ?) > (SELECT value FROM event_marks WHERE name = ?)",
		markSeq, markWebhooks).Scan(ctx, &behind)
	return behind, translate(op, err)
}

// candidateHooks reads the enabled endpoints that may want evs: those
// with neither a job nor a tag filter, and those filtered on one of the
// events' jobs or tags (each from its index).
func candidateHooks(ctx context.Context, db bun.IDB, evs []*events.Event) ([]*events.Webhook, error) {
	var jobs, tags []string
	seen := map[string]bool{}
	for _, e := range evs {
		if e.JobID != "" && !seen["j:"+e.JobID] {
			seen["j:"+e.JobID] = true
			jobs = append(jobs, e.JobID)
		}
		for _, t := range e.Tags {
			t = strings.ToLower(t)
			if !seen["t:"+t] {
				seen["t:"+t] = true
				tags = append(tags, t)
			}
		}
	}
	var rows []webhookRow
	q := db.NewSelect().Model(&rows).Where("w.disabled_at IS NULL").WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
		q = q.WhereOr("(w.job_id IS NULL AND w.tag IS NULL)")
		if len(jobs) > 0 {
			q = q.WhereOr("w.job_id IN (?)", bun.In(jobs))
		}
		if len(tags) > 0 {
			q = q.WhereOr("w.tag IN (?)", bun.In(tags))
		}
		return q
	})
	if err := q.Scan(ctx); err != nil {
		return nil, err
	}
	return webhooksOf("bunstore.Dispatch", rows)
}

// ClaimDeliveries implements events.WebhookStore with one conditional
// UPDATE (the search queue's ClaimPending pattern): a delivery another
// worker leased meanwhile fails the lease_until condition, which
// PostgreSQL checks again after waiting for the row, and is skipped.
func (s webhookStore) ClaimDeliveries(ctx context.Context, now time.Time, lease time.Duration, n int) ([]events.Claim, error) {
	const op = "bunstore.ClaimDeliveries"
	at := millis(now)
	rdb, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	some, err := rdb.NewSelect().Model((*deliveryRow)(nil)).
		Where("d.status = ?", string(events.DeliveryPending)).Where("d.next_attempt_at <= ?", at).Where("d.lease_until <= ?", at).
		Limit(1).Exists(ctx)
	if err != nil || !some {
		return nil, translate(op, err)
	}
	db, err := s.e.writer(ctx, op)
	if err != nil {
		return nil, err
	}
	// On PostgreSQL the rows are locked as they are picked, skipping those
	// another claim holds: two claims updating overlapping rows in
	// different orders would otherwise deadlock.
	skipLocked := ""
	if s.e.d.dialect == DialectPostgres {
		skipLocked = " FOR UPDATE OF d SKIP LOCKED"
	}
	var rows []deliveryRow
	err = db.NewRaw(`UPDATE webhook_deliveries SET lease_until = ?
WHERE lease_until <= ? AND status = ? AND id IN (
    SELECT d.id FROM webhook_deliveries AS d JOIN webhooks AS w ON w.id = d.webhook_id
    WHERE d.status = ? AND d.next_attempt_at <= ? AND d.lease_until <= ? AND w.disabled_at IS NULL
    ORDER BY d.next_attempt_at LIMIT ?`+skipLocked+`)
RETURNING *`, millis(now.Add(lease)), at, string(events.DeliveryPending), string(events.DeliveryPending), at, at, n).Scan(ctx, &rows)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, translate(op, err)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	hookIDs := make([]string, 0, len(rows))
	seqs := make([]int64, 0, len(rows))
	for _, r := range rows {
		hookIDs = append(hookIDs, r.WebhookID)
		seqs = append(seqs, r.EventSeq)
	}
	var hooks []webhookRow
	if err := byKeys(rdb.NewSelect().Model(&hooks), "webhooks AS w", "w.id", hookIDs).Scan(ctx); err != nil {
		return nil, translate(op, err)
	}
	byHook := map[string]*events.Webhook{}
	for i := range hooks {
		w, err := hooks[i].webhook()
		if err != nil {
			return nil, openjury.Wrap(op, err)
		}
		byHook[w.ID] = w
	}
	var evRows []eventRow
	if err := byKeys(rdb.NewSelect().Model(&evRows), "events AS e", "e.seq", seqs).Scan(ctx); err != nil {
		return nil, translate(op, err)
	}
	bySeq := map[int64]*events.Event{}
	for i := range evRows {
		e, err := evRows[i].event()
		if err != nil {
			return nil, openjury.Wrap(op, err)
		}
		bySeq[e.Seq] = e
	}
	out := make([]events.Claim, 0, len(rows))
	for i := range rows {
		w := byHook[rows[i].WebhookID]
		if w == nil {
			continue // deleted meanwhile: its deliveries went with it
		}
		out = append(out, events.Claim{Delivery: rows[i].delivery(), Webhook: w, Event: bySeq[rows[i].EventSeq]})
	}
	return out, nil
}

// RecordAttempt implements events.WebhookStore in one transaction.
func (s webhookStore) RecordAttempt(ctx context.Context, a events.Attempt) error {
	const op = "bunstore.RecordAttempt"
	at := millis(a.At)
	var status *int
	if a.Status != 0 {
		status = &a.Status
	}
	return s.e.inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		q := db.NewUpdate().Model((*deliveryRow)(nil)).
			Set("attempts = attempts + 1").Set("last_attempt_at = ?", at).Set("response_status = ?", status).
			Set("lease_until = 0").Where("id = ?", a.DeliveryID)
		switch {
		case a.OK:
			q = q.Set("status = ?", string(events.DeliveryDelivered)).Set("delivered_at = ?", at).
				Set("next_attempt_at = NULL").Set("error = NULL")
		case a.Next != nil:
			q = q.Set("status = ?", string(events.DeliveryPending)).Set("next_attempt_at = ?", millis(*a.Next)).Set("error = ?", a.Error)
		default:
			q = q.Set("status = ?", string(events.DeliveryFailed)).Set("next_attempt_at = NULL").Set("error = ?", a.Error)
		}
		if _, err := q.Exec(ctx); err != nil {
			return translate(op, err)
		}
		if a.OK {
			_, err := db.NewRaw("UPDATE webhooks SET failing_since = NULL WHERE id = ? AND failing_since IS NOT NULL", a.WebhookID).Exec(ctx)
			return translate(op, err)
		}
		if a.Next != nil {
			// An attempt under way when another one disabled the endpoint
			// schedules no retry: its delivery fails as the pending ones
			// did (read after the update, so a disable that committed
			// meanwhile is seen on PostgreSQL too).
			if _, err := db.NewRaw(`UPDATE webhook_deliveries SET status = ?, next_attempt_at = NULL, error = ?
WHERE id = ? AND status = ? AND EXISTS (SELECT 1 FROM webhooks WHERE id = ? AND disabled_at IS NOT NULL)`,
				string(events.DeliveryFailed), webhookDisabled, a.DeliveryID, string(events.DeliveryPending), a.WebhookID).Exec(ctx); err != nil {
				return translate(op, err)
			}
		}
		if _, err := db.NewRaw("UPDATE webhooks SET failing_since = ? WHERE id = ? AND failing_since IS NULL", at, a.WebhookID).Exec(ctx); err != nil {
			return translate(op, err)
		}
		if a.DisableAfter <= 0 {
			return nil
		}
		res, err := db.NewRaw("UPDATE webhooks SET disabled_at = ?, disabled_reason = ? WHERE id = ? AND disabled_at IS NULL AND failing_since <= ?",
			at, a.DisableReason, a.WebhookID, millis(a.At.Add(-a.DisableAfter))).Exec(ctx)
		if n, err := affected(op, res, err); err != nil || n == 0 {
			return err
		}
		_, err = db.NewRaw("UPDATE webhook_deliveries SET status = ?, next_attempt_at = NULL, error = ? WHERE webhook_id = ? AND status = ?",
			string(events.DeliveryFailed), webhookDisabled, a.WebhookID, string(events.DeliveryPending)).Exec(ctx)
		return translate(op, err)
	})
}

// webhookDisabled is the error of the deliveries a disable failed.
const webhookDisabled = "webhook disabled"

// ExpireDeliveries implements events.WebhookStore (the partial index on
// created_at of finished deliveries serves it).
func (s webhookStore) ExpireDeliveries(ctx context.Context, before time.Time, limit int) (int64, error) {
	const op = "bunstore.ExpireDeliveries"
	db, err := s.e.writer(ctx, op)
	if err != nil {
		return 0, err
	}
	res, err := db.NewRaw(`DELETE FROM webhook_deliveries WHERE id IN (
    SELECT id FROM webhook_deliveries WHERE status <> ? AND created_at < ? ORDER BY created_at LIMIT ?)`,
		string(events.DeliveryPending), millis(before), limit).Exec(ctx)
	return affected(op, res, err)
}
