package bunstore

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"time"

	"github.com/uptrace/bun"

	"github.com/openjury/openjury/idempotency"
)

var _ idempotency.Store = (*DB)(nil)

// idempotencyRow is a row of idempotency_keys. The request is named by the
// caller and a digest of its method, path and key, so a long path or key
// never makes an index entry too large.
type idempotencyRow struct {
	bun.BaseModel `bun:"table:idempotency_keys,alias:ik"`

	Caller      string `bun:"caller,pk"`
	Scope       string `bun:"scope,pk"`
	Fingerprint string `bun:"fingerprint,notnull"`
	Owner       string `bun:"owner,notnull"`
	Status      int    `bun:"status,notnull"`
	ContentType string `bun:"content_type,notnull"`
	Body        string `bun:"body,notnull"`
	LeaseUntil  int64  `bun:"lease_until,notnull"`
	ExpiresAt   int64  `bun:"expires_at,notnull"`
}

// idempotencyScope is the digest naming (method, path, key) in a row.
func idempotencyScope(k idempotency.Key) string {
	h := sha256.New()
	for _, part := range []string{k.Method, k.Path, k.Key} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// ClaimIdempotencyKey claims k: it inserts an in-flight row, or takes over
// a row that expired or whose in-flight lease ended, each one conditional
// statement; otherwise it returns the row as it is. Concurrent claims of
// one key: exactly one wins.
func (d *DB) ClaimIdempotencyKey(ctx context.Context, k idempotency.Key, fingerprint, owner string, now, leaseUntil, expiresAt time.Time) (idempotency.Record, bool, error) {
	const op = "bunstore.ClaimIdempotencyKey"
	db, err := d.pool().writer(ctx, op)
	if err != nil {
		return idempotency.Record{}, false, err
	}
	row := &idempotencyRow{
		Caller: string(k.Caller), Scope: idempotencyScope(k), Fingerprint: fingerprint, Owner: owner,
		LeaseUntil: millis(leaseUntil), ExpiresAt: millis(expiresAt),
	}
	res, err := db.NewInsert().Model(row).On("CONFLICT (caller, scope) DO NOTHING").Exec(ctx)
	if n, err := affected(op, res, err); err != nil || n == 1 {
		return idempotency.Record{}, n == 1, err
	}
	res, err = db.NewUpdate().Model(row).
		Column("fingerprint", "owner", "status", "content_type", "body", "lease_until", "expires_at").
		WherePK().
		Where("ik.expires_at <= ? OR (ik.status = 0 AND ik.lease_until <= ?)", millis(now), millis(now)).
		Exec(ctx)
	if n, err := affected(op, res, err); err != nil || n == 1 {
		return idempotency.Record{}, n == 1, err
	}
	var cur idempotencyRow
	err = db.NewSelect().Model(&cur).
		Where("ik.caller = ?", row.Caller).Where("ik.scope = ?", row.Scope).Scan(ctx)
	if err != nil {
		// Deleted by a cleanup just now: treat it as still in flight.
		if errors.Is(err, sql.ErrNoRows) {
			return idempotency.Record{Fingerprint: fingerprint}, false, nil
		}
		return idempotency.Record{}, false, translate(op, err)
	}
	return idempotency.Record{
		Fingerprint: cur.Fingerprint, Status: cur.Status, ContentType: cur.ContentType, Body: []byte(cur.Body),
	}, false, nil
}

// CompleteIdempotencyKey stores the response on the row owner still holds.
func (d *DB) CompleteIdempotencyKey(ctx context.Context, k idempotency.Key, owner string, resp idempotency.Record) error {
	const op = "bunstore.CompleteIdempotencyKey"
	db, err := d.pool().writer(ctx, op)
	if err != nil {
		return err
	}
	_, err = db.NewUpdate().Model((*idempotencyRow)(nil)).
		Set("status = ?", resp.Status).
		Set("content_type = ?", resp.ContentType).
		Set("body = ?", string(resp.Body)).
		Where("caller = ?", string(k.Caller)).Where("scope = ?", idempotencyScope(k)).Where("owner = ?", owner).
		Exec(ctx)
	return translate(op, err)
}

// ReleaseIdempotencyKey deletes the in-flight row owner holds.
func (d *DB) ReleaseIdempotencyKey(ctx context.Context, k idempotency.Key, owner string) error {
	const op = "bunstore.ReleaseIdempotencyKey"
	db, err := d.pool().writer(ctx, op)
	if err != nil {
		return err
	}
	_, err = db.NewDelete().Model((*idempotencyRow)(nil)).
		Where("caller = ?", string(k.Caller)).Where("scope = ?", idempotencyScope(k)).Where("owner = ?", owner).
		Where("status = 0").
		Exec(ctx)
	return translate(op, err)
}

// DeleteExpiredIdempotencyKeys deletes the rows expired at now.
func (d *DB) DeleteExpiredIdempotencyKeys(ctx context.Context, now time.Time) (int64, error) {
	const op = "bunstore.DeleteExpiredIdempotencyKeys"
	db, err := d.pool().writer(ctx, op)
	if err != nil {
		return 0, err
	}
	res, err := db.NewDelete().Model((*idempotencyRow)(nil)).Where("expires_at <= ?", millis(now)).Exec(ctx)
	return affected(op, res, err)
}
