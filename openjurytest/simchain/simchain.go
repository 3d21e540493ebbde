// Package simchain starts a go-ethereum simulated chain with OpenJury's own
// contracts deployed (test USDC, stake vault, anchor registry, Merkle
// verifier, bounty escrow), funded accounts and helpers that send a
// transaction and mine it, for adapter and end-to-end tests. WithHTTP also serves the chain over
// JSON-RPC on 127.0.0.1, behind a proxy a test can stop and start to play
// an RPC outage.
package simchain

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"io"
	"math/big"
	"net"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/contracts"
)

// ChainID is the chain id of every simulated chain.
const ChainID = 1337

// Accounts is how many funded accounts a chain has besides the deployer.
const Accounts = 8

// TB is what New needs of a test: *testing.T and *testing.B satisfy it,
// and so can a command that serves a dev chain.
type TB interface {
	require.TestingT
	Helper()
	Cleanup(func())
}

// Account is a funded externally owned account.
type Account struct {
	Key     *ecdsa.PrivateKey
	Address common.Address
	Opts    *bind.TransactOpts
}

// Addr returns the account's address in OpenJury's form.
func (a Account) Addr() openjury.Address { return openjury.AddressFromBytes(a.Address) }

// Chain is a running simulated chain with the contracts deployed. The
// deployer holds the vault's admin and slasher roles and is the escrow's
// settler.
type Chain struct {
	t        TB
	Backend  *simulated.Backend
	Client   simulated.Client
	Deployer Account
	// Accounts are funded with ETH (not USDC: see Mint).
	Accounts []Account

	USDC                                            *contracts.TestUSDC
	Vault                                           *contracts.StakeVault
	Registry                                        *contracts.AnchorRegistry
	Verifier                                        *contracts.MerkleVerifier
	Escrow                                          *contracts.BountyEscrow
	USDCAddr, VaultAddr, RegistryAddr, VerifierAddr common.Address
	EscrowAddr                                      common.Address

	// URL is the JSON-RPC endpoint (through the proxy) with WithHTTP, else "".
	URL   string
	proxy *Proxy
}

// Option changes how New starts the chain.
type Option func(*settings)

type settings struct {
	http bool
	addr string
}

// WithHTTP serves the chain's JSON-RPC over HTTP on 127.0.0.1 (Chain.URL),
// through a proxy (Chain.Proxy) a test can stop and start.
func WithHTTP() Option { return func(s *settings) { s.http = true } }

// WithHTTPAddr is WithHTTP with the proxy listening on addr (host:port)
// instead of a free port of 127.0.0.1.
func WithHTTPAddr(addr string) Option {
	return func(s *settings) { s.http, s.addr = true, addr }
}

// New starts a chain, deploys the contracts, grants the deployer the
// slasher role and closes everything when the test ends.
func New(t TB, opts ...Option) *Chain {
	t.Helper()
	var s settings
	for _, o := range opts {
		o(&s)
	}
	c := &Chain{t: t}
	alloc := types.GenesisAlloc{}
	balance := new(big.Int).Mul(big.NewInt(1000), big.NewInt(params.Ether))
	mk := func() Account {
		key, err := crypto.GenerateKey()
		require.NoError(t, err)
		a := Account{Key: key, Address: crypto.PubkeyToAddress(key.PublicKey)}
		a.Opts, err = bind.NewKeyedTransactorWithChainID(key, big.NewInt(ChainID))
		require.NoError(t, err)
		alloc[a.Address] = types.Account{Balance: balance}
		return a
	}
	c.Deployer = mk()
	for range Accounts {
		c.Accounts = append(c.Accounts, mk())
	}
	var backendOpts []func(*node.Config, *ethconfig.Config)
	var rpcPort int
	if s.http {
		rpcPort = freePort(t)
		backendOpts = append(backendOpts, func(nc *node.Config, _ *ethconfig.Config) {
			nc.HTTPHost = "127.0.0.1"
			nc.HTTPPort = rpcPort
			nc.HTTPModules = []string{"eth", "net", "web3"}
			nc.HTTPVirtualHosts = []string{"*"}
		})
	}
	c.Backend = simulated.NewBackend(alloc, backendOpts...)
	t.Cleanup(func() { _ = c.Backend.Close() })
	c.Client = c.Backend.Client()

	var err error
	var tx *types.Transaction
	c.USDCAddr, tx, c.USDC, err = contracts.DeployTestUSDC(c.Deployer.Opts, c.Client)
	c.mined(tx, err)
	c.VaultAddr, tx, c.Vault, err = contracts.DeployStakeVault(c.Deployer.Opts, c.Client, c.USDCAddr, c.Deployer.Address)
	c.mined(tx, err)
	c.RegistryAddr, tx, c.Registry, err = contracts.DeployAnchorRegistry(c.Deployer.Opts, c.Client)
	c.mined(tx, err)
	c.VerifierAddr, tx, c.Verifier, err = contracts.DeployMerkleVerifier(c.Deployer.Opts, c.Client)
	c.mined(tx, err)
	c.EscrowAddr, tx, c.Escrow, err = contracts.DeployBountyEscrow(c.Deployer.Opts, c.Client, c.USDCAddr, c.Deployer.Address)
	c.mined(tx, err)
	role, err := c.Vault.SLASHERROLE(nil)
	require.NoError(t, err)
	c.Send(c.Vault.GrantRole(c.Deployer.Opts, role, c.Deployer.Address))

	if s.http {
		c.proxy = newProxy(t, s.addr, fmt.Sprintf("127.0.0.1:%d", rpcPort))
		c.URL = "http://" + c.proxy.Addr()
	}
	return c
}

