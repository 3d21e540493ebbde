package auth_test

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/auth"
	"github.com/openjury/openjury/openjurytest"
)

var testConfig = auth.Config{
	Domain:       "jury.example:8443",
	URI:          "https://jury.example:8443",
	ChainID:      8453,
	ChallengeTTL: 5 * time.Minute,
	TokenTTL:     time.Hour,
}

type fixture struct {
	svc   *auth.Service
	clock *openjurytest.Clock
	store auth.Store
}

func newFixture(t testing.TB, verifier auth.ContractVerifier) *fixture {
	t.Helper()
	db := openjurytest.NewDB(t)
	clk := openjurytest.NewClock()
	return &fixture{svc: auth.NewService(db, clk, testConfig, verifier), clock: clk, store: db}
}

// siweGrammar is the EIP-4361 message grammar for the fields we emit
// (domain, address, statement, URI, version, chain id, nonce, issued at,
// expiration time), anchored line by line.
var siweGrammar = regexp.MustCompile(`^(?P<domain>[A-Za-z0-9.\-]+(?::[0-9]+)?) wants you to sign in with your Ethereum account:\n` +
	`(?P<address>0x[a-fA-F0-9]{40})\n\n` +
	`(?P<statement>[^\n]+)\n\n` +
	`URI: (?P<uri>[a-z][a-z0-9+.\-]*:[^\s]+)\n` +
	`Version: 1\n` +
	`Chain ID: (?P<chain>[0-9]+)\n` +
	`Nonce: (?P<nonce>[A-Za-z0-9]{8,})\n` +
	`Issued At: (?P<iat>[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?Z)\n` +
	`Expiration Time: (?P<exp>[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?Z)$`)

func TestChallengeMessageIsEIP4361(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	w := openjurytest.NewWallet(t)
	_, err := f.svc.Challenge(context.Background(), "0x"+strings.Repeat("z", 40))
	require.Equal(t, openjury.Invalid, openjury.KindOf(err), "a malformed address must be refused")

	c, err := f.svc.Challenge(context.Background(), w.Address().Checksum())
	require.NoError(t, err)
	require.Equal(t, w.Address(), c.Address)
	require.Len(t, c.Nonce, 32)
	_, err = hex.DecodeString(c.Nonce)
	require.NoError(t, err)
	require.Equal(t, f.clock.Now().Add(5*time.Minute), c.ExpiresAt)

	m := siweGrammar.FindStringSubmatch(c.Message)
	require.NotNil(t, m, "message does not follow EIP-4361:\n%s", c.Message)
	get := func(name string) string { return m[siweGrammar.SubexpIndex(name)] }
	require.Equal(t, "jury.example:8443", get("domain"))
	require.Equal(t, w.Address().Checksum(), get("address"), "address must be EIP-55")
	require.Equal(t, auth.Statement, get("statement"))
	require.Equal(t, "https://jury.example:8443", get("uri"))
	require.Equal(t, "8453", get("chain"))
	require.Equal(t, c.Nonce, get("nonce"))
	require.Equal(t, "2026-01-01T00:00:00.000Z", get("iat"))
	require.Equal(t, "2026-01-01T00:05:00.000Z", get("exp"))
}

func TestVerifySignatureForms(t *testing.T) {
	t.Parallel()
	forms := map[string]func([]byte) string{
		"0x v27":    func(s []byte) string { return "0x" + hex.EncodeToString(s) },
		"no 0x v28": func(s []byte) string { return hex.EncodeToString(s) },
		"v 0/1": func(s []byte) string {
			c := append([]byte(nil), s...)
			c[64] -= 27
			return "0x" + hex.EncodeToString(c)
		},
		"upper hex": func(s []byte) string { return "0X" + strings.ToUpper(hex.EncodeToString(s)) },
	}
	for name, form := range forms {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			f := newFixture(t, nil)
			w := openjurytest.NewWallet(t)
			c, err := f.svc.Challenge(ctx, w.Address().String())
			require.NoError(t, err)
			token, err := f.svc.Verify(ctx, auth.VerifyInput{Address: w.Address().String(), Signature: form(w.SignBytes(t, c.Message))})
			require.NoError(t, err)
			raw, err := base64.RawURLEncoding.DecodeString(token)
			require.NoError(t, err)
			require.Len(t, raw, 32, "token must carry 256 bits")
			owner, err := f.svc.Authenticate(ctx, token)
			require.NoError(t, err)
			require.Equal(t, w.Address(), owner)
		})
	}
}

