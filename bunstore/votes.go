package bunstore

import (
	"context"
	"encoding/json"

	"github.com/uptrace/bun"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
)

// voteRow is a row of votes (jury votes).
type voteRow struct {
	bun.BaseModel `bun:"table:votes,alias:v"`

	ID           string  `bun:"id,pk"`
	JobID        string  `bun:"job_id,notnull"`
	SubmissionID string  `bun:"submission_id,notnull"`
	VoterAddress string  `bun:"voter_address,notnull"`
	Weight       int64   `bun:"weight,notnull"`
	Review       *string `bun:"review"`
	CreatedAt    int64   `bun:"created_at,notnull"`
}

// finalVoteRow is a row of final_votes.
type finalVoteRow struct {
	bun.BaseModel `bun:"table:final_votes,alias:fv"`

	ID           string `bun:"id,pk"`
	JobID        string `bun:"job_id,notnull"`
	SubmissionID string `bun:"submission_id,notnull"`
	VoterAddress string `bun:"voter_address,notnull"`
	CreatedAt    int64  `bun:"created_at,notnull"`
}

// tallyRow is one row of a tally query.
type tallyRow struct {
	SubmissionID string `bun:"submission_id"`
	Weight       int64  `bun:"total_weight"`
	Voters       int64  `bun:"voters"`
	Earliest     int64  `bun:"earliest"`
}

