package bunstore

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/stake"
)

// Profiles returns the profile store outside any transaction.
func (d *DB) Profiles() marketplace.ProfileStore { return profileStore{d.pool()} }

// Profiles returns the profile store of the transaction.
func (t txStores) Profiles() marketplace.ProfileStore { return profileStore{t.e} }

// The web app's reads run on every page view, so they are hot statements
// (prepared.go): parsed once per connection, not once per call. A list
// always compares its cursor, (created_at, id) < (?, ?), so one statement
// serves the first page (noCursorAt, "") and the next ones; the per-target reads
// of a page (threads, counts) have a fixed number of slots, the unused
// ones given an id nothing has.
const (
	// threadSlots is how many submissions' comments one CommentsOf
	// statement reads; more are read in several.
	threadSlots = 10
	// countSlots is how many jobs' submissions one SubmissionCounts
	// statement counts.
	countSlots = 20
)

// noCursorAt is the created_at of the position before every row of a
// newest-first list (with the id ""): no created_at is larger.
const noCursorAt = math.MaxInt64

// webHot are the web app's hot statements.
type webHot struct {
	jobsBySponsor, subsByAgent, votesByVoter, finalsByVoter, threads, counts hot
	// reputationOf, agrOf and ledger are a profile's reputation, AGR
	// balance and page of AGR ledger (reputation.go, agr.go).
	reputationOf, agrOf, ledger hot
	// profile is a profile's reputation and lists in one statement, and
	// profileAccount the same with the address's account (profileQuery).
	profile, profileAccount hot
}

func (w webHot) all() []hot {
	return []hot{w.jobsBySponsor, w.subsByAgent, w.votesByVoter, w.finalsByVoter, w.threads, w.counts, w.reputationOf, w.agrOf, w.ledger,
		w.profile, w.profileAccount}
}

// commentColumns are the columns of commentRow, the select list of the
// threads statement's branches.
const commentColumns = "c.id, c.target_type, c.target_id, c.parent_id, c.author_address, c.content, c.created_at, " +
	"c.deleted_at, c.deleted_by, c.job_id, c.rev, c.deleted_rev"

// headExpr selects the head of a submission's content (alias ss): its
// first marketplace.HeadChars characters (substr counts characters on both
// engines).
var headExpr = fmt.Sprintf("substr(ss.content, 1, %d)", marketplace.HeadChars)

// listedJobColumns are the columns of jobRow that JobsBySponsor reads
// (marketplace.ListedJob): each column costs the driver a conversion per
// row, and a list needs a third of them.
var listedJobColumns = []string{"id", "title", "bounty_micro", "tags", "status", "sponsor_address", "created_at",
	"winner_submission_id", "closed_at", "featured_score", "featured_until", "final_vote_starts_at", "final_vote_ends_at",
	"escrow_status", "escrow_amount_micro", "payout_total_micro", "jury_mode", "jury_size", "jury_commit_ends_at", "jury_reveal_ends_at"}

// newWebHot builds the web app's hot statements for db's dialect. On
// SQLite a parameter a WHERE compares, and a LIMIT's, is written +?: with
// STAT4, SQLite reads the value bound to a bare parameter while it plans
// and so prepares the statement again whenever one is bound, which costs
// as much as not preparing it; it reads no value out of an expression, and
// the unary plus keeps the index use.
func newWebHot(dialect string, db *bun.DB) webHot {
	p := "?"
	if dialect == DialectSQLite {
		p = "+?"
	}
	param := bun.Safe(p)
	jobs := db.NewSelect().Model((*jobRow)(nil)).Column(listedJobColumns...).
		Where("j.sponsor_address = ?", param).Where("(j.created_at, j.id) < (?, ?)", param, param).
		OrderExpr("j.created_at DESC").OrderExpr("j.id DESC").Limit(1).String()
	jobs = strings.TrimSuffix(jobs, "LIMIT 1") + "LIMIT " + p
	var threads, counts []string
	for i := range threadSlots {
		threads = append(threads, fmt.Sprintf("SELECT * FROM (SELECT %s FROM comments AS c WHERE c.target_type = %s AND c.target_id = %s "+
			"ORDER BY c.created_at ASC, c.id ASC LIMIT %s) AS t%d", commentColumns, p, p, p, i))
	}
	for i := range countSlots {
		counts = append(counts, fmt.Sprintf("SELECT CAST(? AS TEXT) AS job_id, count(*) AS n FROM (SELECT 1 FROM submissions AS s WHERE s.job_id = %s LIMIT %s) AS t%d", p, p, i))
	}
	ledger := db.NewSelect().Model((*agrLedgerRow)(nil)).
		Where("l.address = ?", param).Where("(l.created_at, l.id) < (?, ?)", param, param).
		OrderExpr("l.created_at DESC").OrderExpr("l.id DESC").Limit(1).String()
	ledger = strings.TrimSuffix(ledger, "LIMIT 1") + "LIMIT " + p
	return webHot{
		reputationOf:   newHot(dialect, db.NewSelect().Model((*reputationRow)(nil)).Where("r.address = ?", param).String()),
		agrOf:          newHot(dialect, db.NewSelect().Model((*agrBalanceRow)(nil)).Where("b.address = ?", param).String()),
		ledger:         newHot(dialect, ledger),
		jobsBySponsor:  newHot(dialect, jobs),
		subsByAgent:    newHot(dialect, historyQuery(p, "submissions AS s", "s", "agent_address", "0")),
		votesByVoter:   newHot(dialect, historyQuery(p, "votes AS v", "v", "voter_address", "v.weight")),
		finalsByVoter:  newHot(dialect, historyQuery(p, "final_votes AS fv", "fv", "voter_address", "0")),
		threads:        newHot(dialect, strings.Join(threads, " UNION ALL ")),
		counts:         newHot(dialect, strings.Join(counts, " UNION ALL ")),
		profile:        newHot(dialect, profileQuery(p, false)),
		profileAccount: newHot(dialect, profileQuery(p, true)),
	}
}

