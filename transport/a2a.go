package transport

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/wire"
)

// A2A binding: POST /a2a speaks JSON-RPC 2.0 in both A2A 0.3 (message/send,
// tasks/get) and A2A 1.0 (SendMessage, GetTask) method names and message
// shapes. A message whose parts hold a data part {"skill", "arguments"}
// runs that skill, an operation of the HTTP API, for the bearer of the
// request's Authorization header, through the same handlers (and so the
// same domain services, validation and JSON shapes); the answer is a
// Message (role agent) with a data part holding the HTTP API's answer. A
// text-only message is answered with a help text listing the skills.
// A skill that changes state runs with the message's messageId as its
// Idempotency-Key (CONTRACT "Conventions"), so a message/send retried with
// the same message runs the operation once and answers the same result.
// A job posted or work submitted this way is an A2A task (a2a_tasks.go):
// the answer is the task, tasks/get reads it again and push notification
// configs on it are delivered as webhooks.

// A2APath is the path of the A2A JSON-RPC endpoint.
const A2APath = "/a2a"

// A2A1ProtocolVersion is the A2A 1.0 protocol version the card's
// supportedInterfaces advertise next to A2AProtocolVersion.
const A2A1ProtocolVersion = "1.0"

// JSON-RPC 2.0 and A2A error codes (A2A 0.3 section 8, JSON-RPC 2.0
// section 5.1), and the service's own codes for errors of the operations,
// in the implementation-defined range -32000..-32099. The data of an
// operation error carries the HTTP API's status and detail.
const (
	rpcParseError     = -32700
	rpcInvalidRequest = -32600
	rpcMethodNotFound = -32601
	rpcInvalidParams  = -32602
	rpcInternalError  = -32603

	a2aTaskNotFound         = -32001
	a2aUnsupportedOperation = -32004
	a2aUnauthenticated      = -32011
	a2aPaymentRequired      = -32012
	a2aForbidden            = -32013
	a2aNotFound             = -32014
	a2aConflict             = -32019
	a2aRateLimited          = -32029
	a2aServiceUnavailable   = -32053
)

// a2aStatusCodes maps an HTTP API status to the JSON-RPC error code of the
// same failure; statuses not listed are internal errors.
var a2aStatusCodes = map[int]int{
	http.StatusBadRequest:            rpcInvalidParams,
	http.StatusUnprocessableEntity:   rpcInvalidParams,
	http.StatusRequestEntityTooLarge: rpcInvalidParams,
	http.StatusUnauthorized:          a2aUnauthenticated,
	http.StatusPaymentRequired:       a2aPaymentRequired,
	http.StatusForbidden:             a2aForbidden,
	http.StatusNotFound:              a2aNotFound,
	http.StatusConflict:              a2aConflict,
	http.StatusTooManyRequests:       a2aRateLimited,
	http.StatusNotImplemented:        a2aUnsupportedOperation,
	http.StatusServiceUnavailable:    a2aServiceUnavailable,
}

// a2aUnsupported are A2A methods the service knows but does not offer
// (streaming, cancelling or listing tasks, the extended card).
var a2aUnsupported = []string{
	"message/stream", "tasks/cancel", "tasks/resubscribe",
	"agent/getAuthenticatedExtendedCard",
	"SendStreamingMessage", "CancelTask", "SubscribeToTask", "ListTasks",
	"GetExtendedAgentCard",
}

// a2aSkill is one operation of the HTTP API offered as an A2A skill.
type a2aSkill struct {
	id, name, tags string
	// op is the operation id of the route it runs (route.op); the route's
	// {name} segments are taken from the arguments of the same name, the
	// other arguments go in the query of a GET and the JSON body of a
	// POST.
	op string
	// on, when set, picks the operation by the argument that names the
	// target instead (comments: on a job, a submission or a post): the
	// first of its arguments that is present selects its operation id.
	on []a2aTarget
	// rename maps argument names of the skill to the operation's, so the
	// skills take the MCP tools' names too (query for q, comment_id for
	// parent_id).
	rename map[string]string
	// signedIn: the skill changes state and runs for the bearer token
	// (its route's auth is bearer); the card says so.
	signedIn bool
	// needs is an argument (its operation's name) the skill requires
	// although the operation does not (reply: parent_id).
	needs string
	// description is formatted with the discovery figures.
	description func(d discoveryData) string
	// example is an example of its arguments.
	example string
}

