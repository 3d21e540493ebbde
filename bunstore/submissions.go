package bunstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/stake"
)

// submissionRow is a row of submissions.
type submissionRow struct {
	bun.BaseModel `bun:"table:submissions,alias:s"`

	ID           string `bun:"id,pk"`
	JobID        string `bun:"job_id,notnull"`
	AgentAddress string `bun:"agent_address,notnull"`
	Content      string `bun:"content,notnull"`
	Evidence     string `bun:"evidence,notnull"`
	CreatedAt    int64  `bun:"created_at,notnull"`
}

// evidenceJSON is the stored form of one marketplace.Evidence, an element
// of the JSON array in submissions.evidence. Empty strings and a nil
// confidence are left out; metadata is kept as written (null, {} or an
// object). It has marketplace.Evidence's fields in the same order, so the
// two convert into each other (a new field on one breaks the build until
// the other has it).
type evidenceJSON struct {
	Type         string         `json:"type,omitempty"`
	SourceURL    string         `json:"source_url,omitempty"`
	RetrievedAt  string         `json:"retrieved_at,omitempty"`
	SnapshotURI  string         `json:"snapshot_uri,omitempty"`
	SnapshotHash string         `json:"snapshot_hash,omitempty"`
	Quote        string         `json:"quote,omitempty"`
	Claim        string         `json:"claim,omitempty"`
	Confidence   *float64       `json:"confidence,omitempty"`
	Metadata     map[string]any `json:"metadata"`
}

func toSubmissionRow(s *marketplace.Submission) (*submissionRow, error) {
	ev := make([]evidenceJSON, len(s.Evidence))
	for i, e := range s.Evidence {
		ev[i] = evidenceJSON(e)
	}
	raw, err := json.Marshal(ev)
	if err != nil {
		return nil, err
	}
	return &submissionRow{
		ID:           s.ID,
		JobID:        s.JobID,
		AgentAddress: string(s.Agent),
		Content:      s.Content,
		Evidence:     string(raw),
		CreatedAt:    millis(s.CreatedAt),
	}, nil
}

func (r *submissionRow) submission() (*marketplace.Submission, error) {
	var ev []evidenceJSON
	if r.Evidence != "" {
		if err := json.Unmarshal([]byte(r.Evidence), &ev); err != nil {
			return nil, err
		}
	}
	out := make([]marketplace.Evidence, len(ev))
	for i, e := range ev {
		out[i] = marketplace.Evidence(e)
	}
	return &marketplace.Submission{
		ID:        r.ID,
		JobID:     r.JobID,
		Agent:     openjury.Address(r.AgentAddress),
		Content:   r.Content,
		Evidence:  out,
		CreatedAt: fromMillis(r.CreatedAt),
	}, nil
}

// submissionStore implements marketplace.SubmissionStore on the pools or on
// one transaction.
type submissionStore struct{ e exec }

// CreateSubmission inserts s; an empty s.ID gets a new id, set on s. The
// evidence is stored as a JSON array and reads back field for field, with
// one JSON caveat: numbers inside Metadata read back as float64 (and lose
// precision beyond 2^53), as encoding/json decodes them into any.
// Errors: NotFound when the job does not exist; Conflict for a duplicate id.
func (s submissionStore) CreateSubmission(ctx context.Context, sub *marketplace.Submission) error {
	const op = "bunstore.CreateSubmission"
	if sub.ID == "" {
		sub.ID = openjury.NewID()
	}
	row, err := toSubmissionRow(sub)
	if err != nil {
		return openjury.Wrap(op, err)
	}
	db, err := s.e.writer(ctx, op)
	if err != nil {
		return err
	}
	if _, err := s.e.d.execHot(ctx, db, s.e.d.hot.insertSubmission, row.ID, row.JobID, row.AgentAddress, row.Content, row.Evidence, row.CreatedAt); err != nil {
		return translateWith(op, err, details{detailMissingRef: "job not found", detailDuplicate: "submission already exists"})
	}
	return nil
}

