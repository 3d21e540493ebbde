package bunstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
)

var _ marketplace.CommitmentStore = commitmentStore{}

// Commitments returns the commitment store outside any transaction.
func (d *DB) Commitments() marketplace.CommitmentStore { return commitmentStore{d.pool()} }

// Commitments returns the commitment store of the transaction.
func (t txStores) Commitments() marketplace.CommitmentStore { return commitmentStore{t.e} }

// commitmentRow is a row of jury_commitments.
type commitmentRow struct {
	bun.BaseModel `bun:"table:jury_commitments,alias:c"`

	JobID        string `bun:"job_id,pk"`
	VoterAddress string `bun:"voter_address,pk"`
	ID           string `bun:"id,notnull"`
	Commitment   string `bun:"commitment,notnull"`
	CreatedAt    int64  `bun:"created_at,notnull"`
	RevealedAt   *int64 `bun:"revealed_at"`
}

// commitmentStore implements marketplace.CommitmentStore on the pools or
// on one transaction.
type commitmentStore struct{ e exec }

// PutCommitment inserts or replaces in one INSERT ... ON CONFLICT (job_id,
// voter_address) DO UPDATE ... RETURNING id: racing commitments of one
// voter end as one row.
func (s commitmentStore) PutCommitment(ctx context.Context, c *marketplace.Commitment) error {
	const op = "bunstore.PutCommitment"
	db, err := s.e.writer(ctx, op)
	if err != nil {
		return err
	}
	row := &commitmentRow{JobID: c.JobID, VoterAddress: string(c.Voter), ID: c.ID, Commitment: string(c.Commitment), CreatedAt: millis(c.CreatedAt)}
	if row.ID == "" {
		row.ID = openjury.NewID()
	}
	_, err = db.NewInsert().Model(row).On("CONFLICT (job_id, voter_address) DO UPDATE").
		Set("commitment = EXCLUDED.commitment").Set("created_at = EXCLUDED.created_at").
		Returning("id").Exec(ctx)
	if err != nil {
		return translateWith(op, err, commitmentDetails)
	}
	c.ID = row.ID
	return nil
}

// Commitment reads one commitment by its primary key.
func (s commitmentStore) Commitment(ctx context.Context, jobID string, voter openjury.Address) (*marketplace.Commitment, error) {
	const op = "bunstore.Commitment"
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	var row commitmentRow
	if err := db.NewSelect().Model(&row).Where("c.job_id = ?", jobID).Where("c.voter_address = ?", string(voter)).Scan(ctx); err != nil {
		return nil, translateWith(op, err, commitmentDetails)
	}
	return &marketplace.Commitment{ID: row.ID, JobID: row.JobID, Voter: openjury.Address(row.VoterAddress),
		Commitment: openjury.Hash(row.Commitment), CreatedAt: fromMillis(row.CreatedAt), RevealedAt: fromMillisPtr(row.RevealedAt)}, nil
}

// CountCommitments counts a job's rows of the primary key.
func (s commitmentStore) CountCommitments(ctx context.Context, jobID string) (int64, error) {
	const op = "bunstore.CountCommitments"
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return 0, err
	}
	n, err := db.NewSelect().Model((*commitmentRow)(nil)).Where("c.job_id = ?", jobID).Count(ctx)
	return int64(n), translate(op, err)
}

// MarkRevealed sets revealed_at by one conditional UPDATE (revealed_at IS
// NULL).
func (s commitmentStore) MarkRevealed(ctx context.Context, jobID string, voter openjury.Address, at time.Time) error {
	const op = "bunstore.MarkRevealed"
	db, err := s.e.writer(ctx, op)
	if err != nil {
		return err
	}
	res, err := db.NewUpdate().Model((*commitmentRow)(nil)).Set("revealed_at = ?", millis(at)).
		Where("job_id = ?", jobID).Where("voter_address = ?", string(voter)).Where("revealed_at IS NULL").Exec(ctx)
	n, err := affected(op, res, err)
	if err != nil || n == 1 {
		return err
	}
	if _, err := s.Commitment(ctx, jobID, voter); err != nil {
		return err
	}
	return openjury.E(openjury.Conflict, op, "already revealed")
}

// commitmentDetails are the details of a missing commitment and of one
// naming a missing job.
var commitmentDetails = details{detailNotFound: "commitment not found", detailMissingRef: "job not found"}
