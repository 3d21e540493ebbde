package bunstore

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/stake"
)

// jobRow is a row of jobs.
type jobRow struct {
	bun.BaseModel `bun:"table:jobs,alias:j"`

	ID                 string       `bun:"id,pk"`
	Title              string       `bun:"title,notnull"`
	Prompt             string       `bun:"prompt,notnull"`
	BountyMicro        int64        `bun:"bounty_micro,notnull"`
	Tags               string       `bun:"tags,notnull"`
	Status             string       `bun:"status,notnull"`
	SponsorAddress     string       `bun:"sponsor_address,notnull"`
	CreatedAt          int64        `bun:"created_at,notnull"`
	WinnerSubmissionID string       `bun:"winner_submission_id,nullzero"`
	ClosedAt           *int64       `bun:"closed_at"`
	Close              chainRefCols `bun:"embed:close_"`
	FeaturedScore      int64        `bun:"featured_score,notnull"`
	FeaturedUntil      *int64       `bun:"featured_until"`
	FinalVoteStartsAt  int64        `bun:"final_vote_starts_at,notnull"`
	FinalVoteEndsAt    int64        `bun:"final_vote_ends_at,notnull"`
	Anchor             anchorCols   `bun:"embed:anchor_"`
	RecordsRev         int64        `bun:"records_rev,notnull"`
	ClosingID          string       `bun:"closing_id,nullzero"`
	ClosingUntil       *int64       `bun:"closing_until"`
	JobKey             string       `bun:"job_key,nullzero"`
	Escrow             escrowCols   `bun:"embed:escrow_"`
	PayoutTotalMicro   *int64       `bun:"payout_total_micro"`
	JuryMode           string       `bun:"jury_mode,notnull"`
	JurySize           *int64       `bun:"jury_size"`
	JuryCommitEndsAt   *int64       `bun:"jury_commit_ends_at"`
	JuryRevealEndsAt   *int64       `bun:"jury_reveal_ends_at"`
}

// jobHeadRow is a job's row without its receipts (jobReceiptPrefixes)
// and whether it has any (Receipts, 0 or 1): a job by id on SQLite reads
// this first (jobHead). The driver reads every result column's name and
// declared type at every query, and the receipts are 29 of a job's 52
// columns that most jobs do not have.
type jobHeadRow struct {
	jobRow   `bun:",extend"`
	Receipts int `bun:"receipts"`
}

// jobReceiptPrefixes are the prefixes of the receipt columns of jobs: a
// close's, an anchor's and the escrow's.
var jobReceiptPrefixes = []string{"close_", "anchor_", "escrow_"}

// isReceiptColumn reports whether the column of jobs named col is a
// receipt's (jobReceiptPrefixes).
func isReceiptColumn(col string) bool {
	return slices.ContainsFunc(jobReceiptPrefixes, func(p string) bool { return strings.HasPrefix(col, p) })
}

// jobHeadQuery is the statement of jobHeadRow by id: the job's columns
// but its receipts, and whether any receipt column holds a value (is not
// NULL; not 0 for a NOT NULL one).
func jobHeadQuery(db *bun.DB) string {
	var cols, held []string
	for _, f := range db.Table(reflect.TypeFor[jobRow]()).Fields {
		switch {
		case !isReceiptColumn(f.Name):
			cols = append(cols, "j."+f.Name)
		case f.NotNull:
			held = append(held, "j."+f.Name+" <> 0")
		default:
			held = append(held, "j."+f.Name+" IS NOT NULL")
		}
	}
	return "SELECT " + strings.Join(cols, ", ") + ", (" + strings.Join(held, " OR ") + ") AS receipts FROM jobs AS j WHERE j.id = ?"
}

