package storetest

import (
	"context"
	"encoding/hex"
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
		{name: "RecordsOfAJob", run: testAnchorRecords},
		{name: "PutAndRead", run: testAnchorPutAndRead},
		{name: "NotFound", run: testAnchorNotFound},
		{name: "FailedTxLeavesNoBatch", run: testAnchorRollback},
		{name: "ReceiptRecordedOnce", run: testAnchorReceiptOnce},
		{name: "ConcurrentReceiptsOneWinner", run: testAnchorConcurrentReceipts},
		{name: "ProofsStoredWithTheBatch", run: testAnchorProofs},
		{name: "BatchWithoutProofs", run: testAnchorWithoutProofs},
	}
}

// newBatch returns a batch of job jobID created at base.
func newBatch(n int, jobID string) *anchor.Batch {
	return &anchor.Batch{
		ID: id(n), JobID: jobID, SchemaVersion: anchor.SchemaVersion,
		Root: openjury.Hash("0x" + strings.Repeat("1", 64)), Salt: openjury.Hash("0x" + strings.Repeat("2", 64)),
		URI: "https://jury.example.com/api/v1/jobs/" + jobID + "/anchor/snapshot", CreatedAt: base.Add(time.Hour),
	}
}

// putAnchor stores b with document and proofs in one transaction.
func putAnchor(t *testing.T, b Backend, batch *anchor.Batch, document []byte, proofs ...anchor.Proof) error {
	t.Helper()
	return b.InTx(context.Background(), func(ctx context.Context, tx marketplace.Tx) error {
		return tx.Anchors().PutAnchor(ctx, batch, document, proofs)
	})
}

// builtBatch builds a real snapshot of job jobID with n records besides
// the job's (a tree of n+2 leaves) and returns its batch, document and
// proofs.
func builtBatch(t *testing.T, n int, jobID string) (*anchor.Batch, *anchor.Snapshot) {
	t.Helper()
	recs := []anchor.Record{{ID: "job:" + jobID, Type: "job", Fields: map[string]any{"title": "café €"}}}
	for i := range n {
		recs = append(recs, anchor.Record{ID: "submission:" + id(1000+i), Type: "submission", Fields: map[string]any{"content": strings.Repeat("x", i%7)}})
	}
	var salt [anchor.SaltSize]byte
	salt[0], salt[31] = 7, byte(n)
	snap, err := anchor.Build(jobID, salt, base, recs)
	require.NoError(t, err)
	batch := newBatch(9, jobID)
	batch.Root, batch.Salt = snap.Root, snap.Salt
	return batch, snap
}

// receiptOf is a complete receipt; tx picks its transaction hash.
func receiptOf(tx string, block int64) openjury.ChainRef {
	return openjury.ChainRef{
		TxHash: openjury.Hash("0x" + strings.Repeat(tx, 64)), ChainID: ptr(int64(8453)),
		Contract: openjury.MustAddress("0x" + strings.Repeat("c", 40)), BlockNumber: ptr(block), LogIndex: ptr(int64(1)),
	}
}

func testAnchorRecords(t *testing.T, b Backend) {
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

	var recs *marketplace.AnchorRecords
	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		var err error
		recs, err = tx.Anchors().AnchorRecords(ctx, id(1))
		return err
	}))
	subIDs := make([]string, len(recs.Submissions))
	for i, s := range recs.Submissions {
		subIDs[i] = s.ID
		require.Equal(t, getSubmission(t, b, s.ID), s)
	}
	require.Equal(t, []string{id(101), id(102), id(103), id(104), id(105)}, subIDs)
	require.Len(t, recs.Votes, 2)
	require.Equal(t, []string{id(302), id(301)}, []string{recs.Votes[0].ID, recs.Votes[1].ID}, "oldest first")
	require.Equal(t, getVote(t, b, id(1), alice), recs.Votes[1])
	require.Len(t, recs.FinalVotes, 1)
	require.Equal(t, getFinalVote(t, b, id(1), dave), recs.FinalVotes[0])
	require.Equal(t, []string{id(502), id(501), id(503)}, commentIDs(recs.Comments), "the job's and its submissions' comments, oldest first")
	require.NotNil(t, recs.Comments[2].DeletedAt, "deleted comments are included, marked deleted")

	// A job without anything else has empty lists.
	create(t, b, newJob(3, base))
	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		var err error
		recs, err = tx.Anchors().AnchorRecords(ctx, id(3))
		return err
	}))
	require.Empty(t, recs.Submissions)
	require.Empty(t, recs.Votes)
	require.Empty(t, recs.FinalVotes)
	require.Empty(t, recs.Comments)
}

