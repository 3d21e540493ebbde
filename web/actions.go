package web

import (
	"context"
	"crypto/hmac"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/transport"
)

// runFunc does a signed-in action: it reads the parsed form and returns
// where to go next (a path of this app), or "" when it answered itself
// (a confirmation step), or an error.
type runFunc func(w http.ResponseWriter, r *http.Request, me *viewer) (string, error)

// backFunc shows a form's page again with st, the form as it was sent and
// why it was refused, answering status.
type backFunc func(w http.ResponseWriter, r *http.Request, me *viewer, status int, st *formState)

// act is one signed-in action: what it does, the form it comes from (its
// id for this request) and how it maps the API's field names to the
// form's, and the page that shows the form again when it is refused.
type act struct {
	form   func(r *http.Request) string
	fields map[string]string
	run    runFunc
	back   backFunc
}

// fieldRefusal is a refusal the app itself words, about one form field.
type fieldRefusal struct {
	Field, Msg string
}

func (e *fieldRefusal) Error() string { return e.Field + ": " + e.Msg }

// refuse returns an Invalid error about field with a message for a
// person.
func refuse(field, msg string) error {
	return &openjury.Error{Kind: openjury.Invalid, Op: "web.form", Detail: field + ": " + msg, Err: &fieldRefusal{Field: field, Msg: msg}}
}

// handle wraps an act as a form POST: it bounds and parses the form,
// requires the session cookie (401 page without one) and its CSRF token
// (403 page when missing or wrong, checked before the token is looked
// up), resolves the caller, spends its per-address budget, runs the act
// and redirects (303) to where it says. A refusal the person can fix is
// shown on the form's own page, next to the field it concerns, with what
// was typed kept, answering the refusal's status; other errors are pages
// with the status of their kind.
func (a *app) handle(ac act) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		if !a.parseForm(w, r) {
			return
		}
		if a.s.Auth == nil {
			a.errorPage(w, r, http.StatusNotImplemented, "Sign-in is not available here.")
			return
		}
		token := sessionToken(r)
		if token == "" {
			a.errorPage(w, r, http.StatusUnauthorized, "Sign in with your wallet first.")
			return
		}
		if got := r.PostForm.Get(CSRFField); got == "" || !hmac.Equal([]byte(got), []byte(csrfToken(token))) {
			a.errorPage(w, r, http.StatusForbidden, "The form is missing its security token or it does not match your session: reload the page and try again.")
			return
		}
		addr, err := a.s.Auth.Authenticate(r.Context(), token)
		if err != nil {
			if openjury.KindOf(err) == openjury.Unauthenticated {
				a.setSession(w, r, "")
				a.errorPage(w, r, http.StatusUnauthorized, "Your session has expired: sign in with your wallet again.")
				return
			}
			a.failPage(w, r, err)
			return
		}
		me := &viewer{Address: addr, CSRF: csrfToken(token)}
		if err := transport.LimitAddress(w, r, addr); err != nil {
			a.refused(w, r, ac, me, err)
			return
		}
		next, err := ac.run(w, r, me)
		switch {
		case err != nil:
			a.refused(w, r, ac, me, err)
		case next != "":
			http.Redirect(w, r, next, http.StatusSeeOther)
		}
	}
}

// parseForm bounds and parses a POST's form and refuses one holding a NUL
// character; false means it answered.
func (a *app) parseForm(w http.ResponseWriter, r *http.Request) bool {
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	if err := r.ParseForm(); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			a.errorPage(w, r, http.StatusRequestEntityTooLarge, "The form is too large.")
			return false
		}
		a.errorPage(w, r, http.StatusBadRequest, "The form could not be read.")
		return false
	}
	for _, vs := range r.PostForm {
		for _, v := range vs {
			if strings.ContainsRune(v, 0) {
				a.errorPage(w, r, http.StatusBadRequest, nulMessage)
				return false
			}
		}
	}
	return true
}

