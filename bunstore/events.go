package bunstore

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/events"
)

var (
	_ events.Outbox = eventStore{}
	_ events.Log    = eventStore{}
)

// outboxRow is a row of event_outbox.
type outboxRow struct {
	bun.BaseModel `bun:"table:event_outbox,alias:o"`

	PK        int64   `bun:"pk,pk,autoincrement"`
	Type      string  `bun:"type,notnull"`
	JobID     *string `bun:"job_id"`
	Actor     *string `bun:"actor"`
	Subjects  string  `bun:"subjects,notnull"`
	Audience  string  `bun:"audience,notnull"`
	Tags      string  `bun:"tags,notnull"`
	Data      string  `bun:"data,notnull"`
	CreatedAt int64   `bun:"created_at,notnull"`
}

// eventRow is a row of events.
type eventRow struct {
	bun.BaseModel `bun:"table:events,alias:e"`

	Seq        int64   `bun:"seq,pk"`
	Type       string  `bun:"type,notnull"`
	JobID      *string `bun:"job_id"`
	Actor      *string `bun:"actor"`
	Subjects   string  `bun:"subjects,notnull"`
	Audience   string  `bun:"audience,notnull"`
	Restricted int     `bun:"restricted,notnull"`
	Tags       string  `bun:"tags,notnull"`
	Data       string  `bun:"data,notnull"`
	CreatedAt  int64   `bun:"created_at,notnull"`
}

// eventKeyRow is a row of event_keys.
type eventKeyRow struct {
	bun.BaseModel `bun:"table:event_keys,alias:k"`

	Key string `bun:"key,pk"`
	Seq int64  `bun:"seq,pk"`
}

// The names of the rows of event_marks.
const (
	markSeq      = "seq"
	markHorizon  = "horizon"
	markWebhooks = "webhooks"
)

// eventStore implements events.Outbox (on the pools or one transaction)
// and events.Log (on the pools).
type eventStore struct{ e exec }

// Events returns the event outbox outside any transaction: each Append is
// its own transaction.
func (d *DB) Events() events.Outbox { return eventStore{d.pool()} }

// Events returns the event outbox of the transaction.
func (t txStores) Events() events.Outbox { return eventStore{t.e} }

// EventLog returns the sequenced event log.
func (d *DB) EventLog() events.Log { return eventStore{d.pool()} }

// nullString is s, or nil when it is empty.
func nullString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// jsonText is v as JSON text; v is a slice or map of plain values, which
// always encode.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic("bunstore: encoding an event: " + err.Error())
	}
	return string(b)
}

// addresses returns a as a JSON-ready list of strings ([] when empty).
func addresses(a []openjury.Address) []string {
	out := make([]string, len(a))
	for i, x := range a {
		out[i] = x.String()
	}
	return out
}

func toOutboxRow(ev *events.Event) outboxRow {
	tags := ev.Tags
	if tags == nil {
		tags = []string{}
	}
	data := ev.Data
	if data == nil {
		data = events.Data{}
	}
	return outboxRow{
		Type:      string(ev.Type),
		JobID:     nullString(ev.JobID),
		Actor:     nullString(ev.Actor.String()),
		Subjects:  jsonText(addresses(ev.Subjects)),
		Audience:  jsonText(addresses(ev.Audience)),
		Tags:      jsonText(tags),
		Data:      jsonText(data),
		CreatedAt: millis(ev.CreatedAt),
	}
}

// decodeEvent decodes the columns an outbox row and a log row share.
func decodeEvent(typ string, jobID, actor *string, subjects, audience, tags, data string, createdAt int64) (*events.Event, error) {
	ev, err := decodeEventHead(typ, jobID, actor, subjects, audience, tags, createdAt)
	if err != nil {
		return nil, err
	}
	// Numbers stay json.Number: amounts keep every decimal.
	dec := json.NewDecoder(strings.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&ev.Data); err != nil {
		return nil, err
	}
	return ev, nil
}

