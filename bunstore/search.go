package bunstore

import (
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/search"
)

var (
	_ marketplace.SearchQueue = searchStore{}
	_ search.Store            = searchStore{}
)

// searchDocumentRow is a row of search_documents.
type searchDocumentRow struct {
	bun.BaseModel `bun:"table:search_documents,alias:sd"`

	Kind    string `bun:"kind,pk"`
	DocID   string `bun:"doc_id,pk"`
	Seq     int64  `bun:"seq,notnull"`
	Deleted int    `bun:"deleted,notnull"`
	Model   string `bun:"model,notnull"`
	// Vec is the quantised vector (search.Vec8.Encode); Vector the
	// float32 vector of an entry stored before vectors were quantised
	// (little-endian values), NULL for newer ones.
	Vec       []byte `bun:"vec"`
	Vector    []byte `bun:"vector"`
	UpdatedAt int64  `bun:"updated_at,notnull"`
}

// decodeFloat32s reads little-endian float32 values.
func decodeFloat32s(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}

// searchStore implements marketplace.SearchQueue (on the pools or one
// transaction) and search.Store (on the pools).
type searchStore struct{ e exec }

// Search returns the search queue outside any transaction.
func (d *DB) Search() marketplace.SearchQueue { return searchStore{d.pool()} }

// Search returns the search queue of the transaction.
func (t txStores) Search() marketplace.SearchQueue { return searchStore{t.e} }

// SearchIndex returns the store of the search index: the pending queue
// and the stored entries.
func (d *DB) SearchIndex() search.Store { return searchStore{d.pool()} }

// Enqueue implements marketplace.SearchQueue: it inserts the pending row,
// or makes an existing one claimable at once with the next gen.
func (s searchStore) Enqueue(ctx context.Context, kind, id string, now time.Time) error {
	const op = "bunstore.EnqueueSearch"
	db, err := s.e.writer(ctx, op)
	if err != nil {
		return err
	}
	_, err = s.e.d.execHot(ctx, db, s.e.d.hot.enqueueSearch, kind, id, millis(now))
	return translate(op, err)
}

// ClaimPending implements search.Store with one conditional UPDATE: a
// row another worker leased meanwhile fails the lease_until condition
// (on PostgreSQL a row another claim holds is skipped without waiting)
// and is skipped, as is a row whose lexical step is not done (lex_gen
// below gen: see IndexTexts).
func (s searchStore) ClaimPending(ctx context.Context, now time.Time, lease time.Duration, n int) ([]search.Pending, error) {
	const op = "bunstore.ClaimPending"
	at := millis(now)
	// An idle queue costs one indexed read, not a write (on SQLite the
	// one writer connection stays free for the service's writes).
	rdb, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	// Lexically done is lex_gen = gen; on PostgreSQL, where lex_gen <= gen
	// is checked, it is written lex_gen >= gen: PostgreSQL estimates an
	// equality of two columns at 0.5% of the rows, and with a long queue
	// then sorts the whole queue instead of walking the lease index
	// (migration 20261127000010).
	lexed := "lex_gen = gen"
	if s.e.d.dialect == DialectPostgres {
		lexed = "lex_gen >= gen"
	}
	some, err := rdb.NewSelect().Table("search_pending").Where("lease_until <= ?", at).Where(lexed).Limit(1).Exists(ctx)
	if err != nil || !some {
		return nil, translate(op, err)
	}
	db, err := s.e.writer(ctx, op)
	if err != nil {
		return nil, err
	}
	var rows []pendingRow
	until := millis(now.Add(lease))
	if s.e.d.dialect == DialectPostgres {
		// The rows are locked as they are picked, skipping those another
		// claim holds: two claims updating overlapping rows in different
		// orders would otherwise wait for each other, or deadlock. The
		// picked rows, locked, are then updated by their row address (a
		// join with the queue, by IN or FROM, was planned as a hash join
		// over the whole queue when its statistics were stale).
		err = db.NewRaw(`UPDATE search_pending SET lease_until = ?
WHERE ctid = ANY(ARRAY(
    SELECT ctid FROM search_pending WHERE lease_until <= ? AND `+lexed+` ORDER BY lease_until, queued_at LIMIT ? FOR UPDATE SKIP LOCKED))
AND lease_until <= ? AND `+lexed+`
RETURNING kind, doc_id, gen`, until, at, n, at).Scan(ctx, &rows)
	} else {
		err = db.NewRaw(`UPDATE search_pending SET lease_until = ?
WHERE lease_until <= ? AND `+lexed+` AND (kind, doc_id) IN (
    SELECT kind, doc_id FROM search_pending WHERE lease_until <= ? AND `+lexed+` ORDER BY lease_until, queued_at LIMIT ?)
RETURNING kind, doc_id, gen`, until, at, at, n).Scan(ctx, &rows)
	}
	if err != nil {
		return nil, translate(op, err)
	}
	return pendings(rows), nil
}

