package transport_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
)

func TestCreateJobRequiresToken(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.do("POST", "/api/v1/jobs", validJob())
	requireError(t, r, http.StatusUnauthorized, "missing bearer token")
	require.Equal(t, "Bearer", r.Header.Get("WWW-Authenticate"))

	// Authentication comes before the body is looked at.
	r = e.do("POST", "/api/v1/jobs", `{"title":`)
	require.Equal(t, http.StatusUnauthorized, r.Code)
}

func TestCreateJob(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	w := newWallet(t)
	token := e.signIn(w)
	now := e.clock.Now()

	r := e.do("POST", "/api/v1/jobs", `{"title":"T","prompt":"P","bounty_usdc":12.500000,"tags":["go"," Go ","ai"],"final_vote_window_seconds":3600,"unknown":{"x":1}}`, bearer(token))
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
	require.Contains(t, string(r.Body), `"bounty_usdc":12.5,`, "bounty must be an exact JSON number")
	job := r.JSON(t)
	require.True(t, openjury.ValidID(job["id"].(string)))
	require.Equal(t, "T", job["title"])
	require.Equal(t, "P", job["prompt"])
	require.Equal(t, []any{"go", "ai"}, job["tags"])
	require.Equal(t, "open", job["status"])
	require.Equal(t, w.lower(), job["sponsor_address"])
	require.Equal(t, openjury.FormatTime(now), job["created_at"])
	require.Equal(t, "2026-01-01T00:00:00.000Z", job["created_at"])
	require.Equal(t, openjury.FormatTime(now), job["final_vote_starts_at"])
	require.Equal(t, openjury.FormatTime(now.Add(time.Hour)), job["final_vote_ends_at"])
	require.EqualValues(t, 0, job["featured_score"])

	// Every optional field of the spec is present, null until set.
	for _, k := range []string{
		"winner_submission_id", "closed_at",
		"close_tx_hash", "close_chain_id", "close_contract_address", "close_block_number", "close_log_index",
		"anchor_root", "anchor_uri", "anchor_schema_version", "anchor_salt", "anchor_tx_hash",
		"anchor_chain_id", "anchor_contract_address", "anchor_block_number", "anchor_log_index",
		"featured_until",
		// Without an escrow the escrow fields are null too.
		"escrow_status", "escrow_amount_usdc", "escrow_refund_after", "escrow_tx_hash", "escrow_chain_id",
		"escrow_contract_address", "escrow_block_number", "escrow_log_index", "escrow_mismatch",
	} {
		v, present := job[k]
		require.True(t, present, "field %s missing", k)
		require.Nil(t, v, "field %s", k)
	}
	require.Len(t, job, 41) // with the escrow_* and jury_* fields

	// Default window, no tags -> [] not null, integer bounty.
	r = e.do("POST", "/api/v1/jobs", `{"title":"T2","prompt":"P","bounty_usdc":0}`, bearer(token))
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
	require.Contains(t, string(r.Body), `"tags":[]`)
	require.Contains(t, string(r.Body), `"bounty_usdc":0,`)
	job = r.JSON(t)
	require.Equal(t, openjury.FormatTime(now.Add(24*time.Hour)), job["final_vote_ends_at"])

	// The job reads back the same.
	got := e.do("GET", "/api/v1/jobs/"+job["id"].(string), nil)
	require.Equal(t, http.StatusOK, got.Code)
	require.Equal(t, job, got.JSON(t))
}

