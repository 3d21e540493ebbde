package bunstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"github.com/uptrace/bun"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/marketplace"
)

var _ marketplace.EscrowStore = escrowStore{}

// escrowCols are the escrow columns of a job row (prefix escrow_): NULL
// status until the first escrow event of the sponsor's slot.
type escrowCols struct {
	Status      string       `bun:"status,nullzero"`
	AmountMicro *int64       `bun:"amount_micro"`
	RefundAfter *int64       `bun:"refund_after"`
	Ref         chainRefCols `bun:"embed:"`
	Root        string       `bun:"root,nullzero"`
	TotalMicro  *int64       `bun:"total_micro"`
	Mismatch    int64        `bun:"mismatch,notnull"`
}

// escrow reads the columns back; nil when no event was applied.
func (c *escrowCols) escrow() *marketplace.JobEscrow {
	if c.Status == "" {
		return nil
	}
	e := &marketplace.JobEscrow{
		Status:      marketplace.EscrowStatus(c.Status),
		RefundAfter: fromMillisPtr(c.RefundAfter),
		Ref:         c.Ref.ref(),
		SettledRoot: openjury.Hash(c.Root),
		Mismatch:    c.Mismatch != 0,
	}
	if c.AmountMicro != nil {
		e.Amount = openjury.MicroUSDC(*c.AmountMicro)
	}
	if c.TotalMicro != nil {
		e.SettledTotal = openjury.MicroUSDC(*c.TotalMicro)
	}
	return e
}

// toEscrowCols returns the columns of e.
func toEscrowCols(e *marketplace.JobEscrow) escrowCols {
	if e == nil {
		return escrowCols{}
	}
	amount := int64(e.Amount)
	c := escrowCols{
		Status:      string(e.Status),
		AmountMicro: &amount,
		RefundAfter: millisPtr(e.RefundAfter),
		Ref:         toChainRefCols(e.Ref),
		Root:        string(e.SettledRoot),
	}
	if e.Status == marketplace.EscrowSettled {
		total := int64(e.SettledTotal)
		c.TotalMicro = &total
	}
	if e.Mismatch {
		c.Mismatch = 1
	}
	return c
}

// payoutRow is a row of job_payouts.
type payoutRow struct {
	bun.BaseModel `bun:"table:job_payouts,alias:jp"`

	JobID       string `bun:"job_id,pk"`
	Recipient   string `bun:"recipient,pk"`
	AmountMicro int64  `bun:"amount_micro,notnull"`
	Roles       string `bun:"roles,notnull"`
}

// escrowEventRow is a row of escrow_events.
type escrowEventRow struct {
	bun.BaseModel `bun:"table:escrow_events,alias:ee"`

	ChainID         int64  `bun:"chain_id,pk"`
	TxHash          string `bun:"tx_hash,pk"`
	LogIndex        int64  `bun:"log_index,pk"`
	JobID           string `bun:"job_id,notnull"`
	Kind            string `bun:"kind,notnull"`
	ContractAddress string `bun:"contract_address,notnull"`
	BlockNumber     int64  `bun:"block_number,notnull"`
	Sponsor         string `bun:"sponsor,notnull"`
	Recipient       string `bun:"recipient,nullzero"`
	AmountMicro     *int64 `bun:"amount_micro"`
	TotalMicro      *int64 `bun:"total_micro"`
	RefundAfter     *int64 `bun:"refund_after"`
	Root            string `bun:"root,nullzero"`
	CreatedAt       int64  `bun:"created_at,notnull"`
}

// Escrow returns the escrow store on the pools.
func (d *DB) Escrow() marketplace.EscrowStore { return escrowStore{d.pool()} }

// Escrow returns the escrow store of the transaction.
func (t txStores) Escrow() marketplace.EscrowStore { return escrowStore{t.e} }

// escrowStore implements marketplace.EscrowStore on the pools or on one
// transaction.
type escrowStore struct{ e exec }

// AdvanceSync checks the lease and moves the cursor by conditional
// updates (advanceSync), atomically.
func (s escrowStore) AdvanceSync(ctx context.Context, lease, owner string, now time.Time, cursor string, from, next int64) error {
	const op = "bunstore.AdvanceSync"
	return s.e.inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		return advanceSync(ctx, op, db, lease, owner, now, cursor, from, next)
	})
}

