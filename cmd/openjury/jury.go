package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/client"
)

// savedCommitment is what vote --commit keeps on the juror's machine (a
// 0600 file under HOME/salts/): everything reveal needs, the salt above
// all, which nobody else has and without which the vote is lost.
type savedCommitment struct {
	Server       string    `json:"server"`
	JobID        string    `json:"job_id"`
	SubmissionID string    `json:"submission_id"`
	Voter        string    `json:"voter"`
	Salt         string    `json:"salt"`
	Commitment   string    `json:"commitment"`
	CreatedAt    time.Time `json:"created_at"`
}

// saltPath is the file of voter's commitment on jobID: HOME/salts/
// JOB_ID.ADDRESS.json, with suffix ".pending" while its commitment is
// being posted.
func (e *env) saltPath(jobID, voter, suffix string) (string, error) {
	if !openjury.ValidID(jobID) {
		return "", usageError(fmt.Sprintf("job id %q is not a job id", jobID))
	}
	h, err := e.home()
	if err != nil {
		return "", err
	}
	return filepath.Join(h, "salts", jobID+"."+strings.ToLower(voter)+".json"+suffix), nil
}

// writeSecret writes b to path (mode 0600, in a 0700 directory) through a
// temporary file renamed over it, so the file is never half written.
func writeSecret(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".salt-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, werr := f.Write(b)
	if err := f.Chmod(0o600); werr == nil {
		werr = err
	}
	if err := f.Sync(); werr == nil {
		werr = err
	}
	if err := f.Close(); werr == nil {
		werr = err
	}
	if werr == nil {
		werr = os.Rename(tmp, path)
	}
	if werr != nil {
		_ = os.Remove(tmp)
	}
	return werr
}

// readSaved reads a saved commitment; a file others may read is refused.
func readSaved(path string) (savedCommitment, error) {
	var s savedCommitment
	st, err := os.Stat(path)
	if err != nil {
		return s, err
	}
	if st.Mode().Perm()&0o077 != 0 {
		return s, fmt.Errorf("%s is readable by others (mode %v): chmod 600 it", path, st.Mode().Perm())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return s, err
	}
	return s, json.Unmarshal(b, &s)
}

// commitVote is vote --commit: a new salt and its commitment, saved as a
// pending file before the commitment is posted and made the job's saved
// commitment once the server took it (an earlier saved commitment stays
// until then, so a failed post loses nothing).
func commitVote(ctx context.Context, e *env, c *client.Client, jobID, subID string) error {
	res, path, err := postCommitment(ctx, e, c, jobID, subID)
	if err != nil {
		return err
	}
	return e.print(res.Commitment, func(w io.Writer) {
		fmt.Fprintf(w, "committed %s on job %s\nsalt saved in %s (mode 0600): keep it until you reveal\n", res.Commitment.Commitment, jobID, path)
		fmt.Fprintf(w, "next: in the reveal window,  openjury reveal %s\n", jobID)
	})
}

// postCommitment makes, saves and posts a commitment of c's wallet to
// subID on jobID (commitVote); it returns the server's answer and the
// salt file.
func postCommitment(ctx context.Context, e *env, c *client.Client, jobID, subID string) (client.CreateCommitmentResponse, string, error) {
	var none client.CreateCommitmentResponse
	voter := c.Address()
	salt, err := client.NewSalt()
	if err != nil {
		return none, "", err
	}
	commitment, err := client.Commitment(jobID, subID, voter, salt)
	if err != nil {
		return none, "", err
	}
	path, err := e.saltPath(jobID, voter, "")
	if err != nil {
		return none, "", err
	}
	pending := path + ".pending"
	saved := savedCommitment{Server: e.serverURL(), JobID: jobID, SubmissionID: subID, Voter: voter, Salt: salt, Commitment: commitment, CreatedAt: time.Now().UTC()}
	b, err := json.MarshalIndent(saved, "", "  ")
	if err != nil {
		return none, "", err
	}
	if err := writeSecret(pending, append(b, '\n')); err != nil {
		return none, "", fmt.Errorf("saving the salt: %w", err)
	}
	res, err := c.CommitVote(ctx, jobID, commitment)
	if err != nil {
		_ = os.Remove(pending)
		return none, "", err
	}
	if err := os.Rename(pending, path); err != nil {
		return none, "", fmt.Errorf("the commitment was posted, but its salt stays in %s: %w", pending, err)
	}
	return res, path, nil
}

