package transport_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
)

// fixtureWindow is the final vote window of a voteFixture job (shorter
// than the token lifetime, so tokens outlive it).
const fixtureWindow = time.Hour

// voteFixture is a job with two submissions by two workers.
type voteFixture struct {
	sponsor, w1, w2 agent
	jobID           string
	s1, s2          string
}

func (e *env) voteFixture() voteFixture {
	e.t.Helper()
	f := voteFixture{sponsor: e.agent(minStake, 50), w1: e.agent(minStake, 0), w2: e.agent(minStake, 0)}
	job := validJob()
	job["final_vote_window_seconds"] = int(fixtureWindow / time.Second)
	f.jobID = e.createJob(f.sponsor.token, job)["id"].(string)
	f.s1 = e.submit(f.w1.token, f.jobID, "one")["id"].(string)
	e.clock.Advance(time.Second)
	f.s2 = e.submit(f.w2.token, f.jobID, "two")["id"].(string)
	e.clock.Advance(time.Second)
	return f
}

func TestVote(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	f := e.voteFixture()
	juror := e.agent(minStake, 10) // weight 1 + floor(sqrt(10)) = 4

	r := e.do("POST", "/api/v1/votes", map[string]any{"job_id": f.jobID, "submission_id": f.s1}, bearer(juror.token))
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
	body := r.JSON(t)
	requireKeys(t, body, "vote")
	v := body["vote"].(map[string]any)
	requireKeys(t, v, "id", "job_id", "submission_id", "voter_address", "weight", "created_at", "review")
	require.True(t, openjury.ValidID(v["id"].(string)))
	require.Equal(t, f.jobID, v["job_id"])
	require.Equal(t, f.s1, v["submission_id"])
	require.Equal(t, juror.lower(), v["voter_address"])
	require.EqualValues(t, 4, v["weight"])
	require.Equal(t, openjury.FormatTime(e.clock.Now()), v["created_at"])
	requireNulls(t, v, "review")

	// Replacing keeps the id, takes the new submission, review and weight.
	e.clock.Advance(time.Minute)
	e.setRep(juror.lower(), 1000)
	review := map[string]any{"checklist": map[string]any{"sources": true}, "note": "better", "n": json.Number("12345678901234567890")}
	r = e.do("POST", "/api/v1/votes", map[string]any{"job_id": f.jobID, "submission_id": f.s2, "review": review}, bearer(juror.token))
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
	require.Contains(t, string(r.Body), `"n":12345678901234567890`)
	v2 := r.JSON(t)["vote"].(map[string]any)
	require.Equal(t, v["id"], v2["id"])
	require.Equal(t, f.s2, v2["submission_id"])
	require.EqualValues(t, 5, v2["weight"], "capped at 5")
	require.Equal(t, openjury.FormatTime(e.clock.Now()), v2["created_at"])
	require.Equal(t, map[string]any{"checklist": map[string]any{"sources": true}, "note": "better", "n": 1.2345678901234567e19}, v2["review"])

	// The tally has one voter on s2 only.
	sum := e.get("/api/v1/jobs/" + f.jobID + "/votes").JSON(t)
	require.Equal(t, map[string]any{"job_id": f.jobID, "tallies": []any{map[string]any{
		"submission_id": f.s2, "weighted_votes": float64(5), "voters": float64(1), "earliest_vote_at": openjury.FormatTime(e.clock.Now()),
	}}}, sum)
}

func TestVoteRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	f := e.voteFixture()
	juror := e.agent(minStake, minRep)
	vote := func(tok string, body any) response { return e.do("POST", "/api/v1/votes", body, bearer(tok)) }
	ok := map[string]any{"job_id": f.jobID, "submission_id": f.s1}

	r := e.do("POST", "/api/v1/votes", ok)
	requireError(t, r, http.StatusUnauthorized, "missing bearer token")
	require.Equal(t, "Bearer", r.Header.Get("WWW-Authenticate"))

	// 403: stake, then reputation.
	requireError(t, vote(e.agent(0, 100).token, ok), http.StatusForbidden, "insufficient stake")
	requireError(t, vote(e.agent(minStake-1, 100).token, ok), http.StatusForbidden, "insufficient stake")
	requireError(t, vote(e.agent(minStake, minRep-1).token, ok), http.StatusForbidden, "insufficient reputation to vote")
	requireError(t, vote(e.agent(minStake, 0).token, ok), http.StatusForbidden, "insufficient reputation to vote")

	// 403: own submission; the sponsor on their own job.
	e.setRep(f.w1.lower(), 100)
	requireError(t, vote(f.w1.token, ok), http.StatusForbidden, "you may not vote for your own submission")
	requireError(t, vote(f.sponsor.token, ok), http.StatusForbidden, "the sponsor may not vote on their own job")

	// 404 job, 404 submission, 400 submission of another job.
	requireError(t, vote(juror.token, map[string]any{"job_id": openjury.NewID(), "submission_id": f.s1}), http.StatusNotFound, "job not found")
	requireError(t, vote(juror.token, map[string]any{"job_id": f.jobID, "submission_id": openjury.NewID()}), http.StatusNotFound, "submission not found")
	requireError(t, vote(juror.token, map[string]any{"job_id": f.jobID, "submission_id": "s-1"}), http.StatusNotFound, "submission not found")
	otherJob := e.newJob(f.sponsor.token)
	otherSub := e.submit(f.w2.token, otherJob, "elsewhere")["id"].(string)
	requireError(t, vote(juror.token, map[string]any{"job_id": f.jobID, "submission_id": otherSub}), http.StatusBadRequest, "submission_id: not a submission of this job")

	// 400 shapes.
	for _, tc := range []struct {
		body   any
		detail string
	}{
		{map[string]any{"submission_id": f.s1}, "job_id: is required"},
		{map[string]any{"job_id": f.jobID}, "submission_id: is required"},
		{map[string]any{"job_id": f.jobID, "submission_id": f.s1, "review": "great"}, "review: must be an object"},
		{map[string]any{"job_id": f.jobID, "submission_id": f.s1, "review": []any{1}}, "review: must be an object"},
		{map[string]any{"job_id": f.jobID, "submission_id": f.s1, "review": map[string]any{"note": strings.Repeat("x", 8<<10)}}, "review: must be a JSON object of at most 8 KiB"},
		{map[string]any{"job_id": f.jobID, "submission_id": 7}, "submission_id: must be a string"},
	} {
		requireError(t, vote(juror.token, tc.body), http.StatusBadRequest, tc.detail)
	}

	// 409 closed.
	r = e.do("POST", "/api/v1/jobs/"+f.jobID+"/close", map[string]any{"winner_submission_id": f.s1}, bearer(f.sponsor.token))
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
	requireError(t, vote(juror.token, ok), http.StatusConflict, "job is closed")
}

