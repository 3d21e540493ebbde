package client

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"os"
	"strings"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// Signer signs sign-in messages for one wallet, the way a wallet's
// personal_sign does (EIP-191). Remote and hardware signers implement it.
type Signer interface {
	// Address is the wallet's address.
	Address() common.Address
	// SignPersonal returns the 65-byte r||s||v EIP-191 signature of msg.
	SignPersonal(ctx context.Context, msg []byte) ([]byte, error)
}

// KeySigner is a Signer holding a secp256k1 private key in memory.
type KeySigner struct {
	key  *ecdsa.PrivateKey
	addr common.Address
}

// NewKeySigner returns a signer for key.
func NewKeySigner(key *ecdsa.PrivateKey) *KeySigner {
	return &KeySigner{key: key, addr: crypto.PubkeyToAddress(key.PublicKey)}
}

// KeySignerFromHex parses a hex private key (0x optional).
func KeySignerFromHex(hexKey string) (*KeySigner, error) {
	key, err := crypto.HexToECDSA(strings.TrimPrefix(strings.TrimSpace(hexKey), "0x"))
	if err != nil {
		return nil, fmt.Errorf("client: private key: %w", err)
	}
	return NewKeySigner(key), nil
}

// KeystoreSigner decrypts a go-ethereum (Web3 Secret Storage) keystore
// file with password.
func KeystoreSigner(path, password string) (*KeySigner, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("client: keystore: %w", err)
	}
	k, err := keystore.DecryptKey(data, password)
	if err != nil {
		return nil, fmt.Errorf("client: keystore %s: %w", path, err)
	}
	return NewKeySigner(k.PrivateKey), nil
}

// Address implements Signer.
func (s *KeySigner) Address() common.Address { return s.addr }

// SignPersonal implements Signer (v is 27 or 28, as wallets return it).
func (s *KeySigner) SignPersonal(_ context.Context, msg []byte) ([]byte, error) {
	sig, err := crypto.Sign(accounts.TextHash(msg), s.key)
	if err != nil {
		return nil, fmt.Errorf("client: sign: %w", err)
	}
	sig[64] += 27
	return sig, nil
}
