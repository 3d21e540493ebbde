package transport

import (
	"container/list"
	"hash/maphash"
	"math"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/openjury/openjury"
)

// clientLimiter is the general per-client request limit
// (SERVICE_RATE_LIMIT_PER_MIN): a token bucket per client key (rateKey:
// an IPv4 address, an IPv6 /64) holding a minute's worth of requests. It is
// per replica and in memory by design: it guards the process against
// floods; rules that must hold across replicas (the comment limit) are
// counted in the database. The buckets are spread over limiterShards
// shards, each with its own lock, so concurrent clients rarely wait on each
// other.
//
// The number of buckets is bounded (maxBuckets in all, split evenly over
// the shards): a flood of distinct clients cannot grow the map without
// limit. Each shard keeps its buckets in least-recently-used order; a
// bucket idle for limiterIdle is dropped, and when a shard is full a new
// client takes the place of a bucket that is full again (one a new client
// would get anyway: dropping it forgets nothing), looking at the
// evictScan least recently used ones, else of the least recently used
// bucket. So a client's spent bucket is forgotten only after more distinct
// clients than the shard holds came after its last request: an attacker
// can reset its own bucket only by sending from about maxBuckets other
// networks, each of which has a full bucket of its own anyway.
type clientLimiter struct {
	perMin int
	clock  openjury.Clock
	seed   maphash.Seed
	// perShard bounds the buckets of one shard.
	perShard int
	shards   [limiterShards]limiterShard
}

// limiterShards is the number of independently locked bucket maps.
const limiterShards = 32

// DefaultRateLimitBuckets is how many client buckets a limiter keeps at
// most when Options.RateLimitBuckets is zero (about 16 MiB at most).
const DefaultRateLimitBuckets = 65536

// evictScan is how many of a full shard's least recently used buckets are
// looked at for one that is full again before the least recent one goes.
const evictScan = 16

type limiterShard struct {
	mu      sync.Mutex
	buckets map[string]*list.Element // of *bucket
	// lru holds the buckets, most recently used first.
	lru list.List
}

type bucket struct {
	key  string
	lim  *rate.Limiter
	seen time.Time
}

// limiterIdle is how long an idle client's bucket is kept.
const limiterIdle = 10 * time.Minute

