package marketplace_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"math/big"
	"sort"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest"
)

// juryConfig is loopConfig with the jury's rewards and penalties.
func juryConfig() marketplace.Config {
	cfg := loopConfig
	cfg.AGRPerCoherentVote = marketplace.DefaultAGRPerCoherentVote
	cfg.JuryNoShowPenalty = marketplace.DefaultJuryNoShowPenalty
	cfg.BaseURL = "https://jury.example.com"
	return cfg
}

// juryWorld is a world with jury settings, a fixed seed source and an
// anchor service to read snapshots.
type juryWorld struct {
	*world
	cfg     marketplace.Config
	anchors *anchor.Service
}

func newJuryWorld(t *testing.T, db *bunstore.DB, edit func(*marketplace.Config)) *juryWorld {
	w := newWorld(t, db)
	cfg := juryConfig()
	cfg.JurySeedSource = bytes.NewReader(bytes.Repeat([]byte{0x42, 0x17, 0x99, 0x03}, 64))
	if edit != nil {
		edit(&cfg)
	}
	w.svc = marketplace.NewService(db, w.clock, cfg)
	return &juryWorld{world: w, cfg: cfg, anchors: anchor.NewService(db, anchor.Config{})}
}

// juror makes an eligible juror at a reputation score (weight).
func (w *juryWorld) juror(n byte, usdc int64, score int64) openjury.Address {
	w.t.Helper()
	a := w.addr(n)
	w.stake(a, usdc)
	w.score(a, score)
	return a
}

func (w *juryWorld) createJob(sponsor openjury.Address, in marketplace.CreateJobInput) *marketplace.Job {
	w.t.Helper()
	in.Title, in.Prompt, in.Bounty = "jury job", "judge it", 100*openjury.MicroPerUSDC
	j, err := w.svc.CreateJob(w.ctx, sponsor, in)
	require.NoError(w.t, err)
	return j
}

func secs(n int64) *int64 { return &n }

// salt is a juror's secret: 32 bytes from n.
func salt(n byte) [32]byte {
	var s [32]byte
	for i := range s {
		s[i] = n ^ byte(i*7)
	}
	return s
}

// commitmentOf computes a commitment from its definition, independently
// of marketplace.CommitmentOf: keccak256 of the ABI encoding of (bytes32
// keccak256(job_id), bytes32 keccak256(submission_id), address voter,
// bytes32 salt), four 32-byte words.
func commitmentOf(jobID, subID string, voter openjury.Address, s [32]byte) string {
	a := voter.Bytes()
	var addrWord [32]byte
	copy(addrWord[12:], a[:])
	return openjury.HashFromBytes([32]byte(crypto.Keccak256(crypto.Keccak256([]byte(jobID)), crypto.Keccak256([]byte(subID)), addrWord[:], s[:]))).String()
}

func saltHex(s [32]byte) string { return openjury.HashFromBytes(s).String() }

func (w *juryWorld) commit(voter openjury.Address, jobID, subID string, s [32]byte) (*marketplace.Commitment, error) {
	return w.svc.Commit(w.ctx, voter, marketplace.CommitInput{JobID: jobID, Commitment: commitmentOf(jobID, subID, voter, s)})
}

func (w *juryWorld) reveal(voter openjury.Address, jobID, subID string, s [32]byte) (*marketplace.Vote, error) {
	return w.svc.Reveal(w.ctx, voter, marketplace.RevealInput{JobID: jobID, SubmissionID: subID, Salt: saltHex(s)})
}

func (w *juryWorld) agrOf(a openjury.Address) agr.Status {
	w.t.Helper()
	st, err := w.db.AGR().Status(w.ctx, a)
	require.NoError(w.t, err)
	return st
}

func (w *juryWorld) repOf(a openjury.Address) marketplace.Reputation {
	w.t.Helper()
	r, err := w.svc.Reputation(w.ctx, a.String())
	require.NoError(w.t, err)
	return r
}

func TestCommitmentOfIsTheDefinition(t *testing.T) {
	t.Parallel()
	voter := openjury.MustAddress("0x00000000000000000000000000000000000000ff")
	jobID, subID := openjury.NewID(), openjury.NewID()
	got := marketplace.CommitmentOf(jobID, subID, voter, salt(3))
	require.Equal(t, commitmentOf(jobID, subID, voter, salt(3)), got.String())
	require.NotEqual(t, got, marketplace.CommitmentOf(jobID, subID, voter, salt(4)))
	require.NotEqual(t, got, marketplace.CommitmentOf(subID, jobID, voter, salt(3)), "job and submission are not interchangeable")
}

