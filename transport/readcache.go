package transport

import (
	"hash/maphash"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/singleflight"
)

// MaxReadCacheTTL bounds Options.ReadCacheTTL: a cached read is never
// more than this stale.
const MaxReadCacheTTL = time.Second

// Bounds of the read cache's memory: bodies over
// readCacheMaxBody are not kept, and a shard over its share of
// readCacheMaxBytes is emptied before it takes a new entry. An entry
// lives at most a second but stays in memory until its shard is emptied,
// so a replica whose lists are crawled holds the whole bound: 8 MiB (a
// second's worth of a few hundred pages of 50 jobs) keeps the cache's
// bursts of one page, where 64 MiB put 50-70 MiB on the Go heap of a warm
// 1,000,000-document replica (search.BenchmarkWarmReplica;
// docs/operations.md, "Memory of a replica").
const (
	readCacheShards   = 32
	readCacheMaxBytes = 8 << 20
	readCacheMaxBody  = 512 << 10
)

// readCache keeps the 200 answers of the routes registered as cached
// (route.cached: public data whose answer does not depend on the caller)
// to GETs, with or without an Authorization header, for at most ttl (<=
// MaxReadCacheTTL), so a write on another replica is seen within ttl. A write through this handler (any
// request other than GET, HEAD or OPTIONS, unless it was refused with a
// 4xx) empties it when it has been answered, so the writer's next read on
// this replica sees its write. Emptying is one atomic increment: entries
// carry the generation that was current when their read began, and only
// entries of the current generation are served, so a read that raced with
// a write is never kept.
type readCache struct {
	// routes are the patterns of the cached routes.
	routes map[string]bool
	ttl    time.Duration
	gen    atomic.Uint64
	seed   maphash.Seed
	shards [readCacheShards]cacheShard
	// flights joins concurrent misses of one generation and key.
	flights singleflight.Group
}

type cacheShard struct {
	mu      sync.Mutex
	entries map[string]*cacheEntry
	bytes   int
}

// cacheEntry is one kept answer: headers and body of a 200.
type cacheEntry struct {
	gen     uint64
	expires time.Time
	route   string
	header  http.Header
	body    []byte
}

func newReadCache(ttl time.Duration, routes map[string]bool) *readCache {
	c := &readCache{routes: routes, ttl: min(ttl, MaxReadCacheTTL), seed: maphash.MakeSeed()}
	for i := range c.shards {
		c.shards[i].entries = map[string]*cacheEntry{}
	}
	return c
}

func (c *readCache) shard(key string) *cacheShard {
	return &c.shards[maphash.String(c.seed, key)%readCacheShards]
}

// get returns the live entry for key, or nil.
func (c *readCache) get(key string, now time.Time) *cacheEntry {
	sh := c.shard(key)
	sh.mu.Lock()
	e := sh.entries[key]
	sh.mu.Unlock()
	if e == nil || e.gen != c.gen.Load() || !now.Before(e.expires) {
		return nil
	}
	return e
}

// put keeps e under key unless a write has come since its read began.
func (c *readCache) put(key string, e *cacheEntry) {
	if e.gen != c.gen.Load() {
		return
	}
	sh := c.shard(key)
	size := len(key) + len(e.body)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if old := sh.entries[key]; old != nil {
		sh.bytes -= len(key) + len(old.body)
	}
	if sh.bytes+size > readCacheMaxBytes/readCacheShards {
		clear(sh.entries)
		sh.bytes = 0
	}
	sh.entries[key] = e
	sh.bytes += size
}

// invalidate makes every kept entry stale.
func (c *readCache) invalidate() { c.gen.Add(1) }

// invalidatesCache empties the read cache once a write through
// next (any method but GET, HEAD and OPTIONS) is answered, unless it was
// refused with a 4xx (also when next panics: the write may have
// committed). cacheReads uses it for the API's writes; Options.App gets it
// on its own.
func (s *server) invalidatesCache(next http.Handler) http.Handler {
	if s.cache == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			next.ServeHTTP(w, r)
			return
		}
		rec := newRecorder(w)
		defer func() {
			if rec.status < 400 || rec.status >= 500 {
				s.cache.invalidate()
			}
		}()
		next.ServeHTTP(rec, r)
	})
}

