package bunstore

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
)

var _ anchor.Store = (*DB)(nil)

// anchorCols are the anchor_* columns of a job row (embedded with
// bun:"embed:anchor_"): the snapshot batch and its receipt. All NULL until
// the job closes.
type anchorCols struct {
	BatchID       string       `bun:"batch_id,nullzero"`
	Root          string       `bun:"root,nullzero"`
	URI           string       `bun:"uri,nullzero"`
	SchemaVersion *int64       `bun:"schema_version"`
	Salt          string       `bun:"salt,nullzero"`
	CreatedAt     *int64       `bun:"created_at"`
	Records       *int64       `bun:"records"`
	Size          *int64       `bun:"size"`
	Receipt       chainRefCols `bun:"embed:"`
}

// batch reads the columns back; nil when the job has no batch.
func (c anchorCols) batch(jobID string) *anchor.Batch {
	if c.BatchID == "" {
		return nil
	}
	b := &anchor.Batch{
		ID:      c.BatchID,
		JobID:   jobID,
		Root:    openjury.Hash(c.Root),
		Salt:    openjury.Hash(c.Salt),
		URI:     c.URI,
		Receipt: c.Receipt.ref(),
	}
	if c.SchemaVersion != nil {
		b.SchemaVersion = int(*c.SchemaVersion)
	}
	if c.CreatedAt != nil {
		b.CreatedAt = fromMillis(*c.CreatedAt)
	}
	if c.Records != nil {
		b.Records = *c.Records
	}
	if c.Size != nil {
		b.Size = *c.Size
	}
	return b
}

// anchorBatchRow is a row of anchor_batches: one per job, made by the
// close's last transaction; its records and tree are the anchor_records
// and anchor_nodes rows of its id.
type anchorBatchRow struct {
	bun.BaseModel `bun:"table:anchor_batches,alias:ab"`

	ID        string `bun:"id,pk"`
	JobID     string `bun:"job_id,notnull"`
	CreatedAt int64  `bun:"created_at,notnull"`
}

// anchorDetails are the details of a missing job or batch.
var anchorDetails = details{detailNotFound: "job not found", detailDuplicate: "the job has an anchor batch already"}

// AnchorBatch returns the batch of a job from its row (one primary-key
// read). Errors: NotFound "job not found" or "anchor not found".
func (d *DB) AnchorBatch(ctx context.Context, jobID string) (*anchor.Batch, error) {
	const op = "bunstore.AnchorBatch"
	j, err := d.Jobs().Job(ctx, jobID)
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	if j.Anchor == nil {
		return nil, openjury.E(openjury.NotFound, op, "anchor not found")
	}
	return j.Anchor, nil
}

// RecordAnchorReceipt sets the receipt columns of a job's batch with one
// conditional UPDATE ... WHERE anchor_tx_hash IS NULL, so of racing calls
// exactly one stores its receipt, then reads the batch back in the same
// transaction. Errors: NotFound "job not found" or "anchor not found".
func (d *DB) RecordAnchorReceipt(ctx context.Context, jobID string, ref openjury.ChainRef, by openjury.Address, at time.Time) (*anchor.Batch, error) {
	const op = "bunstore.RecordAnchorReceipt"
	var b *anchor.Batch
	err := d.pool().inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		c := toChainRefCols(ref)
		res, err := db.NewUpdate().Model((*jobRow)(nil)).
			Set("anchor_tx_hash = ?", c.TxHash).
			Set("anchor_chain_id = ?", c.ChainID).
			Set("anchor_contract_address = ?", c.ContractAddress).
			Set("anchor_block_number = ?", c.BlockNumber).
			Set("anchor_log_index = ?", c.LogIndex).
			Where("id = ?", jobID).
			Where("anchor_batch_id IS NOT NULL").
			Where("anchor_tx_hash IS NULL").
			Exec(ctx)
		recorded, err := affected(op, res, err)
		if err != nil {
			return err
		}
		j, err := jobStore{d.txExec(db)}.get(ctx, op, db, d.hot.jobByID, jobID)
		if err != nil {
			return err
		}
		if b = j.Anchor; b == nil {
			return openjury.E(openjury.NotFound, op, "anchor not found")
		}
		if recorded == 0 {
			return nil
		}
		return eventStore{d.txExec(db)}.Append(ctx, anchor.RecordedEvent(b, by, at))
	})
	return b, err
}

// AnchorRecords implements anchor.Store: the primary key (batch_id, ord)
// walked from after.
func (d *DB) AnchorRecords(ctx context.Context, batchID string, after int64, limit, maxBytes int) ([]anchor.StoredRecord, error) {
	const op = "bunstore.AnchorRecords"
	db, err := d.pool().reader(ctx, op)
	if err != nil {
		return nil, err
	}
	rows, err := db.QueryContext(ctx, `SELECT r.ord, r.body FROM anchor_records AS r
WHERE r.batch_id = ? AND r.ord > ? ORDER BY r.ord LIMIT ?`, batchID, after, max(limit, 1))
	if err != nil {
		return nil, translate(op, err)
	}
	defer func() { _ = rows.Close() }()
	var out []anchor.StoredRecord
	size := 0
	for size < maxBytes && rows.Next() {
		var r anchor.StoredRecord
		if err := rows.Scan(&r.Ord, &r.Body); err != nil {
			return nil, translate(op, err)
		}
		out = append(out, r)
		size += len(r.Body)
	}
	return out, translate(op, rows.Err())
}

