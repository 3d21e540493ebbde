package storetest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/idempotency"
)

// IdempotencyBackend is a Backend that also keeps Idempotency-Key
// records. The Idempotency tests skip backends without it.
type IdempotencyBackend interface {
	idempotency.Store
}

func (s *suite) idempotencyTests() []test {
	return []test{
		{name: "ClaimCompleteReplay", run: testIdemClaimComplete},
		{name: "KeysAreSeparate", run: testIdemKeysSeparate},
		{name: "LeaseAndExpiryFreeTheKey", run: testIdemLease},
		{name: "OnlyTheOwnerCompletesOrReleases", run: testIdemOwner},
		{name: "DeleteExpired", run: testIdemDeleteExpired},
		{name: "ConcurrentClaimsOneWinner", run: testIdemClaimRace},
	}
}

// idemStoreOf returns b's idempotency store, or skips the test.
func idemStoreOf(t *testing.T, b Backend) idempotency.Store {
	t.Helper()
	ib, ok := b.(IdempotencyBackend)
	if !ok {
		t.Skip("the backend has no idempotency store")
	}
	return ib
}

// idemKey is alice's POST /api/v1/jobs with Idempotency-Key key.
func idemKey(key string) idempotency.Key {
	return idempotency.Key{Caller: alice, Method: "POST", Path: "/api/v1/jobs", Key: key}
}

// claimIdem claims k at now with the standard lease and TTL.
func claimIdem(t *testing.T, s idempotency.Store, k idempotency.Key, fingerprint, owner string, now time.Time) (idempotency.Record, bool) {
	t.Helper()
	rec, ok, err := s.ClaimIdempotencyKey(context.Background(), k, fingerprint, owner, now, now.Add(idempotency.Lease), now.Add(idempotency.TTL))
	require.NoError(t, err)
	return rec, ok
}

// testIdemClaimComplete: the first claim of a key wins; a second one gets
// the record in flight (status 0) and then, once completed, the stored
// response byte for byte.
func testIdemClaimComplete(t *testing.T, b Backend) {
	s := idemStoreOf(t, b)
	ctx := context.Background()
	k := idemKey("k1")
	_, ok := claimIdem(t, s, k, "fp1", "owner1", base)
	require.True(t, ok)
	rec, ok := claimIdem(t, s, k, "fp1", "owner2", at(1))
	require.False(t, ok)
	require.Equal(t, idempotency.Record{Fingerprint: "fp1"}, normRecord(rec), "in flight")

	body := []byte("{\"job_id\":\"x\",\"text\":\"caf\u00e9 \\u0000 \U0001F600\"}\n")
	require.NoError(t, s.CompleteIdempotencyKey(ctx, k, "owner1", idempotency.Record{
		Status: 201, ContentType: "application/json", Body: body,
	}))
	rec, ok = claimIdem(t, s, k, "fp2", "owner3", at(2))
	require.False(t, ok)
	require.Equal(t, idempotency.Record{Fingerprint: "fp1", Status: 201, ContentType: "application/json", Body: body}, rec,
		"the first request's fingerprint and its response")
	rec, ok = claimIdem(t, s, k, "fp1", "owner4", base.Add(idempotency.Lease))
	require.False(t, ok, "a completed record outlives the lease")
	require.Equal(t, 201, rec.Status)
}

// normRecord makes an absent body nil, however the store reads it back.
func normRecord(r idempotency.Record) idempotency.Record {
	if len(r.Body) == 0 {
		r.Body = nil
	}
	return r
}

// testIdemKeysSeparate: the caller, the method, the path and the key each
// name a record of their own, long paths and keys included.
func testIdemKeysSeparate(t *testing.T, b Backend) {
	s := idemStoreOf(t, b)
	k := idempotency.Key{Caller: alice, Method: "POST", Path: "/api/v1/jobs", Key: "same"}
	_, ok := claimIdem(t, s, k, "fp", "o", base)
	require.True(t, ok)
	long := strings.Repeat("x", 8<<10)
	for _, other := range []idempotency.Key{
		{Caller: bob, Method: k.Method, Path: k.Path, Key: k.Key},
		{Caller: k.Caller, Method: "PUT", Path: k.Path, Key: k.Key},
		{Caller: k.Caller, Method: k.Method, Path: "/api/v1/posts", Key: k.Key},
		{Caller: k.Caller, Method: k.Method, Path: k.Path, Key: "other"},
		{Caller: k.Caller, Method: k.Method, Path: "/api/v1/jobs/" + long, Key: k.Key},
		{Caller: k.Caller, Method: k.Method, Path: k.Path, Key: long},
		// The parts do not run into each other.
		{Caller: k.Caller, Method: k.Method, Path: k.Path + "s", Key: "ame"},
	} {
		_, ok := claimIdem(t, s, other, "fp", "o", base)
		require.True(t, ok, "%+v", other)
	}
	_, ok = claimIdem(t, s, idempotency.Key{Caller: k.Caller, Method: k.Method, Path: "/api/v1/jobs/" + long, Key: k.Key}, "fp", "o2", at(1))
	require.False(t, ok, "a long path names the same record again")
}

