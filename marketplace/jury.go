package marketplace

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"io"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/internal/cursor"
	"github.com/openjury/openjury/internal/valid"
)

// JuryMode is how a job's jury votes (docs/rules.md, "Jury integrity").
// A Job's JuryMode is empty for open mode (the default) and
// JuryCommitReveal otherwise; Name gives the mode's name either way.
type JuryMode string

// Name is the mode's name as the API shows it: "open" for the empty mode.
func (m JuryMode) Name() string {
	if m == "" {
		return string(JuryOpen)
	}
	return string(m)
}

// Jury modes.
const (
	// JuryOpen: a jury vote names its submission when it is cast (the
	// default, and every job created before jury modes existed).
	JuryOpen JuryMode = "open"
	// JuryCommitReveal: a juror first posts only a commitment to its
	// choice, in the commit window, and reveals it in the reveal window;
	// tallies stay hidden until the reveal window ends.
	JuryCommitReveal JuryMode = "commit_reveal"
)

// Limits and defaults of a job's jury settings (docs/rules.md, "Jury
// integrity").
const (
	// MinJurySize and MaxJurySize bound jury_size, which must be odd.
	MinJurySize = 1
	MaxJurySize = 101
	// MinJuryWindow and MaxJuryWindow bound jury_commit_seconds and
	// jury_reveal_seconds.
	MinJuryWindow = 60 * time.Second
	MaxJuryWindow = 2592000 * time.Second
	// DefaultJuryCommitWindow and DefaultJuryRevealWindow are the windows
	// of a commit-reveal job created without them
	// (SERVICE_JURY_COMMIT_SECONDS, SERVICE_JURY_REVEAL_SECONDS).
	DefaultJuryCommitWindow = 24 * time.Hour
	DefaultJuryRevealWindow = 12 * time.Hour
	// DefaultAGRPerCoherentVote is SERVICE_AGR_PER_COHERENT_VOTE's default.
	DefaultAGRPerCoherentVote = 5
	// DefaultJuryNoShowPenalty is SERVICE_JURY_NO_SHOW_PENALTY's default.
	DefaultJuryNoShowPenalty = 2
	// JurySeedBlockOffset: a chain-seeded draw uses the hash of the block
	// numbered (head at the job's creation) + JurySeedBlockOffset.
	JurySeedBlockOffset = 2
)

// DrawAlgorithm names the draw rule below; a change of the rule gets a new
// name.
const DrawAlgorithm = "openjury-draw-v1"

// DrawAlgorithmText says how anyone re-derives a panel from its published
// inputs (GET /api/v1/jobs/{job_id}/jury).
const DrawAlgorithmText = "E is the eligible set (GET /api/v1/jobs/{job_id}/jury/eligible): every address " +
	"eligible to jury-vote at the draw's version, the sponsor excepted, each with its stake in micro-USDC, " +
	"ordered by address (lowercase hex). For i = 0, 1, ... while fewer than jury_size are drawn and E is not " +
	"empty: T = the sum of the stakes left in E; r = uint256(keccak256(abi.encode(bytes32 seed, uint256 i))) mod T; " +
	"walk E in address order adding stakes and draw the first address whose running sum exceeds r; remove it " +
	"from E. The panel is the drawn addresses in draw order. eligible_set_hash = keccak256 of the concatenation, " +
	"in address order, of each address's 20 bytes and its stake as a 32-byte big-endian integer."

// Seed sources of a draw.
const (
	// SeedServer: 32 random bytes of the server, published with the panel
	// (no chain configured: the operator is trusted for randomness).
	SeedServer = "server"
	// SeedBlock: the hash of block SeedBlock, unknown when the job was
	// created.
	SeedBlock = "block"
)

// Juror is an address eligible to jury-vote with its stake, the weight of
// its chance to be drawn.
type Juror struct {
	Address openjury.Address
	Stake   openjury.MicroUSDC
}

