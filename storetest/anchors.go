package storetest

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/marketplace"
)

func (s *suite) anchorTests() []test {
	return []test{
		{name: "StagedBatchServed", run: testStagedBatch},
		{name: "LeavesByRecordObjectAndSalt", run: testAnchorLeaves},
		{name: "PutBatchOnce", run: testPutBatchOnce},
		{name: "NotFound", run: testAnchorNotFound},
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
		_, err = b.RecordAnchorReceipt(ctx, tc.job, receiptOf("a", 1), other, base)
		requireKind(t, openjury.NotFound, err)
		require.Equal(t, tc.detail, openjury.DetailOf(err))
	}
	page, err := b.AnchorRecords(ctx, id(77), -1, 10, 1<<20)
	require.NoError(t, err)
	require.Empty(t, page, "an unknown batch has no records")
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
	got, err := b.RecordAnchorReceipt(ctx, id(1), r1, other, base)
	require.NoError(t, err)
	batch.Receipt = r1
	require.Equal(t, batch, got)
	got, err = b.RecordAnchorReceipt(ctx, id(1), r2, other, base)
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
		got, err := b.RecordAnchorReceipt(ctx, id(1), values[i%2], other, base)
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
