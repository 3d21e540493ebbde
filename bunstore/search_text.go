package bunstore

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/uptrace/bun"

	"github.com/openjury/openjury/search"
)

var _ search.Texts = searchTexts{}

// searchTexts implements search.Texts on search_text, which the search
// indexer keeps in step with the documents' tables from the pending queue
// (IndexTexts), in transactions of its own: PostgreSQL ranks its tsvector
// column (GIN index, 'english' configuration), SQLite its FTS5 table
// search_fts (porter tokenizer, bm25). budget bounds the documents one
// query ranks (LexicalBudget).
type searchTexts struct {
	e      exec
	budget int
}

// LexicalBudget is how many documents one lexical query ranks at most
// (docs/rules.md#search): the documents holding the query's rarest terms,
// whose document counts add up to at most the budget, are ranked by every
// term of the query; more common terms only add to their scores, and the
// documents holding none of the rare terms are ranked only when the rare
// ones give fewer than a page. Common words then cost a query no more than
// the budget at any size of the index.
const LexicalBudget = 10_000

// SearchTexts returns the lexical side of search.
func (d *DB) SearchTexts() search.Texts { return searchTexts{d.pool(), LexicalBudget} }

// SearchTextsBudget returns the lexical side of search ranking at most n
// documents a query instead of LexicalBudget: for measuring what the
// budget costs in quality on a small corpus (search's quality test).
func (d *DB) SearchTextsBudget(n int) search.Texts { return searchTexts{d.pool(), max(1, n)} }

// Column weights of the lexical ranking: a title counts more than a
// body, evidence less. PostgreSQL's ts_rank_cd weighs them by label
// (title A, body B, evidence C) with its defaults {D 0.1, C 0.2, B 0.4,
// A 1.0}: the same proportions as these.
const (
	weightTitle = 2.5
	weightBody  = 1.0
	weightExtra = 0.5
)

// Match implements search.Texts with a bounded amount of work
// (LexicalBudget): the documents holding any of the terms, ranked by the
// engine's relevance over every term (pgMatchQuery's weighted sum on
// PostgreSQL, bm25 on SQLite), best first, ties by kind and id.
func (s searchTexts) Match(ctx context.Context, terms []string, kind search.Kind, limit int) ([]search.Match, error) {
	const op = "bunstore.SearchMatch"
	out := []search.Match{}
	terms = safeTerms(terms)
	if len(terms) == 0 || limit < 1 {
		return out, nil
	}
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	if s.e.d.dialect == DialectPostgres {
		// to_tsquery stems each term with the 'english' configuration and
		// drops stop words; | asks for any of them.
		filter, fargs := "", []any{}
		if kind != "" {
			filter, fargs = "AND st.kind = ? ", []any{string(kind)}
		}
		args := []any{strings.Join(terms, " "), s.budget, strings.Join(terms, " | ")}
		args = append(append(args, fargs...), s.budget, limit)
		args = append(append(args, fargs...), s.budget, limit)
		return s.scanMatches(ctx, db, op, pgMatchQuery(filter), args)
	}
	return s.matchFTS(ctx, db, op, terms, kind, limit)
}

