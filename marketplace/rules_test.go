package marketplace_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest"
)

// TestPublishedLimitsAreEnforced: the limit constants that transport
// publishes (discovery, economy) are the ones the validation tags enforce;
// the edge is accepted and one past it is refused.
func TestPublishedLimitsAreEnforced(t *testing.T) {
	t.Parallel()
	w := newWorld(t, openjurytest.NewDB(t))
	sponsor := w.addr(1)
	seconds := func(d time.Duration) *int64 { s := int64(d / time.Second); return &s }
	tags := func(n, chars int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("%0*d", chars, i)
		}
		return out
	}
	cases := []struct {
		name     string
		edge     func(*marketplace.CreateJobInput)
		pastEdge func(*marketplace.CreateJobInput)
	}{
		{"title", func(in *marketplace.CreateJobInput) { in.Title = strings.Repeat("t", marketplace.MaxTitleChars) },
			func(in *marketplace.CreateJobInput) { in.Title = strings.Repeat("t", marketplace.MaxTitleChars+1) }},
		{"prompt", func(in *marketplace.CreateJobInput) { in.Prompt = strings.Repeat("p", marketplace.MaxPromptChars) },
			func(in *marketplace.CreateJobInput) { in.Prompt = strings.Repeat("p", marketplace.MaxPromptChars+1) }},
		{"tags", func(in *marketplace.CreateJobInput) { in.Tags = tags(marketplace.MaxTags, 2) },
			func(in *marketplace.CreateJobInput) { in.Tags = tags(marketplace.MaxTags+1, 2) }},
		{"tag chars", func(in *marketplace.CreateJobInput) { in.Tags = tags(1, marketplace.MaxTagChars) },
			func(in *marketplace.CreateJobInput) { in.Tags = tags(1, marketplace.MaxTagChars+1) }},
		{"bounty", func(in *marketplace.CreateJobInput) { in.Bounty = marketplace.MaxBounty },
			func(in *marketplace.CreateJobInput) { in.Bounty = marketplace.MaxBounty + 1 }},
		{"min window", func(in *marketplace.CreateJobInput) {
			in.FinalVoteWindowSeconds = seconds(marketplace.MinFinalVoteWindow)
		},
			func(in *marketplace.CreateJobInput) {
				in.FinalVoteWindowSeconds = seconds(marketplace.MinFinalVoteWindow - time.Second)
			}},
		{"max window", func(in *marketplace.CreateJobInput) {
			in.FinalVoteWindowSeconds = seconds(marketplace.MaxFinalVoteWindow)
		},
			func(in *marketplace.CreateJobInput) {
				in.FinalVoteWindowSeconds = seconds(marketplace.MaxFinalVoteWindow + time.Second)
			}},
	}
	for _, tc := range cases {
		in := marketplace.CreateJobInput{Title: "t", Prompt: "p"}
		tc.edge(&in)
		_, err := w.svc.CreateJob(w.ctx, sponsor, in)
		require.NoError(t, err, tc.name)
		in = marketplace.CreateJobInput{Title: "t", Prompt: "p"}
		tc.pastEdge(&in)
		_, err = w.svc.CreateJob(w.ctx, sponsor, in)
		require.Equal(t, openjury.Invalid, openjury.KindOf(err), tc.name)
	}
}