// decodeEventHead decodes the shared columns but the data, which the
// sequencer copies as it is.
func decodeEventHead(typ string, jobID, actor *string, subjects, audience, tags string, createdAt int64) (*events.Event, error) {
	ev := &events.Event{Type: events.Type(typ), CreatedAt: fromMillis(createdAt)}
	if jobID != nil {
		ev.JobID = *jobID
	}
	if actor != nil {
		ev.Actor = openjury.Address(*actor)
	}
	var subj, aud []string
	for _, c := range []struct {
		text string
		dst  *[]string
	}{{subjects, &subj}, {audience, &aud}, {tags, &ev.Tags}} {
		if err := json.Unmarshal([]byte(c.text), c.dst); err != nil {
			return nil, err
		}
	}
	for _, s := range subj {
		ev.Subjects = append(ev.Subjects, openjury.Address(s))
	}
	for _, s := range aud {
		ev.Audience = append(ev.Audience, openjury.Address(s))
	}
	return ev, nil
}

func (r *outboxRow) event() (*events.Event, error) {
	return decodeEvent(r.Type, r.JobID, r.Actor, r.Subjects, r.Audience, r.Tags, r.Data, r.CreatedAt)
}

func (r *eventRow) event() (*events.Event, error) {
	ev, err := decodeEvent(r.Type, r.JobID, r.Actor, r.Subjects, r.Audience, r.Tags, r.Data, r.CreatedAt)
	if err != nil {
		return nil, err
	}
	ev.Seq = r.Seq
	return ev, nil
}

func toEventRow(ev *events.Event) eventRow {
	o := toOutboxRow(ev)
	r := eventRow{Seq: ev.Seq, Type: o.Type, JobID: o.JobID, Actor: o.Actor, Subjects: o.Subjects,
		Audience: o.Audience, Tags: o.Tags, Data: o.Data, CreatedAt: o.CreatedAt}
	if ev.Restricted() {
		r.Restricted = 1
	}
	return r
}

// outboxArgs are the arguments of an outbox row in a guarded write's
// statement (insertEventInto, eventParams) and, last, whether to insert
// it: false, with placeholders, when ev is nil.
func outboxArgs(ev *events.Event) []any {
	if ev == nil {
		return []any{"", nil, nil, "[]", "[]", "[]", "{}", 0, false}
	}
	r := toOutboxRow(ev)
	return []any{r.Type, r.JobID, r.Actor, r.Subjects, r.Audience, r.Tags, r.Data, r.CreatedAt, true}
}

// Append implements events.Outbox: one multi-row INSERT on PostgreSQL,
// a prepared INSERT a row on SQLite.
func (s eventStore) Append(ctx context.Context, evs ...*events.Event) error {
	const op = "bunstore.AppendEvents"
	if len(evs) == 0 {
		return nil
	}
	rows := make([]outboxRow, len(evs))
	for i, ev := range evs {
		if !events.Known(ev.Type) {
			return openjury.Errorf(openjury.Internal, op, "unknown event type %q", ev.Type)
		}
		rows[i] = toOutboxRow(ev)
	}
	db, err := s.e.writer(ctx, op)
	if err != nil {
		return err
	}
	if d := s.e.d; d.dialect == DialectSQLite {
		// One prepared row at a time: no parse, no statement journal.
		err = d.execHotEach(ctx, db, d.hot.appendEvent, len(rows), func(i int) []any {
			r := &rows[i]
			return []any{r.Type, r.JobID, r.Actor, r.Subjects, r.Audience, r.Tags, r.Data, r.CreatedAt}
		}, nil)
	} else {
		_, err = db.NewInsert().Model(&rows).ExcludeColumn("pk").Exec(ctx)
	}
	if err != nil {
		return translate(op, err)
	}
	s.e.d.noteAppended(ctx)
	return nil
}

// CancelTimers implements events.Outbox (the index on (job_id,
// created_at) serves it).
func (s eventStore) CancelTimers(ctx context.Context, jobID string, types []events.Type, now time.Time) error {
	const op = "bunstore.CancelTimers"
	if len(types) == 0 {
		return nil
	}
	db, err := s.e.writer(ctx, op)
	if err != nil {
		return err
	}
	_, err = db.NewDelete().Model((*outboxRow)(nil)).
		Where("job_id = ?", jobID).Where("created_at > ?", millis(now)).Where("type IN (?)", bun.In(typeNames(types))).Exec(ctx)
	return translate(op, err)
}

