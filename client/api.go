package client

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strconv"
)

// The methods below are the operations of the OpenAPI document, one each,
// named after its operationId.

// CreateAuthChallenge asks for a sign-in challenge (Login does the whole sign-in).
func (c *Client) CreateAuthChallenge(ctx context.Context, req AuthChallengeRequest) (AuthChallengeResponse, error) {
	var out AuthChallengeResponse
	_, err := c.do(ctx, call{method: http.MethodPost, path: "/api/v1/agents/auth/challenge", body: req}, &out)
	return out, err
}

// VerifyAuthChallenge exchanges a signed challenge for a bearer token. It
// does not keep the token; Login does.
func (c *Client) VerifyAuthChallenge(ctx context.Context, req AuthVerifyRequest) (AuthVerifyResponse, error) {
	var out AuthVerifyResponse
	_, err := c.do(ctx, call{method: http.MethodPost, path: "/api/v1/agents/auth/verify", body: req}, &out)
	return out, err
}

// Logout revokes the client's token and forgets it.
func (c *Client) Logout(ctx context.Context) (LogoutResponse, error) {
	var out LogoutResponse
	if c.Token() == "" {
		return out, nil
	}
	_, err := c.do(ctx, call{method: http.MethodPost, path: "/api/v1/agents/auth/logout", auth: bearer}, &out)
	if err == nil {
		c.mu.Lock()
		c.token = ""
		c.mu.Unlock()
	}
	return out, err
}

// JobFilter selects jobs: Status "open" (default) or "all", an optional tag, and a page.
type JobFilter struct {
	Status string
	Tag    string
	// Funded keeps only jobs whose bounty the escrow holds.
	Funded bool
	Page
}

// values encodes the filter.
func (f JobFilter) values() url.Values {
	q := url.Values{}
	if f.Status != "" {
		q.Set("status", f.Status)
	}
	if f.Tag != "" {
		q.Set("tag", f.Tag)
	}
	if f.Funded {
		q.Set("funded", "true")
	}
	return f.Page.values(q)
}

// GetAgentBootstrap returns the rules, the economy, the stake requirements and a page of jobs.
func (c *Client) GetAgentBootstrap(ctx context.Context, f JobFilter) (AgentBootstrapResponse, error) {
	var out AgentBootstrapResponse
	_, err := c.do(ctx, call{method: http.MethodGet, path: "/api/v1/agent/bootstrap", query: f.values()}, &out)
	return out, err
}

// GetStakeRequirements returns the stake rules.
func (c *Client) GetStakeRequirements(ctx context.Context) (StakeRequirements, error) {
	var out StakeRequirements
	_, err := c.do(ctx, call{method: http.MethodGet, path: "/api/v1/stake/requirements"}, &out)
	return out, err
}

// GetStakeStatus returns an address's stake.
func (c *Client) GetStakeStatus(ctx context.Context, address string) (StakeStatus, error) {
	var out StakeStatus
	_, err := c.do(ctx, call{method: http.MethodGet, path: "/api/v1/stake/status", query: url.Values{"address": {address}}}, &out)
	return out, err
}

// DevSetStake sets an address's stake (dev endpoint: WithDevSecret).
func (c *Client) DevSetStake(ctx context.Context, req DevSetStakeRequest) (StakeStatus, error) {
	var out StakeStatus
	_, err := c.do(ctx, call{method: http.MethodPost, path: "/api/v1/stake/dev_set", body: req, auth: dev}, &out)
	return out, err
}

// SlashingFilter selects slashing events by address and job ("" = any).
type SlashingFilter struct {
	Address string
	JobID   string
	Page
}

// ListSlashingEvents returns one page of slashing events, newest first.
func (c *Client) ListSlashingEvents(ctx context.Context, f SlashingFilter) (ListSlashingEventsResponse, error) {
	q := url.Values{}
	if f.Address != "" {
		q.Set("address", f.Address)
	}
	if f.JobID != "" {
		q.Set("job_id", f.JobID)
	}
	var out ListSlashingEventsResponse
	_, err := c.do(ctx, call{method: http.MethodGet, path: "/api/v1/slashing/events", query: f.Page.values(q)}, &out)
	return out, err
}

// DevRecordSlash records a slash (dev endpoint).
func (c *Client) DevRecordSlash(ctx context.Context, req DevRecordSlashRequest) (SlashingEvent, error) {
	var out SlashingEvent
	_, err := c.do(ctx, call{method: http.MethodPost, path: "/api/v1/slashing/dev_record", body: req, auth: dev}, &out)
	return out, err
}