// pendingRow is a row of search_pending as the queue's statements return
// it (RETURNING kind, doc_id, gen).
type pendingRow struct {
	Kind  string `bun:"kind"`
	DocID string `bun:"doc_id"`
	Gen   int64  `bun:"gen"`
}

// pendings returns rows as search.Pending items, in order.
func pendings(rows []pendingRow) []search.Pending {
	out := make([]search.Pending, len(rows))
	for i, r := range rows {
		out[i] = search.Pending{Kind: search.Kind(r.Kind), ID: r.DocID, Gen: r.Gen}
	}
	return out
}

// foundSources are the documents pendingSources read, by kind and id.
type foundSources map[search.Kind]map[string]sourceRow

// of returns the document of it: Gone when it was not found.
func (f foundSources) of(it search.Pending) sourceRow {
	src, ok := f[it.Kind][it.ID]
	if !ok {
		src.Source = search.Source{Kind: it.Kind, ID: it.ID, Gone: true}
	}
	return src
}

// pendingSources reads the documents of items with one query a kind
// present (readSources), in the order of search.Kinds.
func pendingSources(ctx context.Context, db bun.IDB, items []search.Pending) (foundSources, error) {
	ids := map[search.Kind][]string{}
	for _, it := range items {
		ids[it.Kind] = append(ids[it.Kind], it.ID)
	}
	found := make(foundSources, len(ids))
	for _, kind := range search.Kinds {
		if len(ids[kind]) == 0 {
			continue
		}
		m, err := readSources(ctx, db, kind, ids[kind])
		if err != nil {
			return nil, err
		}
		found[kind] = m
	}
	return found, nil
}

// Sources implements search.Store with one query per kind present.
func (s searchStore) Sources(ctx context.Context, items []search.Pending) ([]search.Source, error) {
	const op = "bunstore.SearchSources"
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	found, err := pendingSources(ctx, db, items)
	if err != nil {
		return nil, translate(op, err)
	}
	out := make([]search.Source, len(items))
	for i, it := range items {
		out[i] = found.of(it).Source
	}
	return out, nil
}

// sourceRow is a document as readSources reads it: its Source and the
// job it belongs to (search.Document.JobID; NULL for none).
type sourceRow struct {
	search.Source
	JobID *string
}

