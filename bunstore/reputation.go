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
	return s.e.writeAll(ctx, op, func(ctx context.Context, db bun.IDB) error {
		var err error
		if len(rows) == 1 {
			r := rows[0]
			_, err = s.e.d.execHot(ctx, db, s.e.d.hot.addReputation, r.Address, r.Score, r.Wins, r.Losses, r.Submissions, r.JuryVotes, r.UpdatedAt)
		} else {
			_, err = db.NewInsert().Model(&rows).
				On("CONFLICT (address) DO UPDATE").
				Set("score = r.score + EXCLUDED.score").
				Set("wins = r.wins + EXCLUDED.wins").
				Set("losses = r.losses + EXCLUDED.losses").
				Set("submissions = r.submissions + EXCLUDED.submissions").
				Set("jury_votes = r.jury_votes + EXCLUDED.jury_votes").
				Set("updated_at = EXCLUDED.updated_at").
				Exec(ctx)
		}
		if err != nil {
			return translate(op, err)
		}
		return s.touchCrossings(ctx, op, db, rows)
	})
}

// touchCrossingChunk bounds the addresses of one touchCrossings statement
// (two parameters each, under SQLite's 32,766).
const touchCrossingChunk = 1000

// touchCrossings keeps the jury index on SQLite after rows' score deltas
// were added, in the same transaction (exec.writeAll: a check after
// another writer's change of the score would miss the crossing;
// docs/rules.md, "Jury integrity"): every address whose score
// crossed the minimum score (its score before the change, score - delta,
// a missing row counting as 0, on the other side of min_rep_score from
// its score now) is inserted into jury_touch, which recomputes its juror
// stake; nothing while the index is not configured. On PostgreSQL the
// trigger openjury_jury_touch_score does it (migration 20261126000110);
// on SQLite a trigger would make every score write open a statement
// journal (migration 20261126000130).
func (s reputationStore) touchCrossings(ctx context.Context, op string, db bun.IDB, rows []reputationRow) error {
	if s.e.d.dialect != DialectSQLite {
		return nil
	}
	var changed []reputationRow
	for _, r := range rows {
		if r.Score != 0 {
			changed = append(changed, r)
		}
	}
	if len(changed) == 1 {
		// One address (every submission, every vote): a read finds
		// whether it crossed, and only a crossing writes (an INSERT into
		// the view always builds a temporary table of its rows).
		r := changed[0]
		var one int
		err := s.e.d.scanHot(ctx, db, s.e.d.hot.touchCrossing, []any{&one}, r.Score, r.Address)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return translate(op, err)
		}
		return touchAddress(ctx, op, s.e.d, db, openjury.Address(r.Address))
	}
	for chunk := range slices.Chunk(changed, touchCrossingChunk) {
		args := make([]any, 0, 2*len(chunk))
		for _, r := range chunk {
			args = append(args, r.Address, r.Score)
		}
		if _, err := db.ExecContext(ctx, touchCrossingsQuery(len(chunk)), args...); err != nil {
			return translate(op, err)
		}
	}
	return nil
}

// touchCrossingsQuery is touchCrossings' statement for n (address, score
// delta) pairs.
func touchCrossingsQuery(n int) string {
	return `WITH d (address, delta) AS (VALUES ` + strings.TrimSuffix(strings.Repeat("(?, ?), ", n), ", ") + `)
INSERT INTO jury_touch (address) SELECT r.address FROM d JOIN reputation AS r ON r.address = d.address` + touchCrossed("d.delta")
}

// touchCrossedQuery reads 1 when an address's score crossed the minimum
// score with a delta (parameters: the delta, the address).
var touchCrossedQuery = `SELECT 1 FROM reputation AS r` + touchCrossed("?") + ` AND r.address = ?`

// touchCrossed is the end of a touchCrossings statement: the join with
// jury_config and the crossing, for a score delta named delta.
func touchCrossed(delta string) string {
	return `
JOIN jury_config AS c ON c.id = 1 AND c.min_stake_micro IS NOT NULL
WHERE (r.score - ` + delta + ` >= c.min_rep_score) IS NOT (r.score >= c.min_rep_score)`
}

// AddJobOutcome adds win to the winner's record and loss to every other
// distinct agent with a submission to the job, in one INSERT ... SELECT
// ... GROUP BY address ORDER BY address ... ON CONFLICT DO UPDATE: the agents are
// read from the index submissions (job_id, agent_address) by the
// database, never into memory, and their rows inserted or locked in
// address order, like AddReputations.
func (s reputationStore) AddJobOutcome(ctx context.Context, jobID string, winner openjury.Address, win, loss marketplace.ReputationDelta, now time.Time) error {
	const op = "bunstore.AddJobOutcome"
	args := []any{}
	for _, pair := range [][2]int64{{win.Score, loss.Score}, {win.Wins, loss.Wins}, {win.Losses, loss.Losses},
		{win.Submissions, loss.Submissions}, {win.JuryVotes, loss.JuryVotes}} {
		args = append(args, string(winner), pair[0], pair[1])
	}
	args = append(args, millis(now), jobID)
	return s.e.writeAll(ctx, op, func(ctx context.Context, db bun.IDB) error {
		if _, err := db.NewRaw(jobOutcomeQuery, args...).Exec(ctx); err != nil {
			return translate(op, err)
		}
		if s.e.d.dialect != DialectSQLite || (win.Score == 0 && loss.Score == 0) {
			return nil
		}
		// touchCrossings for the job's agents: the winner's delta is win's.
		_, err := db.NewRaw(`INSERT INTO jury_touch (address) SELECT r.address FROM (SELECT DISTINCT s.agent_address AS address FROM submissions AS s WHERE s.job_id = ?) AS g
JOIN reputation AS r ON r.address = g.address`+touchCrossed("CASE WHEN r.address = ? THEN ? ELSE ? END"),
			jobID, string(winner), win.Score, loss.Score).Exec(ctx)
		return translate(op, err)
	})
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
	return s.e.writeAll(ctx, op, func(ctx context.Context, db bun.IDB) error {
		_, err := db.NewInsert().Model(&reputationRow{Address: string(addr), Score: score, UpdatedAt: millis(now)}).
			On("CONFLICT (address) DO UPDATE").
			Set("score = EXCLUDED.score").
			Set("updated_at = EXCLUDED.updated_at").
			Exec(ctx)
		if err != nil {
			return translate(op, err)
		}
		return touchAddress(ctx, op, s.e.d, db, addr)
	})
}

// touchAddress recomputes addr's juror stake on SQLite (see
// touchCrossings), whether or not its score crossed the minimum: for the
// rare score writes that do not know the score before.
func touchAddress(ctx context.Context, op string, d *DB, db bun.IDB, addr openjury.Address) error {
	if d.dialect != DialectSQLite {
		return nil
	}
	_, err := db.ExecContext(ctx, "INSERT INTO jury_touch (address) VALUES (?)", string(addr))
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
