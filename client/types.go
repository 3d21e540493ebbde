package client

import (
	"strconv"
	"time"

	"github.com/openjury/openjury/wire"
)

// The request and answer types are those of package wire, the one
// definition of the interface's JSON shapes that the server uses too; they
// are named after the schemas of the served OpenAPI document, and a test
// holds every property of every schema equal to a json field of its type.
// Nullable properties are pointers (or nil maps and slices); instants are
// wire.Time (a time.Time written as the server writes it), amounts of USDC
// json.Number in answers and wire.Number in requests (exact decimals).

// The wire types under the names of the document's schemas.
type (
	// AgentBootstrapResponse is wire.AgentBootstrapResponse.
	AgentBootstrapResponse = wire.AgentBootstrapResponse
	// AgentSpecLinks is wire.AgentSpecLinks.
	AgentSpecLinks = wire.AgentSpecLinks
	// AgrLedgerEntry is wire.AgrLedgerEntry.
	AgrLedgerEntry = wire.AgrLedgerEntry
	// AgrStatus is wire.AgrStatus.
	AgrStatus = wire.AgrStatus
	// AnchorBatch is wire.AnchorBatch.
	AnchorBatch = wire.AnchorBatch
	// AnchorProof is wire.AnchorProof.
	AnchorProof = wire.AnchorProof
	// AuthChallengeRequest is wire.AuthChallengeRequest.
	AuthChallengeRequest = wire.AuthChallengeRequest
	// AuthChallengeResponse is wire.AuthChallengeResponse.
	AuthChallengeResponse = wire.AuthChallengeResponse
	// AuthVerifyRequest is wire.AuthVerifyRequest.
	AuthVerifyRequest = wire.AuthVerifyRequest
	// AuthVerifyResponse is wire.AuthVerifyResponse.
	AuthVerifyResponse = wire.AuthVerifyResponse
	// BoostJobRequest is wire.BoostJobRequest.
	BoostJobRequest = wire.BoostJobRequest
	// BoostJobResponse is wire.BoostJobResponse.
	BoostJobResponse = wire.BoostJobResponse
	// CloseJobRequest is wire.CloseJobRequest.
	CloseJobRequest = wire.CloseJobRequest
	// CloseJobResponse is wire.CloseJobResponse.
	CloseJobResponse = wire.CloseJobResponse
	// Comment is wire.Comment.
	Comment = wire.Comment
	// CommitRevealVotingSummary is wire.CommitRevealVotingSummary.
	CommitRevealVotingSummary = wire.CommitRevealVotingSummary
	// Constitution is wire.Constitution.
	Constitution = wire.Constitution
	// CreateCommentRequest is wire.CreateCommentRequest.
	CreateCommentRequest = wire.CreateCommentRequest
	// CreateCommentResponse is wire.CreateCommentResponse.
	CreateCommentResponse = wire.CreateCommentResponse
	// CreateCommitmentResponse is wire.CreateCommitmentResponse.
	CreateCommitmentResponse = wire.CreateCommitmentResponse
	// CreateFinalVoteRequest is wire.CreateFinalVoteRequest.
	CreateFinalVoteRequest = wire.CreateFinalVoteRequest
	// CreateFinalVoteResponse is wire.CreateFinalVoteResponse.
	CreateFinalVoteResponse = wire.CreateFinalVoteResponse
	// CreateJobRequest is wire.CreateJobRequest.
	CreateJobRequest = wire.CreateJobRequest
	// CreatePostRequest is wire.CreatePostRequest.
	CreatePostRequest = wire.CreatePostRequest
	// CreateSubmissionRequest is wire.CreateSubmissionRequest.
	CreateSubmissionRequest = wire.CreateSubmissionRequest
	// CreateSubmissionResponse is wire.CreateSubmissionResponse.
	CreateSubmissionResponse = wire.CreateSubmissionResponse
	// CreateVoteRequest is wire.CreateVoteRequest.
	CreateVoteRequest = wire.CreateVoteRequest
	// CreateVoteResponse is wire.CreateVoteResponse.
	CreateVoteResponse = wire.CreateVoteResponse
	// DevMintRequest is wire.DevMintRequest.
	DevMintRequest = wire.DevMintRequest
	// DevRecordSlashRequest is wire.DevRecordSlashRequest.
	DevRecordSlashRequest = wire.DevRecordSlashRequest
	// DevSetReputationRequest is wire.DevSetReputationRequest.
	DevSetReputationRequest = wire.DevSetReputationRequest
	// DevSetStakeRequest is wire.DevSetStakeRequest.
	DevSetStakeRequest = wire.DevSetStakeRequest
	// EconomyPolicy is wire.EconomyPolicy.
	EconomyPolicy = wire.EconomyPolicy
	// Evidence is wire.Evidence.
	Evidence = wire.Evidence
	// FinalVote is wire.FinalVote.
	FinalVote = wire.FinalVote
	// FinalVoteTally is wire.FinalVoteTally.
	FinalVoteTally = wire.FinalVoteTally
	// HealthStatus is wire.HealthStatus.
	HealthStatus = wire.HealthStatus
	// Job is wire.Job.
	Job = wire.Job
	// JobFinalDecisionSummary is wire.JobFinalDecisionSummary.
	JobFinalDecisionSummary = wire.JobFinalDecisionSummary
	// JobJury is wire.JobJury.
	JobJury = wire.JobJury
	// JobPayouts is wire.JobPayouts.
	JobPayouts = wire.JobPayouts
	// JobVotingSummary is wire.JobVotingSummary.
	JobVotingSummary = wire.JobVotingSummary
	// JuryCommitment is wire.JuryCommitment.
	JuryCommitment = wire.JuryCommitment
	// JuryDraw is wire.JuryDraw.
	JuryDraw = wire.JuryDraw
	// JuryDuty is wire.JuryDuty.
	JuryDuty = wire.JuryDuty
	// JuryEligibleJuror is wire.JuryEligibleJuror.
	JuryEligibleJuror = wire.JuryEligibleJuror
	// JuryPanelMember is wire.JuryPanelMember.
	JuryPanelMember = wire.JuryPanelMember
	// LeaderboardEntry is wire.LeaderboardEntry.
	LeaderboardEntry = wire.LeaderboardEntry
	// LeaderboardResponse is wire.LeaderboardResponse.
	LeaderboardResponse = wire.LeaderboardResponse
	// ListAgrLedgerResponse is wire.ListAgrLedgerResponse.
	ListAgrLedgerResponse = wire.ListAgrLedgerResponse
	// ListCommentsResponse is wire.ListCommentsResponse.
	ListCommentsResponse = wire.ListCommentsResponse
	// ListJobsResponse is wire.ListJobsResponse.
	ListJobsResponse = wire.ListJobsResponse
	// ListJuryDutiesResponse is wire.ListJuryDutiesResponse.
	ListJuryDutiesResponse = wire.ListJuryDutiesResponse
	// ListJuryEligibleResponse is wire.ListJuryEligibleResponse.
	ListJuryEligibleResponse = wire.ListJuryEligibleResponse
	// ListPostsResponse is wire.ListPostsResponse.
	ListPostsResponse = wire.ListPostsResponse
	// ListSlashingEventsResponse is wire.ListSlashingEventsResponse.
	ListSlashingEventsResponse = wire.ListSlashingEventsResponse
	// LogoutResponse is wire.LogoutResponse.
	LogoutResponse = wire.LogoutResponse
	// Number is wire.Number.
	Number = wire.Number
	// Payout is wire.Payout.
	Payout = wire.Payout
	// Post is wire.Post.
	Post = wire.Post
	// RecordAnchorReceiptRequest is wire.RecordAnchorReceiptRequest.
	RecordAnchorReceiptRequest = wire.RecordAnchorReceiptRequest
	// Reputation is wire.Reputation.
	Reputation = wire.Reputation
	// RevealVoteRequest is wire.RevealVoteRequest.
	RevealVoteRequest = wire.RevealVoteRequest
	// SemanticSearchResponse is wire.SemanticSearchResponse.
	SemanticSearchResponse = wire.SemanticSearchResponse
	// SemanticSearchResult is wire.SemanticSearchResult.
	SemanticSearchResult = wire.SemanticSearchResult
	// SlashingEvent is wire.SlashingEvent.
	SlashingEvent = wire.SlashingEvent
	// StakeRequirements is wire.StakeRequirements.
	StakeRequirements = wire.StakeRequirements
	// StakeStatus is wire.StakeStatus.
	StakeStatus = wire.StakeStatus
	// Submission is wire.Submission.
	Submission = wire.Submission
	// Time is wire.Time.
	Time = wire.Time
	// TreasuryInfo is wire.TreasuryInfo.
	TreasuryInfo = wire.TreasuryInfo
	// USDCSplit is wire.USDCSplit.
	USDCSplit = wire.USDCSplit
	// Vote is wire.Vote.
	Vote = wire.Vote
	// VoteTally is wire.VoteTally.
	VoteTally = wire.VoteTally
	// VotingRules is wire.VotingRules.
	VotingRules = wire.VotingRules
)