// JuryDraw is the draw of a job's panel.
type JuryDraw struct {
	JobID   string
	Size    int
	Sponsor openjury.Address
	// Version is the eligible set's version pinned at the job's creation:
	// the draw reads the set as it was then, whenever it runs.
	Version    int64
	SeedSource string
	// SeedBlock is the seed's block number (SeedBlock source), else 0.
	SeedBlock int64
	// Seed and DrawnAt are empty until the draw ran.
	Seed    openjury.Hash
	DrawnAt *time.Time
	// EligibleCount and EligibleStake describe the eligible set (the
	// sponsor excepted), known once drawn.
	EligibleCount int64
	EligibleStake openjury.MicroUSDC
	// EligibleHash commits to the eligible set; computed after the draw
	// (it reads the whole set), empty until then.
	EligibleHash openjury.Hash
	CreatedAt    time.Time
}

// Drawn reports whether the panel is drawn.
func (d *JuryDraw) Drawn() bool { return d.DrawnAt != nil }

// JurorIndex is the eligible set, versioned, as the draw reads it: every
// change of an address's eligibility or stake takes a new version, in
// commit order, so a version names one set forever.
type JurorIndex interface {
	// JuryVersion makes the index follow the eligibility rule (stake at
	// least minStake, reputation score at least minRep; it recomputes every
	// address when the rule changed) and returns the current version.
	JuryVersion(ctx context.Context, minStake openjury.MicroUSDC, minRep int64) (int64, error)
	// EligibleTotal returns the number of eligible addresses and their
	// total stake at version.
	EligibleTotal(ctx context.Context, version int64) (int64, openjury.MicroUSDC, error)
	// JurorStake returns addr's juror stake at version: 0 when it was not
	// eligible.
	JurorStake(ctx context.Context, version int64, addr openjury.Address) (openjury.MicroUSDC, error)
	// JurorAt returns the juror at stake offset (0 <= offset < the total
	// stake of the set less that of exclude) when the eligible set at
	// version, without exclude, is laid out in address order, each juror
	// covering as many offsets as its stake. Index-backed: O(log M) reads.
	// Errors: Internal when offset is beyond the set.
	JurorAt(ctx context.Context, version int64, offset openjury.MicroUSDC, exclude []Juror) (Juror, error)
	// ScanEligible reads up to limit eligible jurors at version in address
	// order, after the address after (zero: from the first).
	ScanEligible(ctx context.Context, version int64, after openjury.Address, limit int, fn func(Juror) bool) error
}

// PanelMember is a drawn juror of a job and what it did.
type PanelMember struct {
	Juror
	// Ord is the juror's place in the draw, from 0.
	Ord int
	// Committed and Revealed: the juror has a commitment on the job (commit-
	// reveal), and a counted jury vote (a revealed commitment or an open
	// vote).
	Committed bool
	Revealed  bool
}

// Duty is an open job a juror was drawn for and what is left to do.
type Duty struct {
	Job    *Job
	Member PanelMember
}

// DutyCursor is a position in a juror's duties (job id ascending).
type DutyCursor struct{ JobID string }

// JuryStore keeps the draws and panels.
type JuryStore interface {
	// PutDraw inserts a job's draw and, when d is drawn, its panel in draw
	// order. Errors: Conflict when the job has a draw.
	PutDraw(ctx context.Context, d *JuryDraw, panel []Juror) error
	// CompleteDraw records the draw of a pending draw (seed, drawn_at,
	// eligible count and stake) and inserts its panel, only while it is
	// pending. Errors: Conflict "jury already drawn"; NotFound.
	CompleteDraw(ctx context.Context, d *JuryDraw, panel []Juror) error
	// Draw returns a job's draw. Errors: NotFound.
	Draw(ctx context.Context, jobID string) (*JuryDraw, error)
	// Panel returns a job's drawn jurors in draw order (at most
	// MaxJurySize), with what each did.
	Panel(ctx context.Context, jobID string) ([]PanelMember, error)
	// IsDrawn reports whether addr is on the job's panel.
	IsDrawn(ctx context.Context, jobID string, addr openjury.Address) (bool, error)
	// SetEligibleHash records the eligible set hash of a drawn job.
	SetEligibleHash(ctx context.Context, jobID string, h openjury.Hash) error
	// Duties returns up to limit open jobs addr is drawn for, by job id,
	// after the cursor when not nil.
	Duties(ctx context.Context, addr openjury.Address, after *DutyCursor, limit int) ([]Duty, error)
}

