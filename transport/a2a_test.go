package transport_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/transport"
)

// rpc posts a JSON-RPC body to /a2a, requires a 200 and returns the
// decoded response.
func (e *env) rpc(body any, headers ...header) map[string]any {
	e.t.Helper()
	r := e.do("POST", "/a2a", body, headers...)
	require.Equal(e.t, http.StatusOK, r.Code, "body: %s", r.Body)
	out := r.JSON(e.t)
	require.Equal(e.t, "2.0", out["jsonrpc"])
	return out
}

// rpcError requires a JSON-RPC error of code and returns it.
func rpcError(t *testing.T, res map[string]any, code int) map[string]any {
	t.Helper()
	require.Nil(t, res["result"], "result: %v", res["result"])
	e, ok := res["error"].(map[string]any)
	require.True(t, ok, "no error: %v", res)
	require.EqualValues(t, code, e["code"], "error: %v", e)
	require.NotEmpty(t, e["message"])
	return e
}

// send is a message/send (v1 false) or SendMessage (v1 true) request with
// the given parts and a new messageId, as A2A clients send each message.
func send(v1 bool, parts ...map[string]any) map[string]any {
	return sendID(v1, uuid.NewString(), parts...)
}

// sendID is send with the given messageId.
func sendID(v1 bool, messageID string, parts ...map[string]any) map[string]any {
	method, role := "message/send", "user"
	if v1 {
		method, role = "SendMessage", "ROLE_USER"
	}
	return map[string]any{"jsonrpc": "2.0", "id": "req-1", "method": method,
		"params": map[string]any{"message": map[string]any{"messageId": messageID, "role": role, "parts": parts}}}
}

func skillPart(v1 bool, skill string, args map[string]any) map[string]any {
	p := map[string]any{"data": map[string]any{"skill": skill, "arguments": args}}
	if !v1 {
		p["kind"] = "data"
	}
	return p
}

// agentData returns the data of the one part of an agent message result.
func agentData(t *testing.T, res map[string]any, v1 bool) any {
	t.Helper()
	require.Nil(t, res["error"], "error: %v", res["error"])
	require.Equal(t, "req-1", res["id"])
	msg := res["result"].(map[string]any)
	if v1 {
		msg = msg["message"].(map[string]any)
		require.Equal(t, "ROLE_AGENT", msg["role"])
	} else {
		require.Equal(t, "message", msg["kind"])
		require.Equal(t, "agent", msg["role"])
	}
	require.NotEmpty(t, msg["messageId"])
	parts := msg["parts"].([]any)
	require.Len(t, parts, 1)
	p := parts[0].(map[string]any)
	if d, ok := p["data"]; ok {
		if !v1 {
			require.Equal(t, "data", p["kind"])
		}
		return d
	}
	return p["text"]
}

func TestA2ASkills(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sponsor := e.agent(0, 0)
	worker := e.agent(minStake, 0)
	jobID := e.newJob(sponsor.token)
	for _, v1 := range []bool{false, true} {
		// A read skill needs no token; the answer is the HTTP API's JSON.
		jobs := agentData(t, e.rpc(send(v1, skillPart(v1, "find_jobs", map[string]any{"limit": 5, "status": "open"}))), v1).(map[string]any)
		require.Len(t, jobs["jobs"], 1)
		require.Equal(t, jobID, jobs["jobs"].([]any)[0].(map[string]any)["id"])

		// Writes run for the bearer.
		sub := agentData(t, e.rpc(send(v1, skillPart(v1, "submit_work", map[string]any{"job_id": jobID, "content": "work"})), bearer(worker.token)), v1)
		require.Equal(t, worker.lower(), sub.(map[string]any)["submission"].(map[string]any)["agent_address"])

		// status defaults to the caller's address.
		st := agentData(t, e.rpc(send(v1, skillPart(v1, "status", nil)), bearer(worker.token)), v1).(map[string]any)
		require.Equal(t, worker.lower(), st["address"])

		// A text-only message gets the help text.
		text := map[string]any{"text": "hello"}
		if !v1 {
			text["kind"] = "text"
		}
		help := agentData(t, e.rpc(send(v1, text)), v1).(string)
		for _, id := range []string{"find_jobs", "get_job", "submit_work", "vote", "final_vote", "finalize_job", "comment", "status"} {
			require.Contains(t, help, id)
		}
	}
	// Both submissions went through the marketplace.
	var subs []map[string]any
	require.NoError(t, json.Unmarshal(e.get("/api/v1/jobs/"+jobID+"/submissions").Body, &subs))
	require.Len(t, subs, 2)
}