// TestJuryCommitReveal drives a commit-reveal job without a panel: the
// commit window (commitments hidden, open votes and early reveals
// refused), the reveal window (wrong reveals refused and changing
// nothing, weight at reveal, repeated reveal), hidden tallies until the
// reveal window ends, late reveals refused, the final-vote window after
// it, and the close's AGR to coherent jurors only.
func TestJuryCommitReveal(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		w := newJuryWorld(t, db, nil)
		sponsor, a, b := w.addr(1), w.juror(2, 10, 0), w.juror(3, 10, 0)
		j1, j2, j3, j4 := w.juror(11, 10, 10), w.juror(12, 10, 16), w.juror(13, 10, 10), w.juror(14, 10, 10)
		start := w.clock.Now()
		job := w.createJob(sponsor, marketplace.CreateJobInput{JuryMode: "commit_reveal", JuryCommitSeconds: secs(3600), JuryRevealSeconds: secs(1800),
			FinalVoteWindowSeconds: secs(600)})
		require.Equal(t, marketplace.JuryCommitReveal, job.JuryMode)
		commitEnd, revealEnd := start.Add(time.Hour).Truncate(time.Millisecond), start.Add(90*time.Minute).Truncate(time.Millisecond)
		require.Equal(t, commitEnd, *job.JuryCommitEndsAt)
		require.Equal(t, revealEnd, *job.JuryRevealEndsAt)
		require.Equal(t, revealEnd, job.FinalVoteStartsAt, "the final vote starts when the reveal window ends")
		require.Equal(t, revealEnd.Add(10*time.Minute), job.FinalVoteEndsAt)
		sa, sb := w.submit(a, job.ID), w.submit(b, job.ID)

		// Commit window.
		_, err := w.svc.Vote(w.ctx, j1, marketplace.VoteInput{JobID: job.ID, SubmissionID: sa.ID})
		requireKind(t, err, openjury.Invalid, marketplace.DetailCommitRequired)
		_, err = w.svc.Commit(w.ctx, j1, marketplace.CommitInput{JobID: job.ID, Commitment: "0x12"})
		requireKind(t, err, openjury.Invalid, "commitment: must be 0x followed by 64 hex digits")
		w.stake(sponsor, 10)
		w.score(sponsor, 10)
		_, err = w.commit(sponsor, job.ID, sa.ID, salt(1))
		requireKind(t, err, openjury.Forbidden, "the sponsor may not vote on their own job")
		_, err = w.commit(w.addr(40), job.ID, sa.ID, salt(1))
		requireKind(t, err, openjury.Forbidden, "insufficient stake")
		first, err := w.commit(j1, job.ID, sb.ID, salt(1)) // changes its mind below
		require.NoError(t, err)
		again, err := w.commit(j1, job.ID, sa.ID, salt(2))
		require.NoError(t, err)
		require.Equal(t, first.ID, again.ID, "a new commitment replaces the old")
		_, err = w.commit(j2, job.ID, sb.ID, salt(3))
		require.NoError(t, err)
		_, err = w.commit(j3, job.ID, sa.ID, salt(4)) // never reveals
		require.NoError(t, err)
		_, err = w.commit(j4, job.ID, sa.ID, salt(5))
		require.NoError(t, err)
		sum, err := w.svc.JurySummary(w.ctx, job.ID)
		require.NoError(t, err)
		require.Equal(t, marketplace.JurySummary{Tallies: []marketplace.Tally{}, Hidden: true, Commitments: 4}, sum)
		_, err = w.reveal(j1, job.ID, sa.ID, salt(2))
		requireKind(t, err, openjury.Conflict, "reveal window has not started")

		// Reveal window.
		w.clock.Set(commitEnd)
		_, err = w.commit(j1, job.ID, sa.ID, salt(9))
		requireKind(t, err, openjury.Conflict, "commit window has ended")
		_, err = w.reveal(j1, job.ID, sb.ID, salt(1)) // the replaced commitment
		requireKind(t, err, openjury.Invalid, "salt: submission_id and salt do not match your commitment")
		_, err = w.reveal(j1, job.ID, sb.ID, salt(2)) // right salt, other submission
		requireKind(t, err, openjury.Invalid, "salt: submission_id and salt do not match your commitment")
		_, err = w.reveal(w.addr(15), job.ID, sa.ID, salt(2))
		requireKind(t, err, openjury.Forbidden, "insufficient stake")
		w.juror(15, 10, 10)
		_, err = w.reveal(w.addr(15), job.ID, sa.ID, salt(2))
		requireKind(t, err, openjury.Conflict, "no commitment to reveal")
		_, err = w.svc.Vote(w.ctx, j1, marketplace.VoteInput{JobID: job.ID, SubmissionID: sa.ID})
		requireKind(t, err, openjury.Invalid, marketplace.DetailCommitRequired)
		_, err = db.Votes().Vote(w.ctx, job.ID, j1)
		requireKind(t, err, openjury.NotFound, "")

		w.score(j1, 25) // weight is taken at reveal: 5
		v1, err := w.reveal(j1, job.ID, sa.ID, salt(2))
		require.NoError(t, err)
		require.Equal(t, int64(5), v1.Weight)
		require.Equal(t, sa.ID, v1.SubmissionID)
		same, err := w.reveal(j1, job.ID, sa.ID, salt(2))
		require.NoError(t, err)
		require.Equal(t, v1.ID, same.ID, "a repeated reveal is the same vote")
		require.Equal(t, int64(1), w.repOf(j1).JuryVotes, "one vote, counted once")
		_, err = w.reveal(j2, job.ID, sb.ID, salt(3))
		require.NoError(t, err)
		_, err = w.reveal(j4, job.ID, sa.ID, salt(5))
		require.NoError(t, err)
		tallies, err := w.svc.VotingSummary(w.ctx, job.ID)
		require.NoError(t, err)
		require.Empty(t, tallies, "hidden until the reveal window ends")
		// The job view (the web app's page) hides the tally too, with
		// revealed votes in the table; the voter's own vote stays theirs.
		view, err := w.svc.JobView(w.ctx, job.ID, marketplace.JobViewInput{Viewer: j1})
		require.NoError(t, err)
		require.True(t, view.JuryHidden)
		require.Empty(t, view.Jury)
		require.Equal(t, sa.ID, view.Vote.SubmissionID)
		require.NotNil(t, view.Panel)
		require.Equal(t, int64(4), view.Panel.Commitments)
		// A profile's list of votes does not show the choice either.
		mine, err := w.svc.VoterVotes(w.ctx, j1.String(), marketplace.ListInput{})
		require.NoError(t, err)
		require.Len(t, mine.Items, 1)
		require.Empty(t, mine.Items[0].Submission.ID, "the choice is hidden until the reveal window ends")
		require.Equal(t, job.ID, mine.Items[0].Job.ID)
		profile, err := w.svc.Profile(w.ctx, j1.String(), marketplace.ProfileInput{})
		require.NoError(t, err)
		require.Equal(t, mine, profile.Votes, "a profile hides it too")
		_, err = w.svc.FinalVote(w.ctx, a, marketplace.FinalVoteInput{JobID: job.ID, SubmissionID: sb.ID})
		requireKind(t, err, openjury.Conflict, "final voting has not started")

		// After the reveal window: tallies of the revealed votes only.
		w.clock.Set(revealEnd)
		_, err = w.reveal(j3, job.ID, sa.ID, salt(4))
		requireKind(t, err, openjury.Conflict, "reveal window has ended")
		sum, err = w.svc.JurySummary(w.ctx, job.ID)
		require.NoError(t, err)
		require.False(t, sum.Hidden)
		mine, err = w.svc.VoterVotes(w.ctx, j1.String(), marketplace.ListInput{})
		require.NoError(t, err)
		require.Equal(t, sa.ID, mine.Items[0].Submission.ID, "shown once the reveal window ended")
		profile, err = w.svc.Profile(w.ctx, j1.String(), marketplace.ProfileInput{})
		require.NoError(t, err)
		require.Equal(t, mine, profile.Votes)
		view, err = w.svc.JobView(w.ctx, job.ID, marketplace.JobViewInput{})
		require.NoError(t, err)
		require.False(t, view.JuryHidden)
		require.Equal(t, sum.Tallies, view.Jury, "the view's tally once the reveal window ended")
		require.Equal(t, int64(4), sum.Commitments)
		require.Len(t, sum.Tallies, 2)
		require.Equal(t, sa.ID, sum.Tallies[0].SubmissionID)
		require.Equal(t, int64(5+4), sum.Tallies[0].Weight, "j1 (5) and j4 (4); j3 never revealed")
		require.Equal(t, int64(5), sum.Tallies[1].Weight, "j2")

		// Finalized by final votes.
		_, err = w.svc.FinalVote(w.ctx, b, marketplace.FinalVoteInput{JobID: job.ID, SubmissionID: sa.ID})
		require.NoError(t, err)
		w.clock.Set(job.FinalVoteEndsAt)
		res, err := w.svc.FinalizeJob(w.ctx, b, job.ID)
		require.NoError(t, err)
		require.Equal(t, sa.ID, res.WinnerSubmissionID)
		for voter, want := range map[openjury.Address]int64{j1: 5, j4: 5, j2: 0, j3: 0, sponsor: 0} {
			require.Equal(t, want, w.agrOf(voter).Balance, "AGR of %s", voter)
		}
		ledger, err := db.AGR().Ledger(w.ctx, j1, 10, nil)
		require.NoError(t, err)
		require.Len(t, ledger, 1)
		require.Equal(t, agr.ReasonJury, ledger[0].Reason)
		require.Equal(t, job.ID, ledger[0].JobID)
		require.Equal(t, int64(10), w.repOf(j3).Score, "no panel: no no-show penalty")

		// The snapshot has the jury record after the job's.
		doc := w.document(job.ID)
		require.Equal(t, marketplace.JuryRecordID(job.ID), doc.IDs[1])
		var rec map[string]any
		require.NoError(t, json.Unmarshal(doc.Records[marketplace.JuryRecordID(job.ID)], &rec))
		require.Equal(t, "commit_reveal", rec["jury_mode"])
		require.Nil(t, rec["jury_size"])
		require.Nil(t, rec["seed"])
		require.Equal(t, openjury.FormatTime(revealEnd), rec["jury_reveal_ends_at"])
		_, hasVote := doc.Records["vote:"+v1.ID]
		require.True(t, hasVote, "revealed votes are vote records")
	})
}

