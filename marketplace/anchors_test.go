package marketplace_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/marketplace"
)

// anchorWorld is a world whose salts are fixed and whose anchor service
// has one operator and a scriptable receipt checker.
type anchorWorld struct {
	*world
	anchors  *anchor.Service
	checker  *fakeChecker
	operator openjury.Address
}

// fakeChecker is a scriptable anchor.ReceiptChecker that counts its calls.
type fakeChecker struct {
	err   atomic.Pointer[error]
	calls atomic.Int64
}

func (f *fakeChecker) CheckAnchorReceipt(_ context.Context, b *anchor.Batch, ref openjury.ChainRef) error {
	f.calls.Add(1)
	if b == nil || b.Root == "" || ref.TxHash == "" {
		return errors.New("checker called without a batch or receipt")
	}
	if e := f.err.Load(); e != nil {
		return *e
	}
	return nil
}

func (f *fakeChecker) fail(err error) { f.err.Store(&err) }

var fixedSalt = bytes.Repeat([]byte{0x5a}, anchor.SaltSize)

func newAnchorWorld(t *testing.T, db *bunstore.DB, salt []byte) *anchorWorld {
	w := newWorld(t, db)
	cfg := loopConfig
	cfg.BaseURL = "https://jury.example.com"
	cfg.SaltSource = bytes.NewReader(salt)
	// The escrow is followed: every job of these tests is unfunded and
	// must close exactly as without it (schema 1, the same bytes as
	// anchor.Build's reference).
	cfg.Escrow = testEscrow
	w.svc = marketplace.NewService(db, w.clock, cfg)
	aw := &anchorWorld{world: w, checker: &fakeChecker{}, operator: w.addr(99)}
	aw.anchors = anchor.NewService(db, anchor.Config{Operators: []openjury.Address{aw.operator}, Checker: aw.checker})
	return aw
}

// batches counts the stored batches of a job.
func (w *anchorWorld) batches(jobID string) int {
	w.t.Helper()
	n, err := w.db.Bun().NewSelect().Table("anchor_batches").Where("job_id = ?", jobID).Count(w.ctx)
	require.NoError(w.t, err)
	return int(n)
}

// records returns the snapshot's records as JSON objects by id.
func (w *anchorWorld) document(jobID string) *anchor.Document {
	w.t.Helper()
	raw, err := w.anchors.Document(w.ctx, jobID)
	require.NoError(w.t, err)
	d, err := anchor.ParseDocument(raw)
	require.NoError(w.t, err)
	return d
}

