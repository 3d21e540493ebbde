package bunstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"net"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/openjury/openjury"
)

// Client-safe details of translated errors.
const (
	detailNotFound    = "not found"
	detailDuplicate   = "already exists"
	detailCheck       = "the change conflicts with the current state"
	detailMissingRef  = "a referenced object does not exist"
	detailBusy        = "database busy, retry"
	detailUnavailable = "database unavailable"
	detailBadText     = "text must not contain NUL (\\u0000) characters"
	detailOutOfRange  = "a number is out of range"
)

// translate turns a driver or database/sql error into an *openjury.Error
// with op; see the package documentation for the table. An *openjury.Error
// keeps its kind. nil stays nil.
func translate(op string, err error) error {
	if err == nil {
		return nil
	}
	var oe *openjury.Error
	if errors.As(err, &oe) {
		return openjury.Wrap(op, err)
	}
	kind, detail := classify(err)
	return &openjury.Error{Kind: kind, Op: op, Detail: detail, Err: err}
}

// details maps generic details of translate (detailDuplicate,
// detailNotFound, detailMissingRef) to specific ones.
type details map[string]string

// translateWith translates err like translate and replaces a generic
// detail of its kind (Conflict detailDuplicate, NotFound detailNotFound or
// detailMissingRef) by the one d maps it to, if any.
func translateWith(op string, err error, d details) error {
	err = translate(op, err)
	oe, ok := err.(*openjury.Error)
	if !ok {
		return err
	}
	switch {
	case oe.Kind == openjury.Conflict && oe.Detail == detailDuplicate,
		oe.Kind == openjury.NotFound && (oe.Detail == detailNotFound || oe.Detail == detailMissingRef):
		if specific, ok := d[oe.Detail]; ok {
			oe.Detail = specific
		}
	}
	return err
}

// classify returns the kind and client-safe detail of a database error.
func classify(err error) (openjury.Kind, string) {
	if errors.Is(err, sql.ErrNoRows) {
		return openjury.NotFound, detailNotFound
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return classifyPostgres(pgErr.Code)
	}
	if kind, detail, ok := classifySQLite(err); ok {
		return kind, detail
	}
	var connectErr *pgconn.ConnectError
	var netErr net.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded),
		errors.Is(err, context.Canceled),
		errors.Is(err, driver.ErrBadConn),
		errors.Is(err, sql.ErrConnDone),
		errors.Is(err, syscall.ECONNREFUSED),
		errors.Is(err, syscall.ECONNRESET),
		errors.As(err, &connectErr),
		errors.As(err, &netErr),
		pgconn.Timeout(err):
		return openjury.Unavailable, detailUnavailable
	}
	return openjury.Internal, ""
}

// classifyPostgres maps a PostgreSQL SQLSTATE.
func classifyPostgres(code string) (openjury.Kind, string) {
	switch code {
	case "23505": // unique_violation
		return openjury.Conflict, detailDuplicate
	case "23514": // check_violation
		return openjury.Conflict, detailCheck
	case "23503": // foreign_key_violation
		return openjury.NotFound, detailMissingRef
	case "40001", "40P01", "55P03": // serialization_failure, deadlock_detected, lock_not_available
		return openjury.Unavailable, detailBusy
	case "57014", "57P01", "57P02", "57P03": // query_canceled, admin/crash shutdown, cannot_connect_now
		return openjury.Unavailable, detailUnavailable
	case "22021", "22P05": // character_not_in_repertoire (a NUL in text), untranslatable_character
		return openjury.Invalid, detailBadText
	case "22003": // numeric_value_out_of_range
		return openjury.Invalid, detailOutOfRange
	}
	switch code[:min(2, len(code))] {
	case "08", "53": // connection_exception, insufficient_resources
		return openjury.Unavailable, detailUnavailable
	}
	return openjury.Internal, ""
}

// SQLite result codes (https://sqlite.org/rescode.html).
const (
	sqliteBusy                 = 5
	sqliteLocked               = 6
	sqliteConstraintCheck      = 275
	sqliteConstraintForeignKey = 787
	sqliteConstraintPrimaryKey = 1555
	sqliteConstraintUnique     = 2067
)

// classifySQLite recognises SQLite errors. modernc.org/sqlite's *Error
// reports the extended result code through Code(); other drivers (mattn's
// sqlite3.Error has no such method) are recognised by SQLite's own message
// text, which every driver passes on.
func classifySQLite(err error) (openjury.Kind, string, bool) {
	var coded interface{ Code() int }
	if errors.As(err, &coded) {
		switch code := coded.Code(); {
		case code == sqliteConstraintUnique, code == sqliteConstraintPrimaryKey:
			return openjury.Conflict, detailDuplicate, true
		case code == sqliteConstraintCheck:
			return openjury.Conflict, detailCheck, true
		case code == sqliteConstraintForeignKey:
			return openjury.NotFound, detailMissingRef, true
		case code&0xff == sqliteBusy, code&0xff == sqliteLocked:
			return openjury.Unavailable, detailBusy, true
		}
		return 0, "", false
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "UNIQUE constraint failed"):
		return openjury.Conflict, detailDuplicate, true
	case strings.Contains(msg, "CHECK constraint failed"):
		return openjury.Conflict, detailCheck, true
	case strings.Contains(msg, "FOREIGN KEY constraint failed"):
		return openjury.NotFound, detailMissingRef, true
	case strings.Contains(msg, "database is locked"),
		strings.Contains(msg, "database table is locked"),
		strings.Contains(msg, "SQLITE_BUSY"):
		return openjury.Unavailable, detailBusy, true
	}
	return 0, "", false
}

// affected returns how many rows the statement that gave res and err
// changed; either error is translated for op.
func affected(op string, res sql.Result, err error) (int64, error) {
	if err != nil {
		return 0, translate(op, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, translate(op, err)
	}
	return n, nil
}

// exactlyOne is nil when the statement that gave res and err changed exactly
// one row, the translated error when it failed, and otherwise when it
// changed none or several.
func exactlyOne(op string, res sql.Result, err error, otherwise error) error {
	n, err := affected(op, res, err)
	if err == nil && n != 1 {
		return otherwise
	}
	return err
}
