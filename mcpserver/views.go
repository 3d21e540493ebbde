package mcpserver

import (
	"context"

	"github.com/openjury/openjury/client"
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