// TestSubmitAndVoteValidation covers the submission and jury vote input
// rules of docs/rules.md; validation comes before any stake or job check.
func TestSubmitAndVoteValidation(t *testing.T) {
	t.Parallel()
	w := newWorld(t, openjurytest.NewDB(t))
	agent := w.addr(2)
	job := openjury.NewID()
	one := func(e marketplace.EvidenceInput) []marketplace.EvidenceInput { return []marketplace.EvidenceInput{e} }
	over := 1.5
	big := map[string]any{"blob": strings.Repeat("x", marketplace.MaxMetadataBytes)}
	cases := []struct {
		in     marketplace.SubmitInput
		detail string
	}{
		{marketplace.SubmitInput{Content: "x"}, "job_id: is required and must not be blank"},
		{marketplace.SubmitInput{JobID: job, Content: " \n"}, "content: is required and must not be blank"},
		{marketplace.SubmitInput{JobID: job, Content: strings.Repeat("c", 20001)}, "content: must be at most 20000 characters"},
		{marketplace.SubmitInput{JobID: job, Content: "x", Evidence: make([]marketplace.EvidenceInput, marketplace.MaxEvidence+1)}, "evidence: must have at most 50 items"},
		{marketplace.SubmitInput{JobID: job, Content: "x", Evidence: one(marketplace.EvidenceInput{SourceURL: "ftp://example.com/x"})}, "evidence[0].source_url: must be an http(s) URL"},
		{marketplace.SubmitInput{JobID: job, Content: "x", Evidence: one(marketplace.EvidenceInput{SourceURL: "https://example.com/" + strings.Repeat("a", 2048)})}, "evidence[0].source_url: must be at most 2048 characters"},
		{marketplace.SubmitInput{JobID: job, Content: "x", Evidence: one(marketplace.EvidenceInput{SnapshotURI: strings.Repeat("u", 4097)})}, "evidence[0].snapshot_uri: must be at most 4096 characters"},
		{marketplace.SubmitInput{JobID: job, Content: "x", Evidence: one(marketplace.EvidenceInput{SnapshotHash: strings.Repeat("h", 257)})}, "evidence[0].snapshot_hash: must be at most 256 characters"},
		{marketplace.SubmitInput{JobID: job, Content: "x", Evidence: one(marketplace.EvidenceInput{Quote: strings.Repeat("q", 4001)})}, "evidence[0].quote: must be at most 4000 characters"},
		{marketplace.SubmitInput{JobID: job, Content: "x", Evidence: one(marketplace.EvidenceInput{Claim: strings.Repeat("c", 4001)})}, "evidence[0].claim: must be at most 4000 characters"},
		{marketplace.SubmitInput{JobID: job, Content: "x", Evidence: one(marketplace.EvidenceInput{Confidence: &over})}, "evidence[0].confidence: must be at most 1"},
		{marketplace.SubmitInput{JobID: job, Content: "x", Evidence: one(marketplace.EvidenceInput{Metadata: big})}, "evidence[0].metadata: must be at most 8 KiB when serialised"},
	}
	for _, tc := range cases {
		_, err := w.svc.Submit(w.ctx, agent, tc.in)
		requireKind(t, err, openjury.Invalid, tc.detail)
	}
	_, err := w.svc.Vote(w.ctx, agent, marketplace.VoteInput{JobID: job, SubmissionID: openjury.NewID(), Review: big})
	requireKind(t, err, openjury.Invalid, "review: must be a JSON object of at most 8 KiB")
	_, err = w.svc.Vote(w.ctx, agent, marketplace.VoteInput{JobID: job})
	requireKind(t, err, openjury.Invalid, "submission_id: is required and must not be blank")
}

// TestClosedJobRefusesFinalVotesAndBoosts: after a close, final votes and
// boosts are 409, and a boost on a closed job debits nothing.
func TestClosedJobRefusesFinalVotesAndBoosts(t *testing.T) {
	t.Parallel()
	w := newWorld(t, openjurytest.NewDB(t))
	sponsor, a, fan := w.addr(1), w.addr(2), w.addr(3)
	w.stake(a, 10)
	w.stake(fan, 10)
	job := w.job(sponsor)
	sub := w.submit(a, job.ID)
	_, err := w.svc.CloseJob(w.ctx, sponsor, job.ID, marketplace.CloseInput{WinnerSubmissionID: sub.ID})
	require.NoError(t, err)

	_, err = w.svc.FinalVote(w.ctx, fan, marketplace.FinalVoteInput{JobID: job.ID, SubmissionID: sub.ID})
	requireKind(t, err, openjury.Conflict, "job is closed")
	_, err = agr.Credit(w.ctx, w.db.AGR(), fan, 10, agr.ReasonDevMint, "", w.clock.Now())
	require.NoError(t, err)
	_, err = w.svc.Boost(w.ctx, fan, job.ID, marketplace.BoostInput{AmountAGR: 5, DurationHours: 1})
	requireKind(t, err, openjury.Conflict, "job is closed")
	st, err := w.db.AGR().Status(w.ctx, fan)
	require.NoError(t, err)
	require.Equal(t, int64(10), st.Balance, "nothing was debited")
}

