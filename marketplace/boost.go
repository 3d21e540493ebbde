package marketplace

import (
	"context"
	"strings"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/internal/valid"
)

// Limits of a boost (docs/rules.md#agr).
const (
	// MaxBoostAGR bounds the AGR one boost spends.
	MaxBoostAGR = 1_000_000
	// MaxBoostHours bounds the hours one boost features a job.
	MaxBoostHours = 720
)

// BoostInput spends AGR to feature a job. Its rules are boostRules.
type BoostInput struct {
	AmountAGR     int64 `name:"amount_agr"`
	DurationHours int64 `name:"duration_hours"`
}

// boostRules validates BoostInput.
var boostRules = valid.New(valid.For[BoostInput](valid.Rules{
	"AmountAGR":     "min=1," + valid.Max(MaxBoostAGR),
	"DurationHours": "min=1," + valid.Max(MaxBoostHours),
}))

// Boost spends the caller's AGR to feature an open job:
// featured_until = max(featured_until, now) + duration and
// featured_score += amount, with the debit in the same transaction.
// Errors: Invalid, NotFound, Conflict (closed), PaymentRequired.
func (s *Service) Boost(ctx context.Context, caller openjury.Address, jobID string, in BoostInput) (*Job, error) {
	const op = "marketplace.Boost"
	if err := boostRules.Struct(op, in); err != nil {
		return nil, err
	}
	now := openjury.Truncate(s.clock.Now())
	var job *Job
	err := s.db.InTx(ctx, func(ctx context.Context, tx Tx) error {
		var err error
		if job, err = lockJob(ctx, tx, strings.TrimSpace(jobID)); err != nil {
			return err
		}
		if job.Status != StatusOpen {
			return openjury.E(openjury.Conflict, op, "job is closed")
		}
		if _, err := agr.Debit(ctx, tx.AGR(), caller, in.AmountAGR, agr.ReasonBoost, job.ID, now); err != nil {
			return err
		}
		from := now
		if job.FeaturedUntil != nil && job.FeaturedUntil.After(now) {
			from = *job.FeaturedUntil
		}
		until := from.Add(time.Duration(in.DurationHours) * time.Hour)
		job.FeaturedUntil = &until
		job.FeaturedScore += in.AmountAGR
		return emitted(ctx, tx, tx.Jobs().UpdateJob(ctx, job), &events.Event{
			Type: events.JobBoosted, CreatedAt: now, JobID: job.ID, Actor: caller,
			Data: events.Data{"job_id": job.ID, "amount_agr": in.AmountAGR, "duration_hours": in.DurationHours,
				"featured_score": job.FeaturedScore, "featured_until": timeData(until)},
		})
	})
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	return job, nil
}
