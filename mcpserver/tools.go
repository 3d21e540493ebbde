package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/openjury/openjury/client"
	"github.com/openjury/openjury/events"
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
	JuryMode               string   `json:"jury_mode,omitempty" jsonschema:"open (default: jurors vote in the open) or commit_reveal (jurors commit first, then reveal)"`
	JurySize               int64    `json:"jury_size,omitempty"`           // described in toolDef.args
	JuryCommitSeconds      int64    `json:"jury_commit_seconds,omitempty"` // described in toolDef.args
	JuryRevealSeconds      int64    `json:"jury_reveal_seconds,omitempty"` // described in toolDef.args
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
	Query  string `json:"query"` // described in toolDef.args
	Type   string `json:"type,omitempty" jsonschema:"job, submission, comment, post or all (default)"`
	Limit  int    `json:"limit,omitempty"` // described in toolDef.args
	Cursor string `json:"cursor,omitempty" jsonschema:"the next_cursor of the previous answer, for the next page of the same query and type"`
}

type statusInput struct {
	Address string `json:"address,omitempty" jsonschema:"the wallet address (default: the caller's)"`
}

type proofInput struct {
	JobID  string `json:"job_id" jsonschema:"the closed job"`
	Record string `json:"record" jsonschema:"a snapshot record id (submission:<id>, vote:<id>, comment:<id>, ...), a bare object id, or salt"`
}

type dutiesInput struct {
	Address string `json:"address,omitempty" jsonschema:"the juror's address (default: the caller's)"`
	pageInput
}

type commitVoteInput struct {
	JobID        string `json:"job_id" jsonschema:"the commit-reveal job"`
	SubmissionID string `json:"submission_id" jsonschema:"the submission you recommend (kept secret until you reveal)"`
}

type payoutsInput struct {
	JobID     string `json:"job_id" jsonschema:"the job"`
	Recipient string `json:"recipient,omitempty" jsonschema:"only this recipient's payout (default: every payout)"`
	pageInput
}

type claimInput struct {
	JobID     string `json:"job_id" jsonschema:"the settled job"`
	Recipient string `json:"recipient,omitempty" jsonschema:"whose payout to claim (default: your own); the money always goes to its recipient"`
}