// matchFTS is Match on SQLite. FTS5 stems each quoted term with the
// porter tokenizer and filters by kind itself; bm25 is negative, more so
// for better matches, and the sum over the query's phrases of each
// phrase's part. It counts each term's documents first (each count
// stopping past the budget), then splits the terms: the rarest, whose
// counts add up to at most the budget (at least the rarest one), and the
// common rest. The documents holding a rare term are ranked in two
// disjoint parts whose bm25 covers every term: those holding a common term
// too ("rare AND common") and those holding none ("rare NOT common", whose
// common phrases count nothing). The documents holding only common terms
// ("common NOT rare") are ranked only when the rare terms' documents may
// be fewer than limit. Each part ranks at most the budget's newest
// documents (FTS5 reads by rowid, descending, without sorting), so a rare
// term held by more documents than the budget is ranked on its newest
// ones. Only the page's rows are then read from search_text: a join would
// read it for every match.
func (s searchTexts) matchFTS(ctx context.Context, db bun.IDB, op string, terms []string, kind search.Kind, limit int) ([]search.Match, error) {
	filter := ""
	if kind != "" {
		filter = ` AND kind : "` + string(kind) + `"`
	}
	anyOf := func(ts []string) string {
		quoted := make([]string, len(ts))
		for i, t := range ts {
			quoted[i] = `"` + t + `"`
		}
		return "{title body extra} : (" + strings.Join(quoted, " OR ") + ")"
	}
	// The terms' document counts, each read up to budget+1.
	counts := make([]int, len(terms))
	var q strings.Builder
	args := make([]any, 0, 2*len(terms))
	q.WriteString("SELECT ")
	for i, t := range terms {
		if i > 0 {
			q.WriteString(", ")
		}
		q.WriteString("(SELECT count(*) FROM (SELECT 1 FROM search_fts WHERE search_fts MATCH ? LIMIT ?))")
		args = append(args, anyOf([]string{t})+filter, s.budget+1)
	}
	row := db.QueryRowContext(ctx, q.String(), args...)
	dest := make([]any, len(counts))
	for i := range counts {
		dest[i] = &counts[i]
	}
	if err := row.Scan(dest...); err != nil {
		return nil, translate(op, err)
	}
	order := make([]int, len(terms))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return counts[a] - counts[b] })
	var rare, common []string
	sum, most := 0, 0
	for k, i := range order {
		if counts[i] == 0 {
			continue // no document holds it: it adds nothing
		}
		if sum+counts[i] <= s.budget || len(rare) == 0 {
			sum += counts[i]
			most = max(most, counts[i])
			rare = append(rare, terms[i])
			continue
		}
		for _, j := range order[k:] {
			if counts[j] > 0 {
				common = append(common, terms[j])
			}
		}
		break
	}
	if len(rare) == 0 {
		return []search.Match{}, nil
	}
	var parts []string
	if len(common) == 0 {
		parts = []string{anyOf(rare)}
	} else {
		parts = []string{"(" + anyOf(rare) + " AND " + anyOf(common) + ")", "(" + anyOf(rare) + " NOT " + anyOf(common) + ")"}
		if most < limit {
			parts = append(parts, "("+anyOf(common)+" NOT "+anyOf(rare)+")")
		}
	}
	arms := make([]string, len(parts))
	args = args[:0]
	for i, p := range parts {
		arms[i] = "SELECT * FROM (SELECT rowid, -bm25(search_fts, ?, ?, ?, 0) AS score FROM search_fts WHERE search_fts MATCH ? ORDER BY rowid DESC LIMIT ?)"
		args = append(args, weightTitle, weightBody, weightExtra, p+filter, s.budget)
	}
	args = append(args, limit)
	return s.scanMatches(ctx, db, op, `SELECT st.kind, st.doc_id, m.score FROM (
    SELECT rowid, score FROM (`+strings.Join(arms, " UNION ALL ")+`) ORDER BY score DESC LIMIT ?
) AS m JOIN search_text AS st ON st.id = m.rowid
ORDER BY m.score DESC, st.kind, st.doc_id`, args)
}

// scanMatches runs a Match query returning (kind, doc_id, score).
func (s searchTexts) scanMatches(ctx context.Context, db bun.IDB, op, q string, args []any) ([]search.Match, error) {
	var rows []struct {
		Kind  string  `bun:"kind"`
		DocID string  `bun:"doc_id"`
		Score float64 `bun:"score"`
	}
	if err := db.NewRaw(q, args...).Scan(ctx, &rows); err != nil {
		return nil, translate(op, err)
	}
	out := make([]search.Match, 0, len(rows))
	for _, r := range rows {
		out = append(out, search.Match{Key: search.Key{Kind: search.Kind(r.Kind), ID: r.DocID}, Score: r.Score})
	}
	return out, nil
}

