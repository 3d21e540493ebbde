package marketplace_test

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest"
)

// hookDB is the database with a hook that runs once, the first time a
// close reads the comments of a snapshot (outside any transaction, in the
// middle of the build).
type hookDB struct {
	*bunstore.DB
	once sync.Once
	hook func()
}

func (h *hookDB) Snapshots() marketplace.SnapshotStore {
	return hookScans{SnapshotStore: h.DB.Snapshots(), h: h}
}

type hookScans struct {
	marketplace.SnapshotStore
	h *hookDB
}

func (s hookScans) ScanComments(ctx context.Context, jobID string, rev int64, after *marketplace.Cursor, limit int, fn func(*marketplace.Comment) bool) error {
	s.h.once.Do(func() {
		if s.h.hook != nil {
			s.h.hook()
		}
	})
	return s.SnapshotStore.ScanComments(ctx, jobID, rev, after, limit, fn)
}

// hooked returns w's service on a hookDB running hook once mid-build.
func (w *anchorWorld) hooked(salt []byte, hook func()) *marketplace.Service {
	cfg := loopConfig
	cfg.BaseURL = "https://jury.example.com"
	cfg.SaltSource = bytes.NewReader(salt)
	return marketplace.NewService(&hookDB{DB: w.db, hook: hook}, w.clock, cfg)
}

// snapshotOf reads back every record of a closed job through the lists
// and builds, with anchor.Build, the snapshot the close must have served:
// the same records, salt and time. later names the comments posted
// after the close began (left out) and those deleted then (kept
// undeleted).
func snapshotOf(t *testing.T, w *anchorWorld, jobID string, salt []byte, later ...laterComment) *anchor.Snapshot {
	t.Helper()
	ctx := w.ctx
	job, err := w.svc.Job(ctx, jobID)
	require.NoError(t, err)
	recs := &marketplace.AnchorRecords{}
	subs, err := w.db.Submissions().Submissions(ctx, jobID, 10000, nil)
	require.NoError(t, err)
	recs.Submissions = subs
	require.NoError(t, w.db.Snapshots().ScanVotes(ctx, jobID, nil, 10000, func(v *marketplace.Vote) bool {
		recs.Votes = append(recs.Votes, v)
		return true
	}))
	require.NoError(t, w.db.Snapshots().ScanFinalVotes(ctx, jobID, nil, 10000, func(v *marketplace.FinalVote) bool {
		recs.FinalVotes = append(recs.FinalVotes, v)
		return true
	}))
	targets := []struct {
		kind marketplace.TargetType
		id   string
	}{{marketplace.TargetJob, jobID}}
	for _, s := range subs {
		targets = append(targets, struct {
			kind marketplace.TargetType
			id   string
		}{marketplace.TargetSubmission, s.ID})
	}
	for _, tg := range targets {
		cs, err := w.db.Comments().Comments(ctx, tg.kind, tg.id, 10000, nil)
		require.NoError(t, err)
		for _, c := range cs {
			i := slices.IndexFunc(later, func(l laterComment) bool { return l.id == c.ID })
			if i >= 0 && later[i].posted {
				continue // posted after the close began: not a record
			}
			if i >= 0 {
				c.DeletedAt, c.DeletedBy = nil, ""
			}
			recs.Comments = append(recs.Comments, c)
		}
	}
	slices.SortFunc(recs.Comments, func(a, b *marketplace.Comment) int {
		return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), strings.Compare(a.ID, b.ID))
	})
	var s [anchor.SaltSize]byte
	copy(s[:], salt)
	snap, err := anchor.Build(jobID, s, *job.ClosedAt, marketplace.SnapshotRecords(job, recs))
	require.NoError(t, err)
	return snap
}

// laterComment is a comment posted (or deleted, posted false) after a
// close began.
type laterComment struct {
	id     string
	posted bool
}

