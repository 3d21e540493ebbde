package marketplace

import (
	"bytes"
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/stake"
)

// Reputation outcomes of a closed job.
const (
	WinScore = 10
)

// The closing lease (docs/rules.md, "Closing at any size"): a close or
// finalize holds it while it builds the job's snapshot outside the job's
// lock, and renews it as it goes; one whose closer crashed ends by itself.
const (
	// ClosingLease is how long a closing lease lasts unless renewed.
	ClosingLease = 30 * time.Second
	// ClosingRenewEvery is how often a close renews its lease while it
	// builds (checked after each staged chunk).
	ClosingRenewEvery = 10 * time.Second
)

// OrphanBuildAge is how old a build must be, with its lease dead, before
// CleanupAnchors deletes its staged rows: a close that failed deletes
// them itself, so this only catches closers that crashed.
const OrphanBuildAge = time.Hour

// CleanupAnchors deletes the staged rows of builds whose closer crashed
// (started more than OrphanBuildAge ago, lease dead), a bounded number of
// builds a call; hosts call it periodically. It returns how many rows
// went.
func (s *Service) CleanupAnchors(ctx context.Context) (int64, error) {
	now := openjury.Truncate(s.clock.Now())
	n, err := s.db.Anchors().CleanupBuilds(ctx, now.Add(-OrphanBuildAge), now)
	return n, openjury.Wrap("marketplace.CleanupAnchors", err)
}

// Bounds of one staged chunk of records (and of tree nodes): a close
// writes its snapshot in short transactions of at most this much, so
// SQLite's one writer is never held long, and holds at most one chunk of
// record bodies at a time.
const (
	stageRows  = 250
	stageBytes = 1 << 20
)

// CloseInput is the sponsor's choice of winner, with an optional onchain
// receipt of the close.
type CloseInput struct {
	WinnerSubmissionID string
	Ref                openjury.ChainRef
}

// CloseResult is a closed job with the winner and the jury tallies.
type CloseResult struct {
	Job                *Job
	WinnerSubmissionID string
	Tally              []Tally
}

// StagedRecord is one record of a snapshot being built, as it is staged:
// its place in the document (Ord, from 0: the job), its record id and its
// canonical bytes.
type StagedRecord struct {
	Ord      int64
	RecordID string
	Body     []byte
}

// Pieces of a staged tree: StageNodes and StageLeafIndex take their
// nodes and indexes in pieces that start at multiples of these (a store
// packs them in rows of these many, or of a divisor).
const (
	NodesPiece     = 4096
	LeafIndexPiece = 4096
)

// AnchorStore keeps the closing leases and the snapshots being built and
// stores the finished batch. A build's rows (staged under its batch id,
// which is also its lease id) are seen by anchor.Store only once PutBatch
// commits. Outside a transaction each call is its own short transaction.
type AnchorStore interface {
	// ClaimClosing takes the closing lease of a job the caller's
	// transaction has locked: closing_id = batchID, closing_until = until
	// (whatever lease was there: the caller checked it is dead), and
	// registers the build batchID, started at now, so that its staged
	// rows can be found if it never finishes. Errors: NotFound.
	ClaimClosing(ctx context.Context, jobID, batchID string, now, until time.Time) error
	// RenewClosing moves the end of the lease to until, only while the
	// lease is batchID's and still live at now (one conditional update).
	// Errors: Conflict "closing lease lost" otherwise.
	RenewClosing(ctx context.Context, jobID, batchID string, now, until time.Time) error
	// AbandonClosing ends the build batchID: it clears the job's lease if
	// it is still batchID's and deletes the build's staged rows, a bounded
	// chunk per transaction. Callers run it best effort after a failure.
	AbandonClosing(ctx context.Context, jobID, batchID string) error
	// StageRecords stores records of the build batchID (their Ords unique
	// in the build).
	StageRecords(ctx context.Context, batchID string, recs []StagedRecord) error
	// StageNodes stores nodes of a level of the build batchID's tree (level
	// 0: the sorted leaves), nodes[i] at index from+i; from is a multiple
	// of NodesPiece and nodes at most NodesPiece long.
	StageNodes(ctx context.Context, batchID string, level int, from int64, nodes []anchor.Node) error
	// StageLeafIndex stores where the leaves of the build batchID's
	// records are among its sorted leaves: index[i] is the leaf index of
	// the record of Ord from+i (from a multiple of LeafIndexPiece, index at
	// most LeafIndexPiece long); from -1 with one index is the salt's.
	StageLeafIndex(ctx context.Context, batchID string, from int64, index []uint32) error
	// PutBatch makes the build b.ID the job's batch, in the closing
	// transaction: it inserts the batch row, sets the job's anchor_*
	// fields (root, uri, schema version, salt, created_at, records, size),
	// clears the job's lease when it is b.ID's and forgets the build (its
	// rows are the batch's now). Errors: Conflict when the job has a batch
	// already; NotFound for an unknown job.
	PutBatch(ctx context.Context, b *anchor.Batch) error
	// CleanupBuilds deletes the staged rows of builds started before
	// `before` whose lease is no longer live at now (a crashed or failed
	// close), a bounded chunk per transaction, and returns how many rows
	// went.
	CleanupBuilds(ctx context.Context, before, now time.Time) (int64, error)
}

