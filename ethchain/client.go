package ethchain

import (
	"context"
	"errors"
	"math"
	"math/big"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	ethereum "github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/auth"
	"github.com/openjury/openjury/contracts"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/stake"
)

// DefaultTimeout bounds every call when Options.Timeout is zero.
const DefaultTimeout = 10 * time.Second

// MagicValue is what an ERC-1271 wallet's isValidSignature returns for a
// signature it approves. On the wire it is one ABI word: these 4 bytes
// followed by 28 zero bytes, the only answer IsValidSignature accepts.
var MagicValue = [4]byte{0x16, 0x26, 0xba, 0x7e}

// SignatureGas is the gas an isValidSignature call may use: enough for
// any reasonable wallet (a multisig checking a few signatures uses well
// under 200,000), and a bound on what a hostile "wallet" that burns gas
// can cost the node (docs/onchain.md#contract-wallet-sign-in).
const SignatureGas = 1_000_000

// vmFailures are the messages of EVM failures (go-ethereum's core/vm
// errors and the usual wordings of other nodes): an eth_call failing with
// one of them was run by the node, and the wallet said no.
var vmFailures = []string{
	"revert", "invalid opcode", "out of gas", "invalid jump", "stack underflow", "stack limit",
	"write protection", "return data out of bounds", "max call depth", "gas uint64 overflow",
}

var (
	_ auth.ContractVerifier   = (*Client)(nil)
	_ stake.Vault             = (*Client)(nil)
	_ marketplace.EscrowChain = (*Client)(nil)
	_ marketplace.JuryChain   = (*Client)(nil)
)

// Backend is the part of an Ethereum JSON-RPC client the Client uses:
// *ethclient.Client and the simulated backend's client satisfy it.
type Backend interface {
	BlockNumber(ctx context.Context) (uint64, error)
	CallContract(ctx context.Context, call ethereum.CallMsg, blockNumber *big.Int) ([]byte, error)
	FilterLogs(ctx context.Context, q ethereum.FilterQuery) ([]types.Log, error)
	TransactionReceipt(ctx context.Context, txHash common.Hash) (*types.Receipt, error)
	ChainID(ctx context.Context) (*big.Int, error)
	CodeAt(ctx context.Context, account common.Address, blockNumber *big.Int) ([]byte, error)
	HeaderByNumber(ctx context.Context, number *big.Int) (*types.Header, error)
}

// Options configures a Client.
type Options struct {
	// StakeVault is the stake vault whose events and stakeOf the Client
	// reads (needed by the stake.Vault methods only).
	StakeVault openjury.Address
	// Escrow is the bounty escrow whose events EscrowEvents reads.
	Escrow openjury.Address
	// Timeout bounds each call (default DefaultTimeout).
	Timeout time.Duration
	// ChainID is the chain the node must serve (SERVICE_CHAIN_ID); 0
	// checks nothing. The host checks it at start (CheckChainID); the
	// Client also checks it before its first call that reads the chain,
	// and refuses every such call (Unavailable) while the node reports
	// another chain, so a node swapped behind the URL is never believed.
	ChainID int64
}

// Client is OpenJury's chain adapter. It is safe for concurrent use.
type Client struct {
	b       Backend
	closer  func()
	opts    Options
	secrets []string // parts of the RPC URL scrubbed from errors
	vault   *abi.ABI
	wallet  *abi.ABI
	anchors *abi.ABI
	escrow  *abi.ABI
	// chainOK is set once the node has reported Options.ChainID (a
	// chain's id never changes).
	chainOK atomic.Bool
}

// Dial connects to the JSON-RPC endpoint rawURL (http(s) or ws(s)). The
// URL may hold a provider key: it never appears in the Client's errors.
// Errors: Invalid for a malformed URL, Unavailable when the endpoint
// cannot be reached.
func Dial(ctx context.Context, rawURL string, opts Options) (*Client, error) {
	const op = "ethchain.Dial"
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return nil, openjury.E(openjury.Invalid, op, "RPC URL: must be an absolute URL")
	}
	ctx, cancel := context.WithTimeout(ctx, timeoutOf(opts))
	defer cancel()
	rc, err := rpc.DialContext(ctx, rawURL)
	secrets := []string{rawURL, u.Host, u.Path, u.RawQuery, u.User.String()}
	if err != nil {
		return nil, unavailable(op, err, secrets)
	}
	ec := ethclient.NewClient(rc)
	c := New(ec, opts)
	c.closer, c.secrets = ec.Close, secrets
	return c, nil
}

