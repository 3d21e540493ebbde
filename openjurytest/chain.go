package openjurytest

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/auth"
	"github.com/openjury/openjury/ethchain"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/stake"
)

var (
	_ stake.Vault             = (*Chain)(nil)
	_ auth.ContractVerifier   = (*Chain)(nil)
	_ ethchain.AnchorReader   = (*Chain)(nil)
	_ marketplace.EscrowChain = (*Chain)(nil)
	_ marketplace.JuryChain   = (*Chain)(nil)
)

// Chain is a scriptable fake chain for domain tests, so they need no node:
// it is a stake.Vault (head, vault events, stakeOf by block), an
// auth.ContractVerifier (scripted EIP-1271 answers), a
// marketplace.EscrowChain (scripted bounty escrow events) and answers
// AnchorPosted and ChainID like ethchain.Client (an ethchain.AnchorReader,
// so ethchain.NewReceiptChecker checks receipts against it). SetDown makes every call fail with
// Unavailable, as an unreachable node does. Safe for concurrent use.
type Chain struct {
	mu       sync.Mutex
	head     int64
	events   []stake.VaultEvent
	escrow   []marketplace.EscrowEvent
	stakes   map[openjury.Address][]stakePoint
	wallets  map[openjury.Address]func(digest [32]byte, sig []byte) bool
	receipts map[receiptKey]ethchain.AnchorLog
	chainID  int64
	down     bool
	calls    int
}

type stakePoint struct {
	block, index int64
	amount       openjury.MicroUSDC
}

type receiptKey struct {
	tx    openjury.Hash
	index int64
}

// NewChain returns an empty fake chain at block 0 with chain id
// DefaultChainID.
func NewChain() *Chain {
	return &Chain{
		chainID:  DefaultChainID,
		stakes:   map[openjury.Address][]stakePoint{},
		wallets:  map[openjury.Address]func([32]byte, []byte) bool{},
		receipts: map[receiptKey]ethchain.AnchorLog{},
	}
}

// SetHead sets the newest block.
func (c *Chain) SetHead(n int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.head = n
}

// Mine moves the head n blocks on and returns the new head.
func (c *Chain) Mine(n int64) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.head += n
	return c.head
}

// AddEvent records a vault event and the agent's stake after it: stakeOf
// at ev.Block and later answers the stake after the block's last event
// (by log index) until a later block. The head
// moves up to ev.Block when it is behind.
func (c *Chain) AddEvent(ev stake.VaultEvent, stakeAfter openjury.MicroUSDC) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.events = append(c.events, ev)
	pts := append(c.stakes[ev.Agent], stakePoint{ev.Block, ev.LogIndex, stakeAfter})
	slices.SortStableFunc(pts, func(a, b stakePoint) int {
		return cmp.Or(cmp.Compare(a.block, b.block), cmp.Compare(a.index, b.index))
	})
	c.stakes[ev.Agent] = pts
	c.head = max(c.head, ev.Block)
}

// SetWallet scripts the contract wallet at addr: IsValidSignature answers
// approve(digest, sig). Addresses never set answer false (no code).
func (c *Chain) SetWallet(addr openjury.Address, approve func(digest [32]byte, sig []byte) bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.wallets[addr] = approve
}

// AddReceipt scripts the AnchorPosted log of a transaction.
func (c *Chain) AddReceipt(l ethchain.AnchorLog) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.receipts[receiptKey{l.TxHash, l.LogIndex}] = l
}

// SetChainID sets the chain id the chain reports.
func (c *Chain) SetChainID(id int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.chainID = id
}

// ChainID returns the chain id (DefaultChainID unless set).
func (c *Chain) ChainID(context.Context) (int64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.enter("fakechain.ChainID"); err != nil {
		return 0, err
	}
	return c.chainID, nil
}

// SetDown makes every call fail with Unavailable (true) or answer again.
func (c *Chain) SetDown(down bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.down = down
}

// Calls returns how many calls the chain answered or refused so far.
func (c *Chain) Calls() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls
}

// enter counts a call and fails it when the chain is down; the caller
// holds c.mu.
func (c *Chain) enter(op string) error {
	c.calls++
	if c.down {
		return openjury.E(openjury.Unavailable, op, "the chain node is unavailable")
	}
	return nil
}

