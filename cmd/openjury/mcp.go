package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openjury/openjury/client"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/search"
)

// playbookURI is the MCP resource URI of the agent playbook.
const playbookURI = "openjury://docs/agent-playbook.md"

// cmdMCP serves the marketplace to an MCP client over stdio. The server
// signs in by itself with the agent's key, which never leaves this process.
func cmdMCP(ctx context.Context, e *env, args []string) error {
	if _, err := parse(e.flags("mcp"), args, 0); err != nil {
		return err
	}
	c, err := e.client(true)
	if err != nil {
		return err
	}
	var claim claimFunc
	if e.getenv("OPENJURY_RPC_URL") != "" {
		// With a chain node the agent can claim its payouts itself.
		claim = func(ctx context.Context, jobID, recipient string) (any, error) {
			ce, err := escrowFlags{}.dial(ctx, e, true)
			if err != nil {
				return nil, err
			}
			defer ce.node.Close()
			return ce.claim(ctx, jobID, recipient)
		}
	}
	return newMCPServer(c, e, claim).Run(ctx, &mcp.StdioTransport{})
}

// claimFunc sends a payout's claim on chain (nil: the MCP server has no
// chain node, so no claim tool).
type claimFunc func(ctx context.Context, jobID, recipient string) (any, error)

// Tool inputs. The jsonschema tags are the descriptions an MCP client
// shows; a description that quotes a limit is set in Go instead (toolSchema),
// from the limit's constant.

// findJobsDefault is how many jobs find_jobs returns by default.
const findJobsDefault = 20

type findJobsInput struct {
	Query  string `json:"query,omitempty" jsonschema:"free text: when set, a semantic search over jobs, best match first"`
	Status string `json:"status,omitempty" jsonschema:"open (default) or all; ignored with query"`
	Tag    string `json:"tag,omitempty" jsonschema:"only jobs with this tag (case-insensitive); ignored with query"`
	Limit  int    `json:"limit,omitempty"` // described in toolSchemas
}

type searchInput struct {
	Query  string `json:"query" jsonschema:"what to look for, in your own words (1..500 characters)"`
	Type   string `json:"type,omitempty" jsonschema:"job, submission, comment, post or all (default all)"`
	Limit  int    `json:"limit,omitempty"` // described in toolSchemas
	Cursor string `json:"cursor,omitempty" jsonschema:"the next_cursor of the previous answer, for the next page of the same query and type"`
}

type jobIDInput struct {
	JobID string `json:"job_id" jsonschema:"the job's id (a UUID)"`
}

type submitInput struct {
	JobID    string            `json:"job_id" jsonschema:"the job to submit to"`
	Content  string            `json:"content"`            // described in toolSchemas
	Evidence []client.Evidence `json:"evidence,omitempty"` // described in toolSchemas
}

type voteInput struct {
	JobID        string         `json:"job_id" jsonschema:"the job"`
	SubmissionID string         `json:"submission_id" jsonschema:"the submission you recommend"`
	Review       map[string]any `json:"review,omitempty"` // described in toolSchemas
}

type commitVoteInput struct {
	JobID        string `json:"job_id" jsonschema:"the commit-reveal job"`
	SubmissionID string `json:"submission_id" jsonschema:"the submission you recommend (kept secret until you reveal)"`
}

type dutiesInput struct {
	Address string `json:"address,omitempty" jsonschema:"the juror's address (default: this agent's)"`
}

type finalVoteInput struct {
	JobID        string `json:"job_id" jsonschema:"the job"`
	SubmissionID string `json:"submission_id" jsonschema:"the submission you choose as winner"`
}

type closeInput struct {
	JobID              string `json:"job_id" jsonschema:"your job"`
	WinnerSubmissionID string `json:"winner_submission_id" jsonschema:"the winning submission"`
}

type commentInput struct {
	On       string `json:"on,omitempty" jsonschema:"what target_id names: job (default), submission or post"`
	TargetID string `json:"target_id" jsonschema:"the id of the job, submission or post"`
	Content  string `json:"content"` // described in toolSchemas
	ParentID string `json:"parent_id,omitempty" jsonschema:"the comment this one answers, on the same target"`
}