// The branches of profileQuery, its column k.
const (
	profileRep = iota
	profileJobs
	profileSubs
	profileVotes
	profileFinals
	profileStake
	profileAGR
	profileLedger
)

// profileColumns is how many columns profileQuery's rows have.
const profileColumns = 15

// profileQuery is the statement of ProfileStore.Profile: an address's
// reputation and a page of each of its four lists in one UNION ALL of a
// primary-key probe and four LIMITed index walks (the walks of
// JobsBySponsor and historyQuery), so a profile is one round trip; with
// account, also the address's stake and AGR balance (primary-key probes)
// and a page of its AGR ledger (the ledger statement's walk).
//
// The branches share one lean column set, since the driver pays for
// every column of every row: k (profileRep...), the entry's id,
// created_at and weight, its job's and submission's heads (historyQuery's
// columns: job id, title, status, winner and reveal end, submission id,
// agent, head and created_at), then n1 and n2. A branch puts its other
// values in the columns of its type that it does not need:
//   - the reputation: id the address, created_at the update time, weight
//     the score, the reveal end the wins, the submission's created_at the
//     losses, n1 the submissions, n2 the jury votes;
//   - a job: weight the bounty, the reveal end featured_until, the
//     submission id the escrow status, its created_at the escrow amount;
//   - the stake: created_at the update time, weight the amount;
//   - the AGR balance: weight the balance, n1 earned, n2 spent;
//   - a ledger entry: weight the delta, the job id its job, the job
//     status its reason.
//
// The rest are NULLs, cast so that PostgreSQL types each column alike in
// every branch. Parameters (written p): the address; then for each list,
// in order, the address, the cursor's created_at and id, and the limit;
// with account, the address twice and the ledger's address, cursor and
// limit. It has no ORDER BY of its own: SQLite would sort every branch's
// rows to merge them, which costs more than the walks (Profile puts each
// list in order).
func profileQuery(p string, account bool) string {
	const (
		text   = "CAST(NULL AS TEXT)"
		bigint = "CAST(NULL AS BIGINT)"
	)
	nulls := func(n int, null string) string { return strings.TrimSuffix(strings.Repeat(null+", ", n), ", ") }
	heads := strings.Join([]string{nulls(4, text), bigint, nulls(3, text), bigint}, ", ")
	rep := fmt.Sprintf("SELECT %d AS k, r.address AS id, r.updated_at AS created_at, r.score AS weight, %s, r.wins, %s, r.losses, "+
		"r.submissions AS n1, r.jury_votes AS n2 FROM reputation AS r WHERE r.address = %s",
		profileRep, nulls(4, text), nulls(3, text), p)
	jobs := fmt.Sprintf("SELECT %d, pj.id, pj.created_at, pj.bounty_micro, %s, pj.title, pj.status, pj.winner_submission_id, pj.featured_until, "+
		"pj.escrow_status, %s, pj.escrow_amount_micro, %s FROM (SELECT j.id, j.title, j.status, j.winner_submission_id, j.created_at, "+
		"j.bounty_micro, j.featured_until, j.escrow_amount_micro, j.escrow_status FROM jobs AS j "+
		"WHERE j.sponsor_address = %s AND (j.created_at, j.id) < (%s, %s) ORDER BY j.created_at DESC, j.id DESC LIMIT %s) AS pj",
		profileJobs, text, nulls(2, text), nulls(2, bigint), p, p, p, p)
	history := func(k int, from, a, by, weight string) string {
		return fmt.Sprintf("SELECT %d, h.id, h.created_at, h.weight, h.job_id, h.job_title, h.job_status, h.job_winner, h.job_reveal_ends, "+
			"h.sub_id, h.sub_agent, h.sub_head, h.sub_created_at, %s FROM (%s) AS h",
			k, nulls(2, bigint), historyQuery(p, from, a, by, weight))
	}
	branches := []string{rep, jobs,
		history(profileSubs, "submissions AS s", "s", "agent_address", "0"),
		history(profileVotes, "votes AS v", "v", "voter_address", "v.weight"),
		history(profileFinals, "final_votes AS fv", "fv", "voter_address", "0"),
	}
	if account {
		branches = append(branches,
			fmt.Sprintf("SELECT %d, st.address, st.updated_at, st.staked_micro, %s, %s FROM stakes AS st WHERE st.address = %s",
				profileStake, heads, nulls(2, bigint), p),
			fmt.Sprintf("SELECT %d, b.address, 0, b.balance, %s, b.earned, b.spent FROM agr_balances AS b WHERE b.address = %s",
				profileAGR, heads, p),
			fmt.Sprintf("SELECT %d, pl.id, pl.created_at, pl.delta, pl.job_id, %s, pl.reason, %s, %s, %s, %s FROM (SELECT l.id, l.created_at, "+
				"l.delta, l.job_id, l.reason FROM agr_ledger AS l WHERE l.address = %s AND (l.created_at, l.id) < (%s, %s) "+
				"ORDER BY l.created_at DESC, l.id DESC LIMIT %s) AS pl",
				profileLedger, text, text, bigint, nulls(3, text), nulls(3, bigint), p, p, p, p))
	}
	return strings.Join(branches, " UNION ALL ")
}