// SnapshotStore reads the records of a job's snapshot a page at a time,
// each kind in (created_at, id) order by keyset cursor, index-backed. fn
// is called with each record in order until it returns false; it must not
// use the store (the page's rows are being read).
type SnapshotStore interface {
	// ScanSubmissions reads up to limit submissions of a job after the
	// cursor (nil: from the first).
	ScanSubmissions(ctx context.Context, jobID string, after *Cursor, limit int, fn func(*Submission) bool) error
	// ScanVotes reads up to limit current jury votes of a job.
	ScanVotes(ctx context.Context, jobID string, after *Cursor, limit int, fn func(*Vote) bool) error
	// ScanFinalVotes reads up to limit current final votes of a job.
	ScanFinalVotes(ctx context.Context, jobID string, after *Cursor, limit int, fn func(*FinalVote) bool) error
	// ScanComments reads up to limit comments on a job and on its
	// submissions whose Rev is at most rev, deleted ones included (with
	// their stored content and DeletedRev).
	ScanComments(ctx context.Context, jobID string, rev int64, after *Cursor, limit int, fn func(*Comment) bool) error
}

// closing is a close or finalize in progress: what its first transaction
// decided under the job's lock.
type closing struct {
	// id is the lease's id and the batch's.
	id string
	// job is the job as locked.
	job *Job
	// rev is job.RecordsRev when locked: the snapshot covers the comments
	// of revs up to it.
	rev  int64
	salt [anchor.SaltSize]byte
	now  time.Time
	ref  openjury.ChainRef
	// winner and its agent: the sponsor's choice, or (finalize) the first
	// of finalists in submission order, found while the snapshot streams.
	winner      string
	winnerAgent openjury.Address
	finalists   map[string]bool
	jury        []Tally
	// funded is F, the confirmed funded total of the escrow when the lease
	// was taken (0: no payouts); later funding is excess the sponsor takes
	// back after the settle (docs/rules.md#escrow-and-payouts). coherent
	// collects the coherent jurors while the votes stream; payouts are
	// what the build split.
	funded   openjury.MicroUSDC
	coherent payoutBuilder
	payouts  []anchor.Payout
	// draw and panel are the job's jury draw and panel (a job with a
	// panel), read under the lock; hashed is set when the build computed
	// the draw's eligible set hash.
	draw   *JuryDraw
	panel  []PanelMember
	hashed bool
	// caller asked for the close (the sponsor) or the finalize (a final
	// voter).
	caller openjury.Address
}

// fundedTotal is F for a close of job: the confirmed funded total of its
// sponsor's escrow slot while it is funded (not settled or refunded) and
// the service follows an escrow, else 0.
func (s *Service) fundedTotal(job *Job) openjury.MicroUSDC {
	if !s.cfg.Escrow.Enabled() || job.Escrow == nil || job.Escrow.Status != EscrowFunded {
		return 0
	}
	return job.Escrow.Amount
}

// readJury reads the draw and panel of c's job, in the transaction that
// locked it, for the snapshot's jury record.
func readJury(ctx context.Context, tx Tx, c *closing) error {
	if c.job.JurySize == 0 {
		return nil
	}
	var err error
	if c.draw, err = tx.Juries().Draw(ctx, c.job.ID); err != nil {
		return err
	}
	c.panel, err = tx.Juries().Panel(ctx, c.job.ID)
	return err
}