// Sequence implements events.Log. An idle outbox costs one indexed read
// on the read pool, no write. The pass's turn is the row of event_marks
// 'seq', locked FOR UPDATE SKIP LOCKED on PostgreSQL (a replica whose
// pass finds it locked returns 0 at once; sequencePostgres); SQLite's one
// writer serialises passes anyway.
func (s eventStore) Sequence(ctx context.Context, now time.Time, limit int) (int, error) {
	const op = "bunstore.SequenceEvents"
	at := millis(now)
	if some, err := s.Waiting(ctx, now); err != nil || !some {
		return 0, err
	}
	if s.e.d.dialect == DialectPostgres {
		return s.sequencePostgres(ctx, at, limit)
	}
	moved := 0
	err := s.e.inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		moved = 0 // a run again (DB.runTx) may find the rows gone
		var last int64
		if err := db.NewRaw("SELECT value FROM event_marks WHERE name = ?", markSeq).Scan(ctx, &last); err != nil {
			return translate(op, err)
		}
		var rows []outboxRow
		if err := db.NewSelect().Model(&rows).Where("created_at <= ?", at).Order("pk").Limit(int64(limit)).Scan(ctx); err != nil {
			return translate(op, err)
		}
		if len(rows) == 0 {
			return nil
		}
		jobs, err := eventJobs(ctx, db, rows)
		if err != nil {
			return translate(op, err)
		}
		logRows, keys, pks, err := logEntries(rows, jobs, last)
		if err != nil {
			return openjury.Wrap(op, err)
		}
		last += int64(len(logRows))
		// One prepared row at a time: no parse, and no statement journal,
		// which a multi-row INSERT opens (the rows read are every outbox
		// row up to the last one's pk that is due).
		d := s.e.d
		if err := d.execHotEach(ctx, db, d.hot.insertEvent, len(logRows), func(i int) []any {
			r := &logRows[i]
			return []any{r.Seq, r.Type, r.JobID, r.Actor, r.Subjects, r.Audience, r.Restricted, r.Tags, r.Data, r.CreatedAt}
		}, nil); err != nil {
			return translate(op, err)
		}
		if err := d.execHotEach(ctx, db, d.hot.insertEventKey, len(keys), func(i int) []any { return []any{keys[i].Key, keys[i].Seq} }, nil); err != nil {
			return translate(op, err)
		}
		if _, err := d.execHot(ctx, db, d.hot.deleteSequenced, pks[len(pks)-1], at); err != nil {
			return translate(op, err)
		}
		if _, err := db.NewRaw("UPDATE event_marks SET value = ? WHERE name = ?", last, markSeq).Exec(ctx); err != nil {
			return translate(op, err)
		}
		moved = len(rows)
		return nil
	})
	if err != nil {
		return 0, err
	}
	return moved, nil
}

// Waiting implements events.Log with one indexed read on the read pool.
func (s eventStore) Waiting(ctx context.Context, now time.Time) (bool, error) {
	const op = "bunstore.EventsWaiting"
	rdb, err := s.e.reader(ctx, op)
	if err != nil {
		return false, err
	}
	some, err := rdb.NewSelect().Model((*outboxRow)(nil)).Where("created_at <= ?", millis(now)).Limit(1).Exists(ctx)
	return some, translate(op, err)
}

// eventJob is what an event of a job takes from it.
type eventJob struct {
	sponsor openjury.Address
	tags    []string
}

