package storetest

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/stake"
)

func (s *suite) profileTests() []test {
	return []test{
		{name: "JobsBySponsorNewestFirstPaged", run: testJobsBySponsor},
		{name: "SubmissionsByAgentWithTheirJobs", run: testSubmissionsByAgent},
		{name: "VotesByVoterCurrentOnly", run: testVotesByVoter},
		{name: "FinalVotesByVoter", run: testFinalVotesByVoter},
		{name: "CommentsOfBoundedPerTarget", run: testCommentsOf},
		{name: "SubmissionHeads", run: testSubmissionHeads},
		{name: "SubmissionCountsStopAtTheLimit", run: testSubmissionCounts},
		{name: "ProfileReadsEveryListAtOnce", run: testProfileAtOnce},
		{name: "ProfileReadsTheAccountWithTheLists", run: testProfileWithAccount},
	}
}

// walkProfile reads a whole profile list in pages of limit, each after
// the last entry of the previous page, and returns the pages' ids.
func walkProfile[T any](t *testing.T, limit int, page func(after *marketplace.Cursor) []T, pos func(T) marketplace.Cursor) [][]string {
	t.Helper()
	var (
		after *marketplace.Cursor
		pages [][]string
	)
	for range 100 {
		rows := page(after)
		require.LessOrEqual(t, len(rows), limit)
		var got []string
		for _, r := range rows {
			got = append(got, pos(r).ID)
		}
		pages = append(pages, got)
		if len(rows) < limit {
			return pages
		}
		c := pos(rows[len(rows)-1])
		after = &c
	}
	t.Fatal("the list does not end")
	return nil
}

// sponsorFixture creates jobs 1..5 of alice, 3 and 4 at the same
// millisecond (ties by id, descending), each changed by edit first, and
// job 6 of bob in between.
func sponsorFixture(t *testing.T, b Backend, edit func(*marketplace.Job)) {
	t.Helper()
	var jobs []*marketplace.Job
	for n, ms := range map[int]int{1: 10, 2: 20, 3: 30, 4: 30, 5: 40} {
		j := newJob(n, at(ms))
		j.Sponsor = alice
		edit(j)
		jobs = append(jobs, j)
	}
	j6 := newJob(6, at(25))
	j6.Sponsor = bob
	create(t, b, append(jobs, j6)...)
}

func testJobsBySponsor(t *testing.T, b Backend) {
	ctx := context.Background()
	sponsorFixture(t, b, func(*marketplace.Job) {})

	list := func(addr openjury.Address, limit int, after *marketplace.Cursor) []*marketplace.Job {
		got, err := b.Profiles().JobsBySponsor(ctx, addr, limit, after)
		require.NoError(t, err)
		return got
	}
	all := list(alice, 100, nil)
	require.Equal(t, []string{id(5), id(4), id(3), id(2), id(1)}, ids(all))
	require.Equal(t, marketplace.ListedJob(getJob(t, b, id(4))), all[1], "the listed fields")
	require.Equal(t, []string{id(6)}, ids(list(bob, 100, nil)))
	require.Empty(t, list(carol, 100, nil))
	require.Empty(t, list(alice, 0, nil))

	pages := walkProfile(t, 2, func(after *marketplace.Cursor) []*marketplace.Job { return list(alice, 2, after) },
		func(j *marketplace.Job) marketplace.Cursor { return marketplace.Cursor{At: j.CreatedAt, ID: j.ID} })
	require.Equal(t, [][]string{{id(5), id(4)}, {id(3), id(2)}, {id(1)}}, pages)
}

// activityIDs are the entries' ids.
func activityIDs(as []*marketplace.Activity) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.ID
	}
	return out
}

func activityPos(a *marketplace.Activity) marketplace.Cursor {
	return marketplace.Cursor{At: a.CreatedAt, ID: a.ID}
}

