package bunstore

import (
	"context"

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

// Anchors returns the anchor store outside any transaction.
func (d *DB) Anchors() marketplace.AnchorStore { return anchorStore{d.pool()} }

// Anchors returns the anchor store of the transaction.
func (t txStores) Anchors() marketplace.AnchorStore { return anchorStore{t.e} }

// anchorStore implements marketplace.AnchorStore (see closing.go).
type anchorStore struct{ e exec }

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
		j, err := jobStore{d.txExec(db)}.get(ctx, op, db, d.hot.jobByID, jobID)
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