func TestCreateJobValidation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	token := e.signIn(newWallet(t))
	with := func(k string, v any) map[string]any { return withField(validJob(), k, v) }
	without := func(k string) map[string]any { return withoutField(validJob(), k) }
	cases := []struct {
		name   string
		body   any
		detail string
	}{
		{"title missing", without("title"), "title: is required"},
		{"prompt missing", without("prompt"), "prompt: is required"},
		{"bounty missing", without("bounty_usdc"), "bounty_usdc: is required"},
		{"bounty null", with("bounty_usdc", nil), "bounty_usdc: is required"},
		{"title too long", with("title", strings.Repeat("é", 141)), "title: must be at most 140 characters"},
		{"title blank", with("title", " \t "), "title: is required and must not be blank"},
		{"title not a string", with("title", 5), "title: must be a string"},
		{"prompt blank", with("prompt", "   "), "prompt: is required and must not be blank"},
		{"prompt too long", with("prompt", strings.Repeat("x", 20001)), "prompt: must be at most 20000 characters"},
		{"bounty 7 decimals", `{"title":"t","prompt":"p","bounty_usdc":1.0000001}`, "bounty_usdc: at most 6 decimals allowed"},
		{"bounty as string", with("bounty_usdc", "5"), "bounty_usdc: must be a number"},
		{"bounty as bool", with("bounty_usdc", true), "bounty_usdc: must be a number"},
		{"bounty negative", with("bounty_usdc", -1), "bounty_usdc: must be between 0 and 1000000000000"},
		{"bounty too big", `{"title":"t","prompt":"p","bounty_usdc":1e12000}`, "bounty_usdc: out of range"},
		{"17 tags", with("tags", manyTags(17)), "tags: must have at most 16 items"},
		{"tag too long", with("tags", []string{strings.Repeat("x", 33)}), "tags[0]: must be at most 32 characters"},
		{"tags not an array", with("tags", "go"), "tags: must be an array of strings"},
		{"tag not a string", with("tags", []any{1}), "tags: must be an array of strings"},
		{"window 59", with("final_vote_window_seconds", 59), "final_vote_window_seconds: must be at least 60"},
		{"window too long", with("final_vote_window_seconds", 2592001), "final_vote_window_seconds: must be at most 2592000"},
		{"window fraction", with("final_vote_window_seconds", 60.5), "final_vote_window_seconds: must be an integer"},
		{"window string", with("final_vote_window_seconds", "60"), "final_vote_window_seconds: must be an integer"},
		{"empty body", ``, "request body is required"},
		{"whitespace body", "  \n", "request body is required"},
		{"array body", `[1]`, "request body must be a JSON object"},
		{"null body", `null`, "title: is required"},
		{"malformed", `{"title" "x"}`, "malformed JSON at byte 10: invalid character '\"' after object key"},
		{"truncated", `{"title":"x",`, "malformed JSON: unexpected end of input"},
		{"trailing data", `{"title":"t","prompt":"p","bounty_usdc":1} {}`, "request body must hold a single JSON object (unexpected data after it)"},
		{"trailing garbage", `{"title":"t","prompt":"p","bounty_usdc":1} x`, "request body must hold a single JSON object (unexpected data after it)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := e.do("POST", "/api/v1/jobs", tc.body, bearer(token))
			requireError(t, r, http.StatusBadRequest, tc.detail)
		})
	}
	// Over the maximum: the domain's detail names the field.
	r := e.do("POST", "/api/v1/jobs", `{"title":"t","prompt":"p","bounty_usdc":1000000000001}`, bearer(token))
	require.Equal(t, http.StatusBadRequest, r.Code)
	require.True(t, strings.HasPrefix(r.Detail(t), "bounty_usdc: "), r.Detail(t))

	// Trailing white space is fine.
	r = e.do("POST", "/api/v1/jobs", `{"title":"t","prompt":"p","bounty_usdc":1}`+"\n\t ", bearer(token))
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
}

