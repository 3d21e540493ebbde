package transport_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
)

func TestCloseJob(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	f := e.voteFixture()
	juror := e.agent(minStake, minRep)
	e.vote(juror.token, f.jobID, f.s2)
	closeJob := func(tok, jobID string, body any) response {
		return e.do("POST", "/api/v1/jobs/"+jobID+"/close", body, bearer(tok))
	}
	ok := map[string]any{"winner_submission_id": f.s2}

	r := e.do("POST", "/api/v1/jobs/"+f.jobID+"/close", ok)
	requireError(t, r, http.StatusUnauthorized, "missing bearer token")
	require.Equal(t, "Bearer", r.Header.Get("WWW-Authenticate"))

	// 404, 403, 400 in the contract's order.
	requireError(t, closeJob(f.sponsor.token, openjury.NewID(), ok), http.StatusNotFound, "job not found")
	requireError(t, closeJob(f.w1.token, openjury.NewID(), ok), http.StatusNotFound, "job not found")
	requireError(t, closeJob(f.w1.token, f.jobID, ok), http.StatusForbidden, "only the sponsor may close this job")
	requireError(t, closeJob(f.w1.token, f.jobID, map[string]any{"winner_submission_id": openjury.NewID()}), http.StatusForbidden, "only the sponsor may close this job")
	otherJob := e.newJob(f.sponsor.token)
	otherSub := e.submit(f.w1.token, otherJob, "x")["id"].(string)
	for _, id := range []string{otherSub, openjury.NewID(), "nope"} {
		requireError(t, closeJob(f.sponsor.token, f.jobID, map[string]any{"winner_submission_id": id}),
			http.StatusBadRequest, "winner_submission_id: not a submission of this job")
	}

	// Shapes.
	with := func(k string, v any) map[string]any { return map[string]any{"winner_submission_id": f.s2, k: v} }
	for _, tc := range []struct {
		body   any
		detail string
	}{
		{map[string]any{}, "winner_submission_id: is required"},
		{map[string]any{"winner_submission_id": nil}, "winner_submission_id: is required"},
		{map[string]any{"winner_submission_id": " "}, "winner_submission_id: is required"},
		{map[string]any{"winner_submission_id": 5}, "winner_submission_id: must be a string"},
		{with("close_tx_hash", "0xabc"), "close_tx_hash: must be 0x followed by 64 hex digits"},
		{with("close_contract_address", "0xabc"), "close_contract_address: must be 0x followed by 40 hex digits"},
		{with("close_chain_id", 0), "close_chain_id: must be positive"},
		{with("close_chain_id", "1"), "close_chain_id: must be an integer"},
		{with("close_block_number", -1), "close_block_number: must be at least 0"},
		{with("close_log_index", -2), "close_log_index: must be at least 0"},
		{"", "request body is required"},
	} {
		requireError(t, closeJob(f.sponsor.token, f.jobID, tc.body), http.StatusBadRequest, tc.detail)
	}

	// 200 with a receipt.
	e.clock.Advance(time.Hour)
	now := e.clock.Now()
	r = closeJob(f.sponsor.token, f.jobID, map[string]any{
		"winner_submission_id": f.s2, "close_tx_hash": hash32(0xee), "close_chain_id": 8453,
		"close_contract_address": addr20(0x77), "close_block_number": 1000, "close_log_index": 2,
	})
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
	res := r.JSON(t)
	requireKeys(t, res, "job", "winner_submission_id", "voting_summary")
	require.Equal(t, f.s2, res["winner_submission_id"])
	require.Equal(t, map[string]any{"job_id": f.jobID, "tallies": []any{map[string]any{
		"submission_id": f.s2, "weighted_votes": float64(4), "voters": float64(1), "earliest_vote_at": openjury.FormatTime(now.Add(-time.Hour)),
	}}}, res["voting_summary"])
	job := res["job"].(map[string]any)
	require.Len(t, job, 41) // with the escrow_* and jury_* fields
	require.Equal(t, f.jobID, job["id"])
	require.Equal(t, "closed", job["status"])
	require.Equal(t, f.s2, job["winner_submission_id"])
	require.Equal(t, openjury.FormatTime(now), job["closed_at"])
	require.Equal(t, hash32(0xee), job["close_tx_hash"])
	require.EqualValues(t, 8453, job["close_chain_id"])
	require.Equal(t, addr20(0x77), job["close_contract_address"])
	require.EqualValues(t, 1000, job["close_block_number"])
	require.EqualValues(t, 2, job["close_log_index"])
	require.Equal(t, job, e.get("/api/v1/jobs/"+f.jobID).JSON(t))

	// Closed jobs leave the default (open) list.
	for _, j := range e.get("/api/v1/jobs").JSON(t)["jobs"].([]any) {
		require.NotEqual(t, f.jobID, j.(map[string]any)["id"])
	}

	// 409 once closed, before the sponsor and winner checks.
	requireError(t, closeJob(f.sponsor.token, f.jobID, ok), http.StatusConflict, "job is closed")
	requireError(t, closeJob(f.w1.token, f.jobID, ok), http.StatusConflict, "job is closed")

	// Outcomes: the winner gets +10 and a win, AGR with a win ledger line;
	// the other submitter a loss.
	rep := e.get("/api/v1/reputation/" + f.w2.lower()).JSON(t)
	require.EqualValues(t, 11, rep["score"]) // +1 first submission, +10 win
	require.EqualValues(t, 1, rep["wins"])
	require.Equal(t, []any{"first_submission", "first_win"}, rep["badges"])
	require.Equal(t, openjury.FormatTime(now), rep["last_updated_at"])
	rep = e.get("/api/v1/reputation/" + f.w1.lower()).JSON(t)
	require.EqualValues(t, 1, rep["losses"])
	require.EqualValues(t, 0, rep["wins"])
	led := e.get("/api/v1/agr/ledger?address=" + f.w2.lower()).JSON(t)
	require.EqualValues(t, 1, led["count"])
	entry := led["entries"].([]any)[0].(map[string]any)
	require.Equal(t, "win", entry["reason"])
	require.EqualValues(t, mintPerWin, entry["delta"])
	require.Equal(t, f.jobID, entry["job_id"])
	require.Equal(t, openjury.FormatTime(now), entry["created_at"])
	st := e.get("/api/v1/agr/status?address=" + f.w2.lower()).JSON(t)
	require.EqualValues(t, mintPerWin, st["balance"])
	require.EqualValues(t, mintPerWin, st["earned"])

	// Without a receipt the close_* fields stay null.
	s := e.submit(f.w2.token, otherJob, "y")["id"].(string)
	r = closeJob(f.sponsor.token, otherJob, map[string]any{"winner_submission_id": s})
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
	job = r.JSON(t)["job"].(map[string]any)
	requireNulls(t, job, "close_tx_hash", "close_chain_id", "close_contract_address", "close_block_number", "close_log_index")
	require.Equal(t, []any{}, r.JSON(t)["voting_summary"].(map[string]any)["tallies"])
}

