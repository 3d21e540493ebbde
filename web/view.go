package web

import (
	"fmt"
	"html/template"
	"net/url"
	"strings"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/marketplace"
)

// Page sizes of the app's lists.
const (
	jobsPerPage        = 20
	subsPerPage        = 10
	commentsPerPage    = 50
	threadPreview      = 5
	postsPerPage       = 20
	payoutsPerPage     = 50
	profilePerPage     = 5
	leadersPerPage     = 50
	tallyRowsShown     = marketplace.TallyHeads
	maxTrail           = 20
	maxThreadIndent    = 4
	titleOfHeadChars   = 80
	defaultEvidenceRow = 1
)

// shortAddr shortens an address for reading: 0x1234…abcd (the whole
// address is in the link's title and behind the copy button).
func shortAddr(a openjury.Address) string {
	s := a.String()
	if len(s) < 12 {
		return s
	}
	return s[:6] + "…" + s[len(s)-4:]
}

// exactTime is a time for people, in UTC to the minute.
func exactTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

// rfc3339 is the machine form of a time, for <time datetime>.
func rfc3339(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// relTime says how far t is from now in words: "just now", "5 minutes
// ago", "in 3 hours", "2 days ago".
func relTime(now, t time.Time) string {
	d := t.Sub(now)
	future := d > 0
	if !future {
		d = -d
	}
	var n int64
	var unit string
	switch {
	case d < 45*time.Second:
		return "just now"
	case d < 90*time.Minute:
		n, unit = int64((d+30*time.Second)/time.Minute), "minute"
	case d < 22*time.Hour:
		n, unit = int64((d+30*time.Minute)/time.Hour), "hour"
	case d < 60*24*time.Hour:
		n, unit = int64((d+12*time.Hour)/(24*time.Hour)), "day"
	default:
		return "on " + t.UTC().Format("2 Jan 2006")
	}
	s := fmt.Sprintf("%d %s", n, unit)
	if n != 1 {
		s += "s"
	}
	if future {
		return "in " + s
	}
	return s + " ago"
}

// badgeNames are the reputation badges in words.
var badgeNames = map[string]string{
	marketplace.BadgeFirstSubmission: "First submission",
	marketplace.BadgeFirstWin:        "First win",
	marketplace.BadgeTenWins:         "Ten wins",
	marketplace.BadgeJuror:           "Juror",
}

// roleNames are a payout's roles in words.
var roleNames = map[string]string{anchor.RoleWinner: "winner", anchor.RoleJuror: "juror", anchor.RolePlatform: "platform fee"}

// roleName is a payout's role in words (its code when it has none).
func roleName(code string) string {
	if n, ok := roleNames[code]; ok {
		return n
	}
	return code
}

// badgeName is a badge in words (its code when it has none).
func badgeName(code string) string {
	if n, ok := badgeNames[code]; ok {
		return n
	}
	return code
}

// titleOf is what names a submission, which has no title of its own: the
// first line of its content, cut to a readable length.
func titleOf(head string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(head), "\n")
	line = strings.TrimSpace(line)
	if r := []rune(line); len(r) > titleOfHeadChars {
		return strings.TrimSpace(string(r[:titleOfHeadChars-1])) + "…"
	}
	if line == "" {
		return "(no text)"
	}
	return line
}

// tallyRow is one row of a tally as a page shows it: the submission named
// by its first line and author, its bar, and whether it is the viewer's
// vote or the winner.
type tallyRow struct {
	// Tally is named, not embedded (see jobRow).
	Tally   marketplace.Tally
	Percent int
	Head    marketplace.SubmissionHead
	Known   bool
	Mine    bool
	Winner  bool
}

// tallyView is a tally as a page shows it: its first rows and how many
// more there are.
type tallyView struct {
	Rows  []tallyRow
	More  int
	Final bool
}

// pct scales a tally's weights to the total, in steps of 5 (the
// stylesheet has a class per step: no inline style under the CSP).
func pct(weight, total int64) int {
	if total <= 0 {
		return 0
	}
	return int(weight*20/total) * 5
}

// tallyOf prepares a tally: rows named from heads, the viewer's choice
// (mine, "" for none) and the winner marked, at most tallyRowsShown.
func tallyOf(ts []marketplace.Tally, heads map[string]marketplace.SubmissionHead, mine, winner string, final bool) tallyView {
	var total int64
	for _, t := range ts {
		total += t.Weight
	}
	v := tallyView{Final: final}
	for i, t := range ts {
		if i == tallyRowsShown {
			v.More = len(ts) - i
			break
		}
		h, ok := heads[t.SubmissionID]
		v.Rows = append(v.Rows, tallyRow{Tally: t, Percent: pct(t.Weight, total), Head: h, Known: ok,
			Mine: t.SubmissionID == mine && mine != "", Winner: t.SubmissionID == winner && winner != ""})
	}
	return v
}

