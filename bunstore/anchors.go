package bunstore

import (
	"context"
	"database/sql"
	"errors"

	"github.com/uptrace/bun"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/marketplace"
)

var (
	_ anchor.Store            = (*DB)(nil)
	_ marketplace.AnchorStore = anchorStore{}
)

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
	return b
}

// anchorBatchRow is a row of anchor_batches: the stored document.
type anchorBatchRow struct {
	bun.BaseModel `bun:"table:anchor_batches,alias:ab"`

	ID        string `bun:"id,pk"`
	JobID     string `bun:"job_id,notnull"`
	CreatedAt int64  `bun:"created_at,notnull"`
	Document  []byte `bun:"document,notnull"`
}

// anchorDetails are the details of a missing job or batch.
var anchorDetails = details{detailNotFound: "job not found", detailDuplicate: "the job has an anchor batch already"}

// Anchors returns the anchor store outside any transaction.
func (d *DB) Anchors() marketplace.AnchorStore { return anchorStore{d.pool()} }

// Anchors returns the anchor store of the transaction.
func (t txStores) Anchors() marketplace.AnchorStore { return anchorStore{t.e} }

// anchorStore implements marketplace.AnchorStore.
type anchorStore struct{ e exec }

// AnchorRecords reads, each kind in (created_at, id) order, the
// submissions, jury votes, final votes of a job and the comments on it and
// on its submissions (index-backed by job_id and by comments' target
// index).
func (s anchorStore) AnchorRecords(ctx context.Context, jobID string) (*marketplace.AnchorRecords, error) {
	const op = "bunstore.AnchorRecords"
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	var (
		subs   []submissionRow
		votes  []voteRow
		finals []finalVoteRow
		cmts   []commentRow
	)
	queries := []*bun.SelectQuery{
		db.NewSelect().Model(&subs).Where("s.job_id = ?", jobID).OrderExpr("s.created_at, s.id"),
		db.NewSelect().Model(&votes).Where("v.job_id = ?", jobID).OrderExpr("v.created_at, v.id"),
		db.NewSelect().Model(&finals).Where("fv.job_id = ?", jobID).OrderExpr("fv.created_at, fv.id"),
		db.NewSelect().Model(&cmts).
			Where("(c.target_type = 'job' AND c.target_id = ?) OR (c.target_type = 'submission' AND c.target_id IN (SELECT s.id FROM submissions AS s WHERE s.job_id = ?))", jobID, jobID).
			OrderExpr("c.created_at, c.id"),
	}
	for _, q := range queries {
		if err := q.Scan(ctx); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, translate(op, err)
		}
	}
	out := &marketplace.AnchorRecords{
		Submissions: make([]*marketplace.Submission, len(subs)),
		Votes:       make([]*marketplace.Vote, len(votes)),
		FinalVotes:  make([]*marketplace.FinalVote, len(finals)),
		Comments:    make([]*marketplace.Comment, len(cmts)),
	}
	for i := range subs {
		if out.Submissions[i], err = subs[i].submission(); err != nil {
			return nil, openjury.Wrap(op, err)
		}
	}
	for i := range votes {
		if out.Votes[i], err = votes[i].vote(); err != nil {
			return nil, openjury.Wrap(op, err)
		}
	}
	for i := range finals {
		out.FinalVotes[i] = finals[i].finalVote()
	}
	for i := range cmts {
		out.Comments[i] = cmts[i].comment()
	}
	return out, nil
}

// PutAnchor inserts the batch row (job_id is unique: a second batch of a
// job is a Conflict) and sets the job's anchor columns, only while they are
// NULL, in one transaction.
func (s anchorStore) PutAnchor(ctx context.Context, b *anchor.Batch, document []byte) error {
	const op = "bunstore.PutAnchor"
	return s.e.inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		row := &anchorBatchRow{ID: b.ID, JobID: b.JobID, CreatedAt: millis(b.CreatedAt), Document: document}
		if _, err := db.NewInsert().Model(row).Exec(ctx); err != nil {
			return translateWith(op, err, anchorDetails)
		}
		version, created := int64(b.SchemaVersion), millis(b.CreatedAt)
		res, err := db.NewUpdate().Model((*jobRow)(nil)).
			Set("anchor_batch_id = ?", b.ID).
			Set("anchor_root = ?", string(b.Root)).
			Set("anchor_uri = ?", b.URI).
			Set("anchor_schema_version = ?", version).
			Set("anchor_salt = ?", string(b.Salt)).
			Set("anchor_created_at = ?", created).
			Where("id = ?", b.JobID).
			Where("anchor_batch_id IS NULL").
			Exec(ctx)
		return exactlyOne(op, res, err, openjury.E(openjury.Conflict, op, "the job has an anchor batch already"))
	})
}

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

// AnchorDocument returns the stored document of a job's batch (a unique
// key read). Errors: NotFound "job not found" or "anchor not found".
func (d *DB) AnchorDocument(ctx context.Context, jobID string) ([]byte, error) {
	const op = "bunstore.AnchorDocument"
	db, err := d.pool().reader(ctx, op)
	if err != nil {
		return nil, err
	}
	var row anchorBatchRow
	err = db.NewSelect().Model(&row).Where("ab.job_id = ?", jobID).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		// Which one is missing: the job, or its batch.
		if _, err := d.AnchorBatch(ctx, jobID); err != nil {
			return nil, openjury.Wrap(op, err)
		}
		return nil, openjury.E(openjury.NotFound, op, "anchor not found")
	}
	if err != nil {
		return nil, translate(op, err)
	}
	return row.Document, nil
}

// RecordAnchorReceipt sets the receipt columns of a job's batch with one
// conditional UPDATE ... WHERE anchor_tx_hash IS NULL, so of racing calls
// exactly one stores its receipt, then reads the batch back in the same
// transaction. Errors: NotFound "job not found" or "anchor not found".
func (d *DB) RecordAnchorReceipt(ctx context.Context, jobID string, ref openjury.ChainRef) (*anchor.Batch, error) {
	const op = "bunstore.RecordAnchorReceipt"
	var b *anchor.Batch
	err := d.pool().inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		c := toChainRefCols(ref)
		_, err := db.NewUpdate().Model((*jobRow)(nil)).
			Set("anchor_tx_hash = ?", c.TxHash).
			Set("anchor_chain_id = ?", c.ChainID).
			Set("anchor_contract_address = ?", c.ContractAddress).
			Set("anchor_block_number = ?", c.BlockNumber).
			Set("anchor_log_index = ?", c.LogIndex).
			Where("id = ?", jobID).
			Where("anchor_batch_id IS NOT NULL").
			Where("anchor_tx_hash IS NULL").
			Exec(ctx)
		if err != nil {
			return translate(op, err)
		}
		j, err := jobStore{exec{d: d, read: db, write: db, tx: true}}.get(ctx, op, db, d.hot.jobByID, jobID)
		if err != nil {
			return err
		}
		if b = j.Anchor; b == nil {
			return openjury.E(openjury.NotFound, op, "anchor not found")
		}
		return nil
	})
	return b, err
}
