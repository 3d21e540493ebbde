package storetest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/marketplace"
)

func (s *suite) anchorTests() []test {
	return []test{
		{name: "ScanRecordsOfAJob", run: testScanRecords},
		{name: "ScanPagesAndStops", run: testScanPages},
		{name: "RecordsRevBumps", run: testRecordsRev},
		{name: "StagedBatchServed", run: testStagedBatch},
		{name: "LeavesByRecordObjectAndSalt", run: testAnchorLeaves},
		{name: "PutBatchOnce", run: testPutBatchOnce},
		{name: "NotFound", run: testAnchorNotFound},
		{name: "ClosingLease", run: testClosingLease},
		{name: "AbandonDropsTheBuild", run: testAbandonClosing},
		{name: "CleanupOrphanBuilds", run: testCleanupBuilds},
		{name: "JobOutcome", run: testJobOutcome},
		{name: "ReceiptRecordedOnce", run: testAnchorReceiptOnce},
		{name: "ConcurrentReceiptsOneWinner", run: testAnchorConcurrentReceipts},
	}
}

// snapshotRecords builds n records besides the job's (sizes vary, some
// share an object id when shared is set) for job jobID.
func snapshotRecords(jobID string, n int, shared bool) []anchor.Record {
	recs := []anchor.Record{{ID: "job:" + jobID, Type: "job", Fields: map[string]any{"title": "café €", "job_id": jobID}}}
	for i := range n {
		recs = append(recs, anchor.Record{ID: "submission:" + id(1000+i), Type: "submission",
			Fields: map[string]any{"content": strings.Repeat("x", i%7*100), "i": i}})
	}
	if shared {
		// A vote whose id is also a submission's object id.
		recs = append(recs, anchor.Record{ID: "vote:" + id(1000), Type: "vote", Fields: map[string]any{"weight": 2}})
	}
	return recs
}

// stageBatch stages recs as the build batchID of job jobID with a
// marketplace.Stager (chunks and levels as a close writes them) and
// returns the batch, not yet put, and anchor.Build's snapshot of the same
// records for comparison.
func stageBatch(t *testing.T, b Backend, jobID, batchID string, recs []anchor.Record, saltByte byte) (*anchor.Batch, *anchor.Snapshot) {
	t.Helper()
	ctx := context.Background()
	var salt [anchor.SaltSize]byte
	salt[0], salt[31] = 7, saltByte
	snap, err := anchor.Build(jobID, salt, base, recs)
	require.NoError(t, err)
	st := marketplace.NewStager(b.Anchors(), batchID)
	for _, r := range recs {
		body, err := anchor.CanonicalRecord(r)
		require.NoError(t, err)
		require.NoError(t, st.Add(ctx, r.ID, body))
	}
	root, err := st.Tree(ctx, salt)
	require.NoError(t, err)
	require.Equal(t, snap.Root, root, "the staged tree has Build's root")
	return &anchor.Batch{
		ID: batchID, JobID: jobID, SchemaVersion: anchor.SchemaVersion, Root: root, Salt: snap.Salt,
		URI: "https://jury.example.com/api/v1/jobs/" + jobID + "/anchor/snapshot", CreatedAt: base,
		Records: int64(len(recs)), Size: int64(len(snap.Document)),
	}, snap
}

// putBatch puts b in one transaction.
func putBatch(t *testing.T, b Backend, batch *anchor.Batch) error {
	t.Helper()
	return b.InTx(context.Background(), func(ctx context.Context, tx marketplace.Tx) error {
		return tx.Anchors().PutBatch(ctx, batch)
	})
}

// document reads a stored batch's document back through anchor.Service.
func document(t *testing.T, b Backend, jobID string) []byte {
	t.Helper()
	doc, err := anchor.NewService(b, anchor.Config{}).Document(context.Background(), jobID)
	require.NoError(t, err)
	return doc
}

