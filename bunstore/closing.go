package bunstore

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/marketplace"
)

// Closing at any size (docs/rules.md): the closing lease on the job row,
// the records of a snapshot read by keyset pages, and the staged build
// (anchor_builds, anchor_records, anchor_nodes) written in short
// transactions; anchors.go serves a stored batch from the same rows.

var (
	_ marketplace.AnchorStore   = anchorStore{}
	_ marketplace.SnapshotStore = snapshotStore{}
)

// Bounds of the deletes of a build's staged rows: rows per statement,
// each its own transaction, and builds per cleanup run.
const (
	dropRecordsChunk = 500
	dropNodesChunk   = 1000
	cleanupBuilds    = 20
)

// Rows per INSERT statement of staged records (their values are bound
// parameters, 4 a row, under both engines' limits), and how the tree is
// packed: nodes per anchor_nodes row, leaf indexes per anchor_leaf_index
// row (marketplace.NodesPiece and LeafIndexPiece are multiples of them).
const (
	insertRecordsChunk = 500
	nodesPerRow        = 128
	indexesPerRow      = 1024
)

// Anchors returns the anchor store outside any transaction.
func (d *DB) Anchors() marketplace.AnchorStore { return anchorStore{d.pool()} }

// Anchors returns the anchor store of the transaction.
func (t txStores) Anchors() marketplace.AnchorStore { return anchorStore{t.e} }

// anchorStore implements marketplace.AnchorStore (see closing.go).
type anchorStore struct{ e exec }

// sqlExec runs a statement with bound parameters.
type sqlExec interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// rawSQL returns where to run a statement of db with its arguments bound
// by the driver rather than written into the text by bun: large staged
// bodies then go to the database as they are.
func rawSQL(db bun.IDB) sqlExec {
	switch v := db.(type) {
	case *bun.DB:
		return v.DB
	case bun.Tx:
		return v.Tx
	case bun.Conn:
		return v.Conn
	}
	return db
}

// insertRows runs INSERT INTO head VALUES (?, ...), one tuple of width
// placeholders per row, with args (width per row), on db with bound
// parameters.
func (d *DB) insertRows(ctx context.Context, db bun.IDB, head string, width, rows int, args []any) error {
	tuple := "(" + strings.Repeat("?, ", width-1) + "?)"
	var b strings.Builder
	b.Grow(len(head) + rows*(len(tuple)+2) + 8)
	b.WriteString(head)
	b.WriteString(" VALUES ")
	for i := range rows {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(tuple)
	}
	_, err := rawSQL(db).ExecContext(ctx, newHot(d.dialect, b.String()).native, args...)
	return err
}

// ClaimClosing implements marketplace.AnchorStore: one conditional update
// of the job row (the caller holds its lock) and the build's row.
func (s anchorStore) ClaimClosing(ctx context.Context, jobID, batchID string, now, until time.Time) error {
	const op = "bunstore.ClaimClosing"
	return s.e.inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		res, err := db.NewUpdate().Model((*jobRow)(nil)).
			Set("closing_id = ?", batchID).
			Set("closing_until = ?", millis(until)).
			Where("id = ?", jobID).
			Exec(ctx)
		if err := exactlyOne(op, res, err, openjury.E(openjury.NotFound, op, "job not found")); err != nil {
			return err
		}
		_, err = db.NewInsert().Model(&anchorBuildRow{BatchID: batchID, JobID: jobID, StartedAt: millis(now)}).Exec(ctx)
		return translate(op, err)
	})
}

// anchorBuildRow is a row of anchor_builds: a build in progress.
type anchorBuildRow struct {
	bun.BaseModel `bun:"table:anchor_builds,alias:abd"`

	BatchID   string `bun:"batch_id,pk"`
	JobID     string `bun:"job_id,notnull"`
	StartedAt int64  `bun:"started_at,notnull"`
}