// threadItem is a comment in a thread's reading order with its indent
// (the comment is named, not embedded: see jobRow).
type threadItem struct {
	Comment *marketplace.Comment
	Depth   int
	// Orphan is a reply whose parent is not on this page.
	Orphan bool
}

// threadOf orders a page of comments (oldest first) as threads: each
// comment followed by its replies, depth-first, replies indented (at most
// maxThreadIndent steps); a reply whose parent is on another page starts
// a thread of its own, marked.
func threadOf(cs []*marketplace.Comment) []threadItem {
	on := make(map[string]bool, len(cs))
	children := map[string][]*marketplace.Comment{}
	for _, c := range cs {
		on[c.ID] = true
	}
	var roots []*marketplace.Comment
	for _, c := range cs {
		if c.ParentID != "" && on[c.ParentID] && c.ParentID != c.ID {
			children[c.ParentID] = append(children[c.ParentID], c)
		} else {
			roots = append(roots, c)
		}
	}
	out := make([]threadItem, 0, len(cs))
	var walk func(c *marketplace.Comment, depth int)
	walk = func(c *marketplace.Comment, depth int) {
		out = append(out, threadItem{Comment: c, Depth: min(depth, maxThreadIndent), Orphan: depth == 0 && c.ParentID != ""})
		for _, r := range children[c.ID] {
			walk(r, depth+1)
		}
	}
	for _, r := range roots {
		walk(r, 0)
	}
	return out
}

// pager holds the links to a keyset-paged list's previous and next pages.
// A cursor moves forward only, so the way back travels in the link: the
// parameter key+"_back" lists the cursors of the pages before this one
// (the first page has none), at most maxTrail of them; past that, the
// way back ends at the first page.
type pager struct {
	Prev, Next string
	// First is the link to the first page when this is not it.
	First string
}

// trailSep separates the cursors of a way back (cursors are base64url).
const trailSep = "."

// pagerOf builds the pager of the list whose cursor is the query
// parameter key of u, given the list's next cursor ("" on the last page);
// the links keep u's other parameters and end in fragment.
func pagerOf(u *url.URL, key, next, fragment string) pager {
	q := u.Query()
	cur := q.Get(key)
	var trail []string
	if t := q.Get(key + "_back"); t != "" {
		trail = strings.Split(t, trailSep)
	}
	link := func(cursor string, back []string) string {
		v := url.Values{}
		for k, vs := range q {
			v[k] = vs
		}
		v.Del(key)
		v.Del(key + "_back")
		if cursor != "" {
			v.Set(key, cursor)
			if len(back) > 0 {
				v.Set(key+"_back", strings.Join(back, trailSep))
			}
		}
		// The path is escaped: the links are written into pages as
		// they are (pagerHTML).
		s := (&url.URL{Path: u.Path}).EscapedPath()
		if enc := v.Encode(); enc != "" {
			s += "?" + enc
		}
		if fragment != "" {
			s += "#" + fragment
		}
		return s
	}
	var p pager
	if next != "" {
		back := trail
		if cur != "" {
			back = append(trail[:len(trail):len(trail)], cur)
		}
		if len(back) > maxTrail {
			back = back[len(back)-maxTrail:]
		}
		p.Next = link(next, back)
	}
	if cur != "" {
		p.First = link("", nil)
		if len(trail) > 0 {
			p.Prev = link(trail[len(trail)-1], trail[:len(trail)-1])
		} else {
			p.Prev = p.First
		}
	}
	return p
}