// New returns a Client over an existing backend (for example the
// simulated backend's client in tests).
func New(b Backend, opts Options) *Client {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	return &Client{
		b: b, opts: opts,
		vault:   mustABI(contracts.StakeVaultMetaData),
		wallet:  mustABI(contracts.TestWalletMetaData),
		anchors: mustABI(contracts.AnchorRegistryMetaData),
		escrow:  mustABI(contracts.BountyEscrowMetaData),
	}
}

func timeoutOf(o Options) time.Duration {
	if o.Timeout <= 0 {
		return DefaultTimeout
	}
	return o.Timeout
}

func mustABI(md *bind.MetaData) *abi.ABI {
	a, err := md.GetAbi()
	if err != nil {
		panic("ethchain: the committed contract ABI does not parse: " + err.Error())
	}
	return a
}

// Close closes the connection of a dialled Client.
func (c *Client) Close() {
	if c.closer != nil {
		c.closer()
	}
}

// CheckChainID asks the node for its chain id and compares it with
// Options.ChainID (nothing to check when that is 0). Errors: Invalid
// naming both ids when the node serves another chain (a configuration
// error: the host exits listing it), Unavailable when the node cannot be
// asked.
func (c *Client) CheckChainID(ctx context.Context) error {
	const op = "ethchain.CheckChainID"
	if c.opts.ChainID == 0 || c.chainOK.Load() {
		return nil
	}
	id, err := c.ChainID(ctx)
	if err != nil {
		return openjury.Wrap(op, err)
	}
	if id != c.opts.ChainID {
		return openjury.Errorf(openjury.Invalid, op, "the chain node serves chain %d, not the configured chain %d", id, c.opts.ChainID)
	}
	c.chainOK.Store(true)
	return nil
}

// ensureChain is CheckChainID before a call that reads the chain: a node
// on another chain is Unavailable (and asked again next time).
func (c *Client) ensureChain(ctx context.Context, op string) error {
	err := c.CheckChainID(ctx)
	if openjury.KindOf(err) == openjury.Invalid {
		return &openjury.Error{Kind: openjury.Unavailable, Op: op, Detail: "the chain node serves another chain", Err: err}
	}
	return openjury.Wrap(op, err)
}

// ChainID returns the chain id the endpoint reports. Errors: Unavailable.
func (c *Client) ChainID(ctx context.Context) (int64, error) {
	const op = "ethchain.ChainID"
	ctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	id, err := c.b.ChainID(ctx)
	if err != nil {
		return 0, unavailable(op, err, c.secrets)
	}
	if !id.IsInt64() {
		return 0, openjury.E(openjury.Unavailable, op, "the chain reports an out-of-range chain id")
	}
	return id.Int64(), nil
}

// IsValidSignature asks the contract wallet whether it approves sig for
// digest (EIP-1271), at the newest block. Only an address with code is
// asked, with at most SignatureGas of gas, and only an answer of exactly
// 32 bytes, MagicValue followed by 28 zero bytes, is a yes: no code, a
// revert or any other EVM failure (out of gas included), a longer or
// shorter answer or other padding are a no. So an address that echoes its
// input (the identity precompile, which has no code) approves nothing.
// Errors: Unavailable when the chain cannot be asked or serves another
// chain than Options.ChainID.
func (c *Client) IsValidSignature(ctx context.Context, wallet openjury.Address, digest [32]byte, sig []byte) (bool, error) {
	const op = "ethchain.IsValidSignature"
	data, err := c.wallet.Pack("isValidSignature", digest, sig)
	if err != nil {
		return false, openjury.Wrap(op, err)
	}
	to := common.Address(wallet.Bytes())
	ctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	if err := c.ensureChain(ctx, op); err != nil {
		return false, err
	}
	code, err := c.b.CodeAt(ctx, to, nil)
	if err != nil {
		return false, unavailable(op, err, c.secrets)
	}
	if len(code) == 0 {
		return false, nil // an EOA or a precompile: not a contract wallet
	}
	out, err := c.b.CallContract(ctx, ethereum.CallMsg{To: &to, Data: data, Gas: SignatureGas}, nil)
	if err != nil {
		if answered(err) {
			return false, nil // the node ran the call: a failure is a "no"
		}
		return false, unavailable(op, err, c.secrets)
	}
	return IsMagicWord(out), nil
}