// advanceSync checks on db that owner holds lease unexpired at now and
// moves cursor from `from` (inserted at `from` when absent) to next, by
// conditional UPDATEs that also lock both rows on PostgreSQL until the
// commit, so two writers of one sync serialise and the second finds the
// cursor moved. Errors: Conflict.
func advanceSync(ctx context.Context, op string, db bun.IDB, lease, owner string, now time.Time, cursor string, from, next int64) error {
	ms := millis(now)
	res, err := db.NewUpdate().Model((*leaseRow)(nil)).
		Set("expires_at = expires_at").
		Where("name = ?", lease).Where("owner = ?", owner).Where("expires_at > ?", ms).
		Exec(ctx)
	if err := exactlyOne(op, res, err, openjury.E(openjury.Conflict, op, "the sync lease is held by another worker")); err != nil {
		return err
	}
	if _, err := db.NewInsert().Model(&cursorRow{Name: cursor, NextBlock: from, UpdatedAt: ms}).
		On("CONFLICT DO NOTHING").Exec(ctx); err != nil {
		return translate(op, err)
	}
	res, err = db.NewUpdate().Model((*cursorRow)(nil)).
		Set("next_block = ?", next).Set("updated_at = ?", ms).
		Where("name = ?", cursor).Where("next_block = ?", from).
		Exec(ctx)
	return exactlyOne(op, res, err, openjury.E(openjury.Conflict, op, "the sync cursor moved"))
}

// JobByKey reads the job of an escrow key through the unique index on
// job_key, locked FOR UPDATE on PostgreSQL (SQLite's write transaction
// holds the one write lock).
func (s escrowStore) JobByKey(ctx context.Context, key openjury.Hash) (*marketplace.Job, error) {
	const op = "bunstore.JobByKey"
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	var row jobRow
	q := db.NewSelect().Model(&row).Where("j.job_key = ?", string(key))
	if s.e.tx && s.e.d.dialect == DialectPostgres {
		q = q.For("UPDATE")
	}
	if err := q.Limit(1).Scan(ctx); err != nil {
		return nil, translateWith(op, err, jobDetails)
	}
	j, err := row.job()
	return j, openjury.Wrap(op, err)
}

// AddEscrowEvent inserts the event row unless its primary key (chain id,
// tx hash, log index) is stored: INSERT ... ON CONFLICT DO NOTHING, one
// row affected when it was new.
func (s escrowStore) AddEscrowEvent(ctx context.Context, jobID string, chainID int64, ev marketplace.EscrowEvent, now time.Time) (bool, error) {
	const op = "bunstore.AddEscrowEvent"
	db, err := s.e.writer(ctx, op)
	if err != nil {
		return false, err
	}
	opt := func(v openjury.MicroUSDC, set bool) *int64 {
		if !set {
			return nil
		}
		n := int64(v)
		return &n
	}
	row := &escrowEventRow{
		ChainID: chainID, TxHash: string(ev.TxHash), LogIndex: ev.LogIndex, JobID: jobID, Kind: string(ev.Kind),
		ContractAddress: string(ev.Contract), BlockNumber: ev.Block, Sponsor: string(ev.Sponsor),
		Recipient:   string(ev.Recipient),
		AmountMicro: opt(ev.Amount, ev.Kind != marketplace.EscrowEventSettled),
		TotalMicro:  opt(ev.Total, ev.Kind == marketplace.EscrowEventFunded || ev.Kind == marketplace.EscrowEventSettled),
		Root:        string(ev.Root),
		CreatedAt:   millis(now),
	}
	if ev.Kind == marketplace.EscrowEventFunded {
		ra := ev.RefundAfter
		row.RefundAfter = &ra
	}
	res, err := db.NewInsert().Model(row).On("CONFLICT DO NOTHING").Exec(ctx)
	n, err := affected(op, res, err)
	return n == 1, err
}

// escrowColumns are the job columns SetJobEscrow writes.
var escrowColumns = []string{
	"escrow_status", "escrow_amount_micro", "escrow_refund_after", "escrow_tx_hash", "escrow_chain_id",
	"escrow_contract_address", "escrow_block_number", "escrow_log_index", "escrow_root", "escrow_total_micro",
	"escrow_mismatch",
}