// newClientLimiter returns a limiter of perMin requests a minute per key
// keeping at most maxBuckets buckets (0: DefaultRateLimitBuckets; at
// least one per shard).
func newClientLimiter(perMin, maxBuckets int, clock openjury.Clock) *clientLimiter {
	if maxBuckets <= 0 {
		maxBuckets = DefaultRateLimitBuckets
	}
	l := &clientLimiter{perMin: perMin, clock: clock, seed: maphash.MakeSeed(), perShard: max(1, maxBuckets/limiterShards)}
	for i := range l.shards {
		l.shards[i].buckets = map[string]*list.Element{}
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
	// Drop the buckets idle for limiterIdle: the least recently used end.
	for e := sh.lru.Back(); e != nil && now.Sub(e.Value.(*bucket).seen) > limiterIdle; e = sh.lru.Back() {
		sh.remove(e)
	}
	var b *bucket
	if e, ok := sh.buckets[key]; ok {
		sh.lru.MoveToFront(e)
		b = e.Value.(*bucket)
	} else {
		if len(sh.buckets) >= l.perShard {
			sh.remove(l.victim(sh, now))
		}
		b = &bucket{key: key, lim: rate.NewLimiter(rate.Limit(float64(l.perMin)/60), l.perMin)}
		sh.buckets[key] = sh.lru.PushFront(b)
	}
	b.seen = now
	return take(b.lim, l.perMin, now)
}

// victim is the bucket a full shard gives up for a new client: among the
// evictScan least recently used, one that is full again, else the least
// recently used one.
func (l *clientLimiter) victim(sh *limiterShard, now time.Time) *list.Element {
	e := sh.lru.Back()
	for i := 0; i < evictScan && e != nil; i, e = i+1, e.Prev() {
		if e.Value.(*bucket).lim.TokensAt(now) >= float64(l.perMin) {
			return e
		}
	}
	return sh.lru.Back()
}

// remove drops the bucket of e from the shard.
func (sh *limiterShard) remove(e *list.Element) {
	delete(sh.buckets, e.Value.(*bucket).key)
	sh.lru.Remove(e)
}

// size returns how many buckets the limiter keeps.
func (l *clientLimiter) size() int {
	n := 0
	for i := range l.shards {
		sh := &l.shards[i]
		sh.mu.Lock()
		n += len(sh.buckets)
		sh.mu.Unlock()
	}
	return n
}

// take takes one token of lim (a bucket of perMin a minute) at now.
func take(lim *rate.Limiter, perMin int, now time.Time) limitResult {
	if lim.AllowN(now, 1) {
		tokens := lim.TokensAt(now)
		missing := float64(perMin) - tokens
		return limitResult{ok: true, remaining: int(math.Floor(tokens)),
			reset: time.Duration(missing / float64(perMin) * float64(time.Minute))}
	}
	r := lim.ReserveN(now, 1)
	wait := r.DelayFrom(now)
	r.CancelAt(now)
	wait = time.Duration(math.Max(float64(wait), float64(time.Second)))
	return limitResult{wait: wait, reset: wait}
}

// rateKey is the bucket key of a client IP (CONTRACT.md "Conventions"):
// an IPv4 address as it is, an IPv6 address by its /64 (one subscriber's
// network: a host picks any address in it at will). IPv4-mapped IPv6
// addresses were unmapped by clientIP; anything that is not an IP (a
// RemoteAddr without one) is its own key.
func rateKey(client string) string {
	ip, err := netip.ParseAddr(client)
	if err != nil || !ip.Is6() {
		return client
	}
	p, err := ip.WithZone("").Prefix(64)
	if err != nil {
		return client
	}
	return p.String()
}

// Names of the rate-limit policies in the RateLimit and RateLimit-Policy
// headers.
const (
	policyPerIP      = "per-ip"
	policyPerAddress = "per-address"
	// policyAuth is the sign-in routes' budget shared by all clients.
	policyAuth = "sign-in"
)

// Headers of draft-ietf-httpapi-ratelimit-headers (draft 10).
const (
	HeaderRateLimit       = "RateLimit"
	HeaderRateLimitPolicy = "RateLimit-Policy"
)

// The canonical forms of the RateLimit header names, for direct use of the
// header map.
var (
	rateLimitKey       = http.CanonicalHeaderKey(HeaderRateLimit)
	rateLimitPolicyKey = http.CanonicalHeaderKey(HeaderRateLimitPolicy)
)

// setRateLimitHeaders adds policy's item to the RateLimit-Policy and
// RateLimit headers (structured-field lists, one item per policy):
// `"per-ip";q=300;w=60` and `"per-ip";r=297;t=1`, where r is the requests
// left and t the seconds until the quota is whole again (when r is 0: until
// the next request is allowed).
func setRateLimitHeaders(h http.Header, policy string, perMin int, res limitResult) {
	appendItem := func(name string, item []byte) {
		if old := h[name]; len(old) > 0 && old[0] != "" {
			item = append([]byte(old[0]+", "), item...)
		}
		h[name] = []string{string(item)}
	}
	var buf [96]byte
	b := strconv.AppendQuote(buf[:0], policy)
	b = append(b, ";q="...)
	b = strconv.AppendInt(b, int64(perMin), 10)
	appendItem(rateLimitPolicyKey, append(b, ";w=60"...))
	secs := int64((res.reset + time.Second - 1) / time.Second)
	b = strconv.AppendQuote(buf[:0], policy)
	b = append(b, ";r="...)
	b = strconv.AppendInt(b, int64(res.remaining), 10)
	b = append(b, ";t="...)
	appendItem(rateLimitKey, strconv.AppendInt(b, secs, 10))
}

// rateLimited reports whether requests to path count against the limits:
// all but the exact paths of the routes registered with rateExempt (the
// probes, the metrics scrape and the discovery documents).
func (s *server) rateLimited(path string) bool {
	return !s.unlimitedPaths[path]
}

// rateLimit answers 429 with Retry-After once a client (an IPv4 address,
// an IPv6 /64: rateKey) has used its requests for the minute, or once the
// sign-in routes have used the replica's shared sign-in budget
// (AuthRateLimitPerMin), and sets the RateLimit headers on the answers it
// lets through. The client's limit is taken first, so one client's flood
// is stopped by its own bucket before it drains much of the shared one.
func (s *server) rateLimit(next http.Handler) http.Handler {
	if s.ipLimiter == nil && s.authLimiter == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.rateLimited(r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		if s.ipLimiter != nil {
			res := s.ipLimiter.allow(rateKey(clientIPFrom(r)))
			setRateLimitHeaders(w.Header(), policyPerIP, s.opts.RateLimitPerMin, res)
			if !res.ok {
				s.writeError(w, r, &openjury.Error{Kind: openjury.RateLimited, Op: "transport.rateLimit",
					Detail: "too many requests: slow down", Err: openjury.RetryHint(res.wait)})
				return
			}
		}
		if r.Method == http.MethodPost && s.signInPaths[r.URL.Path] {
			if err := s.limitSignIn(w); err != nil {
				s.writeError(w, r, err)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// limitSignIn takes a token of the replica's shared sign-in budget
// (AuthRateLimitPerMin) and sets its RateLimit headers; it returns a
// RateLimited error when there is none. Nil when the limit is off.
func (s *server) limitSignIn(w http.ResponseWriter) error {
	if s.authLimiter == nil {
		return nil
	}
	res := s.authLimiter.allow()
	setRateLimitHeaders(w.Header(), policyAuth, s.opts.AuthRateLimitPerMin, res)
	if !res.ok {
		return &openjury.Error{Kind: openjury.RateLimited, Op: "transport.rateLimit",
			Detail: "too many sign-in requests on this server: try again shortly", Err: openjury.RetryHint(res.wait)}
	}
	return nil
}

// DefaultAuthRateLimitPerMin is the host's default of
// SERVICE_AUTH_RATE_LIMIT_PER_MIN: 600 sign-in requests (300 sign-ins) a
// minute per replica, far above what agents whose tokens last a day need,
// and a bound on the database writes and chain calls a flood of sign-ins
// from many networks can cause.
const DefaultAuthRateLimitPerMin = 600

// sharedLimiter is one token bucket shared by every client (the sign-in
// budget), safe for concurrent use.
type sharedLimiter struct {
	perMin int
	clock  openjury.Clock
	lim    *rate.Limiter
}

func newSharedLimiter(perMin int, clock openjury.Clock) *sharedLimiter {
	return &sharedLimiter{perMin: perMin, clock: clock, lim: rate.NewLimiter(rate.Limit(float64(perMin)/60), perMin)}
}

// allow takes one token of the shared bucket.
func (l *sharedLimiter) allow() limitResult { return take(l.lim, l.perMin, l.clock.Now()) }

// limitAddress takes a token of the signed-in caller's per-address limit
// (RateLimitPerAddressPerMin) and sets its RateLimit headers; it returns
// a RateLimited error when there is none. Off (nil) when the limit is.
func (s *server) limitAddress(w http.ResponseWriter, r *http.Request, addr openjury.Address) error {
	if s.addrLimiter == nil || !s.rateLimited(r.URL.Path) {
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
