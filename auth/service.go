package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/internal/valid"
)

// Statement is the human-readable line of every sign-in message.
const Statement = "Sign in to OpenJury as this agent."

// maxSignatureBytes bounds a signature handed to a contract wallet.
const maxSignatureBytes = 4096

// VerifyTimeout is the one deadline of a whole verify
// (docs/rules.md#sign-in): a contract wallet's node that does not answer
// within it makes the verify answer Unavailable instead of holding the
// request.
const VerifyTimeout = 5 * time.Second

// Config holds the sign-in settings.
type Config struct {
	// Domain is the EIP-4361 domain: the host (and port) of the base URL.
	Domain string
	// URI is the EIP-4361 URI: the service's base URL.
	URI string
	// ChainID is the EIP-4361 chain id.
	ChainID int64
	// ChallengeTTL is how long a challenge may be answered.
	ChallengeTTL time.Duration
	// TokenTTL is how long an issued bearer token is valid.
	TokenTTL time.Duration
}

// Service issues challenges, verifies signatures and manages tokens.
type Service struct {
	store    Store
	clock    openjury.Clock
	cfg      Config
	verifier ContractVerifier
	rand     io.Reader
}

// NewService returns a Service. verifier may be nil, which turns EIP-1271
// contract-wallet sign-in off.
func NewService(store Store, clock openjury.Clock, cfg Config, verifier ContractVerifier) *Service {
	return &Service{store: store, clock: clock, cfg: cfg, verifier: verifier, rand: rand.Reader}
}

// Config returns the service's settings.
func (s *Service) Config() Config { return s.cfg }

// Challenge returns a challenge for the address given as text: a new one,
// or, when the address already has FreshPerAddress challenges with more
// than half their life left, the newest of those (see the package doc).
// Errors: Invalid for a malformed address (white space around it
// included: addresses are never trimmed).
func (s *Service) Challenge(ctx context.Context, address string) (Challenge, error) {
	const op = "auth.Challenge"
	addr, err := openjury.ParseAddress("address", address)
	if err != nil {
		return Challenge{}, openjury.Wrap(op, err)
	}
	nonceBytes := make([]byte, 16)
	if _, err := io.ReadFull(s.rand, nonceBytes); err != nil {
		return Challenge{}, openjury.Wrap(op, err)
	}
	now := openjury.Truncate(s.clock.Now())
	c := Challenge{
		Nonce:     hex.EncodeToString(nonceBytes),
		Address:   addr,
		IssuedAt:  now,
		ExpiresAt: now.Add(s.cfg.ChallengeTTL),
	}
	c.Message = s.Message(c)
	c, err = s.store.IssueChallenge(ctx, c, now.Add(s.cfg.ChallengeTTL/2), FreshPerAddress)
	if err != nil {
		return Challenge{}, openjury.Wrap(op, err)
	}
	return c, nil
}

// Message renders the EIP-4361 message of a challenge.
func (s *Service) Message(c Challenge) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s wants you to sign in with your Ethereum account:\n", s.cfg.Domain)
	fmt.Fprintf(&b, "%s\n\n", c.Address.Checksum())
	fmt.Fprintf(&b, "%s\n\n", Statement)
	fmt.Fprintf(&b, "URI: %s\n", s.cfg.URI)
	b.WriteString("Version: 1\n")
	fmt.Fprintf(&b, "Chain ID: %d\n", s.cfg.ChainID)
	fmt.Fprintf(&b, "Nonce: %s\n", c.Nonce)
	fmt.Fprintf(&b, "Issued At: %s\n", openjury.FormatTime(c.IssuedAt))
	fmt.Fprintf(&b, "Expiration Time: %s", openjury.FormatTime(c.ExpiresAt))
	return b.String()
}

// VerifyInput is a verify request: the address, its signature over a
// challenge message and, optionally, the nonce of that challenge.
type VerifyInput struct {
	Address   string `name:"address"`
	Signature string `name:"signature"`
	Nonce     string `name:"nonce"`
}