func testAnchorPutAndRead(t *testing.T, b Backend) {
	ctx := context.Background()
	create(t, b, newJob(1, base), newJob(2, base.Add(time.Second)))
	batch := newBatch(9, id(1))
	doc := []byte(`{"records":[{"content":"café €\u0000","id":"x"}],"schema_version":1}`)
	require.NoError(t, putAnchor(t, b, batch, doc))

	got, err := b.AnchorBatch(ctx, id(1))
	require.NoError(t, err)
	require.Equal(t, batch, got)
	require.Equal(t, batch, getJob(t, b, id(1)).Anchor, "the job carries its batch")
	require.Nil(t, getJob(t, b, id(2)).Anchor)
	stored, err := b.AnchorDocument(ctx, id(1))
	require.NoError(t, err)
	require.Equal(t, doc, stored, "byte for byte")
	jobs, err := b.Jobs().ListJobs(ctx, marketplace.JobFilter{Ref: base, Limit: 10})
	require.NoError(t, err)
	require.Len(t, jobs, 2)
	require.Equal(t, batch, jobs[1].Anchor, "listed jobs carry their batch")
	require.Nil(t, jobs[0].Anchor)

	// One batch per job; an unknown job has none.
	requireKind(t, openjury.Conflict, putAnchor(t, b, newBatch(10, id(1)), doc))
	requireKind(t, openjury.NotFound, putAnchor(t, b, newBatch(11, id(7)), doc))
	// UpdateJob (a boost, a close) leaves the anchor columns alone.
	j := getJob(t, b, id(1))
	j.FeaturedScore = 3
	j.Anchor = nil
	require.NoError(t, b.Jobs().UpdateJob(ctx, j))
	require.Equal(t, batch, getJob(t, b, id(1)).Anchor)
}

func testAnchorNotFound(t *testing.T, b Backend) {
	ctx := context.Background()
	create(t, b, newJob(1, base))
	for _, tc := range []struct{ job, detail string }{{id(5), "job not found"}, {id(1), "anchor not found"}} {
		_, err := b.AnchorBatch(ctx, tc.job)
		requireKind(t, openjury.NotFound, err)
		require.Equal(t, tc.detail, openjury.DetailOf(err))
		_, err = b.AnchorDocument(ctx, tc.job)
		requireKind(t, openjury.NotFound, err)
		require.Equal(t, tc.detail, openjury.DetailOf(err))
		_, err = b.RecordAnchorReceipt(ctx, tc.job, receiptOf("a", 1))
		requireKind(t, openjury.NotFound, err)
		require.Equal(t, tc.detail, openjury.DetailOf(err))
		_, _, err = b.AnchorProof(ctx, tc.job, anchor.SaltRecordID)
		requireKind(t, openjury.NotFound, err)
		require.Equal(t, tc.detail, openjury.DetailOf(err))
	}
}