// errLeaseLost is the Conflict of a lease that is no longer the caller's.
func errLeaseLost(op string) error {
	return openjury.E(openjury.Conflict, op, "closing lease lost; try again")
}

// RenewClosing implements marketplace.AnchorStore: UPDATE ... WHERE
// closing_id = batchID AND closing_until > now.
func (s anchorStore) RenewClosing(ctx context.Context, jobID, batchID string, now, until time.Time) error {
	const op = "bunstore.RenewClosing"
	db, err := s.e.writer(ctx, op)
	if err != nil {
		return err
	}
	res, err := db.NewUpdate().Model((*jobRow)(nil)).
		Set("closing_until = ?", millis(until)).
		Where("id = ?", jobID).
		Where("closing_id = ?", batchID).
		Where("closing_until > ?", millis(now)).
		Exec(ctx)
	return exactlyOne(op, res, err, errLeaseLost(op))
}

// AbandonClosing implements marketplace.AnchorStore: the lease is cleared
// by a conditional update, then the build's rows go, a chunk per
// transaction (dropBuild).
func (s anchorStore) AbandonClosing(ctx context.Context, jobID, batchID string) error {
	const op = "bunstore.AbandonClosing"
	db, err := s.e.writer(ctx, op)
	if err != nil {
		return err
	}
	_, err = db.NewUpdate().Model((*jobRow)(nil)).
		Set("closing_id = NULL").
		Set("closing_until = NULL").
		Where("id = ?", jobID).
		Where("closing_id = ?", batchID).
		Exec(ctx)
	if err != nil {
		return translate(op, err)
	}
	_, err = s.dropBuild(ctx, op, batchID)
	return err
}

// dropBuild deletes the staged rows of the build batchID and its build
// row, unless it became a batch (then nothing), each statement deleting at
// most a chunk (each its own transaction outside one), and returns how
// many rows went.
func (s anchorStore) dropBuild(ctx context.Context, op, batchID string) (int64, error) {
	rdb, err := s.e.reader(ctx, op)
	if err != nil {
		return 0, err
	}
	committed, err := rdb.NewSelect().Model((*anchorBatchRow)(nil)).Where("ab.id = ?", batchID).Exists(ctx)
	if err != nil || committed {
		return 0, translate(op, err)
	}
	var total int64
	for _, q := range dropBuildQueries {
		chunk := dropRecordsChunk
		if !strings.Contains(q, "anchor_records") {
			chunk = dropNodesChunk
		}
		for {
			var n int64
			err := s.e.inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
				res, err := db.ExecContext(ctx, q, batchID, batchID, chunk)
				if err != nil {
					return translate(op, err)
				}
				n, err = res.RowsAffected()
				return translate(op, err)
			})
			if err != nil {
				return total, err
			}
			total += n
			if n < int64(chunk) {
				break
			}
		}
	}
	db, err := s.e.writer(ctx, op)
	if err != nil {
		return total, err
	}
	res, err := db.NewDelete().Model((*anchorBuildRow)(nil)).Where("batch_id = ?", batchID).Exec(ctx)
	if err != nil {
		return total, translate(op, err)
	}
	n, err := res.RowsAffected()
	return total + n, translate(op, err)
}

// dropBuildQueries delete a chunk of a build's staged rows, in primary
// key order; parameters: batch id, batch id, chunk size.
var dropBuildQueries = []string{
	`DELETE FROM anchor_records WHERE batch_id = ? AND ord IN
(SELECT r.ord FROM anchor_records AS r WHERE r.batch_id = ? ORDER BY r.ord LIMIT ?)`,
	`DELETE FROM anchor_nodes WHERE batch_id = ? AND (level, chunk) IN
(SELECT n.level, n.chunk FROM anchor_nodes AS n WHERE n.batch_id = ? ORDER BY n.level, n.chunk LIMIT ?)`,
	`DELETE FROM anchor_leaf_index WHERE batch_id = ? AND chunk IN
(SELECT li.chunk FROM anchor_leaf_index AS li WHERE li.batch_id = ? ORDER BY li.chunk LIMIT ?)`,
}

