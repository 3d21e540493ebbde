package main_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/client"
	"github.com/openjury/openjury/openjurytest"
)

// binary is the openjury command built once for the package's tests.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "openjury-cli")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "openjury")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		panic("go build: " + err.Error() + "\n" + string(out))
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// newServer is a test server whose fake clock starts at the real time:
// the binary judges sign-in messages' expiry by the real clock.
func newServer(t *testing.T) *openjurytest.Server {
	t.Helper()
	srv := openjurytest.NewServer(t)
	srv.Clock.Set(time.Now())
	return srv
}

// agent is one wallet driving the binary.
type agent struct {
	key  string
	addr string
}

func newAgent(t *testing.T) agent {
	t.Helper()
	k, err := crypto.GenerateKey()
	require.NoError(t, err)
	return agent{key: hex.EncodeToString(crypto.FromECDSA(k)), addr: strings.ToLower(crypto.PubkeyToAddress(k.PublicKey).Hex())}
}

// newCast is a sponsor, a worker staked 20 USDC and a juror staked 20
// USDC with a reputation score of 16 (vote weight 5) on srv, set up
// through a dev client, which it returns too.
func newCast(t *testing.T, srv *openjurytest.Server) (sponsor, worker, juror agent, dev *client.Client) {
	t.Helper()
	ctx := context.Background()
	sponsor, worker, juror = newAgent(t), newAgent(t), newAgent(t)
	dev, err := client.New(srv.URL, client.WithDevSecret(openjurytest.DevSecret))
	require.NoError(t, err)
	for _, a := range []agent{worker, juror} {
		_, err := dev.DevSetStake(ctx, client.DevSetStakeRequest{Address: a.addr, StakedAmount: "20"})
		require.NoError(t, err)
	}
	_, err = dev.DevSetReputation(ctx, client.DevSetReputationRequest{Address: juror.addr, Score: 16})
	require.NoError(t, err)
	return sponsor, worker, juror, dev
}

// result is one run of the binary.
type result struct {
	code           int
	stdout, stderr string
}

// run runs the binary with env (OPENJURY_URL and, for a, the key set).
func run(t *testing.T, url string, a *agent, env []string, args ...string) result {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append([]string{"OPENJURY_URL=" + url, "PATH=" + os.Getenv("PATH")}, env...)
	if a != nil {
		cmd.Env = append(cmd.Env, "OPENJURY_PRIVATE_KEY="+a.key)
	}
	return runCmd(t, cmd)
}

// runCmd runs cmd and returns its exit code and output; a binary that
// cannot be started fails the test.
func runCmd(t *testing.T, cmd *exec.Cmd) result {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return result{code: code, stdout: out.String(), stderr: errOut.String()}
}

// runJSON runs a command with --json that must succeed and decodes its output.
func runJSON(t *testing.T, url string, a *agent, v any, args ...string) {
	t.Helper()
	r := run(t, url, a, nil, append(args, "--json")...)
	require.Equal(t, 0, r.code, "openjury %v: %s", args, r.stderr)
	require.NoError(t, json.Unmarshal([]byte(r.stdout), v), r.stdout)
}

