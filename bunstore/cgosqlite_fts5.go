//go:build cgosqlite && !(sqlite_fts5 || fts5)

package bunstore

// Search needs SQLite's FTS5 module, which mattn/go-sqlite3 (the driver
// the cgosqlite tag selects) compiles only with its fts5 tag: build with
// `-tags "cgosqlite fts5"`. This line stops a build without it.
var _ = build_with_tags_cgosqlite_fts5_the_mattn_driver_needs_fts5
