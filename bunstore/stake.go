package bunstore

import (
	"context"
	"database/sql"
	"errors"

	"github.com/uptrace/bun"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/stake"
)

// stakeRow is a row of stakes.
type stakeRow struct {
	bun.BaseModel `bun:"table:stakes,alias:s"`

	Address     string       `bun:"address,pk"`
	StakedMicro int64        `bun:"staked_micro,notnull"`
	Ref         chainRefCols `bun:"embed:"`
	UpdatedAt   int64        `bun:"updated_at,notnull"`
}

func (r *stakeRow) stake() stake.Stake {
	return stake.Stake{
		Address:   openjury.Address(r.Address),
		Staked:    openjury.MicroUSDC(r.StakedMicro),
		Ref:       r.Ref.ref(),
		UpdatedAt: fromMillis(r.UpdatedAt),
	}
}

// slashRow is a row of slash_events.
type slashRow struct {
	bun.BaseModel `bun:"table:slash_events,alias:se"`

	ID               string       `bun:"id,pk"`
	AgentAddress     string       `bun:"agent_address,notnull"`
	AmountMicro      int64        `bun:"amount_micro,notnull"`
	RecipientAddress string       `bun:"recipient_address,nullzero"`
	JobID            string       `bun:"job_id,nullzero"`
	Ref              chainRefCols `bun:"embed:"`
	CreatedAt        int64        `bun:"created_at,notnull"`
}

func (r *slashRow) event() stake.SlashEvent {
	return stake.SlashEvent{
		ID:        r.ID,
		Agent:     openjury.Address(r.AgentAddress),
		Amount:    openjury.MicroUSDC(r.AmountMicro),
		Recipient: openjury.Address(r.RecipientAddress),
		JobID:     r.JobID,
		Ref:       r.Ref.ref(),
		CreatedAt: fromMillis(r.CreatedAt),
	}
}

// stakeStore implements stake.Store on the pools or on one transaction.
type stakeStore struct{ e exec }

// Stake returns the stake of addr, a zero Stake with Address set when it
// has no row. It writes nothing.
func (s stakeStore) Stake(ctx context.Context, addr openjury.Address) (stake.Stake, error) {
	const op = "bunstore.Stake"
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return stake.Stake{}, err
	}
	return getStake(ctx, op, s.e.d, db, addr)
}

// getStake reads the stake of addr through db.
func getStake(ctx context.Context, op string, d *DB, db bun.IDB, addr openjury.Address) (stake.Stake, error) {
	var row stakeRow
	err := d.scanHot(ctx, db, d.hot.stakeOf, []any{&row}, string(addr))
	if errors.Is(err, sql.ErrNoRows) {
		return stake.Stake{Address: addr}, nil
	}
	if err != nil {
		return stake.Stake{}, translate(op, err)
	}
	return row.stake(), nil
}

// PutStake inserts or replaces the stake row of st.Address: amount,
// onchain reference (parts left unset are stored as NULL) and updated_at;
// with its stake.changed event, in one transaction (a savepoint inside
// the caller's).
func (s stakeStore) PutStake(ctx context.Context, st stake.Stake) error {
	const op = "bunstore.PutStake"
	return s.e.inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		if err := putStake(ctx, op, db, st); err != nil {
			return err
		}
		return eventStore{s.e.d.txExec(db)}.Append(ctx, stake.ChangedEvent(st))
	})
}

// putStake writes the stake row of st.
func putStake(ctx context.Context, op string, db bun.IDB, st stake.Stake) error {
	row := &stakeRow{
		Address:     string(st.Address),
		StakedMicro: int64(st.Staked),
		Ref:         toChainRefCols(st.Ref),
		UpdatedAt:   millis(st.UpdatedAt),
	}
	_, err := db.NewInsert().Model(row).
		On("CONFLICT (address) DO UPDATE").
		Set("staked_micro = EXCLUDED.staked_micro").
		Set("tx_hash = EXCLUDED.tx_hash").
		Set("chain_id = EXCLUDED.chain_id").
		Set("contract_address = EXCLUDED.contract_address").
		Set("block_number = EXCLUDED.block_number").
		Set("log_index = EXCLUDED.log_index").
		Set("updated_at = EXCLUDED.updated_at").
		Exec(ctx)
	return translate(op, err)
}

// RecordSlash inserts e, then lowers the agent's stake by e.Amount (not
// below zero) and sets its updated_at to e.CreatedAt, in one transaction
// (a savepoint inside the caller's). The stake's onchain reference stays
// that of its last PutStake; an agent without a stake row keeps none (its
// stake reads as zero). An empty e.ID gets a new id. Errors: Conflict when
// an event with the same onchain reference exists (two references are the
// same when their tx hashes are equal and set, and their chain ids and log
// indexes are equal, unset counting as a value), nothing written then.
func (s stakeStore) RecordSlash(ctx context.Context, e stake.SlashEvent) (stake.Stake, error) {
	const op = "bunstore.RecordSlash"
	if e.ID == "" {
		e.ID = openjury.NewID()
	}
	row := &slashRow{
		ID:               e.ID,
		AgentAddress:     string(e.Agent),
		AmountMicro:      int64(e.Amount),
		RecipientAddress: string(e.Recipient),
		JobID:            e.JobID,
		Ref:              toChainRefCols(e.Ref),
		CreatedAt:        millis(e.CreatedAt),
	}
	var after stake.Stake
	err := s.e.inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		if _, err := db.NewInsert().Model(row).Exec(ctx); err != nil {
			return translateWith(op, err, details{detailDuplicate: "slash event already recorded"})
		}
		res, err := db.NewUpdate().Model((*stakeRow)(nil)).
			Set("staked_micro = CASE WHEN staked_micro > ? THEN staked_micro - ? ELSE 0 END", row.AmountMicro, row.AmountMicro).
			Set("updated_at = ?", row.CreatedAt).
			Where("address = ?", row.AgentAddress).
			Exec(ctx)
		changed, err := affected(op, res, err)
		if err != nil {
			return err
		}
		if after, err = getStake(ctx, op, s.e.d, db, e.Agent); err != nil {
			return err
		}
		evs := []*events.Event{stake.SlashedEvent(e)}
		if changed > 0 {
			evs = append(evs, stake.ChangedEvent(after))
		}
		return eventStore{s.e.d.txExec(db)}.Append(ctx, evs...)
	})
	if err != nil {
		return stake.Stake{}, err
	}
	return after, nil
}

// Slashes lists up to f.Limit events newest first (created_at, id; both
// descending), filtered by agent and job, after f.After.
func (s stakeStore) Slashes(ctx context.Context, f stake.SlashFilter) ([]stake.SlashEvent, error) {
	const op = "bunstore.Slashes"
	if f.Limit <= 0 {
		return []stake.SlashEvent{}, nil
	}
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	var rows []slashRow
	q := db.NewSelect().Model(&rows)
	if f.Agent != "" {
		q = q.Where("se.agent_address = ?", string(f.Agent))
	}
	if f.JobID != "" {
		q = q.Where("se.job_id = ?", f.JobID)
	}
	if a := f.After; a != nil {
		q = q.Where("(se.created_at, se.id) < (?, ?)", millis(a.At), a.ID)
	}
	err = q.OrderExpr("se.created_at DESC").OrderExpr("se.id DESC").Limit(int64(f.Limit)).Scan(ctx)
	if err != nil {
		return nil, translate(op, err)
	}
	out := make([]stake.SlashEvent, len(rows))
	for i := range rows {
		out[i] = rows[i].event()
	}
	return out, nil
}