func (w *juryWorld) document(jobID string) *anchor.Document {
	w.t.Helper()
	raw, err := w.anchors.Document(w.ctx, jobID)
	require.NoError(w.t, err)
	d, err := anchor.ParseDocument(raw)
	require.NoError(w.t, err)
	require.NoError(w.t, anchor.VerifyDocument(raw, d.Root))
	return d
}

// refJuror is a juror of the independent re-derivation.
type refJuror struct {
	addr  string
	stake *big.Int
}

// rederive draws a panel from the published inputs, written from the
// documented rule (marketplace.DrawAlgorithmText) without the package's
// code: big integers, the eligible set sorted here, a linear walk.
func rederive(seed []byte, eligible []refJuror, size int) []string {
	set := append([]refJuror(nil), eligible...)
	sort.Slice(set, func(i, k int) bool { return set[i].addr < set[k].addr })
	var panel []string
	for i := 0; len(panel) < size && len(set) > 0; i++ {
		total := new(big.Int)
		for _, j := range set {
			total.Add(total, j.stake)
		}
		word := make([]byte, 32)
		new(big.Int).SetInt64(int64(i)).FillBytes(word)
		r := new(big.Int).SetBytes(crypto.Keccak256(seed, word))
		r.Mod(r, total)
		run := new(big.Int)
		for k, j := range set {
			run.Add(run, j.stake)
			if run.Cmp(r) > 0 {
				panel = append(panel, j.addr)
				set = append(set[:k:k], set[k+1:]...)
				break
			}
		}
	}
	return panel
}

