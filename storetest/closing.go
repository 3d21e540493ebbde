package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/marketplace"
)

func (s *suite) closingTests() []test {
	return []test{
		{name: "ScanRecordsOfAJob", run: testScanRecords},
		{name: "ScanPagesAndStops", run: testScanPages},
		{name: "Lease", run: testClosingLease},
		{name: "AbandonDropsTheBuild", run: testAbandonClosing},
		{name: "CleanupOrphanBuilds", run: testCleanupBuilds},
	}
}

// scanned are a job's records as the SnapshotStore pages them.
type scanned struct {
	subs, votes, finals, comments []string
	deleted                       map[string]int64
}

// scanAll pages every kind of a job's records with pages of limit,
// comments up to rev.
func scanAll(t *testing.T, s marketplace.SnapshotStore, jobID string, rev int64, limit int) scanned {
	t.Helper()
	ctx := context.Background()
	out := scanned{deleted: map[string]int64{}}
	walk := func(scan func(after *marketplace.Cursor, add func(id string, at time.Time)) error) {
		var after *marketplace.Cursor
		for range 1000 {
			n := 0
			require.NoError(t, scan(after, func(id string, at time.Time) {
				n++
				after = &marketplace.Cursor{At: at, ID: id}
			}))
			require.LessOrEqual(t, n, limit)
			if n == 0 {
				return
			}
		}
		t.Fatal("the pages do not end")
	}
	walk(func(after *marketplace.Cursor, add func(string, time.Time)) error {
		return s.ScanSubmissions(ctx, jobID, after, limit, func(x *marketplace.Submission) bool {
			out.subs = append(out.subs, x.ID)
			add(x.ID, x.CreatedAt)
			return true
		})
	})
	walk(func(after *marketplace.Cursor, add func(string, time.Time)) error {
		return s.ScanVotes(ctx, jobID, after, limit, func(x *marketplace.Vote) bool {
			out.votes = append(out.votes, x.ID)
			add(x.ID, x.CreatedAt)
			return true
		})
	})
	walk(func(after *marketplace.Cursor, add func(string, time.Time)) error {
		return s.ScanFinalVotes(ctx, jobID, after, limit, func(x *marketplace.FinalVote) bool {
			out.finals = append(out.finals, x.ID)
			add(x.ID, x.CreatedAt)
			return true
		})
	})
	walk(func(after *marketplace.Cursor, add func(string, time.Time)) error {
		return s.ScanComments(ctx, jobID, rev, after, limit, func(x *marketplace.Comment) bool {
			out.comments = append(out.comments, x.ID)
			if x.DeletedAt != nil {
				out.deleted[x.ID] = x.DeletedRev
			}
			add(x.ID, x.CreatedAt)
			return true
		})
	})
	return out
}

// testScanRecords: the snapshot scans read a job's submissions, current
// jury and final votes and the comments on it and on its submissions
// (deleted ones too, with their rev), each kind oldest first, the same in
// pages of any size and inside a transaction; comments past the given rev
// are left out.
func testScanRecords(t *testing.T, b Backend) {
	ctx := context.Background()
	voteFixture(t, b) // job 1 with submissions 101..105, job 2 with 201
	putVotes(t, b, newVote(301, id(1), 102, alice, 2, base.Add(2*time.Second)), newVote(302, id(1), 101, bob, 1, base.Add(time.Second)),
		newVote(303, id(2), 201, alice, 1, base))
	putFinalVotes(t, b, newFinalVote(401, id(1), 103, dave, base), newFinalVote(402, id(2), 201, dave, base))
	gone := newComment(503, marketplace.TargetJob, id(1), erin, base.Add(3*time.Second))
	addComments(t, b,
		newComment(501, marketplace.TargetJob, id(1), erin, base.Add(time.Second)),
		newComment(502, marketplace.TargetSubmission, id(104), erin, base),
		gone,
		newComment(504, marketplace.TargetJob, id(2), erin, base),
		newComment(505, marketplace.TargetSubmission, id(201), erin, base),
	)
	require.NoError(t, b.Comments().DeleteComment(ctx, gone.ID, erin, base.Add(time.Minute)))
	rev := getJob(t, b, id(1)).RecordsRev
	require.Equal(t, int64(4), rev, "three comments and a delete")
	late := newComment(506, marketplace.TargetSubmission, id(101), erin, base)
	addComments(t, b, late)

	want := scanned{
		subs:     []string{id(101), id(102), id(103), id(104), id(105)},
		votes:    []string{id(302), id(301)},
		finals:   []string{id(401)},
		comments: []string{id(502), id(501), id(503)},
		deleted:  map[string]int64{id(503): 4},
	}
	for _, limit := range []int{1, 2, 500} {
		require.Equal(t, want, scanAll(t, b.Snapshots(), id(1), rev, limit), "pages of %d", limit)
	}
	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		require.Equal(t, want, scanAll(t, tx.Snapshots(), id(1), rev, 3), "inside a transaction")
		return nil
	}))
	withLate := want
	withLate.comments = []string{id(502), id(506), id(501), id(503)}
	require.Equal(t, withLate, scanAll(t, b.Snapshots(), id(1), rev+1, 10), "a later rev takes the later comment")

	// The records read back whole.
	require.NoError(t, b.Snapshots().ScanVotes(ctx, id(1), nil, 10, func(v *marketplace.Vote) bool {
		require.Equal(t, getVote(t, b, id(1), v.Voter), v)
		return true
	}))
	require.NoError(t, b.Snapshots().ScanSubmissions(ctx, id(1), nil, 10, func(s *marketplace.Submission) bool {
		require.Equal(t, getSubmission(t, b, s.ID), s)
		return true
	}))
	require.NoError(t, b.Snapshots().ScanComments(ctx, id(1), rev, nil, 10, func(c *marketplace.Comment) bool {
		require.Equal(t, getComment(t, b, c.ID), c)
		return true
	}))

	// A job without anything else has nothing to scan.
	create(t, b, newJob(3, base))
	require.Equal(t, scanned{deleted: map[string]int64{}}, scanAll(t, b.Snapshots(), id(3), 100, 10))
}

