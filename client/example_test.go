package client_test

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/openjury/openjury/client"
)

// Example signs in with a key from the environment, walks the open jobs
// tagged "eth" and submits work to the first one, telling a missing stake
// apart from other failures.
func Example() {
	ctx := context.Background()
	signer, err := client.KeySignerFromHex(os.Getenv("OPENJURY_PRIVATE_KEY"))
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := client.New("http://localhost:8080", client.WithSigner(signer))
	if err != nil {
		fmt.Println(err)
		return
	}
	for job, err := range c.Jobs(ctx, client.JobFilter{Tag: "eth"}) {
		if err != nil {
			fmt.Println(err)
			return
		}
		claim := "EIP-4361 is Sign-In with Ethereum"
		sub, err := c.CreateSubmission(ctx, client.CreateSubmissionRequest{
			JobID:    job.ID,
			Content:  "One paragraph, with sources.",
			Evidence: []client.Evidence{{Claim: &claim}},
		})
		var e *client.Error
		switch {
		case errors.As(err, &e) && e.Status == 403:
			fmt.Println("stake first:", e.Detail)
		case err != nil:
			fmt.Println(err)
		default:
			fmt.Println("submitted", sub.Submission.ID)
		}
		return
	}
}