func TestFinalizeJob(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	f := e.voteFixture()
	voterA, voterB, voterC := e.agent(minStake, 0), e.agent(minStake, 0), e.agent(minStake, 0)
	outsider := e.agent(minStake, 0)
	e.finalVote(voterA.token, f.jobID, f.s1)
	e.finalVote(voterB.token, f.jobID, f.s2)
	e.finalVote(voterC.token, f.jobID, f.s2)
	finalize := func(tok, jobID string) response {
		return e.do("POST", "/api/v1/jobs/"+jobID+"/finalize", nil, bearer(tok))
	}

	r := e.do("POST", "/api/v1/jobs/"+f.jobID+"/finalize", nil)
	requireError(t, r, http.StatusUnauthorized, "missing bearer token")
	require.Equal(t, "Bearer", r.Header.Get("WWW-Authenticate"))

	requireError(t, finalize(voterA.token, openjury.NewID()), http.StatusNotFound, "job not found")
	// 409 before final_vote_ends_at, even for a voter.
	requireError(t, finalize(voterA.token, f.jobID), http.StatusConflict, "final voting window has not ended")
	e.clock.Advance(fixtureWindow)
	// 403 for an address that did not vote (the sponsor included).
	requireError(t, finalize(outsider.token, f.jobID), http.StatusForbidden, "only an address that cast a final vote may finalize")
	requireError(t, finalize(f.sponsor.token, f.jobID), http.StatusForbidden, "only an address that cast a final vote may finalize")

	// 200 for any voter, even the one whose pick lost; a body is ignored.
	now := e.clock.Now()
	r = e.do("POST", "/api/v1/jobs/"+f.jobID+"/finalize", `{"winner_submission_id": "ignored"`, bearer(voterA.token))
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
	res := r.JSON(t)
	requireKeys(t, res, "job", "winner_submission_id", "voting_summary")
	require.Equal(t, f.s2, res["winner_submission_id"])
	require.Equal(t, map[string]any{"job_id": f.jobID, "tallies": []any{}}, res["voting_summary"])
	job := res["job"].(map[string]any)
	require.Len(t, job, 41) // with the escrow_* and jury_* fields
	require.Equal(t, "closed", job["status"])
	require.Equal(t, f.s2, job["winner_submission_id"])
	require.Equal(t, openjury.FormatTime(now), job["closed_at"])
	requireNulls(t, job, "close_tx_hash", "close_chain_id", "close_contract_address", "close_block_number", "close_log_index")

	requireError(t, finalize(voterB.token, f.jobID), http.StatusConflict, "job is closed")
	st := e.get("/api/v1/agr/status?address=" + f.w2.lower()).JSON(t)
	require.EqualValues(t, mintPerWin, st["balance"])
}

// TestFinalizeTieBreak: equal final votes go to more jury weight.
func TestFinalizeTieBreak(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	f := e.voteFixture()
	a, b := e.agent(minStake, 0), e.agent(minStake, 0)
	e.finalVote(a.token, f.jobID, f.s1)
	e.finalVote(b.token, f.jobID, f.s2)
	e.vote(e.agent(minStake, minRep).token, f.jobID, f.s2)
	e.clock.Advance(fixtureWindow)
	r := e.do("POST", "/api/v1/jobs/"+f.jobID+"/finalize", nil, bearer(a.token))
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
	require.Equal(t, f.s2, r.JSON(t)["winner_submission_id"])
	require.EqualValues(t, 4, r.JSON(t)["voting_summary"].(map[string]any)["tallies"].([]any)[0].(map[string]any)["weighted_votes"])
}
