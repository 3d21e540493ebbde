package web

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/transport"
)

// formState is a form sent back to the person who filled it in: the
// values as typed, and why it was refused, per field and for the whole
// form. A nil *formState is a page shown fresh (no values, no errors).
type formState struct {
	// Form is the id of the form it belongs to.
	Form   string
	Values url.Values
	Errors map[string]string
	// Message is the refusal that concerns no one field.
	Message string
}

// Is reports whether the state belongs to form (an open details element,
// a re-shown step).
func (f *formState) Is(form string) bool { return f != nil && f.Form == form }

// Value is what was typed in field of form, "" otherwise.
func (f *formState) Value(form, field string) string {
	if !f.Is(form) {
		return ""
	}
	return f.Values.Get(field)
}

// ValueOr is Value, or def when the form is shown fresh.
func (f *formState) ValueOr(form, field, def string) string {
	if !f.Is(form) {
		return def
	}
	return f.Values.Get(field)
}

// List is the values typed in the repeated field of form (evidence rows).
func (f *formState) List(form, field string) []string {
	if !f.Is(form) {
		return nil
	}
	return f.Values[field]
}

// At is the i-th value of the repeated field of form, "" past its end.
func (f *formState) At(form, field string, i int) string {
	vs := f.List(form, field)
	if i < len(vs) {
		return vs[i]
	}
	return ""
}

// Err is why field of form was refused, "" when it was not.
func (f *formState) Err(form, field string) string {
	if !f.Is(form) {
		return ""
	}
	return f.Errors[field]
}

// Msg is the refusal of form that concerns no one field.
func (f *formState) Msg(form string) string {
	if !f.Is(form) {
		return ""
	}
	return f.Message
}

// Summary lists every refusal of the state for the page's error summary,
// each with the element to go to.
func (f *formState) Summary() []summaryItem {
	if f == nil {
		return nil
	}
	var out []summaryItem
	if f.Message != "" {
		out = append(out, summaryItem{Target: f.Form, Msg: f.Message})
	}
	for field, msg := range f.Errors {
		out = append(out, summaryItem{Target: f.Form, Msg: msg, Field: field})
	}
	return out
}

// summaryItem is one line of a page's error summary.
type summaryItem struct{ Target, Field, Msg string }

// evidenceKey is the error key of field of the i-th evidence row.
func evidenceKey(i int, field string) string { return fmt.Sprintf("ev%d_%s", i, field) }

// refusal is what a page says about an error a form caused: the field it
// concerns ("" for the whole form) and the words for a person.
type refusal struct {
	Field, Msg string
}

// apiField is the field an Invalid error's detail names: "title: ..." ->
// "title" and the rest; evidence[2].source_url -> "evidence[2].source_url".
var apiField = regexp.MustCompile(`^([a-z_]+(?:\[\d+\])?(?:\.[a-z_]+)?(?:\[\d+\])?): (.*)$`)

// explainer turns the errors of the marketplace and the sign-in into
// words for a person, with the settings the rules quote.
type explainer struct {
	minStake openjury.MicroUSDC
	minRep   int64
}

