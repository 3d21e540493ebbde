package transport_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
)

var (
	submissionKeys = []string{"id", "job_id", "agent_address", "content", "created_at", "evidence"}
	evidenceKeys   = []string{"type", "source_url", "retrieved_at", "snapshot_uri", "snapshot_hash", "quote", "claim", "confidence", "metadata"}
)

func TestCreateSubmission(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sponsor := e.agent(0, 0)
	worker := e.agent(minStake, 0)
	jobID := e.newJob(sponsor.token)

	// Without evidence: evidence is [].
	r := e.do("POST", "/api/v1/submissions", map[string]any{"job_id": jobID, "content": "my work"}, bearer(worker.token))
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
	require.Contains(t, string(r.Body), `"evidence":[]`)
	body := r.JSON(t)
	requireKeys(t, body, "submission")
	sub := body["submission"].(map[string]any)
	requireKeys(t, sub, submissionKeys...)
	require.True(t, openjury.ValidID(sub["id"].(string)))
	require.Equal(t, jobID, sub["job_id"])
	require.Equal(t, worker.lower(), sub["agent_address"])
	require.Equal(t, "my work", sub["content"])
	require.Equal(t, openjury.FormatTime(e.clock.Now()), sub["created_at"])

	// With evidence: given fields back, absent ones null; evidence null is
	// none; numbers in metadata keep their exact text.
	e.clock.Advance(time.Second)
	r = e.do("POST", "/api/v1/submissions", `{"job_id":"`+jobID+`","content":"with evidence","evidence":[
		{"type":"web","source_url":"https://example.com/a","retrieved_at":"2026-01-01T00:00:00Z",
		 "snapshot_uri":"ipfs://cid","snapshot_hash":"sha256:abc","quote":"q","claim":"c","confidence":0.75,
		 "metadata":{"big":12345678901234567890,"nested":{"k":[1,"x"]}}},
		{"claim":"only a claim","confidence":null,"metadata":null},
		{}
	]}`, bearer(worker.token))
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
	require.Contains(t, string(r.Body), `"big":12345678901234567890`)
	sub2 := r.JSON(t)["submission"].(map[string]any)
	ev := sub2["evidence"].([]any)
	require.Len(t, ev, 3)
	full := ev[0].(map[string]any)
	requireKeys(t, full, evidenceKeys...)
	require.Equal(t, "web", full["type"])
	require.Equal(t, "https://example.com/a", full["source_url"])
	require.Equal(t, "2026-01-01T00:00:00Z", full["retrieved_at"])
	require.Equal(t, "ipfs://cid", full["snapshot_uri"])
	require.Equal(t, "sha256:abc", full["snapshot_hash"])
	require.Equal(t, "q", full["quote"])
	require.Equal(t, "c", full["claim"])
	require.Equal(t, 0.75, full["confidence"])
	require.Equal(t, map[string]any{"big": 1.2345678901234567e19, "nested": map[string]any{"k": []any{float64(1), "x"}}}, full["metadata"])
	claim := ev[1].(map[string]any)
	requireKeys(t, claim, evidenceKeys...)
	require.Equal(t, "only a claim", claim["claim"])
	requireNulls(t, claim, "type", "source_url", "retrieved_at", "snapshot_uri", "snapshot_hash", "quote", "confidence", "metadata")
	requireNulls(t, ev[2].(map[string]any), evidenceKeys...)

	r = e.do("POST", "/api/v1/submissions", map[string]any{"job_id": jobID, "content": "x", "evidence": nil}, bearer(worker.token))
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
	require.Equal(t, []any{}, r.JSON(t)["submission"].(map[string]any)["evidence"])

	// The list is a bare array, oldest first, and reads back the same.
	r = e.get("/api/v1/jobs/" + jobID + "/submissions")
	require.True(t, strings.HasPrefix(string(r.Body), "["), "bare array: %s", r.Body)
	var list []map[string]any
	require.NoError(t, json.Unmarshal(r.Body, &list))
	require.Len(t, list, 3)
	require.Equal(t, sub, list[0])
	require.Equal(t, sub2, list[1])
}

func TestListSubmissions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sponsor := e.agent(0, 0)
	jobID := e.newJob(sponsor.token)
	r := e.get("/api/v1/jobs/" + jobID + "/submissions")
	require.Equal(t, "[]\n", string(r.Body))
	require.Empty(t, r.Header.Get("X-Next-Cursor"), "one empty page")
	for _, id := range []string{openjury.NewID(), "nope"} {
		requireError(t, e.do("GET", "/api/v1/jobs/"+id+"/submissions", nil), http.StatusNotFound, "job not found")
	}
}

