package web

import (
	"html/template"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/stake"
)

func TestPctScalesToTotalWeight(t *testing.T) {
	require.Equal(t, 75, pct(3, 4))
	require.Equal(t, 25, pct(1, 4))
	require.Equal(t, 0, pct(0, 0))
	require.Equal(t, 30, pct(1, 3), "rounded down to a step of 5")
}

func TestPanicBecomesA500Page(t *testing.T) {
	a := &app{log: slog.New(slog.NewTextHandler(io.Discard, nil)), tmpl: template.Must(pages.Clone())}
	h := secure(cspFor(""), a.recoverPanics(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") })))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	require.Equal(t, http.StatusInternalServerError, rec.Code)
	require.Contains(t, rec.Body.String(), "Something went wrong")
	require.NotContains(t, rec.Body.String(), "boom")
	require.Equal(t, "nosniff", rec.Header().Get("X-Content-Type-Options"))
}

func TestRelTime(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	for d, want := range map[time.Duration]string{
		0: "just now", -30 * time.Second: "just now", -time.Minute: "1 minute ago", -5 * time.Minute: "5 minutes ago",
		-2 * time.Hour: "2 hours ago", 3 * time.Hour: "in 3 hours", -49 * time.Hour: "2 days ago", 24 * time.Hour: "in 1 day",
		-90 * 24 * time.Hour: "on 23 Aug 2026",
	} {
		require.Equal(t, want, relTime(now, now.Add(d)), d)
	}
}

func TestTitleOf(t *testing.T) {
	require.Equal(t, "First line", titleOf("  First line\nsecond"))
	require.Equal(t, "(no text)", titleOf("\n\n"))
	long := strings.Repeat("é", 200)
	got := titleOf(long)
	require.Len(t, []rune(got), titleOfHeadChars)
	require.True(t, strings.HasSuffix(got, "…"))
}

// TestPagerBothWays walks a list forward and back through the links'
// trails: every Previous link leads to the page before, back to the first,
// and the trail is bounded.
func TestPagerBothWays(t *testing.T) {
	link := func(s string) *url.URL {
		u, err := url.Parse(s)
		require.NoError(t, err)
		return u
	}
	p1 := pagerOf(link("/?tag=go"), "cursor", "C2", "")
	require.Empty(t, p1.Prev)
	require.Empty(t, p1.First)
	require.Equal(t, "/?cursor=C2&tag=go", p1.Next)
	p2 := pagerOf(link(p1.Next), "cursor", "C3", "list")
	require.Equal(t, "/?tag=go#list", p2.Prev, "page 2 goes back to the first page")
	require.Equal(t, "/?cursor=C3&cursor_back=C2&tag=go#list", p2.Next)
	p3 := pagerOf(link(p2.Next), "cursor", "", "")
	require.Empty(t, p3.Next, "the last page")
	require.Equal(t, "/?cursor=C2&tag=go", p3.Prev)
	require.Equal(t, "/?tag=go", p3.First)

	// Deep: the trail keeps the last maxTrail cursors.
	u := link("/")
	for i := range 40 {
		p := pagerOf(u, "c", "N"+strings.Repeat("x", i), "")
		u = link(p.Next)
	}
	require.Len(t, strings.Split(u.Query().Get("c_back"), trailSep), maxTrail)
}

func TestThreadOf(t *testing.T) {
	c := func(id, parent string) *marketplace.Comment { return &marketplace.Comment{ID: id, ParentID: parent} }
	// a; b replies to a; c to b; d to a; e replies to a comment not on the
	// page; f is deep.
	items := threadOf([]*marketplace.Comment{c("a", ""), c("b", "a"), c("e", "gone"), c("c", "b"), c("d", "a"),
		c("f1", "c"), c("f2", "f1"), c("f3", "f2")})
	var got []string
	for _, it := range items {
		got = append(got, it.Comment.ID+":"+string(rune('0'+it.Depth)))
	}
	require.Equal(t, []string{"a:0", "b:1", "c:2", "f1:3", "f2:4", "f3:4", "d:1", "e:0"}, got)
	require.True(t, items[len(items)-1].Orphan)
	require.False(t, items[0].Orphan)
}

func TestLocalPath(t *testing.T) {
	for in, want := range map[string]string{
		"/jobs/x?a=1": "/jobs/x?a=1", "": "/", "//evil.example": "/", "https://evil.example/": "/", "/\\evil": "/", "jobs": "/", "/a\r\nSet-Cookie: x": "/",
	} {
		require.Equal(t, want, localPath(in, "/"), in)
	}
}

// TestExplain: the API's refusals in a person's words, next to the form's
// field (evidence rows and tags included), the settings quoted.
func TestExplain(t *testing.T) {
	x := explainer{minStake: 10 * openjury.MicroPerUSDC, minRep: 10}
	fields := map[string]string{"title": "title", "bounty_usdc": "bounty_usdc", "tags": "tags", "amount_agr": "amount_agr"}
	v := url.Values{"title": {strings.Repeat("x", 150)}}
	cases := []struct {
		err   error
		field string
		msg   string
	}{
		{openjury.E(openjury.Invalid, "op", "title: must be at most 140 characters"), "title", "Use at most 140 characters (this has 150)."},
		{openjury.E(openjury.Invalid, "op", "title: is required and must not be blank"), "title", "Give it a title."},
		{openjury.E(openjury.Invalid, "op", "bounty_usdc: must be a number"), "bounty_usdc", "Enter an amount in USDC, like 25 or 12.50."},
		{openjury.E(openjury.Invalid, "op", "tags[3]: must be at most 32 characters"), "tags", "Each tag has 1 to 32 characters."},
		{openjury.E(openjury.Invalid, "op", "evidence[2].source_url: must be an http(s) URL"), "ev2_source_url", "Enter a web address that starts with http:// or https://."},
		{openjury.E(openjury.Forbidden, "op", "insufficient stake"), "", "You need at least 10 USDC staked to do this. Your profile shows your stake."},
		{openjury.E(openjury.Forbidden, "op", "insufficient reputation to vote"), "", "Jury votes need a reputation score of at least 10. Accepted submissions and wins raise it."},
		{openjury.E(openjury.PaymentRequired, "op", "insufficient AGR balance"), "amount_agr", "You do not have enough AGR for this boost."},
		{openjury.E(openjury.Conflict, "op", "something new"), "", "Something new."},
		{openjury.E(openjury.Invalid, "op", "unknown_field: is odd"), "", "Unknown_field: is odd."},
	}
	for _, c := range cases {
		got := x.explain(c.err, v, fields)
		require.Equal(t, refusal{Field: c.field, Msg: c.msg}, got, openjury.DetailOf(c.err))
		require.NotContains(t, got.Msg, "_usdc", "no API field name reaches a person")
	}
}

// TestRowsEscapeHostileText renders the Go-written rows (job cards, a
// profile with its lists and ledger, badges, tags, a pager) from data an attacker
// chose: titles, tags, submission heads, ledger reasons and ids holding
// <script>, quotes, & and URL syntax. The markup must be the very markup
// of harmless data (same elements and attributes, in the same order: no
// tag or attribute injected), the text must be escaped, and the URL
// parts percent-encoded.
func TestRowsEscapeHostileText(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	const hostile = `<script>alert("x")</script> & 'q' " onmouseover="x`
	render := func(s string) string {
		tag, id := "t"+s, "id"+s
		j := &marketplace.Job{ID: id, Title: s, Bounty: 1_500_000, Tags: []string{tag, tag}, Status: marketplace.StatusOpen,
			Sponsor: openjury.MustAddress("0x1111111111111111111111111111111111111111"), CreatedAt: now.Add(-time.Hour),
			FeaturedUntil: ptrTime(now.Add(time.Hour)), FinalVoteStartsAt: now.Add(-time.Hour), FinalVoteEndsAt: now.Add(time.Hour),
			Escrow: &marketplace.JobEscrow{Status: marketplace.EscrowFunded, Amount: 2_000_000}}
		closed := *j
		closed.Status, closed.ClosedAt, closed.Escrow = marketplace.StatusClosed, ptrTime(now), &marketplace.JobEscrow{Status: marketplace.EscrowSettled}
		act := &marketplace.Activity{ID: id, Weight: 3, CreatedAt: now,
			Job:        marketplace.JobHead{ID: id, Title: s, Status: marketplace.StatusOpen, WinnerSubmissionID: id},
			Submission: marketplace.SubmissionHead{ID: id, Agent: j.Sponsor, Head: s + "\nsecond line"}}
		var w htmlw
		w.jobBadges(j, now)
		w.tags(j.Tags, s)
		acts := []*marketplace.Activity{act}
		profile := profileBody(profileView{Addr: j.Sponsor, Stake: &stake.Status{}, AGR: &agr.Status{},
			Profile: &marketplace.Profile{Jobs: marketplace.JobPage{Jobs: []*marketplace.Job{j, &closed}},
				Submissions: marketplace.ActivityPage{Items: acts}, Votes: marketplace.ActivityPage{Items: acts}, FinalVotes: marketplace.ActivityPage{Items: acts}},
			Ledger: []agr.Entry{{Delta: 5, Reason: agr.Reason(s), JobID: id, CreatedAt: now}}}, now)
		return string(jobCards([]jobRow{{Job: j, Submissions: 2}, {Job: &closed, Submissions: 1, Capped: true}}, s, now)) +
			string(profile) + w.String() +
			string(pagerHTML(pagerOf(&url.URL{Path: "/p " + s, RawQuery: url.Values{"tag": {s}, "cursor": {"c1"}, "cursor_back": {"c0"}}.Encode()}, "cursor", "c2", "f")))
	}
	// Text and attribute values hold no < or ", so every <...> is a tag
	// and, with its quoted values cut out, what is left are its name and
	// its attributes' names.
	tags, values := regexp.MustCompile(`<[^>]*>`), regexp.MustCompile(`"[^"]*"`)
	shape := func(html string) []string {
		var out []string
		for _, tag := range tags.FindAllString(html, -1) {
			out = append(out, values.ReplaceAllString(tag, `""`))
		}
		return out
	}
	safe, bad := render("plain"), render(hostile)
	require.Equal(t, shape(safe), shape(bad), "hostile text adds no element or attribute:\n%s", bad)
	require.NotContains(t, strings.ToLower(bad), "<script")
	require.NotContains(t, bad, `" onmouseover`)
	text := template.HTMLEscapeString(hostile)
	require.Contains(t, bad, ">"+text+"</a>", "a title is escaped text")
	require.Contains(t, bad, "“"+text+"”", "a submission's first line is escaped text")
	require.Contains(t, bad, "<td>"+text+"</td>", "a ledger reason is escaped text")
	require.Contains(t, bad, `>#t`+text+`</a>`, "a tag's text is escaped")
	query := strings.ReplaceAll(url.QueryEscape("t"+hostile), "+", "%20")
	require.Contains(t, bad, `href="/?tag=`+query+`&amp;status=`+strings.ReplaceAll(url.QueryEscape(hostile), "+", "%20")+`"`,
		"a tag and the status are percent-encoded query values")
	require.Contains(t, bad, `href="/jobs/`+template.HTMLEscapeString(url.PathEscape("id"+hostile))+`"`, "an id is one escaped path segment")
	require.Contains(t, bad, `<span class="badge funded" title="The bounty is held by the escrow contract">Funded 2 USDC</span>`)
	require.Contains(t, bad, `<span class="badge settled"`)
	require.Contains(t, bad, `<span class="badge featured">Featured</span>`)
	require.Contains(t, bad, `2 submissions · final vote closes <time`)
	require.Contains(t, bad, `1+ submission · closed <time`)
	require.Contains(t, bad, `<a href="/p%20%3Cscript%3Ealert%28%22x%22%29%3C/script%3E%20&amp;%20%27q%27%20%22%20onmouseover=%22x?cursor=c0&amp;tag=%3Cscript%3E`,
		"a pager's link: its path escaped, the query values percent-encoded")
}

func ptrTime(t time.Time) *time.Time { return &t }

// TestLedgerReasonsInWords: the profile's ledger says why credits moved in
// words; a reason it does not know is shown as stored, escaped.
func TestLedgerReasonsInWords(t *testing.T) {
	now := time.Now()
	for reason, want := range map[agr.Reason]string{
		agr.ReasonWin: "won a job", agr.ReasonBoost: "boosted a job",
		agr.ReasonDevMint: "minted (development mode)", agr.ReasonJury: "coherent jury vote",
		"<new>": "&lt;new&gt;",
	} {
		var w htmlw
		w.ledgerRows([]agr.Entry{{Delta: 1, Reason: reason, CreatedAt: now}}, now)
		require.Contains(t, w.String(), "<td>"+want+"</td>", "reason %q", reason)
	}
}