// eventJobs reads the sponsor and tags of the jobs of rows, by id.
func eventJobs(ctx context.Context, db bun.IDB, rows []outboxRow) (map[string]eventJob, error) {
	var ids []string
	for _, r := range rows {
		if r.JobID != nil && !slices.Contains(ids, *r.JobID) {
			ids = append(ids, *r.JobID)
		}
	}
	out := make(map[string]eventJob, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var jobs []jobRow
	if err := byKeys(db.NewSelect().Model(&jobs).Column("id", "sponsor_address", "tags"), "jobs AS j", "j.id", ids).Scan(ctx); err != nil {
		return nil, err
	}
	for _, j := range jobs {
		var tags []string
		_ = json.Unmarshal([]byte(j.Tags), &tags) // written by CreateJob; unreadable tags are left out
		out[j.ID] = eventJob{sponsor: openjury.Address(j.SponsorAddress), tags: tags}
	}
	return out, nil
}

// Bounds implements events.Log in one statement.
func (s eventStore) Bounds(ctx context.Context) (horizon, head int64, err error) {
	const op = "bunstore.EventBounds"
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return 0, 0, err
	}
	err = db.NewRaw("SELECT (SELECT value FROM event_marks WHERE name = ?), (SELECT value FROM event_marks WHERE name = ?)",
		markHorizon, markSeq).Scan(ctx, &horizon, &head)
	return horizon, head, translate(op, err)
}

// Read implements events.Log. The most selective filter drives the read
// as one index range in seq order: an address or a tag its index keys
// (event_keys), a job the index (job_id, seq), a single type the index
// (type, seq), none the primary key; the other filters are checked on the
// rows the range yields. Events with an audience are read only through
// the key of an address of their audience.
func (s eventStore) Read(ctx context.Context, f events.Filter, after, upto int64, limit int) ([]*events.Event, error) {
	const op = "bunstore.ReadEvents"
	if limit <= 0 || upto <= after {
		return []*events.Event{}, nil
	}
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	var rows []eventRow
	q := db.NewSelect().Model(&rows)
	keyed := ""
	switch {
	case !f.Address.IsZero():
		keyed = events.AddressKey(f.Address)
	case f.JobID == "" && f.Tag != "":
		keyed = events.TagKey(f.Tag)
	}
	if keyed != "" {
		if s.e.d.dialect == DialectPostgres {
			// Each key's event by its primary key, in the keys' order: the
			// lateral subquery (kept apart by OFFSET 0) makes the join a
			// nested loop of probes whatever the planner thinks of a small
			// table, so the read stays one index range however big the
			// log grows. SQLite joins this way by itself.
			q = q.ModelTableExpr("event_keys AS k CROSS JOIN LATERAL (SELECT * FROM events AS e0 WHERE e0.seq = k.seq OFFSET 0) AS e")
		} else {
			q = q.Join("JOIN event_keys AS k ON k.seq = e.seq")
		}
		q = q.Where("k.key = ?", keyed).Where("k.seq > ?", after).Where("k.seq <= ?", upto).OrderExpr("k.seq")
	} else {
		q = q.Where("e.seq > ?", after).Where("e.seq <= ?", upto).OrderExpr("e.seq")
	}
	if f.Address.IsZero() {
		q = q.Where("e.restricted = 0")
	}
	if f.JobID != "" {
		q = q.Where("e.job_id = ?", f.JobID)
	}
	if f.Tag != "" && keyed != events.TagKey(f.Tag) {
		q = q.Where("EXISTS (SELECT 1 FROM event_keys AS t WHERE t.key = ? AND t.seq = e.seq)", events.TagKey(f.Tag))
	}
	switch len(f.Types) {
	case 0:
	case 1:
		q = q.Where("e.type = ?", string(f.Types[0]))
	default:
		q = q.Where("e.type IN (?)", bun.In(typeNames(f.Types)))
	}
	return scanEvents(ctx, op, q.Limit(int64(limit)), &rows)
}

// scanEvents runs q, a select of eventRows into rows, and decodes them.
func scanEvents(ctx context.Context, op string, q *bun.SelectQuery, rows *[]eventRow) ([]*events.Event, error) {
	if err := q.Scan(ctx); err != nil {
		return nil, translate(op, err)
	}
	out := make([]*events.Event, len(*rows))
	for i := range *rows {
		var err error
		if out[i], err = (*rows)[i].event(); err != nil {
			return nil, openjury.Wrap(op, err)
		}
	}
	return out, nil
}