// TestListSubmissionsPages pages through submissions that share one
// created_at (the test clock stands still): oldest first, ties by id, the
// next cursor in X-Next-Cursor, absent on the last page.
func TestListSubmissionsPages(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sponsor := e.agent(0, 0)
	jobID := e.newJob(sponsor.token)
	var want []string
	for i := range 5 {
		want = append(want, e.submit(e.agent(minStake, 0).token, jobID, fmt.Sprint("work ", i))["id"].(string))
	}
	slices.Sort(want) // one created_at: id order
	all := e.get("/api/v1/jobs/" + jobID + "/submissions")
	require.Empty(t, all.Header.Get("X-Next-Cursor"))
	var list []map[string]any
	require.NoError(t, json.Unmarshal(all.Body, &list))
	require.Len(t, list, 5)
	require.Equal(t, list[0]["created_at"], list[4]["created_at"], "the submissions tie in created_at")

	var got []string
	path := "/api/v1/jobs/" + jobID + "/submissions?limit=2"
	for pages := 1; ; pages++ {
		r := e.get(path)
		var page []map[string]any
		require.NoError(t, json.Unmarshal(r.Body, &page))
		for _, s := range page {
			got = append(got, s["id"].(string))
		}
		next := r.Header.Get("X-Next-Cursor")
		if next == "" {
			require.Equal(t, 3, pages)
			break
		}
		require.Len(t, page, 2)
		path = "/api/v1/jobs/" + jobID + "/submissions?limit=2&cursor=" + url.QueryEscape(next)
	}
	require.Equal(t, want, got)

	// An exact fit ends without a cursor.
	r := e.get("/api/v1/jobs/" + jobID + "/submissions?limit=5")
	require.Empty(t, r.Header.Get("X-Next-Cursor"))

	base := "/api/v1/jobs/" + jobID + "/submissions"
	for q, detail := range map[string]string{
		"?limit=0":      "limit: must be between 1 and 200",
		"?limit=201":    "limit: must be between 1 and 200",
		"?limit=x":      "limit: must be an integer",
		"?cursor=nope!": "cursor: not a cursor from this list",
	} {
		requireError(t, e.do("GET", base+q, nil), http.StatusBadRequest, detail)
	}
}

func TestCreateSubmissionRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sponsor := e.agent(minStake, 0)
	worker := e.agent(minStake, 0)
	poor := e.agent(minStake-1, 0)
	jobID := e.newJob(sponsor.token)
	post := func(tok string, body any) response {
		return e.do("POST", "/api/v1/submissions", body, bearer(tok))
	}
	ok := map[string]any{"job_id": jobID, "content": "work"}

	r := e.do("POST", "/api/v1/submissions", ok)
	requireError(t, r, http.StatusUnauthorized, "missing bearer token")
	require.Equal(t, "Bearer", r.Header.Get("WWW-Authenticate"))

	// 403: stake below the minimum (and none at all).
	requireError(t, post(poor.token, ok), http.StatusForbidden, "insufficient stake")
	requireError(t, post(e.agent(0, 0).token, ok), http.StatusForbidden, "insufficient stake")

	// 404 unknown job.
	requireError(t, post(worker.token, map[string]any{"job_id": openjury.NewID(), "content": "w"}), http.StatusNotFound, "job not found")
	requireError(t, post(worker.token, map[string]any{"job_id": "job-1", "content": "w"}), http.StatusNotFound, "job not found")

	// 403: the sponsor on their own job.
	requireError(t, post(sponsor.token, ok), http.StatusForbidden, "the sponsor may not submit to their own job")

	// 409: the sixth submission of one agent.
	for range 5 {
		require.Equal(t, http.StatusOK, post(worker.token, ok).Code)
	}
	requireError(t, post(worker.token, ok), http.StatusConflict, "at most 5 submissions per agent per job")

	// 409: closed job.
	other := e.agent(minStake, 0)
	sub := e.submit(other.token, jobID, "winner")
	r = e.do("POST", "/api/v1/jobs/"+jobID+"/close", map[string]any{"winner_submission_id": sub["id"]}, bearer(sponsor.token))
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
	requireError(t, post(e.agent(minStake, 0).token, ok), http.StatusConflict, "job is closed")
}

