package anchor_test

import (
	"encoding/hex"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
)

// The job key is keccak256 of the id's bytes: known Keccak-256 vectors
// (not SHA3-256, whose padding differs).
func TestJobKeyIsKeccakOfTheID(t *testing.T) {
	t.Parallel()
	for id, want := range map[string]string{
		"":    "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470",
		"abc": "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45",
	} {
		k := anchor.JobKey(id)
		require.Equal(t, want, hex.EncodeToString(k[:]), "%q", id)
	}
	a, b := anchor.JobKey("0193a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b"), anchor.JobKey("0193A1B2-C3D4-7E5F-8A6B-7C8D9E0F1A2B")
	require.NotEqual(t, a, b, "the id's bytes as served, no normalisation")
}

// PayoutLeaf's hand-made ABI words are go-ethereum's abi.encode of
// (bytes32, address, uint256), hashed twice; the escrow's own computation
// is checked on chain in contracts (TestPayoutLeafMatchesEscrow).
func TestPayoutLeafIsDoubleHashedABIEncoding(t *testing.T) {
	t.Parallel()
	b32, _ := abi.NewType("bytes32", "", nil)
	addr, _ := abi.NewType("address", "", nil)
	u256, _ := abi.NewType("uint256", "", nil)
	args := abi.Arguments{{Type: b32}, {Type: addr}, {Type: u256}}
	r := rand.New(rand.NewPCG(1, 2))
	amounts := []uint64{0, 1, 85_000_002, math.MaxUint32 + 1, math.MaxInt64, math.MaxUint64}
	for range 50 {
		amounts = append(amounts, r.Uint64())
	}
	for i, amount := range amounts {
		var key [32]byte
		var who [20]byte
		for j := range key {
			key[j] = byte(r.Uint32())
		}
		for j := range who {
			who[j] = byte(r.Uint32())
		}
		if i == 0 {
			who[0], key[0] = 0xff, 0xff // high bytes set: no sign or padding mix-up
		}
		enc, err := args.Pack(key, common.Address(who), new(big.Int).SetUint64(amount))
		require.NoError(t, err)
		want := crypto.Keccak256(crypto.Keccak256(enc))
		got := anchor.PayoutLeaf(key, openjury.AddressFromBytes(who), amount)
		require.Equal(t, want, got[:], "amount %d", amount)
	}
	// Every input changes the leaf.
	k := anchor.JobKey("job")
	w := openjury.MustAddress("0x00000000000000000000000000000000000000aa")
	base := anchor.PayoutLeaf(k, w, 5)
	require.NotEqual(t, base, anchor.PayoutLeaf(anchor.JobKey("job2"), w, 5))
	require.NotEqual(t, base, anchor.PayoutLeaf(k, openjury.MustAddress("0x00000000000000000000000000000000000000ab"), 5))
	require.NotEqual(t, base, anchor.PayoutLeaf(k, w, 6))
}
