package marketplace

import (
	"context"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/internal/cursor"
	"github.com/openjury/openjury/internal/valid"
)

// Limits of posts (docs/rules.md#comments-and-posts).
const (
	DefaultPostLimit = 50
	MaxPostLimit     = 200
)

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

// PostStore keeps community posts.
type PostStore interface {
	// CreatePost inserts p with its tags.
	CreatePost(ctx context.Context, p *Post) error
	// Post returns one post. Errors: NotFound.
	Post(ctx context.Context, id string) (*Post, error)
	// Posts lists posts newest first (created_at, then id, descending).
	Posts(ctx context.Context, f PostFilter) ([]*Post, error)
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
		err := indexed(ctx, tx, DocPost, p.ID, p.CreatedAt, tx.Posts().CreatePost(ctx, p))
		return emitted(ctx, tx, err, &events.Event{
			Type: events.PostCreated, CreatedAt: p.CreatedAt, Actor: author, Tags: p.Tags,
			Data: events.Data{"post_id": p.ID, "title": p.Title, "tags": p.Tags, "author_address": author.String()},
		})
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
	p, err := s.db.Posts().Post(ctx, id)
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
	posts, err := s.db.Posts().Posts(ctx, f)
	if err != nil {
		return PostPage{}, openjury.Wrap(op, err)
	}
	var p PostPage
	p.Posts, p.NextCursor = cursor.Cut(posts, want, func(last *Post) string {
		return cursor.EncodeTimeID(last.CreatedAt, last.ID)
	})
	return p, nil
}
