package marketplace

import (
	"context"

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
// the comments on the job and the first comments of each submission of
// the page.
type JobView struct {
	Job         *Job
	Submissions SubmissionPage
	// Jury and Final are the jury and final-vote tallies, whole.
	Jury, Final []Tally
	Comments    CommentPage
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
	v := &JobView{Job: job, Threads: map[string]CommentPage{}, Heads: map[string]SubmissionHead{}}
	subs, err := s.db.Submissions().Submissions(ctx, job.ID, subLimit+1, subAfter)
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	v.Submissions.Submissions, v.Submissions.NextCursor = cursor.Cut(subs, subLimit, func(last *Submission) string {
		return cursor.EncodeTimeID(last.CreatedAt, last.ID)
	})
	if v.Jury, err = s.db.Votes().Tally(ctx, job.ID); err != nil {
		return nil, openjury.Wrap(op, err)
	}
	if v.Final, err = s.db.FinalVotes().FinalTally(ctx, job.ID); err != nil {
		return nil, openjury.Wrap(op, err)
	}
	comments, err := s.db.Comments().Comments(ctx, TargetJob, job.ID, comLimit+1, comAfter)
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	v.Comments = commentPage(comments, comLimit)
	if err := s.threads(ctx, v, threadLimit); err != nil {
		return nil, openjury.Wrap(op, err)
	}
	if err := s.heads(ctx, v); err != nil {
		return nil, openjury.Wrap(op, err)
	}
	if !in.Viewer.IsZero() {
		if v.Vote, err = s.db.Votes().Vote(ctx, job.ID, in.Viewer); openjury.IsKind(err, openjury.NotFound) {
			v.Vote, err = nil, nil
		}
		if err != nil {
			return nil, openjury.Wrap(op, err)
		}
		if v.FinalVote, err = s.db.FinalVotes().FinalVote(ctx, job.ID, in.Viewer); openjury.IsKind(err, openjury.NotFound) {
			v.FinalVote, err = nil, nil
		}
		if err != nil {
			return nil, openjury.Wrap(op, err)
		}
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

// threads reads the first limit comments of each submission of v's page
// in one read and sets v.Threads.
func (s *Service) threads(ctx context.Context, v *JobView, limit int) error {
	subs := v.Submissions.Submissions
	if len(subs) == 0 {
		return nil
	}
	ids := make([]string, len(subs))
	for i, sub := range subs {
		ids[i] = sub.ID
	}
	list, err := s.db.Comments().CommentsOf(ctx, TargetSubmission, ids, limit+1)
	if err != nil {
		return err
	}
	by := map[string][]*Comment{}
	for _, c := range list {
		by[c.TargetID] = append(by[c.TargetID], c)
	}
	for _, id := range ids {
		v.Threads[id] = commentPage(by[id], limit)
	}
	return nil
}

// heads names the submissions of v's page and the first TallyHeads of
// each tally in v.Heads, reading the heads of those not on the page in
// one read.
func (s *Service) heads(ctx context.Context, v *JobView) error {
	for _, sub := range v.Submissions.Submissions {
		v.Heads[sub.ID] = SubmissionHead{ID: sub.ID, JobID: sub.JobID, Agent: sub.Agent, Head: HeadOf(sub.Content), CreatedAt: sub.CreatedAt}
	}
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
		return nil
	}
	heads, err := s.db.Submissions().SubmissionHeads(ctx, missing)
	if err != nil {
		return err
	}
	for _, h := range heads {
		v.Heads[h.ID] = h
	}
	return nil
}
