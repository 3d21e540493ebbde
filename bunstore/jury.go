package bunstore

import (
	"context"
	"database/sql"
	"errors"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/marketplace"
)

var (
	_ marketplace.JurorIndex       = jurorIndex{}
	_ marketplace.JuryStore        = juryStore{}
	_ marketplace.JuryQueue        = juryStore{}
	_ marketplace.JuryOutcomeStore = juryStore{}
)

// Jurors returns the eligible jurors' index outside any transaction.
func (d *DB) Jurors() marketplace.JurorIndex { return jurorIndex{d.pool()} }

// Juries returns the draws and panels outside any transaction.
func (d *DB) Juries() marketplace.JuryStore { return juryStore{d.pool()} }

// JuryQueue returns the jury step's queue outside any transaction.
func (d *DB) JuryQueue() marketplace.JuryQueue { return juryStore{d.pool()} }

// JuryOutcomes returns the close's jury writes outside any transaction.
func (d *DB) JuryOutcomes() marketplace.JuryOutcomeStore { return juryStore{d.pool()} }

// Jurors returns the eligible jurors' index of the transaction.
func (t txStores) Jurors() marketplace.JurorIndex { return jurorIndex{t.e} }

// Juries returns the draws and panels of the transaction.
func (t txStores) Juries() marketplace.JuryStore { return juryStore{t.e} }

// JuryQueue returns the jury step's queue of the transaction.
func (t txStores) JuryQueue() marketplace.JuryQueue { return juryStore{t.e} }

// JuryOutcomes returns the close's jury writes of the transaction.
func (t txStores) JuryOutcomes() marketplace.JuryOutcomeStore { return juryStore{t.e} }

// juryPrefixDepth is how many hex digits of an address the sums of
// jury_sums go down to (migration 20261125000060): a draw reads 16
// children per level for juryPrefixDepth levels, then the addresses of
// one prefix (about M / 16^juryPrefixDepth of them).
const juryPrefixDepth = 4

// jurorIndex implements marketplace.JurorIndex over juror_versions and
// jury_sums, which the triggers of stakes and reputation keep.
type jurorIndex struct{ e exec }

// JuryVersion sets the eligibility rule of the index when it differs
// (then every address is touched again, in one transaction: the one
// O(M) step, on the first draw after a change of the service's minimums)
// and returns the current version.
func (s jurorIndex) JuryVersion(ctx context.Context, minStake openjury.MicroUSDC, minRep int64) (int64, error) {
	const op = "bunstore.JuryVersion"
	var version int64
	err := s.e.inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		const differs = `id = 1 AND (min_stake_micro IS NULL OR min_rep_score IS NULL OR min_stake_micro <> ? OR min_rep_score <> ?)`
		change := true
		if s.e.d.dialect == DialectPostgres {
			// A change of the rule first waits for the commits that read
			// the old one (the shared lock of openjury_jury_touch_score,
			// migration 20261126000110); the same rule takes no lock.
			var err error
			if change, err = db.NewSelect().Table("jury_config").Where(differs, int64(minStake), minRep).Exists(ctx); err != nil {
				return translate(op, err)
			}
			if change {
				if _, err := db.NewRaw(`SELECT pg_advisory_xact_lock(?, 0)`, juryRuleLock).Exec(ctx); err != nil {
					return translate(op, err)
				}
			}
		}
		if change {
			if err := s.applyRule(ctx, db, differs, minStake, minRep); err != nil {
				return err
			}
		}
		return translate(op, db.NewRaw(`SELECT version FROM jury_state WHERE id = 1`).Scan(ctx, &version))
	})
	return version, err
}

// juryRuleLock is the first key of the advisory lock that orders a change
// of the eligibility rule after the commits that read the old rule
// (PostgreSQL; migration 20261126000110).
const juryRuleLock = 1786082426