// requireServed checks that the job's served document is snap's byte for
// byte, its root the job's, and a spread of proofs snap's.
func requireServed(t *testing.T, w *anchorWorld, jobID string, snap *anchor.Snapshot) {
	t.Helper()
	job, err := w.svc.Job(w.ctx, jobID)
	require.NoError(t, err)
	require.Equal(t, snap.Root, job.Anchor.Root)
	require.Equal(t, string(snap.Document), string(mustDoc(t, w, jobID)), "byte for byte as anchor.Build")
	require.Equal(t, int64(len(snap.Document)), job.Anchor.Size)
	proofs := snap.Proofs()
	for i, want := range proofs {
		if i%7 != 0 && i != len(proofs)-1 {
			continue
		}
		got, err := w.anchors.Proof(w.ctx, jobID, want.Record)
		require.NoError(t, err)
		require.Equal(t, want, got)
	}
}

// randText is a short text with awkward characters.
func randText(rng *rand.Rand) string {
	parts := []string{"a", "é", "€", "😀", "\u2028", "<b>", "&amp;", `"q"`, "\\", "\t", "ü", "日本", "0", " "}
	var b strings.Builder
	for range 1 + rng.IntN(12) {
		b.WriteString(parts[rng.IntN(len(parts))])
	}
	return "x" + b.String()
}

// randValue is a JSON value of metadata or a review.
func randValue(rng *rand.Rand, depth int) any {
	switch rng.IntN(7) {
	case 0:
		return []any{0.1, 1e21, -3, 123456789.125, 5e-7}[rng.IntN(5)]
	case 1:
		return rng.IntN(2) == 0
	case 2:
		return nil
	case 3:
		if depth < 2 {
			return []any{randValue(rng, depth+1), randText(rng)}
		}
	case 4:
		if depth < 2 {
			return map[string]any{randText(rng): randValue(rng, depth+1), "k": randText(rng)}
		}
	}
	return randText(rng)
}

