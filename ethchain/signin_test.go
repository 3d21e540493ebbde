package ethchain_test

import (
	"context"
	"net/http"
	"testing"

	ethereum "github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/contracts"
	"github.com/openjury/openjury/ethchain"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/openjurytest/simchain"
)

// contractSignIn asks a challenge for wallet, has signer sign it and
// returns the verify response. The verify names the challenge's nonce, as
// clients do: a contract wallet is asked about one challenge only (the
// named one, else the newest, and a test clock that stands still makes
// every challenge as new as the others).
func contractSignIn(t *testing.T, srv *openjurytest.Server, wallet openjury.Address, signer *openjurytest.Wallet) *openjurytest.Response {
	t.Helper()
	ch := srv.Do(t, http.MethodPost, "/api/v1/agents/auth/challenge", "", map[string]string{"address": wallet.String()})
	require.Equal(t, http.StatusOK, ch.Status, string(ch.Body))
	var c struct {
		Message string `json:"message_to_sign"`
		Nonce   string `json:"nonce"`
	}
	ch.JSON(t, &c)
	return srv.Do(t, http.MethodPost, "/api/v1/agents/auth/verify", "", map[string]string{
		"address": wallet.String(), "signature": signer.Sign(t, c.Message), "nonce": c.Nonce,
	})
}

// TestContractWalletSignIn: an ERC-1271 wallet on the simulated chain signs
// in with its owner key's signature; another key's gets 401; with the node
// unreachable the sign-in answers 503.
func TestContractWalletSignIn(t *testing.T) {
	t.Parallel()
	ch, client := httpChain(t)
	srv := openjurytest.NewServer(t, openjurytest.WithContractVerifier(client))

	owner, stranger := openjurytest.NewWallet(t), openjurytest.NewWallet(t)
	wallet := openjury.AddressFromBytes(ch.DeployWallet(common.Address(owner.Address().Bytes())))

	r := contractSignIn(t, srv, wallet, owner)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	var tok struct {
		Token string `json:"access_token"`
	}
	r.JSON(t, &tok)
	require.NotEmpty(t, tok.Token)
	addr, err := srv.Auth.Authenticate(context.Background(), tok.Token)
	require.NoError(t, err)
	require.Equal(t, wallet, addr, "the token is the contract wallet's")

	r = contractSignIn(t, srv, wallet, stranger)
	require.Equal(t, http.StatusUnauthorized, r.Status, string(r.Body))

	// Plain wallets still sign in as before.
	require.NotEmpty(t, srv.SignIn(t, stranger))

	ch.Proxy().Stop()
	r = contractSignIn(t, srv, wallet, owner)
	require.Equal(t, http.StatusServiceUnavailable, r.Status, string(r.Body))
	require.NotContains(t, string(r.Body), ch.Proxy().Addr(), "the RPC URL is never returned")
	ch.Proxy().Start()
	r = contractSignIn(t, srv, wallet, owner)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
}

// Runtime code of hostile "wallets" (raw EVM, deployed with
// simchain.DeployCode): each answers isValidSignature, whatever the
// input, with a fixed return.
var (
	// magicWord is the exact ABI answer of an approving wallet.
	magicWord = append([]byte{0x16, 0x26, 0xba, 0x7e}, make([]byte, 28)...)
	// paddedMagic is the magic value with a non-zero byte in its padding.
	paddedMagic = append(append([]byte{0x16, 0x26, 0xba, 0x7e}, make([]byte, 27)...), 0x01)
)

// returnWord is runtime code that stores word at memory 0 and returns
// size bytes from there.
func returnWord(word []byte, size byte) []byte {
	code := append([]byte{0x7f}, word...)                               // PUSH32 word
	return append(code, 0x60, 0x00, 0x52, 0x60, size, 0x60, 0x00, 0xf3) // MSTORE at 0; RETURN 0..size
}

// gasBurner is runtime code that burns 2,000,000 gas in a loop and then
// answers the exact magic word: it approves anything when the call may
// use more gas than SignatureGas.
func gasBurner() []byte {
	loop := []byte{
		0x5a,                   // GAS: g0
		0x5b,                   // JUMPDEST (pc 1)
		0x5a,                   // GAS: g0 g
		0x81,                   // DUP2: g0 g g0
		0x03,                   // SUB: g0 used
		0x62, 0x1e, 0x84, 0x80, // PUSH3 2,000,000
		0x11,       // GT: g0 (2M > used)
		0x60, 0x01, // PUSH1 1
		0x57, // JUMPI
		0x50, // POP
	}
	return append(loop, returnWord(magicWord, 32)...)
}