// JuryQueue finds the draws a background step still has work on, under a
// named lease.
type JuryQueue interface {
	// PendingDraws returns up to limit draws not yet drawn, oldest first.
	PendingDraws(ctx context.Context, limit int) ([]*JuryDraw, error)
	// UnhashedDraws returns up to limit drawn draws without an eligible set
	// hash, oldest first.
	UnhashedDraws(ctx context.Context, limit int) ([]*JuryDraw, error)
	// AcquireLease takes or renews the named lease for owner until until;
	// false while another owner's lease is live at now.
	AcquireLease(ctx context.Context, name, owner string, now, until time.Time) (bool, error)
}

// JuryOutcomeStore writes what a close does to a job's jury.
type JuryOutcomeStore interface {
	// CreditCoherent credits amount AGR (ledger reason jury) to every
	// voter whose current jury vote on the job is for submissionID, at
	// most once per (job, address), in bounded chunks, and returns how
	// many were credited.
	CreditCoherent(ctx context.Context, jobID, submissionID string, amount int64, now time.Time) (int64, error)
	// PenalizeNoShows lowers by penalty (not below 0) the reputation score
	// of every drawn juror of the job without a current jury vote on it,
	// and returns how many.
	PenalizeNoShows(ctx context.Context, jobID string, penalty int64, now time.Time) (int64, error)
	// ClosePanel marks the job's panel rows closed (duties list open jobs
	// only).
	ClosePanel(ctx context.Context, jobID string) error
}

// JuryChain is the chain a draw takes its seed from (nil: none, the server
// seeds draws).
type JuryChain interface {
	// Head returns the number of the latest block. Errors: Unavailable.
	Head(ctx context.Context) (int64, error)
	// BlockHash returns the hash of block number. Errors: NotFound when it
	// does not exist yet; Unavailable.
	BlockHash(ctx context.Context, number int64) (openjury.Hash, error)
}

// juryInput is the jury part of CreateJobInput, checked.
type juryInput struct {
	mode         JuryMode
	size         int
	commit       time.Duration
	reveal       time.Duration
	commitReveal bool
	hasPanel     bool
}

// checkJury validates the jury settings of a job to create.
func (s *Service) checkJury(op string, in CreateJobInput) (juryInput, error) {
	out := juryInput{commit: s.cfg.JuryCommitWindow, reveal: s.cfg.JuryRevealWindow}
	switch in.JuryMode {
	case "", string(JuryOpen):
	case string(JuryCommitReveal):
		out.mode, out.commitReveal = JuryCommitReveal, true
	default:
		return out, openjury.E(openjury.Invalid, op, "jury_mode: must be open or commit_reveal")
	}
	if in.JurySize != nil {
		n := *in.JurySize
		if n < MinJurySize || n > MaxJurySize || n%2 == 0 {
			return out, openjury.Errorf(openjury.Invalid, op, "jury_size: must be an odd number between %d and %d", MinJurySize, MaxJurySize)
		}
		out.size, out.hasPanel = int(n), true
	}
	for _, w := range []struct {
		name string
		v    *int64
		into *time.Duration
	}{{"jury_commit_seconds", in.JuryCommitSeconds, &out.commit}, {"jury_reveal_seconds", in.JuryRevealSeconds, &out.reveal}} {
		if w.v == nil {
			continue
		}
		if !out.commitReveal {
			return out, openjury.Errorf(openjury.Invalid, op, "%s: only with jury_mode commit_reveal", w.name)
		}
		d := time.Duration(*w.v) * time.Second
		if *w.v < int64(MinJuryWindow/time.Second) || *w.v > int64(MaxJuryWindow/time.Second) {
			return out, openjury.Errorf(openjury.Invalid, op, "%s: must be between %d and %d", w.name, MinJuryWindow/time.Second, MaxJuryWindow/time.Second)
		}
		*w.into = d
	}
	return out, nil
}

// HasJury reports whether a job has jury settings beyond the default (a
// commit-reveal jury or a drawn panel): only such jobs reward coherent
// jurors and penalise absent ones, so default jobs behave as before.
func (j *Job) HasJury() bool { return j.JuryMode == JuryCommitReveal || j.JurySize > 0 }

