package transport

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// movingClock is a clock tests move by hand, safe for concurrent use.
type movingClock struct{ ns atomic.Int64 }

func newMovingClock(t time.Time) *movingClock {
	c := &movingClock{}
	c.ns.Store(t.UnixNano())
	return c
}

func (c *movingClock) Now() time.Time { return time.Unix(0, c.ns.Load()) }

func (c *movingClock) advance(d time.Duration) { c.ns.Add(int64(d)) }

// TestClientLimiterShardsSweepIdleClients: idle clients are forgotten,
// and a client keeps its own bucket in its shard.
func TestClientLimiterShardsSweepIdleClients(t *testing.T) {
	t.Parallel()
	clk := newMovingClock(time.Unix(1_800_000_000, 0))
	l := newClientLimiter(2, 0, clk)
	for i := range 200 {
		require.True(t, l.allow(fmt.Sprintf("198.51.100.%d", i)).ok)
	}
	require.Equal(t, 200, l.size())
	used := 0
	for i := range l.shards {
		if len(l.shards[i].buckets) > 0 {
			used++
		}
	}
	require.Greater(t, used, limiterShards/2, "clients spread over the shards")

	res := l.allow("198.51.100.7")
	require.True(t, res.ok, "the second of two a minute")
	require.Zero(t, res.remaining)
	require.Equal(t, time.Minute, res.reset, "two tokens missing at two a minute")
	res = l.allow("198.51.100.7")
	require.False(t, res.ok)
	require.Equal(t, 30*time.Second, res.wait)
	require.Equal(t, 30*time.Second, res.reset)

	clk.advance(limiterIdle + time.Second)
	key := "203.0.113.1"
	sh := l.shard(key)
	require.True(t, l.allow(key).ok)
	require.Len(t, sh.buckets, 1, "the shard dropped its idle clients and kept the new one")
}

// TestClientLimiterIsBounded: a flood of distinct IPv4 clients, far more
// than the limiter keeps, never grows it past its bound.
func TestClientLimiterIsBounded(t *testing.T) {
	t.Parallel()
	clk := newMovingClock(time.Unix(1_800_000_000, 0))
	const maxBuckets = 1024
	l := newClientLimiter(3, maxBuckets, clk)
	for i := range 100_000 {
		res := l.allow(fmt.Sprintf("10.%d.%d.%d", i>>16&0xff, i>>8&0xff, i&0xff))
		require.True(t, res.ok, "each new client has its own full bucket")
		if i%997 == 0 {
			clk.advance(time.Millisecond)
		}
	}
	require.LessOrEqual(t, l.size(), maxBuckets)
	require.Greater(t, l.size(), maxBuckets/2, "the shards are used")
}

// TestClientLimiterEvictionKeepsSpentBuckets: a full shard gives up a
// bucket that is full again (nothing is forgotten) before one still being
// spent, so new clients do not reset an attacker's bucket; it goes only
// once more new clients than its shard holds came after it.
func TestClientLimiterEvictionKeepsSpentBuckets(t *testing.T) {
	t.Parallel()
	clk := newMovingClock(time.Unix(1_800_000_000, 0))
	l := newClientLimiter(3, limiterShards*4, clk) // 4 buckets a shard, 3 a minute
	attacker := "198.51.100.66"
	for range 3 {
		require.True(t, l.allow(attacker).ok)
	}
	require.False(t, l.allow(attacker).ok, "spent")
	sh := l.shard(attacker)
	others := keysInShard(l, sh, 7, attacker)
	for _, k := range others[:3] {
		require.True(t, l.allow(k).ok) // the shard is full now
	}
	// 20 s later the three others are full again; the attacker has one
	// token of three. Three new clients take the full buckets' places.
	clk.advance(20 * time.Second)
	for _, k := range others[3:6] {
		require.True(t, l.allow(k).ok)
	}
	require.Len(t, sh.buckets, 4)
	_, kept := sh.buckets[attacker]
	require.True(t, kept, "the spent bucket outlived the full ones")
	require.True(t, l.allow(attacker).ok, "the one token that came back")
	require.False(t, l.allow(attacker).ok, "and no more: nothing was reset")

	// With no bucket full again, a new client replaces the least recently
	// used one.
	require.True(t, l.allow(others[6]).ok)
	require.Len(t, sh.buckets, 4)
	_, kept = sh.buckets[others[3]]
	require.False(t, kept, "the least recently used bucket went")
}

// keysInShard returns n distinct IPv4 keys (not skip) that fall in sh.
func keysInShard(l *clientLimiter, sh *limiterShard, n int, skip string) []string {
	var out []string
	for i := 0; len(out) < n; i++ {
		k := fmt.Sprintf("10.9.%d.%d", i>>8&0xff, i&0xff)
		if k != skip && l.shard(k) == sh {
			out = append(out, k)
		}
	}
	return out
}

// TestRateKey: IPv4 by address, IPv6 by /64, anything else as it is.
func TestRateKey(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"203.0.113.7":                 "203.0.113.7",
		"2001:db8:1:2:aaaa:bbbb:cc:d": "2001:db8:1:2::/64",
		"2001:db8:1:2::1":             "2001:db8:1:2::/64",
		"2001:db8:1:3::1":             "2001:db8:1:3::/64",
		"::1":                         "::/64",
		"pipe":                        "pipe",
	} {
		require.Equal(t, want, rateKey(in), in)
	}
}

// BenchmarkClientLimiter measures one allow: a client seen before (the
// steady state) and a flood of new clients into a full limiter (every
// call evicts).
func BenchmarkClientLimiter(b *testing.B) {
	clk := newMovingClock(time.Unix(1_800_000_000, 0))
	keys := make([]string, 1<<16)
	for i := range keys {
		keys[i] = fmt.Sprintf("10.%d.%d.%d", i>>16&0xff, i>>8&0xff, i&0xff)
	}
	b.Run("known", func(b *testing.B) {
		l := newClientLimiter(1<<30, 0, clk)
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			l.allow(keys[i&1023])
		}
	})
	b.Run("flood", func(b *testing.B) {
		l := newClientLimiter(300, 4096, clk)
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			l.allow(keys[i&(len(keys)-1)])
		}
		if l.size() > 4096 {
			b.Fatal("unbounded")
		}
	})
}