// CloseJob lets the sponsor close an open job with a winner. Errors (in
// this order): Invalid (shape), NotFound, Conflict (closed), Conflict
// "job is being closed" (another close or finalize holds the job's
// closing lease), Forbidden (not the sponsor), Invalid (winner not of this
// job); Conflict "closing lease lost" when its lease ran out while it
// built (try again).
//
// It does not hold the job's lock while it builds the snapshot: a first
// transaction checks the rules and takes the job's closing lease (which
// holds off submissions, votes and final votes; comments go on and are
// left out), the snapshot is streamed into staged rows outside any long
// transaction, and a last transaction, with the lease still ours, writes
// the outcome: status, winner, reputation, AGR and the batch
// (docs/rules.md, "Closing at any size").
func (s *Service) CloseJob(ctx context.Context, caller openjury.Address, jobID string, in CloseInput) (*CloseResult, error) {
	const op = "marketplace.CloseJob"
	winnerID, err := closeShape(op, in)
	if err != nil {
		return nil, err
	}
	res, err := s.leased(ctx, func(ctx context.Context, tx Tx, now time.Time) (*closing, error) {
		return s.startClose(ctx, tx, caller, jobID, winnerID, in.Ref, now)
	})
	return res, openjury.Wrap(op, err)
}

// leased carries out a close or finalize under a closing lease: start
// checks its rules with the job locked in a first transaction, which also
// takes the lease; then the build and the outcome (finish).
func (s *Service) leased(ctx context.Context, start func(ctx context.Context, tx Tx, now time.Time) (*closing, error)) (*CloseResult, error) {
	now := openjury.Truncate(s.clock.Now())
	var c *closing
	err := s.db.InTx(ctx, func(ctx context.Context, tx Tx) error {
		var err error
		if c, err = start(ctx, tx, now); err != nil {
			return err
		}
		return tx.Anchors().ClaimClosing(ctx, c.job.ID, c.id, now, now.Add(ClosingLease))
	})
	if err != nil {
		return nil, err
	}
	return s.finish(ctx, c)
}

// CloseJobTx is CloseJob inside the caller's transaction (for embedders
// that add their own writes to the same transaction). It builds the
// snapshot in that transaction, holding the job's lock (and on SQLite the
// writer) for the whole build; its memory stays bounded like CloseJob's.
func (s *Service) CloseJobTx(ctx context.Context, tx Tx, caller openjury.Address, jobID string, in CloseInput) (*CloseResult, error) {
	const op = "marketplace.CloseJob"
	winnerID, err := closeShape(op, in)
	if err != nil {
		return nil, err
	}
	c, err := s.startClose(ctx, tx, caller, jobID, winnerID, in.Ref, openjury.Truncate(s.clock.Now()))
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	res, err := s.finishInTx(ctx, tx, c)
	return res, openjury.Wrap(op, err)
}

// closeShape checks a close request's shape and returns the winner's id.
func closeShape(op string, in CloseInput) (string, error) {
	winnerID := strings.TrimSpace(in.WinnerSubmissionID)
	if winnerID == "" {
		return "", openjury.E(openjury.Invalid, op, "winner_submission_id: is required")
	}
	if err := stake.ValidateRef(op, "close_", in.Ref); err != nil {
		return "", err
	}
	return winnerID, nil
}

// startClose locks the job in tx and applies the close rules in their
// order; it returns the closing to carry out.
func (s *Service) startClose(ctx context.Context, tx Tx, caller openjury.Address, jobID, winnerID string, ref openjury.ChainRef, now time.Time) (*closing, error) {
	const op = "marketplace.CloseJob"
	job, err := lockOpenJob(ctx, tx, op, jobID, now)
	if err != nil {
		return nil, err
	}
	if job.Sponsor != caller {
		return nil, openjury.E(openjury.Forbidden, op, "only the sponsor may close this job")
	}
	// An unknown, malformed or foreign id is the same mistake.
	notOfJob := openjury.E(openjury.Invalid, op, "winner_submission_id: not a submission of this job")
	if !openjury.ValidID(winnerID) {
		return nil, notOfJob
	}
	sub, err := tx.Submissions().Submission(ctx, winnerID)
	if openjury.IsKind(err, openjury.NotFound) || (err == nil && sub.JobID != job.ID) {
		return nil, notOfJob
	}
	if err != nil {
		return nil, err
	}
	jury, err := tx.Votes().Tally(ctx, job.ID)
	if err != nil {
		return nil, err
	}
	salt, err := s.newSalt(op)
	if err != nil {
		return nil, err
	}
	c := &closing{id: openjury.NewID(), job: job, rev: job.RecordsRev, salt: salt, now: now, ref: ref,
		winner: sub.ID, winnerAgent: sub.Agent, jury: jury, funded: s.fundedTotal(job), caller: caller}
	return c, readJury(ctx, tx, c)
}

