package transport

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"github.com/openjury/openjury"
)

const opDecode = "transport.decode"

var (
	errBodyTooLarge  = openjury.E(openjury.TooLarge, opDecode, "request body too large")
	errBodyRequired  = openjury.E(openjury.Invalid, opDecode, "request body is required")
	errBodyNotObject = openjury.E(openjury.Invalid, opDecode, "request body must be a JSON object")
	errTrailingData  = openjury.E(openjury.Invalid, opDecode, "request body must hold a single JSON object (unexpected data after it)")
)

// decodeJSON decodes the request body, a required JSON object, into dst (a
// pointer to a request DTO). Unknown fields are ignored; numbers inside
// free-form objects (review, metadata) keep their exact text. Errors are
// *openjury.Error: TooLarge over the body limit; Invalid for an empty body,
// malformed JSON (with the byte offset), a value of the wrong type (naming
// the field) or data after the object.
func decodeJSON(r *http.Request, dst any) error {
	if r.Body == nil || r.Body == http.NoBody {
		return errBodyRequired
	}
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return errBodyTooLarge
		}
		return openjury.E(openjury.Invalid, opDecode, "request body could not be read")
	}
	if hasEscapedNUL(raw) {
		// PostgreSQL text cannot hold NUL; refuse it on every backend alike.
		return errNULText
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(dst); err != nil {
		if errors.Is(err, io.EOF) {
			return errBodyRequired
		}
		return decodeError(err, dst)
	}
	// Exactly one value: what follows may only be white space.
	var extra json.RawMessage
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return errTrailingData
	}
	return nil
}

// errNULText refuses JSON strings holding a NUL character.
var errNULText = openjury.E(openjury.Invalid, opDecode, "strings must not contain NUL (\\u0000) characters")

// hasEscapedNUL reports whether a JSON text holds the escape \u0000 (a raw
// NUL byte is not valid JSON and fails decoding anyway). Backslashes occur
// in JSON only inside strings, each starting an escape, so a scan that
// skips escaped characters finds exactly the escaped NULs.
func hasEscapedNUL(raw []byte) bool {
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\\' {
			continue
		}
		if i+5 < len(raw) && (raw[i+1] == 'u' || raw[i+1] == 'U') && string(raw[i+2:i+6]) == "0000" {
			return true
		}
		i++ // skip the escaped character
	}
	return false
}

// decodeError turns an encoding/json error (of a body already read whole)
// into an Invalid *openjury.Error with a client-safe detail.
func decodeError(err error, dst any) error {
	var (
		se *json.SyntaxError
		te *json.UnmarshalTypeError
	)
	switch {
	case errors.As(err, &se):
		return openjury.Errorf(openjury.Invalid, opDecode, "malformed JSON at byte %d: %s", se.Offset, se.Error())
	case errors.Is(err, io.ErrUnexpectedEOF):
		return openjury.E(openjury.Invalid, opDecode, "malformed JSON: unexpected end of input")
	case errors.As(err, &te):
		if te.Field == "" {
			return errBodyNotObject
		}
		return openjury.Errorf(openjury.Invalid, opDecode, "%s: must be %s", te.Field, expectedType(te, dst))
	default:
		// Other decoder errors (a string that is not a valid json.Number,
		// for instance) carry no field; report them as malformed input.
		return openjury.Errorf(openjury.Invalid, opDecode, "malformed JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
}

// expectedType names the JSON shape the field of a type error expects: that
// of the field's declared type in dst when it can be found, else that of
// the type the decoder names.
func expectedType(te *json.UnmarshalTypeError, dst any) string {
	want := te.Type
	if t := fieldType(reflect.TypeOf(dst), te.Field); t != nil {
		want = t
	}
	return describeType(want)
}

// fieldType finds the declared type of a dotted JSON field path
// ("evidence.quote") inside t, looking through pointers, slices and arrays.
// It returns nil when the path cannot be followed.
func fieldType(t reflect.Type, path string) reflect.Type {
	for _, name := range strings.Split(path, ".") {
		t = elemStruct(t)
		if t == nil {
			return nil
		}
		found := false
		for i := range t.NumField() {
			f := t.Field(i)
			tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if tag == name || (tag == "" && strings.EqualFold(f.Name, name)) {
				t, found = f.Type, true
				break
			}
		}
		if !found {
			return nil
		}
	}
	return t
}

// elemStruct looks through pointers, slices and arrays for a struct type.
func elemStruct(t reflect.Type) reflect.Type {
	for t != nil {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			t = t.Elem()
		case reflect.Struct:
			return t
		default:
			return nil
		}
	}
	return nil
}

var (
	jsonNumberType = reflect.TypeFor[json.Number]()
	numberType     = reflect.TypeFor[number]()
)

// describeType names the JSON shape a Go type expects, e.g. "a string",
// "an integer", "an array of strings".
func describeType(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == jsonNumberType || t == numberType {
		return "a number"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		if e := describeType(t.Elem()); strings.HasPrefix(e, "a ") || strings.HasPrefix(e, "an ") {
			_, noun, _ := strings.Cut(e, " ")
			return "an array of " + plural(noun)
		}
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	default:
		return "a JSON value"
	}
}

func plural(noun string) string {
	if strings.HasSuffix(noun, "s") {
		return noun
	}
	return noun + "s"
}

// number is a JSON number field kept as its exact decimal text. Unlike
// json.Number it refuses JSON strings ("5"), reporting a type error that
// names the field.
type number string

// UnmarshalJSON accepts a JSON number only.
func (n *number) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && (b[0] == '-' || (b[0] >= '0' && b[0] <= '9')) {
		*n = number(b)
		return nil
	}
	return &json.UnmarshalTypeError{Value: jsonKind(b), Type: numberType}
}

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
	default:
		return "value"
	}
}

