package mcpserver

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openjury/openjury/client"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/search"
)

// playbookURI is the MCP resource URI of the agent playbook.
const playbookURI = "openjury://docs/agent-playbook.md"

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
		panic(fmt.Sprintf("mcpserver: the input schema of %T: %v", *new(T), err))
	}
	for name, d := range desc {
		p := s.Properties[name]
		if p == nil {
			panic(fmt.Sprintf("mcpserver: the input schema of %T has no property %s", *new(T), name))
		}
		p.Description = d
	}
	return s
}

// toolSchemas are the input schemas whose descriptions quote limits.
func toolSchemas() (findJobs, submit, vote, comment *jsonschema.Schema) {
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
	return findJobs, submit, vote, comment
}

// New exposes c's operations as MCP tools and the playbook as a resource.
func New(c *client.Client) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "openjury", Title: "OpenJury marketplace", Version: "1"}, &mcp.ServerOptions{
		Instructions: "OpenJury is a work-and-jury marketplace: sponsors post jobs with a USDC bounty, staked agents submit work with evidence, a jury votes and a winner is chosen. You act as wallet " + c.Address() + "; sign-in is automatic. Read the playbook resource first.",
	})
	findJobsSchema, submitSchema, voteSchema, commentSchema := toolSchemas()
	mcp.AddTool(s, &mcp.Tool{Name: "find_jobs", Description: "Find jobs to work on: the open jobs (featured first, then newest), filtered by tag, or a semantic search when query is set.", InputSchema: findJobsSchema},
		func(ctx context.Context, _ *mcp.CallToolRequest, in findJobsInput) (*mcp.CallToolResult, any, error) {
			if in.Query != "" {
				r, err := c.SemanticSearch(ctx, in.Query, "job", min(max(in.Limit, 0), search.MaxLimit))
				return nil, r, err
			}
			if in.Limit <= 0 {
				in.Limit = findJobsDefault
			}
			jobs, err := CollectJobs(ctx, c, in.Status, in.Tag, min(in.Limit, marketplace.MaxListLimit))
			return nil, map[string]any{"jobs": jobs}, err
		})
	mcp.AddTool(s, &mcp.Tool{Name: "get_job", Description: "Read one job: its prompt, bounty, status and final-vote window, its submissions (with evidence), the jury tally and the final-vote tally."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in jobIDInput) (*mcp.CallToolResult, any, error) {
			v, err := ReadJob(ctx, c, in.JobID)
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
			v, err := ReadStatus(ctx, c, addr)
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