// JuryWindowEnd is when the jurors' part of a job ends: the end of the
// reveal window in commit-reveal mode, else the end of the final-vote
// window. A drawn juror without a counted vote is penalised only by a
// close at or after it.
func (j *Job) JuryWindowEnd() time.Time {
	if j.JuryMode == JuryCommitReveal && j.JuryRevealEndsAt != nil {
		return *j.JuryRevealEndsAt
	}
	return j.FinalVoteEndsAt
}

// TalliesHidden reports whether a job's jury tallies are hidden at now: a
// commit-reveal job still open before its reveal window ends.
func (j *Job) TalliesHidden(now time.Time) bool {
	return j.JuryMode == JuryCommitReveal && j.Status == StatusOpen && j.JuryRevealEndsAt != nil && now.Before(*j.JuryRevealEndsAt)
}

// DrawOffset is the stake offset of the i-th pick of a draw seeded with
// seed when remaining micro-USDC of stake are left:
// uint256(keccak256(abi.encode(bytes32 seed, uint256 i))) mod remaining.
func DrawOffset(seed [32]byte, i int, remaining openjury.MicroUSDC) openjury.MicroUSDC {
	var buf [64]byte
	copy(buf[:32], seed[:])
	binary.BigEndian.PutUint64(buf[56:], uint64(i))
	h := new(big.Int).SetBytes(crypto.Keccak256(buf[:]))
	return openjury.MicroUSDC(h.Mod(h, big.NewInt(int64(remaining))).Int64())
}

// DrawPanel draws up to size jurors from the eligible set of idx at version
// without replacement, each pick proportional to stake, never the sponsor
// (DrawAlgorithmText). It also returns the eligible set's size and total
// stake without the sponsor. O(size log M) index reads.
func DrawPanel(ctx context.Context, idx JurorIndex, version int64, seed [32]byte, size int, sponsor openjury.Address) ([]Juror, int64, openjury.MicroUSDC, error) {
	count, total, err := idx.EligibleTotal(ctx, version)
	if err != nil {
		return nil, 0, 0, err
	}
	var exclude []Juror
	sp, err := idx.JurorStake(ctx, version, sponsor)
	if err != nil {
		return nil, 0, 0, err
	}
	if sp > 0 {
		exclude = append(exclude, Juror{Address: sponsor, Stake: sp})
		count, total = count-1, total-sp
	}
	remaining := total
	panel := make([]Juror, 0, min(int64(size), count))
	for i := 0; i < size && remaining > 0; i++ {
		j, err := idx.JurorAt(ctx, version, DrawOffset(seed, i, remaining), exclude)
		if err != nil {
			return nil, 0, 0, err
		}
		panel = append(panel, j)
		exclude = append(exclude, j)
		remaining -= j.Stake
	}
	return panel, count, total, nil
}

// eligiblePage is how many jurors EligibleSetHash reads at a time.
const eligiblePage = 1000

// EligibleSetHash computes the eligible set hash of a draw
// (DrawAlgorithmText) reading the set a page at a time: its memory does
// not grow with the set.
func EligibleSetHash(ctx context.Context, idx JurorIndex, d *JuryDraw) (openjury.Hash, error) {
	h := crypto.NewKeccakState()
	var after openjury.Address
	for {
		n := 0
		err := idx.ScanEligible(ctx, d.Version, after, eligiblePage, func(j Juror) bool {
			n, after = n+1, j.Address
			if j.Address == d.Sponsor {
				return true
			}
			a := j.Address.Bytes()
			var stake [32]byte
			binary.BigEndian.PutUint64(stake[24:], uint64(j.Stake))
			h.Write(a[:])
			h.Write(stake[:])
			return true
		})
		if err != nil {
			return "", err
		}
		if n < eligiblePage {
			return openjury.HashFromBytes([32]byte(h.Sum(nil))), nil
		}
		if err := ctx.Err(); err != nil {
			return "", openjury.Errorf(openjury.Unavailable, "marketplace.EligibleSetHash", "cancelled: %v", err)
		}
	}
}