// receiptOf is a complete receipt; tx picks its transaction hash.
func receiptOf(tx string, block int64) openjury.ChainRef {
	return openjury.ChainRef{
		TxHash: openjury.Hash("0x" + strings.Repeat(tx, 64)), ChainID: ptr(int64(8453)),
		Contract: openjury.MustAddress("0x" + strings.Repeat("c", 40)), BlockNumber: ptr(block), LogIndex: ptr(int64(1)),
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
	require.NoError(t, b.Threads().DeleteComment(ctx, gone.ID, erin, base.Add(time.Minute)))
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

// testRecordsRev: a comment on a job or on one of its submissions bumps
// the job's records rev and carries the new value; deleting it bumps it
// again and records it; a post's comment and a repeated delete bump
// nothing; a rolled-back comment takes its bump with it.
func testRecordsRev(t *testing.T, b Backend) {
	ctx := context.Background()
	voteFixture(t, b)
	addPosts(t, b, newPost(900, alice, base))
	rev := func(job int) int64 { return getJob(t, b, id(job)).RecordsRev }
	require.Zero(t, rev(1))

	onJob := newComment(501, marketplace.TargetJob, id(1), erin, base)
	onSub := newComment(502, marketplace.TargetSubmission, id(102), erin, base)
	onOther := newComment(503, marketplace.TargetJob, id(2), erin, base)
	onPost := newComment(504, marketplace.TargetPost, id(900), erin, base)
	addComments(t, b, onJob, onSub, onOther, onPost)
	require.Equal(t, int64(2), rev(1))
	require.Equal(t, int64(1), rev(2))
	for c, want := range map[*marketplace.Comment]int64{onJob: 1, onSub: 2, onOther: 1, onPost: 0} {
		require.Equal(t, want, c.Rev, "set on the comment")
		require.Equal(t, want, getComment(t, b, c.ID).Rev, "stored")
	}

	require.NoError(t, b.Threads().DeleteComment(ctx, onSub.ID, erin, at(5)))
	require.Equal(t, int64(3), rev(1))
	require.Equal(t, int64(3), getComment(t, b, onSub.ID).DeletedRev)
	require.NoError(t, b.Threads().DeleteComment(ctx, onSub.ID, erin, at(6)))
	require.Equal(t, int64(3), rev(1), "a repeated delete changes nothing")
	require.NoError(t, b.Threads().DeleteComment(ctx, onPost.ID, erin, at(7)))
	require.Zero(t, getComment(t, b, onPost.ID).DeletedRev)
	require.Equal(t, int64(3), rev(1))

	require.Equal(t, errBoom, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		require.NoError(t, tx.Threads().CreateComment(ctx, newComment(505, marketplace.TargetJob, id(1), erin, base)))
		require.NoError(t, tx.Threads().DeleteComment(ctx, onJob.ID, erin, at(8)))
		return errBoom
	}))
	require.Equal(t, int64(3), rev(1), "rolled back with the comment")
	require.Nil(t, getComment(t, b, onJob.ID).DeletedAt)
}

