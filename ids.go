package openjury

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/google/uuid"
)

// NewID returns a new UUIDv7 string: time-ordered and index friendly.
func NewID() string {
	return uuid.Must(uuid.NewV7()).String()
}

// ValidID reports whether s has the form of an ID (a UUID in canonical text).
func ValidID(s string) bool {
	if len(s) != 36 {
		return false
	}
	_, err := uuid.Parse(s)
	return err == nil
}

// MicroUSDC is an amount of USDC in millionths (USDC has 6 decimals).
type MicroUSDC int64

// MicroPerUSDC is the number of micro-USDC in one USDC.
const MicroPerUSDC = 1_000_000

// ParseUSDC parses a decimal number of USDC with at most 6 decimals (as
// written in JSON, e.g. "12.5" or "1e3") into micro-USDC, exactly.
func ParseUSDC(field, s string) (MicroUSDC, error) {
	const op = "openjury.ParseUSDC"
	r, ok := new(big.Rat).SetString(strings.TrimSpace(s))
	if !ok {
		return 0, Errorf(Invalid, op, "%s: must be a number", field)
	}
	r.Mul(r, big.NewRat(MicroPerUSDC, 1))
	if !r.IsInt() {
		return 0, Errorf(Invalid, op, "%s: at most 6 decimals allowed", field)
	}
	n := r.Num()
	if !n.IsInt64() {
		return 0, Errorf(Invalid, op, "%s: out of range", field)
	}
	return MicroUSDC(n.Int64()), nil
}

// String formats the amount as a decimal number of USDC without trailing
// zeros, e.g. "12.5".
func (m MicroUSDC) String() string {
	sign := ""
	v := int64(m)
	if v < 0 {
		sign, v = "-", -v
	}
	whole, frac := v/MicroPerUSDC, v%MicroPerUSDC
	if frac == 0 {
		return fmt.Sprintf("%s%d", sign, whole)
	}
	return strings.TrimRight(fmt.Sprintf("%s%d.%06d", sign, whole, frac), "0")
}