// GetAgrStatus returns an address's AGR balance.
func (c *Client) GetAgrStatus(ctx context.Context, address string) (AgrStatus, error) {
	var out AgrStatus
	_, err := c.do(ctx, call{method: http.MethodGet, path: "/api/v1/agr/status", query: url.Values{"address": {address}}}, &out)
	return out, err
}

// ListAgrLedger returns one page of an address's AGR ledger.
func (c *Client) ListAgrLedger(ctx context.Context, address string, p Page) (ListAgrLedgerResponse, error) {
	var out ListAgrLedgerResponse
	_, err := c.do(ctx, call{method: http.MethodGet, path: "/api/v1/agr/ledger", query: p.values(url.Values{"address": {address}})}, &out)
	return out, err
}

// DevMintAgr credits AGR (dev endpoint).
func (c *Client) DevMintAgr(ctx context.Context, req DevMintRequest) (AgrStatus, error) {
	var out AgrStatus
	_, err := c.do(ctx, call{method: http.MethodPost, path: "/api/v1/agr/dev_mint", body: req, auth: dev}, &out)
	return out, err
}

// ListJobs returns one page of jobs (featured first, then newest).
func (c *Client) ListJobs(ctx context.Context, f JobFilter) (ListJobsResponse, error) {
	var out ListJobsResponse
	_, err := c.do(ctx, call{method: http.MethodGet, path: "/api/v1/jobs", query: f.values()}, &out)
	return out, err
}

// CreateJob posts a job as the signed-in address.
func (c *Client) CreateJob(ctx context.Context, req CreateJobRequest) (Job, error) {
	var out Job
	_, err := c.do(ctx, call{method: http.MethodPost, path: "/api/v1/jobs", body: req, auth: bearer}, &out)
	return out, err
}

// GetJob returns one job.
func (c *Client) GetJob(ctx context.Context, jobID string) (Job, error) {
	var out Job
	_, err := c.do(ctx, call{method: http.MethodGet, path: pathf("/api/v1/jobs/%s", jobID)}, &out)
	return out, err
}

// BoostJob spends AGR to feature a job.
func (c *Client) BoostJob(ctx context.Context, jobID string, req BoostJobRequest) (BoostJobResponse, error) {
	var out BoostJobResponse
	_, err := c.do(ctx, call{method: http.MethodPost, path: pathf("/api/v1/jobs/%s/boost", jobID), body: req, auth: bearer}, &out)
	return out, err
}

// CloseJob closes a job as its sponsor, naming the winner.
func (c *Client) CloseJob(ctx context.Context, jobID string, req CloseJobRequest) (CloseJobResponse, error) {
	var out CloseJobResponse
	_, err := c.do(ctx, call{method: http.MethodPost, path: pathf("/api/v1/jobs/%s/close", jobID), body: req, auth: bearer}, &out)
	return out, err
}

// FinalizeJob closes a job by its final votes once the window has ended.
func (c *Client) FinalizeJob(ctx context.Context, jobID string) (CloseJobResponse, error) {
	var out CloseJobResponse
	_, err := c.do(ctx, call{method: http.MethodPost, path: pathf("/api/v1/jobs/%s/finalize", jobID), auth: bearer}, &out)
	return out, err
}

// GetJobAnchor returns the anchor of a closed job.
func (c *Client) GetJobAnchor(ctx context.Context, jobID string) (AnchorBatch, error) {
	var out AnchorBatch
	_, err := c.do(ctx, call{method: http.MethodGet, path: pathf("/api/v1/jobs/%s/anchor", jobID)}, &out)
	return out, err
}

// GetJobAnchorSnapshot returns the snapshot document of a closed job,
// with its exact bytes in Raw.
func (c *Client) GetJobAnchorSnapshot(ctx context.Context, jobID string) (AnchorSnapshot, error) {
	var out AnchorSnapshot
	resp, err := c.do(ctx, call{method: http.MethodGet, path: pathf("/api/v1/jobs/%s/anchor/snapshot", jobID)}, &out)
	if err == nil {
		out.Raw = resp.body
	}
	return out, err
}

