package marketplace

import (
	"context"
	"crypto/rand"
	"io"
	"strconv"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
)

// AnchorRecords are the records of a job's snapshot besides the job, as
// SnapshotRecords takes them.
type AnchorRecords struct {
	// Submissions of the job, oldest first.
	Submissions []*Submission
	// Votes are the current jury votes of the job.
	Votes []*Vote
	// FinalVotes are the current final decision votes of the job.
	FinalVotes []*FinalVote
	// Comments on the job and on its submissions, deleted ones included
	// (with their stored content, which the snapshot leaves out).
	Comments []*Comment
}

// StagedRecord is one record of a snapshot being built, as it is staged:
// its place in the document (Ord, from 0: the job), its record id and its
// canonical bytes.
type StagedRecord struct {
	Ord      int64
	RecordID string
	Body     []byte
}

// Pieces of a staged tree: StageNodes and StageLeafIndex take their
// nodes and indexes in pieces that start at multiples of these (a store
// packs them in rows of these many, or of a divisor).
const (
	NodesPiece     = 4096
	LeafIndexPiece = 4096
)

// AnchorStore keeps the closing leases and the snapshots being built and
// stores the finished batch. A build's rows (staged under its batch id,
// which is also its lease id) are seen by anchor.Store only once PutBatch
// commits. Outside a transaction each call is its own short transaction.
type AnchorStore interface {
	// ClaimClosing takes the closing lease of a job the caller's
	// transaction has locked: closing_id = batchID, closing_until = until
	// (whatever lease was there: the caller checked it is dead), and
	// registers the build batchID, started at now, so that its staged
	// rows can be found if it never finishes. Errors: NotFound.
	ClaimClosing(ctx context.Context, jobID, batchID string, now, until time.Time) error
	// RenewClosing moves the end of the lease to until, only while the
	// lease is batchID's and still live at now (one conditional update).
	// Errors: Conflict "closing lease lost" otherwise.
	RenewClosing(ctx context.Context, jobID, batchID string, now, until time.Time) error
	// AbandonClosing ends the build batchID: it clears the job's lease if
	// it is still batchID's and deletes the build's staged rows, a bounded
	// chunk per transaction. Callers run it best effort after a failure.
	AbandonClosing(ctx context.Context, jobID, batchID string) error
	// StageRecords stores records of the build batchID (their Ords unique
	// in the build).
	StageRecords(ctx context.Context, batchID string, recs []StagedRecord) error
	// StageNodes stores nodes of a level of the build batchID's tree (level
	// 0: the sorted leaves), nodes[i] at index from+i; from is a multiple
	// of NodesPiece and nodes at most NodesPiece long.
	StageNodes(ctx context.Context, batchID string, level int, from int64, nodes []anchor.Node) error
	// StageLeafIndex stores where the leaves of the build batchID's
	// records are among its sorted leaves: index[i] is the leaf index of
	// the record of Ord from+i (from a multiple of LeafIndexPiece, index at
	// most LeafIndexPiece long); from -1 with one index is the salt's.
	StageLeafIndex(ctx context.Context, batchID string, from int64, index []uint32) error
	// PutBatch makes the build b.ID the job's batch, in the closing
	// transaction: it inserts the batch row, sets the job's anchor_*
	// fields (root, uri, schema version, salt, created_at, records, size),
	// clears the job's lease when it is b.ID's and forgets the build (its
	// rows are the batch's now). Errors: Conflict when the job has a batch
	// already; NotFound for an unknown job.
	PutBatch(ctx context.Context, b *anchor.Batch) error
	// CleanupBuilds deletes the staged rows of builds started before
	// `before` whose lease is no longer live at now (a crashed or failed
	// close), a bounded chunk per transaction, and returns how many rows
	// went.
	CleanupBuilds(ctx context.Context, before, now time.Time) (int64, error)
}

// SnapshotStore reads the records of a job's snapshot a page at a time,
// each kind in (created_at, id) order by keyset cursor, index-backed. fn
// is called with each record in order until it returns false; it must not
// use the store (the page's rows are being read).
type SnapshotStore interface {
	// ScanSubmissions reads up to limit submissions of a job after the
	// cursor (nil: from the first).
	ScanSubmissions(ctx context.Context, jobID string, after *Cursor, limit int, fn func(*Submission) bool) error
	// ScanVotes reads up to limit current jury votes of a job.
	ScanVotes(ctx context.Context, jobID string, after *Cursor, limit int, fn func(*Vote) bool) error
	// ScanFinalVotes reads up to limit current final votes of a job.
	ScanFinalVotes(ctx context.Context, jobID string, after *Cursor, limit int, fn func(*FinalVote) bool) error
	// ScanComments reads up to limit comments on a job and on its
	// submissions whose Rev is at most rev, deleted ones included (with
	// their stored content and DeletedRev).
	ScanComments(ctx context.Context, jobID string, rev int64, after *Cursor, limit int, fn func(*Comment) bool) error
}

// saltSource is where salts come from: Config.SaltSource or crypto/rand.
func (s *Service) saltSource() io.Reader {
	if s.cfg.SaltSource != nil {
		return s.cfg.SaltSource
	}
	return rand.Reader
}