func TestVotingSummary(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	f := e.voteFixture()

	r := e.get("/api/v1/jobs/" + f.jobID + "/votes")
	require.JSONEq(t, fmt.Sprintf(`{"job_id":%q,"tallies":[]}`, f.jobID), string(r.Body))
	for _, id := range []string{openjury.NewID(), "x"} {
		requireError(t, e.do("GET", "/api/v1/jobs/"+id+"/votes", nil), http.StatusNotFound, "job not found")
	}

	// s1: weight 4; s2: weight 5 -> s2 first.
	first := e.clock.Now()
	e.vote(e.agent(minStake, minRep).token, f.jobID, f.s1) // weight 4
	e.clock.Advance(time.Second)
	e.vote(e.agent(minStake, 16).token, f.jobID, f.s2) // weight 5
	sum := e.get("/api/v1/jobs/" + f.jobID + "/votes").JSON(t)
	tallies := sum["tallies"].([]any)
	require.Len(t, tallies, 2)
	require.Equal(t, map[string]any{"submission_id": f.s2, "weighted_votes": float64(5), "voters": float64(1),
		"earliest_vote_at": openjury.FormatTime(first.Add(time.Second))}, tallies[0])
	require.Equal(t, map[string]any{"submission_id": f.s1, "weighted_votes": float64(4), "voters": float64(1),
		"earliest_vote_at": openjury.FormatTime(first)}, tallies[1])

	// A second juror of weight 4 on s1 makes 8 from two voters: s1 first.
	e.vote(e.agent(minStake, 15).token, f.jobID, f.s1) // weight 1 + 3 = 4
	tallies = e.get("/api/v1/jobs/" + f.jobID + "/votes").JSON(t)["tallies"].([]any)
	require.Equal(t, f.s1, tallies[0].(map[string]any)["submission_id"])
	require.EqualValues(t, 8, tallies[0].(map[string]any)["weighted_votes"])
	require.EqualValues(t, 2, tallies[0].(map[string]any)["voters"])
}

func TestFinalVote(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	created := e.clock.Now()
	f := e.voteFixture() // window: fixtureWindow from creation
	anyone := e.agent(minStake, 0)
	fv := func(tok string, body any) response { return e.do("POST", "/api/v1/final_votes", body, bearer(tok)) }
	ok := map[string]any{"job_id": f.jobID, "submission_id": f.s1}

	r := e.do("POST", "/api/v1/final_votes", ok)
	requireError(t, r, http.StatusUnauthorized, "missing bearer token")

	// Stake is needed (by default), reputation is not; stake comes first,
	// even for an unknown job.
	poor := e.agent(minStake-1, 0)
	requireError(t, fv(poor.token, ok), http.StatusForbidden, "insufficient stake")
	requireError(t, fv(poor.token, map[string]any{"job_id": openjury.NewID(), "submission_id": f.s1}), http.StatusForbidden, "insufficient stake")
	r = fv(anyone.token, ok)
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
	body := r.JSON(t)
	requireKeys(t, body, "vote")
	v := body["vote"].(map[string]any)
	requireKeys(t, v, "id", "job_id", "submission_id", "voter_address", "created_at")
	require.True(t, openjury.ValidID(v["id"].(string)))
	require.Equal(t, f.jobID, v["job_id"])
	require.Equal(t, f.s1, v["submission_id"])
	require.Equal(t, anyone.lower(), v["voter_address"])
	require.Equal(t, openjury.FormatTime(e.clock.Now()), v["created_at"])

	// Replacing keeps the id.
	e.clock.Advance(time.Minute)
	r = fv(anyone.token, map[string]any{"job_id": f.jobID, "submission_id": f.s2})
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
	v2 := r.JSON(t)["vote"].(map[string]any)
	require.Equal(t, v["id"], v2["id"])
	require.Equal(t, f.s2, v2["submission_id"])

	// 403 own submission; the (staked) sponsor may cast one.
	requireError(t, fv(f.w1.token, ok), http.StatusForbidden, "you may not cast a final vote for your own submission")
	require.Equal(t, http.StatusOK, fv(f.sponsor.token, ok).Code)

	// 404 / 400.
	requireError(t, fv(anyone.token, map[string]any{"job_id": openjury.NewID(), "submission_id": f.s1}), http.StatusNotFound, "job not found")
	requireError(t, fv(anyone.token, map[string]any{"job_id": f.jobID, "submission_id": openjury.NewID()}), http.StatusNotFound, "submission not found")
	otherJob := e.newJob(f.sponsor.token)
	otherSub := e.submit(f.w1.token, otherJob, "x")["id"].(string)
	requireError(t, fv(anyone.token, map[string]any{"job_id": f.jobID, "submission_id": otherSub}), http.StatusBadRequest, "submission_id: not a submission of this job")
	requireError(t, fv(anyone.token, map[string]any{"job_id": f.jobID}), http.StatusBadRequest, "submission_id: is required")
	requireError(t, fv(anyone.token, map[string]any{"submission_id": f.s1}), http.StatusBadRequest, "job_id: is required")

	// 409 before the window opens (clock set back) and once it has ended.
	e.clock.Set(created.Add(-time.Second))
	requireError(t, fv(anyone.token, ok), http.StatusConflict, "final voting has not started")
	e.clock.Set(created.Add(fixtureWindow - time.Millisecond))
	require.Equal(t, http.StatusOK, fv(anyone.token, ok).Code)
	e.clock.Set(created.Add(fixtureWindow))
	requireError(t, fv(anyone.token, ok), http.StatusConflict, "final voting window has ended")
}

