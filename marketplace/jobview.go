package marketplace

import (
	"context"
	"sync"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/internal/cursor"
	"github.com/openjury/openjury/internal/valid"
)

// Limits of a job view (docs/interface.md#the-companion-web-app).
const (
	// DefaultThreadPreview is how many comments of each submission a job
	// view carries unless told otherwise.
	DefaultThreadPreview = 10
	// TallyHeads is how many leading submissions of each tally a job view
	// names (JobView.Heads), besides those of its page.
	TallyHeads = 10
)

// JobViewInput selects what a job view carries: a page of the job's
// submissions (limit 0 means DefaultListLimit, else 1..MaxListLimit), a
// page of the comments on the job (0 means DefaultCommentLimit, else
// 1..MaxCommentLimit), how many comments of each submission of the page
// (0 means DefaultThreadPreview, else 1..MaxCommentLimit) and, when Viewer
// is set, the viewer's own votes.
type JobViewInput struct {
	Submissions   ListInput
	Comments      ListInput
	ThreadPreview int
	Viewer        openjury.Address
}

// JobView is what a reader of a job sees, read in one call that reads the
// job once: the job, a page of its submissions, both tallies, a page of
// the comments on the job, the first comments of each submission of the
// page and, for a job with a jury, its draw, panel and commitments.
type JobView struct {
	Job         *Job
	Submissions SubmissionPage
	// Jury and Final are the jury and final-vote tallies, whole; Jury is
	// empty while JuryHidden.
	Jury, Final []Tally
	// JuryHidden is whether the jury tally is hidden (Job.TalliesHidden:
	// a commit-reveal job before its reveal window ends,
	// docs/rules.md, "Jury integrity").
	JuryHidden bool
	// Panel is the job's jury as Service.Jury returns it, for a job with
	// a jury (Job.HasJury); nil otherwise.
	Panel    *Jury
	Comments CommentPage
	// Threads holds the first page of the comments of each submission of
	// Submissions, by submission id (NextCursor continues it with
	// Comments on the submission).
	Threads map[string]CommentPage
	// Heads names, by id, the submissions of the page and the first
	// TallyHeads submissions of each tally.
	Heads map[string]SubmissionHead
	// Vote and FinalVote are the viewer's current votes on the job; nil
	// without a viewer or a vote.
	Vote      *Vote
	FinalVote *FinalVote
}