// BlockHash returns the hash of block number: NotFound above the head,
// else a hash fixed by the number (keccak256 of "openjurytest block" and
// the number), as a node's header would give it. It makes the Chain a
// marketplace.JuryChain.
func (c *Chain) BlockHash(_ context.Context, number int64) (openjury.Hash, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.enter("fakechain.BlockHash"); err != nil {
		return "", err
	}
	if number < 0 || number > c.head {
		return "", openjury.E(openjury.NotFound, "fakechain.BlockHash", "block not found")
	}
	return BlockHashOf(number), nil
}

// BlockHashOf is the hash the fake chain gives block number.
func BlockHashOf(number int64) openjury.Hash {
	return openjury.HashFromBytes([32]byte(crypto.Keccak256([]byte(fmt.Sprintf("openjurytest block %d", number)))))
}

// Head returns the newest block.
func (c *Chain) Head(context.Context) (int64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.enter("fakechain.Head"); err != nil {
		return 0, err
	}
	return c.head, nil
}

// VaultEvents returns the recorded events of blocks from..to in the order
// they were added (the sync must order them itself).
func (c *Chain) VaultEvents(_ context.Context, from, to int64) ([]stake.VaultEvent, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.enter("fakechain.VaultEvents"); err != nil {
		return nil, err
	}
	var out []stake.VaultEvent
	for _, ev := range c.events {
		if ev.Block >= from && ev.Block <= to && ev.Block <= c.head {
			out = append(out, ev)
		}
	}
	return out, nil
}

// StakeOf returns the agent's stake after the last event at or before
// block.
func (c *Chain) StakeOf(_ context.Context, agent openjury.Address, block int64) (openjury.MicroUSDC, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.enter("fakechain.StakeOf"); err != nil {
		return 0, err
	}
	var amount openjury.MicroUSDC
	for _, p := range c.stakes[agent] {
		if p.block <= block {
			amount = p.amount
		}
	}
	return amount, nil
}

// IsValidSignature answers with the scripted wallet, false for others.
func (c *Chain) IsValidSignature(_ context.Context, wallet openjury.Address, digest [32]byte, sig []byte) (bool, error) {
	c.mu.Lock()
	approve, down := c.wallets[wallet], c.enter("fakechain.IsValidSignature")
	c.mu.Unlock()
	if down != nil {
		return false, down
	}
	return approve != nil && approve(digest, sig), nil
}

// AnchorPosted returns the scripted receipt log: NotFound for an unknown
// transaction, Invalid for an unknown log index (as ethchain.Client).
func (c *Chain) AnchorPosted(_ context.Context, tx openjury.Hash, logIndex int64) (ethchain.AnchorLog, error) {
	const op = "fakechain.AnchorPosted"
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.enter(op); err != nil {
		return ethchain.AnchorLog{}, err
	}
	if l, ok := c.receipts[receiptKey{tx, logIndex}]; ok {
		return l, nil
	}
	for k := range c.receipts {
		if k.tx == tx {
			return ethchain.AnchorLog{}, openjury.E(openjury.Invalid, op, "anchor_log_index: the transaction has no log at this index")
		}
	}
	return ethchain.AnchorLog{}, openjury.E(openjury.NotFound, op, "anchor_tx_hash: no such transaction on the chain")
}

// AddEscrowEvent records a bounty escrow event; the head moves up to
// ev.Block when it is behind.
func (c *Chain) AddEscrowEvent(ev marketplace.EscrowEvent) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.escrow = append(c.escrow, ev)
	c.head = max(c.head, ev.Block)
}

// DropEscrowEvents removes the escrow events of blocks from block on, as a
// reorg does.
func (c *Chain) DropEscrowEvents(block int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.escrow = slices.DeleteFunc(c.escrow, func(ev marketplace.EscrowEvent) bool { return ev.Block >= block })
}

// EscrowEvents returns the recorded escrow events of blocks from..to in
// the order they were added (the sync must order them itself).
func (c *Chain) EscrowEvents(_ context.Context, from, to int64) ([]marketplace.EscrowEvent, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.enter("fakechain.EscrowEvents"); err != nil {
		return nil, err
	}
	var out []marketplace.EscrowEvent
	for _, ev := range c.escrow {
		if ev.Block >= from && ev.Block <= to && ev.Block <= c.head {
			out = append(out, ev)
		}
	}
	return out, nil
}
