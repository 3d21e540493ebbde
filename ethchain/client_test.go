package ethchain_test

import (
	"bytes"
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/ethchain"
	"github.com/openjury/openjury/openjurytest/simchain"
	"github.com/openjury/openjury/stake"
)

// signHash signs a 32-byte hash with key, v in 27/28 as wallets send it.
func signHash(t *testing.T, c *simchain.Account, hash [32]byte) []byte {
	t.Helper()
	sig, err := crypto.Sign(hash[:], c.Key)
	require.NoError(t, err)
	sig[64] += 27
	return sig
}

func newClient(ch *simchain.Chain) *ethchain.Client {
	return ethchain.New(ch.Client, ethchain.Options{StakeVault: openjury.AddressFromBytes(ch.VaultAddr), Timeout: 5 * time.Second})
}

// httpChain starts a simulated chain served over JSON-RPC (behind its
// stoppable proxy) and dials it.
func httpChain(t *testing.T) (*simchain.Chain, *ethchain.Client) {
	t.Helper()
	ch := simchain.New(t, simchain.WithHTTP())
	client, err := ethchain.Dial(context.Background(), ch.URL, ethchain.Options{Timeout: 3 * time.Second})
	require.NoError(t, err)
	t.Cleanup(client.Close)
	return ch, client
}

func TestIsValidSignature(t *testing.T) {
	t.Parallel()
	ch := simchain.New(t)
	c := newClient(ch)
	ctx := context.Background()
	owner, other := ch.Accounts[0], ch.Accounts[1]
	wallet := openjury.AddressFromBytes(ch.DeployWallet(owner.Address))

	var digest [32]byte
	copy(digest[:], accounts.TextHash([]byte("Sign in to OpenJury as this agent.")))
	ok, err := c.IsValidSignature(ctx, wallet, digest, signHash(t, &owner, digest))
	require.NoError(t, err)
	require.True(t, ok, "the owner's signature is approved")

	ok, err = c.IsValidSignature(ctx, wallet, digest, signHash(t, &other, digest))
	require.NoError(t, err)
	require.False(t, ok, "another key's signature is refused")

	ok, err = c.IsValidSignature(ctx, wallet, digest, []byte{1, 2, 3})
	require.NoError(t, err)
	require.False(t, ok, "garbage is refused")

	ok, err = c.IsValidSignature(ctx, owner.Addr(), digest, signHash(t, &owner, digest))
	require.NoError(t, err)
	require.False(t, ok, "an address without code approves nothing")

	ok, err = c.IsValidSignature(ctx, openjury.AddressFromBytes(ch.VaultAddr), digest, signHash(t, &owner, digest))
	require.NoError(t, err)
	require.False(t, ok, "a contract without isValidSignature reverts: no")
}