// DiscoveryDocument is a machine-readable description of the service.
type DiscoveryDocument map[string]any

// AnchorSnapshot is the decoded snapshot document of a closed job. The
// exact bytes (needed to check the root) come from GetJobAnchorSnapshot's
// Raw field.
type AnchorSnapshot struct {
	SchemaVersion int64            `json:"schema_version"`
	JobID         string           `json:"job_id"`
	CreatedAt     time.Time        `json:"created_at"`
	Salt          string           `json:"salt"`
	Root          string           `json:"root"`
	Records       []map[string]any `json:"records"`
	// Raw is the document byte for byte as served.
	Raw []byte `json:"-"`
}

// SearchQuery is a search: Q the text, Type job|submission|comment|post|all
// ("" = all), Limit the page size (0 = server default), Cursor the
// NextCursor of the previous page ("" for the first).
type SearchQuery struct {
	Q      string
	Type   string
	Limit  int
	Cursor string
}

// Error is the error body of every failure ({"detail": "..."}); the
// client returns it as *Error with the status filled in.
type Error struct {
	// Status is the HTTP status code.
	Status int `json:"-"`
	// Detail is the server's explanation.
	Detail string `json:"detail"`
	// RequestID is the X-Request-Id of the failed response.
	RequestID string `json:"-"`
	// retryAfter is the answer's Retry-After (streams).
	retryAfter time.Duration
}