// safeTerms keeps the terms made only of letters, digits and marks (what
// search.QueryTerms gives), so none can carry query syntax into
// to_tsquery or an FTS5 MATCH.
func safeTerms(terms []string) []string {
	out := make([]string, 0, len(terms))
	for _, t := range terms {
		if t != "" && !strings.ContainsFunc(t, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r) }) {
			out = append(out, t)
		}
	}
	return out
}

// Documents implements search.Texts with one query by primary key. A
// comment or post deleted since the indexer last stored its text is left
// out (a primary-key probe of its table each), so a delete takes it out of
// every answer the moment it commits.
func (s searchTexts) Documents(ctx context.Context, keys []search.Key) ([]search.Document, error) {
	const op = "bunstore.SearchDocuments"
	out := []search.Document{}
	if len(keys) == 0 {
		return out, nil
	}
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	list, args := keyList(keys)
	var rows []struct {
		Kind  string         `bun:"kind"`
		DocID string         `bun:"doc_id"`
		JobID sql.NullString `bun:"job_id"`
		Title string         `bun:"title"`
		Body  string         `bun:"body"`
		Extra string         `bun:"extra"`
	}
	if err := db.NewRaw(`SELECT st.kind, st.doc_id, st.job_id, st.title, st.body, st.extra FROM search_text AS st
WHERE (st.kind, st.doc_id) IN (VALUES `+list+`)
AND NOT EXISTS (SELECT 1 FROM comments AS c WHERE st.kind = 'comment' AND c.id = st.doc_id AND c.deleted_at IS NOT NULL)
AND NOT EXISTS (SELECT 1 FROM posts AS p WHERE st.kind = 'post' AND p.id = st.doc_id AND p.deleted_at IS NOT NULL)`, args...).
		Scan(ctx, &rows); err != nil {
		return nil, translate(op, err)
	}
	for _, r := range rows {
		out = append(out, search.Document{Key: search.Key{Kind: search.Kind(r.Kind), ID: r.DocID}, JobID: r.JobID.String,
			Title: r.Title, Body: r.Body, Extra: r.Extra})
	}
	return out, nil
}