// newSalt reads the 32 bytes of a snapshot's salt. Errors: Internal.
func (s *Service) newSalt(op string) ([anchor.SaltSize]byte, error) {
	var salt [anchor.SaltSize]byte
	if _, err := io.ReadFull(s.saltSource(), salt[:]); err != nil {
		return salt, openjury.Errorf(openjury.Internal, op, "salt: %v", err)
	}
	return salt, nil
}

// SnapshotRecords returns the snapshot records of a closed job, in the
// shapes the anchor package documents: the job, then its submissions,
// jury votes, final votes and comments (a comment with DeletedAt set in
// its deleted form). A close streams the same records one at a time
// (docs/rules.md, "Closing at any size"); this whole-list form is the
// reference its tests compare with.
func SnapshotRecords(job *Job, r *AnchorRecords) []anchor.Record {
	out := make([]anchor.Record, 0, 1+len(r.Submissions)+len(r.Votes)+len(r.FinalVotes)+len(r.Comments))
	out = append(out, jobRecord(job))
	for _, sub := range r.Submissions {
		out = append(out, submissionRecord(sub))
	}
	for _, v := range r.Votes {
		out = append(out, voteRecord(v))
	}
	for _, v := range r.FinalVotes {
		out = append(out, finalVoteRecord(v))
	}
	for _, c := range r.Comments {
		out = append(out, commentRecord(c))
	}
	return out
}

// jobRecord is the snapshot record of a job.
func jobRecord(job *Job) anchor.Record {
	return anchor.Record{ID: "job:" + job.ID, Type: "job", Fields: map[string]any{
		"job_id":               job.ID,
		"title":                job.Title,
		"prompt":               job.Prompt,
		"tags":                 orNone(job.Tags),
		"bounty_micro_usdc":    strconv.FormatInt(int64(job.Bounty), 10),
		"sponsor_address":      job.Sponsor.String(),
		"status":               string(job.Status),
		"winner_submission_id": optStr(job.WinnerSubmissionID),
		"created_at":           openjury.FormatTime(job.CreatedAt),
		"closed_at":            optTime(job.ClosedAt),
		"final_vote_starts_at": openjury.FormatTime(job.FinalVoteStartsAt),
		"final_vote_ends_at":   openjury.FormatTime(job.FinalVoteEndsAt),
	}}
}

// submissionRecord is the snapshot record of a submission.
func submissionRecord(sub *Submission) anchor.Record {
	ev := make([]any, len(sub.Evidence))
	for i, e := range sub.Evidence {
		ev[i] = map[string]any{
			"type": optStr(e.Type), "source_url": optStr(e.SourceURL), "retrieved_at": optStr(e.RetrievedAt),
			"snapshot_uri": optStr(e.SnapshotURI), "snapshot_hash": optStr(e.SnapshotHash),
			"quote": optStr(e.Quote), "claim": optStr(e.Claim), "confidence": e.Confidence, "metadata": e.Metadata,
		}
	}
	return anchor.Record{ID: "submission:" + sub.ID, Type: "submission", Fields: map[string]any{
		"submission_id": sub.ID,
		"job_id":        sub.JobID,
		"agent_address": sub.Agent.String(),
		"content":       sub.Content,
		"evidence":      ev,
		"created_at":    openjury.FormatTime(sub.CreatedAt),
	}}
}

// voteRecord is the snapshot record of a jury vote.
func voteRecord(v *Vote) anchor.Record {
	return anchor.Record{ID: "vote:" + v.ID, Type: "vote", Fields: map[string]any{
		"vote_id":       v.ID,
		"job_id":        v.JobID,
		"submission_id": v.SubmissionID,
		"voter_address": v.Voter.String(),
		"weight":        v.Weight,
		"review":        v.Review,
		"created_at":    openjury.FormatTime(v.CreatedAt),
	}}
}

// finalVoteRecord is the snapshot record of a final vote.
func finalVoteRecord(v *FinalVote) anchor.Record {
	return anchor.Record{ID: "final_vote:" + v.ID, Type: "final_vote", Fields: map[string]any{
		"final_vote_id": v.ID,
		"job_id":        v.JobID,
		"submission_id": v.SubmissionID,
		"voter_address": v.Voter.String(),
		"created_at":    openjury.FormatTime(v.CreatedAt),
	}}
}

// commentRecord is the snapshot record of a comment: deleted (no content)
// when c.DeletedAt is set.
func commentRecord(c *Comment) anchor.Record {
	f := map[string]any{
		"comment_id":     c.ID,
		"target_type":    string(c.Target),
		"target_id":      c.TargetID,
		"parent_id":      optStr(c.ParentID),
		"author_address": c.Author.String(),
		"deleted":        c.DeletedAt != nil,
		"created_at":     openjury.FormatTime(c.CreatedAt),
		"deleted_at":     optTime(c.DeletedAt),
	}
	if c.DeletedAt == nil {
		f["content"] = c.Content
	}
	return anchor.Record{ID: "comment:" + c.ID, Type: "comment", Fields: f}
}

// optStr is nil (JSON null) for "", else s.
func optStr(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// optTime is nil (JSON null) for nil, else the formatted time.
func optTime(t *time.Time) any {
	if t == nil {
		return nil
	}
	return openjury.FormatTime(*t)
}

// orNone is s, or an empty list for nil.
func orNone(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