// TestStreamedSnapshotIsBuilds: for random jobs (submissions with random
// evidence, votes with reviews, final votes, comments and replies on the
// job and its submissions, some deleted, comments elsewhere), closed or
// finalized in either form (streamed under a lease, or in the caller's
// transaction), the served document and root are byte for byte
// anchor.Build's of the same records, and a finalize picks PickWinner's
// winner. One job is big enough for many staged chunks.
func TestStreamedSnapshotIsBuilds(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		for seed := range 6 {
			rng := rand.New(rand.NewPCG(uint64(seed), 42))
			salt := bytes.Repeat([]byte{byte(seed + 1)}, anchor.SaltSize)
			w := newAnchorWorld(t, db, salt)
			sponsor := w.addr(1)
			var agents, jurors []openjury.Address
			for i := range 6 {
				agents = append(agents, w.addr(byte(10+i)))
				jurors = append(jurors, w.addr(byte(40+i)))
				w.stake(agents[i], 10)
				w.stake(jurors[i], 10)
				w.score(jurors[i], int64(10+i*3))
			}
			job := w.job(sponsor)
			tick := func() { w.clock.Advance(time.Duration(rng.IntN(3)) * time.Millisecond) } // ties too
			var subs []*marketplace.Submission
			for range 1 + rng.IntN(7) {
				tick()
				in := marketplace.SubmitInput{JobID: job.ID, Content: randText(rng)}
				for range rng.IntN(3) {
					conf := float64(rng.IntN(101)) / 100
					e := marketplace.EvidenceInput{Type: "url", Quote: randText(rng), Confidence: &conf}
					if rng.IntN(2) == 0 {
						e.SourceURL, e.Metadata = "https://example.org/"+fmt.Sprint(rng.IntN(9)), map[string]any{"m": randValue(rng, 0)}
					}
					in.Evidence = append(in.Evidence, e)
				}
				sub, err := w.svc.Submit(w.ctx, agents[rng.IntN(len(agents))], in)
				if err == nil {
					subs = append(subs, sub)
				}
			}
			require.NotEmpty(t, subs)
			for _, j := range jurors[:1+rng.IntN(len(jurors))] {
				tick()
				var review map[string]any
				if rng.IntN(2) == 0 {
					review = map[string]any{"ok": rng.IntN(2) == 0, "note": randText(rng), "x": randValue(rng, 0)}
				}
				_, err := w.svc.Vote(w.ctx, j, marketplace.VoteInput{JobID: job.ID, SubmissionID: subs[rng.IntN(len(subs))].ID, Review: review})
				require.NoError(t, err)
			}
			finalizer := jurors[0]
			for _, j := range jurors[:1+rng.IntN(len(jurors))] {
				tick()
				_, err := w.svc.FinalVote(w.ctx, j, marketplace.FinalVoteInput{JobID: job.ID, SubmissionID: subs[rng.IntN(len(subs))].ID})
				require.NoError(t, err)
			}
			var comments []*marketplace.Comment
			nComments := rng.IntN(15)
			if seed == 5 {
				nComments = 1300 // several chunks of staged records
			}
			for i := range nComments {
				if i%20 == 19 {
					w.clock.Advance(time.Minute) // the comment rate
				}
				tick()
				target, targetID := marketplace.TargetJob, job.ID
				if rng.IntN(2) == 0 {
					target, targetID = marketplace.TargetSubmission, subs[rng.IntN(len(subs))].ID
				}
				in := marketplace.CommentInput{Content: randText(rng)}
				if len(comments) > 0 && rng.IntN(3) == 0 {
					p := comments[rng.IntN(len(comments))]
					target, targetID, in.ParentID = p.Target, p.TargetID, p.ID
				}
				c, err := w.svc.AddComment(w.ctx, jurors[i%len(jurors)], target, targetID, in)
				require.NoError(t, err)
				comments = append(comments, c)
				if rng.IntN(4) == 0 {
					_, err := w.svc.DeleteComment(w.ctx, c.Author, c.ID)
					require.NoError(t, err)
				}
			}
			_, err := w.svc.AddComment(w.ctx, jurors[0], marketplace.TargetJob, w.job(sponsor).ID, marketplace.CommentInput{Content: "another job's"})
			require.NoError(t, err)

			var res *marketplace.CloseResult
			switch seed % 4 {
			case 0:
				res, err = w.svc.CloseJob(w.ctx, sponsor, job.ID, marketplace.CloseInput{WinnerSubmissionID: subs[rng.IntN(len(subs))].ID})
			case 1:
				err = db.InTx(w.ctx, func(ctx context.Context, tx marketplace.Tx) error {
					var err error
					res, err = w.svc.CloseJobTx(ctx, tx, sponsor, job.ID, marketplace.CloseInput{WinnerSubmissionID: subs[0].ID})
					return err
				})
			case 2, 3:
				w.clock.Advance(2 * time.Hour)
				final, ferr := w.svc.FinalSummary(w.ctx, job.ID)
				require.NoError(t, ferr)
				jury, jerr := w.svc.VotingSummary(w.ctx, job.ID)
				require.NoError(t, jerr)
				keys, kerr := db.Submissions().SubmissionKeys(w.ctx, job.ID)
				require.NoError(t, kerr)
				if seed%4 == 2 {
					res, err = w.svc.FinalizeJob(w.ctx, finalizer, job.ID)
				} else {
					err = db.InTx(w.ctx, func(ctx context.Context, tx marketplace.Tx) error {
						var err error
						res, err = w.svc.FinalizeJobTx(ctx, tx, finalizer, job.ID)
						return err
					})
				}
				require.NoError(t, err)
				require.Equal(t, marketplace.PickWinner(final, jury, keys), res.WinnerSubmissionID, "seed %d", seed)
			}
			require.NoError(t, err, "seed %d", seed)
			snap := snapshotOf(t, w, job.ID, salt)
			requireServed(t, w, job.ID, snap)
			require.Equal(t, snap.Root, res.Job.Anchor.Root)
			d := w.document(job.ID)
			require.Len(t, d.IDs, 1+len(subs)+countOf(t, w, job.ID)+len(comments), "seed %d", seed)
		}
	})
}