// jobHead reads a job by id on SQLite: its row without the receipts
// (jobHeadQuery) and, when it has any, the whole row again.
func (d *DB) jobHead(ctx context.Context, db bun.IDB, id string) (*jobRow, error) {
	head, err := queryOnePlanned[jobHeadRow](ctx, d, db, d.hot.jobHeadByID, d.jobHeadPlan, id)
	if err != nil {
		return nil, err
	}
	if head.Receipts == 0 {
		return &head.jobRow, nil
	}
	return queryOnePlanned[jobRow](ctx, d, db, d.hot.jobByID, d.jobPlan, id)
}

// jobTagRow is a row of job_tags: one lowercased tag of a job, with the
// job's status and created_at copied so that a tag filter walks the index
// (tag, [status,] created_at DESC, job_id DESC) in the list's order.
type jobTagRow struct {
	bun.BaseModel `bun:"table:job_tags,alias:jt"`

	JobID     string `bun:"job_id,pk"`
	Tag       string `bun:"tag,pk"`
	Status    string `bun:"status,notnull"`
	CreatedAt int64  `bun:"created_at,notnull"`
}

// mutableJobColumns are the columns UpdateJob writes.
var mutableJobColumns = []string{
	"status", "winner_submission_id", "closed_at",
	"close_tx_hash", "close_chain_id", "close_contract_address", "close_block_number", "close_log_index",
	"featured_score", "featured_until", "payout_total_micro",
}

func toJobRow(j *marketplace.Job) (*jobRow, error) {
	tags, err := encodeTags(j.Tags)
	if err != nil {
		return nil, err
	}
	return &jobRow{
		ID:                 j.ID,
		Title:              j.Title,
		Prompt:             j.Prompt,
		BountyMicro:        int64(j.Bounty),
		Tags:               tags,
		Status:             string(j.Status),
		SponsorAddress:     string(j.Sponsor),
		CreatedAt:          millis(j.CreatedAt),
		WinnerSubmissionID: j.WinnerSubmissionID,
		ClosedAt:           millisPtr(j.ClosedAt),
		Close:              toChainRefCols(j.Close),
		FeaturedScore:      j.FeaturedScore,
		FeaturedUntil:      millisPtr(j.FeaturedUntil),
		FinalVoteStartsAt:  millis(j.FinalVoteStartsAt),
		FinalVoteEndsAt:    millis(j.FinalVoteEndsAt),
		RecordsRev:         j.RecordsRev,
		ClosingID:          j.ClosingID,
		ClosingUntil:       millisPtr(j.ClosingUntil),
		JobKey:             jobKey(j.ID),
		Escrow:             toEscrowCols(j.Escrow),
		PayoutTotalMicro:   (*int64)(j.PayoutTotal),
		JuryMode:           string(cmp.Or(j.JuryMode, marketplace.JuryOpen)),
		JurySize:           optInt64(int64(j.JurySize)),
		JuryCommitEndsAt:   millisPtr(j.JuryCommitEndsAt),
		JuryRevealEndsAt:   millisPtr(j.JuryRevealEndsAt),
	}, nil
}

// optInt64 is nil for 0, else a pointer to n.
func optInt64(n int64) *int64 {
	if n == 0 {
		return nil
	}
	return &n
}

