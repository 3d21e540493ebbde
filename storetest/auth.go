package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/auth"
)

var (
	alice = openjury.MustAddress("0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")
	bob   = openjury.MustAddress("0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb")
)

func (s *suite) authTests() []test {
	return []test{
		{name: "LiveChallenges", run: testLiveChallenges},
		{name: "DuplicateNonceConflict", run: testDuplicateNonce},
		{name: "IssueChallengeCapsFresh", run: testIssueChallenge},
		{name: "ConcurrentIssueKeepsCap", run: testConcurrentIssue},
		{name: "RedeemOnce", run: testRedeemOnce},
		{name: "RedeemExpiredOrWrongAddress", run: testRedeemRejected},
		{name: "RedeemDuplicateTokenWritesNothing", run: testRedeemDuplicateToken},
		{name: "ConcurrentRedeemOneToken", run: testConcurrentRedeem},
		{name: "Tokens", run: testTokens},
		{name: "DeleteExpired", run: testDeleteExpired},
	}
}

// challenge returns a challenge of addr issued at issued, live for ttl.
func challenge(nonce string, addr openjury.Address, issued time.Time, ttl time.Duration) auth.Challenge {
	return auth.Challenge{
		Nonce:     nonce,
		Address:   addr,
		Message:   "Sign in to OpenJury as this agent.\nNonce: " + nonce + "\nüñí",
		IssuedAt:  issued,
		ExpiresAt: issued.Add(ttl),
	}
}

func token(hash string, addr openjury.Address, created time.Time, ttl time.Duration) auth.Token {
	return auth.Token{Hash: hash, Address: addr, CreatedAt: created, ExpiresAt: created.Add(ttl)}
}

func put(t *testing.T, b Backend, cs ...auth.Challenge) {
	t.Helper()
	for _, c := range cs {
		require.NoError(t, b.PutChallenge(context.Background(), c), "put %s", c.Nonce)
	}
}

func live(t *testing.T, b Backend, addr openjury.Address, nonce string, now time.Time, limit int) []auth.Challenge {
	t.Helper()
	cs, err := b.LiveChallenges(context.Background(), addr, nonce, now, limit)
	require.NoError(t, err)
	return cs
}

func nonces(cs []auth.Challenge) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Nonce
	}
	return out
}

func owner(b Backend, hash string, now time.Time) (openjury.Address, error) {
	return b.TokenOwner(context.Background(), hash, now)
}

func testLiveChallenges(t *testing.T, b Backend) {
	now := base
	c1 := challenge("n1", alice, now.Add(-4*time.Minute), 5*time.Minute)  // live
	c2 := challenge("n2", alice, now.Add(-2*time.Minute), 5*time.Minute)  // live, newer
	c3 := challenge("n3", alice, now.Add(-2*time.Minute), 5*time.Minute)  // same issued_at as n2
	c4 := challenge("n4", alice, now.Add(-10*time.Minute), 5*time.Minute) // expired
	c5 := challenge("n5", alice, now.Add(-5*time.Minute), 5*time.Minute)  // expires exactly now
	c6 := challenge("n6", bob, now.Add(-time.Minute), 5*time.Minute)      // another address
	c7 := challenge("n7", alice, now.Add(time.Millisecond), time.Minute)  // issued after now, still live
	put(t, b, c1, c2, c3, c4, c5, c6, c7)

	got := live(t, b, alice, "", now, 10)
	require.Equal(t, []string{"n7", "n3", "n2", "n1"}, nonces(got), "newest first, ties by nonce descending")
	require.Equal(t, c1, got[3], "every field round trips")
	require.Equal(t, []string{"n7", "n3"}, nonces(live(t, b, alice, "", now, 2)))
	require.Equal(t, []string{"n2"}, nonces(live(t, b, alice, "n2", now, 10)))
	require.Empty(t, live(t, b, alice, "n4", now, 10), "expired")
	require.Empty(t, live(t, b, alice, "n5", now, 10), "expires_at == now is expired")
	require.Equal(t, []string{"n5"}, nonces(live(t, b, alice, "n5", now.Add(-time.Millisecond), 10)))
	require.Empty(t, live(t, b, alice, "n6", now, 10), "another address's nonce")
	require.Equal(t, []string{"n6"}, nonces(live(t, b, bob, "", now, 10)))
	require.Empty(t, live(t, b, alice, "", now.Add(time.Hour), 10))
}

func testDuplicateNonce(t *testing.T, b Backend) {
	c := challenge("dup", alice, base, time.Minute)
	put(t, b, c)
	other := challenge("dup", bob, base.Add(time.Second), time.Hour)
	requireKind(t, openjury.Conflict, b.PutChallenge(context.Background(), other))
	require.Equal(t, []auth.Challenge{c}, live(t, b, alice, "", base, 10))
	require.Empty(t, live(t, b, bob, "", base, 10))
}

