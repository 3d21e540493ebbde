package web

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/search"
)

// routePages registers the pages.
func (a *app) routePages(mux *http.ServeMux) {
	mux.HandleFunc("GET /{$}", a.jobsPage)
	mux.HandleFunc("GET /jobs/new", func(w http.ResponseWriter, r *http.Request) {
		a.newJobPage(w, r, http.StatusOK, nil, a.viewerOf(r))
	})
	mux.HandleFunc("GET /jobs/{id}", func(w http.ResponseWriter, r *http.Request) {
		a.jobPage(w, r, r.PathValue("id"), http.StatusOK, nil, a.viewerOf(r))
	})
	mux.HandleFunc("GET /submissions/{id}", func(w http.ResponseWriter, r *http.Request) {
		a.submissionPage(w, r, r.PathValue("id"), http.StatusOK, nil, a.viewerOf(r))
	})
	mux.HandleFunc("GET /search", a.searchPage)
	mux.HandleFunc("GET /leaderboard", a.leaderboardPage)
	mux.HandleFunc("GET /agents/{address}", a.profilePage)
	mux.HandleFunc("GET /posts", a.postsPage)
	mux.HandleFunc("GET /posts/new", func(w http.ResponseWriter, r *http.Request) {
		a.newPostPage(w, r, http.StatusOK, nil, a.viewerOf(r))
	})
	mux.HandleFunc("GET /posts/{id}", func(w http.ResponseWriter, r *http.Request) {
		a.postPage(w, r, r.PathValue("id"), http.StatusOK, nil, a.viewerOf(r))
	})
}

// statusFilters are the job list's status filter: the value of the
// status parameter and the list it asks for.
var statusFilters = map[string]marketplace.ListJobsInput{
	"":       {Status: "open"},
	"open":   {Status: "open"},
	"closed": {Status: "all", OnlyClosed: true},
	"all":    {Status: "all"},
}

// jobRow is a job of the list with its submission count. The job is a
// named field, not embedded: a template reaching a promoted field pays a
// reflective search of the embedded structs on every row.
type jobRow struct {
	Job         *marketplace.Job
	Submissions int
	Capped      bool
}

// jobsPage serves the job list: a status filter (open, closed, all), a
// tag filter and, with semantic search on, a search box; pages both ways.
func (a *app) jobsPage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	status := q.Get("status")
	in, ok := statusFilters[status]
	if !ok {
		a.errorPage(w, r, http.StatusBadRequest, "The status filter is open, closed or all.")
		return
	}
	now := a.clock.Now()
	data := map[string]any{"Tag": q.Get("tag"), "Status": status, "Now": now}
	// Without semantic search, q is ignored and the plain list answers.
	if query := strings.TrimSpace(q.Get("q")); query != "" && a.s.Search != nil {
		data["Q"] = query
		res, err := a.s.Search.Search(r.Context(), search.Request{Q: query, Kind: search.KindJob, Limit: jobsPerPage})
		if err != nil {
			a.failPage(w, r, err)
			return
		}
		data["Results"] = res.Results
		a.page(w, r, http.StatusOK, "jobs.html", "Search: "+query, data)
		return
	}
	in.Tag, in.Cursor, in.Limit = q.Get("tag"), q.Get("cursor"), jobsPerPage
	page, err := a.s.Market.ListJobs(r.Context(), in)
	if err != nil {
		a.failPage(w, r, err)
		return
	}
	ids := make([]string, len(page.Jobs))
	for i, j := range page.Jobs {
		ids[i] = j.ID
	}
	counts, err := a.s.Market.SubmissionCounts(r.Context(), ids)
	if err != nil {
		a.failPage(w, r, err)
		return
	}
	rows := make([]jobRow, len(page.Jobs))
	for i, j := range page.Jobs {
		rows[i] = jobRow{Job: j, Submissions: counts[j.ID], Capped: counts[j.ID] >= marketplace.CountCap}
	}
	data["Cards"], data["Pager"] = jobCards(rows, status, now), pagerOf(r.URL, "cursor", page.NextCursor, "")
	title := "Open jobs"
	switch status {
	case "closed":
		title = "Closed jobs"
	case "all":
		title = "All jobs"
	}
	if in.Tag != "" {
		title += " tagged " + in.Tag
	}
	a.page(w, r, http.StatusOK, "jobs.html", title, data)
}