func (r *jobRow) job() (*marketplace.Job, error) {
	tags, err := decodeTags(r.Tags)
	if err != nil {
		return nil, err
	}
	return &marketplace.Job{
		ID:                 r.ID,
		Title:              r.Title,
		Prompt:             r.Prompt,
		Bounty:             openjury.MicroUSDC(r.BountyMicro),
		Tags:               tags,
		Status:             marketplace.Status(r.Status),
		Sponsor:            openjury.Address(r.SponsorAddress),
		CreatedAt:          fromMillis(r.CreatedAt),
		WinnerSubmissionID: r.WinnerSubmissionID,
		ClosedAt:           fromMillisPtr(r.ClosedAt),
		Close:              r.Close.ref(),
		FeaturedScore:      r.FeaturedScore,
		FeaturedUntil:      fromMillisPtr(r.FeaturedUntil),
		FinalVoteStartsAt:  fromMillis(r.FinalVoteStartsAt),
		FinalVoteEndsAt:    fromMillis(r.FinalVoteEndsAt),
		Anchor:             r.Anchor.batch(r.ID),
		RecordsRev:         r.RecordsRev,
		ClosingID:          r.ClosingID,
		ClosingUntil:       fromMillisPtr(r.ClosingUntil),
		Escrow:             r.Escrow.escrow(),
		PayoutTotal:        (*openjury.MicroUSDC)(r.PayoutTotalMicro),
		JuryMode:           storedJuryMode(r.JuryMode),
		JurySize:           int(deref64(r.JurySize)),
		JuryCommitEndsAt:   fromMillisPtr(r.JuryCommitEndsAt),
		JuryRevealEndsAt:   fromMillisPtr(r.JuryRevealEndsAt),
	}, nil
}

// storedJuryMode is the domain's jury mode of a stored one: empty for
// 'open'.
func storedJuryMode(m string) marketplace.JuryMode {
	if m == string(marketplace.JuryOpen) {
		return ""
	}
	return marketplace.JuryMode(m)
}

// deref64 is *p, or 0 for nil.
func deref64(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

// encodeTags returns the stored form of tags as written: a JSON array,
// "[]" for none.
func encodeTags(tags []string) (string, error) {
	if tags == nil {
		tags = []string{}
	}
	raw, err := json.Marshal(tags)
	return string(raw), err
}

// decodeTags reads tags stored by encodeTags back; empty, never nil.
func decodeTags(raw string) ([]string, error) {
	tags := []string{}
	if raw != "" {
		if err := json.Unmarshal([]byte(raw), &tags); err != nil {
			return nil, err
		}
	}
	return tags, nil
}

// lowerTags returns the distinct lowercased tags, the keys of job_tags.
func lowerTags(tags []string) []string {
	out := make([]string, 0, len(tags))
	seen := make(map[string]bool, len(tags))
	for _, t := range tags {
		k := strings.ToLower(strings.TrimSpace(t))
		if k == "" || seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, k)
	}
	return out
}

// insertTags inserts, in one statement, the tag row that row makes of each
// of the distinct lowercased tags (lowerTags), if any.
func insertTags[T any](ctx context.Context, op string, db bun.IDB, tags []string, row func(tag string) T) error {
	keys := lowerTags(tags)
	if len(keys) == 0 {
		return nil
	}
	rows := make([]T, len(keys))
	for i, k := range keys {
		rows[i] = row(k)
	}
	_, err := db.NewInsert().Model(&rows).Exec(ctx)
	return translate(op, err)
}

// jobStore implements marketplace.JobStore on the pools or on one
// transaction.
type jobStore struct{ e exec }

// CreateJob inserts the job row and its job_tags rows in one transaction.
func (s jobStore) CreateJob(ctx context.Context, j *marketplace.Job) error {
	const op = "bunstore.CreateJob"
	row, err := toJobRow(j)
	if err != nil {
		return openjury.Wrap(op, err)
	}
	return s.e.inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		if _, err := db.NewInsert().Model(row).Exec(ctx); err != nil {
			return translateWith(op, err, jobDetails)
		}
		return insertTags(ctx, op, db, j.Tags, func(tag string) jobTagRow {
			return jobTagRow{JobID: j.ID, Tag: tag, Status: row.Status, CreatedAt: row.CreatedAt}
		})
	})
}

// Job returns one job. Errors: NotFound.
func (s jobStore) Job(ctx context.Context, id string) (*marketplace.Job, error) {
	const op = "bunstore.Job"
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	return s.get(ctx, op, db, s.e.d.hot.jobByID, id)
}

// batchesInFlight and maxBatch bound DB.jobs and DB.tokens: the most
// batches in flight (connections they hold) and the most keys in one. Two
// batches in flight ran the most job reads a second on 2 cores (1 and 4
// ran fewer: BENCHMARKS.md); a lone read never waits for the limit.
const (
	batchesInFlight = 2
	maxBatch        = 64
)