// Proxy returns the proxy in front of the HTTP endpoint (WithHTTP only).
func (c *Chain) Proxy() *Proxy { return c.proxy }

// Send mines one block holding tx and requires it to succeed; use it as
// c.Send(c.Vault.Deposit(opts, amount)). It returns the receipt.
func (c *Chain) Send(tx *types.Transaction, err error) *types.Receipt {
	c.t.Helper()
	return c.mined(tx, err)
}

func (c *Chain) mined(tx *types.Transaction, err error) *types.Receipt {
	c.t.Helper()
	require.NoError(c.t, err)
	c.Backend.Commit()
	rcpt, err := bind.WaitMined(context.Background(), c.Client, tx)
	require.NoError(c.t, err)
	require.Equal(c.t, types.ReceiptStatusSuccessful, rcpt.Status, "transaction %s reverted", tx.Hash())
	return rcpt
}

// AdjustTime moves the time of the next block by d. The node refuses while
// its transaction pool still lists a transaction as pending, which it
// does for a moment after the block that included it (the pool learns of
// a new head asynchronously): AdjustTime waits that out, for a few
// seconds at most.
func (c *Chain) AdjustTime(d time.Duration) {
	c.t.Helper()
	var err error
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if err = c.Backend.AdjustTime(d); err == nil || time.Now().After(deadline) {
			break
		}
	}
	require.NoError(c.t, err)
}

// Mine seals n empty blocks.
func (c *Chain) Mine(n int) {
	for range n {
		c.Backend.Commit()
	}
}

// Head returns the newest block number.
func (c *Chain) Head() int64 {
	c.t.Helper()
	n, err := c.Client.BlockNumber(context.Background())
	require.NoError(c.t, err)
	return int64(n)
}

// Mint gives to amount test USDC base units (micro-USDC).
func (c *Chain) Mint(to common.Address, amount int64) {
	c.t.Helper()
	c.Send(c.USDC.Mint(c.Deployer.Opts, to, big.NewInt(amount)))
}

// Deposit mints amount to payer, approves the vault and deposits it for
// agent (Deposit when agent is the payer, DepositFor otherwise).
func (c *Chain) Deposit(payer Account, agent common.Address, amount int64) *types.Receipt {
	c.t.Helper()
	c.Mint(payer.Address, amount)
	c.Send(c.USDC.Approve(payer.Opts, c.VaultAddr, big.NewInt(amount)))
	if agent == payer.Address {
		return c.Send(c.Vault.Deposit(payer.Opts, big.NewInt(amount)))
	}
	return c.Send(c.Vault.DepositFor(payer.Opts, agent, big.NewInt(amount)))
}

