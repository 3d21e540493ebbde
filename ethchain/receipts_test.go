package ethchain_test

import (
	"context"
	"fmt"
	"math/big"
	"net/http"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/contracts"
	"github.com/openjury/openjury/ethchain"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/openjurytest/simchain"
)

// closeJob makes a job with two submissions (one with evidence), a jury
// vote, a final vote and two comments (one deleted), closes it through
// the marketplace and returns its id.
func closeJob(t *testing.T, srv *openjurytest.Server) string {
	t.Helper()
	ctx := context.Background()
	m := srv.Market
	sponsor, alice, bob, juror := openjurytest.NewWallet(t).Address(), openjurytest.NewWallet(t).Address(),
		openjurytest.NewWallet(t).Address(), openjurytest.NewWallet(t).Address()
	for _, a := range []openjury.Address{alice, bob, juror} {
		srv.SetStake(t, a, 20)
	}
	srv.SetReputation(t, juror, 50)
	job, err := m.CreateJob(ctx, sponsor, marketplace.CreateJobInput{Title: "Find the bug", Prompt: "In closing.go", Bounty: 5 * openjury.MicroPerUSDC, Tags: []string{"go"}})
	require.NoError(t, err)
	conf := 0.9
	s1, err := m.Submit(ctx, alice, marketplace.SubmitInput{JobID: job.ID, Content: "Line 42.", Evidence: []marketplace.EvidenceInput{
		{Type: "url", SourceURL: "https://example.com/a", Quote: "q", Claim: "c", Confidence: &conf, Metadata: map[string]any{"k": "v"}},
	}})
	require.NoError(t, err)
	s2, err := m.Submit(ctx, bob, marketplace.SubmitInput{JobID: job.ID, Content: "Line 7."})
	require.NoError(t, err)
	_, err = m.Vote(ctx, juror, marketplace.VoteInput{JobID: job.ID, SubmissionID: s1.ID, Review: map[string]any{"score": 4}})
	require.NoError(t, err)
	_, err = m.FinalVote(ctx, juror, marketplace.FinalVoteInput{JobID: job.ID, SubmissionID: s2.ID})
	require.NoError(t, err)
	_, err = m.AddComment(ctx, juror, marketplace.TargetJob, job.ID, marketplace.CommentInput{Content: "Nice."})
	require.NoError(t, err)
	gone, err := m.AddComment(ctx, bob, marketplace.TargetSubmission, s1.ID, marketplace.CommentInput{Content: "Hm."})
	require.NoError(t, err)
	_, err = m.DeleteComment(ctx, bob, gone.ID)
	require.NoError(t, err)
	_, err = m.CloseJob(ctx, sponsor, job.ID, marketplace.CloseInput{WinnerSubmissionID: s1.ID})
	require.NoError(t, err)
	return job.ID
}

// TestProofsVerifyInSolidity: every record's proof (and the salt's) of a
// real closed job's snapshot verifies against anchor_root in the Solidity
// MerkleVerifier (OpenZeppelin's MerkleProof); a tampered record or proof
// does not.
func TestProofsVerifyInSolidity(t *testing.T) {
	t.Parallel()
	ch := simchain.New(t)
	srv := openjurytest.NewServer(t, openjurytest.WithConfig(func(c *openjurytest.ServerConfig) { c.SemanticSearchEnabled = false }))
	ctx := context.Background()
	jobID := closeJob(t, srv)
	b, err := srv.Anchor.Batch(ctx, jobID)
	require.NoError(t, err)
	raw, err := srv.Anchor.Document(ctx, jobID)
	require.NoError(t, err)
	doc, err := anchor.ParseDocument(raw)
	require.NoError(t, err)
	require.Len(t, doc.IDs, 7, "job, 2 submissions, a vote, a final vote, 2 comments")
	root := common.HexToHash(b.Root.String())

	verify := func(proof []openjury.Hash, leaf [32]byte) bool {
		t.Helper()
		nodes := make([][32]byte, len(proof))
		for i, h := range proof {
			nodes[i] = common.HexToHash(h.String())
		}
		ok, err := ch.Verifier.Verify(nil, nodes, root, leaf)
		require.NoError(t, err)
		return ok
	}
	for _, id := range append(doc.IDs, anchor.SaltRecordID) {
		p, err := srv.Anchor.Proof(ctx, jobID, id)
		require.NoError(t, err)
		require.Equal(t, b.Root, p.Root, id)
		leaf, ok := doc.Leaf(id)
		require.True(t, ok, id)
		require.Equal(t, openjury.HashFromBytes(leaf), p.Leaf, id)
		require.True(t, verify(p.Proof, leaf), "the proof of %s verifies onchain", id)

		if id == anchor.SaltRecordID {
			continue
		}
		tampered := append([]byte(nil), doc.Records[id]...)
		tampered[len(tampered)-2] ^= 1
		require.False(t, verify(p.Proof, anchor.Leaf(tampered)), "a tampered %s does not verify", id)
		if len(p.Proof) > 0 {
			bad := append([]openjury.Hash(nil), p.Proof...)
			bad[0] = openjury.HashFromBytes(crypto.Keccak256Hash([]byte("other node")))
			require.False(t, verify(bad, leaf), "a tampered proof of %s does not verify", id)
		}
	}
}