// Submit implements marketplace.SubmissionStore; an empty s.ID gets a new
// id, set on s, as with CreateSubmission. On PostgreSQL it is one
// statement (submitQuery: the guard checked in SQL, the writes as
// writable CTEs), so no BEGIN or COMMIT round trip; when it inserted
// nothing, g.Check on the row it read names the reason. Outside a
// transaction, concurrent submissions share that statement in batches
// (DB.submits, submitBatchQuery), each with its own guard and answer. On SQLite it is a
// transaction of the hot statements (the guard's read, submitGuardQuery;
// g.Check; the insert, the queue row, the event, the reputation), which
// the one writer serialises.
func (s submissionStore) Submit(ctx context.Context, sub *marketplace.Submission, g marketplace.SubmitGuard) error {
	const op = "bunstore.Submit"
	d, rep := s.e.d, g.FirstReputation
	if d.dialect == DialectPostgres {
		if sub.ID == "" {
			sub.ID = openjury.NewID()
		}
		row, err := toSubmissionRow(sub)
		if err != nil {
			return openjury.Wrap(op, err)
		}
		db, err := s.e.writer(ctx, op)
		if err != nil {
			return err
		}
		c := submitCall{row: row, g: g}
		var res submitResult
		if s.e.tx {
			res = d.submitOne(ctx, db, c)
		} else if res, err = d.submits.do(ctx, c); err != nil {
			return translate(op, err)
		}
		return d.submitAnswer(ctx, sub, g, res)
	}
	return s.e.inTx(ctx, op, func(ctx context.Context, db bun.IDB) error {
		t := d.txExec(db)
		st, err := submitGuardState(ctx, d, db, sub.JobID, sub.Agent)
		if err != nil {
			return err
		}
		if err := g.Check(st, sub.Agent); err != nil {
			return err
		}
		if err := (submissionStore{t}).CreateSubmission(ctx, sub); err != nil {
			return err
		}
		if err := (searchStore{t}).Enqueue(ctx, marketplace.DocSubmission, sub.ID, sub.CreatedAt); err != nil {
			return err
		}
		if g.Event != nil {
			if err := (eventStore{t}).Append(ctx, g.Event); err != nil {
				return err
			}
		}
		if st.Submissions > 0 {
			return nil
		}
		return reputationStore{t}.AddReputation(ctx, sub.Agent, rep, sub.CreatedAt)
	})
}

// submitCall is one submission of a batch (DB.submits): its row and guard.
type submitCall struct {
	row *submissionRow
	g   marketplace.SubmitGuard
}

// submitResult is a submission's answer in a batch: the guard's row,
// whether the job was found and the submission inserted, or the error of
// its own statement (submitOne).
type submitResult struct {
	submitGuardRow
	found, inserted bool
	err             error
}

// submitAnswer is Submit's answer on PostgreSQL for the result of its
// statement: nil when sub was inserted, else the guard's reason or the
// statement's error.
func (d *DB) submitAnswer(ctx context.Context, sub *marketplace.Submission, g marketplace.SubmitGuard, res submitResult) error {
	const op = "bunstore.Submit"
	switch {
	case res.err != nil:
		return translateWith(op, res.err, details{detailNotFound: "job not found", detailDuplicate: "submission already exists"})
	case !res.found:
		return translateWith(op, sql.ErrNoRows, details{detailNotFound: "job not found"})
	case res.inserted:
		if g.Event != nil {
			d.noteAppended(ctx)
		}
		return nil
	}
	if err := g.Check(res.state(sub.Agent), sub.Agent); err != nil {
		return err
	}
	return openjury.E(openjury.Internal, op, "the submission guard refused what SubmitGuard.Check accepts")
}

// submitOne writes c with the one statement of a submission (submitQuery)
// on db.
func (d *DB) submitOne(ctx context.Context, db bun.IDB, c submitCall) submitResult {
	row, g, rep := c.row, c.g, c.g.FirstReputation
	agent := row.AgentAddress
	var res struct {
		submitGuardRow
		Inserted bool `bun:"inserted"`
	}
	args := append([]any{agent, row.JobID, agent,
		row.ID, agent, row.Content, row.Evidence, row.CreatedAt, int64(g.MinStake), string(marketplace.StatusOpen), agent, g.MaxPerAgent, millis(g.Now),
		agent, rep.Score, rep.Wins, rep.Losses, rep.Submissions, rep.JuryVotes, row.CreatedAt,
		marketplace.DocSubmission, row.CreatedAt}, outboxArgs(g.Event)...)
	err := d.scanHot(ctx, db, d.hot.submit, []any{&res}, args...)
	if errors.Is(err, sql.ErrNoRows) {
		return submitResult{}
	}
	if err != nil {
		return submitResult{err: err}
	}
	return submitResult{submitGuardRow: res.submitGuardRow, found: true, inserted: res.Inserted}
}

