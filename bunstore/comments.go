package bunstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/uptrace/bun"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
)

// commentRow is a row of comments.
type commentRow struct {
	bun.BaseModel `bun:"table:comments,alias:c"`

	ID            string `bun:"id,pk"`
	TargetType    string `bun:"target_type,notnull"`
	TargetID      string `bun:"target_id,notnull"`
	ParentID      string `bun:"parent_id,nullzero"`
	AuthorAddress string `bun:"author_address,notnull"`
	Content       string `bun:"content,notnull"`
	CreatedAt     int64  `bun:"created_at,notnull"`
	DeletedAt     *int64 `bun:"deleted_at"`
	DeletedBy     string `bun:"deleted_by,nullzero"`
	// JobID is the job whose snapshot the comment is a record of (the job
	// it is on, or its submission's job); NULL for a post's comment. Rev
	// and DeletedRev: see marketplace.Comment.
	JobID      string `bun:"job_id,nullzero"`
	Rev        int64  `bun:"rev,notnull"`
	DeletedRev *int64 `bun:"deleted_rev"`
}

func toCommentRow(c *marketplace.Comment) *commentRow {
	return &commentRow{
		ID:            c.ID,
		TargetType:    string(c.Target),
		TargetID:      c.TargetID,
		ParentID:      c.ParentID,
		AuthorAddress: string(c.Author),
		Content:       c.Content,
		CreatedAt:     millis(c.CreatedAt),
		DeletedAt:     millisPtr(c.DeletedAt),
		DeletedBy:     string(c.DeletedBy),
	}
}

func (r *commentRow) comment() *marketplace.Comment {
	c := &marketplace.Comment{
		ID:        r.ID,
		Target:    marketplace.TargetType(r.TargetType),
		TargetID:  r.TargetID,
		ParentID:  r.ParentID,
		Author:    openjury.Address(r.AuthorAddress),
		Content:   r.Content,
		CreatedAt: fromMillis(r.CreatedAt),
		DeletedAt: fromMillisPtr(r.DeletedAt),
		DeletedBy: openjury.Address(r.DeletedBy),
	}
	c.Rev = r.Rev
	if r.DeletedRev != nil {
		c.DeletedRev = *r.DeletedRev
	}
	return c
}

// commentStore implements marketplace.CommentStore on the pools or on one
// transaction.
type commentStore struct{ e exec }

// CreateComment inserts c; an empty c.ID gets a new id, set on c. The
// deleted fields are stored as given (normally unset). A comment on a job
// or a submission first bumps the job's records_rev (UPDATE ... RETURNING,
// which locks the job's row until the transaction ends) and is stored
// with the job's id and the new rev (set on c.Rev), in one transaction.
// Errors: Conflict for a duplicate id or a target type other than job,
// submission or post; NotFound when the parent comment does not exist.
func (s commentStore) CreateComment(ctx context.Context, c *marketplace.Comment) error {
	const op = "bunstore.CreateComment"
	if c.ID == "" {
		c.ID = openjury.NewID()
	}
	row := toCommentRow(c)
	return s.e.inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		jobID, rev, err := bumpRecordsRev(ctx, op, db, c.Target, c.TargetID)
		if err != nil {
			return err
		}
		row.JobID, row.Rev = jobID, rev
		if _, err := db.NewInsert().Model(row).Exec(ctx); err != nil {
			return translateWith(op, err, details{detailDuplicate: "comment already exists", detailMissingRef: "parent comment not found"})
		}
		c.Rev = rev
		return nil
	})
}

// bumpRecordsRev adds one to the records_rev of the job a comment on
// target (a job or a submission) is a record of, and returns the job's id
// and its new records_rev; "" and 0 for a post or a missing target.
func bumpRecordsRev(ctx context.Context, op string, db bun.IDB, target marketplace.TargetType, targetID string) (string, int64, error) {
	job := "?"
	switch target {
	case marketplace.TargetJob:
	case marketplace.TargetSubmission:
		job = "(SELECT s.job_id FROM submissions AS s WHERE s.id = ?)"
	default:
		return "", 0, nil
	}
	var (
		id  string
		rev int64
	)
	err := db.NewRaw("UPDATE jobs SET records_rev = records_rev + 1 WHERE id = "+job+" RETURNING id, records_rev", targetID).
		Scan(ctx, &id, &rev)
	if errors.Is(err, sql.ErrNoRows) {
		return "", 0, nil
	}
	return id, rev, translate(op, err)
}

// Comment returns one comment with its stored content, deleted or not.
// Errors: NotFound.
func (s commentStore) Comment(ctx context.Context, id string) (*marketplace.Comment, error) {
	const op = "bunstore.Comment"
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	var row commentRow
	if err := db.NewSelect().Model(&row).Where("c.id = ?", id).Scan(ctx); err != nil {
		return nil, translateWith(op, err, details{detailNotFound: "comment not found"})
	}
	return row.comment(), nil
}

