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

// TestClientLimiterShardsSweepIdleClients: each shard forgets its idle
// clients on its own, and a client keeps its own bucket in its shard.
func TestClientLimiterShardsSweepIdleClients(t *testing.T) {
	t.Parallel()
	clk := newMovingClock(time.Unix(1_800_000_000, 0))
	l := newClientLimiter(2, clk)
	buckets := func() (n int) {
		for i := range l.shards {
			n += len(l.shards[i].buckets)
		}
		return n
	}
	for i := range 200 {
		require.True(t, l.allow(fmt.Sprintf("198.51.100.%d", i)).ok)
	}
	require.Equal(t, 200, buckets())
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
	before, inShard := buckets(), len(sh.buckets)
	require.True(t, l.allow(key).ok)
	require.Len(t, sh.buckets, 1, "the shard swept its idle clients and kept the new one")
	require.Equal(t, before-inShard+1, buckets(), "the other shards sweep on their own turn")
}
