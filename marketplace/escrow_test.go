package marketplace_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/stake"
)

// testEscrow is the escrow the anchor worlds follow.
var testEscrow = marketplace.EscrowConfig{
	Contract: openjury.MustAddress("0x00000000000000000000000000000000000e5c00"),
	ChainID:  openjurytest.DefaultChainID,
	Treasury: openjury.MustAddress("0x0000000000000000000000000000000000007ea5"),
}

// The split of CONTRACT's worked example, and its rules at the edges:
// every remainder to the winner, the whole pool to the winner without a
// coherent juror, shares summed per address, zero amounts left out.
func TestSplit(t *testing.T) {
	t.Parallel()
	winner, j4, j5, treasury := addr(1), addr(2), addr(3), addr(4)
	pay := func(a openjury.Address, amount uint64, roles ...string) anchor.Payout {
		return anchor.Payout{Recipient: a, Amount: amount, Roles: roles}
	}
	cases := []struct {
		name   string
		total  openjury.MicroUSDC
		jurors []marketplace.Weighted
		want   []anchor.Payout
	}{
		{"worked example", 100_000_001, []marketplace.Weighted{{Address: j4, Weight: 4}, {Address: j5, Weight: 5}},
			[]anchor.Payout{pay(winner, 85_000_002, "winner"), pay(j4, 4_444_444, "juror"), pay(j5, 5_555_555, "juror"), pay(treasury, 5_000_000, "platform")}},
		{"no coherent juror", 100_000_001, nil,
			[]anchor.Payout{pay(winner, 95_000_001, "winner"), pay(treasury, 5_000_000, "platform")}},
		{"treasury also a juror", 1_000_000, []marketplace.Weighted{{Address: treasury, Weight: 1}},
			[]anchor.Payout{pay(winner, 850_000, "winner"), pay(treasury, 150_000, "juror", "platform")}},
		{"one micro-USDC", 1, []marketplace.Weighted{{Address: j4, Weight: 5}},
			[]anchor.Payout{pay(winner, 1, "winner")}},
		{"unfunded", 0, []marketplace.Weighted{{Address: j4, Weight: 5}}, nil},
	}
	for _, tc := range cases {
		got := marketplace.Split(tc.total, 50_000, 100_000, winner, treasury, tc.jurors)
		require.Equal(t, tc.want, got, tc.name)
	}
	// Any total and weights: the payouts add up to F exactly, none is zero,
	// one per address, in address order.
	r := rand.New(rand.NewPCG(7, 7))
	for range 500 {
		total := openjury.MicroUSDC(r.Int64N(1 << 50))
		var jurors []marketplace.Weighted
		for i := range r.IntN(20) {
			jurors = append(jurors, marketplace.Weighted{Address: addr(byte(10 + i)), Weight: 1 + r.Int64N(5)})
		}
		fee, jury := r.Int64N(300_000), r.Int64N(300_000)
		got := marketplace.Split(total, fee, jury, winner, treasury, jurors)
		var sum uint64
		for i, p := range got {
			require.NotZero(t, p.Amount)
			sum += p.Amount
			if i > 0 {
				require.Less(t, got[i-1].Recipient, p.Recipient)
			}
		}
		require.Equal(t, uint64(total), sum)
	}
}

func addr(n byte) openjury.Address {
	b := [20]byte{19: n, 0: 0xcd}
	return openjury.AddressFromBytes(b)
}

// escrowWorld is an anchor world with a fake chain whose escrow events
// the stake sync follows (confirmations 2).
type escrowWorld struct {
	*anchorWorld
	chain      *openjurytest.Chain
	sync       *stake.Syncer
	escrow     *marketplace.EscrowSyncer
	mu         sync.Mutex
	mismatched []string
	block      int64
}