// submitBatch writes the submissions of a batch of DB.submits: one alone
// with its own statement (submitOne), more with one statement for them
// all (submitBatchQuery), then each whose job another transaction held
// with its own. When the batch's statement fails (a deadlock with another
// writer, a value PostgreSQL refuses), each submission is written again
// with its own statement, so that each gets its own answer and no
// submission fails for another's.
func (d *DB) submitBatch(ctx context.Context, in []submitCall) ([]submitResult, error) {
	out := make([]submitResult, len(in))
	if len(in) > 1 {
		locked := make([]bool, len(in))
		err := d.queryHot(ctx, d.w, d.hot.submitBatch, submitBatchArgs(in), func(rows *sql.Rows) error {
			i := 0
			for ; rows.Next(); i++ {
				if i >= len(out) {
					return errors.New("bunstore: a submission batch answered too many rows")
				}
				var job, status, sponsor sql.NullString
				r := &out[i]
				if err := rows.Scan(&job, &status, &sponsor, &r.ClosingUntil, &r.StakedMicro, &r.Submissions, &r.inserted, &locked[i]); err != nil {
					return err
				}
				r.found = job.Valid
				r.ID, r.Status, r.SponsorAddress = job.String, status.String, sponsor.String
			}
			if err := rows.Err(); err != nil {
				return err
			}
			if i != len(out) {
				return fmt.Errorf("bunstore: a submission batch of %d answered %d rows", len(out), i)
			}
			return nil
		})
		if err == nil {
			// A submission whose job another transaction held is written
			// by a statement of its own, which waits for the lock.
			for i, c := range in {
				if locked[i] {
					d.submitsAlone.Add(1)
					out[i] = d.submitOne(ctx, d.w, c)
				}
			}
			return out, nil
		}
		d.submitsAlone.Add(int64(len(in)))
	}
	for i, c := range in {
		out[i] = d.submitOne(ctx, d.w, c)
	}
	return out, nil
}

// submitBatchArgs are the arguments of submitBatchQuery for in.
func submitBatchArgs(in []submitCall) []any {
	n := len(in)
	var (
		ids, jobs, agents, contents, evidence = make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
		createdAt, minStake, maxPer, now      = make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
		score, wins, losses, subs, juryVotes  = make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
		evType, evSubjects, evAudience        = make([]string, n), make([]string, n), make([]string, n)
		evTags, evData                        = make([]string, n), make([]string, n)
		evJob, evActor                        = make([]*string, n), make([]*string, n)
		evCreatedAt                           = make([]int64, n)
		ev                                    = make([]bool, n)
	)
	for i, c := range in {
		r, g, rep := c.row, c.g, c.g.FirstReputation
		ids[i], jobs[i], agents[i], contents[i], evidence[i], createdAt[i] = r.ID, r.JobID, r.AgentAddress, r.Content, r.Evidence, r.CreatedAt
		minStake[i], maxPer[i], now[i] = int64(g.MinStake), int64(g.MaxPerAgent), millis(g.Now)
		score[i], wins[i], losses[i], subs[i], juryVotes[i] = rep.Score, rep.Wins, rep.Losses, rep.Submissions, rep.JuryVotes
		if g.Event != nil {
			o := toOutboxRow(g.Event)
			evType[i], evJob[i], evActor[i], evSubjects[i], evAudience[i] = o.Type, o.JobID, o.Actor, o.Subjects, o.Audience
			evTags[i], evData[i], evCreatedAt[i], ev[i] = o.Tags, o.Data, o.CreatedAt, true
		}
	}
	return []any{ids, jobs, agents, contents, evidence, createdAt, minStake, maxPer, now,
		score, wins, losses, subs, juryVotes,
		evType, evJob, evActor, evSubjects, evAudience, evTags, evData, evCreatedAt, ev,
		string(marketplace.StatusOpen), marketplace.DocSubmission}
}

// guardJobColumns are guardJobRow's columns of jobs, as the guards'
// statements select them.
const guardJobColumns = "id, status, sponsor_address, closing_until"

// guardJobRow is what the guards of a submission and of a jury vote read
// of a job (submitGuardQuery, castVoteQuery: guardJobColumns), not its
// whole row.
type guardJobRow struct {
	ID             string `bun:"id"`
	Status         string `bun:"status"`
	SponsorAddress string `bun:"sponsor_address"`
	ClosingUntil   *int64 `bun:"closing_until"`
}

// job is the job as far as the row holds it: ID, Status, Sponsor and
// ClosingUntil.
func (r *guardJobRow) job() *marketplace.Job {
	return &marketplace.Job{ID: r.ID, Status: marketplace.Status(r.Status), Sponsor: openjury.Address(r.SponsorAddress),
		ClosingUntil: fromMillisPtr(r.ClosingUntil)}
}

// submitGuardRow is the row of submitGuardQuery: what SubmitGuard.Check
// reads of a job, the agent's stake and count.
type submitGuardRow struct {
	guardJobRow
	StakedMicro *int64 `bun:"staked_micro"`
	Submissions int    `bun:"submissions"`
}