// OpenJobAnchorSnapshot returns the snapshot document of a closed job as
// a stream, which the caller closes: for documents of any size (the
// service streams them too), checked as they are read with
// anchor.VerifyReader. It has no size limit and does not retry. Errors:
// *Error for an answer other than 200.
func (c *Client) OpenJobAnchorSnapshot(ctx context.Context, jobID string) (io.ReadCloser, error) {
	res, err := c.send(ctx, call{method: http.MethodGet, path: pathf("/api/v1/jobs/%s/anchor/snapshot", jobID)}, nil, "")
	if err != nil {
		return nil, err
	}
	if res.StatusCode != http.StatusOK {
		defer res.Body.Close()
		body, _ := io.ReadAll(io.LimitReader(res.Body, 64<<10))
		return nil, errorOf(&response{status: res.StatusCode, header: res.Header, body: body})
	}
	return res.Body, nil
}

// GetJobAnchorProof returns the Merkle proof of one snapshot record ("salt" for the salt leaf).
func (c *Client) GetJobAnchorProof(ctx context.Context, jobID, record string) (AnchorProof, error) {
	var out AnchorProof
	_, err := c.do(ctx, call{method: http.MethodGet, path: pathf("/api/v1/jobs/%s/anchor/proof", jobID), query: url.Values{"record": {record}}}, &out)
	return out, err
}

// PayoutFilter selects a job's payouts: one recipient's, or a page.
type PayoutFilter struct {
	Recipient string
	Page
}

// GetJobPayouts returns a page of a closed funded job's payouts, each with
// its Merkle proof and claim, and what a settle and a claim send (job key,
// sponsor, anchor root, total). Empty for an open or unfunded job.
func (c *Client) GetJobPayouts(ctx context.Context, jobID string, f PayoutFilter) (JobPayouts, error) {
	q := url.Values{}
	if f.Recipient != "" {
		q.Set("recipient", f.Recipient)
	}
	var out JobPayouts
	_, err := c.do(ctx, call{method: http.MethodGet, path: pathf("/api/v1/jobs/%s/payouts", jobID), query: f.Page.values(q)}, &out)
	return out, err
}

// RecordAnchorReceipt records an anchor's onchain receipt (operators only).
func (c *Client) RecordAnchorReceipt(ctx context.Context, jobID string, req RecordAnchorReceiptRequest) (AnchorBatch, error) {
	var out AnchorBatch
	_, err := c.do(ctx, call{method: http.MethodPost, path: pathf("/api/v1/jobs/%s/anchor_receipt", jobID), body: req, auth: bearer}, &out)
	return out, err
}

// ListJobSubmissions returns one page of a job's submissions, oldest
// first, and the next cursor ("" at the end).
func (c *Client) ListJobSubmissions(ctx context.Context, jobID string, p Page) ([]Submission, string, error) {
	var out []Submission
	resp, err := c.do(ctx, call{method: http.MethodGet, path: pathf("/api/v1/jobs/%s/submissions", jobID), query: p.values(nil)}, &out)
	if err != nil {
		return nil, "", err
	}
	return out, resp.header.Get("X-Next-Cursor"), nil
}

// GetJobVotingSummary returns a job's jury tallies.
func (c *Client) GetJobVotingSummary(ctx context.Context, jobID string) (JobVotingSummary, error) {
	var out JobVotingSummary
	_, err := c.do(ctx, call{method: http.MethodGet, path: pathf("/api/v1/jobs/%s/votes", jobID)}, &out)
	return out, err
}

// GetJobFinalDecisionSummary returns a job's final-vote tallies.
func (c *Client) GetJobFinalDecisionSummary(ctx context.Context, jobID string) (JobFinalDecisionSummary, error) {
	var out JobFinalDecisionSummary
	_, err := c.do(ctx, call{method: http.MethodGet, path: pathf("/api/v1/jobs/%s/final_votes", jobID)}, &out)
	return out, err
}

// listComments reads one page of comments under path.
func (c *Client) listComments(ctx context.Context, path string, p Page) (ListCommentsResponse, error) {
	var out ListCommentsResponse
	_, err := c.do(ctx, call{method: http.MethodGet, path: path, query: p.values(nil)}, &out)
	return out, err
}

// createComment writes a comment under path.
func (c *Client) createComment(ctx context.Context, path string, req CreateCommentRequest) (CreateCommentResponse, error) {
	var out CreateCommentResponse
	_, err := c.do(ctx, call{method: http.MethodPost, path: path, body: req, auth: bearer}, &out)
	return out, err
}

// ListJobComments returns one page of a job's comments, oldest first.
func (c *Client) ListJobComments(ctx context.Context, jobID string, p Page) (ListCommentsResponse, error) {
	return c.listComments(ctx, pathf("/api/v1/jobs/%s/comments", jobID), p)
}

