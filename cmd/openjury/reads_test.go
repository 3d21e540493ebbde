package main_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/client"
)

// TestReadCommands drives comments, posts, search, leaderboard, status,
// job and version through the binary, in text and --json, with the
// messages a person reads (plurals, no empty labels, a job not closed
// yet).
func TestReadCommands(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	ctx := context.Background()
	sponsor, worker, juror, _ := newCast(t, srv)

	var job client.Job
	runJSON(t, srv.URL, &sponsor, &job, "post-job", "--title", "Merkle proofs explained", "--prompt", "Explain sorted-pair Merkle proofs.", "--bounty", "3")
	var sub client.Submission
	runJSON(t, srv.URL, &worker, &sub, "submit", job.ID, "--content", "Hash the smaller node first.")

	// A job with no votes: no empty tallies, plurals right.
	r := run(t, srv.URL, nil, nil, "job", job.ID)
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "1 submission:")
	require.Contains(t, r.stdout, "(0 evidence items)")
	require.Contains(t, r.stdout, "jury: no votes yet")
	require.Contains(t, r.stdout, "final votes: none yet")
	require.NotContains(t, r.stdout, "tags")

	// Not closed yet: anchor verify says so.
	r = run(t, srv.URL, nil, nil, "anchor", "verify", job.ID)
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, "is not closed yet")
	// Finalize too early says until when.
	var fv client.FinalVote
	runJSON(t, srv.URL, &juror, &fv, "final-vote", job.ID, sub.ID)
	r = run(t, srv.URL, &juror, nil, "finalize", job.ID)
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, "server answered 409")
	require.Contains(t, r.stderr, "final votes are open until")

	var vote client.Vote
	runJSON(t, srv.URL, &juror, &vote, "vote", job.ID, sub.ID)
	r = run(t, srv.URL, nil, nil, "job", job.ID)
	require.Contains(t, r.stdout, "weight 5 from 1 voter\n")
	require.Contains(t, r.stdout, "1 vote\n")

	// comments: on the job (with a reply) and on the submission.
	var c1, c2, c3 client.Comment
	runJSON(t, srv.URL, &juror, &c1, "comment", job.ID, "--content", "Which order?")
	runJSON(t, srv.URL, &worker, &c2, "comment", job.ID, "--content", "Smaller first.", "--parent", c1.ID)
	runJSON(t, srv.URL, &juror, &c3, "comment", sub.ID, "--on", "submission", "--content", "Clear.")
	var list []client.Comment
	runJSON(t, srv.URL, nil, &list, "comments", job.ID)
	require.Len(t, list, 2)
	require.Equal(t, c1.ID, *list[1].ParentID)
	runJSON(t, srv.URL, nil, &list, "comments", job.ID, "--limit", "1")
	require.Len(t, list, 1)
	r = run(t, srv.URL, nil, nil, "comments", sub.ID, "--on", "submission")
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, c3.ID+"  "+juror.addr+": Clear.")
	r = run(t, srv.URL, nil, nil, "comments", job.ID)
	require.Contains(t, r.stdout, "(reply to "+c1.ID+"): Smaller first.")
	r = run(t, srv.URL, nil, nil, "comments", sub.ID, "--on", "nothing")
	require.Equal(t, 2, r.code)

	// posts: written through the client (the CLI reads them).
	signer, err := client.KeySignerFromHex(worker.key)
	require.NoError(t, err)
	wc, err := client.New(srv.URL, client.WithSigner(signer))
	require.NoError(t, err)
	post, err := wc.CreatePost(ctx, client.CreatePostRequest{Title: "Notes on proofs", Content: "A post.", Tags: []string{"merkle"}})
	require.NoError(t, err)
	var posts []client.Post
	runJSON(t, srv.URL, nil, &posts, "posts", "--tag", "merkle")
	require.Len(t, posts, 1)
	require.Equal(t, post.ID, posts[0].ID)
	r = run(t, srv.URL, nil, nil, "posts", "--tag", "none-such")
	require.Equal(t, "no posts\n", r.stdout)

	// search finds the job once it is indexed.
	require.Eventually(t, func() bool {
		var res client.SemanticSearchResponse
		rr := run(t, srv.URL, nil, nil, "search", "sorted", "pair", "Merkle", "proofs", "--type", "job", "--json")
		return rr.code == 0 && json.Unmarshal([]byte(rr.stdout), &res) == nil && len(res.Results) > 0 && res.Results[0].ID == job.ID
	}, 10*time.Second, 100*time.Millisecond)
	r = run(t, srv.URL, nil, nil, "search", "Merkle", "--type", "job")
	require.Contains(t, r.stdout, job.ID)
	require.Equal(t, 2, run(t, srv.URL, nil, nil, "search").code)

	// Closed: leaderboard and status.
	var closed client.CloseJobResponse
	runJSON(t, srv.URL, &sponsor, &closed, "close", job.ID, sub.ID)
	var board []client.LeaderboardEntry
	runJSON(t, srv.URL, nil, &board, "leaderboard")
	require.NotEmpty(t, board)
	require.Equal(t, juror.addr, board[0].Address, "score 16 is first")
	r = run(t, srv.URL, nil, nil, "leaderboard", "--limit", "2")
	require.Contains(t, r.stdout, "  1. "+juror.addr)
	r = run(t, srv.URL, nil, nil, "status", worker.addr)
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "1 win, 0 losses")
	require.Contains(t, r.stdout, "20 USDC (may submit and vote)")
	r = run(t, srv.URL, nil, nil, "status", sponsor.addr)
	require.Contains(t, r.stdout, "no badges")
	require.Contains(t, r.stdout, "below the minimum stake")

	// version, text and JSON.
	r = run(t, srv.URL, nil, nil, "version")
	require.Equal(t, 0, r.code)
	require.True(t, strings.HasPrefix(r.stdout, "openjury "), r.stdout)
	var v struct {
		Version, Go string
	}
	runJSON(t, srv.URL, nil, &v, "version")
	require.NotEmpty(t, v.Version)
	require.True(t, strings.HasPrefix(v.Go, "go"))

	// An unknown host is reported as unreachable.
	r = run(t, "http://no-such-host.invalid", nil, nil, "jobs", "--insecure")
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, "cannot reach the server at http://no-such-host.invalid")
}