func testSubmissionsByAgent(t *testing.T, b Backend) {
	ctx := context.Background()
	j1, j2 := newJob(1, base), newJob(2, base)
	j2.Status, j2.WinnerSubmissionID = marketplace.StatusClosed, id(103)
	create(t, b, j1, j2)
	long := strings.Repeat("é", marketplace.HeadChars) + "tail"
	s := []*marketplace.Submission{
		newSubmission(101, id(1), alice, at(10)),
		newSubmission(102, id(1), bob, at(20)),
		newSubmission(103, id(2), alice, at(30)),
		newSubmission(104, id(2), alice, at(30)),
	}
	s[2].Content = long
	submit(t, b, s...)
	list := func(limit int, after *marketplace.Cursor) []*marketplace.Activity {
		got, err := b.Profiles().SubmissionsByAgent(ctx, alice, limit, after)
		require.NoError(t, err)
		return got
	}
	got := list(10, nil)
	require.Equal(t, []string{id(104), id(103), id(101)}, activityIDs(got))
	require.Equal(t, &marketplace.Activity{
		ID:  id(103),
		Job: marketplace.JobHead{ID: id(2), Title: "Job 2", Status: marketplace.StatusClosed, WinnerSubmissionID: id(103)},
		Submission: marketplace.SubmissionHead{ID: id(103), JobID: id(2), Agent: alice,
			Head: strings.Repeat("é", marketplace.HeadChars), CreatedAt: at(30)},
		CreatedAt: at(30),
	}, got[1], "the head is the first HeadChars characters, not bytes")
	require.Equal(t, marketplace.JobHead{ID: id(1), Title: "Job 1", Status: marketplace.StatusOpen}, got[2].Job)
	require.Equal(t, "answer "+id(101), got[2].Submission.Head)
	require.Equal(t, marketplace.HeadOf(long), got[1].Submission.Head, "HeadOf agrees with the store")

	pages := walkProfile(t, 2, func(after *marketplace.Cursor) []*marketplace.Activity { return list(2, after) }, activityPos)
	require.Equal(t, [][]string{{id(104), id(103)}, {id(101)}}, pages)
	none, err := b.Profiles().SubmissionsByAgent(ctx, carol, 10, nil)
	require.NoError(t, err)
	require.Empty(t, none)
}

func testVotesByVoter(t *testing.T, b Backend) {
	ctx := context.Background()
	voteFixture(t, b) // job 1: submissions 101..105 by carol; job 2: 201
	putVotes(t, b,
		newVote(1, id(1), 101, alice, 2, at(10)),
		newVote(2, id(2), 201, alice, 3, at(20)),
		newVote(3, id(1), 102, bob, 1, at(15)),
	)
	// alice changes her vote on job 1: one entry, the current one, at its
	// new time.
	putVotes(t, b, newVote(4, id(1), 103, alice, 4, at(30)))
	got, err := b.Profiles().VotesByVoter(ctx, alice, 10, nil)
	require.NoError(t, err)
	require.Equal(t, []string{id(1), id(2)}, activityIDs(got), "the replaced vote keeps its id and moves to its new time")
	require.Equal(t, int64(4), got[0].Weight)
	require.Equal(t, id(103), got[0].Submission.ID)
	require.Equal(t, carol, got[0].Submission.Agent)
	require.Equal(t, "answer "+id(103), got[0].Submission.Head)
	require.Equal(t, marketplace.JobHead{ID: id(1), Title: "Job 1", Status: marketplace.StatusOpen}, got[0].Job)
	require.Equal(t, at(30), got[0].CreatedAt)
	require.Equal(t, int64(3), got[1].Weight)

	pages := walkProfile(t, 1, func(after *marketplace.Cursor) []*marketplace.Activity {
		got, err := b.Profiles().VotesByVoter(ctx, alice, 1, after)
		require.NoError(t, err)
		return got
	}, activityPos)
	require.Equal(t, [][]string{{id(1)}, {id(2)}, nil}, pages)
	none, err := b.Profiles().FinalVotesByVoter(ctx, alice, 10, nil)
	require.NoError(t, err)
	require.Empty(t, none, "jury votes are not final votes")
}

func testFinalVotesByVoter(t *testing.T, b Backend) {
	ctx := context.Background()
	voteFixture(t, b)
	putFinalVotes(t, b,
		newFinalVote(1, id(1), 101, alice, at(10)),
		newFinalVote(2, id(2), 201, alice, at(10)),
		newFinalVote(3, id(1), 101, bob, at(10)),
	)
	got, err := b.Profiles().FinalVotesByVoter(ctx, alice, 10, nil)
	require.NoError(t, err)
	require.Equal(t, []string{id(2), id(1)}, activityIDs(got), "ties by id, descending")
	require.Zero(t, got[0].Weight)
	require.Equal(t, id(201), got[0].Submission.ID)
	require.Equal(t, "Job 2", got[0].Job.Title)
	none, err := b.Profiles().VotesByVoter(ctx, alice, 10, nil)
	require.NoError(t, err)
	require.Empty(t, none)
}