// lockOpenJob locks a job in tx and checks that it is open and that no
// other close holds its lease at now. Errors: NotFound, Conflict.
func lockOpenJob(ctx context.Context, tx Tx, op, jobID string, now time.Time) (*Job, error) {
	job, err := lockJob(ctx, tx, strings.TrimSpace(jobID))
	if err != nil {
		return nil, err
	}
	if job.Status != StatusOpen {
		return nil, openjury.E(openjury.Conflict, op, "job is closed")
	}
	if job.BeingClosed(now) {
		return nil, openjury.E(openjury.Conflict, op, DetailBeingClosed)
	}
	return job, nil
}

// FinalizeJob closes a job from its final decision votes once the window
// has ended; only an address that cast a final vote may do it. Errors (in
// this order): NotFound, Conflict (closed, being closed, window not
// ended), Forbidden (caller did not vote), Conflict (no final votes);
// Conflict "closing lease lost" as CloseJob. It runs like CloseJob.
func (s *Service) FinalizeJob(ctx context.Context, caller openjury.Address, jobID string) (*CloseResult, error) {
	const op = "marketplace.FinalizeJob"
	res, err := s.leased(ctx, func(ctx context.Context, tx Tx, now time.Time) (*closing, error) {
		return s.startFinalize(ctx, tx, caller, jobID, now)
	})
	return res, openjury.Wrap(op, err)
}

// FinalizeJobTx is FinalizeJob inside the caller's transaction, holding
// the job's lock for the build like CloseJobTx.
func (s *Service) FinalizeJobTx(ctx context.Context, tx Tx, caller openjury.Address, jobID string) (*CloseResult, error) {
	const op = "marketplace.FinalizeJob"
	c, err := s.startFinalize(ctx, tx, caller, jobID, openjury.Truncate(s.clock.Now()))
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	res, err := s.finishInTx(ctx, tx, c)
	return res, openjury.Wrap(op, err)
}

// startFinalize locks the job in tx and applies the finalize rules in
// their order; it returns the closing to carry out, whose winner is found
// while the snapshot streams (the final tally cannot change once the
// window has ended, nor the jury's under the lease).
func (s *Service) startFinalize(ctx context.Context, tx Tx, caller openjury.Address, jobID string, now time.Time) (*closing, error) {
	const op = "marketplace.FinalizeJob"
	job, err := lockOpenJob(ctx, tx, op, jobID, now)
	if err != nil {
		return nil, err
	}
	if now.Before(job.FinalVoteEndsAt) {
		return nil, openjury.E(openjury.Conflict, op, "final voting window has not ended")
	}
	if _, err := tx.FinalVotes().FinalVote(ctx, job.ID, caller); err != nil {
		if openjury.IsKind(err, openjury.NotFound) {
			return nil, openjury.E(openjury.Forbidden, op, "only an address that cast a final vote may finalize")
		}
		return nil, err
	}
	final, err := tx.FinalVotes().FinalTally(ctx, job.ID)
	if err != nil {
		return nil, err
	}
	if len(final) == 0 { // unreachable while the caller's own vote counts; kept as the rule's guard
		return nil, openjury.E(openjury.Conflict, op, "no final votes")
	}
	jury, err := tx.Votes().Tally(ctx, job.ID)
	if err != nil {
		return nil, err
	}
	salt, err := s.newSalt(op)
	if err != nil {
		return nil, err
	}
	c := &closing{id: openjury.NewID(), job: job, rev: job.RecordsRev, salt: salt, now: now,
		finalists: finalists(final, jury), jury: jury, funded: s.fundedTotal(job), caller: caller}
	return c, readJury(ctx, tx, c)
}

// PickWinner applies the finalize rule: most final votes; ties go to more
// jury weighted votes, then the earlier submission, then the smaller id.
// A finalize applies it as the snapshot streams: the first of the
// finalists in submission order wins.
func PickWinner(final, jury []Tally, subs []SubmissionKey) string {
	f := finalists(final, jury)
	var best *SubmissionKey
	for i := range subs {
		s := &subs[i]
		if !f[s.ID] {
			continue
		}
		if best == nil || s.CreatedAt.Before(best.CreatedAt) || (s.CreatedAt.Equal(best.CreatedAt) && s.ID < best.ID) {
			best = s
		}
	}
	if best == nil {
		return ""
	}
	return best.ID
}