func newEscrowWorld(t *testing.T, db *bunstore.DB, salt []byte) *escrowWorld {
	w := &escrowWorld{anchorWorld: newAnchorWorld(t, db, salt), chain: openjurytest.NewChain()}
	w.escrow = marketplace.NewEscrowSyncer(w.chain, db, marketplace.EscrowSyncConfig{
		ChainID: testEscrow.ChainID, Contract: testEscrow.Contract,
		OnMismatch: func(j *marketplace.Job, _ *marketplace.JobEscrow) {
			w.mu.Lock()
			defer w.mu.Unlock()
			w.mismatched = append(w.mismatched, j.ID)
		},
	})
	w.sync = stake.NewSyncer(w.chain, db.Sync(), w.clock, stake.SyncConfig{
		ChainID: testEscrow.ChainID, Contract: openjury.MustAddress("0x0000000000000000000000000000000000005a5e"),
		Confirmations: 2, Owner: "test:" + openjury.NewID(), LeaseTTL: time.Minute,
		Followers: []stake.Follower{w.escrow},
	})
	return w
}

// emit puts an escrow event of (job, sponsor) in a new block, after the
// head.
func (w *escrowWorld) emit(ev marketplace.EscrowEvent) marketplace.EscrowEvent {
	head, err := w.chain.Head(w.ctx)
	require.NoError(w.t, err)
	w.block = max(w.block, head) + 1
	ev.Block, ev.LogIndex = w.block, 3
	ev.TxHash = openjury.HashFromBytes([32]byte{0: byte(w.block), 1: byte(w.block >> 8), 31: 0xee})
	ev.Contract = testEscrow.Contract
	w.chain.AddEscrowEvent(ev)
	return ev
}

// synced mines the confirmations and runs the sync until it is caught up.
func (w *escrowWorld) synced() {
	w.t.Helper()
	w.chain.Mine(2)
	for range 10 {
		res, err := w.sync.Step(w.ctx)
		require.NoError(w.t, err)
		if res.CaughtUp {
			return
		}
	}
	w.t.Fatal("the sync did not catch up")
}

func key(jobID string) openjury.Hash { return openjury.HashFromBytes(anchor.JobKey(jobID)) }

func funded(jobID string, sponsor openjury.Address, amount, total openjury.MicroUSDC) marketplace.EscrowEvent {
	return marketplace.EscrowEvent{Kind: marketplace.EscrowEventFunded, JobKey: key(jobID), Sponsor: sponsor,
		Amount: amount, Total: total, RefundAfter: 2_000_000_000}
}

