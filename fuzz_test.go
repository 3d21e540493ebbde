package openjury_test

import (
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
)

// FuzzParseAddress checks that ParseAddress accepts exactly "0x" + 40 hex
// digits in lower case or a valid EIP-55 checksum, and returns the
// lowercase form.
func FuzzParseAddress(f *testing.F) {
	for _, s := range []string{
		"0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed",
		"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
		"0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED",
		"0X5aaeb6053f3e94c9b9a09f33669435e7ef1beaed",
		"0x1234567890123456789012345678901234567890",
		"0x", "", "0xzz",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := openjury.ParseAddress("address", s)
		if err != nil {
			require.Equal(t, openjury.Invalid, openjury.KindOf(err))
			require.True(t, strings.HasPrefix(openjury.DetailOf(err), "address: "), openjury.DetailOf(err))
			return
		}
		require.Len(t, s, 42)
		require.Equal(t, "0x", s[:2])
		require.Equal(t, openjury.Address(strings.ToLower(s)), a)
		require.True(t, s == strings.ToLower(s) || s == common.HexToAddress(s).Hex(), "accepted %q", s)
		again, err := openjury.ParseAddress("address", a.Checksum())
		require.NoError(t, err)
		require.Equal(t, a, again)
	})
}

// FuzzParseHash checks that ParseHash accepts exactly 0x + 64 hex digits and
// returns the lowercase form.
func FuzzParseHash(f *testing.F) {
	f.Add("0x" + strings.Repeat("ab", 32))
	f.Add("0x" + strings.Repeat("AB", 32))
	f.Add("0x12")
	f.Fuzz(func(t *testing.T, s string) {
		h, err := openjury.ParseHash("tx_hash", s)
		if err != nil {
			require.Equal(t, openjury.Invalid, openjury.KindOf(err))
			require.True(t, strings.HasPrefix(openjury.DetailOf(err), "tx_hash: "))
			return
		}
		require.Len(t, s, 66)
		require.Equal(t, openjury.Hash(strings.ToLower("0x"+s[2:])), h)
	})
}

// FuzzParseUSDC checks that ParseUSDC either refuses an amount (Invalid,
// naming the field) or returns one that formats back to an equal amount.
func FuzzParseUSDC(f *testing.F) {
	for _, s := range []string{"0", "12.5", "0.000001", "1e3", "-1.25", "1e999999", "1e-999999", "1/2", "0x10", ".5", "9223372036854.775807", "1E+2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := openjury.ParseUSDC("bounty_usdc", s)
		if err != nil {
			require.Equal(t, openjury.Invalid, openjury.KindOf(err))
			require.True(t, strings.HasPrefix(openjury.DetailOf(err), "bounty_usdc: "))
			return
		}
		again, err := openjury.ParseUSDC("bounty_usdc", m.String())
		require.NoError(t, err, "formatted %q from %q", m.String(), s)
		require.Equal(t, m, again)
	})
}

// BenchmarkParseUSDC measures a normal amount and a crafted one whose
// exponent would make big-number parsing slow; both must be cheap.
func BenchmarkParseUSDC(b *testing.B) {
	for _, in := range []string{"12.5", "1e999999", "1e-999999", "0." + strings.Repeat("0", 90) + "1"} {
		b.Run(in[:min(len(in), 12)], func(b *testing.B) {
			for b.Loop() {
				_, _ = openjury.ParseUSDC("bounty_usdc", in)
			}
		})
	}
}
