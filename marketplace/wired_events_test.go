package marketplace_test

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest"
)

// jobEvents sequences the log (at the world's clock) and returns every
// event of the job, those with an audience included, in order.
func jobEvents(t *testing.T, w *world, jobID string) []*events.Event {
	t.Helper()
	_, all := eventTypes(t, w, 0)
	var out []*events.Event
	for _, e := range all {
		if e.JobID == jobID {
			out = append(out, e)
		}
	}
	return out
}

// ofType keeps the events of type typ.
func ofType(evs []*events.Event, typ events.Type) []*events.Event {
	var out []*events.Event
	for _, e := range evs {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

// dataKeys returns the sorted keys of an event's data.
func dataKeys(e *events.Event) []string {
	var out []string
	for k := range e.Data {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// serialized is the event as JSON, every field of it.
func serialized(t *testing.T, e *events.Event) string {
	t.Helper()
	raw, err := json.Marshal(e)
	require.NoError(t, err)
	return string(raw)
}

// readAs reads the whole log through a filter, as GET /api/v1/events does.
func readAs(t *testing.T, w *world, f events.Filter) []*events.Event {
	t.Helper()
	_, head, err := events.NewService(w.db.EventLog(), w.clock, events.Config{}).Bounds(w.ctx)
	require.NoError(t, err)
	evs, err := w.db.EventLog().Read(w.ctx, f, 0, head, 1000)
	require.NoError(t, err)
	return evs
}

// TestCommitRevealEvents: a commit-reveal job with a drawn panel writes
// job.created, one jury.drawn per drawn juror (seen only through that
// juror's filter), the jury.reveal_opened timer (held back until the
// commit window ends), vote.committed per commitment (a replaced one
// again) and vote.revealed per first matching reveal; neither of the
// last two ever names the submission (nor its agent as a subject), in any
// field. Refused commits and reveals write nothing.
func TestCommitRevealEvents(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		w := newJuryWorld(t, db, nil)
		sponsor, agentA, agentB := w.addr(1), w.juror(2, 10, 0), w.juror(3, 10, 0)
		var pool []openjury.Address
		for n := byte(20); n < 27; n++ {
			pool = append(pool, w.juror(n, 10+int64(n), 16))
		}
		job := w.createJob(sponsor, marketplace.CreateJobInput{JuryMode: "commit_reveal", JurySize: secs(3),
			JuryCommitSeconds: secs(600), JuryRevealSeconds: secs(600), FinalVoteWindowSeconds: secs(600)})
		jury, err := w.svc.Jury(w.ctx, job.ID)
		require.NoError(t, err)
		require.Len(t, jury.Panel, 3)

		evs := jobEvents(t, w.world, job.ID)
		require.Equal(t, []events.Type{events.JobCreated, events.JuryDrawn, events.JuryDrawn, events.JuryDrawn}, typesOf(evs),
			"the reveal and final-vote timers wait for their time")
		for i, e := range ofType(evs, events.JuryDrawn) {
			m := jury.Panel[i]
			require.True(t, e.Actor.IsZero(), "the draw is the service's")
			require.Equal(t, []openjury.Address{m.Address}, e.Audience)
			require.ElementsMatch(t, []openjury.Address{m.Address, sponsor}, e.Subjects)
			require.Equal(t, m.Address.String(), e.Data["juror_address"])
			require.Equal(t, job.ID, e.Data["job_id"])
			d := normalize(t, e.Data)
			require.EqualValues(t, i, d["draw_position"])
			require.EqualValues(t, 3, d["jury_size"])
			require.Equal(t, json.Number(m.Stake.String()), d["stake_usdc"])
			require.Equal(t, jury.Draw.Seed.String(), e.Data["seed"])
			require.Equal(t, marketplace.SeedServer, e.Data["seed_source"])
			// Only the juror's own filter shows it.
			mine := ofType(readAs(t, w.world, events.Filter{Address: m.Address}), events.JuryDrawn)
			require.Len(t, mine, 1)
			require.Equal(t, e.Seq, mine[0].Seq)
			other := jury.Panel[(i+1)%3].Address
			for _, f := range []events.Filter{{}, {JobID: job.ID}, {Address: sponsor}, {Address: other, Types: []events.Type{events.JuryDrawn}}} {
				for _, seen := range readAs(t, w.world, f) {
					require.False(t, seen.Type == events.JuryDrawn && seen.Data["juror_address"] == m.Address.String(),
						"the draw of %s leaks to filter %+v", m.Address, f)
				}
			}
		}
		drawnEvents := len(evs)

		sa, sb := w.submit(agentA, job.ID), w.submit(agentB, job.ID)
		j0, j1 := jury.Panel[0].Address, jury.Panel[1].Address
		outsider := pool[slices.IndexFunc(pool, func(a openjury.Address) bool { return !slicesContainsAddr(panelAddrs(jury.Panel), a) })]
		_, err = w.commit(outsider, job.ID, sa.ID, salt(9))
		requireKind(t, err, openjury.Forbidden, marketplace.DetailNotDrawn)
		_, err = w.commit(j0, job.ID, sb.ID, salt(1))
		require.NoError(t, err)
		c0, err := w.commit(j0, job.ID, sa.ID, salt(2)) // replaced: emits again
		require.NoError(t, err)
		_, err = w.commit(j1, job.ID, sb.ID, salt(3))
		require.NoError(t, err)

		evs = jobEvents(t, w.world, job.ID)
		require.Equal(t, []events.Type{events.SubmissionCreated, events.SubmissionCreated, events.VoteCommitted, events.VoteCommitted, events.VoteCommitted},
			typesOf(evs[drawnEvents:]), "the outsider's refused commitment wrote nothing")
		committed := ofType(evs, events.VoteCommitted)
		for i, voter := range []openjury.Address{j0, j0, j1} {
			e := committed[i]
			require.Equal(t, voter, e.Actor)
			require.Equal(t, []string{"created_at", "job_id", "voter_address"}, dataKeys(e))
			require.Equal(t, voter.String(), e.Data["voter_address"])
			require.Equal(t, []openjury.Address{sponsor}, e.Subjects, "no agent: it would tell the choice")
		}
		require.Equal(t, openjury.FormatTime(c0.CreatedAt), committed[1].Data["created_at"])
		for _, e := range committed {
			raw := serialized(t, e)
			for _, secret := range []string{sa.ID, sb.ID, agentA.String(), agentB.String(), c0.Commitment.String()} {
				require.NotContains(t, raw, secret)
			}
		}

		// The commit window ends: the timer fires, once.
		w.clock.Set(*job.JuryCommitEndsAt)
		evs = jobEvents(t, w.world, job.ID)
		opened := ofType(evs, events.JuryRevealOpened)
		require.Len(t, opened, 1)
		require.Equal(t, *job.JuryCommitEndsAt, opened[0].CreatedAt)
		require.Equal(t, openjury.FormatTime(*job.JuryRevealEndsAt), opened[0].Data["jury_reveal_ends_at"])
		require.Empty(t, ofType(evs, events.FinalVoteOpened), "the final vote opens after the reveal window")

		_, err = w.reveal(j0, job.ID, sb.ID, salt(2)) // wrong
		requireKind(t, err, openjury.Invalid, "salt: submission_id and salt do not match your commitment")
		w.score(j0, 25)
		v0, err := w.reveal(j0, job.ID, sa.ID, salt(2))
		require.NoError(t, err)
		_, err = w.reveal(j0, job.ID, sa.ID, salt(2)) // repeated: the same vote, no event
		require.NoError(t, err)
		_, err = w.reveal(j1, job.ID, sb.ID, salt(3))
		require.NoError(t, err)
		revealed := ofType(jobEvents(t, w.world, job.ID), events.VoteRevealed)
		require.Len(t, revealed, 2, "one per first matching reveal")
		require.Equal(t, j0, revealed[0].Actor)
		require.Equal(t, []string{"job_id", "voter_address", "weight"}, dataKeys(revealed[0]))
		require.Equal(t, v0.Weight, normalize(t, revealed[0].Data)["weight"])
		require.EqualValues(t, 5, v0.Weight)
		require.Equal(t, j1.String(), revealed[1].Data["voter_address"])
		for _, e := range revealed {
			require.Equal(t, []openjury.Address{sponsor}, e.Subjects)
			raw := serialized(t, e)
			for _, secret := range []string{sa.ID, sb.ID, agentA.String(), agentB.String()} {
				require.NotContains(t, raw, secret, "the tallies are hidden until the reveal window ends")
			}
		}
		require.Empty(t, ofType(jobEvents(t, w.world, job.ID), events.VoteCast), "commit-reveal votes are never vote.cast")
	})
}

// TestClosedJobTimersNeverFire: a commit-reveal job closed in its commit
// window has its jury.reveal_opened and final_vote.opened timers
// cancelled: they never reach the log, however late it is read.
func TestClosedJobTimersNeverFire(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		w := newJuryWorld(t, db, nil)
		sponsor, a := w.addr(1), w.juror(2, 10, 0)
		job := w.createJob(sponsor, marketplace.CreateJobInput{JuryMode: "commit_reveal", JuryCommitSeconds: secs(600), JuryRevealSeconds: secs(600)})
		open := w.createJob(sponsor, marketplace.CreateJobInput{JuryMode: "commit_reveal", JuryCommitSeconds: secs(600), JuryRevealSeconds: secs(600)})
		sa := w.submit(a, job.ID)
		_, err := w.svc.CloseJob(w.ctx, sponsor, job.ID, marketplace.CloseInput{WinnerSubmissionID: sa.ID})
		require.NoError(t, err)
		w.clock.Advance(48 * time.Hour)
		require.Equal(t, []events.Type{events.JobCreated, events.SubmissionCreated, events.JobClosed}, typesOf(jobEvents(t, w.world, job.ID)))
		require.Equal(t, []events.Type{events.JobCreated, events.JuryRevealOpened, events.FinalVoteOpened}, typesOf(jobEvents(t, w.world, open.ID)),
			"the open job's timers fire, in their order")
	})
}