// The worked example through the service: the sponsor funds 100.000001
// USDC (seen only after the confirmations), two agents submit, three
// jurors vote (weights 4 and 5 for the winner, 4 for the other), the
// sponsor closes: the snapshot is schema 2 with one payout record per
// recipient whose leaf is PayoutLeaf and whose proof leads to the root;
// funding that arrives after the close is excess; the settle with the
// job's root and total matches; claims are listed with their
// transactions; replaying every block changes nothing.
func TestFundedCloseSplitsTheBounty(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		w := newEscrowWorld(t, db, fixedSalt)
		sponsor, winnerAgent, otherAgent := w.addr(1), w.addr(2), w.addr(3)
		j4, j5, jo := w.addr(4), w.addr(5), w.addr(6)
		for _, a := range []openjury.Address{winnerAgent, otherAgent, j4, j5, jo} {
			w.stake(a, 10)
		}
		w.score(j4, 10)
		w.score(jo, 10)
		w.score(j5, 16)
		job := w.job(sponsor)
		require.Equal(t, &marketplace.JobEscrow{Status: marketplace.EscrowUnfunded}, w.svc.EscrowOf(job))

		ev := w.emit(funded(job.ID, sponsor, 100_000_001, 100_000_001))
		_, err := w.sync.Step(w.ctx)
		require.NoError(t, err)
		require.Nil(t, mustJob(t, w.anchorWorld, job.ID).Escrow, "not confirmed yet")
		w.synced()
		got := mustJob(t, w.anchorWorld, job.ID).Escrow
		require.NotNil(t, got)
		require.Equal(t, marketplace.EscrowFunded, got.Status)
		require.Equal(t, openjury.MicroUSDC(100_000_001), got.Amount)
		require.Equal(t, time.Unix(2_000_000_000, 0).UTC(), *got.RefundAfter)
		require.Equal(t, ev.Ref(testEscrow.ChainID), got.Ref)
		page, err := w.svc.ListJobs(w.ctx, marketplace.ListJobsInput{Funded: true})
		require.NoError(t, err)
		require.Equal(t, []string{job.ID}, jobIDs(page.Jobs), "funded=true lists the funded job only")

		win, lose := w.submit(winnerAgent, job.ID), w.submit(otherAgent, job.ID)
		for voter, sub := range map[openjury.Address]string{j4: win.ID, j5: win.ID, jo: lose.ID} {
			_, err := w.svc.Vote(w.ctx, voter, marketplace.VoteInput{JobID: job.ID, SubmissionID: sub})
			require.NoError(t, err)
		}
		page0, err := w.svc.Payouts(w.ctx, job.ID, marketplace.PayoutsInput{})
		require.NoError(t, err)
		require.Empty(t, page0.Payouts, "an open job has none")

		res, err := w.svc.CloseJob(w.ctx, sponsor, job.ID, marketplace.CloseInput{WinnerSubmissionID: win.ID})
		require.NoError(t, err)
		require.Equal(t, anchor.SchemaVersionPayouts, res.Job.Anchor.SchemaVersion)
		require.Equal(t, openjury.MicroUSDC(100_000_001), *res.Job.PayoutTotal)
		want := map[openjury.Address]uint64{winnerAgent: 85_000_002, j4: 4_444_444, j5: 5_555_555, testEscrow.Treasury: 5_000_000}
		d := w.document(job.ID)
		require.Equal(t, anchor.SchemaVersionPayouts, d.SchemaVersion)
		require.NoError(t, anchor.VerifyDocument(mustDoc(t, w.anchorWorld, job.ID), res.Job.Anchor.Root))
		root := node(t, res.Job.Anchor.Root)
		for a, amount := range want {
			p, err := w.anchors.Proof(w.ctx, job.ID, anchor.PayoutRecordID(a))
			require.NoError(t, err)
			leaf := anchor.PayoutLeaf(anchor.JobKey(job.ID), a, amount)
			require.Equal(t, openjury.HashFromBytes(leaf), p.Leaf, "the escrow's leaf")
			require.True(t, anchor.Verify(nodes(t, p.Proof), root, leaf))
		}
		tail := d.IDs[len(d.IDs)-4:]
		require.True(t, slices.IsSorted(tail), "payouts close the document in address order: %v", tail)
		for _, id := range tail {
			require.Contains(t, id, "payout:")
		}
		listed, err := w.svc.Payouts(w.ctx, job.ID, marketplace.PayoutsInput{})
		require.NoError(t, err)
		require.Len(t, listed.Payouts, 4)
		for _, p := range listed.Payouts {
			require.Equal(t, want[p.Recipient], p.Amount, p.Recipient)
			require.True(t, p.Claim.IsZero())
		}
		require.Equal(t, []string{"juror"}, payoutOf(t, listed, j4).Roles)

		// Funding after the close is excess: the payouts stay.
		w.emit(funded(job.ID, sponsor, 5, 100_000_006))
		settle := w.emit(marketplace.EscrowEvent{Kind: marketplace.EscrowEventSettled, JobKey: key(job.ID), Sponsor: sponsor,
			Root: res.Job.Anchor.Root, Total: 100_000_001})
		claim := w.emit(marketplace.EscrowEvent{Kind: marketplace.EscrowEventClaimed, JobKey: key(job.ID), Sponsor: sponsor,
			Recipient: j5, Amount: 5_555_555})
		w.emit(marketplace.EscrowEvent{Kind: marketplace.EscrowEventRefunded, JobKey: key(job.ID), Sponsor: sponsor, Amount: 5})
		w.synced()
		e := mustJob(t, w.anchorWorld, job.ID).Escrow
		require.Equal(t, marketplace.EscrowSettled, e.Status, "the excess refund keeps it settled")
		require.False(t, e.Mismatch)
		require.Equal(t, openjury.MicroUSDC(100_000_006), e.Amount)
		require.Equal(t, res.Job.Anchor.Root, e.SettledRoot)
		require.Equal(t, settle.Ref(testEscrow.ChainID).TxHash, mustEvent(t, db, settle).TxHash)
		listed, err = w.svc.Payouts(w.ctx, job.ID, marketplace.PayoutsInput{})
		require.NoError(t, err)
		require.Equal(t, claim.Ref(testEscrow.ChainID), payoutOf(t, listed, j5).Claim)
		require.True(t, payoutOf(t, listed, j4).Claim.IsZero())
		one, err := w.svc.Payouts(w.ctx, job.ID, marketplace.PayoutsInput{Recipient: j5.Checksum()})
		require.NoError(t, err)
		require.Len(t, one.Payouts, 1)
		pageA, err := w.svc.Payouts(w.ctx, job.ID, marketplace.PayoutsInput{Limit: 3})
		require.NoError(t, err)
		pageB, err := w.svc.Payouts(w.ctx, job.ID, marketplace.PayoutsInput{Limit: 3, Cursor: pageA.NextCursor})
		require.NoError(t, err)
		require.Equal(t, listed.Payouts, append(pageA.Payouts, pageB.Payouts...))
		require.Empty(t, pageB.NextCursor)
		require.Empty(t, w.mismatched)

		// Replaying every block (the cursor back at 0) changes nothing.
		before := mustJob(t, w.anchorWorld, job.ID)
		_, err = db.Bun().NewUpdate().Table("sync_cursors").Set("next_block = 0").Where("name = ?", w.escrow.Cursor()).Exec(w.ctx)
		require.NoError(t, err)
		w.synced()
		require.Equal(t, before, mustJob(t, w.anchorWorld, job.ID))
		require.Equal(t, 5, countEvents(t, db, job.ID), "two fundings, the settle, a claim, a refund")
	})
}