// Tail implements events.Log: a range of the primary key.
func (s eventStore) Tail(ctx context.Context, after, upto int64, limit int) ([]*events.Event, error) {
	const op = "bunstore.TailEvents"
	if limit <= 0 || upto <= after {
		return []*events.Event{}, nil
	}
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	var rows []eventRow
	q := db.NewSelect().Model(&rows).Where("e.seq > ?", after).Where("e.seq <= ?", upto).OrderExpr("e.seq").Limit(int64(limit))
	return scanEvents(ctx, op, q, &rows)
}

// Expire implements events.Log: it reads the oldest events' heads from
// the primary key's start, deletes the keys of the expired prefix by
// their primary key (expireKeysQuery), the events by seq range, and moves the
// horizon, in one transaction. event_keys has no index by seq: an event's
// keys are what events.Keys gives for its stored head, as the sequencer
// wrote them from the same completed event (logEntries), so a change to
// events.Keys comes with a migration that rewrites the keys.
func (s eventStore) Expire(ctx context.Context, before time.Time, limit int) (int64, error) {
	const op = "bunstore.ExpireEvents"
	var n int64
	err := s.e.inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		n = 0 // a run again (DB.runTx) counts afresh
		var oldest []eventRow
		if err := db.NewSelect().Model(&oldest).Column("seq", "type", "job_id", "actor", "subjects", "audience", "tags", "created_at").
			OrderExpr("e.seq").Limit(int64(limit)).Scan(ctx); err != nil {
			return translate(op, err)
		}
		var last int64
		var keys []eventKeyRow
		for _, r := range oldest {
			if r.CreatedAt >= millis(before) {
				break
			}
			ev, err := decodeEventHead(r.Type, r.JobID, r.Actor, r.Subjects, r.Audience, r.Tags, r.CreatedAt)
			if err != nil {
				return openjury.Wrap(op, err)
			}
			for _, k := range events.Keys(ev) {
				keys = append(keys, eventKeyRow{Key: k, Seq: r.Seq})
			}
			last, n = r.Seq, n+1
		}
		if n == 0 {
			return nil
		}
		for chunk := range slices.Chunk(keys, expireKeysChunk) {
			q, args := expireKeysQuery(s.e.d.dialect, chunk)
			if _, err := db.NewRaw(q, args...).Exec(ctx); err != nil {
				return translate(op, err)
			}
		}
		if _, err := db.NewDelete().Model((*eventRow)(nil)).Where("seq <= ?", last).Exec(ctx); err != nil {
			return translate(op, err)
		}
		_, err := db.NewRaw("UPDATE event_marks SET value = ? WHERE name = ? AND value < ?", last, markHorizon, last).Exec(ctx)
		return translate(op, err)
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}

// expireKeysChunk bounds the keys of one expireKeysQuery statement (two
// parameters each, under SQLite's 32,766 and PostgreSQL's 65,535).
const expireKeysChunk = 2000

// expireKeysQuery deletes keys by their primary key, each a probe of it.
// On PostgreSQL each key's row is found by a probe of its own (a LATERAL
// subquery the planner keeps apart, OFFSET 0), then deleted by row
// address: a join with the list may be planned as a hash join over the
// whole table.
func expireKeysQuery(dialect string, keys []eventKeyRow) (string, []any) {
	list, args := rowValues(keys, func(k eventKeyRow) []any { return []any{k.Key, k.Seq} })
	if dialect == DialectPostgres {
		return `DELETE FROM event_keys WHERE ctid = ANY(ARRAY(
    SELECT k.ctid FROM (VALUES ` + list + `) AS u (key, seq)
    CROSS JOIN LATERAL (SELECT e.ctid FROM event_keys AS e WHERE e.key = u.key AND e.seq = u.seq OFFSET 0) AS k))`, args
	}
	return "DELETE FROM event_keys WHERE (key, seq) IN (VALUES " + list + ")", args
}

// typeNames returns types as strings.
func typeNames(types []events.Type) []string {
	out := make([]string, len(types))
	for i, t := range types {
		out[i] = string(t)
	}
	return out
}