// TestOpenVoteOnDrawnPanelEmitsVoteCast: an open-mode job with a drawn
// panel takes the store's locked transaction path (not PostgreSQL's one
// statement): a drawn juror's vote still writes vote.cast with its choice
// and the voted agent as a subject; an outsider's refused vote writes
// nothing.
func TestOpenVoteOnDrawnPanelEmitsVoteCast(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		w := newJuryWorld(t, db, nil)
		sponsor, a := w.addr(1), w.juror(2, 10, 0)
		for n := byte(20); n < 25; n++ {
			w.juror(n, 10, 10)
		}
		job := w.createJob(sponsor, marketplace.CreateJobInput{JurySize: secs(1)})
		jury, err := w.svc.Jury(w.ctx, job.ID)
		require.NoError(t, err)
		require.Len(t, jury.Panel, 1)
		drawn := jury.Panel[0].Address
		outsider := w.addr(20)
		if outsider == drawn {
			outsider = w.addr(21)
		}
		sa := w.submit(a, job.ID)
		_, err = w.svc.Vote(w.ctx, outsider, marketplace.VoteInput{JobID: job.ID, SubmissionID: sa.ID})
		requireKind(t, err, openjury.Forbidden, marketplace.DetailNotDrawn)
		v, err := w.svc.Vote(w.ctx, drawn, marketplace.VoteInput{JobID: job.ID, SubmissionID: sa.ID})
		require.NoError(t, err)
		evs := jobEvents(t, w.world, job.ID)
		require.Equal(t, []events.Type{events.JobCreated, events.JuryDrawn, events.FinalVoteOpened, events.SubmissionCreated, events.VoteCast}, typesOf(evs))
		cast := evs[len(evs)-1]
		require.Equal(t, drawn, cast.Actor)
		require.ElementsMatch(t, []openjury.Address{a, sponsor}, cast.Subjects)
		require.Equal(t, sa.ID, cast.Data["submission_id"])
		require.Equal(t, v.Weight, normalize(t, cast.Data)["weight"])
	})
}