// A finalized funded job pays the finalize's winner and the jurors who
// voted for it.
func TestFundedFinalizePaysTheFinalizeWinner(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		w := newEscrowWorld(t, db, fixedSalt)
		sponsor, a, b, juror := w.addr(1), w.addr(2), w.addr(3), w.addr(4)
		for _, x := range []openjury.Address{a, b, juror} {
			w.stake(x, 10)
		}
		w.score(juror, 10)
		job := w.job(sponsor)
		w.emit(funded(job.ID, sponsor, 1_000_000, 1_000_000))
		w.synced()
		sa, sb := w.submit(a, job.ID), w.submit(b, job.ID)
		_, err := w.svc.Vote(w.ctx, juror, marketplace.VoteInput{JobID: job.ID, SubmissionID: sb.ID})
		require.NoError(t, err)
		_, err = w.svc.FinalVote(w.ctx, juror, marketplace.FinalVoteInput{JobID: job.ID, SubmissionID: sb.ID})
		require.NoError(t, err)
		_ = sa
		w.clock.Advance(2 * time.Hour)
		res, err := w.svc.FinalizeJob(w.ctx, juror, job.ID)
		require.NoError(t, err)
		require.Equal(t, sb.ID, res.WinnerSubmissionID)
		listed, err := w.svc.Payouts(w.ctx, job.ID, marketplace.PayoutsInput{})
		require.NoError(t, err)
		got := map[openjury.Address]uint64{}
		for _, p := range listed.Payouts {
			got[p.Recipient] = p.Amount
		}
		require.Equal(t, map[openjury.Address]uint64{b: 850_000, juror: 100_000, testEscrow.Treasury: 50_000}, got)
	})
}