// pgMatchQuery is Match's query on PostgreSQL, with filter (a condition
// on st.kind, or "") inserted twice. Its parameters: the terms joined by
// spaces, the budget, the terms joined by " | ", filter's, the budget, the
// limit, filter's, the budget, the limit.
//
// PostgreSQL's own rankings (ts_rank, ts_rank_cd) ignore how rare a term
// is, so a document matching a common word of a query would outrank one
// matching its rare word. The score weighs terms instead: the sum, over
// the query's 'english' lexemes that the document holds, of their inverse
// document frequency ln(1 + 1/f), plus ts_rank of the whole query
// (normalisation 32, so below 1: it orders documents holding the same
// terms by frequency and title weight). f, the share of documents holding
// the lexeme, is read from the planner's statistics of search_text.tsv
// (pg_stats' most_common_elems, kept by ANALYZE and autovacuum; the
// migration keeps the 10,000 most common lexemes); a lexeme not listed
// there is rarer than the least common one listed, and counts at half its
// share. A table never analysed weighs every term the same. The terms are
// computed once (MATERIALIZED), not for every matching row. The quality
// test measured this above BM25-style sums of per-term ts_rank (nDCG@10
// 0.874 against 0.859) at a fraction of the cost.
//
// The work is bounded by the budget (LexicalBudget): the lexemes are taken
// rarest first while their estimated document counts (f times the table's
// rows) add up to at most the budget (at least the rarest one), and only
// documents holding one of those (at most the budget of them, found by the
// GIN index) are scored, by every term. When they are fewer than the
// limit, up to the budget of the documents holding only common terms are
// scored too.
func pgMatchQuery(filter string) string {
	return `WITH stats AS (
    SELECT most_common_elems::text::text[] AS elems, most_common_elem_freqs AS freqs
    FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'search_text' AND attname = 'tsv'
), terms AS MATERIALIZED (
    SELECT t.lexeme, quote_literal(t.lexeme)::tsquery AS tq, f.f AS freq, ln(1 + 1 / GREATEST(1e-6, f.f)) AS idf
    FROM unnest(to_tsvector('english', ?)) AS t, LATERAL (SELECT COALESCE(
            (SELECT s.freqs[array_position(s.elems, t.lexeme)] FROM stats AS s),
            (SELECT s.freqs[array_length(s.elems, 1) + 1] / 2 FROM stats AS s),
            0.5) AS f) AS f
), rare AS MATERIALIZED (
    SELECT string_agg(r.tq::text, ' | ')::tsquery AS q FROM (
        SELECT tq, row_number() OVER w AS k, sum(freq) OVER w * (
            SELECT GREATEST(c.reltuples, 0) FROM pg_class AS c WHERE c.oid = to_regclass('search_text')) AS docs
        FROM terms WINDOW w AS (ORDER BY freq, lexeme)) AS r
    WHERE r.k = 1 OR r.docs <= ?
), anyq AS MATERIALIZED (
    SELECT to_tsquery('english', ?) AS q
), cand AS MATERIALIZED (
    SELECT st.kind, st.doc_id FROM search_text AS st, rare WHERE st.tsv @@ rare.q ` + filter + `LIMIT ?
), more AS (
    SELECT st.kind, st.doc_id FROM search_text AS st, rare, anyq
    WHERE (SELECT count(*) FROM cand) < ? AND st.tsv @@ anyq.q AND NOT st.tsv @@ rare.q ` + filter + `LIMIT ?
)
SELECT st.kind, st.doc_id, r.score
FROM (SELECT * FROM cand UNION ALL SELECT * FROM more) AS c JOIN search_text AS st ON st.kind = c.kind AND st.doc_id = c.doc_id,
    anyq, LATERAL (SELECT sum(terms.idf * (st.tsv @@ terms.tq)::int) + ts_rank(st.tsv, anyq.q, 32) AS score FROM terms) AS r
ORDER BY r.score DESC, st.kind, st.doc_id LIMIT ?`
}

// SearchTexts returns the lexical side of search inside the transaction
// (what its writes stored is visible to it).
func (t txStores) SearchTexts() search.Texts { return searchTexts{t.e, LexicalBudget} }

// IndexTexts implements search.Store in one transaction: it marks up to n
// pending rows whose lexical step is not done (lex_gen below gen) done at
// their gen, the oldest first, then reads those documents and upserts
// their text into search_text, or removes a gone one's. Reading after the
// mark, in the same transaction, makes it safe against writes: on SQLite
// nothing else writes meanwhile; on PostgreSQL the rows stay locked until
// commit, each later statement sees every write committed before it, and a
// write not committed yet either holds its pending row (skipped: SKIP
// LOCKED) or queues it after this commit, raising gen above lex_gen. The
// text of a document written again therefore never goes back to an older
// one, and rows another indexer holds are left to it. An idle queue costs
// one indexed read, not a write.
func (s searchStore) IndexTexts(ctx context.Context, n int) (int, error) {
	items, _, err := s.indexTexts(ctx, "bunstore.IndexTexts", n, 0)
	return len(items), err
}

// IndexTextsLeased implements search.Store: IndexTexts whose mark also
// sets the rows' lease to now+lease, returning the marked rows and the
// sources it read for them.
func (s searchStore) IndexTextsLeased(ctx context.Context, n int, now time.Time, lease time.Duration) ([]search.Pending, []search.Source, error) {
	return s.indexTexts(ctx, "bunstore.IndexTextsLeased", n, millis(now.Add(lease)))
}