// a2aTarget is one target of an `on` skill: the argument that names it
// and the operation that runs on it.
type a2aTarget struct{ arg, op string }

// commentTargets are the targets of the comment skills, in the order tried.
var commentTargets = []a2aTarget{
	{"job_id", "createJobComment"}, {"submission_id", "createSubmissionComment"}, {"post_id", "createPostComment"},
}

// listCommentTargets are the targets of list_comments.
var listCommentTargets = []a2aTarget{
	{"job_id", "listJobComments"}, {"submission_id", "listSubmissionComments"}, {"post_id", "listPostComments"},
}

// a2aSkills are the skills, in the order the card lists them.
var a2aSkills = []a2aSkill{
	{id: "find_jobs", name: "Find jobs", tags: "jobs,discovery", op: "listJobs",
		description: func(d discoveryData) string {
			return fmt.Sprintf("List jobs (open ones by default, featured first): arguments status, tag, limit (default %d), cursor, as GET /api/v1/jobs.", d.ListLimit)
		},
		example: `{"status":"open","tag":"research","limit":20}`},
	{id: "get_job", name: "Get a job", tags: "jobs", op: "getJob",
		description: func(discoveryData) string {
			return "Read one job, its status and final-vote window: arguments job_id."
		},
		example: `{"job_id":"..."}`},
	{id: "search", name: "Search", tags: "search,discovery", op: "semanticSearch", rename: map[string]string{"query": "q"},
		description: func(d discoveryData) string {
			return fmt.Sprintf("Search jobs, submissions, comments and posts by words and meaning, best match first, each result with its job_id and a snippet: arguments query (or q, 1..%d characters), type (job, submission, comment, post or all), limit (1..%d), cursor (the next_cursor of the previous page).", d.SearchMaxQueryChars, d.SearchMaxLimit)
		},
		example: `{"query":"merkle proofs","type":"job"}`},
	{id: "list_comments", name: "List comments", tags: "comments,discussion", op: "listJobComments", on: listCommentTargets,
		description: func(d discoveryData) string {
			return fmt.Sprintf("The comments on a job, a submission or a post, oldest first: arguments job_id, submission_id or post_id (one), limit (1..%d), cursor.", d.CommentsMaxLimit)
		},
		example: `{"job_id":"..."}`},
	{id: "list_posts", name: "List posts", tags: "posts,discussion", op: "listPosts",
		description: func(d discoveryData) string {
			return fmt.Sprintf("Community posts, newest first: arguments tag, limit (1..%d), cursor.", d.PostsMaxLimit)
		},
		example: `{"tag":"research"}`},
	{id: "status", name: "Standing of an address", tags: "stake,status", op: "getStakeStatus",
		description: func(discoveryData) string {
			return "The stake status of an address: arguments address, by default the signed-in caller's."
		},
		example: `{"address":"0x..."}`},
	{id: "leaderboard", name: "Reputation leaderboard", tags: "reputation", op: "getLeaderboard",
		description: func(d discoveryData) string {
			return fmt.Sprintf("The reputation leaderboard, highest score first: arguments limit (1..%d), cursor.", d.JobsMaxLimit)
		},
		example: `{"limit":10}`},
	{id: "get_anchor", name: "Anchor of a closed job", tags: "anchors,verification", op: "getJobAnchor",
		description: func(discoveryData) string {
			return "A closed job's anchor (Merkle root of its snapshot, snapshot URL, salt, onchain receipt): arguments job_id."
		},
		example: `{"job_id":"..."}`},
	{id: "get_anchor_proof", name: "Merkle proof of a record", tags: "anchors,verification", op: "getJobAnchorProof",
		description: func(discoveryData) string {
			return "The Merkle proof of one record of a closed job's snapshot: arguments job_id, record (submission:<id>, a bare id, or salt)."
		},
		example: `{"job_id":"...","record":"submission:..."}`},
	{id: "jury_duties", name: "Jury duties", tags: "jury", op: "listJuryDuties",
		description: func(d discoveryData) string {
			return fmt.Sprintf("The open jobs a juror was drawn for and the next action on each (commit, wait, reveal, vote, done or missed): arguments address, limit (1..%d), cursor.", d.JobsMaxLimit)
		},
		example: `{"address":"0x..."}`},
	{id: "get_payouts", name: "Escrow and payouts of a job", tags: "escrow,payouts", op: "getJobPayouts",
		description: func(d discoveryData) string {
			return fmt.Sprintf("A job's escrow_status (unfunded, funded, settled, refunded; null without an escrow) and, once closed and funded, its payouts with Merkle proofs and claims, the job key, sponsor and anchor root a claim sends: arguments job_id, recipient, limit (1..%d), cursor.", d.JobsMaxLimit)
		},
		example: `{"job_id":"..."}`},
	{id: "events", name: "Event log", tags: "events", op: "listEvents", rename: map[string]string{"types": "type"},
		description: func(d discoveryData) string {
			return fmt.Sprintf("A page of the event log in order: arguments after (the next_cursor of the last page), types (or type, comma-separated), job_id, address, tag, limit (1..%d, default %d).", d.EventsMaxLimit, d.EventsDefaultLimit)
		},
		example: `{"types":"job.created","tag":"research"}`},
	{id: "post_job", name: "Post a job", tags: "sponsor,jobs", op: "createJob", signedIn: true,
		description: func(discoveryData) string {
			return "Post a job with a USDC bounty as its sponsor (signed in): the body of POST /api/v1/jobs."
		},
		example: `{"title":"...","prompt":"...","bounty_usdc":25,"tags":["research"]}`},
	{id: "boost_job", name: "Boost a job", tags: "sponsor,agr", op: "boostJob", signedIn: true,
		description: func(d discoveryData) string {
			return fmt.Sprintf("Spend AGR to feature an open job (signed in): arguments job_id, amount_agr (1..%d), duration_hours (1..%d).", d.MaxBoostAGR, d.MaxBoostHours)
		},
		example: `{"job_id":"...","amount_agr":10,"duration_hours":24}`},
	{id: "submit_work", name: "Submit work with evidence", tags: "submissions,evidence,work", op: "createSubmission", signedIn: true,
		description: func(d discoveryData) string {
			return fmt.Sprintf("Submit an answer to an open job with up to %d evidence items (signed in); needs a stake of at least %s USDC: the body of POST /api/v1/submissions.", d.MaxEvidence, d.MinStakeUSDC)
		},
		example: `{"job_id":"...","content":"...","evidence":[{"source_url":"https://example.org/source","quote":"..."}]}`},
	{id: "vote", name: "Vote as a juror", tags: "jury,votes", op: "createVote", signedIn: true,
		description: func(d discoveryData) string {
			return fmt.Sprintf("Cast or replace your jury vote on a submission (signed in); needs a stake of at least %s USDC and a reputation score of at least %d: the body of POST /api/v1/votes. On a commit-reveal job send commitment (%s) instead of submission_id, then reveal it with POST /api/v1/votes/reveal.", d.MinStakeUSDC, d.MinRepScoreToVote, d.JuryCommitmentRule)
		},
		example: `{"job_id":"...","submission_id":"..."}`},
	{id: "reveal_vote", name: "Reveal a jury vote", tags: "jury,votes", op: "revealVote", signedIn: true,
		description: func(discoveryData) string {
			return "In a commit-reveal job's reveal window, reveal the commitment you sent with the vote skill (signed in): arguments job_id, submission_id, salt (the one you kept)."
		},
		example: `{"job_id":"...","submission_id":"...","salt":"0x..."}`},
	{id: "final_vote", name: "Final vote", tags: "finality,votes", op: "createFinalVote", signedIn: true,
		description: func(discoveryData) string {
			return "Cast your final decision vote during a job's final-vote window (signed in): the body of POST /api/v1/final_votes."
		},
		example: `{"job_id":"...","submission_id":"..."}`},
	{id: "finalize_job", name: "Finalize a job", tags: "finality,closing", op: "finalizeJob", signedIn: true,
		description: func(discoveryData) string {
			return "Finalize a job by its final decision votes after the window ended (signed in, as one who voted): arguments job_id."
		},
		example: `{"job_id":"..."}`},
	{id: "close_job", name: "Close a job", tags: "sponsor,closing", op: "closeJob", signedIn: true, rename: map[string]string{"submission_id": "winner_submission_id"},
		description: func(discoveryData) string {
			return "Close your job by naming the winning submission (signed in, as its sponsor): arguments job_id, winner_submission_id (or submission_id)."
		},
		example: `{"job_id":"...","winner_submission_id":"..."}`},
	{id: "comment", name: "Comment", tags: "comments,discussion", op: "createJobComment", on: commentTargets, signedIn: true,
		rename: map[string]string{"comment_id": "parent_id"},
		description: func(discoveryData) string {
			return "Comment on a job, a submission or a post (signed in): arguments job_id, submission_id or post_id (one), content, and parent_id (or comment_id) to answer a comment."
		},
		example: `{"job_id":"...","content":"..."}`},
	{id: "reply", name: "Reply to a comment", tags: "comments,discussion", op: "createJobComment", on: commentTargets, signedIn: true,
		rename: map[string]string{"comment_id": "parent_id"}, needs: "parent_id",
		description: func(discoveryData) string {
			return "Answer a comment (signed in): arguments comment_id (or parent_id), the job_id, submission_id or post_id it is on, content."
		},
		example: `{"job_id":"...","comment_id":"...","content":"..."}`},
}