// AnchorLeaves implements anchor.Store: the records by the unique key
// (batch_id, record_id), each joined with the row of anchor_leaf_index
// holding its ord's leaf index (by primary key); the salt's from row -1.
func (d *DB) AnchorLeaves(ctx context.Context, batchID string, recordIDs []string) ([]anchor.LeafRef, error) {
	const op = "bunstore.AnchorLeaves"
	db, err := d.pool().reader(ctx, op)
	if err != nil {
		return nil, err
	}
	var out []anchor.LeafRef
	var ids []string
	for _, id := range recordIDs {
		switch {
		case strings.ContainsRune(id, 0) || !utf8.ValidString(id):
			// bun cannot write it into SQL text as it is; no record has it.
		case id == anchor.SaltRecordID:
			var idxs []byte
			err := db.NewRaw(`SELECT li.idxs FROM anchor_leaf_index AS li WHERE li.batch_id = ? AND li.chunk = -1`, batchID).Scan(ctx, &idxs)
			switch {
			case errors.Is(err, sql.ErrNoRows):
			case err != nil:
				return nil, translate(op, err)
			case len(idxs) != 4:
				return nil, openjury.Errorf(openjury.Internal, op, "stored salt index of %d bytes", len(idxs))
			default:
				out = append(out, anchor.LeafRef{Record: anchor.SaltRecordID, Index: int64(binary.BigEndian.Uint32(idxs))})
			}
		default:
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return out, nil
	}
	q := db.NewSelect().ColumnExpr("r.record_id, r.ord, li.idxs")
	if len(ids) == 1 {
		q = q.ModelTableExpr("anchor_records AS r").Where("r.record_id = ?", ids[0])
	} else {
		// At most two, in document order (anchor.Store).
		q = byKeys(q, "anchor_records AS r", "r.record_id", ids).OrderExpr("r.ord").Limit(2)
	}
	rows, err := q.Join("JOIN anchor_leaf_index AS li ON li.batch_id = r.batch_id AND li.chunk = r.ord / ?", indexesPerRow).
		Where("r.batch_id = ?", batchID).Rows(ctx)
	if err != nil {
		return nil, translate(op, err)
	}
	defer func() { _ = rows.Close() }()
	for rows.Next() {
		var (
			ref  anchor.LeafRef
			ord  int64
			idxs []byte
		)
		if err := rows.Scan(&ref.Record, &ord, &idxs); err != nil {
			return nil, translate(op, err)
		}
		at := 4 * (ord % indexesPerRow)
		if int64(len(idxs)) < at+4 {
			return nil, openjury.Errorf(openjury.Internal, op, "no stored leaf index of record %s", ref.Record)
		}
		ref.Index = int64(binary.BigEndian.Uint32(idxs[at:]))
		out = append(out, ref)
	}
	return out, translate(op, rows.Err())
}

// AnchorNodes implements anchor.Store: the rows holding the positions, by
// primary key, in one statement.
func (d *DB) AnchorNodes(ctx context.Context, batchID string, at []anchor.NodeAt) (map[anchor.NodeAt]anchor.Node, error) {
	const op = "bunstore.AnchorNodes"
	out := make(map[anchor.NodeAt]anchor.Node, len(at))
	if len(at) == 0 {
		return out, nil
	}
	db, err := d.pool().reader(ctx, op)
	if err != nil {
		return nil, err
	}
	q, args := nodesQuery(batchID, at)
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, translate(op, err)
	}
	defer func() { _ = rows.Close() }()
	type rowKey struct {
		level int
		chunk int64
	}
	packed := map[rowKey][]byte{}
	for rows.Next() {
		var (
			k      rowKey
			hashes []byte
		)
		if err := rows.Scan(&k.level, &k.chunk, &hashes); err != nil {
			return nil, translate(op, err)
		}
		packed[k] = hashes
	}
	if err := rows.Err(); err != nil {
		return nil, translate(op, err)
	}
	for _, p := range at {
		hashes := packed[rowKey{p.Level, p.Index / nodesPerRow}]
		if off := 32 * (p.Index % nodesPerRow); p.Index >= 0 && int64(len(hashes)) >= off+32 {
			out[p] = anchor.Node(hashes[off : off+32])
		}
	}
	return out, nil
}

// nodesQuery is the statement of AnchorNodes and its arguments: the rows
// of the positions' chunks.
func nodesQuery(batchID string, at []anchor.NodeAt) (string, []any) {
	var b strings.Builder
	b.WriteString("SELECT n.level, n.chunk, n.hashes FROM anchor_nodes AS n WHERE n.batch_id = ? AND (")
	args := []any{batchID}
	seen := map[anchor.NodeAt]bool{}
	for _, p := range at {
		row := anchor.NodeAt{Level: p.Level, Index: p.Index / nodesPerRow}
		if seen[row] {
			continue
		}
		if len(seen) > 0 {
			b.WriteString(" OR ")
		}
		seen[row] = true
		b.WriteString("(n.level = ? AND n.chunk = ?)")
		args = append(args, row.Level, row.Index)
	}
	b.WriteString(")")
	return b.String(), args
}