// applyRule sets the eligibility rule where it differs (the condition
// differs, with the rule's two values) and then touches every address,
// in address order.
func (s jurorIndex) applyRule(ctx context.Context, db bun.IDB, differs string, minStake openjury.MicroUSDC, minRep int64) error {
	const op = "bunstore.JuryVersion"
	res, err := db.NewRaw(`UPDATE jury_config SET min_stake_micro = ?, min_rep_score = ? WHERE `+differs,
		int64(minStake), minRep, int64(minStake), minRep).Exec(ctx)
	n, err := affected(op, res, err)
	if err != nil || n != 1 {
		return err
	}
	touch := `INSERT INTO jury_touch (address) SELECT a.address FROM (` + everyAddress + `) AS a ORDER BY a.address`
	if s.e.d.dialect == DialectPostgres {
		touch = `SELECT openjury_jury_touch(a.address) FROM (` + everyAddress + ` ORDER BY 1) AS a`
	}
	_, err = db.NewRaw(touch).Exec(ctx)
	return translate(op, err)
}

// everyAddress are the addresses whose juror stake may be above 0 or was.
const everyAddress = `SELECT address FROM stakes UNION SELECT address FROM reputation UNION SELECT address FROM juror_versions`

// sumAt is the scalar subquery of a prefix's sum column col at a version
// (parameters: prefix, version).
func sumAt(col string) string {
	return `(SELECT s.` + col + ` FROM jury_sums AS s WHERE s.prefix = ? AND s.version <= ? ORDER BY s.version DESC LIMIT 1)`
}

// EligibleTotal reads the root sum at version.
func (s jurorIndex) EligibleTotal(ctx context.Context, version int64) (int64, openjury.MicroUSDC, error) {
	const op = "bunstore.EligibleTotal"
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return 0, 0, err
	}
	var count, total sql.NullInt64
	err = s.e.d.scanHot(ctx, db, s.e.d.hot.juryTotal, []any{&count, &total}, "", version, "", version)
	return count.Int64, openjury.MicroUSDC(total.Int64), translate(op, err)
}

// eligibleTotal reads the root's sums at a version (parameters: the
// empty prefix, version, the empty prefix, version).
var eligibleTotal = `SELECT ` + sumAt("jurors") + `, ` + sumAt("total_micro")

// jurorStakeAt reads an address's juror stake at a version (parameters:
// address, version).
const jurorStakeAt = `SELECT v.stake_micro FROM juror_versions AS v WHERE v.address = ? AND v.version <= ?
ORDER BY v.version DESC LIMIT 1`

// JurorStake reads addr's latest juror_versions row at version.
func (s jurorIndex) JurorStake(ctx context.Context, version int64, addr openjury.Address) (openjury.MicroUSDC, error) {
	const op = "bunstore.JurorStake"
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return 0, err
	}
	var stake int64
	err = s.e.d.scanHot(ctx, db, s.e.d.hot.jurorStake, []any{&stake}, string(addr), version)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return openjury.MicroUSDC(stake), translate(op, err)
}

// hexDigits are the children of a prefix, in address order.
const hexDigits = "0123456789abcdef"

// childSums reads, in one statement of 16 primary-key seeks, the total
// stake at version of each child prefix of prefix.
var childSums = func() string {
	cols := make([]string, len(hexDigits))
	for i := range cols {
		cols[i] = sumAt("total_micro")
	}
	return `SELECT ` + strings.Join(cols, ", ")
}()

// leafJurors reads the eligible jurors at version whose address is in
// [lo, hi), in address order (parameters: lo, hi, version).
const leafJurors = `SELECT v.address, v.stake_micro FROM juror_versions AS v
WHERE v.address >= ? AND v.address < ?
AND v.version = (SELECT MAX(x.version) FROM juror_versions AS x WHERE x.address = v.address AND x.version <= ?)
AND v.stake_micro > 0
ORDER BY v.address`