// finalists are the submissions that may win a finalize: the most final
// votes, then, among them, the most jury weight. Their order of
// submission (created_at, id) decides between them.
func finalists(final, jury []Tally) map[string]bool {
	weight := make(map[string]int64, len(jury))
	for _, t := range jury {
		weight[t.SubmissionID] = t.Weight
	}
	rank := func(t Tally) [2]int64 { return [2]int64{t.Weight, weight[t.SubmissionID]} }
	var top [2]int64
	for _, t := range final {
		if r := rank(t); cmp.Or(cmp.Compare(r[0], top[0]), cmp.Compare(r[1], top[1])) > 0 {
			top = r
		}
	}
	out := map[string]bool{}
	for _, t := range final {
		if rank(t) == top {
			out[t.SubmissionID] = true
		}
	}
	return out
}

// finish carries out a closing whose lease is taken: the build, then the
// outcome transaction. On failure it gives the lease up and deletes what
// it staged (best effort: the host's cleanup deletes what is left).
func (s *Service) finish(ctx context.Context, c *closing) (*CloseResult, error) {
	res, err := s.finishLeased(ctx, c)
	if err != nil {
		_ = s.db.Anchors().AbandonClosing(context.WithoutCancel(ctx), c.job.ID, c.id)
	}
	return res, err
}

func (s *Service) finishLeased(ctx context.Context, c *closing) (*CloseResult, error) {
	const op = "marketplace.close"
	renewed := c.now
	renew := func(ctx context.Context) error {
		now := openjury.Truncate(s.clock.Now())
		if now.Sub(renewed) < ClosingRenewEvery {
			return nil
		}
		if err := s.db.Anchors().RenewClosing(ctx, c.job.ID, c.id, now, now.Add(ClosingLease)); err != nil {
			return err
		}
		renewed = now
		return nil
	}
	b, err := s.build(ctx, s.db.Snapshots(), s.db.Anchors(), s.db.Jurors(), c, renew)
	if err != nil {
		return nil, err
	}
	var res *CloseResult
	err = s.db.InTx(ctx, func(ctx context.Context, tx Tx) error {
		job, err := lockJob(ctx, tx, c.job.ID)
		if err != nil {
			return err
		}
		if job.Status != StatusOpen {
			return openjury.E(openjury.Conflict, op, "job is closed")
		}
		if job.ClosingID != c.id || !job.BeingClosed(openjury.Truncate(s.clock.Now())) {
			return openjury.E(openjury.Conflict, op, "closing lease lost; try again")
		}
		res, err = s.outcome(ctx, tx, job, c, b)
		return err
	})
	return res, err
}

// finishInTx carries out a closing in the transaction that locked its job.
func (s *Service) finishInTx(ctx context.Context, tx Tx, c *closing) (*CloseResult, error) {
	b, err := s.build(ctx, tx.Snapshots(), tx.Anchors(), tx.Jurors(), c, nil)
	if err != nil {
		return nil, err
	}
	return s.outcome(ctx, tx, c.job, c, b)
}

// outcome writes a closing's outcome on job, locked in tx, whose snapshot
// b is built: status, winner and closed_at (and the payout total of a
// funded close); reputation (winner +10 score and +1 win, every other
// distinct submitter +1 loss) in one statement; the AGR win mint (at most
// once per job, enforced by a unique key); the jury's rewards and
// penalties (juryOutcome); the payouts; the batch, which also ends the
// lease.
func (s *Service) outcome(ctx context.Context, tx Tx, job *Job, c *closing, b *anchor.Batch) (*CloseResult, error) {
	job.Status, job.WinnerSubmissionID, job.ClosedAt, job.Close = StatusClosed, c.winner, &c.now, c.ref
	if len(c.payouts) > 0 {
		total := c.funded
		job.PayoutTotal = &total
	}
	if err := tx.Jobs().UpdateJob(ctx, job); err != nil {
		return nil, err
	}
	if len(c.payouts) > 0 {
		if err := tx.Escrow().PutPayouts(ctx, job.ID, c.payouts); err != nil {
			return nil, err
		}
	}
	if err := tx.Reputation().AddJobOutcome(ctx, job.ID, c.winnerAgent,
		ReputationDelta{Score: WinScore, Wins: 1}, ReputationDelta{Losses: 1}, c.now); err != nil {
		return nil, err
	}
	if s.cfg.AGRMintPerWin > 0 {
		if _, err := agr.Credit(ctx, tx.AGR(), c.winnerAgent, s.cfg.AGRMintPerWin, agr.ReasonWin, job.ID, c.now); err != nil {
			return nil, err
		}
	}
	if err := s.juryOutcome(ctx, tx, job, c); err != nil {
		return nil, err
	}
	if err := tx.Anchors().PutBatch(ctx, b); err != nil {
		return nil, err
	}
	// The job's timers still waiting (a window that would open after the
	// close) are pointless now.
	if err := tx.Events().CancelTimers(ctx, job.ID, []events.Type{events.JuryRevealOpened, events.FinalVoteOpened}, c.now); err != nil {
		return nil, err
	}
	// The close's events; a funded job's payouts add their
	// payout.claimable events (events.PayoutClaimable, one per recipient,
	// subjects the recipient) to this same Append.
	if err := tx.Events().Append(ctx, jobClosedEvent(job, c, b)); err != nil {
		return nil, err
	}
	job.Anchor, job.ClosingID, job.ClosingUntil = b, "", nil
	return &CloseResult{Job: job, WinnerSubmissionID: c.winner, Tally: c.jury}, nil
}

