package marketplace_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest"
)

func TestThreads(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		w := newWorld(t, db)
		op := w.addr(99)
		cfg := loopConfig
		cfg.Operators = []openjury.Address{op}
		w.svc = marketplace.NewService(db, w.clock, cfg)
		sponsor, a, b, stranger := w.addr(1), w.addr(2), w.addr(3), w.addr(4)
		w.stake(a, 10)
		job := w.job(sponsor)
		sub := w.submit(a, job.ID)

		add := func(author openjury.Address, target marketplace.TargetType, id, parent, content string) (*marketplace.Comment, error) {
			w.clock.Advance(time.Millisecond)
			return w.svc.AddComment(w.ctx, author, target, id, marketplace.CommentInput{Content: content, ParentID: parent})
		}
		c1, err := add(a, marketplace.TargetJob, job.ID, "", "first")
		require.NoError(t, err)
		c2, err := add(b, marketplace.TargetJob, job.ID, c1.ID, "reply")
		require.NoError(t, err)
		c3, err := add(a, marketplace.TargetJob, job.ID, c2.ID, "reply to reply")
		require.NoError(t, err)
		onSub, err := add(b, marketplace.TargetSubmission, sub.ID, "", "on the submission")
		require.NoError(t, err)

		_, err = add(a, marketplace.TargetJob, job.ID, onSub.ID, "x")
		requireKind(t, err, openjury.Invalid, "parent_id: must be a comment on the same target")
		_, err = add(a, marketplace.TargetJob, job.ID, openjury.NewID(), "x")
		requireKind(t, err, openjury.NotFound, "parent comment not found")
		_, err = add(a, marketplace.TargetJob, openjury.NewID(), "", "x")
		requireKind(t, err, openjury.NotFound, "job not found")
		_, err = add(a, marketplace.TargetSubmission, "bogus", "", "x")
		requireKind(t, err, openjury.NotFound, "submission not found")
		_, err = add(a, marketplace.TargetPost, openjury.NewID(), "", "x")
		requireKind(t, err, openjury.NotFound, "post not found")
		_, err = add(a, marketplace.TargetJob, job.ID, "", "  ")
		requireKind(t, err, openjury.Invalid, "content: is required and must not be blank")
		_, err = add(a, marketplace.TargetJob, job.ID, "", strings.Repeat("x", 20001))
		requireKind(t, err, openjury.Invalid, "content: must be at most 20000 characters")

		page, err := w.svc.Comments(w.ctx, marketplace.TargetJob, job.ID, marketplace.ListInput{})
		require.NoError(t, err)
		require.Len(t, page.Comments, 3)
		require.Equal(t, []string{c1.ID, c2.ID, c3.ID}, []string{page.Comments[0].ID, page.Comments[1].ID, page.Comments[2].ID}, "oldest first")
		require.Equal(t, c2.ID, page.Comments[2].ParentID)
		page, err = w.svc.Comments(w.ctx, marketplace.TargetJob, job.ID, marketplace.ListInput{Limit: 2})
		require.NoError(t, err)
		require.Len(t, page.Comments, 2)
		page, err = w.svc.Comments(w.ctx, marketplace.TargetJob, job.ID, marketplace.ListInput{Limit: 2, Cursor: page.NextCursor})
		require.NoError(t, err)
		require.Equal(t, c3.ID, page.Comments[0].ID)
		require.Empty(t, page.NextCursor)
		_, err = w.svc.Comments(w.ctx, marketplace.TargetJob, job.ID, marketplace.ListInput{Limit: 501})
		requireKind(t, err, openjury.Invalid, "limit: must be between 1 and 500")
		_, err = w.svc.Comments(w.ctx, marketplace.TargetPost, openjury.NewID(), marketplace.ListInput{})
		requireKind(t, err, openjury.NotFound, "post not found")

		// Delete: stranger, author, twice, operator, unknown.
		_, err = w.svc.DeleteComment(w.ctx, stranger, c1.ID)
		requireKind(t, err, openjury.Forbidden, "only the author or an operator may delete this comment")
		d, err := w.svc.DeleteComment(w.ctx, a, c1.ID)
		require.NoError(t, err)
		require.Equal(t, "", d.Content)
		require.Equal(t, a, d.DeletedBy)
		firstAt := *d.DeletedAt
		w.clock.Advance(time.Minute)
		d, err = w.svc.DeleteComment(w.ctx, a, c1.ID)
		require.NoError(t, err, "delete is idempotent")
		require.Equal(t, firstAt, *d.DeletedAt)
		d, err = w.svc.DeleteComment(w.ctx, op, c2.ID)
		require.NoError(t, err)
		require.Equal(t, op, d.DeletedBy)
		_, err = w.svc.DeleteComment(w.ctx, a, openjury.NewID())
		requireKind(t, err, openjury.NotFound, "comment not found")
		page, err = w.svc.Comments(w.ctx, marketplace.TargetJob, job.ID, marketplace.ListInput{})
		require.NoError(t, err)
		require.Len(t, page.Comments, 3, "deleted comments keep their place")
		require.Equal(t, "", page.Comments[0].Content)
		require.Equal(t, c1.ID, page.Comments[1].ParentID, "and their ids")
		require.Equal(t, "reply to reply", page.Comments[2].Content)

		// Comments on a closed job are allowed.
		_, err = w.svc.CloseJob(w.ctx, sponsor, job.ID, marketplace.CloseInput{WinnerSubmissionID: sub.ID})
		require.NoError(t, err)
		_, err = add(b, marketplace.TargetJob, job.ID, c3.ID, "after close")
		require.NoError(t, err)

		// Posts.
		p1, err := w.svc.CreatePost(w.ctx, a, marketplace.PostInput{Title: "Hello", Content: "world", Tags: []string{" Go ", "go", "news"}})
		require.NoError(t, err)
		require.Equal(t, []string{"Go", "news"}, p1.Tags)
		w.clock.Advance(time.Second)
		p2, err := w.svc.CreatePost(w.ctx, b, marketplace.PostInput{Title: "Second", Content: "post", Tags: []string{"golang"}})
		require.NoError(t, err)
		got, err := w.svc.Post(w.ctx, p1.ID)
		require.NoError(t, err)
		require.Equal(t, p1, got)
		_, err = w.svc.Post(w.ctx, openjury.NewID())
		requireKind(t, err, openjury.NotFound, "post not found")
		_, err = w.svc.CreatePost(w.ctx, a, marketplace.PostInput{Title: strings.Repeat("t", 141), Content: "x"})
		requireKind(t, err, openjury.Invalid, "title: must be at most 140 characters")
		posts, err := w.svc.ListPosts(w.ctx, marketplace.ListPostsInput{})
		require.NoError(t, err)
		require.Equal(t, p2.ID, posts.Posts[0].ID, "newest first")
		posts, err = w.svc.ListPosts(w.ctx, marketplace.ListPostsInput{Tag: "GO"})
		require.NoError(t, err)
		require.Len(t, posts.Posts, 1)
		require.Equal(t, p1.ID, posts.Posts[0].ID)
		posts, err = w.svc.ListPosts(w.ctx, marketplace.ListPostsInput{Limit: 1})
		require.NoError(t, err)
		posts, err = w.svc.ListPosts(w.ctx, marketplace.ListPostsInput{Limit: 1, Cursor: posts.NextCursor})
		require.NoError(t, err)
		require.Equal(t, p1.ID, posts.Posts[0].ID)
		_, err = add(a, marketplace.TargetPost, p1.ID, "", "nice post")
		require.NoError(t, err)
	})
}