// IsMagicWord reports whether out is exactly the ABI encoding of the
// bytes4 MagicValue: 32 bytes, the magic value left-aligned, 28 zero
// bytes after it.
func IsMagicWord(out []byte) bool {
	if len(out) != 32 || [4]byte(out[:4]) != MagicValue {
		return false
	}
	for _, b := range out[4:] {
		if b != 0 {
			return false
		}
	}
	return true
}

// Head returns the number of the newest block. Errors: Unavailable.
func (c *Client) Head(ctx context.Context) (int64, error) {
	const op = "ethchain.Head"
	ctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	if err := c.ensureChain(ctx, op); err != nil {
		return 0, err
	}
	n, err := c.b.BlockNumber(ctx)
	if err != nil {
		return 0, unavailable(op, err, c.secrets)
	}
	return clampInt64(n), nil
}

// BlockHash returns the hash of block number, the seed of a jury draw
// (marketplace.JuryChain). Errors: NotFound when the node has no such
// block yet; Unavailable.
func (c *Client) BlockHash(ctx context.Context, number int64) (openjury.Hash, error) {
	const op = "ethchain.BlockHash"
	if number < 0 {
		return "", openjury.Errorf(openjury.Invalid, op, "block %d", number)
	}
	ctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	if err := c.ensureChain(ctx, op); err != nil {
		return "", err
	}
	h, err := c.b.HeaderByNumber(ctx, new(big.Int).SetInt64(number))
	if errors.Is(err, ethereum.NotFound) || (err == nil && h == nil) {
		return "", openjury.E(openjury.NotFound, op, "block not found")
	}
	if err != nil {
		return "", unavailable(op, err, c.secrets)
	}
	return openjury.HashFromBytes(h.Hash()), nil
}

// VaultEvents returns the stake vault's Deposited, Withdrawn and Slashed
// events in blocks from..to (both included), in (block, log index) order.
// Logs removed by a reorg and logs that do not decode are skipped.
// Errors: Invalid for a bad range, Unavailable.
func (c *Client) VaultEvents(ctx context.Context, from, to int64) ([]stake.VaultEvent, error) {
	const op = "ethchain.VaultEvents"
	if from < 0 || to < from {
		return nil, openjury.Errorf(openjury.Invalid, op, "block range %d..%d is empty", from, to)
	}
	ids := []common.Hash{c.vault.Events["Deposited"].ID, c.vault.Events["Withdrawn"].ID, c.vault.Events["Slashed"].ID}
	logs, err := c.filterLogs(ctx, op, from, to, c.opts.StakeVault, ids)
	if err != nil {
		return nil, err
	}
	out := make([]stake.VaultEvent, 0, len(logs))
	for _, l := range logs {
		if ev, ok := c.decodeVault(l); ok {
			out = append(out, ev)
		}
	}
	return out, nil
}

// filterLogs returns the logs of contract whose first topic is one of ids
// in blocks from..to (the caller checked the range), with the chain
// checked first. Errors: Unavailable.
func (c *Client) filterLogs(ctx context.Context, op string, from, to int64, contract openjury.Address, ids []common.Hash) ([]types.Log, error) {
	q := ethereum.FilterQuery{
		FromBlock: big.NewInt(from), ToBlock: big.NewInt(to),
		Addresses: []common.Address{common.Address(contract.Bytes())},
		Topics:    [][]common.Hash{ids},
	}
	ctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	if err := c.ensureChain(ctx, op); err != nil {
		return nil, err
	}
	logs, err := c.b.FilterLogs(ctx, q)
	if err != nil {
		return nil, unavailable(op, err, c.secrets)
	}
	return logs, nil
}