// TestJuryDrawnWhenTheSeedBlockArrives: a chain-seeded panel writes no
// jury.drawn at creation; the jury step that draws it writes one per drawn
// juror, and a second step (another replica) none.
func TestJuryDrawnWhenTheSeedBlockArrives(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		chain := openjurytest.NewChain()
		chain.SetHead(100)
		w := newJuryWorld(t, db, func(c *marketplace.Config) { c.JuryChain = chain })
		sponsor := w.addr(1)
		for n := byte(20); n < 30; n++ {
			w.juror(n, 10+int64(n), 10)
		}
		job := w.createJob(sponsor, marketplace.CreateJobInput{JurySize: secs(3)})
		require.Empty(t, ofType(jobEvents(t, w.world, job.ID), events.JuryDrawn), "pending: nobody is drawn yet")
		chain.SetHead(102)
		w.clock.Advance(time.Minute)
		res, err := w.svc.JuryStep(w.ctx, "a", time.Minute)
		require.NoError(t, err)
		require.Equal(t, 1, res.Drawn)
		replica := marketplace.NewService(db, w.clock, w.cfg)
		w.clock.Advance(2 * time.Minute) // the first lease has expired
		res, err = replica.JuryStep(w.ctx, "b", time.Minute)
		require.NoError(t, err)
		require.True(t, res.Leader)
		require.Zero(t, res.Drawn)

		jury, err := w.svc.Jury(w.ctx, job.ID)
		require.NoError(t, err)
		drawn := ofType(jobEvents(t, w.world, job.ID), events.JuryDrawn)
		require.Len(t, drawn, 3)
		for i, e := range drawn {
			require.Equal(t, []openjury.Address{jury.Panel[i].Address}, e.Audience)
			require.Equal(t, marketplace.SeedBlock, e.Data["seed_source"])
			require.Equal(t, openjurytest.BlockHashOf(102).String(), e.Data["seed"])
			require.Equal(t, openjury.FormatTime(*jury.Draw.DrawnAt), e.Data["drawn_at"])
		}
	})
}

