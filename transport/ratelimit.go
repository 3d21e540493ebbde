package transport

import (
	"hash/maphash"
	"math"
	"net"
	"net/http"
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

// allow takes one token for key and returns how long to wait when there is
// none.
func (l *clientLimiter) allow(key string) (bool, time.Duration) {
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
		return true, 0
	}
	r := b.lim.ReserveN(now, 1)
	wait := r.DelayFrom(now)
	r.CancelAt(now)
	return false, time.Duration(math.Max(float64(wait), float64(time.Second)))
}

// unlimitedPaths are never rate limited: probes and scrapes.
var unlimitedPaths = map[string]bool{"/healthz": true, "/readyz": true, "/metrics": true}

// rateLimit answers 429 with Retry-After once a client has used its
// requests for the minute. perMin <= 0 turns it off.
func (s *server) rateLimit(next http.Handler) http.Handler {
	if s.opts.RateLimitPerMin <= 0 {
		return next
	}
	lim := newClientLimiter(s.opts.RateLimitPerMin, s.clock)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if unlimitedPaths[r.URL.Path] {
			next.ServeHTTP(w, r)
			return
		}
		if ok, wait := lim.allow(clientIP(r)); !ok {
			s.writeError(w, r, &openjury.Error{Kind: openjury.RateLimited, Op: "transport.rateLimit",
				Detail: "too many requests: slow down", Err: openjury.RetryHint(wait)})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// clientIP is the remote address without its port.
func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