// historyQuery is the statement of a profile's history: a page of the
// table expression from (alias a, whose column by holds the address,
// weight the entry's weight) walking the address's index, with each row's
// job and submission (the entry itself when a is s, else the row's
// submission_id) read by correlated primary-key lookups: no join the
// planner could turn into a walk of another table. Parameters (written p):
// the address, the cursor's created_at and id, the limit.
func historyQuery(p, from, a, by, weight string) string {
	sub := a + ".submission_id"
	if a == "s" {
		sub = "s.id"
	}
	job := func(col string) string { return "(SELECT j." + col + " FROM jobs AS j WHERE j.id = " + a + ".job_id)" }
	of := func(expr string) string {
		return "(SELECT " + expr + " FROM submissions AS ss WHERE ss.id = " + sub + ")"
	}
	return "SELECT " + a + ".id, " + weight + " AS weight, " + a + ".created_at, " + a + ".job_id, " +
		job("title") + " AS job_title, " + job("status") + " AS job_status, " + job("winner_submission_id") + " AS job_winner, " + job("jury_reveal_ends_at") + " AS job_reveal_ends, " +
		sub + " AS sub_id, " + of("ss.agent_address") + " AS sub_agent, " + of(headExpr) + " AS sub_head, " + of("ss.created_at") + " AS sub_created_at" +
		" FROM " + from + " WHERE " + a + "." + by + " = " + p + " AND (" + a + ".created_at, " + a + ".id) < (" + p + ", " + p + ")" +
		" ORDER BY " + a + ".created_at DESC, " + a + ".id DESC LIMIT " + p
}

// cursorArgs are a list's cursor parameters: after's position, or the
// one before every row.
func cursorArgs(after *marketplace.Cursor) (int64, string) {
	if after == nil {
		return noCursorAt, ""
	}
	return millis(after.At), after.ID
}

// profileStore implements marketplace.ProfileStore on the pools or on one
// transaction. Each list walks its (address, created_at DESC, id DESC)
// index (migration 20261125000070) and looks up the job (and
// submission) of each row of the page by primary key.
type profileStore struct{ e exec }