// TestEscrowEvents: a funded close writes one payout.claimable per payout
// record (subjects its recipient); the sync writes escrow.funded,
// escrow.settled, payout.claimed and escrow.refunded once per confirmed
// log of the job's sponsor's slot (no actor; subjects the sponsor and a
// claim's recipient); another sponsor's slot writes nothing, and replaying
// every block writes nothing new.
func TestEscrowEvents(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		w := newEscrowWorld(t, db, fixedSalt)
		sponsor, winnerAgent, juror, squatter := w.addr(1), w.addr(2), w.addr(4), w.addr(66)
		w.stake(winnerAgent, 10)
		w.stake(juror, 10)
		w.score(juror, 10)
		job := w.job(sponsor)
		w.emit(funded(job.ID, squatter, 7, 7))
		fund := w.emit(funded(job.ID, sponsor, 1_000_000, 1_000_000))
		w.synced()
		win := w.submit(winnerAgent, job.ID)
		_, err := w.svc.Vote(w.ctx, juror, marketplace.VoteInput{JobID: job.ID, SubmissionID: win.ID})
		require.NoError(t, err)
		res, err := w.svc.CloseJob(w.ctx, sponsor, job.ID, marketplace.CloseInput{WinnerSubmissionID: win.ID})
		require.NoError(t, err)

		evs := jobEvents(t, w.world, job.ID)
		require.Equal(t, []events.Type{events.JobCreated, events.FinalVoteOpened, events.EscrowFunded, events.SubmissionCreated,
			events.VoteCast, events.JobClosed, events.PayoutClaimable, events.PayoutClaimable, events.PayoutClaimable}, typesOf(evs),
			"the squatter's slot wrote nothing")
		f := evs[2]
		require.True(t, f.Actor.IsZero())
		require.Equal(t, []openjury.Address{sponsor}, f.Subjects)
		require.Equal(t, map[string]any{"job_id": job.ID, "sponsor_address": sponsor.String(), "escrow_status": "funded",
			"amount_usdc": json.Number("1"), "escrow_amount_usdc": json.Number("1"), "escrow_refund_after": "2033-05-18T03:33:20.000Z",
			"escrow_tx_hash": fund.TxHash.String(), "escrow_chain_id": testEscrow.ChainID, "escrow_contract_address": testEscrow.Contract.String(),
			"escrow_block_number": fund.Block, "escrow_log_index": fund.LogIndex}, normalize(t, f.Data))

		listed, err := w.svc.Payouts(w.ctx, job.ID, marketplace.PayoutsInput{})
		require.NoError(t, err)
		require.Len(t, listed.Payouts, 3)
		for i, e := range ofType(evs, events.PayoutClaimable) {
			p := listed.Payouts[i]
			require.Equal(t, sponsor, e.Actor, "the close's caller")
			require.ElementsMatch(t, []openjury.Address{p.Recipient, sponsor}, e.Subjects)
			require.Equal(t, map[string]any{"job_id": job.ID, "recipient": p.Recipient.String(),
				"amount_usdc": json.Number(openjury.MicroUSDC(p.Amount).String()), "roles": toAny(p.Roles)}, normalize(t, e.Data))
		}
		require.Equal(t, map[string]any{"job_id": job.ID, "recipient": juror.String(), "amount_usdc": json.Number("0.1"), "roles": []any{"juror"}},
			normalize(t, ofType(evs, events.PayoutClaimable)[2].Data), "the juror's 10%, last in recipient order")

		settle := w.emit(marketplace.EscrowEvent{Kind: marketplace.EscrowEventSettled, JobKey: key(job.ID), Sponsor: sponsor,
			Root: res.Job.Anchor.Root, Total: 1_000_000})
		w.emit(marketplace.EscrowEvent{Kind: marketplace.EscrowEventClaimed, JobKey: key(job.ID), Sponsor: sponsor,
			Recipient: juror, Amount: 100_000})
		w.emit(funded(job.ID, sponsor, 5, 1_000_005)) // excess after the close
		w.emit(marketplace.EscrowEvent{Kind: marketplace.EscrowEventRefunded, JobKey: key(job.ID), Sponsor: sponsor, Amount: 5})
		w.synced()
		evs = jobEvents(t, w.world, job.ID)
		chainEvs := evs[9:]
		require.Equal(t, []events.Type{events.EscrowSettled, events.PayoutClaimed, events.EscrowFunded, events.EscrowRefunded}, typesOf(chainEvs))
		s := chainEvs[0]
		require.Equal(t, res.Job.Anchor.Root.String(), s.Data["anchor_root"])
		require.Equal(t, false, s.Data["escrow_mismatch"])
		require.Equal(t, "settled", s.Data["escrow_status"])
		require.Equal(t, settle.TxHash.String(), s.Data["escrow_tx_hash"])
		require.Equal(t, []openjury.Address{sponsor}, s.Subjects)
		claimed := chainEvs[1]
		require.True(t, claimed.Actor.IsZero())
		require.Equal(t, []openjury.Address{sponsor, juror}, claimed.Subjects)
		require.Equal(t, juror.String(), claimed.Data["recipient"])
		require.Equal(t, json.Number("0.1"), normalize(t, claimed.Data)["amount_usdc"])
		require.Equal(t, "settled", chainEvs[3].Data["escrow_status"], "the excess refund keeps the job settled")
		require.Equal(t, json.Number("0.000005"), normalize(t, chainEvs[3].Data)["amount_usdc"])
		juror0 := ofType(readAs(t, w.world, events.Filter{Address: juror, Types: []events.Type{events.PayoutClaimed, events.PayoutClaimable}}), events.PayoutClaimed)
		require.Len(t, juror0, 1, "the recipient's filter finds its claim")

		// Replaying every block (the cursor back at 0) writes nothing.
		before := len(evs)
		_, err = db.Bun().NewUpdate().Table("sync_cursors").Set("next_block = 0").Where("name = ?", w.escrow.Cursor()).Exec(w.ctx)
		require.NoError(t, err)
		w.synced()
		require.Len(t, jobEvents(t, w.world, job.ID), before)
	})
}

