package web

import (
	"html/template"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/stake"
)

// profileView is what a profile page shows below the layout's header.
type profileView struct {
	Addr openjury.Address
	// Me is the signed-in viewer, nil when anonymous.
	Me      *viewer
	Profile *marketplace.Profile
	// Stake is nil when the app has no stake service, AGR when it has no
	// AGR service (their parts are then left out).
	Stake    *stake.Status
	MinStake openjury.MicroUSDC
	AGR      *agr.Status
	Ledger   []agr.Entry
	// Pagers are the pagers of the jobs, submissions, jury votes, final
	// votes and the ledger.
	Pagers [5]pager
}

// profileSections are the id and heading of a profile's list sections,
// in the order of profileView.Pagers.
var profileSections = [4]struct{ id, heading string }{
	{"jobs", "Jobs posted"}, {profileLists[0], "Submissions"}, {profileLists[1], "Jury votes"}, {profileLists[2], "Final votes"},
}

// profileBody is a profile page's content, written in Go like the rows
// (rows.go): the page shows some forty values, which a template would
// print through as many reflective calls.
func profileBody(v profileView, now time.Time) template.HTML {
	var w htmlw
	w.Grow(8 << 10)
	addr := v.Addr.String()
	w.raw(`<header class="profile-head"><h1>Profile</h1><p class="addr-full"><code>`)
	w.text(addr)
	w.raw(`</code> <button type="button" class="copy" data-copy="`)
	w.text(addr)
	w.raw(`" hidden><span class="vh">Copy address</span></button>`)
	if v.Me != nil && v.Me.Address == v.Addr && v.Addr != "" {
		w.raw(` <span class="badge mine">This is you</span>`)
	}
	rep := v.Profile.Reputation
	w.raw("</p></header>\n" + `<div class="stats"><div class="stat"><span class="stat-label">Reputation</span><span class="stat-value" id="score">`)
	w.int(rep.Score)
	w.raw(`</span><span class="stat-note">level `)
	w.int(marketplace.Level(rep.Score))
	w.raw("</span></div>\n" + `<div class="stat"><span class="stat-label">Wins · losses</span><span class="stat-value">`)
	w.int(rep.Wins)
	w.raw(` · `)
	w.int(rep.Losses)
	w.raw(`</span><span class="stat-note">`)
	w.int(rep.Submissions)
	w.raw(` job`)
	if rep.Submissions != 1 {
		w.raw("s")
	}
	w.raw(" worked on</span></div>\n")
	if s := v.Stake; s != nil {
		w.raw(`<div class="stat"><span class="stat-label">Stake</span><span class="stat-value">`)
		w.text(s.Staked.String())
		w.raw(` USDC</span><span class="stat-note">`)
		if s.Eligible {
			w.raw(`eligible to submit and vote`)
		} else {
			w.raw(`below the `)
			w.text(v.MinStake.String())
			w.raw(` USDC minimum`)
		}
		w.raw(`</span></div>`)
	}
	w.raw("\n")
	if g := v.AGR; g != nil {
		w.raw(`<div class="stat"><span class="stat-label">AGR</span><span class="stat-value" id="agr-balance">`)
		w.int(g.Balance)
		w.raw(`</span><span class="stat-note">earned `)
		w.int(g.Earned)
		w.raw(` · spent `)
		w.int(g.Spent)
		w.raw(`</span></div>`)
	}
	w.raw("</div>\n" + `<section aria-labelledby="badges-h"><h2 id="badges-h">Badges</h2><p class="badges big">`)
	badges := marketplace.Badges(rep)
	for _, b := range badges {
		w.raw(`<span class="badge award">`)
		w.text(badgeName(b))
		w.raw(`</span>`)
	}
	if len(badges) == 0 {
		w.raw(`<span class="muted">No badges yet.</span>`)
	}
	w.raw("</p></section>\n" + `<div class="grid2 profile-lists">`)
	p := v.Profile
	for i, s := range profileSections {
		if i > 0 {
			w.raw("\n")
		}
		w.raw(`<section id="` + s.id + `" aria-labelledby="` + s.id + `-h"><h2 id="` + s.id + `-h">` + s.heading + `</h2>`)
		switch i {
		case 0:
			w.sponsoredList(p.Jobs.Jobs, now)
		case 1:
			w.activityList(s.id, p.Submissions.Items, now)
		case 2:
			w.activityList(s.id, p.Votes.Items, now)
		default:
			w.activityList(s.id, p.FinalVotes.Items, now)
		}
		w.pager(v.Pagers[i])
		w.raw(`</section>`)
	}
	w.raw("</div>\n")
	if v.AGR != nil {
		w.raw(`<section id="agr" aria-labelledby="agr-h"><h2 id="agr-h">AGR ledger</h2><div class="table-wrap"><table><caption class="vh">AGR ledger, newest first</caption><thead><tr><th scope="col">When</th><th scope="col" class="num">Change</th><th scope="col">Reason</th><th scope="col">Job</th></tr></thead><tbody>` + "\n")
		w.ledgerRows(v.Ledger, now)
		w.raw("\n</tbody></table></div>")
		w.pager(v.Pagers[4])
		w.raw(`</section>`)
	}
	return w.html()
}