// jurySeedSource is where server seeds come from: Config.JurySeedSource
// or crypto/rand.
func (s *Service) jurySeedSource() io.Reader {
	if s.cfg.JurySeedSource != nil {
		return s.cfg.JurySeedSource
	}
	return rand.Reader
}

// seedBlockOf returns the block whose hash seeds the draw of a job
// created now, when a chain is configured (0 otherwise). It asks the
// chain before the creating transaction. Errors: Unavailable.
func (s *Service) seedBlockOf(ctx context.Context, op string, in juryInput) (int64, error) {
	if !in.hasPanel || s.cfg.JuryChain == nil {
		return 0, nil
	}
	head, err := s.cfg.JuryChain.Head(ctx)
	if err != nil {
		return 0, openjury.Wrap(op, err)
	}
	return head + JurySeedBlockOffset, nil
}

// drawAtCreation writes the draw of a job being created in tx: pinned to
// the eligible set's current version; drawn at once from a server seed, or
// pending until block seedBlock exists. It returns the draw's jury.drawn
// events (none while it is pending), for the creation's Append.
func (s *Service) drawAtCreation(ctx context.Context, tx Tx, j *Job, seedBlock int64) ([]*events.Event, error) {
	const op = "marketplace.CreateJob"
	version, err := tx.Jurors().JuryVersion(ctx, s.cfg.MinStake, s.cfg.MinRepScoreToVote)
	if err != nil {
		return nil, err
	}
	d := &JuryDraw{JobID: j.ID, Size: j.JurySize, Sponsor: j.Sponsor, Version: version, CreatedAt: j.CreatedAt}
	if seedBlock > 0 {
		d.SeedSource, d.SeedBlock = SeedBlock, seedBlock
		return nil, tx.Juries().PutDraw(ctx, d, nil)
	}
	var seed [32]byte
	if _, err := io.ReadFull(s.jurySeedSource(), seed[:]); err != nil {
		return nil, openjury.Errorf(openjury.Internal, op, "jury seed: %v", err)
	}
	d.SeedSource = SeedServer
	panel, err := drawInto(ctx, tx.Jurors(), d, seed, j.CreatedAt)
	if err != nil {
		return nil, err
	}
	return juryDrawnEvents(d, panel), tx.Juries().PutDraw(ctx, d, panel)
}

// juryDrawnEvents are the jury.drawn events of a completed draw, one per
// drawn juror: each concerns that juror only and has it as its audience,
// so the log shows it only to reads, streams and webhooks of that juror
// (docs/rules.md#events). The actor is none: the draw is the service's
// (at the job's creation, or when its seed block arrived).
func juryDrawnEvents(d *JuryDraw, panel []Juror) []*events.Event {
	out := make([]*events.Event, len(panel))
	for i, j := range panel {
		out[i] = &events.Event{Type: events.JuryDrawn, CreatedAt: *d.DrawnAt, JobID: d.JobID,
			Subjects: []openjury.Address{j.Address}, Audience: []openjury.Address{j.Address},
			Data: events.Data{"job_id": d.JobID, "juror_address": j.Address.String(), "stake_usdc": usdcData(j.Stake),
				"draw_position": i, "jury_size": d.Size, "seed": d.Seed.String(), "seed_source": d.SeedSource,
				"drawn_at": timeData(*d.DrawnAt)}}
	}
	return out
}

// drawInto draws d's panel with seed and records on d what the draw found.
func drawInto(ctx context.Context, idx JurorIndex, d *JuryDraw, seed [32]byte, now time.Time) ([]Juror, error) {
	panel, count, total, err := DrawPanel(ctx, idx, d.Version, seed, d.Size, d.Sponsor)
	if err != nil {
		return nil, err
	}
	d.Seed, d.DrawnAt, d.EligibleCount, d.EligibleStake = openjury.HashFromBytes(seed), &now, count, total
	return panel, nil
}

// JuryStepResult is what one JuryStep did.
type JuryStepResult struct {
	// Leader is whether this worker held the lease (nothing else is set
	// otherwise).
	Leader bool
	// Drawn counts the pending draws completed; Hashed the eligible set
	// hashes computed.
	Drawn, Hashed int
}

