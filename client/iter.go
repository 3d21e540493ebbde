package client

import (
	"context"
	"iter"
)

// pages walks cursor pages: fetch returns one page and the next cursor
// ("" at the end). The walk stops at the first error, which it yields.
func pages[T any](fetch func(cursor string) ([]T, string, error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		cursor := ""
		for {
			items, next, err := fetch(cursor)
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, it := range items {
				if !yield(it, nil) {
					return
				}
			}
			if next == "" {
				return
			}
			cursor = next
		}
	}
}

// deref returns *p or "".
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// Jobs iterates over every job the filter selects (f.Limit is the page size).
func (c *Client) Jobs(ctx context.Context, f JobFilter) iter.Seq2[Job, error] {
	return pages(func(cursor string) ([]Job, string, error) {
		f.Cursor = cursor
		r, err := c.ListJobs(ctx, f)
		return r.Jobs, deref(r.NextCursor), err
	})
}

// JobSubmissions iterates over a job's submissions, oldest first.
func (c *Client) JobSubmissions(ctx context.Context, jobID string, pageSize int) iter.Seq2[Submission, error] {
	return pages(func(cursor string) ([]Submission, string, error) {
		return c.ListJobSubmissions(ctx, jobID, Page{Limit: pageSize, Cursor: cursor})
	})
}

// JobComments iterates over a job's comments, oldest first.
func (c *Client) JobComments(ctx context.Context, jobID string, pageSize int) iter.Seq2[Comment, error] {
	return pages(func(cursor string) ([]Comment, string, error) {
		r, err := c.ListJobComments(ctx, jobID, Page{Limit: pageSize, Cursor: cursor})
		return r.Comments, deref(r.NextCursor), err
	})
}

// SubmissionComments iterates over a submission's comments, oldest first.
func (c *Client) SubmissionComments(ctx context.Context, submissionID string, pageSize int) iter.Seq2[Comment, error] {
	return pages(func(cursor string) ([]Comment, string, error) {
		r, err := c.ListSubmissionComments(ctx, submissionID, Page{Limit: pageSize, Cursor: cursor})
		return r.Comments, deref(r.NextCursor), err
	})
}

// PostComments iterates over a post's comments, oldest first.
func (c *Client) PostComments(ctx context.Context, postID string, pageSize int) iter.Seq2[Comment, error] {
	return pages(func(cursor string) ([]Comment, string, error) {
		r, err := c.ListPostComments(ctx, postID, Page{Limit: pageSize, Cursor: cursor})
		return r.Comments, deref(r.NextCursor), err
	})
}

// Posts iterates over the posts with a tag ("" = all), newest first.
func (c *Client) Posts(ctx context.Context, tag string, pageSize int) iter.Seq2[Post, error] {
	return pages(func(cursor string) ([]Post, string, error) {
		r, err := c.ListPosts(ctx, tag, Page{Limit: pageSize, Cursor: cursor})
		return r.Posts, deref(r.NextCursor), err
	})
}

// AgrLedger iterates over an address's AGR ledger.
func (c *Client) AgrLedger(ctx context.Context, address string, pageSize int) iter.Seq2[AgrLedgerEntry, error] {
	return pages(func(cursor string) ([]AgrLedgerEntry, string, error) {
		r, err := c.ListAgrLedger(ctx, address, Page{Limit: pageSize, Cursor: cursor})
		return r.Entries, deref(r.NextCursor), err
	})
}

// SlashingEvents iterates over the slashing events the filter selects.
func (c *Client) SlashingEvents(ctx context.Context, f SlashingFilter) iter.Seq2[SlashingEvent, error] {
	return pages(func(cursor string) ([]SlashingEvent, string, error) {
		f.Cursor = cursor
		r, err := c.ListSlashingEvents(ctx, f)
		return r.Events, deref(r.NextCursor), err
	})
}

// Leaderboard iterates over the reputation leaderboard.
func (c *Client) Leaderboard(ctx context.Context, pageSize int) iter.Seq2[LeaderboardEntry, error] {
	return pages(func(cursor string) ([]LeaderboardEntry, string, error) {
		r, err := c.GetLeaderboard(ctx, Page{Limit: pageSize, Cursor: cursor})
		return r.Entries, deref(r.NextCursor), err
	})
}