// eligibleHash is the eligible set hash from its definition.
func eligibleHash(eligible []refJuror) string {
	var buf []byte
	for _, j := range eligible {
		a := openjury.MustAddress(j.addr).Bytes()
		buf = append(buf, a[:]...)
		buf = append(buf, j.stake.FillBytes(make([]byte, 32))...)
	}
	return openjury.HashFromBytes([32]byte(crypto.Keccak256(buf))).String()
}

// published reads a job's eligible set through the paged list, as an
// auditor does.
func (w *juryWorld) published(jobID string) []refJuror {
	w.t.Helper()
	var out []refJuror
	cur := ""
	for {
		page, err := w.svc.EligibleSet(w.ctx, jobID, marketplace.ListInput{Limit: 7, Cursor: cur})
		require.NoError(w.t, err)
		for _, j := range page.Jurors {
			out = append(out, refJuror{addr: j.Address.String(), stake: big.NewInt(int64(j.Stake))})
		}
		if page.NextCursor == "" {
			return out
		}
		cur = page.NextCursor
	}
}

func panelAddrs(p []marketplace.PanelMember) []string {
	out := make([]string, len(p))
	for i, m := range p {
		out[i] = m.Address.String()
	}
	return out
}

// TestJuryDrawnPanel: a panel drawn from a server seed at creation is
// re-derived by an independent implementation from the published seed and
// eligible set; it never holds the sponsor nor an ineligible address;
// only drawn jurors may commit; the eligible set stays as it was at the
// draw; drawn jurors who do not reveal lose reputation at the close
// (not below 0); the snapshot's jury record proves the draw.
func TestJuryDrawnPanel(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		w := newJuryWorld(t, db, nil)
		sponsor := w.juror(1, 500, 50) // eligible, never drawn
		var pool []openjury.Address
		for n := byte(20); n < 50; n++ {
			pool = append(pool, w.juror(n, 10+int64(n%7)*37, 10+int64(n%3)))
		}
		w.stake(w.addr(60), 1000) // score short
		w.juror(61, 9, 90)        // stake short
		a, b := w.juror(2, 10, 0), w.juror(3, 10, 0)
		job := w.createJob(sponsor, marketplace.CreateJobInput{JuryMode: "commit_reveal", JurySize: secs(5),
			JuryCommitSeconds: secs(600), JuryRevealSeconds: secs(600), FinalVoteWindowSeconds: secs(600)})
		require.Equal(t, 5, job.JurySize)
		jury, err := w.svc.Jury(w.ctx, job.ID)
		require.NoError(t, err)
		require.True(t, jury.Draw.Drawn())
		require.Equal(t, marketplace.SeedServer, jury.Draw.SeedSource)
		require.Equal(t, openjury.HashFromBytes([32]byte(bytes.Repeat([]byte{0x42, 0x17, 0x99, 0x03}, 8))), jury.Draw.Seed)
		require.Len(t, jury.Panel, 5)
		require.Equal(t, int64(len(pool)), jury.Draw.EligibleCount, "the sponsor is not in the set")

		// Everything changes after the draw; the published set does not.
		w.stake(pool[0], 0)
		w.juror(62, 10_000, 90)
		eligible := w.published(job.ID)
		require.Len(t, eligible, len(pool))
		var total int64
		for _, j := range eligible {
			require.NotEqual(t, sponsor.String(), j.addr)
			total += j.stake.Int64()
		}
		require.Equal(t, int64(jury.Draw.EligibleStake), total)
		seed, err := anchor.NodeOf(jury.Draw.Seed)
		require.NoError(t, err)
		require.Equal(t, rederive(seed[:], eligible, 5), panelAddrs(jury.Panel), "re-derived from the published inputs")
		for _, m := range jury.Panel {
			require.Contains(t, pool, m.Address)
		}

		// The jury step fills in the eligible set hash.
		res, err := w.svc.JuryStep(w.ctx, "worker", time.Minute)
		require.NoError(t, err)
		require.Equal(t, 1, res.Hashed)
		jury, err = w.svc.Jury(w.ctx, job.ID)
		require.NoError(t, err)
		require.Equal(t, eligibleHash(eligible), jury.Draw.EligibleHash.String())

		// Only drawn jurors may commit; own duties list the job.
		sa := w.submit(a, job.ID)
		w.submit(b, job.ID)
		drawn := jury.Panel[0].Address
		var outsider openjury.Address
		for _, p := range pool[1:] {
			if !slicesContainsAddr(panelAddrs(jury.Panel), p) && p != pool[0] {
				outsider = p
				break
			}
		}
		_, err = w.commit(outsider, job.ID, sa.ID, salt(1))
		requireKind(t, err, openjury.Forbidden, marketplace.DetailNotDrawn)
		_, err = w.svc.Vote(w.ctx, outsider, marketplace.VoteInput{JobID: job.ID, SubmissionID: sa.ID})
		requireKind(t, err, openjury.Invalid, marketplace.DetailCommitRequired)
		_, err = w.commit(drawn, job.ID, sa.ID, salt(1))
		require.NoError(t, err)
		duties, err := w.svc.Duties(w.ctx, drawn.String(), marketplace.ListInput{})
		require.NoError(t, err)
		require.Len(t, duties.Duties, 1)
		require.Equal(t, marketplace.ActionWait, duties.Duties[0].NextAction(w.clock.Now()))
		other := jury.Panel[1].Address
		duties, err = w.svc.Duties(w.ctx, other.String(), marketplace.ListInput{})
		require.NoError(t, err)
		require.Equal(t, marketplace.ActionCommit, duties.Duties[0].NextAction(w.clock.Now()))

		// Reveal; the other four are no-shows.
		w.clock.Advance(10 * time.Minute)
		require.Equal(t, marketplace.ActionMissed, duties.Duties[0].NextAction(w.clock.Now()), "no commitment to reveal")
		duties, err = w.svc.Duties(w.ctx, drawn.String(), marketplace.ListInput{})
		require.NoError(t, err)
		require.Equal(t, marketplace.ActionReveal, duties.Duties[0].NextAction(w.clock.Now()))
		_, err = w.reveal(drawn, job.ID, sa.ID, salt(1))
		require.NoError(t, err)
		before := map[openjury.Address]int64{}
		for _, m := range jury.Panel {
			before[m.Address] = w.repOf(m.Address).Score
		}
		w.score(jury.Panel[2].Address, 1) // will floor at 0
		before[jury.Panel[2].Address] = 1
		w.clock.Advance(10 * time.Minute) // the reveal window has ended
		res2, err := w.svc.CloseJob(w.ctx, sponsor, job.ID, marketplace.CloseInput{WinnerSubmissionID: sa.ID})
		require.NoError(t, err)
		require.Equal(t, sa.ID, res2.WinnerSubmissionID)
		for i, m := range jury.Panel {
			want := max(before[m.Address]-marketplace.DefaultJuryNoShowPenalty, 0)
			if i == 0 {
				want = before[m.Address]
				require.Equal(t, int64(marketplace.DefaultAGRPerCoherentVote), w.agrOf(m.Address).Balance)
			}
			require.Equal(t, want, w.repOf(m.Address).Score, "juror %d", i)
		}
		duties, err = w.svc.Duties(w.ctx, drawn.String(), marketplace.ListInput{})
		require.NoError(t, err)
		require.Empty(t, duties.Duties, "a closed job is no duty")

		// The jury record: panel, seed, algorithm, eligible set.
		doc := w.document(job.ID)
		var rec struct {
			Mode      string `json:"jury_mode"`
			Size      int    `json:"jury_size"`
			Algorithm string `json:"algorithm"`
			Seed      string `json:"seed"`
			Source    string `json:"seed_source"`
			Count     int64  `json:"eligible_count"`
			Stake     string `json:"eligible_stake_micro_usdc"`
			Hash      string `json:"eligible_set_hash"`
			Panel     []struct {
				Address string `json:"address"`
			} `json:"panel"`
		}
		require.NoError(t, json.Unmarshal(doc.Records[marketplace.JuryRecordID(job.ID)], &rec))
		require.Equal(t, "commit_reveal", rec.Mode)
		require.Equal(t, 5, rec.Size)
		require.Equal(t, marketplace.DrawAlgorithm, rec.Algorithm)
		require.Equal(t, jury.Draw.Seed.String(), rec.Seed)
		require.Equal(t, "server", rec.Source)
		require.Equal(t, int64(len(pool)), rec.Count)
		require.Equal(t, eligibleHash(eligible), rec.Hash)
		var recPanel []string
		for _, p := range rec.Panel {
			recPanel = append(recPanel, p.Address)
		}
		require.Equal(t, panelAddrs(jury.Panel), recPanel)
		proof, err := w.anchors.Proof(w.ctx, job.ID, marketplace.JuryRecordID(job.ID))
		require.NoError(t, err)
		require.NoError(t, anchor.VerifyProof(doc.Records[marketplace.JuryRecordID(job.ID)], proof.Proof, proof.Root))
	})
}