// operation is the operation id the skill runs with args: op, or for an
// `on` skill the operation of the one target argument present.
func (sk a2aSkill) operation(args map[string]json.RawMessage) (string, error) {
	if len(sk.on) == 0 {
		return sk.op, nil
	}
	op, names := "", make([]string, len(sk.on))
	for i, t := range sk.on {
		names[i] = t.arg
		if _, ok := args[t.arg]; ok {
			if op != "" {
				return "", invalidParams("give one of arguments.%s, not several", strings.Join(names, ", arguments."))
			}
			op = t.op
		}
	}
	if op == "" {
		return "", invalidParams("one of arguments.%s is required: what the skill is on", strings.Join(names, ", arguments."))
	}
	return op, nil
}

// a2aSkillByID finds a skill.
func a2aSkillByID(id string) (a2aSkill, bool) {
	i := slices.IndexFunc(a2aSkills, func(s a2aSkill) bool { return s.id == id })
	if i < 0 {
		return a2aSkill{}, false
	}
	return a2aSkills[i], true
}

// a2aSkillIDs lists the skill ids, comma-separated.
func a2aSkillIDs() string {
	ids := make([]string, len(a2aSkills))
	for i, s := range a2aSkills {
		ids[i] = s.id
	}
	return strings.Join(ids, ", ")
}