// newJobPage serves the form that posts a job, with st when it was
// refused.
func (a *app) newJobPage(w http.ResponseWriter, r *http.Request, status int, st *formState, me *viewer) {
	cfg := a.s.Market.Config()
	a.page(w, r, status, "newjob.html", "Post a job", map[string]any{"Me": me, "F": st,
		"DefaultWindowHours": int64(cfg.DefaultFinalVoteWindow / time.Hour),
		"DefaultCommitHours": int64(cfg.JuryCommitWindow / time.Hour), "DefaultRevealHours": int64(cfg.JuryRevealWindow / time.Hour)})
}

// subView is a submission as a page shows it.
type subView struct {
	// Submission is named, not embedded (see jobRow).
	Submission *marketplace.Submission
	Title      string
	Thread     []threadItem
	ThreadNext string
	Comments   int
	Winner     bool
	MyVote     bool
	MyFinal    bool
}

// window is where a job's final vote stands at now: "before", "open",
// "ended" (open job) or "closed".
func window(j *marketplace.Job, now time.Time) string {
	switch {
	case j.Status != marketplace.StatusOpen:
		return "closed"
	case now.Before(j.FinalVoteStartsAt):
		return "before"
	case now.Before(j.FinalVoteEndsAt):
		return "open"
	}
	return "ended"
}

// card is what the submission template needs of its page.
type card struct {
	Sub     subView
	Job     *marketplace.Job
	Me      *viewer
	F       *formState
	Window  string
	Actions bool
	Back    string
	Op      bool
	// Thread is the submission's first comments and comment form (on
	// the job's page).
	Thread thread
	// Lone is a submission on its own page: its title is the page's
	// heading (h1), not a card's (h3).
	Lone bool
}

// thread is what the comments template needs: the thread, where replies
// go, and the page to come back to.
type thread struct {
	Items  []threadItem
	Action string
	Back   string
	Me     *viewer
	F      *formState
	Op     bool
	Form   string
	Label  string
	// Next links to the whole discussion when this shows its start.
	Next  string
	Pager pager
	// Fold puts the comment form in a details element.
	Fold bool
}