// jobClosedEvent is the job.closed event of a closing: it concerns the
// winner's agent (and, as every event of a job, the sponsor).
func jobClosedEvent(job *Job, c *closing, b *anchor.Batch) *events.Event {
	return &events.Event{Type: events.JobClosed, CreatedAt: c.now, JobID: job.ID, Actor: c.caller,
		Subjects: []openjury.Address{c.winnerAgent},
		Data: events.Data{"job_id": job.ID, "winner_submission_id": c.winner, "winner_address": c.winnerAgent.String(),
			"closed_at": timeData(c.now), "finalized": c.finalists != nil, "anchor_root": b.Root.String()}}
}

// build streams the snapshot of c's job into staged rows of batch c.id:
// every record read a page at a time in document order, canonicalised and
// hashed as it comes, its bytes staged a chunk at a time; only the leaves
// stay in memory. Then it sorts the leaves and stages the tree level by
// level. renew, when not nil, is called after each chunk. It returns the
// batch, not yet stored.
func (s *Service) build(ctx context.Context, snaps SnapshotStore, anchors AnchorStore, jurors JurorIndex, c *closing, renew func(context.Context) error) (*anchor.Batch, error) {
	const op = "marketplace.build"
	jobID := c.job.ID
	bd := &Stager{anchors: anchors, batchID: c.id, renew: renew, next: 1}
	if c.job.HasJury() {
		// The jury record comes right after the job's (docs/rules.md,
		// "Jury integrity"); a drawn panel's eligible set hash is computed
		// here, outside the job's lock, when the jury step has not yet.
		if d := c.draw; d != nil && d.Drawn() && d.EligibleHash == "" {
			h, err := EligibleSetHash(ctx, jurors, d)
			if err != nil {
				return nil, err
			}
			d.EligibleHash, c.hashed = h, true
		}
		if err := bd.addRecord(juryRecord(c.job, c.draw, c.panel)); err != nil {
			return nil, err
		}
	}
	err := scanKind(ctx, bd, func(after *Cursor, limit int, fn func(*Submission) bool) error {
		return snaps.ScanSubmissions(ctx, jobID, after, limit, fn)
	}, func(sub *Submission) (anchor.Record, Cursor) {
		if c.finalists[sub.ID] && c.winner == "" {
			c.winner, c.winnerAgent = sub.ID, sub.Agent
		}
		return submissionRecord(sub), Cursor{At: sub.CreatedAt, ID: sub.ID}
	})
	if err == nil {
		err = scanKind(ctx, bd, func(after *Cursor, limit int, fn func(*Vote) bool) error {
			return snaps.ScanVotes(ctx, jobID, after, limit, fn)
		}, func(v *Vote) (anchor.Record, Cursor) {
			if c.funded > 0 {
				// The votes are the current ones, frozen under the lease;
				// the winner is known (submissions come first).
				c.coherent.vote(v, c.winner)
			}
			return voteRecord(v), Cursor{At: v.CreatedAt, ID: v.ID}
		})
	}
	if err == nil {
		err = scanKind(ctx, bd, func(after *Cursor, limit int, fn func(*FinalVote) bool) error {
			return snaps.ScanFinalVotes(ctx, jobID, after, limit, fn)
		}, func(v *FinalVote) (anchor.Record, Cursor) {
			return finalVoteRecord(v), Cursor{At: v.CreatedAt, ID: v.ID}
		})
	}
	if err == nil {
		err = scanKind(ctx, bd, func(after *Cursor, limit int, fn func(*Comment) bool) error {
			return snaps.ScanComments(ctx, jobID, c.rev, after, limit, fn)
		}, func(cm *Comment) (anchor.Record, Cursor) {
			at := Cursor{At: cm.CreatedAt, ID: cm.ID}
			if cm.DeletedAt != nil && cm.DeletedRev > c.rev {
				// Deleted after the close began: the snapshot keeps it as
				// it was then.
				shown := *cm
				shown.DeletedAt, shown.DeletedBy = nil, ""
				return commentRecord(&shown), at
			}
			return commentRecord(cm), at
		})
	}
	if err != nil {
		return nil, err
	}
	if c.winner == "" {
		return nil, openjury.E(openjury.Internal, op, "no submission of the job is the finalize's winner")
	}
	version := anchor.SchemaVersion
	if c.funded > 0 {
		// The payouts close the document, in recipient order.
		c.payouts = c.coherent.payouts(c.funded, s.cfg.Economy, c.winnerAgent, s.cfg.Escrow.Treasury)
		for _, p := range c.payouts {
			r := anchor.PayoutRecord(jobID, p)
			body, err := anchor.CanonicalRecord(r)
			if err != nil {
				return nil, err
			}
			if err := bd.addLeaf(ctx, r.ID, body, p.Leaf(jobID)); err != nil {
				return nil, err
			}
		}
		if len(c.payouts) > 0 {
			version = anchor.SchemaVersionPayouts
		}
	}
	// The job record, with the outcome being written, goes first in the
	// document; it is made last, once the winner is known.
	closed := *c.job
	closed.Status, closed.WinnerSubmissionID, closed.ClosedAt = StatusClosed, c.winner, &c.now
	jr := jobRecord(&closed)
	body, err := anchor.CanonicalRecord(jr)
	if err != nil {
		return nil, err
	}
	bd.addAt(0, jr.ID, body)
	root, err := bd.Tree(ctx, c.salt)
	if err != nil {
		return nil, err
	}
	b := &anchor.Batch{
		ID:            c.id,
		JobID:         jobID,
		SchemaVersion: version,
		Root:          root,
		Salt:          openjury.HashFromBytes(c.salt),
		URI:           anchor.URI(s.cfg.BaseURL, jobID),
		CreatedAt:     c.now,
		Records:       bd.records,
	}
	prefix, suffix, err := anchor.DocumentFrame(b.SchemaVersion, b.JobID, b.CreatedAt, b.Salt, b.Root)
	if err != nil {
		return nil, err
	}
	b.Size = int64(len(prefix)+len(suffix)) + bd.bodies + max(bd.records-1, 0)
	return b, nil
}

