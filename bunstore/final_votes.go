package bunstore

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
)

// finalVoteRow is a row of final_votes.
type finalVoteRow struct {
	bun.BaseModel `bun:"table:final_votes,alias:fv"`

	ID           string `bun:"id,pk"`
	JobID        string `bun:"job_id,notnull"`
	SubmissionID string `bun:"submission_id,notnull"`
	VoterAddress string `bun:"voter_address,notnull"`
	CreatedAt    int64  `bun:"created_at,notnull"`
}

// finalVoteStore implements marketplace.FinalVoteStore on the pools or
// on one transaction.
type finalVoteStore struct{ e exec }

// FinalVote returns the current final vote of voter on a job.
// Errors: NotFound.
func (s finalVoteStore) FinalVote(ctx context.Context, jobID string, voter openjury.Address) (*marketplace.FinalVote, error) {
	const op = "bunstore.FinalVote"
	var row finalVoteRow
	if err := currentVote(ctx, s.e, op, &row, "fv", jobID, voter); err != nil {
		return nil, err
	}
	return row.finalVote(), nil
}

func (r *finalVoteRow) finalVote() *marketplace.FinalVote {
	return &marketplace.FinalVote{
		ID:           r.ID,
		JobID:        r.JobID,
		SubmissionID: r.SubmissionID,
		Voter:        openjury.Address(r.VoterAddress),
		CreatedAt:    fromMillis(r.CreatedAt),
	}
}

// PutFinalVote inserts or replaces like voteStore.PutVote.
func (s finalVoteStore) PutFinalVote(ctx context.Context, v *marketplace.FinalVote) error {
	const op = "bunstore.PutFinalVote"
	row := &finalVoteRow{
		ID:           v.ID,
		JobID:        v.JobID,
		SubmissionID: v.SubmissionID,
		VoterAddress: string(v.Voter),
		CreatedAt:    millis(v.CreatedAt),
	}
	if row.ID == "" {
		row.ID = openjury.NewID()
	}
	if err := upsertVote(ctx, s.e, op, row, "submission_id", "created_at"); err != nil {
		return err
	}
	v.ID = row.ID
	return nil
}

// FinalTally counts the current final votes of a job per submission.
func (s finalVoteStore) FinalTally(ctx context.Context, jobID string) ([]marketplace.Tally, error) {
	return tallyVotes(ctx, s.e, "bunstore.FinalTally", (*finalVoteRow)(nil), "COUNT(*)", "fv", jobID)
}
