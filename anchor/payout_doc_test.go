package anchor_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
)

var (
	winnerAddr = openjury.MustAddress("0x00000000000000000000000000000000000000aa")
	jurorAddr  = openjury.MustAddress("0x00000000000000000000000000000000000000bb")
	feeAddr    = openjury.MustAddress("0x00000000000000000000000000000000000000cc")
)

// payoutRecords are fixedRecords plus the payouts of the worked example.
func payoutRecords(jobID string) ([]anchor.Record, []anchor.Payout) {
	payouts := []anchor.Payout{
		{Recipient: winnerAddr, Amount: 85_000_002, Roles: []string{anchor.RoleWinner}},
		{Recipient: jurorAddr, Amount: 4_444_444, Roles: []string{anchor.RoleJuror}},
		{Recipient: feeAddr, Amount: 5_000_000, Roles: []string{anchor.RolePlatform}},
	}
	recs := fixedRecords()
	for _, p := range payouts {
		recs = append(recs, anchor.PayoutRecord(jobID, p))
	}
	return recs, payouts
}

// A snapshot with payouts is schema version 2; each payout's leaf is
// PayoutLeaf (what the escrow's claim checks), its proof leads to the root
// the document re-derives, and the document verifies as built and as a
// stream; the other records keep the JSON leaf rule.
func TestPayoutSnapshotIsSchema2WithPayoutLeaves(t *testing.T) {
	t.Parallel()
	jobID := openjury.NewID()
	recs, payouts := payoutRecords(jobID)
	s := mustBuild(t, jobID, recs)
	require.Contains(t, string(s.Document), `"schema_version":2`)
	require.Contains(t, string(s.Document), `{"amount_micro_usdc":"85000002","id":"payout:`+winnerAddr.String()+`","job_key":"`+
		openjury.HashFromBytes(anchor.JobKey(jobID)).String()+`","recipient":"`+winnerAddr.String()+`","roles":["winner"],"type":"payout"}`)
	require.NoError(t, anchor.VerifyDocument(s.Document, s.Root))
	d, err := anchor.ParseDocument(s.Document)
	require.NoError(t, err)
	require.Equal(t, anchor.SchemaVersionPayouts, d.SchemaVersion)
	for _, p := range payouts {
		leaf, ok := d.Leaf(anchor.PayoutRecordID(p.Recipient))
		require.True(t, ok)
		require.Equal(t, anchor.PayoutLeaf(anchor.JobKey(jobID), p.Recipient, p.Amount), leaf)
		require.NotEqual(t, anchor.Leaf(d.Records[anchor.PayoutRecordID(p.Recipient)]), leaf, "not the JSON rule")
		pr, err := d.Prove(anchor.PayoutRecordID(p.Recipient))
		require.NoError(t, err)
		nodes := make([]anchor.Node, len(pr.Proof))
		for i, h := range pr.Proof {
			nodes[i] = node(t, h)
		}
		require.True(t, anchor.Verify(nodes, node(t, s.Root), leaf))
	}
	leaf, _ := d.Leaf("vote:v1")
	require.Equal(t, anchor.Leaf(d.Records["vote:v1"]), leaf, "other records: the JSON rule")
	// The stream check sees the same leaves.
	got := map[string]anchor.Node{}
	h, n, err := anchor.VerifyReader(iotest.OneByteReader(bytes.NewReader(s.Document)), s.Root, func(id string, leaf anchor.Node) { got[id] = leaf })
	require.NoError(t, err)
	require.Equal(t, anchor.SchemaVersionPayouts, h.SchemaVersion)
	require.Equal(t, len(recs), n)
	for _, id := range d.IDs {
		want, _ := d.Leaf(id)
		require.Equal(t, want, got[id], id)
	}
	// The streamed frame of version 2 gives the built document back.
	svc := anchor.NewService(newTreeStore(t, jobID, s), anchor.Config{})
	raw, err := svc.Document(context.Background(), jobID)
	require.NoError(t, err)
	require.Equal(t, string(s.Document), string(raw))
	p, err := svc.Proof(context.Background(), jobID, winnerAddr.String())
	require.NoError(t, err, "a bare address names its payout record")
	require.Equal(t, anchor.PayoutRecordID(winnerAddr), p.Record)
}

// A verifier refuses what a hostile server could serve: a payout amount
// changed in the document (its leaf no longer in the tree), a payout
// naming another job's key, an id that is not its recipient's, payout
// records under schema 1, a schema 2 document without them, an amount
// that is not a canonical decimal.
func TestPayoutDocumentTamperingIsRefused(t *testing.T) {
	t.Parallel()
	jobID := openjury.NewID()
	recs, _ := payoutRecords(jobID)
	s := mustBuild(t, jobID, recs)
	doc := string(s.Document)
	key := openjury.HashFromBytes(anchor.JobKey(jobID)).String()
	otherKey := openjury.HashFromBytes(anchor.JobKey(openjury.NewID())).String()
	cases := map[string]string{
		"amount raised":  strings.Replace(doc, `"85000002"`, `"95000002"`, 1),
		"another job":    strings.Replace(doc, key, otherKey, 1),
		"id not its own": strings.Replace(doc, `"id":"payout:`+jurorAddr.String(), `"id":"payout:`+feeAddr.String()[:40]+`dd`, 1),
		"schema 1":       strings.Replace(doc, `"schema_version":2`, `"schema_version":1`, 1),
		"schema 3":       strings.Replace(doc, `"schema_version":2`, `"schema_version":3`, 1),
		"leading zero":   strings.Replace(doc, `"85000002"`, `"085000002"`, 1),
		"unknown role":   strings.Replace(doc, `["winner"]`, `["sponsor"]`, 1),
	}
	for name, bad := range cases {
		require.NotEqual(t, doc, bad, name)
		_, _, err := anchor.VerifyReader(strings.NewReader(bad), s.Root, nil)
		require.True(t, openjury.IsKind(err, openjury.Invalid), "%s: %v", name, err)
		_, err = anchor.ParseDocument([]byte(bad))
		if name != "amount raised" && name != "another job" {
			require.Error(t, err, name)
		}
	}
	v1 := mustBuild(t, jobID, fixedRecords())
	bad := strings.Replace(string(v1.Document), `"schema_version":1`, `"schema_version":2`, 1)
	_, _, err := anchor.VerifyReader(strings.NewReader(bad), v1.Root, nil)
	require.ErrorContains(t, err, "without payout records")
}

// A job without payouts keeps schema version 1 and the golden root.
func TestSnapshotWithoutPayoutsStaysSchema1(t *testing.T) {
	t.Parallel()
	s := mustBuild(t, "j1", fixedRecords())
	require.Contains(t, string(s.Document), `"schema_version":1`)
	require.Equal(t, goldenRoot, s.Root.String())
}
