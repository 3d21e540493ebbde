package marketplace

import (
	"context"
	"time"
)

// The kinds of documents the search index keeps (the search package's
// kinds, as strings: marketplace does not import search).
const (
	DocJob        = "job"
	DocSubmission = "submission"
	DocComment    = "comment"
	DocPost       = "post"
)

// SearchQueue records the documents the search index must (re)index: the
// outbox of the search index. Writes call it inside their own transaction,
// so a document is queued exactly when its write commits; embedding
// happens later, outside any write (the search package's Indexer).
type SearchQueue interface {
	// Enqueue records that document kind/id was created, changed or
	// deleted at now.
	Enqueue(ctx context.Context, kind, id string, now time.Time) error
}

// indexed queues document kind/id in tx's search queue when err, the
// result of the write that created, changed or deleted it, is nil, and
// returns err otherwise. It lets a write's last statement read
// `return indexed(ctx, tx, DocJob, j.ID, now, tx.Jobs().CreateJob(ctx, j))`.
func indexed(ctx context.Context, tx Tx, kind, id string, now time.Time, err error) error {
	if err != nil {
		return err
	}
	return tx.Search().Enqueue(ctx, kind, id, now)
}