// decodeVault decodes one stake-vault log.
func (c *Client) decodeVault(l types.Log) (stake.VaultEvent, bool) {
	if l.Removed || len(l.Topics) == 0 {
		return stake.VaultEvent{}, false
	}
	ev := stake.VaultEvent{
		TxHash:   openjury.HashFromBytes(l.TxHash),
		Contract: openjury.AddressFromBytes(l.Address),
		Block:    clampInt64(l.BlockNumber),
		LogIndex: int64(l.Index),
	}
	topic := func(i int) openjury.Address {
		return openjury.AddressFromBytes(common.BytesToAddress(l.Topics[i].Bytes()))
	}
	var kind string
	for _, name := range []string{"Deposited", "Withdrawn", "Slashed"} {
		if c.vault.Events[name].ID == l.Topics[0] {
			kind = name
		}
	}
	vals := map[string]any{}
	if kind == "" || c.vault.UnpackIntoMap(vals, kind, l.Data) != nil {
		return stake.VaultEvent{}, false
	}
	amount := func(k string) openjury.MicroUSDC {
		v, _ := vals[k].(*big.Int)
		return micro(v)
	}
	switch kind {
	case "Deposited":
		if len(l.Topics) != 3 {
			return stake.VaultEvent{}, false
		}
		ev.Kind, ev.Payer, ev.Agent, ev.Amount = stake.EventDeposited, topic(1), topic(2), amount("amount")
	case "Withdrawn":
		if len(l.Topics) != 2 {
			return stake.VaultEvent{}, false
		}
		ev.Kind, ev.Agent, ev.Amount = stake.EventWithdrawn, topic(1), amount("amount")
	case "Slashed":
		if len(l.Topics) != 3 {
			return stake.VaultEvent{}, false
		}
		ev.Kind, ev.Agent, ev.Recipient = stake.EventSlashed, topic(1), topic(2)
		ev.Requested, ev.Amount = amount("requestedAmount"), amount("actualAmount")
	}
	return ev, true
}

// StakeOf returns stakeOf(agent) of the stake vault at the end of block,
// in micro-USDC (amounts beyond int64 are capped). Errors: Unavailable,
// also when the vault does not answer with a uint256.
func (c *Client) StakeOf(ctx context.Context, agent openjury.Address, block int64) (openjury.MicroUSDC, error) {
	const op = "ethchain.StakeOf"
	data, err := c.vault.Pack("stakeOf", common.Address(agent.Bytes()))
	if err != nil {
		return 0, openjury.Wrap(op, err)
	}
	to := common.Address(c.opts.StakeVault.Bytes())
	ctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	if err := c.ensureChain(ctx, op); err != nil {
		return 0, err
	}
	out, err := c.b.CallContract(ctx, ethereum.CallMsg{To: &to, Data: data}, big.NewInt(block))
	if err != nil {
		return 0, unavailable(op, err, c.secrets)
	}
	vals, err := c.vault.Unpack("stakeOf", out)
	if err != nil || len(vals) != 1 {
		return 0, openjury.E(openjury.Unavailable, op, "the stake vault did not answer stakeOf with a uint256")
	}
	v, _ := vals[0].(*big.Int)
	return micro(v), nil
}

// AnchorLog is an AnchorPosted log found in a transaction receipt.
type AnchorLog struct {
	TxHash openjury.Hash
	// Succeeded is the receipt's status (false: the transaction reverted).
	Succeeded bool
	// BlockNumber is the block of the transaction.
	BlockNumber int64
	// LogIndex is the block-level index of the log.
	LogIndex int64
	// Emitter is the contract that emitted the log.
	Emitter       openjury.Address
	Root          openjury.Hash
	URI           string
	SchemaVersion uint32
	Salt          openjury.Hash
}