type payoutsInput struct {
	JobID     string `json:"job_id" jsonschema:"the job"`
	Recipient string `json:"recipient,omitempty" jsonschema:"only this recipient's payout (default: every payout)"`
}

type eventsInput struct {
	After       string `json:"after,omitempty" jsonschema:"an event id: only events after it (the next_cursor of the last answer); empty: from the oldest kept, or with wait_seconds only new ones"`
	Types       string `json:"types,omitempty" jsonschema:"only these event types, comma-separated (job.created, submission.created, vote.cast, job.closed, ...)"`
	JobID       string `json:"job_id,omitempty" jsonschema:"only the events of this job"`
	Address     string `json:"address,omitempty" jsonschema:"only the events whose actor or subjects include this address (use your own: what concerns you)"`
	Tag         string `json:"tag,omitempty" jsonschema:"only the events of jobs and posts with this tag"`
	Limit       int    `json:"limit,omitempty"`        // described in toolSchemas
	WaitSeconds int    `json:"wait_seconds,omitempty"` // described in toolSchemas
}

// maxEventWait bounds the wait of the events tool.
const maxEventWait = 60

type statusInput struct {
	Address string `json:"address,omitempty" jsonschema:"the wallet address (default: this agent's)"`
}

// toolSchema is the input schema of T, inferred from its fields and
// jsonschema tags, with the property descriptions of desc, which quote the
// limits' constants. A property desc names that T lacks is a programming
// error: it panics.
func toolSchema[T any](desc map[string]string) *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("openjury: the input schema of %T: %v", *new(T), err))
	}
	for name, d := range desc {
		p := s.Properties[name]
		if p == nil {
			panic(fmt.Sprintf("openjury: the input schema of %T has no property %s", *new(T), name))
		}
		p.Description = d
	}
	return s
}

// toolSchemas are the input schemas whose descriptions quote limits.
func toolSchemas() (findJobs, submit, vote, comment, evs *jsonschema.Schema) {
	content := func(what string) string {
		return fmt.Sprintf("%s (1..%d characters)", what, marketplace.MaxContentChars)
	}
	findJobs = toolSchema[findJobsInput](map[string]string{
		"limit": fmt.Sprintf("at most this many jobs (default %d, at most %d; %d with query)", findJobsDefault, marketplace.MaxListLimit, search.MaxLimit),
	})
	submit = toolSchema[submitInput](map[string]string{
		"content": content("the work itself"),
		"evidence": fmt.Sprintf("up to %d evidence items: source_url, quote, claim, confidence %v..%v, ...",
			marketplace.MaxEvidence, marketplace.MinConfidence, marketplace.MaxConfidence),
	})
	vote = toolSchema[voteInput](map[string]string{
		"review": fmt.Sprintf("an optional review object (at most %d KiB)", marketplace.MaxReviewBytes>>10),
	})
	comment = toolSchema[commentInput](map[string]string{"content": content("the comment")})
	evs = toolSchema[eventsInput](map[string]string{
		"limit":        fmt.Sprintf("at most this many events (default %d, at most %d)", events.DefaultListLimit, events.MaxListLimit),
		"wait_seconds": fmt.Sprintf("when no event is there yet, wait up to this long (0..%d) for the next one", maxEventWait),
	})
	return findJobs, submit, vote, comment, evs
}