// JobsBySponsor lists a sponsor's jobs newest first with their
// listedJobColumns, walking jobs (sponsor_address, created_at DESC, id
// DESC).
func (s profileStore) JobsBySponsor(ctx context.Context, sponsor openjury.Address, limit int, after *marketplace.Cursor) ([]*marketplace.Job, error) {
	const op = "bunstore.JobsBySponsor"
	if limit <= 0 {
		return []*marketplace.Job{}, nil
	}
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	at, id := cursorArgs(after)
	var rows []jobRow
	if err := s.e.d.scanHotRows(ctx, db, s.e.d.hot.web.jobsBySponsor, &rows, string(sponsor), at, id, limit); err != nil {
		return nil, translate(op, err)
	}
	out := make([]*marketplace.Job, len(rows))
	for i := range rows {
		if out[i], err = rows[i].job(); err != nil {
			return nil, openjury.Wrap(op, err)
		}
	}
	return out, nil
}

// activityRow is a row of a profile's history: the entry (a submission
// or a vote), its job and its submission's head.
type activityRow struct {
	ID        string `bun:"id"`
	Weight    int64  `bun:"weight"`
	CreatedAt int64  `bun:"created_at"`

	JobID     string `bun:"job_id"`
	JobTitle  string `bun:"job_title"`
	JobStatus string `bun:"job_status"`
	JobWinner string `bun:"job_winner,nullzero"`
	// JobRevealEnds is the end of a commit-reveal job's reveal window.
	JobRevealEnds *int64 `bun:"job_reveal_ends"`

	SubID        string `bun:"sub_id"`
	SubAgent     string `bun:"sub_agent"`
	SubHead      string `bun:"sub_head"`
	SubCreatedAt int64  `bun:"sub_created_at"`
}

func (r *activityRow) activity() *marketplace.Activity {
	return &marketplace.Activity{
		ID:     r.ID,
		Weight: r.Weight,
		Job: marketplace.JobHead{ID: r.JobID, Title: r.JobTitle, Status: marketplace.Status(r.JobStatus), WinnerSubmissionID: r.JobWinner,
			RevealEndsAt: fromMillisPtr(r.JobRevealEnds)},
		Submission: marketplace.SubmissionHead{ID: r.SubID, JobID: r.JobID, Agent: openjury.Address(r.SubAgent),
			Head: r.SubHead, CreatedAt: fromMillis(r.SubCreatedAt)},
		CreatedAt: fromMillis(r.CreatedAt),
	}
}

// SubmissionsByAgent lists an agent's submissions newest first with their
// jobs, walking submissions (agent_address, created_at DESC, id DESC).
func (s profileStore) SubmissionsByAgent(ctx context.Context, agent openjury.Address, limit int, after *marketplace.Cursor) ([]*marketplace.Activity, error) {
	return s.history(ctx, "bunstore.SubmissionsByAgent", s.e.d.hot.web.subsByAgent, agent, limit, after)
}

// VotesByVoter lists a voter's jury votes newest first with their jobs
// and submissions, walking votes (voter_address, created_at DESC, id
// DESC).
func (s profileStore) VotesByVoter(ctx context.Context, voter openjury.Address, limit int, after *marketplace.Cursor) ([]*marketplace.Activity, error) {
	return s.history(ctx, "bunstore.VotesByVoter", s.e.d.hot.web.votesByVoter, voter, limit, after)
}

// FinalVotesByVoter lists a voter's final votes like VotesByVoter,
// walking final_votes (voter_address, created_at DESC, id DESC).
func (s profileStore) FinalVotesByVoter(ctx context.Context, voter openjury.Address, limit int, after *marketplace.Cursor) ([]*marketplace.Activity, error) {
	return s.history(ctx, "bunstore.FinalVotesByVoter", s.e.d.hot.web.finalsByVoter, voter, limit, after)
}

// history reads a page of a history with its hot statement h
// (historyQuery).
func (s profileStore) history(ctx context.Context, op string, h hot, addr openjury.Address, limit int, after *marketplace.Cursor) ([]*marketplace.Activity, error) {
	if limit <= 0 {
		return []*marketplace.Activity{}, nil
	}
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	at, id := cursorArgs(after)
	var rows []activityRow
	if err := s.e.d.scanHotRows(ctx, db, h, &rows, string(addr), at, id, limit); err != nil {
		return nil, translate(op, err)
	}
	out := make([]*marketplace.Activity, len(rows))
	for i := range rows {
		out[i] = rows[i].activity()
	}
	return out, nil
}

