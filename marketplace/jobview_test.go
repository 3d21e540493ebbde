package marketplace_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/marketplace"
)

func commentIDs(p marketplace.CommentPage) []string {
	out := make([]string, len(p.Comments))
	for i, c := range p.Comments {
		out[i] = c.ID
	}
	return out
}

// TestJobView: one call reads the job, a page of its submissions, both
// tallies (their leading submissions named even when off the page), a
// page of the job's comments, the first comments of each submission of
// the page (continued by Comments) and the viewer's own votes.
func TestJobView(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		w := newWorld(t, db)
		sponsor, a, b, c, voter := w.addr(1), w.addr(2), w.addr(3), w.addr(4), w.addr(5)
		for _, x := range []openjury.Address{a, b, c, voter} {
			w.stake(x, 10)
		}
		w.score(voter, 10)
		job := w.job(sponsor)
		sa := w.submit(a, job.ID)
		w.clock.Advance(time.Millisecond)
		sb := w.submit(b, job.ID)
		w.clock.Advance(time.Millisecond)
		long := strings.Repeat("ß", marketplace.HeadChars+10)
		sc, err := w.svc.Submit(w.ctx, c, marketplace.SubmitInput{JobID: job.ID, Content: long})
		require.NoError(t, err)
		comment := func(target marketplace.TargetType, id, parent, text string) *marketplace.Comment {
			w.clock.Advance(time.Millisecond)
			cm, err := w.svc.AddComment(w.ctx, b, target, id, marketplace.CommentInput{Content: text, ParentID: parent})
			require.NoError(t, err)
			return cm
		}
		j1 := comment(marketplace.TargetJob, job.ID, "", "on the job")
		j2 := comment(marketplace.TargetJob, job.ID, j1.ID, "a reply")
		t1 := comment(marketplace.TargetSubmission, sa.ID, "", "one")
		t2 := comment(marketplace.TargetSubmission, sa.ID, t1.ID, "two")
		t3 := comment(marketplace.TargetSubmission, sa.ID, "", "three")
		other := comment(marketplace.TargetSubmission, sb.ID, "", "on b")
		_, err = w.svc.DeleteComment(w.ctx, b, other.ID)
		require.NoError(t, err)
		// The jury and final votes go to c's submission, off the first page.
		_, err = w.svc.Vote(w.ctx, voter, marketplace.VoteInput{JobID: job.ID, SubmissionID: sc.ID})
		require.NoError(t, err)
		_, err = w.svc.FinalVote(w.ctx, voter, marketplace.FinalVoteInput{JobID: job.ID, SubmissionID: sc.ID})
		require.NoError(t, err)

		v, err := w.svc.JobView(w.ctx, job.ID, marketplace.JobViewInput{
			Submissions: marketplace.ListInput{Limit: 2}, ThreadPreview: 2, Viewer: voter,
		})
		require.NoError(t, err)
		require.Equal(t, job.ID, v.Job.ID)
		require.Equal(t, job.Prompt, v.Job.Prompt)
		require.Len(t, v.Submissions.Submissions, 2)
		require.Equal(t, sa.ID, v.Submissions.Submissions[0].ID)
		require.NotEmpty(t, v.Submissions.NextCursor)
		require.Equal(t, []string{j1.ID, j2.ID}, commentIDs(v.Comments))
		require.Equal(t, j1.ID, v.Comments.Comments[1].ParentID)

		require.Equal(t, []string{t1.ID, t2.ID}, commentIDs(v.Threads[sa.ID]))
		require.NotEmpty(t, v.Threads[sa.ID].NextCursor, "the thread goes on")
		rest, err := w.svc.Comments(w.ctx, marketplace.TargetSubmission, sa.ID, marketplace.ListInput{Cursor: v.Threads[sa.ID].NextCursor})
		require.NoError(t, err)
		require.Equal(t, []string{t3.ID}, commentIDs(rest), "the preview's cursor continues the submission's comments")
		require.Equal(t, []string{other.ID}, commentIDs(v.Threads[sb.ID]))
		require.Empty(t, v.Threads[sb.ID].Comments[0].Content, "a deleted comment keeps its place, not its content")
		require.Empty(t, v.Threads[sb.ID].NextCursor)

		require.Len(t, v.Jury, 1)
		require.Len(t, v.Final, 1)
		require.False(t, v.JuryHidden)
		require.Nil(t, v.Panel, "an open-mode job without a panel has no jury to show")
		require.Equal(t, marketplace.SubmissionHead{ID: sc.ID, JobID: job.ID, Agent: c, Head: marketplace.HeadOf(long), CreatedAt: sc.CreatedAt},
			v.Heads[sc.ID], "a tallied submission off the page is named")
		require.Len(t, []rune(v.Heads[sc.ID].Head), marketplace.HeadChars)
		require.Equal(t, sa.Content, v.Heads[sa.ID].Head)
		require.NotNil(t, v.Vote)
		require.Equal(t, sc.ID, v.Vote.SubmissionID)
		require.NotNil(t, v.FinalVote)
		require.Equal(t, sc.ID, v.FinalVote.SubmissionID)

		// Page two; an anonymous viewer has no votes.
		v2, err := w.svc.JobView(w.ctx, job.ID, marketplace.JobViewInput{Submissions: marketplace.ListInput{Limit: 2, Cursor: v.Submissions.NextCursor}})
		require.NoError(t, err)
		require.Len(t, v2.Submissions.Submissions, 1)
		require.Equal(t, sc.ID, v2.Submissions.Submissions[0].ID)
		require.Empty(t, v2.Threads[sc.ID].Comments)
		require.Nil(t, v2.Vote)
		require.Nil(t, v2.FinalVote)
		a2, err := w.svc.JobView(w.ctx, job.ID, marketplace.JobViewInput{Viewer: a})
		require.NoError(t, err)
		require.Nil(t, a2.Vote, "an address without votes")

		_, err = w.svc.JobView(w.ctx, openjury.NewID(), marketplace.JobViewInput{})
		requireKind(t, err, openjury.NotFound, "job not found")
		for _, in := range []marketplace.JobViewInput{
			{Submissions: marketplace.ListInput{Cursor: "garbage"}},
			{Comments: marketplace.ListInput{Cursor: "garbage"}},
			{Submissions: marketplace.ListInput{Limit: 201}},
			{ThreadPreview: -1},
		} {
			_, err = w.svc.JobView(w.ctx, job.ID, in)
			requireKind(t, err, openjury.Invalid, "")
		}

		counts, err := w.svc.SubmissionCounts(w.ctx, []string{job.ID, openjury.NewID()})
		require.NoError(t, err)
		require.Equal(t, map[string]int{job.ID: 3}, counts)
		_, err = w.svc.SubmissionCounts(w.ctx, make([]string, marketplace.MaxListLimit+1))
		requireKind(t, err, openjury.Invalid, "job_ids: must have at most 200 items")

		// The closed-only list.
		_, err = w.svc.CloseJob(w.ctx, sponsor, job.ID, marketplace.CloseInput{WinnerSubmissionID: sa.ID})
		require.NoError(t, err)
		open := w.job(sponsor)
		closed, err := w.svc.ListJobs(w.ctx, marketplace.ListJobsInput{OnlyClosed: true})
		require.NoError(t, err)
		require.Equal(t, []string{job.ID}, jobIDs(closed.Jobs))
		all, err := w.svc.ListJobs(w.ctx, marketplace.ListJobsInput{Status: "all"})
		require.NoError(t, err)
		require.Equal(t, []string{open.ID, job.ID}, jobIDs(all.Jobs))
		_, err = w.svc.ListJobs(w.ctx, marketplace.ListJobsInput{Status: "open", OnlyClosed: true})
		requireKind(t, err, openjury.Invalid, "status: open contradicts closed only")
	})
}