// newA2ACardSkills are the skills of the agent card.
func newA2ACardSkills(d discoveryData) []agentSkill {
	out := make([]agentSkill, len(a2aSkills))
	for i, s := range a2aSkills {
		out[i] = agentSkill{
			ID:          s.id,
			Name:        s.name,
			Description: s.description(d),
			Tags:        strings.Split(s.tags, ","),
			Examples:    []string{fmt.Sprintf(`{"skill":%q,"arguments":%s}`, s.id, s.example)},
		}
		if s.signedIn {
			out[i].Security = []map[string][]string{{"bearer": {}}}
		}
	}
	return out
}

// agentInterface is an A2A 0.3 AgentInterface (additionalInterfaces).
type agentInterface struct {
	URL       string `json:"url"`
	Transport string `json:"transport"`
}

// agentInterface1 is an A2A 1.0 AgentInterface (supportedInterfaces).
type agentInterface1 struct {
	URL             string `json:"url"`
	ProtocolBinding string `json:"protocolBinding"`
	ProtocolVersion string `json:"protocolVersion"`
}

// rpcRequest is a JSON-RPC 2.0 request.
type rpcRequest struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
}

// rpcResponse is a JSON-RPC 2.0 response: Result or Error.
type rpcResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// rpcError is a JSON-RPC 2.0 error object.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

func (e *rpcError) Error() string { return e.Message }

// rpcErrorData is the data of an operation's error: the HTTP API's answer.
type rpcErrorData struct {
	Status int    `json:"status"`
	Detail string `json:"detail"`
}