// indexTexts is IndexTexts, and with until > 0 IndexTextsLeased.
func (s searchStore) indexTexts(ctx context.Context, op string, n int, until int64) ([]search.Pending, []search.Source, error) {
	if n < 1 {
		return nil, nil, nil
	}
	rdb, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, nil, err
	}
	some, err := rdb.NewSelect().Table("search_pending").Where("lex_gen < gen").Limit(1).Exists(ctx)
	if err != nil || !some {
		return nil, nil, translate(op, err)
	}
	set := "lex_gen = gen"
	args := []any{n}
	if until > 0 {
		set += ", lease_until = ?"
		args = []any{until, n}
	}
	var items []search.Pending
	var sources []search.Source
	err = s.e.inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		items, sources = nil, nil // a run again (DB.runTx) starts afresh
		var rows []pendingRow
		q := `UPDATE search_pending SET ` + set + `
WHERE lex_gen < gen AND (kind, doc_id) IN (
    SELECT kind, doc_id FROM search_pending WHERE lex_gen < gen ORDER BY queued_at LIMIT ?)
RETURNING kind, doc_id, gen`
		if s.e.d.dialect == DialectPostgres {
			// Locked as picked (SKIP LOCKED), then updated by row address:
			// a join with the queue may be planned as a hash join over all
			// of it (see searchStore.ClaimPending).
			q = `UPDATE search_pending SET ` + set + `
WHERE ctid = ANY(ARRAY(
    SELECT ctid FROM search_pending WHERE lex_gen < gen ORDER BY queued_at LIMIT ? FOR UPDATE SKIP LOCKED))
AND lex_gen < gen
RETURNING kind, doc_id, gen`
		}
		if err := db.NewRaw(q, args...).Scan(ctx, &rows); err != nil {
			return translate(op, err)
		}
		marked := pendings(rows)
		found, err := pendingSources(ctx, db, marked)
		if err != nil {
			return translate(op, err)
		}
		srcs := make([]search.Source, len(marked))
		srcRows := make([]sourceRow, len(marked))
		for i, it := range marked {
			srcRows[i] = found.of(it)
			srcs[i] = srcRows[i].Source
		}
		if err := s.storeTexts(ctx, db, marked, srcRows, nil); err != nil {
			return translate(op, err)
		}
		items, sources = marked, srcs
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return items, sources, nil
}

