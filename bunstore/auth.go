package bunstore

import (
	"context"
	"database/sql"
	"time"

	"github.com/uptrace/bun"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/auth"
)

// challengeRow is a row of auth_challenges.
type challengeRow struct {
	bun.BaseModel `bun:"table:auth_challenges,alias:c"`

	Nonce     string `bun:"nonce,pk"`
	Address   string `bun:"address,notnull"`
	Message   string `bun:"message,notnull"`
	IssuedAt  int64  `bun:"issued_at,notnull"`
	ExpiresAt int64  `bun:"expires_at,notnull"`
}

func newChallengeRow(c auth.Challenge) *challengeRow {
	return &challengeRow{
		Nonce:     c.Nonce,
		Address:   string(c.Address),
		Message:   c.Message,
		IssuedAt:  millis(c.IssuedAt),
		ExpiresAt: millis(c.ExpiresAt),
	}
}

func (r challengeRow) challenge() auth.Challenge {
	return auth.Challenge{
		Nonce:     r.Nonce,
		Address:   openjury.Address(r.Address),
		Message:   r.Message,
		IssuedAt:  fromMillis(r.IssuedAt),
		ExpiresAt: fromMillis(r.ExpiresAt),
	}
}

// tokenRow is a row of auth_tokens.
type tokenRow struct {
	bun.BaseModel `bun:"table:auth_tokens,alias:t"`

	Hash      string `bun:"hash,pk"`
	Address   string `bun:"address,notnull"`
	CreatedAt int64  `bun:"created_at,notnull"`
	ExpiresAt int64  `bun:"expires_at,notnull"`
}

// PutChallenge stores a new challenge; other challenges of the address stay.
// Errors: Conflict for a duplicate nonce.
func (d *DB) PutChallenge(ctx context.Context, c auth.Challenge) error {
	const op = "bunstore.PutChallenge"
	db, err := d.pool().writer(ctx, op)
	if err != nil {
		return err
	}
	_, err = db.NewInsert().Model(newChallengeRow(c)).Exec(ctx)
	return translate(op, err)
}

// IssueChallenge stores c unless c.Address has maxFresh or more challenges
// expiring after freshUntil; then it returns the one of them that expires
// last (ties: greatest nonce) and stores nothing. On PostgreSQL a
// transaction-scoped advisory lock on the address serialises the check and
// the insert across replicas; SQLite serialises write transactions anyway.
// Errors: Conflict for a duplicate nonce.
func (d *DB) IssueChallenge(ctx context.Context, c auth.Challenge, freshUntil time.Time, maxFresh int) (auth.Challenge, error) {
	const op = "bunstore.IssueChallenge"
	var out auth.Challenge
	err := d.pool().inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		out = c // a run again (DB.runTx) may store c after all
		if d.dialect == DialectPostgres {
			if _, err := db.ExecContext(ctx, "SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", "auth_challenges:"+string(c.Address)); err != nil {
				return translate(op, err)
			}
		}
		var fresh []challengeRow
		err := db.NewSelect().Model(&fresh).
			Where("c.address = ?", string(c.Address)).
			Where("c.expires_at > ?", millis(freshUntil)).
			OrderExpr("c.expires_at DESC").OrderExpr("c.nonce DESC").
			Limit(int64(maxFresh)).Scan(ctx)
		if err != nil {
			return translate(op, err)
		}
		if len(fresh) >= maxFresh {
			out = fresh[0].challenge()
			return nil
		}
		_, err = db.NewInsert().Model(newChallengeRow(c)).Exec(ctx)
		return translate(op, err)
	})
	if err != nil {
		return auth.Challenge{}, err
	}
	return out, nil
}

// LiveChallenges returns up to limit challenges of addr unexpired at now,
// newest first (issued_at, then nonce, descending); a non-empty nonce
// selects that one challenge.
func (d *DB) LiveChallenges(ctx context.Context, addr openjury.Address, nonce string, now time.Time, limit int) ([]auth.Challenge, error) {
	const op = "bunstore.LiveChallenges"
	if limit <= 0 {
		return []auth.Challenge{}, nil
	}
	db, err := d.pool().reader(ctx, op)
	if err != nil {
		return nil, err
	}
	var rows []challengeRow
	q := db.NewSelect().Model(&rows).
		Where("c.address = ?", string(addr)).
		Where("c.expires_at > ?", millis(now))
	if nonce != "" {
		q = q.Where("c.nonce = ?", nonce)
	}
	if err := q.OrderExpr("c.issued_at DESC").OrderExpr("c.nonce DESC").Limit(int64(limit)).Scan(ctx); err != nil {
		return nil, translate(op, err)
	}
	out := make([]auth.Challenge, len(rows))
	for i, r := range rows {
		out[i] = r.challenge()
	}
	return out, nil
}