// jobPage serves a job: its summary, prompt, tallies, a page of
// submissions with their evidence and first comments, its discussion and
// the forms of the viewer's actions; st is a refused form to show again.
func (a *app) jobPage(w http.ResponseWriter, r *http.Request, id string, status int, st *formState, me *viewer) {
	ctx := r.Context()
	q := r.URL.Query()
	in := marketplace.JobViewInput{
		Submissions:   marketplace.ListInput{Limit: subsPerPage, Cursor: q.Get("subs")},
		Comments:      marketplace.ListInput{Limit: commentsPerPage, Cursor: q.Get("comments")},
		ThreadPreview: threadPreview,
	}
	if me != nil {
		in.Viewer = me.Address
	}
	v, err := a.s.Market.JobView(ctx, id, in)
	if err != nil {
		a.failPage(w, r, err)
		return
	}
	j := v.Job
	now := a.clock.Now()
	var myVote, myFinal string
	if v.Vote != nil {
		myVote = v.Vote.SubmissionID
	}
	if v.FinalVote != nil {
		myFinal = v.FinalVote.SubmissionID
	}
	path := jobPath(j.ID, "")
	op := me != nil && a.s.Market.IsOperator(me.Address)
	subs := make([]card, len(v.Submissions.Submissions))
	for i, s := range v.Submissions.Submissions {
		t := v.Threads[s.ID]
		sv := subView{Submission: s, Title: titleOf(s.Content), Thread: threadOf(t.Comments), ThreadNext: t.NextCursor,
			Winner: s.ID == j.WinnerSubmissionID, MyVote: s.ID == myVote, MyFinal: s.ID == myFinal}
		c := card{Sub: sv, Job: j, Me: me, F: st, Window: window(j, now), Actions: true, Back: path, Op: op,
			Thread: thread{Items: sv.Thread, Action: "/app/submissions/" + url.PathEscape(s.ID) + "/comment", Back: path, Me: me, F: st, Op: op,
				Form: "comment-" + s.ID, Label: "Comment on this submission", Fold: true}}
		if t.NextCursor != "" {
			c.Thread.Next = "/submissions/" + url.PathEscape(s.ID) + "#discussion"
		}
		subs[i] = c
	}
	data := map[string]any{
		"Me": me, "F": st, "Job": j, "Subs": subs, "Now": now, "Window": window(j, now),
		"JuryHidden": v.JuryHidden, "Escrow": a.s.Market.EscrowOf(j),
		"Jury":      tallyOf(v.Jury, v.Heads, myVote, j.WinnerSubmissionID, false),
		"Final":     tallyOf(v.Final, v.Heads, myFinal, j.WinnerSubmissionID, true),
		"SubsPager": pagerOf(r.URL, "subs", v.Submissions.NextCursor, "submissions"),
		"Discussion": thread{Items: threadOf(v.Comments.Comments), Action: "/app/jobs/" + url.PathEscape(j.ID) + "/comment",
			Back: path, Me: me, F: st, Op: op, Form: "comment-" + j.ID, Label: "Comment on this job",
			Pager: pagerOf(r.URL, "comments", v.Comments.NextCursor, "discussion")},
		"IsSponsor":     me != nil && me.Address == j.Sponsor,
		"Winner":        v.Heads[j.WinnerSubmissionID],
		"HasWinner":     j.WinnerSubmissionID != "",
		"EvidenceRows":  evidenceRows(st, "submit"),
		"MinStake":      a.s.Market.Config().MinStake,
		"FinalVoteOpen": a.s.Market.Config().FinalVoteOpen,
	}
	if _, ok := v.Heads[j.WinnerSubmissionID]; !ok && j.WinnerSubmissionID != "" {
		if s, err := a.s.Market.Submission(ctx, j.WinnerSubmissionID); err == nil {
			data["Winner"] = marketplace.SubmissionHead{ID: s.ID, JobID: s.JobID, Agent: s.Agent, Head: marketplace.HeadOf(s.Content), CreatedAt: s.CreatedAt}
		}
	}
	if v.Panel != nil {
		data["Panel"] = juryViewOf(v, now)
	}
	// Payouts exist only once a funded job closed.
	if j.PayoutTotal != nil {
		payouts, err := a.s.Market.Payouts(ctx, j.ID, marketplace.PayoutsInput{Limit: payoutsPerPage, Cursor: q.Get("payouts")})
		if err != nil {
			a.failPage(w, r, err)
			return
		}
		data["Payouts"], data["PayoutsPager"] = payouts, pagerOf(r.URL, "payouts", payouts.NextCursor, "payouts")
	}
	a.page(w, r, status, "job.html", j.Title, data)
}

// juryView is a job's jury on its page: the draw, panel and commitments,
// which of its windows are open at the page's time, and the submissions a
// juror may choose from (those of the page).
type juryView struct {
	*marketplace.Jury
	CommitReveal, CommitOpen, RevealOpen bool
	Choices                              []choice
	// MoreChoices: the job has submissions on other pages.
	MoreChoices bool
}

// choice is a submission a juror may commit to, as a list names it.
type choice struct {
	ID, Title string
	Agent     openjury.Address
}

// juryViewOf is the jury of v as its page shows it at now.
func juryViewOf(v *marketplace.JobView, now time.Time) juryView {
	j := v.Job
	jv := juryView{Jury: v.Panel, CommitReveal: j.JuryMode == marketplace.JuryCommitReveal, MoreChoices: v.Submissions.NextCursor != ""}
	if jv.CommitReveal && j.Status == marketplace.StatusOpen && j.JuryCommitEndsAt != nil && j.JuryRevealEndsAt != nil {
		jv.CommitOpen = now.Before(*j.JuryCommitEndsAt)
		jv.RevealOpen = !jv.CommitOpen && now.Before(*j.JuryRevealEndsAt)
	}
	for _, s := range v.Submissions.Submissions {
		jv.Choices = append(jv.Choices, choice{ID: s.ID, Title: titleOf(s.Content), Agent: s.Agent})
	}
	return jv
}

// searchTypes are the search page's kinds, as its select offers them.
var searchTypes = []struct{ Value, Label string }{
	{search.TypeAll, "Everything"}, {"job", "Jobs"}, {"submission", "Submissions"}, {"comment", "Comments"}, {"post", "Posts"},
}