// refused answers an act's error: on the form's page when the person can
// do something about it, else as an error page.
func (a *app) refused(w http.ResponseWriter, r *http.Request, ac act, me *viewer, err error) {
	kind := openjury.KindOf(err)
	status := transport.StatusOf(kind)
	if ac.back == nil || status >= http.StatusInternalServerError || kind == openjury.Unauthenticated {
		a.failPage(w, r, err)
		return
	}
	if kind == openjury.RateLimited {
		w.Header().Set("Retry-After", transport.RetryAfter(err))
	}
	st := a.stateOf(r, ac, err)
	ac.back(w, r, me, status, st)
}

// stateOf is the form state of a refused act: the form as sent (without
// its CSRF token) and the refusal, next to its field when it has one.
func (a *app) stateOf(r *http.Request, ac act, err error) *formState {
	values := url.Values{}
	for k, vs := range r.PostForm {
		if k != CSRFField {
			values[k] = vs
		}
	}
	st := &formState{Form: ac.form(r), Values: values, Errors: map[string]string{}}
	var fr *fieldRefusal
	ref := refusal{}
	if errors.As(err, &fr) {
		ref = refusal(*fr)
	} else {
		ref = a.explain.explain(err, values, ac.fields)
	}
	if ref.Field != "" {
		st.Errors[ref.Field] = ref.Msg
	} else {
		st.Message = ref.Msg
	}
	return st
}

// fixed returns a form id that does not depend on the request.
func fixed(id string) func(*http.Request) string { return func(*http.Request) string { return id } }

// withOK is path with the note of a finished action (the ok parameter)
// and a fragment.
func withOK(path, code, fragment string) string {
	u, err := url.Parse(path)
	if err != nil {
		u = &url.URL{Path: "/"}
	}
	q := u.Query()
	q.Set("ok", code)
	u.RawQuery = q.Encode()
	u.Fragment = fragment
	return u.String()
}

// localPath returns p when it is a path of this app ("/..." but not
// "//..." or "/\..."), else def: a form's back and a sign-in's next
// cannot send anyone to another site.
func localPath(p, def string) string {
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || strings.HasPrefix(p, "/\\") || strings.ContainsAny(p, "\r\n") {
		return def
	}
	return p
}

// jobPath is the page of a job, with an optional fragment.
func jobPath(id, fragment string) string {
	p := "/jobs/" + url.PathEscape(id)
	if fragment != "" {
		p += "#" + fragment
	}
	return p
}

// formInt parses a required whole number of a form.
func formInt(r *http.Request, field, what string) (int64, error) {
	v := strings.TrimSpace(r.PostForm.Get(field))
	if v == "" {
		return 0, refuse(field, "Enter "+what+".")
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, refuse(field, "Enter a whole number, like 24.")
	}
	return n, nil
}

// splitTags reads a comma-separated tags field.
func splitTags(s string) []string {
	var tags []string
	for _, t := range strings.Split(s, ",") {
		if t = strings.TrimSpace(t); t != "" {
			tags = append(tags, t)
		}
	}
	return tags
}

// windowUnits are the units of the final-vote window field.
var windowUnits = map[string]time.Duration{"minutes": time.Minute, "hours": time.Hour, "days": 24 * time.Hour}