// TestAnchorReceiptOnChain: with the ReceiptChecker over a JSON-RPC node,
// a receipt from a real postAnchor is recorded (200); one for another
// root, salt, schema version, uri, block, chain, contract (a second
// registry) or log index, a failed and an unknown transaction are each
// 400 naming the difference; the node stopped is 503.
func TestAnchorReceiptOnChain(t *testing.T) {
	t.Parallel()
	ch, client := httpChain(t)
	registry := openjury.AddressFromBytes(ch.RegistryAddr)
	op := openjurytest.NewWallet(t)
	srv := openjurytest.NewServer(t, openjurytest.WithConfig(func(c *openjurytest.ServerConfig) {
		c.SemanticSearchEnabled = false
		c.OperatorAddresses = []openjury.Address{op.Address()}
		c.AnchorChecker = ethchain.NewReceiptChecker(client, registry, simchain.ChainID)
	}))
	ctx := context.Background()
	jobID := closeJob(t, srv)
	b, err := srv.Anchor.Batch(ctx, jobID)
	require.NoError(t, err)
	root, salt := common.HexToHash(b.Root.String()), common.HexToHash(b.Salt.String())
	other := crypto.Keccak256Hash([]byte("other"))

	post := func(reg *contracts.AnchorRegistry, root common.Hash, uri string, version uint32, salt common.Hash) *types.Receipt {
		t.Helper()
		r := ch.Send(reg.PostAnchor(ch.Deployer.Opts, root, uri, version, salt))
		require.Len(t, r.Logs, 1)
		return r
	}
	// receipt is the request body of a postAnchor receipt r.
	receipt := func(r *types.Receipt) map[string]any {
		return map[string]any{
			"anchor_tx_hash": r.TxHash.Hex(), "anchor_chain_id": simchain.ChainID,
			"anchor_contract_address": registry.String(),
			"anchor_block_number":     r.BlockNumber.Int64(), "anchor_log_index": r.Logs[0].Index,
		}
	}
	with := func(m map[string]any, k string, v any) map[string]any {
		out := map[string]any{}
		for kk, vv := range m {
			out[kk] = vv
		}
		out[k] = v
		return out
	}
	tok := srv.SignIn(t, op)
	record := func(body map[string]any) *openjurytest.Response {
		t.Helper()
		return srv.Do(t, http.MethodPost, "/api/v1/jobs/"+jobID+"/anchor_receipt", tok, body)
	}

	good := post(ch.Registry, root, b.URI, 1, salt)
	// A second registry posting this job's very root and salt.
	reg2Addr, tx, reg2, err := contracts.DeployAnchorRegistry(ch.Deployer.Opts, ch.Client)
	ch.Send(tx, err)
	elsewhere := post(reg2, root, b.URI, 1, salt)
	failed := revertedTx(t, ch)

	unknown := receipt(good)
	unknown["anchor_tx_hash"] = other.Hex()
	for name, tc := range map[string]struct {
		body   map[string]any
		detail string
	}{
		"another root":    {receipt(post(ch.Registry, other, b.URI, 1, salt)), "anchor_tx_hash: the AnchorPosted root is " + openjury.HashFromBytes(other).String() + ", not this job's anchor_root " + b.Root.String()},
		"another salt":    {receipt(post(ch.Registry, root, b.URI, 1, other)), "anchor_tx_hash: the AnchorPosted salt is " + openjury.HashFromBytes(other).String()},
		"another version": {receipt(post(ch.Registry, root, b.URI, 2, salt)), "anchor_tx_hash: the AnchorPosted schema version is 2, not this job's schema_version 1"},
		"another uri":     {receipt(post(ch.Registry, root, "https://elsewhere.example/x", 1, salt)), `anchor_tx_hash: the AnchorPosted uri is "https://elsewhere.example/x", not this job's anchor_uri "` + b.URI + `"`},
		"another block": {with(receipt(good), "anchor_block_number", good.BlockNumber.Int64()+1),
			fmt.Sprintf("anchor_block_number: is %d, but the transaction is in block %d", good.BlockNumber.Int64()+1, good.BlockNumber.Int64())},
		"another chain": {with(receipt(good), "anchor_chain_id", 8453), "anchor_chain_id: is 8453, but anchors are checked on chain 1337"},
		"another contract": {with(receipt(elsewhere), "anchor_contract_address", openjury.AddressFromBytes(reg2Addr).String()),
			"anchor_contract_address: is " + openjury.AddressFromBytes(reg2Addr).String() + ", not the anchor registry " + registry.String()},
		"a log of another contract": {receipt(elsewhere),
			"anchor_log_index: the log was emitted by " + openjury.AddressFromBytes(reg2Addr).String() + ", not the anchor registry " + registry.String()},
		"a wrong log index":  {with(receipt(good), "anchor_log_index", good.Logs[0].Index+1), "anchor_log_index: the transaction has no log at this index"},
		"a failed tx":        {with(receipt(good), "anchor_tx_hash", failed.TxHash.Hex()), "anchor_tx_hash: the transaction failed (reverted)"},
		"an unknown tx":      {unknown, "anchor_tx_hash: no such transaction on chain 1337"},
		"a malformed number": {with(receipt(good), "anchor_log_index", -1), "anchor_log_index: must be at least 0"},
	} {
		r := record(tc.body)
		require.Equal(t, http.StatusBadRequest, r.Status, "%s: %s", name, r.Body)
		require.Contains(t, r.Map(t)["detail"], tc.detail, name)
	}

	// The node stopped: 503, nothing recorded; the URL is not returned.
	ch.Proxy().Stop()
	r := record(receipt(good))
	require.Equal(t, http.StatusServiceUnavailable, r.Status, string(r.Body))
	require.NotContains(t, string(r.Body), ch.Proxy().Addr())
	ch.Proxy().Start()
	require.Nil(t, srv.Do(t, http.MethodGet, "/api/v1/jobs/"+jobID+"/anchor", "", nil).Map(t)["anchor_tx_hash"])

	// The real receipt: 200, recorded as given; the same again 200.
	r = record(receipt(good))
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	got := srv.Do(t, http.MethodGet, "/api/v1/jobs/"+jobID+"/anchor", "", nil).Map(t)
	require.Equal(t, openjury.HashFromBytes(good.TxHash).String(), got["anchor_tx_hash"])
	require.Equal(t, registry.String(), got["anchor_contract_address"])
	require.EqualValues(t, good.BlockNumber.Int64(), got["anchor_block_number"])
	require.EqualValues(t, good.Logs[0].Index, got["anchor_log_index"])
	require.EqualValues(t, simchain.ChainID, got["anchor_chain_id"])
	require.Equal(t, http.StatusOK, record(receipt(good)).Status)
}

