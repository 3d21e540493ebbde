package transport

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
)

// countingAuth resolves the tokens of its map and counts its lookups.
type countingAuth struct {
	tokens  map[string]openjury.Address
	lookups int
}

func (a *countingAuth) authenticate(_ context.Context, token string) (openjury.Address, error) {
	a.lookups++
	if addr, ok := a.tokens[token]; ok {
		return addr, nil
	}
	return "", &openjury.Error{Kind: openjury.Unauthenticated, Detail: "invalid token"}
}

// TestTokenCache: a resolved token is looked up once per TokenCacheTTL, a
// forgotten one (logout on this replica) at once again, one that does not
// resolve every time (it is never kept), and the cache stays bounded.
func TestTokenCache(t *testing.T) {
	t.Parallel()
	const addr = openjury.Address("0x00000000000000000000000000000000000000aa")
	a := &countingAuth{tokens: map[string]openjury.Address{"good": addr}}
	clk := newMovingClock(time.Unix(1_800_000_000, 0))
	c := newTokenCache(a.authenticate, clk)
	ctx := context.Background()

	for range 3 {
		got, ok := c.resolve(ctx, "good")
		require.True(t, ok)
		require.Equal(t, addr, got)
	}
	require.Equal(t, 1, a.lookups, "kept after the first lookup")

	clk.advance(TokenCacheTTL - time.Nanosecond)
	_, ok := c.resolve(ctx, "good")
	require.True(t, ok)
	require.Equal(t, 1, a.lookups, "still within the TTL")
	clk.advance(time.Nanosecond)
	_, ok = c.resolve(ctx, "good")
	require.True(t, ok)
	require.Equal(t, 2, a.lookups, "looked up again once the TTL is over")

	delete(a.tokens, "good") // revoked in the database
	c.forget("good")
	_, ok = c.resolve(ctx, "good")
	require.False(t, ok, "a logout on this replica is seen at once")
	require.Equal(t, 3, a.lookups)

	for range 3 {
		_, ok := c.resolve(ctx, "made-up")
		require.False(t, ok)
	}
	require.Equal(t, 6, a.lookups, "a token that does not resolve is never kept")

	failing := newTokenCache(func(context.Context, string) (openjury.Address, error) {
		return "", errors.New("database down")
	}, clk)
	_, ok = failing.resolve(ctx, "good")
	require.False(t, ok, "a failed lookup does not resolve")

	// Bounded: far more signed-in tokens than the bound keep at most
	// tokenCacheMax entries.
	many := &countingAuth{tokens: map[string]openjury.Address{}}
	big := newTokenCache(many.authenticate, clk)
	for i := range 2 * tokenCacheMax {
		tok := fmt.Sprint("t", i)
		many.tokens[tok] = addr
		_, ok := big.resolve(ctx, tok)
		require.True(t, ok)
	}
	n := 0
	for i := range big.shards {
		n += len(big.shards[i].m)
	}
	require.LessOrEqual(t, n, tokenCacheMax)
	require.Positive(t, n)
}
