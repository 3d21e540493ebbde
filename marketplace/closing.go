package marketplace

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/stake"
)

// Reputation outcomes of a closed job.
const (
	WinScore = 10
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

// CloseJob lets the sponsor close an open job with a winner, in one
// transaction. Errors (in this order): Invalid (shape), NotFound, Conflict
// (closed), Forbidden (not the sponsor), Invalid (winner not of this job).
func (s *Service) CloseJob(ctx context.Context, caller openjury.Address, jobID string, in CloseInput) (*CloseResult, error) {
	var res *CloseResult
	err := s.db.InTx(ctx, func(ctx context.Context, tx Tx) error {
		var err error
		res, err = s.CloseJobTx(ctx, tx, caller, jobID, in)
		return err
	})
	return res, err
}

// CloseJobTx is CloseJob inside the caller's transaction (for embedders
// that add their own writes to the same transaction).
func (s *Service) CloseJobTx(ctx context.Context, tx Tx, caller openjury.Address, jobID string, in CloseInput) (*CloseResult, error) {
	const op = "marketplace.CloseJob"
	winnerID := strings.TrimSpace(in.WinnerSubmissionID)
	if winnerID == "" {
		return nil, openjury.E(openjury.Invalid, op, "winner_submission_id: is required")
	}
	if err := stake.ValidateRef(op, "close_", in.Ref); err != nil {
		return nil, err
	}
	now := openjury.Truncate(s.clock.Now())
	job, err := lockJob(ctx, tx, strings.TrimSpace(jobID))
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	if job.Status != StatusOpen {
		return nil, openjury.E(openjury.Conflict, op, "job is closed")
	}
	if job.Sponsor != caller {
		return nil, openjury.E(openjury.Forbidden, op, "only the sponsor may close this job")
	}
	subs, err := tx.Submissions().SubmissionKeys(ctx, job.ID)
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	// An unknown, malformed or foreign id is the same mistake.
	if !slices.ContainsFunc(subs, func(sub SubmissionKey) bool { return sub.ID == winnerID }) {
		return nil, openjury.E(openjury.Invalid, op, "winner_submission_id: not a submission of this job")
	}
	jury, err := tx.Votes().Tally(ctx, job.ID)
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	res, err := s.close(ctx, tx, job, winnerID, subs, jury, in.Ref, now)
	return res, openjury.Wrap(op, err)
}

// FinalizeJob closes a job from its final decision votes once the window
// has ended; only an address that cast a final vote may do it. Errors (in
// this order): NotFound, Conflict (closed, window not ended), Forbidden
// (caller did not vote), Conflict (no final votes).
func (s *Service) FinalizeJob(ctx context.Context, caller openjury.Address, jobID string) (*CloseResult, error) {
	var res *CloseResult
	err := s.db.InTx(ctx, func(ctx context.Context, tx Tx) error {
		var err error
		res, err = s.FinalizeJobTx(ctx, tx, caller, jobID)
		return err
	})
	return res, err
}

// FinalizeJobTx is FinalizeJob inside the caller's transaction.
func (s *Service) FinalizeJobTx(ctx context.Context, tx Tx, caller openjury.Address, jobID string) (*CloseResult, error) {
	const op = "marketplace.FinalizeJob"
	now := openjury.Truncate(s.clock.Now())
	job, err := lockJob(ctx, tx, strings.TrimSpace(jobID))
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	if job.Status != StatusOpen {
		return nil, openjury.E(openjury.Conflict, op, "job is closed")
	}
	if now.Before(job.FinalVoteEndsAt) {
		return nil, openjury.E(openjury.Conflict, op, "final voting window has not ended")
	}
	if _, err := tx.Votes().FinalVote(ctx, job.ID, caller); err != nil {
		if openjury.IsKind(err, openjury.NotFound) {
			return nil, openjury.E(openjury.Forbidden, op, "only an address that cast a final vote may finalize")
		}
		return nil, openjury.Wrap(op, err)
	}
	final, err := tx.Votes().FinalTally(ctx, job.ID)
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	if len(final) == 0 { // unreachable while the caller's own vote counts; kept as the rule's guard
		return nil, openjury.E(openjury.Conflict, op, "no final votes")
	}
	jury, err := tx.Votes().Tally(ctx, job.ID)
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	subs, err := tx.Submissions().SubmissionKeys(ctx, job.ID)
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	res, err := s.close(ctx, tx, job, PickWinner(final, jury, subs), subs, jury, openjury.ChainRef{}, now)
	return res, openjury.Wrap(op, err)
}

// PickWinner applies the finalize rule: most final votes; ties go to more
// jury weighted votes, then the earlier submission, then the smaller id.
func PickWinner(final, jury []Tally, subs []SubmissionKey) string {
	weight := make(map[string]int64, len(jury))
	for _, t := range jury {
		weight[t.SubmissionID] = t.Weight
	}
	created := make(map[string]time.Time, len(subs))
	for _, s := range subs {
		created[s.ID] = s.CreatedAt
	}
	best := slices.MinFunc(final, func(a, b Tally) int {
		switch {
		case a.Weight != b.Weight:
			return cmp.Compare(b.Weight, a.Weight) // more first
		case weight[a.SubmissionID] != weight[b.SubmissionID]:
			return cmp.Compare(weight[b.SubmissionID], weight[a.SubmissionID])
		case !created[a.SubmissionID].Equal(created[b.SubmissionID]):
			return created[a.SubmissionID].Compare(created[b.SubmissionID])
		default:
			return strings.Compare(a.SubmissionID, b.SubmissionID)
		}
	})
	return best.SubmissionID
}

// close is the one transition shared by CloseJob and FinalizeJob: status,
// winner and closed_at; reputation outcomes (winner +10 score and +1 win,
// every other distinct submitter +1 loss) in one statement; the AGR win
// mint (at most once per job, enforced by a unique key); the anchor
// snapshot. The job is locked by the caller, who has read its submission
// keys (never their bodies) and jury tally in this transaction (votes wait
// on the job's lock, so the tally is also the one after the close).
func (s *Service) close(ctx context.Context, tx Tx, job *Job, winnerID string, subs []SubmissionKey, jury []Tally, ref openjury.ChainRef, now time.Time) (*CloseResult, error) {
	var winner openjury.Address
	var agents []openjury.Address
	for _, sub := range subs {
		if sub.ID == winnerID {
			winner = sub.Agent
		}
		agents = append(agents, sub.Agent)
	}
	// Rows are locked in address order, so closes of jobs sharing agents
	// cannot deadlock on PostgreSQL.
	slices.Sort(agents)
	agents = slices.Compact(agents)
	job.Status, job.WinnerSubmissionID, job.ClosedAt, job.Close = StatusClosed, winnerID, &now, ref
	if err := tx.Jobs().UpdateJob(ctx, job); err != nil {
		return nil, err
	}
	changes := make([]ReputationChange, len(agents))
	for i, a := range agents {
		changes[i] = ReputationChange{Address: a, Delta: ReputationDelta{Losses: 1}}
		if a == winner {
			changes[i].Delta = ReputationDelta{Score: WinScore, Wins: 1}
		}
	}
	if err := tx.Reputation().AddReputations(ctx, changes, now); err != nil {
		return nil, err
	}
	if s.cfg.AGRMintPerWin > 0 {
		if _, err := agr.Credit(ctx, tx.AGR(), winner, s.cfg.AGRMintPerWin, agr.ReasonWin, job.ID, now); err != nil {
			return nil, err
		}
	}
	if err := s.anchorSnapshot(ctx, tx, job, now); err != nil {
		return nil, err
	}
	return &CloseResult{Job: job, WinnerSubmissionID: winnerID, Tally: jury}, nil
}
