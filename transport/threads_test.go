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
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/transport"
)

var (
	commentKeys = []string{"id", "target_type", "target_id", "parent_id", "author_address", "content", "created_at", "deleted_at", "deleted_by"}
	postKeys    = []string{"id", "title", "content", "author_address", "created_at", "tags", "deleted_at", "deleted_by"}
)

// withOperators makes addrs the operators, of the marketplace (which
// decides comment moderation) and of the handler alike.
func withOperators(addrs ...string) envOption {
	return func(e *env) {
		ops := make([]openjury.Address, len(addrs))
		for i, a := range addrs {
			ops[i] = openjury.MustAddress(a)
		}
		mc := e.svc.Market.Config()
		mc.Operators = ops
		e.svc.Market = marketplace.NewService(e.store, e.clock, mc)
		e.opts.Operators = ops
		e.svc.Anchor = anchor.NewService(e.store, anchor.Config{Operators: ops})
		e.h = transport.NewHandler(e.svc, e.opts)
	}
}

// comment posts a comment to path (".../comments") and returns it.
func (e *env) comment(token, path string, body any) map[string]any {
	e.t.Helper()
	r := e.do("POST", path, body, bearer(token))
	require.Equal(e.t, http.StatusOK, r.Code, "body: %s", r.Body)
	m := r.JSON(e.t)
	requireKeys(e.t, m, "comment")
	c := m["comment"].(map[string]any)
	requireKeys(e.t, c, commentKeys...)
	return c
}

// comments lists path (".../comments" plus a query) and returns the
// comments and the next cursor.
func (e *env) comments(path string) ([]map[string]any, any) {
	e.t.Helper()
	m := e.get(path).JSON(e.t)
	requireKeys(e.t, m, "comments", "next_cursor")
	var out []map[string]any
	for _, c := range m["comments"].([]any) {
		cm := c.(map[string]any)
		requireKeys(e.t, cm, commentKeys...)
		out = append(out, cm)
	}
	return out, m["next_cursor"]
}

// createPost posts a post and returns it.
func (e *env) createPost(token string, body any) map[string]any {
	e.t.Helper()
	r := e.do("POST", "/api/v1/posts", body, bearer(token))
	require.Equal(e.t, http.StatusOK, r.Code, "body: %s", r.Body)
	p := r.JSON(e.t)
	requireKeys(e.t, p, postKeys...)
	return p
}

func validPost() map[string]any {
	return map[string]any{"title": "Hello", "content": "First post."}
}

// ids returns the "id" of each item.
func ids(items []map[string]any) []string {
	out := make([]string, len(items))
	for i, m := range items {
		out[i] = m["id"].(string)
	}
	return out
}

// threadTargets makes one job, one submission and one post and returns
// their comment paths and ids by target type.
func (e *env) threadTargets() map[string][2]string {
	e.t.Helper()
	sponsor := e.agent(0, 0)
	worker := e.agent(minStake, 0)
	jobID := e.newJob(sponsor.token)
	subID := e.submit(worker.token, jobID, "work")["id"].(string)
	postID := e.createPost(sponsor.token, validPost())["id"].(string)
	return map[string][2]string{
		"job":        {"/api/v1/jobs/" + jobID + "/comments", jobID},
		"submission": {"/api/v1/submissions/" + subID + "/comments", subID},
		"post":       {"/api/v1/posts/" + postID + "/comments", postID},
	}
}

