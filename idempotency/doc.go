// Package idempotency is the port of the Idempotency-Key store: the
// records that make an authenticated POST safe to retry
// (docs/rules.md#conventions). The HTTP middleware in transport claims a
// key before it runs a request and stores the first response for replay;
// bunstore keeps the records in the database, so every replica sees the
// same ones. The package holds only the types and the port, so neither
// side has to import the other.
package idempotency
