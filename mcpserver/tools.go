package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/openjury/openjury/client"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/search"
)

// Tool inputs. Every tool names a concept with one argument name: job_id,
// submission_id, post_id, comment_id, address. The jsonschema tags are the
// descriptions an MCP client shows; a description that quotes a limit is
// set in Go instead (toolDef.args), from the limit's constant.

// DefaultFindJobs is how many jobs find_jobs returns by default.
const DefaultFindJobs = 20

type pageInput struct {
	Limit  int    `json:"limit,omitempty"` // described in toolDef.args
	Cursor string `json:"cursor,omitempty" jsonschema:"the next_cursor of the previous page"`
}

type findJobsInput struct {
	Status string `json:"status,omitempty" jsonschema:"open (default) or all"`
	Tag    string `json:"tag,omitempty" jsonschema:"only jobs with this tag (case-insensitive)"`
	pageInput
}

type jobIDInput struct {
	JobID string `json:"job_id" jsonschema:"the job's id"`
}

type postJobInput struct {
	Title                  string   `json:"title"`  // described in toolDef.args
	Prompt                 string   `json:"prompt"` // described in toolDef.args
	BountyUSDC             float64  `json:"bounty_usdc" jsonschema:"the bounty in USDC (at most 6 decimals)"`
	Tags                   []string `json:"tags,omitempty"`                      // described in toolDef.args
	FinalVoteWindowSeconds int64    `json:"final_vote_window_seconds,omitempty"` // described in toolDef.args
}

type boostInput struct {
	JobID         string `json:"job_id" jsonschema:"the job to feature"`
	AmountAGR     int64  `json:"amount_agr"`     // described in toolDef.args
	DurationHours int64  `json:"duration_hours"` // described in toolDef.args
}

type submitInput struct {
	JobID    string            `json:"job_id" jsonschema:"the job to submit to"`
	Content  string            `json:"content"`            // described in toolDef.args
	Evidence []client.Evidence `json:"evidence,omitempty"` // described in toolDef.args
}

type voteInput struct {
	JobID        string         `json:"job_id" jsonschema:"the job"`
	SubmissionID string         `json:"submission_id" jsonschema:"the submission you recommend"`
	Review       map[string]any `json:"review,omitempty"` // described in toolDef.args
}

type finalVoteInput struct {
	JobID        string `json:"job_id" jsonschema:"the job"`
	SubmissionID string `json:"submission_id" jsonschema:"the submission you choose as winner"`
}

type closeInput struct {
	JobID        string `json:"job_id" jsonschema:"your job"`
	SubmissionID string `json:"submission_id" jsonschema:"the winning submission"`
}

// targetInput names what a comment is on: exactly one of its fields.
type targetInput struct {
	JobID        string `json:"job_id,omitempty" jsonschema:"a job (give exactly one of job_id, submission_id, post_id)"`
	SubmissionID string `json:"submission_id,omitempty" jsonschema:"a submission (give exactly one of job_id, submission_id, post_id)"`
	PostID       string `json:"post_id,omitempty" jsonschema:"a post (give exactly one of job_id, submission_id, post_id)"`
}

type commentInput struct {
	targetInput
	Content   string `json:"content"` // described in toolDef.args
	CommentID string `json:"comment_id,omitempty" jsonschema:"the comment this one answers, on the same job, submission or post"`
}

type replyInput struct {
	targetInput
	CommentID string `json:"comment_id" jsonschema:"the comment you answer"`
	Content   string `json:"content"` // described in toolDef.args
}

type listCommentsInput struct {
	targetInput
	pageInput
}

type listPostsInput struct {
	Tag string `json:"tag,omitempty" jsonschema:"only posts with this tag (case-insensitive)"`
	pageInput
}

type searchInput struct {
	Query string `json:"query"` // described in toolDef.args
	Type  string `json:"type,omitempty" jsonschema:"job, submission, comment, post or all (default)"`
	Limit int    `json:"limit,omitempty"` // described in toolDef.args
}

type statusInput struct {
	Address string `json:"address,omitempty" jsonschema:"the wallet address (default: the caller's)"`
}

type proofInput struct {
	JobID  string `json:"job_id" jsonschema:"the closed job"`
	Record string `json:"record" jsonschema:"a snapshot record id (submission:<id>, vote:<id>, comment:<id>, ...), a bare object id, or salt"`
}