// StageRecords implements marketplace.AnchorStore: multi-row INSERTs of
// insertRecordsChunk rows with bound parameters, in one transaction.
func (s anchorStore) StageRecords(ctx context.Context, batchID string, recs []marketplace.StagedRecord) error {
	const op = "bunstore.StageRecords"
	return s.e.inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		for from := 0; from < len(recs); from += insertRecordsChunk {
			part := recs[from:min(from+insertRecordsChunk, len(recs))]
			args := make([]any, 0, 4*len(part))
			for _, r := range part {
				args = append(args, batchID, r.Ord, r.RecordID, r.Body)
			}
			if err := s.e.d.insertRows(ctx, db, "INSERT INTO anchor_records (batch_id, ord, record_id, body)", 4, len(part), args); err != nil {
				return translateWith(op, err, details{detailDuplicate: "a record is staged twice"})
			}
		}
		return nil
	})
}

// StageNodes implements marketplace.AnchorStore: the nodes packed
// nodesPerRow to a row of anchor_nodes, in one statement.
func (s anchorStore) StageNodes(ctx context.Context, batchID string, level int, from int64, nodes []anchor.Node) error {
	const op = "bunstore.StageNodes"
	if from%nodesPerRow != 0 || len(nodes) == 0 {
		return openjury.Errorf(openjury.Internal, op, "nodes from %d: not a whole row's start", from)
	}
	var args []any
	rows := 0
	for i := 0; i < len(nodes); i += nodesPerRow {
		part := nodes[i:min(i+nodesPerRow, len(nodes))]
		packed := make([]byte, 0, 32*len(part))
		for _, n := range part {
			packed = append(packed, n[:]...)
		}
		args = append(args, batchID, level, (from+int64(i))/nodesPerRow, packed)
		rows++
	}
	return s.e.inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		err := s.e.d.insertRows(ctx, db, "INSERT INTO anchor_nodes (batch_id, level, chunk, hashes)", 4, rows, args)
		return translateWith(op, err, details{detailDuplicate: "a node is staged twice"})
	})
}

// StageLeafIndex implements marketplace.AnchorStore: the indexes packed
// indexesPerRow to a row of anchor_leaf_index (4 bytes big-endian each),
// the salt's in row -1, in one statement.
func (s anchorStore) StageLeafIndex(ctx context.Context, batchID string, from int64, index []uint32) error {
	const op = "bunstore.StageLeafIndex"
	if (from != -1 && from%indexesPerRow != 0) || (from == -1 && len(index) != 1) || len(index) == 0 {
		return openjury.Errorf(openjury.Internal, op, "leaf indexes from %d: not a whole row's start", from)
	}
	var args []any
	rows := 0
	for i := 0; i < len(index); i += indexesPerRow {
		part := index[i:min(i+indexesPerRow, len(index))]
		packed := make([]byte, 0, 4*len(part))
		for _, x := range part {
			packed = binary.BigEndian.AppendUint32(packed, x)
		}
		chunk := int64(-1)
		if from >= 0 {
			chunk = (from + int64(i)) / indexesPerRow
		}
		args = append(args, batchID, chunk, packed)
		rows++
	}
	return s.e.inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		err := s.e.d.insertRows(ctx, db, "INSERT INTO anchor_leaf_index (batch_id, chunk, idxs)", 3, rows, args)
		return translateWith(op, err, details{detailDuplicate: "a leaf index is staged twice"})
	})
}

