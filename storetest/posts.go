package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
)

func (s *suite) postTests() []test {
	return []test{
		{name: "RoundTripWithTags", run: testPostRoundTrip},
		{name: "NotFound", run: testPostNotFound},
		{name: "DuplicateIDKeepsFirst", run: testPostDuplicate},
		{name: "TagFilter", run: testPostTags},
		{name: "OrderAndKeysetPagination", run: testPostPages},
	}
}

func newPost(n int, author openjury.Address, created time.Time, tags ...string) *marketplace.Post {
	if tags == nil {
		tags = []string{}
	}
	return &marketplace.Post{
		ID: id(n), Title: fmt.Sprintf("Post %d", n), Content: "body of " + id(n),
		Author: author, Tags: tags, CreatedAt: created,
	}
}

func addPosts(t *testing.T, b Backend, ps ...*marketplace.Post) {
	t.Helper()
	ctx := context.Background()
	for _, p := range ps {
		require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
			return tx.Posts().CreatePost(ctx, p)
		}), "post %s", p.ID)
	}
}

func getPost(t *testing.T, b Backend, postID string) *marketplace.Post {
	t.Helper()
	p, err := b.Posts().Post(context.Background(), postID)
	require.NoError(t, err)
	return p
}

func listPosts(t *testing.T, b Backend, f marketplace.PostFilter) []*marketplace.Post {
	t.Helper()
	ps, err := b.Posts().Posts(context.Background(), f)
	require.NoError(t, err)
	return ps
}

func postIDs(ps []*marketplace.Post) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.ID
	}
	return out
}

func testPostRoundTrip(t *testing.T, b Backend) {
	ctx := context.Background()
	p1 := newPost(1, alice, at(1), "Go", "rust", "Ünïcode")
	p1.Title = "Summarise: ünïcödé ✓ and 'quotes' \"too\""
	p1.Content = "line 1\nline 2\t; DROP TABLE posts; --"
	p2 := newPost(2, bob, at(2))
	p2.Tags = nil
	p3 := newPost(3, carol, at(3), "x")
	p3.DeletedAt, p3.DeletedBy = ptr(at(4)), dave
	require.NoError(t, b.Posts().CreatePost(ctx, p1), "outside InTx")
	addPosts(t, b, p2, p3)

	got := getPost(t, b, p1.ID)
	require.Equal(t, p1, got)
	require.Equal(t, time.UTC, got.CreatedAt.Location())
	require.Nil(t, got.DeletedAt)
	require.Empty(t, got.DeletedBy)
	got = getPost(t, b, p2.ID)
	require.NotNil(t, got.Tags, "no tags read back as an empty list")
	require.Empty(t, got.Tags)
	got.Tags = nil
	require.Equal(t, p2, got)
	require.Equal(t, p3, getPost(t, b, p3.ID))

	p2.Tags = []string{}
	require.Equal(t, []*marketplace.Post{p3, p2, p1}, listPosts(t, b, marketplace.PostFilter{Limit: 10}), "listed with every field")
	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		p, err := tx.Posts().Post(ctx, p1.ID)
		require.NoError(t, err)
		require.Equal(t, p1, p)
		ps, err := tx.Posts().Posts(ctx, marketplace.PostFilter{Tag: "go", Limit: 10})
		require.NoError(t, err)
		require.Equal(t, []*marketplace.Post{p1}, ps)
		return nil
	}))
}

func testPostNotFound(t *testing.T, b Backend) {
	ctx := context.Background()
	addPosts(t, b, newPost(1, alice, at(1)))
	_, err := b.Posts().Post(ctx, id(2))
	requireKind(t, openjury.NotFound, err)
	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		_, err := tx.Posts().Post(ctx, id(3))
		requireKind(t, openjury.NotFound, err)
		return nil
	}))
}