// storeTexts upserts the text of each document of items into
// search_text (srcs[i] is items[i]'s), or removes a gone one's: all of
// them when keep is nil, else those keep holds (by kind and id).
func (s searchStore) storeTexts(ctx context.Context, db bun.IDB, items []search.Pending, srcs []sourceRow, keep map[[2]string]bool) error {
	var put []searchTextRow
	var gone []search.Key
	for i, it := range items {
		if keep != nil && !keep[[2]string{string(it.Kind), it.ID}] {
			continue
		}
		src := srcs[i]
		if src.Gone {
			gone = append(gone, search.Key{Kind: it.Kind, ID: it.ID})
			continue
		}
		put = append(put, searchTextRow{Kind: string(it.Kind), DocID: it.ID, JobID: src.JobID,
			Title: src.Title, Body: src.Body, Extra: joinNonEmpty(src.Extra)})
	}
	if err := s.putTexts(ctx, db, put); err != nil {
		return err
	}
	if len(gone) > 0 {
		list, args := keyList(gone)
		if _, err := db.NewRaw("DELETE FROM search_text WHERE (kind, doc_id) IN (VALUES "+list+")", args...).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

// IndexInline implements search.Store. On PostgreSQL (and inside a
// transaction) it is IndexTextsLeased, embed, then SaveEntries, or
// RetryPending at now+pause when embed fails. On SQLite the two steps
// share one write: the oldest documents whose lexical step is due and
// their sources are read on the read pool, embed runs, and one
// transaction removes the queue rows still at the generation read and
// not claimed by a vector step meanwhile (a document written again stays
// queued, to be done again; one claimed is left to its claimer) and
// stores those documents' text and entries; taken counts those rows. No
// mark and no lease: the writer's turn reads nothing of the queue, and a
// batch costs one write instead of two. Another process on the same file
// may embed the same documents; only the first write keeps them. When
// embed fails, markTexts does the lexical step alone.
func (s searchStore) IndexInline(ctx context.Context, n int, now time.Time, lease, pause time.Duration, embed search.EmbedFunc) (taken, saved int, err error) {
	const op = "bunstore.IndexInline"
	if s.e.d.dialect == DialectPostgres || s.e.tx {
		items, sources, err := s.IndexTextsLeased(ctx, n, now, lease)
		if err != nil || len(items) == 0 {
			return len(items), 0, err
		}
		entries, err := embed(ctx, items, sources)
		if err != nil {
			// The lease keeps the batch from other workers until then.
			if rerr := s.RetryPending(context.WithoutCancel(ctx), items, now.Add(pause)); rerr != nil {
				err = errors.Join(err, rerr)
			}
			return len(items), 0, err
		}
		saved, err := s.SaveEntries(ctx, items, entries, now)
		return len(items), saved, err
	}
	if n < 1 {
		return 0, 0, nil
	}
	rdb, err := s.e.reader(ctx, op)
	if err != nil {
		return 0, 0, err
	}
	var rows []pendingRow
	if err := rdb.NewRaw(`SELECT kind, doc_id, gen FROM search_pending WHERE lex_gen < gen ORDER BY queued_at LIMIT ?`, n).Scan(ctx, &rows); err != nil || len(rows) == 0 {
		return 0, 0, translate(op, err)
	}
	items := pendings(rows)
	found, err := pendingSources(ctx, rdb, items)
	if err != nil {
		return len(items), 0, translate(op, err)
	}
	srcRows := make([]sourceRow, len(items))
	sources := make([]search.Source, len(items))
	for i, it := range items {
		srcRows[i] = found.of(it)
		sources[i] = srcRows[i].Source
	}
	entries, err := embed(ctx, items, sources)
	if err != nil {
		// The lexical step is still done; the vector step waits until
		// now+pause (ClaimPending).
		marked, lerr := s.markTexts(ctx, op, items, srcRows, millis(now.Add(pause)))
		if lerr != nil {
			err = errors.Join(err, lerr)
		}
		return marked, 0, err
	}
	err = s.e.inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		taken, saved = 0, 0 // a run again (DB.runTx) starts afresh
		current, err := s.dropHeld(ctx, db, items, millis(now))
		if err != nil {
			return translate(op, err)
		}
		taken = len(current)
		if err := s.storeTexts(ctx, db, items, srcRows, current); err != nil {
			return translate(op, err)
		}
		saved, err = s.saveCurrent(ctx, db, current, entries, now)
		return translate(op, err)
	})
	if err != nil {
		return 0, 0, err
	}
	return taken, saved, nil
}

// markTexts is IndexInline's lexical step alone, for documents read
// outside the transaction: it marks the rows of items still at their
// generation done lexically, leased until until, and stores those
// documents' text, in one transaction; it returns how many it marked.
func (s searchStore) markTexts(ctx context.Context, op string, items []search.Pending, srcs []sourceRow, until int64) (int, error) {
	list, args := pendingKeys(items)
	marked := 0
	err := s.e.inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		marked = 0
		var done []pendingRow
		if err := db.NewRaw("UPDATE search_pending SET lex_gen = gen, lease_until = ? WHERE (kind, doc_id, gen) IN (VALUES "+list+") AND lex_gen < gen RETURNING kind, doc_id, gen",
			append([]any{until}, args...)...).Scan(ctx, &done); err != nil {
			return translate(op, err)
		}
		keep := make(map[[2]string]bool, len(done))
		for _, d := range done {
			keep[[2]string{d.Kind, d.DocID}] = true
		}
		if err := s.storeTexts(ctx, db, items, srcs, keep); err != nil {
			return translate(op, err)
		}
		marked = len(done)
		return nil
	})
	return marked, err
}