func testCommentsOf(t *testing.T, b Backend) {
	ctx := context.Background()
	create(t, b, newJob(1, base))
	submit(t, b, newSubmission(101, id(1), alice, base), newSubmission(102, id(1), alice, base), newSubmission(103, id(1), alice, base))
	// 101: five comments (two at one millisecond); 102: one, deleted;
	// 103: none; a comment on the job and one on a post with 101's id
	// as its target are other targets.
	addComments(t, b,
		newComment(5, marketplace.TargetSubmission, id(101), bob, at(50)),
		newComment(1, marketplace.TargetSubmission, id(101), bob, at(10)),
		newComment(3, marketplace.TargetSubmission, id(101), bob, at(30)),
		newComment(2, marketplace.TargetSubmission, id(101), bob, at(30)),
		newComment(4, marketplace.TargetSubmission, id(101), bob, at(40)),
		newComment(6, marketplace.TargetSubmission, id(102), carol, at(5)),
		newComment(7, marketplace.TargetJob, id(1), carol, at(1)),
	)
	addPosts(t, b, newPost(200, alice, base))
	addComments(t, b, newComment(8, marketplace.TargetPost, id(200), carol, at(1)))
	require.NoError(t, b.Comments().DeleteComment(ctx, id(6), carol, at(60)))

	of := func(ids []string, limit int) []*marketplace.Comment {
		got, err := b.Comments().CommentsOf(ctx, marketplace.TargetSubmission, ids, limit)
		require.NoError(t, err)
		return got
	}
	got := of([]string{id(102), id(103), id(101)}, 3)
	require.Equal(t, []string{id(6), id(1), id(2), id(3)}, commentIDs(got), "targets in the given order, each oldest first, at most 3")
	require.Equal(t, getComment(t, b, id(6)), got[0], "every field, the stored content of a deleted one too")
	require.Equal(t, []string{id(1), id(2), id(3), id(4), id(5)}, commentIDs(of([]string{id(101), id(101)}, 10)), "an id given twice is read once")
	require.Empty(t, of([]string{id(103), id(999)}, 5))
	require.Empty(t, of(nil, 5))
	require.Empty(t, of([]string{id(101)}, 0))
	posts, err := b.Comments().CommentsOf(ctx, marketplace.TargetPost, []string{id(200), id(101)}, 5)
	require.NoError(t, err)
	require.Equal(t, []string{id(8)}, commentIDs(posts), "the target kind is part of the key")
}

func testSubmissionHeads(t *testing.T, b Backend) {
	ctx := context.Background()
	create(t, b, newJob(1, base))
	s1 := newSubmission(101, id(1), alice, at(1))
	s1.Content = strings.Repeat("ü", marketplace.HeadChars+1)
	s1.Evidence = []marketplace.Evidence{{Type: "web", Quote: "q"}}
	s2 := newSubmission(102, id(1), bob, at(2))
	submit(t, b, s1, s2)
	heads, err := b.Submissions().SubmissionHeads(ctx, []string{id(102), id(999), id(101)})
	require.NoError(t, err)
	require.Equal(t, []marketplace.SubmissionHead{
		{ID: id(102), JobID: id(1), Agent: bob, Head: "answer " + id(102), CreatedAt: at(2)},
		{ID: id(101), JobID: id(1), Agent: alice, Head: strings.Repeat("ü", marketplace.HeadChars), CreatedAt: at(1)},
	}, heads, "in the order asked, unknown ids left out")
	heads, err = b.Submissions().SubmissionHeads(ctx, nil)
	require.NoError(t, err)
	require.Empty(t, heads)
}

func testSubmissionCounts(t *testing.T, b Backend) {
	ctx := context.Background()
	create(t, b, newJob(1, base), newJob(2, base), newJob(3, base))
	for n := 101; n <= 105; n++ {
		submit(t, b, newSubmission(n, id(1), alice, at(n)))
	}
	submit(t, b, newSubmission(201, id(2), bob, base))
	counts, err := b.Submissions().SubmissionCounts(ctx, []string{id(1), id(2), id(3), id(9), id(2)}, 4)
	require.NoError(t, err)
	require.Equal(t, map[string]int{id(1): 4, id(2): 1}, counts, "job 1 stops at the limit; jobs without submissions are absent")
	counts, err = b.Submissions().SubmissionCounts(ctx, []string{id(1)}, 100)
	require.NoError(t, err)
	require.Equal(t, map[string]int{id(1): 5}, counts)
	counts, err = b.Submissions().SubmissionCounts(ctx, nil, 100)
	require.NoError(t, err)
	require.Empty(t, counts)
}

