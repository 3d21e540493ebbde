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
	"github.com/openjury/openjury/wire"
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
	_, err := decodeBody(r, dst)
	return err
}

// decodeRequest decodes the body like decodeJSON into dst, a wire request
// type, and returns the members the body holds (present and not null), so
// that a handler tells an absent required field ("title: is required")
// from an empty one, which the domain's rules judge.
func decodeRequest(r *http.Request, dst any) (members, error) {
	raw, err := decodeBody(r, dst)
	if err != nil {
		return nil, err
	}
	var m members
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, errBodyNotObject // dst decoded, so raw is one JSON value
	}
	return m, nil
}

// members are the members of a request body's object by name.
type members map[string]json.RawMessage

// has reports whether the body holds name with a value other than null.
// Like encoding/json, it matches a name that differs only in case when
// no member has the exact name.
func (m members) has(name string) bool {
	v, ok := m[name]
	if !ok {
		for k, kv := range m {
			if strings.EqualFold(k, name) {
				v, ok = kv, true
				break
			}
		}
	}
	return ok && string(v) != "null"
}

// require is the Invalid error of the first of names the body lacks
// (absent or null), or nil.
func (m members) require(names ...string) error {
	for _, n := range names {
		if !m.has(n) {
			return required(n)
		}
	}
	return nil
}

// given is v when the body holds name, else nil: the optional value of a
// member whose zero value is meaningful (block 0, log index 0).
func given[T any](m members, name string, v *T) *T {
	if !m.has(name) {
		return nil
	}
	return v
}

// decodeBody reads the body, a required JSON object, decodes it into dst
// and returns it.
func decodeBody(r *http.Request, dst any) ([]byte, error) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, errBodyRequired
	}
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, errBodyTooLarge
		}
		return nil, openjury.E(openjury.Invalid, opDecode, "request body could not be read")
	}
	if hasEscapedNUL(raw) {
		// PostgreSQL text cannot hold NUL; refuse it on every backend alike.
		return nil, errNULText
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(dst); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errBodyRequired
		}
		return nil, decodeError(err, dst)
	}
	// Exactly one value: what follows may only be white space.
	var extra json.RawMessage
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, errTrailingData
	}
	return raw, nil
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
		te.Field = jsonPath(te.Field, dst)
		return openjury.Errorf(openjury.Invalid, opDecode, "%s: must be %s", te.Field, expectedType(te, dst))
	default:
		// Other decoder errors (a string that is not a valid json.Number,
		// for instance) carry no field; report them as malformed input.
		return openjury.Errorf(openjury.Invalid, opDecode, "malformed JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
}

// jsonPath is the JSON path of a type error's field in dst: encoding/json
// starts it with the Go name of an embedded struct (a server-side view
// embedding a wire request type), which is no member of the body.
func jsonPath(field string, dst any) string {
	t := elemStruct(reflect.TypeOf(dst))
	if t == nil {
		return field
	}
	for i := range t.NumField() {
		if f := t.Field(i); f.Anonymous {
			if rest, ok := strings.CutPrefix(field, f.Name+"."); ok {
				return rest
			}
		}
	}
	return field
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
		for _, f := range reflect.VisibleFields(t) {
			if f.Anonymous {
				continue
			}
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
	numberType     = reflect.TypeFor[wire.Number]()
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