// TestA2ASkillRoutes: every skill runs a registered route (named by its
// operation id) that an agent may call: none is a dev endpoint.
func TestA2ASkillRoutes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	skills := transport.A2ASkillRoutes(e.svc, e.opts)
	require.Len(t, skills, 22)
	for id, rt := range skills {
		require.NotEmpty(t, rt[0], "skill %s runs no registered route", id)
		require.Contains(t, []string{"none", "bearer"}, rt[1], "skill %s", id)
	}
	require.Equal(t, [2]string{"GET /api/v1/jobs", "none"}, skills["find_jobs"])
	require.Equal(t, [2]string{"POST /api/v1/jobs/{job_id}/comments", "bearer"}, skills["comment"])

	// The card declares exactly the skills that need a token: those whose
	// route needs one.
	card := newEnv(t, withDiscoveryConfig()).get("/.well-known/agent.json").JSON(t)
	require.Equal(t, []any{map[string]any{}, map[string]any{"bearer": []any{}}}, card["security"], "anonymous or bearer")
	for _, raw := range card["skills"].([]any) {
		skill := raw.(map[string]any)
		id := skill["id"].(string)
		if skills[id][1] == "bearer" {
			require.Equal(t, []any{map[string]any{"bearer": []any{}}}, skill["security"], id)
		} else {
			require.NotContains(t, skill, "security", id)
		}
	}
}

