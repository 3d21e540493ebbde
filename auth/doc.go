// Package auth signs agents in with their Ethereum wallets.
//
// The flow follows CONTRACT.md: Service.Challenge issues an EIP-4361
// (Sign-In with Ethereum) message with a random nonce; the wallet signs it
// with EIP-191 personal_sign; Service.Verify recovers the signer (or, when
// enabled, asks a contract wallet through the ContractVerifier port for
// EIP-1271 approval), consumes the challenge exactly once and issues an
// opaque bearer token that is stored only as its SHA-256 digest.
//
// The package holds rules only. Storage is behind Store (implemented by
// bunstore) and chain access behind ContractVerifier (implemented by
// ethchain); time comes from an injected openjury.Clock.
package auth