// readSources reads the documents of one kind by id; a missing one is
// left out, a deleted comment or post is Gone.
func readSources(ctx context.Context, db bun.IDB, kind search.Kind, ids []string) (map[string]sourceRow, error) {
	out := make(map[string]sourceRow, len(ids))
	switch kind {
	case search.KindJob:
		var rows []jobRow
		if err := byKeys(db.NewSelect().Model(&rows).Column("id", "title", "prompt"), "jobs AS j", "j.id", ids).Scan(ctx); err != nil {
			return nil, err
		}
		for _, r := range rows {
			out[r.ID] = sourceRow{search.Source{Kind: kind, ID: r.ID, Title: r.Title, Body: r.Prompt}, &r.ID}
		}
	case search.KindSubmission:
		var rows []submissionRow
		if err := byKeys(db.NewSelect().Model(&rows).Column("id", "job_id", "content", "evidence"), "submissions AS s", "s.id", ids).Scan(ctx); err != nil {
			return nil, err
		}
		for _, r := range rows {
			var ev []evidenceJSON
			_ = json.Unmarshal([]byte(r.Evidence), &ev) // written by CreateSubmission; unreadable evidence is left out
			src := search.Source{Kind: kind, ID: r.ID, Body: r.Content}
			for _, e := range ev {
				src.Extra = append(src.Extra, e.Claim, e.Quote)
			}
			out[r.ID] = sourceRow{src, &r.JobID}
		}
	case search.KindComment:
		var rows []commentRow
		if err := byKeys(db.NewSelect().Model(&rows).Column("id", "job_id", "content", "deleted_at"), "comments AS c", "c.id", ids).Scan(ctx); err != nil {
			return nil, err
		}
		for _, r := range rows {
			out[r.ID] = sourceRow{search.Source{Kind: kind, ID: r.ID, Body: r.Content, Gone: r.DeletedAt != nil}, nullString(r.JobID)}
		}
	case search.KindPost:
		var rows []postRow
		if err := byKeys(db.NewSelect().Model(&rows).Column("id", "title", "content", "deleted_at"), "posts AS p", "p.id", ids).Scan(ctx); err != nil {
			return nil, err
		}
		for _, r := range rows {
			out[r.ID] = sourceRow{Source: search.Source{Kind: kind, ID: r.ID, Title: r.Title, Body: r.Content, Gone: r.DeletedAt != nil}}
		}
	}
	return out, nil
}

// pendingKeys renders items as a row-value list "(?, ?, ?), ..." of
// (kind, doc_id, gen) with its arguments.
func pendingKeys(items []search.Pending) (string, []any) {
	return rowValues(items, func(it search.Pending) []any { return []any{string(it.Kind), it.ID, it.Gen} })
}

// rowValues renders rows as a row-value list "(?, ?), (?, ?), ..." with
// one placeholder per value that fields gives for a row (the same number
// for every row), and returns the list with the values in order.
func rowValues[T any](rows []T, fields func(T) []any) (string, []any) {
	var b strings.Builder
	var args []any
	for i, r := range rows {
		if i > 0 {
			b.WriteString(", ")
		}
		vals := fields(r)
		b.WriteString("(?" + strings.Repeat(", ?", len(vals)-1) + ")")
		args = append(args, vals...)
	}
	return b.String(), args
}

// SaveEntries implements search.Store. The entries' sequence numbers come
// from the search_seq row, locked by the UPDATE until commit, so the
// writers of entries (the workers of every replica) commit one after the
// other in sequence order and a follower never skips an entry committed
// late.
func (s searchStore) SaveEntries(ctx context.Context, items []search.Pending, entries []search.Entry, now time.Time) (int, error) {
	const op = "bunstore.SaveEntries"
	if len(items) == 0 {
		return 0, nil
	}
	saved := 0
	err := s.e.inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		saved = 0 // a run again (DB.runTx) may find the rows gone
		current, err := s.dropPending(ctx, db, items)
		if err != nil {
			return translate(op, err)
		}
		saved, err = s.saveCurrent(ctx, db, current, entries, now)
		return translate(op, err)
	})
	return saved, err
}

// saveCurrent stores the entries of the documents in current (their
// pending rows just removed), each with a new change sequence, and
// returns how many it stored.
func (s searchStore) saveCurrent(ctx context.Context, db bun.IDB, current map[[2]string]bool, entries []search.Entry, now time.Time) (int, error) {
	n := len(current)
	if n == 0 {
		return 0, nil
	}
	var last int64
	if err := db.NewRaw("UPDATE search_seq SET seq = seq + ? WHERE id = 1 RETURNING seq", n).Scan(ctx, &last); err != nil {
		return 0, err
	}
	seq := last - int64(n)
	rows := make([]searchDocumentRow, 0, n)
	for _, e := range entries {
		key := [2]string{string(e.Kind), e.ID}
		if !current[key] {
			continue
		}
		delete(current, key) // a document listed twice is stored once
		seq++
		row := searchDocumentRow{Kind: key[0], DocID: key[1], Seq: seq, Model: e.Model, UpdatedAt: millis(now)}
		if e.Deleted {
			row.Deleted = 1
		} else {
			row.Vec = e.Vector.Encode()
		}
		rows = append(rows, row)
	}
	if err := s.putDocuments(ctx, db, rows); err != nil {
		return 0, err
	}
	return len(rows), nil
}

