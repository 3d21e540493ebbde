-- OpenJury schema: on SQLite the search queue's kind check is rebuilt as a
-- chain of equalities (../sqlite: SQLite builds a temporary b-tree for an
-- IN list at every check). PostgreSQL checks an IN list without one.
-- Nothing changes here.
SELECT 1;