func TestCommentThreads(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a, b := e.agent(0, 0), e.agent(0, 0)
	for target, tp := range e.threadTargets() {
		t.Run(target, func(t *testing.T) {
			path, targetID := tp[0], tp[1]
			list, next := e.comments(path)
			require.Empty(t, list)
			require.Nil(t, next)
			r := e.get(path)
			require.JSONEq(t, `{"comments":[],"next_cursor":null}`, string(r.Body))

			// A comment, a reply and a reply to the reply; parent_id null
			// and absent both start a thread.
			e.clock.Advance(time.Second)
			c1 := e.comment(a.token, path, map[string]any{"content": "first", "parent_id": nil})
			require.True(t, openjury.ValidID(c1["id"].(string)))
			require.Equal(t, target, c1["target_type"])
			require.Equal(t, targetID, c1["target_id"])
			require.Equal(t, a.lower(), c1["author_address"])
			require.Equal(t, "first", c1["content"])
			require.Equal(t, openjury.FormatTime(e.clock.Now()), c1["created_at"])
			requireNulls(t, c1, "parent_id", "deleted_at", "deleted_by")

			e.clock.Advance(time.Second)
			c2 := e.comment(b.token, path, map[string]any{"content": "reply", "parent_id": c1["id"]})
			require.Equal(t, c1["id"], c2["parent_id"])
			require.Equal(t, b.lower(), c2["author_address"])
			requireNulls(t, c2, "deleted_at", "deleted_by")

			e.clock.Advance(time.Second)
			c3 := e.comment(a.token, path, map[string]any{"content": "reply to the reply", "parent_id": c2["id"]})
			require.Equal(t, c2["id"], c3["parent_id"])

			e.clock.Advance(time.Second)
			c4 := e.comment(b.token, path, map[string]any{"content": "  another thread  "})
			require.Equal(t, "  another thread  ", c4["content"], "content is kept as written")
			requireNulls(t, c4, "parent_id")

			// Oldest first, each as it was returned.
			list, next = e.comments(path)
			require.Nil(t, next)
			require.Equal(t, []map[string]any{c1, c2, c3, c4}, list)
		})
	}
}

func TestCommentParentRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.agent(0, 0)
	targets := e.threadTargets()
	jobPath, subPath, postPath := targets["job"][0], targets["submission"][0], targets["post"][0]
	onJob := e.comment(a.token, jobPath, map[string]any{"content": "on the job"})
	onSub := e.comment(a.token, subPath, map[string]any{"content": "on the submission"})
	onPost := e.comment(a.token, postPath, map[string]any{"content": "on the post"})

	// A parent from another thread: 400, whatever the kinds.
	for _, tc := range []struct {
		path   string
		parent map[string]any
	}{
		{jobPath, onSub}, {jobPath, onPost}, {subPath, onJob}, {postPath, onJob}, {postPath, onSub},
	} {
		r := e.do("POST", tc.path, map[string]any{"content": "x", "parent_id": tc.parent["id"]}, bearer(a.token))
		requireError(t, r, http.StatusBadRequest, "parent_id: must be a comment on the same target")
	}
	// Another job's thread is another target too.
	otherJob := e.newJob(a.token)
	r := e.do("POST", "/api/v1/jobs/"+otherJob+"/comments", map[string]any{"content": "x", "parent_id": onJob["id"]}, bearer(a.token))
	requireError(t, r, http.StatusBadRequest, "parent_id: must be a comment on the same target")

	// Unknown parents: 404.
	for _, parent := range []string{openjury.NewID(), "not-an-id"} {
		r := e.do("POST", jobPath, map[string]any{"content": "x", "parent_id": parent}, bearer(a.token))
		requireError(t, r, http.StatusNotFound, "parent comment not found")
	}

	// None of the refused replies was stored.
	list, _ := e.comments(jobPath)
	require.Equal(t, []map[string]any{onJob}, list)
}

func TestCommentTargetsNotFound(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.agent(0, 0)
	for _, tc := range []struct{ prefix, detail string }{
		{"/api/v1/jobs/", "job not found"},
		{"/api/v1/submissions/", "submission not found"},
		{"/api/v1/posts/", "post not found"},
	} {
		for _, id := range []string{openjury.NewID(), "nope"} {
			path := tc.prefix + id + "/comments"
			requireError(t, e.do("GET", path, nil), http.StatusNotFound, tc.detail)
			requireError(t, e.do("POST", path, map[string]any{"content": "x"}, bearer(a.token)), http.StatusNotFound, tc.detail)
		}
	}
	// A job id is not a submission or a post.
	jobID := e.newJob(a.token)
	requireError(t, e.do("GET", "/api/v1/submissions/"+jobID+"/comments", nil), http.StatusNotFound, "submission not found")
	requireError(t, e.do("GET", "/api/v1/posts/"+jobID+"/comments", nil), http.StatusNotFound, "post not found")
}

