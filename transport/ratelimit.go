package transport

import (
	"fmt"
	"hash/maphash"
	"math"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/openjury/openjury"
)

// clientLimiter is the general per-client request limit
// (SERVICE_RATE_LIMIT_PER_MIN): a token bucket per client IP holding a
// minute's worth of requests. It is per replica and in memory by design: it
// guards the process against floods; rules that must hold across replicas
// (the comment limit) are counted in the database. The buckets are spread
// over limiterShards shards, each with its own lock and idle sweep, so
// concurrent clients rarely wait on each other.
type clientLimiter struct {
	perMin int
	clock  openjury.Clock
	seed   maphash.Seed
	shards [limiterShards]limiterShard
}

// limiterShards is the number of independently locked bucket maps.
const limiterShards = 32

type limiterShard struct {
	mu        sync.Mutex
	buckets   map[string]*bucket
	lastSweep time.Time
}

type bucket struct {
	lim  *rate.Limiter
	seen time.Time
}

// limiterIdle is how long an idle client's bucket is kept.
const limiterIdle = 10 * time.Minute

func newClientLimiter(perMin int, clock openjury.Clock) *clientLimiter {
	l := &clientLimiter{perMin: perMin, clock: clock, seed: maphash.MakeSeed()}
	for i := range l.shards {
		l.shards[i].buckets = map[string]*bucket{}
	}
	return l
}

// shard returns the shard that holds key's bucket.
func (l *clientLimiter) shard(key string) *limiterShard {
	return &l.shards[maphash.String(l.seed, key)%limiterShards]
}

// limitResult is the outcome of taking a token: whether it was allowed,
// the tokens left, how long until the bucket is full again and, when
// refused, how long until the next token.
type limitResult struct {
	ok        bool
	remaining int
	reset     time.Duration
	wait      time.Duration
}

// allow takes one token for key.
func (l *clientLimiter) allow(key string) limitResult {
	now := l.clock.Now()
	sh := l.shard(key)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if now.Sub(sh.lastSweep) > limiterIdle {
		for k, b := range sh.buckets {
			if now.Sub(b.seen) > limiterIdle {
				delete(sh.buckets, k)
			}
		}
		sh.lastSweep = now
	}
	b, ok := sh.buckets[key]
	if !ok {
		b = &bucket{lim: rate.NewLimiter(rate.Limit(float64(l.perMin)/60), l.perMin)}
		sh.buckets[key] = b
	}
	b.seen = now
	if b.lim.AllowN(now, 1) {
		tokens := b.lim.TokensAt(now)
		missing := float64(l.perMin) - tokens
		return limitResult{ok: true, remaining: int(math.Floor(tokens)),
			reset: time.Duration(missing / float64(l.perMin) * float64(time.Minute))}
	}
	r := b.lim.ReserveN(now, 1)
	wait := r.DelayFrom(now)
	r.CancelAt(now)
	wait = time.Duration(math.Max(float64(wait), float64(time.Second)))
	return limitResult{wait: wait, reset: wait}
}

// Names of the rate-limit policies in the RateLimit and RateLimit-Policy
// headers.
const (
	policyPerIP      = "per-ip"
	policyPerAddress = "per-address"
)

// Headers of draft-ietf-httpapi-ratelimit-headers (draft 10).
const (
	HeaderRateLimit       = "RateLimit"
	HeaderRateLimitPolicy = "RateLimit-Policy"
)

// setRateLimitHeaders adds policy's item to the RateLimit-Policy and
// RateLimit headers (structured-field lists, one item per policy):
// `"per-ip";q=300;w=60` and `"per-ip";r=297;t=1`, where r is the requests
// left and t the seconds until the quota is whole again (when r is 0: until
// the next request is allowed).
func setRateLimitHeaders(h http.Header, policy string, perMin int, res limitResult) {
	appendItem := func(name, item string) {
		if old := h.Get(name); old != "" {
			item = old + ", " + item
		}
		h.Set(name, item)
	}
	appendItem(HeaderRateLimitPolicy, fmt.Sprintf("%q;q=%d;w=60", policy, perMin))
	secs := int64((res.reset + time.Second - 1) / time.Second)
	appendItem(HeaderRateLimit, fmt.Sprintf("%q;r=%d;t=%d", policy, res.remaining, secs))
}

// unlimitedPaths are never rate limited: probes, scrapes and the discovery
// documents (unlimitedPrefixes too).
var unlimitedPaths = map[string]bool{
	"/healthz": true, "/readyz": true, "/metrics": true,
	"/agents.json": true, "/llms.txt": true, "/openapi.json": true, "/openapi.yaml": true,
}

// unlimitedPrefixes are path prefixes of discovery documents.
var unlimitedPrefixes = []string{"/.well-known/", "/docs-md/"}

// rateLimited reports whether requests to path count against the limits.
func rateLimited(path string) bool {
	if unlimitedPaths[path] {
		return false
	}
	for _, p := range unlimitedPrefixes {
		if strings.HasPrefix(path, p) {
			return false
		}
	}
	return true
}

// rateLimit answers 429 with Retry-After once a client IP has used its
// requests for the minute, and sets the RateLimit headers on the answers
// it lets through. RateLimitPerMin <= 0 turns it off.
func (s *server) rateLimit(next http.Handler) http.Handler {
	if s.ipLimiter == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !rateLimited(r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		res := s.ipLimiter.allow(clientIPFrom(r))
		setRateLimitHeaders(w.Header(), policyPerIP, s.opts.RateLimitPerMin, res)
		if !res.ok {
			s.writeError(w, r, &openjury.Error{Kind: openjury.RateLimited, Op: "transport.rateLimit",
				Detail: "too many requests: slow down", Err: openjury.RetryHint(res.wait)})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// limitAddress takes a token of the signed-in caller's per-address limit
// (RateLimitPerAddressPerMin) and sets its RateLimit headers; it returns
// a RateLimited error when there is none. Off (nil) when the limit is.
func (s *server) limitAddress(w http.ResponseWriter, r *http.Request, addr openjury.Address) error {
	if s.addrLimiter == nil || !rateLimited(r.URL.Path) {
		return nil
	}
	res := s.addrLimiter.allow(string(addr))
	setRateLimitHeaders(w.Header(), policyPerAddress, s.opts.RateLimitPerAddressPerMin, res)
	if !res.ok {
		return &openjury.Error{Kind: openjury.RateLimited, Op: "transport.rateLimit",
			Detail: "too many requests for this address: slow down", Err: openjury.RetryHint(res.wait)}
	}
	return nil
}

// clientIPFrom is the client IP of r worked out by the request id layer
// (clientIP), or the socket peer outside NewHandler's chain.
func clientIPFrom(r *http.Request) string {
	if info := infoFrom(r.Context()); info != nil && info.client != "" {
		return info.client
	}
	return clientIP(r, nil)
}