func TestFinalSummary(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	f := e.voteFixture()
	r := e.get("/api/v1/jobs/" + f.jobID + "/final_votes")
	require.JSONEq(t, fmt.Sprintf(`{"job_id":%q,"tallies":[]}`, f.jobID), string(r.Body))
	requireError(t, e.do("GET", "/api/v1/jobs/"+openjury.NewID()+"/final_votes", nil), http.StatusNotFound, "job not found")

	first := e.clock.Now()
	e.finalVote(e.agent(minStake, 0).token, f.jobID, f.s1)
	e.clock.Advance(time.Second)
	e.finalVote(e.agent(minStake, 0).token, f.jobID, f.s2)
	e.finalVote(e.agent(minStake, 0).token, f.jobID, f.s2)
	sum := e.get("/api/v1/jobs/" + f.jobID + "/final_votes").JSON(t)
	require.Equal(t, map[string]any{"job_id": f.jobID, "tallies": []any{
		map[string]any{"submission_id": f.s2, "votes": float64(2), "voters": float64(2), "earliest_vote_at": openjury.FormatTime(first.Add(time.Second))},
		map[string]any{"submission_id": f.s1, "votes": float64(1), "voters": float64(1), "earliest_vote_at": openjury.FormatTime(first)},
	}}, sum)
}

// TestFreshWalletsCannotDecideAJob: three wallets signed in a moment ago,
// without stake, cannot cast final votes, so none of them can finalize
// and the job stays open; with the open rule (SERVICE_FINAL_VOTE_OPEN=1)
// the same three decide it.
func TestFreshWalletsCannotDecideAJob(t *testing.T) {
	t.Parallel()
	for _, open := range []bool{false, true} {
		e := newEnv(t, withMarketConfig(func(c *marketplace.Config) { c.FinalVoteOpen = open }))
		f := e.voteFixture()
		fresh := []agent{e.agent(0, 0), e.agent(0, 0), e.agent(0, 0)}
		for _, a := range fresh {
			r := e.do("POST", "/api/v1/final_votes", map[string]any{"job_id": f.jobID, "submission_id": f.s2}, bearer(a.token))
			if open {
				require.Equal(t, http.StatusOK, r.Code, "%s", r.Body)
				continue
			}
			requireError(t, r, http.StatusForbidden, "insufficient stake")
		}
		e.clock.Advance(fixtureWindow)
		r := e.do("POST", "/api/v1/jobs/"+f.jobID+"/finalize", nil, bearer(fresh[0].token))
		if !open {
			requireError(t, r, http.StatusForbidden, "only an address that cast a final vote may finalize")
			require.Equal(t, "open", e.get("/api/v1/jobs/" + f.jobID).JSON(t)["status"])
			require.Equal(t, []any{}, e.get("/api/v1/jobs/" + f.jobID + "/final_votes").JSON(t)["tallies"])
			continue
		}
		require.Equal(t, http.StatusOK, r.Code, "%s", r.Body)
		require.Equal(t, f.s2, r.JSON(t)["winner_submission_id"])
	}
}
