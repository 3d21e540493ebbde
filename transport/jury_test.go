package transport_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
)

// commitHex is the commitment of voter to subID on jobID with salt, from
// its definition (four ABI words, keccak256).
func commitHex(jobID, subID, voter string, salt [32]byte) string {
	a := openjury.MustAddress(voter).Bytes()
	var word [32]byte
	copy(word[12:], a[:])
	return openjury.HashFromBytes([32]byte(crypto.Keccak256(crypto.Keccak256([]byte(jobID)), crypto.Keccak256([]byte(subID)), word[:], salt[:]))).String()
}

// TestJuryOverHTTP drives a commit-reveal job with a drawn panel through
// the API: the job's jury fields, GET /jury (panel, seed, re-derivation
// inputs), the eligible set, duties, a commitment (and the open vote it
// replaces refused), the hidden tally, early, wrong and right reveals, and
// the tally once the reveal window ended. Every answer is checked against
// the OpenAPI document by the env.
func TestJuryOverHTTP(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sponsor, worker := e.agent(minStake, 50), e.agent(minStake, 0)
	jurors := []agent{e.agent(minStake, minRep), e.agent(minStake*3, minRep)}
	outsider := e.agent(0, minRep)
	body := validJob()
	body["jury_mode"], body["jury_size"], body["jury_commit_seconds"], body["jury_reveal_seconds"] = "commit_reveal", 3, 600, 300
	job := e.createJob(sponsor.token, body)
	jobID := job["id"].(string)
	require.Equal(t, "commit_reveal", job["jury_mode"])
	require.EqualValues(t, 3, job["jury_size"])
	commitEnd := e.clock.Now().Add(10 * time.Minute)
	require.Equal(t, openjury.FormatTime(commitEnd), job["jury_commit_ends_at"])
	require.Equal(t, openjury.FormatTime(commitEnd.Add(5*time.Minute)), job["jury_reveal_ends_at"])
	require.Equal(t, job["jury_reveal_ends_at"], job["final_vote_starts_at"])

	jury := e.get("/api/v1/jobs/" + jobID + "/jury").JSON(t)
	require.Equal(t, "commit_reveal", jury["jury_mode"])
	require.EqualValues(t, 0, jury["commitments"])
	draw := jury["draw"].(map[string]any)
	require.Equal(t, "drawn", draw["status"])
	require.Equal(t, marketplace.DrawAlgorithm, draw["algorithm"])
	require.Equal(t, "server", draw["seed_source"])
	require.EqualValues(t, 2, draw["eligible_count"], "the sponsor is never in the set")
	require.Equal(t, "https://jury.example.com/api/v1/jobs/"+jobID+"/jury/eligible", draw["eligible_set_url"])
	panel := jury["panel"].([]any)
	require.Len(t, panel, 2, "everybody eligible, the sponsor excepted")
	eligible := e.get("/api/v1/jobs/" + jobID + "/jury/eligible?limit=1").JSON(t)
	require.Len(t, eligible["jurors"], 1)
	require.NotNil(t, eligible["next_cursor"])
	rest := e.get("/api/v1/jobs/" + jobID + "/jury/eligible?cursor=" + eligible["next_cursor"].(string)).JSON(t)
	require.Len(t, rest["jurors"], 1)
	require.Nil(t, rest["next_cursor"])
	requireError(t, e.do("GET", "/api/v1/jobs/"+jobID+"/jury/eligible?limit=1001", nil), http.StatusBadRequest, "limit: must be between 1 and 1000")

	duties := e.get("/api/v1/jury/duties?address=" + jurors[0].addr).JSON(t)
	require.Equal(t, jurors[0].lower(), duties["address"])
	d := duties["duties"].([]any)[0].(map[string]any)
	require.Equal(t, jobID, d["job_id"])
	require.Equal(t, "commit", d["next_action"])
	requireError(t, e.do("GET", "/api/v1/jury/duties", nil), http.StatusBadRequest, "address: is required")
	requireError(t, e.do("GET", "/api/v1/jury/duties?address=0x12", nil), http.StatusBadRequest, "address: must be 0x followed by 40 hex digits")

	sub := e.submit(worker.token, jobID, "work")["id"].(string)
	r := e.do("POST", "/api/v1/votes", map[string]any{"job_id": jobID, "submission_id": sub}, bearer(jurors[0].token))
	requireError(t, r, http.StatusBadRequest, marketplace.DetailCommitRequired)
	r = e.do("POST", "/api/v1/votes", map[string]any{"job_id": jobID, "commitment": commitHex(jobID, sub, outsider.addr, [32]byte{1})}, bearer(outsider.token))
	requireError(t, r, http.StatusForbidden, "insufficient stake")
	salt := [32]byte{9, 9, 9}
	r = e.do("POST", "/api/v1/votes", map[string]any{"job_id": jobID, "commitment": commitHex(jobID, sub, jurors[0].addr, salt)}, bearer(jurors[0].token))
	require.Equal(t, http.StatusOK, r.Code, "%s", r.Body)
	c := r.JSON(t)["commitment"].(map[string]any)
	require.Equal(t, commitHex(jobID, sub, jurors[0].addr, salt), c["commitment"])
	require.NotContains(t, string(r.Body), sub, "a commitment never names its submission")

	sum := e.get("/api/v1/jobs/" + jobID + "/votes").JSON(t)
	require.Equal(t, []any{}, sum["tallies"])
	require.EqualValues(t, 1, sum["commitments"])
	require.Equal(t, true, sum["tallies_hidden"])

	reveal := map[string]any{"job_id": jobID, "submission_id": sub, "salt": openjury.HashFromBytes(salt).String()}
	requireError(t, e.do("POST", "/api/v1/votes/reveal", reveal, bearer(jurors[0].token)), http.StatusConflict, "reveal window has not started")
	e.clock.Advance(10 * time.Minute)
	wrong := withField(reveal, "salt", hash32(7))
	requireError(t, e.do("POST", "/api/v1/votes/reveal", wrong, bearer(jurors[0].token)), http.StatusBadRequest,
		"salt: submission_id and salt do not match your commitment")
	requireError(t, e.do("POST", "/api/v1/votes/reveal", withField(reveal, "salt", "0x12"), bearer(jurors[0].token)), http.StatusBadRequest,
		"salt: must be 0x followed by 64 hex digits")
	requireError(t, e.do("POST", "/api/v1/votes/reveal", withoutField(reveal, "salt"), bearer(jurors[0].token)), http.StatusBadRequest, "salt: is required")
	r = e.do("POST", "/api/v1/votes/reveal", reveal, bearer(jurors[0].token))
	require.Equal(t, http.StatusOK, r.Code, "%s", r.Body)
	v := r.JSON(t)["vote"].(map[string]any)
	require.Equal(t, sub, v["submission_id"])
	require.Equal(t, []any{}, e.get("/api/v1/jobs/" + jobID + "/votes").JSON(t)["tallies"], "still hidden")

	e.clock.Advance(5 * time.Minute)
	requireError(t, e.do("POST", "/api/v1/votes/reveal", reveal, bearer(jurors[1].token)), http.StatusConflict, "reveal window has ended")
	sum = e.get("/api/v1/jobs/" + jobID + "/votes").JSON(t)
	require.Equal(t, false, sum["tallies_hidden"])
	require.Len(t, sum["tallies"], 1)
	panel = e.get("/api/v1/jobs/" + jobID + "/jury").JSON(t)["panel"].([]any)
	revealed := 0
	for _, p := range panel {
		if p.(map[string]any)["revealed"] == true {
			revealed++
		}
	}
	require.Equal(t, 1, revealed)
}