func TestVaultEventsAndStakeOf(t *testing.T) {
	t.Parallel()
	ch := simchain.New(t)
	c := newClient(ch)
	ctx := context.Background()
	alice, bob, payer := ch.Accounts[0], ch.Accounts[1], ch.Accounts[2]
	start := ch.Head() + 1

	dep := ch.Deposit(alice, alice.Address, 15_000_000)
	depFor := ch.Deposit(payer, bob.Address, 7_000_000)
	wd := ch.Withdraw(alice, 4_000_000)
	sl := ch.Slash(bob.Address, payer.Address, 9_000_000) // more than bob has: all 7 taken
	head, err := c.Head(ctx)
	require.NoError(t, err)
	require.Equal(t, ch.Head(), head)

	events, err := c.VaultEvents(ctx, start, head)
	require.NoError(t, err)
	require.Len(t, events, 4)
	vault := openjury.AddressFromBytes(ch.VaultAddr)
	want := []stake.VaultEvent{
		{Kind: stake.EventDeposited, Agent: alice.Addr(), Payer: alice.Addr(), Amount: 15_000_000},
		{Kind: stake.EventDeposited, Agent: bob.Addr(), Payer: payer.Addr(), Amount: 7_000_000},
		{Kind: stake.EventWithdrawn, Agent: alice.Addr(), Amount: 4_000_000},
		{Kind: stake.EventSlashed, Agent: bob.Addr(), Recipient: payer.Addr(), Requested: 9_000_000, Amount: 7_000_000},
	}
	for i, r := range []int64{dep.BlockNumber.Int64(), depFor.BlockNumber.Int64(), wd.BlockNumber.Int64(), sl.BlockNumber.Int64()} {
		w := want[i]
		w.Contract, w.Block = vault, r
		got := events[i]
		require.Equal(t, r, got.Block)
		w.TxHash, w.LogIndex = got.TxHash, got.LogIndex
		require.Equal(t, w, got, "event %d", i)
	}
	// The log index is the block-level one of the receipt.
	require.Equal(t, int64(dep.Logs[len(dep.Logs)-1].Index), events[0].LogIndex)
	require.Equal(t, openjury.HashFromBytes(sl.TxHash), events[3].TxHash)

	// A range without vault events is empty; a bad range is Invalid.
	none, err := c.VaultEvents(ctx, 0, start-1)
	require.NoError(t, err)
	require.Empty(t, none)
	_, err = c.VaultEvents(ctx, 5, 4)
	require.Equal(t, openjury.Invalid, openjury.KindOf(err))

	// stakeOf at each event's block.
	for _, tc := range []struct {
		who   openjury.Address
		block int64
		want  openjury.MicroUSDC
	}{
		{alice.Addr(), dep.BlockNumber.Int64() - 1, 0},
		{alice.Addr(), dep.BlockNumber.Int64(), 15_000_000},
		{alice.Addr(), wd.BlockNumber.Int64(), 11_000_000},
		{bob.Addr(), depFor.BlockNumber.Int64(), 7_000_000},
		{bob.Addr(), sl.BlockNumber.Int64(), 0},
	} {
		got, err := c.StakeOf(ctx, tc.who, tc.block)
		require.NoError(t, err)
		require.Equal(t, tc.want, got, "%s at %d", tc.who, tc.block)
	}
}

func TestAnchorPosted(t *testing.T) {
	t.Parallel()
	ch := simchain.New(t)
	c := newClient(ch)
	ctx := context.Background()
	root := crypto.Keccak256Hash([]byte("root"))
	salt := crypto.Keccak256Hash([]byte("salt"))
	rcpt := ch.Send(ch.Registry.PostAnchor(ch.Deployer.Opts, root, "http://x/api/v1/jobs/1/anchor/snapshot", 1, salt))
	require.Len(t, rcpt.Logs, 1)
	idx := int64(rcpt.Logs[0].Index)

	got, err := c.AnchorPosted(ctx, openjury.HashFromBytes(rcpt.TxHash), idx)
	require.NoError(t, err)
	require.Equal(t, ethchain.AnchorLog{
		TxHash: openjury.HashFromBytes(rcpt.TxHash), Succeeded: true,
		BlockNumber: rcpt.BlockNumber.Int64(), LogIndex: idx,
		Emitter: openjury.AddressFromBytes(ch.RegistryAddr),
		Root:    openjury.HashFromBytes(root), URI: "http://x/api/v1/jobs/1/anchor/snapshot",
		SchemaVersion: 1, Salt: openjury.HashFromBytes(salt),
	}, got)

	_, err = c.AnchorPosted(ctx, openjury.HashFromBytes(rcpt.TxHash), idx+1)
	require.Equal(t, openjury.Invalid, openjury.KindOf(err))
	require.Contains(t, openjury.DetailOf(err), "anchor_log_index")

	// A log of another event at that index is not an AnchorPosted.
	dep := ch.Deposit(ch.Accounts[0], ch.Accounts[0].Address, 1)
	_, err = c.AnchorPosted(ctx, openjury.HashFromBytes(dep.TxHash), int64(dep.Logs[0].Index))
	require.Equal(t, openjury.Invalid, openjury.KindOf(err))

	_, err = c.AnchorPosted(ctx, openjury.HashFromBytes(crypto.Keccak256Hash([]byte("nope"))), 0)
	require.Equal(t, openjury.NotFound, openjury.KindOf(err))
}