// searchTextRow is a row of search_text as IndexTexts writes it.
type searchTextRow struct {
	Kind  string
	DocID string
	JobID *string
	Title string
	Body  string
	Extra string
}

// putTexts upserts rows into search_text in one statement; a row whose
// text is unchanged is left as it is (no full-text index write).
func (s searchStore) putTexts(ctx context.Context, db bun.IDB, rows []searchTextRow) error {
	if len(rows) == 0 {
		return nil
	}
	// One statement for every row, not one prepared statement a row: on
	// SQLite each statement that fires the full-text triggers flushes
	// FTS5's pending terms into a new segment.
	list, args := rowValues(rows, func(r searchTextRow) []any { return []any{r.Kind, r.DocID, r.JobID, r.Title, r.Body, r.Extra} })
	_, err := db.NewRaw(`INSERT INTO search_text (kind, doc_id, job_id, title, body, extra) VALUES `+list+`
ON CONFLICT (kind, doc_id) DO UPDATE SET job_id = excluded.job_id, title = excluded.title, body = excluded.body, extra = excluded.extra
WHERE search_text.job_id IS DISTINCT FROM excluded.job_id OR search_text.title <> excluded.title
    OR search_text.body <> excluded.body OR search_text.extra <> excluded.extra`, args...).Exec(ctx)
	return err
}

// keyList renders keys as a row-value list "(?, ?), ..." of (kind,
// doc_id) with its arguments.
func keyList(keys []search.Key) (string, []any) {
	return rowValues(keys, func(k search.Key) []any { return []any{string(k.Kind), k.ID} })
}

// joinNonEmpty joins the non-empty parts with newlines: a submission's
// evidence claims and quotes as search_text.extra holds them (and as
// search.Source.Text joins them).
func joinNonEmpty(parts []string) string {
	kept := make([]string, 0, len(parts))
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, "\n")
}

// RebuildSearchTexts replaces the lexical index (search_text) with the
// text of every searchable document, in one transaction: for a database
// filled without the marketplace's writes queueing its documents (the
// load tool's seed), or to repair one. Run it while no indexer runs: a
// lexical step racing it may leave a document's older text until the
// document is written again.
func (d *DB) RebuildSearchTexts(ctx context.Context) error {
	const op = "bunstore.RebuildSearchTexts"
	stmts := []string{
		"DELETE FROM search_text",
		// The view of migration 20261125000030.
		"INSERT INTO search_text (kind, doc_id, job_id, title, body, extra) SELECT kind, doc_id, job_id, title, body, extra FROM search_text_source",
	}
	if d.dialect == DialectPostgres {
		stmts = []string{
			"DELETE FROM search_text",
			"INSERT INTO search_text (kind, doc_id, job_id, title, body, extra) SELECT 'job', id, id, title, prompt, '' FROM jobs",
			"INSERT INTO search_text (kind, doc_id, job_id, title, body, extra) SELECT 'submission', id, job_id, '', content, search_evidence_text(evidence) FROM submissions",
			"INSERT INTO search_text (kind, doc_id, job_id, title, body, extra) SELECT 'comment', id, job_id, '', content, '' FROM comments WHERE deleted_at IS NULL",
			"INSERT INTO search_text (kind, doc_id, job_id, title, body, extra) SELECT 'post', id, NULL, title, content, '' FROM posts WHERE deleted_at IS NULL",
		}
	}
	return d.pool().inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		for _, q := range stmts {
			if _, err := db.ExecContext(ctx, q); err != nil {
				return translate(op, err)
			}
		}
		return nil
	})
}