// scanKind streams one kind of record into bd: pages of at most the
// chunk's room, each record canonicalised by rec (which also gives its
// cursor), the chunk staged whenever it is full, until a page is empty.
func scanKind[T any](ctx context.Context, bd *Stager, scan func(after *Cursor, limit int, fn func(T) bool) error, rec func(T) (anchor.Record, Cursor)) error {
	var after *Cursor
	for {
		if err := ctx.Err(); err != nil {
			return openjury.Errorf(openjury.Unavailable, "marketplace.build", "the close was cancelled: %v", err)
		}
		n := 0
		var last Cursor
		var addErr error
		err := scan(after, bd.room(), func(x T) bool {
			r, at := rec(x)
			if addErr = bd.addRecord(r); addErr != nil {
				return false
			}
			n, last = n+1, at
			return !bd.full()
		})
		if err == nil {
			err = addErr
		}
		if err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
		after = &last
		if bd.full() {
			if err := bd.flush(ctx); err != nil {
				return err
			}
		}
	}
}

// leafOrd is a leaf and the Ord of its record, the per-record memory of
// a build (40 bytes).
type leafOrd struct {
	leaf anchor.Node
	ord  int64
}

// Stager stages a snapshot build, its records and its tree, through an
// AnchorStore, holding only the records' leaves and one chunk of bodies
// (at most stageRows records or about stageBytes) at a time. A close uses
// it, and so may a store converting documents stored whole before builds
// were staged.
type Stager struct {
	anchors AnchorStore
	batchID string
	renew   func(context.Context) error
	// next is the Ord of the next record Add stages.
	next    int64
	records int64
	bodies  int64
	leaves  []leafOrd
	chunk   []StagedRecord
	size    int
}

// NewStager returns a Stager of the build batchID whose first record has
// Ord 0.
func NewStager(anchors AnchorStore, batchID string) *Stager {
	return &Stager{anchors: anchors, batchID: batchID}
}

