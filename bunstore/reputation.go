package bunstore

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
)

// reputationRow is a row of reputation.
type reputationRow struct {
	bun.BaseModel `bun:"table:reputation,alias:r"`

	Address     string `bun:"address,pk"`
	Score       int64  `bun:"score,notnull"`
	Wins        int64  `bun:"wins,notnull"`
	Losses      int64  `bun:"losses,notnull"`
	Submissions int64  `bun:"submissions,notnull"`
	JuryVotes   int64  `bun:"jury_votes,notnull"`
	UpdatedAt   int64  `bun:"updated_at,notnull"`
}

func (r *reputationRow) reputation() marketplace.Reputation {
	return marketplace.Reputation{
		Address:     openjury.Address(r.Address),
		Score:       r.Score,
		Wins:        r.Wins,
		Losses:      r.Losses,
		Submissions: r.Submissions,
		JuryVotes:   r.JuryVotes,
		UpdatedAt:   fromMillis(r.UpdatedAt),
	}
}

// reputationStore implements marketplace.ReputationStore on the pools or on
// one transaction.
type reputationStore struct{ e exec }

// Reputation returns the record of addr, zeros (with Address set and a zero
// UpdatedAt) when it has none. It writes nothing.
func (s reputationStore) Reputation(ctx context.Context, addr openjury.Address) (marketplace.Reputation, error) {
	const op = "bunstore.Reputation"
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return marketplace.Reputation{}, err
	}
	var row reputationRow
	err = s.e.d.scanHot(ctx, db, s.e.d.hot.web.reputationOf, []any{&row}, string(addr))
	if errors.Is(err, sql.ErrNoRows) {
		return marketplace.Reputation{Address: addr}, nil
	}
	if err != nil {
		return marketplace.Reputation{}, translate(op, err)
	}
	return row.reputation(), nil
}

// AddReputation adds d to the record of addr in one statement (INSERT ...
// ON CONFLICT DO UPDATE SET score = score + d.Score, ...), so concurrent
// increments add up. Errors: Conflict when a count would go below zero.
func (s reputationStore) AddReputation(ctx context.Context, addr openjury.Address, d marketplace.ReputationDelta, now time.Time) error {
	return s.add(ctx, "bunstore.AddReputation", []marketplace.ReputationChange{{Address: addr, Delta: d}}, now)
}

// AddReputations adds every change in one statement: one multi-row INSERT
// ... ON CONFLICT DO UPDATE whose rows are in address order, the order in
// which PostgreSQL inserts or locks them, so concurrent batches sharing
// addresses cannot deadlock. Changes of one address are summed first.
// Errors: Conflict when a count would go below zero.
func (s reputationStore) AddReputations(ctx context.Context, changes []marketplace.ReputationChange, now time.Time) error {
	return s.add(ctx, "bunstore.AddReputations", changes, now)
}

// add is AddReputation and AddReputations.
func (s reputationStore) add(ctx context.Context, op string, changes []marketplace.ReputationChange, now time.Time) error {
	if len(changes) == 0 {
		return nil
	}
	rows := make([]reputationRow, 0, len(changes))
	for _, c := range changes {
		rows = append(rows, reputationRow{
			Address:     string(c.Address),
			Score:       c.Delta.Score,
			Wins:        c.Delta.Wins,
			Losses:      c.Delta.Losses,
			Submissions: c.Delta.Submissions,
			JuryVotes:   c.Delta.JuryVotes,
			UpdatedAt:   millis(now),
		})
	}
	slices.SortStableFunc(rows, func(a, b reputationRow) int { return strings.Compare(a.Address, b.Address) })
	rows = sumByAddress(rows)
	db, err := s.e.writer(ctx, op)
	if err != nil {
		return err
	}
	if len(rows) == 1 {
		r := rows[0]
		_, err = s.e.d.execHot(ctx, db, s.e.d.hot.addReputation, r.Address, r.Score, r.Wins, r.Losses, r.Submissions, r.JuryVotes, r.UpdatedAt)
		return translate(op, err)
	}
	_, err = db.NewInsert().Model(&rows).
		On("CONFLICT (address) DO UPDATE").
		Set("score = r.score + EXCLUDED.score").
		Set("wins = r.wins + EXCLUDED.wins").
		Set("losses = r.losses + EXCLUDED.losses").
		Set("submissions = r.submissions + EXCLUDED.submissions").
		Set("jury_votes = r.jury_votes + EXCLUDED.jury_votes").
		Set("updated_at = EXCLUDED.updated_at").
		Exec(ctx)
	return translate(op, err)
}

