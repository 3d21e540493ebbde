// Package valid wraps go-playground/validator for OpenJury's domain inputs:
// field names taken from the `name` struct tag, rules from the `validate`
// tag or, for fields whose rules hold a limit, from Rules built in Go out
// of the limit constants (so a limit is written once, as a constant), and
// failures turned into Invalid *openjury.Error values whose detail names
// the field and the rule it broke.
package valid

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode"

	"github.com/go-playground/validator/v10"

	"github.com/openjury/openjury"
)

// Rules are the validator rules of some fields of one struct type, by Go
// field name, in validator's tag syntax ("notblank,max=140"). They replace
// the fields' validate tags; build the numbers from constants with Max and
// Min.
type Rules map[string]string

// TypeRules are the Rules of one struct type; For makes them.
type TypeRules struct {
	typ   reflect.Type
	rules Rules
}

// For returns the rules of struct type T. It panics when a rule names a
// field T does not have or a field that also has a validate tag (one
// place per rule): programming errors, caught when the package loads.
func For[T any](rules Rules) TypeRules {
	t := reflect.TypeFor[T]()
	if t.Kind() != reflect.Struct {
		panic(fmt.Sprintf("valid.For: %s is not a struct type", t))
	}
	for name := range rules {
		f, ok := t.FieldByName(name)
		if !ok {
			panic(fmt.Sprintf("valid.For: %s has no field %s", t, name))
		}
		if tag, ok := f.Tag.Lookup("validate"); ok {
			panic(fmt.Sprintf("valid.For: %s.%s has a validate tag %q and rules: keep one", t, name, tag))
		}
	}
	return TypeRules{typ: t, rules: rules}
}

// number is what Max and Min format.
type number interface {
	~int | ~int64 | ~float64
}

// Max returns the rule "max=n": at most n characters for a string, n
// items for a slice or map, n for a number.
func Max[N number](n N) string { return "max=" + formatNumber(n) }

// Min returns the rule "min=n", the lower bound like Max.
func Min[N number](n N) string { return "min=" + formatNumber(n) }

func formatNumber[N number](n N) string {
	return strconv.FormatFloat(float64(n), 'f', -1, 64)
}

// Validator validates structs by their validate tags and the Rules given
// for their types. It is safe for concurrent use.
type Validator struct {
	v *validator.Validate
}

// New returns a Validator with the rules of types (a nested struct type,
// such as a slice element, needs its own TypeRules).
func New(types ...TypeRules) *Validator {
	vv := validator.New(validator.WithRequiredStructEnabled())
	vv.RegisterTagNameFunc(func(f reflect.StructField) string {
		if n := f.Tag.Get("name"); n != "" {
			return n
		}
		return f.Name
	})
	_ = vv.RegisterValidation("notblank", func(fl validator.FieldLevel) bool {
		return strings.TrimFunc(fl.Field().String(), unicode.IsSpace) != ""
	})
	for _, t := range types {
		vv.RegisterStructValidationMapRules(t.rules, reflect.New(t.typ).Elem().Interface())
	}
	return &Validator{v: vv}
}

// tagsOnly validates by the validate tags alone (Struct).
var tagsOnly = New()

// Struct validates s by its validate tags; see Validator.Struct.
func Struct(op string, s any) error { return tagsOnly.Struct(op, s) }

// Struct validates s and returns an Invalid error naming the first failing
// field, or nil. Before its rules, every string in s (fields, nested
// structs, slices, maps and their keys, free-form values such as JSON
// metadata) is checked for NUL characters: one is refused as
// "field: must not contain NUL characters" (docs/rules.md#conventions:
// NUL anywhere in input is 400, whatever the entry point).
func (x *Validator) Struct(op string, s any) error {
	if path, ok := findNUL(reflect.ValueOf(s), ""); ok {
		return openjury.E(openjury.Invalid, op, nulMessage(path))
	}
	err := x.v.Struct(s)
	if err == nil {
		return nil
	}
	var ves validator.ValidationErrors
	if !errors.As(err, &ves) || len(ves) == 0 {
		return openjury.Wrap(op, err)
	}
	return openjury.E(openjury.Invalid, op, Message(ves[0]))
}