// countOf is how many jury and final votes a job has.
func countOf(t *testing.T, w *anchorWorld, jobID string) int {
	t.Helper()
	n := 0
	require.NoError(t, w.db.Snapshots().ScanVotes(w.ctx, jobID, nil, 10000, func(*marketplace.Vote) bool { n++; return true }))
	require.NoError(t, w.db.Snapshots().ScanFinalVotes(w.ctx, jobID, nil, 10000, func(*marketplace.FinalVote) bool { n++; return true }))
	return n
}

// closingFixture is a job with a submission from each of two agents, a
// juror's vote and final vote, and two comments.
type closingFixture struct {
	sponsor, a, b, juror openjury.Address
	job                  *marketplace.Job
	sa, sb               *marketplace.Submission
	kept, gone           *marketplace.Comment
}

func newClosingFixture(t *testing.T, w *anchorWorld) *closingFixture {
	t.Helper()
	f := &closingFixture{sponsor: w.addr(1), a: w.addr(2), b: w.addr(3), juror: w.addr(4)}
	for _, x := range []openjury.Address{f.a, f.b, f.juror, w.addr(5)} {
		w.stake(x, 10)
	}
	w.score(f.juror, 10)
	w.score(w.addr(5), 10)
	f.job = w.job(f.sponsor)
	f.sa, f.sb = w.submit(f.a, f.job.ID), w.submit(f.b, f.job.ID)
	_, err := w.svc.Vote(w.ctx, f.juror, marketplace.VoteInput{JobID: f.job.ID, SubmissionID: f.sa.ID})
	require.NoError(t, err)
	_, err = w.svc.FinalVote(w.ctx, f.juror, marketplace.FinalVoteInput{JobID: f.job.ID, SubmissionID: f.sa.ID})
	require.NoError(t, err)
	f.kept, err = w.svc.AddComment(w.ctx, f.a, marketplace.TargetJob, f.job.ID, marketplace.CommentInput{Content: "kept as it was"})
	require.NoError(t, err)
	f.gone, err = w.svc.AddComment(w.ctx, f.b, marketplace.TargetSubmission, f.sb.ID, marketplace.CommentInput{Content: "deleted before"})
	require.NoError(t, err)
	_, err = w.svc.DeleteComment(w.ctx, f.b, f.gone.ID)
	require.NoError(t, err)
	return f
}