// AddJobOutcome adds win to the winner's record and loss to every other
// distinct agent with a submission to the job, in one INSERT ... SELECT
// ... GROUP BY address ORDER BY address ... ON CONFLICT DO UPDATE: the agents are
// read from the index submissions (job_id, agent_address) by the
// database, never into memory, and their rows inserted or locked in
// address order, like AddReputations.
func (s reputationStore) AddJobOutcome(ctx context.Context, jobID string, winner openjury.Address, win, loss marketplace.ReputationDelta, now time.Time) error {
	const op = "bunstore.AddJobOutcome"
	db, err := s.e.writer(ctx, op)
	if err != nil {
		return err
	}
	args := []any{}
	for _, pair := range [][2]int64{{win.Score, loss.Score}, {win.Wins, loss.Wins}, {win.Losses, loss.Losses},
		{win.Submissions, loss.Submissions}, {win.JuryVotes, loss.JuryVotes}} {
		args = append(args, string(winner), pair[0], pair[1])
	}
	args = append(args, millis(now), jobID)
	_, err = db.NewRaw(jobOutcomeQuery, args...).Exec(ctx)
	return translate(op, err)
}

// jobOutcomeQuery is the statement of AddJobOutcome. Its parameters: for
// each of score, wins, losses, submissions and jury votes the winner and
// the two deltas (win, loss); then updated_at and the job id.
var jobOutcomeQuery = func() string {
	pick := "CASE WHEN s.agent_address = ? THEN ? ELSE ? END"
	return addReputationInto + `
SELECT s.agent_address, ` + strings.Repeat(pick+", ", 5) + `?
FROM submissions AS s WHERE s.job_id = ?
GROUP BY s.agent_address
ORDER BY s.agent_address
` + addReputationOnConflict
}()

// sumByAddress merges adjacent rows of one address (rows sorted by
// address) into one: an INSERT ... ON CONFLICT DO UPDATE may not touch a
// row twice.
func sumByAddress(rows []reputationRow) []reputationRow {
	out := rows[:1]
	for _, r := range rows[1:] {
		last := &out[len(out)-1]
		if r.Address != last.Address {
			out = append(out, r)
			continue
		}
		last.Score += r.Score
		last.Wins += r.Wins
		last.Losses += r.Losses
		last.Submissions += r.Submissions
		last.JuryVotes += r.JuryVotes
	}
	return out
}

// SetScore sets the score and updated_at of addr, creating the record
// (other counts zero) when missing.
func (s reputationStore) SetScore(ctx context.Context, addr openjury.Address, score int64, now time.Time) error {
	const op = "bunstore.SetScore"
	db, err := s.e.writer(ctx, op)
	if err != nil {
		return err
	}
	_, err = db.NewInsert().Model(&reputationRow{Address: string(addr), Score: score, UpdatedAt: millis(now)}).
		On("CONFLICT (address) DO UPDATE").
		Set("score = EXCLUDED.score").
		Set("updated_at = EXCLUDED.updated_at").
		Exec(ctx)
	return translate(op, err)
}

// Leaderboard lists up to limit records by score desc, then address asc,
// after the cursor when it is not nil.
func (s reputationStore) Leaderboard(ctx context.Context, limit int, after *marketplace.LeaderCursor) ([]marketplace.Reputation, error) {
	const op = "bunstore.Leaderboard"
	if limit <= 0 {
		return []marketplace.Reputation{}, nil
	}
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	var rows []reputationRow
	q := db.NewSelect().Model(&rows)
	if after != nil {
		// The leading range on score starts the index walk at the cursor's
		// score (an OR alone would walk from the top).
		q = q.Where("r.score <= ?", after.Score).
			Where("(r.score < ? OR r.address > ?)", after.Score, string(after.Address))
	}
	if err := q.OrderExpr("r.score DESC").OrderExpr("r.address ASC").Limit(int64(limit)).Scan(ctx); err != nil {
		return nil, translate(op, err)
	}
	out := make([]marketplace.Reputation, len(rows))
	for i := range rows {
		out[i] = rows[i].reputation()
	}
	return out, nil
}