// required returns an Invalid error naming a missing required field.
func required(field string) error {
	return openjury.Errorf(openjury.Invalid, opDecode, "%s: is required", field)
}

// parseAddress parses an address given in a request, naming field in
// errors. It is never trimmed: a leading or trailing space is 400.
func parseAddress(field, s string) (openjury.Address, error) {
	return openjury.ParseAddress(field, s)
}

// queryRequired reads a required query parameter; absent or blank is an
// Invalid error naming it. The value is returned as sent (not trimmed:
// an address with a space around it must be refused, not repaired).
func queryRequired(r *http.Request, name string) (string, error) {
	v := r.URL.Query().Get(name)
	if strings.TrimSpace(v) == "" {
		return "", required(name)
	}
	return v, nil
}

// decodeAt decodes one JSON value found at path inside the request body
// (e.g. "evidence[2]") into dst, a pointer to a DTO struct. A JSON null or
// a value that is not an object is an Invalid error naming path; a member
// of the wrong type is named by its full path, e.g.
// "evidence[2].confidence: must be a number".
func decodeAt(path string, raw json.RawMessage, dst any) error {
	if t := strings.TrimSpace(string(raw)); t == "" || t == "null" || t[0] != '{' {
		return openjury.Errorf(openjury.Invalid, opDecode, "%s: must be an object", path)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	err := dec.Decode(dst)
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return openjury.Errorf(openjury.Invalid, opDecode, "%s.%s: must be %s", path, te.Field, expectedType(te, dst))
	}
	// raw is a well-formed part of an already decoded body.
	return openjury.Errorf(openjury.Invalid, opDecode, "%s: must be an object", path)
}

// queryInt reads an optional integer query parameter. It returns def when
// the parameter is absent and an Invalid error naming it when it is not an
// integer in [min, max].
func queryInt(r *http.Request, name string, def, minV, maxV int) (int, error) {
	q := r.URL.Query()
	if !q.Has(name) {
		return def, nil
	}
	v, err := strconv.Atoi(strings.TrimSpace(q.Get(name)))
	if err != nil {
		return 0, openjury.Errorf(openjury.Invalid, opDecode, "%s: must be an integer", name)
	}
	if v < minV || v > maxV {
		return 0, openjury.Errorf(openjury.Invalid, opDecode, "%s: must be between %d and %d", name, minV, maxV)
	}
	return v, nil
}

// queryBool reads an optional boolean query parameter: true or 1, false or
// 0 (any case); absent is false. Errors: Invalid naming it otherwise.
func queryBool(r *http.Request, name string) (bool, error) {
	q := r.URL.Query()
	if !q.Has(name) {
		return false, nil
	}
	switch strings.ToLower(strings.TrimSpace(q.Get(name))) {
	case "true", "1":
		return true, nil
	case "false", "0":
		return false, nil
	}
	return false, openjury.Errorf(openjury.Invalid, opDecode, "%s: must be true or false", name)
}
