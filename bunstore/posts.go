package bunstore

import (
	"context"
	"strings"

	"github.com/uptrace/bun"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
)

// postRow is a row of posts.
type postRow struct {
	bun.BaseModel `bun:"table:posts,alias:p"`

	ID            string `bun:"id,pk"`
	Title         string `bun:"title,notnull"`
	Content       string `bun:"content,notnull"`
	AuthorAddress string `bun:"author_address,notnull"`
	Tags          string `bun:"tags,notnull"`
	CreatedAt     int64  `bun:"created_at,notnull"`
	DeletedAt     *int64 `bun:"deleted_at"`
	DeletedBy     string `bun:"deleted_by,nullzero"`
}

// postTagRow is a row of post_tags: one lowercased tag of a post.
type postTagRow struct {
	bun.BaseModel `bun:"table:post_tags,alias:pt"`

	PostID string `bun:"post_id,pk"`
	Tag    string `bun:"tag,pk"`
	// CreatedAt is the post's, copied so a tag filter walks the index
	// (tag, created_at DESC, post_id DESC) in the list's order.
	CreatedAt int64 `bun:"created_at,notnull"`
}

func toPostRow(p *marketplace.Post) (*postRow, error) {
	tags, err := encodeTags(p.Tags)
	if err != nil {
		return nil, err
	}
	return &postRow{
		ID:            p.ID,
		Title:         p.Title,
		Content:       p.Content,
		AuthorAddress: string(p.Author),
		Tags:          tags,
		CreatedAt:     millis(p.CreatedAt),
		DeletedAt:     millisPtr(p.DeletedAt),
		DeletedBy:     string(p.DeletedBy),
	}, nil
}

func (r *postRow) post() (*marketplace.Post, error) {
	tags, err := decodeTags(r.Tags)
	if err != nil {
		return nil, err
	}
	return &marketplace.Post{
		ID:        r.ID,
		Title:     r.Title,
		Content:   r.Content,
		Author:    openjury.Address(r.AuthorAddress),
		Tags:      tags,
		CreatedAt: fromMillis(r.CreatedAt),
		DeletedAt: fromMillisPtr(r.DeletedAt),
		DeletedBy: openjury.Address(r.DeletedBy),
	}, nil
}

// postStore implements marketplace.PostStore on the pools or on one
// transaction.
type postStore struct{ e exec }

// CreatePost inserts the post row and its post_tags rows (the distinct
// lowercased tags) in one transaction; an empty p.ID gets a new id, set on
// p. Errors: Conflict for a duplicate id.
func (s postStore) CreatePost(ctx context.Context, p *marketplace.Post) error {
	const op = "bunstore.CreatePost"
	if p.ID == "" {
		p.ID = openjury.NewID()
	}
	row, err := toPostRow(p)
	if err != nil {
		return openjury.Wrap(op, err)
	}
	return s.e.inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		if _, err := db.NewInsert().Model(row).Exec(ctx); err != nil {
			return translateWith(op, err, details{detailDuplicate: "post already exists"})
		}
		return insertTags(ctx, op, db, p.Tags, func(tag string) postTagRow {
			return postTagRow{PostID: p.ID, Tag: tag, CreatedAt: row.CreatedAt}
		})
	})
}

// Post returns one post; its Tags are empty, never nil. Errors: NotFound.
func (s postStore) Post(ctx context.Context, id string) (*marketplace.Post, error) {
	const op = "bunstore.Post"
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	var row postRow
	if err := db.NewSelect().Model(&row).Where("p.id = ?", id).Scan(ctx); err != nil {
		return nil, translateWith(op, err, details{detailNotFound: "post not found"})
	}
	p, err := row.post()
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	return p, nil
}

// Posts lists up to f.Limit posts in the order (created_at, id) descending,
// after f.After when it is not nil, keeping those with the tag f.Tag
// (exact, case-insensitive) when it is not empty.
func (s postStore) Posts(ctx context.Context, f marketplace.PostFilter) ([]*marketplace.Post, error) {
	const op = "bunstore.Posts"
	if f.Limit <= 0 {
		return []*marketplace.Post{}, nil
	}
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	var rows []postRow
	q := db.NewSelect().Model(&rows)
	// The walked index's columns: post_tags' copies for a tag, else posts'.
	t, idCol := bun.Ident("p"), bun.Ident("id")
	if tag := strings.ToLower(strings.TrimSpace(f.Tag)); tag != "" {
		t, idCol = bun.Ident("pt"), bun.Ident("post_id")
		q = q.ModelTableExpr("post_tags AS pt JOIN posts AS p ON p.id = pt.post_id").Where("pt.tag = ?", tag)
	}
	if a := f.After; a != nil {
		q = q.Where("(?.created_at, ?.?) < (?, ?)", t, t, idCol, millis(a.At), a.ID)
	}
	err = q.OrderExpr("?.created_at DESC", t).OrderExpr("?.? DESC", t, idCol).
		Limit(int64(f.Limit)).Scan(ctx)
	if err != nil {
		return nil, translate(op, err)
	}
	out := make([]*marketplace.Post, len(rows))
	for i := range rows {
		if out[i], err = rows[i].post(); err != nil {
			return nil, openjury.Wrap(op, err)
		}
	}
	return out, nil
}