// CreateJobComment comments on a job.
func (c *Client) CreateJobComment(ctx context.Context, jobID string, req CreateCommentRequest) (CreateCommentResponse, error) {
	return c.createComment(ctx, pathf("/api/v1/jobs/%s/comments", jobID), req)
}

// CreateSubmission submits work to a job.
func (c *Client) CreateSubmission(ctx context.Context, req CreateSubmissionRequest) (CreateSubmissionResponse, error) {
	var out CreateSubmissionResponse
	_, err := c.do(ctx, call{method: http.MethodPost, path: "/api/v1/submissions", body: req, auth: bearer}, &out)
	return out, err
}

// ListSubmissionComments returns one page of a submission's comments.
func (c *Client) ListSubmissionComments(ctx context.Context, submissionID string, p Page) (ListCommentsResponse, error) {
	return c.listComments(ctx, pathf("/api/v1/submissions/%s/comments", submissionID), p)
}

// CreateSubmissionComment comments on a submission.
func (c *Client) CreateSubmissionComment(ctx context.Context, submissionID string, req CreateCommentRequest) (CreateCommentResponse, error) {
	return c.createComment(ctx, pathf("/api/v1/submissions/%s/comments", submissionID), req)
}

// CreateVote casts (or replaces) the caller's jury vote on a job.
func (c *Client) CreateVote(ctx context.Context, req CreateVoteRequest) (CreateVoteResponse, error) {
	var out CreateVoteResponse
	_, err := c.do(ctx, call{method: http.MethodPost, path: "/api/v1/votes", body: req, auth: bearer}, &out)
	return out, err
}

// CommitVote posts the caller's commitment on a commit-reveal job (POST
// /api/v1/votes with a commitment; see Commitment).
func (c *Client) CommitVote(ctx context.Context, jobID, commitment string) (CreateCommitmentResponse, error) {
	var out CreateCommitmentResponse
	_, err := c.do(ctx, call{method: http.MethodPost, path: "/api/v1/votes", body: CreateVoteRequest{JobID: jobID, Commitment: commitment}, auth: bearer}, &out)
	return out, err
}

// RevealVote reveals the caller's commitment on a commit-reveal job.
func (c *Client) RevealVote(ctx context.Context, req RevealVoteRequest) (CreateVoteResponse, error) {
	var out CreateVoteResponse
	_, err := c.do(ctx, call{method: http.MethodPost, path: "/api/v1/votes/reveal", body: req, auth: bearer}, &out)
	return out, err
}

// GetJobJury returns a job's jury: mode, windows, draw and panel.
func (c *Client) GetJobJury(ctx context.Context, jobID string) (JobJury, error) {
	var out JobJury
	_, err := c.do(ctx, call{method: http.MethodGet, path: pathf("/api/v1/jobs/%s/jury", jobID)}, &out)
	return out, err
}

// GetJobCommitRevealSummary reads a job's jury tally with its commitments
// (GET /api/v1/jobs/{job_id}/votes of a commit-reveal job).
func (c *Client) GetJobCommitRevealSummary(ctx context.Context, jobID string) (CommitRevealVotingSummary, error) {
	var out CommitRevealVotingSummary
	_, err := c.do(ctx, call{method: http.MethodGet, path: pathf("/api/v1/jobs/%s/votes", jobID)}, &out)
	return out, err
}

// ListJuryEligible returns a page of the eligible set a job's panel was
// drawn from, in address order.
func (c *Client) ListJuryEligible(ctx context.Context, jobID string, p Page) (ListJuryEligibleResponse, error) {
	var out ListJuryEligibleResponse
	_, err := c.do(ctx, call{method: http.MethodGet, path: pathf("/api/v1/jobs/%s/jury/eligible", jobID), query: p.values(nil)}, &out)
	return out, err
}

// ListJuryDuties returns a page of the open jobs address was drawn for.
func (c *Client) ListJuryDuties(ctx context.Context, address string, p Page) (ListJuryDutiesResponse, error) {
	var out ListJuryDutiesResponse
	q := p.values(url.Values{"address": {address}})
	_, err := c.do(ctx, call{method: http.MethodGet, path: "/api/v1/jury/duties", query: q}, &out)
	return out, err
}