// JurorAt walks jury_sums from the root down: at each of the
// juryPrefixDepth levels one statement reads the 16 children's sums at
// version, less the excluded jurors under each, and goes down the child
// whose range holds offset; then it walks the addresses of that prefix.
func (s jurorIndex) JurorAt(ctx context.Context, version int64, offset openjury.MicroUSDC, exclude []marketplace.Juror) (marketplace.Juror, error) {
	const op = "bunstore.JurorAt"
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return marketplace.Juror{}, err
	}
	left := int64(offset)
	prefix := ""
	for level := 1; level <= juryPrefixDepth; level++ {
		args := make([]any, 0, 2*len(hexDigits))
		for _, c := range hexDigits {
			args = append(args, prefix+string(c), version)
		}
		var sums [len(hexDigits)]sql.NullInt64
		dest := make([]any, len(sums))
		for i := range sums {
			dest[i] = &sums[i]
		}
		if err := s.e.d.scanHot(ctx, db, s.e.d.hot.juryChildren, dest, args...); err != nil {
			return marketplace.Juror{}, translate(op, err)
		}
		next := ""
		for i, c := range hexDigits {
			child := prefix + string(c)
			w := sums[i].Int64 - excludedUnder(exclude, child)
			if left < w {
				next = child
				break
			}
			left -= w
		}
		if next == "" {
			return marketplace.Juror{}, openjury.Errorf(openjury.Internal, op, "offset %d is beyond the eligible set of version %d", offset, version)
		}
		prefix = next
	}
	var found *marketplace.Juror
	err = s.e.d.queryHot(ctx, db, s.e.d.hot.juryLeaf, []any{"0x" + prefix, "0x" + prefix + "g", version}, func(rows *sql.Rows) error {
		for rows.Next() {
			var j marketplace.Juror
			var addr string
			if err := rows.Scan(&addr, &j.Stake); err != nil {
				return err
			}
			j.Address = openjury.Address(addr)
			if excluded(exclude, j.Address) {
				continue
			}
			if left < int64(j.Stake) {
				found = &j
				return nil
			}
			left -= int64(j.Stake)
		}
		return rows.Err()
	})
	if err != nil {
		return marketplace.Juror{}, translate(op, err)
	}
	if found != nil {
		return *found, nil
	}
	return marketplace.Juror{}, openjury.Errorf(openjury.Internal, op, "the sums of prefix %s at version %d do not match its jurors", prefix, version)
}

// excludedUnder sums the stakes of the excluded jurors under a prefix.
func excludedUnder(exclude []marketplace.Juror, prefix string) int64 {
	var n int64
	for _, j := range exclude {
		if strings.HasPrefix(string(j.Address)[2:], prefix) {
			n += int64(j.Stake)
		}
	}
	return n
}

// excluded reports whether addr is one of exclude.
func excluded(exclude []marketplace.Juror, addr openjury.Address) bool {
	for _, j := range exclude {
		if j.Address == addr {
			return true
		}
	}
	return false
}

// scanVersions reads a chunk of juror_versions in primary-key order after
// a position (parameters: address, version, limit): a plain range of the
// primary key, whatever the table's size and history.
const scanVersions = `SELECT v.address, v.version, v.stake_micro FROM juror_versions AS v
WHERE (v.address, v.version) > (?, ?)
ORDER BY v.address, v.version LIMIT ?`

// scanChunk is how many rows of juror_versions ScanEligible reads a
// statement.
const scanChunk = 500

// ScanEligible walks the primary key of juror_versions from the address
// after, a chunk at a time, keeping for the address at hand its latest
// row at or before version, and hands each address whose juror stake
// there is above 0 to fn: memory stays one chunk, and no row is read twice.
func (s jurorIndex) ScanEligible(ctx context.Context, version int64, after openjury.Address, limit int, fn func(marketplace.Juror) bool) error {
	const op = "bunstore.ScanEligible"
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return err
	}
	posAddr, posVer := string(after), int64(math.MaxInt64)
	var cand marketplace.Juror // the address at hand and its stake at version
	sent := 0
	// emit hands the address at hand to fn when it is eligible; false
	// stops the walk.
	emit := func() bool {
		if cand.Address == "" || cand.Stake <= 0 {
			return true
		}
		sent++
		return fn(cand) && sent < limit
	}
	for {
		n := 0
		stop := false
		err := func() error {
			rows, err := db.QueryContext(ctx, scanVersions, posAddr, posVer, scanChunk)
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
				var addr string
				var ver, stake int64
				if err := rows.Scan(&addr, &ver, &stake); err != nil {
					return err
				}
				n++
				posAddr, posVer = addr, ver
				if openjury.Address(addr) != cand.Address {
					if !emit() {
						stop = true
						return nil
					}
					cand = marketplace.Juror{Address: openjury.Address(addr)}
				}
				if ver <= version {
					cand.Stake = openjury.MicroUSDC(stake)
				}
			}
			return rows.Err()
		}()
		if err != nil {
			return translate(op, err)
		}
		if stop {
			return nil
		}
		if n < scanChunk {
			emit()
			return nil
		}
	}
}