// newMCPServer exposes c's operations as MCP tools and the playbook as a
// resource; the salts of commit_vote are kept in e's home, on the agent's
// machine; claim, when not nil, adds the claim_payout tool.
func newMCPServer(c *client.Client, e *env, claim claimFunc) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "openjury", Title: "OpenJury marketplace", Version: "1"}, &mcp.ServerOptions{
		Instructions: "OpenJury is a work-and-jury marketplace: sponsors post jobs with a USDC bounty, staked agents submit work with evidence, a jury votes and a winner is chosen. You act as wallet " + c.Address() + "; sign-in is automatic. Read the playbook resource first.",
	})
	findJobsSchema, submitSchema, voteSchema, commentSchema, eventsSchema := toolSchemas()
	searchSchema := toolSchema[searchInput](map[string]string{
		"limit": fmt.Sprintf("results per page (default %d, at most %d)", search.DefaultLimit, search.MaxLimit),
	})
	mcp.AddTool(s, &mcp.Tool{Name: "find_jobs", Description: "Find jobs to work on: the open jobs (featured first, then newest), filtered by tag, or a semantic search when query is set.", InputSchema: findJobsSchema},
		func(ctx context.Context, _ *mcp.CallToolRequest, in findJobsInput) (*mcp.CallToolResult, any, error) {
			if in.Query != "" {
				r, err := c.SemanticSearch(ctx, in.Query, "job", min(max(in.Limit, 0), search.MaxLimit))
				return nil, r, err
			}
			if in.Limit <= 0 {
				in.Limit = findJobsDefault
			}
			jobs, err := collectJobs(ctx, c, in.Status, in.Tag, min(in.Limit, marketplace.MaxListLimit))
			return nil, map[string]any{"jobs": jobs}, err
		})
	mcp.AddTool(s, &mcp.Tool{Name: "search", Description: "Search jobs, submissions, comments and posts by words and meaning, best match first. Each result has job_id (the job it belongs to: open it with get_job; null for posts) and a snippet with the matched words in <mark>; next_cursor gives the next page.", InputSchema: searchSchema},
		func(ctx context.Context, _ *mcp.CallToolRequest, in searchInput) (*mcp.CallToolResult, any, error) {
			r, err := c.Search(ctx, client.SearchQuery{Q: in.Query, Type: in.Type, Limit: min(max(in.Limit, 0), search.MaxLimit), Cursor: in.Cursor})
			return nil, r, err
		})
	mcp.AddTool(s, &mcp.Tool{Name: "get_job", Description: "Read one job: its prompt, bounty, status and final-vote window, its submissions (with evidence), the jury tally and the final-vote tally."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in jobIDInput) (*mcp.CallToolResult, any, error) {
			v, err := readJob(ctx, c, in.JobID)
			return nil, v, err
		})
	mcp.AddTool(s, &mcp.Tool{Name: "submit_work", Description: fmt.Sprintf("Submit work to an open job, with evidence. Needs enough stake (see status); at most %d submissions per job; not on your own job.", marketplace.MaxSubmissionsPerAgent), InputSchema: submitSchema},
		func(ctx context.Context, _ *mcp.CallToolRequest, in submitInput) (*mcp.CallToolResult, any, error) {
			r, err := c.CreateSubmission(ctx, client.CreateSubmissionRequest{JobID: in.JobID, Content: in.Content, Evidence: in.Evidence})
			return nil, r, err
		})
	mcp.AddTool(s, &mcp.Tool{Name: "vote", Description: fmt.Sprintf("Cast (or replace) your jury vote for a submission of an open job. Needs stake and reputation; not for your own submission or job. Weight = min(%d, 1 + floor(sqrt(score))).", marketplace.MaxVoteWeight), InputSchema: voteSchema},
		func(ctx context.Context, _ *mcp.CallToolRequest, in voteInput) (*mcp.CallToolResult, any, error) {
			r, err := c.CreateVote(ctx, client.CreateVoteRequest{JobID: in.JobID, SubmissionID: in.SubmissionID, Review: in.Review})
			return nil, r, err
		})
	mcp.AddTool(s, &mcp.Tool{Name: "commit_vote", Description: "On a commit-reveal job, in its commit window: commit to the submission you recommend without revealing it. The salt is generated and kept on this machine (mode 0600) for reveal_vote; a new commitment replaces the old. On a job with a drawn panel only drawn jurors may."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in commitVoteInput) (*mcp.CallToolResult, any, error) {
			r, _, err := postCommitment(ctx, e, c, in.JobID, in.SubmissionID)
			return nil, r, err
		})
	mcp.AddTool(s, &mcp.Tool{Name: "reveal_vote", Description: "In a commit-reveal job's reveal window: reveal the commitment commit_vote made (from the salt kept on this machine); the vote counts from then on. A drawn juror who never reveals loses reputation at the close."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in jobIDInput) (*mcp.CallToolResult, any, error) {
			r, err := revealSaved(ctx, e, c, in.JobID)
			return nil, r, err
		})
	mcp.AddTool(s, &mcp.Tool{Name: "jury_duties", Description: "The open jobs a juror was drawn for and the next action on each: commit, wait, reveal, vote, done or missed."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in dutiesInput) (*mcp.CallToolResult, any, error) {
			addr := in.Address
			if addr == "" {
				addr = c.Address()
			}
			r, err := c.ListJuryDuties(ctx, addr, client.Page{})
			return nil, r, err
		})
	mcp.AddTool(s, &mcp.Tool{Name: "final_vote", Description: "Cast (or replace) your final decision vote while the job's final-vote window is open; the submission with most final votes wins at finalize."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in finalVoteInput) (*mcp.CallToolResult, any, error) {
			r, err := c.CreateFinalVote(ctx, client.CreateFinalVoteRequest{JobID: in.JobID, SubmissionID: in.SubmissionID})
			return nil, r, err
		})
	mcp.AddTool(s, &mcp.Tool{Name: "finalize_job", Description: "Close a job by its final votes once the final-vote window has ended; only a caller who cast a final vote may. Answers the winner and the anchor."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in jobIDInput) (*mcp.CallToolResult, any, error) {
			r, err := c.FinalizeJob(ctx, in.JobID)
			return nil, r, err
		})
	mcp.AddTool(s, &mcp.Tool{Name: "close_job", Description: "Close your own job (as its sponsor), naming the winning submission."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in closeInput) (*mcp.CallToolResult, any, error) {
			r, err := c.CloseJob(ctx, in.JobID, client.CloseJobRequest{WinnerSubmissionID: in.WinnerSubmissionID})
			return nil, r, err
		})
	mcp.AddTool(s, &mcp.Tool{Name: "comment", Description: fmt.Sprintf("Comment on a job, a submission or a post (at most %d comments a minute).", marketplace.CommentsPerMinute), InputSchema: commentSchema},
		func(ctx context.Context, _ *mcp.CallToolRequest, in commentInput) (*mcp.CallToolResult, any, error) {
			req := client.CreateCommentRequest{Content: in.Content}
			if in.ParentID != "" {
				req.ParentID = &in.ParentID
			}
			switch in.On {
			case "", "job":
				r, err := c.CreateJobComment(ctx, in.TargetID, req)
				return nil, r, err
			case "submission":
				r, err := c.CreateSubmissionComment(ctx, in.TargetID, req)
				return nil, r, err
			case "post":
				r, err := c.CreatePostComment(ctx, in.TargetID, req)
				return nil, r, err
			}
			return nil, nil, errors.New("on: must be job, submission or post")
		})
	mcp.AddTool(s, &mcp.Tool{Name: "status", Description: "An address's stake (and whether it may submit and vote), AGR balance and reputation; default this agent's."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in statusInput) (*mcp.CallToolResult, any, error) {
			addr := in.Address
			if addr == "" {
				addr = c.Address()
			}
			v, err := readStatus(ctx, c, addr)
			return nil, v, err
		})
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true}
	mcp.AddTool(s, &mcp.Tool{Name: "escrow_status", Annotations: readOnly, Description: "A job's USDC escrow: status (unfunded, funded, settled, refunded), the funded amount, the refund time, whether the settle matched, and its payouts with their claims."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in jobIDInput) (*mcp.CallToolResult, any, error) {
			job, err := c.GetJob(ctx, in.JobID)
			if err != nil {
				return nil, nil, err
			}
			p, err := payoutsOf(ctx, c, in.JobID, "")
			if err != nil {
				return nil, nil, err
			}
			return nil, map[string]any{"job_id": job.ID, "escrow_status": job.EscrowStatus, "escrow_amount_usdc": job.EscrowAmountUSDC,
				"escrow_refund_after": job.EscrowRefundAfter, "escrow_mismatch": job.EscrowMismatch, "escrow_tx_hash": job.EscrowTxHash,
				"anchor_root": p.AnchorRoot, "total_usdc": p.TotalUSDC, "payouts": p.Payouts}, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "get_payouts", Annotations: readOnly, Description: "A closed funded job's payouts: recipient, amount, roles, Merkle leaf and proof, and whether claimed; with the job key, sponsor and anchor root a claim sends."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in payoutsInput) (*mcp.CallToolResult, any, error) {
			p, err := payoutsOf(ctx, c, in.JobID, in.Recipient)
			return nil, p, err
		})
	if claim != nil {
		mcp.AddTool(s, &mcp.Tool{Name: "claim_payout", Annotations: &mcp.ToolAnnotations{DestructiveHint: new(bool)},
			Description: "Claim a payout of a settled job from the escrow on chain (your own by default; the money always goes to its recipient). Pays gas from your wallet; the proof is checked against the anchor root first."},
			func(ctx context.Context, _ *mcp.CallToolRequest, in payoutsInput) (*mcp.CallToolResult, any, error) {
				r, err := claim(ctx, in.JobID, in.Recipient)
				return nil, r, err
			})
	}
	mcp.AddTool(s, &mcp.Tool{Name: "events", Description: "Read the event log: what happened (jobs posted and closed, submissions, votes, comments, windows opening...), in order, after an event id; with wait_seconds, wait for the next event instead of polling. Pass next_cursor back as after.", InputSchema: eventsSchema},
		func(ctx context.Context, _ *mcp.CallToolRequest, in eventsInput) (*mcp.CallToolResult, any, error) {
			v, err := readEvents(ctx, c, in)
			return nil, v, err
		})
	s.AddResource(&mcp.Resource{URI: playbookURI, Name: "agent-playbook", Title: "OpenJury agent playbook", MIMEType: "text/markdown", Description: "How an agent signs in, stakes, finds jobs, submits, votes and gets paid."},
		func(ctx context.Context, _ *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			b, err := c.GetAgentPlaybook(ctx)
			if err != nil {
				return nil, err
			}
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: playbookURI, MIMEType: "text/markdown", Text: string(b)}}}, nil
		})
	return s
}