// testProfileAtOnce checks that Profile reads what Reputation and the four
// list methods read, page by page from any cursors (ties at one
// millisecond, limits of 0, an address with nothing), that its jobs
// carry the fields of ProfiledJob (a featured and a funded one) and its
// entries their job's reveal end (a commit-reveal job).
func testProfileAtOnce(t *testing.T, b Backend) {
	ctx := context.Background()
	// alice sponsors jobs 1..5 (3 featured, 4 funded, 5 closed with a
	// winner), submits 301..303, casts a jury vote on job 6 and final
	// votes on jobs 6 and 1 (at one millisecond).
	sponsorFixture(t, b, func(j *marketplace.Job) {
		if j.ID == id(3) {
			j.FeaturedScore, j.FeaturedUntil = 7, ptr(at(9000))
		}
		if j.ID == id(1) {
			j.JuryMode, j.JurySize, j.JuryCommitEndsAt, j.JuryRevealEndsAt = marketplace.JuryCommitReveal, 3, ptr(at(9100)), ptr(at(9200))
		}
	})
	require.NoError(t, b.Escrow().SetJobEscrow(ctx, id(4), &marketplace.JobEscrow{Status: marketplace.EscrowFunded, Amount: 42, RefundAfter: ptr(at(9000)), Ref: escrowRef(1, 7, 2)}))
	submit(t, b, newSubmission(201, id(6), carol, at(50)), newSubmission(202, id(6), carol, at(50)),
		newSubmission(301, id(6), alice, at(60)), newSubmission(302, id(6), alice, at(60)), newSubmission(303, id(5), alice, at(70)))
	j5 := getJob(t, b, id(5))
	j5.Status, j5.WinnerSubmissionID, j5.ClosedAt = marketplace.StatusClosed, id(303), ptr(at(80))
	require.NoError(t, b.Jobs().UpdateJob(ctx, j5))
	putVotes(t, b, newVote(401, id(6), 201, alice, 3, at(90)), newVote(402, id(5), 303, bob, 1, at(90)))
	putFinalVotes(t, b, newFinalVote(501, id(6), 202, alice, at(95)), newFinalVote(502, id(1), 303, alice, at(95)))
	require.NoError(t, b.Reputation().AddReputation(ctx, alice, marketplace.ReputationDelta{Score: 12, Wins: 1, Losses: 2, Submissions: 3, JuryVotes: 4}, at(99)))

	read := func(addr openjury.Address, p marketplace.ProfilePages) *marketplace.ProfileRead {
		return readProfile(t, b, addr, p)
	}
	all := marketplace.ProfileList{Limit: 100}
	got := read(alice, marketplace.ProfilePages{Jobs: all, Submissions: all, Votes: all, FinalVotes: all})
	require.Equal(t, marketplace.Reputation{Address: alice, Score: 12, Wins: 1, Losses: 2, Submissions: 3, JuryVotes: 4, UpdatedAt: at(99)}, got.Reputation)
	require.Equal(t, []string{id(5), id(4), id(3), id(2), id(1)}, ids(got.Jobs))
	require.Equal(t, marketplace.ProfiledJob(getJob(t, b, id(4))), got.Jobs[1], "the escrow's status and amount")
	require.Equal(t, marketplace.ProfiledJob(getJob(t, b, id(3))), got.Jobs[2], "the boost's end")
	require.Equal(t, id(303), got.Jobs[0].WinnerSubmissionID)
	require.Equal(t, []string{id(303), id(302), id(301)}, activityIDs(got.Submissions))
	require.Equal(t, []string{id(401)}, activityIDs(got.Votes))
	require.Equal(t, int64(3), got.Votes[0].Weight)
	require.Equal(t, []string{id(502), id(501)}, activityIDs(got.FinalVotes), "ties by id, descending")
	require.Equal(t, ptr(at(9200)), got.FinalVotes[0].Job.RevealEndsAt, "a commit-reveal job's reveal end")
	require.Nil(t, got.FinalVotes[1].Job.RevealEndsAt)

	// Page by page, every list at once, each from its own cursor; a list
	// of limit 0 is empty.
	pages := marketplace.ProfilePages{Jobs: marketplace.ProfileList{Limit: 2}, Submissions: marketplace.ProfileList{Limit: 1},
		Votes: marketplace.ProfileList{Limit: 0}, FinalVotes: marketplace.ProfileList{Limit: 1}}
	var seen [][]string
	for range 5 {
		got := read(alice, pages)
		require.Empty(t, got.Votes)
		seen = append(seen, append(append(ids(got.Jobs), activityIDs(got.Submissions)...), activityIDs(got.FinalVotes)...))
		next := func(l *marketplace.ProfileList, n int, pos func(int) marketplace.Cursor) {
			if n > 0 {
				c := pos(n - 1)
				l.After = &c
			}
		}
		next(&pages.Jobs, len(got.Jobs), func(i int) marketplace.Cursor {
			return marketplace.Cursor{At: got.Jobs[i].CreatedAt, ID: got.Jobs[i].ID}
		})
		next(&pages.Submissions, len(got.Submissions), func(i int) marketplace.Cursor { return activityPos(got.Submissions[i]) })
		next(&pages.FinalVotes, len(got.FinalVotes), func(i int) marketplace.Cursor { return activityPos(got.FinalVotes[i]) })
	}
	require.Equal(t, [][]string{{id(5), id(4), id(303), id(502)}, {id(3), id(2), id(302), id(501)}, {id(1), id(301)}, {}, {}}, seen)

	none := read(carol, marketplace.ProfilePages{Jobs: all, Submissions: all, Votes: all, FinalVotes: all})
	require.Equal(t, marketplace.Reputation{Address: carol}, none.Reputation, "zeros for an address without a record")
	require.Empty(t, none.Jobs)
	require.Equal(t, []string{id(202), id(201)}, activityIDs(read(carol, marketplace.ProfilePages{Submissions: all}).Submissions))
}