// What an attacker can put on chain changes nothing it should not: an
// event of another sponsor's slot of the same job key (anyone can fund
// their own slot of any key), events of an unknown key, the same log
// replayed in another batch, events that arrive out of order, a settle
// with another root (escrow_mismatch, reported), and a reorg shallower
// than the confirmations (never seen). A refund before the settle makes
// the job's close pay nothing (schema 1).
func TestEscrowSyncAgainstHostileEvents(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		w := newEscrowWorld(t, db, bytes.Repeat(fixedSalt, 2))
		sponsor, squatter := w.addr(1), w.addr(66)
		job := w.job(sponsor)

		// Another sponsor's slot and an unknown key: ignored.
		w.emit(funded(job.ID, squatter, 7, 7))
		w.emit(funded(openjury.NewID(), sponsor, 9, 9))
		w.synced()
		require.Nil(t, mustJob(t, w.anchorWorld, job.ID).Escrow)
		require.Zero(t, countEvents(t, db, job.ID))

		// Out of order in one batch: applied by (block, log index).
		w.block += 2
		later := funded(job.ID, sponsor, 2, 3)
		later.Block, later.LogIndex, later.TxHash, later.Contract = w.block, 0, openjury.HashFromBytes([32]byte{1: 0xb2}), testEscrow.Contract
		earlier := funded(job.ID, sponsor, 1, 1)
		earlier.Block, earlier.LogIndex, earlier.TxHash, earlier.Contract = w.block-1, 5, openjury.HashFromBytes([32]byte{1: 0xb1}), testEscrow.Contract
		w.chain.AddEscrowEvent(later)
		w.chain.AddEscrowEvent(earlier)
		w.synced()
		require.Equal(t, openjury.MicroUSDC(3), mustJob(t, w.anchorWorld, job.ID).Escrow.Amount)

		// The same log in a later batch (a node answering an old log again):
		// recorded once, nothing moves.
		replay := later
		replay.Block = w.block + 1
		w.block++
		w.chain.AddEscrowEvent(replay)
		w.synced()
		require.Equal(t, 2, countEvents(t, db, job.ID))
		require.Equal(t, later.Ref(testEscrow.ChainID), mustJob(t, w.anchorWorld, job.ID).Escrow.Ref)

		// A reorg shallower than the confirmations: the event is dropped
		// before it is buried deep enough, and never seen.
		w.block++
		reorged := funded(job.ID, sponsor, 1_000, 1_003)
		reorged.Block, reorged.LogIndex, reorged.TxHash, reorged.Contract = w.block, 0, openjury.HashFromBytes([32]byte{1: 0xdd}), testEscrow.Contract
		w.chain.AddEscrowEvent(reorged)
		w.chain.SetHead(w.block + 1) // one confirmation of two
		_, err := w.sync.Step(w.ctx)
		require.NoError(t, err)
		w.chain.DropEscrowEvents(w.block)
		w.synced()
		require.Equal(t, openjury.MicroUSDC(3), mustJob(t, w.anchorWorld, job.ID).Escrow.Amount)

		// A settle with another root before any close: a mismatch, reported.
		w.emit(marketplace.EscrowEvent{Kind: marketplace.EscrowEventSettled, JobKey: key(job.ID), Sponsor: sponsor,
			Root: openjury.HashFromBytes([32]byte{5: 1}), Total: 3})
		w.synced()
		e := mustJob(t, w.anchorWorld, job.ID).Escrow
		require.Equal(t, marketplace.EscrowSettled, e.Status)
		require.True(t, e.Mismatch)
		require.Equal(t, []string{job.ID}, w.mismatched)

		// A closed funded job settled with the right root but another total
		// is a mismatch too.
		a, agent := w.job(sponsor), w.addr(2)
		w.stake(agent, 10)
		w.emit(funded(a.ID, sponsor, 10, 10))
		w.synced()
		sub := w.submit(agent, a.ID)
		res, err := w.svc.CloseJob(w.ctx, sponsor, a.ID, marketplace.CloseInput{WinnerSubmissionID: sub.ID})
		require.NoError(t, err)
		w.emit(marketplace.EscrowEvent{Kind: marketplace.EscrowEventSettled, JobKey: key(a.ID), Sponsor: sponsor,
			Root: res.Job.Anchor.Root, Total: 9})
		w.synced()
		require.True(t, mustJob(t, w.anchorWorld, a.ID).Escrow.Mismatch)

		// Refunded before the close: the close pays nothing, schema 1.
		b := w.job(sponsor)
		w.emit(funded(b.ID, sponsor, 10, 10))
		w.emit(marketplace.EscrowEvent{Kind: marketplace.EscrowEventRefunded, JobKey: key(b.ID), Sponsor: sponsor, Amount: 10})
		w.synced()
		require.Equal(t, marketplace.EscrowRefunded, mustJob(t, w.anchorWorld, b.ID).Escrow.Status)
		sub = w.submit(agent, b.ID)
		res, err = w.svc.CloseJob(w.ctx, sponsor, b.ID, marketplace.CloseInput{WinnerSubmissionID: sub.ID})
		require.NoError(t, err)
		require.Equal(t, anchor.SchemaVersion, res.Job.Anchor.SchemaVersion)
		require.Nil(t, res.Job.PayoutTotal)
	})
}

