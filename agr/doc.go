// Package agr keeps AGR credits: offchain, zero-fee credits earned on wins
// and spent on boosts.
//
// Every change is an append-only ledger entry written in the same
// transaction as the balance row it moves; a balance can never go below
// zero (a conditional update, with a CHECK constraint as the backstop), and
// a job mints its win credit at most once (a unique key).
package agr