func slicesContainsAddr(s []string, a openjury.Address) bool {
	for _, x := range s {
		if x == a.String() {
			return true
		}
	}
	return false
}

// TestJuryDrawChainSeed: with a chain, the panel is empty until the block
// head+2 exists; then the jury step draws it from that block's hash over
// the eligible set as it was at the job's creation, and two replicas
// racing to draw store one panel, the one an independent re-derivation
// gives.
func TestJuryDrawChainSeed(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		chain := openjurytest.NewChain()
		chain.SetHead(100)
		w := newJuryWorld(t, db, func(c *marketplace.Config) { c.JuryChain = chain; c.JuryConfirmations = 3 })
		replica := marketplace.NewService(db, w.clock, w.cfg)
		sponsor := w.addr(1)
		for n := byte(20); n < 40; n++ {
			w.juror(n, 10+int64(n)*3, 10)
		}
		job := w.createJob(sponsor, marketplace.CreateJobInput{JurySize: secs(3)})
		jury, err := w.svc.Jury(w.ctx, job.ID)
		require.NoError(t, err)
		require.False(t, jury.Draw.Drawn())
		require.Equal(t, int64(102), jury.Draw.SeedBlock)
		require.Empty(t, jury.Panel)
		a := w.juror(2, 10, 0)
		sa := w.submit(a, job.ID)
		_, err = w.svc.Vote(w.ctx, w.addr(20), marketplace.VoteInput{JobID: job.ID, SubmissionID: sa.ID})
		requireKind(t, err, openjury.Forbidden, marketplace.DetailNotDrawn)

		// The set changes after the creation: the draw does not see it.
		w.juror(50, 100_000, 90)
		w.stake(w.addr(20), 0)
		chain.SetHead(104) // block 102 exists, 2 confirmations of 3
		res, err := w.svc.JuryStep(w.ctx, "a", time.Minute)
		require.NoError(t, err)
		require.Zero(t, res.Drawn)
		chain.SetHead(105)
		results := make(chan marketplace.JuryStepResult, 2)
		errs := make(chan error, 2)
		for i, svc := range []*marketplace.Service{w.svc, replica} {
			go func() {
				r, err := svc.JuryStep(context.Background(), []string{"a", "b"}[i], time.Minute)
				results <- r
				errs <- err
			}()
		}
		drawn := 0
		for range 2 {
			require.NoError(t, <-errs)
			drawn += (<-results).Drawn
		}
		require.Equal(t, 1, drawn, "one replica holds the lease and draws")
		res, err = replica.JuryStep(w.ctx, "b", time.Minute)
		require.NoError(t, err)
		require.Zero(t, res.Drawn)
		jury, err = w.svc.Jury(w.ctx, job.ID)
		require.NoError(t, err)
		require.True(t, jury.Draw.Drawn())
		require.Equal(t, openjurytest.BlockHashOf(102), jury.Draw.Seed)
		eligible := w.published(job.ID)
		require.Len(t, eligible, 20, "as at creation")
		seed, err := anchor.NodeOf(jury.Draw.Seed)
		require.NoError(t, err)
		require.Equal(t, rederive(seed[:], eligible, 3), panelAddrs(jury.Panel))

		// Drawn, a juror votes (open mode with a panel).
		voter := jury.Panel[0].Address
		if voter == w.addr(20) { // its stake went since
			voter = jury.Panel[1].Address
		}
		_, err = w.svc.Vote(w.ctx, voter, marketplace.VoteInput{JobID: job.ID, SubmissionID: sa.ID})
		require.NoError(t, err)
		// The step that drew also hashed the eligible set.
		d, err := db.Juries().Draw(w.ctx, job.ID)
		require.NoError(t, err)
		require.Equal(t, eligibleHash(eligible), d.EligibleHash.String())
	})
}

