package main_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/client"
	"github.com/openjury/openjury/openjurytest"
)

// TestJuryCommands drives a commit-reveal job with a drawn panel through
// the binary: post-job with jury flags, jury duties, vote --commit (the
// salt saved 0600 under OPENJURY_HOME, never printed), jury show, an
// early reveal refused, reveal in the window (the salt file then gone).
func TestJuryCommands(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	ctx := context.Background()
	sponsor, worker, juror := newAgent(t), newAgent(t), newAgent(t)
	dev, err := client.New(srv.URL, client.WithDevSecret(openjurytest.DevSecret))
	require.NoError(t, err)
	for _, a := range []agent{worker, juror} {
		_, err := dev.DevSetStake(ctx, client.DevSetStakeRequest{Address: a.addr, StakedAmount: "20"})
		require.NoError(t, err)
	}
	_, err = dev.DevSetReputation(ctx, client.DevSetReputationRequest{Address: juror.addr, Score: 16})
	require.NoError(t, err)
	home := t.TempDir()
	env := []string{"OPENJURY_HOME=" + home}

	var job client.Job
	runJSON(t, srv.URL, &sponsor, &job, "post-job", "--title", "Jury", "--prompt", "Judge.", "--bounty", "1",
		"--jury-mode", "commit_reveal", "--jury-size", "1", "--commit-seconds", "60", "--reveal-seconds", "600")
	require.Equal(t, "commit_reveal", job.JuryMode)
	require.EqualValues(t, 1, *job.JurySize)
	var sub client.Submission
	runJSON(t, srv.URL, &worker, &sub, "submit", job.ID, "--content", "work")

	var duties []client.JuryDuty
	runJSON(t, srv.URL, nil, &duties, "jury", "duties", juror.addr)
	require.Len(t, duties, 1, "the only eligible juror is drawn")
	require.Equal(t, "commit", duties[0].NextAction)

	r := run(t, srv.URL, &juror, env, "vote", "--commit", job.ID, sub.ID, "--json")
	require.Equal(t, 0, r.code, r.stderr)
	var c client.JuryCommitment
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &c))
	path := filepath.Join(home, "salts", job.ID+"."+juror.addr+".json")
	st, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	var saved struct{ Salt, Commitment string }
	require.NoError(t, json.Unmarshal(raw, &saved))
	require.Equal(t, c.Commitment, saved.Commitment)
	require.NotContains(t, r.stdout, saved.Salt, "the salt is never printed")

	var jury client.JobJury
	runJSON(t, srv.URL, nil, &jury, "jury", "show", job.ID)
	require.True(t, jury.Panel[0].Committed)

	early := run(t, srv.URL, &juror, env, "reveal", job.ID)
	require.Equal(t, 1, early.code)
	require.Contains(t, early.stderr, "reveal window has not started")
	_, err = os.Stat(path)
	require.NoError(t, err, "a refused reveal keeps the salt")

	srv.Clock.Advance(time.Minute)
	var vote client.Vote
	r = run(t, srv.URL, &juror, env, "reveal", job.ID, "--json")
	require.Equal(t, 0, r.code, r.stderr)
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &vote))
	require.Equal(t, sub.ID, vote.SubmissionID)
	_, err = os.Stat(path)
	require.True(t, os.IsNotExist(err), "the salt file goes once revealed")
	none := run(t, srv.URL, &juror, env, "reveal", job.ID)
	require.Equal(t, 1, none.code)
	require.Contains(t, none.stderr, "no saved commitment")
}
