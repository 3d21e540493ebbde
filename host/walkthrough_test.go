package main

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/openjurytest"
)

// runningRE finds the URL the host prints once it serves.
var runningRE = regexp.MustCompile(`OpenJury is running at (http://\S+)/`)

// walkthroughHost is the host binary started the way a new user starts it.
type walkthroughHost struct {
	cmd    *exec.Cmd
	url    string
	stdout *openjurytest.Buffer
	stderr *openjurytest.Buffer
	done   chan error
}

// startWalkthroughHost runs bin in dir with only PATH and HOME set plus
// vars, and waits for its "OpenJury is running at" line. It returns nil
// when the host exits first (a port taken), with what it printed.
func startWalkthroughHost(t *testing.T, bin, dir, home string, vars ...string) (*walkthroughHost, string) {
	t.Helper()
	h := &walkthroughHost{cmd: exec.Command(bin), stdout: &openjurytest.Buffer{}, stderr: &openjurytest.Buffer{}, done: make(chan error, 1)}
	h.cmd.Dir = dir
	h.cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + home}, vars...)
	h.cmd.Stderr = h.stderr
	pipe, err := h.cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, h.cmd.Start())
	running := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			h.stdout.Write([]byte(sc.Text() + "\n"))
			if m := runningRE.FindStringSubmatch(sc.Text()); m != nil {
				running <- m[1]
			}
		}
		_, _ = io.Copy(io.Discard, pipe)
	}()
	go func() { h.done <- h.cmd.Wait() }()
	select {
	case h.url = <-running:
	case err := <-h.done:
		return nil, h.stderr.String() + h.stdout.String() + err.Error()
	case <-time.After(2 * time.Minute):
		_ = h.cmd.Process.Kill()
		t.Fatalf("the host did not start\nstdout: %s\nstderr: %s", h.stdout.String(), h.stderr.String())
	}
	t.Cleanup(func() {
		_ = h.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-h.done:
			require.NoError(t, err, "host exit: %s", h.stderr.String())
		case <-time.After(30 * time.Second):
			_ = h.cmd.Process.Kill()
			t.Errorf("the host did not stop\n%s", h.stderr.String())
		}
	})
	return h, ""
}

// portsFree reports whether 127.0.0.1:8080 (and [::1]:8080 where the
// machine has IPv6 loopback) can be listened on now.
func portsFree() bool {
	ln, err := net.Listen("tcp", "127.0.0.1:8080")
	if err != nil {
		return false
	}
	defer ln.Close()
	ln6, err := net.Listen("tcp", "[::1]:8080")
	if err == nil {
		_ = ln6.Close()
	}
	return err == nil || !strings.Contains(err.Error(), "address already in use")
}