// funcs are the templates' functions; "ago" is bound to the app's clock
// by NewHandler.
func funcs() template.FuncMap {
	return template.FuncMap{
		"limits": func() formLimits {
			return formLimits{TitleChars: marketplace.MaxTitleChars, PromptChars: marketplace.MaxPromptChars, ContentChars: marketplace.MaxContentChars,
				BoostAGR: marketplace.MaxBoostAGR, BoostHours: marketplace.MaxBoostHours, Tags: marketplace.MaxTags, TagChars: marketplace.MaxTagChars,
				Evidence: marketplace.MaxEvidence, URLChars: marketplace.MaxSourceURLChars, QuoteChars: marketplace.MaxQuoteChars, ClaimChars: marketplace.MaxClaimChars,
				WindowMinutesMin: int(marketplace.MinFinalVoteWindow / time.Minute), WindowDaysMax: int(marketplace.MaxFinalVoteWindow / (24 * time.Hour)),
				JurySizeMin: marketplace.MinJurySize, JurySizeMax: marketplace.MaxJurySize}
		},
		"short":     shortAddr,
		"exact":     exactTime,
		"rfc3339":   rfc3339,
		"ago":       func(time.Time) string { return "" },
		"when":      func(time.Time) template.HTML { return "" },
		"addr":      addrHTML,
		"phase":     func(*marketplace.Job) string { return "" },
		"featured":  func(*marketplace.Job) bool { return false },
		"jobBadges": func(*marketplace.Job) template.HTML { return "" },
		"pagerHTML": pagerHTML,
		"tags": func(tags []string, status string) template.HTML {
			var w htmlw
			w.tags(tags, status)
			return w.html()
		},
		"mul100":    func(f float64) float64 { return f * 100 },
		"level":     marketplace.Level,
		"badges":    marketplace.Badges,
		"badgeName": badgeName,
		"titleOf":   titleOf,
		"thread":    threadOf,
		"add":       func(a, b int) int { return a + b },
		"pctOf": func(f *float64) string {
			if f == nil {
				return ""
			}
			return fmt.Sprintf("%.0f%%", *f*100)
		},
		"invalid": func(f *formState, form, field, id string) template.HTMLAttr {
			if f.Err(form, field) == "" {
				return ""
			}
			return template.HTMLAttr(fmt.Sprintf(`aria-invalid="true" aria-describedby="%s-err"`, template.HTMLEscapeString(id)))
		},
		"fieldErr": func(f *formState, form, field, id string) fieldError {
			return fieldError{ID: id + "-err", Msg: f.Err(form, field)}
		},
		"evKey": evidenceKey,
		"windowField": func(f *formState, name, id, legend, hint string) windowField {
			return windowField{F: f, Name: name, ID: id, Legend: legend, Hint: hint}
		},
		"seq": func(n int) []int {
			s := make([]int, n)
			for i := range s {
				s[i] = i
			}
			return s
		},
		"okNote":   okNote,
		"usdc":     func(micro uint64) openjury.MicroUSDC { return openjury.MicroUSDC(micro) },
		"roleName": roleName,
		"sameAddr": func(a, b openjury.Address) bool { return a == b && a != "" },
	}
}

// formLimits are the input limits the pages' forms state (maxlength,
// max), from the marketplace's constants.
type formLimits struct {
	TitleChars, PromptChars, ContentChars, BoostAGR, BoostHours, Tags, TagChars int
	Evidence, URLChars, QuoteChars, ClaimChars, WindowMinutesMin, WindowDaysMax int
	JurySizeMin, JurySizeMax                                                    int
}

// windowField is what the window-field template needs: a window's
// number field (name, with its unit in name+"_unit"), its element id,
// legend and hint, and the form state.
type windowField struct {
	F                      *formState
	Name, ID, Legend, Hint string
}

// fieldError is the message shown under a field, with its element id
// (the field's aria-describedby).
type fieldError struct{ ID, Msg string }

// okNotes are the notes a page shows after an action succeeded (the
// redirect's ok parameter): fixed texts, so a link cannot make a page say
// anything else.
var okNotes = map[string]string{
	"posted":    "Your job is posted.",
	"submitted": "Your work is submitted.",
	"voted":     "Your jury vote is recorded.",
	"final":     "Your final vote is recorded.",
	"closed":    "The job is closed with its winner.",
	"finalized": "The job is finalized with the final votes' winner.",
	"boosted":   "The job is boosted.",
	"commented": "Your comment is posted.",
	"deleted":   "The comment is deleted.",
	"post":      "Your post is published.",
	"signedin":  "You are signed in.",
	"committed": "Your commitment is recorded. Reveal it in the reveal window: this browser keeps your choice and salt until then.",
	"revealed":  "Your jury vote is revealed and counted.",
}

// okNote is the note of an ok parameter, "" for none or an unknown one.
func okNote(code string) string { return okNotes[code] }

// addrHTML is an address as pages show it: shortened, linked to its
// profile with the whole address in the title, and a copy button (shown by
// the script). One function rather than a template: pages show many.
func addrHTML(a openjury.Address) template.HTML {
	var w htmlw
	w.addr(a)
	return w.html()
}

// whenHTML is a time as pages show it: relative to now, with the exact
// time (UTC) on hover and the machine form in datetime.
func whenHTML(now, t time.Time) template.HTML {
	var w htmlw
	w.when(now, t)
	return w.html()
}