// JuryLeaseName is the name of the lease of the jury step.
const JuryLeaseName = "jury-draws"

// juryStepBatch bounds the draws one JuryStep handles of each kind.
const juryStepBatch = 16

// JuryStep is the background step of the draws, run periodically by one
// worker at a time (the lease named JuryLeaseName, owner's until now +
// lease): it completes the pending draws whose seed block exists (with
// Config.JuryConfirmations blocks after it), and computes the eligible set
// hashes of drawn jobs. Every replica would draw the same panel from the
// same block; the lease only saves the work. Errors: Unavailable (chain).
func (s *Service) JuryStep(ctx context.Context, owner string, lease time.Duration) (JuryStepResult, error) {
	const op = "marketplace.JuryStep"
	now := openjury.Truncate(s.clock.Now())
	var res JuryStepResult
	held, err := s.db.JuryQueue().AcquireLease(ctx, JuryLeaseName, owner, now, now.Add(lease))
	if err != nil || !held {
		return res, openjury.Wrap(op, err)
	}
	res.Leader = true
	if s.cfg.JuryChain != nil {
		pending, err := s.db.JuryQueue().PendingDraws(ctx, juryStepBatch)
		if err != nil {
			return res, openjury.Wrap(op, err)
		}
		var head int64 = -1
		for _, d := range pending {
			if head < 0 {
				if head, err = s.cfg.JuryChain.Head(ctx); err != nil {
					return res, openjury.Wrap(op, err)
				}
			}
			if head < d.SeedBlock+s.cfg.JuryConfirmations {
				continue
			}
			ok, err := s.completeDraw(ctx, d)
			if err != nil {
				return res, openjury.Wrap(op, err)
			}
			if ok {
				res.Drawn++
			}
		}
	}
	unhashed, err := s.db.JuryQueue().UnhashedDraws(ctx, juryStepBatch)
	if err != nil {
		return res, openjury.Wrap(op, err)
	}
	for _, d := range unhashed {
		h, err := EligibleSetHash(ctx, s.db.Jurors(), d)
		if err != nil {
			return res, openjury.Wrap(op, err)
		}
		if err := s.db.Juries().SetEligibleHash(ctx, d.JobID, h); err != nil {
			return res, openjury.Wrap(op, err)
		}
		res.Hashed++
	}
	return res, nil
}