func TestCloseWritesOneSnapshotInItsTransaction(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		w := newAnchorWorld(t, db, append(bytes.Clone(fixedSalt), bytes.Repeat([]byte{0x77}, anchor.SaltSize)...))
		sponsor, a, b, juror := w.addr(1), w.addr(2), w.addr(3), w.addr(4)
		for _, x := range []openjury.Address{a, b, juror} {
			w.stake(x, 10)
		}
		w.score(juror, 10)
		job := w.job(sponsor)
		other := w.job(sponsor)
		sa := w.submit(a, job.ID)
		sb := w.submit(b, job.ID)
		_, err := w.svc.Vote(w.ctx, juror, marketplace.VoteInput{JobID: job.ID, SubmissionID: sa.ID, Review: map[string]any{"ok": true}})
		require.NoError(t, err)
		_, err = w.svc.FinalVote(w.ctx, juror, marketplace.FinalVoteInput{JobID: job.ID, SubmissionID: sb.ID})
		require.NoError(t, err)
		kept, err := w.svc.AddComment(w.ctx, juror, marketplace.TargetJob, job.ID, marketplace.CommentInput{Content: "on the job"})
		require.NoError(t, err)
		onSub, err := w.svc.AddComment(w.ctx, a, marketplace.TargetSubmission, sb.ID, marketplace.CommentInput{Content: "on a submission"})
		require.NoError(t, err)
		gone, err := w.svc.AddComment(w.ctx, b, marketplace.TargetJob, job.ID, marketplace.CommentInput{Content: "secret words"})
		require.NoError(t, err)
		_, err = w.svc.DeleteComment(w.ctx, b, gone.ID)
		require.NoError(t, err)
		_, err = w.svc.AddComment(w.ctx, b, marketplace.TargetJob, other.ID, marketplace.CommentInput{Content: "elsewhere"})
		require.NoError(t, err)

		// Open: no snapshot, 404 anchor not found; unknown job: job not found.
		_, err = w.anchors.Batch(w.ctx, job.ID)
		requireKind(t, err, openjury.NotFound, "anchor not found")
		_, err = w.anchors.Document(w.ctx, job.ID)
		requireKind(t, err, openjury.NotFound, "anchor not found")
		_, err = w.anchors.Batch(w.ctx, openjury.NewID())
		requireKind(t, err, openjury.NotFound, "job not found")
		_, err = w.anchors.Document(w.ctx, openjury.NewID())
		requireKind(t, err, openjury.NotFound, "job not found")
		_, err = w.anchors.Batch(w.ctx, "not-an-id")
		requireKind(t, err, openjury.NotFound, "job not found")

		// A failed close (a refused winner) writes no batch.
		_, err = w.svc.CloseJob(w.ctx, sponsor, job.ID, marketplace.CloseInput{WinnerSubmissionID: openjury.NewID()})
		requireKind(t, err, openjury.Invalid, "")
		require.Zero(t, w.batches(job.ID))

		now := w.clock.Now()
		res, err := w.svc.CloseJob(w.ctx, sponsor, job.ID, marketplace.CloseInput{WinnerSubmissionID: sb.ID})
		require.NoError(t, err)
		require.Equal(t, 1, w.batches(job.ID))
		got := res.Job.Anchor
		require.NotNil(t, got)
		require.Equal(t, openjury.Hash("0x"+strings.Repeat("5a", 32)), got.Salt)
		require.Equal(t, "https://jury.example.com/api/v1/jobs/"+job.ID+"/anchor/snapshot", got.URI)
		require.Equal(t, anchor.SchemaVersion, got.SchemaVersion)
		require.True(t, got.Receipt.IsZero())
		require.WithinDuration(t, now, got.CreatedAt, time.Millisecond)

		// The job, its batch and the document agree; every proof verifies.
		j, err := w.svc.Job(w.ctx, job.ID)
		require.NoError(t, err)
		require.Equal(t, got, j.Anchor)
		stored, err := w.anchors.Batch(w.ctx, job.ID)
		require.NoError(t, err)
		require.Equal(t, got, stored)
		raw, err := w.anchors.Document(w.ctx, job.ID)
		require.NoError(t, err)
		require.NoError(t, anchor.VerifyDocument(raw, got.Root))
		d := w.document(job.ID)
		require.Equal(t, job.ID, d.JobID)
		require.ElementsMatch(t, []string{
			"job:" + job.ID, "submission:" + sa.ID, "submission:" + sb.ID,
			"vote:" + mustVoteID(t, w, job.ID, juror), "final_vote:" + mustFinalVoteID(t, w, job.ID, juror),
			"comment:" + kept.ID, "comment:" + onSub.ID, "comment:" + gone.ID,
		}, d.IDs)
		require.Contains(t, string(d.Records["job:"+job.ID]), `"status":"closed"`)
		require.Contains(t, string(d.Records["job:"+job.ID]), `"winner_submission_id":"`+sb.ID+`"`)
		require.Contains(t, string(d.Records["comment:"+onSub.ID]), `"content":"on a submission"`)
		require.Contains(t, string(d.Records["comment:"+gone.ID]), `"deleted":true`)
		require.NotContains(t, string(raw), "secret words")
		require.NotContains(t, string(raw), "elsewhere")
		for _, id := range append(d.IDs, anchor.SaltRecordID) {
			p, err := w.anchors.Proof(w.ctx, job.ID, id)
			require.NoError(t, err)
			require.Equal(t, got.Root, p.Root)
			fromDoc, err := d.Prove(id)
			require.NoError(t, err)
			require.Equal(t, fromDoc, p, "the stored proof is the document's")
			data := d.Records[id]
			if id == anchor.SaltRecordID {
				data = fixedSalt
			}
			require.NoError(t, anchor.VerifyProof(data, p.Proof, got.Root), id)
		}
		_, err = w.anchors.Proof(w.ctx, job.ID, "comment:"+openjury.NewID())
		requireKind(t, err, openjury.NotFound, "record not found")
		_, err = w.anchors.Proof(w.ctx, job.ID, "")
		requireKind(t, err, openjury.Invalid, "record: is required")
		_, err = w.anchors.Proof(w.ctx, other.ID, "salt")
		requireKind(t, err, openjury.NotFound, "anchor not found")

		// Listing carries the anchor too.
		page, err := w.svc.ListJobs(w.ctx, marketplace.ListJobsInput{Status: "all"})
		require.NoError(t, err)
		for _, lj := range page.Jobs {
			if lj.ID == job.ID {
				require.Equal(t, got, lj.Anchor)
			} else {
				require.Nil(t, lj.Anchor)
			}
		}
	})
}

func mustVoteID(t *testing.T, w *anchorWorld, jobID string, voter openjury.Address) string {
	v, err := w.db.Votes().Vote(w.ctx, jobID, voter)
	require.NoError(t, err)
	return v.ID
}