// cmdReveal reveals the saved commitment on a job (revealSaved).
func cmdReveal(ctx context.Context, e *env, args []string) error {
	pos, err := parse(e.flags("reveal"), args, 1)
	if err != nil {
		return err
	}
	c, err := e.client(true)
	if err != nil {
		return err
	}
	res, err := revealSaved(ctx, e, c, pos[0])
	if err != nil {
		return err
	}
	return e.print(res.Vote, func(w io.Writer) {
		fmt.Fprintf(w, "revealed jury vote %s for %s (weight %d)\n", res.Vote.ID, res.Vote.SubmissionID, res.Vote.Weight)
	})
}

// revealSaved reveals the saved commitment of c's wallet on jobID: the
// saved file first, then a pending one (a commit whose last step did not
// finish); the files are deleted once the vote is revealed.
func revealSaved(ctx context.Context, e *env, c *client.Client, jobID string) (client.CreateVoteResponse, error) {
	var none client.CreateVoteResponse
	path, err := e.saltPath(jobID, c.Address(), "")
	if err != nil {
		return none, err
	}
	var lastErr error
	for _, p := range []string{path, path + ".pending"} {
		saved, err := readSaved(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return none, err
		}
		res, err := c.RevealVote(ctx, client.RevealVoteRequest{JobID: saved.JobID, SubmissionID: saved.SubmissionID, Salt: saved.Salt})
		var ae *client.Error
		if errors.As(err, &ae) && ae.Status == 400 {
			lastErr = err // another commitment: try the next file
			continue
		}
		if err != nil {
			return none, err
		}
		_ = os.Remove(path)
		_ = os.Remove(path + ".pending")
		return res, nil
	}
	if lastErr != nil {
		return none, lastErr
	}
	return none, fmt.Errorf("no saved commitment of %s on job %s (looked for %s): commit with  openjury vote --commit %s SUBMISSION_ID", c.Address(), jobID, path, jobID)
}

// cmdJury is jury duties [ADDRESS] and jury show JOB_ID.
func cmdJury(ctx context.Context, e *env, args []string) error {
	pos, err := parse(e.flags("jury"), args, -1)
	if err != nil {
		return err
	}
	if len(pos) == 0 || len(pos) > 2 || (pos[0] != "duties" && pos[0] != "show") || (pos[0] == "show" && len(pos) != 2) {
		return usageError("the jury commands are: jury duties [ADDRESS], jury show JOB_ID")
	}
	if pos[0] == "show" {
		c, err := e.client(false)
		if err != nil {
			return err
		}
		j, err := c.GetJobJury(ctx, pos[1])
		if err != nil {
			return err
		}
		return e.print(j, func(w io.Writer) {
			fmt.Fprintf(w, "job %s: jury %s", j.JobID, j.JuryMode)
			if j.JurySize != nil {
				fmt.Fprintf(w, ", panel of %d", *j.JurySize)
			}
			fmt.Fprintln(w)
			if d := j.Draw; d != nil {
				fmt.Fprintf(w, "draw %s (%s, seed from %s)", d.Status, d.Algorithm, d.SeedSource)
				if d.Seed != nil {
					fmt.Fprintf(w, " seed %s", *d.Seed)
				}
				fmt.Fprintln(w)
			}
			for _, m := range j.Panel {
				fmt.Fprintf(w, "  %s  stake %v  committed %v  revealed %v\n", m.Address, m.StakeUSDC, m.Committed, m.Revealed)
			}
		})
	}
	signed := len(pos) == 1
	c, err := e.client(signed)
	if err != nil {
		return err
	}
	addr := c.Address()
	if !signed {
		addr = pos[1]
	}
	var all []client.JuryDuty
	page := client.Page{}
	for {
		res, err := c.ListJuryDuties(ctx, addr, page)
		if err != nil {
			return err
		}
		all = append(all, res.Duties...)
		if res.NextCursor == nil {
			break
		}
		page.Cursor = *res.NextCursor
	}
	return e.print(all, func(w io.Writer) {
		if len(all) == 0 {
			fmt.Fprintf(w, "no open jury duties for %s\n", addr)
		}
		for _, d := range all {
			fmt.Fprintf(w, "%s  %s  next: %s\n", d.JobID, d.Title, d.NextAction)
		}
	})
}
