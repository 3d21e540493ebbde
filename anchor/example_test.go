package anchor_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/auth"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/stake"
	"github.com/openjury/openjury/transport"
)

// Verify a closed job as a third party would: fetch its anchor_root, its
// snapshot and a record's proof from the service, and check them. In
// production, compare anchor_root with the root of the AnchorPosted event
// of anchor_tx_hash on chain too (the Solidity side is
// MerkleProof.verify(proof, root, leaf)).
func Example_verify() {
	server, jobID := closedJobServer()
	defer server.Close()

	// 1. The job's anchor batch: its root (posted onchain) and snapshot URI.
	var batch struct {
		Root string `json:"anchor_root"`
		URI  string `json:"anchor_uri"`
	}
	getJSON(server.URL+"/api/v1/jobs/"+jobID+"/anchor", &batch)
	root := openjury.Hash(batch.Root)

	// 2. The snapshot, byte for byte: its records and salt re-derive the root.
	snapshot := get(batch.URI)
	fmt.Println("snapshot matches anchor_root:", anchor.VerifyDocument(snapshot, root) == nil)

	// 3. One record (here the job itself) proven alone, with its proof.
	doc, err := anchor.ParseDocument(snapshot)
	if err != nil {
		log.Fatal(err)
	}
	record := "job:" + jobID
	var proof struct {
		Proof []openjury.Hash `json:"proof"`
		Root  openjury.Hash   `json:"root"`
	}
	getJSON(server.URL+"/api/v1/jobs/"+jobID+"/anchor/proof?record="+url.QueryEscape(record), &proof)
	fmt.Println("job record proven:", anchor.VerifyProof(doc.Records[record], proof.Proof, root) == nil)

	// A changed record is not.
	tampered := append([]byte(nil), doc.Records[record]...)
	tampered[len(tampered)-2] ^= 1
	fmt.Println("tampered record proven:", anchor.VerifyProof(tampered, proof.Proof, root) == nil)
	// Output:
	// snapshot matches anchor_root: true
	// job record proven: true
	// tampered record proven: false
}

// closedJobServer runs the service on httptest with one job, closed by its
// sponsor, and returns the server and the job's id.
func closedJobServer() (*httptest.Server, string) {
	ctx := context.Background()
	db, err := bunstore.Open(ctx, "sqlite::memory:")
	if err != nil {
		log.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(nil)
	baseURL := "http://" + srv.Listener.Addr().String()
	clock := openjury.SystemClock{}
	market := marketplace.NewService(db, clock, marketplace.Config{BaseURL: baseURL})
	srv.Config.Handler = transport.NewHandler(transport.Services{
		Auth:   auth.NewService(db, clock, auth.Config{Domain: srv.Listener.Addr().String(), URI: baseURL, ChainID: 8453, ChallengeTTL: time.Minute, TokenTTL: time.Hour}, nil),
		Market: market,
		Stake:  stake.NewService(db.Stake(), clock, stake.Config{}),
		AGR:    agr.NewService(db.AGR(), clock),
		Anchor: anchor.NewService(db, anchor.Config{}),
	}, transport.Options{BaseURL: baseURL})
	srv.Start()

	sponsor := openjury.MustAddress("0x1111111111111111111111111111111111111111")
	agent := openjury.MustAddress("0x2222222222222222222222222222222222222222")
	job, err := market.CreateJob(ctx, sponsor, marketplace.CreateJobInput{Title: "Find the bug", Prompt: "In closing.go", Bounty: 5 * openjury.MicroPerUSDC})
	if err != nil {
		log.Fatal(err)
	}
	sub, err := market.Submit(ctx, agent, marketplace.SubmitInput{JobID: job.ID, Content: "Line 42."})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := market.CloseJob(ctx, sponsor, job.ID, marketplace.CloseInput{WinnerSubmissionID: sub.ID}); err != nil {
		log.Fatal(err)
	}
	return srv, job.ID
}

func get(u string) []byte {
	resp, err := http.Get(u)
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		log.Fatalf("GET %s: %d %v", u, resp.StatusCode, err)
	}
	return body
}

func getJSON(u string, v any) {
	if err := json.Unmarshal(get(u), v); err != nil {
		log.Fatal(err)
	}
}