// SetJobEscrow writes the escrow columns of a job.
func (s escrowStore) SetJobEscrow(ctx context.Context, jobID string, e *marketplace.JobEscrow) error {
	const op = "bunstore.SetJobEscrow"
	db, err := s.e.writer(ctx, op)
	if err != nil {
		return err
	}
	row := &jobRow{ID: jobID, Escrow: toEscrowCols(e)}
	res, err := db.NewUpdate().Model(row).Column(escrowColumns...).WherePK().Exec(ctx)
	return exactlyOne(op, res, err, openjury.E(openjury.NotFound, op, "job not found"))
}

// payoutBatch is how many payouts PutPayouts inserts per statement.
const payoutBatch = 200

// PutPayouts inserts the payout rows, a batch per statement.
func (s escrowStore) PutPayouts(ctx context.Context, jobID string, payouts []anchor.Payout) error {
	const op = "bunstore.PutPayouts"
	return s.e.inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		// A run again (DB.runTx) inserts them all again.
		for rest := payouts; len(rest) > 0; {
			part := rest[:min(payoutBatch, len(rest))]
			rest = rest[len(part):]
			args := make([]any, 0, 4*len(part))
			for _, p := range part {
				roles, err := json.Marshal(orNoRoles(p.Roles))
				if err != nil {
					return openjury.Wrap(op, err)
				}
				args = append(args, jobID, string(p.Recipient), int64(p.Amount), string(roles))
			}
			if err := s.e.d.insertRows(ctx, db, "INSERT INTO job_payouts (job_id, recipient, amount_micro, roles)", 4, len(part), args); err != nil {
				return translateWith(op, err, details{detailDuplicate: "the job has payouts already"})
			}
		}
		return nil
	})
}

// orNoRoles is roles, or an empty list for nil.
func orNoRoles(roles []string) []string {
	if roles == nil {
		return []string{}
	}
	return roles
}

// Payouts reads a page of payouts by the primary key (job_id, recipient),
// then the claimed events of the page's recipients through the partial
// index escrow_events (job_id, recipient) WHERE kind = 'claimed' (the
// contract pays a recipient of a slot once, so there is at most one
// each): two index walks bounded by the page, whatever the job's size.
func (s escrowStore) Payouts(ctx context.Context, jobID string, recipient, after openjury.Address, limit int) ([]marketplace.JobPayout, error) {
	const op = "bunstore.Payouts"
	if limit <= 0 {
		return []marketplace.JobPayout{}, nil
	}
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	var rows []payoutRow
	q := db.NewSelect().Model(&rows).Where("jp.job_id = ?", jobID)
	if !recipient.IsZero() {
		q = q.Where("jp.recipient = ?", string(recipient))
	}
	if !after.IsZero() {
		q = q.Where("jp.recipient > ?", string(after))
	}
	if err := q.OrderExpr("jp.recipient").Limit(int64(limit)).Scan(ctx); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, translate(op, err)
	}
	out := make([]marketplace.JobPayout, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	recipients := make([]string, len(rows))
	for i, r := range rows {
		recipients[i] = r.Recipient
	}
	var claims []escrowEventRow
	if err := db.NewSelect().Model(&claims).
		Where("ee.job_id = ?", jobID).Where("ee.kind = ?", string(marketplace.EscrowEventClaimed)).
		Where("ee.recipient IN (?)", bun.In(recipients)).
		Scan(ctx); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, translate(op, err)
	}
	claimOf := make(map[string]openjury.ChainRef, len(claims))
	for _, c := range claims {
		chain, block, index := c.ChainID, c.BlockNumber, c.LogIndex
		claimOf[c.Recipient] = openjury.ChainRef{TxHash: openjury.Hash(c.TxHash), ChainID: &chain,
			Contract: openjury.Address(c.ContractAddress), BlockNumber: &block, LogIndex: &index}
	}
	for i, r := range rows {
		var roles []string
		if err := json.Unmarshal([]byte(r.Roles), &roles); err != nil {
			return nil, openjury.Wrap(op, err)
		}
		out[i] = marketplace.JobPayout{
			Payout: anchor.Payout{Recipient: openjury.Address(r.Recipient), Amount: uint64(r.AmountMicro), Roles: roles},
			Claim:  claimOf[r.Recipient],
		}
	}
	return out, nil
}