// typesOf lists the types of evs.
func typesOf(evs []*events.Event) []events.Type {
	out := make([]events.Type, len(evs))
	for i, e := range evs {
		out[i] = e.Type
	}
	return out
}

// normalize is d as a reader of the log decodes it (numbers as
// json.Number).
func normalize(t *testing.T, d events.Data) map[string]any {
	t.Helper()
	raw, err := json.Marshal(d)
	require.NoError(t, err)
	var out map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	require.NoError(t, dec.Decode(&out))
	for k, v := range out {
		if n, ok := v.(json.Number); ok {
			if i, err := n.Int64(); err == nil && !isUSDC(k) {
				out[k] = i
			}
		}
	}
	return out
}

// isUSDC reports whether a data field is an amount of USDC.
func isUSDC(field string) bool { return strings.HasSuffix(field, "_usdc") }

func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, x := range s {
		out[i] = x
	}
	return out
}

// closingChain closes a job when its seed block is first asked for: the
// job closes between the jury step's read of the pending draws and the
// draw.
type closingChain struct {
	*openjurytest.Chain
	once  sync.Once
	close func()
}

func (c *closingChain) BlockHash(ctx context.Context, n int64) (openjury.Hash, error) {
	c.once.Do(c.close)
	return c.Chain.BlockHash(ctx, n)
}