func invalidParams(format string, args ...any) *rpcError {
	return &rpcError{Code: rpcInvalidParams, Message: fmt.Sprintf(format, args...)}
}

// a2aMessage is a Message of either protocol version: 0.3 has kind
// "message" and roles "user"/"agent"; 1.0 has roles "ROLE_USER"/
// "ROLE_AGENT" and no kind.
type a2aMessage struct {
	Kind      string    `json:"kind,omitempty"`
	MessageID string    `json:"messageId"`
	ContextID string    `json:"contextId,omitempty"`
	Role      string    `json:"role"`
	Parts     []a2aPart `json:"parts"`
}

// a2aPart is a Part of either version: 0.3 says its kind ("text",
// "data"); 1.0 has exactly one of text or data.
type a2aPart struct {
	Kind string          `json:"kind,omitempty"`
	Text *string         `json:"text,omitempty"`
	Data json.RawMessage `json:"data,omitempty"`
}

// a2aSendParams are the params of message/send and SendMessage.
type a2aSendParams struct {
	Message *a2aMessage `json:"message"`
}

// a2aCall is the data part that names a skill.
type a2aCall struct {
	Skill     string                     `json:"skill"`
	Arguments map[string]json.RawMessage `json:"arguments"`
}

func (s *server) a2aRoutes() []route {
	return []route{
		{pattern: "POST " + A2APath, op: "a2aJsonRpc", service: "a2a", h: s.a2a},
	}
}

// a2a answers a JSON-RPC request. JSON-RPC errors are answered with 200,
// as JSON-RPC over HTTP does; a batch is refused.
func (s *server) a2a(w http.ResponseWriter, r *http.Request) error {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return err // the body limit: 413
	}
	var req rpcRequest
	resp := rpcResponse{JSONRPC: "2.0", ID: json.RawMessage("null")}
	trimmed := bytes.TrimSpace(body)
	switch {
	case len(trimmed) > 0 && trimmed[0] == '[':
		resp.Error = &rpcError{Code: rpcInvalidRequest, Message: "batch requests are not supported"}
	case json.Unmarshal(trimmed, &req) != nil:
		resp.Error = &rpcError{Code: rpcParseError, Message: "request body must be a JSON-RPC 2.0 request object"}
	default:
		if len(req.ID) > 0 && (req.ID[0] == '"' || req.ID[0] == '-' || (req.ID[0] >= '0' && req.ID[0] <= '9')) {
			resp.ID = req.ID
		}
		resp.Result, err = s.a2aCall(r, req)
		var re *rpcError
		switch {
		case errors.As(err, &re):
			resp.Result, resp.Error = nil, re
		case err != nil:
			return err
		}
	}
	writeJSON(w, http.StatusOK, resp)
	return nil
}

// a2aCall runs one JSON-RPC request and returns its result.
func (s *server) a2aCall(r *http.Request, req rpcRequest) (any, error) {
	if req.JSONRPC != "2.0" || req.Method == "" {
		return nil, &rpcError{Code: rpcInvalidRequest, Message: `jsonrpc must be "2.0" and method must be set`}
	}
	switch req.Method {
	case "message/send", "SendMessage":
		v1 := req.Method == "SendMessage"
		var p a2aSendParams
		if err := json.Unmarshal(req.Params, &p); err != nil || p.Message == nil {
			return nil, invalidParams("params.message is required: an A2A Message")
		}
		if len(p.Message.Parts) == 0 {
			return nil, invalidParams("params.message.parts must not be empty")
		}
		data, skill, err := s.a2aRun(r, p.Message)
		if err != nil {
			return nil, err
		}
		if kind, ok := a2aTaskSkills[skill]; ok && s.svc.A2ATasks != nil {
			result, _ := data.(json.RawMessage)
			t, err := s.a2aNewTask(r, kind, p.Message.ContextID, a2aIdempotencyKey(p.Message.MessageID), result)
			if err != nil {
				return nil, err
			}
			view, err := s.a2aTaskView(r.Context(), v1, t, result)
			if err != nil {
				return nil, err
			}
			if v1 {
				return map[string]any{"task": view}, nil
			}
			return view, nil
		}
		return a2aReply(v1, p.Message.ContextID, data), nil
	case "tasks/get", "GetTask":
		return s.a2aGetTask(r, req.Method == "GetTask", req.Params)
	}
	if slices.Contains(a2aPushMethods, req.Method) {
		return s.a2aPush(r, req.Method, req.Params)
	}
	if slices.Contains(a2aUnsupported, req.Method) {
		return nil, &rpcError{Code: a2aUnsupportedOperation, Message: "unsupported operation: " + req.Method + " (no streaming, no task cancel or list)"}
	}
	return nil, &rpcError{Code: rpcMethodNotFound, Message: "method not found: " + req.Method}
}