// PutBatch implements marketplace.AnchorStore: the batch row (job_id is
// unique: a second batch of a job is a Conflict), the job's anchor
// columns, set only while they are NULL, with its lease cleared, and the
// build row deleted, in one transaction.
func (s anchorStore) PutBatch(ctx context.Context, b *anchor.Batch) error {
	const op = "bunstore.PutBatch"
	return s.e.inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		row := &anchorBatchRow{ID: b.ID, JobID: b.JobID, CreatedAt: millis(b.CreatedAt)}
		if _, err := db.NewInsert().Model(row).Exec(ctx); err != nil {
			return translateWith(op, err, anchorDetails)
		}
		res, err := db.NewUpdate().Model((*jobRow)(nil)).
			Set("anchor_batch_id = ?", b.ID).
			Set("anchor_root = ?", string(b.Root)).
			Set("anchor_uri = ?", b.URI).
			Set("anchor_schema_version = ?", int64(b.SchemaVersion)).
			Set("anchor_salt = ?", string(b.Salt)).
			Set("anchor_created_at = ?", millis(b.CreatedAt)).
			Set("anchor_records = ?", b.Records).
			Set("anchor_size = ?", b.Size).
			Set("closing_id = NULL").
			Set("closing_until = NULL").
			Where("id = ?", b.JobID).
			Where("anchor_batch_id IS NULL").
			Exec(ctx)
		if err := exactlyOne(op, res, err, openjury.E(openjury.Conflict, op, "the job has an anchor batch already")); err != nil {
			return err
		}
		_, err = db.NewDelete().Model((*anchorBuildRow)(nil)).Where("batch_id = ?", b.ID).Exec(ctx)
		return translate(op, err)
	})
}

// CleanupBuilds implements marketplace.AnchorStore: the oldest builds
// started before `before` (from anchor_builds' started_at index) whose
// job's lease is not theirs and live at now, up to cleanupBuilds of them
// a run, each dropped by dropBuild.
func (s anchorStore) CleanupBuilds(ctx context.Context, before, now time.Time) (int64, error) {
	const op = "bunstore.CleanupBuilds"
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return 0, err
	}
	var ids []string
	err = db.NewSelect().Model((*anchorBuildRow)(nil)).ColumnExpr("abd.batch_id").
		Join("JOIN jobs AS j ON j.id = abd.job_id").
		Where("abd.started_at < ?", millis(before)).
		Where("NOT (COALESCE(j.closing_id = abd.batch_id, FALSE) AND COALESCE(j.closing_until > ?, FALSE))", millis(now)).
		OrderExpr("abd.started_at").
		Limit(cleanupBuilds).
		Scan(ctx, &ids)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, translate(op, err)
	}
	var total int64
	for _, id := range ids {
		n, err := s.dropBuild(ctx, op, id)
		total += n
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

// Snapshots returns the snapshot reader outside any transaction: each page
// is one statement on the read pool.
func (d *DB) Snapshots() marketplace.SnapshotStore { return snapshotStore{d.pool()} }

// Snapshots returns the snapshot reader of the transaction.
func (t txStores) Snapshots() marketplace.SnapshotStore { return snapshotStore{t.e} }

// snapshotStore implements marketplace.SnapshotStore: each page is one
// SELECT walking an index in (created_at, id) order from the cursor, its
// rows handed over as they are read.
type snapshotStore struct{ e exec }

// scanPage runs the query q makes of db (a page of rows R), calling fn
// with each row until it returns false. On PostgreSQL it runs with
// enable_sort off (SET LOCAL, in a read-only transaction of its own, or
// in a savepoint rolled back after it inside the caller's): the page must
// walk its index in order whatever the planner's statistics say, since a
// large job's rows may be too new for them, and a top-N sort of all the
// rest of the job's rows on each page would make the scan quadratic.
func scanPage[R any](ctx context.Context, s snapshotStore, op string, q func(db bun.IDB) *bun.SelectQuery, fn func(*R) bool) error {
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return err
	}
	if s.e.d.dialect != DialectPostgres {
		return scanRows(ctx, s.e.d, op, q(db), fn)
	}
	var tx bun.Tx
	if s.e.tx {
		tx, err = s.e.write.BeginTx(ctx, nil) // a savepoint
	} else {
		tx, err = s.e.d.w.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	}
	if err != nil {
		return translate(op, err)
	}
	defer func() { _ = tx.Rollback() }()
	if _, err := tx.ExecContext(ctx, "SET LOCAL enable_sort = off"); err != nil {
		return translate(op, err)
	}
	return scanRows(ctx, s.e.d, op, q(tx), fn)
}