// JobView reads what a reader of a job sees (see JobView). Deleted
// comments keep their place with empty content. Errors: NotFound,
// Invalid (limits, cursors).
func (s *Service) JobView(ctx context.Context, id string, in JobViewInput) (*JobView, error) {
	const op = "marketplace.JobView"
	subLimit, err := valid.Limit(op, in.Submissions.Limit, DefaultListLimit, MaxListLimit)
	if err != nil {
		return nil, err
	}
	subAfter, err := cursor.After[Cursor](op, in.Submissions.Cursor)
	if err != nil {
		return nil, err
	}
	comLimit, err := valid.Limit(op, in.Comments.Limit, DefaultCommentLimit, MaxCommentLimit)
	if err != nil {
		return nil, err
	}
	comAfter, err := cursor.After[Cursor](op, in.Comments.Cursor)
	if err != nil {
		return nil, err
	}
	threadLimit, err := valid.Limit(op, in.ThreadPreview, DefaultThreadPreview, MaxCommentLimit)
	if err != nil {
		return nil, err
	}
	job, err := s.Job(ctx, id)
	if err != nil {
		return nil, err
	}
	v := &JobView{Job: job, Threads: map[string]CommentPage{}, Heads: map[string]SubmissionHead{},
		JuryHidden: job.TalliesHidden(openjury.Truncate(s.clock.Now()))}
	// The reads after the job's do not depend on each other: they run
	// side by side (each on its own pooled connection), then the
	// submissions' threads and heads, which need the page and the tallies.
	var subs []*Submission
	var jobComments []*Comment
	reads := []func() error{
		func() (err error) {
			subs, err = s.db.Submissions().Submissions(ctx, job.ID, subLimit+1, subAfter)
			return err
		},
		func() (err error) { v.Final, err = s.db.FinalVotes().FinalTally(ctx, job.ID); return err },
		func() (err error) {
			jobComments, err = s.db.Comments().Comments(ctx, TargetJob, job.ID, comLimit+1, comAfter)
			return err
		},
	}
	if !v.JuryHidden {
		reads = append(reads, func() (err error) { v.Jury, err = s.db.Votes().Tally(ctx, job.ID); return err })
	}
	if job.HasJury() {
		reads = append(reads, func() (err error) { v.Panel, err = s.juryOf(ctx, job); return err })
	}
	if !in.Viewer.IsZero() {
		reads = append(reads,
			func() (err error) {
				if v.Vote, err = s.db.Votes().Vote(ctx, job.ID, in.Viewer); openjury.IsKind(err, openjury.NotFound) {
					v.Vote, err = nil, nil
				}
				return err
			},
			func() (err error) {
				if v.FinalVote, err = s.db.FinalVotes().FinalVote(ctx, job.ID, in.Viewer); openjury.IsKind(err, openjury.NotFound) {
					v.FinalVote, err = nil, nil
				}
				return err
			})
	}
	if err := together(reads...); err != nil {
		return nil, openjury.Wrap(op, err)
	}
	v.Submissions.Submissions, v.Submissions.NextCursor = cursor.Cut(subs, subLimit, func(last *Submission) string {
		return cursor.EncodeTimeID(last.CreatedAt, last.ID)
	})
	v.Comments = commentPage(jobComments, comLimit)
	for _, sub := range v.Submissions.Submissions {
		v.Heads[sub.ID] = SubmissionHead{ID: sub.ID, JobID: sub.JobID, Agent: sub.Agent, Head: HeadOf(sub.Content), CreatedAt: sub.CreatedAt}
	}
	var heads []SubmissionHead
	var threads []*Comment
	err = together(
		func() (err error) { threads, err = s.threads(ctx, v.Submissions.Submissions, threadLimit); return err },
		func() (err error) { heads, err = s.heads(ctx, v); return err },
	)
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	by := map[string][]*Comment{}
	for _, c := range threads {
		by[c.TargetID] = append(by[c.TargetID], c)
	}
	for _, sub := range v.Submissions.Submissions {
		v.Threads[sub.ID] = commentPage(by[sub.ID], threadLimit)
	}
	for _, h := range heads {
		v.Heads[h.ID] = h
	}
	return v, nil
}

// commentPage cuts a read of limit+1 comments into a page, hiding the
// content of deleted ones.
func commentPage(list []*Comment, limit int) CommentPage {
	var p CommentPage
	p.Comments, p.NextCursor = cursor.Cut(list, limit, func(last *Comment) string {
		return cursor.EncodeTimeID(last.CreatedAt, last.ID)
	})
	for _, c := range p.Comments {
		hideDeleted(c)
	}
	return p
}

// threads reads the first limit+1 comments of each of subs in one read.
func (s *Service) threads(ctx context.Context, subs []*Submission, limit int) ([]*Comment, error) {
	if len(subs) == 0 {
		return nil, nil
	}
	ids := make([]string, len(subs))
	for i, sub := range subs {
		ids[i] = sub.ID
	}
	return s.db.Comments().CommentsOf(ctx, TargetSubmission, ids, limit+1)
}

// heads reads, in one read, the heads of the first TallyHeads
// submissions of each of v's tallies that v.Heads does not name yet.
func (s *Service) heads(ctx context.Context, v *JobView) ([]SubmissionHead, error) {
	var missing []string
	seen := map[string]bool{}
	for _, ts := range [][]Tally{v.Jury, v.Final} {
		for _, t := range ts[:min(len(ts), TallyHeads)] {
			if _, ok := v.Heads[t.SubmissionID]; !ok && !seen[t.SubmissionID] {
				seen[t.SubmissionID] = true
				missing = append(missing, t.SubmissionID)
			}
		}
	}
	if len(missing) == 0 {
		return nil, nil
	}
	return s.db.Submissions().SubmissionHeads(ctx, missing)
}

// together runs reads side by side and returns the first error of one,
// once all have returned.
func together(reads ...func() error) error {
	errs := make([]error, len(reads))
	var wg sync.WaitGroup
	for i, read := range reads {
		wg.Go(func() { errs[i] = read() })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
