// Package openjurytest is OpenJury's test kit, for our own tests and for
// embedders writing domain tests against OpenJury.
//
// It offers a fake Clock that only moves when told to (Set, Advance), a
// test Wallet that signs sign-in challenges with EIP-191 personal_sign, and
// NewServer, which runs the whole HTTP service on a fresh SQLite database
// behind an httptest server, with the fake clock wired in.
package openjurytest