// jobsByID reads the jobs of ids (the hot statement jobsByID) for DB.jobs.
func (d *DB) jobsByID(ctx context.Context, ids []string) (map[string]*jobRow, error) {
	out := make(map[string]*jobRow, len(ids))
	err := d.queryHot(ctx, d.r, d.hot.jobsByID, []any{ids}, func(r *sql.Rows) error {
		rows, err := scanPlanned[jobRow](r, d.jobPlan, 0)
		for _, row := range rows {
			out[row.ID] = row
		}
		return err
	})
	return out, err
}

// JobForUpdate returns one job and, on PostgreSQL, locks its row until the
// transaction ends. On SQLite the transaction already holds the one write
// lock. Outside a transaction it is Job. Errors: NotFound.
func (s jobStore) JobForUpdate(ctx context.Context, id string) (*marketplace.Job, error) {
	const op = "bunstore.JobForUpdate"
	if !s.e.tx {
		return s.Job(ctx, id)
	}
	return s.get(ctx, op, s.e.write, s.e.d.hot.jobByIDForUpdate, id)
}

// submitStateRow is the row of JobForSubmit: the job's columns, the
// agent's stake row with its columns prefixed stake_ (all NULL when the
// agent has none) and the agent's submission count.
type submitStateRow struct {
	jobRow
	Stake       stakeRow `bun:"embed:stake_"`
	Submissions int      `bun:"submissions"`
}

// JobForSubmit returns one job, locked like JobForUpdate, with agent's
// stake and number of submissions to it, in one statement (the hot
// statement jobForSubmit, see newHotStatements). Outside a transaction the
// lock ends with the statement. Errors: NotFound "job not found".
func (s jobStore) JobForSubmit(ctx context.Context, id string, agent openjury.Address) (*marketplace.SubmitState, error) {
	const op = "bunstore.JobForSubmit"
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	row, err := queryOnePlanned[submitStateRow](ctx, s.e.d, db, s.e.d.hot.jobForSubmit, s.e.d.submitPlan, string(agent), id, string(agent))
	if err != nil {
		return nil, translateWith(op, err, jobDetails)
	}
	return row.state(op, agent)
}

// state is the SubmitState of agent the row holds.
func (row *submitStateRow) state(op string, agent openjury.Address) (*marketplace.SubmitState, error) {
	j, err := row.job()
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	st := stake.Stake{Address: agent}
	if row.Stake.Address != "" {
		st = row.Stake.stake()
	}
	return &marketplace.SubmitState{Job: j, Stake: st, Submissions: row.Submissions}, nil
}

// get runs the hot statement h (a job by id) on db; a read outside a
// transaction on PostgreSQL goes in a batch with the others in flight
// (DB.jobs) instead, and a job by id on SQLite reads its head first
// (jobHead).
func (s jobStore) get(ctx context.Context, op string, db bun.IDB, h hot, id string) (*marketplace.Job, error) {
	var row *jobRow
	var err error
	switch d := s.e.d; {
	case d.jobs != nil && !s.e.tx:
		var ok bool
		if row, ok, err = d.jobs.get(ctx, id); err == nil && !ok {
			err = sql.ErrNoRows
		}
	case h.native == d.hot.jobByID.native && d.hot.jobHeadByID.native != "":
		row, err = d.jobHead(ctx, db, id)
	default:
		row, err = queryOnePlanned[jobRow](ctx, s.e.d, db, h, s.e.d.jobPlan, id)
	}
	if err != nil {
		return nil, translateWith(op, err, jobDetails)
	}
	j, err := row.job()
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	return j, nil
}

