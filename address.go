package openjury

import (
	"encoding/hex"
	"strings"

	"github.com/ethereum/go-ethereum/common"
)

// Address is a 20-byte wallet or contract address in its canonical form:
// "0x" followed by 40 lowercase hex digits. The zero value means "none".
type Address string

// ParseAddress parses "0x" + 40 hex digits: all lowercase, or mixed case
// that passes the EIP-55 checksum. Anything else (a "0X" prefix, upper-case
// hex with a wrong checksum, white space) is refused. The result is
// lowercase. Errors are Invalid and name the field.
func ParseAddress(field, s string) (Address, error) {
	const op = "openjury.ParseAddress"
	if len(s) != 42 || s[:2] != "0x" || !isHex(s[2:]) {
		return "", Errorf(Invalid, op, "%s: must be 0x followed by 40 hex digits", field)
	}
	body := s[2:]
	lower := strings.ToLower(body)
	if body != lower && common.HexToAddress(s).Hex() != s {
		return "", Errorf(Invalid, op, "%s: mixed-case address fails the EIP-55 checksum", field)
	}
	return Address("0x" + lower), nil
}

// isHex reports whether s is made of hex digits only (either case).
func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') && (c < 'A' || c > 'F') {
			return false
		}
	}
	return true
}

// MustAddress parses s and panics on error; for constants and tests.
func MustAddress(s string) Address {
	a, err := ParseAddress("address", s)
	if err != nil {
		panic(err)
	}
	return a
}

// AddressFromBytes returns the canonical form of a 20-byte address.
func AddressFromBytes(b [20]byte) Address {
	return Address("0x" + hex.EncodeToString(b[:]))
}

// String returns the canonical lowercase form.
func (a Address) String() string { return string(a) }

// IsZero reports whether a is the empty ("none") address.
func (a Address) IsZero() bool { return a == "" }

// Checksum returns the EIP-55 mixed-case form, or "" for the zero value.
func (a Address) Checksum() string {
	if a == "" {
		return ""
	}
	return common.HexToAddress(string(a)).Hex()
}

// Bytes returns the 20 raw bytes.
func (a Address) Bytes() [20]byte {
	return common.HexToAddress(string(a))
}

// Hash is a 32-byte hash in canonical form: "0x" + 64 lowercase hex digits.
// The zero value means "none".
type Hash string

// ParseHash parses "0x" + 64 hex digits (any case) into lowercase form.
func ParseHash(field, s string) (Hash, error) {
	if len(s) != 66 || (s[:2] != "0x" && s[:2] != "0X") {
		return "", Errorf(Invalid, "openjury.ParseHash", "%s: must be 0x followed by 64 hex digits", field)
	}
	if !isHex(s[2:]) {
		return "", Errorf(Invalid, "openjury.ParseHash", "%s: must be 0x followed by 64 hex digits", field)
	}
	return Hash("0x" + strings.ToLower(s[2:])), nil
}

// HashFromBytes returns the canonical form of 32 raw bytes.
func HashFromBytes(b [32]byte) Hash {
	return Hash("0x" + hex.EncodeToString(b[:]))
}

// String returns the canonical form.
func (h Hash) String() string { return string(h) }

// ChainRef points at an onchain record: a transaction log on a contract.
// Every part is optional: an empty TxHash or Contract and a nil number mean
// the part is not known.
type ChainRef struct {
	TxHash      Hash
	ChainID     *int64
	Contract    Address
	BlockNumber *int64
	LogIndex    *int64
}

// IsZero reports whether no part of the reference is set.
func (r ChainRef) IsZero() bool {
	return r.TxHash == "" && r.ChainID == nil && r.Contract == "" && r.BlockNumber == nil && r.LogIndex == nil
}