// testScanPages: a scan stops where fn says so, and the next page starts
// after the last record fn took, ties on created_at broken by id.
func testScanPages(t *testing.T, b Backend) {
	ctx := context.Background()
	create(t, b, newJob(1, base))
	var subs []*marketplace.Submission
	for i := range 12 {
		subs = append(subs, newSubmission(200-i, id(1), carol, base.Add(time.Duration(i/4)*time.Second)))
	}
	submit(t, b, subs...)
	var got []string
	var after *marketplace.Cursor
	for range 20 {
		n := 0
		require.NoError(t, b.Snapshots().ScanSubmissions(ctx, id(1), after, 5, func(s *marketplace.Submission) bool {
			got = append(got, s.ID)
			after = &marketplace.Cursor{At: s.CreatedAt, ID: s.ID}
			n++
			return n < 3 // stop after three of each page of five
		}))
		if n == 0 {
			break
		}
	}
	var want []string
	for sec := range 3 {
		for i := 3; i >= 0; i-- {
			want = append(want, id(200-(sec*4+i)))
		}
	}
	require.Equal(t, want, got)
}

// claim takes the closing lease of job n for build batchID at now until
// until, the way a close does: in a transaction that locked the job.
func claim(t *testing.T, b Backend, n int, batchID string, now, until time.Time) error {
	t.Helper()
	return b.InTx(context.Background(), func(ctx context.Context, tx marketplace.Tx) error {
		if _, err := tx.Jobs().JobForUpdate(ctx, id(n)); err != nil {
			return err
		}
		return tx.Anchors().ClaimClosing(ctx, id(n), batchID, now, until)
	})
}

// testClosingLease: a claimed lease shows on the job; it renews only
// while it is the build's own and live; another claim takes an expired
// one over; an unknown job has none.
func testClosingLease(t *testing.T, b Backend) {
	ctx := context.Background()
	create(t, b, newJob(1, base))
	require.NoError(t, claim(t, b, 1, id(9), base, at(30_000)))
	j := getJob(t, b, id(1))
	require.Equal(t, id(9), j.ClosingID)
	require.Equal(t, at(30_000), *j.ClosingUntil)
	require.True(t, j.BeingClosed(at(29_999)))
	require.False(t, j.BeingClosed(at(30_000)))

	as := b.Anchors()
	require.NoError(t, as.RenewClosing(ctx, id(1), id(9), at(10_000), at(40_000)))
	require.Equal(t, at(40_000), *getJob(t, b, id(1)).ClosingUntil)
	for _, tc := range []struct {
		batch string
		now   time.Time
	}{{id(8), at(20_000)}, {id(9), at(40_000)}, {id(9), at(50_000)}} {
		err := as.RenewClosing(ctx, id(1), tc.batch, tc.now, tc.now.Add(time.Minute))
		requireKind(t, openjury.Conflict, err)
		require.Equal(t, "closing lease lost; try again", openjury.DetailOf(err))
	}
	require.Equal(t, at(40_000), *getJob(t, b, id(1)).ClosingUntil, "a lost renewal changes nothing")

	// Taken over once dead; the old build cannot renew or free it.
	require.NoError(t, claim(t, b, 1, id(10), at(50_000), at(80_000)))
	requireKind(t, openjury.Conflict, as.RenewClosing(ctx, id(1), id(9), at(50_001), at(90_000)))
	require.NoError(t, as.AbandonClosing(ctx, id(1), id(9)))
	require.Equal(t, id(10), getJob(t, b, id(1)).ClosingID)
	require.NoError(t, as.AbandonClosing(ctx, id(1), id(10)))
	j = getJob(t, b, id(1))
	require.Empty(t, j.ClosingID)
	require.Nil(t, j.ClosingUntil)

	requireKind(t, openjury.NotFound, claim(t, b, 5, id(11), base, at(1)))
	requireKind(t, openjury.Conflict, as.RenewClosing(ctx, id(5), id(11), base, at(1)))
}

