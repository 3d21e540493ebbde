-- OpenJury schema: SQLite stores search_pending WITHOUT ROWID from here
-- (../sqlite); PostgreSQL's table stays as it is.
SELECT 1;