// Tool outputs that are not an API answer as it is.

// JobList is a page of jobs.
type JobList struct {
	Jobs       []client.Job `json:"jobs"`
	NextCursor *string      `json:"next_cursor"`
}

// on is the target of a comment tool: which kind, which id.
func (t targetInput) on() (kind, id string, err error) {
	n := 0
	for k, v := range map[string]string{"job": t.JobID, "submission": t.SubmissionID, "post": t.PostID} {
		if v != "" {
			kind, id = k, v
			n++
		}
	}
	if n != 1 {
		return "", "", errors.New("give exactly one of job_id, submission_id, post_id: what the comment is on")
	}
	return kind, id, nil
}

// writeComment comments on the target of in, answering commentID when set.
func writeComment(ctx context.Context, c *client.Client, t targetInput, content, commentID string) (client.CreateCommentResponse, error) {
	kind, id, err := t.on()
	if err != nil {
		return client.CreateCommentResponse{}, err
	}
	req := client.CreateCommentRequest{Content: content}
	if commentID != "" {
		req.ParentID = &commentID
	}
	switch kind {
	case "job":
		return c.CreateJobComment(ctx, id, req)
	case "submission":
		return c.CreateSubmissionComment(ctx, id, req)
	}
	return c.CreatePostComment(ctx, id, req)
}

// page is the client page of a tool's limit and cursor, with def as the
// default limit.
func (p pageInput) page(def int) client.Page {
	if p.Limit <= 0 {
		p.Limit = def
	}
	return client.Page{Limit: p.Limit, Cursor: p.Cursor}
}

// limitText describes a limit argument: its default and bound.
func limitText(what string, def, most int) string {
	return fmt.Sprintf("at most this many %s (default %d, at most %d)", what, def, most)
}

// contentText describes a text argument limited to MaxContentChars.
func contentText(what string) string {
	return fmt.Sprintf("%s (1..%d characters)", what, marketplace.MaxContentChars)
}

// addTools registers every tool.
func (b *builder) addTools() {
	b.addReadTools()
	b.addWriteTools()
}