// TestWritesDuringTheBuild: while a close builds its snapshot, a comment
// is accepted and left out of it, a comment deleted then keeps its
// snapshot form, and a submission, a jury vote, a final vote and every
// other close or finalize answer 409 "job is being closed"; the close
// then succeeds with exactly anchor.Build's document.
func TestWritesDuringTheBuild(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		w := newAnchorWorld(t, db, fixedSalt)
		f := newClosingFixture(t, w)
		var posted *marketplace.Comment
		svc := w.hooked(fixedSalt, func() {
			var err error
			posted, err = w.svc.AddComment(w.ctx, f.a, marketplace.TargetJob, f.job.ID, marketplace.CommentInput{Content: "posted during the build"})
			require.NoError(t, err)
			_, err = w.svc.DeleteComment(w.ctx, f.a, f.kept.ID)
			require.NoError(t, err)
			_, err = w.svc.Submit(w.ctx, f.b, marketplace.SubmitInput{JobID: f.job.ID, Content: "late"})
			requireKind(t, err, openjury.Conflict, marketplace.DetailBeingClosed)
			_, err = w.svc.Vote(w.ctx, w.addr(5), marketplace.VoteInput{JobID: f.job.ID, SubmissionID: f.sb.ID})
			requireKind(t, err, openjury.Conflict, marketplace.DetailBeingClosed)
			_, err = w.svc.FinalVote(w.ctx, w.addr(5), marketplace.FinalVoteInput{JobID: f.job.ID, SubmissionID: f.sb.ID})
			requireKind(t, err, openjury.Conflict, marketplace.DetailBeingClosed)
			_, err = w.svc.CloseJob(w.ctx, f.sponsor, f.job.ID, marketplace.CloseInput{WinnerSubmissionID: f.sb.ID})
			requireKind(t, err, openjury.Conflict, marketplace.DetailBeingClosed)
			err = db.InTx(w.ctx, func(ctx context.Context, tx marketplace.Tx) error {
				_, err := w.svc.CloseJobTx(ctx, tx, f.sponsor, f.job.ID, marketplace.CloseInput{WinnerSubmissionID: f.sb.ID})
				return err
			})
			requireKind(t, err, openjury.Conflict, marketplace.DetailBeingClosed)
			_, err = w.svc.FinalizeJob(w.ctx, f.juror, f.job.ID)
			requireKind(t, err, openjury.Conflict, marketplace.DetailBeingClosed)
			// Not the sponsor: the lease's 409 comes first, like "job is closed".
			_, err = w.svc.CloseJob(w.ctx, f.a, f.job.ID, marketplace.CloseInput{WinnerSubmissionID: f.sb.ID})
			requireKind(t, err, openjury.Conflict, marketplace.DetailBeingClosed)
		})
		res, err := svc.CloseJob(w.ctx, f.sponsor, f.job.ID, marketplace.CloseInput{WinnerSubmissionID: f.sa.ID})
		require.NoError(t, err)
		require.NotNil(t, posted, "the hook ran")
		require.Nil(t, res.Job.ClosingUntil, "the lease is gone")

		snap := snapshotOf(t, w, f.job.ID, fixedSalt, laterComment{id: f.kept.ID}, laterComment{id: posted.ID, posted: true})
		requireServed(t, w, f.job.ID, snap)
		d := w.document(f.job.ID)
		require.NotContains(t, d.IDs, "comment:"+posted.ID, "posted after the close began")
		require.Contains(t, string(d.Records["comment:"+f.kept.ID]), `"content":"kept as it was"`)
		require.Contains(t, string(d.Records["comment:"+f.kept.ID]), `"deleted":false`)
		require.Contains(t, string(d.Records["comment:"+f.gone.ID]), `"deleted":true`)
		_, err = w.anchors.Proof(w.ctx, f.job.ID, "comment:"+posted.ID)
		requireKind(t, err, openjury.NotFound, "record not found")
		subs, err := w.svc.Submissions(w.ctx, f.job.ID, marketplace.ListInput{})
		require.NoError(t, err)
		require.Len(t, subs.Submissions, 2, "the refused submission left nothing")

		// Reputation and AGR as ever: the winner +10 and a win, the other
		// submitter a loss.
		ra, err := w.svc.Reputation(w.ctx, f.a.String())
		require.NoError(t, err)
		require.Equal(t, [3]int64{11, 1, 0}, [3]int64{ra.Score, ra.Wins, ra.Losses})
		rb, err := w.svc.Reputation(w.ctx, f.b.String())
		require.NoError(t, err)
		require.Equal(t, [3]int64{1, 0, 1}, [3]int64{rb.Score, rb.Wins, rb.Losses})
	})
}