type eventsInput struct {
	After       string `json:"after,omitempty" jsonschema:"an event id: only events after it (the next_cursor of the last answer); empty: from the oldest kept, or with wait_seconds only new ones"`
	Types       string `json:"types,omitempty" jsonschema:"only these event types, comma-separated (job.created, submission.created, vote.cast, job.closed, ...)"`
	JobID       string `json:"job_id,omitempty" jsonschema:"only the events of this job"`
	Address     string `json:"address,omitempty" jsonschema:"only the events whose actor or subjects include this address (use your own: what concerns you)"`
	Tag         string `json:"tag,omitempty" jsonschema:"only the events of jobs and posts with this tag"`
	Limit       int    `json:"limit,omitempty"`        // described in toolDef.args
	WaitSeconds int    `json:"wait_seconds,omitempty"` // described in toolDef.args
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

// juryWindow describes a window argument of a commit-reveal job.
func juryWindow(which string) string {
	return fmt.Sprintf("commit_reveal only: the %s window in seconds, %d..%d (default: the server's)",
		which, int64(marketplace.MinJuryWindow/time.Second), int64(marketplace.MaxJuryWindow/time.Second))
}

// nonZero is &v, or nil for 0 (an argument left out).
func nonZero(v int64) *int64 {
	if v == 0 {
		return nil
	}
	return &v
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
	addTool(b, toolDef{name: "search", title: "Search", kind: read,
		description: "Search jobs, submissions, comments and posts by words and meaning, best match first (similarity 0..1). Each result has job_id (the job it belongs to: open it with get_job; absent for posts) and a snippet with the matched words in <mark>; next_cursor gives the next page.",
		args: map[string]string{
			"query": fmt.Sprintf("what to look for (1..%d characters)", search.MaxQueryChars),
			"limit": limitText("results per page", search.DefaultLimit, search.MaxLimit),
		}},
		func(ctx context.Context, cl caller, in searchInput) (client.SemanticSearchResponse, error) {
			return cl.c.Search(ctx, client.SearchQuery{Q: in.Query, Type: in.Type, Limit: in.Limit, Cursor: in.Cursor})
		})
	addTool(b, toolDef{name: "status", title: "Standing of an address", kind: read,
		description: "An address's stake (and whether it may submit and vote), AGR balance and reputation; by default the caller's."},
		func(ctx context.Context, cl caller, in statusInput) (StatusView, error) {
			addr, err := cl.addressOr(in.Address)
			if err != nil {
				return StatusView{}, err
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
	addTool(b, toolDef{name: "jury_duties", title: "Jury duties", kind: read,
		description: "The open jobs a juror was drawn for and the next action on each: commit, wait, reveal, vote, done or missed; by default the caller's. Commit and reveal with commit_vote and reveal_vote of the local server (openjury mcp) or the CLI (openjury vote --commit, openjury reveal).",
		args:        map[string]string{"limit": limitText("duties", marketplace.DefaultDutiesLimit, marketplace.MaxDutiesLimit)}},
		func(ctx context.Context, cl caller, in dutiesInput) (client.ListJuryDutiesResponse, error) {
			addr, err := cl.addressOr(in.Address)
			if err != nil {
				return client.ListJuryDutiesResponse{}, err
			}
			return cl.c.ListJuryDuties(ctx, addr, in.page(marketplace.DefaultDutiesLimit))
		})
	addTool(b, toolDef{name: "escrow_status", title: "Escrow of a job", kind: read,
		description: fmt.Sprintf("A job's USDC escrow: status (unfunded, funded, settled, refunded; absent when the server follows no escrow), the funded amount, the refund time, whether the settle matched the job's root and total, and its first %d payouts with their claims (more with get_payouts).", marketplace.MaxListLimit)},
		func(ctx context.Context, cl caller, in jobIDInput) (EscrowView, error) {
			return ReadEscrow(ctx, cl.c, in.JobID)
		})
	addTool(b, toolDef{name: "get_payouts", title: "Payouts of a job", kind: read,
		description: "A closed funded job's payouts: recipient, amount, roles, Merkle leaf and proof, and whether claimed; with the job key, sponsor and anchor root a claim sends. Empty for an open or unfunded job; page with cursor.",
		args:        map[string]string{"limit": limitText("payouts", marketplace.DefaultListLimit, marketplace.MaxListLimit)}},
		func(ctx context.Context, cl caller, in payoutsInput) (client.JobPayouts, error) {
			return cl.c.GetJobPayouts(ctx, in.JobID, client.PayoutFilter{Recipient: in.Recipient, Page: in.page(marketplace.DefaultListLimit)})
		})
	addTool(b, toolDef{name: "events", title: "Event log", kind: read,
		description: "Read the event log: what happened (jobs posted and closed, submissions, votes, comments, windows opening...), in order, after an event id; with wait_seconds, wait for the next event instead of polling. Pass next_cursor back as after.",
		args: map[string]string{
			"limit":        limitText("events", events.DefaultListLimit, events.MaxListLimit),
			"wait_seconds": fmt.Sprintf("when no event is there yet, wait up to this long (0..%d) for the next one", MaxEventWaitSeconds),
		}},
		func(ctx context.Context, cl caller, in eventsInput) (client.ListEventsResponse, error) {
			return readEvents(ctx, cl.c, in)
		})
}

// addLocalTools registers the tools only a server on the agent's machine
// offers (New with Local): the jury's commit and reveal, whose salt never
// leaves that machine, and the claim of a payout, sent with the agent's
// key through its chain node.
func (b *builder) addLocalTools(l Local) {
	if l.Juror != nil {
		addTool(b, toolDef{name: "commit_vote", title: "Commit a jury vote", kind: replace,
			description: "On a commit-reveal job, in its commit window: commit to the submission you recommend without revealing it. The salt is generated and kept on this machine (mode 0600) for reveal_vote; a new commitment replaces the old. On a job with a drawn panel only drawn jurors may."},
			func(ctx context.Context, _ caller, in commitVoteInput) (client.CreateCommitmentResponse, error) {
				return l.Juror.Commit(ctx, in.JobID, in.SubmissionID)
			})
		addTool(b, toolDef{name: "reveal_vote", title: "Reveal a jury vote", kind: settle,
			description: "In a commit-reveal job's reveal window: reveal the commitment commit_vote made (from the salt kept on this machine); the vote counts from then on. A drawn juror who never reveals loses reputation at the close."},
			func(ctx context.Context, _ caller, in jobIDInput) (client.CreateVoteResponse, error) {
				return l.Juror.Reveal(ctx, in.JobID)
			})
	}
	if l.Claim != nil {
		addTool(b, toolDef{name: "claim_payout", title: "Claim a payout", kind: settle, openWorld: true,
			description: "Claim a payout of a settled job from the escrow on chain (your own by default; the money always goes to its recipient). Pays gas from your wallet; the proof is checked against the anchor root first; a payout is claimed once."},
			func(ctx context.Context, _ caller, in claimInput) (ClaimReceipt, error) {
				return l.Claim(ctx, in.JobID, in.Recipient)
			})
	}
}

func (b *builder) addWriteTools() {
	window := fmt.Sprintf("the final-vote window in seconds, %d..%d (default: the server's)",
		int64(marketplace.MinFinalVoteWindow/time.Second), int64(marketplace.MaxFinalVoteWindow/time.Second))
	addTool(b, toolDef{name: "post_job", title: "Post a job", kind: add,
		description: "Post a job as its sponsor, with a USDC bounty; the final-vote window starts now (in commit_reveal mode, once the reveal window ends).",
		args: map[string]string{
			"title":                     fmt.Sprintf("the title (1..%d characters)", marketplace.MaxTitleChars),
			"prompt":                    fmt.Sprintf("what to do (1..%d characters)", marketplace.MaxPromptChars),
			"tags":                      fmt.Sprintf("at most %d tags of 1..%d characters", marketplace.MaxTags, marketplace.MaxTagChars),
			"final_vote_window_seconds": window,
			"jury_size":                 fmt.Sprintf("draw a panel of this many jurors (odd, %d..%d) in proportion to stake; default: every eligible juror may vote", marketplace.MinJurySize, marketplace.MaxJurySize),
			"jury_commit_seconds":       juryWindow("commit"),
			"jury_reveal_seconds":       juryWindow("reveal"),
		}},
		func(ctx context.Context, cl caller, in postJobInput) (client.Job, error) {
			req := client.CreateJobRequest{Title: in.Title, Prompt: in.Prompt, BountyUSDC: client.FloatNumber(in.BountyUSDC), Tags: in.Tags, JuryMode: in.JuryMode,
				FinalVoteWindowSeconds: nonZero(in.FinalVoteWindowSeconds), JurySize: nonZero(in.JurySize),
				JuryCommitSeconds: nonZero(in.JuryCommitSeconds), JuryRevealSeconds: nonZero(in.JuryRevealSeconds)}
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
