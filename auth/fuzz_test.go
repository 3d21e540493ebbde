package auth_test

import (
	"context"
	"encoding/hex"
	"math/big"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/auth"
	"github.com/openjury/openjury/openjurytest"
)

// FuzzMessage checks that every challenge renders as an EIP-4361 message
// whose fields read back as the challenge's.
func FuzzMessage(f *testing.F) {
	f.Add([]byte{0x5a, 0xae}, []byte{1, 2, 3}, int64(1_700_000_000_000), uint32(300_000), int64(8453))
	f.Add(make([]byte, 20), make([]byte, 16), int64(0), uint32(0), int64(1))
	f.Add([]byte{0xff}, []byte{}, int64(253_402_300_799_999), uint32(1), int64(1<<53))
	svc := auth.NewService(nil, openjurytest.NewClock(), testConfig, nil)
	f.Fuzz(func(t *testing.T, addrBytes, nonceBytes []byte, issuedMillis int64, ttlMillis uint32, chainID int64) {
		var raw [20]byte
		copy(raw[:], addrBytes)
		// Years 0000..9995: the range RFC 3339 can write, with room for the TTL.
		issuedMillis = issuedMillis % 253_300_000_000_000
		if issuedMillis < 0 {
			issuedMillis = -issuedMillis
		}
		if chainID < 1 {
			chainID = 1
		}
		if len(nonceBytes) < 8 {
			nonceBytes = append(nonceBytes, make([]byte, 8-len(nonceBytes))...)
		}
		cfg := testConfig
		cfg.ChainID = chainID
		s := auth.NewService(nil, openjurytest.NewClock(), cfg, nil)
		issued := time.UnixMilli(issuedMillis - 62_135_596_800_000).UTC()
		c := auth.Challenge{
			Nonce:     hex.EncodeToString(nonceBytes),
			Address:   openjury.AddressFromBytes(raw),
			IssuedAt:  issued,
			ExpiresAt: issued.Add(time.Duration(ttlMillis) * time.Millisecond),
		}
		msg := s.Message(c)
		require.Equal(t, svc.Message(c) != msg, chainID != testConfig.ChainID)
		m := siweGrammar.FindStringSubmatch(msg)
		require.NotNil(t, m, "not EIP-4361:\n%s", msg)
		get := func(name string) string { return m[siweGrammar.SubexpIndex(name)] }
		require.Equal(t, c.Address.Checksum(), get("address"))
		require.Equal(t, c.Nonce, get("nonce"))
		require.Equal(t, strconv.FormatInt(chainID, 10), get("chain"))
		iat, err := time.Parse(time.RFC3339Nano, get("iat"))
		require.NoError(t, err)
		require.True(t, iat.Equal(openjury.Truncate(c.IssuedAt)))
		exp, err := time.Parse(time.RFC3339Nano, get("exp"))
		require.NoError(t, err)
		require.True(t, exp.Equal(openjury.Truncate(c.ExpiresAt)))
	})
}

// FuzzNormalizeSignature checks that an accepted signature is 65 bytes with
// v of 0 or 1, r and s in range and s in the lower half.
func FuzzNormalizeSignature(f *testing.F) {
	w := openjurytest.NewWallet(f)
	good := w.SignBytes(f, "hello")
	f.Add(good)
	f.Add(append(append([]byte(nil), good[:64]...), 0))
	f.Add(make([]byte, 65))
	f.Add([]byte{1, 2, 3})
	halfN := new(big.Int).Rsh(crypto.S256().Params().N, 1)
	f.Fuzz(func(t *testing.T, sig []byte) {
		out, err := auth.NormalizeSignature(sig)
		if err != nil {
			require.Equal(t, openjury.Unauthenticated, openjury.KindOf(err))
			require.NotEmpty(t, openjury.DetailOf(err))
			return
		}
		require.Len(t, out, 65)
		require.LessOrEqual(t, out[64], byte(1))
		require.LessOrEqual(t, new(big.Int).SetBytes(out[32:64]).Cmp(halfN), 0)
		require.Equal(t, sig[:64], out[:64])
	})
}

// FuzzVerify sends arbitrary signatures and nonces for an address with a
// live challenge: none signs in, every refusal is Unauthenticated (or
// Invalid naming a malformed nonce or a NUL), and the owner's signature still works
// afterwards.
func FuzzVerify(f *testing.F) {
	ctx := context.Background()
	db := openjurytest.NewDB(f)
	clk := openjurytest.NewClock()
	svc := auth.NewService(db, clk, testConfig, nil)
	owner, other := openjurytest.NewWallet(f), openjurytest.NewWallet(f)
	c, err := svc.Challenge(ctx, owner.Address().String())
	require.NoError(f, err)
	f.Add(other.Sign(f, c.Message), "")
	f.Add(other.Sign(f, c.Message), c.Nonce)
	f.Add("0x", c.Nonce)
	f.Add("zz", "")
	f.Add("0x"+hex.EncodeToString(make([]byte, 65)), "x")
	f.Fuzz(func(t *testing.T, sig, nonce string) {
		_, err := svc.Verify(ctx, auth.VerifyInput{Address: owner.Address().String(), Signature: sig, Nonce: nonce})
		require.Error(t, err)
		if openjury.KindOf(err) == openjury.Invalid {
			if strings.ContainsRune(sig+nonce, 0) {
				require.Contains(t, openjury.DetailOf(err), ": must not contain NUL characters")
				return
			}
			require.Equal(t, "nonce: must be the hex nonce of a challenge", openjury.DetailOf(err))
			return
		}
		require.Equal(t, openjury.Unauthenticated, openjury.KindOf(err), "%v", err)
	})
	// The owner's challenge survived every bad try.
	_, err = svc.Verify(ctx, auth.VerifyInput{Address: owner.Address().String(), Signature: owner.Sign(f, c.Message), Nonce: c.Nonce})
	require.NoError(f, err)
}