// Profile reads addr's reputation and a page of each of its lists with
// the profile hot statement (profileQuery), with its account when
// pages.Ledger is set (profileAccount), scanning its rows by hand: a
// profile page runs it on every view.
func (s profileStore) Profile(ctx context.Context, addr openjury.Address, pages marketplace.ProfilePages) (*marketplace.ProfileRead, error) {
	const op = "bunstore.Profile"
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	args := []any{string(addr)}
	page := func(l marketplace.ProfileList) {
		at, id := cursorArgs(l.After)
		// SQLite reads a negative LIMIT as none.
		args = append(args, string(addr), at, id, max(l.Limit, 0))
	}
	for _, l := range []marketplace.ProfileList{pages.Jobs, pages.Submissions, pages.Votes, pages.FinalVotes} {
		page(l)
	}
	out := &marketplace.ProfileRead{Reputation: marketplace.Reputation{Address: addr},
		Jobs: []*marketplace.Job{}, Submissions: []*marketplace.Activity{}, Votes: []*marketplace.Activity{}, FinalVotes: []*marketplace.Activity{}}
	h := s.e.d.hot.web.profile
	if pages.Ledger != nil {
		h = s.e.d.hot.web.profileAccount
		args = append(args, string(addr), string(addr))
		page(*pages.Ledger)
		out.Account = &marketplace.AccountRead{Stake: stake.Stake{Address: addr}, AGR: agr.Status{Address: addr}, Ledger: []agr.Entry{}}
	}
	// The columns are scanned into values of any type, each then read
	// by its type (a NULL is nil): database/sql stores a driver's value
	// there as is, where a typed or Null destination costs a conversion
	// (by reflection for an integer) per column of every row.
	var vals, dests [profileColumns]any
	for i := range vals {
		dests[i] = &vals[i]
	}
	str := func(i int) string {
		s, _ := vals[i].(string)
		return s
	}
	num := func(i int) int64 {
		n, _ := vals[i].(int64)
		return n
	}
	err = s.e.d.queryHot(ctx, db, h, args, func(rows *sql.Rows) error {
		for rows.Next() {
			if err := rows.Scan(dests[:]...); err != nil {
				return err
			}
			r := activityRow{ID: str(1), CreatedAt: num(2), Weight: num(3), JobID: str(4), JobTitle: str(5), JobStatus: str(6), JobWinner: str(7),
				SubID: str(9), SubAgent: str(10), SubHead: str(11), SubCreatedAt: num(12)}
			// The reveal end's column: a job's featured_until too.
			revealEnd, revealSet := vals[8].(int64)
			switch num(0) {
			case profileRep:
				out.Reputation = marketplace.Reputation{Address: addr, Score: r.Weight, Wins: revealEnd, Losses: r.SubCreatedAt,
					Submissions: num(13), JuryVotes: num(14), UpdatedAt: fromMillis(r.CreatedAt)}
			case profileJobs:
				j := &marketplace.Job{ID: r.ID, Title: r.JobTitle, Bounty: openjury.MicroUSDC(r.Weight), Status: marketplace.Status(r.JobStatus),
					Sponsor: addr, CreatedAt: fromMillis(r.CreatedAt), WinnerSubmissionID: r.JobWinner}
				if revealSet {
					until := fromMillis(revealEnd)
					j.FeaturedUntil = &until
				}
				if r.SubID != "" {
					j.Escrow = &marketplace.JobEscrow{Status: marketplace.EscrowStatus(r.SubID), Amount: openjury.MicroUSDC(r.SubCreatedAt)}
				}
				out.Jobs = append(out.Jobs, j)
			case profileSubs, profileVotes, profileFinals:
				if revealSet {
					end := revealEnd
					r.JobRevealEnds = &end
				}
				switch a := r.activity(); num(0) {
				case profileSubs:
					out.Submissions = append(out.Submissions, a)
				case profileVotes:
					out.Votes = append(out.Votes, a)
				default:
					out.FinalVotes = append(out.FinalVotes, a)
				}
			case profileStake:
				out.Account.Stake = stake.Stake{Address: addr, Staked: openjury.MicroUSDC(r.Weight), UpdatedAt: fromMillis(r.CreatedAt)}
			case profileAGR:
				out.Account.AGR = agr.Status{Address: addr, Balance: r.Weight, Earned: num(13), Spent: num(14)}
			case profileLedger:
				out.Account.Ledger = append(out.Account.Ledger, agr.Entry{ID: r.ID, Address: addr, Delta: r.Weight, Reason: agr.Reason(r.JobStatus),
					JobID: r.JobID, CreatedAt: fromMillis(r.CreatedAt)})
			}
		}
		return rows.Err()
	})
	if err != nil {
		return nil, translate(op, err)
	}
	// A UNION ALL promises no order of its rows: each list is put in its
	// own, newest first (the rows of a branch come in it, so this sort
	// finds them sorted).
	newest := func(at1, at2 time.Time, id1, id2 string) int { return cmp.Or(at2.Compare(at1), cmp.Compare(id2, id1)) }
	slices.SortStableFunc(out.Jobs, func(x, y *marketplace.Job) int { return newest(x.CreatedAt, y.CreatedAt, x.ID, y.ID) })
	for _, l := range [][]*marketplace.Activity{out.Submissions, out.Votes, out.FinalVotes} {
		slices.SortStableFunc(l, func(x, y *marketplace.Activity) int { return newest(x.CreatedAt, y.CreatedAt, x.ID, y.ID) })
	}
	if out.Account != nil {
		slices.SortStableFunc(out.Account.Ledger, func(x, y agr.Entry) int { return newest(x.CreatedAt, y.CreatedAt, x.ID, y.ID) })
	}
	return out, nil
}

