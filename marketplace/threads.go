package marketplace

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/internal/cursor"
	"github.com/openjury/openjury/internal/valid"
)

// Limits of comments and posts (docs/rules.md#comments-and-posts).
const (
	DefaultCommentLimit = 200
	MaxCommentLimit     = 500
	DefaultPostLimit    = 50
	MaxPostLimit        = 200
	// CommentsPerMinute is how many comments one address may write in a
	// minute.
	CommentsPerMinute = 20
	// CommentWindow is the window of the comment rate limit.
	CommentWindow = time.Minute
)

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
		if err := targetExists(ctx, tx, target, targetID); err != nil {
			return err
		}
		if c.ParentID != "" {
			if !openjury.ValidID(c.ParentID) {
				return openjury.E(openjury.NotFound, op, "parent comment not found")
			}
			parent, err := tx.Threads().Comment(ctx, c.ParentID)
			if openjury.IsKind(err, openjury.NotFound) {
				return openjury.E(openjury.NotFound, op, "parent comment not found")
			}
			if err != nil {
				return err
			}
			if parent.Target != target || parent.TargetID != targetID {
				return openjury.E(openjury.Invalid, op, "parent_id: must be a comment on the same target")
			}
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
		return indexed(ctx, tx, DocComment, c.ID, now, tx.Threads().CreateComment(ctx, c))
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
// (a malformed id too), Invalid for an unknown kind.
func targetExists(ctx context.Context, st Stores, target TargetType, id string) error {
	const op = "marketplace.target"
	var find func() error
	switch target {
	case TargetJob:
		find = func() error { _, err := st.Jobs().Job(ctx, id); return err }
	case TargetSubmission:
		find = func() error { _, err := st.Submissions().Submission(ctx, id); return err }
	case TargetPost:
		find = func() error { _, err := st.Threads().Post(ctx, id); return err }
	default:
		return openjury.Errorf(openjury.Invalid, op, "target_type: must be job, submission or post")
	}
	if err := valid.Text(op, "target_id", id); err != nil {
		return err
	}
	if !openjury.ValidID(id) {
		return openjury.Errorf(openjury.NotFound, op, "%s not found", target)
	}
	err := find()
	if openjury.IsKind(err, openjury.NotFound) {
		return openjury.Errorf(openjury.NotFound, op, "%s not found", target)
	}
	return err
}

// ListInput pages a list.
type ListInput struct {
	Limit  int
	Cursor string
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
	list, err := s.db.Threads().Comments(ctx, target, targetID, limit+1, after)
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
		if c, err = tx.Threads().Comment(ctx, id); err != nil {
			return err
		}
		if c.Author != caller && !s.IsOperator(caller) {
			return openjury.E(openjury.Forbidden, op, "only the author or an operator may delete this comment")
		}
		if c.DeletedAt != nil {
			return nil
		}
		if err := indexed(ctx, tx, DocComment, id, now, tx.Threads().DeleteComment(ctx, id, caller, now)); err != nil {
			return err
		}
		// Read back: a concurrent delete may have won; report what is stored.
		c, err = tx.Threads().Comment(ctx, id)
		return err
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

// PostInput is a new community post. Its rules are postRules.
type PostInput struct {
	Title   string   `name:"title"`
	Content string   `name:"content"`
	Tags    []string `name:"tags"`
}

// postRules validates PostInput: title, content and tags as a job's and a
// submission's.
var postRules = valid.New(valid.For[PostInput](valid.Rules{
	"Title":   "notblank," + valid.Max(MaxTitleChars),
	"Content": "notblank," + valid.Max(MaxContentChars),
	"Tags":    tagsRule,
}))

// CreatePost publishes a post. Errors: Invalid.
func (s *Service) CreatePost(ctx context.Context, author openjury.Address, in PostInput) (*Post, error) {
	const op = "marketplace.CreatePost"
	in.Tags = trimTags(in.Tags)
	if err := postRules.Struct(op, in); err != nil {
		return nil, err
	}
	p := &Post{ID: openjury.NewID(), Title: in.Title, Content: in.Content, Author: author, Tags: NormalizeTags(in.Tags), CreatedAt: openjury.Truncate(s.clock.Now())}
	err := s.db.InTx(ctx, func(ctx context.Context, tx Tx) error {
		return indexed(ctx, tx, DocPost, p.ID, p.CreatedAt, tx.Threads().CreatePost(ctx, p))
	})
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	return p, nil
}

// Post returns one post. Errors: NotFound, Invalid (a NUL in id).
func (s *Service) Post(ctx context.Context, id string) (*Post, error) {
	const op = "marketplace.Post"
	if err := valid.Text(op, "post_id", id); err != nil {
		return nil, err
	}
	if !openjury.ValidID(id) {
		return nil, openjury.E(openjury.NotFound, op, "post not found")
	}
	p, err := s.db.Threads().Post(ctx, id)
	if openjury.IsKind(err, openjury.NotFound) {
		return nil, openjury.E(openjury.NotFound, op, "post not found")
	}
	return p, openjury.Wrap(op, err)
}

// ListPostsInput selects a page of posts.
type ListPostsInput struct {
	Tag    string
	Limit  int
	Cursor string
}

// PostPage is a page of posts, newest first.
type PostPage struct {
	Posts      []*Post
	NextCursor string
}

// ListPosts lists posts newest first, optionally by tag. Errors: Invalid.
func (s *Service) ListPosts(ctx context.Context, in ListPostsInput) (PostPage, error) {
	const op = "marketplace.ListPosts"
	var f PostFilter
	var err error
	if f.Limit, err = valid.Limit(op, in.Limit, DefaultPostLimit, MaxPostLimit); err != nil {
		return PostPage{}, err
	}
	if f.Tag, err = tagFilter(op, in.Tag); err != nil {
		return PostPage{}, err
	}
	if f.After, err = cursor.After[Cursor](op, in.Cursor); err != nil {
		return PostPage{}, err
	}
	want := f.Limit
	f.Limit++
	posts, err := s.db.Threads().Posts(ctx, f)
	if err != nil {
		return PostPage{}, openjury.Wrap(op, err)
	}
	var p PostPage
	p.Posts, p.NextCursor = cursor.Cut(posts, want, func(last *Post) string {
		return cursor.EncodeTimeID(last.CreatedAt, last.ID)
	})
	return p, nil
}