// TestUnknownReputation: an address with no record reads as score 0,
// level 1, no wins, losses or badges, and reading writes nothing.
func TestUnknownReputation(t *testing.T) {
	t.Parallel()
	w := newWorld(t, openjurytest.NewDB(t))
	stranger := w.addr(7)
	r, err := w.svc.Reputation(w.ctx, stranger.Checksum())
	require.NoError(t, err)
	require.Equal(t, marketplace.Reputation{Address: stranger}, r)
	require.Equal(t, int64(1), marketplace.Level(r.Score))
	require.Empty(t, marketplace.Badges(r))
	page, err := w.svc.Leaderboard(w.ctx, marketplace.LeaderboardInput{})
	require.NoError(t, err)
	require.Empty(t, page.Entries, "the read wrote no row")
	_, err = w.svc.Reputation(w.ctx, "0x1234")
	requireKind(t, err, openjury.Invalid, "address: must be 0x followed by 40 hex digits")
}

// TestFinalVotesNeedStake is the attack of issue "three fresh wallets
// decide a job": by default wallets without stake can neither cast final
// votes nor finalize, so the job stays open; a stake lowered below the
// minimum (a slash) loses the right too. With FinalVoteOpen the same three
// wallets decide it. On both engines.
func TestFinalVotesNeedStake(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		for _, open := range []bool{false, true} {
			w := newWorld(t, db)
			cfg := loopConfig
			cfg.FinalVoteOpen = open
			w.svc = marketplace.NewService(db, w.clock, cfg)
			sponsor, a, b := w.addr(1), w.addr(2), w.addr(3)
			w.stake(a, 10)
			w.stake(b, 10)
			job := w.job(sponsor)
			w.submit(a, job.ID)
			sb := w.submit(b, job.ID)

			fresh := []openjury.Address{w.addr(40), w.addr(41), w.addr(42)}
			if open {
				fresh = []openjury.Address{w.addr(50), w.addr(51), w.addr(52)}
			}
			for _, f := range fresh {
				_, err := w.svc.FinalVote(w.ctx, f, marketplace.FinalVoteInput{JobID: job.ID, SubmissionID: sb.ID})
				if open {
					require.NoError(t, err)
					continue
				}
				requireKind(t, err, openjury.Forbidden, "insufficient stake")
			}
			w.clock.Set(job.FinalVoteEndsAt)
			res, err := w.svc.FinalizeJob(w.ctx, fresh[0], job.ID)
			if !open {
				requireKind(t, err, openjury.Forbidden, "")
				final, err := w.svc.FinalSummary(w.ctx, job.ID)
				require.NoError(t, err)
				require.Empty(t, final, "no final vote was stored")
				j, err := w.svc.Job(w.ctx, job.ID)
				require.NoError(t, err)
				require.Equal(t, marketplace.StatusOpen, j.Status, "the fresh wallets decided nothing")
				continue
			}
			require.NoError(t, err)
			require.Equal(t, sb.ID, res.WinnerSubmissionID, "with the open rule three fresh wallets decide the job")
		}

		// A stake slashed below the minimum loses the right.
		w := newWorld(t, db)
		sponsor, a, voter := w.addr(61), w.addr(62), w.addr(63)
		w.stake(a, 10)
		w.stake(voter, 10)
		job := w.job(sponsor)
		sa := w.submit(a, job.ID)
		_, err := w.svc.FinalVote(w.ctx, voter, marketplace.FinalVoteInput{JobID: job.ID, SubmissionID: sa.ID})
		require.NoError(t, err)
		w.stake(voter, 9)
		_, err = w.svc.FinalVote(w.ctx, voter, marketplace.FinalVoteInput{JobID: job.ID, SubmissionID: sa.ID})
		requireKind(t, err, openjury.Forbidden, "insufficient stake")
	})
}