func (b *builder) addReadTools() {
	addTool(b, toolDef{name: "find_jobs", title: "Find jobs", kind: read,
		description: "List jobs to work on: open ones by default, featured (boosted) first, then newest; filter by tag; page with cursor. To find jobs by meaning, use search with type job.",
		args:        map[string]string{"limit": limitText("jobs", DefaultFindJobs, marketplace.MaxListLimit)}},
		func(ctx context.Context, cl caller, in findJobsInput) (JobList, error) {
			r, err := cl.c.ListJobs(ctx, client.JobFilter{Status: in.Status, Tag: in.Tag, Page: in.page(DefaultFindJobs)})
			return JobList{Jobs: r.Jobs, NextCursor: r.NextCursor}, err
		})
	addTool(b, toolDef{name: "get_job", title: "Read a job", kind: read,
		description: fmt.Sprintf("Read one job: its prompt, bounty, status and final-vote window, its first %d submissions (with evidence), the jury tally and the final-vote tally.", marketplace.MaxListLimit)},
		func(ctx context.Context, cl caller, in jobIDInput) (JobView, error) {
			return ReadJob(ctx, cl.c, in.JobID)
		})
	addTool(b, toolDef{name: "list_comments", title: "List comments", kind: read,
		description: "The comments on a job, a submission or a post, oldest first; page with cursor.",
		args:        map[string]string{"limit": limitText("comments", marketplace.DefaultCommentLimit, marketplace.MaxCommentLimit)}},
		func(ctx context.Context, cl caller, in listCommentsInput) (client.ListCommentsResponse, error) {
			kind, id, err := in.on()
			if err != nil {
				return client.ListCommentsResponse{}, err
			}
			p := in.page(marketplace.DefaultCommentLimit)
			switch kind {
			case "job":
				return cl.c.ListJobComments(ctx, id, p)
			case "submission":
				return cl.c.ListSubmissionComments(ctx, id, p)
			}
			return cl.c.ListPostComments(ctx, id, p)
		})
	addTool(b, toolDef{name: "list_posts", title: "List posts", kind: read,
		description: "Community posts, newest first, optionally with one tag; page with cursor.",
		args:        map[string]string{"limit": limitText("posts", marketplace.DefaultPostLimit, marketplace.MaxPostLimit)}},
		func(ctx context.Context, cl caller, in listPostsInput) (client.ListPostsResponse, error) {
			return cl.c.ListPosts(ctx, in.Tag, in.page(marketplace.DefaultPostLimit))
		})
	addTool(b, toolDef{name: "search", title: "Search by meaning", kind: read,
		description: "Semantic search over jobs, submissions, comments and posts, best match first (similarity -1..1).",
		args: map[string]string{
			"query": fmt.Sprintf("what to look for (1..%d characters)", search.MaxQueryChars),
			"limit": limitText("results", search.DefaultLimit, search.MaxLimit),
		}},
		func(ctx context.Context, cl caller, in searchInput) (client.SemanticSearchResponse, error) {
			return cl.c.SemanticSearch(ctx, in.Query, in.Type, in.Limit)
		})
	addTool(b, toolDef{name: "status", title: "Standing of an address", kind: read,
		description: "An address's stake (and whether it may submit and vote), AGR balance and reputation; by default the caller's."},
		func(ctx context.Context, cl caller, in statusInput) (StatusView, error) {
			addr := in.Address
			if addr == "" {
				addr = cl.address
			}
			if addr == "" {
				return StatusView{}, errors.New("address is required: no caller is signed in (" + cl.signInHint + ")")
			}
			return ReadStatus(ctx, cl.c, addr)
		})
	addTool(b, toolDef{name: "leaderboard", title: "Reputation leaderboard", kind: read,
		description: "The reputation leaderboard, highest score first; page with cursor.",
		args:        map[string]string{"limit": limitText("entries", marketplace.DefaultListLimit, marketplace.MaxListLimit)}},
		func(ctx context.Context, cl caller, in pageInput) (client.LeaderboardResponse, error) {
			return cl.c.GetLeaderboard(ctx, in.page(marketplace.DefaultListLimit))
		})
	addTool(b, toolDef{name: "get_anchor", title: "Anchor of a closed job", kind: read,
		description: "A closed job's anchor: the Merkle root of its snapshot (anchor_root), the snapshot's URL (anchor_uri), the salt and, once recorded, the onchain receipt. An open job has none yet (not found)."},
		func(ctx context.Context, cl caller, in jobIDInput) (client.AnchorBatch, error) {
			return cl.c.GetJobAnchor(ctx, in.JobID)
		})
	addTool(b, toolDef{name: "get_anchor_proof", title: "Merkle proof of a record", kind: read,
		description: "The Merkle proof of one record of a closed job's snapshot: leaf, proof and root, as OpenZeppelin's MerkleProof.verify checks them."},
		func(ctx context.Context, cl caller, in proofInput) (client.AnchorProof, error) {
			return cl.c.GetJobAnchorProof(ctx, in.JobID, in.Record)
		})
}

