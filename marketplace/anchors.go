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

// AnchorRecords are the records of a job's snapshot besides the job.
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

// AnchorStore reads what a snapshot holds and writes the batch. It is used
// inside the close and finalize transactions.
type AnchorStore interface {
	// AnchorRecords returns every record of a job's snapshot besides the
	// job, each kind in (created_at, id) order.
	AnchorRecords(ctx context.Context, jobID string) (*AnchorRecords, error)
	// PutAnchor stores batch b with its document and the proofs of its
	// records (anchor.Snapshot.Proofs: served one by one by
	// anchor.Store.AnchorProof; their root is b.Root) and sets the job's
	// anchor_* fields (root, uri, schema version, salt). Errors: Conflict
	// when the job has a batch already; NotFound for an unknown job.
	PutAnchor(ctx context.Context, b *anchor.Batch, document []byte, proofs []anchor.Proof) error
}

// saltSource is where salts come from: Config.SaltSource or crypto/rand.
func (s *Service) saltSource() io.Reader {
	if s.cfg.SaltSource != nil {
		return s.cfg.SaltSource
	}
	return rand.Reader
}

// anchorSnapshot builds the snapshot of job, just closed in tx at now, and
// stores it with the proof of every record in tx; it sets job.Anchor.
func (s *Service) anchorSnapshot(ctx context.Context, tx Tx, job *Job, now time.Time) error {
	recs, err := tx.Anchors().AnchorRecords(ctx, job.ID)
	if err != nil {
		return err
	}
	var salt [anchor.SaltSize]byte
	if _, err := io.ReadFull(s.saltSource(), salt[:]); err != nil {
		return openjury.Errorf(openjury.Internal, "marketplace.anchorSnapshot", "salt: %v", err)
	}
	snap, err := anchor.Build(job.ID, salt, now, SnapshotRecords(job, recs))
	if err != nil {
		return err
	}
	b := &anchor.Batch{
		ID:            openjury.NewID(),
		JobID:         job.ID,
		SchemaVersion: anchor.SchemaVersion,
		Root:          snap.Root,
		Salt:          snap.Salt,
		URI:           anchor.URI(s.cfg.BaseURL, job.ID),
		CreatedAt:     now,
	}
	if err := tx.Anchors().PutAnchor(ctx, b, snap.Document, snap.Proofs()); err != nil {
		return err
	}
	job.Anchor = b
	return nil
}

// SnapshotRecords returns the snapshot records of a closed job, in the
// shapes the anchor package documents: the job, then its submissions,
// jury votes, final votes and comments.
func SnapshotRecords(job *Job, r *AnchorRecords) []anchor.Record {
	out := make([]anchor.Record, 0, 1+len(r.Submissions)+len(r.Votes)+len(r.FinalVotes)+len(r.Comments))
	out = append(out, anchor.Record{ID: "job:" + job.ID, Type: "job", Fields: map[string]any{
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
	}})
	for _, sub := range r.Submissions {
		ev := make([]any, len(sub.Evidence))
		for i, e := range sub.Evidence {
			ev[i] = map[string]any{
				"type": optStr(e.Type), "source_url": optStr(e.SourceURL), "retrieved_at": optStr(e.RetrievedAt),
				"snapshot_uri": optStr(e.SnapshotURI), "snapshot_hash": optStr(e.SnapshotHash),
				"quote": optStr(e.Quote), "claim": optStr(e.Claim), "confidence": e.Confidence, "metadata": e.Metadata,
			}
		}
		out = append(out, anchor.Record{ID: "submission:" + sub.ID, Type: "submission", Fields: map[string]any{
			"submission_id": sub.ID,
			"job_id":        sub.JobID,
			"agent_address": sub.Agent.String(),
			"content":       sub.Content,
			"evidence":      ev,
			"created_at":    openjury.FormatTime(sub.CreatedAt),
		}})
	}
	for _, v := range r.Votes {
		out = append(out, anchor.Record{ID: "vote:" + v.ID, Type: "vote", Fields: map[string]any{
			"vote_id":       v.ID,
			"job_id":        v.JobID,
			"submission_id": v.SubmissionID,
			"voter_address": v.Voter.String(),
			"weight":        v.Weight,
			"review":        v.Review,
			"created_at":    openjury.FormatTime(v.CreatedAt),
		}})
	}
	for _, v := range r.FinalVotes {
		out = append(out, anchor.Record{ID: "final_vote:" + v.ID, Type: "final_vote", Fields: map[string]any{
			"final_vote_id": v.ID,
			"job_id":        v.JobID,
			"submission_id": v.SubmissionID,
			"voter_address": v.Voter.String(),
			"created_at":    openjury.FormatTime(v.CreatedAt),
		}})
	}
	for _, c := range r.Comments {
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
		out = append(out, anchor.Record{ID: "comment:" + c.ID, Type: "comment", Fields: f})
	}
	return out
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
