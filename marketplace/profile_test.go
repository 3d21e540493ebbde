package marketplace_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/stake"
)

func activityIDs(p marketplace.ActivityPage) []string {
	out := make([]string, len(p.Items))
	for i, a := range p.Items {
		out[i] = a.ID
	}
	return out
}

// TestProfileLists: an address's jobs, submissions, jury votes and final
// votes, newest first, paged, each with the job (and submission) it
// concerns; a changed vote is listed once, as it is now; nothing of
// another address shows.
func TestProfileLists(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		w := newWorld(t, db)
		sponsorA, sponsorB, agent, other, voter := w.addr(1), w.addr(2), w.addr(3), w.addr(4), w.addr(5)
		w.stake(agent, 10)
		w.stake(other, 10)
		w.stake(voter, 10)
		w.score(voter, 25)
		j1 := w.job(sponsorA)
		w.clock.Advance(time.Second)
		j2 := w.job(sponsorA)
		w.clock.Advance(time.Second)
		j3 := w.job(sponsorA)
		jB := w.job(sponsorB)
		s1 := w.submit(agent, j1.ID)
		w.clock.Advance(time.Second)
		s2 := w.submit(agent, j2.ID)
		s3 := w.submit(other, j1.ID)
		w.submit(other, jB.ID)

		jobs, err := w.svc.SponsoredJobs(w.ctx, sponsorA.String(), marketplace.ListInput{Limit: 2})
		require.NoError(t, err)
		require.Equal(t, []string{j3.ID, j2.ID}, jobIDs(jobs.Jobs))
		require.Empty(t, jobs.Jobs[0].Prompt, "a list carries no prompts")
		require.Equal(t, j3.Title, jobs.Jobs[0].Title)
		require.NotEmpty(t, jobs.NextCursor)
		jobs, err = w.svc.SponsoredJobs(w.ctx, sponsorA.String(), marketplace.ListInput{Limit: 2, Cursor: jobs.NextCursor})
		require.NoError(t, err)
		require.Equal(t, []string{j1.ID}, jobIDs(jobs.Jobs))
		require.Empty(t, jobs.NextCursor)

		subs, err := w.svc.AgentSubmissions(w.ctx, agent.String(), marketplace.ListInput{})
		require.NoError(t, err)
		require.Equal(t, []string{s2.ID, s1.ID}, activityIDs(subs))
		require.Equal(t, marketplace.JobHead{ID: j2.ID, Title: j2.Title, Status: marketplace.StatusOpen}, subs.Items[0].Job)
		require.Equal(t, s2.Content, subs.Items[0].Submission.Head)

		// The voter votes for s1, then changes to s3: one entry, for s3.
		v, err := w.svc.Vote(w.ctx, voter, marketplace.VoteInput{JobID: j1.ID, SubmissionID: s1.ID})
		require.NoError(t, err)
		w.clock.Advance(time.Second)
		_, err = w.svc.Vote(w.ctx, voter, marketplace.VoteInput{JobID: j1.ID, SubmissionID: s3.ID})
		require.NoError(t, err)
		votes, err := w.svc.VoterVotes(w.ctx, voter.String(), marketplace.ListInput{})
		require.NoError(t, err)
		require.Equal(t, []string{v.ID}, activityIDs(votes))
		require.Equal(t, s3.ID, votes.Items[0].Submission.ID)
		require.Equal(t, other, votes.Items[0].Submission.Agent)
		require.Equal(t, marketplace.Weight(25), votes.Items[0].Weight)
		require.Equal(t, j1.Title, votes.Items[0].Job.Title)

		fv, err := w.svc.FinalVote(w.ctx, voter, marketplace.FinalVoteInput{JobID: j2.ID, SubmissionID: s2.ID})
		require.NoError(t, err)
		finals, err := w.svc.VoterFinalVotes(w.ctx, voter.String(), marketplace.ListInput{})
		require.NoError(t, err)
		require.Equal(t, []string{fv.ID}, activityIDs(finals))
		require.Equal(t, s2.ID, finals.Items[0].Submission.ID)

		// Profile reads what the lists and the reputation read, page by
		// page.
		two := marketplace.ListInput{Limit: 2}
		p := requireProfileAgrees(t, w, sponsorA, marketplace.ProfileInput{Jobs: two, Submissions: two, Votes: two, FinalVotes: two})
		require.Equal(t, []string{j3.ID, j2.ID}, jobIDs(p.Jobs.Jobs))
		requireProfileAgrees(t, w, sponsorA, marketplace.ProfileInput{Jobs: marketplace.ListInput{Limit: 2, Cursor: p.Jobs.NextCursor}})
		p = requireProfileAgrees(t, w, voter, marketplace.ProfileInput{})
		require.Equal(t, []string{v.ID}, activityIDs(p.Votes))
		require.Equal(t, []string{fv.ID}, activityIDs(p.FinalVotes))
		p = requireProfileAgrees(t, w, agent, marketplace.ProfileInput{Submissions: marketplace.ListInput{Limit: 1}})
		require.Equal(t, []string{s2.ID}, activityIDs(p.Submissions))
		requireProfileAgrees(t, w, agent, marketplace.ProfileInput{Submissions: marketplace.ListInput{Limit: 1, Cursor: p.Submissions.NextCursor}})
		requireProfileAgrees(t, w, w.addr(9), marketplace.ProfileInput{})

		for _, addr := range []openjury.Address{sponsorB, w.addr(9)} {
			none, err := w.svc.VoterVotes(w.ctx, addr.String(), marketplace.ListInput{})
			require.NoError(t, err)
			require.Empty(t, none.Items)
		}

		for _, bad := range []struct {
			addr   string
			in     marketplace.ListInput
			detail string
		}{
			{"nope", marketplace.ListInput{}, "address"},
			{" " + agent.String(), marketplace.ListInput{}, "address"},
			{agent.String(), marketplace.ListInput{Limit: marketplace.MaxProfileLimit + 1}, "limit: must be between 1 and 200"},
			{agent.String(), marketplace.ListInput{Cursor: "garbage"}, "cursor: not a cursor from this list"},
		} {
			_, err := w.svc.AgentSubmissions(w.ctx, bad.addr, bad.in)
			require.Equal(t, openjury.Invalid, openjury.KindOf(err), bad.detail)
			require.True(t, strings.HasPrefix(openjury.DetailOf(err), bad.detail), openjury.DetailOf(err))
			_, err = w.svc.SponsoredJobs(w.ctx, bad.addr, bad.in)
			require.Equal(t, openjury.Invalid, openjury.KindOf(err), bad.detail)
			for _, in := range []marketplace.ProfileInput{{Jobs: bad.in}, {Submissions: bad.in}, {Votes: bad.in}, {FinalVotes: bad.in}} {
				_, err = w.svc.Profile(w.ctx, bad.addr, in)
				require.Equal(t, openjury.Invalid, openjury.KindOf(err), bad.detail)
				require.True(t, strings.HasPrefix(openjury.DetailOf(err), bad.detail), openjury.DetailOf(err))
			}
		}
	})
}