func TestVerifyConsumesOnceAndKeepsOtherChallenges(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, nil)
	w := openjurytest.NewWallet(t)
	first, err := f.svc.Challenge(ctx, w.Address().String())
	require.NoError(t, err)
	f.clock.Advance(time.Second)
	second, err := f.svc.Challenge(ctx, w.Address().String())
	require.NoError(t, err)
	require.NotEqual(t, first.Nonce, second.Nonce)

	// A newer challenge does not cancel the older one.
	sig := w.Sign(t, first.Message)
	_, err = f.svc.Verify(ctx, auth.VerifyInput{Address: w.Address().String(), Signature: sig})
	require.NoError(t, err)
	_, err = f.svc.Verify(ctx, auth.VerifyInput{Address: w.Address().String(), Signature: sig})
	require.Equal(t, openjury.Unauthenticated, openjury.KindOf(err), "a signature is good for one token")

	// The nonce picks the challenge.
	_, err = f.svc.Verify(ctx, auth.VerifyInput{Address: w.Address().String(), Signature: w.Sign(t, second.Message), Nonce: first.Nonce})
	require.Equal(t, openjury.Unauthenticated, openjury.KindOf(err))
	_, err = f.svc.Verify(ctx, auth.VerifyInput{Address: w.Address().String(), Signature: w.Sign(t, second.Message), Nonce: second.Nonce})
	require.NoError(t, err)
}

func TestVerifyRejects(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, nil)
	w, other := openjurytest.NewWallet(t), openjurytest.NewWallet(t)
	c, err := f.svc.Challenge(ctx, w.Address().String())
	require.NoError(t, err)
	good := w.SignBytes(t, c.Message)

	highS := append([]byte(nil), good...)
	n := crypto.S256().Params().N
	s := new(big.Int).SetBytes(highS[32:64])
	new(big.Int).Sub(n, s).FillBytes(highS[32:64])
	highS[64] = 27 + (1 - (highS[64] - 27))

	cases := []struct {
		name   string
		in     auth.VerifyInput
		kind   openjury.Kind
		detail string
	}{
		{"bad address", auth.VerifyInput{Address: "0x12", Signature: "0x00"}, openjury.Invalid, "address: must be 0x followed by 40 hex digits"},
		{"not hex", auth.VerifyInput{Address: w.Address().String(), Signature: "zz"}, openjury.Unauthenticated, "signature: must be a hex string (0x optional)"},
		{"empty", auth.VerifyInput{Address: w.Address().String(), Signature: ""}, openjury.Unauthenticated, "signature: must be a hex string (0x optional)"},
		{"other signer", auth.VerifyInput{Address: w.Address().String(), Signature: other.Sign(t, c.Message)}, openjury.Unauthenticated, "signature does not verify for this address"},
		{"short", auth.VerifyInput{Address: w.Address().String(), Signature: "0x" + hex.EncodeToString(good[:64])}, openjury.Unauthenticated, "signature must be 65 bytes"},
		{"bad v", auth.VerifyInput{Address: w.Address().String(), Signature: "0x" + hex.EncodeToString(append(append([]byte(nil), good[:64]...), 29))}, openjury.Unauthenticated, "signature v must be 0, 1, 27 or 28"},
		{"high s", auth.VerifyInput{Address: w.Address().String(), Signature: "0x" + hex.EncodeToString(highS)}, openjury.Unauthenticated, "signature s value is too high (malleable signature)"},
		{"malformed nonce", auth.VerifyInput{Address: w.Address().String(), Signature: "0x" + hex.EncodeToString(good), Nonce: "zz"}, openjury.Invalid, "nonce: must be the hex nonce of a challenge"},
		{"NUL in nonce", auth.VerifyInput{Address: w.Address().String(), Signature: "0x" + hex.EncodeToString(good), Nonce: "ab\x00"}, openjury.Invalid, "nonce: must not contain NUL characters"},
		{"NUL in signature", auth.VerifyInput{Address: w.Address().String(), Signature: "0x\x00" + hex.EncodeToString(good)}, openjury.Invalid, "signature: must not contain NUL characters"},
		{"padded address", auth.VerifyInput{Address: " " + w.Address().String(), Signature: "0x" + hex.EncodeToString(good)}, openjury.Invalid, "address: must be 0x followed by 40 hex digits"},
		{"address padded after", auth.VerifyInput{Address: w.Address().String() + "\t", Signature: "0x" + hex.EncodeToString(good)}, openjury.Invalid, "address: must be 0x followed by 40 hex digits"},
		{"no challenge", auth.VerifyInput{Address: other.Address().String(), Signature: other.Sign(t, c.Message)}, openjury.Unauthenticated, "no live challenge for this address: request a new one"},
	}
	for _, tc := range cases {
		_, err := f.svc.Verify(ctx, tc.in)
		require.Error(t, err, tc.name)
		require.Equal(t, tc.kind, openjury.KindOf(err), tc.name)
		require.Equal(t, tc.detail, openjury.DetailOf(err), tc.name)
	}
	// Failures change nothing: the challenge is still alive for the right
	// signature (it survives until its expiry).
	_, err = f.svc.Verify(ctx, auth.VerifyInput{Address: w.Address().String(), Signature: "0x" + hex.EncodeToString(good)})
	require.NoError(t, err)
}