// Withdraw withdraws amount of agent's own stake.
func (c *Chain) Withdraw(agent Account, amount int64) *types.Receipt {
	c.t.Helper()
	return c.Send(c.Vault.Withdraw(agent.Opts, big.NewInt(amount)))
}

// Slash slashes up to amount of agent's stake to recipient (as the
// deployer, the slasher).
func (c *Chain) Slash(agent, recipient common.Address, amount int64) *types.Receipt {
	c.t.Helper()
	return c.Send(c.Vault.Slash(c.Deployer.Opts, agent, big.NewInt(amount), recipient))
}

// BlockTime returns the newest block's timestamp (unix seconds): what
// block.timestamp was in the last mined transaction.
func (c *Chain) BlockTime() uint64 {
	c.t.Helper()
	h, err := c.Client.HeaderByNumber(context.Background(), nil)
	require.NoError(c.t, err)
	return h.Time
}

// Fund mints amount to sponsor, approves the escrow and funds the slot
// (jobKey, sponsor) with refundAfter (unix seconds).
func (c *Chain) Fund(sponsor Account, jobKey [32]byte, amount int64, refundAfter uint64) *types.Receipt {
	c.t.Helper()
	c.Mint(sponsor.Address, amount)
	c.Send(c.USDC.Approve(sponsor.Opts, c.EscrowAddr, big.NewInt(amount)))
	return c.Send(c.Escrow.Fund(sponsor.Opts, jobKey, big.NewInt(amount), refundAfter))
}

// Authorization is an EIP-3009 authorization of the test USDC: From lets
// To take Value within (ValidAfter, ValidBefore), once per (From, Nonce).
type Authorization struct {
	From, To                       common.Address
	Value, ValidAfter, ValidBefore *big.Int
	Nonce                          [32]byte
}

// The EIP-712 types of the test USDC's authorizations, as USDC's.
var usdcTypes = func() apitypes.Types {
	auth := []apitypes.Type{{Name: "from", Type: "address"}, {Name: "to", Type: "address"},
		{Name: "value", Type: "uint256"}, {Name: "validAfter", Type: "uint256"},
		{Name: "validBefore", Type: "uint256"}, {Name: "nonce", Type: "bytes32"}}
	return apitypes.Types{
		"EIP712Domain": {{Name: "name", Type: "string"}, {Name: "version", Type: "string"},
			{Name: "chainId", Type: "uint256"}, {Name: "verifyingContract", Type: "address"}},
		"TransferWithAuthorization": auth,
		"ReceiveWithAuthorization":  auth,
		"CancelAuthorization":       {{Name: "authorizer", Type: "address"}, {Name: "nonce", Type: "bytes32"}},
	}
}()

// SignAuthorization signs a as primaryType ("ReceiveWithAuthorization" or
// "TransferWithAuthorization") with from's key; see SignUSDC.
func (c *Chain) SignAuthorization(from Account, primaryType string, a Authorization) (v uint8, r, s [32]byte) {
	c.t.Helper()
	return c.SignUSDC(from, primaryType, apitypes.TypedDataMessage{
		"from": a.From.Hex(), "to": a.To.Hex(), "value": a.Value, "validAfter": a.ValidAfter,
		"validBefore": a.ValidBefore, "nonce": hexutil.Encode(a.Nonce[:]),
	})
}

// SignUSDC signs the typed message of primaryType (an authorization or
// "CancelAuthorization") with from's key as a wallet's
// eth_signTypedData_v4 does, over the test USDC's EIP-712 domain (name
// "Test USD Coin", version "2", the chain id, the token), and returns v (27
// or 28), r and s.
func (c *Chain) SignUSDC(from Account, primaryType string, message apitypes.TypedDataMessage) (v uint8, r, s [32]byte) {
	c.t.Helper()
	chainID := math.HexOrDecimal256(*big.NewInt(ChainID))
	digest, _, err := apitypes.TypedDataAndHash(apitypes.TypedData{
		Types:       usdcTypes,
		PrimaryType: primaryType,
		Domain: apitypes.TypedDataDomain{Name: "Test USD Coin", Version: "2", ChainId: &chainID,
			VerifyingContract: c.USDCAddr.Hex()},
		Message: message,
	})
	require.NoError(c.t, err)
	sig, err := crypto.Sign(digest, from.Key)
	require.NoError(c.t, err)
	copy(r[:], sig[:32])
	copy(s[:], sig[32:64])
	return sig[64] + 27, r, s
}