// Verify checks a signature against the address's live challenges and, on
// success, consumes the matching challenge and returns a new bearer token.
// A plain (EOA) signature is recovered against each live challenge, the
// one named by in.Nonce or up to MaxCandidates of them (cheap, local);
// when none recovers to the address and contract wallets are on, the
// wallet is asked once (EIP-1271), about the challenge named by in.Nonce
// or else the newest live one: whatever the number of challenges, a
// verify makes at most one contract call. The whole verify has one
// deadline, VerifyTimeout.
// Errors: Invalid for a malformed address or nonce (or a NUL in the
// signature), Unauthenticated when the signature is malformed or does not
// verify or the challenge is gone, Unavailable when a contract wallet
// cannot be asked in time.
func (s *Service) Verify(ctx context.Context, in VerifyInput) (string, error) {
	const op = "auth.Verify"
	ctx, cancel := context.WithTimeout(ctx, VerifyTimeout)
	defer cancel()
	if err := valid.Struct(op, in); err != nil {
		return "", err
	}
	addr, err := openjury.ParseAddress("address", in.Address)
	if err != nil {
		return "", openjury.Wrap(op, err)
	}
	// A signature that cannot even be decoded does not verify: 401, like
	// any other bad signature (the spec's only verify failure).
	raw, err := decodeHex(in.Signature)
	if err != nil || len(raw) == 0 || len(raw) > maxSignatureBytes {
		return "", openjury.E(openjury.Unauthenticated, op, "signature: must be a hex string (0x optional)")
	}
	nonce := strings.TrimSpace(in.Nonce)
	if nonce != "" && !validNonce(nonce) {
		return "", openjury.E(openjury.Invalid, op, "nonce: must be the hex nonce of a challenge")
	}
	now := openjury.Truncate(s.clock.Now())
	// Only a redeem changes a challenge: failures are not counted, so no
	// request of another party can retire the owner's challenge.
	candidates, err := s.store.LiveChallenges(ctx, addr, nonce, now, MaxCandidates)
	if err != nil {
		return "", openjury.Wrap(op, err)
	}
	if len(candidates) == 0 {
		return "", openjury.E(openjury.Unauthenticated, op, "no live challenge for this address: request a new one")
	}
	eoaSig, sigErr := NormalizeSignature(raw)
	var match *Challenge
	for i := range candidates {
		c := &candidates[i]
		if sigErr == nil && recoversTo(c.Message, eoaSig, addr) {
			match = c
			break
		}
	}
	if match == nil && s.verifier != nil {
		// One call at most: the named challenge, else the newest
		// (LiveChallenges answers newest first).
		c := &candidates[0]
		var digest [32]byte
		copy(digest[:], accounts.TextHash([]byte(c.Message)))
		ok, err := s.verifier.IsValidSignature(ctx, addr, digest, raw)
		if err != nil {
			return "", openjury.Wrap(op, err)
		}
		if ok {
			match = c
		}
	}
	if match == nil {
		if sigErr != nil && s.verifier == nil {
			return "", openjury.Wrap(op, sigErr)
		}
		return "", openjury.E(openjury.Unauthenticated, op, "signature does not verify for this address")
	}
	token, tok, err := s.newToken(addr, now)
	if err != nil {
		return "", openjury.Wrap(op, err)
	}
	if err := s.store.RedeemChallenge(ctx, addr, match.Nonce, now, tok); err != nil {
		return "", openjury.Wrap(op, err)
	}
	return token, nil
}

// Authenticate returns the address that owns a live bearer token.
// Errors: Unauthenticated.
func (s *Service) Authenticate(ctx context.Context, token string) (openjury.Address, error) {
	const op = "auth.Authenticate"
	if token == "" {
		return "", openjury.E(openjury.Unauthenticated, op, "missing bearer token")
	}
	addr, err := s.store.TokenOwner(ctx, HashToken(token), openjury.Truncate(s.clock.Now()))
	if err != nil {
		return "", openjury.Wrap(op, err)
	}
	return addr, nil
}

// Logout revokes a bearer token. Revoking twice is not an error.
func (s *Service) Logout(ctx context.Context, token string) error {
	return openjury.Wrap("auth.Logout", s.store.RevokeToken(ctx, HashToken(token)))
}

// Cleanup deletes expired challenges and tokens; hosts call it periodically.
func (s *Service) Cleanup(ctx context.Context) (int64, error) {
	n, err := s.store.DeleteExpired(ctx, openjury.Truncate(s.clock.Now()))
	return n, openjury.Wrap("auth.Cleanup", err)
}

func (s *Service) newToken(addr openjury.Address, now time.Time) (string, Token, error) {
	b := make([]byte, 32)
	if _, err := io.ReadFull(s.rand, b); err != nil {
		return "", Token{}, err
	}
	token := base64.RawURLEncoding.EncodeToString(b)
	return token, Token{Hash: HashToken(token), Address: addr, CreatedAt: now, ExpiresAt: now.Add(s.cfg.TokenTTL)}, nil
}

// HashToken returns the stored form of a bearer token: hex SHA-256.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

var secp256k1HalfN = new(big.Int).Rsh(crypto.S256().Params().N, 1)

// NormalizeSignature checks a 65-byte r||s||v signature and returns a copy
// with v as 0 or 1. It accepts v of 0, 1, 27 or 28 and rejects high-s
// (malleable) signatures. Errors are Unauthenticated.
func NormalizeSignature(sig []byte) ([]byte, error) {
	const op = "auth.NormalizeSignature"
	if len(sig) != 65 {
		return nil, openjury.E(openjury.Unauthenticated, op, "signature must be 65 bytes")
	}
	out := make([]byte, 65)
	copy(out, sig)
	switch out[64] {
	case 0, 1:
	case 27, 28:
		out[64] -= 27
	default:
		return nil, openjury.E(openjury.Unauthenticated, op, "signature v must be 0, 1, 27 or 28")
	}
	sVal := new(big.Int).SetBytes(out[32:64])
	if sVal.Cmp(secp256k1HalfN) > 0 {
		return nil, openjury.E(openjury.Unauthenticated, op, "signature s value is too high (malleable signature)")
	}
	if !crypto.ValidateSignatureValues(out[64], new(big.Int).SetBytes(out[:32]), sVal, true) {
		return nil, openjury.E(openjury.Unauthenticated, op, "signature values are out of range")
	}
	return out, nil
}

// recoversTo reports whether sig (normalised) over the EIP-191 digest of
// msg recovers to addr.
func recoversTo(msg string, sig []byte, addr openjury.Address) bool {
	pub, err := crypto.SigToPub(accounts.TextHash([]byte(msg)), sig)
	if err != nil {
		return false
	}
	return openjury.AddressFromBytes(crypto.PubkeyToAddress(*pub)) == addr
}

// validNonce reports whether s can be a challenge nonce: hex digits, at
// most 64 (issued nonces have 32).
func validNonce(s string) bool {
	if len(s) > 64 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

func decodeHex(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X")
	return hex.DecodeString(s)
}