// TestJuryOpenModeUnchanged: a job created without jury settings has the
// default jury: no jury record in its snapshot, no AGR for coherent
// jurors, no penalty; its tallies are never hidden.
func TestJuryOpenModeUnchanged(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		w := newJuryWorld(t, db, nil)
		sponsor, a, j1 := w.addr(1), w.juror(2, 10, 0), w.juror(11, 10, 10)
		job := w.createJob(sponsor, marketplace.CreateJobInput{})
		require.False(t, job.HasJury())
		require.Equal(t, "open", job.JuryMode.Name())
		require.Nil(t, job.JuryCommitEndsAt)
		require.Equal(t, job.CreatedAt, job.FinalVoteStartsAt)
		sa := w.submit(a, job.ID)
		_, err := w.svc.Vote(w.ctx, j1, marketplace.VoteInput{JobID: job.ID, SubmissionID: sa.ID})
		require.NoError(t, err)
		sum, err := w.svc.JurySummary(w.ctx, job.ID)
		require.NoError(t, err)
		require.False(t, sum.Hidden)
		require.Equal(t, int64(-1), sum.Commitments)
		require.Len(t, sum.Tallies, 1)
		_, err = w.commit(j1, job.ID, sa.ID, salt(1))
		requireKind(t, err, openjury.Invalid, "commitment: this job's jury votes are open: vote with submission_id")
		_, err = w.svc.CloseJob(w.ctx, sponsor, job.ID, marketplace.CloseInput{WinnerSubmissionID: sa.ID})
		require.NoError(t, err)
		require.Zero(t, w.agrOf(j1).Balance)
		for _, id := range w.document(job.ID).IDs {
			require.NotContains(t, id, "jury:")
		}
		jury, err := w.svc.Jury(w.ctx, job.ID)
		require.NoError(t, err)
		require.Nil(t, jury.Draw)
		_, err = w.svc.EligibleSet(w.ctx, job.ID, marketplace.ListInput{})
		requireKind(t, err, openjury.NotFound, "this job has no drawn jury")
	})
}

