package client_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/client"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/openjurytest/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// onEachBackend runs test as parallel subtests "sqlite" and "postgres",
// each with a NewServer on that database.
func onEachBackend(t *testing.T, test func(t *testing.T, srv *openjurytest.Server), opts ...openjurytest.Option) {
	t.Helper()
	backends := map[string]func(testing.TB) string{
		"sqlite":   func(testing.TB) string { return "" },
		"postgres": pgtest.NewDatabase,
	}
	for name, dsn := range backends {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			test(t, openjurytest.NewServer(t, append([]openjurytest.Option{openjurytest.WithDSN(dsn(t))}, opts...)...))
		})
	}
}

// recorder is an http.RoundTripper that validates every response against
// the OpenAPI document and remembers which routes were called.
type recorder struct {
	tb    testing.TB
	mu    sync.Mutex
	calls []string // "METHOD /path"
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		// A stream never ends: record it and let the client read it.
		r.mu.Lock()
		r.calls = append(r.calls, req.Method+" "+req.URL.Path)
		r.mu.Unlock()
		return res, nil
	}
	body, err := io.ReadAll(res.Body)
	_ = res.Body.Close()
	if err != nil {
		return nil, err
	}
	res.Body = io.NopCloser(bytes.NewReader(body))
	openjurytest.ValidateResponse(r.tb, req, res.StatusCode, res.Header, body)
	r.mu.Lock()
	r.calls = append(r.calls, req.Method+" "+req.URL.Path)
	r.mu.Unlock()
	return res, nil
}

// newClient returns a client of srv signing in as w, recording into rec.
func newClient(t *testing.T, srv *openjurytest.Server, rec *recorder, key string, opts ...client.Option) *client.Client {
	t.Helper()
	s, err := client.KeySignerFromHex(key)
	require.NoError(t, err)
	base := []client.Option{client.WithSigner(s), client.WithDevSecret(openjurytest.DevSecret), client.WithHTTPClient(&http.Client{Transport: rec}), client.WithClock(srv.Clock.Now)}
	c, err := client.New(srv.URL, append(base, opts...)...)
	require.NoError(t, err)
	return c
}

// testKey is a fresh wallet key as hex and its address.
type testKey struct {
	hex  string
	addr openjury.Address
}

// newKeyT returns a fresh key.
func newKeyT(t *testing.T) testKey {
	t.Helper()
	k, err := crypto.GenerateKey()
	require.NoError(t, err)
	return testKey{hex: hex.EncodeToString(crypto.FromECDSA(k)), addr: openjury.AddressFromBytes(crypto.PubkeyToAddress(k.PublicKey))}
}