// testStagedBatch: a build staged in chunks becomes a job's batch only
// with PutBatch: then the job carries it, its document reads back byte
// for byte as anchor.Build's (in pages bounded by rows and bytes), and
// every record's and the salt's proof, from the stored nodes, is the one
// anchor.Build's tree gives.
func testStagedBatch(t *testing.T, b Backend) {
	ctx := context.Background()
	create(t, b, newJob(1, base), newJob(2, base))
	recs := snapshotRecords(id(1), 1200, false)
	batch, snap := stageBatch(t, b, id(1), id(9), recs, 1)
	_, err := b.AnchorBatch(ctx, id(1))
	require.Equal(t, "anchor not found", openjury.DetailOf(err), "staged rows are not a batch")

	require.NoError(t, putBatch(t, b, batch))
	got, err := b.AnchorBatch(ctx, id(1))
	require.NoError(t, err)
	require.Equal(t, batch, got)
	require.Equal(t, batch, getJob(t, b, id(1)).Anchor, "the job carries its batch")
	require.Nil(t, getJob(t, b, id(2)).Anchor)
	require.Equal(t, snap.Document, document(t, b, id(1)), "byte for byte")

	// Pages: by rows, and by bytes (at least one record each).
	for _, bound := range []struct{ rows, bytes int }{{7, 1 << 30}, {1000, 1500}, {1000, 1}} {
		var all [][]byte
		after := int64(-1)
		for {
			page, err := b.AnchorRecords(ctx, batch.ID, after, bound.rows, bound.bytes)
			require.NoError(t, err)
			if len(page) == 0 {
				break
			}
			require.LessOrEqual(t, len(page), bound.rows)
			size := 0
			for i, r := range page {
				require.Less(t, size, bound.bytes, "record %d of a page comes after its byte bound", i)
				size += len(r.Body)
				require.Equal(t, after+1, r.Ord)
				after = r.Ord
				all = append(all, r.Body)
			}
		}
		require.Len(t, all, len(recs))
		doc, err := anchor.ParseDocument(snap.Document)
		require.NoError(t, err)
		for i, body := range all {
			require.Equal(t, doc.Records[doc.IDs[i]], body)
		}
	}

	svc := anchor.NewService(b, anchor.Config{})
	proofs := snap.Proofs()
	for i, want := range proofs {
		if i%97 != 0 && i < len(proofs)-3 {
			continue // a spread of them, and the last ones (the salt's)
		}
		p, err := svc.Proof(ctx, id(1), want.Record)
		require.NoError(t, err, want.Record)
		require.Equal(t, want, p)
	}
	// ListJobs carries the batch; UpdateJob leaves it alone.
	jobs, err := b.Jobs().ListJobs(ctx, marketplace.JobFilter{Ref: base, Limit: 10})
	require.NoError(t, err)
	for _, j := range jobs {
		if j.ID == id(1) {
			require.Equal(t, batch, j.Anchor)
		}
	}
	j := getJob(t, b, id(1))
	j.FeaturedScore = 3
	j.Anchor = nil
	require.NoError(t, b.Jobs().UpdateJob(ctx, j))
	require.Equal(t, batch, getJob(t, b, id(1)).Anchor)

	// The nodes read back by position; absent positions are left out.
	nodes, err := b.AnchorNodes(ctx, batch.ID, []anchor.NodeAt{{Level: 0, Index: 0}, {Level: 1, Index: 0}, {Level: 0, Index: 1 << 40}, {Level: 30, Index: 0}, {Level: 0, Index: 1201}})
	require.NoError(t, err)
	require.Len(t, nodes, 3, "1201 records and the salt: level 0 ends at index 1201")
	_, ok := nodes[anchor.NodeAt{Level: 0, Index: 1201}]
	require.True(t, ok)
}