// slotted runs a slotted hot statement for ids (deduplicated), slots ids
// at a time, the unused slots given "" (no row has it): args makes a
// slot's parameters from an id.
func slotted[R any](ctx context.Context, d *DB, db bun.IDB, h hot, slots int, ids []string, args func(id string) []any) ([]R, error) {
	var uniq []string
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			uniq = append(uniq, id)
		}
	}
	var out []R
	for start := 0; start < len(uniq); start += slots {
		params := make([]any, 0, 3*slots)
		for i := range slots {
			id := ""
			if start+i < len(uniq) {
				id = uniq[start+i]
			}
			params = append(params, args(id)...)
		}
		var rows []R
		if err := d.scanHotRows(ctx, db, h, &rows, params...); err != nil {
			return nil, err
		}
		out = append(out, rows...)
	}
	return out, nil
}

// CommentsOf lists the first limit comments of each target in ids, oldest
// first, with the threads hot statement: a UNION ALL of one branch per
// target, each a LIMITed walk of comments (target_type, target_id,
// created_at, id), so the read is bounded by len(ids) x limit (an id given
// twice is read once; the rows are put in order here, not sorted by the
// database). Deleted comments are listed with their stored content. The
// result is ordered by the target's place in ids, then (created_at, id).
func (s commentStore) CommentsOf(ctx context.Context, target marketplace.TargetType, ids []string, limit int) ([]*marketplace.Comment, error) {
	const op = "bunstore.CommentsOf"
	if limit <= 0 || len(ids) == 0 {
		return []*marketplace.Comment{}, nil
	}
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	rows, err := slotted[commentRow](ctx, s.e.d, db, s.e.d.hot.web.threads, threadSlots, ids, func(id string) []any {
		return []any{string(target), id, limit}
	})
	if err != nil {
		return nil, translate(op, err)
	}
	place := make(map[string]int, len(ids))
	for i, id := range ids {
		if _, ok := place[id]; !ok {
			place[id] = i
		}
	}
	slices.SortStableFunc(rows, func(x, y commentRow) int {
		return cmp.Or(cmp.Compare(place[x.TargetID], place[y.TargetID]), cmp.Compare(x.CreatedAt, y.CreatedAt), cmp.Compare(x.ID, y.ID))
	})
	out := make([]*marketplace.Comment, len(rows))
	for i := range rows {
		out[i] = rows[i].comment()
	}
	return out, nil
}

// SubmissionCounts counts each job's submissions up to limit with the
// counts hot statement: a UNION ALL of one branch per job, each counting a
// LIMITed walk of submissions (job_id, created_at, id).
func (s submissionStore) SubmissionCounts(ctx context.Context, jobIDs []string, limit int) (map[string]int, error) {
	const op = "bunstore.SubmissionCounts"
	out := map[string]int{}
	if limit <= 0 || len(jobIDs) == 0 {
		return out, nil
	}
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	type countRow struct {
		JobID string `bun:"job_id"`
		N     int    `bun:"n"`
	}
	rows, err := slotted[countRow](ctx, s.e.d, db, s.e.d.hot.web.counts, countSlots, jobIDs, func(id string) []any {
		return []any{id, id, limit}
	})
	if err != nil {
		return nil, translate(op, err)
	}
	for _, r := range rows {
		if r.N > 0 && r.JobID != "" {
			out[r.JobID] = r.N
		}
	}
	return out, nil
}