func (r *voteRow) vote() (*marketplace.Vote, error) {
	v := &marketplace.Vote{
		ID:           r.ID,
		JobID:        r.JobID,
		SubmissionID: r.SubmissionID,
		Voter:        openjury.Address(r.VoterAddress),
		Weight:       r.Weight,
		CreatedAt:    fromMillis(r.CreatedAt),
	}
	if r.Review != nil {
		if err := json.Unmarshal([]byte(*r.Review), &v.Review); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// voteStore implements marketplace.VoteStore on the pools or on one
// transaction.
type voteStore struct{ e exec }

// Vote returns the current jury vote of voter on a job. Review reads back
// as stored (a JSON object; numbers in it come back as float64).
// Errors: NotFound.
func (s voteStore) Vote(ctx context.Context, jobID string, voter openjury.Address) (*marketplace.Vote, error) {
	const op = "bunstore.Vote"
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	var row voteRow
	err = db.NewSelect().Model(&row).
		Where("v.job_id = ?", jobID).
		Where("v.voter_address = ?", string(voter)).
		Scan(ctx)
	if err != nil {
		return nil, voteErr(op, err)
	}
	v, err := row.vote()
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	return v, nil
}

// PutVote inserts v, or replaces the voter's vote on the job in the same
// statement (INSERT ... ON CONFLICT (job_id, voter_address) DO UPDATE ...
// RETURNING id), so concurrent first votes of one voter end with one row
// and no error. The stored row keeps its id; v.ID is set to it (an empty
// v.ID of a first vote gets a new id). Errors: NotFound when the job or the
// submission does not exist.
func (s voteStore) PutVote(ctx context.Context, v *marketplace.Vote) error {
	const op = "bunstore.PutVote"
	row := &voteRow{
		ID:           v.ID,
		JobID:        v.JobID,
		SubmissionID: v.SubmissionID,
		VoterAddress: string(v.Voter),
		Weight:       v.Weight,
		CreatedAt:    millis(v.CreatedAt),
	}
	if row.ID == "" {
		row.ID = openjury.NewID()
	}
	if v.Review != nil {
		raw, err := json.Marshal(v.Review)
		if err != nil {
			return openjury.Wrap(op, err)
		}
		review := string(raw)
		row.Review = &review
	}
	db, err := s.e.writer(ctx, op)
	if err != nil {
		return err
	}
	_, err = db.NewInsert().Model(row).
		On("CONFLICT (job_id, voter_address) DO UPDATE").
		Set("submission_id = EXCLUDED.submission_id").
		Set("weight = EXCLUDED.weight").
		Set("review = EXCLUDED.review").
		Set("created_at = EXCLUDED.created_at").
		Returning("id").
		Exec(ctx)
	if err != nil {
		return voteErr(op, err)
	}
	v.ID = row.ID
	return nil
}

// Tally sums the current jury votes of a job per submission.
func (s voteStore) Tally(ctx context.Context, jobID string) ([]marketplace.Tally, error) {
	return s.tally(ctx, "bunstore.Tally", (*voteRow)(nil), "SUM(v.weight)", "v", jobID)
}

// FinalVote returns the current final vote of voter on a job.
// Errors: NotFound.
func (s voteStore) FinalVote(ctx context.Context, jobID string, voter openjury.Address) (*marketplace.FinalVote, error) {
	const op = "bunstore.FinalVote"
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	var row finalVoteRow
	err = db.NewSelect().Model(&row).
		Where("fv.job_id = ?", jobID).
		Where("fv.voter_address = ?", string(voter)).
		Scan(ctx)
	if err != nil {
		return nil, voteErr(op, err)
	}
	return &marketplace.FinalVote{
		ID:           row.ID,
		JobID:        row.JobID,
		SubmissionID: row.SubmissionID,
		Voter:        openjury.Address(row.VoterAddress),
		CreatedAt:    fromMillis(row.CreatedAt),
	}, nil
}

// PutFinalVote inserts or replaces like PutVote.
func (s voteStore) PutFinalVote(ctx context.Context, v *marketplace.FinalVote) error {
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
	db, err := s.e.writer(ctx, op)
	if err != nil {
		return err
	}
	_, err = db.NewInsert().Model(row).
		On("CONFLICT (job_id, voter_address) DO UPDATE").
		Set("submission_id = EXCLUDED.submission_id").
		Set("created_at = EXCLUDED.created_at").
		Returning("id").
		Exec(ctx)
	if err != nil {
		return voteErr(op, err)
	}
	v.ID = row.ID
	return nil
}

// FinalTally counts the current final votes of a job per submission.
func (s voteStore) FinalTally(ctx context.Context, jobID string) ([]marketplace.Tally, error) {
	return s.tally(ctx, "bunstore.FinalTally", (*finalVoteRow)(nil), "COUNT(*)", "fv", jobID)
}

// tally groups the votes of model (alias a) of a job by submission with
// weight as the weight expression, ordered by weight desc, earliest vote
// asc, submission id asc.
func (s voteStore) tally(ctx context.Context, op string, model any, weight, a, jobID string) ([]marketplace.Tally, error) {
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	var rows []tallyRow
	err = db.NewSelect().Model(model).
		ColumnExpr("?.submission_id AS submission_id", bun.Ident(a)).
		ColumnExpr(weight+" AS total_weight").
		ColumnExpr("COUNT(DISTINCT ?.voter_address) AS voters", bun.Ident(a)).
		ColumnExpr("MIN(?.created_at) AS earliest", bun.Ident(a)).
		Where("?.job_id = ?", bun.Ident(a), jobID).
		GroupExpr("?.submission_id", bun.Ident(a)).
		OrderExpr("total_weight DESC").
		OrderExpr("earliest ASC").
		OrderExpr("submission_id ASC").
		Scan(ctx, &rows)
	if err != nil {
		return nil, translate(op, err)
	}
	out := make([]marketplace.Tally, len(rows))
	for i, r := range rows {
		out[i] = marketplace.Tally{
			SubmissionID: r.SubmissionID,
			Weight:       r.Weight,
			Voters:       r.Voters,
			Earliest:     fromMillis(r.Earliest),
		}
	}
	return out, nil
}

// voteErr translates err with the details of votes.
func voteErr(op string, err error) error {
	err = translate(op, err)
	if oe, ok := err.(*openjury.Error); ok && oe.Kind == openjury.NotFound {
		switch oe.Detail {
		case detailNotFound:
			oe.Detail = "vote not found"
		case detailMissingRef:
			oe.Detail = "job or submission not found"
		}
	}
	return err
}
