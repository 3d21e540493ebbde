package bunstore

import (
	"context"
	"database/sql"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"unsafe"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/schema"
)

// fieldKind is how a row struct stores a column's value.
type fieldKind uint8

const (
	kindString    fieldKind = iota // string; NULL reads as "" (bun's nullzero)
	kindInt64                      // int64; NULL is an error (a NOT NULL column)
	kindInt64Ptr                   // *int64; NULL reads as nil
	kindInt64Zero                  // int64 of an outer join's nullable side; NULL reads as 0
	kindInt                        // int (a count); NULL is an error
)

// planField is where a column's value goes: its field's offset in the row
// struct and how the field stores it.
type planField struct {
	off  uintptr
	kind fieldKind
}

// rowPlan scans the columns of a bun model's table straight into its
// fields, by offset, without bun's per-column reflection and name
// lookups: the job reads (a job by id, a job page) are the hottest reads,
// and bun's scan was a third of a job's read and of a page's in the
// profiles (BENCHMARKS.md, "Read paths"), and a submission's read of its
// job, stake and count runs on SQLite's one writer. Only the field types of
// the models it serves are known (string, int64, *int64, int, and structs
// of them embedded by value); newRowPlan refuses any other.
type rowPlan struct {
	fields map[string]planField
	// states keeps the scanners of finished reads (*scanState).
	states *sync.Pool
}

// scanState is one read's scanners, one per column, and their offsets.
type scanState struct {
	scans []colScan
	offs  []uintptr
	dest  []any
}

// newRowPlan maps every column of t to its field. The int64 fields inside
// the fields of t's type named in nullable (a LEFT JOIN's side, such as
// submitStateRow's Stake) read NULL as 0, as bun's scan does.
func newRowPlan(t *schema.Table, nullable ...string) (rowPlan, error) {
	p := rowPlan{fields: make(map[string]planField, len(t.Fields)), states: &sync.Pool{New: func() any { return new(scanState) }}}
	for _, name := range nullable {
		if _, ok := t.Type.FieldByName(name); !ok {
			return rowPlan{}, fmt.Errorf("bunstore: %s has no field %s", t.Type, name)
		}
	}
	for _, f := range t.Fields {
		typ, off := t.Type, uintptr(0)
		for _, i := range f.Index {
			if typ.Kind() != reflect.Struct {
				return rowPlan{}, fmt.Errorf("bunstore: %s.%s: embedded through a %s", t.Type, f.Name, typ.Kind())
			}
			sf := typ.Field(i)
			off += sf.Offset
			typ = sf.Type
		}
		var k fieldKind
		switch typ {
		case reflect.TypeFor[string]():
			k = kindString
		case reflect.TypeFor[int64]():
			k = kindInt64
			if slices.Contains(nullable, t.Type.Field(f.Index[0]).Name) {
				k = kindInt64Zero
			}
		case reflect.TypeFor[int]():
			k = kindInt
		case reflect.TypeFor[*int64]():
			k = kindInt64Ptr
		default:
			return rowPlan{}, fmt.Errorf("bunstore: %s.%s: a %s field has no planned scan", t.Type, f.Name, typ)
		}
		p.fields[f.Name] = planField{off: off, kind: k}
	}
	return p, nil
}

// mustRowPlan is newRowPlan of T's table in db's dialect; the models it
// serves are fixed at build time, so an error is a programming error
// (TestRowPlans checks them).
func mustRowPlan[T any](tables interface {
	Table(reflect.Type) *schema.Table
}, nullable ...string) rowPlan {
	p, err := newRowPlan(tables.Table(reflect.TypeFor[T]()), nullable...)
	if err != nil {
		panic(err)
	}
	return p
}

// colScan is the sql.Scanner of one column: it writes the value into the
// field at p of the current row.
type colScan struct {
	p    unsafe.Pointer
	kind fieldKind
	col  string
}

// Scan implements sql.Scanner.
func (c *colScan) Scan(src any) error {
	switch c.kind {
	case kindString:
		switch v := src.(type) {
		case string:
			*(*string)(c.p) = v
		case []byte:
			*(*string)(c.p) = string(v)
		case nil:
			*(*string)(c.p) = ""
		default:
			return fmt.Errorf("column %s: a %T, not text", c.col, src)
		}
	default:
		if src == nil && c.kind == kindInt64Zero {
			*(*int64)(c.p) = 0
			return nil
		}
		if src == nil && c.kind == kindInt64Ptr {
			*(**int64)(c.p) = nil
			return nil
		}
		v, ok := src.(int64)
		if !ok {
			return fmt.Errorf("column %s: a %T, not an integer", c.col, src)
		}
		switch c.kind {
		case kindInt:
			*(*int)(c.p) = int(v)
		case kindInt64Ptr:
			*(**int64)(c.p) = &v
		default: // kindInt64, kindInt64Zero
			*(*int64)(c.p) = v
		}
	}
	return nil
}

// queryOnePlanned runs the hot statement h on db and reads its first row
// into a new T by plan; sql.ErrNoRows when there is none.
func queryOnePlanned[T any](ctx context.Context, d *DB, db bun.IDB, h hot, plan rowPlan, args ...any) (*T, error) {
	var rows []*T
	err := d.queryHot(ctx, db, h, args, func(r *sql.Rows) (err error) {
		rows, err = scanPlanned[T](r, plan, 1)
		return err
	})
	if err == nil && len(rows) == 0 {
		err = sql.ErrNoRows
	}
	if err != nil {
		return nil, err
	}
	return rows[0], nil
}

// scanPlanned reads the rows of rows into new values of T by plan (whose
// model is T), at most limit of them when limit > 0.
func scanPlanned[T any](rows *sql.Rows, plan rowPlan, limit int) ([]*T, error) {
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	st := plan.states.Get().(*scanState)
	defer func() {
		for i := range st.scans {
			st.scans[i].p = nil // keep no row alive from the pool
		}
		plan.states.Put(st)
	}()
	if cap(st.scans) < len(cols) {
		st.scans, st.offs, st.dest = make([]colScan, len(cols)), make([]uintptr, len(cols)), make([]any, len(cols))
	}
	scans, offs, dest := st.scans[:len(cols)], st.offs[:len(cols)], st.dest[:len(cols)]
	for i, c := range cols {
		f, ok := plan.fields[c]
		if !ok {
			return nil, fmt.Errorf("bunstore: column %q is not a field of %s", c, reflect.TypeFor[T]())
		}
		scans[i] = colScan{kind: f.kind, col: c}
		offs[i] = f.off
		dest[i] = &scans[i]
	}
	var out []*T
	for (limit <= 0 || len(out) < limit) && rows.Next() {
		r := new(T)
		base := unsafe.Pointer(r)
		for i := range scans {
			scans[i].p = unsafe.Add(base, offs[i])
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
