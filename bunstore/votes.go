package bunstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"slices"

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
	var row voteRow
	if err := currentVote(ctx, s.e, op, &row, "v", jobID, voter); err != nil {
		return nil, err
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
	if err := upsertVote(ctx, s.e, op, row, "submission_id", "weight", "review", "created_at"); err != nil {
		return err
	}
	v.ID = row.ID
	return nil
}

// castVoteRow is the row of castVoteQuery: what VoteGuard.Check reads of
// the job, the submission's job and agent, the stored vote's id.
type castVoteRow struct {
	guardJobRow
	JuryMode string  `bun:"jury_mode"`
	JurySize *int64  `bun:"jury_size"`
	SubJobID *string `bun:"sub_job_id"`
	SubAgent *string `bun:"sub_agent"`
	VoteID   *string `bun:"vote_id"`
}

// voteJob is the job as far as VoteGuard.Check reads it: guardJobRow's
// fields, JuryMode and JurySize.
func (r *castVoteRow) voteJob() *marketplace.Job {
	j := r.job()
	j.JuryMode, j.JurySize = storedJuryMode(r.JuryMode), int(deref64(r.JurySize))
	return j
}

// CastVote implements marketplace.VoteStore. On PostgreSQL it is one
// statement (castVoteQuery: the guard checked in SQL, the writes as
// writable CTEs); when it wrote nothing, g.Check on the row it read names
// the reason. On SQLite, and on PostgreSQL for an open-mode job with a
// drawn panel (which the one statement leaves alone), it is a transaction
// of the job (locked), the voter's panel row, the submission's key,
// g.Check, the existing vote, PutVote and the reputation.
func (s voteStore) CastVote(ctx context.Context, v *marketplace.Vote, g marketplace.VoteGuard) error {
	const op = "bunstore.CastVote"
	d, voter, rep := s.e.d, string(v.Voter), g.FirstReputation
	if d.dialect == DialectPostgres {
		if v.ID == "" {
			v.ID = openjury.NewID()
		}
		var review *string
		if v.Review != nil {
			raw, err := json.Marshal(v.Review)
			if err != nil {
				return openjury.Wrap(op, err)
			}
			r := string(raw)
			review = &r
		}
		db, err := s.e.writer(ctx, op)
		if err != nil {
			return err
		}
		var row castVoteRow
		args := append([]any{v.JobID, v.SubmissionID,
			v.ID, v.SubmissionID, voter, v.Weight, review, millis(v.CreatedAt), string(marketplace.StatusOpen), millis(g.Now), voter, voter,
			voter, rep.Score, rep.Wins, rep.Losses, rep.Submissions, rep.JuryVotes, millis(v.CreatedAt)}, outboxArgs(g.Event)...)
		if err := d.scanHot(ctx, db, d.hot.castVote, []any{&row}, args...); err != nil {
			return translateWith(op, err, jobDetails)
		}
		if row.VoteID != nil {
			v.ID = *row.VoteID
			if g.Event != nil {
				d.noteAppended(ctx)
			}
			return nil
		}
		if j := row.voteJob(); j.JurySize == 0 || j.JuryMode != "" {
			st := &marketplace.VoteState{Job: j}
			if row.SubJobID != nil && row.SubAgent != nil {
				st.SubmissionJobID, st.SubmissionAgent = *row.SubJobID, openjury.Address(*row.SubAgent)
			}
			if err := g.Check(st, v.Voter); err != nil {
				return err
			}
			return openjury.E(openjury.Internal, op, "the vote guard refused what VoteGuard.Check accepts")
		}
		// An open-mode job with a drawn panel: the locked transaction
		// below checks the panel too.
	}
	return s.e.inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		t := d.txExec(db)
		j, err := jobStore{t}.get(ctx, op, db, d.hot.jobByIDForUpdate, v.JobID)
		if err != nil {
			return err
		}
		st := &marketplace.VoteState{Job: j}
		if j.JurySize > 0 {
			if st.Drawn, err = (juryStore{t}).IsDrawn(ctx, v.JobID, v.Voter); err != nil {
				return err
			}
		}
		var sub submissionRow
		err = db.NewSelect().Model(&sub).Column("job_id", "agent_address").Where("s.id = ?", v.SubmissionID).Scan(ctx)
		switch {
		case err == nil:
			st.SubmissionJobID, st.SubmissionAgent = sub.JobID, openjury.Address(sub.AgentAddress)
		case !errors.Is(err, sql.ErrNoRows):
			return translate(op, err)
		}
		if err := g.Check(st, v.Voter); err != nil {
			return err
		}
		_, err = voteStore{t}.Vote(ctx, v.JobID, v.Voter)
		first := openjury.IsKind(err, openjury.NotFound)
		if err != nil && !first {
			return err
		}
		if err := (voteStore{t}).PutVote(ctx, v); err != nil {
			return err
		}
		if g.Event != nil {
			ev := *g.Event
			ev.Subjects = append(slices.Clone(ev.Subjects), st.SubmissionAgent)
			if err := (eventStore{t}).Append(ctx, &ev); err != nil {
				return err
			}
		}
		if !first {
			return nil
		}
		return reputationStore{t}.AddReputation(ctx, v.Voter, rep, v.CreatedAt)
	})
}

// Tally sums the current jury votes of a job per submission.
func (s voteStore) Tally(ctx context.Context, jobID string) ([]marketplace.Tally, error) {
	return tallyVotes(ctx, s.e, "bunstore.Tally", (*voteRow)(nil), "SUM(v.weight)", "v", jobID)
}

// currentVote reads into row, a *voteRow or a *finalVoteRow with table alias
// a, the current vote of voter on a job. Errors: NotFound.
func currentVote(ctx context.Context, e exec, op string, row any, a, jobID string, voter openjury.Address) error {
	db, err := e.reader(ctx, op)
	if err != nil {
		return err
	}
	err = db.NewSelect().Model(row).
		Where("?.job_id = ?", bun.Ident(a), jobID).
		Where("?.voter_address = ?", bun.Ident(a), string(voter)).
		Scan(ctx)
	return translateWith(op, err, voteDetails)
}

// upsertVote inserts row, a *voteRow or a *finalVoteRow, or replaces the
// voter's vote on the job in the same statement, setting the columns set
// from row; the stored row keeps its id, which is read back into row.
// Errors: NotFound when the job or the submission does not exist.
func upsertVote(ctx context.Context, e exec, op string, row any, set ...string) error {
	db, err := e.writer(ctx, op)
	if err != nil {
		return err
	}
	q := db.NewInsert().Model(row).On("CONFLICT (job_id, voter_address) DO UPDATE")
	for _, col := range set {
		q = q.Set(col + " = EXCLUDED." + col)
	}
	_, err = q.Returning("id").Exec(ctx)
	return translateWith(op, err, voteDetails)
}

// tallyVotes groups the votes of model (alias a) of a job by submission with
// weight as the weight expression, ordered by weight desc, earliest vote
// asc, submission id asc.
func tallyVotes(ctx context.Context, e exec, op string, model any, weight, a, jobID string) ([]marketplace.Tally, error) {
	db, err := e.reader(ctx, op)
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

// voteDetails are the details of a missing vote and of a vote naming a
// missing job or submission.
var voteDetails = details{detailNotFound: "vote not found", detailMissingRef: "job or submission not found"}
