package wire

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// TimeLayout is the layout of every instant the interface writes: RFC 3339
// in UTC with milliseconds, e.g. 2026-01-02T15:04:05.000Z.
const TimeLayout = "2006-01-02T15:04:05.000Z"

// Time is an instant on the wire. It is written in TimeLayout (in UTC) and
// read from any RFC 3339 text; the embedded time.Time gives it the methods
// of an instant (Before, Format, Unix, ...).
type Time struct{ time.Time }

// NewTime is t as a wire instant.
func NewTime(t time.Time) Time { return Time{t} }

// MarshalJSON writes t as a JSON string in TimeLayout.
func (t Time) MarshalJSON() ([]byte, error) {
	// Formatted on the stack, so that the answer is the one allocation.
	var a [64]byte
	b := append(a[:0], '"')
	b = t.UTC().AppendFormat(b, TimeLayout)
	b = append(b, '"')
	return append(make([]byte, 0, len(b)), b...), nil
}

// UnmarshalJSON reads an RFC 3339 JSON string; null leaves t unchanged.
func (t *Time) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return &json.UnmarshalTypeError{Value: jsonKind(b), Type: timeType}
	}
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return err
	}
	t.Time = v
	return nil
}

// String is t in TimeLayout, as the interface writes it.
func (t Time) String() string { return t.UTC().Format(TimeLayout) }

// Number is a JSON number kept as its exact decimal text ("12.5"), for the
// amounts of a request. Unlike json.Number it refuses a JSON string ("5"),
// reporting a type error that names the field.
type Number string

// FloatNumber is f as a Number, in its shortest exact decimal form.
func FloatNumber(f float64) Number { return Number(strconv.FormatFloat(f, 'f', -1, 64)) }

// MarshalJSON writes n as a JSON number; text that is not one is an error.
func (n Number) MarshalJSON() ([]byte, error) {
	if !isNumberStart(string(n)) || !json.Valid([]byte(n)) || strings.TrimSpace(string(n)) != string(n) {
		return nil, &json.UnsupportedValueError{Str: strconv.Quote(string(n))}
	}
	return []byte(n), nil
}

// UnmarshalJSON accepts a JSON number only; null leaves n unchanged.
func (n *Number) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	if isNumberStart(string(b)) {
		*n = Number(b)
		return nil
	}
	return &json.UnmarshalTypeError{Value: jsonKind(b), Type: numberType}
}

// String is the decimal text of n.
func (n Number) String() string { return string(n) }

// Float64 is n as a float64 (rounded to the nearest).
func (n Number) Float64() (float64, error) { return strconv.ParseFloat(string(n), 64) }

// isNumberStart reports whether s starts as a JSON number does.
func isNumberStart(s string) bool { return s != "" && (s[0] == '-' || (s[0] >= '0' && s[0] <= '9')) }

var (
	numberType = reflect.TypeFor[Number]()
	timeType   = reflect.TypeFor[Time]()
)

// jsonKind names the kind of a raw JSON value for error messages.
func jsonKind(b []byte) string {
	if len(b) == 0 {
		return "value"
	}
	switch b[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	default:
		return "number"
	}
}