// TestNoPanelForAJobClosedBeforeItsDraw: a job closed while its draw was
// pending gets no panel, no duties and no jury.drawn events.
func TestNoPanelForAJobClosedBeforeItsDraw(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		chain := &closingChain{Chain: openjurytest.NewChain()}
		chain.SetHead(100)
		w := newJuryWorld(t, db, func(c *marketplace.Config) { c.JuryChain = chain })
		sponsor, agent := w.addr(1), w.juror(2, 10, 0)
		for n := byte(20); n < 30; n++ {
			w.juror(n, 10+int64(n), 10)
		}
		job := w.createJob(sponsor, marketplace.CreateJobInput{JurySize: secs(3)})
		sub := w.submit(agent, job.ID)
		chain.close = func() {
			_, err := w.svc.CloseJob(w.ctx, sponsor, job.ID, marketplace.CloseInput{WinnerSubmissionID: sub.ID})
			require.NoError(t, err)
		}
		chain.SetHead(102)
		w.clock.Advance(time.Minute)
		res, err := w.svc.JuryStep(w.ctx, "a", time.Minute)
		require.NoError(t, err)
		require.Zero(t, res.Drawn)
		jury, err := w.svc.Jury(w.ctx, job.ID)
		require.NoError(t, err)
		require.Empty(t, jury.Panel)
		require.Empty(t, ofType(jobEvents(t, w.world, job.ID), events.JuryDrawn))
		for n := byte(20); n < 30; n++ {
			duties, err := w.svc.Duties(w.ctx, w.addr(n).String(), marketplace.ListInput{})
			require.NoError(t, err)
			require.Empty(t, duties.Duties)
		}
	})
}
