package bunstore

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
)

// Profiles returns the profile store outside any transaction.
func (d *DB) Profiles() marketplace.ProfileStore { return profileStore{d.pool()} }

// Profiles returns the profile store of the transaction.
func (t txStores) Profiles() marketplace.ProfileStore { return profileStore{t.e} }

// profileStore implements marketplace.ProfileStore on the pools or on one
// transaction. Each list walks its (address, created_at DESC, id DESC)
// index (migration 20261125000070) and looks up the job (and
// submission) of each row of the page by primary key.
type profileStore struct{ e exec }

// JobsBySponsor lists a sponsor's jobs newest first, without their
// prompts, walking jobs (sponsor_address, created_at DESC, id DESC).
func (s profileStore) JobsBySponsor(ctx context.Context, sponsor openjury.Address, limit int, after *marketplace.Cursor) ([]*marketplace.Job, error) {
	const op = "bunstore.JobsBySponsor"
	if limit <= 0 {
		return []*marketplace.Job{}, nil
	}
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	var rows []jobRow
	q := db.NewSelect().Model(&rows).ExcludeColumn("prompt").Where("j.sponsor_address = ?", string(sponsor))
	if after != nil {
		q = q.Where("(j.created_at, j.id) < (?, ?)", millis(after.At), after.ID)
	}
	if err := q.OrderExpr("j.created_at DESC").OrderExpr("j.id DESC").Limit(int64(limit)).Scan(ctx); err != nil {
		return nil, translate(op, err)
	}
	out := make([]*marketplace.Job, len(rows))
	for i := range rows {
		if out[i], err = rows[i].job(); err != nil {
			return nil, openjury.Wrap(op, err)
		}
	}
	return out, nil
}

// activityRow is a row of a profile's history: the entry (a submission
// or a vote), its job and its submission's head.
type activityRow struct {
	ID        string `bun:"id"`
	Weight    int64  `bun:"weight"`
	CreatedAt int64  `bun:"created_at"`

	JobID     string `bun:"job_id"`
	JobTitle  string `bun:"job_title"`
	JobStatus string `bun:"job_status"`
	JobWinner string `bun:"job_winner,nullzero"`

	SubID        string `bun:"sub_id"`
	SubAgent     string `bun:"sub_agent"`
	SubHead      string `bun:"sub_head"`
	SubCreatedAt int64  `bun:"sub_created_at"`
}

func (r *activityRow) activity() *marketplace.Activity {
	return &marketplace.Activity{
		ID:     r.ID,
		Weight: r.Weight,
		Job:    marketplace.JobHead{ID: r.JobID, Title: r.JobTitle, Status: marketplace.Status(r.JobStatus), WinnerSubmissionID: r.JobWinner},
		Submission: marketplace.SubmissionHead{ID: r.SubID, JobID: r.JobID, Agent: openjury.Address(r.SubAgent),
			Head: r.SubHead, CreatedAt: fromMillis(r.SubCreatedAt)},
		CreatedAt: fromMillis(r.CreatedAt),
	}
}

// headExpr selects the head of a submission's content: its first
// marketplace.HeadChars characters (substr counts characters on both
// engines).
var headExpr = fmt.Sprintf("substr(ss.content, 1, %d)", marketplace.HeadChars)

// SubmissionsByAgent lists an agent's submissions newest first with their
// jobs, walking submissions (agent_address, created_at DESC, id DESC).
func (s profileStore) SubmissionsByAgent(ctx context.Context, agent openjury.Address, limit int, after *marketplace.Cursor) ([]*marketplace.Activity, error) {
	return s.history(ctx, "bunstore.SubmissionsByAgent", "submissions AS s", "s", "agent_address", "0", agent, limit, after)
}

// VotesByVoter lists a voter's jury votes newest first with their jobs
// and submissions, walking votes (voter_address, created_at DESC, id
// DESC).
func (s profileStore) VotesByVoter(ctx context.Context, voter openjury.Address, limit int, after *marketplace.Cursor) ([]*marketplace.Activity, error) {
	return s.history(ctx, "bunstore.VotesByVoter", "votes AS v", "v", "voter_address", "v.weight", voter, limit, after)
}

// FinalVotesByVoter lists a voter's final votes like VotesByVoter,
// walking final_votes (voter_address, created_at DESC, id DESC).
func (s profileStore) FinalVotesByVoter(ctx context.Context, voter openjury.Address, limit int, after *marketplace.Cursor) ([]*marketplace.Activity, error) {
	return s.history(ctx, "bunstore.FinalVotesByVoter", "final_votes AS fv", "fv", "voter_address", "0", voter, limit, after)
}

// history reads a page of the table expression from (alias a, whose
// column by holds the address, weight the entry's weight), walking the
// address's index, with each row's job and submission (the entry itself
// when a is s, else the row's submission_id) read by correlated
// primary-key lookups: no join the planner could turn into a walk of
// another table.
func (s profileStore) history(ctx context.Context, op, from, a, by, weight string, addr openjury.Address, limit int, after *marketplace.Cursor) ([]*marketplace.Activity, error) {
	if limit <= 0 {
		return []*marketplace.Activity{}, nil
	}
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	t := bun.Ident(a)
	sub := bun.Safe(a + ".submission_id")
	if a == "s" {
		sub = bun.Safe("s.id")
	}
	job := func(col string) bun.Safe {
		return bun.Safe("(SELECT j." + col + " FROM jobs AS j WHERE j.id = " + a + ".job_id)")
	}
	of := func(expr string) bun.Safe {
		return bun.Safe("(SELECT " + expr + " FROM submissions AS ss WHERE ss.id = " + string(sub) + ")")
	}
	q := db.NewSelect().TableExpr(from).
		ColumnExpr("?.id, ? AS weight, ?.created_at, ?.job_id", t, bun.Safe(weight), t, t).
		ColumnExpr("? AS job_title, ? AS job_status, ? AS job_winner", job("title"), job("status"), job("winner_submission_id")).
		ColumnExpr("? AS sub_id, ? AS sub_agent, ? AS sub_head, ? AS sub_created_at",
			sub, of("ss.agent_address"), of(headExpr), of("ss.created_at")).
		Where("?.? = ?", t, bun.Ident(by), string(addr))
	if after != nil {
		q = q.Where("(?.created_at, ?.id) < (?, ?)", t, t, millis(after.At), after.ID)
	}
	var rows []activityRow
	if err := q.OrderExpr("?.created_at DESC", t).OrderExpr("?.id DESC", t).Limit(int64(limit)).Scan(ctx, &rows); err != nil {
		return nil, translate(op, err)
	}
	out := make([]*marketplace.Activity, len(rows))
	for i := range rows {
		out[i] = rows[i].activity()
	}
	return out, nil
}