// Message renders one validation failure as "field: what is wrong".
func Message(fe validator.FieldError) string {
	field := fieldPath(fe)
	isString := fe.Kind() == reflect.String
	switch fe.Tag() {
	case "required", "notblank":
		return field + ": is required and must not be blank"
	case "min", "gte":
		if isString {
			return fmt.Sprintf("%s: must be at least %s characters", field, fe.Param())
		}
		if fe.Kind() == reflect.Slice || fe.Kind() == reflect.Map {
			return fmt.Sprintf("%s: must have at least %s items", field, fe.Param())
		}
		return fmt.Sprintf("%s: must be at least %s", field, fe.Param())
	case "max", "lte":
		if isString {
			return fmt.Sprintf("%s: must be at most %s characters", field, fe.Param())
		}
		if fe.Kind() == reflect.Slice || fe.Kind() == reflect.Map {
			return fmt.Sprintf("%s: must have at most %s items", field, fe.Param())
		}
		return fmt.Sprintf("%s: must be at most %s", field, fe.Param())
	case "oneof":
		return fmt.Sprintf("%s: must be one of %s", field, strings.ReplaceAll(fe.Param(), " ", ", "))
	case "url", "http_url":
		return field + ": must be an http(s) URL"
	case "datetime":
		return field + ": must be an RFC 3339 timestamp"
	case "uuid":
		return field + ": must be an id"
	default:
		return fmt.Sprintf("%s: fails the %q rule", field, fe.Tag())
	}
}

// fieldPath drops the top-level struct name from the namespace, so
// "CreateJob.tags[2]" becomes "tags[2]".
func fieldPath(fe validator.FieldError) string {
	ns := fe.Namespace()
	if i := strings.IndexByte(ns, '.'); i >= 0 {
		return ns[i+1:]
	}
	return fe.Field()
}

// Text returns an Invalid error "field: must not contain NUL characters"
// when s holds a NUL character, for inputs that are not structs (a query
// parameter, an id, a search query), and nil otherwise.
func Text(op, field, s string) error {
	if strings.IndexByte(s, 0) >= 0 {
		return openjury.E(openjury.Invalid, op, nulMessage(field))
	}
	return nil
}

func nulMessage(field string) string {
	if field == "" {
		field = "input"
	}
	return field + ": must not contain NUL characters"
}

// findNUL walks v for a string holding a NUL character and returns its
// path ("evidence[2].metadata.note"), field names taken from the `name`
// tag like the validator's.
func findNUL(v reflect.Value, path string) (string, bool) {
	switch v.Kind() {
	case reflect.String:
		return path, strings.IndexByte(v.String(), 0) >= 0
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return "", false
		}
		return findNUL(v.Elem(), path)
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			name := f.Tag.Get("name")
			if name == "" {
				name = f.Name
			}
			if p, ok := findNUL(v.Field(i), join(path, name)); ok {
				return p, true
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if p, ok := findNUL(v.Index(i), fmt.Sprintf("%s[%d]", path, i)); ok {
				return p, true
			}
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			if _, ok := findNUL(iter.Key(), path); ok {
				return path, true // the key itself: name the map
			}
			p := join(path, fmt.Sprint(iter.Key().Interface()))
			if p, ok := findNUL(iter.Value(), p); ok {
				return p, true
			}
		}
	}
	return "", false
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// Limit applies a list's limit rule: 0 means def, otherwise 1..max.
// Errors: Invalid "limit: must be between 1 and max".
func Limit(op string, limit, def, max int) (int, error) {
	if limit == 0 {
		return def, nil
	}
	if limit < 1 || limit > max {
		return 0, openjury.Errorf(openjury.Invalid, op, "limit: must be between 1 and %d", max)
	}
	return limit, nil
}
