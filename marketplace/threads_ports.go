package marketplace

import (
	"context"
	"time"

	"github.com/openjury/openjury"
)

// TargetType is what a comment is attached to.
type TargetType string

// Comment targets.
const (
	TargetJob        TargetType = "job"
	TargetSubmission TargetType = "submission"
	TargetPost       TargetType = "post"
)

// Comment is a message in a discussion thread. A deleted comment keeps its
// row and ids; its content is hidden from then on.
type Comment struct {
	ID        string
	Target    TargetType
	TargetID  string
	ParentID  string
	Author    openjury.Address
	Content   string
	CreatedAt time.Time
	DeletedAt *time.Time
	DeletedBy openjury.Address
	// Rev is, for a comment on a job or one of its submissions, the job's
	// RecordsRev after its insert; DeletedRev, once deleted, the job's
	// RecordsRev after its delete (0 for comments deleted before revs were
	// kept). A close that read RecordsRev R covers the comments with
	// Rev <= R, deleted only when DeletedRev <= R. The store sets both.
	Rev        int64
	DeletedRev int64
}

// Post is a community post.
type Post struct {
	ID        string
	Title     string
	Content   string
	Author    openjury.Address
	Tags      []string
	CreatedAt time.Time
	DeletedAt *time.Time
	DeletedBy openjury.Address
}

// Cursor is a position in a list ordered by (created_at, id).
type Cursor struct {
	At time.Time
	ID string
}

// PostFilter selects posts, newest first.
type PostFilter struct {
	// Tag keeps posts with this tag (exact, case-insensitive; lowercased
	// by the caller) when not empty.
	Tag string
	// Limit is the page size.
	Limit int
	// After starts the page after this position (descending order).
	After *Cursor
}

// ThreadStore keeps comments and posts.
type ThreadStore interface {
	// CreateComment inserts c. A comment on a job or a submission bumps
	// the job's RecordsRev in the same transaction, under the job's lock,
	// and takes the new value as its Rev (set on c).
	CreateComment(ctx context.Context, c *Comment) error
	// Comment returns one comment with its stored content. Errors: NotFound.
	Comment(ctx context.Context, id string) (*Comment, error)
	// Comments lists the comments of a target oldest first (created_at,
	// then id, ascending), up to limit, after the cursor when not nil.
	Comments(ctx context.Context, target TargetType, targetID string, limit int, after *Cursor) ([]*Comment, error)
	// DeleteComment marks a comment deleted by `by` at `at`, unless it is
	// deleted already (then nothing changes). Deleting a comment on a job
	// or a submission bumps the job's RecordsRev like CreateComment and
	// records the new value as its DeletedRev. Errors: NotFound.
	DeleteComment(ctx context.Context, id string, by openjury.Address, at time.Time) error
	// CreatePost inserts p with its tags.
	CreatePost(ctx context.Context, p *Post) error
	// Post returns one post. Errors: NotFound.
	Post(ctx context.Context, id string) (*Post, error)
	// Posts lists posts newest first (created_at, then id, descending).
	Posts(ctx context.Context, f PostFilter) ([]*Post, error)
}

// RateStore counts events per key in fixed windows, in the database, so
// every replica sees the same counts.
type RateStore interface {
	// Hit counts one event for key at now. A window starts at the first
	// event after the previous window ended and lasts `window`. It returns
	// the number of events in the current window, this one included, and
	// the window's start. Concurrent hits on one key are serialised.
	Hit(ctx context.Context, key string, now time.Time, window time.Duration) (count int64, start time.Time, err error)
	// Prune deletes the counters whose window started at or before
	// `before` and returns how many went; a later Hit on such a key starts
	// a new window anyway.
	Prune(ctx context.Context, before time.Time) (int64, error)
}