// windowSeconds reads an optional window: the number typed in field and
// the unit chosen in field+"_unit", between lo and hi; nil means the
// server's default.
func windowSeconds(r *http.Request, field string, lo, hi time.Duration) (*int64, error) {
	v := strings.TrimSpace(r.PostForm.Get(field))
	if v == "" {
		return nil, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	unit, ok := windowUnits[r.PostForm.Get(field+"_unit")]
	if err != nil || !ok || n < 1 || n > int64(hi/unit) || time.Duration(n)*unit < lo {
		return nil, refuse(field, fmt.Sprintf("Enter a whole number from %s to %d days, or leave it empty for the default.", spell(lo), hi/(24*time.Hour)))
	}
	secs := n * int64(unit/time.Second)
	return &secs, nil
}

// spell says a window's bound in words: "1 minute", "2 hours".
func spell(d time.Duration) string {
	n, unit := int64(d/time.Minute), "minute"
	if d >= time.Hour && d%time.Hour == 0 {
		n, unit = int64(d/time.Hour), "hour"
	}
	if n != 1 {
		unit += "s"
	}
	return fmt.Sprintf("%d %s", n, unit)
}

// jurySize reads the optional panel size; nil means no panel (every
// eligible juror may vote).
func jurySize(r *http.Request) (*int64, error) {
	v := strings.TrimSpace(r.PostForm.Get("jury_size"))
	if v == "" {
		return nil, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return nil, refuse("jury_size", jurySizeWords)
	}
	return &n, nil
}

// juryMode reads the jury mode: the radio's value, "" when none is
// chosen (open, the default).
func juryMode(r *http.Request) string { return strings.TrimSpace(r.PostForm.Get("jury_mode")) }

// routeActions registers the session and the signed-in actions.
func (a *app) routeActions(mux *http.ServeMux) {
	mux.HandleFunc("POST /app/session", a.createSession)
	mux.HandleFunc("POST /app/signout", a.handle(act{form: fixed("signout"), run: func(w http.ResponseWriter, r *http.Request, _ *viewer) (string, error) {
		if err := a.s.Auth.Logout(r.Context(), sessionToken(r)); err != nil {
			return "", err
		}
		a.setSession(w, r, "")
		return "/", nil
	}}))
	jobBack := func(w http.ResponseWriter, r *http.Request, me *viewer, status int, st *formState) {
		a.jobPage(w, r, r.PathValue("id"), status, st, me)
	}
	perSub := func(prefix string) func(*http.Request) string {
		return func(r *http.Request) string { return prefix + r.PostForm.Get("submission_id") }
	}
	mux.HandleFunc("POST /app/jobs", a.handle(act{
		form: fixed("create-job"),
		fields: map[string]string{"title": "title", "prompt": "prompt", "bounty_usdc": "bounty_usdc", "tags": "tags", "final_vote_window_seconds": "window",
			"jury_mode": "jury_mode", "jury_size": "jury_size", "jury_commit_seconds": "jury_commit", "jury_reveal_seconds": "jury_reveal"},
		back: func(w http.ResponseWriter, r *http.Request, me *viewer, status int, st *formState) {
			a.newJobPage(w, r, status, st, me)
		},
		run: a.postJob,
	}))
	mux.HandleFunc("POST /app/jobs/{id}/submit", a.handle(act{
		form: fixed("submit"), fields: map[string]string{"content": "content"}, back: jobBack, run: a.submit,
	}))
	mux.HandleFunc("POST /app/jobs/{id}/vote", a.handle(act{form: perSub("vote-"), back: jobBack,
		run: a.vote("voted", transport.EventJuryVote, func(ctx context.Context, me openjury.Address, job, sub string) error {
			_, err := a.s.Market.Vote(ctx, me, marketplace.VoteInput{JobID: job, SubmissionID: sub})
			return err
		})}))
	mux.HandleFunc("POST /app/jobs/{id}/final-vote", a.handle(act{form: perSub("final-"), back: jobBack,
		run: a.vote("final", transport.EventFinalVote, func(ctx context.Context, me openjury.Address, job, sub string) error {
			_, err := a.s.Market.FinalVote(ctx, me, marketplace.FinalVoteInput{JobID: job, SubmissionID: sub})
			return err
		})}))
	// A commit-reveal job's jury votes: only the commitment comes (the
	// browser keeps the choice and the salt, static/jury.js), then the
	// reveal.
	mux.HandleFunc("POST /app/jobs/{id}/commit", a.handle(act{form: fixed("commit"), back: jobBack,
		fields: map[string]string{"commitment": "commitment"},
		run: func(_ http.ResponseWriter, r *http.Request, me *viewer) (string, error) {
			id := r.PathValue("id")
			if _, err := a.s.Market.Commit(r.Context(), me.Address, marketplace.CommitInput{JobID: id, Commitment: r.PostForm.Get("commitment")}); err != nil {
				return "", err
			}
			transport.CountEvent(r, transport.EventJuryVote)
			return withOK(jobPath(id, ""), "committed", "jury-panel"), nil
		}}))
	mux.HandleFunc("POST /app/jobs/{id}/reveal", a.handle(act{form: fixed("reveal"), back: jobBack,
		fields: map[string]string{"submission_id": "submission_id", "salt": "salt"},
		run: func(_ http.ResponseWriter, r *http.Request, me *viewer) (string, error) {
			id, f := r.PathValue("id"), r.PostForm
			if f.Get("salt") == "" {
				return "", refuse("salt", "Enter the salt you committed with.")
			}
			if _, err := a.s.Market.Reveal(r.Context(), me.Address, marketplace.RevealInput{JobID: id, SubmissionID: f.Get("submission_id"), Salt: f.Get("salt")}); err != nil {
				return "", err
			}
			transport.CountEvent(r, transport.EventJuryVote)
			return withOK(jobPath(id, ""), "revealed", "jury-panel"), nil
		}}))
	mux.HandleFunc("POST /app/jobs/{id}/close", a.handle(act{form: perSub("close-"), back: jobBack, run: a.closeJob}))
	mux.HandleFunc("POST /app/jobs/{id}/finalize", a.handle(act{form: fixed("finalize"), back: jobBack,
		run: func(_ http.ResponseWriter, r *http.Request, me *viewer) (string, error) {
			id := r.PathValue("id")
			if _, err := a.s.Market.FinalizeJob(r.Context(), me.Address, id); err != nil {
				return "", err
			}
			transport.CountEvent(r, transport.EventFinalize)
			return withOK(jobPath(id, ""), "finalized", ""), nil
		}}))
	mux.HandleFunc("POST /app/jobs/{id}/boost", a.handle(act{form: fixed("boost"), back: jobBack,
		fields: map[string]string{"amount_agr": "amount_agr", "duration_hours": "duration_hours"}, run: a.boost}))
	for _, t := range []struct {
		prefix string
		target marketplace.TargetType
		back   func(a *app) backFunc
	}{
		{"/app/jobs/", marketplace.TargetJob, func(a *app) backFunc { return jobBack }},
		{"/app/submissions/", marketplace.TargetSubmission, func(a *app) backFunc {
			return func(w http.ResponseWriter, r *http.Request, me *viewer, status int, st *formState) {
				a.submissionPage(w, r, r.PathValue("id"), status, st, me)
			}
		}},
		{"/app/posts/", marketplace.TargetPost, func(a *app) backFunc {
			return func(w http.ResponseWriter, r *http.Request, me *viewer, status int, st *formState) {
				a.postPage(w, r, r.PathValue("id"), status, st, me)
			}
		}},
	} {
		mux.HandleFunc("POST "+t.prefix+"{id}/comment", a.handle(act{form: commentForm, fields: map[string]string{"content": "content"},
			back: t.back(a), run: a.comment(t.target)}))
	}
	mux.HandleFunc("POST /app/comments/{id}/delete", a.handle(act{form: fixed("delete"), run: a.deleteComment}))
	mux.HandleFunc("POST /app/posts", a.handle(act{
		form:   fixed("create-post"),
		fields: map[string]string{"title": "title", "content": "content", "tags": "tags"},
		back: func(w http.ResponseWriter, r *http.Request, me *viewer, status int, st *formState) {
			a.newPostPage(w, r, status, st, me)
		},
		run: func(_ http.ResponseWriter, r *http.Request, me *viewer) (string, error) {
			f := r.PostForm
			p, err := a.s.Market.CreatePost(r.Context(), me.Address, marketplace.PostInput{Title: f.Get("title"), Content: f.Get("content"), Tags: splitTags(f.Get("tags"))})
			if err != nil {
				return "", err
			}
			return withOK("/posts/"+url.PathEscape(p.ID), "post", ""), nil
		},
	}))
}

// vote is a jury or final vote for the form's submission (cast), counted
// as ev, going back to the submission with the note ok.
func (a *app) vote(ok string, ev transport.Event, cast func(ctx context.Context, me openjury.Address, job, sub string) error) runFunc {
	return func(_ http.ResponseWriter, r *http.Request, me *viewer) (string, error) {
		id, sub := r.PathValue("id"), r.PostForm.Get("submission_id")
		if err := cast(r.Context(), me.Address, id, sub); err != nil {
			return "", err
		}
		transport.CountEvent(r, ev)
		return withOK(jobPath(id, ""), ok, "s-"+sub), nil
	}
}

// commentForm is the id of a comment form: "reply-<parent>" for a reply,
// "comment-<target>" for a new thread.
func commentForm(r *http.Request) string {
	if p := r.PostForm.Get("parent_id"); p != "" {
		return "reply-" + p
	}
	return "comment-" + r.PathValue("id")
}

// postJob posts a job from its form.
func (a *app) postJob(_ http.ResponseWriter, r *http.Request, me *viewer) (string, error) {
	f := r.PostForm
	bounty, err := openjury.ParseUSDC("bounty_usdc", f.Get("bounty_usdc"))
	if err != nil {
		return "", err
	}
	in := marketplace.CreateJobInput{Title: f.Get("title"), Prompt: f.Get("prompt"), Bounty: bounty, Tags: splitTags(f.Get("tags")), JuryMode: juryMode(r)}
	if in.FinalVoteWindowSeconds, err = windowSeconds(r, "window", marketplace.MinFinalVoteWindow, marketplace.MaxFinalVoteWindow); err != nil {
		return "", err
	}
	if in.JurySize, err = jurySize(r); err != nil {
		return "", err
	}
	if in.JuryCommitSeconds, err = windowSeconds(r, "jury_commit", marketplace.MinJuryWindow, marketplace.MaxJuryWindow); err != nil {
		return "", err
	}
	if in.JuryRevealSeconds, err = windowSeconds(r, "jury_reveal", marketplace.MinJuryWindow, marketplace.MaxJuryWindow); err != nil {
		return "", err
	}
	j, err := a.s.Market.CreateJob(r.Context(), me.Address, in)
	if err != nil {
		return "", err
	}
	return withOK(jobPath(j.ID, ""), "posted", ""), nil
}

// evidenceField is the form field of an evidence row's field (repeated
// per row).
var evidenceField = map[string]string{"type": "ev_type", "source_url": "ev_url", "quote": "ev_quote", "claim": "ev_claim", "confidence": "ev_confidence"}

// apiEvidenceField finds the item and field an evidence error names.
var apiEvidenceField = regexp.MustCompile(`^evidence\[(\d+)\]\.([a-z_]+): (.*)$`)

// submit submits work with its evidence rows (rows left empty are
// skipped); "Add an evidence item" (more_evidence) shows the form again
// with one more row instead.
func (a *app) submit(w http.ResponseWriter, r *http.Request, me *viewer) (string, error) {
	f := r.PostForm
	id := r.PathValue("id")
	if f.Get("more_evidence") != "" {
		a.jobPage(w, r, id, http.StatusOK, &formState{Form: "submit", Values: f, Errors: map[string]string{}}, me)
		return "", nil
	}
	var items []marketplace.EvidenceInput
	var rows []int // the form row of each item
	for i := range f["ev_url"] {
		at := func(k string) string {
			if vs := f[k]; i < len(vs) {
				return strings.TrimSpace(vs[i])
			}
			return ""
		}
		e := marketplace.EvidenceInput{Type: at("ev_type"), SourceURL: at("ev_url"), Quote: at("ev_quote"), Claim: at("ev_claim")}
		conf := at("ev_confidence")
		if e.SourceURL == "" && e.Quote == "" && e.Claim == "" && conf == "" {
			continue
		}
		if conf != "" {
			c, err := strconv.ParseFloat(strings.TrimSuffix(conf, "%"), 64)
			if strings.HasSuffix(conf, "%") {
				c /= 100
			}
			if err != nil {
				return "", refuse(evidenceKey(i, "confidence"), "Enter a confidence from 0 to 1, like 0.8.")
			}
			e.Confidence = &c
		}
		items = append(items, e)
		rows = append(rows, i)
	}
	s, err := a.s.Market.Submit(r.Context(), me.Address, marketplace.SubmitInput{JobID: id, Content: f.Get("content"), Evidence: items})
	if err != nil {
		// An item's error names its place among the items sent: show it
		// on its row of the form.
		if m := apiEvidenceField.FindStringSubmatch(openjury.DetailOf(err)); m != nil {
			k, _ := strconv.Atoi(m[1])
			if k < len(rows) {
				ref := a.explain.explain(openjury.E(openjury.Invalid, "web.submit", fmt.Sprintf("evidence[%d].%s: %s", rows[k], m[2], m[3])), f, nil)
				return "", refuse(ref.Field, ref.Msg)
			}
		}
		return "", err
	}
	transport.CountEvent(r, transport.EventSubmission)
	return withOK(jobPath(id, ""), "submitted", "s-"+s.ID), nil
}

// closeJob closes a job with a winner, after a confirmation step: a form
// without confirm=yes gets the confirmation page, which says what closing
// does and sends the same form with it.
func (a *app) closeJob(w http.ResponseWriter, r *http.Request, me *viewer) (string, error) {
	id, sub := r.PathValue("id"), r.PostForm.Get("submission_id")
	if r.PostForm.Get("confirm") != "yes" {
		j, err := a.s.Market.Job(r.Context(), id)
		if err != nil {
			return "", err
		}
		switch {
		case j.Status != marketplace.StatusOpen:
			return "", openjury.E(openjury.Conflict, "web.close", "job is closed")
		case j.Sponsor != me.Address:
			return "", openjury.E(openjury.Forbidden, "web.close", "only the sponsor may close this job")
		}
		s, err := a.s.Market.Submission(r.Context(), sub)
		if err != nil {
			return "", err
		}
		if s.JobID != j.ID {
			return "", refuse("submission_id", "That submission is not part of this job.")
		}
		points := []string{
			"The job closes for good: it takes no more submissions, votes or boosts.",
			fmt.Sprintf("The winner's author gains 10 reputation and a win, and %d AGR.", a.s.Market.Config().AGRMintPerWin),
			"Every other author records a loss.",
			"A snapshot of the job, its submissions, votes and comments is anchored; anyone can verify it.",
		}
		if e := a.s.Market.EscrowOf(j); e != nil && e.Status == marketplace.EscrowFunded {
			points = append(points, fmt.Sprintf("The %s USDC held by the escrow are split among the winner's author, the jurors who voted for the winner and the platform fee; each recipient claims their payout from the escrow.", e.Amount))
		}
		a.page(w, r, http.StatusOK, "confirm.html", "Close this job?", map[string]any{"Me": me,
			"Confirm": confirmation{
				Heading: "Close “" + j.Title + "” with this winner?",
				What:    "“" + titleOf(s.Content) + "” by " + s.Agent.String(),
				Points:  points,
				Action:  "/app/jobs/" + url.PathEscape(j.ID) + "/close", Fields: map[string]string{"submission_id": s.ID, "confirm": "yes"},
				Button: "Close the job with this winner", Cancel: jobPath(j.ID, "s-"+s.ID),
			}})
		return "", nil
	}
	if _, err := a.s.Market.CloseJob(r.Context(), me.Address, id, marketplace.CloseInput{WinnerSubmissionID: sub}); err != nil {
		return "", err
	}
	transport.CountEvent(r, transport.EventSponsorClose)
	return withOK(jobPath(id, ""), "closed", ""), nil
}

// confirmation is a confirmation page: what is about to happen and the
// form that does it.
type confirmation struct {
	Heading, What string
	Points        []string
	Action        string
	Fields        map[string]string
	Button        string
	Cancel        string
	Danger        bool
}

// boost spends AGR to feature a job; a short balance is said next to the
// amount with the balance.
func (a *app) boost(_ http.ResponseWriter, r *http.Request, me *viewer) (string, error) {
	id := r.PathValue("id")
	amount, err := formInt(r, "amount_agr", "how much AGR to spend")
	if err != nil {
		return "", err
	}
	hours, err := formInt(r, "duration_hours", "for how many hours")
	if err != nil {
		return "", err
	}
	if _, err := a.s.Market.Boost(r.Context(), me.Address, id, marketplace.BoostInput{AmountAGR: amount, DurationHours: hours}); err != nil {
		if openjury.KindOf(err) == openjury.PaymentRequired && a.s.AGR != nil {
			if bal, berr := a.s.AGR.Status(r.Context(), me.Address.String()); berr == nil {
				return "", &openjury.Error{Kind: openjury.PaymentRequired, Op: "web.boost", Detail: openjury.DetailOf(err),
					Err: &fieldRefusal{Field: "amount_agr", Msg: fmt.Sprintf("You have %d AGR: this boost needs %d.", bal.Balance, amount)}}
			}
		}
		return "", err
	}
	return withOK(jobPath(id, ""), "boosted", ""), nil
}

// comment writes a comment or a reply on target, then goes back to the
// page it came from (the form's back) at the new comment.
func (a *app) comment(target marketplace.TargetType) runFunc {
	return func(_ http.ResponseWriter, r *http.Request, me *viewer) (string, error) {
		id := r.PathValue("id")
		c, err := a.s.Market.AddComment(r.Context(), me.Address, target, id, marketplace.CommentInput{Content: r.PostForm.Get("content"), ParentID: r.PostForm.Get("parent_id")})
		if err != nil {
			return "", err
		}
		def := map[marketplace.TargetType]string{marketplace.TargetJob: jobPath(id, ""), marketplace.TargetSubmission: "/submissions/" + url.PathEscape(id),
			marketplace.TargetPost: "/posts/" + url.PathEscape(id)}[target]
		return withOK(localPath(r.PostForm.Get("back"), def), "commented", "c-"+c.ID), nil
	}
}

// deleteComment deletes one's own comment after a confirmation step.
func (a *app) deleteComment(w http.ResponseWriter, r *http.Request, me *viewer) (string, error) {
	id := r.PathValue("id")
	back := localPath(r.PostForm.Get("back"), "/")
	if r.PostForm.Get("confirm") != "yes" {
		a.page(w, r, http.StatusOK, "confirm.html", "Delete this comment?", map[string]any{"Me": me,
			"Confirm": confirmation{
				Heading: "Delete this comment?",
				Points:  []string{"It will show as deleted; its replies stay.", "This cannot be undone."},
				Action:  "/app/comments/" + url.PathEscape(id) + "/delete", Fields: map[string]string{"confirm": "yes", "back": back},
				Button: "Delete the comment", Cancel: back + "#c-" + id, Danger: true,
			}})
		return "", nil
	}
	if _, err := a.s.Market.DeleteComment(r.Context(), me.Address, id); err != nil {
		return "", err
	}
	return withOK(back, "deleted", "c-"+id), nil
}