// TestRacingClosesStoreOneBatch: many closes and finalizes of one job at
// once: exactly one succeeds, the others answer 409 (being closed, or
// closed), and one batch is stored, the winner's.
func TestRacingClosesStoreOneBatch(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		w := newAnchorWorld(t, db, nil)
		w.svc = marketplace.NewService(db, w.clock, loopConfig) // salts from crypto/rand: safe for racing closes
		f := newClosingFixture(t, w)
		winners := []*marketplace.Submission{f.sa, f.sb}
		results := make([]*marketplace.CloseResult, 12)
		errs := parallel(len(results), func(i int) error {
			var err error
			results[i], err = w.svc.CloseJob(w.ctx, f.sponsor, f.job.ID, marketplace.CloseInput{WinnerSubmissionID: winners[i%2].ID})
			return err
		})
		ok := -1
		for i, err := range errs {
			if err == nil {
				require.Equal(t, -1, ok, "two closes succeeded")
				ok = i
				continue
			}
			require.Equal(t, openjury.Conflict, openjury.KindOf(err), "%v", err)
			require.Contains(t, []string{marketplace.DetailBeingClosed, "job is closed"}, openjury.DetailOf(err))
		}
		require.GreaterOrEqual(t, ok, 0, "one close succeeded")
		require.Equal(t, 1, w.batches(f.job.ID))
		j, err := w.svc.Job(w.ctx, f.job.ID)
		require.NoError(t, err)
		require.Equal(t, winners[ok%2].ID, j.WinnerSubmissionID)
		require.Equal(t, results[ok].Job.Anchor, j.Anchor)
		requireServed(t, w, f.job.ID, snapshotOf(t, w, f.job.ID, saltOf(t, j)))
	})
}

// saltOf is the 32 bytes of a closed job's salt.
func saltOf(t *testing.T, j *marketplace.Job) []byte {
	t.Helper()
	n, err := anchor.NodeOf(j.Anchor.Salt)
	require.NoError(t, err)
	return n[:]
}

// claimLease takes the closing lease of a job the way a close does, for a
// closer that then crashes: the lease and a staged build stay behind.
func claimLease(t *testing.T, w *anchorWorld, jobID string) string {
	t.Helper()
	batchID := openjury.NewID()
	now := w.clock.Now()
	require.NoError(t, w.db.InTx(w.ctx, func(ctx context.Context, tx marketplace.Tx) error {
		if _, err := tx.Jobs().JobForUpdate(ctx, jobID); err != nil {
			return err
		}
		return tx.Anchors().ClaimClosing(ctx, jobID, batchID, now, now.Add(marketplace.ClosingLease))
	}))
	st := marketplace.NewStager(w.db.Anchors(), batchID)
	for i := range 30 {
		require.NoError(t, st.Add(w.ctx, fmt.Sprintf("comment:c%d", i), []byte(fmt.Sprintf(`{"id":"comment:c%d"}`, i))))
	}
	_, err := st.Tree(w.ctx, [anchor.SaltSize]byte{})
	require.NoError(t, err)
	return batchID
}

// TestCrashedCloseLeaseExpires: a close that took the lease and crashed
// holds the job off for the lease's length only; then the job takes
// submissions again and closes, and the crashed build's rows are deleted
// by the cleanup an hour on, never the committed batch's.
func TestCrashedCloseLeaseExpires(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		w := newAnchorWorld(t, db, fixedSalt)
		f := newClosingFixture(t, w)
		crashed := claimLease(t, w, f.job.ID)
		_, err := w.svc.CloseJob(w.ctx, f.sponsor, f.job.ID, marketplace.CloseInput{WinnerSubmissionID: f.sa.ID})
		requireKind(t, err, openjury.Conflict, marketplace.DetailBeingClosed)
		_, err = w.svc.Submit(w.ctx, f.a, marketplace.SubmitInput{JobID: f.job.ID, Content: "held off"})
		requireKind(t, err, openjury.Conflict, marketplace.DetailBeingClosed)
		n, err := w.svc.CleanupAnchors(w.ctx)
		require.NoError(t, err)
		require.Zero(t, n, "a live build is never cleaned")

		w.clock.Advance(marketplace.ClosingLease)
		w.submit(f.a, f.job.ID)
		res, err := w.svc.CloseJob(w.ctx, f.sponsor, f.job.ID, marketplace.CloseInput{WinnerSubmissionID: f.sa.ID})
		require.NoError(t, err)
		requireServed(t, w, f.job.ID, snapshotOf(t, w, f.job.ID, fixedSalt))

		n, err = w.svc.CleanupAnchors(w.ctx)
		require.NoError(t, err)
		require.Zero(t, n, "too recent to be an orphan")
		w.clock.Advance(marketplace.OrphanBuildAge)
		n, err = w.svc.CleanupAnchors(w.ctx)
		require.NoError(t, err)
		require.Greater(t, n, int64(30), "the crashed build's records and nodes")
		page, err := db.AnchorRecords(w.ctx, crashed, -1, 100, 1<<20)
		require.NoError(t, err)
		require.Empty(t, page)
		requireServed(t, w, f.job.ID, snapshotOf(t, w, f.job.ID, fixedSalt))
		require.Equal(t, res.Job.Anchor.ID, mustJob(t, w, f.job.ID).Anchor.ID)
	})
}