// revertedTx mines a transaction that reverts (a withdrawal with no stake)
// and returns its receipt.
func revertedTx(t *testing.T, ch *simchain.Chain) *types.Receipt {
	t.Helper()
	opts := *ch.Accounts[5].Opts
	opts.GasLimit = 200_000 // no estimate: it would refuse a reverting call
	tx, err := ch.Vault.Withdraw(&opts, big.NewInt(1))
	require.NoError(t, err)
	ch.Mine(1)
	r, err := ch.Client.TransactionReceipt(context.Background(), tx.Hash())
	require.NoError(t, err)
	require.Equal(t, types.ReceiptStatusFailed, r.Status)
	return r
}

// TestReceiptCheckerNodeOnAnotherChain: a node that serves another chain
// than the configured one cannot check receipts: Unavailable, whatever
// the receipt says.
func TestReceiptCheckerNodeOnAnotherChain(t *testing.T) {
	t.Parallel()
	ch := simchain.New(t)
	registry := openjury.AddressFromBytes(ch.RegistryAddr)
	c := ethchain.NewReceiptChecker(newClient(ch), registry, 8453)
	r := ch.Send(ch.Registry.PostAnchor(ch.Deployer.Opts, common.Hash{1}, "u", 1, common.Hash{2}))
	chainID, block, index := int64(8453), r.BlockNumber.Int64(), int64(r.Logs[0].Index)
	err := c.CheckAnchorReceipt(context.Background(), &anchor.Batch{SchemaVersion: 1, URI: "u", Root: openjury.HashFromBytes(common.Hash{1}), Salt: openjury.HashFromBytes(common.Hash{2})},
		openjury.ChainRef{TxHash: openjury.HashFromBytes(r.TxHash), ChainID: &chainID, Contract: registry, BlockNumber: &block, LogIndex: &index})
	require.Equal(t, openjury.Unavailable, openjury.KindOf(err), "%v", err)
	require.Contains(t, openjury.DetailOf(err), "the chain node serves chain 1337, not the configured chain 8453")
}