// testAnchorLeaves: a leaf is found by record id and by the salt's id, at
// its index among the sorted leaves; several ids give the records that
// carry them in document order (at most two, the salt first); nothing
// else matches (a NUL or invalid UTF-8 id included), nor another batch's
// records. Through anchor.Service, a bare object id that one record
// carries proves that record, one that two carry is Invalid.
func testAnchorLeaves(t *testing.T, b Backend) {
	ctx := context.Background()
	create(t, b, newJob(1, base), newJob(2, base))
	batch, snap := stageBatch(t, b, id(1), id(9), snapshotRecords(id(1), 5, true), 2)
	require.NoError(t, putBatch(t, b, batch))
	other, _ := stageBatch(t, b, id(2), id(10), snapshotRecords(id(2), 1, false), 3)
	require.NoError(t, putBatch(t, b, other))
	leafOf := map[string]openjury.Hash{}
	for _, p := range snap.Proofs() {
		leafOf[p.Record] = p.Leaf
	}
	find := func(batchID string, keys ...string) []string {
		t.Helper()
		refs, err := b.AnchorLeaves(ctx, batchID, keys)
		require.NoError(t, err, keys)
		out := []string{}
		for _, r := range refs {
			at := anchor.NodeAt{Level: 0, Index: r.Index}
			nodes, err := b.AnchorNodes(ctx, batchID, []anchor.NodeAt{at})
			require.NoError(t, err)
			require.Equal(t, leafOf[r.Record], openjury.HashFromBytes(nodes[at]), "the leaf at the index of %s", r.Record)
			out = append(out, r.Record)
		}
		return out
	}
	require.Equal(t, []string{"job:" + id(1)}, find(batch.ID, "job:"+id(1)))
	require.Equal(t, []string{"submission:" + id(1003)}, find(batch.ID, "submission:"+id(1003)))
	require.Equal(t, []string{anchor.SaltRecordID}, find(batch.ID, anchor.SaltRecordID))
	require.Equal(t, []string{"submission:" + id(1000), "vote:" + id(1000)}, find(batch.ID, "vote:"+id(1000), "job:"+id(1000), "submission:"+id(1000)))
	require.Equal(t, []string{anchor.SaltRecordID, "job:" + id(1)}, find(batch.ID, "job:"+id(1), anchor.SaltRecordID))
	for _, key := range []string{"submission:" + id(999), "job:" + id(2), id(1), "x\x00y", "\xff", "comment:"} {
		require.Empty(t, find(batch.ID, key), "%q", key)
	}
	require.Empty(t, find(id(77), "job:"+id(1)), "an unknown batch")

	svc := anchor.NewService(b, anchor.Config{})
	p, err := svc.Proof(ctx, id(1), id(1003))
	require.NoError(t, err)
	require.Equal(t, "submission:"+id(1003), p.Record, "a bare id names its record")
	_, err = svc.Proof(ctx, id(1), id(1000))
	requireKind(t, openjury.Invalid, err)
	_, err = svc.Proof(ctx, id(1), id(2))
	requireKind(t, openjury.NotFound, err)
}

// testPutBatchOnce: one batch per job (a second is a Conflict and changes
// nothing), none for an unknown job, and a failed transaction leaves none.
func testPutBatchOnce(t *testing.T, b Backend) {
	ctx := context.Background()
	create(t, b, newJob(1, base))
	batch, snap := stageBatch(t, b, id(1), id(9), snapshotRecords(id(1), 3, false), 4)
	err := b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		require.NoError(t, tx.Anchors().PutBatch(ctx, batch))
		got, err := tx.Jobs().Job(ctx, id(1))
		require.NoError(t, err)
		require.Equal(t, batch, got.Anchor, "a transaction reads its own batch")
		return errBoom
	})
	require.Equal(t, errBoom, err)
	require.Nil(t, getJob(t, b, id(1)).Anchor)

	require.NoError(t, putBatch(t, b, batch), "nothing was left behind")
	second, _ := stageBatch(t, b, id(1), id(10), snapshotRecords(id(1), 1, false), 5)
	requireKind(t, openjury.Conflict, putBatch(t, b, second))
	require.Equal(t, batch, getJob(t, b, id(1)).Anchor)
	require.Equal(t, snap.Document, document(t, b, id(1)))
	unknown := *second
	unknown.ID, unknown.JobID = id(11), id(7)
	requireKind(t, openjury.NotFound, putBatch(t, b, &unknown))
}