// Add stages a record's canonical bytes at the next Ord (0, 1, ...); the
// chunk goes to the store whenever it is full.
func (b *Stager) Add(ctx context.Context, recordID string, body []byte) error {
	b.addAt(b.next, recordID, body)
	b.next++
	if b.full() {
		return b.flush(ctx)
	}
	return nil
}

// Records is how many records were added; Bodies their total bytes.
func (b *Stager) Records() int64 { return b.records }

// Bodies is the total bytes of the records added.
func (b *Stager) Bodies() int64 { return b.bodies }

// room is how many records the chunk takes before it is full.
func (b *Stager) room() int { return max(stageRows-len(b.chunk), 1) }

// full reports whether the chunk is to be staged.
func (b *Stager) full() bool { return len(b.chunk) >= stageRows || b.size >= stageBytes }

// addRecord canonicalises r and adds it to the chunk at the next Ord,
// without staging (a page of records is being read).
func (b *Stager) addRecord(r anchor.Record) error {
	body, err := anchor.CanonicalRecord(r)
	if err != nil {
		return err
	}
	b.addAt(b.next, r.ID, body)
	b.next++
	return nil
}

// addLeaf stages a record whose leaf is not its bytes' (a payout's,
// anchor.PayoutLeaf) at the next Ord, like Add.
func (b *Stager) addLeaf(ctx context.Context, recordID string, body []byte, leaf anchor.Node) error {
	b.addLeafAt(b.next, recordID, body, leaf)
	b.next++
	if b.full() {
		return b.flush(ctx)
	}
	return nil
}

// addAt adds a record's canonical bytes to the chunk at ord.
func (b *Stager) addAt(ord int64, recordID string, body []byte) {
	b.addLeafAt(ord, recordID, body, anchor.Leaf(body))
}

// addLeafAt adds a record's canonical bytes with its leaf to the chunk at
// ord.
func (b *Stager) addLeafAt(ord int64, recordID string, body []byte, leaf anchor.Node) {
	b.chunk = append(b.chunk, StagedRecord{Ord: ord, RecordID: recordID, Body: body})
	b.leaves = append(b.leaves, leafOrd{leaf: leaf, ord: ord})
	b.size += len(body)
	b.bodies += int64(len(body))
	b.records++
}

// flush stages the chunk (if any) and renews the lease when due.
func (b *Stager) flush(ctx context.Context) error {
	if len(b.chunk) > 0 {
		if err := b.anchors.StageRecords(ctx, b.batchID, b.chunk); err != nil {
			return err
		}
		clear(b.chunk)
		b.chunk, b.size = b.chunk[:0], 0
	}
	if b.renew != nil {
		return b.renew(ctx)
	}
	return nil
}

// Tree stages what is left of the records, then adds the salt's leaf,
// sorts the leaves and stages the tree level by level and where each
// record's leaf went, in pieces; it returns the root. The Stager takes no
// more records after it.
func (b *Stager) Tree(ctx context.Context, salt [anchor.SaltSize]byte) (openjury.Hash, error) {
	if err := b.flush(ctx); err != nil {
		return "", err
	}
	leaves := append(b.leaves, leafOrd{leaf: anchor.Leaf(salt[:]), ord: -1})
	b.leaves = nil
	slices.SortFunc(leaves, func(x, y leafOrd) int { return bytes.Compare(x.leaf[:], y.leaf[:]) })
	index := make([]uint32, len(leaves)-1) // by ord
	level := make([]anchor.Node, len(leaves))
	var saltIndex uint32
	for i, l := range leaves {
		level[i] = l.leaf
		if l.ord < 0 {
			saltIndex = uint32(i)
		} else {
			index[l.ord] = uint32(i)
		}
	}
	for from := 0; from < len(index); from += LeafIndexPiece {
		if err := b.anchors.StageLeafIndex(ctx, b.batchID, int64(from), index[from:min(from+LeafIndexPiece, len(index))]); err != nil {
			return "", err
		}
		if err := b.flush(ctx); err != nil {
			return "", err
		}
	}
	if err := b.anchors.StageLeafIndex(ctx, b.batchID, -1, []uint32{saltIndex}); err != nil {
		return "", err
	}
	for n := 0; ; n++ {
		for from := 0; from < len(level); from += NodesPiece {
			if err := b.anchors.StageNodes(ctx, b.batchID, n, int64(from), level[from:min(from+NodesPiece, len(level))]); err != nil {
				return "", err
			}
			if err := b.flush(ctx); err != nil {
				return "", err
			}
		}
		if len(level) == 1 {
			return openjury.HashFromBytes(level[0]), nil
		}
		level = anchor.NextLevel(level)
	}
}
