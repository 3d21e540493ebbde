package bunstore

import (
	"context"
	"database/sql"
	"errors"

	"github.com/uptrace/bun"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/events"
)

// sequenceQuery is the one statement of a sequencer pass on PostgreSQL
// (sequencePostgres). It takes the turn, the row lock of event_marks
// 'seq' (no row when another pass holds it: SKIP LOCKED), and, holding
// it, deletes the events from the outbox by pk, writes them to the log
// numbered after the mark's value (their ordinals in the arrays) with
// their keys, and moves the mark. It returns the mark's value before the
// pass and how many outbox rows it deleted. The parameters, in order: the
// outbox pks; the log rows' type, job id, actor, subjects, audience,
// restricted, tags, data and created_at, one array each; the keys and the
// ordinals of their events; the number of events.
const sequenceQuery = `WITH m AS (SELECT value FROM event_marks WHERE name = 'seq' FOR UPDATE SKIP LOCKED),
del AS (DELETE FROM event_outbox WHERE pk = ANY(?::bigint[]) AND EXISTS (SELECT 1 FROM m) RETURNING pk),
ev AS (INSERT INTO events (seq, type, job_id, actor, subjects, audience, restricted, tags, data, created_at)
SELECT m.value + u.ord, u.type, u.job_id, u.actor, u.subjects, u.audience, u.restricted, u.tags, u.data, u.created_at
FROM m, unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::smallint[], ?::text[], ?::text[], ?::bigint[])
WITH ORDINALITY AS u (type, job_id, actor, subjects, audience, restricted, tags, data, created_at, ord)),
k AS (INSERT INTO event_keys (key, seq) SELECT u.key, m.value + u.ord FROM m, unnest(?::text[], ?::bigint[]) AS u (key, ord)),
up AS (UPDATE event_marks SET value = m.value + ?::bigint FROM m WHERE event_marks.name = 'seq')
SELECT m.value, (SELECT count(*) FROM del) FROM m`

// errOutboxMoved rolls back a pass whose outbox rows another pass moved
// between its read and its turn.
var errOutboxMoved = errors.New("bunstore: outbox rows moved by another pass")

// sequencePostgres is Sequence on PostgreSQL. It reads the outbox's
// events and their jobs and completes them before it takes the turn,
// then writes them in one prepared statement (sequenceQuery) in a
// transaction of its own: the transaction holds its id and the turn for
// that statement and its commit only, not while the events are decoded
// and encoded. (An open transaction that wrote holds back the cleanup of
// every row version that changed since it began: the dead versions of hot
// rows, such as an agent's reputation, that index scans then walk.) When
// another pass moved some of the events after the read, the statement
// deletes fewer rows than it read and the transaction rolls back: this
// pass moves none, the next one reads again.
func (s eventStore) sequencePostgres(ctx context.Context, at int64, limit int) (int, error) {
	const op = "bunstore.SequenceEvents"
	d := s.e.d
	db, err := s.e.writer(ctx, op)
	if err != nil {
		return 0, err
	}
	var rows []outboxRow
	if err := db.NewSelect().Model(&rows).Where("created_at <= ?", at).Order("pk").Limit(int64(limit)).Scan(ctx); err != nil {
		return 0, translate(op, err)
	}
	if len(rows) == 0 {
		return 0, nil
	}
	jobs, err := eventJobs(ctx, db, rows)
	if err != nil {
		return 0, translate(op, err)
	}
	// Numbered from 1: the statement adds the mark's value.
	logRows, keys, pks, err := logEntries(rows, jobs, 0)
	if err != nil {
		return 0, openjury.Wrap(op, err)
	}
	n := len(logRows)
	var (
		types, subjects, audience, tags, data = make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
		jobIDs, actors                        = make([]*string, n), make([]*string, n)
		restricted                            = make([]int16, n)
		createdAt                             = make([]int64, n)
		keyNames                              = make([]string, len(keys))
		keyOrds                               = make([]int64, len(keys))
	)
	for i, r := range logRows {
		types[i], jobIDs[i], actors[i], subjects[i], audience[i] = r.Type, r.JobID, r.Actor, r.Subjects, r.Audience
		restricted[i], tags[i], data[i], createdAt[i] = int16(r.Restricted), r.Tags, r.Data, r.CreatedAt
	}
	for i, k := range keys {
		keyNames[i], keyOrds[i] = k.Key, k.Seq
	}
	moved := 0
	err = s.e.inTx(ctx, op, func(ctx context.Context, tx bun.IDB) error {
		moved = 0
		var last, deleted int64
		err := d.scanHot(ctx, tx, d.hot.sequence, []any{&last, &deleted}, pks,
			types, jobIDs, actors, subjects, audience, restricted, tags, data, createdAt,
			keyNames, keyOrds, int64(n))
		if errors.Is(err, sql.ErrNoRows) {
			return nil // another replica's pass holds the turn
		}
		if err != nil {
			return translate(op, err)
		}
		if deleted != int64(n) {
			return errOutboxMoved
		}
		moved = n
		return nil
	})
	if errors.Is(err, errOutboxMoved) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return moved, nil
}

// logEntries completes the events of the outbox rows with their jobs
// (events.Complete) and numbers them from first+1 in order: their log
// rows, their keys and the rows' pks.
func logEntries(rows []outboxRow, jobs map[string]eventJob, first int64) ([]eventRow, []eventKeyRow, []int64, error) {
	logRows := make([]eventRow, len(rows))
	var keys []eventKeyRow
	pks := make([]int64, len(rows))
	for i := range rows {
		r := &rows[i]
		// The data is copied as it is: only the other columns change.
		ev, err := decodeEventHead(r.Type, r.JobID, r.Actor, r.Subjects, r.Audience, r.Tags, r.CreatedAt)
		if err != nil {
			return nil, nil, nil, err
		}
		if j, ok := jobs[ev.JobID]; ok {
			events.Complete(ev, j.sponsor, j.tags)
		}
		first++
		ev.Seq = first
		logRows[i] = toEventRow(ev)
		logRows[i].Data = r.Data
		for _, k := range events.Keys(ev) {
			keys = append(keys, eventKeyRow{Key: k, Seq: ev.Seq})
		}
		pks[i] = rows[i].PK
	}
	return logRows, keys, pks, nil
}
