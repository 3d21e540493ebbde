package client

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"math/big"
	"os"
	"strings"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
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

// TxSigner is a Signer that also signs Ethereum transactions and raw
// 32-byte digests (an EIP-712 hash such as a USDC EIP-3009
// authorization's): what the openjury command's escrow commands send with.
type TxSigner interface {
	Signer
	// SignTx signs tx for chainID.
	SignTx(tx *types.Transaction, chainID *big.Int) (*types.Transaction, error)
	// SignDigest returns the 65-byte r||s||v signature of digest, v 27 or
	// 28.
	SignDigest(digest [32]byte) ([]byte, error)
}

var _ TxSigner = (*KeySigner)(nil)

// SignTx implements TxSigner with the latest signer of chainID.
func (s *KeySigner) SignTx(tx *types.Transaction, chainID *big.Int) (*types.Transaction, error) {
	out, err := types.SignTx(tx, types.LatestSignerForChainID(chainID), s.key)
	if err != nil {
		return nil, fmt.Errorf("client: sign transaction: %w", err)
	}
	return out, nil
}

// SignDigest implements TxSigner.
func (s *KeySigner) SignDigest(digest [32]byte) ([]byte, error) {
	sig, err := crypto.Sign(digest[:], s.key)
	if err != nil {
		return nil, fmt.Errorf("client: sign: %w", err)
	}
	sig[64] += 27
	return sig, nil
}
