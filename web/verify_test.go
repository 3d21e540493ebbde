package web_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest"
)

// evalModule imports the app's module and evaluates body (which sees it as
// m) in the page, awaiting the promise, into out.
func evalModule(module, body string, out any) chromedp.Action {
	return chromedp.Evaluate(fmt.Sprintf(`import(%q).then((m) => { %s })`, module, body), out,
		func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) })
}

func jsLiteral(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// TestKeccakKnownAnswers runs web/static/keccak.js in chromium against
// go-ethereum's crypto.Keccak256: empty input, the rate's edges (135, 136,
// 137 bytes), inputs over several blocks, and multi-byte UTF-8 text.
func TestKeccakKnownAnswers(t *testing.T) {
	ctx := browser(t)
	front := app(t, openjurytest.NewServer(t, openjurytest.WithConfig(func(c *openjurytest.ServerConfig) { c.SemanticSearchEnabled = false })), openjurytest.NewWallet(t))
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 1000)
	for i := range random {
		random[i] = byte(rng.IntN(256))
	}
	inputs := [][]byte{nil, []byte("abc"), bytes.Repeat([]byte{'a'}, 135), bytes.Repeat([]byte{'b'}, 136),
		bytes.Repeat([]byte{'c'}, 137), bytes.Repeat([]byte{0xff}, 272), random}
	texts := []string{"", "héllo wörld ✓ 🚀 日本語", strings.Repeat("Zoë 🚀 ✓ ", 40), "\u2028\u0000\"\\"}
	var hexIn, wantBytes, wantTexts []string
	for _, in := range inputs {
		hexIn = append(hexIn, "0x"+hex.EncodeToString(in))
		wantBytes = append(wantBytes, "0x"+hex.EncodeToString(crypto.Keccak256(in)))
	}
	for _, s := range texts {
		wantTexts = append(wantTexts, "0x"+hex.EncodeToString(crypto.Keccak256([]byte(s))))
	}
	require.Greater(t, len(texts[2]), 136)
	var gotBytes, gotTexts []string
	err := chromedp.Run(ctx,
		chromedp.Navigate(front.URL+"/"),
		chromedp.WaitReady(`footer`),
		evalModule("/static/keccak.js", `return `+jsLiteral(t, hexIn)+`.map((h) => m.toHex(m.keccak256(m.fromHex(h))))`, &gotBytes),
		evalModule("/static/keccak.js", `const e = new TextEncoder(); return `+jsLiteral(t, texts)+`.map((s) => m.toHex(m.keccak256(e.encode(s))))`, &gotTexts),
	)
	require.NoError(t, err)
	require.Equal(t, wantBytes, gotBytes)
	require.Equal(t, wantTexts, gotTexts)
}

// TestVerifySnapshotInBrowser checks web/static/verify.js on a real
// snapshot: JCS agrees with the Go canonicaliser on awkward values, the
// snapshot verifies (also with its records' members reordered), and every
// tampering is caught.
func TestVerifySnapshotInBrowser(t *testing.T) {
	ctx := browser(t)
	srv := openjurytest.NewServer(t, openjurytest.WithConfig(func(c *openjurytest.ServerConfig) { c.SemanticSearchEnabled = false }))
	sponsor, agent := openjurytest.NewWallet(t), openjurytest.NewWallet(t)
	bg := context.Background()
	job, err := srv.Market.CreateJob(bg, sponsor.Address(), marketplace.CreateJobInput{Title: "Zoë's \"job\" 🚀", Prompt: "Line\nTab\t<b>\u2028", Tags: []string{"jcs"}})
	require.NoError(t, err)
	srv.SetStake(t, agent.Address(), 10)
	conf := 0.1
	sub, err := srv.Market.Submit(bg, agent.Address(), marketplace.SubmitInput{JobID: job.ID, Content: "日本語 \u0001 done",
		Evidence: []marketplace.EvidenceInput{{Type: "web", SourceURL: "https://example.com/x", Quote: "q", Confidence: &conf, Metadata: map[string]any{"z": 1e21, "a": 1e-7, "é": -0.5}}}})
	require.NoError(t, err)
	_, err = srv.Market.AddComment(bg, sponsor.Address(), marketplace.TargetJob, job.ID, marketplace.CommentInput{Content: "\U0001F600 vs \uFB01 ordering"})
	require.NoError(t, err)
	_, err = srv.Market.CloseJob(bg, sponsor.Address(), job.ID, marketplace.CloseInput{WinnerSubmissionID: sub.ID})
	require.NoError(t, err)
	closed, err := srv.Market.Job(bg, job.ID)
	require.NoError(t, err)
	resp, err := http.Get(srv.URL + "/api/v1/jobs/" + job.ID + "/anchor/snapshot")
	require.NoError(t, err)
	doc, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, string(doc))

	// JCS: the browser's form of awkward values is the Go canonicaliser's.
	awkward := `{"\ufb01":1,"\ud83d\ude00":2,"b":[1e21,1e-7,0.1,-0,100,1.5e300,"\u2028\u0000\"\\\/é"],"a":{"y":null,"x":true}}`
	want, err := anchor.Canonical([]byte(awkward))
	require.NoError(t, err)

	type result struct {
		OK      bool   `json:"ok"`
		Message string `json:"message"`
	}
	var canon string
	var results map[string]result
	verify := func(name, tamper string) string {
		return fmt.Sprintf(`{ const d = structuredClone(doc); %s; out[%q] = m.verifySnapshot(d, id, root); }`, tamper, name)
	}
	script := `const doc = ` + string(doc) + `; const id = ` + jsLiteral(t, job.ID) + `; const root = ` + jsLiteral(t, string(closed.Anchor.Root)) + `; const out = {};
` + verify("as served", "") + `
` + verify("members reordered", "d.records = d.records.map((r) => Object.fromEntries(Object.entries(r).reverse()))") + `
` + verify("content changed", "d.records.find((r) => r.type === 'submission').content += '!'") + `
` + verify("number changed", "d.records.find((r) => r.type === 'submission').evidence[0].confidence = 0.2") + `
` + verify("record dropped", "d.records = d.records.filter((r) => r.type !== 'comment')") + `
` + verify("record added", "d.records.push({id: 'comment:x', type: 'comment'})") + `
` + verify("salt changed", "d.salt = '0x' + '00'.repeat(32)") + `
` + verify("other job", "d.job_id = 'other'") + `
` + verify("root named wrongly", "d.root = '0x' + '11'.repeat(32)") + `
return out;`
	err = chromedp.Run(ctx,
		chromedp.Navigate(app(t, srv, sponsor).URL+"/"),
		chromedp.WaitReady(`footer`),
		evalModule("/static/verify.js", `return m.jcs(JSON.parse(`+jsLiteral(t, awkward)+`))`, &canon),
		evalModule("/static/verify.js", script, &results),
	)
	require.NoError(t, err)
	require.Equal(t, string(want), canon)
	require.Len(t, results, 9)
	for name, r := range results {
		if name == "as served" || name == "members reordered" {
			require.True(t, r.OK, "%s: %s", name, r.Message)
			require.Contains(t, r.Message, string(closed.Anchor.Root))
			continue
		}
		require.False(t, r.OK, name)
		require.True(t, strings.HasPrefix(r.Message, "Not verified: "), "%s: %s", name, r.Message)
	}
}

