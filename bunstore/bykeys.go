package bunstore

import (
	"encoding/json"
	"slices"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
)

// byKeys makes q read from `from` (a table and its alias, "submissions AS
// s") only the rows whose column col ("s.id") is one of keys, each found
// through col's index however large the table is.
//
// On SQLite an IN list is planned from the statistics the last PRAGMA
// optimize took, which lag the table by up to tenfold (optimize analyses a
// table again only once it has grown that much): with the statistics of a
// table of 800 rows it scans the whole table for a list of 256 keys, with
// those of 3 rows for a list of four, so a read meant to cost its keys
// cost the table, at every batch of the search indexer, until the next
// optimize. There the keys are the outer loop instead: json_each over
// them, CROSS JOIN the table (SQLite never reorders a CROSS JOIN), so the
// only way to the rows is the index of col. PostgreSQL scales its
// statistics to the table's current size, so its IN list stays.
//
// The keys are read in order, each once.
func byKeys[K ~string | ~int64](q *bun.SelectQuery, from, col string, keys []K) *bun.SelectQuery {
	keys = slices.Compact(slices.Sorted(slices.Values(keys)))
	if q.Dialect().Name() != dialect.SQLite {
		return q.ModelTableExpr(from).Where(col+" IN (?)", bun.In(keys))
	}
	list, _ := json.Marshal(keys) // strings and integers always marshal
	return q.ModelTableExpr("json_each(?) AS wanted CROSS JOIN "+from, string(list)).Where(col + " = wanted.value")
}
