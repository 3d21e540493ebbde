package openjury_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
)

func TestParseAddress(t *testing.T) {
	t.Parallel()
	const lower = "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"
	cases := []struct {
		in   string
		want openjury.Address
		ok   bool
	}{
		{lower, lower, true},
		{"0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED", "", false}, // upper case: checksum fails
		{"0X5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", "", false}, // 0X prefix
		{"0X5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "", false},
		{" 0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", "", false},
		{"0x5aaeb6053f3e94c9b9a09f33669435e7ef1beae ", "", false},
		{"0x+aaeb6053f3e94c9b9a09f33669435e7ef1beaed", "", false},
		{"0x1234567890123456789012345678901234567890", "0x1234567890123456789012345678901234567890", true}, // digits only
		{"0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359", "0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359", true}, // EIP-55 vector
		{"0xFB6916095CA1DF60BB79CE92CE3EA74C37C5D359", "", false},
		{"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", lower, true}, // EIP-55 test vector
		{"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD", "", false},   // one letter flipped
		{"5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", "", false},
		{"0x5aaeb6053f3e94c9b9a09f33669435e7ef1beae", "", false},
		{"0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaedd", "", false},
		{"0xzaaeb6053f3e94c9b9a09f33669435e7ef1beaed", "", false},
		{"", "", false},
	}
	for _, tc := range cases {
		got, err := openjury.ParseAddress("address", tc.in)
		if !tc.ok {
			require.Error(t, err, tc.in)
			require.Equal(t, openjury.Invalid, openjury.KindOf(err))
			require.Contains(t, openjury.DetailOf(err), "address:")
			continue
		}
		require.NoError(t, err, tc.in)
		require.Equal(t, tc.want, got)
	}
	require.Equal(t, "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", openjury.Address(lower).Checksum())
}

func TestParseHash(t *testing.T) {
	t.Parallel()
	h, err := openjury.ParseHash("tx", "0xABCDEF0000000000000000000000000000000000000000000000000000000001")
	require.NoError(t, err)
	require.Equal(t, openjury.Hash("0xabcdef0000000000000000000000000000000000000000000000000000000001"), h)
	for _, bad := range []string{"0x12", "abcdef0000000000000000000000000000000000000000000000000000000001", "0xg" + fmt.Sprintf("%063d", 0)} {
		_, err := openjury.ParseHash("tx", bad)
		require.Equal(t, openjury.Invalid, openjury.KindOf(err), bad)
	}
}

func TestUSDC(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		want openjury.MicroUSDC
		str  string
		ok   bool
	}{
		{"0", 0, "0", true},
		{"12.5", 12_500_000, "12.5", true},
		{"0.000001", 1, "0.000001", true},
		{"1e3", 1_000_000_000, "1000", true},
		{"-1.25", -1_250_000, "-1.25", true},
		{"0.0000001", 0, "", false},
		{"abc", 0, "", false},
		{"1e30", 0, "", false},
		{"1e999999", 0, "", false},
		{"1e-999999", 0, "", false},
		{"1E+2", 100_000_000, "100", true},
		{"2.5e-6", 0, "", false},
		{"2.5e-1", 250_000, "0.25", true},
		{"0x10", 0, "", false},
		{"1/2", 0, "", false},
		{"Inf", 0, "", false},
		{".5", 500_000, "0.5", true},
		{"1e", 0, "", false},
		{"", 0, "", false},
		{"1" + strings.Repeat("0", 200), 0, "", false},
	}
	for _, tc := range cases {
		got, err := openjury.ParseUSDC("bounty_usdc", tc.in)
		if !tc.ok {
			require.Equal(t, openjury.Invalid, openjury.KindOf(err), tc.in)
			continue
		}
		require.NoError(t, err, tc.in)
		require.Equal(t, tc.want, got)
		require.Equal(t, tc.str, got.String())
	}
}

func TestErrors(t *testing.T) {
	t.Parallel()
	cause := errors.New("disk on fire")
	err := openjury.Wrap("store.Put", cause)
	require.Equal(t, openjury.Internal, openjury.KindOf(err))
	require.Equal(t, "", openjury.DetailOf(err), "internal causes are never details")
	require.ErrorIs(t, err, cause)

	nf := openjury.E(openjury.NotFound, "", "job not found")
	wrapped := fmt.Errorf("outer: %w", openjury.Wrap("svc.Get", nf))
	require.Equal(t, openjury.NotFound, openjury.KindOf(wrapped))
	require.Equal(t, "job not found", openjury.DetailOf(wrapped))
	require.Equal(t, "svc.Get: not_found: job not found", openjury.Wrap("svc.Get", nf).Error())
	require.Nil(t, openjury.Wrap("x", nil))
	require.True(t, openjury.IsKind(nf, openjury.NotFound))
	require.Equal(t, "unavailable", openjury.Unavailable.String())
	require.Equal(t, "gone", openjury.Gone.String())
	require.Equal(t, "kind(200)", openjury.Kind(200).String())
}

func TestTimeAndIDs(t *testing.T) {
	t.Parallel()
	ts := time.Date(2026, 11, 21, 10, 4, 5, 123456789, time.FixedZone("x", 3600))
	require.Equal(t, "2026-11-21T09:04:05.123Z", openjury.FormatTime(ts))
	require.Equal(t, 123000000, openjury.Truncate(ts).Nanosecond())
	a, b := openjury.NewID(), openjury.NewID()
	require.True(t, openjury.ValidID(a))
	require.NotEqual(t, a, b)
	require.False(t, openjury.ValidID("not-an-id"))
	require.True(t, (openjury.SystemClock{}).Now().Location() == time.UTC)
}
