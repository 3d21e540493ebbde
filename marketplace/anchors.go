package marketplace

import (
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
	// Draw and Panel are the jury draw and panel of a job with a panel
	// (the jury record of a job with jury settings follows the job's).
	Draw  *JuryDraw
	Panel []PanelMember
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
// shapes the anchor package documents: the job, its jury (a job with jury
// settings), then its submissions,
// jury votes, final votes and comments (a comment with DeletedAt set in
// its deleted form). A close streams the same records one at a time
// (docs/rules.md, "Closing at any size"); this whole-list form is the
// reference its tests compare with.
func SnapshotRecords(job *Job, r *AnchorRecords) []anchor.Record {
	out := make([]anchor.Record, 0, 1+len(r.Submissions)+len(r.Votes)+len(r.FinalVotes)+len(r.Comments))
	out = append(out, jobRecord(job))
	if job.HasJury() {
		out = append(out, juryRecord(job, r.Draw, r.Panel))
	}
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

// JuryRecordID is the record id of a job's jury record: the full id,
// since a bare job id names the job record.
func JuryRecordID(jobID string) string { return "jury:" + jobID }

// juryRecord is the snapshot record of the jury of a job with jury
// settings: its mode, size and windows and, with a panel, the draw's
// inputs (seed, algorithm, eligible set version, size, stake and hash)
// and the panel in draw order, so that the anchor proves the draw
// (docs/rules.md, "Jury integrity"). draw is nil without a panel; a draw
// still pending at the close has no seed and an empty panel.
func juryRecord(job *Job, draw *JuryDraw, panel []PanelMember) anchor.Record {
	f := map[string]any{
		"job_id":                    job.ID,
		"jury_mode":                 string(job.JuryMode),
		"jury_size":                 nil,
		"jury_commit_ends_at":       optTime(job.JuryCommitEndsAt),
		"jury_reveal_ends_at":       optTime(job.JuryRevealEndsAt),
		"algorithm":                 nil,
		"seed":                      nil,
		"seed_source":               nil,
		"seed_block":                nil,
		"eligible_version":          nil,
		"eligible_count":            nil,
		"eligible_stake_micro_usdc": nil,
		"eligible_set_hash":         nil,
		"panel":                     []any{},
	}
	if draw != nil {
		f["jury_size"] = job.JurySize
		f["algorithm"] = DrawAlgorithm
		f["seed_source"] = draw.SeedSource
		f["eligible_version"] = draw.Version
		if draw.SeedBlock > 0 {
			f["seed_block"] = draw.SeedBlock
		}
		if draw.Drawn() {
			f["seed"] = draw.Seed.String()
			f["eligible_count"] = draw.EligibleCount
			f["eligible_stake_micro_usdc"] = strconv.FormatInt(int64(draw.EligibleStake), 10)
			f["eligible_set_hash"] = optStr(draw.EligibleHash.String())
		}
		members := make([]any, len(panel))
		for i, m := range panel {
			members[i] = map[string]any{"address": m.Address.String(), "stake_micro_usdc": strconv.FormatInt(int64(m.Stake), 10)}
		}
		f["panel"] = members
	}
	return anchor.Record{ID: JuryRecordID(job.ID), Type: "jury", Fields: f}
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