// cacheReads answers reads of the cached routes from the cache and
// empties it after writes; see readCache. ReadCacheTTL <= 0 turns it off.
// It sits inside the access log, metrics and rate limits (the per-address
// limit of signed-in reads too), so cached answers are logged, counted and
// limited like the others. A signed-in GET of any other route skips it.
func (s *server) cacheReads(next http.Handler) http.Handler {
	if s.cache == nil {
		return next
	}
	c := s.cache
	others := s.invalidatesCache(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			others.ServeHTTP(w, r)
			return
		}
		if r.Header.Get("Authorization") != "" {
			// A signed-in read of a cacheable route is public data,
			// answered alike for everyone (its per-address limit was
			// counted by limitSignedReads); any other route may depend
			// on the caller and is never shared.
			if _, pattern := s.mux.Handler(r); !c.routes[pattern] {
				next.ServeHTTP(w, r)
				return
			}
		}
		// Only the cached routes' reads join a shared read: an answer that
		// never ends (the event stream) must not hold others waiting.
		// (A server without routes is a test of the cache alone.)
		if s.mux != nil {
			if _, pattern := s.mux.Handler(r); !c.routes[pattern] {
				next.ServeHTTP(w, r)
				return
			}
		}
		key := r.URL.Path + "?" + r.URL.RawQuery
		now := s.clock.Now()
		if e := c.get(key, now); e != nil {
			serveEntry(w, r, e)
			return
		}
		// Concurrent misses of one key and generation wait for one read
		// (the first) and share its answer; a request that began after a
		// write has a newer generation, so it never joins a read that may
		// predate the write.
		gen := c.gen.Load()
		led := false
		v, _, _ := c.flights.Do(strconv.FormatUint(gen, 10)+" "+key, func() (any, error) {
			led = true
			return c.fill(w, r, next, key, gen, now), nil
		})
		if led {
			return
		}
		// The shared read began before this request; it is served only if
		// it began less than the TTL before, like a kept entry.
		if e, _ := v.(*cacheEntry); e != nil && now.Before(e.expires) {
			serveEntry(w, r, e)
			return
		}
		next.ServeHTTP(w, r) // not cacheable, or a read too old to share
	})
}

// fill serves r through next, keeps a cacheable answer and returns it (nil
// when it is not cacheable).
func (c *readCache) fill(w http.ResponseWriter, r *http.Request, next http.Handler, key string, gen uint64, now time.Time) *cacheEntry {
	before := w.Header().Clone()
	tee := &teeWriter{recorder: newRecorder(w)}
	next.ServeHTTP(tee, r)
	info := infoFrom(r.Context())
	if tee.status != http.StatusOK || tee.overflow || info == nil || !c.routes[info.route] {
		return nil
	}
	// Keep only what the route wrote: the outer layers' headers (request
	// id, rate limits, CORS) belong to each request.
	header := http.Header{}
	for k, v := range w.Header() {
		if !slices.Equal(before[k], v) {
			header[k] = slices.Clone(v)
		}
	}
	e := &cacheEntry{gen: gen, expires: now.Add(c.ttl), route: info.route, header: header, body: tee.body}
	c.put(key, e)
	return e
}

// serveEntry answers r with a kept answer.
func serveEntry(w http.ResponseWriter, r *http.Request, e *cacheEntry) {
	if info := infoFrom(r.Context()); info != nil {
		info.route = e.route
	}
	h := w.Header()
	for k, v := range e.header {
		h[k] = v
	}
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(e.body)
}

// teeWriter also keeps a copy of the body, up to readCacheMaxBody.
type teeWriter struct {
	*recorder
	body     []byte
	overflow bool
}

func (w *teeWriter) Write(b []byte) (int, error) {
	if !w.overflow {
		if len(w.body)+len(b) > readCacheMaxBody {
			w.overflow, w.body = true, nil
		} else {
			w.body = append(w.body, b...)
		}
	}
	return w.recorder.Write(b)
}