func TestCommentOnClosedJob(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sponsor := e.agent(0, 0)
	worker := e.agent(minStake, 0)
	jobID := e.newJob(sponsor.token)
	sub := e.submit(worker.token, jobID, "work")
	r := e.do("POST", "/api/v1/jobs/"+jobID+"/close", map[string]any{"winner_submission_id": sub["id"]}, bearer(sponsor.token))
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
	require.Equal(t, "closed", r.JSON(t)["job"].(map[string]any)["status"])

	c := e.comment(worker.token, "/api/v1/jobs/"+jobID+"/comments", map[string]any{"content": "thanks!"})
	e.comment(sponsor.token, "/api/v1/jobs/"+jobID+"/comments", map[string]any{"content": "welcome", "parent_id": c["id"]})
	e.comment(sponsor.token, "/api/v1/submissions/"+sub["id"].(string)+"/comments", map[string]any{"content": "good work"})
	list, _ := e.comments("/api/v1/jobs/" + jobID + "/comments")
	require.Len(t, list, 2)
}

func TestCreateCommentValidation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.agent(0, 0)
	targets := e.threadTargets()
	for _, tp := range targets {
		path := tp[0]
		// 401 before the body is looked at.
		r := e.do("POST", path, map[string]any{"content": "x"})
		requireError(t, r, http.StatusUnauthorized, "missing bearer token")
		require.Equal(t, "Bearer", r.Header.Get("WWW-Authenticate"))
		r = e.do("POST", path, `{"content":`)
		requireError(t, r, http.StatusUnauthorized, "missing bearer token")
		r = e.do("POST", path, map[string]any{"content": "x"}, bearer("not-a-token"))
		require.Equal(t, http.StatusUnauthorized, r.Code)
		require.Equal(t, "Bearer", r.Header.Get("WWW-Authenticate"))
	}

	path := targets["job"][0]
	cases := []struct {
		name   string
		body   any
		detail string
	}{
		{"content missing", map[string]any{"parent_id": nil}, "content: is required"},
		{"content null", map[string]any{"content": nil}, "content: is required"},
		{"content empty", map[string]any{"content": ""}, "content: is required and must not be blank"},
		{"content blank", map[string]any{"content": " \n\t "}, "content: is required and must not be blank"},
		{"content too long", map[string]any{"content": strings.Repeat("é", 20001)}, "content: must be at most 20000 characters"},
		{"content not a string", map[string]any{"content": 5}, "content: must be a string"},
		{"parent_id a number", map[string]any{"content": "x", "parent_id": 5}, "parent_id: must be a string"},
		{"parent_id an object", map[string]any{"content": "x", "parent_id": map[string]any{}}, "parent_id: must be a string"},
		{"empty body", ``, "request body is required"},
		{"array body", `[]`, "request body must be a JSON object"},
		{"malformed", `{"content" "x"}`, "malformed JSON at byte 12: invalid character '\"' after object key"},
	}
	for _, tc := range cases {
		r := e.do("POST", path, tc.body, bearer(a.token))
		requireError(t, r, http.StatusBadRequest, tc.detail)
	}

	// Validation comes before the target lookup.
	r := e.do("POST", "/api/v1/jobs/"+openjury.NewID()+"/comments", map[string]any{"content": " "}, bearer(a.token))
	requireError(t, r, http.StatusBadRequest, "content: is required and must not be blank")

	// Nothing was stored; 20000 characters exactly is fine.
	list, _ := e.comments(path)
	require.Empty(t, list)
	c := e.comment(a.token, path, map[string]any{"content": strings.Repeat("é", 20000)})
	require.Len(t, []rune(c["content"].(string)), 20000)
}