// testAnchorProofs: the proofs stored with a batch (more than one insert
// statement's worth) are read back one by one, equal to the snapshot's and
// verifying against the batch's root; a record without a proof is
// NotFound; another job's proofs are not this job's.
func testAnchorProofs(t *testing.T, b Backend) {
	ctx := context.Background()
	create(t, b, newJob(1, base), newJob(2, base))
	batch, snap := builtBatch(t, 1200, id(1))
	proofs := snap.Proofs()
	require.Len(t, proofs, 1202)
	require.NoError(t, putAnchor(t, b, batch, snap.Document, proofs...))
	small, smallSnap := builtBatch(t, 1, id(2))
	small.ID = id(10)
	require.NoError(t, putAnchor(t, b, small, smallSnap.Document, smallSnap.Proofs()...))

	doc, err := anchor.ParseDocument(snap.Document)
	require.NoError(t, err)
	for i, want := range proofs {
		if i%97 != 0 && i < len(proofs)-3 {
			continue // a spread of them, and the last ones (the salt's)
		}
		got, stored, err := b.AnchorProof(ctx, id(1), want.Record)
		require.NoError(t, err, want.Record)
		require.True(t, stored)
		require.Equal(t, want, got)
		require.Equal(t, batch.Root, got.Root)
		data := doc.Records[want.Record]
		if want.Record == anchor.SaltRecordID {
			data, err = hex.DecodeString(string(snap.Salt)[2:])
			require.NoError(t, err)
		}
		require.NoError(t, anchor.VerifyProof(data, got.Proof, batch.Root), want.Record)
	}
	got, stored, err := b.AnchorProof(ctx, id(2), "job:"+id(2))
	require.NoError(t, err)
	require.True(t, stored)
	require.Equal(t, smallSnap.Proofs()[0], got)

	for _, record := range []string{"submission:" + id(999), "job:" + id(2), "x\x00y", "\xff"} {
		_, stored, err = b.AnchorProof(ctx, id(1), record)
		requireKind(t, openjury.NotFound, err)
		require.Equal(t, "record not found", openjury.DetailOf(err), "%q", record)
		require.True(t, stored)
	}

	// A failed transaction leaves no proofs behind.
	create(t, b, newJob(3, base))
	b3, snap3 := builtBatch(t, 3, id(3))
	b3.ID = id(11)
	err = b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		require.NoError(t, tx.Anchors().PutAnchor(ctx, b3, snap3.Document, snap3.Proofs()))
		return errBoom
	})
	require.Equal(t, errBoom, err)
	_, _, err = b.AnchorProof(ctx, id(3), anchor.SaltRecordID)
	require.Equal(t, "anchor not found", openjury.DetailOf(err))
	// A second batch of a job stores none of its proofs.
	requireKind(t, openjury.Conflict, putAnchor(t, b, newBatch(12, id(1)), []byte("{}"), anchor.Proof{Record: "extra", Leaf: batch.Root, Root: batch.Root}))
	_, _, err = b.AnchorProof(ctx, id(1), "extra")
	require.Equal(t, "record not found", openjury.DetailOf(err))
}

// testAnchorWithoutProofs: a batch stored without proofs (as before they
// were stored) reads as not stored, for every record id, without error.
func testAnchorWithoutProofs(t *testing.T, b Backend) {
	ctx := context.Background()
	create(t, b, newJob(1, base))
	batch, snap := builtBatch(t, 2, id(1))
	require.NoError(t, putAnchor(t, b, batch, snap.Document))
	for _, record := range []string{anchor.SaltRecordID, "job:" + id(1), "nope"} {
		p, stored, err := b.AnchorProof(ctx, id(1), record)
		require.NoError(t, err)
		require.False(t, stored)
		require.Zero(t, p)
	}
}

func testAnchorRollback(t *testing.T, b Backend) {
	ctx := context.Background()
	create(t, b, newJob(1, base))
	err := b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		require.NoError(t, tx.Anchors().PutAnchor(ctx, newBatch(9, id(1)), []byte("{}"), nil))
		got, err := tx.Jobs().Job(ctx, id(1))
		require.NoError(t, err)
		require.NotNil(t, got.Anchor, "a transaction reads its own batch")
		return errBoom
	})
	require.Equal(t, errBoom, err)
	require.Nil(t, getJob(t, b, id(1)).Anchor)
	_, err = b.AnchorDocument(ctx, id(1))
	requireKind(t, openjury.NotFound, err)
	require.NoError(t, putAnchor(t, b, newBatch(9, id(1)), []byte("{}")), "nothing was left behind")
}

func testAnchorReceiptOnce(t *testing.T, b Backend) {
	ctx := context.Background()
	create(t, b, newJob(1, base))
	batch := newBatch(9, id(1))
	require.NoError(t, putAnchor(t, b, batch, []byte("{}")))
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
	require.NoError(t, putAnchor(t, b, newBatch(9, id(1)), []byte("{}")))
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