// TestREADMEWalkthrough runs the README's five-minute walk-through
// against the host and CLI binaries on a fresh data directory, with no
// setting at all: keys, a job, stake through the dev endpoints of local
// development mode, a submission, the sponsor's close and the anchor
// verified. Where port 8080 is taken (a CI machine) the host is started
// in local development mode on a free loopback port instead
// (SERVICE_DEV_MODE=1, SERVICE_ADDR=127.0.0.1:0) and the CLI gets --url.
func TestREADMEWalkthrough(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs both binaries")
	}
	bins := t.TempDir()
	host := buildHost(t)
	cli := filepath.Join(bins, "openjury")
	out, err := exec.Command("go", "build", "-o", cli, "../cmd/openjury").CombinedOutput()
	require.NoError(t, err, "go build: %s", out)

	dir, home := t.TempDir(), t.TempDir() // a fresh clone's working directory; the user's home
	began := time.Now()
	var h *walkthroughHost
	var urlFlag []string
	if portsFree() {
		var why string
		if h, why = startWalkthroughHost(t, host, dir, home); h == nil {
			t.Logf("port 8080 taken meanwhile: %s", why)
		}
	}
	if h == nil {
		h, _ = startWalkthroughHost(t, host, dir, home, "SERVICE_DEV_MODE=1", "SERVICE_ADDR=127.0.0.1:0")
		require.NotNil(t, h, "the host did not start")
		urlFlag = []string{"--url", h.url}
		t.Logf("port 8080 is taken: the host runs at %s (SERVICE_DEV_MODE=1)", h.url)
	} else {
		require.Equal(t, "http://localhost:8080", h.url)
	}
	started := h.stdout.String()
	require.Contains(t, started, "OpenJury: applying ")
	require.Contains(t, started, "OpenJury: database ready")
	require.Contains(t, started, "Local development mode: listening on this machine only")
	require.FileExists(t, filepath.Join(dir, "data", "openjury.db"))

	// openjury runs the CLI as the user would, and returns its stdout.
	openjury := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(cli, append(args, urlFlag...)...)
		cmd.Dir = dir
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home}
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		require.NoError(t, cmd.Run(), "openjury %s\nstdout: %s\nstderr: %s", strings.Join(args, " "), stdout.String(), stderr.String())
		return stdout.String()
	}
	find := func(re, text string) string {
		t.Helper()
		m := regexp.MustCompile(re).FindStringSubmatch(text)
		require.NotNil(t, m, "%s in:\n%s", re, text)
		return m[1]
	}

	// The commands are the README's own, in its order, with JOB_ID and
	// SUBMISSION_ID replaced by what the earlier commands printed.
	cmds := readmeCommands(t, "../README.md")
	require.GreaterOrEqual(t, len(cmds), 7, "the README's walk-through block lost its commands")
	vars := map[string]string{}
	var addresses []string
	var root string
	ran := map[string]bool{}
	for _, args := range cmds {
		for i, a := range args {
			if v, ok := vars[a]; ok {
				args[i] = v
			}
		}
		out := openjury(args...)
		cmd := walkthroughCommand(args)
		ran[cmd] = true
		switch cmd {
		case "keygen":
			addresses = append(addresses, find(`(?m)^address  (0x[0-9a-fA-F]{40})$`, out))
		case "post-job":
			vars["JOB_ID"] = find(`(?m)^posted job (\S+)$`, out)
			require.Contains(t, out, "openjury submit "+vars["JOB_ID"])
		case "dev":
			require.Regexp(t, `stake of 0x[0-9a-f]{40} is now 10 USDC \(may submit and vote: true\)`, out)
		case "submit":
			vars["SUBMISSION_ID"] = find(`(?m)^submitted (\S+) to job `+regexp.QuoteMeta(vars["JOB_ID"])+`$`, out)
			require.Contains(t, out, "openjury close "+vars["JOB_ID"]+" "+vars["SUBMISSION_ID"])
		case "close":
			require.Contains(t, out, "job "+vars["JOB_ID"]+" closed; winner "+vars["SUBMISSION_ID"])
			root = find(`(?m)^anchor root (0x[0-9a-f]{64})$`, out)
		case "anchor":
			require.Contains(t, out, "anchor of job "+vars["JOB_ID"]+" verified: root "+root)
		}
	}
	for _, c := range []string{"keygen", "post-job", "dev", "submit", "close", "anchor"} {
		require.Truef(t, ran[c], "the README's walk-through no longer runs %q", c)
	}
	require.Len(t, addresses, 2)
	require.NotEqual(t, addresses[0], addresses[1])

	shown := openjury("job", vars["JOB_ID"])
	require.Contains(t, shown, "[closed]")
	require.Contains(t, shown, "winner: "+vars["SUBMISSION_ID"])
	t.Logf("walk-through took %s (host start included, builds excluded)", time.Since(began).Round(time.Millisecond))
}

// readmeCommands returns the `./openjury ...` lines of the README's
// walk-through, split into arguments as a shell would (double quotes kept
// together, a trailing # comment dropped), in order.
func readmeCommands(t *testing.T, path string) [][]string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var cmds [][]string
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "./openjury ") {
			continue
		}
		var args []string
		var cur strings.Builder
		inQuote, have := false, false
		for _, r := range strings.TrimPrefix(line, "./openjury ") {
			switch {
			case r == '"':
				inQuote, have = !inQuote, true
			case r == '#' && !inQuote && !have:
				goto done
			case (r == ' ' || r == '\t') && !inQuote:
				if have {
					args = append(args, cur.String())
					cur.Reset()
					have = false
				}
			default:
				cur.WriteRune(r)
				have = true
			}
		}
	done:
		if have {
			args = append(args, cur.String())
		}
		require.False(t, inQuote, "unbalanced quote in README line %q", line)
		cmds = append(cmds, args)
	}
	return cmds
}

// walkthroughCommand is the command of a CLI invocation: its first
// argument that is not a global flag or a flag's value.
func walkthroughCommand(args []string) string {
	for i := 0; i < len(args); i++ {
		if args[i] == "--key" || args[i] == "--url" {
			i++
			continue
		}
		if !strings.HasPrefix(args[i], "-") {
			return args[i]
		}
	}
	return ""
}