func mustJob(t *testing.T, w *anchorWorld, jobID string) *marketplace.Job {
	t.Helper()
	j, err := w.svc.Job(w.ctx, jobID)
	require.NoError(t, err)
	return j
}

// TestLeaseLostDuringTheBuild: a build that outlives its lease (its clock
// moved past it) fails with 409 "closing lease lost; try again" and
// leaves the job open, unleased and without staged rows; one taken over
// by another close meanwhile fails the same way and the other's batch
// stands.
func TestLeaseLostDuringTheBuild(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		w := newAnchorWorld(t, db, fixedSalt)
		f := newClosingFixture(t, w)
		slow := w.hooked(fixedSalt, func() { w.clock.Advance(marketplace.ClosingLease + time.Second) })
		_, err := slow.CloseJob(w.ctx, f.sponsor, f.job.ID, marketplace.CloseInput{WinnerSubmissionID: f.sa.ID})
		requireKind(t, err, openjury.Conflict, "closing lease lost; try again")
		j := mustJob(t, w, f.job.ID)
		require.Equal(t, marketplace.StatusOpen, j.Status)
		require.Nil(t, j.Anchor)
		require.Empty(t, j.ClosingID, "the failed close gave its lease up")
		require.Zero(t, w.batches(f.job.ID))
		var staged int
		require.NoError(t, db.Bun().NewSelect().Table("anchor_records").ColumnExpr("count(*)").Scan(w.ctx, &staged))
		require.Zero(t, staged, "and deleted what it staged")

		// Taken over: the slow close's lease ends, another close takes the
		// job and commits before the slow one comes back.
		var other *marketplace.CloseResult
		overtaken := w.hooked(fixedSalt, func() {
			w.clock.Advance(marketplace.ClosingLease)
			var err error
			other, err = w.svc.CloseJob(w.ctx, f.sponsor, f.job.ID, marketplace.CloseInput{WinnerSubmissionID: f.sb.ID})
			require.NoError(t, err)
		})
		_, err = overtaken.CloseJob(w.ctx, f.sponsor, f.job.ID, marketplace.CloseInput{WinnerSubmissionID: f.sa.ID})
		requireKind(t, err, openjury.Conflict, "")
		require.NotNil(t, other)
		j = mustJob(t, w, f.job.ID)
		require.Equal(t, f.sb.ID, j.WinnerSubmissionID, "the other close's outcome")
		require.Equal(t, other.Job.Anchor, j.Anchor)
		require.Equal(t, 1, w.batches(f.job.ID))
		requireServed(t, w, f.job.ID, snapshotOf(t, w, f.job.ID, fixedSalt))
	})
}