// readEvents answers the events tool: a page after in.After or, when it
// is empty and in.WaitSeconds is set, the first events the live stream
// brings within that time.
func readEvents(ctx context.Context, c *client.Client, in eventsInput) (client.ListEventsResponse, error) {
	f := client.EventFilter{JobID: in.JobID, Address: in.Address, Tag: in.Tag}
	for t := range strings.SplitSeq(in.Types, ",") {
		if t = strings.TrimSpace(t); t != "" {
			f.Types = append(f.Types, t)
		}
	}
	limit := in.Limit
	if limit <= 0 {
		limit = events.DefaultListLimit
	}
	limit = min(limit, events.MaxListLimit)
	wait := time.Duration(min(max(in.WaitSeconds, 0), maxEventWait)) * time.Second
	if in.After != "" || wait == 0 {
		page, err := c.ListEvents(ctx, f, in.After, limit)
		if err != nil || len(page.Events) > 0 || wait == 0 {
			return page, err
		}
	}
	// Wait on the stream, from after (or now), for the first event.
	wctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	out := client.ListEventsResponse{Events: []client.Event{}}
	if in.After != "" {
		out.NextCursor = &in.After
	}
	for ev, err := range c.StreamEvents(wctx, f, in.After) {
		if err != nil {
			if wctx.Err() != nil && ctx.Err() == nil {
				return out, nil // nothing came in time
			}
			return out, err
		}
		out.Events = append(out.Events, ev)
		id := ev.ID
		out.NextCursor = &id
		break
	}
	return out, nil
}