// TestCommentRateLimit: 20 comments a minute per address, counted in the
// database so two service replicas on one database agree.
func TestCommentRateLimit(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		w := newWorld(t, db)
		replica := marketplace.NewService(db, w.clock, loopConfig)
		author, other := w.addr(2), w.addr(3)
		job := w.job(w.addr(1))

		errs := parallel(30, func(i int) error {
			svc := w.svc
			if i%2 == 1 {
				svc = replica
			}
			_, err := svc.AddComment(w.ctx, author, marketplace.TargetJob, job.ID, marketplace.CommentInput{Content: "hi"})
			return err
		})
		ok := 0
		for _, err := range errs {
			if err == nil {
				ok++
				continue
			}
			requireKind(t, err, openjury.RateLimited, "at most 20 comments per minute: try again later")
			var hint openjury.RetryHint
			require.True(t, errors.As(err, &hint))
			require.Equal(t, time.Minute, hint.RetryAfter())
		}
		require.Equal(t, marketplace.CommentsPerMinute, ok)
		page, err := w.svc.Comments(w.ctx, marketplace.TargetJob, job.ID, marketplace.ListInput{})
		require.NoError(t, err)
		require.Len(t, page.Comments, marketplace.CommentsPerMinute, "rejected comments are not stored")

		_, err = w.svc.AddComment(w.ctx, other, marketplace.TargetJob, job.ID, marketplace.CommentInput{Content: "another author"})
		require.NoError(t, err, "the limit is per address")
		w.clock.Advance(40 * time.Second)
		_, err = w.svc.AddComment(w.ctx, author, marketplace.TargetJob, job.ID, marketplace.CommentInput{Content: "hi"})
		var hint openjury.RetryHint
		require.True(t, errors.As(err, &hint))
		require.Equal(t, 20*time.Second, hint.RetryAfter(), "wait until the window ends")
		w.clock.Advance(20 * time.Second)
		_, err = w.svc.AddComment(w.ctx, author, marketplace.TargetJob, job.ID, marketplace.CommentInput{Content: "a new minute"})
		require.NoError(t, err)
	})
}

func TestCleanupRates(t *testing.T) {
	t.Parallel()
	w := newWorld(t, openjurytest.NewDB(t))
	job := w.job(w.addr(1))
	for _, a := range []openjury.Address{w.addr(2), w.addr(3)} {
		_, err := w.svc.AddComment(w.ctx, a, marketplace.TargetJob, job.ID, marketplace.CommentInput{Content: "hi"})
		require.NoError(t, err)
	}
	n, err := w.svc.CleanupRates(w.ctx)
	require.NoError(t, err)
	require.Zero(t, n, "windows still running are kept")
	w.clock.Advance(marketplace.CommentWindow)
	n, err = w.svc.CleanupRates(w.ctx)
	require.NoError(t, err)
	require.Equal(t, int64(2), n, "ended windows go")
}