// AnchorPosted fetches the receipt of tx and decodes its log whose
// block-level index is logIndex as an AnchorPosted event
// (docs/onchain.md#contracts). The caller compares emitter, root, salt,
// block and status with what it expects. Errors: NotFound for an unknown transaction;
// Invalid when the receipt has no log at logIndex or that log is not an
// AnchorPosted event; Unavailable.
func (c *Client) AnchorPosted(ctx context.Context, tx openjury.Hash, logIndex int64) (AnchorLog, error) {
	const op = "ethchain.AnchorPosted"
	ctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	if err := c.ensureChain(ctx, op); err != nil {
		return AnchorLog{}, err
	}
	h := common.HexToHash(string(tx))
	rcpt, err := c.b.TransactionReceipt(ctx, h)
	if errors.Is(err, ethereum.NotFound) {
		return AnchorLog{}, openjury.E(openjury.NotFound, op, "anchor_tx_hash: no such transaction on the chain")
	}
	if err != nil {
		return AnchorLog{}, unavailable(op, err, c.secrets)
	}
	out := AnchorLog{
		TxHash: tx, Succeeded: rcpt.Status == types.ReceiptStatusSuccessful,
		BlockNumber: clampBig(rcpt.BlockNumber), LogIndex: logIndex,
	}
	var l *types.Log
	for _, cand := range rcpt.Logs {
		if int64(cand.Index) == logIndex {
			l = cand
			break
		}
	}
	if l == nil {
		return out, openjury.E(openjury.Invalid, op, "anchor_log_index: the transaction has no log at this index")
	}
	out.Emitter = openjury.AddressFromBytes(l.Address)
	ev := c.anchors.Events["AnchorPosted"]
	if len(l.Topics) != 4 || l.Topics[0] != ev.ID {
		return out, openjury.E(openjury.Invalid, op, "anchor_log_index: the log is not an AnchorPosted event")
	}
	vals := map[string]any{}
	if err := c.anchors.UnpackIntoMap(vals, "AnchorPosted", l.Data); err != nil {
		return out, openjury.E(openjury.Invalid, op, "anchor_log_index: the AnchorPosted log does not decode")
	}
	out.URI, _ = vals["uri"].(string)
	out.Root = openjury.HashFromBytes(l.Topics[1])
	out.SchemaVersion = uint32(new(big.Int).SetBytes(l.Topics[2].Bytes()).Uint64())
	out.Salt = openjury.HashFromBytes(l.Topics[3])
	return out, nil
}

// answered reports whether err is the node's report that the call itself
// failed (a revert, running out of gas or another EVM failure: a JSON-RPC
// error of code 3 or with a vmFailures message), as opposed to a failure
// to ask the node (no JSON-RPC error, or another one: a provider's rate
// limit, a missing block).
func answered(err error) bool {
	var re rpc.Error
	if !errors.As(err, &re) {
		return false
	}
	if re.ErrorCode() == 3 {
		return true
	}
	msg := strings.ToLower(re.Error())
	for _, m := range vmFailures {
		if strings.Contains(msg, m) {
			return true
		}
	}
	return false
}

// unavailable wraps an RPC failure as Unavailable without the RPC URL: the
// cause keeps only the message, with every part of the URL scrubbed.
func unavailable(op string, err error, secrets []string) error {
	if errors.Is(err, context.Canceled) {
		return openjury.E(openjury.Unavailable, op, "the chain request was cancelled")
	}
	msg := err.Error()
	var ue *url.Error
	if errors.As(err, &ue) {
		msg = ue.Op + ": " + ue.Err.Error()
	}
	for _, s := range secrets {
		if len(s) > 1 {
			msg = strings.ReplaceAll(msg, s, "[rpc]")
		}
	}
	return &openjury.Error{Kind: openjury.Unavailable, Op: op, Detail: "the chain node is unavailable", Err: errors.New(msg)}
}

func micro(v *big.Int) openjury.MicroUSDC {
	if v == nil || v.Sign() < 0 {
		return 0
	}
	if !v.IsInt64() {
		return math.MaxInt64
	}
	return openjury.MicroUSDC(v.Int64())
}