// TestJuryRacingCommitsAndReveals: one juror's racing commitments store
// one; its racing reveals store one vote and count one first vote.
func TestJuryRacingCommitsAndReveals(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		w := newJuryWorld(t, db, nil)
		sponsor, a, j1 := w.addr(1), w.juror(2, 10, 0), w.juror(11, 10, 10)
		job := w.createJob(sponsor, marketplace.CreateJobInput{JuryMode: "commit_reveal", JuryCommitSeconds: secs(60), JuryRevealSeconds: secs(60)})
		sa := w.submit(a, job.ID)
		const racers = 12
		ids := make(chan string, racers)
		raceAll(t, racers, func(i int) error {
			c, err := w.commit(j1, job.ID, sa.ID, salt(byte(i%3)))
			if err == nil {
				ids <- c.ID
			}
			return err
		})
		close(ids)
		first := <-ids
		for id := range ids {
			require.Equal(t, first, id)
		}
		n, err := db.Commitments().CountCommitments(w.ctx, job.ID)
		require.NoError(t, err)
		require.Equal(t, int64(1), n)
		c, err := db.Commitments().Commitment(w.ctx, job.ID, j1)
		require.NoError(t, err)
		var s [32]byte
		for k := range byte(3) {
			if commitmentOf(job.ID, sa.ID, j1, salt(k)) == c.Commitment.String() {
				s = salt(k)
			}
		}
		w.clock.Advance(time.Minute)
		votes := make(chan string, racers)
		raceAll(t, racers, func(int) error {
			v, err := w.reveal(j1, job.ID, sa.ID, s)
			if err == nil {
				votes <- v.ID
			}
			return err
		})
		close(votes)
		first = <-votes
		for id := range votes {
			require.Equal(t, first, id)
		}
		require.Equal(t, int64(1), w.repOf(j1).JuryVotes)
	})
}

// raceAll runs fn n times at once and requires every call to succeed.
func raceAll(t *testing.T, n int, fn func(i int) error) {
	t.Helper()
	errs := make(chan error, n)
	start := make(chan struct{})
	for i := range n {
		go func() {
			<-start
			errs <- fn(i)
		}()
	}
	close(start)
	for range n {
		require.NoError(t, <-errs)
	}
}