// TestJuryJobInput: the jury fields of a job to create are checked (400
// naming the field), and a default job carries jury_mode open and nulls.
func TestJuryJobInput(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sponsor := e.agent(minStake, 0)
	for _, c := range []struct {
		field  string
		value  any
		detail string
	}{
		{"jury_mode", "sealed", "jury_mode: must be open or commit_reveal"},
		{"jury_mode", 3, "jury_mode: must be a string"},
		{"jury_size", 2, "jury_size: must be an odd number between 1 and 101"},
		{"jury_size", 1.5, "jury_size: must be an integer"},
		{"jury_commit_seconds", 600, "jury_commit_seconds: only with jury_mode commit_reveal"},
	} {
		r := e.do("POST", "/api/v1/jobs", withField(validJob(), c.field, c.value), bearer(sponsor.token))
		require.Equal(t, http.StatusBadRequest, r.Code, "%s=%v: %s", c.field, c.value, r.Body)
		require.True(t, strings.HasPrefix(r.Detail(t), strings.Split(c.detail, ":")[0]), "%s", r.Body)
		require.Equal(t, c.detail, r.Detail(t))
	}
	job := e.createJob(sponsor.token, validJob())
	require.Equal(t, "open", job["jury_mode"])
	requireNulls(t, job, "jury_size", "jury_commit_ends_at", "jury_reveal_ends_at")
	jury := e.get("/api/v1/jobs/" + job["id"].(string) + "/jury").JSON(t)
	requireNulls(t, jury, "draw", "commitments", "jury_size")
	require.Equal(t, []any{}, jury["panel"])
	requireError(t, e.do("GET", "/api/v1/jobs/"+job["id"].(string)+"/jury/eligible", nil), http.StatusNotFound, "this job has no drawn jury")
	r := e.do("POST", "/api/v1/votes", map[string]any{"job_id": job["id"], "commitment": hash32(1)}, bearer(sponsor.token))
	require.Equal(t, http.StatusForbidden, r.Code, "the sponsor has no stake to vote: %s", r.Body)
}