// TestFinalVoteErrorOrder: the checks of a final vote come in a
// submission's order: stake (before an unknown job, a closed job or a
// window not open), then the job and the submission (404, 400), then own
// submission (403, even outside the window), then closed (409), then the
// window (409).
func TestFinalVoteErrorOrder(t *testing.T) {
	t.Parallel()
	w := newWorld(t, openjurytest.NewDB(t))
	sponsor, a, staked, poor := w.addr(1), w.addr(2), w.addr(3), w.addr(4)
	w.stake(a, 10)
	w.stake(staked, 10)
	job, other := w.job(sponsor), w.job(sponsor)
	sa, so := w.submit(a, job.ID), w.submit(a, other.ID)
	vote := func(voter openjury.Address, jobID, subID string) error {
		_, err := w.svc.FinalVote(w.ctx, voter, marketplace.FinalVoteInput{JobID: jobID, SubmissionID: subID})
		return err
	}
	requireKind(t, vote(poor, openjury.NewID(), sa.ID), openjury.Forbidden, "insufficient stake")
	requireKind(t, vote(staked, openjury.NewID(), sa.ID), openjury.NotFound, "job not found")
	requireKind(t, vote(staked, job.ID, openjury.NewID()), openjury.NotFound, "submission not found")
	requireKind(t, vote(staked, job.ID, so.ID), openjury.Invalid, "submission_id: not a submission of this job")
	requireKind(t, vote(poor, job.ID, so.ID), openjury.Forbidden, "insufficient stake")

	// Outside the window: stake, then own submission, then the window.
	w.clock.Set(job.FinalVoteEndsAt)
	requireKind(t, vote(poor, job.ID, sa.ID), openjury.Forbidden, "insufficient stake")
	requireKind(t, vote(a, job.ID, sa.ID), openjury.Forbidden, "you may not cast a final vote for your own submission")
	requireKind(t, vote(staked, job.ID, sa.ID), openjury.Conflict, "final voting window has ended")
	w.clock.Set(job.CreatedAt.Add(-time.Second))
	requireKind(t, vote(staked, job.ID, sa.ID), openjury.Conflict, "final voting has not started")

	// Closed: stake, then own submission, then closed before the window.
	w.clock.Set(job.CreatedAt.Add(time.Minute))
	_, err := w.svc.CloseJob(w.ctx, sponsor, job.ID, marketplace.CloseInput{WinnerSubmissionID: sa.ID})
	require.NoError(t, err)
	requireKind(t, vote(poor, job.ID, sa.ID), openjury.Forbidden, "insufficient stake")
	requireKind(t, vote(a, job.ID, sa.ID), openjury.Forbidden, "you may not cast a final vote for your own submission")
	w.clock.Set(job.FinalVoteEndsAt)
	requireKind(t, vote(staked, job.ID, sa.ID), openjury.Conflict, "job is closed")
}