// stagedRows counts the staged rows of a build.
func stagedRows(t *testing.T, b Backend, batchID string) int {
	t.Helper()
	page, err := b.AnchorRecords(context.Background(), batchID, -1, 1<<20, 1<<40)
	require.NoError(t, err)
	nodes, err := b.AnchorNodes(context.Background(), batchID, []anchor.NodeAt{{Level: 0, Index: 0}, {Level: 1, Index: 0}})
	require.NoError(t, err)
	return len(page) + len(nodes)
}

// testAbandonClosing: abandoning a build deletes its staged rows (more
// than one delete's worth) and frees its lease; it never touches a
// committed batch.
func testAbandonClosing(t *testing.T, b Backend) {
	ctx := context.Background()
	create(t, b, newJob(1, base), newJob(2, base))
	require.NoError(t, claim(t, b, 1, id(9), base, at(30_000)))
	stageBatch(t, b, id(1), id(9), snapshotRecords(id(1), 1300, false), 1)
	require.Positive(t, stagedRows(t, b, id(9)))
	require.NoError(t, b.Anchors().AbandonClosing(ctx, id(1), id(9)))
	require.Zero(t, stagedRows(t, b, id(9)))
	require.False(t, getJob(t, b, id(1)).BeingClosed(base))

	batch, snap := stageBatch(t, b, id(2), id(10), snapshotRecords(id(2), 3, false), 2)
	require.NoError(t, putBatch(t, b, batch))
	require.NoError(t, b.Anchors().AbandonClosing(ctx, id(2), id(10)))
	require.Equal(t, snap.Document, document(t, b, id(2)), "a committed batch stays whole")
}

// testCleanupBuilds: the cleanup deletes the rows of builds started
// before its cutoff whose lease is dead at its now, and of no other build
// or batch.
func testCleanupBuilds(t *testing.T, b Backend) {
	ctx := context.Background()
	create(t, b, newJob(1, base), newJob(2, base), newJob(3, base), newJob(4, base))
	hour := 3_600_000
	require.NoError(t, claim(t, b, 1, id(11), base, at(30_000)))     // crashed long ago
	require.NoError(t, claim(t, b, 2, id(12), base, at(3*hour)))     // old, still live
	require.NoError(t, claim(t, b, 3, id(13), at(hour), at(hour+1))) // dead, but recent
	require.NoError(t, claim(t, b, 4, id(14), base, at(30_000)))     // committed
	var committed *anchor.Batch
	var snap *anchor.Snapshot
	for n := 11; n <= 14; n++ {
		committed, snap = stageBatch(t, b, id(n-10), id(n), snapshotRecords(id(n-10), 700, false), byte(n))
	}
	require.NoError(t, putBatch(t, b, committed))
	require.Empty(t, getJob(t, b, id(4)).ClosingID, "the batch ends the lease")
	before := map[int]int{}
	for n := 11; n <= 14; n++ {
		before[n] = stagedRows(t, b, id(n))
		require.Positive(t, before[n])
	}

	n, err := b.Anchors().CleanupBuilds(ctx, at(hour/2), at(2*hour))
	require.NoError(t, err)
	require.Greater(t, n, int64(701), "its records, its tree's rows and its build row")
	require.Zero(t, stagedRows(t, b, id(11)), "crashed long ago: deleted")
	for _, kept := range []int{12, 13, 14} {
		require.Equal(t, before[kept], stagedRows(t, b, id(kept)), "build %d kept", kept)
	}
	require.Equal(t, snap.Document, document(t, b, id(4)))
	n, err = b.Anchors().CleanupBuilds(ctx, at(hour/2), at(2*hour))
	require.NoError(t, err)
	require.Zero(t, n, "nothing left to clean")
}