// dropPending removes the queue rows of items still at their gen whose
// lexical step is done (a row whose lexical step is not done stays:
// IndexTexts removes nothing, the row is the lexical step's queue too),
// and returns the keys (kind, doc_id) it removed. On SQLite it deletes
// one prepared row at a time.
func (s searchStore) dropPending(ctx context.Context, db bun.IDB, items []search.Pending) (map[[2]string]bool, error) {
	if d := s.e.d; d.dialect == DialectSQLite {
		return dropEach(ctx, d, db, d.hot.dropPending, items)
	}
	list, args := pendingKeys(items)
	var done []struct {
		Kind  string `bun:"kind"`
		DocID string `bun:"doc_id"`
	}
	if err := db.NewRaw("DELETE FROM search_pending WHERE (kind, doc_id, gen) IN (VALUES "+list+") AND lex_gen = gen RETURNING kind, doc_id", args...).Scan(ctx, &done); err != nil {
		return nil, err
	}
	dropped := make(map[[2]string]bool, len(done))
	for _, d := range done {
		dropped[[2]string{d.Kind, d.DocID}] = true
	}
	return dropped, nil
}

// dropHeld removes, on SQLite, the queue rows of items that IndexInline
// read: those still at their gen and not leased at now by a vector step
// (whatever their lexical step: the write does both), one prepared row
// at a time, and returns the keys (kind, doc_id) it removed. A row
// another worker claimed meanwhile is left to it.
func (s searchStore) dropHeld(ctx context.Context, db bun.IDB, items []search.Pending, now int64) (map[[2]string]bool, error) {
	return dropEach(ctx, s.e.d, db, s.e.d.hot.dropHeld, items, now)
}

// dropEach runs stmt, a prepared delete of one queue row by kind, doc_id
// and gen (then extra), for each of items, and returns the keys (kind,
// doc_id) of the rows it deleted.
func dropEach(ctx context.Context, d *DB, db bun.IDB, stmt hot, items []search.Pending, extra ...any) (map[[2]string]bool, error) {
	dropped := make(map[[2]string]bool, len(items))
	err := d.execHotEach(ctx, db, stmt, len(items), func(i int) []any {
		return append([]any{string(items[i].Kind), items[i].ID, items[i].Gen}, extra...)
	}, func(i int, res sql.Result) error {
		n, err := res.RowsAffected()
		if n > 0 {
			dropped[[2]string{string(items[i].Kind), items[i].ID}] = true
		}
		return err
	})
	return dropped, err
}

// putDocumentInto and putDocumentOnConflict are the upsert of
// search_documents rows (putDocuments).
const (
	putDocumentInto       = `INSERT INTO search_documents (kind, doc_id, seq, deleted, model, vec, vector, updated_at)`
	putDocumentOnConflict = `
ON CONFLICT (kind, doc_id) DO UPDATE SET seq = excluded.seq, deleted = excluded.deleted, model = excluded.model,
vec = excluded.vec, vector = excluded.vector, updated_at = excluded.updated_at`
)

// putDocuments upserts rows: on SQLite one prepared row at a time (no
// parse, and no statement journal, which a multi-row INSERT opens), on
// PostgreSQL in one statement.
func (s searchStore) putDocuments(ctx context.Context, db bun.IDB, rows []searchDocumentRow) error {
	if len(rows) == 0 {
		return nil
	}
	args := func(i int) []any {
		r := &rows[i]
		return []any{r.Kind, r.DocID, r.Seq, r.Deleted, r.Model, r.Vec, r.Vector, r.UpdatedAt}
	}
	if d := s.e.d; d.dialect == DialectSQLite {
		return d.execHotEach(ctx, db, d.hot.putDocument, len(rows), args, nil)
	}
	_, err := db.NewInsert().Model(&rows).
		On("CONFLICT (kind, doc_id) DO UPDATE").
		Set("seq = EXCLUDED.seq, deleted = EXCLUDED.deleted, model = EXCLUDED.model").
		Set("vec = EXCLUDED.vec, vector = EXCLUDED.vector, updated_at = EXCLUDED.updated_at").
		Exec(ctx)
	return err
}

