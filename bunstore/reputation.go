package bunstore

import (
	"context"
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
	var rows []reputationRow
	if err := db.NewSelect().Model(&rows).Where("r.address = ?", string(addr)).Limit(1).Scan(ctx); err != nil {
		return marketplace.Reputation{}, translate(op, err)
	}
	if len(rows) == 0 {
		return marketplace.Reputation{Address: addr}, nil
	}
	return rows[0].reputation(), nil
}

// AddReputation adds d to the record of addr in one statement (INSERT ...
// ON CONFLICT DO UPDATE SET score = score + d.Score, ...), so concurrent
// increments add up. Errors: Conflict when a count would go below zero.
func (s reputationStore) AddReputation(ctx context.Context, addr openjury.Address, d marketplace.ReputationDelta, now time.Time) error {
	const op = "bunstore.AddReputation"
	db, err := s.e.writer(ctx, op)
	if err != nil {
		return err
	}
	row := &reputationRow{
		Address:     string(addr),
		Score:       d.Score,
		Wins:        d.Wins,
		Losses:      d.Losses,
		Submissions: d.Submissions,
		JuryVotes:   d.JuryVotes,
		UpdatedAt:   millis(now),
	}
	_, err = db.NewInsert().Model(row).
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
		q = q.Where("r.score < ? OR (r.score = ? AND r.address > ?)", after.Score, after.Score, string(after.Address))
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
