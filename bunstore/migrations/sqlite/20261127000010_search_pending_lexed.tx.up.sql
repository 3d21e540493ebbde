-- OpenJury schema: on PostgreSQL a search queue row's lexical generation is
-- checked never to pass its generation, so the indexer's claim can say
-- lex_gen >= gen for a better plan there (../postgres). SQLite's claim
-- keeps lex_gen = gen, whose plan it gets right; adding a CHECK would
-- rebuild the table. Nothing changes here.
SELECT 1;