// juryDrawRow is a row of jury_draws.
type juryDrawRow struct {
	bun.BaseModel `bun:"table:jury_draws,alias:d"`

	JobID          string `bun:"job_id,pk"`
	Size           int64  `bun:"size,notnull"`
	SponsorAddress string `bun:"sponsor_address,notnull"`
	Version        int64  `bun:"version,notnull"`
	SeedSource     string `bun:"seed_source,notnull"`
	SeedBlock      *int64 `bun:"seed_block"`
	Seed           string `bun:"seed,nullzero"`
	DrawnAt        *int64 `bun:"drawn_at"`
	EligibleCount  *int64 `bun:"eligible_count"`
	EligibleMicro  *int64 `bun:"eligible_micro"`
	EligibleHash   string `bun:"eligible_hash,nullzero"`
	CreatedAt      int64  `bun:"created_at,notnull"`
}

func toJuryDrawRow(d *marketplace.JuryDraw) *juryDrawRow {
	r := &juryDrawRow{
		JobID: d.JobID, Size: int64(d.Size), SponsorAddress: string(d.Sponsor), Version: d.Version,
		SeedSource: d.SeedSource, SeedBlock: optInt64(d.SeedBlock), Seed: string(d.Seed), DrawnAt: millisPtr(d.DrawnAt),
		EligibleHash: string(d.EligibleHash), CreatedAt: millis(d.CreatedAt),
	}
	if d.Drawn() {
		count, stake := d.EligibleCount, int64(d.EligibleStake)
		r.EligibleCount, r.EligibleMicro = &count, &stake
	}
	return r
}

func (r *juryDrawRow) draw() *marketplace.JuryDraw {
	return &marketplace.JuryDraw{
		JobID: r.JobID, Size: int(r.Size), Sponsor: openjury.Address(r.SponsorAddress), Version: r.Version,
		SeedSource: r.SeedSource, SeedBlock: deref64(r.SeedBlock), Seed: openjury.Hash(r.Seed), DrawnAt: fromMillisPtr(r.DrawnAt),
		EligibleCount: deref64(r.EligibleCount), EligibleStake: openjury.MicroUSDC(deref64(r.EligibleMicro)),
		EligibleHash: openjury.Hash(r.EligibleHash), CreatedAt: fromMillis(r.CreatedAt),
	}
}

// juryPanelRow is a row of jury_panel.
type juryPanelRow struct {
	bun.BaseModel `bun:"table:jury_panel,alias:p"`

	JobID        string `bun:"job_id,pk"`
	JurorAddress string `bun:"juror_address,pk"`
	Ord          int64  `bun:"ord,notnull"`
	StakeMicro   int64  `bun:"stake_micro,notnull"`
	JobStatus    string `bun:"job_status,notnull"`
}

// juryStore implements marketplace.JuryStore, JuryQueue and
// JuryOutcomeStore on the pools or on one transaction.
type juryStore struct{ e exec }

// PutDraw inserts the draw row and the panel rows in one transaction.
func (s juryStore) PutDraw(ctx context.Context, d *marketplace.JuryDraw, panel []marketplace.Juror) error {
	const op = "bunstore.PutDraw"
	return s.e.inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		if _, err := db.NewInsert().Model(toJuryDrawRow(d)).Exec(ctx); err != nil {
			return translateWith(op, err, drawDetails)
		}
		return insertPanel(ctx, op, db, d.JobID, string(marketplace.StatusOpen), panel)
	})
}

// insertPanel inserts the panel rows of a job in draw order.
func insertPanel(ctx context.Context, op string, db bun.IDB, jobID, status string, panel []marketplace.Juror) error {
	if len(panel) == 0 {
		return nil
	}
	rows := make([]juryPanelRow, len(panel))
	for i, j := range panel {
		rows[i] = juryPanelRow{JobID: jobID, JurorAddress: string(j.Address), Ord: int64(i), StakeMicro: int64(j.Stake), JobStatus: status}
	}
	_, err := db.NewInsert().Model(&rows).Exec(ctx)
	return translate(op, err)
}

