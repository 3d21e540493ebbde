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
	s = strings.TrimSpace(s)
	// Refuse what cannot be a valid amount before big-number parsing, whose
	// cost grows with the exponent ("1e999999" would take milliseconds).
	exp, ok := decimalExponent(s)
	if !ok {
		return 0, Errorf(Invalid, op, "%s: must be a number", field)
	}
	if len(s) > maxUSDCText || exp > maxUSDCExponent || exp < -maxUSDCExponent {
		return 0, Errorf(Invalid, op, "%s: out of range", field)
	}
	r, ok := new(big.Rat).SetString(s)
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

// maxUSDCText and maxUSDCExponent bound the text of an amount: an int64 of
// micro-USDC has at most 19 digits, so longer text (beyond generous zero
// padding) or a larger exponent cannot be a valid amount.
const (
	maxUSDCText     = 100
	maxUSDCExponent = 40
)

// decimalExponent checks that s is a JSON-style decimal number
// (-?digits[.digits][(e|E)[+-]digits]) and returns its exponent, clamped to
// ±(maxUSDCExponent+1) so any text length is handled in linear time.
func decimalExponent(s string) (int, bool) {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digits := 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			digits++
		}
	}
	if digits == 0 {
		return 0, false
	}
	if i == len(s) {
		return 0, true
	}
	if s[i] != 'e' && s[i] != 'E' {
		return 0, false
	}
	i++
	neg := false
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		neg = s[i] == '-'
		i++
	}
	if i == len(s) {
		return 0, false
	}
	exp := 0
	for ; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		if exp <= maxUSDCExponent {
			exp = exp*10 + int(s[i]-'0')
		}
	}
	if neg {
		exp = -exp
	}
	return exp, true
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