func TestExpiry(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, nil)
	w := openjurytest.NewWallet(t)
	c, err := f.svc.Challenge(ctx, w.Address().String())
	require.NoError(t, err)
	f.clock.Advance(testConfig.ChallengeTTL)
	_, err = f.svc.Verify(ctx, auth.VerifyInput{Address: w.Address().String(), Signature: w.Sign(t, c.Message)})
	require.Equal(t, openjury.Unauthenticated, openjury.KindOf(err), "a challenge is dead at its expiry")

	c, err = f.svc.Challenge(ctx, w.Address().String())
	require.NoError(t, err)
	token, err := f.svc.Verify(ctx, auth.VerifyInput{Address: w.Address().String(), Signature: w.Sign(t, c.Message)})
	require.NoError(t, err)
	f.clock.Advance(testConfig.TokenTTL - time.Millisecond)
	_, err = f.svc.Authenticate(ctx, token)
	require.NoError(t, err)
	f.clock.Advance(time.Millisecond)
	_, err = f.svc.Authenticate(ctx, token)
	require.Equal(t, openjury.Unauthenticated, openjury.KindOf(err))

	n, err := f.svc.Cleanup(ctx)
	require.NoError(t, err)
	require.Equal(t, int64(2), n, "the expired challenge and the expired token go")
}

func TestLogoutAndUnknownTokens(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, nil)
	w := openjurytest.NewWallet(t)
	c, err := f.svc.Challenge(ctx, w.Address().String())
	require.NoError(t, err)
	token, err := f.svc.Verify(ctx, auth.VerifyInput{Address: w.Address().String(), Signature: w.Sign(t, c.Message)})
	require.NoError(t, err)
	require.NoError(t, f.svc.Logout(ctx, token))
	_, err = f.svc.Authenticate(ctx, token)
	require.Equal(t, openjury.Unauthenticated, openjury.KindOf(err))
	require.NoError(t, f.svc.Logout(ctx, token), "logout is idempotent")
	_, err = f.svc.Authenticate(ctx, "")
	require.Equal(t, openjury.Unauthenticated, openjury.KindOf(err))
	_, err = f.svc.Authenticate(ctx, "not-a-token")
	require.Equal(t, openjury.Unauthenticated, openjury.KindOf(err))
}

func TestConcurrentVerifiesYieldOneToken(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, nil)
	w := openjurytest.NewWallet(t)
	c, err := f.svc.Challenge(ctx, w.Address().String())
	require.NoError(t, err)
	sig := w.Sign(t, c.Message)

	const n = 20
	var wg sync.WaitGroup
	tokens := make([]string, n)
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			tokens[i], errs[i] = f.svc.Verify(ctx, auth.VerifyInput{Address: w.Address().String(), Signature: sig})
		})
	}
	wg.Wait()
	ok := 0
	for i := range n {
		if errs[i] == nil {
			ok++
			_, err := f.svc.Authenticate(ctx, tokens[i])
			require.NoError(t, err)
			continue
		}
		require.Equal(t, openjury.Unauthenticated, openjury.KindOf(errs[i]), "loser %d: %v", i, errs[i])
	}
	require.Equal(t, 1, ok, "one signature, one token")
}

type fakeContractWallet struct {
	approve []byte
	err     error
	calls   int
	mu      sync.Mutex
}

func (f *fakeContractWallet) IsValidSignature(_ context.Context, _ openjury.Address, digest [32]byte, sig []byte) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if f.err != nil {
		return false, f.err
	}
	return string(sig) == string(f.approve), nil
}