// TestNULIsInvalid: a NUL character in any text input of the marketplace
// (fields of every input, ids, list parameters) is Invalid naming the
// field, before the database sees it, on both engines (PostgreSQL text
// cannot hold NUL: reaching it was a 500), so every entry point answers
// 400. Nothing is written.
func TestNULIsInvalid(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		w := newWorld(t, db)
		sponsor, a, voter := w.addr(1), w.addr(2), w.addr(3)
		w.stake(a, 10)
		w.stake(voter, 10)
		w.score(voter, 10)
		job := w.job(sponsor)
		sub := w.submit(a, job.ID)
		const nul = "a\x00b"
		invalid := func(err error, field string) {
			t.Helper()
			requireKind(t, err, openjury.Invalid, field+": must not contain NUL characters")
		}
		ctx := w.ctx
		_, err := w.svc.CreateJob(ctx, sponsor, marketplace.CreateJobInput{Title: nul, Prompt: "p"})
		invalid(err, "title")
		_, err = w.svc.CreateJob(ctx, sponsor, marketplace.CreateJobInput{Title: "t", Prompt: nul})
		invalid(err, "prompt")
		_, err = w.svc.CreateJob(ctx, sponsor, marketplace.CreateJobInput{Title: "t", Prompt: "p", Tags: []string{"ok", nul}})
		invalid(err, "tags[1]")
		_, err = w.svc.Submit(ctx, a, marketplace.SubmitInput{JobID: job.ID, Content: nul})
		invalid(err, "content")
		_, err = w.svc.Submit(ctx, a, marketplace.SubmitInput{JobID: job.ID, Content: "c", Evidence: []marketplace.EvidenceInput{{Quote: nul}}})
		invalid(err, "evidence[0].quote")
		_, err = w.svc.Submit(ctx, a, marketplace.SubmitInput{JobID: job.ID, Content: "c", Evidence: []marketplace.EvidenceInput{{Metadata: map[string]any{"k": []any{nul}}}}})
		invalid(err, "evidence[0].metadata.k[0]")
		_, err = w.svc.Submit(ctx, a, marketplace.SubmitInput{JobID: nul, Content: "c"})
		invalid(err, "job_id")
		_, err = w.svc.Vote(ctx, voter, marketplace.VoteInput{JobID: job.ID, SubmissionID: sub.ID, Review: map[string]any{"note": nul}})
		invalid(err, "review.note")
		_, err = w.svc.FinalVote(ctx, voter, marketplace.FinalVoteInput{JobID: job.ID, SubmissionID: nul})
		invalid(err, "submission_id")
		_, err = w.svc.AddComment(ctx, voter, marketplace.TargetJob, job.ID, marketplace.CommentInput{Content: nul})
		invalid(err, "content")
		_, err = w.svc.AddComment(ctx, voter, marketplace.TargetJob, job.ID, marketplace.CommentInput{Content: "c", ParentID: nul})
		invalid(err, "parent_id")
		_, err = w.svc.AddComment(ctx, voter, marketplace.TargetJob, nul, marketplace.CommentInput{Content: "c"})
		invalid(err, "target_id")
		_, err = w.svc.Comments(ctx, marketplace.TargetSubmission, nul, marketplace.ListInput{})
		invalid(err, "target_id")
		_, err = w.svc.CreatePost(ctx, voter, marketplace.PostInput{Title: "t", Content: nul})
		invalid(err, "content")
		_, err = w.svc.ListJobs(ctx, marketplace.ListJobsInput{Tag: nul})
		invalid(err, "tag")
		_, err = w.svc.ListPosts(ctx, marketplace.ListPostsInput{Tag: nul})
		invalid(err, "tag")
		_, err = w.svc.Job(ctx, nul)
		invalid(err, "job_id")
		_, err = w.svc.Post(ctx, nul)
		invalid(err, "post_id")
		_, err = w.svc.DeleteComment(ctx, voter, nul)
		invalid(err, "comment_id")
		_, err = w.svc.Boost(ctx, voter, nul, marketplace.BoostInput{AmountAGR: 1, DurationHours: 1})
		invalid(err, "job_id")
		_, err = w.svc.Submissions(ctx, nul, marketplace.ListInput{})
		invalid(err, "job_id")
		_, err = w.svc.ListJobs(ctx, marketplace.ListJobsInput{Cursor: nul})
		requireKind(t, err, openjury.Invalid, "")
		_, err = w.svc.Reputation(ctx, "0x"+strings.Repeat("0", 39)+"\x00")
		requireKind(t, err, openjury.Invalid, "")

		page, err := w.svc.ListJobs(ctx, marketplace.ListJobsInput{})
		require.NoError(t, err)
		require.Len(t, page.Jobs, 1, "nothing was written")
	})
}