// searchPage serves the search of every kind (jobs, submissions,
// comments, posts) with highlighted snippets, a page at a time; 501 when
// search is off.
func (a *app) searchPage(w http.ResponseWriter, r *http.Request) {
	if a.s.Search == nil {
		a.errorPage(w, r, http.StatusNotImplemented, "Search is not enabled on this server.")
		return
	}
	q := r.URL.Query()
	typ := q.Get("type")
	if typ == "" {
		typ = search.TypeAll
	}
	query := strings.TrimSpace(q.Get("q"))
	data := map[string]any{"Q": query, "Type": typ, "Types": searchTypes, "MaxChars": search.MaxQueryChars}
	title := "Search"
	if query != "" {
		kind, err := search.ParseType(typ)
		if err != nil {
			a.failPage(w, r, err)
			return
		}
		res, err := a.s.Search.Search(r.Context(), search.Request{Q: query, Kind: kind, Limit: search.DefaultLimit, Cursor: q.Get("cursor")})
		if err != nil {
			a.failPage(w, r, err)
			return
		}
		data["Res"], data["Pager"] = res, pagerOf(r.URL, "cursor", res.NextCursor, "")
		title = "Search: " + query
	}
	a.page(w, r, http.StatusOK, "search.html", title, data)
}

// evidenceRows is how many evidence rows the submit form shows: one more
// than were sent back (at least one, at most the limit).
func evidenceRows(st *formState, form string) int {
	n := len(st.List(form, "ev_url"))
	if st.Is(form) && st.Values.Get("more_evidence") != "" {
		n++
	}
	return min(max(n, defaultEvidenceRow), marketplace.MaxEvidence)
}

// submissionPage serves a submission with its whole discussion, a page at
// a time.
func (a *app) submissionPage(w http.ResponseWriter, r *http.Request, id string, status int, st *formState, me *viewer) {
	ctx := r.Context()
	s, err := a.s.Market.Submission(ctx, id)
	if err != nil {
		a.failPage(w, r, err)
		return
	}
	j, err := a.s.Market.Job(ctx, s.JobID)
	if err != nil {
		a.failPage(w, r, err)
		return
	}
	comments, err := a.s.Market.Comments(ctx, marketplace.TargetSubmission, s.ID, marketplace.ListInput{Limit: commentsPerPage, Cursor: r.URL.Query().Get("comments")})
	if err != nil {
		a.failPage(w, r, err)
		return
	}
	path := "/submissions/" + url.PathEscape(s.ID)
	op := me != nil && a.s.Market.IsOperator(me.Address)
	c := card{Sub: subView{Submission: s, Title: titleOf(s.Content), Winner: s.ID == j.WinnerSubmissionID}, Job: j, Me: me, F: st,
		Window: window(j, a.clock.Now()), Back: path, Op: op, Lone: true}
	a.page(w, r, status, "submission.html", titleOf(s.Content), map[string]any{"Me": me, "F": st, "Card": c, "Job": j,
		"Discussion": thread{Items: threadOf(comments.Comments), Action: "/app/submissions/" + url.PathEscape(s.ID) + "/comment",
			Back: path, Me: me, F: st, Op: op, Form: "comment-" + s.ID, Label: "Comment on this submission",
			Pager: pagerOf(r.URL, "comments", comments.NextCursor, "discussion")}})
}

// leaderboardPage serves the reputation leaderboard.
func (a *app) leaderboardPage(w http.ResponseWriter, r *http.Request) {
	page, err := a.s.Market.Leaderboard(r.Context(), marketplace.LeaderboardInput{Limit: leadersPerPage, Cursor: r.URL.Query().Get("cursor")})
	if err != nil {
		a.failPage(w, r, err)
		return
	}
	a.page(w, r, http.StatusOK, "leaderboard.html", "Leaderboard", map[string]any{"Page": page, "Pager": pagerOf(r.URL, "cursor", page.NextCursor, "")})
}

// profileLists are the keys (query parameter, section id) of a profile's
// submissions, jury votes and final votes.
var profileLists = [3]string{"subs", "votes", "finals"}