// TestEveryEndpoint drives every operation of the OpenAPI document through
// the client against a real server on both engines, and checks that the
// calls covered every operation.
func TestEveryEndpoint(t *testing.T) {
	t.Parallel()
	operator := newKeyT(t)
	onEachBackend(t, func(t *testing.T, srv *openjurytest.Server) {
		ctx := context.Background()
		rec := &recorder{tb: t}
		sponsor := newClient(t, srv, rec, newKeyT(t).hex)
		agent := newClient(t, srv, rec, newKeyT(t).hex)
		juror := newClient(t, srv, rec, newKeyT(t).hex)
		op := newClient(t, srv, rec, operator.hex)

		// Public reads.
		h, err := sponsor.GetHealth(ctx)
		require.NoError(t, err)
		require.Equal(t, "ok", h.Status)
		_, err = sponsor.GetReadiness(ctx)
		require.NoError(t, err)
		for _, get := range []func(context.Context) ([]byte, error){
			sponsor.GetMetrics, sponsor.GetOpenAPIJSON, sponsor.GetOpenAPIYAML, sponsor.GetLLMsTxt, sponsor.GetAgentPlaybook, sponsor.GetAgentHeartbeat,
		} {
			b, err := get(ctx)
			require.NoError(t, err)
			require.NotEmpty(t, b)
		}
		for _, get := range []func(context.Context) (client.DiscoveryDocument, error){
			sponsor.GetAgentCard, sponsor.GetAgentCardAlias, sponsor.GetServiceDescription, sponsor.GetAgentsManifest,
			sponsor.GetProtectedResourceMetadata, sponsor.GetMCPProtectedResourceMetadata,
		} {
			d, err := get(ctx)
			require.NoError(t, err)
			require.NotEmpty(t, d)
		}
		req, err := sponsor.GetStakeRequirements(ctx)
		require.NoError(t, err)
		require.Equal(t, "10", req.MinStake.String())
		pol, err := sponsor.GetEconomyPolicy(ctx)
		require.NoError(t, err)
		require.EqualValues(t, openjurytest.DefaultAGRMintPerWin, pol.AGRMintPerWin)
		con, err := sponsor.GetConstitution(ctx)
		require.NoError(t, err)
		require.NotEmpty(t, con.Version)

		// Dev setup: stake, reputation, AGR, a slash.
		for _, c := range []*client.Client{agent, juror} {
			st, err := c.DevSetStake(ctx, client.DevSetStakeRequest{Address: c.Address(), StakedAmount: "20"})
			require.NoError(t, err)
			require.True(t, st.IsEligible)
		}
		rep, err := juror.DevSetReputation(ctx, client.DevSetReputationRequest{Address: juror.Address(), Score: 25})
		require.NoError(t, err)
		require.EqualValues(t, 25, rep.Score)
		bal, err := sponsor.DevMintAgr(ctx, client.DevMintRequest{Address: sponsor.Address(), Amount: 30})
		require.NoError(t, err)
		require.EqualValues(t, 30, bal.Balance)
		slash, err := agent.DevRecordSlash(ctx, client.DevRecordSlashRequest{AgentAddress: juror.Address(), AmountUSDC: "1"})
		require.NoError(t, err)
		require.Equal(t, juror.Address(), slash.AgentAddress)

		// Sign-in happens by itself on the first bearer call.
		window := int64(60)
		job, err := sponsor.CreateJob(ctx, client.CreateJobRequest{Title: "Summarise", Prompt: "Summarise the paper.", BountyUSDC: "5", Tags: []string{"Research"}, FinalVoteWindowSeconds: &window})
		require.NoError(t, err)
		require.Equal(t, sponsor.Address(), *job.SponsorAddress)
		require.NotEmpty(t, sponsor.Token())
		got, err := agent.GetJob(ctx, job.ID)
		require.NoError(t, err)
		require.Equal(t, job.ID, got.ID)
		boot, err := agent.GetAgentBootstrap(ctx, client.JobFilter{Tag: "research"})
		require.NoError(t, err)
		require.Len(t, boot.Jobs, 1)
		list, err := agent.ListJobs(ctx, client.JobFilter{Status: "all"})
		require.NoError(t, err)
		require.Len(t, list.Jobs, 1)

		claim := "the paper says so"
		sub, err := agent.CreateSubmission(ctx, client.CreateSubmissionRequest{JobID: job.ID, Content: "A summary.", Evidence: []client.Evidence{{Claim: &claim}}})
		require.NoError(t, err)
		require.Equal(t, agent.Address(), sub.Submission.AgentAddress)
		subs, next, err := juror.ListJobSubmissions(ctx, job.ID, client.Page{})
		require.NoError(t, err)
		require.Empty(t, next)
		require.Len(t, subs, 1)
		require.Equal(t, claim, *subs[0].Evidence[0].Claim)

		vote, err := juror.CreateVote(ctx, client.CreateVoteRequest{JobID: job.ID, SubmissionID: sub.Submission.ID, Review: map[string]any{"score": 9}})
		require.NoError(t, err)
		require.EqualValues(t, 6-1, vote.Vote.Weight) // 1 + floor(sqrt(25))
		tal, err := juror.GetJobVotingSummary(ctx, job.ID)
		require.NoError(t, err)
		require.Len(t, tal.Tallies, 1)
		fv, err := juror.CreateFinalVote(ctx, client.CreateFinalVoteRequest{JobID: job.ID, SubmissionID: sub.Submission.ID})
		require.NoError(t, err)
		require.Equal(t, juror.Address(), fv.Vote.VoterAddress)
		ftal, err := juror.GetJobFinalDecisionSummary(ctx, job.ID)
		require.NoError(t, err)
		require.EqualValues(t, 1, ftal.Tallies[0].Votes)

		// Threads.
		jc, err := juror.CreateJobComment(ctx, job.ID, client.CreateCommentRequest{Content: "nice"})
		require.NoError(t, err)
		parent := jc.Comment.ID
		_, err = agent.CreateJobComment(ctx, job.ID, client.CreateCommentRequest{Content: "thanks", ParentID: &parent})
		require.NoError(t, err)
		jcs, err := agent.ListJobComments(ctx, job.ID, client.Page{})
		require.NoError(t, err)
		require.Len(t, jcs.Comments, 2)
		_, err = juror.CreateSubmissionComment(ctx, sub.Submission.ID, client.CreateCommentRequest{Content: "sourced"})
		require.NoError(t, err)
		scs, err := juror.ListSubmissionComments(ctx, sub.Submission.ID, client.Page{})
		require.NoError(t, err)
		require.Len(t, scs.Comments, 1)
		post, err := agent.CreatePost(ctx, client.CreatePostRequest{Title: "Hello", Content: "First post", Tags: []string{"intro"}})
		require.NoError(t, err)
		gotPost, err := juror.GetPost(ctx, post.ID)
		require.NoError(t, err)
		require.Equal(t, "Hello", gotPost.Title)
		posts, err := juror.ListPosts(ctx, "intro", client.Page{})
		require.NoError(t, err)
		require.Len(t, posts.Posts, 1)
		pc, err := juror.CreatePostComment(ctx, post.ID, client.CreateCommentRequest{Content: "welcome"})
		require.NoError(t, err)
		pcs, err := agent.ListPostComments(ctx, post.ID, client.Page{})
		require.NoError(t, err)
		require.Len(t, pcs.Comments, 1)
		del, err := juror.DeleteComment(ctx, pc.Comment.ID)
		require.NoError(t, err)
		require.NotNil(t, del.Comment.DeletedAt)

		// Economy: boost.
		boost, err := sponsor.BoostJob(ctx, job.ID, client.BoostJobRequest{AmountAGR: 10, DurationHours: 2})
		require.NoError(t, err)
		require.EqualValues(t, 10, boost.FeaturedScore)
		ag, err := sponsor.GetAgrStatus(ctx, sponsor.Address())
		require.NoError(t, err)
		require.EqualValues(t, 20, ag.Balance)
		led, err := sponsor.ListAgrLedger(ctx, sponsor.Address(), client.Page{})
		require.NoError(t, err)
		require.Len(t, led.Entries, 2)

		// The window ends; the final voter finalizes.
		srv.Clock.Advance(2 * time.Minute)
		fin, err := juror.FinalizeJob(ctx, job.ID)
		require.NoError(t, err)
		require.Equal(t, sub.Submission.ID, fin.WinnerSubmissionID)
		require.Equal(t, "closed", fin.Job.Status)

		// Close on another job by its sponsor.
		job2, err := sponsor.CreateJob(ctx, client.CreateJobRequest{Title: "Second", Prompt: "Again.", BountyUSDC: "1"})
		require.NoError(t, err)
		sub2, err := agent.CreateSubmission(ctx, client.CreateSubmissionRequest{JobID: job2.ID, Content: "Again, done."})
		require.NoError(t, err)
		closed, err := sponsor.CloseJob(ctx, job2.ID, client.CloseJobRequest{WinnerSubmissionID: sub2.Submission.ID})
		require.NoError(t, err)
		require.Equal(t, "closed", closed.Job.Status)

		// Anchors: snapshot and proof check against the root with package anchor.
		anc, err := agent.GetJobAnchor(ctx, job.ID)
		require.NoError(t, err)
		snap, err := agent.GetJobAnchorSnapshot(ctx, job.ID)
		require.NoError(t, err)
		require.Equal(t, anc.AnchorRoot, snap.Root)
		root, err := openjury.ParseHash("anchor_root", anc.AnchorRoot)
		require.NoError(t, err)
		require.NoError(t, anchor.VerifyDocument(snap.Raw, root))
		doc, err := anchor.ParseDocument(snap.Raw)
		require.NoError(t, err)
		recordID, _ := snap.Records[0]["id"].(string)
		proof, err := agent.GetJobAnchorProof(ctx, job.ID, recordID)
		require.NoError(t, err)
		require.Equal(t, anc.AnchorRoot, proof.Root)
		hashes := make([]openjury.Hash, len(proof.Proof))
		for i, p := range proof.Proof {
			hashes[i], err = openjury.ParseHash("proof", p)
			require.NoError(t, err)
		}
		require.NoError(t, anchor.VerifyProof(doc.Records[recordID], hashes, root))
		// An unfunded job has no payouts (the escrow tests cover them).
		payouts, err := agent.GetJobPayouts(ctx, job.ID, client.PayoutFilter{})
		require.NoError(t, err)
		require.Empty(t, payouts.Payouts)
		require.Equal(t, job.ID, payouts.JobID)
		// The same document as a stream; an open job's is a 404 *Error.
		stream, err := agent.OpenJobAnchorSnapshot(ctx, job.ID)
		require.NoError(t, err)
		streamed, err := io.ReadAll(stream)
		require.NoError(t, err)
		require.NoError(t, stream.Close())
		require.Equal(t, snap.Raw, streamed)
		open, err := agent.CreateJob(ctx, client.CreateJobRequest{Title: "Open", Prompt: "Still open.", BountyUSDC: "1"})
		require.NoError(t, err)
		_, err = agent.OpenJobAnchorSnapshot(ctx, open.ID)
		var notFound *client.Error
		require.ErrorAs(t, err, &notFound)
		require.Equal(t, 404, notFound.Status)
		require.Equal(t, "anchor not found", notFound.Detail)
		rcpt := client.RecordAnchorReceiptRequest{AnchorTxHash: "0x" + strings.Repeat("ab", 32), AnchorChainID: 8453, AnchorContractAddress: "0x" + strings.Repeat("12", 20), AnchorBlockNumber: 7, AnchorLogIndex: 0}
		_, err = agent.RecordAnchorReceipt(ctx, job.ID, rcpt)
		var ae *client.Error
		require.ErrorAs(t, err, &ae)
		require.Equal(t, http.StatusForbidden, ae.Status)
		batch, err := op.RecordAnchorReceipt(ctx, job.ID, rcpt)
		require.NoError(t, err)
		require.Equal(t, rcpt.AnchorTxHash, *batch.AnchorTxHash)

		// Reputation, leaderboard, slashing, search.
		wrep, err := agent.GetReputation(ctx, agent.Address())
		require.NoError(t, err)
		require.EqualValues(t, 2, wrep.Wins)
		lb, err := agent.GetLeaderboard(ctx, client.Page{})
		require.NoError(t, err)
		require.NotEmpty(t, lb.Entries)
		sl, err := agent.ListSlashingEvents(ctx, client.SlashingFilter{Address: juror.Address()})
		require.NoError(t, err)
		require.Len(t, sl.Events, 1)
		stk, err := agent.GetStakeStatus(ctx, juror.Address())
		require.NoError(t, err)
		require.Equal(t, "19", stk.StakedAmount.String())
		srv.FlushSearch(t)
		found, err := agent.SemanticSearch(ctx, "summarise the paper", "job", 5)
		require.NoError(t, err)
		require.NotEmpty(t, found.Results)
		require.Equal(t, found.Results[0].ID, *found.Results[0].JobID, "a job belongs to itself")
		require.Contains(t, found.Results[0].Snippet, "<mark>")
		first, err := agent.Search(ctx, client.SearchQuery{Q: "summarise paper", Limit: 1})
		require.NoError(t, err)
		require.Len(t, first.Results, 1)
		if first.NextCursor != nil {
			next, err := agent.Search(ctx, client.SearchQuery{Q: "summarise paper", Limit: 1, Cursor: *first.NextCursor})
			require.NoError(t, err)
			require.NotEqual(t, first.Results[0].ID, next.Results[0].ID)
		}
		_, err = agent.Search(ctx, client.SearchQuery{Q: "summarise paper", Cursor: "bogus"})
		var badCursor *client.Error
		require.ErrorAs(t, err, &badCursor)
		require.Equal(t, http.StatusBadRequest, badCursor.Status)
		require.Equal(t, "cursor: not a cursor from this list", badCursor.Detail)

		// The A2A binding: a skill in a data part, answered with a data part.
		a2a, err := agent.A2aJsonRpc(ctx, client.JsonRpcRequest{Jsonrpc: "2.0", ID: 1, Method: "message/send", Params: map[string]any{
			"message": map[string]any{
				"kind": "message", "role": "user", "messageId": "m1",
				"parts": []any{map[string]any{"kind": "data", "data": map[string]any{"skill": "find_jobs", "arguments": map[string]any{"status": "all"}}}},
			},
		}})
		require.NoError(t, err)
		require.Nil(t, a2a.Error)
		require.NotEmpty(t, a2a.Result["parts"])

		// The MCP endpoint: a tool called without initialize (stateless),
		// as the signed-in agent.
		mcpRes, err := agent.McpStreamableHttp(ctx, client.JsonRpcRequest{Jsonrpc: "2.0", ID: 2, Method: "tools/call", Params: map[string]any{
			"name": "status", "arguments": map[string]any{},
		}})
		require.NoError(t, err)
		require.Nil(t, mcpRes.Error)
		require.Equal(t, agent.Address(), mcpRes.Result["structuredContent"].(map[string]any)["address"])

		// A commit-reveal job with a drawn panel of one: commit, hidden
		// tally, reveal, the jury, its eligible set, the juror's duties.
		_, err = op.DevSetStake(ctx, client.DevSetStakeRequest{Address: op.Address(), StakedAmount: "20"})
		require.NoError(t, err)
		one, secs := int64(1), int64(60)
		job3, err := sponsor.CreateJob(ctx, client.CreateJobRequest{Title: "Jury", Prompt: "Judge it.", BountyUSDC: "1",
			JuryMode: "commit_reveal", JurySize: &one, JuryCommitSeconds: &secs, JuryRevealSeconds: &secs})
		require.NoError(t, err)
		require.Equal(t, "commit_reveal", job3.JuryMode)
		sub3, err := op.CreateSubmission(ctx, client.CreateSubmissionRequest{JobID: job3.ID, Content: "Judged."})
		require.NoError(t, err)
		jury, err := agent.GetJobJury(ctx, job3.ID)
		require.NoError(t, err)
		require.Len(t, jury.Panel, 1)
		drawn := juror
		if jury.Panel[0].Address == agent.Address() {
			drawn = agent
		}
		salt, err := client.NewSalt()
		require.NoError(t, err)
		commitment, err := client.Commitment(job3.ID, sub3.Submission.ID, drawn.Address(), salt)
		require.NoError(t, err)
		committed, err := drawn.CommitVote(ctx, job3.ID, commitment)
		require.NoError(t, err)
		require.Equal(t, commitment, committed.Commitment.Commitment)
		hidden, err := agent.GetJobCommitRevealSummary(ctx, job3.ID)
		require.NoError(t, err)
		require.True(t, hidden.TalliesHidden)
		require.EqualValues(t, 1, hidden.Commitments)
		duties, err := agent.ListJuryDuties(ctx, drawn.Address(), client.Page{})
		require.NoError(t, err)
		require.Equal(t, "wait", duties.Duties[0].NextAction)
		srv.Clock.Advance(time.Minute)
		revealed, err := drawn.RevealVote(ctx, client.RevealVoteRequest{JobID: job3.ID, SubmissionID: sub3.Submission.ID, Salt: salt})
		require.NoError(t, err)
		require.Equal(t, sub3.Submission.ID, revealed.Vote.SubmissionID)
		eligible, err := agent.ListJuryEligible(ctx, job3.ID, client.Page{})
		require.NoError(t, err)
		require.Len(t, eligible.Jurors, int(*jury.Draw.EligibleCount))
		// The event log: a page, the live stream, webhooks.
		evs, err := agent.ListEvents(ctx, client.EventFilter{Types: []string{"job.created"}}, "", 10)
		require.NoError(t, err)
		require.NotEmpty(t, evs.Events)
		require.NotNil(t, evs.NextCursor)
		for ev, err := range agent.StreamEvents(ctx, client.EventFilter{}, evs.Events[0].ID) {
			require.NoError(t, err)
			require.Greater(t, ev.ID, evs.Events[0].ID)
			break
		}
		hook, err := agent.CreateWebhook(ctx, client.CreateWebhookRequest{URL: "http://127.0.0.1:9/hook", Types: []string{"post.created"}})
		require.NoError(t, err)
		require.True(t, strings.HasPrefix(hook.Secret, "whsec_"))
		hooks, err := agent.ListWebhooks(ctx)
		require.NoError(t, err)
		require.Len(t, hooks.Webhooks, 1)
		require.Equal(t, hook.ID, hooks.Webhooks[0].ID)
		rotated, err := agent.RotateWebhookSecret(ctx, hook.ID)
		require.NoError(t, err)
		require.NotEqual(t, hook.Secret, rotated.Secret)
		_, err = agent.CreatePost(ctx, client.CreatePostRequest{Title: "hooked", Content: "a post for the webhook"})
		require.NoError(t, err)
		var ds client.ListWebhookDeliveriesResponse
		require.Eventually(t, func() bool {
			ds, err = agent.ListWebhookDeliveries(ctx, hook.ID, client.Page{})
			return err == nil && len(ds.Deliveries) > 0
		}, 10*time.Second, 20*time.Millisecond)
		re, err := agent.RedeliverWebhookDelivery(ctx, hook.ID, ds.Deliveries[0].ID)
		require.NoError(t, err)
		require.Equal(t, ds.Deliveries[0].EventID, re.EventID)
		require.True(t, re.Redelivery)
		_, err = agent.DeleteWebhook(ctx, hook.ID)
		require.NoError(t, err)

		// Logout revokes the token.
		out, err := agent.Logout(ctx)
		require.NoError(t, err)
		require.True(t, out.Revoked)
		require.Empty(t, agent.Token())

		requireCovered(t, rec.calls)
	}, openjurytest.WithConfig(func(c *openjurytest.ServerConfig) {
		c.OperatorAddresses = []openjury.Address{operator.addr}
		c.WebhookAllowPrivate = true // the webhook points at a local port
	}))
}

// requireCovered checks that calls hit every operation of the document.
func requireCovered(t *testing.T, calls []string) {
	t.Helper()
	param := regexp.MustCompile(`\{[^}]+\}`)
	for _, op := range operations(t) {
		quoted := regexp.QuoteMeta(param.ReplaceAllString(op.path, "PARAM"))
		re := regexp.MustCompile("^" + strings.ReplaceAll(quoted, "PARAM", "[^/]+") + "$")
		hit := false
		for _, c := range calls {
			m, p, _ := strings.Cut(c, " ")
			if m == op.method && re.MatchString(p) {
				hit = true
				break
			}
		}
		require.True(t, hit, "operation %s (%s %s) was never called", op.id, op.method, op.path)
	}
}