func testIssueChallenge(t *testing.T, b Backend) {
	ctx := context.Background()
	const ttl, maxFresh = 10 * time.Minute, 3
	issue := func(nonce string, addr openjury.Address, at time.Time) auth.Challenge {
		t.Helper()
		c := challenge(nonce, addr, at, ttl)
		got, err := b.IssueChallenge(ctx, c, at.Add(ttl/2), maxFresh)
		require.NoError(t, err)
		return got
	}
	put(t, b, challenge("old", alice, base.Add(-6*time.Minute), ttl)) // live, less than half left
	for i, n := range []string{"a1", "a2", "a3"} {
		c := challenge(n, alice, base.Add(time.Duration(i)*time.Millisecond), ttl)
		require.Equal(t, c, issue(n, alice, c.IssuedAt), "stored while under the cap")
	}
	// At the cap: the newest fresh challenge is returned, nothing stored.
	require.Equal(t, challenge("a3", alice, base.Add(2*time.Millisecond), ttl), issue("a4", alice, base.Add(time.Second)))
	require.Equal(t, []string{"a3", "a2", "a1", "old"}, nonces(live(t, b, alice, "", base.Add(time.Second), 10)))
	// Another address has its own cap.
	require.Equal(t, "b1", issue("b1", bob, base.Add(time.Second)).Nonce)
	// Once the first ones pass half their life, new ones are stored again.
	at := base.Add(ttl/2 + time.Millisecond)
	require.Equal(t, "a5", issue("a5", alice, at).Nonce)
	require.Equal(t, "a6", issue("a6", alice, at).Nonce)
	require.Equal(t, "a6", issue("a7", alice, at).Nonce, "a3, a5 and a6 are fresh: the latest expiry wins, ties by greatest nonce")
	_, err := b.IssueChallenge(ctx, challenge("a1", bob, base, ttl), base, maxFresh)
	requireKind(t, openjury.Conflict, err)
}

func testConcurrentIssue(t *testing.T, b Backend) {
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	const ttl, maxFresh = time.Minute, 3
	errs := race(func(i int) error {
		_, err := b.IssueChallenge(ctx, challenge(fmt.Sprintf("c%02d", i), alice, base, ttl), base.Add(ttl/2), maxFresh)
		return err
	})
	for _, err := range errs {
		require.NoError(t, err)
	}
	require.Len(t, live(t, b, alice, "", base, 100), maxFresh, "concurrent issues never pass the cap")
}

func testRedeemOnce(t *testing.T, b Backend) {
	ctx := context.Background()
	put(t, b, challenge("n1", alice, base, time.Minute), challenge("n2", alice, base, time.Minute))
	tok := token("hash-1", alice, base, time.Hour)
	require.NoError(t, b.RedeemChallenge(ctx, alice, "n1", base, tok))
	addr, err := owner(b, "hash-1", base)
	require.NoError(t, err)
	require.Equal(t, alice, addr)
	require.Equal(t, []string{"n2"}, nonces(live(t, b, alice, "", base, 10)), "only the redeemed challenge went")

	err = b.RedeemChallenge(ctx, alice, "n1", base, token("hash-2", alice, base, time.Hour))
	requireKind(t, openjury.Unauthenticated, err)
	_, err = owner(b, "hash-2", base)
	requireKind(t, openjury.Unauthenticated, err)
}

func testRedeemRejected(t *testing.T, b Backend) {
	ctx := context.Background()
	put(t, b, challenge("old", alice, base.Add(-time.Hour), time.Minute), challenge("n1", alice, base, time.Minute))
	err := b.RedeemChallenge(ctx, alice, "old", base, token("h-old", alice, base, time.Hour))
	requireKind(t, openjury.Unauthenticated, err)
	err = b.RedeemChallenge(ctx, alice, "n1", base.Add(time.Minute), token("h-late", alice, base, time.Hour))
	requireKind(t, openjury.Unauthenticated, err)
	err = b.RedeemChallenge(ctx, bob, "n1", base, token("h-bob", bob, base, time.Hour))
	requireKind(t, openjury.Unauthenticated, err)
	err = b.RedeemChallenge(ctx, alice, "missing", base, token("h-missing", alice, base, time.Hour))
	requireKind(t, openjury.Unauthenticated, err)
	for _, h := range []string{"h-old", "h-late", "h-bob", "h-missing"} {
		_, err := owner(b, h, base)
		requireKind(t, openjury.Unauthenticated, err)
	}
	// The rejected attempts did not consume n1.
	require.NoError(t, b.RedeemChallenge(ctx, alice, "n1", base, token("h-ok", alice, base, time.Hour)))
}