// profilePage serves an address's profile: reputation and badges, stake,
// AGR with its ledger, and its jobs, submissions, jury votes and final
// votes, each list paged on its own.
func (a *app) profilePage(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	addr, err := openjury.ParseAddress("address", r.PathValue("address"))
	if err != nil {
		a.errorPage(w, r, http.StatusNotFound, "No such address: an address is 0x followed by 40 hexadecimal characters.")
		return
	}
	q := r.URL.Query()
	page := func(key string) marketplace.ListInput {
		return marketplace.ListInput{Limit: profilePerPage, Cursor: q.Get(key)}
	}
	in := marketplace.ProfileInput{Jobs: page("jobs"), Submissions: page(profileLists[0]), Votes: page(profileLists[1]), FinalVotes: page(profileLists[2])}
	// One read: the stake, the AGR balance and its ledger come with the
	// reputation and the lists when the page shows them.
	if a.s.Stake != nil || a.s.AGR != nil {
		ledger := page("ledger")
		in.Ledger = &ledger
	}
	p, err := a.s.Market.Profile(ctx, addr.String(), in)
	if err != nil {
		a.failPage(w, r, err)
		return
	}
	v := profileView{Addr: addr, Me: a.viewerOf(r), Profile: p, MinStake: a.s.Market.Config().MinStake}
	var ledgerNext string
	if acc := p.Account; acc != nil {
		if a.s.Stake != nil {
			v.Stake = &acc.Stake
		}
		if a.s.AGR != nil {
			v.AGR, v.Ledger, ledgerNext = &acc.AGR, acc.Ledger.Entries, acc.Ledger.NextCursor
		}
	}
	for i, l := range []struct{ key, next, fragment string }{{"jobs", p.Jobs.NextCursor, "jobs"},
		{profileLists[0], p.Submissions.NextCursor, profileLists[0]}, {profileLists[1], p.Votes.NextCursor, profileLists[1]},
		{profileLists[2], p.FinalVotes.NextCursor, profileLists[2]}, {"ledger", ledgerNext, "agr"}} {
		v.Pagers[i] = pagerOf(r.URL, l.key, l.next, l.fragment)
	}
	a.page(w, r, http.StatusOK, "profile.html", "Profile "+shortAddr(addr), map[string]any{"Me": v.Me, "Body": profileBody(v, a.clock.Now())})
}

// postsPage serves the community posts, by tag, pages both ways.
func (a *app) postsPage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	page, err := a.s.Market.ListPosts(r.Context(), marketplace.ListPostsInput{Tag: q.Get("tag"), Limit: postsPerPage, Cursor: q.Get("cursor")})
	if err != nil {
		a.failPage(w, r, err)
		return
	}
	a.page(w, r, http.StatusOK, "posts.html", "Posts", map[string]any{"Page": page, "Tag": q.Get("tag"), "Now": a.clock.Now(),
		"Pager": pagerOf(r.URL, "cursor", page.NextCursor, "")})
}

// newPostPage serves the form that writes a post.
func (a *app) newPostPage(w http.ResponseWriter, r *http.Request, status int, st *formState, me *viewer) {
	a.page(w, r, status, "newpost.html", "Write a post", map[string]any{"Me": me, "F": st})
}

// postPage serves a post and its discussion.
func (a *app) postPage(w http.ResponseWriter, r *http.Request, id string, status int, st *formState, me *viewer) {
	p, err := a.s.Market.Post(r.Context(), id)
	if err != nil {
		a.failPage(w, r, err)
		return
	}
	comments, err := a.s.Market.Comments(r.Context(), marketplace.TargetPost, p.ID, marketplace.ListInput{Limit: commentsPerPage, Cursor: r.URL.Query().Get("comments")})
	if err != nil {
		a.failPage(w, r, err)
		return
	}
	path := "/posts/" + url.PathEscape(p.ID)
	title := p.Title
	if p.DeletedAt != nil {
		title = "Deleted post"
	}
	a.page(w, r, status, "post.html", title, map[string]any{"Me": me, "F": st, "Post": p,
		"Discussion": thread{Items: threadOf(comments.Comments), Action: "/app/posts/" + url.PathEscape(p.ID) + "/comment",
			Back: path, Me: me, F: st, Op: me != nil && a.s.Market.IsOperator(me.Address), Form: "comment-" + p.ID, Label: "Comment on this post",
			Pager: pagerOf(r.URL, "comments", comments.NextCursor, "discussion")}})
}