// UpdateJob writes the mutable fields of j and, in the same transaction,
// keeps the status copied into its job_tags rows in step (a conditional
// update: nothing changes while the status does not). Errors: NotFound.
func (s jobStore) UpdateJob(ctx context.Context, j *marketplace.Job) error {
	const op = "bunstore.UpdateJob"
	row, err := toJobRow(j)
	if err != nil {
		return openjury.Wrap(op, err)
	}
	return s.e.inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		res, err := db.NewUpdate().Model(row).Column(mutableJobColumns...).WherePK().Exec(ctx)
		if err := exactlyOne(op, res, err, openjury.E(openjury.NotFound, op, "job not found")); err != nil {
			return err
		}
		_, err = db.NewUpdate().Model((*jobTagRow)(nil)).
			Set("status = ?", row.Status).
			Where("job_id = ?", row.ID).
			Where("status <> ?", row.Status).
			Exec(ctx)
		return translate(op, err)
	})
}

// ListJobs returns up to f.Limit jobs in the order rank DESC, created_at
// DESC, id DESC, where rank is the featured score of a boost active at
// f.Ref and 0 otherwise; f.After starts after a position of that order.
//
// A page is one prepared statement (jobPageQuery), and no time expression
// is evaluated per row: the page is read in two phases, each an index walk
// in its own order, joined by UNION ALL. The boosted phase walks the small
// partial index of boosted jobs (featured_score DESC, created_at DESC, id
// DESC) keeping boosts still active at f.Ref; the plain phase walks
// (status,) created_at DESC, id DESC (or job_tags' (tag, status,)
// created_at DESC, job_id DESC for a tag) skipping the active boosts. Each
// phase reads at most f.Limit rows; the boosted ones come first. A cursor
// with a rank above 0 is in the boosted phase, one with rank 0 in the
// plain phase (whose statement has no boosted part); expired boosts
// simply stop matching the first phase.
func (s jobStore) ListJobs(ctx context.Context, f marketplace.JobFilter) ([]*marketplace.Job, error) {
	const op = "bunstore.ListJobs"
	if f.Limit <= 0 {
		return []*marketplace.Job{}, nil
	}
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	shape, args := jobPageArgs(f)
	var rows []*jobRow
	err = s.e.d.queryHot(ctx, db, s.e.d.hot.jobPages[shape], args, func(r *sql.Rows) (err error) {
		rows, err = scanPlanned[jobRow](r, s.e.d.jobPlan, 0)
		return err
	})
	if err != nil {
		return nil, translate(op, err)
	}
	// The active boosts first (UNION ALL keeps its parts in order, but SQL
	// does not promise it), then the page's length.
	ref := millis(f.Ref)
	slices.SortStableFunc(rows, func(a, b *jobRow) int {
		return cmp.Compare(b.boostedAt(ref), a.boostedAt(ref))
	})
	rows = rows[:min(len(rows), f.Limit)]
	out := make([]*marketplace.Job, len(rows))
	for i, r := range rows {
		if out[i], err = r.job(); err != nil {
			return nil, openjury.Wrap(op, err)
		}
	}
	return out, nil
}

// boostedAt is 1 when the row's boost is active at ref (Unix ms), else 0:
// which phase of a job page the row belongs to.
func (r *jobRow) boostedAt(ref int64) int {
	if r.FeaturedUntil != nil && r.FeaturedScore > 0 && *r.FeaturedUntil > ref {
		return 1
	}
	return 0
}

// The shapes of a job page's statement (jobPageQuery): whether it filters
// by status, by tag and by funded escrow, and where it starts. Each shape is one prepared
// statement, so there are jobPageShapes of them.
const (
	pageByStatus = 1 << iota
	pageByTag
	// pageFunded keeps only the jobs whose escrow is funded.
	pageFunded
	// pageAfterBoost starts after a cursor in the boosted phase,
	// pageAfterPlain after one in the plain phase; neither is the first
	// page.
	pageAfterBoost
	pageAfterPlain
	jobPageShapes = pageAfterPlain << 1
)