// TestEveryProofOfAHundredThousandRecords: a job with 100,000 small
// records (comments, written straight into the database) closes through
// the streamed build, the document verifies as a stream against the root,
// and every record's proof, as the stored tree serves it, verifies with
// anchor.Verify; a sample also through anchor.Service.Proof. It runs on
// SQLite (the store's behaviour at this size on both engines is the
// closing benchmark's, openjurytest/load -scenarios close), and is
// skipped under -short and under the race detector, which makes it
// minutes long.
func TestEveryProofOfAHundredThousandRecords(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("100,000 records: skipped under -short and -race")
	}
	t.Parallel()
	func(t *testing.T, db *bunstore.DB) {
		const n = 100_000
		w := newAnchorWorld(t, db, fixedSalt)
		sponsor, a := w.addr(1), w.addr(2)
		w.stake(a, 10)
		job := w.job(sponsor)
		sub := w.submit(a, job.ID)
		base := w.clock.Now().UnixMilli()
		pad := "printf('%012d', i)"
		if db.Dialect() == bunstore.DialectPostgres {
			pad = "lpad(i::text, 12, '0')"
		}
		_, err := db.Bun().ExecContext(w.ctx, `INSERT INTO comments (id, target_type, target_id, job_id, rev, author_address, content, created_at)
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
SELECT '00000000-0000-7000-9000-' || `+pad+`, 'job', ?, ?, 0, ?, 'c' || i, ? + i FROM n`,
			n-2, job.ID, job.ID, a.String(), base)
		require.NoError(t, err)

		res, err := w.svc.CloseJob(w.ctx, sponsor, job.ID, marketplace.CloseInput{WinnerSubmissionID: sub.ID})
		require.NoError(t, err)
		b := res.Job.Anchor
		require.Equal(t, int64(n), b.Records)

		// The document, streamed, gives the root; each record's leaf in
		// document order.
		doc, err := w.anchors.OpenDocument(w.ctx, job.ID)
		require.NoError(t, err)
		pr, pw := io.Pipe()
		go func() { _, err := doc.Stream(w.ctx, pw); _ = pw.CloseWithError(err) }()
		leafOf := make(map[anchor.Node]string, n)
		_, count, err := anchor.VerifyReader(pr, b.Root, func(id string, leaf anchor.Node) { leafOf[leaf] = id })
		require.NoError(t, err)
		require.Equal(t, n, count)

		// The stored tree, level by level, and every leaf's proof from it.
		var levels [][]anchor.Node
		rows, err := db.Bun().QueryContext(w.ctx, `SELECT level, chunk, hashes FROM anchor_nodes WHERE batch_id = ? ORDER BY level, chunk`, b.ID)
		require.NoError(t, err)
		for rows.Next() {
			var (
				level  int
				chunk  int64
				hashes []byte
			)
			require.NoError(t, rows.Scan(&level, &chunk, &hashes))
			for len(levels) <= level {
				levels = append(levels, nil)
			}
			require.Equal(t, int64(len(levels[level])), chunk*128, "level %d is dense", level)
			for i := 0; i < len(hashes); i += 32 {
				levels[level] = append(levels[level], anchor.Node(hashes[i:i+32]))
			}
		}
		require.NoError(t, rows.Err())
		require.NoError(t, rows.Close())
		require.Len(t, levels[0], n+1, "every record and the salt")
		root, err := anchor.NodeOf(b.Root)
		require.NoError(t, err)
		proven := 0
		for i, leaf := range levels[0] {
			path := anchor.ProofPath(int64(i), int64(len(levels[0])))
			proof := make([]anchor.Node, len(path))
			for k, at := range path {
				proof[k] = levels[at.Level][at.Index]
			}
			require.True(t, anchor.Verify(proof, root, leaf), "leaf %d", i)
			if _, ok := leafOf[leaf]; ok {
				proven++
			}
		}
		require.Equal(t, n, proven, "every record's leaf is in the tree")
		for i := 0; i < n; i += n / 50 {
			id := "comment:00000000-0000-7000-9000-" + fmt.Sprintf("%012d", i+1)
			if i >= n-2 {
				continue
			}
			p, err := w.anchors.Proof(w.ctx, job.ID, id)
			require.NoError(t, err, id)
			leaf, err := anchor.NodeOf(p.Leaf)
			require.NoError(t, err)
			require.Equal(t, id, leafOf[leaf])
		}
	}(t, openjurytest.NewDB(t))
}