// CompleteDraw updates the pending draw by one conditional UPDATE (drawn_at
// IS NULL), then inserts the panel with the job's status.
func (s juryStore) CompleteDraw(ctx context.Context, d *marketplace.JuryDraw, panel []marketplace.Juror) error {
	const op = "bunstore.CompleteDraw"
	row := toJuryDrawRow(d)
	return s.e.inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		res, err := db.NewUpdate().Model(row).Column("seed", "drawn_at", "eligible_count", "eligible_micro").
			WherePK().Where("drawn_at IS NULL").Exec(ctx)
		n, err := affected(op, res, err)
		if err != nil {
			return err
		}
		if n == 0 {
			if _, err := (juryStore{s.e.d.txExec(db)}).Draw(ctx, d.JobID); err != nil {
				return err
			}
			return openjury.E(openjury.Conflict, op, marketplace.DetailAlreadyDrawn)
		}
		var status string
		if err := db.NewRaw(`SELECT status FROM jobs WHERE id = ?`, d.JobID).Scan(ctx, &status); err != nil {
			return translateWith(op, err, jobDetails)
		}
		return insertPanel(ctx, op, db, d.JobID, status, panel)
	})
}

// Draw reads a job's draw.
func (s juryStore) Draw(ctx context.Context, jobID string) (*marketplace.JuryDraw, error) {
	const op = "bunstore.Draw"
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	var row juryDrawRow
	if err := db.NewSelect().Model(&row).Where("d.job_id = ?", jobID).Scan(ctx); err != nil {
		return nil, translateWith(op, err, drawDetails)
	}
	return row.draw(), nil
}

// panelMemberRow is a row of Panel and Duties.
type panelMemberRow struct {
	Address   string `bun:"juror_address"`
	Ord       int64  `bun:"ord"`
	Stake     int64  `bun:"stake_micro"`
	Committed bool   `bun:"committed"`
	Revealed  bool   `bun:"revealed"`
}

func (r panelMemberRow) member() marketplace.PanelMember {
	return marketplace.PanelMember{
		Juror: marketplace.Juror{Address: openjury.Address(r.Address), Stake: openjury.MicroUSDC(r.Stake)},
		Ord:   int(r.Ord), Committed: r.Committed, Revealed: r.Revealed,
	}
}

// panelColumns are the columns of a panel member with what it did, from
// jury_panel AS p.
const panelColumns = `p.juror_address, p.ord, p.stake_micro,
EXISTS (SELECT 1 FROM jury_commitments AS c WHERE c.job_id = p.job_id AND c.voter_address = p.juror_address) AS committed,
EXISTS (SELECT 1 FROM votes AS v WHERE v.job_id = p.job_id AND v.voter_address = p.juror_address) AS revealed`

// Panel reads a job's panel in draw order (at most MaxJurySize rows).
func (s juryStore) Panel(ctx context.Context, jobID string) ([]marketplace.PanelMember, error) {
	const op = "bunstore.Panel"
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	var rows []panelMemberRow
	if err := db.NewRaw(`SELECT `+panelColumns+` FROM jury_panel AS p WHERE p.job_id = ? ORDER BY p.ord`, jobID).Scan(ctx, &rows); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, translate(op, err)
	}
	out := make([]marketplace.PanelMember, len(rows))
	for i, r := range rows {
		out[i] = r.member()
	}
	return out, nil
}

// IsDrawn reads one panel row by its primary key.
func (s juryStore) IsDrawn(ctx context.Context, jobID string, addr openjury.Address) (bool, error) {
	const op = "bunstore.IsDrawn"
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return false, err
	}
	n, err := db.NewSelect().Model((*juryPanelRow)(nil)).Where("p.job_id = ?", jobID).Where("p.juror_address = ?", string(addr)).Count(ctx)
	return n > 0, translate(op, err)
}

// SetEligibleHash sets the hash once (a second, equal computation changes
// nothing).
func (s juryStore) SetEligibleHash(ctx context.Context, jobID string, h openjury.Hash) error {
	const op = "bunstore.SetEligibleHash"
	db, err := s.e.writer(ctx, op)
	if err != nil {
		return err
	}
	_, err = db.NewUpdate().Model((*juryDrawRow)(nil)).Set("eligible_hash = ?", string(h)).
		Where("job_id = ?", jobID).Where("eligible_hash IS NULL").Where("drawn_at IS NOT NULL").Exec(ctx)
	return translate(op, err)
}