func TestDeleteComment(t *testing.T) {
	t.Parallel()
	op := newWallet(t)
	e := newEnv(t, withOperators(op.addr))
	opToken := e.signIn(op)
	author, stranger := e.agent(0, 0), e.agent(0, 0)
	path := e.threadTargets()["job"][0]
	c1 := e.comment(author.token, path, map[string]any{"content": "to be deleted"})
	e.clock.Advance(time.Second)
	c2 := e.comment(author.token, path, map[string]any{"content": "moderated", "parent_id": c1["id"]})
	e.clock.Advance(time.Second)
	c3 := e.comment(stranger.token, path, map[string]any{"content": "stays"})
	del := func(token, id string) response {
		return e.do("DELETE", "/api/v1/comments/"+id, nil, bearer(token))
	}
	deleted := func(r response) map[string]any {
		t.Helper()
		require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
		m := r.JSON(t)
		requireKeys(t, m, "comment")
		c := m["comment"].(map[string]any)
		requireKeys(t, c, commentKeys...)
		return c
	}

	// 401 without a token.
	r := e.do("DELETE", "/api/v1/comments/"+c1["id"].(string), nil)
	requireError(t, r, http.StatusUnauthorized, "missing bearer token")
	require.Equal(t, "Bearer", r.Header.Get("WWW-Authenticate"))

	// 403: neither author nor operator.
	requireError(t, del(stranger.token, c1["id"].(string)), http.StatusForbidden, "only the author or an operator may delete this comment")

	// 404: unknown or malformed id.
	for _, id := range []string{openjury.NewID(), "nope"} {
		requireError(t, del(author.token, id), http.StatusNotFound, "comment not found")
	}

	// The author deletes: content "", deleted_* set, everything else kept.
	e.clock.Advance(time.Minute)
	deletedAt := openjury.FormatTime(e.clock.Now())
	got := deleted(del(author.token, c1["id"].(string)))
	want := map[string]any{}
	for k, v := range c1 {
		want[k] = v
	}
	want["content"] = ""
	want["deleted_at"] = deletedAt
	want["deleted_by"] = author.lower()
	require.Equal(t, want, got)

	// Again: 200, unchanged (deleted_at of the first delete), by the
	// author or by an operator.
	e.clock.Advance(time.Minute)
	require.Equal(t, want, deleted(del(author.token, c1["id"].(string))))
	require.Equal(t, want, deleted(del(opToken, c1["id"].(string))))
	// The stranger still may not.
	requireError(t, del(stranger.token, c1["id"].(string)), http.StatusForbidden, "only the author or an operator may delete this comment")

	// An operator deletes someone else's comment.
	got = deleted(del(opToken, c2["id"].(string)))
	require.Equal(t, "", got["content"])
	require.Equal(t, op.lower(), got["deleted_by"])
	require.Equal(t, openjury.FormatTime(e.clock.Now()), got["deleted_at"])
	require.Equal(t, c1["id"], got["parent_id"])

	// Listings keep the deleted comments in place with content "".
	list, _ := e.comments(path)
	require.Equal(t, ids([]map[string]any{c1, c2, c3}), ids(list))
	require.Equal(t, want, list[0])
	require.Equal(t, got, list[1])
	require.Equal(t, c3, list[2])
	requireNulls(t, list[2], "deleted_at", "deleted_by")

	// A handler without the operators configured in the marketplace gives
	// operators no rights: the domain decides.
	plain := newEnv(t)
	pa := plain.agent(0, 0)
	pc := plain.comment(pa.token, plain.threadTargets()["post"][0], map[string]any{"content": "x"})
	r = plain.do("DELETE", "/api/v1/comments/"+pc["id"].(string), nil, bearer(plain.signIn(op)))
	requireError(t, r, http.StatusForbidden, "only the author or an operator may delete this comment")
}

func TestCommentRateLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a, b := e.agent(0, 0), e.agent(0, 0)
	targets := e.threadTargets()
	jobPath, postPath := targets["job"][0], targets["post"][0]

	// 20 comments in one minute are fine.
	start := e.clock.Now()
	for i := range marketplace.CommentsPerMinute {
		e.comment(a.token, jobPath, map[string]any{"content": fmt.Sprintf("c%d", i)})
		if i%2 == 1 {
			e.clock.Advance(time.Second)
		}
	}
	// The window started at the first comment, 10 s ago.
	require.Equal(t, start.Add(10*time.Second), e.clock.Now())

	// The 21st is refused, on any target, with Retry-After in seconds.
	r := e.do("POST", jobPath, map[string]any{"content": "one too many"}, bearer(a.token))
	requireError(t, r, http.StatusTooManyRequests, "at most 20 comments per minute: try again later")
	require.Equal(t, "50", r.Header.Get("Retry-After"))
	r = e.do("POST", postPath, map[string]any{"content": "elsewhere"}, bearer(a.token))
	requireError(t, r, http.StatusTooManyRequests, "at most 20 comments per minute: try again later")

	// Other addresses are not affected.
	e.comment(b.token, jobPath, map[string]any{"content": "b is fine"})

	// Still refused later in the window, with a shorter wait; a fraction
	// of a second rounds up.
	e.clock.Advance(49*time.Second + 500*time.Millisecond)
	r = e.do("POST", jobPath, map[string]any{"content": "still too many"}, bearer(a.token))
	requireError(t, r, http.StatusTooManyRequests, "at most 20 comments per minute: try again later")
	require.Equal(t, "1", r.Header.Get("Retry-After"))

	// The refused comments were not stored.
	list, _ := e.comments(jobPath)
	require.Len(t, list, marketplace.CommentsPerMinute+1)
	for _, c := range list {
		require.NotContains(t, []string{"one too many", "still too many"}, c["content"])
	}
	list, _ = e.comments(postPath)
	require.Empty(t, list)

	// Past the window it works again.
	e.clock.Advance(time.Second)
	e.comment(a.token, jobPath, map[string]any{"content": "new window"})
	e.comment(a.token, postPath, map[string]any{"content": "new window"})
}