// requireProfileAgrees checks that Profile gives what Reputation and the
// four list methods give for the same pages (the jobs with the fields of
// ProfiledJob), and returns it.
func requireProfileAgrees(t *testing.T, w *world, addr openjury.Address, in marketplace.ProfileInput) *marketplace.Profile {
	t.Helper()
	got, err := w.svc.Profile(w.ctx, addr.String(), in)
	require.NoError(t, err)
	rep, err := w.svc.Reputation(w.ctx, addr.String())
	require.NoError(t, err)
	jobs, err := w.svc.SponsoredJobs(w.ctx, addr.String(), in.Jobs)
	require.NoError(t, err)
	for i, j := range jobs.Jobs {
		jobs.Jobs[i] = marketplace.ProfiledJob(j)
	}
	want := &marketplace.Profile{Reputation: rep, Jobs: jobs}
	for _, l := range []struct {
		list func(context.Context, string, marketplace.ListInput) (marketplace.ActivityPage, error)
		in   marketplace.ListInput
		out  *marketplace.ActivityPage
	}{{w.svc.AgentSubmissions, in.Submissions, &want.Submissions}, {w.svc.VoterVotes, in.Votes, &want.Votes},
		{w.svc.VoterFinalVotes, in.FinalVotes, &want.FinalVotes}} {
		*l.out, err = l.list(w.ctx, addr.String(), l.in)
		require.NoError(t, err)
	}
	if in.Ledger != nil {
		st, err := stake.NewService(w.db.Stake(), w.clock, stake.Config{MinStake: loopConfig.MinStake}).Status(w.ctx, addr.String())
		require.NoError(t, err)
		st.Stake = marketplace.ProfiledStake(st.Stake)
		agrs := agr.NewService(w.db.AGR(), w.clock)
		bal, err := agrs.Status(w.ctx, addr.String())
		require.NoError(t, err)
		ledger, err := agrs.Ledger(w.ctx, agr.LedgerInput{Address: addr.String(), Limit: in.Ledger.Limit, Cursor: in.Ledger.Cursor})
		require.NoError(t, err)
		want.Account = &marketplace.Account{Stake: st, AGR: bal, Ledger: ledger}
	}
	require.Equal(t, want, got)
	return got
}