// TestVerifyPayoutSnapshotInBrowser checks web/static/verify.js on a
// schema 2 snapshot (a funded job's): payoutLeaf is anchor.PayoutLeaf on
// awkward amounts, the snapshot verifies, and a raised amount, another
// job's key, a payout record's id not its recipient's, and a version
// that disagrees with the records are all refused.
func TestVerifyPayoutSnapshotInBrowser(t *testing.T) {
	ctx := browser(t)
	srv := openjurytest.NewServer(t, openjurytest.WithConfig(func(c *openjurytest.ServerConfig) { c.SemanticSearchEnabled = false }))
	jobID := "0193a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b"
	win := openjurytest.NewWallet(t).Address()
	fee := openjurytest.NewWallet(t).Address()
	recs := []anchor.Record{
		{ID: "job:" + jobID, Type: "job", Fields: map[string]any{"job_id": jobID, "title": "t"}},
		anchor.PayoutRecord(jobID, anchor.Payout{Recipient: win, Amount: 85_000_002, Roles: []string{anchor.RoleWinner}}),
		anchor.PayoutRecord(jobID, anchor.Payout{Recipient: fee, Amount: 5_000_000, Roles: []string{anchor.RolePlatform}}),
	}
	var salt [anchor.SaltSize]byte
	salt[0] = 9
	snap, err := anchor.Build(jobID, salt, time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC), recs)
	require.NoError(t, err)
	amounts := []string{"0", "1", "85000002", "4294967296", "18446744073709551615"}
	var want []string
	for _, a := range amounts {
		var n uint64
		_, err := fmt.Sscan(a, &n)
		require.NoError(t, err)
		l := anchor.PayoutLeaf(anchor.JobKey(jobID), win, n)
		want = append(want, "0x"+hex.EncodeToString(l[:]))
	}
	type result struct {
		OK      bool   `json:"ok"`
		Message string `json:"message"`
	}
	var leaves []string
	var results map[string]result
	verify := func(name, tamper string) string {
		return fmt.Sprintf(`{ const d = structuredClone(doc); %s; out[%q] = m.verifySnapshot(d, id, root); }`, tamper, name)
	}
	script := `const doc = ` + string(snap.Document) + `; const id = ` + jsLiteral(t, jobID) + `; const root = ` + jsLiteral(t, string(snap.Root)) + `; const out = {};
` + verify("as built", "") + `
` + verify("amount raised", "d.records.find((r) => r.type === 'payout').amount_micro_usdc = '95000002'") + `
` + verify("another job's key", "d.records.find((r) => r.type === 'payout').job_key = '0x' + '22'.repeat(32)") + `
` + verify("id not its recipient's", "d.records.find((r) => r.type === 'payout').id = 'payout:0x' + '33'.repeat(20)") + `
` + verify("schema 1", "d.schema_version = 1") + `
return out;`
	err = chromedp.Run(ctx,
		chromedp.Navigate(app(t, srv, openjurytest.NewWallet(t)).URL+"/"),
		chromedp.WaitReady(`footer`),
		evalModule("/static/verify.js", `const k = m.keccakOf(`+jsLiteral(t, jobID)+`); return `+jsLiteral(t, amounts)+`.map((a) => m.toHexOf(m.payoutLeaf(k, `+jsLiteral(t, win.String())+`, a)))`, &leaves),
		evalModule("/static/verify.js", script, &results),
	)
	require.NoError(t, err)
	require.Equal(t, want, leaves)
	require.Len(t, results, 5)
	require.True(t, results["as built"].OK, results["as built"].Message)
	require.Contains(t, results["as built"].Message, "2 payouts")
	for name, r := range results {
		if name != "as built" {
			require.False(t, r.OK, "%s: %s", name, r.Message)
		}
	}
}