// fundedLiteral is the funded escrow status written into the statement,
// not bound: a prepared statement's generic plan can use the partial
// indexes of funded jobs only when it knows the value.
const fundedLiteral = "'" + string(marketplace.EscrowFunded) + "'"

// jobPageArgs returns the shape of f's page and the arguments of its
// statement.
func jobPageArgs(f marketplace.JobFilter) (int, []any) {
	w := sqlWriter{args: make([]any, 0, 12)}
	shape := jobPageQuery(&w, "", f)
	return shape, w.args
}

// jobPageSQL returns the text of the statement of each shape, with ?
// parameters, for the dialect of db (empty for the shapes that do not
// exist); the select list is jobRow's columns.
func jobPageSQL(dialect string, db *bun.DB) [jobPageShapes]string {
	var cols strings.Builder
	for i, f := range db.Table(reflect.TypeFor[jobRow]()).Fields {
		if i > 0 {
			cols.WriteString(", ")
		}
		cols.WriteString("j.")
		cols.WriteString(string(f.SQLName))
	}
	var out [jobPageShapes]string
	for shape := range jobPageShapes {
		if shape&pageAfterBoost != 0 && shape&pageAfterPlain != 0 {
			continue // no cursor is in both phases
		}
		f := marketplace.JobFilter{Limit: 1}
		if shape&pageByStatus != 0 {
			f.Status = marketplace.StatusOpen
		}
		if shape&pageByTag != 0 {
			f.Tag = "t"
		}
		f.Funded = shape&pageFunded != 0
		switch {
		case shape&pageAfterBoost != 0:
			f.After = &marketplace.JobCursor{Rank: 1}
		case shape&pageAfterPlain != 0:
			f.After = &marketplace.JobCursor{}
		}
		var b strings.Builder
		w := sqlWriter{b: &b, pg: dialect == DialectPostgres}
		if got := jobPageQuery(&w, cols.String(), f); got != shape {
			panic(fmt.Sprintf("bunstore: job page shape %d built as %d", shape, got))
		}
		out[shape] = b.String()
	}
	return out
}