func testPostDuplicate(t *testing.T, b Backend) {
	first := newPost(1, alice, at(1), "a")
	addPosts(t, b, first)
	dup := newPost(1, bob, at(2), "b")
	dup.Title = "impostor"
	err := b.InTx(context.Background(), func(ctx context.Context, tx marketplace.Tx) error {
		return tx.Posts().CreatePost(ctx, dup)
	})
	require.Error(t, err)
	require.Error(t, b.Posts().CreatePost(context.Background(), dup), "outside InTx")
	require.Equal(t, first, getPost(t, b, first.ID))
	require.Empty(t, listPosts(t, b, marketplace.PostFilter{Tag: "b", Limit: 10}), "tags of the rejected post were stored")
	require.Equal(t, []string{id(1)}, postIDs(listPosts(t, b, marketplace.PostFilter{Tag: "a", Limit: 10})))
}

func testPostTags(t *testing.T, b Backend) {
	addPosts(t, b,
		newPost(1, alice, at(1), "Go", "Rust"),
		newPost(2, alice, at(2), "golang"),
		newPost(3, alice, at(3), "go-kit", "ÜBER"),
		newPost(4, alice, at(4), "GO", "go"), // one key, two spellings
		newPost(5, alice, at(5)),
	)
	f := func(tag string) []string {
		return postIDs(listPosts(t, b, marketplace.PostFilter{Tag: tag, Limit: 10}))
	}
	require.Equal(t, []string{id(4), id(1)}, f("go"), "exact and case-insensitive, each post once")
	require.Equal(t, []string{id(2)}, f("golang"))
	require.Equal(t, []string{id(1)}, f("rust"))
	require.Equal(t, []string{id(3)}, f("über"))
	require.Empty(t, f("ru"), "no prefix match")
	require.Empty(t, f("go%"), "no pattern match")
	require.Empty(t, f("go-"))
	require.Empty(t, f("none"))
	require.Len(t, f(""), 5)
	// The display spellings come back as written.
	require.Equal(t, []string{"go-kit", "ÜBER"}, getPost(t, b, id(3)).Tags)
	require.Equal(t, []string{"GO", "go"}, getPost(t, b, id(4)).Tags)
}

// walkPosts reads the whole list in pages of f.Limit, each page after the
// last post of the previous one.
func walkPosts(t *testing.T, b Backend, f marketplace.PostFilter) (all []string, pages int) {
	t.Helper()
	for pages = 0; pages < 100; pages++ {
		ps := listPosts(t, b, f)
		require.LessOrEqual(t, len(ps), f.Limit)
		all = append(all, postIDs(ps)...)
		if len(ps) < f.Limit {
			return all, pages + 1
		}
		last := ps[len(ps)-1]
		f.After = &marketplace.Cursor{At: last.CreatedAt, ID: last.ID}
	}
	t.Fatal("pagination does not end")
	return nil, 0
}

func testPostPages(t *testing.T, b Backend) {
	times := []int{3, 1, 1, 1, 2, 2, 0} // post n+1 at times[n]
	for n := 1; n <= len(times); n++ {
		var tags []string
		if n%2 == 1 {
			tags = []string{"Odd"}
		}
		addPosts(t, b, newPost(n, alice, at(times[n-1]), tags...))
	}
	want := []string{id(1), id(6), id(5), id(4), id(3), id(2), id(7)}
	require.Equal(t, want, postIDs(listPosts(t, b, marketplace.PostFilter{Limit: 100})), "newest first, ties by id descending")
	for _, limit := range []int{1, 2, 3, 7, 10} {
		got, pages := walkPosts(t, b, marketplace.PostFilter{Limit: limit})
		require.Equal(t, want, got, "limit %d", limit)
		require.Equal(t, len(want)/limit+1, pages, "limit %d", limit)
	}
	// The tag filter applies on every page.
	got, _ := walkPosts(t, b, marketplace.PostFilter{Tag: "odd", Limit: 2})
	require.Equal(t, []string{id(1), id(5), id(3), id(7)}, got)
	require.Equal(t, []string{id(3), id(2)}, postIDs(listPosts(t, b, marketplace.PostFilter{Limit: 2,
		After: &marketplace.Cursor{At: at(1), ID: id(4)}})), "after a cursor inside a tie")
	require.Empty(t, listPosts(t, b, marketplace.PostFilter{Limit: 0}))
}
