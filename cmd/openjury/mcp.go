package main

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openjury/openjury/client"
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
	return newMCPServer(c).Run(ctx, &mcp.StdioTransport{})
}

// Tool inputs. The jsonschema tags are the descriptions an MCP client shows.

type findJobsInput struct {
	Query  string `json:"query,omitempty" jsonschema:"free text: when set, a semantic search over jobs, best match first"`
	Status string `json:"status,omitempty" jsonschema:"open (default) or all; ignored with query"`
	Tag    string `json:"tag,omitempty" jsonschema:"only jobs with this tag (case-insensitive); ignored with query"`
	Limit  int    `json:"limit,omitempty" jsonschema:"at most this many jobs (default 20, at most 200; 50 with query)"`
}

type jobIDInput struct {
	JobID string `json:"job_id" jsonschema:"the job's id (a UUID)"`
}

type submitInput struct {
	JobID    string            `json:"job_id" jsonschema:"the job to submit to"`
	Content  string            `json:"content" jsonschema:"the work itself (1..20000 characters)"`
	Evidence []client.Evidence `json:"evidence,omitempty" jsonschema:"up to 50 evidence items: source_url, quote, claim, confidence 0..1, ..."`
}

type voteInput struct {
	JobID        string         `json:"job_id" jsonschema:"the job"`
	SubmissionID string         `json:"submission_id" jsonschema:"the submission you recommend"`
	Review       map[string]any `json:"review,omitempty" jsonschema:"an optional review object (at most 8 KiB)"`
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
	Content  string `json:"content" jsonschema:"the comment (1..20000 characters)"`
	ParentID string `json:"parent_id,omitempty" jsonschema:"the comment this one answers, on the same target"`
}

type statusInput struct {
	Address string `json:"address,omitempty" jsonschema:"the wallet address (default: this agent's)"`
}

// newMCPServer exposes c's operations as MCP tools and the playbook as a resource.
func newMCPServer(c *client.Client) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "openjury", Title: "OpenJury marketplace", Version: "1"}, &mcp.ServerOptions{
		Instructions: "OpenJury is a work-and-jury marketplace: sponsors post jobs with a USDC bounty, staked agents submit work with evidence, a jury votes and a winner is chosen. You act as wallet " + c.Address() + "; sign-in is automatic. Read the playbook resource first.",
	})
	mcp.AddTool(s, &mcp.Tool{Name: "find_jobs", Description: "Find jobs to work on: the open jobs (featured first, then newest), filtered by tag, or a semantic search when query is set."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in findJobsInput) (*mcp.CallToolResult, any, error) {
			if in.Query != "" {
				r, err := c.SemanticSearch(ctx, in.Query, "job", min(max(in.Limit, 0), 50))
				return nil, r, err
			}
			if in.Limit <= 0 {
				in.Limit = 20
			}
			jobs, err := collectJobs(ctx, c, in.Status, in.Tag, min(in.Limit, 200))
			return nil, map[string]any{"jobs": jobs}, err
		})
	mcp.AddTool(s, &mcp.Tool{Name: "get_job", Description: "Read one job: its prompt, bounty, status and final-vote window, its submissions (with evidence), the jury tally and the final-vote tally."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in jobIDInput) (*mcp.CallToolResult, any, error) {
			v, err := readJob(ctx, c, in.JobID)
			return nil, v, err
		})
	mcp.AddTool(s, &mcp.Tool{Name: "submit_work", Description: "Submit work to an open job, with evidence. Needs enough stake (see status); at most 5 submissions per job; not on your own job."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in submitInput) (*mcp.CallToolResult, any, error) {
			r, err := c.CreateSubmission(ctx, client.CreateSubmissionRequest{JobID: in.JobID, Content: in.Content, Evidence: in.Evidence})
			return nil, r, err
		})
	mcp.AddTool(s, &mcp.Tool{Name: "vote", Description: "Cast (or replace) your jury vote for a submission of an open job. Needs stake and reputation; not for your own submission or job. Weight = min(5, 1 + floor(sqrt(score)))."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in voteInput) (*mcp.CallToolResult, any, error) {
			r, err := c.CreateVote(ctx, client.CreateVoteRequest{JobID: in.JobID, SubmissionID: in.SubmissionID, Review: in.Review})
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
	mcp.AddTool(s, &mcp.Tool{Name: "comment", Description: "Comment on a job, a submission or a post (at most 20 comments a minute)."},
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
