package main

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/openjury/openjury/internal/gcfloor"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/server"
)

// target is the server under load.
type target struct {
	base      string
	devSecret string
	describe  string
	// pid is the process whose peak RSS is reported (0: unknown), rssOf
	// says what it holds.
	pid   int
	rssOf string
	// dbPID is the PostgreSQL server the tool started (0: none), whose
	// CPU time (with its backends') the report shows per answer.
	dbPID int
	// http is the connection pool of every client of the target; clients
	// are the scenarios' clients (made once the wallets signed in).
	http    *http.Client
	clients *clients
}

// newHTTPClient returns the HTTP client of the load tool's clients: one
// keep-alive connection per worker (and as many spare), requests tagged
// with their operation (opTransport).
func newHTTPClient(c config) *http.Client {
	return &http.Client{Timeout: 30 * time.Second, Transport: opTransport{next: &http.Transport{
		MaxIdleConns: c.workers * 2, MaxIdleConnsPerHost: c.workers * 2,
	}}}
}

// startTarget returns the server to drive: -url, the host binary started
// on dsn, or an in-process server on dsn.
func startTarget(tb *runTB, c config, dsn string, out io.Writer) (*target, error) {
	t := &target{http: newHTTPClient(c)}
	tb.Cleanup(t.http.CloseIdleConnections)
	switch {
	case c.url != "":
		t.base, t.devSecret = strings.TrimRight(c.url, "/"), c.devSecret
		t.describe = "server at " + t.base
	case c.host != "":
		if err := t.startHost(tb, c, dsn, out); err != nil {
			return nil, err
		}
	default:
		srv := openjurytest.NewServer(tb, openjurytest.WithDSN(dsn), openjurytest.WithConfig(func(sc *openjurytest.ServerConfig) {
			sc.RateLimitPerMin = c.rateLimit
			sc.RateLimitPerAddressPerMin = c.rateLimit
			sc.ReadCacheTTL = time.Duration(c.readCacheMS) * time.Millisecond
			sc.WebhookAllowPrivate = true // the events scenario's receiver is local
			sc.EventStreamsMax = max(sc.EventStreamsMax, c.sse+100)
			sc.WebhookConcurrency = c.webhookConcurrency
			sc.Logger = slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
		}))
		// The fake clock stands still at the real time of the start, so
		// seeded boosts and vote windows line up with it.
		srv.Clock.Set(time.Now())
		t.base, t.devSecret = srv.URL, openjurytest.DevSecret
		t.describe = fmt.Sprintf("in-process server on %s, read cache %d ms", srv.DB.Dialect(), c.readCacheMS)
		t.pid, t.rssOf = os.Getpid(), "this process (server and load generator)"
		// The host binary's heap floor, so that a profile of the service
		// in process sees the collector the host runs with.
		tb.Cleanup(gcfloor.Start(uint64(server.DefaultGCHeapFloorMB) << 20))
	}
	return t, nil
}

// hostStartTimeout bounds the wait for the host to listen: it migrates
// the database first, which takes minutes on a large one.
const hostStartTimeout = 15 * time.Minute

// startHost runs the host binary on dsn with its request log at warn, a
// fresh dev secret and the -rate-limit, and stops it (SIGTERM) at cleanup.
func (t *target) startHost(tb *runTB, c config, dsn string, out io.Writer) error {
	secret := make([]byte, 16)
	_, _ = rand.Read(secret)
	t.devSecret = hex.EncodeToString(secret)
	// The base URL names the port, so that the sign-in messages name the
	// server the client calls (the client refuses any other): a port free
	// a moment ago.
	port, err := freePort()
	if err != nil {
		return err
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	cmd := exec.Command(c.host)
	cmd.Env = append(os.Environ(),
		"SERVICE_ADDR="+addr,
		"SERVICE_DATABASE_URL="+dsn,
		"SERVICE_BASE_URL=http://"+addr,
		"SERVICE_LOG_LEVEL=warn",
		"SERVICE_DEV_SECRET="+t.devSecret,
		"SERVICE_RATE_LIMIT_PER_MIN="+strconv.Itoa(c.rateLimit),
		"SERVICE_RATE_LIMIT_PER_ADDRESS_PER_MIN="+strconv.Itoa(c.rateLimit),
		"SERVICE_READ_CACHE_MS="+strconv.Itoa(c.readCacheMS),
		"SERVICE_WEBHOOK_ALLOW_PRIVATE=1",
		"SERVICE_EVENT_STREAMS_MAX="+strconv.Itoa(max(10_000, c.sse+100)),
		"SERVICE_WEBHOOK_CONCURRENCY="+strconv.Itoa(c.webhookConcurrency),
	)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", c.host, err)
	}
	tb.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	listening := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if a, ok := strings.CutPrefix(sc.Text(), "listening on "); ok {
				select {
				case listening <- a: // the first listener
				default:
				}
			}
		}
		close(listening)
	}()
	select {
	case a, ok := <-listening:
		if !ok {
			return errors.New("the host exited before listening")
		}
		t.base = a
	case <-time.After(hostStartTimeout):
		return fmt.Errorf("the host did not listen within %s", hostStartTimeout)
	}
	if err := loopbackOnly(t.base); err != nil {
		return err
	}
	t.describe = fmt.Sprintf("host binary %s at %s, read cache %d ms", c.host, t.base, c.readCacheMS)
	t.pid, t.rssOf = cmd.Process.Pid, "the host process"
	fmt.Fprintf(out, "started %s (pid %d)\n", t.describe, t.pid)
	return nil
}

// freePort returns a TCP port of 127.0.0.1 that was free a moment ago.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// peakRSS is the high-water mark of the resident set of t.pid (VmHWM), 0
// when unknown.
func (t *target) peakRSS() int64 {
	if t.pid == 0 {
		return 0
	}
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", t.pid))
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}
