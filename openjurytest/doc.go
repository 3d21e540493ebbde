// Package openjurytest is OpenJury's test kit, for our own tests and for
// embedders writing domain tests against OpenJury.
//
// It offers a fake Clock that only moves when told to (Set, Advance), a
// test Wallet that signs sign-in challenges with EIP-191 personal_sign, and
// NewServer, which runs the whole service (a server.Server, the type the
// binary runs, with its web app and background work) on a fresh SQLite
// database behind an httptest server, with the fake clock wired in.
//
// Chain is a scriptable fake chain (heads, stake-vault events, stakeOf by
// block, EIP-1271 answers, anchor receipts, outages) so domain tests need
// no node; WithContractVerifier gives it (or an ethchain.Client) to
// NewServer's sign-in. Subpackage simchain runs go-ethereum's simulated
// chain with the project's contracts for adapter and end-to-end tests.
package openjurytest