// completeDraw draws a pending chain-seeded draw from its block's hash; it
// reports false when another worker drew it first.
func (s *Service) completeDraw(ctx context.Context, d *JuryDraw) (bool, error) {
	hash, err := s.cfg.JuryChain.BlockHash(ctx, d.SeedBlock)
	if openjury.IsKind(err, openjury.NotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	seed, err := hashBytes(hash)
	if err != nil {
		return false, err
	}
	now := openjury.Truncate(s.clock.Now())
	closed := false
	err = s.db.InTx(ctx, func(ctx context.Context, tx Tx) error {
		// The job may have closed since the pending draws were read: a
		// closed job gets no panel (and is no longer pending).
		job, err := lockJob(ctx, tx, d.JobID)
		if err != nil {
			return err
		}
		if closed = job.Status != StatusOpen; closed {
			return nil
		}
		panel, err := drawInto(ctx, tx.Jurors(), d, seed, now)
		if err != nil {
			return err
		}
		return emitted(ctx, tx, tx.Juries().CompleteDraw(ctx, d, panel), juryDrawnEvents(d, panel)...)
	})
	if openjury.DetailOf(err) == DetailAlreadyDrawn || closed {
		return false, err
	}
	return err == nil, err
}

// DetailAlreadyDrawn is the detail of CompleteDraw's Conflict.
const DetailAlreadyDrawn = "jury already drawn"

// hashBytes is the 32 bytes of a canonical hash.
func hashBytes(h openjury.Hash) ([32]byte, error) {
	var out [32]byte
	n, err := anchor.NodeOf(h)
	if err != nil {
		return out, err
	}
	return n, nil
}

// Jury is a job's jury as GET /api/v1/jobs/{job_id}/jury shows it.
type Jury struct {
	Job *Job
	// Draw is nil for a job without a panel.
	Draw  *JuryDraw
	Panel []PanelMember
	// Commitments counts the job's commitments (commit-reveal).
	Commitments int64
}

// Jury returns a job's jury: its settings, draw and panel. Errors:
// NotFound.
func (s *Service) Jury(ctx context.Context, jobID string) (*Jury, error) {
	job, err := s.Job(ctx, jobID)
	if err != nil {
		return nil, err
	}
	return s.juryOf(ctx, job)
}

// juryOf reads the jury of job: its draw and panel (a job with a panel)
// and its commitments (commit-reveal).
func (s *Service) juryOf(ctx context.Context, job *Job) (*Jury, error) {
	const op = "marketplace.Jury"
	var err error
	out := &Jury{Job: job, Panel: []PanelMember{}}
	if job.JurySize > 0 {
		if out.Draw, err = s.db.Juries().Draw(ctx, job.ID); err != nil {
			return nil, openjury.Wrap(op, err)
		}
		if out.Panel, err = s.db.Juries().Panel(ctx, job.ID); err != nil {
			return nil, openjury.Wrap(op, err)
		}
	}
	if job.JuryMode == JuryCommitReveal {
		if out.Commitments, err = s.db.Commitments().CountCommitments(ctx, job.ID); err != nil {
			return nil, openjury.Wrap(op, err)
		}
	}
	return out, nil
}

// Limits of the eligible set list and of the duties list.
const (
	DefaultEligibleLimit = 200
	MaxEligibleLimit     = 1000
	DefaultDutiesLimit   = 50
	MaxDutiesLimit       = 200
)

// EligiblePage is a page of a draw's eligible set.
type EligiblePage struct {
	Draw       *JuryDraw
	Jurors     []Juror
	NextCursor string
}

// EligibleSet lists the eligible set a job's panel was drawn from (the
// sponsor excepted), in address order, a page at a time: the inputs of the
// draw, for anyone to re-derive it. Errors: NotFound (job, or a job
// without a panel), Invalid (limit, cursor).
func (s *Service) EligibleSet(ctx context.Context, jobID string, in ListInput) (EligiblePage, error) {
	const op = "marketplace.EligibleSet"
	limit, err := valid.Limit(op, in.Limit, DefaultEligibleLimit, MaxEligibleLimit)
	if err != nil {
		return EligiblePage{}, err
	}
	var after openjury.Address
	if in.Cursor != "" {
		var c struct {
			A string `json:"a"`
		}
		if err := cursor.Decode(op, in.Cursor, &c); err != nil {
			return EligiblePage{}, err
		}
		if after, err = openjury.ParseAddress("cursor", c.A); err != nil {
			return EligiblePage{}, openjury.E(openjury.Invalid, op, cursor.Invalid)
		}
	}
	job, err := s.Job(ctx, jobID)
	if err != nil {
		return EligiblePage{}, err
	}
	if job.JurySize == 0 {
		return EligiblePage{}, openjury.E(openjury.NotFound, op, "this job has no drawn jury")
	}
	d, err := s.db.Juries().Draw(ctx, job.ID)
	if err != nil {
		return EligiblePage{}, openjury.Wrap(op, err)
	}
	page := EligiblePage{Draw: d, Jurors: make([]Juror, 0, limit+1)}
	// One more than the page tells whether another follows; one more
	// again in case the sponsor, left out, is among them.
	err = s.db.Jurors().ScanEligible(ctx, d.Version, after, limit+2, func(j Juror) bool {
		if j.Address != d.Sponsor {
			page.Jurors = append(page.Jurors, j)
		}
		return len(page.Jurors) <= limit
	})
	if err != nil {
		return EligiblePage{}, openjury.Wrap(op, err)
	}
	page.Jurors, page.NextCursor = cursor.Cut(page.Jurors, limit, func(last Juror) string {
		return cursor.Encode(struct {
			A string `json:"a"`
		}{A: last.Address.String()})
	})
	return page, nil
}

// DutiesPage is a page of a juror's duties.
type DutiesPage struct {
	Duties     []Duty
	NextCursor string
}

// Duties lists the open jobs address (as text) is drawn for, with what it
// still has to do. Errors: Invalid.
func (s *Service) Duties(ctx context.Context, address string, in ListInput) (DutiesPage, error) {
	const op = "marketplace.Duties"
	addr, err := openjury.ParseAddress("address", address)
	if err != nil {
		return DutiesPage{}, openjury.Wrap(op, err)
	}
	limit, err := valid.Limit(op, in.Limit, DefaultDutiesLimit, MaxDutiesLimit)
	if err != nil {
		return DutiesPage{}, err
	}
	var after *DutyCursor
	if in.Cursor != "" {
		var c struct {
			J string `json:"j"`
		}
		if err := cursor.Decode(op, in.Cursor, &c); err != nil {
			return DutiesPage{}, err
		}
		if !openjury.ValidID(c.J) {
			return DutiesPage{}, openjury.E(openjury.Invalid, op, cursor.Invalid)
		}
		after = &DutyCursor{JobID: c.J}
	}
	rows, err := s.db.Juries().Duties(ctx, addr, after, limit+1)
	if err != nil {
		return DutiesPage{}, openjury.Wrap(op, err)
	}
	var p DutiesPage
	p.Duties, p.NextCursor = cursor.Cut(rows, limit, func(last Duty) string {
		return cursor.Encode(struct {
			J string `json:"j"`
		}{J: last.Job.ID})
	})
	return p, nil
}

// Juror actions a duty calls for.
const (
	ActionCommit = "commit"
	ActionReveal = "reveal"
	ActionVote   = "vote"
	ActionWait   = "wait"
	ActionDone   = "done"
	ActionMissed = "missed"
)

// NextAction is what a drawn juror still has to do on a job at now:
// commit, reveal, wait (committed, the reveal window not open yet), vote
// (open mode), done, or missed (its window ended without it).
func (d Duty) NextAction(now time.Time) string {
	j, m := d.Job, d.Member
	if m.Revealed {
		return ActionDone
	}
	if j.JuryMode != JuryCommitReveal {
		if j.Status != StatusOpen {
			return ActionMissed
		}
		return ActionVote
	}
	switch {
	case j.JuryCommitEndsAt != nil && now.Before(*j.JuryCommitEndsAt):
		if m.Committed {
			return ActionWait
		}
		return ActionCommit
	case m.Committed && j.JuryRevealEndsAt != nil && now.Before(*j.JuryRevealEndsAt):
		return ActionReveal
	}
	return ActionMissed
}

// juryOutcome writes, in the closing transaction, what a close does to
// the jury of a job with jury settings (Job.HasJury; nothing for other
// jobs): each coherent juror (counted vote for the winner) gets
// Config.AGRPerCoherentVote AGR (ledger reason jury) unless the close is
// funded (its payouts pay them from the jury pool in USDC); each drawn juror without a counted vote loses
// Config.JuryNoShowPenalty reputation score when the close comes at or
// after the jury's window (Job.JuryWindowEnd); the panel leaves the
// jurors' open duties. Every write is one bounded statement or chunk.
func (s *Service) juryOutcome(ctx context.Context, tx Tx, job *Job, c *closing) error {
	if !job.HasJury() {
		return nil
	}
	// A funded close pays its coherent jurors from the escrow's jury pool
	// (their payout records), not in AGR.
	if s.cfg.AGRPerCoherentVote > 0 && c.funded == 0 {
		if _, err := tx.JuryOutcomes().CreditCoherent(ctx, job.ID, c.winner, s.cfg.AGRPerCoherentVote, c.now); err != nil {
			return err
		}
	}
	if job.JurySize == 0 {
		return nil
	}
	if s.cfg.JuryNoShowPenalty > 0 && !c.now.Before(job.JuryWindowEnd()) {
		if _, err := tx.JuryOutcomes().PenalizeNoShows(ctx, job.ID, s.cfg.JuryNoShowPenalty, c.now); err != nil {
			return err
		}
	}
	if c.hashed {
		if err := tx.Juries().SetEligibleHash(ctx, job.ID, c.draw.EligibleHash); err != nil {
			return err
		}
	}
	return tx.JuryOutcomes().ClosePanel(ctx, job.ID)
}
