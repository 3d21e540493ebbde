package auth

import (
	"context"
	"time"

	"github.com/openjury/openjury"
)

// FreshPerAddress is how many challenges an address may have that are
// still in the first half of their life. Asking for a challenge beyond it
// returns the newest of them instead of storing another (see the package
// doc), so an address never has more than 2*FreshPerAddress live
// challenges and a verify without a nonce can try them all.
const FreshPerAddress = 8

// MaxCandidates is how many live challenges a verify without a nonce tries:
// all of an address's (2*FreshPerAddress), with room for clock skew
// between replicas.
const MaxCandidates = 2*FreshPerAddress + 4

// Challenge is an outstanding sign-in challenge.
type Challenge struct {
	Nonce     string
	Address   openjury.Address
	Message   string
	IssuedAt  time.Time
	ExpiresAt time.Time
}

// Token is an issued bearer token. Only the SHA-256 digest of the token
// (hex) is kept.
type Token struct {
	Hash      string
	Address   openjury.Address
	CreatedAt time.Time
	ExpiresAt time.Time
}

// Store keeps challenges and tokens. Every method is one transaction.
type Store interface {
	// PutChallenge stores a new challenge unconditionally. Outstanding
	// challenges of the same address are kept. Errors: Conflict for a
	// duplicate nonce.
	PutChallenge(ctx context.Context, c Challenge) error
	// IssueChallenge stores c unless c.Address already has maxFresh or more
	// challenges that expire after freshUntil; then it stores nothing and
	// returns the one of those that expires last. The check and the insert
	// are one transaction serialised per address, so concurrent calls never
	// leave more than maxFresh such challenges. It returns c when stored.
	IssueChallenge(ctx context.Context, c Challenge, freshUntil time.Time, maxFresh int) (Challenge, error)
	// LiveChallenges returns up to limit challenges of addr that are
	// unexpired at now, newest first. A non-empty nonce narrows the result
	// to that challenge.
	LiveChallenges(ctx context.Context, addr openjury.Address, nonce string, now time.Time, limit int) ([]Challenge, error)
	// RedeemChallenge atomically deletes the live challenge (addr, nonce) and
	// stores tok, in one transaction. When the challenge is gone or expired
	// (another verify won the race), it returns Unauthenticated and stores
	// nothing; a duplicate token digest is Conflict and also stores nothing.
	RedeemChallenge(ctx context.Context, addr openjury.Address, nonce string, now time.Time, tok Token) error
	// TokenOwner returns the address of the unexpired token with this digest,
	// or Unauthenticated.
	TokenOwner(ctx context.Context, hash string, now time.Time) (openjury.Address, error)
	// RevokeToken deletes the token with this digest. Revoking an unknown
	// token is not an error.
	RevokeToken(ctx context.Context, hash string) error
	// DeleteExpired removes challenges and tokens whose expiry is at or
	// before now (the ones no longer live) and returns how many rows went.
	DeleteExpired(ctx context.Context, now time.Time) (int64, error)
}

// ContractVerifier asks a contract wallet whether it approves a signature
// (EIP-1271 isValidSignature returning 0x1626ba7e). It returns false, nil
// for a plain "no"; errors are Unavailable when the chain cannot be asked.
type ContractVerifier interface {
	IsValidSignature(ctx context.Context, wallet openjury.Address, digest [32]byte, sig []byte) (bool, error)
}
