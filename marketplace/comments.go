package marketplace

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/internal/cursor"
	"github.com/openjury/openjury/internal/valid"
)

// Limits of comments (docs/rules.md#comments-and-posts).
const (
	DefaultCommentLimit = 200
	MaxCommentLimit     = 500
	// CommentsPerMinute is how many comments one address may write in a
	// minute.
	CommentsPerMinute = 20
	// CommentWindow is the window of the comment rate limit.
	CommentWindow = time.Minute
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

// CommentStore keeps the comments on jobs, submissions and posts.
type CommentStore interface {
	// CreateComment inserts c. A comment on a job or a submission bumps
	// the job's RecordsRev in the same transaction, under the job's lock,
	// and takes the new value as its Rev (set on c).
	CreateComment(ctx context.Context, c *Comment) error
	// Comment returns one comment with its stored content. Errors: NotFound.
	Comment(ctx context.Context, id string) (*Comment, error)
	// Comments lists the comments of a target oldest first (created_at,
	// then id, ascending), up to limit, after the cursor when not nil.
	Comments(ctx context.Context, target TargetType, targetID string, limit int, after *Cursor) ([]*Comment, error)
	// CommentsOf lists, for each target of kind target whose id is in
	// ids, its first limit comments oldest first (created_at, then id), in
	// one read whose cost is bounded by len(ids) x limit whatever the
	// threads' sizes. The result is ordered by the target's place in ids,
	// then created_at, then id.
	CommentsOf(ctx context.Context, target TargetType, ids []string, limit int) ([]*Comment, error)
	// DeleteComment marks a comment deleted by `by` at `at`, unless it is
	// deleted already (then nothing changes). Deleting a comment on a job
	// or a submission bumps the job's RecordsRev like CreateComment and
	// records the new value as its DeletedRev. Errors: NotFound.
	DeleteComment(ctx context.Context, id string, by openjury.Address, at time.Time) error
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

// CommentInput is a new comment. Its rules are commentRules.
type CommentInput struct {
	Content  string `name:"content"`
	ParentID string `name:"parent_id"`
}

// commentRules validates CommentInput.
var commentRules = valid.New(valid.For[CommentInput](valid.Rules{
	"Content": "notblank," + valid.Max(MaxContentChars),
}))

// AddComment writes a comment on a job, submission or post (closed jobs
// included). A reply's parent must be a comment on the same target. Each
// address may write CommentsPerMinute comments a minute, counted in the
// database. Errors: Invalid, NotFound (target, parent), RateLimited (with
// an openjury.RetryHint).
func (s *Service) AddComment(ctx context.Context, author openjury.Address, target TargetType, targetID string, in CommentInput) (*Comment, error) {
	const op = "marketplace.AddComment"
	if err := commentRules.Struct(op, in); err != nil {
		return nil, err
	}
	now := openjury.Truncate(s.clock.Now())
	c := &Comment{ID: openjury.NewID(), Target: target, TargetID: targetID, ParentID: strings.TrimSpace(in.ParentID), Author: author, Content: in.Content, CreatedAt: now}
	err := s.db.InTx(ctx, func(ctx context.Context, tx Tx) error {
		t, err := commentTarget(ctx, tx, target, targetID)
		if err != nil {
			return err
		}
		var parentAuthor openjury.Address
		if c.ParentID != "" {
			if !openjury.ValidID(c.ParentID) {
				return openjury.E(openjury.NotFound, op, "parent comment not found")
			}
			parent, err := tx.Comments().Comment(ctx, c.ParentID)
			if openjury.IsKind(err, openjury.NotFound) {
				return openjury.E(openjury.NotFound, op, "parent comment not found")
			}
			if err != nil {
				return err
			}
			if parent.Target != target || parent.TargetID != targetID {
				return openjury.E(openjury.Invalid, op, "parent_id: must be a comment on the same target")
			}
			parentAuthor = parent.Author
		}
		count, start, err := tx.Rates().Hit(ctx, "comments:"+author.String(), now, CommentWindow)
		if err != nil {
			return err
		}
		if count > CommentsPerMinute {
			wait := max(start.Add(CommentWindow).Sub(now), time.Second)
			return &openjury.Error{Kind: openjury.RateLimited, Op: op,
				Detail: fmt.Sprintf("at most %d comments per minute: try again later", CommentsPerMinute), Err: openjury.RetryHint(wait)}
		}
		err = indexed(ctx, tx, DocComment, c.ID, now, tx.Comments().CreateComment(ctx, c))
		return emitted(ctx, tx, err, commentEvent(events.CommentCreated, c, t, parentAuthor, author, now))
	})
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	return c, nil
}

// CleanupRates deletes rate counters whose window has ended; hosts call it
// periodically. It returns how many went.
func (s *Service) CleanupRates(ctx context.Context) (int64, error) {
	n, err := s.db.Rates().Prune(ctx, openjury.Truncate(s.clock.Now()).Add(-CommentWindow))
	return n, openjury.Wrap("marketplace.CleanupRates", err)
}

// targetExists checks a comment target. Errors: NotFound naming the kind
// ("job not found"), Invalid for an unknown target type.
func targetExists(ctx context.Context, st Stores, target TargetType, id string) error {
	_, err := commentTarget(ctx, st, target, id)
	return err
}

// targetInfo is what a comment's events take from its target: the job it
// belongs to (the job, or the submission's; "" for a post) and its owner
// (the sponsor, the submission's agent, the post's author).
type targetInfo struct {
	jobID string
	owner openjury.Address
}

// commentTarget reads a comment target. Errors: as targetExists.
func commentTarget(ctx context.Context, st Stores, target TargetType, id string) (targetInfo, error) {
	const op = "marketplace.target"
	var find func() (targetInfo, error)
	switch target {
	case TargetJob:
		find = func() (targetInfo, error) {
			j, err := st.Jobs().Job(ctx, id)
			if err != nil {
				return targetInfo{}, err
			}
			return targetInfo{jobID: j.ID, owner: j.Sponsor}, nil
		}
	case TargetSubmission:
		find = func() (targetInfo, error) {
			sub, err := st.Submissions().Submission(ctx, id)
			if err != nil {
				return targetInfo{}, err
			}
			return targetInfo{jobID: sub.JobID, owner: sub.Agent}, nil
		}
	case TargetPost:
		find = func() (targetInfo, error) {
			p, err := st.Posts().Post(ctx, id)
			if err != nil {
				return targetInfo{}, err
			}
			return targetInfo{owner: p.Author}, nil
		}
	default:
		return targetInfo{}, openjury.Errorf(openjury.Invalid, op, "target_type: must be job, submission or post")
	}
	if err := valid.Text(op, "target_id", id); err != nil {
		return targetInfo{}, err
	}
	if !openjury.ValidID(id) {
		return targetInfo{}, openjury.Errorf(openjury.NotFound, op, "%s not found", target)
	}
	info, err := find()
	if openjury.IsKind(err, openjury.NotFound) {
		return targetInfo{}, openjury.Errorf(openjury.NotFound, op, "%s not found", target)
	}
	return info, err
}

// commentEvent is a comment.created or comment.deleted event of c, on a
// target t, by actor: it concerns the target's owner and, for a reply,
// the parent's author.
func commentEvent(typ events.Type, c *Comment, t targetInfo, parentAuthor, actor openjury.Address, at time.Time) *events.Event {
	ev := &events.Event{Type: typ, CreatedAt: at, JobID: t.jobID, Actor: actor,
		Data: events.Data{"comment_id": c.ID, "target_type": string(c.Target), "target_id": c.TargetID,
			"parent_id": stringData(c.ParentID), "author_address": c.Author.String()}}
	for _, a := range []openjury.Address{t.owner, parentAuthor} {
		if !a.IsZero() && a != actor && !slices.Contains(ev.Subjects, a) {
			ev.Subjects = append(ev.Subjects, a)
		}
	}
	return ev
}

// CommentPage is a page of comments, oldest first.
type CommentPage struct {
	Comments   []*Comment
	NextCursor string
}

// Comments lists the comments of a target, oldest first; deleted ones keep
// their place with empty content. Errors: Invalid, NotFound.
func (s *Service) Comments(ctx context.Context, target TargetType, targetID string, in ListInput) (CommentPage, error) {
	const op = "marketplace.Comments"
	limit, err := valid.Limit(op, in.Limit, DefaultCommentLimit, MaxCommentLimit)
	if err != nil {
		return CommentPage{}, err
	}
	after, err := cursor.After[Cursor](op, in.Cursor)
	if err != nil {
		return CommentPage{}, err
	}
	if err := targetExists(ctx, s.db, target, targetID); err != nil {
		return CommentPage{}, openjury.Wrap(op, err)
	}
	list, err := s.db.Comments().Comments(ctx, target, targetID, limit+1, after)
	if err != nil {
		return CommentPage{}, openjury.Wrap(op, err)
	}
	var p CommentPage
	p.Comments, p.NextCursor = cursor.Cut(list, limit, func(last *Comment) string {
		return cursor.EncodeTimeID(last.CreatedAt, last.ID)
	})
	for _, c := range p.Comments {
		hideDeleted(c)
	}
	return p, nil
}

func hideDeleted(c *Comment) {
	if c.DeletedAt != nil {
		c.Content = ""
	}
}

// IsOperator reports whether addr is one of the configured operators.
func (s *Service) IsOperator(addr openjury.Address) bool {
	return !addr.IsZero() && slices.Contains(s.cfg.Operators, addr)
}

// DeleteComment soft-deletes a comment: its author or an operator may;
// deleting again changes nothing and succeeds. Errors: NotFound, Forbidden,
// Invalid (a NUL in id).
func (s *Service) DeleteComment(ctx context.Context, caller openjury.Address, id string) (*Comment, error) {
	const op = "marketplace.DeleteComment"
	if err := valid.Text(op, "comment_id", id); err != nil {
		return nil, err
	}
	if !openjury.ValidID(id) {
		return nil, openjury.E(openjury.NotFound, op, "comment not found")
	}
	now := openjury.Truncate(s.clock.Now())
	var c *Comment
	err := s.db.InTx(ctx, func(ctx context.Context, tx Tx) error {
		var err error
		if c, err = tx.Comments().Comment(ctx, id); err != nil {
			return err
		}
		if c.Author != caller && !s.IsOperator(caller) {
			return openjury.E(openjury.Forbidden, op, "only the author or an operator may delete this comment")
		}
		if c.DeletedAt != nil {
			return nil
		}
		t, err := commentTarget(ctx, tx, c.Target, c.TargetID)
		if err != nil {
			return err
		}
		if err := indexed(ctx, tx, DocComment, id, now, tx.Comments().DeleteComment(ctx, id, caller, now)); err != nil {
			return err
		}
		// Read back: a concurrent delete may have won; report what is
		// stored, and tell of the delete only when it is this one.
		if c, err = tx.Comments().Comment(ctx, id); err != nil {
			return err
		}
		if c.DeletedAt == nil || !c.DeletedAt.Equal(now) || c.DeletedBy != caller {
			return nil
		}
		return tx.Events().Append(ctx, commentEvent(events.CommentDeleted, c, t, "", caller, now))
	})
	if openjury.IsKind(err, openjury.NotFound) {
		return nil, openjury.E(openjury.NotFound, op, "comment not found")
	}
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	hideDeleted(c)
	return c, nil
}