// Comments lists up to limit comments of a target in the order
// (created_at, id) ascending, after the cursor when it is not nil. Deleted
// comments are listed with their stored content.
func (s commentStore) Comments(ctx context.Context, target marketplace.TargetType, targetID string, limit int, after *marketplace.Cursor) ([]*marketplace.Comment, error) {
	const op = "bunstore.Comments"
	if limit <= 0 {
		return []*marketplace.Comment{}, nil
	}
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	var rows []commentRow
	q := db.NewSelect().Model(&rows).
		Where("c.target_type = ?", string(target)).
		Where("c.target_id = ?", targetID)
	if after != nil {
		q = q.Where("(c.created_at, c.id) > (?, ?)", millis(after.At), after.ID)
	}
	if err := q.OrderExpr("c.created_at ASC").OrderExpr("c.id ASC").Limit(int64(limit)).Scan(ctx); err != nil {
		return nil, translate(op, err)
	}
	out := make([]*marketplace.Comment, len(rows))
	for i := range rows {
		out[i] = rows[i].comment()
	}
	return out, nil
}

// DeleteComment sets deleted_at and deleted_by of a comment that is not
// deleted yet (UPDATE ... WHERE deleted_at IS NULL, so of concurrent
// deletes the first wins and the others change nothing). Deleting a
// deleted comment again succeeds and keeps the first values. A comment of
// a job's snapshot first bumps the job's records_rev (locking the job's
// row, the order of CreateComment) and records the new value as its
// deleted_rev, in one transaction. Errors: NotFound.
func (s commentStore) DeleteComment(ctx context.Context, id string, by openjury.Address, at time.Time) error {
	const op = "bunstore.DeleteComment"
	return s.e.inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		var cur commentRow
		err := db.NewSelect().Model(&cur).Column("target_type", "target_id", "deleted_at").Where("c.id = ?", id).Scan(ctx)
		if err != nil {
			return translateWith(op, err, details{detailNotFound: "comment not found"})
		}
		if cur.DeletedAt != nil {
			return nil
		}
		jobID, rev, err := bumpRecordsRev(ctx, op, db, marketplace.TargetType(cur.TargetType), cur.TargetID)
		if err != nil {
			return err
		}
		q := db.NewUpdate().Model((*commentRow)(nil)).
			Set("deleted_at = ?", millis(at)).
			Set("deleted_by = ?", string(by)).
			Where("id = ?", id).
			Where("deleted_at IS NULL")
		if jobID != "" {
			q = q.Set("deleted_rev = ?", rev)
		}
		_, err = q.Exec(ctx)
		return translate(op, err)
	})
}

// rateCounterRow is a row of rate_counters.
type rateCounterRow struct {
	bun.BaseModel `bun:"table:rate_counters,alias:rc"`

	Key         string `bun:"key,pk"`
	WindowStart int64  `bun:"window_start,notnull"`
	Count       int64  `bun:"count,notnull"`
}

// rateStore implements marketplace.RateStore on the pools or on one
// transaction.
type rateStore struct{ e exec }

// Hit counts one event for key at now in one statement:
//
//	INSERT ... VALUES (key, now, 1) ON CONFLICT (key) DO UPDATE SET
//	  count = CASE WHEN window_start <= now - window THEN 1 ELSE count + 1 END,
//	  window_start = CASE WHEN window_start <= now - window THEN now ELSE window_start END
//	RETURNING count, window_start
//
// The database serialises concurrent hits on one key on its row (PostgreSQL
// re-evaluates the update on the newest row version; SQLite has one
// writer), so each hit of a window gets its own count. A window is
// [start, start+window): a hit at start+window or later starts a new one.
// Inside a transaction the row stays locked until the transaction ends, and
// a rolled-back transaction takes its hits with it.
func (s rateStore) Hit(ctx context.Context, key string, now time.Time, window time.Duration) (int64, time.Time, error) {
	const op = "bunstore.RateHit"
	db, err := s.e.writer(ctx, op)
	if err != nil {
		return 0, time.Time{}, err
	}
	row := &rateCounterRow{Key: key, WindowStart: millis(now), Count: 1}
	ended := millis(now) - window.Milliseconds() // a window that started at or before this has ended
	_, err = db.NewInsert().Model(row).
		On("CONFLICT (key) DO UPDATE").
		Set("count = CASE WHEN rc.window_start <= ? THEN 1 ELSE rc.count + 1 END", ended).
		Set("window_start = CASE WHEN rc.window_start <= ? THEN EXCLUDED.window_start ELSE rc.window_start END", ended).
		Returning("count, window_start").
		Exec(ctx)
	if err != nil {
		return 0, time.Time{}, translate(op, err)
	}
	return row.Count, fromMillis(row.WindowStart), nil
}

// Prune deletes counters whose window started at or before `before`.
func (s rateStore) Prune(ctx context.Context, before time.Time) (int64, error) {
	const op = "bunstore.RatePrune"
	db, err := s.e.writer(ctx, op)
	if err != nil {
		return 0, err
	}
	res, err := db.NewDelete().Model((*rateCounterRow)(nil)).Where("window_start <= ?", millis(before)).Exec(ctx)
	if err != nil {
		return 0, translate(op, err)
	}
	n, err := res.RowsAffected()
	return n, translate(op, err)
}
