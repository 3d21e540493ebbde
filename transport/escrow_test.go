package transport_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/marketplace"
)

// escrowed is the escrow the escrow tests' services follow.
var escrowed = marketplace.EscrowConfig{
	Contract: openjury.MustAddress(addr20(0xe5)),
	ChainID:  testChainID,
	Treasury: openjury.MustAddress(addr20(0x7e)),
}

// fund records a confirmed funding of the job's escrow, as the sync does.
func (e *env) fund(jobID string, amount openjury.MicroUSDC) {
	e.t.Helper()
	chain, block, index := int64(testChainID), int64(9), int64(1)
	refund := e.clock.Now().Add(72 * time.Hour)
	require.NoError(e.t, e.store.Escrow().SetJobEscrow(context.Background(), jobID, &marketplace.JobEscrow{
		Status: marketplace.EscrowFunded, Amount: amount, RefundAfter: &refund,
		Ref: openjury.ChainRef{TxHash: openjury.Hash(hash32(0xf1)), ChainID: &chain, Contract: escrowed.Contract, BlockNumber: &block, LogIndex: &index},
	}))
}

// Jobs show the escrow: unfunded until the sync sees funding, then its
// amount, refund time and event; funded=true lists only funded jobs; a
// funded job's close makes payouts, served with proofs that lead from
// the escrow's leaf to anchor_root, in recipient order and by pages; a
// job without payouts lists none.
func TestEscrowFieldsAndPayouts(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withMarketConfig(func(c *marketplace.Config) { c.Escrow = escrowed }))
	sponsor := e.agent(0, 0)
	winner, loser := e.agent(minStake, 0), e.agent(minStake, 0)
	j4, j5, jo := e.agent(minStake, 10), e.agent(minStake, 16), e.agent(minStake, 10)
	plain := e.newJob(sponsor.token)
	job := e.newJob(sponsor.token)
	m := e.get("/api/v1/jobs/" + job).JSON(t)
	require.Equal(t, "unfunded", m["escrow_status"])
	require.EqualValues(t, 0, m["escrow_amount_usdc"])
	require.Equal(t, false, m["escrow_mismatch"])
	requireNulls(t, m, "escrow_refund_after", "escrow_tx_hash", "escrow_chain_id", "escrow_contract_address",
		"escrow_block_number", "escrow_log_index")

	e.fund(job, 100_000_001)
	r := e.do("GET", "/api/v1/jobs/"+job, nil)
	require.Contains(t, string(r.Body), `"escrow_amount_usdc":100.000001,`, "an exact JSON number")
	m = r.JSON(t)
	require.Equal(t, "funded", m["escrow_status"])
	require.Equal(t, hash32(0xf1), m["escrow_tx_hash"])
	require.Equal(t, escrowed.Contract.String(), m["escrow_contract_address"])
	require.EqualValues(t, 9, m["escrow_block_number"])
	require.Equal(t, openjury.FormatTime(e.clock.Now().Add(72*time.Hour)), m["escrow_refund_after"])
	listed := e.get("/api/v1/jobs?funded=true").JSON(t)["jobs"].([]any)
	require.Len(t, listed, 1)
	require.Equal(t, job, listed[0].(map[string]any)["id"])
	require.Len(t, e.get("/api/v1/jobs?funded=false").JSON(t)["jobs"].([]any), 2)
	requireError(t, e.do("GET", "/api/v1/jobs?funded=yes", nil), http.StatusBadRequest, "funded: must be true or false")

	p := e.get("/api/v1/jobs/" + job + "/payouts").JSON(t)
	require.Equal(t, []any{}, p["payouts"], "an open job has none")
	require.Equal(t, "funded", p["escrow_status"])
	requireNulls(t, p, "anchor_root", "total_usdc", "total_micro_usdc", "next_cursor")
	require.Equal(t, openjury.HashFromBytes(anchor.JobKey(job)).String(), p["job_key"])

	win := e.submit(winner.token, job, "the answer")["id"].(string)
	lose := e.submit(loser.token, job, "another")["id"].(string)
	e.vote(j4.token, job, win)
	e.vote(j5.token, job, win)
	e.vote(jo.token, job, lose)
	r = e.do("POST", "/api/v1/jobs/"+job+"/close", map[string]any{"winner_submission_id": win}, bearer(sponsor.token))
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
	closed := r.JSON(t)["job"].(map[string]any)
	require.EqualValues(t, 2, closed["anchor_schema_version"])
	require.Equal(t, "funded", closed["escrow_status"])
	root := closed["anchor_root"].(string)

	p = e.get("/api/v1/jobs/" + job + "/payouts").JSON(t)
	require.Equal(t, root, p["anchor_root"])
	require.Equal(t, "100000001", p["total_micro_usdc"])
	require.Equal(t, sponsor.lower(), p["sponsor_address"])
	require.Equal(t, escrowed.Contract.String(), p["escrow_contract_address"])
	want := map[string]string{winner.lower(): "85000002", j4.lower(): "4444444", j5.lower(): "5555555", escrowed.Treasury.String(): "5000000"}
	payouts := p["payouts"].([]any)
	require.Len(t, payouts, 4)
	key := anchor.JobKey(job)
	rootNode, err := anchor.NodeOf(openjury.Hash(root))
	require.NoError(t, err)
	prev := ""
	for _, x := range payouts {
		po := x.(map[string]any)
		who := po["recipient"].(string)
		require.Greater(t, who, prev, "recipient order")
		prev = who
		require.Equal(t, want[who], po["amount_micro_usdc"], who)
		require.Equal(t, false, po["claimed"])
		require.Nil(t, po["claim_tx_hash"])
		var amount uint64
		for _, c := range po["amount_micro_usdc"].(string) {
			amount = amount*10 + uint64(c-'0')
		}
		leaf := anchor.PayoutLeaf(key, openjury.MustAddress(who), amount)
		require.Equal(t, openjury.HashFromBytes(leaf).String(), po["leaf"])
		var proof []anchor.Node
		for _, h := range po["proof"].([]any) {
			n, err := anchor.NodeOf(openjury.Hash(h.(string)))
			require.NoError(t, err)
			proof = append(proof, n)
		}
		require.True(t, anchor.Verify(proof, rootNode, leaf), "the proof of %s leads to anchor_root", who)
	}
	one := e.get("/api/v1/jobs/" + job + "/payouts?recipient=" + j5.addr).JSON(t)["payouts"].([]any)
	require.Len(t, one, 1)
	require.Equal(t, []any{"juror"}, one[0].(map[string]any)["roles"])
	first := e.get("/api/v1/jobs/" + job + "/payouts?limit=3").JSON(t)
	require.Len(t, first["payouts"], 3)
	rest := e.get("/api/v1/jobs/" + job + "/payouts?limit=3&cursor=" + first["next_cursor"].(string)).JSON(t)
	require.Len(t, rest["payouts"], 1)
	require.Nil(t, rest["next_cursor"])

	requireError(t, e.do("GET", "/api/v1/jobs/"+openjury.NewID()+"/payouts", nil), http.StatusNotFound, "job not found")
	requireError(t, e.do("GET", "/api/v1/jobs/"+job+"/payouts?recipient=0x12", nil), http.StatusBadRequest, "recipient: must be 0x followed by 40 hex digits")
	requireError(t, e.do("GET", "/api/v1/jobs/"+job+"/payouts?limit=0", nil), http.StatusBadRequest, "limit: must be between 1 and 200")

	// The unfunded job closes as before: schema 1, no payouts.
	sub := e.submit(winner.token, plain, "x")["id"].(string)
	r = e.do("POST", "/api/v1/jobs/"+plain+"/close", map[string]any{"winner_submission_id": sub}, bearer(sponsor.token))
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
	require.EqualValues(t, 1, r.JSON(t)["job"].(map[string]any)["anchor_schema_version"])
	p = e.get("/api/v1/jobs/" + plain + "/payouts").JSON(t)
	require.Equal(t, []any{}, p["payouts"])
	require.Equal(t, "unfunded", p["escrow_status"])
}

// With an escrow the economy policy names it and the treasury, and the
// constitution says what the service does with the money.
func TestEscrowPolicyAndConstitution(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withMarketConfig(func(c *marketplace.Config) { c.Escrow = escrowed }))
	m := e.get("/api/v1/economy/policy").JSON(t)
	require.Equal(t, escrowed.Contract.String(), m["escrow_contract_address"])
	require.Equal(t, escrowed.Treasury.String(), m["treasury_address"])
	c := e.get("/api/v1/governance/constitution").JSON(t)
	principle := c["escrow_principle"].(string)
	for _, want := range []string{escrowed.Contract.String(), escrowed.Treasury.String(), "85%", "10%", "5%", "Merkle proof", "can move no money", "refund time"} {
		require.Contains(t, principle, want)
	}
	tr := c["treasury"].(map[string]any)
	require.Equal(t, escrowed.Treasury.String(), tr["contract_address"])
	require.EqualValues(t, testChainID, tr["chain_id"])
}
