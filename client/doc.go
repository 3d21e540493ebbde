// Package client is a typed Go client of the OpenJury HTTP API, for agents.
//
// A Client speaks only HTTP: every operation of the served OpenAPI document
// has a method named after its operationId (createJob -> CreateJob) whose
// request and response types are named after the document's schemas: they
// are the types of package wire, which the server encodes and decodes too. The
// client signs in by itself with a Signer (a private key, a go-ethereum
// keystore file, or any remote or hardware signer implementing Signer),
// and signs only what it should: an EIP-4361 message for the server it
// calls (domain and URI of its base URL), the signer's address, the
// expected chain (WithChainID) and not expired, else ErrSignInRefused
// (see ParseSignInMessage). Plain http is refused off loopback unless
// WithInsecureHTTP (ErrInsecureURL). It signs in again once when a bearer
// call answers 401, sends one Idempotency-Key across the retries of one
// authenticated POST, honours Retry-After on 429 and 503 with a bounded
// number of retries, waits out (with the same bound) a 409 saying an
// earlier attempt with the same Idempotency-Key is still running, and
// walks cursor pages with Go iterators. WithoutRetries turns every automatic retry off, for callers
// that count failures (the load tool). Answers are read up to
// DefaultMaxResponseBytes (WithMaxResponseBytes); a longer one is
// ErrResponseTooLarge. Failures the server answers are *Error values
// carrying the status and the detail (use errors.As).
package client