// scanRows runs q, calling fn with each row until it returns false.
func scanRows[R any](ctx context.Context, d *DB, op string, q *bun.SelectQuery, fn func(*R) bool) error {
	rows, err := q.Rows(ctx)
	if err != nil {
		return translate(op, err)
	}
	defer func() { _ = rows.Close() }()
	for rows.Next() {
		var r R
		if err := d.w.ScanRow(ctx, rows, &r); err != nil {
			return translate(op, err)
		}
		if !fn(&r) {
			return nil
		}
	}
	return translate(op, rows.Err())
}

// scanJob walks the rows R (alias a) of a job after the cursor, oldest
// first (its (job_id, created_at, id) index), up to limit, with where
// added, calling fn with each row converted by conv until it returns
// false.
func scanJob[R, T any](ctx context.Context, s snapshotStore, op, a, jobID string, after *marketplace.Cursor, limit int,
	where func(q *bun.SelectQuery) *bun.SelectQuery, conv func(*R) (T, error), fn func(T) bool) error {
	var convErr error
	err := scanPage(ctx, s, op, func(db bun.IDB) *bun.SelectQuery {
		q := db.NewSelect().Model((*R)(nil)).Where("?.job_id = ?", bun.Ident(a), jobID)
		if after != nil {
			q = q.Where("(?.created_at, ?.id) > (?, ?)", bun.Ident(a), bun.Ident(a), millis(after.At), after.ID)
		}
		if where != nil {
			q = where(q)
		}
		return q.OrderExpr("?.created_at ASC", bun.Ident(a)).OrderExpr("?.id ASC", bun.Ident(a)).Limit(int64(max(limit, 1)))
	}, func(r *R) bool {
		x, err := conv(r)
		if err != nil {
			convErr = openjury.Wrap(op, err)
			return false
		}
		return fn(x)
	})
	if err == nil {
		err = convErr
	}
	return err
}

// ScanSubmissions walks submissions (job_id, created_at, id).
func (s snapshotStore) ScanSubmissions(ctx context.Context, jobID string, after *marketplace.Cursor, limit int, fn func(*marketplace.Submission) bool) error {
	return scanJob(ctx, s, "bunstore.ScanSubmissions", "s", jobID, after, limit, nil, (*submissionRow).submission, fn)
}

// ScanVotes walks votes (job_id, created_at, id).
func (s snapshotStore) ScanVotes(ctx context.Context, jobID string, after *marketplace.Cursor, limit int, fn func(*marketplace.Vote) bool) error {
	return scanJob(ctx, s, "bunstore.ScanVotes", "v", jobID, after, limit, nil, (*voteRow).vote, fn)
}

// ScanFinalVotes walks final_votes (job_id, created_at, id).
func (s snapshotStore) ScanFinalVotes(ctx context.Context, jobID string, after *marketplace.Cursor, limit int, fn func(*marketplace.FinalVote) bool) error {
	return scanJob(ctx, s, "bunstore.ScanFinalVotes", "fv", jobID, after, limit, nil,
		func(r *finalVoteRow) (*marketplace.FinalVote, error) { return r.finalVote(), nil }, fn)
}

// ScanComments walks comments (job_id, created_at, id), keeping those of
// rev at most rev.
func (s snapshotStore) ScanComments(ctx context.Context, jobID string, rev int64, after *marketplace.Cursor, limit int, fn func(*marketplace.Comment) bool) error {
	return scanJob(ctx, s, "bunstore.ScanComments", "c", jobID, after, limit,
		func(q *bun.SelectQuery) *bun.SelectQuery { return q.Where("c.rev <= ?", rev) },
		func(r *commentRow) (*marketplace.Comment, error) { return r.comment(), nil }, fn)
}