func TestJuryInputRules(t *testing.T) {
	t.Parallel()
	w := newJuryWorld(t, openjurytest.NewDB(t), nil)
	sponsor := w.addr(1)
	for _, c := range []struct {
		in     marketplace.CreateJobInput
		detail string
	}{
		{marketplace.CreateJobInput{JuryMode: "secret"}, "jury_mode: must be open or commit_reveal"},
		{marketplace.CreateJobInput{JurySize: secs(4)}, "jury_size: must be an odd number between 1 and 101"},
		{marketplace.CreateJobInput{JurySize: secs(103)}, "jury_size: must be an odd number between 1 and 101"},
		{marketplace.CreateJobInput{JurySize: secs(-1)}, "jury_size: must be an odd number between 1 and 101"},
		{marketplace.CreateJobInput{JuryCommitSeconds: secs(600)}, "jury_commit_seconds: only with jury_mode commit_reveal"},
		{marketplace.CreateJobInput{JuryMode: "commit_reveal", JuryCommitSeconds: secs(59)}, "jury_commit_seconds: must be between 60 and 2592000"},
		{marketplace.CreateJobInput{JuryMode: "commit_reveal", JuryRevealSeconds: secs(2592001)}, "jury_reveal_seconds: must be between 60 and 2592000"},
	} {
		c.in.Title, c.in.Prompt = "t", "p"
		_, err := w.svc.CreateJob(w.ctx, sponsor, c.in)
		requireKind(t, err, openjury.Invalid, c.detail)
	}
	job := w.createJob(sponsor, marketplace.CreateJobInput{JuryMode: "commit_reveal", JurySize: secs(101)})
	require.Equal(t, job.CreatedAt.Add(marketplace.DefaultJuryCommitWindow), *job.JuryCommitEndsAt)
	require.Equal(t, job.JuryCommitEndsAt.Add(marketplace.DefaultJuryRevealWindow), *job.JuryRevealEndsAt)
	jury, err := w.svc.Jury(w.ctx, job.ID)
	require.NoError(t, err)
	require.True(t, jury.Draw.Drawn())
	require.Empty(t, jury.Panel, "nobody is eligible")

	// A chain that is down: a job with a panel cannot be created (503).
	chain := openjurytest.NewChain()
	chain.SetDown(true)
	svc := marketplace.NewService(w.db, w.clock, func() marketplace.Config { c := juryConfig(); c.JuryChain = chain; return c }())
	_, err = svc.CreateJob(w.ctx, sponsor, marketplace.CreateJobInput{Title: "t", Prompt: "p", JurySize: secs(3)})
	requireKind(t, err, openjury.Unavailable, "")
	_, err = svc.CreateJob(w.ctx, sponsor, marketplace.CreateJobInput{Title: "t", Prompt: "p"})
	require.NoError(t, err, "a job without a panel needs no chain")
}

// TestDrawOffsetIsTheDefinition checks DrawOffset against the definition.
func TestDrawOffsetIsTheDefinition(t *testing.T) {
	t.Parallel()
	seed := [32]byte{1, 2, 3}
	for i, rem := range []int64{1, 7, 1_000_000_007, 1 << 60} {
		var word [32]byte
		binary.BigEndian.PutUint64(word[24:], uint64(i))
		want := new(big.Int).SetBytes(crypto.Keccak256(seed[:], word[:]))
		want.Mod(want, big.NewInt(rem))
		require.Equal(t, want.Int64(), int64(marketplace.DrawOffset(seed, i, openjury.MicroUSDC(rem))))
	}
}

// TestJuryEarlyCloseNoPenalty: a sponsor closing before the reveal window
// ends penalises nobody (the jurors had not had their chance); a
// commitment left unrevealed then does not count either.
func TestJuryEarlyCloseNoPenalty(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, db *bunstore.DB) {
		w := newJuryWorld(t, db, nil)
		sponsor, a := w.addr(1), w.juror(2, 10, 0)
		j1 := w.juror(11, 10, 12)
		job := w.createJob(sponsor, marketplace.CreateJobInput{JuryMode: "commit_reveal", JurySize: secs(1), JuryCommitSeconds: secs(60), JuryRevealSeconds: secs(60)})
		sa := w.submit(a, job.ID)
		_, err := w.commit(j1, job.ID, sa.ID, salt(1))
		require.NoError(t, err)
		w.clock.Advance(90 * time.Second) // in the reveal window
		res, err := w.svc.CloseJob(w.ctx, sponsor, job.ID, marketplace.CloseInput{WinnerSubmissionID: sa.ID})
		require.NoError(t, err)
		require.Empty(t, res.Tally, "an unrevealed commitment never counts")
		require.Equal(t, int64(12), w.repOf(j1).Score)
		require.Zero(t, w.agrOf(j1).Balance)
		sum, err := w.svc.JurySummary(w.ctx, job.ID)
		require.NoError(t, err)
		require.False(t, sum.Hidden, "a closed job hides nothing")
		_, err = w.reveal(j1, job.ID, sa.ID, salt(1))
		requireKind(t, err, openjury.Conflict, "job is closed")
	})
}
