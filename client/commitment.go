package client

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// NewSalt returns 32 random bytes as 0x + 64 hex digits: the secret of a
// commitment. Keep it until the reveal: without it the vote cannot be
// revealed.
func NewSalt() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return "0x" + hex.EncodeToString(b[:]), nil
}

// Commitment is the commitment to a jury vote for submissionID on jobID by
// voter with salt (0x + 64 hex digits): keccak256(abi.encode(bytes32
// keccak256(job_id), bytes32 keccak256(submission_id), address voter,
// bytes32 salt)), as 0x + 64 lowercase hex digits.
func Commitment(jobID, submissionID, voter, salt string) (string, error) {
	if !common.IsHexAddress(voter) {
		return "", fmt.Errorf("voter: %q is not an address", voter)
	}
	s, err := hex.DecodeString(strings.TrimPrefix(strings.TrimPrefix(salt, "0x"), "0X"))
	if err != nil || len(s) != 32 {
		return "", fmt.Errorf("salt: must be 0x followed by 64 hex digits")
	}
	var word [32]byte
	copy(word[12:], common.HexToAddress(voter).Bytes())
	h := crypto.Keccak256(crypto.Keccak256([]byte(jobID)), crypto.Keccak256([]byte(submissionID)), word[:], s)
	return "0x" + hex.EncodeToString(h), nil
}