// DeployWallet deploys an ERC-1271 TestWallet owned by owner's key.
func (c *Chain) DeployWallet(owner common.Address) common.Address {
	c.t.Helper()
	addr, tx, _, err := contracts.DeployTestWallet(c.Deployer.Opts, c.Client, owner)
	c.mined(tx, err)
	return addr
}

// DeployCode deploys a contract whose runtime code is runtime (raw EVM
// bytecode, at most 65535 bytes), for tests that need a contract no
// Solidity source describes (a hostile wallet, say). It returns its
// address.
func (c *Chain) DeployCode(runtime []byte) common.Address {
	c.t.Helper()
	require.LessOrEqual(c.t, len(runtime), 0xffff)
	// Init code: CODECOPY the runtime that follows it to memory 0, then
	// RETURN it.
	initCode := []byte{
		0x61, byte(len(runtime) >> 8), byte(len(runtime)), // PUSH2 len
		0x80,       // DUP1
		0x60, 0x0c, // PUSH1 12: the init code's length
		0x60, 0x00, // PUSH1 0
		0x39,       // CODECOPY
		0x60, 0x00, // PUSH1 0
		0xf3, // RETURN
	}
	addr, tx, _, err := bind.DeployContract(c.Deployer.Opts, abi.ABI{}, append(initCode, runtime...), c.Client)
	c.mined(tx, err)
	code, err := c.Client.CodeAt(context.Background(), addr, nil)
	require.NoError(c.t, err)
	require.Equal(c.t, runtime, code, "the deployed code is the runtime given")
	return addr
}

func freePort(t TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := ln.Addr().(*net.TCPAddr).Port
	require.NoError(t, ln.Close())
	return port
}

// Proxy forwards TCP connections from its own 127.0.0.1 port to a target;
// Stop closes the listener and every connection (an RPC outage), Start
// listens again on the same port.
type Proxy struct {
	t      TB
	target string
	addr   string
	mu     sync.Mutex
	ln     net.Listener
	conns  map[net.Conn]struct{}
	wg     sync.WaitGroup
}

// NewProxy starts a proxy to target and stops it when the test ends.
func NewProxy(t TB, target string) *Proxy { return newProxy(t, "", target) }

func newProxy(t TB, addr, target string) *Proxy {
	t.Helper()
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	p := &Proxy{t: t, target: target, addr: addr, conns: map[net.Conn]struct{}{}}
	p.Start()
	t.Cleanup(p.Stop)
	return p
}

// Addr is the proxy's host:port.
func (p *Proxy) Addr() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.addr
}

// Start listens (again) on the proxy's port. It does nothing when running.
func (p *Proxy) Start() {
	p.t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		return
	}
	ln, err := net.Listen("tcp", p.addr)
	require.NoError(p.t, err)
	p.ln, p.addr = ln, ln.Addr().String()
	p.wg.Add(1)
	go p.accept(ln)
}

// Stop closes the listener and every open connection.
func (p *Proxy) Stop() {
	p.mu.Lock()
	ln := p.ln
	p.ln = nil
	for c := range p.conns {
		_ = c.Close()
	}
	p.mu.Unlock()
	if ln != nil {
		_ = ln.Close()
	}
	p.wg.Wait()
}

func (p *Proxy) accept(ln net.Listener) {
	defer p.wg.Done()
	for {
		in, err := ln.Accept()
		if err != nil {
			return
		}
		out, err := net.Dial("tcp", p.target)
		if err != nil {
			_ = in.Close()
			continue
		}
		p.mu.Lock()
		p.conns[in], p.conns[out] = struct{}{}, struct{}{}
		p.mu.Unlock()
		p.wg.Add(2)
		pipe := func(dst, src net.Conn) {
			defer p.wg.Done()
			_, _ = io.Copy(dst, src)
			_ = dst.Close()
			_ = src.Close()
			p.mu.Lock()
			delete(p.conns, dst)
			delete(p.conns, src)
			p.mu.Unlock()
		}
		go pipe(in, out)
		go pipe(out, in)
	}
}
