package bunstore

import "github.com/uptrace/bun"

// AddQueryHook adds h to every pool of d, for tests that look at the SQL
// the store methods run.
func AddQueryHook(d *DB, h bun.QueryHook) {
	d.w.AddQueryHook(h)
	if d.r != d.w {
		d.r.AddQueryHook(h)
	}
}