func TestBodyTooLarge(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	token := e.signIn(newWallet(t))
	big := `{"title":"t","prompt":"` + strings.Repeat("x", 1<<20) + `","bounty_usdc":1}`

	// Declared length over the limit.
	r := e.do("POST", "/api/v1/jobs", big, bearer(token))
	requireError(t, r, http.StatusRequestEntityTooLarge, "request body too large")

	// Unknown length (chunked): the limit is hit while reading.
	req := newRequest(t, "POST", "/api/v1/jobs", big)
	req.ContentLength = -1
	req.Header.Set("Authorization", "Bearer "+token)
	r = e.serve(req)
	requireError(t, r, http.StatusRequestEntityTooLarge, "request body too large")

	// Valid object followed by too much white space.
	req = newRequest(t, "POST", "/api/v1/jobs", `{"title":"t","prompt":"p","bounty_usdc":1}`+strings.Repeat(" ", 1<<20))
	req.ContentLength = -1
	req.Header.Set("Authorization", "Bearer "+token)
	r = e.serve(req)
	requireError(t, r, http.StatusRequestEntityTooLarge, "request body too large")

	// A smaller configured limit applies.
	small := newEnv(t, withMaxBody(64))
	r = small.do("POST", "/api/v1/agents/auth/challenge", `{"address":"`+strings.Repeat("0", 100)+`"}`)
	requireError(t, r, http.StatusRequestEntityTooLarge, "request body too large")
}

func TestGetJob(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	token := e.signIn(newWallet(t))
	job := e.createJob(token, validJob())

	r := e.do("GET", "/api/v1/jobs/"+job["id"].(string), nil)
	require.Equal(t, http.StatusOK, r.Code)
	require.Equal(t, job, r.JSON(t))

	for _, id := range []string{openjury.NewID(), "not-an-id", "1", url.PathEscape("../x")} {
		r := e.do("GET", "/api/v1/jobs/"+id, nil)
		requireError(t, r, http.StatusNotFound, "job not found")
	}
}

func TestListJobs(t *testing.T) {
	t.Parallel()
	e := newEnv(t)

	r := e.do("GET", "/api/v1/jobs", nil)
	require.Equal(t, http.StatusOK, r.Code)
	require.JSONEq(t, `{"jobs":[],"next_cursor":null}`, string(r.Body))

	token := e.signIn(newWallet(t))
	var ids []string // newest first
	for i := range 5 {
		body := validJob()
		body["title"] = fmt.Sprintf("job %d", i)
		if i%2 == 0 {
			body["tags"] = []string{"Even"}
		}
		ids = append([]string{e.createJob(token, body)["id"].(string)}, ids...)
		e.clock.Advance(time.Second)
	}

	list := func(query string) ([]string, any) {
		t.Helper()
		r := e.do("GET", "/api/v1/jobs"+query, nil)
		require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
		m := r.JSON(t)
		var got []string
		for _, j := range m["jobs"].([]any) {
			got = append(got, j.(map[string]any)["id"].(string))
		}
		return got, m["next_cursor"]
	}

	got, next := list("")
	require.Equal(t, ids, got)
	require.Nil(t, next)

	got, _ = list("?tag=even&status=all")
	require.Equal(t, []string{ids[0], ids[2], ids[4]}, got)

	// Pages of two follow the same order to the end.
	var all []string
	query := "?limit=2"
	for pages := 0; ; pages++ {
		require.Less(t, pages, 5)
		got, next := list(query)
		all = append(all, got...)
		if next == nil {
			break
		}
		require.Len(t, got, 2)
		query = "?limit=2&cursor=" + url.QueryEscape(next.(string))
	}
	require.Equal(t, ids, all)

	cases := []struct{ query, detail string }{
		{"?status=closed", "status: must be open or all"},
		{"?limit=0", "limit: must be between 1 and 200"},
		{"?limit=201", "limit: must be between 1 and 200"},
		{"?limit=-1", "limit: must be between 1 and 200"},
		{"?limit=abc", "limit: must be an integer"},
		{"?limit=1.5", "limit: must be an integer"},
		{"?limit=", "limit: must be an integer"},
		{"?cursor=zzz", "cursor: not a cursor from this list"},
	}
	for _, tc := range cases {
		r := e.do("GET", "/api/v1/jobs"+tc.query, nil)
		requireError(t, r, http.StatusBadRequest, tc.detail)
	}
}