func mustFinalVoteID(t *testing.T, w *anchorWorld, jobID string, voter openjury.Address) string {
	v, err := w.db.FinalVotes().FinalVote(w.ctx, jobID, voter)
	require.NoError(t, err)
	return v.ID
}

func TestFinalizeWritesOneSnapshotAndAFailedCloseNone(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		// Only one salt: the first close takes it, a second would fail.
		w := newAnchorWorld(t, db, fixedSalt[:anchor.SaltSize-1])
		sponsor, a, voter := w.addr(1), w.addr(2), w.addr(5)
		w.stake(a, 10)
		w.stake(voter, 10)
		job := w.job(sponsor)
		sa := w.submit(a, job.ID)

		// The salt source fails: the close changes nothing.
		_, err := w.svc.CloseJob(w.ctx, sponsor, job.ID, marketplace.CloseInput{WinnerSubmissionID: sa.ID})
		requireKind(t, err, openjury.Internal, "")
		require.Zero(t, w.batches(job.ID))
		j, err := w.svc.Job(w.ctx, job.ID)
		require.NoError(t, err)
		require.Equal(t, marketplace.StatusOpen, j.Status)
		require.Nil(t, j.Anchor)
		rep, err := w.svc.Reputation(w.ctx, a.String())
		require.NoError(t, err)
		require.Zero(t, rep.Wins)

		w2 := newAnchorWorld(t, db, fixedSalt)
		_, err = w2.svc.FinalVote(w.ctx, voter, marketplace.FinalVoteInput{JobID: job.ID, SubmissionID: sa.ID})
		require.NoError(t, err)
		w2.clock.Advance(2 * time.Hour)
		res, err := w2.svc.FinalizeJob(w.ctx, voter, job.ID)
		require.NoError(t, err)
		require.NotNil(t, res.Job.Anchor)
		require.Equal(t, 1, w2.batches(job.ID))
		d := w2.document(job.ID)
		require.Contains(t, d.IDs, "final_vote:"+mustFinalVoteID(t, w2, job.ID, voter))
		require.NoError(t, anchor.VerifyDocument(mustDoc(t, w2, job.ID), res.Job.Anchor.Root))

		// The store refuses a second batch of the job.
		err = db.InTx(w.ctx, func(ctx context.Context, tx marketplace.Tx) error {
			b := *res.Job.Anchor
			b.ID = openjury.NewID()
			return tx.Anchors().PutBatch(ctx, &b)
		})
		requireKind(t, err, openjury.Conflict, "")
		require.Equal(t, 1, w2.batches(job.ID))
	})
}

func mustDoc(t *testing.T, w *anchorWorld, jobID string) []byte {
	raw, err := w.anchors.Document(w.ctx, jobID)
	require.NoError(t, err)
	return raw
}

func receipt(tx byte, block int64) openjury.ChainRef {
	chain, logIndex := int64(8453), int64(2)
	return openjury.ChainRef{
		TxHash: openjury.Hash("0x" + strings.Repeat(string(rune(tx)), 64)), ChainID: &chain,
		Contract: openjury.MustAddress("0x" + strings.Repeat("c", 40)), BlockNumber: &block, LogIndex: &logIndex,
	}
}