// TestProfileAccount: with a ledger page, a profile carries the address's
// stake (eligible under the service's minimum or not), AGR balance and a
// page of its ledger, as the stake and AGR services give them, page by
// page; a bad ledger limit or cursor is refused like the AGR service's.
func TestProfileAccount(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		w := newWorld(t, db)
		rich, poor, nobody := w.addr(1), w.addr(2), w.addr(3)
		w.stake(rich, 10)
		w.stake(poor, 9)
		agrs := agr.NewService(db.AGR(), w.clock)
		for range 3 {
			_, err := agrs.DevMint(w.ctx, rich, 5)
			require.NoError(t, err)
			w.clock.Advance(time.Second)
		}
		w.job(rich)

		two := marketplace.ListInput{Limit: 2}
		p := requireProfileAgrees(t, w, rich, marketplace.ProfileInput{Jobs: two, Ledger: &two})
		require.True(t, p.Account.Stake.Eligible)
		require.Equal(t, int64(15), p.Account.AGR.Balance)
		require.Len(t, p.Account.Ledger.Entries, 2)
		require.NotEmpty(t, p.Account.Ledger.NextCursor)
		p = requireProfileAgrees(t, w, rich, marketplace.ProfileInput{Ledger: &marketplace.ListInput{Limit: 2, Cursor: p.Account.Ledger.NextCursor}})
		require.Len(t, p.Account.Ledger.Entries, 1)
		require.Empty(t, p.Account.Ledger.NextCursor)
		p = requireProfileAgrees(t, w, poor, marketplace.ProfileInput{Ledger: &marketplace.ListInput{}})
		require.False(t, p.Account.Stake.Eligible, "below the minimum")
		p = requireProfileAgrees(t, w, nobody, marketplace.ProfileInput{Ledger: &marketplace.ListInput{}})
		require.Equal(t, agr.Status{Address: nobody}, p.Account.AGR)
		require.Empty(t, p.Account.Ledger.Entries)
		require.Nil(t, requireProfileAgrees(t, w, rich, marketplace.ProfileInput{}).Account, "no account unless asked")

		for _, bad := range []struct {
			in     marketplace.ListInput
			detail string
		}{
			{marketplace.ListInput{Limit: agr.MaxLedgerLimit + 1}, "limit: must be between 1 and 200"},
			{marketplace.ListInput{Cursor: "garbage"}, "cursor: not a cursor from this list"},
		} {
			_, err := w.svc.Profile(w.ctx, rich.String(), marketplace.ProfileInput{Ledger: &bad.in})
			require.Equal(t, openjury.Invalid, openjury.KindOf(err), bad.detail)
			require.True(t, strings.HasPrefix(openjury.DetailOf(err), bad.detail), openjury.DetailOf(err))
			_, agrErr := agrs.Ledger(w.ctx, agr.LedgerInput{Address: rich.String(), Limit: bad.in.Limit, Cursor: bad.in.Cursor})
			require.Equal(t, openjury.DetailOf(agrErr), openjury.DetailOf(err), "the AGR service's refusal")
		}
	})
}
