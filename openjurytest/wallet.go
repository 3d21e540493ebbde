package openjurytest

import (
	"crypto/ecdsa"
	"encoding/hex"
	"testing"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/openjury/openjury"
)

// Wallet is an externally owned account for tests: a fresh secp256k1 key
// that signs messages the way wallets do (EIP-191 personal_sign).
type Wallet struct {
	key     *ecdsa.PrivateKey
	address openjury.Address
}

// NewWallet returns a wallet with a new random key.
func NewWallet(tb testing.TB) *Wallet {
	tb.Helper()
	key, err := crypto.GenerateKey()
	if err != nil {
		tb.Fatalf("openjurytest: generate key: %v", err)
	}
	return &Wallet{key: key, address: openjury.AddressFromBytes(crypto.PubkeyToAddress(key.PublicKey))}
}

// Address returns the wallet's address in canonical (lowercase) form.
func (w *Wallet) Address() openjury.Address { return w.address }

// SignBytes returns the 65-byte r||s||v personal_sign signature of msg with
// v as 27 or 28, as wallets return it.
func (w *Wallet) SignBytes(tb testing.TB, msg string) []byte {
	tb.Helper()
	sig, err := crypto.Sign(accounts.TextHash([]byte(msg)), w.key)
	if err != nil {
		tb.Fatalf("openjurytest: sign: %v", err)
	}
	sig[64] += 27
	return sig
}

// Sign returns the personal_sign signature of msg as 0x-prefixed hex.
func (w *Wallet) Sign(tb testing.TB, msg string) string {
	tb.Helper()
	return "0x" + hex.EncodeToString(w.SignBytes(tb, msg))
}

// WalletFromKey returns the wallet of an existing key (for example a
// funded account of a simulated chain).
func WalletFromKey(key *ecdsa.PrivateKey) *Wallet {
	return &Wallet{key: key, address: openjury.AddressFromBytes(crypto.PubkeyToAddress(key.PublicKey))}
}
