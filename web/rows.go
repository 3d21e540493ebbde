package web

import (
	"html/template"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/marketplace"
)

// The rows a page repeats (job cards, a profile's lists, ledger rows,
// pagers) are written here in Go rather than by the templates: a template
// pays a reflective lookup or call for every field and function of every
// row, which made most of a list page's time (docs/architecture.md#habits).
// Every value from the data is escaped for its context: text and
// attribute values with html/template's HTML escaper, URL path segments
// and query values percent-encoded first.

// htmlw builds a fragment of HTML.
type htmlw struct{ strings.Builder }

// raw writes s as it is: markup of this file, never data.
func (w *htmlw) raw(s string) { w.WriteString(s) }

// text writes s escaped for HTML text or a quoted attribute value.
func (w *htmlw) text(s string) { w.WriteString(template.HTMLEscapeString(s)) }

// seg writes s as one escaped URL path segment inside an attribute.
func (w *htmlw) seg(s string) { w.text(url.PathEscape(s)) }

// query writes s as an escaped URL query value inside an attribute
// (a space is %20, as html/template writes it).
func (w *htmlw) query(s string) { w.text(strings.ReplaceAll(url.QueryEscape(s), "+", "%20")) }

// int writes n in decimal.
func (w *htmlw) int(n int64) { w.WriteString(strconv.FormatInt(n, 10)) }

// html is the fragment, for a template.
func (w *htmlw) html() template.HTML { return template.HTML(w.String()) }

// when writes t as pages show it (see whenHTML).
func (w *htmlw) when(now, t time.Time) {
	w.raw(`<time datetime="`)
	w.raw(rfc3339(t))
	w.raw(`" title="`)
	w.raw(exactTime(t))
	w.raw(`">`)
	w.text(relTime(now, t))
	w.raw(`</time>`)
}

// addr writes an address as pages show it (see addrHTML).
func (w *htmlw) addr(a openjury.Address) {
	s := a.String()
	w.raw(`<span class="addr"><a href="/agents/`)
	w.text(s)
	w.raw(`" title="`)
	w.text(s)
	w.raw(`">`)
	w.text(shortAddr(a))
	w.raw(`</a><button type="button" class="copy" data-copy="`)
	w.text(s)
	w.raw(`" hidden><span class="vh">Copy address</span></button></span>`)
}

// jobBadges writes a job's status, featured and escrow badges.
func (w *htmlw) jobBadges(j *marketplace.Job, now time.Time) {
	w.raw(`<span class="badges">`)
	if j.Status == marketplace.StatusOpen {
		w.raw(`<span class="badge open">Open</span>`)
	} else {
		w.raw(`<span class="badge closed">Closed</span>`)
	}
	if j.FeaturedUntil != nil && j.FeaturedUntil.After(now) {
		w.raw(`<span class="badge featured">Featured</span>`)
	}
	if e := j.Escrow; e != nil {
		switch e.Status {
		case marketplace.EscrowFunded:
			w.raw(`<span class="badge funded" title="The bounty is held by the escrow contract">Funded `)
			w.text(e.Amount.String())
			w.raw(` USDC</span>`)
		case marketplace.EscrowSettled:
			w.raw(`<span class="badge settled" title="The escrow pays the job's payouts to whoever claims them">Paid out on chain</span>`)
		}
	}
	w.raw(`</span>`)
}

// deadline writes where a job's final vote stands, in words.
func (w *htmlw) deadline(j *marketplace.Job, now time.Time) {
	switch window(j, now) {
	case "closed":
		w.raw("closed")
		if j.ClosedAt != nil {
			w.raw(" ")
			w.when(now, *j.ClosedAt)
		}
	case "before":
		w.raw("final vote opens ")
		w.when(now, j.FinalVoteStartsAt)
	case "open":
		w.raw("final vote closes ")
		w.when(now, j.FinalVoteEndsAt)
	default:
		w.raw("final vote ended ")
		w.when(now, j.FinalVoteEndsAt)
		w.raw(": ready to finalize")
	}
}

// tags writes a job's tags as links to the job list of that tag and
// status; nothing when it has none.
func (w *htmlw) tags(tags []string, status string) {
	if len(tags) == 0 {
		return
	}
	w.raw(`<p class="tags">`)
	for _, t := range tags {
		w.raw(`<a class="tag" href="/?tag=`)
		w.query(t)
		w.raw(`&amp;status=`)
		w.query(status)
		w.raw(`">#`)
		w.text(t)
		w.raw(`</a>`)
	}
	w.raw(`</p>`)
}

// jobLink writes a link to a job named by its title.
func (w *htmlw) jobLink(id, title string) {
	w.raw(`<a href="/jobs/`)
	w.seg(id)
	w.raw(`">`)
	w.text(title)
	w.raw(`</a>`)
}

// subLink writes a link to a submission named by the first line of its
// head, in quotes.
func (w *htmlw) subLink(id, head string) {
	w.raw(`<a href="/submissions/`)
	w.seg(id)
	w.raw(`">“`)
	w.text(titleOf(head))
	w.raw(`”</a>`)
}

