package ethchain

import (
	"context"
	"sync/atomic"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
)

var _ anchor.ReceiptChecker = (*ReceiptChecker)(nil)

// AnchorReader reads AnchorPosted logs and the chain id of the node:
// *Client and openjurytest.Chain satisfy it.
type AnchorReader interface {
	// AnchorPosted is Client.AnchorPosted.
	AnchorPosted(ctx context.Context, tx openjury.Hash, logIndex int64) (AnchorLog, error)
	// ChainID is Client.ChainID.
	ChainID(ctx context.Context) (int64, error)
}

// ReceiptChecker is the anchor.ReceiptChecker of a deployment: it checks
// an anchor receipt against the chain (docs/onchain.md#anchors-on-chain)
// before it is recorded. It is safe for concurrent use.
type ReceiptChecker struct {
	r        AnchorReader
	registry openjury.Address
	chainID  int64
	// nodeChain is set once the node has reported the configured chain id
	// (0: not yet); a chain's id never changes.
	nodeChain atomic.Int64
}

// NewReceiptChecker returns a checker that reads receipts through r and
// accepts only AnchorPosted logs emitted by registry (the configured
// anchor registry, SERVICE_ANCHOR_REGISTRY_ADDRESS) on chain chainID
// (SERVICE_CHAIN_ID).
func NewReceiptChecker(r AnchorReader, registry openjury.Address, chainID int64) *ReceiptChecker {
	return &ReceiptChecker{r: r, registry: registry, chainID: chainID}
}

// CheckAnchorReceipt checks ref against the chain: anchor_chain_id is the
// configured chain (and the node serves it), anchor_contract_address is
// the configured registry, the transaction exists and succeeded in block
// anchor_block_number, and its log at anchor_log_index (block-level) was
// emitted by the registry and is AnchorPosted with b's root, salt, schema
// version and URI. Errors: Invalid whose detail names the receipt field
// and what differs, the first difference found (also for an unknown
// transaction); Unavailable when the node cannot be reached or serves
// another chain.
func (c *ReceiptChecker) CheckAnchorReceipt(ctx context.Context, b *anchor.Batch, ref openjury.ChainRef) error {
	const op = "ethchain.CheckAnchorReceipt"
	if err := anchor.ValidateReceipt(op, ref); err != nil {
		return err
	}
	if *ref.ChainID != c.chainID {
		return openjury.Errorf(openjury.Invalid, op, "anchor_chain_id: is %d, but anchors are checked on chain %d", *ref.ChainID, c.chainID)
	}
	if ref.Contract != c.registry {
		return openjury.Errorf(openjury.Invalid, op, "anchor_contract_address: is %s, not the anchor registry %s", ref.Contract, c.registry)
	}
	if err := c.checkNodeChain(ctx, op); err != nil {
		return err
	}
	l, err := c.r.AnchorPosted(ctx, ref.TxHash, *ref.LogIndex)
	switch {
	case openjury.KindOf(err) == openjury.NotFound:
		return openjury.Errorf(openjury.Invalid, op, "anchor_tx_hash: no such transaction on chain %d", c.chainID)
	case l.TxHash != "" && !l.Succeeded:
		// A reverted transaction has no logs: say why before "no log".
		return openjury.E(openjury.Invalid, op, "anchor_tx_hash: the transaction failed (reverted)")
	case err != nil:
		return openjury.Wrap(op, err)
	}
	return compareAnchor(op, l, b, ref)
}

// checkNodeChain makes sure the node serves the configured chain; a node
// found on another chain is asked again next time (it may be replaced).
func (c *ReceiptChecker) checkNodeChain(ctx context.Context, op string) error {
	if c.nodeChain.Load() == c.chainID {
		return nil
	}
	id, err := c.r.ChainID(ctx)
	if err != nil {
		return openjury.Wrap(op, err)
	}
	if id != c.chainID {
		return openjury.Errorf(openjury.Unavailable, op, "the chain node serves chain %d, not the configured chain %d", id, c.chainID)
	}
	c.nodeChain.Store(id)
	return nil
}

// compareAnchor compares the AnchorPosted log l with the batch and the
// receipt, naming the first part that differs.
func compareAnchor(op string, l AnchorLog, b *anchor.Batch, ref openjury.ChainRef) error {
	bad := func(format string, args ...any) error { return openjury.Errorf(openjury.Invalid, op, format, args...) }
	switch {
	case l.BlockNumber != *ref.BlockNumber:
		return bad("anchor_block_number: is %d, but the transaction is in block %d", *ref.BlockNumber, l.BlockNumber)
	case l.Emitter != ref.Contract:
		return bad("anchor_log_index: the log was emitted by %s, not the anchor registry %s", l.Emitter, ref.Contract)
	case l.Root != b.Root:
		return bad("anchor_tx_hash: the AnchorPosted root is %s, not this job's anchor_root %s", l.Root, b.Root)
	case l.Salt != b.Salt:
		return bad("anchor_tx_hash: the AnchorPosted salt is %s, not this job's salt %s", l.Salt, b.Salt)
	case int64(l.SchemaVersion) != int64(b.SchemaVersion):
		return bad("anchor_tx_hash: the AnchorPosted schema version is %d, not this job's schema_version %d", l.SchemaVersion, b.SchemaVersion)
	case l.URI != b.URI:
		return bad("anchor_tx_hash: the AnchorPosted uri is %q, not this job's anchor_uri %q", l.URI, b.URI)
	}
	return nil
}