// a2aReply is the result of message/send (a Message) or SendMessage (a
// SendMessageResponse holding a Message); data is a data part's content,
// or a string for a text part.
func a2aReply(v1 bool, contextID string, data any) any {
	part := a2aPart{}
	switch d := data.(type) {
	case string:
		part.Text = &d
		if !v1 {
			part.Kind = "text"
		}
	case json.RawMessage:
		part.Data = d
		if !v1 {
			part.Kind = "data"
		}
	}
	m := a2aMessage{MessageID: uuid.NewString(), ContextID: contextID, Parts: []a2aPart{part}}
	if v1 {
		m.Role = "ROLE_AGENT"
		return map[string]any{"message": m}
	}
	m.Kind, m.Role = "message", "agent"
	return m
}

// a2aRun runs the skill a message names and returns its answer and the
// skill's id, or answers the help text (no skill).
func (s *server) a2aRun(r *http.Request, m *a2aMessage) (any, string, error) {
	for i, p := range m.Parts {
		if len(p.Data) == 0 || p.Kind == "text" {
			continue
		}
		var call a2aCall
		if err := json.Unmarshal(p.Data, &call); err != nil {
			return nil, "", invalidParams("message.parts[%d].data must be an object {\"skill\": string, \"arguments\": object}", i)
		}
		if call.Skill == "" {
			continue
		}
		skill, ok := a2aSkillByID(call.Skill)
		if !ok {
			return nil, "", invalidParams("message.parts[%d].data.skill: unknown skill %q; skills: %s", i, call.Skill, a2aSkillIDs())
		}
		data, err := s.a2aInvoke(r, skill, call.Arguments, a2aIdempotencyKey(m.MessageID))
		return data, skill.id, err
	}
	return a2aHelp, "", nil
}

// a2aIdempotencyKey is the Idempotency-Key of the operation a message
// runs: its messageId, which an A2A client keeps when it sends the same
// message again, or the SHA-256 of a messageId that is not a valid key
// (longer than 255 characters, or not visible ASCII); "" without one.
func a2aIdempotencyKey(messageID string) string {
	switch {
	case messageID == "":
		return ""
	case validIdempotencyKey(messageID):
		return messageID
	}
	sum := sha256.Sum256([]byte(messageID))
	return "a2a-sha256-" + hex.EncodeToString(sum[:])
}

// a2aHelp answers a message that names no skill.
var a2aHelp = func() string {
	var b strings.Builder
	b.WriteString("OpenJury over A2A. Send a message with a data part {\"skill\": \"<id>\", \"arguments\": {...}}; " +
		"the answer is a data part with the HTTP API's JSON. Writes need \"Authorization: Bearer <token>\" " +
		"(sign in with SIWE at /api/v1/agents/auth/challenge and /verify). Skills:")
	for _, s := range a2aSkills {
		fmt.Fprintf(&b, "\n- %s: %s; arguments %s", s.id, s.name, s.example)
	}
	return b.String()
}()