// RetryPending implements search.Store; rows written again meanwhile
// (another gen) keep their lease.
func (s searchStore) RetryPending(ctx context.Context, items []search.Pending, at time.Time) error {
	const op = "bunstore.RetryPending"
	if len(items) == 0 {
		return nil
	}
	db, err := s.e.writer(ctx, op)
	if err != nil {
		return err
	}
	list, args := pendingKeys(items)
	_, err = db.NewRaw("UPDATE search_pending SET lease_until = ? WHERE (kind, doc_id, gen) IN (VALUES "+list+")",
		append([]any{millis(at)}, args...)...).Exec(ctx)
	return translate(op, err)
}

// Changes implements search.Store (the seq index serves it), copying
// what ScanChanges hands over.
func (s searchStore) Changes(ctx context.Context, after int64, limit int) ([]search.Entry, error) {
	out := []search.Entry{}
	_, err := s.ScanChanges(ctx, after, limit, func(e *search.Entry) error {
		c := *e
		if c.Vector.Values != nil {
			c.Vector.Values = slices.Clone(c.Vector.Values)
		}
		out = append(out, c)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ScanChanges implements search.Store with one query (the seq index
// serves it), read row by row: a quantised vector's values are the
// driver's buffer of the row, not a copy, so a replica loading its index
// allocates nothing per entry beyond what the driver does.
func (s searchStore) ScanChanges(ctx context.Context, after int64, limit int, fn func(*search.Entry) error) (int, error) {
	const op = "bunstore.SearchChanges"
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return 0, err
	}
	rows, err := db.QueryContext(ctx, "SELECT kind, doc_id, seq, deleted, model, vec, vector FROM search_documents WHERE seq > ? ORDER BY seq LIMIT ?", after, limit)
	if err != nil {
		return 0, translate(op, err)
	}
	defer func() { _ = rows.Close() }()
	n := 0
	var (
		e           search.Entry
		kind        string
		deleted     int
		vec, vector sql.RawBytes
	)
	for rows.Next() {
		if err := rows.Scan(&kind, &e.ID, &e.Seq, &deleted, &e.Model, &vec, &vector); err != nil {
			return n, translate(op, err)
		}
		e.Kind, e.Deleted, e.Vector = search.Kind(kind), deleted != 0, search.Vec8{}
		switch {
		case vec != nil:
			// A vector that cannot be read is left empty (a follower
			// drops the document).
			e.Vector, _ = search.ViewVec8(vec)
		case vector != nil:
			e.Vector = search.Quantize(decodeFloat32s(vector))
		}
		n++
		if err := fn(&e); err != nil {
			return n, err
		}
	}
	return n, translate(op, rows.Err())
}

// PendingCount implements search.Store.
func (s searchStore) PendingCount(ctx context.Context) (int64, error) {
	const op = "bunstore.PendingCount"
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return 0, err
	}
	var n int64
	err = db.NewRaw("SELECT count(*) FROM search_pending").Scan(ctx, &n)
	return n, translate(op, err)
}

// RequeueOtherModels implements search.Store in one statement. The rows
// it queues are done lexically (lex_gen = gen = 1): a document without a
// pending row has its current text in search_text.
func (s searchStore) RequeueOtherModels(ctx context.Context, model string, now time.Time) (int64, error) {
	const op = "bunstore.RequeueOtherModels"
	db, err := s.e.writer(ctx, op)
	if err != nil {
		return 0, err
	}
	res, err := db.NewRaw(`INSERT INTO search_pending (kind, doc_id, queued_at, lex_gen)
SELECT kind, doc_id, ?, 1 FROM search_documents WHERE deleted = 0 AND model <> ?
ON CONFLICT (kind, doc_id) DO NOTHING`, millis(now), model).Exec(ctx)
	return affected(op, res, err)
}
