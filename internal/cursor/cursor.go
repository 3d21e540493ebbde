// Package cursor encodes list positions as opaque strings: base64url of a
// small JSON object. Every OpenJury list uses it for its next_cursor.
package cursor

import (
	"encoding/base64"
	"encoding/json"
	"time"

	"github.com/openjury/openjury"
)

// Encode returns the opaque form of v (a struct with json tags).
func Encode(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic("cursor: " + err.Error()) // only plain structs are encoded
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// Decode parses s into v. Errors: Invalid "cursor: not a cursor from this
// list", with op.
func Decode(op, s string, v any) error {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err == nil {
		err = json.Unmarshal(b, v)
	}
	if err != nil {
		return openjury.E(openjury.Invalid, op, Invalid)
	}
	return nil
}

// Invalid is the detail of every bad cursor.
const Invalid = "cursor: not a cursor from this list"

// timeID is the position in a list ordered by (created_at, id).
type timeID struct {
	At int64  `json:"t"`
	ID string `json:"i"`
}

// EncodeTimeID returns the cursor of the position (at, id).
func EncodeTimeID(at time.Time, id string) string {
	return Encode(timeID{At: at.UnixMilli(), ID: id})
}

// DecodeTimeID parses a cursor made by EncodeTimeID; the id must be an
// OpenJury id. Errors: Invalid.
func DecodeTimeID(op, s string) (time.Time, string, error) {
	var c timeID
	if err := Decode(op, s, &c); err != nil {
		return time.Time{}, "", err
	}
	if !openjury.ValidID(c.ID) {
		return time.Time{}, "", openjury.E(openjury.Invalid, op, Invalid)
	}
	return time.UnixMilli(c.At).UTC(), c.ID, nil
}

// After parses an optional cursor made by EncodeTimeID into a position of
// type P, any (created_at, id) cursor type of a domain package; "" gives
// nil. Errors: Invalid.
func After[P ~struct {
	At time.Time
	ID string
}](op, s string) (*P, error) {
	if s == "" {
		return nil, nil
	}
	at, id, err := DecodeTimeID(op, s)
	if err != nil {
		return nil, err
	}
	p := P(struct {
		At time.Time
		ID string
	}{At: at, ID: id})
	return &p, nil
}

// Cut finishes a page read with one row more than limit (limit >= 1): when
// that extra row is there it is dropped and next gives the cursor of the
// page's last row; otherwise rows come back as they are with "".
func Cut[T any](rows []T, limit int, next func(last T) string) ([]T, string) {
	if limit < 1 || len(rows) <= limit {
		return rows, ""
	}
	rows = rows[:limit]
	return rows, next(rows[limit-1])
}