func TestListCommentsPagination(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.agent(0, 0)
	path := e.threadTargets()["submission"][0]
	var want []string
	for i := range 5 {
		want = append(want, e.comment(a.token, path, map[string]any{"content": fmt.Sprintf("c%d", i)})["id"].(string))
		if i != 2 {
			e.clock.Advance(time.Second) // two share a created_at: ties go by id
		}
	}

	var all []string
	query := "?limit=2"
	for pages := 0; ; pages++ {
		require.Less(t, pages, 5)
		list, next := e.comments(path + query)
		all = append(all, ids(list)...)
		if next == nil {
			require.Len(t, list, 1)
			break
		}
		require.Len(t, list, 2)
		query = "?limit=2&cursor=" + url.QueryEscape(next.(string))
	}
	require.Equal(t, want, all)

	// A page that ends exactly at the end has no next cursor.
	list, next := e.comments(path + "?limit=5")
	require.Equal(t, want, ids(list))
	require.Nil(t, next)
	list, _ = e.comments(path + "?limit=500")
	require.Len(t, list, 5)

	for _, tc := range []struct{ query, detail string }{
		{"?limit=0", "limit: must be between 1 and 500"},
		{"?limit=501", "limit: must be between 1 and 500"},
		{"?limit=-1", "limit: must be between 1 and 500"},
		{"?limit=abc", "limit: must be an integer"},
		{"?limit=2.5", "limit: must be an integer"},
		{"?limit=", "limit: must be an integer"},
		{"?cursor=zzz", "cursor: not a cursor from this list"},
	} {
		requireError(t, e.do("GET", path+tc.query, nil), http.StatusBadRequest, tc.detail)
	}
}

// TestListCommentsDefaultLimit: without a limit a page holds 200 comments.
func TestListCommentsDefaultLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.agent(0, 0)
	path := e.threadTargets()["post"][0]
	for i := range marketplace.DefaultCommentLimit + 1 {
		e.comment(a.token, path, map[string]any{"content": fmt.Sprintf("c%d", i)})
		e.clock.Advance(4 * time.Second) // 15 a minute, under the rate limit
	}
	list, next := e.comments(path)
	require.Len(t, list, marketplace.DefaultCommentLimit)
	require.NotNil(t, next)
	list, next = e.comments(path + "?cursor=" + url.QueryEscape(next.(string)))
	require.Len(t, list, 1)
	require.Equal(t, fmt.Sprintf("c%d", marketplace.DefaultCommentLimit), list[0]["content"])
	require.Nil(t, next)
}

func TestCreatePost(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.agent(0, 0)

	r := e.do("POST", "/api/v1/posts", validPost())
	requireError(t, r, http.StatusUnauthorized, "missing bearer token")
	require.Equal(t, "Bearer", r.Header.Get("WWW-Authenticate"))
	r = e.do("POST", "/api/v1/posts", `{"title":`)
	require.Equal(t, http.StatusUnauthorized, r.Code)

	// Tags are trimmed and de-duplicated case-insensitively, keeping the
	// first spelling.
	p := e.createPost(a.token, map[string]any{"title": "T", "content": "C", "tags": []string{" Go ", "go", "AI", " ai ", "GO"}, "unknown": 1})
	require.True(t, openjury.ValidID(p["id"].(string)))
	require.Equal(t, "T", p["title"])
	require.Equal(t, "C", p["content"])
	require.Equal(t, a.lower(), p["author_address"])
	require.Equal(t, openjury.FormatTime(e.clock.Now()), p["created_at"])
	require.Equal(t, []any{"Go", "AI"}, p["tags"])
	requireNulls(t, p, "deleted_at", "deleted_by")

	// The post reads back the same.
	r = e.get("/api/v1/posts/" + p["id"].(string))
	require.Equal(t, p, r.JSON(t))

	// No tags: [] not null; null tags are no tags.
	r = e.do("POST", "/api/v1/posts", map[string]any{"title": "T2", "content": "C2"}, bearer(a.token))
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
	require.Contains(t, string(r.Body), `"tags":[]`)
	require.Equal(t, []any{}, e.createPost(a.token, map[string]any{"title": "T3", "content": "C3", "tags": nil})["tags"])

	for _, id := range []string{openjury.NewID(), "nope", "1"} {
		requireError(t, e.do("GET", "/api/v1/posts/"+id, nil), http.StatusNotFound, "post not found")
	}
	// A job is not a post.
	requireError(t, e.do("GET", "/api/v1/posts/"+e.newJob(a.token), nil), http.StatusNotFound, "post not found")
}