func testAnchorNotFound(t *testing.T, b Backend) {
	ctx := context.Background()
	create(t, b, newJob(1, base))
	for _, tc := range []struct{ job, detail string }{{id(5), "job not found"}, {id(1), "anchor not found"}} {
		_, err := b.AnchorBatch(ctx, tc.job)
		requireKind(t, openjury.NotFound, err)
		require.Equal(t, tc.detail, openjury.DetailOf(err))
		_, err = b.RecordAnchorReceipt(ctx, tc.job, receiptOf("a", 1))
		requireKind(t, openjury.NotFound, err)
		require.Equal(t, tc.detail, openjury.DetailOf(err))
	}
	page, err := b.AnchorRecords(ctx, id(77), -1, 10, 1<<20)
	require.NoError(t, err)
	require.Empty(t, page, "an unknown batch has no records")
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

// testJobOutcome: the winner gains the win's delta and every other
// distinct submitter one loss's, once each; nobody else changes.
func testJobOutcome(t *testing.T, b Backend) {
	ctx := context.Background()
	create(t, b, newJob(1, base), newJob(2, base))
	submit(t, b, newSubmission(101, id(1), alice, base), newSubmission(102, id(1), alice, base),
		newSubmission(103, id(1), bob, base), newSubmission(104, id(1), carol, base), newSubmission(201, id(2), dave, base))
	win, loss := marketplace.ReputationDelta{Score: 10, Wins: 1}, marketplace.ReputationDelta{Losses: 1}
	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		return tx.Reputation().AddJobOutcome(ctx, id(1), bob, win, loss, at(5))
	}))
	for addr, want := range map[openjury.Address][3]int64{alice: {0, 0, 1}, bob: {10, 1, 0}, carol: {0, 0, 1}, dave: {0, 0, 0}} {
		r := getReputation(t, b, addr)
		require.Equal(t, want, [3]int64{r.Score, r.Wins, r.Losses}, "%s", addr)
	}
	require.Equal(t, at(5), getReputation(t, b, bob).UpdatedAt)
	require.NoError(t, b.Reputation().AddJobOutcome(ctx, id(3), bob, win, loss, at(6)), "a job without submissions")
	require.Equal(t, int64(10), getReputation(t, b, bob).Score)
}

// putSmallBatch puts a real batch of job n.
func putSmallBatch(t *testing.T, b Backend, n int) *anchor.Batch {
	t.Helper()
	batch, _ := stageBatch(t, b, id(n), id(900+n), snapshotRecords(id(n), 2, false), byte(n))
	require.NoError(t, putBatch(t, b, batch))
	return batch
}

func testAnchorReceiptOnce(t *testing.T, b Backend) {
	ctx := context.Background()
	create(t, b, newJob(1, base))
	batch := putSmallBatch(t, b, 1)
	r1, r2 := receiptOf("a", 10), receiptOf("b", 11)
	got, err := b.RecordAnchorReceipt(ctx, id(1), r1)
	require.NoError(t, err)
	batch.Receipt = r1
	require.Equal(t, batch, got)
	got, err = b.RecordAnchorReceipt(ctx, id(1), r2)
	require.NoError(t, err)
	require.Equal(t, r1, got.Receipt, "the first receipt stays")
	require.Equal(t, batch, getJob(t, b, id(1)).Anchor)
}

// testAnchorConcurrentReceipts: 20 racing receipts of two different values
// store exactly one; every caller is told the stored one.
func testAnchorConcurrentReceipts(t *testing.T, b Backend) {
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	create(t, b, newJob(1, base))
	putSmallBatch(t, b, 1)
	values := []openjury.ChainRef{receiptOf("a", 10), receiptOf("b", 11)}
	told := make([]openjury.ChainRef, 20)
	errs := raceN(len(told), func(i int) error {
		got, err := b.RecordAnchorReceipt(ctx, id(1), values[i%2])
		if err == nil {
			told[i] = got.Receipt
		}
		return err
	})
	for i, err := range errs {
		require.NoError(t, err, "goroutine %d", i)
	}
	stored, err := b.AnchorBatch(ctx, id(1))
	require.NoError(t, err)
	require.True(t, anchor.SameRef(stored.Receipt, values[0]) || anchor.SameRef(stored.Receipt, values[1]), "stored %+v", stored.Receipt)
	for i := range told {
		require.Equal(t, stored.Receipt, told[i], "goroutine %d was told another receipt", i)
	}
}
