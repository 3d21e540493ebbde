package transport

import (
	"context"
	"crypto/sha256"
	"hash/maphash"
	"net/http"
	"sync"
	"time"

	"github.com/openjury/openjury"
)

// TokenCacheTTL is how long a replica keeps the address a bearer token
// resolved to for the reads of public data (docs/rules.md#rate-limits):
// such a read is counted against its address's per-address limit without
// a database lookup. A logout through this replica forgets the token at
// once; a token revoked through another replica, or expired, may still be
// counted so for at most this long. Every request to a route that needs
// sign-in (every write, and the reads of a caller's own data) looks the
// token up in the database, always.
const TokenCacheTTL = 10 * time.Second

// Bounds of the token cache: a shard over its share of tokenCacheMax
// entries drops the expired ones, and is emptied when none is.
const (
	tokenCacheShards = 16
	tokenCacheMax    = 65536
)

// tokenCache maps bearer tokens, by their SHA-256 (the token itself is
// not kept), to the address they resolved to, until a time at most
// TokenCacheTTL after the lookup. Only tokens that resolved are kept, so
// a flood of made-up tokens cannot crowd out the real ones; the entries
// grow only with sign-ins.
type tokenCache struct {
	auth   func(ctx context.Context, token string) (openjury.Address, error)
	clock  openjury.Clock
	seed   maphash.Seed
	shards [tokenCacheShards]tokenShard
}

type tokenShard struct {
	mu sync.Mutex
	m  map[[sha256.Size]byte]tokenEntry
}

type tokenEntry struct {
	addr  openjury.Address
	until time.Time
}

func newTokenCache(auth func(ctx context.Context, token string) (openjury.Address, error), clock openjury.Clock) *tokenCache {
	c := &tokenCache{auth: auth, clock: clock, seed: maphash.MakeSeed()}
	for i := range c.shards {
		c.shards[i].m = map[[sha256.Size]byte]tokenEntry{}
	}
	return c
}

func (c *tokenCache) shard(key *[sha256.Size]byte) *tokenShard {
	return &c.shards[maphash.Bytes(c.seed, key[:])%tokenCacheShards]
}

// resolve returns the address token resolves to, from the cache or else
// from auth (then kept until TokenCacheTTL from now); false when it does
// not resolve (unknown, expired or revoked token, or the lookup failed).
func (c *tokenCache) resolve(ctx context.Context, token string) (openjury.Address, bool) {
	key := sha256.Sum256([]byte(token))
	sh := c.shard(&key)
	now := c.clock.Now()
	sh.mu.Lock()
	e, ok := sh.m[key]
	sh.mu.Unlock()
	if ok && now.Before(e.until) {
		return e.addr, true
	}
	addr, err := c.auth(ctx, token)
	if err != nil {
		return "", false
	}
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if len(sh.m) >= tokenCacheMax/tokenCacheShards {
		for k, e := range sh.m {
			if !now.Before(e.until) {
				delete(sh.m, k)
			}
		}
		if len(sh.m) >= tokenCacheMax/tokenCacheShards {
			clear(sh.m)
		}
	}
	sh.m[key] = tokenEntry{addr: addr, until: now.Add(TokenCacheTTL)}
	return addr, true
}

// forget drops token (a logout through this replica).
func (c *tokenCache) forget(token string) {
	key := sha256.Sum256([]byte(token))
	sh := c.shard(&key)
	sh.mu.Lock()
	delete(sh.m, key)
	sh.mu.Unlock()
}

// limitSignedReads counts a read (GET or HEAD) that carries a bearer
// token against its address's per-address limit
// (RateLimitPerAddressPerMin), whatever the route: the reads of public
// data too, which need no sign-in and are answered alike for everyone
// (from the read cache when it holds them). The token is resolved through
// the token cache (TokenCacheTTL); one that does not resolve leaves the
// read anonymous, as a public read ignores it. A route that needs sign-in
// then looks the token up in the database (authed) without counting the
// request twice. Off when the per-address limit is.
func (s *server) limitSignedReads(next http.Handler) http.Handler {
	if s.addrLimiter == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if (r.Method == http.MethodGet || r.Method == http.MethodHead) && r.Header.Get("Authorization") != "" && s.rateLimited(r.URL.Path) {
			if token, err := bearerToken(r); err == nil {
				if addr, ok := s.tokens.resolve(r.Context(), token); ok {
					if err := s.limitAddress(w, r, addr); err != nil {
						s.writeError(w, r, err)
						return
					}
					if info := infoFrom(r.Context()); info != nil {
						info.limited = addr
					}
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}
