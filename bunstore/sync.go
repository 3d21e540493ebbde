package bunstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/stake"
)

var _ stake.SyncStore = syncStore{}

// leaseRow is a row of sync_leases.
type leaseRow struct {
	bun.BaseModel `bun:"table:sync_leases,alias:sl"`

	Name      string `bun:"name,pk"`
	Owner     string `bun:"owner,notnull"`
	ExpiresAt int64  `bun:"expires_at,notnull"`
}

// cursorRow is a row of sync_cursors.
type cursorRow struct {
	bun.BaseModel `bun:"table:sync_cursors,alias:sc"`

	Name      string `bun:"name,pk"`
	NextBlock int64  `bun:"next_block,notnull"`
	UpdatedAt int64  `bun:"updated_at,notnull"`
}

// Sync returns the stake-vault sync's lease, cursor and batch store.
func (d *DB) Sync() stake.SyncStore { return syncStore{d.pool()} }

// syncStore implements stake.SyncStore on the pools.
type syncStore struct{ e exec }

// AcquireLease inserts the lease when there is none, or takes it over by
// one conditional UPDATE when owner holds it already or it has expired at
// now. Each statement is atomic on its own, so of several replicas racing
// for a free or expired lease exactly one wins.
func (s syncStore) AcquireLease(ctx context.Context, name, owner string, now, until time.Time) (bool, error) {
	const op = "bunstore.AcquireLease"
	db, err := s.e.writer(ctx, op)
	if err != nil {
		return false, err
	}
	res, err := db.NewInsert().Model(&leaseRow{Name: name, Owner: owner, ExpiresAt: millis(until)}).
		On("CONFLICT DO NOTHING").Exec(ctx)
	if n, err := affected(op, res, err); err != nil || n == 1 {
		return n == 1, err
	}
	res, err = db.NewUpdate().Model((*leaseRow)(nil)).
		Set("owner = ?", owner).
		Set("expires_at = ?", millis(until)).
		Where("name = ?", name).
		Where("(owner = ? OR expires_at <= ?)", owner, millis(now)).
		Exec(ctx)
	n, err := affected(op, res, err)
	return n == 1, err
}

// ReleaseLease deletes owner's lease.
func (s syncStore) ReleaseLease(ctx context.Context, name, owner string) error {
	const op = "bunstore.ReleaseLease"
	db, err := s.e.writer(ctx, op)
	if err != nil {
		return err
	}
	_, err = db.NewDelete().Model((*leaseRow)(nil)).Where("name = ?", name).Where("owner = ?", owner).Exec(ctx)
	return translate(op, err)
}

// SyncCursor reads the named cursor.
func (s syncStore) SyncCursor(ctx context.Context, name string) (int64, bool, error) {
	const op = "bunstore.SyncCursor"
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return 0, false, err
	}
	var rows []cursorRow
	if err := db.NewSelect().Model(&rows).Where("sc.name = ?", name).Limit(1).Scan(ctx); err != nil {
		return 0, false, translate(op, err)
	}
	if len(rows) == 0 {
		return 0, false, nil
	}
	return rows[0].NextBlock, true, nil
}

// ApplySync writes one scan in one transaction. The lease and the cursor
// are checked first by conditional UPDATEs (which also lock both rows on
// PostgreSQL until the commit, so two writers of one sync serialise and
// the second finds the cursor moved); then each stake is written unless
// the stored one is from the same or a later event of the chain, and each
// slash is inserted unless its onchain reference is stored already.
func (s syncStore) ApplySync(ctx context.Context, b stake.SyncBatch) error {
	const op = "bunstore.ApplySync"
	return s.e.inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		if err := advanceSync(ctx, op, db, b.Lease, b.Owner, b.Now, b.Cursor, b.From, b.Next); err != nil {
			return err
		}
		stakes := stakeStore{s.e.d.txExec(db)}
		for _, st := range b.Stakes {
			old, err := getStake(ctx, op, s.e.d, db, st.Address)
			if err != nil {
				return err
			}
			if !newerRef(st.Ref, old.Ref) {
				continue
			}
			if err := stakes.PutStake(ctx, st); err != nil {
				return err
			}
		}
		var slashed []*events.Event
		for _, e := range b.Slashes {
			row := &slashRow{
				ID: e.ID, AgentAddress: string(e.Agent), AmountMicro: int64(e.Amount),
				RecipientAddress: string(e.Recipient), JobID: e.JobID,
				Ref: toChainRefCols(e.Ref), CreatedAt: millis(e.CreatedAt),
			}
			if row.ID == "" {
				row.ID = openjury.NewID()
			}
			res, err := db.NewInsert().Model(row).On("CONFLICT DO NOTHING").Exec(ctx)
			if n, err := affected(op, res, err); err != nil {
				return err
			} else if n == 1 {
				e.ID = row.ID
				slashed = append(slashed, stake.SlashedEvent(e))
			}
		}
		return eventStore{s.e.d.txExec(db)}.Append(ctx, slashed...)
	})
}

// newerRef reports whether an event at ref comes after the stored one:
// always when the stored stake has no position on ref's chain.
func newerRef(ref, stored openjury.ChainRef) bool {
	if stored.ChainID == nil || ref.ChainID == nil || *stored.ChainID != *ref.ChainID ||
		stored.BlockNumber == nil || ref.BlockNumber == nil {
		return true
	}
	if *ref.BlockNumber != *stored.BlockNumber {
		return *ref.BlockNumber > *stored.BlockNumber
	}
	si, ri := int64(-1), int64(-1)
	if stored.LogIndex != nil {
		si = *stored.LogIndex
	}
	if ref.LogIndex != nil {
		ri = *ref.LogIndex
	}
	return ri > si
}