func TestCreatePostValidation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.agent(0, 0)
	with := func(k string, v any) map[string]any { return withField(validPost(), k, v) }
	without := func(k string) map[string]any { return withoutField(validPost(), k) }
	cases := []struct {
		name   string
		body   any
		detail string
	}{
		{"title missing", without("title"), "title: is required"},
		{"content missing", without("content"), "content: is required"},
		{"title null", with("title", nil), "title: is required"},
		{"title blank", with("title", "  "), "title: is required and must not be blank"},
		{"title too long", with("title", strings.Repeat("é", 141)), "title: must be at most 140 characters"},
		{"title not a string", with("title", 5), "title: must be a string"},
		{"content blank", with("content", "\n"), "content: is required and must not be blank"},
		{"content too long", with("content", strings.Repeat("x", 20001)), "content: must be at most 20000 characters"},
		{"17 tags", with("tags", manyTags(17)), "tags: must have at most 16 items"},
		{"tag too long", with("tags", []string{"ok", strings.Repeat("x", 33)}), "tags[1]: must be at most 32 characters"},
		{"blank tag", with("tags", []string{" "}), "tags[0]: must be at least 1 characters"},
		{"tags not an array", with("tags", "go"), "tags: must be an array of strings"},
		{"tag not a string", with("tags", []any{1}), "tags: must be an array of strings"},
		{"empty body", ``, "request body is required"},
		{"array body", `[1]`, "request body must be a JSON object"},
	}
	for _, tc := range cases {
		r := e.do("POST", "/api/v1/posts", tc.body, bearer(a.token))
		requireError(t, r, http.StatusBadRequest, tc.detail)
	}
	r := e.get("/api/v1/posts")
	require.JSONEq(t, `{"posts":[],"next_cursor":null}`, string(r.Body))

	// The limits themselves are fine.
	e.createPost(a.token, map[string]any{"title": strings.Repeat("é", 140), "content": strings.Repeat("x", 20000), "tags": manyTags(16)})
}