// profileWant is what the separate reads of b give for addr's profile
// pages p: Reputation, the four list methods and, with a ledger page, the
// stake (as ProfiledStake gives it), the AGR balance and the ledger.
func profileWant(t *testing.T, b Backend, addr openjury.Address, p marketplace.ProfilePages) *marketplace.ProfileRead {
	t.Helper()
	ctx := context.Background()
	rep, err := b.Reputation().Reputation(ctx, addr)
	require.NoError(t, err)
	out := &marketplace.ProfileRead{Reputation: rep}
	listed, err := b.Profiles().JobsBySponsor(ctx, addr, p.Jobs.Limit, p.Jobs.After)
	require.NoError(t, err)
	out.Jobs = []*marketplace.Job{}
	for _, j := range listed {
		out.Jobs = append(out.Jobs, marketplace.ProfiledJob(j))
	}
	for _, l := range []struct {
		read func(context.Context, openjury.Address, int, *marketplace.Cursor) ([]*marketplace.Activity, error)
		page marketplace.ProfileList
		out  *[]*marketplace.Activity
	}{{b.Profiles().SubmissionsByAgent, p.Submissions, &out.Submissions}, {b.Profiles().VotesByVoter, p.Votes, &out.Votes},
		{b.Profiles().FinalVotesByVoter, p.FinalVotes, &out.FinalVotes}} {
		*l.out, err = l.read(ctx, addr, l.page.Limit, l.page.After)
		require.NoError(t, err)
	}
	if p.Ledger != nil {
		out.Account = &marketplace.AccountRead{Stake: marketplace.ProfiledStake(getStake(t, b, addr)), AGR: status(t, b, addr),
			Ledger: ledger(t, b, addr, p.Ledger.Limit, (*agr.Cursor)(p.Ledger.After))}
	}
	return out
}

// readProfile reads addr's profile pages p with Profile and checks that it
// reads what the separate reads do (profileWant).
func readProfile(t *testing.T, b Backend, addr openjury.Address, p marketplace.ProfilePages) *marketplace.ProfileRead {
	t.Helper()
	got, err := b.Profiles().Profile(context.Background(), addr, p)
	require.NoError(t, err)
	require.Equal(t, profileWant(t, b, addr, p), got, "%s %+v", addr, p)
	return got
}