func jobIDs(jobs []*marketplace.Job) []string {
	out := make([]string, len(jobs))
	for i, j := range jobs {
		out[i] = j.ID
	}
	return out
}

func payoutOf(t *testing.T, p *marketplace.PayoutPage, a openjury.Address) marketplace.JobPayout {
	t.Helper()
	i := slices.IndexFunc(p.Payouts, func(x marketplace.JobPayout) bool { return x.Recipient == a })
	require.GreaterOrEqual(t, i, 0, "no payout to %s", a)
	return p.Payouts[i]
}

func nodes(t *testing.T, hs []openjury.Hash) []anchor.Node {
	out := make([]anchor.Node, len(hs))
	for i, h := range hs {
		out[i] = node(t, h)
	}
	return out
}

func node(t *testing.T, h openjury.Hash) anchor.Node {
	t.Helper()
	n, err := anchor.NodeOf(h)
	require.NoError(t, err)
	return n
}

func countEvents(t *testing.T, db *bunstore.DB, jobID string) int {
	t.Helper()
	n, err := db.Bun().NewSelect().Table("escrow_events").Where("job_id = ?", jobID).Count(context.Background())
	require.NoError(t, err)
	return int(n)
}

func mustEvent(t *testing.T, db *bunstore.DB, ev marketplace.EscrowEvent) openjury.ChainRef {
	t.Helper()
	var row struct {
		TxHash string `bun:"tx_hash"`
	}
	err := db.Bun().NewSelect().Table("escrow_events").Column("tx_hash").
		Where("tx_hash = ? AND log_index = ?", string(ev.TxHash), ev.LogIndex).Scan(context.Background(), &row)
	require.NoError(t, err, fmt.Sprint(ev))
	return openjury.ChainRef{TxHash: openjury.Hash(row.TxHash)}
}

// BenchmarkSplit splits a bounty among 10,000 coherent jurors: the work a
// funded close does once its votes are read.
func BenchmarkSplit(b *testing.B) {
	jurors := make([]marketplace.Weighted, 10_000)
	for i := range jurors {
		var a [20]byte
		a[0], a[18], a[19] = 0x5e, byte(i>>8), byte(i)
		jurors[i] = marketplace.Weighted{Address: openjury.AddressFromBytes(a), Weight: 1 + int64(i%5)}
	}
	b.ReportAllocs()
	for b.Loop() {
		p := marketplace.Split(100_000_001, 50_000, 100_000, addr(1), addr(2), jurors)
		if len(p) != len(jurors)+2 {
			b.Fatal(len(p))
		}
	}
}