func TestRecordAnchorReceipt(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		w := newAnchorWorld(t, db, fixedSalt)
		sponsor, a := w.addr(1), w.addr(2)
		w.stake(a, 10)
		job := w.job(sponsor)
		sa := w.submit(a, job.ID)
		r1, r2 := receipt('a', 100), receipt('b', 100)

		// 403 before anything else, even for an unknown job or a bad receipt.
		_, err := w.anchors.RecordReceipt(w.ctx, a, openjury.NewID(), openjury.ChainRef{})
		requireKind(t, err, openjury.Forbidden, "only an operator may record an anchor receipt")
		_, err = w.anchors.RecordReceipt(w.ctx, "", job.ID, r1)
		requireKind(t, err, openjury.Forbidden, "")
		// 400 for each missing or out-of-range part.
		for detail, mod := range map[string]func(*openjury.ChainRef){
			"anchor_tx_hash: is required":          func(r *openjury.ChainRef) { r.TxHash = "" },
			"anchor_chain_id: is required":         func(r *openjury.ChainRef) { r.ChainID = nil },
			"anchor_chain_id: must be positive":    func(r *openjury.ChainRef) { zero := int64(0); r.ChainID = &zero },
			"anchor_contract_address: is required": func(r *openjury.ChainRef) { r.Contract = "" },
			"anchor_block_number: is required":     func(r *openjury.ChainRef) { r.BlockNumber = nil },
			"anchor_block_number: must be at least 0": func(r *openjury.ChainRef) {
				neg := int64(-1)
				r.BlockNumber = &neg
			},
			"anchor_log_index: is required": func(r *openjury.ChainRef) { r.LogIndex = nil },
			"anchor_log_index: must be at least 0": func(r *openjury.ChainRef) {
				neg := int64(-1)
				r.LogIndex = &neg
			},
		} {
			bad := receipt('a', 1)
			mod(&bad)
			_, err = w.anchors.RecordReceipt(w.ctx, w.operator, openjury.NewID(), bad)
			requireKind(t, err, openjury.Invalid, detail)
		}
		// 404 job, 404 anchor (open job).
		_, err = w.anchors.RecordReceipt(w.ctx, w.operator, openjury.NewID(), r1)
		requireKind(t, err, openjury.NotFound, "job not found")
		_, err = w.anchors.RecordReceipt(w.ctx, w.operator, job.ID, r1)
		requireKind(t, err, openjury.NotFound, "anchor not found")
		require.Zero(t, w.checker.calls.Load())

		_, err = w.svc.CloseJob(w.ctx, sponsor, job.ID, marketplace.CloseInput{WinnerSubmissionID: sa.ID})
		require.NoError(t, err)

		// The checker refuses (mismatch) or cannot reach the chain: nothing stored.
		w.checker.fail(openjury.E(openjury.Invalid, "chain", "anchor_block_number: the log is in block 101"))
		_, err = w.anchors.RecordReceipt(w.ctx, w.operator, job.ID, r1)
		requireKind(t, err, openjury.Invalid, "anchor_block_number: the log is in block 101")
		w.checker.fail(openjury.E(openjury.Unavailable, "chain", "chain RPC unavailable"))
		_, err = w.anchors.RecordReceipt(w.ctx, w.operator, job.ID, r1)
		requireKind(t, err, openjury.Unavailable, "")
		b, err := w.anchors.Batch(w.ctx, job.ID)
		require.NoError(t, err)
		require.True(t, b.Receipt.IsZero())

		w.checker.err.Store(nil)
		b, err = w.anchors.RecordReceipt(w.ctx, w.operator, job.ID, r1)
		require.NoError(t, err)
		require.Equal(t, r1, b.Receipt)
		calls := w.checker.calls.Load()
		require.Equal(t, int64(3), calls)
		j, err := w.svc.Job(w.ctx, job.ID)
		require.NoError(t, err)
		require.Equal(t, r1, j.Anchor.Receipt)

		// Same values again: the batch; different: 409 without a chain check.
		again, err := w.anchors.RecordReceipt(w.ctx, w.operator, job.ID, receipt('a', 100))
		require.NoError(t, err)
		require.Equal(t, b, again)
		_, err = w.anchors.RecordReceipt(w.ctx, w.operator, job.ID, r2)
		requireKind(t, err, openjury.Conflict, "a different anchor receipt is already recorded")
		_, err = w.anchors.RecordReceipt(w.ctx, w.operator, job.ID, receipt('a', 101))
		requireKind(t, err, openjury.Conflict, "")
		require.Equal(t, calls, w.checker.calls.Load())
	})
}

func TestRacingAnchorReceiptsStoreOne(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		w := newAnchorWorld(t, db, fixedSalt)
		w.anchors = anchor.NewService(db, anchor.Config{Operators: []openjury.Address{w.operator}}) // stored as given
		sponsor, a := w.addr(1), w.addr(2)
		w.stake(a, 10)
		job := w.job(sponsor)
		sa := w.submit(a, job.ID)
		_, err := w.svc.CloseJob(w.ctx, sponsor, job.ID, marketplace.CloseInput{WinnerSubmissionID: sa.ID})
		require.NoError(t, err)

		values := [2]openjury.ChainRef{receipt('a', 7), receipt('b', 8)}
		errs := parallel(20, func(i int) error {
			_, err := w.anchors.RecordReceipt(w.ctx, w.operator, job.ID, values[i%2])
			return err
		})
		b, err := w.anchors.Batch(w.ctx, job.ID)
		require.NoError(t, err)
		winner := slicesIndex(values, b.Receipt)
		require.GreaterOrEqual(t, winner, 0, "the stored receipt is one of the two")
		for i, err := range errs {
			if i%2 == winner {
				require.NoError(t, err, "call %d sent the stored value", i)
			} else {
				requireKind(t, err, openjury.Conflict, "a different anchor receipt is already recorded")
			}
		}
	})
}

func slicesIndex(values [2]openjury.ChainRef, ref openjury.ChainRef) int {
	for i, v := range values {
		if anchor.SameRef(v, ref) {
			return i
		}
	}
	return -1
}