// fixed are the refusals whose detail is a whole sentence of the rules,
// in a person's words.
func (x explainer) fixed(detail string) (string, bool) {
	m := map[string]string{
		"insufficient stake":                                     fmt.Sprintf("You need at least %s USDC staked to do this. Your profile shows your stake.", x.minStake),
		"insufficient reputation to vote":                        fmt.Sprintf("Jury votes need a reputation score of at least %d. Accepted submissions and wins raise it.", x.minRep),
		"job is closed":                                          "This job is closed: it takes no more submissions, votes or boosts.",
		marketplace.DetailBeingClosed:                            "This job is being closed right now. Reload the page in a moment.",
		"closing lease lost; try again":                          "This job is being closed right now. Reload the page in a moment.",
		"final voting has not started":                           "The final vote has not opened yet.",
		"final voting window has ended":                          "The final-vote window has ended; the job can now be finalized.",
		"final voting window has not ended":                      "The final vote is still open: the job can be finalized once its window ends.",
		"only an address that cast a final vote may finalize":    "Only someone who cast a final vote can finalize this job.",
		"no final votes":                                         "Nobody cast a final vote, so there is no winner to finalize with. The sponsor can still close the job.",
		"the sponsor may not submit to their own job":            "You posted this job, so you cannot submit work to it.",
		"you may not vote for your own submission":               "You cannot vote for your own submission.",
		"you may not cast a final vote for your own submission":  "You cannot cast a final vote for your own submission.",
		"the sponsor may not vote on their own job":              "You posted this job, so you cannot cast jury votes on it.",
		"only the sponsor may close this job":                    "Only the job's sponsor can close it.",
		"insufficient AGR balance":                               "You do not have enough AGR for this boost.",
		"parent comment not found":                               "The comment you replied to no longer exists.",
		"only the author or an operator may delete this comment": "You can only delete your own comments.",
		"submission not found":                                   "That submission does not exist (any more).",
		"job not found":                                          "That job does not exist.",
		"post not found":                                         "That post does not exist.",
		"comment not found":                                      "That comment does not exist.",
		marketplace.DetailNotDrawn:                               "You were not drawn for this job's jury panel: only its drawn jurors vote.",
		marketplace.DetailCommitRequired:                         "This job's jury votes are commit-reveal: commit in the Jury section, then reveal in the reveal window.",
		"commit window has ended":                                "The commit window has ended: a commitment made before it can now be revealed.",
		"reveal window has not started":                          "Reveals open when the commit window ends.",
		"reveal window has ended":                                "The reveal window has ended: a commitment not revealed by then does not count.",
		"no commitment to reveal":                                "You made no commitment on this job, so there is nothing to reveal.",
	}
	msg, ok := m[detail]
	return msg, ok
}

// explain turns err, refused for the form whose values are v, into a
// refusal: the form field it concerns, found through fields (the API's
// field name -> the form's; a field not listed concerns the whole form),
// and the message.
func (x explainer) explain(err error, v url.Values, fields map[string]string) refusal {
	kind := openjury.KindOf(err)
	detail := openjury.DetailOf(err)
	if msg, ok := x.fixed(detail); ok {
		field := ""
		if kind == openjury.PaymentRequired {
			field = fields["amount_agr"]
		}
		return refusal{Field: field, Msg: msg}
	}
	switch kind {
	case openjury.RateLimited:
		if strings.Contains(detail, "comments per minute") {
			return refusal{Msg: fmt.Sprintf("You have written %d comments in the last minute. Wait a moment, then send it again: your text is kept below.", marketplace.CommentsPerMinute)}
		}
		return refusal{Msg: fmt.Sprintf("Too many requests: wait %s seconds, then try again. What you typed is kept.", transport.RetryAfter(err))}
	case openjury.TooLarge:
		return refusal{Msg: "That is too long to send. Shorten it and try again."}
	}
	m := apiField.FindStringSubmatch(detail)
	if m == nil {
		return refusal{Msg: sentence(detail)}
	}
	api, rule := m[1], m[2]
	field, ok := fields[api]
	if !ok {
		// Evidence rows and tags: the row's field, or the tags field.
		if ev := evidencePath.FindStringSubmatch(api); ev != nil {
			i, _ := strconv.Atoi(ev[1])
			field, ok = evidenceKey(i, ev[2]), true
		} else if strings.HasPrefix(api, "tags[") {
			field, ok = fields["tags"]
		}
	}
	if !ok {
		// A field the form does not show (a hidden one): the rule's own
		// words when it has some, for the whole form.
		if msg := x.rule(api, rule, ""); msg != sentence(rule) {
			return refusal{Msg: msg}
		}
		return refusal{Msg: sentence(detail)}
	}
	return refusal{Field: field, Msg: x.rule(api, rule, v.Get(field))}
}

// evidencePath matches the API's path of an evidence item's field.
var evidencePath = regexp.MustCompile(`^evidence\[(\d+)\]\.([a-z_]+)$`)

// ruleNumber finds the number of a length or range rule.
var ruleNumber = regexp.MustCompile(`\d+(?:\.\d+)?`)