// jobPageQuery writes to w the one statement of the page f selects and
// returns its shape (see ListJobs): the boosted phase, unless f's cursor
// is in the plain phase, then UNION ALL the plain phase, each ordered,
// filtered and limited to f.Limit rows on its own. cols is the select
// list (written only when w writes text). The same code writes the text
// once per shape and the arguments of every call, so the two cannot
// drift apart.
func jobPageQuery(w *sqlWriter, cols string, f marketplace.JobFilter) int {
	tag := strings.ToLower(strings.TrimSpace(f.Tag))
	ref := millis(f.Ref)
	shape := 0
	if f.Status != "" {
		shape |= pageByStatus
	}
	if tag != "" {
		shape |= pageByTag
	}
	if f.Funded {
		shape |= pageFunded
	}
	if a := f.After; a != nil {
		if a.Rank > 0 {
			shape |= pageAfterBoost
		} else {
			shape |= pageAfterPlain
		}
	}
	if shape&pageAfterPlain == 0 {
		w.sql("SELECT * FROM (SELECT ", cols, " FROM jobs AS j\nWHERE j.featured_until IS NOT NULL AND j.featured_score > 0 AND j.featured_until > ")
		w.arg(ref, "bigint")
		if f.Status != "" {
			w.sql(" AND j.status = ")
			w.arg(string(f.Status), "text")
		}
		if f.Funded {
			w.sql(" AND j.escrow_status = ", fundedLiteral)
		}
		if tag != "" {
			w.sql(" AND EXISTS (SELECT 1 FROM job_tags AS jt WHERE jt.job_id = j.id AND jt.tag = ")
			w.arg(tag, "text")
			w.sql(")")
		}
		if a := f.After; a != nil {
			w.sql("\nAND (j.featured_score, j.created_at, j.id) < (")
			w.arg(a.Rank, "bigint")
			w.sql(", ")
			w.arg(millis(a.CreatedAt), "bigint")
			w.sql(", ")
			w.arg(a.ID, "text")
			w.sql(")")
		}
		w.sql("\nORDER BY j.featured_score DESC, j.created_at DESC, j.id DESC LIMIT ")
		w.limit(f.Limit)
		w.sql(") AS b\nUNION ALL\n")
	}
	// The plain phase walks job_tags' copies of the columns for a tag,
	// else jobs'.
	t, id, from := "j", "j.id", "jobs AS j"
	if tag != "" {
		t, id, from = "jt", "jt.job_id", "job_tags AS jt JOIN jobs AS j ON j.id = jt.job_id"
	}
	// Not an active boost at ref: the complement of the first phase.
	w.sql("SELECT * FROM (SELECT ", cols, " FROM ", from,
		"\nWHERE (j.featured_until IS NULL OR j.featured_score = 0 OR j.featured_until <= ")
	w.arg(ref, "bigint")
	w.sql(")")
	if tag != "" {
		w.sql(" AND jt.tag = ")
		w.arg(tag, "text")
	}
	if f.Status != "" {
		w.sql(" AND ", t, ".status = ")
		w.arg(string(f.Status), "text")
	}
	if f.Funded {
		// The partial indexes of funded jobs, in this order.
		w.sql(" AND j.escrow_status = ", fundedLiteral)
	}
	if a := f.After; a != nil && a.Rank == 0 {
		w.sql("\nAND (", t, ".created_at, ", id, ") < (")
		w.arg(millis(a.CreatedAt), "bigint")
		w.sql(", ")
		w.arg(a.ID, "text")
		w.sql(")")
	}
	w.sql("\nORDER BY ", t, ".created_at DESC, ", id, " DESC LIMIT ")
	w.limit(f.Limit)
	w.sql(") AS p")
	return shape
}

// sqlWriter writes a statement's text (when b is set) and collects its
// arguments: each parameter is written ?, cast to its type on PostgreSQL,
// whose prepared statements must know every parameter's type.
//
// On SQLite a parameter is written +? (unary plus, which changes neither
// its value nor its affinity). SQLite, built with STAT4, reads the value
// bound to a bare parameter while it plans (for a comparison with an index
// column, and for LIMIT) and then prepares the statement again whenever a
// value is bound, which with the driver's rebinding is on every run: a
// full parse each time. It reads no value out of an expression, so the
// statement keeps its plan: the index walk the plan test checks.
type sqlWriter struct {
	b    *strings.Builder
	pg   bool
	args []any
}

func (w *sqlWriter) sql(parts ...string) {
	if w.b == nil {
		return
	}
	for _, p := range parts {
		w.b.WriteString(p)
	}
}

// arg writes a parameter holding v, of PostgreSQL type pgType.
func (w *sqlWriter) arg(v any, pgType string) {
	w.args = append(w.args, v)
	if w.pg {
		w.sql("?::", pgType)
	} else {
		w.sql("+?")
	}
}

// limit writes the parameter of a LIMIT clause holding n.
func (w *sqlWriter) limit(n int) { w.arg(int64(n), "bigint") }

// jobDetails are the details of a duplicate or a missing job.
var jobDetails = details{detailDuplicate: "job already exists", detailNotFound: "job not found"}

// millis is the stored form of a time: Unix milliseconds.
func millis(t time.Time) int64 { return t.UnixMilli() }

// fromMillis reads a stored time back, in UTC.
func fromMillis(ms int64) time.Time { return time.UnixMilli(ms).UTC() }

func millisPtr(t *time.Time) *int64 {
	if t == nil {
		return nil
	}
	ms := millis(*t)
	return &ms
}

func fromMillisPtr(ms *int64) *time.Time {
	if ms == nil {
		return nil
	}
	t := fromMillis(*ms)
	return &t
}