// RedeemChallenge deletes the live challenge (addr, nonce) and stores tok
// in one transaction. Only the caller whose DELETE removed the row stores
// its token, so concurrent verifies of one challenge yield one token.
// Errors: Unauthenticated when the challenge is gone or expired;
// Conflict for a duplicate token digest (nothing is written then).
func (d *DB) RedeemChallenge(ctx context.Context, addr openjury.Address, nonce string, now time.Time, tok auth.Token) error {
	const op = "bunstore.RedeemChallenge"
	return d.pool().inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		res, err := db.NewDelete().Model((*challengeRow)(nil)).
			Where("nonce = ?", nonce).
			Where("address = ?", string(addr)).
			Where("expires_at > ?", millis(now)).
			Exec(ctx)
		if err := exactlyOne(op, res, err, openjury.E(openjury.Unauthenticated, op, "challenge already used or expired")); err != nil {
			return err
		}
		row := &tokenRow{
			Hash:      tok.Hash,
			Address:   string(tok.Address),
			CreatedAt: millis(tok.CreatedAt),
			ExpiresAt: millis(tok.ExpiresAt),
		}
		if _, err := db.NewInsert().Model(row).Exec(ctx); err != nil {
			return translate(op, err)
		}
		return nil
	})
}

// TokenOwner returns the address of the token with this digest when it is
// unexpired at now. Errors: Unauthenticated.
func (d *DB) TokenOwner(ctx context.Context, hash string, now time.Time) (openjury.Address, error) {
	const op = "bunstore.TokenOwner"
	db, err := d.pool().reader(ctx, op)
	if err != nil {
		return "", err
	}
	var addr string
	if d.tokens != nil {
		// A batched read returns the token expired or not: the same rule
		// as tokenOwner's SQL refuses it here.
		var tok tokenRow
		var ok bool
		if tok, ok, err = d.tokens.get(ctx, hash); err == nil && (!ok || tok.ExpiresAt <= millis(now)) {
			err = sql.ErrNoRows
		}
		addr = tok.Address
	} else {
		err = d.scanHot(ctx, db, d.hot.tokenOwner, []any{&addr}, hash, millis(now))
	}
	if err != nil {
		err = translate(op, err)
		if openjury.IsKind(err, openjury.NotFound) {
			return "", openjury.E(openjury.Unauthenticated, op, "invalid or expired token")
		}
		return "", err
	}
	return openjury.Address(addr), nil
}

// tokensByHash reads the tokens of hashes (the hot statement tokensByHash)
// for DB.tokens: their address and expiry, expired or not.
func (d *DB) tokensByHash(ctx context.Context, hashes []string) (map[string]tokenRow, error) {
	out := make(map[string]tokenRow, len(hashes))
	err := d.queryHot(ctx, d.r, d.hot.tokensByHash, []any{hashes}, func(r *sql.Rows) error {
		for r.Next() {
			var t tokenRow
			if err := r.Scan(&t.Hash, &t.Address, &t.ExpiresAt); err != nil {
				return err
			}
			out[t.Hash] = t
		}
		return r.Err()
	})
	return out, err
}

// RevokeToken deletes the token with this digest; an unknown digest is not
// an error.
func (d *DB) RevokeToken(ctx context.Context, hash string) error {
	const op = "bunstore.RevokeToken"
	db, err := d.pool().writer(ctx, op)
	if err != nil {
		return err
	}
	_, err = db.NewDelete().Model((*tokenRow)(nil)).Where("hash = ?", hash).Exec(ctx)
	return translate(op, err)
}

// DeleteExpired deletes, in one transaction, the challenges and tokens that
// are expired at now (expires_at <= now) and returns how many rows went.
func (d *DB) DeleteExpired(ctx context.Context, now time.Time) (int64, error) {
	const op = "bunstore.DeleteExpired"
	var total int64
	err := d.pool().inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		total = 0
		for _, model := range []any{(*challengeRow)(nil), (*tokenRow)(nil)} {
			res, err := db.NewDelete().Model(model).Where("expires_at <= ?", millis(now)).Exec(ctx)
			if err != nil {
				return translate(op, err)
			}
			n, err := res.RowsAffected()
			if err != nil {
				return translate(op, err)
			}
			total += n
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return total, nil
}