func TestCreateSubmissionValidation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sponsor := e.agent(0, 0)
	worker := e.agent(minStake, 0)
	jobID := e.newJob(sponsor.token)
	withEv := func(items ...any) map[string]any {
		return map[string]any{"job_id": jobID, "content": "c", "evidence": items}
	}
	many := make([]any, 51)
	for i := range many {
		many[i] = map[string]any{}
	}
	cases := []struct {
		name   string
		body   any
		detail string
	}{
		{"job_id missing", map[string]any{"content": "c"}, "job_id: is required"},
		{"content missing", map[string]any{"job_id": jobID}, "content: is required"},
		{"content blank", map[string]any{"job_id": jobID, "content": " \n"}, "content: is required and must not be blank"},
		{"content too long", map[string]any{"job_id": jobID, "content": strings.Repeat("x", 20001)}, "content: must be at most 20000 characters"},
		{"content not a string", map[string]any{"job_id": jobID, "content": 5}, "content: must be a string"},
		{"job_id not a string", map[string]any{"job_id": 5, "content": "c"}, "job_id: must be a string"},
		{"evidence not an array", map[string]any{"job_id": jobID, "content": "c", "evidence": "x"}, "evidence: must be an array of objects"},
		{"evidence an object", map[string]any{"job_id": jobID, "content": "c", "evidence": map[string]any{}}, "evidence: must be an array of objects"},
		{"51 items", withEv(many...), "evidence: must have at most 50 items"},
		{"item not an object", withEv(map[string]any{}, 5), "evidence[1]: must be an object"},
		{"item null", withEv(nil), "evidence[0]: must be an object"},
		{"item array", withEv([]any{}), "evidence[0]: must be an object"},
		{"confidence a string", withEv(map[string]any{"confidence": "high"}), "evidence[0].confidence: must be a number"},
		{"confidence above 1", withEv(map[string]any{}, map[string]any{"confidence": 1.5}), "evidence[1].confidence: must be at most 1"},
		{"confidence negative", withEv(map[string]any{"confidence": -0.1}), "evidence[0].confidence: must be at least 0"},
		{"type a number", withEv(map[string]any{"type": 1}), "evidence[0].type: must be a string"},
		{"quote a bool", withEv(map[string]any{"quote": true}), "evidence[0].quote: must be a string"},
		{"metadata a string", withEv(map[string]any{"metadata": "x"}), "evidence[0].metadata: must be an object"},
		{"metadata too big", withEv(map[string]any{"metadata": map[string]any{"k": strings.Repeat("x", 8<<10)}}), "evidence[0].metadata: must be at most 8 KiB when serialised"},
		{"source_url ftp", withEv(map[string]any{"source_url": "ftp://example.com/x"}), "evidence[0].source_url: must be an http(s) URL"},
		{"source_url too long", withEv(map[string]any{"source_url": "https://example.com/" + strings.Repeat("a", 2048)}), "evidence[0].source_url: must be at most 2048 characters"},
		{"snapshot_uri too long", withEv(map[string]any{"snapshot_uri": strings.Repeat("a", 4097)}), "evidence[0].snapshot_uri: must be at most 4096 characters"},
		{"snapshot_hash too long", withEv(map[string]any{"snapshot_hash": strings.Repeat("a", 257)}), "evidence[0].snapshot_hash: must be at most 256 characters"},
		{"quote too long", withEv(map[string]any{}, map[string]any{}, map[string]any{"quote": strings.Repeat("a", 4001)}), "evidence[2].quote: must be at most 4000 characters"},
		{"claim too long", withEv(map[string]any{"claim": strings.Repeat("a", 4001)}), "evidence[0].claim: must be at most 4000 characters"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			requireError(t, e.do("POST", "/api/v1/submissions", tc.body, bearer(worker.token)), http.StatusBadRequest, tc.detail)
		})
	}
	// A malformed retrieved_at is refused, naming the field.
	r := e.do("POST", "/api/v1/submissions", withEv(map[string]any{"retrieved_at": "yesterday"}), bearer(worker.token))
	require.Equal(t, http.StatusBadRequest, r.Code, "body: %s", r.Body)
	require.True(t, strings.HasPrefix(r.Detail(t), "evidence[0].retrieved_at: "), r.Detail(t))

	// Nothing was stored.
	require.Equal(t, "[]\n", string(e.get("/api/v1/jobs/"+jobID+"/submissions").Body))
}