// TestJobStory drives a whole job through the built binary: sign in,
// post, submit, vote, final-vote, comment, boost, status, finalize, close
// and verify the anchor.
func TestJobStory(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	ctx := context.Background()
	sponsor, worker, juror, dev := newCast(t, srv)
	_, err := dev.DevMintAgr(ctx, client.DevMintRequest{Address: sponsor.addr, Amount: 10})
	require.NoError(t, err)

	var login map[string]any
	runJSON(t, srv.URL, &sponsor, &login, "login")
	require.Equal(t, sponsor.addr, login["address"])
	require.NotContains(t, login, "access_token")

	var job client.Job
	runJSON(t, srv.URL, &sponsor, &job, "post-job", "--title", "Summarise", "--prompt", "Summarise the paper.", "--bounty", "5", "--tag", "research", "--window", "60")
	require.Equal(t, sponsor.addr, *job.SponsorAddress)

	var jobs []client.Job
	runJSON(t, srv.URL, nil, &jobs, "jobs", "--tag", "research")
	require.Len(t, jobs, 1)
	require.Equal(t, job.ID, jobs[0].ID)
	human := run(t, srv.URL, nil, nil, "jobs")
	require.Equal(t, 0, human.code)
	require.Contains(t, human.stdout, "Summarise")

	dir := t.TempDir()
	content := filepath.Join(dir, "work.md")
	require.NoError(t, os.WriteFile(content, []byte("The paper shows X."), 0o600))
	evidence := filepath.Join(dir, "evidence.json")
	require.NoError(t, os.WriteFile(evidence, []byte(`[{"type":"quote","source_url":"https://example.org/p","quote":"X holds","claim":"X","confidence":0.9}]`), 0o600))
	var sub client.Submission
	runJSON(t, srv.URL, &worker, &sub, "submit", job.ID, "--content-file", content, "--evidence-file", evidence)
	require.Equal(t, worker.addr, sub.AgentAddress)
	require.Len(t, sub.Evidence, 1)

	var vote client.Vote
	runJSON(t, srv.URL, &juror, &vote, "vote", job.ID, sub.ID)
	require.EqualValues(t, 5, vote.Weight) // 1 + floor(sqrt(16))
	var fv client.FinalVote
	runJSON(t, srv.URL, &juror, &fv, "final-vote", job.ID, sub.ID)
	require.Equal(t, sub.ID, fv.SubmissionID)

	var cm client.Comment
	runJSON(t, srv.URL, &juror, &cm, "comment", job.ID, "--content", "well sourced")
	require.Equal(t, "well sourced", cm.Content)
	var boost client.BoostJobResponse
	runJSON(t, srv.URL, &sponsor, &boost, "boost", job.ID, "--amount", "4", "--hours", "1")
	require.EqualValues(t, 4, boost.FeaturedScore)

	var view struct {
		Job         client.Job                     `json:"job"`
		Submissions []client.Submission            `json:"submissions"`
		Votes       client.JobVotingSummary        `json:"votes"`
		FinalVotes  client.JobFinalDecisionSummary `json:"final_votes"`
	}
	runJSON(t, srv.URL, nil, &view, "job", job.ID)
	require.Len(t, view.Submissions, 1)

	// Search: found by its words at once, with its job; text output
	// shows the job and the marked words, and how to page on.
	var found client.SemanticSearchResponse
	runJSON(t, srv.URL, nil, &found, "search", "summarise", "the", "paper", "--type", "job", "--limit", "1")
	require.Len(t, found.Results, 1)
	require.Equal(t, job.ID, *found.Results[0].JobID)
	listed := run(t, srv.URL, nil, nil, "search", "Summarise the paper")
	require.Equal(t, 0, listed.code, listed.stderr)
	require.Contains(t, listed.stdout, "job "+job.ID)
	require.Contains(t, listed.stdout, "*Summarise*")
	badCursor := run(t, srv.URL, nil, nil, "search", "paper", "--cursor", "bogus")
	require.Equal(t, 1, badCursor.code)
	require.Contains(t, badCursor.stderr, "cursor")
	require.Len(t, view.Votes.Tallies, 1)
	require.EqualValues(t, 1, view.FinalVotes.Tallies[0].Votes)

	// Too early to finalize: the server's 409 and exit code 1.
	early := run(t, srv.URL, &juror, nil, "finalize", job.ID)
	require.Equal(t, 1, early.code)
	require.Contains(t, early.stderr, "409")

	srv.Clock.Advance(2 * time.Minute)
	var closed client.CloseJobResponse
	runJSON(t, srv.URL, &juror, &closed, "finalize", job.ID)
	require.Equal(t, sub.ID, closed.WinnerSubmissionID)
	require.NotNil(t, closed.Job.AnchorRoot)

	var rep struct {
		OK     bool   `json:"ok"`
		Root   string `json:"anchor_root"`
		Proofs int    `json:"proofs_checked"`
	}
	runJSON(t, srv.URL, nil, &rep, "anchor", "verify", job.ID)
	require.True(t, rep.OK)
	require.Equal(t, *closed.Job.AnchorRoot, rep.Root)
	require.GreaterOrEqual(t, rep.Proofs, 5) // job, submission, vote, final vote, comment, salt
	text := run(t, srv.URL, nil, nil, "anchor", "verify", job.ID)
	require.Equal(t, 0, text.code, text.stderr)
	require.Contains(t, text.stdout, "verified")

	var st struct {
		Stake      client.StakeStatus `json:"stake"`
		AGR        client.AgrStatus   `json:"agr"`
		Reputation client.Reputation  `json:"reputation"`
	}
	runJSON(t, srv.URL, &worker, &st, "status")
	require.True(t, st.Stake.IsEligible)
	require.EqualValues(t, openjurytest.DefaultAGRMintPerWin, st.AGR.Balance)
	require.EqualValues(t, 1, st.Reputation.Wins)

	// The sponsor closes a second job by hand.
	var job2 client.Job
	runJSON(t, srv.URL, &sponsor, &job2, "post-job", "--title", "Second", "--prompt", "Again.", "--bounty", "1")
	var sub2 client.Submission
	runJSON(t, srv.URL, &worker, &sub2, "submit", job2.ID, "--content-file", content)
	var closed2 client.CloseJobResponse
	runJSON(t, srv.URL, &sponsor, &closed2, "close", job2.ID, sub2.ID)
	require.Equal(t, "closed", closed2.Job.Status)
}