// state is the SubmitState of agent as far as SubmitGuard.Check reads it:
// the Job as guardJobRow.job has it, the Stake its Address and Staked (0
// without a stake row).
func (r *submitGuardRow) state(agent openjury.Address) *marketplace.SubmitState {
	st := &marketplace.SubmitState{
		Job:         r.job(),
		Stake:       stake.Stake{Address: agent},
		Submissions: r.Submissions,
	}
	if r.StakedMicro != nil {
		st.Stake.Staked = openjury.MicroUSDC(*r.StakedMicro)
	}
	return st
}

// submitGuardState reads, on SQLite inside the write transaction db, the
// SubmitState of agent on job id as far as SubmitGuard.Check reads it
// (submitGuardQuery). Errors: NotFound "job not found".
func submitGuardState(ctx context.Context, d *DB, db bun.IDB, id string, agent openjury.Address) (*marketplace.SubmitState, error) {
	var row submitGuardRow
	if err := d.scanHot(ctx, db, d.hot.submitGuard, []any{&row}, string(agent), id, string(agent)); err != nil {
		return nil, translateWith("bunstore.Submit", err, jobDetails)
	}
	return row.state(agent), nil
}

// Submission returns one submission; its Evidence is empty, never nil.
// Errors: NotFound.
func (s submissionStore) Submission(ctx context.Context, id string) (*marketplace.Submission, error) {
	const op = "bunstore.Submission"
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	var row submissionRow
	if err := db.NewSelect().Model(&row).Where("s.id = ?", id).Scan(ctx); err != nil {
		return nil, translateWith(op, err, details{detailNotFound: "submission not found"})
	}
	sub, err := row.submission()
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	return sub, nil
}

// Submissions lists up to limit submissions of a job oldest first
// (created_at, then id), after the cursor when it is not nil; none for an
// unknown job. It walks the index (job_id, created_at, id).
func (s submissionStore) Submissions(ctx context.Context, jobID string, limit int, after *marketplace.Cursor) ([]*marketplace.Submission, error) {
	const op = "bunstore.Submissions"
	if limit <= 0 {
		return []*marketplace.Submission{}, nil
	}
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	var rows []submissionRow
	q := db.NewSelect().Model(&rows).Where("s.job_id = ?", jobID)
	if after != nil {
		q = q.Where("(s.created_at, s.id) > (?, ?)", millis(after.At), after.ID)
	}
	err = q.OrderExpr("s.created_at ASC").OrderExpr("s.id ASC").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, translate(op, err)
	}
	out := make([]*marketplace.Submission, len(rows))
	for i := range rows {
		if out[i], err = rows[i].submission(); err != nil {
			return nil, openjury.Wrap(op, err)
		}
	}
	return out, nil
}

// SubmissionHeads reads the heads of the submissions in ids by primary
// key (headExpr: the content's first characters, no evidence) and returns
// those that exist in the order of ids.
func (s submissionStore) SubmissionHeads(ctx context.Context, ids []string) ([]marketplace.SubmissionHead, error) {
	const op = "bunstore.SubmissionHeads"
	if len(ids) == 0 {
		return []marketplace.SubmissionHead{}, nil
	}
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	var rows []activityRow
	err = byKeys(db.NewSelect().
		ColumnExpr("ss.id AS sub_id, ss.job_id, ss.agent_address AS sub_agent, "+headExpr+" AS sub_head, ss.created_at AS sub_created_at"),
		"submissions AS ss", "ss.id", ids).Scan(ctx, &rows)
	if err != nil {
		return nil, translate(op, err)
	}
	by := make(map[string]marketplace.SubmissionHead, len(rows))
	for _, r := range rows {
		by[r.SubID] = r.activity().Submission
	}
	out := make([]marketplace.SubmissionHead, 0, len(rows))
	for _, id := range ids {
		if h, ok := by[id]; ok {
			out = append(out, h)
			delete(by, id)
		}
	}
	return out, nil
}

// SubmissionKeys lists the id, agent and time of every submission of a job
// oldest first (created_at, then id), selecting only those columns (never
// content or evidence), from the index (job_id, created_at, id).
func (s submissionStore) SubmissionKeys(ctx context.Context, jobID string) ([]marketplace.SubmissionKey, error) {
	const op = "bunstore.SubmissionKeys"
	db, err := s.e.reader(ctx, op)
	if err != nil {
		return nil, err
	}
	var rows []submissionRow
	err = db.NewSelect().Model(&rows).Column("id", "agent_address", "created_at").
		Where("s.job_id = ?", jobID).
		OrderExpr("s.created_at ASC").OrderExpr("s.id ASC").Scan(ctx)
	if err != nil {
		return nil, translate(op, err)
	}
	out := make([]marketplace.SubmissionKey, len(rows))
	for i, r := range rows {
		out[i] = marketplace.SubmissionKey{ID: r.ID, Agent: openjury.Address(r.AgentAddress), CreatedAt: fromMillis(r.CreatedAt)}
	}
	return out, nil
}
