package anchor

import (
	"encoding/binary"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/openjury/openjury"
)

// JobKey returns the bounty escrow's key of a job: keccak256 of the job id's
// bytes, the UUID string exactly as served (docs/onchain.md). The escrow
// keeps one slot per (job key, sponsor).
func JobKey(jobID string) [32]byte {
	return [32]byte(crypto.Keccak256([]byte(jobID)))
}

// PayoutLeaf returns the Merkle leaf of a payout record, the one rule that
// is not the JSON leaf rule (docs/onchain.md): keccak256(keccak256(
// abi.encode(jobKey, recipient, amount))), so that the escrow's claim can
// check it with OpenZeppelin's MerkleProof. abi.encode of (bytes32,
// address, uint256) is three 32-byte words: the key, the address
// left-padded with zeros, the amount big-endian left-padded with zeros.
// amountMicroUSDC is unsigned so that no negative amount can be encoded.
func PayoutLeaf(jobKey [32]byte, recipient openjury.Address, amountMicroUSDC uint64) Node {
	var words [3 * 32]byte
	copy(words[:32], jobKey[:])
	addr := recipient.Bytes()
	copy(words[32+12:64], addr[:])
	binary.BigEndian.PutUint64(words[96-8:], amountMicroUSDC)
	return Leaf(words[:])
}
