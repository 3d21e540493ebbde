package bunstore

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"unicode/utf8"

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

// anchorProofRow is a row of anchor_proofs: the proof of one record of a
// job's snapshot. Leaf and Proof are packed 32-byte nodes.
type anchorProofRow struct {
	bun.BaseModel `bun:"table:anchor_proofs,alias:ap"`

	JobID    string `bun:"job_id,pk"`
	RecordID string `bun:"record_id,pk"`
	Leaf     []byte `bun:"leaf,notnull"`
	Proof    []byte `bun:"proof,notnull"`
}

// anchorProofChunk bounds the rows of one INSERT of anchor_proofs (bun
// writes the values into the statement text: about 0.5 KiB a row).
const anchorProofChunk = 500

// packHashes packs hashes into their 32-byte nodes, end to end (never nil).
func packHashes(op string, hs ...openjury.Hash) ([]byte, error) {
	out := make([]byte, 0, 32*len(hs))
	for _, h := range hs {
		n, err := anchor.NodeOf(h)
		if err != nil {
			return nil, openjury.Errorf(openjury.Invalid, op, "proof: %q is not a 32-byte hash", h)
		}
		out = append(out, n[:]...)
	}
	return out, nil
}

// unpackHashes is packHashes reversed.
func unpackHashes(op string, b []byte) ([]openjury.Hash, error) {
	if len(b)%32 != 0 {
		return nil, openjury.Errorf(openjury.Internal, op, "stored proof of %d bytes", len(b))
	}
	out := make([]openjury.Hash, len(b)/32)
	for i := range out {
		out[i] = openjury.HashFromBytes([32]byte(b[32*i:]))
	}
	return out, nil
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
// job is a Conflict), sets the job's anchor columns, only while they are
// NULL, and inserts the proofs, anchorProofChunk rows a statement, in one
// transaction.
func (s anchorStore) PutAnchor(ctx context.Context, b *anchor.Batch, document []byte, proofs []anchor.Proof) error {
	const op = "bunstore.PutAnchor"
	rows := make([]anchorProofRow, len(proofs))
	for i, p := range proofs {
		leaf, err := packHashes(op, p.Leaf)
		if err != nil {
			return err
		}
		path, err := packHashes(op, p.Proof...)
		if err != nil {
			return err
		}
		rows[i] = anchorProofRow{JobID: b.JobID, RecordID: p.Record, Leaf: leaf, Proof: path}
	}
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
		if err := exactlyOne(op, res, err, openjury.E(openjury.Conflict, op, "the job has an anchor batch already")); err != nil {
			return err
		}
		for chunk := range slices.Chunk(rows, anchorProofChunk) {
			if _, err := db.NewInsert().Model(&chunk).Exec(ctx); err != nil {
				return translateWith(op, err, details{detailDuplicate: "a record has two proofs"})
			}
		}
		return nil
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

// AnchorProof returns the stored proof of one record of a job's batch with
// one statement: the job by primary key, joined with the proof row by
// primary key and whether the job has any proof row (an index probe).
// Errors: NotFound "job not found", "anchor not found" or "record not
// found"; stored is false when the batch has no proof rows.
func (d *DB) AnchorProof(ctx context.Context, jobID, recordID string) (anchor.Proof, bool, error) {
	const op = "bunstore.AnchorProof"
	db, err := d.pool().reader(ctx, op)
	if err != nil {
		return anchor.Proof{}, false, err
	}
	// A record id bun cannot write into SQL text as it is (a NUL, invalid
	// UTF-8) was never stored: it has no row, and NULL matches none.
	var record any = recordID
	if strings.ContainsRune(recordID, 0) || !utf8.ValidString(recordID) {
		record = nil
	}
	var (
		batchID, root string
		leaf, path    []byte
		stored        bool
	)
	err = db.NewRaw(`SELECT j.anchor_batch_id, j.anchor_root, ap.leaf, ap.proof,
	EXISTS (SELECT 1 FROM anchor_proofs AS any_ap WHERE any_ap.job_id = j.id)
FROM jobs AS j LEFT JOIN anchor_proofs AS ap ON ap.job_id = j.id AND ap.record_id = ?
WHERE j.id = ?`, record, jobID).Scan(ctx, &batchID, &root, &leaf, &path, &stored)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return anchor.Proof{}, false, openjury.E(openjury.NotFound, op, "job not found")
	case err != nil:
		return anchor.Proof{}, false, translate(op, err)
	case batchID == "":
		return anchor.Proof{}, false, openjury.E(openjury.NotFound, op, "anchor not found")
	case !stored:
		return anchor.Proof{}, false, nil
	case leaf == nil:
		return anchor.Proof{}, true, openjury.E(openjury.NotFound, op, "record not found")
	}
	if len(leaf) != 32 {
		return anchor.Proof{}, true, openjury.Errorf(openjury.Internal, op, "stored leaf of %d bytes", len(leaf))
	}
	nodes, err := unpackHashes(op, path)
	if err != nil {
		return anchor.Proof{}, true, err
	}
	return anchor.Proof{Record: recordID, Leaf: openjury.HashFromBytes([32]byte(leaf)), Proof: nodes, Root: openjury.Hash(root)}, true, nil
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
