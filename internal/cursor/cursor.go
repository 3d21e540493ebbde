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