// TestKeyAndUsage: the key from a keystore file with a password file, no
// key at all, and usage mistakes.
func TestKeyAndUsage(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	dir := t.TempDir()
	k, err := crypto.GenerateKey()
	require.NoError(t, err)
	ks := keystore.NewKeyStore(filepath.Join(dir, "ks"), keystore.LightScryptN, keystore.LightScryptP)
	acct, err := ks.ImportECDSA(k, "secret pw")
	require.NoError(t, err)
	pwFile := filepath.Join(dir, "pw")
	require.NoError(t, os.WriteFile(pwFile, []byte("secret pw\n"), 0o600))

	r := run(t, srv.URL, nil, []string{"OPENJURY_KEYSTORE=" + acct.URL.Path, "OPENJURY_KEYSTORE_PASSWORD_FILE=" + pwFile}, "login")
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, strings.ToLower(acct.Address.Hex()))

	r = run(t, srv.URL, nil, []string{"OPENJURY_KEYSTORE=" + acct.URL.Path, "OPENJURY_KEYSTORE_PASSWORD=wrong"}, "login")
	require.Equal(t, 1, r.code)

	r = run(t, srv.URL, nil, nil, "login")
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, "OPENJURY_PRIVATE_KEY")

	r = run(t, srv.URL, nil, nil, "vote", "only-one-arg")
	require.Equal(t, 2, r.code)
	r = run(t, srv.URL, nil, nil, "nope")
	require.Equal(t, 2, r.code)
	r = run(t, srv.URL, nil, nil, "job", "not-a-job")
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, "server answered")
	r = run(t, srv.URL, nil, nil, "help")
	require.Equal(t, 0, r.code)
	require.Contains(t, r.stdout, "anchor verify")
}

// TestEventsCommand: `openjury events` prints a page of the log;
// `--follow` prints each new event as it happens (NDJSON with --json).
func TestEventsCommand(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	sponsor := newAgent(t)
	var job client.Job
	runJSON(t, srv.URL, &sponsor, &job, "post-job", "--title", "Evented", "--prompt", "p", "--bounty", "1")
	srv.FlushEvents(t)

	var page client.ListEventsResponse
	runJSON(t, srv.URL, nil, &page, "events", "--type", "job.created")
	require.Len(t, page.Events, 1)
	require.Equal(t, job.ID, *page.Events[0].JobID)
	text := run(t, srv.URL, nil, nil, "events", "--job", job.ID)
	require.Equal(t, 0, text.code, text.stderr)
	require.Contains(t, text.stdout, "job.created")
	require.Contains(t, text.stdout, "next: --after evt_")
	bad := run(t, srv.URL, nil, nil, "events", "--type", "job.exploded")
	require.NotEqual(t, 0, bad.code)
	require.Contains(t, bad.stderr, "unknown event type")

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "events", "--follow", "--json", "--type", "job.created", "--after", page.Events[0].ID)
	cmd.Env = []string{"OPENJURY_URL=" + srv.URL, "PATH=" + os.Getenv("PATH")}
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	var next client.Job
	runJSON(t, srv.URL, &sponsor, &next, "post-job", "--title", "Followed", "--prompt", "p", "--bounty", "1")
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	var ev client.Event
	require.NoError(t, json.Unmarshal([]byte(line), &ev), line)
	require.Equal(t, "job.created", ev.Type)
	require.Equal(t, next.ID, *ev.JobID)
}