func TestContractWallet(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	wallet := openjury.MustAddress("0x1111111111111111111111111111111111111111")
	approved := []byte("multisig-approval-blob-of-any-length")

	cw := &fakeContractWallet{approve: approved}
	f := newFixture(t, cw)
	_, err := f.svc.Challenge(ctx, wallet.String())
	require.NoError(t, err)
	_, err = f.svc.Verify(ctx, auth.VerifyInput{Address: wallet.String(), Signature: "0x" + hex.EncodeToString([]byte("wrong"))})
	require.Equal(t, openjury.Unauthenticated, openjury.KindOf(err))
	token, err := f.svc.Verify(ctx, auth.VerifyInput{Address: wallet.String(), Signature: "0x" + hex.EncodeToString(approved)})
	require.NoError(t, err)
	owner, err := f.svc.Authenticate(ctx, token)
	require.NoError(t, err)
	require.Equal(t, wallet, owner)

	down := &fakeContractWallet{err: openjury.E(openjury.Unavailable, "chain", "rpc down")}
	f = newFixture(t, down)
	_, err = f.svc.Challenge(ctx, wallet.String())
	require.NoError(t, err)
	_, err = f.svc.Verify(ctx, auth.VerifyInput{Address: wallet.String(), Signature: "0xabcd"})
	require.Equal(t, openjury.Unavailable, openjury.KindOf(err))

	// Without a verifier (EIP-1271 off) the contract is never asked.
	f = newFixture(t, nil)
	_, err = f.svc.Challenge(ctx, wallet.String())
	require.NoError(t, err)
	_, err = f.svc.Verify(ctx, auth.VerifyInput{Address: wallet.String(), Signature: "0x" + hex.EncodeToString(approved)})
	require.Equal(t, openjury.Unauthenticated, openjury.KindOf(err))
	require.False(t, errors.Is(err, context.Canceled))
}

// countingWallet is a contract wallet that approves nothing and records
// each call: the digest asked about and the deadline of its context.
type countingWallet struct {
	mu        sync.Mutex
	digests   [][32]byte
	deadlines []time.Duration
}

func (c *countingWallet) IsValidSignature(ctx context.Context, _ openjury.Address, digest [32]byte, _ []byte) (bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.digests = append(c.digests, digest)
	d, ok := ctx.Deadline()
	if !ok {
		c.deadlines = append(c.deadlines, -1)
	} else {
		c.deadlines = append(c.deadlines, time.Until(d))
	}
	return false, nil
}

func (c *countingWallet) calls() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.digests)
}

// TestContractWalletOneCallPerVerify: with 40 live challenges, a bad
// signature costs one contract call per verify, not one per challenge:
// about the newest challenge without a nonce, about the named one with
// it; each call runs under the verify's deadline (at most VerifyTimeout).
// A plain signature is still recovered against every live challenge.
func TestContractWalletOneCallPerVerify(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cw := &countingWallet{}
	f := newFixture(t, cw)
	owner := openjurytest.NewWallet(t)
	addr := owner.Address()
	var challenges []auth.Challenge
	for i := range 40 {
		now := f.clock.Now()
		c := auth.Challenge{Nonce: fmt.Sprintf("%032x", i+1), Address: addr, IssuedAt: now, ExpiresAt: now.Add(5 * time.Minute)}
		c.Message = f.svc.Message(c)
		require.NoError(t, f.store.PutChallenge(ctx, c))
		challenges = append(challenges, c)
		f.clock.Advance(time.Millisecond)
	}
	digest := func(c auth.Challenge) [32]byte { return [32]byte(accounts.TextHash([]byte(c.Message))) }
	bad := []string{"0x" + strings.Repeat("ab", 65), "0x" + strings.Repeat("cd", 200), "0x01"}
	for i, sig := range bad {
		_, err := f.svc.Verify(ctx, auth.VerifyInput{Address: addr.String(), Signature: sig})
		require.Equal(t, openjury.Unauthenticated, openjury.KindOf(err), "%v", err)
		require.Equal(t, i+1, cw.calls(), "one contract call per verify")
	}
	for _, d := range cw.digests {
		require.Equal(t, digest(challenges[39]), d, "about the newest live challenge")
	}
	named := challenges[7]
	_, err := f.svc.Verify(ctx, auth.VerifyInput{Address: addr.String(), Signature: bad[0], Nonce: named.Nonce})
	require.Equal(t, openjury.Unauthenticated, openjury.KindOf(err))
	require.Equal(t, 4, cw.calls())
	require.Equal(t, digest(named), cw.digests[3], "about the challenge the nonce names")
	for _, d := range cw.deadlines {
		require.Positive(t, d, "the call has a deadline")
		require.LessOrEqual(t, d, auth.VerifyTimeout)
	}

	// The owner's plain signature of an older challenge is found without
	// a nonce, and asks no contract.
	_, err = f.svc.Verify(ctx, auth.VerifyInput{Address: addr.String(), Signature: owner.Sign(t, challenges[30].Message)})
	require.NoError(t, err)
	require.Equal(t, 4, cw.calls())
}