// rule words one broken rule of the field api; typed is what was typed in
// it (to say how long it is).
func (x explainer) rule(api, rule, typed string) string {
	n := ruleNumber.FindString(rule)
	switch {
	case strings.HasPrefix(api, "tags["):
		return fmt.Sprintf("Each tag has 1 to %d characters.", marketplace.MaxTagChars)
	case strings.HasPrefix(rule, "is required"):
		switch api {
		case "title":
			return "Give it a title."
		case "prompt":
			return "Say what the work is: the prompt is required."
		case "content":
			return "Write something first."
		case "winner_submission_id", "submission_id":
			return "Choose a submission."
		case "commitment":
			return "Choose a submission: this browser then computes the commitment."
		}
		return "This is required."
	case strings.HasPrefix(rule, "must be at most") && strings.HasSuffix(rule, "characters"):
		return fmt.Sprintf("Use at most %s characters (this has %d).", n, utf8.RuneCountInString(typed))
	case strings.HasPrefix(rule, "must have at most"):
		if strings.HasPrefix(api, "tags") {
			return fmt.Sprintf("Use at most %s tags.", n)
		}
		return fmt.Sprintf("Use at most %s items.", n)
	case rule == "must be an http(s) URL":
		return "Enter a web address that starts with http:// or https://."
	case rule == "must be an RFC 3339 timestamp":
		return "Use a date and time like 2026-11-21T12:00:00Z."
	case rule == "must be a number":
		return "Enter an amount in USDC, like 25 or 12.50."
	case rule == "at most 6 decimals allowed":
		return "USDC amounts have at most 6 decimals."
	case rule == "out of range" || strings.HasPrefix(rule, "must be between 0 and"):
		return fmt.Sprintf("Enter an amount from 0 to %s USDC.", marketplace.MaxBounty)
	case api == "jury_mode":
		return "Choose open votes or commit-reveal."
	case api == "jury_size":
		return jurySizeWords
	case (api == "jury_commit_seconds" || api == "jury_reveal_seconds") && strings.HasPrefix(rule, "only with"):
		return "This window is for a commit-reveal jury only: choose commit-reveal above, or leave it empty."
	case api == "jury_commit_seconds" || api == "jury_reveal_seconds":
		return fmt.Sprintf("Choose a window from %d minute to %d days.", marketplace.MinJuryWindow/time.Minute, marketplace.MaxJuryWindow/(24*time.Hour))
	case api == "final_vote_window_seconds":
		return fmt.Sprintf("Choose a window from %d minute to %d days.", marketplace.MinFinalVoteWindow/time.Minute, marketplace.MaxFinalVoteWindow/(24*time.Hour))
	case strings.HasSuffix(api, "confidence"):
		return "Enter a confidence from 0 to 1, like 0.8."
	case api == "amount_agr":
		return fmt.Sprintf("Enter a whole number of AGR from 1 to %d.", marketplace.MaxBoostAGR)
	case api == "duration_hours":
		return fmt.Sprintf("Enter a whole number of hours from 1 to %d.", marketplace.MaxBoostHours)
	case api == "address" && strings.Contains(rule, "checksum"):
		return "This mixed-case address fails its checksum: check it, or type it in lower case."
	case api == "address":
		return "Enter a wallet address: 0x followed by 40 hexadecimal characters."
	case api == "commitment":
		return "A commitment is 0x followed by 64 hexadecimal digits."
	case api == "salt" && strings.Contains(rule, "do not match"):
		return "This submission and salt do not match your commitment: use the ones kept when you committed (this browser keeps them; the openjury CLI saves them in its salts folder)."
	case api == "salt":
		return "A salt is 0x followed by 64 hexadecimal digits."
	case api == "parent_id":
		return "You can only reply to a comment in the same discussion."
	}
	return sentence(rule)
}

// jurySizeWords is the rule of the panel size in words.
var jurySizeWords = fmt.Sprintf("Enter an odd whole number from %d to %d for a drawn panel, or leave it empty so every eligible juror may vote.",
	marketplace.MinJurySize, marketplace.MaxJurySize)

// sentence makes a rule's text a sentence: capitalised, with a full stop.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return "That was refused."
	}
	r, size := utf8.DecodeRuneInString(s)
	s = string(unicode.ToUpper(r)) + s[size:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}
