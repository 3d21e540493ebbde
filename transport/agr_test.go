package transport_test

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
)

func TestAgrStatusAndDevMint(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	w := newWallet(t)

	r := e.get("/api/v1/agr/status?address=" + w.addr)
	require.JSONEq(t, fmt.Sprintf(`{"address":%q,"balance":0,"earned":0,"spent":0}`, w.lower()), string(r.Body))

	r = e.do("POST", "/api/v1/agr/dev_mint", map[string]any{"address": w.addr, "amount": 120}, devHeader())
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
	require.JSONEq(t, fmt.Sprintf(`{"address":%q,"balance":120,"earned":120,"spent":0}`, w.lower()), string(r.Body))
	r = e.get("/api/v1/agr/status?address=" + w.lower())
	require.JSONEq(t, fmt.Sprintf(`{"address":%q,"balance":120,"earned":120,"spent":0}`, w.lower()), string(r.Body))

	for _, tc := range []struct{ query, detail string }{
		{"", "address: is required"},
		{"?address=", "address: is required"},
		{"?address=0xnope", "address: must be 0x followed by 40 hex digits"},
	} {
		requireError(t, e.do("GET", "/api/v1/agr/status"+tc.query, nil), http.StatusBadRequest, tc.detail)
	}
	for _, tc := range []struct {
		body   any
		detail string
	}{
		{map[string]any{"amount": 1}, "address: is required"},
		{map[string]any{"address": w.addr}, "amount: is required"},
		{map[string]any{"address": w.addr, "amount": 0}, "amount: must be between 1 and 1000000000"},
		{map[string]any{"address": w.addr, "amount": 1000000001}, "amount: must be between 1 and 1000000000"},
		{map[string]any{"address": w.addr, "amount": 1.5}, "amount: must be an integer"},
		{map[string]any{"address": w.addr, "amount": "5"}, "amount: must be an integer"},
		{map[string]any{"address": "0x0", "amount": 5}, "address: must be 0x followed by 40 hex digits"},
	} {
		requireError(t, e.do("POST", "/api/v1/agr/dev_mint", tc.body, devHeader()), http.StatusBadRequest, tc.detail)
	}
}

func TestAgrLedger(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	w := newWallet(t)
	r := e.get("/api/v1/agr/ledger?address=" + w.addr)
	require.JSONEq(t, fmt.Sprintf(`{"address":%q,"entries":[],"count":0,"next_cursor":null}`, w.lower()), string(r.Body))

	var times []string
	for i := 1; i <= 3; i++ {
		times = append(times, openjury.FormatTime(e.clock.Now()))
		e.mint(w.lower(), int64(i*10))
		e.clock.Advance(time.Second)
	}
	m := e.get("/api/v1/agr/ledger?address=" + w.addr).JSON(t)
	requireKeys(t, m, "address", "entries", "count", "next_cursor")
	require.Equal(t, w.lower(), m["address"])
	require.EqualValues(t, 3, m["count"])
	require.Nil(t, m["next_cursor"])
	entries := m["entries"].([]any)
	require.Len(t, entries, 3)
	for i, it := range entries { // newest first
		en := it.(map[string]any)
		requireKeys(t, en, "id", "address", "delta", "reason", "created_at", "job_id")
		require.True(t, openjury.ValidID(en["id"].(string)))
		require.Equal(t, w.lower(), en["address"])
		require.EqualValues(t, (3-i)*10, en["delta"])
		require.Equal(t, "dev_mint", en["reason"])
		require.Equal(t, times[2-i], en["created_at"])
		requireNulls(t, en, "job_id")
	}

	// Pages of two; count is the page's length.
	m = e.get("/api/v1/agr/ledger?limit=2&address=" + w.addr).JSON(t)
	require.EqualValues(t, 2, m["count"])
	require.NotNil(t, m["next_cursor"])
	m2 := e.get("/api/v1/agr/ledger?limit=2&address=" + w.addr + "&cursor=" + url.QueryEscape(m["next_cursor"].(string))).JSON(t)
	require.EqualValues(t, 1, m2["count"])
	require.Nil(t, m2["next_cursor"])
	require.Equal(t, entries[2], m2["entries"].([]any)[0])

	for _, tc := range []struct{ query, detail string }{
		{"", "address: is required"},
		{"?address=0x1", "address: must be 0x followed by 40 hex digits"},
		{"?address=" + w.addr + "&limit=0", "limit: must be between 1 and 200"},
		{"?address=" + w.addr + "&limit=201", "limit: must be between 1 and 200"},
		{"?address=" + w.addr + "&cursor=zz", "cursor: not a cursor from this list"},
	} {
		requireError(t, e.do("GET", "/api/v1/agr/ledger"+tc.query, nil), http.StatusBadRequest, tc.detail)
	}
}