// TestA2ANewSkills: the skills beside the first ones (search, comments on
// any target, reply, boost, leaderboard, anchors), with the MCP tools'
// argument names as aliases.
func TestA2ANewSkills(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sponsor := e.agent(0, 0)
	worker := e.agent(minStake, 0)
	jobID := e.newJob(sponsor.token)
	run := func(skill string, args map[string]any, headers ...header) map[string]any {
		return e.rpc(send(true, skillPart(true, skill, args)), headers...)
	}
	data := func(skill string, args map[string]any, headers ...header) map[string]any {
		return agentData(t, run(skill, args, headers...), true).(map[string]any)
	}
	sub := data("submit_work", map[string]any{"job_id": jobID, "content": "work"}, bearer(worker.token))["submission"].(map[string]any)
	subID := sub["id"].(string)

	c := data("comment", map[string]any{"submission_id": subID, "content": "on the submission"}, bearer(sponsor.token))["comment"].(map[string]any)
	require.Equal(t, "submission", c["target_type"])
	r := data("reply", map[string]any{"submission_id": subID, "comment_id": c["id"], "content": "thanks"}, bearer(worker.token))["comment"].(map[string]any)
	require.Equal(t, c["id"], r["parent_id"])
	list := data("list_comments", map[string]any{"submission_id": subID})
	require.Len(t, list["comments"], 2)

	rpcError(t, run("reply", map[string]any{"job_id": jobID, "content": "no parent"}, bearer(worker.token)), -32602)
	rpcError(t, run("comment", map[string]any{"job_id": jobID, "submission_id": subID, "content": "x"}, bearer(worker.token)), -32602)
	rpcError(t, run("comment", map[string]any{"content": "nowhere"}, bearer(worker.token)), -32602)
	rpcError(t, run("comment", map[string]any{"job_id": jobID, "content": "x", "comment_id": "a", "parent_id": "b"}, bearer(worker.token)), -32602)

	rpcError(t, run("boost_job", map[string]any{"job_id": jobID, "amount_agr": 5, "duration_hours": 1}, bearer(sponsor.token)), -32012) // no AGR: 402
	board := data("leaderboard", map[string]any{"limit": 5})
	require.Contains(t, board, "entries")
	require.Contains(t, data("list_posts", map[string]any{}), "posts")

	rpcError(t, run("get_anchor", map[string]any{"job_id": jobID}), -32014) // open: no anchor yet
	closed := data("close_job", map[string]any{"job_id": jobID, "submission_id": subID}, bearer(sponsor.token))
	require.Equal(t, subID, closed["winner_submission_id"])
	anchor := data("get_anchor", map[string]any{"job_id": jobID})
	proof := data("get_anchor_proof", map[string]any{"job_id": jobID, "record": "submission:" + subID})
	require.Equal(t, anchor["anchor_root"], proof["root"])

	// The escrow, jury and events skills.
	pay := data("get_payouts", map[string]any{"job_id": jobID})
	require.Equal(t, jobID, pay["job_id"])
	require.Contains(t, pay, "payouts")
	duties := data("jury_duties", map[string]any{"address": worker.lower()})
	require.Empty(t, duties["duties"], "no panel drawn")
	rpcError(t, run("jury_duties", map[string]any{"address": "nobody"}), -32602)
	// events: types is type's alias (the log is off in this environment: 501).
	if evs := run("events", map[string]any{"types": "job.closed", "job_id": jobID}); evs["error"] != nil {
		require.EqualValues(t, 501, rpcError(t, evs, -32004)["data"].(map[string]any)["status"])
	} else {
		require.Contains(t, agentData(t, evs, true), "events")
	}
	rpcError(t, run("reveal_vote", map[string]any{"job_id": jobID, "submission_id": subID, "salt": "0x00"}), -32011) // signed in only

	// search: query is q's alias (with search off here: 501, unsupported).
	res := run("search", map[string]any{"query": "work"})
	if res["error"] != nil {
		require.EqualValues(t, 501, rpcError(t, res, -32004)["data"].(map[string]any)["status"])
	}
}

