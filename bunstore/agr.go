package bunstore

import (
	"context"
	"database/sql"
	"errors"

	"github.com/uptrace/bun"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/agr"
)

// agrBalanceRow is a row of agr_balances.
type agrBalanceRow struct {
	bun.BaseModel `bun:"table:agr_balances,alias:b"`

	Address string `bun:"address,pk"`
	Balance int64  `bun:"balance,notnull"`
	Earned  int64  `bun:"earned,notnull"`
	Spent   int64  `bun:"spent,notnull"`
}

// agrLedgerRow is a row of agr_ledger.
type agrLedgerRow struct {
	bun.BaseModel `bun:"table:agr_ledger,alias:l"`

	ID        string `bun:"id,pk"`
	Address   string `bun:"address,notnull"`
	Delta     int64  `bun:"delta,notnull"`
	Reason    string `bun:"reason,notnull"`
	JobID     string `bun:"job_id,nullzero"`
	CreatedAt int64  `bun:"created_at,notnull"`
}

func (r *agrLedgerRow) entry() agr.Entry {
	return agr.Entry{
		ID:        r.ID,
		Address:   openjury.Address(r.Address),
		Delta:     r.Delta,
		Reason:    agr.Reason(r.Reason),
		JobID:     r.JobID,
		CreatedAt: fromMillis(r.CreatedAt),
	}
}

// Details of the AGR errors.
const (
	detailInsufficientAGR = "insufficient AGR balance"
	detailWinMinted       = "AGR win already minted for this job"
)

// agrStore implements agr.Store on the pools or on one transaction.
type agrStore struct{ e exec }

// Status returns the account of addr, zeros (with Address set) when it has
// no balance row. It writes nothing.
func (s agrStore) Status(ctx context.Context, addr openjury.Address) (agr.Status, error) {
	const op = "bunstore.AGRStatus"
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return agr.Status{}, err
	}
	return getAGRStatus(ctx, op, s.e.d, db, addr)
}

// getAGRStatus reads the AGR balance row of addr through db (a pool of d
// or a transaction) with its hot statement.
func getAGRStatus(ctx context.Context, op string, d *DB, db bun.IDB, addr openjury.Address) (agr.Status, error) {
	var r agrBalanceRow
	err := d.scanHot(ctx, db, d.hot.web.agrOf, []any{&r}, string(addr))
	if errors.Is(err, sql.ErrNoRows) {
		return agr.Status{Address: addr}, nil
	}
	if err != nil {
		return agr.Status{}, translate(op, err)
	}
	return agr.Status{Address: addr, Balance: r.Balance, Earned: r.Earned, Spent: r.Spent}, nil
}

// Apply appends e to the ledger and moves the balance, in one transaction
// (a savepoint inside the caller's), and returns the account after.
//
// A credit inserts the ledger row first (a second win of a job stops
// there), then adds to the balance row, creating it. A debit first runs
// the conditional UPDATE ... WHERE balance >= amount, which the database
// serialises per address, so concurrent spends never overdraw and the
// losers write nothing; then it inserts the ledger row. An empty e.ID gets
// a new id. Errors: PaymentRequired "insufficient AGR balance"; Conflict
// "AGR win already minted for this job"; Conflict for a zero delta or an
// unknown reason (the table's checks). Nothing is written on error.
func (s agrStore) Apply(ctx context.Context, e agr.Entry) (agr.Status, error) {
	const op = "bunstore.AGRApply"
	if e.ID == "" {
		e.ID = openjury.NewID()
	}
	row := &agrLedgerRow{
		ID:        e.ID,
		Address:   string(e.Address),
		Delta:     e.Delta,
		Reason:    string(e.Reason),
		JobID:     e.JobID,
		CreatedAt: millis(e.CreatedAt),
	}
	var after agr.Status
	err := s.e.inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		if e.Delta < 0 {
			if err := debitAGR(ctx, op, db, e.Address, -e.Delta); err != nil {
				return err
			}
			if err := insertLedger(ctx, op, db, row); err != nil {
				return err
			}
		} else {
			if err := insertLedger(ctx, op, db, row); err != nil {
				return err
			}
			if err := creditAGR(ctx, op, db, e.Address, e.Delta); err != nil {
				return err
			}
		}
		var err error
		after, err = getAGRStatus(ctx, op, s.e.d, db, e.Address)
		return err
	})
	if err != nil {
		return agr.Status{}, err
	}
	return after, nil
}

// insertLedger inserts a ledger row. A win of a job that has one is not
// inserted (ON CONFLICT DO NOTHING on the partial unique index, which
// raises no error) and reported as Conflict.
func insertLedger(ctx context.Context, op string, db bun.IDB, row *agrLedgerRow) error {
	q := db.NewInsert().Model(row)
	if row.Reason == string(agr.ReasonWin) {
		q = q.On("CONFLICT (job_id) WHERE reason = 'win' DO NOTHING")
	}
	res, err := q.Exec(ctx)
	if err := exactlyOne(op, res, err, openjury.E(openjury.Conflict, op, detailWinMinted)); err != nil {
		return err
	}
	return nil
}

// creditAGR adds amount to the balance and earned of addr, creating the
// balance row when missing.
func creditAGR(ctx context.Context, op string, db bun.IDB, addr openjury.Address, amount int64) error {
	_, err := db.NewInsert().Model(&agrBalanceRow{Address: string(addr), Balance: amount, Earned: amount}).
		On("CONFLICT (address) DO UPDATE").
		Set("balance = b.balance + EXCLUDED.balance").
		Set("earned = b.earned + EXCLUDED.earned").
		Exec(ctx)
	return translate(op, err)
}

// debitAGR takes amount from the balance of addr and adds it to spent when
// the balance covers it. Errors: PaymentRequired.
func debitAGR(ctx context.Context, op string, db bun.IDB, addr openjury.Address, amount int64) error {
	res, err := db.NewUpdate().Model((*agrBalanceRow)(nil)).
		Set("balance = balance - ?", amount).
		Set("spent = spent + ?", amount).
		Where("address = ?", string(addr)).
		Where("balance >= ?", amount).
		Exec(ctx)
	if err := exactlyOne(op, res, err, openjury.E(openjury.PaymentRequired, op, detailInsufficientAGR)); err != nil {
		return err
	}
	return nil
}

// Ledger returns up to limit entries of addr, newest first (created_at,
// id; both descending), after the cursor when it is not nil.
func (s agrStore) Ledger(ctx context.Context, addr openjury.Address, limit int, after *agr.Cursor) ([]agr.Entry, error) {
	const op = "bunstore.AGRLedger"
	if limit <= 0 {
		return []agr.Entry{}, nil
	}
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	at, id := int64(noCursorAt), ""
	if after != nil {
		at, id = millis(after.At), after.ID
	}
	var rows []agrLedgerRow
	if err := s.e.d.scanHotRows(ctx, db, s.e.d.hot.web.ledger, &rows, string(addr), at, id, limit); err != nil {
		return nil, translate(op, err)
	}
	out := make([]agr.Entry, len(rows))
	for i := range rows {
		out[i] = rows[i].entry()
	}
	return out, nil
}