// A funded commit-reveal job pays its coherent jurors from the escrow's
// jury pool (their payout records) and credits them no AGR; the same job
// unfunded credits AGR and makes no payouts. An attacker who revealed
// for the loser is paid neither way.
func TestFundedJuryPaysUSDCNotAGR(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		w := newEscrowWorld(t, db, fixedSalt)
		cfg := loopConfig
		cfg.BaseURL = "https://jury.example.com"
		cfg.SaltSource = bytes.NewReader(bytes.Repeat(fixedSalt, 4))
		cfg.Escrow = testEscrow
		cfg.AGRPerCoherentVote = marketplace.DefaultAGRPerCoherentVote
		w.svc = marketplace.NewService(db, w.clock, cfg)
		jw := &juryWorld{world: w.world, cfg: cfg}
		sponsor, winnerAgent, otherAgent := w.addr(1), w.addr(2), w.addr(3)
		coherentJ, loserJ := w.addr(4), w.addr(5)
		for _, a := range []openjury.Address{winnerAgent, otherAgent, coherentJ, loserJ} {
			w.stake(a, 10)
		}
		w.score(coherentJ, 16)
		w.score(loserJ, 16)
		run := func(fund bool) (*marketplace.Job, *marketplace.CloseResult) {
			start := w.clock.Now()
			job, err := w.svc.CreateJob(w.ctx, sponsor, marketplace.CreateJobInput{Title: "t", Prompt: "p", Bounty: 100 * openjury.MicroPerUSDC,
				JuryMode: "commit_reveal", JuryCommitSeconds: secs(3600), JuryRevealSeconds: secs(1800)})
			require.NoError(t, err)
			if fund {
				w.emit(funded(job.ID, sponsor, 100_000_000, 100_000_000))
				w.synced()
			}
			win, lose := w.submit(winnerAgent, job.ID), w.submit(otherAgent, job.ID)
			_, err = jw.commit(coherentJ, job.ID, win.ID, salt(1))
			require.NoError(t, err)
			_, err = jw.commit(loserJ, job.ID, lose.ID, salt(2))
			require.NoError(t, err)
			w.clock.Set(start.Add(time.Hour))
			_, err = jw.reveal(coherentJ, job.ID, win.ID, salt(1))
			require.NoError(t, err)
			_, err = jw.reveal(loserJ, job.ID, lose.ID, salt(2))
			require.NoError(t, err)
			w.clock.Set(start.Add(90 * time.Minute))
			res, err := w.svc.CloseJob(w.ctx, sponsor, job.ID, marketplace.CloseInput{WinnerSubmissionID: win.ID})
			require.NoError(t, err)
			return job, res
		}

		job, res := run(true)
		require.Equal(t, openjury.MicroUSDC(100_000_000), *res.Job.PayoutTotal)
		listed, err := w.svc.Payouts(w.ctx, job.ID, marketplace.PayoutsInput{})
		require.NoError(t, err)
		pool := uint64(100_000_000) * uint64(w.svc.Config().Economy.JuryPoolPPM) / marketplace.PPM
		require.Equal(t, pool, payoutOf(t, listed, coherentJ).Amount, "the only coherent juror takes the whole pool")
		for _, p := range listed.Payouts {
			require.NotEqual(t, loserJ, p.Recipient, "no payout to a juror who voted for the loser")
		}
		require.Zero(t, jw.agrOf(coherentJ).Balance, "a funded close pays USDC, not AGR")

		job2, _ := run(false)
		require.Equal(t, int64(marketplace.DefaultAGRPerCoherentVote), jw.agrOf(coherentJ).Balance, "an unfunded close credits AGR")
		require.Zero(t, jw.agrOf(loserJ).Balance)
		listed, err = w.svc.Payouts(w.ctx, job2.ID, marketplace.PayoutsInput{})
		require.NoError(t, err)
		require.Empty(t, listed.Payouts)
	})
}