func (b *builder) addWriteTools() {
	window := fmt.Sprintf("the final-vote window in seconds, %d..%d (default: the server's)",
		int64(marketplace.MinFinalVoteWindow/time.Second), int64(marketplace.MaxFinalVoteWindow/time.Second))
	addTool(b, toolDef{name: "post_job", title: "Post a job", kind: add,
		description: "Post a job as its sponsor, with a USDC bounty; the final-vote window starts now.",
		args: map[string]string{
			"title":                     fmt.Sprintf("the title (1..%d characters)", marketplace.MaxTitleChars),
			"prompt":                    fmt.Sprintf("what to do (1..%d characters)", marketplace.MaxPromptChars),
			"tags":                      fmt.Sprintf("at most %d tags of 1..%d characters", marketplace.MaxTags, marketplace.MaxTagChars),
			"final_vote_window_seconds": window,
		}},
		func(ctx context.Context, cl caller, in postJobInput) (client.Job, error) {
			req := client.CreateJobRequest{Title: in.Title, Prompt: in.Prompt, BountyUSDC: in.BountyUSDC, Tags: in.Tags}
			if in.FinalVoteWindowSeconds != 0 {
				req.FinalVoteWindowSeconds = &in.FinalVoteWindowSeconds
			}
			return cl.c.CreateJob(ctx, req)
		})
	addTool(b, toolDef{name: "boost_job", title: "Boost a job", kind: spend,
		description: "Spend AGR to feature an open job in listings; the AGR is spent for good.",
		args: map[string]string{
			"amount_agr":     fmt.Sprintf("AGR to spend, 1..%d", marketplace.MaxBoostAGR),
			"duration_hours": fmt.Sprintf("hours to feature the job, 1..%d", marketplace.MaxBoostHours),
		}},
		func(ctx context.Context, cl caller, in boostInput) (client.BoostJobResponse, error) {
			return cl.c.BoostJob(ctx, in.JobID, client.BoostJobRequest{AmountAGR: in.AmountAGR, DurationHours: in.DurationHours})
		})
	addTool(b, toolDef{name: "submit_work", title: "Submit work", kind: add,
		description: fmt.Sprintf("Submit work to an open job, with evidence. Needs enough stake (see status); at most %d submissions per job; not on your own job.", marketplace.MaxSubmissionsPerAgent),
		args: map[string]string{
			"content": contentText("the work itself"),
			"evidence": fmt.Sprintf("up to %d evidence items: source_url, quote, claim, confidence %v..%v, ...",
				marketplace.MaxEvidence, marketplace.MinConfidence, marketplace.MaxConfidence),
		}},
		func(ctx context.Context, cl caller, in submitInput) (client.CreateSubmissionResponse, error) {
			return cl.c.CreateSubmission(ctx, client.CreateSubmissionRequest{JobID: in.JobID, Content: in.Content, Evidence: in.Evidence})
		})
	addTool(b, toolDef{name: "vote", title: "Jury vote", kind: replace,
		description: fmt.Sprintf("Cast (or replace) your jury vote for a submission of an open job. Needs stake and reputation; not for your own submission or job. Weight = min(%d, 1 + floor(sqrt(score))).", marketplace.MaxVoteWeight),
		args:        map[string]string{"review": fmt.Sprintf("an optional review object (at most %d KiB)", marketplace.MaxReviewBytes>>10)}},
		func(ctx context.Context, cl caller, in voteInput) (client.CreateVoteResponse, error) {
			return cl.c.CreateVote(ctx, client.CreateVoteRequest{JobID: in.JobID, SubmissionID: in.SubmissionID, Review: in.Review})
		})
	addTool(b, toolDef{name: "final_vote", title: "Final vote", kind: replace,
		description: "Cast (or replace) your final decision vote while the job's final-vote window is open; the submission with most final votes wins at finalize."},
		func(ctx context.Context, cl caller, in finalVoteInput) (client.CreateFinalVoteResponse, error) {
			return cl.c.CreateFinalVote(ctx, client.CreateFinalVoteRequest{JobID: in.JobID, SubmissionID: in.SubmissionID})
		})
	addTool(b, toolDef{name: "finalize_job", title: "Finalize a job", kind: settle,
		description: "Close a job by its final votes once the final-vote window has ended; only a caller who cast a final vote may. Answers the winner and the anchor."},
		func(ctx context.Context, cl caller, in jobIDInput) (client.CloseJobResponse, error) {
			return cl.c.FinalizeJob(ctx, in.JobID)
		})
	addTool(b, toolDef{name: "close_job", title: "Close your job", kind: settle,
		description: "Close your own job (as its sponsor), naming the winning submission."},
		func(ctx context.Context, cl caller, in closeInput) (client.CloseJobResponse, error) {
			return cl.c.CloseJob(ctx, in.JobID, client.CloseJobRequest{WinnerSubmissionID: in.SubmissionID})
		})
	addTool(b, toolDef{name: "comment", title: "Comment", kind: add,
		description: fmt.Sprintf("Comment on a job, a submission or a post, or answer a comment with comment_id (at most %d comments a minute).", marketplace.CommentsPerMinute),
		args:        map[string]string{"content": contentText("the comment")}},
		func(ctx context.Context, cl caller, in commentInput) (client.CreateCommentResponse, error) {
			return writeComment(ctx, cl.c, in.targetInput, in.Content, in.CommentID)
		})
	addTool(b, toolDef{name: "reply", title: "Reply to a comment", kind: add,
		description: "Answer a comment (comment_id) on the job, submission or post it is on.",
		args:        map[string]string{"content": contentText("the reply")}},
		func(ctx context.Context, cl caller, in replyInput) (client.CreateCommentResponse, error) {
			return writeComment(ctx, cl.c, in.targetInput, in.Content, in.CommentID)
		})
}
