package bunstore

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/a2atask"
)

var _ a2atask.Store = (*DB)(nil)

// a2aTaskRow is a row of a2a_tasks.
type a2aTaskRow struct {
	bun.BaseModel `bun:"table:a2a_tasks,alias:at"`

	ID           string  `bun:"id,pk"`
	ContextID    string  `bun:"context_id,notnull"`
	OwnerAddress string  `bun:"owner_address,notnull"`
	Kind         string  `bun:"kind,notnull"`
	JobID        string  `bun:"job_id,notnull"`
	SubmissionID *string `bun:"submission_id"`
	CreatedAt    int64   `bun:"created_at,notnull"`
}

func (r *a2aTaskRow) task() *a2atask.Task {
	return &a2atask.Task{ID: r.ID, ContextID: r.ContextID, Owner: openjury.Address(r.OwnerAddress), Kind: a2atask.Kind(r.Kind),
		JobID: r.JobID, SubmissionID: deref(r.SubmissionID), CreatedAt: fromMillis(r.CreatedAt)}
}

// CreateTask implements a2atask.Store: an insert that does nothing on a
// known id, then a read of the stored task.
func (d *DB) CreateTask(ctx context.Context, t *a2atask.Task) (*a2atask.Task, error) {
	const op = "bunstore.CreateTask"
	db, err := d.pool().writer(ctx, op)
	if err != nil {
		return nil, err
	}
	row := &a2aTaskRow{ID: t.ID, ContextID: t.ContextID, OwnerAddress: t.Owner.String(), Kind: string(t.Kind),
		JobID: t.JobID, SubmissionID: nullString(t.SubmissionID), CreatedAt: millis(t.CreatedAt)}
	if _, err := db.NewInsert().Model(row).On("CONFLICT (id) DO NOTHING").Exec(ctx); err != nil {
		return nil, translate(op, err)
	}
	return d.Task(ctx, t.ID)
}

// Task implements a2atask.Store.
func (d *DB) Task(ctx context.Context, id string) (*a2atask.Task, error) {
	const op = "bunstore.Task"
	db, err := d.pool().reader(ctx, op)
	if err != nil {
		return nil, err
	}
	var row a2aTaskRow
	if err := db.NewSelect().Model(&row).Where("at.id = ?", id).Scan(ctx); err != nil {
		return nil, translateWith(op, err, details{detailNotFound: "task not found"})
	}
	return row.task(), nil
}