// testProfileWithAccount checks that Profile with a ledger page also reads
// the address's stake (without its onchain reference), AGR balance and
// ledger page, as the separate reads do, page by page beside the lists
// (ties at one millisecond, an entry without a job, a ledger limit of 0);
// zeros with the address for an address without an account; and no
// account without a ledger page.
func testProfileWithAccount(t *testing.T, b Backend) {
	sponsorFixture(t, b, func(*marketplace.Job) {})
	putStake(t, b, stake.Stake{Address: alice, Staked: 7_000_000, Ref: fullRef(1), UpdatedAt: at(5)})
	putStake(t, b, stake.Stake{Address: bob, Staked: 9, UpdatedAt: at(6)})
	apply(t, b, entry(701, alice, 50, agr.ReasonDevMint, "", at(10)))
	apply(t, b, entry(702, alice, 30, agr.ReasonWin, id(5), at(20)))
	apply(t, b, entry(704, alice, -5, agr.ReasonBoost, id(3), at(20)))
	apply(t, b, entry(703, alice, -2, agr.ReasonBoost, id(3), at(20)))
	apply(t, b, entry(705, bob, 9, agr.ReasonDevMint, "", at(15)))

	all := marketplace.ProfileList{Limit: 100}
	got := readProfile(t, b, alice, marketplace.ProfilePages{Jobs: all, Submissions: all, Votes: all, FinalVotes: all, Ledger: &all})
	require.Equal(t, stake.Stake{Address: alice, Staked: 7_000_000, UpdatedAt: at(5)}, got.Account.Stake, "the amount and time, not the onchain reference")
	require.Equal(t, agr.Status{Address: alice, Balance: 73, Earned: 80, Spent: 7}, got.Account.AGR)
	require.Equal(t, []string{id(704), id(703), id(702), id(701)}, entryIDs(got.Account.Ledger), "newest first, ties by id, descending")
	require.Equal(t, id(5), got.Account.Ledger[2].JobID)
	require.Empty(t, got.Account.Ledger[3].JobID, "an entry without a job")
	require.Equal(t, []string{id(5), id(4), id(3), id(2), id(1)}, ids(got.Jobs), "the lists beside the account")

	// Page by page, the ledger beside the jobs, each from its own cursor.
	pages := marketplace.ProfilePages{Jobs: marketplace.ProfileList{Limit: 2}, Ledger: &marketplace.ProfileList{Limit: 3}}
	var seen [][]string
	for range 3 {
		got := readProfile(t, b, alice, pages)
		require.Equal(t, agr.Status{Address: alice, Balance: 73, Earned: 80, Spent: 7}, got.Account.AGR, "the balance on every page")
		seen = append(seen, append(ids(got.Jobs), entryIDs(got.Account.Ledger)...))
		if n := len(got.Jobs); n > 0 {
			pages.Jobs.After = &marketplace.Cursor{At: got.Jobs[n-1].CreatedAt, ID: got.Jobs[n-1].ID}
		}
		if n := len(got.Account.Ledger); n > 0 {
			last := got.Account.Ledger[n-1]
			pages.Ledger = &marketplace.ProfileList{Limit: 3, After: &marketplace.Cursor{At: last.CreatedAt, ID: last.ID}}
		}
	}
	require.Equal(t, [][]string{{id(5), id(4), id(704), id(703), id(702)}, {id(3), id(2), id(701)}, {id(1)}}, seen)

	none := readProfile(t, b, carol, marketplace.ProfilePages{Jobs: all, Ledger: &all})
	require.Equal(t, &marketplace.AccountRead{Stake: stake.Stake{Address: carol}, AGR: agr.Status{Address: carol}, Ledger: []agr.Entry{}}, none.Account,
		"zeros with the address for an address without an account")
	bobs := readProfile(t, b, bob, marketplace.ProfilePages{Ledger: &marketplace.ProfileList{Limit: 0}})
	require.Equal(t, stake.Stake{Address: bob, Staked: 9, UpdatedAt: at(6)}, bobs.Account.Stake)
	require.Equal(t, int64(9), bobs.Account.AGR.Balance)
	require.Empty(t, bobs.Account.Ledger, "a ledger of limit 0 is empty; the stake and balance are read")
	require.Nil(t, readProfile(t, b, alice, marketplace.ProfilePages{Jobs: all}).Account, "no account without a ledger page")
}