// dutyRow is a row of Duties: the job's columns and the member's.
type dutyRow struct {
	jobRow
	panelMemberRow
}

// Duties walks jury_panel_juror_idx (juror, job status, job id) from the
// cursor, joining each job by its primary key.
func (s juryStore) Duties(ctx context.Context, addr openjury.Address, after *marketplace.DutyCursor, limit int) ([]marketplace.Duty, error) {
	const op = "bunstore.Duties"
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	from := ""
	if after != nil {
		from = after.JobID
	}
	var rows []dutyRow
	err = db.NewRaw(`SELECT j.*, `+panelColumns+` FROM jury_panel AS p JOIN jobs AS j ON j.id = p.job_id
WHERE p.juror_address = ? AND p.job_status = ? AND p.job_id > ?
ORDER BY p.job_id LIMIT ?`, string(addr), string(marketplace.StatusOpen), from, limit).Scan(ctx, &rows)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, translate(op, err)
	}
	out := make([]marketplace.Duty, len(rows))
	for i := range rows {
		j, err := rows[i].job()
		if err != nil {
			return nil, openjury.Wrap(op, err)
		}
		out[i] = marketplace.Duty{Job: j, Member: rows[i].member()}
	}
	return out, nil
}

// PendingDraws reads the partial index of undrawn draws, of open jobs.
func (s juryStore) PendingDraws(ctx context.Context, limit int) ([]*marketplace.JuryDraw, error) {
	return s.queue(ctx, "bunstore.PendingDraws", "d.drawn_at IS NULL AND EXISTS (SELECT 1 FROM jobs AS j WHERE j.id = d.job_id AND j.status = 'open')", limit)
}

// UnhashedDraws reads the partial index of drawn draws without a hash.
func (s juryStore) UnhashedDraws(ctx context.Context, limit int) ([]*marketplace.JuryDraw, error) {
	return s.queue(ctx, "bunstore.UnhashedDraws", "d.drawn_at IS NOT NULL AND d.eligible_hash IS NULL", limit)
}

// queue reads up to limit draws matching where, oldest first.
func (s juryStore) queue(ctx context.Context, op, where string, limit int) ([]*marketplace.JuryDraw, error) {
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	var rows []juryDrawRow
	err = db.NewSelect().Model(&rows).Where(where).OrderExpr("d.created_at ASC").OrderExpr("d.job_id ASC").Limit(int64(limit)).Scan(ctx)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, translate(op, err)
	}
	out := make([]*marketplace.JuryDraw, len(rows))
	for i := range rows {
		out[i] = rows[i].draw()
	}
	return out, nil
}

// AcquireLease is the named lease of the stake sync's table.
func (s juryStore) AcquireLease(ctx context.Context, name, owner string, now, until time.Time) (bool, error) {
	return syncStore(s).AcquireLease(ctx, name, owner, now, until)
}

// creditChunk is how many coherent jurors CreditCoherent credits a
// statement.
const creditChunk = 500