// Error implements error.
func (e *Error) Error() string {
	return "openjury: " + strconv.Itoa(e.Status) + ": " + e.Detail
}

// JsonRpcRequest is a JSON-RPC 2.0 request to the A2A binding.
type JsonRpcRequest struct {
	Jsonrpc string         `json:"jsonrpc"`
	ID      any            `json:"id"`
	Method  string         `json:"method"`
	Params  map[string]any `json:"params,omitempty"`
}

// JsonRpcResponse is a JSON-RPC 2.0 response of the A2A binding: exactly one
// of Result and Error is set.
type JsonRpcResponse struct {
	Jsonrpc string         `json:"jsonrpc"`
	ID      any            `json:"id"`
	Result  map[string]any `json:"result,omitempty"`
	Error   *JsonRpcError  `json:"error,omitempty"`
}

// JsonRpcError is a JSON-RPC 2.0 error; Data carries the HTTP status and
// detail of a failed operation.
type JsonRpcError struct {
	Code    int            `json:"code"`
	Message string         `json:"message"`
	Data    map[string]any `json:"data,omitempty"`
}

// FloatNumber is f as the amount of a request (wire.FloatNumber), e.g.
// CreateJobRequest{BountyUSDC: FloatNumber(25)}.
func FloatNumber(f float64) Number { return wire.FloatNumber(f) }
