package idempotency

import (
	"context"
	"time"

	"github.com/openjury/openjury"
)

// TTL is how long the first response to an Idempotency-Key is kept and
// replayed.
const TTL = 24 * time.Hour

// Lease is how long a request's claim on its Idempotency-Key holds while
// it runs. A request that crashed leaves its claim behind; after the
// lease the key can be claimed again, so it never blocks retries for
// longer.
const Lease = time.Minute

// Key names one stored response: the caller and the request's method,
// path and Idempotency-Key header.
type Key struct {
	Caller openjury.Address
	Method string
	Path   string
	Key    string
}

// Record is the state of an Idempotency-Key: claimed by a request still
// running (Status 0) or holding its first response.
type Record struct {
	// Fingerprint is the SHA-256 (hex) of the first request's body.
	Fingerprint string
	// Status, ContentType and Body are the stored response; Status is 0
	// while the first request is in flight.
	Status      int
	ContentType string
	Body        []byte
}

// Store keeps Idempotency-Key records in the database, so every replica
// sees the same ones. Each method is atomic. The method names carry the
// word IdempotencyKey because one adapter value (bunstore.DB) implements
// several ports side by side.
type Store interface {
	// ClaimIdempotencyKey claims k for a request with the given body
	// fingerprint, marking it in flight under the claim token owner until
	// leaseUntil and keeping it until expiresAt. It succeeds (true) when k
	// has no record, or its record expired at now, or its in-flight claim's
	// lease ended at now. Otherwise it returns the record as it is (false).
	ClaimIdempotencyKey(ctx context.Context, k Key, fingerprint, owner string, now, leaseUntil, expiresAt time.Time) (Record, bool, error)
	// CompleteIdempotencyKey stores the response of the claim owner holds
	// on k. A claim that was taken over in the meantime is left alone.
	CompleteIdempotencyKey(ctx context.Context, k Key, owner string, resp Record) error
	// ReleaseIdempotencyKey deletes the claim owner holds on k, so the
	// next request with k runs again.
	ReleaseIdempotencyKey(ctx context.Context, k Key, owner string) error
	// DeleteExpiredIdempotencyKeys deletes the records that expire at or
	// before now and returns how many went.
	DeleteExpiredIdempotencyKeys(ctx context.Context, now time.Time) (int64, error)
}
