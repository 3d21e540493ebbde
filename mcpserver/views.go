package mcpserver

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/openjury/openjury/client"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/marketplace"
)

// JobView is a job with its submissions and both tallies.
type JobView struct {
	Job         client.Job          `json:"job"`
	Submissions []client.Submission `json:"submissions"`
	// MoreSubmissions is the cursor of the submissions after the first
	// page (GET /api/v1/jobs/{job_id}/submissions?cursor=), nil when
	// there are no more.
	MoreSubmissions *string                        `json:"more_submissions_cursor"`
	Votes           client.JobVotingSummary        `json:"votes"`
	FinalVotes      client.JobFinalDecisionSummary `json:"final_votes"`
}

// ReadJob reads a job with up to a page (marketplace.MaxListLimit) of
// submissions and its tallies.
func ReadJob(ctx context.Context, c *client.Client, jobID string) (JobView, error) {
	var v JobView
	var err error
	if v.Job, err = c.GetJob(ctx, jobID); err != nil {
		return v, err
	}
	var next string
	if v.Submissions, next, err = c.ListJobSubmissions(ctx, jobID, client.Page{Limit: marketplace.MaxListLimit}); err != nil {
		return v, err
	}
	if next != "" {
		v.MoreSubmissions = &next
	}
	if v.Votes, err = c.GetJobVotingSummary(ctx, jobID); err != nil {
		return v, err
	}
	v.FinalVotes, err = c.GetJobFinalDecisionSummary(ctx, jobID)
	return v, err
}

// StatusView is an address's stake, AGR and reputation.
type StatusView struct {
	Address    string             `json:"address"`
	Stake      client.StakeStatus `json:"stake"`
	AGR        client.AgrStatus   `json:"agr"`
	Reputation client.Reputation  `json:"reputation"`
}

// ReadStatus reads an address's stake, AGR and reputation.
func ReadStatus(ctx context.Context, c *client.Client, addr string) (StatusView, error) {
	v := StatusView{Address: addr}
	var err error
	if v.Stake, err = c.GetStakeStatus(ctx, addr); err != nil {
		return v, err
	}
	if v.AGR, err = c.GetAgrStatus(ctx, addr); err != nil {
		return v, err
	}
	v.Reputation, err = c.GetReputation(ctx, addr)
	return v, err
}

// EscrowView is a job's USDC escrow: the job's escrow fields and the
// first page of its payouts.
type EscrowView struct {
	JobID string `json:"job_id"`
	// EscrowStatus is unfunded, funded, settled or refunded; nil when the
	// server follows no escrow.
	EscrowStatus      *string      `json:"escrow_status"`
	EscrowAmountUSDC  *json.Number `json:"escrow_amount_usdc"`
	EscrowRefundAfter *client.Time `json:"escrow_refund_after"`
	// EscrowMismatch is true when the settle posted another root or total
	// than the job's.
	EscrowMismatch *bool           `json:"escrow_mismatch"`
	EscrowTxHash   *string         `json:"escrow_tx_hash"`
	AnchorRoot     *string         `json:"anchor_root"`
	TotalUSDC      *json.Number    `json:"total_usdc"`
	Payouts        []client.Payout `json:"payouts"`
	// MorePayouts is the cursor of the payouts after the first page (the
	// get_payouts tool's cursor), nil when there are no more.
	MorePayouts *string `json:"more_payouts_cursor"`
}

// ReadEscrow reads a job's escrow and up to a page
// (marketplace.MaxListLimit) of its payouts.
func ReadEscrow(ctx context.Context, c *client.Client, jobID string) (EscrowView, error) {
	job, err := c.GetJob(ctx, jobID)
	if err != nil {
		return EscrowView{}, err
	}
	p, err := c.GetJobPayouts(ctx, jobID, client.PayoutFilter{Page: client.Page{Limit: marketplace.MaxListLimit}})
	if err != nil {
		return EscrowView{}, err
	}
	return EscrowView{JobID: job.ID, EscrowStatus: job.EscrowStatus, EscrowAmountUSDC: job.EscrowAmountUSDC,
		EscrowRefundAfter: job.EscrowRefundAfter, EscrowMismatch: job.EscrowMismatch, EscrowTxHash: job.EscrowTxHash,
		AnchorRoot: p.AnchorRoot, TotalUSDC: p.TotalUSDC, Payouts: p.Payouts, MorePayouts: p.NextCursor}, nil
}

// MaxEventWaitSeconds bounds the wait_seconds of the events tool: well
// within an HTTP request's life (the endpoint extends its write deadline
// by this much for an events call).
const MaxEventWaitSeconds = 60

// readEvents answers the events tool: a page after in.After or, when it
// is empty and in.WaitSeconds is set, the first event the live stream
// brings within that time.
func readEvents(ctx context.Context, c *client.Client, in eventsInput) (client.ListEventsResponse, error) {
	f := client.EventFilter{JobID: in.JobID, Address: in.Address, Tag: in.Tag}
	for t := range strings.SplitSeq(in.Types, ",") {
		if t = strings.TrimSpace(t); t != "" {
			f.Types = append(f.Types, t)
		}
	}
	limit := in.Limit
	if limit <= 0 {
		limit = events.DefaultListLimit
	}
	wait := time.Duration(min(max(in.WaitSeconds, 0), MaxEventWaitSeconds)) * time.Second
	if in.After != "" || wait == 0 {
		page, err := c.ListEvents(ctx, f, in.After, limit)
		if err != nil || len(page.Events) > 0 || wait == 0 {
			return page, err
		}
	}
	// Wait on the stream, from after (or now), for the first event.
	wctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	out := client.ListEventsResponse{Events: []client.Event{}}
	if in.After != "" {
		out.NextCursor = &in.After
	}
	for ev, err := range c.StreamEvents(wctx, f, in.After) {
		if err != nil {
			if wctx.Err() != nil && ctx.Err() == nil {
				return out, nil // nothing came in time
			}
			return out, err
		}
		out.Events = append(out.Events, ev)
		id := ev.ID
		out.NextCursor = &id
		break
	}
	return out, nil
}