func TestMerkleVerifier(t *testing.T) {
	t.Parallel()
	ch := simchain.New(t)
	a := crypto.Keccak256Hash([]byte("a"))
	b := crypto.Keccak256Hash([]byte("b"))
	lo, hi := a, b
	if bytes.Compare(lo[:], hi[:]) > 0 {
		lo, hi = hi, lo
	}
	root := crypto.Keccak256Hash(lo[:], hi[:]) // sorted-pair hashing
	ok, err := ch.Verifier.Verify(nil, [][32]byte{b}, root, a)
	require.NoError(t, err)
	require.True(t, ok)
	ok, err = ch.Verifier.Verify(nil, [][32]byte{a}, root, a)
	require.NoError(t, err)
	require.False(t, ok)
}

// TestUnavailableHidesTheURL: a node that cannot be reached is Unavailable,
// and no part of the RPC URL (which may hold a provider key) is in the
// error.
func TestUnavailableHidesTheURL(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const url = "http://user:hunter2@127.0.0.1:1/v3/PROVIDERKEY?apikey=QUERYKEY"
	c, err := ethchain.Dial(ctx, url, ethchain.Options{Timeout: 2 * time.Second})
	require.NoError(t, err)
	defer c.Close()
	var digest [32]byte
	calls := map[string]func() error{
		"head":    func() error { _, err := c.Head(ctx); return err },
		"events":  func() error { _, err := c.VaultEvents(ctx, 0, 1); return err },
		"stakeOf": func() error { _, err := c.StakeOf(ctx, openjury.AddressFromBytes(common.Address{1}), 1); return err },
		"1271": func() error {
			_, err := c.IsValidSignature(ctx, openjury.AddressFromBytes(common.Address{1}), digest, []byte{1})
			return err
		},
		"receipt":  func() error { _, err := c.AnchorPosted(ctx, openjury.HashFromBytes(digest), 0); return err },
		"chain id": func() error { _, err := c.ChainID(ctx); return err },
	}
	for name, call := range calls {
		err := call()
		require.Error(t, err, name)
		require.Equal(t, openjury.Unavailable, openjury.KindOf(err), "%s: %v", name, err)
		for _, secret := range []string{"hunter2", "PROVIDERKEY", "QUERYKEY", "127.0.0.1:1"} {
			require.NotContains(t, err.Error(), secret, name)
		}
	}
	_, err = ethchain.Dial(ctx, "not a url", ethchain.Options{})
	require.Equal(t, openjury.Invalid, openjury.KindOf(err))
}

// TestStakeOfCapsHugeAmounts: amounts beyond int64 micro-USDC are capped,
// never wrapped.
func TestStakeOfCapsHugeAmounts(t *testing.T) {
	t.Parallel()
	ch := simchain.New(t)
	c := newClient(ch)
	huge := new(big.Int).Lsh(big.NewInt(1), 70)
	a := ch.Accounts[0]
	ch.Send(ch.USDC.Mint(ch.Deployer.Opts, a.Address, huge))
	ch.Send(ch.USDC.Approve(a.Opts, ch.VaultAddr, huge))
	r := ch.Send(ch.Vault.Deposit(a.Opts, huge))
	got, err := c.StakeOf(context.Background(), a.Addr(), r.BlockNumber.Int64())
	require.NoError(t, err)
	require.Equal(t, openjury.MicroUSDC(1<<63-1), got)
}

// TestBlockHash: the hash of an existing block is the node's header hash,
// the same on every call; a block beyond the head is NotFound.
func TestBlockHash(t *testing.T) {
	t.Parallel()
	ch := simchain.New(t)
	c := newClient(ch)
	ch.Mine(3)
	ctx := context.Background()
	head := ch.Head()
	h, err := c.BlockHash(ctx, head)
	require.NoError(t, err)
	header, err := ch.Client.HeaderByNumber(ctx, big.NewInt(head))
	require.NoError(t, err)
	require.Equal(t, openjury.HashFromBytes(header.Hash()), h)
	again, err := c.BlockHash(ctx, head)
	require.NoError(t, err)
	require.Equal(t, h, again)
	prev, err := c.BlockHash(ctx, head-1)
	require.NoError(t, err)
	require.NotEqual(t, h, prev)
	_, err = c.BlockHash(ctx, head+5)
	require.Equal(t, openjury.NotFound, openjury.KindOf(err), "%v", err)
}