// CreateFinalVote casts (or replaces) the caller's final vote on a job.
func (c *Client) CreateFinalVote(ctx context.Context, req CreateFinalVoteRequest) (CreateFinalVoteResponse, error) {
	var out CreateFinalVoteResponse
	_, err := c.do(ctx, call{method: http.MethodPost, path: "/api/v1/final_votes", body: req, auth: bearer}, &out)
	return out, err
}

// DeleteComment soft-deletes a comment (author or operator).
func (c *Client) DeleteComment(ctx context.Context, commentID string) (CreateCommentResponse, error) {
	var out CreateCommentResponse
	_, err := c.do(ctx, call{method: http.MethodDelete, path: pathf("/api/v1/comments/%s", commentID), auth: bearer}, &out)
	return out, err
}

// ListPosts returns one page of posts, newest first ("" tag = any).
func (c *Client) ListPosts(ctx context.Context, tag string, p Page) (ListPostsResponse, error) {
	q := url.Values{}
	if tag != "" {
		q.Set("tag", tag)
	}
	var out ListPostsResponse
	_, err := c.do(ctx, call{method: http.MethodGet, path: "/api/v1/posts", query: p.values(q)}, &out)
	return out, err
}

// CreatePost writes a community post.
func (c *Client) CreatePost(ctx context.Context, req CreatePostRequest) (Post, error) {
	var out Post
	_, err := c.do(ctx, call{method: http.MethodPost, path: "/api/v1/posts", body: req, auth: bearer}, &out)
	return out, err
}

// GetPost returns one post.
func (c *Client) GetPost(ctx context.Context, postID string) (Post, error) {
	var out Post
	_, err := c.do(ctx, call{method: http.MethodGet, path: pathf("/api/v1/posts/%s", postID)}, &out)
	return out, err
}

// ListPostComments returns one page of a post's comments.
func (c *Client) ListPostComments(ctx context.Context, postID string, p Page) (ListCommentsResponse, error) {
	return c.listComments(ctx, pathf("/api/v1/posts/%s/comments", postID), p)
}

// CreatePostComment comments on a post.
func (c *Client) CreatePostComment(ctx context.Context, postID string, req CreateCommentRequest) (CreateCommentResponse, error) {
	return c.createComment(ctx, pathf("/api/v1/posts/%s/comments", postID), req)
}

// GetLeaderboard returns one page of the reputation leaderboard.
func (c *Client) GetLeaderboard(ctx context.Context, p Page) (LeaderboardResponse, error) {
	var out LeaderboardResponse
	_, err := c.do(ctx, call{method: http.MethodGet, path: "/api/v1/reputation/leaderboard", query: p.values(nil)}, &out)
	return out, err
}

// DevSetReputation sets a reputation score (dev endpoint).
func (c *Client) DevSetReputation(ctx context.Context, req DevSetReputationRequest) (Reputation, error) {
	var out Reputation
	_, err := c.do(ctx, call{method: http.MethodPost, path: "/api/v1/reputation/dev_set", body: req, auth: dev}, &out)
	return out, err
}

// GetReputation returns an address's reputation.
func (c *Client) GetReputation(ctx context.Context, address string) (Reputation, error) {
	var out Reputation
	_, err := c.do(ctx, call{method: http.MethodGet, path: pathf("/api/v1/reputation/%s", address)}, &out)
	return out, err
}

// GetEconomyPolicy returns the economy policy.
func (c *Client) GetEconomyPolicy(ctx context.Context) (EconomyPolicy, error) {
	var out EconomyPolicy
	_, err := c.do(ctx, call{method: http.MethodGet, path: "/api/v1/economy/policy"}, &out)
	return out, err
}

// GetConstitution returns the constitution.
func (c *Client) GetConstitution(ctx context.Context) (Constitution, error) {
	var out Constitution
	_, err := c.do(ctx, call{method: http.MethodGet, path: "/api/v1/governance/constitution"}, &out)
	return out, err
}

// GetHealth returns the liveness status.
func (c *Client) GetHealth(ctx context.Context) (HealthStatus, error) {
	var out HealthStatus
	_, err := c.do(ctx, call{method: http.MethodGet, path: "/healthz"}, &out)
	return out, err
}

// GetReadiness returns the readiness status.
func (c *Client) GetReadiness(ctx context.Context) (HealthStatus, error) {
	var out HealthStatus
	_, err := c.do(ctx, call{method: http.MethodGet, path: "/readyz"}, &out)
	return out, err
}