func testRedeemDuplicateToken(t *testing.T, b Backend) {
	ctx := context.Background()
	put(t, b, challenge("n1", alice, base, time.Minute), challenge("n2", alice, base, time.Minute))
	require.NoError(t, b.RedeemChallenge(ctx, alice, "n1", base, token("same", alice, base, time.Hour)))
	err := b.RedeemChallenge(ctx, alice, "n2", base, token("same", alice, base, 2*time.Hour))
	require.Error(t, err)
	require.NotEqual(t, openjury.Internal, openjury.KindOf(err), "a duplicate digest is not an internal error: %v", err)
	require.Equal(t, []string{"n2"}, nonces(live(t, b, alice, "", base, 10)), "the challenge survives a failed redeem")
	_, err = owner(b, "same", base.Add(90*time.Minute))
	requireKind(t, openjury.Unauthenticated, err) // the first token's expiry, not the second's
}

func testConcurrentRedeem(t *testing.T, b Backend) {
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	put(t, b, challenge("race", alice, base, time.Minute))
	errs := race(func(i int) error {
		return b.RedeemChallenge(ctx, alice, "race", base, token(fmt.Sprintf("h%02d", i), alice, base, time.Hour))
	})
	winner := oneWinner(t, errs, openjury.Unauthenticated, "redeemed the challenge")
	for i := range racers {
		_, err := owner(b, fmt.Sprintf("h%02d", i), base)
		if i == winner {
			require.NoError(t, err)
		} else {
			requireKind(t, openjury.Unauthenticated, err)
		}
	}
}

func testTokens(t *testing.T, b Backend) {
	ctx := context.Background()
	put(t, b, challenge("n1", alice, base, time.Minute), challenge("n2", bob, base, time.Minute))
	require.NoError(t, b.RedeemChallenge(ctx, alice, "n1", base, token("ta", alice, base, time.Hour)))
	require.NoError(t, b.RedeemChallenge(ctx, bob, "n2", base, token("tb", bob, base, time.Hour)))

	_, err := owner(b, "unknown", base)
	requireKind(t, openjury.Unauthenticated, err)
	addr, err := owner(b, "ta", base.Add(time.Hour-time.Millisecond))
	require.NoError(t, err)
	require.Equal(t, alice, addr)
	_, err = owner(b, "ta", base.Add(time.Hour))
	requireKind(t, openjury.Unauthenticated, err)

	require.NoError(t, b.RevokeToken(ctx, "ta"))
	_, err = owner(b, "ta", base)
	requireKind(t, openjury.Unauthenticated, err)
	require.NoError(t, b.RevokeToken(ctx, "ta"), "revoking twice")
	require.NoError(t, b.RevokeToken(ctx, "never-issued"))
	addr, err = owner(b, "tb", base)
	require.NoError(t, err)
	require.Equal(t, bob, addr)
}

func testDeleteExpired(t *testing.T, b Backend) {
	ctx := context.Background()
	now := base
	put(t, b,
		challenge("gone1", alice, now.Add(-time.Hour), time.Minute),
		challenge("gone2", bob, now.Add(-time.Minute), time.Minute), // expires exactly now
		challenge("keep", alice, now, time.Minute),
		challenge("for-token1", alice, now.Add(-2*time.Hour), 3*time.Hour),
		challenge("for-token2", alice, now.Add(-2*time.Hour), 3*time.Hour))
	require.NoError(t, b.RedeemChallenge(ctx, alice, "for-token1", now.Add(-2*time.Hour), token("old", alice, now.Add(-2*time.Hour), time.Hour)))
	require.NoError(t, b.RedeemChallenge(ctx, alice, "for-token2", now.Add(-2*time.Hour), token("new", alice, now.Add(-2*time.Hour), 3*time.Hour)))

	n, err := b.DeleteExpired(ctx, now)
	require.NoError(t, err)
	require.Equal(t, int64(3), n, "two challenges and one token")
	require.Equal(t, []string{"keep"}, nonces(live(t, b, alice, "", now, 10)))
	require.Empty(t, live(t, b, bob, "", now.Add(-time.Millisecond), 10), "gone2 was deleted")
	addr, err := owner(b, "new", now)
	require.NoError(t, err)
	require.Equal(t, alice, addr)
	_, err = owner(b, "old", now.Add(-90*time.Minute)) // would be live then, but is deleted
	requireKind(t, openjury.Unauthenticated, err)

	n, err = b.DeleteExpired(ctx, now)
	require.NoError(t, err)
	require.Zero(t, n)
}