// testIdemLease: an in-flight claim can be taken over once its lease has
// ended; any record can be claimed again once it has expired.
func testIdemLease(t *testing.T, b Backend) {
	s := idemStoreOf(t, b)
	ctx := context.Background()
	k := idemKey("lease")
	_, ok := claimIdem(t, s, k, "fp1", "crashed", base)
	require.True(t, ok)
	_, ok = claimIdem(t, s, k, "fp2", "o2", base.Add(idempotency.Lease-time.Millisecond))
	require.False(t, ok, "lease still running")
	_, ok = claimIdem(t, s, k, "fp2", "o2", base.Add(idempotency.Lease))
	require.True(t, ok, "lease ended: taken over")
	rec, ok := claimIdem(t, s, k, "fp3", "o3", base.Add(idempotency.Lease+time.Second))
	require.False(t, ok)
	require.Equal(t, "fp2", rec.Fingerprint, "the new claim's fingerprint")

	// The crashed request's completion no longer lands.
	require.NoError(t, s.CompleteIdempotencyKey(ctx, k, "crashed", idempotency.Record{Status: 200, ContentType: "text/plain", Body: []byte("late")}))
	rec, _ = claimIdem(t, s, k, "fp2", "o4", base.Add(idempotency.Lease+2*time.Second))
	require.Zero(t, rec.Status, "the taken-over claim is left alone")

	require.NoError(t, s.CompleteIdempotencyKey(ctx, k, "o2", idempotency.Record{Status: 200, ContentType: "text/plain", Body: []byte("done")}))
	expires := base.Add(idempotency.Lease).Add(idempotency.TTL)
	_, ok = claimIdem(t, s, k, "fp5", "o5", expires.Add(-time.Millisecond))
	require.False(t, ok, "not expired yet")
	_, ok = claimIdem(t, s, k, "fp5", "o5", expires)
	require.True(t, ok, "expired: claimed anew")
	rec, _ = claimIdem(t, s, k, "fp6", "o6", expires.Add(time.Second))
	require.Equal(t, idempotency.Record{Fingerprint: "fp5"}, normRecord(rec), "the old response is gone")
}

// testIdemOwner: only the claim's owner completes or releases it; a
// release leaves a completed record alone.
func testIdemOwner(t *testing.T, b Backend) {
	s := idemStoreOf(t, b)
	ctx := context.Background()
	k := idemKey("owner")
	_, ok := claimIdem(t, s, k, "fp", "me", base)
	require.True(t, ok)
	require.NoError(t, s.CompleteIdempotencyKey(ctx, k, "intruder", idempotency.Record{Status: 200, Body: []byte("x")}))
	require.NoError(t, s.ReleaseIdempotencyKey(ctx, k, "intruder"))
	rec, ok := claimIdem(t, s, k, "fp", "other", at(1))
	require.False(t, ok, "still mine")
	require.Zero(t, rec.Status)

	require.NoError(t, s.ReleaseIdempotencyKey(ctx, k, "me"))
	_, ok = claimIdem(t, s, k, "fp", "next", at(2))
	require.True(t, ok, "released: the next request runs")

	require.NoError(t, s.CompleteIdempotencyKey(ctx, k, "next", idempotency.Record{Status: 409, ContentType: "application/json", Body: []byte(`{}`)}))
	require.NoError(t, s.ReleaseIdempotencyKey(ctx, k, "next"))
	rec, ok = claimIdem(t, s, k, "fp", "late", at(3))
	require.False(t, ok, "a completed record is not released")
	require.Equal(t, 409, rec.Status)

	// Unknown keys: nothing to do, no error.
	require.NoError(t, s.CompleteIdempotencyKey(ctx, idemKey("unknown"), "x", idempotency.Record{Status: 200}))
	require.NoError(t, s.ReleaseIdempotencyKey(ctx, idemKey("unknown"), "x"))
}

// testIdemDeleteExpired: DeleteExpiredIdempotencyKeys deletes exactly the
// records expired at now, in flight or completed.
func testIdemDeleteExpired(t *testing.T, b Backend) {
	s := idemStoreOf(t, b)
	ctx := context.Background()
	for i, ttl := range []time.Duration{time.Hour, 2 * time.Hour, 3 * time.Hour} {
		k := idemKey(string(rune('a' + i)))
		_, ok, err := s.ClaimIdempotencyKey(ctx, k, "fp", "o", base, base.Add(time.Minute), base.Add(ttl))
		require.NoError(t, err)
		require.True(t, ok)
		if i > 0 {
			require.NoError(t, s.CompleteIdempotencyKey(ctx, k, "o", idempotency.Record{Status: 200}))
		}
	}
	n, err := s.DeleteExpiredIdempotencyKeys(ctx, base.Add(time.Hour-time.Millisecond))
	require.NoError(t, err)
	require.Zero(t, n)
	n, err = s.DeleteExpiredIdempotencyKeys(ctx, base.Add(2*time.Hour))
	require.NoError(t, err)
	require.Equal(t, int64(2), n, "expiring at or before now")
	n, err = s.DeleteExpiredIdempotencyKeys(ctx, base.Add(2*time.Hour))
	require.NoError(t, err)
	require.Zero(t, n)
	_, ok := claimIdem(t, s, idemKey("c"), "fp", "o2", base.Add(2*time.Hour))
	require.False(t, ok, "the unexpired record stays")
}

// testIdemClaimRace: requests with one key claiming at once: exactly one
// runs.
func testIdemClaimRace(t *testing.T, b Backend) {
	s := idemStoreOf(t, b)
	k := idemKey("race")
	won := make([]bool, racers)
	errs := race(func(i int) error {
		_, ok, err := s.ClaimIdempotencyKey(context.Background(), k, "fp", string(rune('A'+i)), base, base.Add(idempotency.Lease), base.Add(idempotency.TTL))
		won[i] = ok
		return err
	})
	winners := 0
	for i, err := range errs {
		require.NoError(t, err, "goroutine %d", i)
		if won[i] {
			winners++
		}
	}
	require.Equal(t, 1, winners)
}
