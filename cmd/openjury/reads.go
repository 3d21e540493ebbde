package main

import (
	"context"
	"fmt"
	"io"
	"iter"
	"strings"
	"time"

	"github.com/openjury/openjury/client"
	"github.com/openjury/openjury/marketplace"
)

// plural is "1 vote", "2 votes", "0 losses": n and the word, in the
// plural unless n is 1.
func plural(n int64, word string) string {
	if n == 1 {
		return "1 " + word
	}
	if strings.HasSuffix(word, "s") {
		return fmt.Sprintf("%d %ses", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// collect reads up to limit items of seq (limit <= 0: none).
func collect[T any](seq iter.Seq2[T, error], limit int) ([]T, error) {
	out := []T{}
	if limit <= 0 {
		return out, nil
	}
	for v, err := range seq {
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		if len(out) == limit {
			break
		}
	}
	return out, nil
}

func cmdPosts(ctx context.Context, e *env, args []string) error {
	fs := e.flags("posts")
	tag := fs.String("tag", "", "only posts with this tag")
	limit := fs.Int("limit", marketplace.DefaultPostLimit, "at most this many posts")
	if _, err := parse(fs, args, 0); err != nil {
		return err
	}
	c, err := e.client(false)
	if err != nil {
		return err
	}
	posts, err := collect(c.Posts(ctx, *tag, min(max(*limit, 1), marketplace.MaxPostLimit)), *limit)
	if err != nil {
		return err
	}
	return e.print(posts, func(w io.Writer) {
		if len(posts) == 0 {
			fmt.Fprintln(w, "no posts")
		}
		for _, p := range posts {
			fmt.Fprintf(w, "%s  %s  by %s  %s\n", p.ID, p.CreatedAt.Format(time.DateOnly), p.AuthorAddress, p.Title)
		}
	})
}

func cmdComments(ctx context.Context, e *env, args []string) error {
	fs := e.flags("comments")
	on := fs.String("on", "job", "what the id names: job, submission or post")
	limit := fs.Int("limit", marketplace.DefaultCommentLimit, "at most this many comments")
	pos, err := parse(fs, args, 1)
	if err != nil {
		return err
	}
	page := min(max(*limit, 1), marketplace.MaxCommentLimit)
	c, err := e.client(false)
	if err != nil {
		return err
	}
	var seq iter.Seq2[client.Comment, error]
	switch *on {
	case "job":
		seq = c.JobComments(ctx, pos[0], page)
	case "submission":
		seq = c.SubmissionComments(ctx, pos[0], page)
	case "post":
		seq = c.PostComments(ctx, pos[0], page)
	default:
		return usageError("--on must be job, submission or post")
	}
	comments, err := collect(seq, *limit)
	if err != nil {
		return err
	}
	return e.print(comments, func(w io.Writer) {
		if len(comments) == 0 {
			fmt.Fprintf(w, "no comments on %s %s\n", *on, pos[0])
		}
		for _, cm := range comments {
			text := oneLine(cm.Content, 80)
			if cm.DeletedAt != nil {
				text = "(deleted)"
			}
			reply := ""
			if cm.ParentID != nil {
				reply = " (reply to " + *cm.ParentID + ")"
			}
			fmt.Fprintf(w, "%s  %s%s: %s\n", cm.ID, cm.AuthorAddress, reply, text)
		}
	})
}

func cmdLeaderboard(ctx context.Context, e *env, args []string) error {
	fs := e.flags("leaderboard")
	limit := fs.Int("limit", 10, "at most this many entries")
	if _, err := parse(fs, args, 0); err != nil {
		return err
	}
	c, err := e.client(false)
	if err != nil {
		return err
	}
	entries, err := collect(c.Leaderboard(ctx, min(max(*limit, 1), marketplace.MaxListLimit)), *limit)
	if err != nil {
		return err
	}
	return e.print(entries, func(w io.Writer) {
		if len(entries) == 0 {
			fmt.Fprintln(w, "nobody has a reputation yet")
		}
		for i, en := range entries {
			fmt.Fprintf(w, "%3d. %s  score %d  level %d\n", i+1, en.Address, en.Score, en.Level)
		}
	})
}
