-- OpenJury schema: SQLite stores event_keys WITHOUT ROWID from here
-- (../sqlite); PostgreSQL's heap and indexes stay as they are.
SELECT 1;