func TestBoost(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sponsor := e.agent(0, 0)
	booster := e.agent(0, 0)
	var jobs []string // oldest first
	for range 3 {
		jobs = append(jobs, e.newJob(sponsor.token))
		e.clock.Advance(time.Minute)
	}
	listIDs := func() []string {
		t.Helper()
		var ids []string
		for _, j := range e.get("/api/v1/jobs").JSON(t)["jobs"].([]any) {
			ids = append(ids, j.(map[string]any)["id"].(string))
		}
		return ids
	}
	require.Equal(t, []string{jobs[2], jobs[1], jobs[0]}, listIDs())

	boost := func(tok, jobID string, body any) response {
		return e.do("POST", "/api/v1/jobs/"+jobID+"/boost", body, bearer(tok))
	}
	ok := map[string]any{"amount_agr": 30, "duration_hours": 2}

	// 401 before anything else.
	r := e.do("POST", "/api/v1/jobs/"+jobs[0]+"/boost", ok)
	requireError(t, r, http.StatusUnauthorized, "missing bearer token")
	require.Equal(t, "Bearer", r.Header.Get("WWW-Authenticate"))

	// 402 without credits.
	requireError(t, boost(booster.token, jobs[0], ok), http.StatusPaymentRequired, "insufficient AGR balance")
	e.mint(booster.lower(), 100)

	// 404 unknown job.
	requireError(t, boost(booster.token, openjury.NewID(), ok), http.StatusNotFound, "job not found")
	requireError(t, boost(booster.token, "nope", ok), http.StatusNotFound, "job not found")

	// 400 shapes.
	for _, tc := range []struct {
		body   any
		detail string
	}{
		{map[string]any{"duration_hours": 1}, "amount_agr: is required"},
		{map[string]any{"amount_agr": 1}, "duration_hours: is required"},
		{map[string]any{"amount_agr": 0, "duration_hours": 1}, "amount_agr: must be at least 1"},
		{map[string]any{"amount_agr": 1000001, "duration_hours": 1}, "amount_agr: must be at most 1000000"},
		{map[string]any{"amount_agr": 1, "duration_hours": 0}, "duration_hours: must be at least 1"},
		{map[string]any{"amount_agr": 1, "duration_hours": 721}, "duration_hours: must be at most 720"},
		{map[string]any{"amount_agr": 1.5, "duration_hours": 1}, "amount_agr: must be an integer"},
		{map[string]any{"amount_agr": 1, "duration_hours": "1"}, "duration_hours: must be an integer"},
		{"", "request body is required"},
	} {
		requireError(t, boost(booster.token, jobs[0], tc.body), http.StatusBadRequest, tc.detail)
	}

	// 200: the oldest job is featured and listed first.
	now := e.clock.Now()
	r = boost(booster.token, jobs[0], ok)
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
	require.JSONEq(t, fmt.Sprintf(`{"job_id":%q,"featured_score":30,"featured_until":%q}`,
		jobs[0], openjury.FormatTime(now.Add(2*time.Hour))), string(r.Body))
	require.Equal(t, []string{jobs[0], jobs[2], jobs[1]}, listIDs())
	job := e.get("/api/v1/jobs/" + jobs[0]).JSON(t)
	require.EqualValues(t, 30, job["featured_score"])
	require.Equal(t, openjury.FormatTime(now.Add(2*time.Hour)), job["featured_until"])

	// A second boost adds to the score and extends from featured_until;
	// among active boosts the higher score leads.
	r = boost(booster.token, jobs[0], map[string]any{"amount_agr": 10, "duration_hours": 1})
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
	require.JSONEq(t, fmt.Sprintf(`{"job_id":%q,"featured_score":40,"featured_until":%q}`,
		jobs[0], openjury.FormatTime(now.Add(3*time.Hour))), string(r.Body))
	r = boost(booster.token, jobs[1], map[string]any{"amount_agr": 50, "duration_hours": 1})
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
	require.Equal(t, []string{jobs[1], jobs[0], jobs[2]}, listIDs())

	// Balance spent: 100 - 30 - 10 - 50 = 10; 402 for more.
	st := e.get("/api/v1/agr/status?address=" + booster.lower()).JSON(t)
	require.EqualValues(t, 10, st["balance"])
	require.EqualValues(t, 90, st["spent"])
	requireError(t, boost(booster.token, jobs[2], map[string]any{"amount_agr": 11, "duration_hours": 1}), http.StatusPaymentRequired, "insufficient AGR balance")

	// The ledger shows the debits with their job.
	led := e.get("/api/v1/agr/ledger?address=" + booster.lower()).JSON(t)
	first := led["entries"].([]any)[0].(map[string]any)
	require.Equal(t, "boost", first["reason"])
	require.EqualValues(t, -50, first["delta"])
	require.Equal(t, jobs[1], first["job_id"])

	// Expired boosts no longer lead.
	e.clock.Advance(4 * time.Hour)
	require.Equal(t, []string{jobs[2], jobs[1], jobs[0]}, listIDs())

	// 409 on a closed job.
	worker := e.agent(minStake, 0)
	sub := e.submit(worker.token, jobs[2], "work")
	r = e.do("POST", "/api/v1/jobs/"+jobs[2]+"/close", map[string]any{"winner_submission_id": sub["id"]}, bearer(sponsor.token))
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
	requireError(t, boost(booster.token, jobs[2], map[string]any{"amount_agr": 1, "duration_hours": 1}), http.StatusConflict, "job is closed")
}