func clampInt64(n uint64) int64 {
	if n > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(n)
}

func clampBig(n *big.Int) int64 {
	if n == nil {
		return 0
	}
	if !n.IsInt64() {
		return math.MaxInt64
	}
	return n.Int64()
}

// escrowEvents are the BountyEscrow events the sync follows, by ABI name.
var escrowEvents = map[string]marketplace.EscrowEventKind{
	"BountyFunded":   marketplace.EscrowEventFunded,
	"BountySettled":  marketplace.EscrowEventSettled,
	"PayoutClaimed":  marketplace.EscrowEventClaimed,
	"BountyRefunded": marketplace.EscrowEventRefunded,
}

// EscrowEvents returns the bounty escrow's (Options.Escrow) BountyFunded,
// BountySettled, PayoutClaimed and BountyRefunded events in blocks
// from..to (both included), in (block, log index) order. Logs removed by
// a reorg and logs that do not decode are skipped. Errors: Invalid for a
// bad range, Unavailable.
func (c *Client) EscrowEvents(ctx context.Context, from, to int64) ([]marketplace.EscrowEvent, error) {
	const op = "ethchain.EscrowEvents"
	if from < 0 || to < from {
		return nil, openjury.Errorf(openjury.Invalid, op, "block range %d..%d is empty", from, to)
	}
	ids := make([]common.Hash, 0, len(escrowEvents))
	for name := range escrowEvents {
		ids = append(ids, c.escrow.Events[name].ID)
	}
	logs, err := c.filterLogs(ctx, op, from, to, c.opts.Escrow, ids)
	if err != nil {
		return nil, err
	}
	out := make([]marketplace.EscrowEvent, 0, len(logs))
	for _, l := range logs {
		if ev, ok := c.decodeEscrow(l); ok {
			out = append(out, ev)
		}
	}
	return out, nil
}

// decodeEscrow decodes one bounty escrow log.
func (c *Client) decodeEscrow(l types.Log) (marketplace.EscrowEvent, bool) {
	if l.Removed || len(l.Topics) < 3 {
		return marketplace.EscrowEvent{}, false
	}
	var name string
	for n := range escrowEvents {
		if c.escrow.Events[n].ID == l.Topics[0] {
			name = n
		}
	}
	vals := map[string]any{}
	if name == "" || c.escrow.UnpackIntoMap(vals, name, l.Data) != nil {
		return marketplace.EscrowEvent{}, false
	}
	wantTopics := 3
	if name == "PayoutClaimed" {
		wantTopics = 4
	}
	if len(l.Topics) != wantTopics {
		return marketplace.EscrowEvent{}, false
	}
	topicAddr := func(i int) openjury.Address {
		return openjury.AddressFromBytes(common.BytesToAddress(l.Topics[i].Bytes()))
	}
	amount := func(k string) openjury.MicroUSDC {
		v, _ := vals[k].(*big.Int)
		return micro(v)
	}
	ev := marketplace.EscrowEvent{
		Kind:     escrowEvents[name],
		JobKey:   openjury.HashFromBytes(l.Topics[1]),
		Sponsor:  topicAddr(2),
		TxHash:   openjury.HashFromBytes(l.TxHash),
		Contract: openjury.AddressFromBytes(l.Address),
		Block:    clampInt64(l.BlockNumber),
		LogIndex: int64(l.Index),
	}
	switch name {
	case "BountyFunded":
		ev.Amount, ev.Total = amount("amount"), amount("total")
		ra, _ := vals["refundAfter"].(uint64)
		ev.RefundAfter = clampInt64(ra)
	case "BountySettled":
		root, _ := vals["root"].([32]byte)
		ev.Root, ev.Total = openjury.HashFromBytes(root), amount("total")
	case "PayoutClaimed":
		ev.Recipient, ev.Amount = topicAddr(3), amount("amount")
	case "BountyRefunded":
		ev.Amount = amount("amount")
	}
	return ev, true
}