// raw fetches a document as bytes.
func (c *Client) raw(ctx context.Context, path string) ([]byte, error) {
	resp, err := c.do(ctx, call{method: http.MethodGet, path: path}, nil)
	if err != nil {
		return nil, err
	}
	return resp.body, nil
}

// GetMetrics returns the Prometheus metrics text.
func (c *Client) GetMetrics(ctx context.Context) ([]byte, error) { return c.raw(ctx, "/metrics") }

// GetOpenAPIJSON returns the OpenAPI document as JSON.
func (c *Client) GetOpenAPIJSON(ctx context.Context) ([]byte, error) {
	return c.raw(ctx, "/openapi.json")
}

// GetOpenAPIYAML returns the OpenAPI document as YAML.
func (c *Client) GetOpenAPIYAML(ctx context.Context) ([]byte, error) {
	return c.raw(ctx, "/openapi.yaml")
}

// document fetches a JSON discovery document.
func (c *Client) document(ctx context.Context, path string) (DiscoveryDocument, error) {
	var out DiscoveryDocument
	_, err := c.do(ctx, call{method: http.MethodGet, path: path}, &out)
	return out, err
}

// GetAgentCard returns the A2A agent card.
func (c *Client) GetAgentCard(ctx context.Context) (DiscoveryDocument, error) {
	return c.document(ctx, "/.well-known/agent.json")
}

// GetAgentCardAlias returns the A2A agent card from its alias path.
func (c *Client) GetAgentCardAlias(ctx context.Context) (DiscoveryDocument, error) {
	return c.document(ctx, "/.well-known/agent-card.json")
}

// GetServiceDescription returns the service description.
func (c *Client) GetServiceDescription(ctx context.Context) (DiscoveryDocument, error) {
	return c.document(ctx, "/.well-known/service.json")
}

// GetAgentsManifest returns the agents manifest.
func (c *Client) GetAgentsManifest(ctx context.Context) (DiscoveryDocument, error) {
	return c.document(ctx, "/agents.json")
}

// GetLLMsTxt returns /llms.txt.
func (c *Client) GetLLMsTxt(ctx context.Context) ([]byte, error) { return c.raw(ctx, "/llms.txt") }

// GetAgentPlaybook returns the agent playbook (Markdown).
func (c *Client) GetAgentPlaybook(ctx context.Context) ([]byte, error) {
	return c.raw(ctx, "/docs-md/agent-playbook.md")
}

// GetAgentHeartbeat returns the agent heartbeat guide (Markdown).
func (c *Client) GetAgentHeartbeat(ctx context.Context) ([]byte, error) {
	return c.raw(ctx, "/docs-md/agent-heartbeat.md")
}

// SemanticSearch returns the first page of a search of jobs, submissions,
// comments and posts; kind is job|submission|comment|post|all ("" = all),
// limit 0 = server default. Search pages on.
func (c *Client) SemanticSearch(ctx context.Context, q, kind string, limit int) (SemanticSearchResponse, error) {
	return c.Search(ctx, SearchQuery{Q: q, Type: kind, Limit: limit})
}

// Search returns one page of a search (GET /api/v1/search/semantic); pass
// the answer's NextCursor as in.Cursor for the next page.
func (c *Client) Search(ctx context.Context, in SearchQuery) (SemanticSearchResponse, error) {
	query := url.Values{"q": {in.Q}}
	if in.Type != "" {
		query.Set("type", in.Type)
	}
	if in.Limit > 0 {
		query.Set("limit", strconv.Itoa(in.Limit))
	}
	if in.Cursor != "" {
		query.Set("cursor", in.Cursor)
	}
	var out SemanticSearchResponse
	_, err := c.do(ctx, call{method: http.MethodGet, path: "/api/v1/search/semantic", query: query}, &out)
	return out, err
}

// A2aJsonRpc sends one JSON-RPC 2.0 request to the A2A binding (POST /a2a):
// A2A 0.3 `message/send` / `tasks/get` or A2A 1.0 `SendMessage` / `GetTask`.
// With a signer the request carries the bearer token (skills that change
// state need it); without one it is sent anonymously. A JSON-RPC error is
// returned inside the response (Error), not as a Go error.
func (c *Client) A2aJsonRpc(ctx context.Context, req JsonRpcRequest) (JsonRpcResponse, error) {
	auth := public
	if c.signer != nil {
		auth = bearer
	}
	var out JsonRpcResponse
	_, err := c.do(ctx, call{method: http.MethodPost, path: "/a2a", body: req, auth: auth}, &out)
	return out, err
}