// CreditCoherent pages through the job's votes for the submission by
// voter (index votes (submission_id, voter_address)), a chunk at a time:
// the chunk's ledger rows in one INSERT ... ON CONFLICT DO NOTHING
// RETURNING (at most one jury credit per job and address), then the
// balances of those credited in one upsert, locked in address order.
func (s juryStore) CreditCoherent(ctx context.Context, jobID, submissionID string, amount int64, now time.Time) (int64, error) {
	const op = "bunstore.CreditCoherent"
	var total int64
	err := s.e.inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		total = 0 // a run again (DB.runTx) counts afresh
		after := ""
		for {
			var voters []string
			err := db.NewRaw(`SELECT v.voter_address FROM votes AS v WHERE v.submission_id = ? AND v.job_id = ? AND v.voter_address > ?
ORDER BY v.voter_address LIMIT ?`, submissionID, jobID, after, creditChunk).Scan(ctx, &voters)
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return translate(op, err)
			}
			if len(voters) == 0 {
				return nil
			}
			after = voters[len(voters)-1]
			ledger := make([]agrLedgerRow, len(voters))
			for i, v := range voters {
				ledger[i] = agrLedgerRow{ID: openjury.NewID(), Address: v, Delta: amount, Reason: string(agr.ReasonJury), JobID: jobID, CreatedAt: millis(now)}
			}
			var credited []string
			err = db.NewInsert().Model(&ledger).On("CONFLICT (job_id, address) WHERE reason = 'jury' DO NOTHING").
				Returning("address").Scan(ctx, &credited)
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return translate(op, err)
			}
			if len(credited) > 0 {
				balances := make([]agrBalanceRow, len(credited))
				for i, a := range credited {
					balances[i] = agrBalanceRow{Address: a, Balance: amount, Earned: amount}
				}
				sortBalances(balances)
				_, err := db.NewInsert().Model(&balances).On("CONFLICT (address) DO UPDATE").
					Set("balance = b.balance + EXCLUDED.balance").Set("earned = b.earned + EXCLUDED.earned").Exec(ctx)
				if err != nil {
					return translate(op, err)
				}
				total += int64(len(credited))
			}
			if len(voters) < creditChunk {
				return nil
			}
		}
	})
	return total, err
}

// sortBalances orders balance rows by address: the lock order of every
// batch of balance writes.
func sortBalances(rows []agrBalanceRow) {
	slices.SortFunc(rows, func(a, b agrBalanceRow) int { return strings.Compare(a.Address, b.Address) })
}

// PenalizeNoShows lowers, in one INSERT ... SELECT ... ORDER BY ... ON
// CONFLICT DO UPDATE (rows locked in address order, like AddJobOutcome),
// the score of each drawn juror of the job without a vote on it that has
// a reputation record (one without has a score of 0 already).
func (s juryStore) PenalizeNoShows(ctx context.Context, jobID string, penalty int64, now time.Time) (int64, error) {
	const op = "bunstore.PenalizeNoShows"
	var n int64
	err := s.e.writeAll(ctx, op, func(ctx context.Context, db bun.IDB) error {
		res, err := db.NewRaw(addReputationInto+`
SELECT p.juror_address, 0, 0, 0, 0, 0, ? FROM jury_panel AS p
WHERE p.job_id = ?
AND NOT EXISTS (SELECT 1 FROM votes AS v WHERE v.job_id = p.job_id AND v.voter_address = p.juror_address)
AND EXISTS (SELECT 1 FROM reputation AS x WHERE x.address = p.juror_address)
ORDER BY p.juror_address
ON CONFLICT (address) DO UPDATE SET score = CASE WHEN r.score > ? THEN r.score - ? ELSE 0 END, updated_at = EXCLUDED.updated_at`,
			millis(now), jobID, penalty, penalty).Exec(ctx)
		if n, err = affected(op, res, err); err != nil || s.e.d.dialect != DialectSQLite || n == 0 {
			return err
		}
		// The jury index on SQLite (reputationStore.touchCrossings): the
		// panel's no-shows, at most MaxJurySize, each recomputed.
		_, err = db.NewRaw(`INSERT INTO jury_touch (address) SELECT p.juror_address FROM jury_panel AS p
WHERE p.job_id = ?
AND NOT EXISTS (SELECT 1 FROM votes AS v WHERE v.job_id = p.job_id AND v.voter_address = p.juror_address)
AND EXISTS (SELECT 1 FROM reputation AS x WHERE x.address = p.juror_address)`, jobID).Exec(ctx)
		return translate(op, err)
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}

// ClosePanel copies the closed status into the job's panel rows.
func (s juryStore) ClosePanel(ctx context.Context, jobID string) error {
	const op = "bunstore.ClosePanel"
	db, err := s.e.writer(ctx, op)
	if err != nil {
		return err
	}
	_, err = db.NewUpdate().Model((*juryPanelRow)(nil)).Set("job_status = ?", string(marketplace.StatusClosed)).
		Where("job_id = ?", jobID).Where("job_status <> ?", string(marketplace.StatusClosed)).Exec(ctx)
	return translate(op, err)
}

// drawDetails are the details of a duplicate or a missing draw.
var drawDetails = details{detailDuplicate: "the job has a jury draw already", detailNotFound: "jury draw not found"}
