package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/ethereum/go-ethereum/common"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/client"
)

// anchorReport is the outcome of anchor verify.
type anchorReport struct {
	JobID   string `json:"job_id"`
	Root    string `json:"anchor_root"`
	URI     string `json:"anchor_uri"`
	Records int    `json:"records"`
	Proofs  int    `json:"proofs_checked"`
	OK      bool   `json:"ok"`
}

func cmdAnchor(ctx context.Context, e *env, args []string) error {
	pos, err := parse(e.flags("anchor"), args, 2)
	if err != nil {
		return err
	}
	if pos[0] != "verify" {
		return usageError("the anchor command is: anchor verify JOB_ID")
	}
	c, err := e.client(false)
	if err != nil {
		return err
	}
	rep, err := verifyAnchor(ctx, c, pos[1])
	var ce *client.Error
	if errors.As(err, &ce) && ce.Status == http.StatusNotFound {
		if j, jerr := c.GetJob(ctx, pos[1]); jerr == nil && j.Status == "open" {
			return fmt.Errorf("job %s is not closed yet: its anchor is made when it closes (the sponsor's `openjury close`, or `openjury finalize` after the final-vote window)", j.ID)
		}
	}
	if err != nil {
		return err
	}
	return e.print(rep, func(w io.Writer) {
		fmt.Fprintf(w, "anchor of job %s verified: root %s, %d records, %d proofs checked\n", rep.JobID, rep.Root, rep.Records, rep.Proofs)
	})
}

// verifyAnchor fetches a closed job's anchor, streams its snapshot through
// anchor.VerifyReader (holding each record's id and leaf, never the
// document: a snapshot of any size is checked) and fetches the proof of
// every record and the salt, checking them against anchor_root with
// package anchor: the document re-derives the root, and every proof leads
// from the record's leaf to the root.
func verifyAnchor(ctx context.Context, c *client.Client, jobID string) (anchorReport, error) {
	a, err := c.GetJobAnchor(ctx, jobID)
	if err != nil {
		return anchorReport{}, err
	}
	rep := anchorReport{JobID: jobID, Root: a.AnchorRoot, URI: a.AnchorURI}
	root, err := openjury.ParseHash("anchor_root", a.AnchorRoot)
	if err != nil {
		return rep, err
	}
	body, err := c.OpenJobAnchorSnapshot(ctx, jobID)
	if err != nil {
		return rep, err
	}
	defer body.Close()
	var (
		ids    []string
		leaves []anchor.Node
	)
	h, n, err := anchor.VerifyReader(body, root, func(id string, leaf anchor.Node) {
		ids, leaves = append(ids, id), append(leaves, leaf)
	})
	if err != nil {
		return rep, fmt.Errorf("snapshot: %w", err)
	}
	if h.JobID != jobID {
		return rep, fmt.Errorf("snapshot: the document is of job %s", h.JobID)
	}
	rep.Records = n
	salt, err := anchor.NodeOf(h.Salt)
	if err != nil {
		return rep, err
	}
	ids, leaves = append(ids, anchor.SaltRecordID), append(leaves, anchor.Leaf(salt[:]))
	rootNode := anchor.Node(common.HexToHash(root.String()))
	for i, id := range ids {
		p, err := c.GetJobAnchorProof(ctx, jobID, id)
		if err != nil {
			return rep, err
		}
		leaf := leaves[i]
		if p.Root != a.AnchorRoot || p.Leaf != openjury.HashFromBytes(leaf).String() {
			return rep, fmt.Errorf("proof of %s: leaf or root differ from the snapshot", id)
		}
		nodes := make([]anchor.Node, len(p.Proof))
		for i, s := range p.Proof {
			h, err := openjury.ParseHash("proof", s)
			if err != nil {
				return rep, err
			}
			nodes[i] = anchor.Node(common.HexToHash(h.String()))
		}
		if !anchor.Verify(nodes, rootNode, leaf) {
			return rep, errors.New("proof of " + id + ": does not lead to the root")
		}
		rep.Proofs++
	}
	rep.OK = true
	return rep, nil
}