func TestA2AErrors(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sponsor := e.agent(0, 0)
	poor := e.agent(0, 0)
	jobID := e.newJob(sponsor.token)

	cases := []struct {
		name    string
		body    any
		headers []header
		code    int
		status  int // the operation's HTTP status in error.data; 0: none
	}{
		{"parse error", "{not json", nil, -32700, 0},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"message/send"}]`, nil, -32600, 0},
		{"wrong version", map[string]any{"jsonrpc": "1.0", "id": 1, "method": "message/send"}, nil, -32600, 0},
		{"unknown method", map[string]any{"jsonrpc": "2.0", "id": 1, "method": "nope"}, nil, -32601, 0},
		{"streaming", map[string]any{"jsonrpc": "2.0", "id": 1, "method": "message/stream"}, nil, -32004, 0},
		{"no message", map[string]any{"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": map[string]any{}}, nil, -32602, 0},
		{"no parts", send(false), nil, -32602, 0},
		{"unknown skill", send(false, skillPart(false, "fly", nil)), nil, -32602, 0},
		{"bad data part", send(false, map[string]any{"kind": "data", "data": []int{1}}), nil, -32602, 0},
		{"missing path argument", send(false, skillPart(false, "get_job", nil)), nil, -32602, 0},
		{"path argument not a string", send(false, skillPart(false, "get_job", map[string]any{"job_id": 7})), nil, -32602, 0},
		{"query argument an object", send(false, skillPart(false, "find_jobs", map[string]any{"tag": map[string]any{}})), nil, -32602, 0},
		{"invalid argument", send(false, skillPart(false, "find_jobs", map[string]any{"limit": 100000})), nil, -32602, 400},
		{"no token", send(false, skillPart(false, "comment", map[string]any{"job_id": jobID, "content": "hi"})), nil, -32011, 401},
		{"bad token", send(true, skillPart(true, "comment", map[string]any{"job_id": jobID, "content": "hi"})), []header{bearer("nope")}, -32011, 401},
		{"status without token", send(false, skillPart(false, "status", nil)), nil, -32011, 401},
		{"not found", send(false, skillPart(false, "get_job", map[string]any{"job_id": "no-such-job"})), nil, -32014, 404},
		{"forbidden", send(false, skillPart(false, "close_job", map[string]any{"job_id": jobID, "winner_submission_id": "x"})), []header{bearer(poor.token)}, -32013, 403},
		{"tasks/get", map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tasks/get", "params": map[string]any{"id": "t1"}}, nil, -32001, 0},
		{"GetTask", map[string]any{"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": map[string]any{"id": "t1"}}, nil, -32001, 0},
		{"tasks/get without id", map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tasks/get", "params": map[string]any{}}, nil, -32602, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := e.rpc(c.body, c.headers...)
			got := rpcError(t, res, c.code)
			if c.status == 0 {
				require.Nil(t, got["data"])
				return
			}
			data := got["data"].(map[string]any)
			require.EqualValues(t, c.status, data["status"])
			require.Equal(t, got["message"], data["detail"])
		})
	}
}

// The response echoes the request id, or null when it cannot be read.
func TestA2AResponseID(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	res := e.rpc(map[string]any{"jsonrpc": "2.0", "id": 42, "method": "nope"})
	require.EqualValues(t, 42, res["id"])
	res = e.rpc("{")
	require.Nil(t, res["id"])
	require.Contains(t, res, "id")
}

// TestA2AMessageIDIsIdempotencyKey: a message sent again with the same
// messageId (an A2A client retrying message/send) runs its skill once and
// answers the first answer again, in either protocol version; another
// messageId runs it again; a messageId too long for a key still keys it;
// the same messageId with other arguments is refused.
func TestA2AMessageIDIsIdempotencyKey(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sponsor := e.agent(0, 0)
	worker := e.agent(minStake, 0)
	jobID := e.newJob(sponsor.token)
	submit := func(v1 bool, messageID, content string) map[string]any {
		return e.rpc(sendID(v1, messageID, skillPart(v1, "submit_work", map[string]any{"job_id": jobID, "content": content})), bearer(worker.token))
	}
	subID := func(res map[string]any, v1 bool) string {
		return agentData(t, res, v1).(map[string]any)["submission"].(map[string]any)["id"].(string)
	}
	count := func() int {
		var subs []map[string]any
		require.NoError(t, json.Unmarshal(e.get("/api/v1/jobs/"+jobID+"/submissions").Body, &subs))
		return len(subs)
	}

	first := subID(submit(false, "msg-1", "work"), false)
	require.Equal(t, first, subID(submit(false, "msg-1", "work"), false), "the retry answers the first submission")
	require.Equal(t, first, subID(submit(true, "msg-1", "work"), true), "the same message in A2A 1.0")
	require.Equal(t, 1, count())

	second := subID(submit(false, "msg-2", "work"), false)
	require.NotEqual(t, first, second)
	require.Equal(t, 2, count())

	long := strings.Repeat("m", 300)
	third := subID(submit(false, long, "work"), false)
	require.Equal(t, third, subID(submit(false, long, "work"), false))
	require.Equal(t, 3, count())

	// The same messageId with another body: -32602, nothing runs.
	res := submit(false, "msg-1", "other work")
	data := rpcError(t, res, -32602)["data"].(map[string]any)
	require.EqualValues(t, http.StatusUnprocessableEntity, data["status"])
	require.Contains(t, data["detail"], "Idempotency-Key")
	require.Equal(t, 3, count())
}
