// Package auth signs agents in with their Ethereum wallets.
//
// The flow follows docs/rules.md#sign-in: Service.Challenge issues an EIP-4361
// (Sign-In with Ethereum) message with a random nonce; the wallet signs it
// with EIP-191 personal_sign; Service.Verify recovers the signer (or, when
// enabled, asks a contract wallet through the ContractVerifier port for
// EIP-1271 approval), consumes the challenge exactly once and issues an
// opaque bearer token that is stored only as its SHA-256 digest.
//
// # No lock-out
//
// Nobody but a wallet's owner may stop that wallet from signing in
// (docs/rules.md#sign-in). Anyone can ask for challenges for any address and
// send any number of bad verifies, so:
//
//   - Only a successful verify changes a challenge (it consumes it).
//     Failures are not counted: a counter that retires a challenge is a
//     switch anyone can flip. Guessing a signature is not a threat that
//     counting would need to slow down.
//   - A verify with a nonce looks at that one challenge only, so nothing
//     done to other challenges matters to it.
//   - A verify without a nonce tries a plain signature against the
//     address's newest MaxCandidates live challenges, which are all of
//     them: an address never has more than 2*FreshPerAddress live
//     challenges (below), so a flood cannot push the owner's challenge out
//     of the tried set. A contract wallet is asked (one chain call) about
//     one challenge only: the named one, else the newest; so a bad
//     signature costs one call however many challenges are live, and a
//     contract wallet's client names its nonce.
//   - Storage per address is bounded without eviction. A challenge is
//     "fresh" while more than half its TTL is left. When the address
//     already has FreshPerAddress fresh challenges, Challenge returns the
//     newest of them instead of storing a new one. Handing a challenge that
//     another party asked for to the owner is safe: a challenge is public
//     (only the owner's signature makes it worth anything), and the one
//     returned has at least half its TTL left, so the owner is never
//     delayed. Fresh challenges of one address number at most
//     FreshPerAddress at any moment and live ones at most twice that; the
//     store enforces the count per address in one serialised transaction,
//     so replicas racing cannot exceed it.
//   - Expired challenges are deleted by Cleanup, which hosts run
//     periodically. What an attacker makes the database hold is thus at
//     most 2*FreshPerAddress rows per address it names, and the number of
//     addresses it can name per TTL is bounded by the per-client request
//     limit of the transport in front of the service (challenge requests
//     per client IP per minute times the TTL in minutes).
//
// Each verify has one deadline, VerifyTimeout (docs/rules.md#sign-in).
//
// The package holds rules only. Storage is behind Store (implemented by
// bunstore) and chain access behind ContractVerifier (implemented by
// ethchain); time comes from an injected openjury.Clock.
package auth