// jobCards is the job list's cards; status is the list's status filter,
// kept by the tag links.
func jobCards(rows []jobRow, status string, now time.Time) template.HTML {
	var w htmlw
	w.Grow(1024 * (len(rows) + 1))
	w.raw(`<ul class="cards jobs">`)
	for _, r := range rows {
		j := r.Job
		w.raw(`<li class="card job"><div class="card-head"><h2 class="h3">`)
		w.jobLink(j.ID, j.Title)
		w.raw(`</h2>`)
		w.jobBadges(j, now)
		w.raw(`</div><p class="meta"><strong class="money">`)
		w.text(j.Bounty.String())
		w.raw(` USDC</strong> · `)
		w.int(int64(r.Submissions))
		if r.Capped {
			w.raw("+")
		}
		w.raw(" submission")
		if r.Submissions != 1 {
			w.raw("s")
		}
		w.raw(" · ")
		w.deadline(j, now)
		w.raw(`</p><p class="meta">by `)
		w.addr(j.Sponsor)
		w.raw(` · posted `)
		w.when(now, j.CreatedAt)
		w.raw(`</p>`)
		w.tags(j.Tags, status)
		w.raw(`</li>`)
	}
	if len(rows) == 0 {
		w.raw(`<li class="empty muted">No jobs here yet.</li>`)
	}
	w.raw(`</ul>`)
	return w.html()
}

// noneItem is an empty list's item on a profile.
const noneItem = `<li class="muted">None.</li>`

// sponsoredList writes a profile's list of jobs posted.
func (w *htmlw) sponsoredList(jobs []*marketplace.Job, now time.Time) {
	w.raw(`<ul class="list">`)
	for _, j := range jobs {
		w.raw(`<li>`)
		w.jobLink(j.ID, j.Title)
		w.raw(` `)
		w.jobBadges(j, now)
		w.raw(`<br><span class="meta">`)
		w.text(j.Bounty.String())
		w.raw(` USDC · `)
		w.when(now, j.CreatedAt)
		w.raw(`</span></li>`)
	}
	if len(jobs) == 0 {
		w.raw(noneItem)
	}
	w.raw(`</ul>`)
}

// activityList writes a profile's list of submissions ("subs"), jury
// votes ("votes") or final votes ("finals"), each with its job.
func (w *htmlw) activityList(kind string, items []*marketplace.Activity, now time.Time) {
	w.raw(`<ul class="list">`)
	for _, a := range items {
		w.raw(`<li>`)
		s := a.Submission
		switch {
		case kind == "subs":
			w.subLink(a.ID, s.Head)
			if a.Job.WinnerSubmissionID == a.ID {
				w.raw(` <span class="badge winner">Winner</span>`)
			}
		case kind == "votes" && s.ID == "":
			w.raw(`Revealed: the choice shows when the reveal window ends`)
		default:
			w.raw(`For `)
			w.subLink(s.ID, s.Head)
			w.raw(` by `)
			w.text(shortAddr(s.Agent))
			if a.Job.WinnerSubmissionID == s.ID {
				w.raw(` <span class="badge winner">Won</span>`)
			}
		}
		w.raw(`<br><span class="meta">on `)
		w.jobLink(a.Job.ID, a.Job.Title)
		if kind == "votes" {
			w.raw(` · weight `)
			w.int(a.Weight)
		}
		w.raw(` · `)
		w.when(now, a.CreatedAt)
		w.raw(`</span></li>`)
	}
	if len(items) == 0 {
		w.raw(noneItem)
	}
	w.raw(`</ul>`)
}

// reasonWords says why credits moved in words; a reason this build does
// not know is shown as stored.
func reasonWords(r agr.Reason) string {
	switch r {
	case agr.ReasonWin:
		return "won a job"
	case agr.ReasonBoost:
		return "boosted a job"
	case agr.ReasonDevMint:
		return "minted (development mode)"
	case agr.ReasonJury:
		return "coherent jury vote"
	}
	return string(r)
}

// ledgerRows writes the rows of a profile's AGR ledger table.
func (w *htmlw) ledgerRows(entries []agr.Entry, now time.Time) {
	for _, e := range entries {
		w.raw(`<tr><td>`)
		w.when(now, e.CreatedAt)
		w.raw(`</td><td class="num">`)
		if e.Delta > 0 {
			w.raw("+")
		}
		w.int(e.Delta)
		w.raw(`</td><td>`)
		w.text(reasonWords(e.Reason))
		w.raw(`</td><td>`)
		if e.JobID != "" {
			w.raw(`<a href="/jobs/`)
			w.seg(e.JobID)
			w.raw(`">the job</a>`)
		}
		w.raw(`</td></tr>`)
	}
	if len(entries) == 0 {
		w.raw(`<tr><td colspan="4" class="muted">No entries.</td></tr>`)
	}
}

// pagerHTML is a list's links to its first, previous and next pages;
// nothing when the list has one page.
func pagerHTML(p pager) template.HTML {
	var w htmlw
	w.pager(p)
	return w.html()
}

// pager writes a pagerHTML.
func (w *htmlw) pager(p pager) {
	if p.Prev == "" && p.Next == "" {
		return
	}
	w.raw(`<nav class="pager" aria-label="Pages">`)
	for _, l := range []struct{ href, attrs, label string }{
		{p.First, ``, `« First`}, {p.Prev, ` rel="prev"`, `‹ Previous`}, {p.Next, ` rel="next"`, `Next ›`}} {
		if l.href != "" {
			w.raw(`<a href="`)
			w.text(l.href)
			w.raw(`"`)
			w.raw(l.attrs)
			w.raw(`>`)
			w.raw(l.label)
			w.raw(`</a>`)
		}
	}
	w.raw(`</nav>`)
}