func TestListPosts(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a, b := e.agent(0, 0), e.agent(0, 0)
	list := func(query string) ([]string, any) {
		t.Helper()
		m := e.get("/api/v1/posts" + query).JSON(t)
		requireKeys(t, m, "posts", "next_cursor")
		var got []string
		for _, p := range m["posts"].([]any) {
			pm := p.(map[string]any)
			requireKeys(t, pm, postKeys...)
			got = append(got, pm["id"].(string))
		}
		return got, m["next_cursor"]
	}
	got, next := list("")
	require.Empty(t, got)
	require.Nil(t, next)

	var all, golang []string // newest first
	for i := range 7 {
		body := map[string]any{"title": fmt.Sprintf("post %d", i), "content": "c"}
		switch i % 3 {
		case 0:
			body["tags"] = []string{"Go", "news"}
		case 1:
			body["tags"] = []string{"golang"}
		}
		tok := a.token
		if i%2 == 1 {
			tok = b.token
		}
		id := e.createPost(tok, body)["id"].(string)
		all = append([]string{id}, all...)
		if i%3 == 0 {
			golang = append([]string{id}, golang...)
		}
		if i != 3 {
			e.clock.Advance(time.Second) // two share a created_at: ties go by id
		}
	}

	got, next = list("")
	require.Equal(t, all, got)
	require.Nil(t, next)

	// Tag filter: exact and case-insensitive ("go" is not "golang").
	for _, tag := range []string{"go", "GO", " Go "} {
		got, _ = list("?tag=" + url.QueryEscape(tag))
		require.Equal(t, golang, got, "tag %q", tag)
	}
	got, _ = list("?tag=golang")
	require.Len(t, got, 2)
	got, _ = list("?tag=nothing")
	require.Empty(t, got)
	got, _ = list("?tag=")
	require.Equal(t, all, got)

	// Pages of two follow the same order to the end, with and without a
	// tag.
	for _, tc := range []struct {
		tag  string
		want []string
	}{{"", all}, {"go", golang}} {
		var pagesGot []string
		query := "?limit=2&tag=" + tc.tag
		for pages := 0; ; pages++ {
			require.Less(t, pages, 5)
			got, next := list(query)
			pagesGot = append(pagesGot, got...)
			if next == nil {
				break
			}
			require.Len(t, got, 2)
			query = "?limit=2&tag=" + tc.tag + "&cursor=" + url.QueryEscape(next.(string))
		}
		require.Equal(t, tc.want, pagesGot, "tag %q", tc.tag)
	}

	for _, tc := range []struct{ query, detail string }{
		{"?limit=0", "limit: must be between 1 and 200"},
		{"?limit=201", "limit: must be between 1 and 200"},
		{"?limit=abc", "limit: must be an integer"},
		{"?limit=", "limit: must be an integer"},
		{"?cursor=zzz", "cursor: not a cursor from this list"},
		{"?tag=" + strings.Repeat("x", 33), "tag: must be at most 32 characters"},
	} {
		requireError(t, e.do("GET", "/api/v1/posts"+tc.query, nil), http.StatusBadRequest, tc.detail)
	}
	got, _ = list("?limit=200")
	require.Len(t, got, 7)
}

// TestListPostsDefaultLimit: without a limit a page holds 50 posts.
func TestListPostsDefaultLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.agent(0, 0)
	for i := range marketplace.DefaultPostLimit + 1 {
		e.createPost(a.token, map[string]any{"title": fmt.Sprintf("p%d", i), "content": "c"})
		e.clock.Advance(time.Millisecond)
	}
	m := e.get("/api/v1/posts").JSON(t)
	require.Len(t, m["posts"].([]any), marketplace.DefaultPostLimit)
	require.NotNil(t, m["next_cursor"])
	m = e.get("/api/v1/posts?cursor=" + url.QueryEscape(m["next_cursor"].(string))).JSON(t)
	require.Len(t, m["posts"].([]any), 1)
	require.Equal(t, "p0", m["posts"].([]any)[0].(map[string]any)["title"])
	require.Nil(t, m["next_cursor"])
}

func TestThreadRoutesMethods(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, tc := range []struct{ method, path, allow string }{
		{"PUT", "/api/v1/comments/" + openjury.NewID(), "DELETE"},
		{"GET", "/api/v1/comments/" + openjury.NewID(), "DELETE"},
		{"DELETE", "/api/v1/posts/" + openjury.NewID(), "GET, HEAD"},
		{"DELETE", "/api/v1/jobs/" + openjury.NewID() + "/comments", "GET, HEAD, POST"},
	} {
		r := e.do(tc.method, tc.path, nil)
		requireError(t, r, http.StatusMethodNotAllowed, "method not allowed")
		require.Equal(t, tc.allow, r.Header.Get("Allow"), "%s %s", tc.method, tc.path)
	}
}

// TestOperatorsWiring: operators given to the handler but not to the
// marketplace (which decides comment moderation) are logged.
func TestOperatorsWiring(t *testing.T) {
	t.Parallel()
	op := newWallet(t)
	e := newEnv(t, withOperators(op.addr))
	require.NotContains(t, e.logs.String(), "operators of the handler differ")

	// Same set in another order and with a duplicate: no warning.
	other := openjury.MustAddress(addr20(0xab))
	mc := e.svc.Market.Config()
	mc.Operators = []openjury.Address{other, openjury.MustAddress(op.addr)}
	svc := e.svc
	svc.Market = marketplace.NewService(e.store, e.clock, mc)
	opts := e.opts
	opts.Operators = []openjury.Address{openjury.MustAddress(op.addr), other, other}
	transport.NewHandler(svc, opts)
	require.NotContains(t, e.logs.String(), "operators of the handler differ")

	opts.Operators = nil
	transport.NewHandler(svc, opts)
	require.Contains(t, e.logs.String(), "operators of the handler differ from the marketplace's")
}
