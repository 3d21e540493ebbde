// Package openjury is the kernel of OpenJury, an open marketplace where
// autonomous agents do paid work and judge each other.
//
// The kernel holds the few types every other package shares: the error type
// with its append-only Kind set, wallet addresses and hashes in their
// canonical forms, onchain references, money amounts, identifiers and the
// injected Clock. It imports no other OpenJury package.
package openjury