// TestIsValidSignatureIsExact: only an address with code that answers
// exactly the 32-byte magic word approves. The identity precompile
// (0x...04, no code, echoes its input, which starts with the magic
// value), a wallet padding the magic value with a non-zero byte, one
// answering 64 bytes and one that needs more gas than SignatureGas all
// refuse, over HTTP JSON-RPC; the control wallet answering the exact word
// approves.
func TestIsValidSignatureIsExact(t *testing.T) {
	t.Parallel()
	ch, c := httpChain(t)
	ctx := context.Background()
	var digest [32]byte
	copy(digest[:], accounts.TextHash([]byte("Sign in to OpenJury as this agent.")))
	sig := signHash(t, &ch.Accounts[0], digest)
	ask := func(addr common.Address) bool {
		t.Helper()
		ok, err := c.IsValidSignature(ctx, openjury.AddressFromBytes(addr), digest, sig)
		require.NoError(t, err)
		return ok
	}
	require.True(t, ask(ch.DeployCode(returnWord(magicWord, 32))), "control: the exact word approves")
	require.False(t, ask(common.BytesToAddress([]byte{4})), "the identity precompile has no code")
	require.False(t, ask(ch.DeployCode(returnWord(paddedMagic, 32))), "non-zero padding")
	require.False(t, ask(ch.DeployCode(returnWord(magicWord, 64))), "64 bytes")
	require.False(t, ask(ch.DeployCode(returnWord(magicWord, 4))), "4 bytes")
	burner := ch.DeployCode(gasBurner())
	require.False(t, ask(burner), "the gas cap cuts the burner off: out of gas is a no")

	// Without the cap the burner would have approved: the node's own
	// eth_call gas limit lets it finish.
	data, err := contracts.TestWalletMetaData.GetAbi()
	require.NoError(t, err)
	in, err := data.Pack("isValidSignature", digest, sig)
	require.NoError(t, err)
	out, err := ch.Client.CallContract(ctx, ethereum.CallMsg{To: &burner, Data: in}, nil)
	require.NoError(t, err)
	require.Equal(t, magicWord, out)
	require.True(t, ethchain.IsMagicWord(out))
}

// TestPrecompileCannotSignIn: through the service, the identity
// precompile cannot sign in with any signature, nor can a wallet with a
// padded or 64-byte answer; the exact-word wallet can (it approves any
// signature: the control).
func TestPrecompileCannotSignIn(t *testing.T) {
	t.Parallel()
	ch, client := httpChain(t)
	srv := openjurytest.NewServer(t, openjurytest.WithContractVerifier(client))
	anyone := openjurytest.NewWallet(t)
	for name, addr := range map[string]common.Address{
		"identity precompile": common.BytesToAddress([]byte{4}),
		"padded answer":       ch.DeployCode(returnWord(paddedMagic, 32)),
		"64-byte answer":      ch.DeployCode(returnWord(magicWord, 64)),
		"gas burner":          ch.DeployCode(gasBurner()),
	} {
		r := contractSignIn(t, srv, openjury.AddressFromBytes(addr), anyone)
		require.Equal(t, http.StatusUnauthorized, r.Status, "%s: %s", name, r.Body)
	}
	yes := openjury.AddressFromBytes(ch.DeployCode(returnWord(magicWord, 32)))
	r := contractSignIn(t, srv, yes, anyone)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
}

// TestChainIDIsChecked: a Client configured for another chain than the
// node serves fails CheckChainID as Invalid naming both ids and refuses
// to read the chain (Unavailable); one configured for the node's chain
// passes and reads.
func TestChainIDIsChecked(t *testing.T) {
	t.Parallel()
	ch := simchain.New(t, simchain.WithHTTP())
	ctx := context.Background()
	wrong, err := ethchain.Dial(ctx, ch.URL, ethchain.Options{ChainID: 8453, StakeVault: openjury.AddressFromBytes(ch.VaultAddr)})
	require.NoError(t, err)
	t.Cleanup(wrong.Close)
	err = wrong.CheckChainID(ctx)
	require.Equal(t, openjury.Invalid, openjury.KindOf(err))
	require.Equal(t, "the chain node serves chain 1337, not the configured chain 8453", openjury.DetailOf(err))
	require.NotContains(t, err.Error(), ch.Proxy().Addr())
	_, err = wrong.Head(ctx)
	require.Equal(t, openjury.Unavailable, openjury.KindOf(err))
	_, err = wrong.IsValidSignature(ctx, openjury.AddressFromBytes(ch.VaultAddr), [32]byte{}, []byte{1})
	require.Equal(t, openjury.Unavailable, openjury.KindOf(err))
	_, err = wrong.StakeOf(ctx, ch.Accounts[0].Addr(), 0)
	require.Equal(t, openjury.Unavailable, openjury.KindOf(err))

	right, err := ethchain.Dial(ctx, ch.URL, ethchain.Options{ChainID: simchain.ChainID})
	require.NoError(t, err)
	t.Cleanup(right.Close)
	require.NoError(t, right.CheckChainID(ctx))
	_, err = right.Head(ctx)
	require.NoError(t, err)
}