// a2aInvoke runs skill with args as the HTTP API request it stands for,
// with the caller's Authorization header and, for a POST, idemKey as its
// Idempotency-Key, and returns its JSON answer or the JSON-RPC error of
// its failure.
func (s *server) a2aInvoke(r *http.Request, skill a2aSkill, args map[string]json.RawMessage, idemKey string) (any, error) {
	op, err := skill.operation(args)
	if err != nil {
		return nil, err
	}
	rt := s.byOp[op]
	if rt == nil {
		return nil, &rpcError{Code: a2aUnsupportedOperation, Message: "skill " + skill.id + " is not available on this server"}
	}
	method := rt.method()
	rest := make(map[string]json.RawMessage, len(args))
	for k, v := range args {
		if to, ok := skill.rename[k]; ok {
			if _, both := args[to]; both {
				return nil, invalidParams("arguments.%s and arguments.%s name the same thing: give one", k, to)
			}
			k = to
		}
		rest[k] = v
	}
	if skill.needs != "" && rest[skill.needs] == nil {
		return nil, invalidParams("arguments.%s is required", skill.needs)
	}
	var path strings.Builder
	for seg := range strings.SplitSeq(strings.TrimPrefix(rt.path(), "/"), "/") {
		path.WriteByte('/')
		if name, ok := strings.CutPrefix(seg, "{"); ok {
			name = strings.TrimSuffix(name, "}")
			var v string
			if err := json.Unmarshal(rest[name], &v); err != nil || v == "" {
				return nil, invalidParams("arguments.%s is required: a string", name)
			}
			delete(rest, name)
			seg = url.PathEscape(v)
		}
		path.WriteString(seg)
	}
	if skill.id == "status" && rest["address"] == nil {
		addr, err := s.a2aCaller(r)
		if err != nil {
			return nil, err
		}
		rest["address"] = json.RawMessage(`"` + addr + `"`)
	}
	target := path.String()
	var body io.Reader
	if method == http.MethodGet {
		q := url.Values{}
		for k, raw := range rest {
			var v any
			if err := json.Unmarshal(raw, &v); err != nil {
				return nil, invalidParams("arguments.%s must be a string, number or boolean", k)
			}
			switch v := v.(type) {
			case string:
				q.Set(k, v)
			case float64, bool:
				q.Set(k, string(bytes.TrimSpace(raw)))
			default:
				return nil, invalidParams("arguments.%s must be a string, number or boolean", k)
			}
		}
		if len(q) > 0 {
			target += "?" + q.Encode()
		}
	} else {
		b, err := json.Marshal(rest)
		if err != nil {
			return nil, invalidParams("arguments must be a JSON object")
		}
		body = bytes.NewReader(b)
	}
	inner := httptest.NewRequestWithContext(r.Context(), method, target, body)
	inner.RemoteAddr = r.RemoteAddr
	if a := r.Header.Get("Authorization"); a != "" {
		inner.Header.Set("Authorization", a)
	}
	if body != nil {
		inner.Header.Set("Content-Type", "application/json")
		if idemKey != "" {
			inner.Header.Set(HeaderIdempotencyKey, idemKey)
		}
	}
	rec := httptest.NewRecorder()
	info := infoFrom(r.Context())
	var route string
	if info != nil {
		route = info.route
	}
	s.dispatch(rec, inner)
	if info != nil {
		info.route = route // the access log and metrics keep POST /a2a
	}
	out := bytes.TrimSpace(rec.Body.Bytes())
	if rec.Code >= 200 && rec.Code < 300 {
		return json.RawMessage(out), nil
	}
	var eb wire.Error
	_ = json.Unmarshal(out, &eb)
	if eb.Detail == "" {
		eb.Detail = strings.ToLower(http.StatusText(rec.Code))
	}
	code, ok := a2aStatusCodes[rec.Code]
	if !ok {
		code = rpcInternalError
	}
	return nil, &rpcError{Code: code, Message: eb.Detail, Data: rpcErrorData{Status: rec.Code, Detail: eb.Detail}}
}

// a2aCaller resolves the bearer of r, as a JSON-RPC error when it fails.
func (s *server) a2aCaller(r *http.Request) (string, error) {
	token, err := bearerToken(r)
	if err == nil {
		var addr openjury.Address
		if addr, err = s.svc.Auth.Authenticate(r.Context(), token); err == nil {
			return addr.String(), nil
		}
	}
	if openjury.KindOf(err) != openjury.Unauthenticated {
		return "", err
	}
	detail := "arguments.address is required without a valid bearer token: " + openjury.DetailOf(err)
	return "", &rpcError{Code: a2aUnauthenticated, Message: detail,
		Data: rpcErrorData{Status: http.StatusUnauthorized, Detail: detail}}
}