// TestReceiptCheckerLocalChecksFirst (fake chain): a receipt for another
// chain or contract is refused before any chain call; the node's chain id
// is asked until it matches; a node that is down or on another chain is
// Unavailable.
func TestReceiptCheckerLocalChecksFirst(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	fake := openjurytest.NewChain()
	registry := openjury.MustAddress("0x00000000000000000000000000000000000000aa")
	c := ethchain.NewReceiptChecker(fake, registry, openjurytest.DefaultChainID)
	b := &anchor.Batch{SchemaVersion: 1, URI: "u", Root: openjury.HashFromBytes(common.Hash{1}), Salt: openjury.HashFromBytes(common.Hash{2})}
	tx := openjury.HashFromBytes(common.Hash{3})
	fake.AddReceipt(ethchain.AnchorLog{TxHash: tx, Succeeded: true, BlockNumber: 7, LogIndex: 2, Emitter: registry, Root: b.Root, URI: "u", SchemaVersion: 1, Salt: b.Salt})
	ref := func(chainID int64, contract openjury.Address) openjury.ChainRef {
		block, index := int64(7), int64(2)
		return openjury.ChainRef{TxHash: tx, ChainID: &chainID, Contract: contract, BlockNumber: &block, LogIndex: &index}
	}

	err := c.CheckAnchorReceipt(ctx, b, ref(1, registry))
	require.Equal(t, openjury.Invalid, openjury.KindOf(err))
	require.Contains(t, openjury.DetailOf(err), "anchor_chain_id")
	err = c.CheckAnchorReceipt(ctx, b, ref(openjurytest.DefaultChainID, openjury.MustAddress("0x00000000000000000000000000000000000000bb")))
	require.Equal(t, openjury.Invalid, openjury.KindOf(err))
	require.Contains(t, openjury.DetailOf(err), "anchor_contract_address")
	require.Zero(t, fake.Calls(), "no chain call for what the settings refuse")

	require.NoError(t, c.CheckAnchorReceipt(ctx, b, ref(openjurytest.DefaultChainID, registry)))
	require.NoError(t, c.CheckAnchorReceipt(ctx, b, ref(openjurytest.DefaultChainID, registry)))
	require.Equal(t, 3, fake.Calls(), "the chain id once, the receipt twice")

	fake.SetDown(true)
	err = c.CheckAnchorReceipt(ctx, b, ref(openjurytest.DefaultChainID, registry))
	require.Equal(t, openjury.Unavailable, openjury.KindOf(err))
	err = ethchain.NewReceiptChecker(fake, registry, openjurytest.DefaultChainID).CheckAnchorReceipt(ctx, b, ref(openjurytest.DefaultChainID, registry))
	require.Equal(t, openjury.Unavailable, openjury.KindOf(err), "a fresh checker cannot ask the chain id either")

	// A node on another chain is Unavailable, and asked again next time.
	fake.SetDown(false)
	fake.SetChainID(1)
	fresh := ethchain.NewReceiptChecker(fake, registry, openjurytest.DefaultChainID)
	err = fresh.CheckAnchorReceipt(ctx, b, ref(openjurytest.DefaultChainID, registry))
	require.Equal(t, openjury.Unavailable, openjury.KindOf(err))
	require.Contains(t, openjury.DetailOf(err), "the chain node serves chain 1, not the configured chain 8453")
	fake.SetChainID(openjurytest.DefaultChainID)
	require.NoError(t, fresh.CheckAnchorReceipt(ctx, b, ref(openjurytest.DefaultChainID, registry)))
}
