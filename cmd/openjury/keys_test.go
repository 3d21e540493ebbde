package main_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/client"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest"
)

// addressRE finds the address keygen prints.
var addressRE = regexp.MustCompile(`(?m)^address  (0x[0-9a-fA-F]{40})$`)

// TestKeygen: keygen writes a 0600 key file under OPENJURY_HOME, prints
// its address and path but not the key (unless --show-key), never
// overwrites, and the key signs in by --key NAME, --key PATH (before or
// after the command), OPENJURY_KEY, or as the default key.
func TestKeygen(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	home := t.TempDir()
	withHome := []string{"OPENJURY_HOME=" + home}

	r := run(t, srv.URL, nil, withHome, "keygen", "--name", "sponsor")
	require.Equal(t, 0, r.code, r.stderr)
	path := filepath.Join(home, "keys", "sponsor.key")
	require.Contains(t, r.stdout, "key file "+path+" (mode 0600")
	require.Contains(t, r.stdout, "openjury --key sponsor")
	m := addressRE.FindStringSubmatch(r.stdout)
	require.NotNil(t, m, r.stdout)
	addr := m[1]
	st, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	key, err := crypto.HexToECDSA(strings.TrimSpace(string(raw)))
	require.NoError(t, err)
	require.Equal(t, addr, crypto.PubkeyToAddress(key.PublicKey).Hex(), "the file holds the printed address's key")
	require.NotContains(t, r.stdout, strings.TrimSpace(string(raw)), "the key is never printed")
	require.NotContains(t, r.stderr, strings.TrimSpace(string(raw)))

	// Never overwrites.
	r = run(t, srv.URL, nil, withHome, "keygen", "--name", "sponsor")
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, "already exists")
	again, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, raw, again)

	// The key signs in, named or by path, before or after the command.
	lower := strings.ToLower(addr)
	for _, args := range [][]string{
		{"--key", "sponsor", "login"},
		{"login", "--key", "sponsor"},
		{"--key", path, "login"},
		{"--json", "--key=sponsor", "login"},
	} {
		r = run(t, srv.URL, nil, withHome, args...)
		require.Equal(t, 0, r.code, "%v: %s", args, r.stderr)
		require.Contains(t, r.stdout, lower, "%v", args)
	}
	r = run(t, srv.URL, nil, append(withHome, "OPENJURY_KEY=sponsor"), "login")
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, lower)

	// No key named and no default key yet; then the default key.
	r = run(t, srv.URL, nil, withHome, "login")
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, "openjury keygen")
	var made struct {
		Name, Address, Path string
		PrivateKey          string `json:"private_key"`
	}
	r = run(t, srv.URL, nil, withHome, "keygen", "--json", "--show-key")
	require.Equal(t, 0, r.code, r.stderr)
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &made))
	require.Equal(t, "default", made.Name)
	require.Equal(t, filepath.Join(home, "keys", "default.key"), made.Path)
	shown, err := crypto.HexToECDSA(strings.TrimPrefix(made.PrivateKey, "0x"))
	require.NoError(t, err, "--show-key prints the key")
	require.Equal(t, made.Address, crypto.PubkeyToAddress(shown.PublicKey).Hex())
	r = run(t, srv.URL, nil, withHome, "login")
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, strings.ToLower(made.Address))
	// An explicit key wins over the default one.
	r = run(t, srv.URL, nil, withHome, "--key", "sponsor", "login")
	require.Contains(t, r.stdout, lower)

	// --out writes where told; a key readable by others is refused.
	out := filepath.Join(t.TempDir(), "mine.key")
	r = run(t, srv.URL, nil, withHome, "keygen", "--out", out)
	require.Equal(t, 0, r.code, r.stderr)
	require.NoError(t, os.Chmod(out, 0o644))
	r = run(t, srv.URL, nil, withHome, "--key", out, "login")
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, "chmod 600")

	// Usage mistakes.
	for _, args := range [][]string{
		{"keygen", "--name", "../escape"},
		{"keygen", "--name", ".hidden"},
		{"keygen", "extra-arg"},
		{"--key", "nope", "--keystore", "x", "login"},
		{"--key", "bad name", "login"},
	} {
		r = run(t, srv.URL, nil, withHome, args...)
		require.Equal(t, 2, r.code, "%v: %s", args, r.stderr)
	}
	r = run(t, srv.URL, nil, withHome, "--key", "missing", "login")
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, "does not exist")
	entries, err := os.ReadDir(filepath.Join(home, "keys"))
	require.NoError(t, err)
	require.Len(t, entries, 2, "sponsor and default only")
}

// commandNames are the commands `openjury help` lists.
func commandNames(t *testing.T, url string) []string {
	t.Helper()
	r := run(t, url, nil, nil, "help")
	require.Equal(t, 0, r.code)
	_, list, ok := strings.Cut(r.stdout, "Commands:\n")
	require.True(t, ok, r.stdout)
	list, _, _ = strings.Cut(list, "\n\n")
	var names []string
	for line := range strings.Lines(list) {
		names = append(names, strings.Fields(line)[0])
	}
	return names
}

// flagRE finds the flags a synopsis names.
var flagRE = regexp.MustCompile(`--([a-z][a-z-]*)`)

// TestHelpAndGlobalFlags: every command has --help (exit 0, its synopsis,
// every flag its synopsis names and the global ones, an example, the exit
// codes), `help COMMAND` is the same, and global flags work before and
// after the command.
func TestHelpAndGlobalFlags(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	names := commandNames(t, srv.URL)
	require.ElementsMatch(t, []string{"keygen", "login", "logout", "jobs", "job", "post-job", "submit", "vote", "reveal", "jury", "final-vote", "finalize",
		"close", "comment", "comments", "posts", "search", "boost", "status", "leaderboard", "dev", "events", "anchor", "escrow", "claim", "mcp", "sign-message", "version"}, names)
	for _, name := range names {
		r := run(t, srv.URL, nil, nil, name, "--help")
		require.Equal(t, 0, r.code, "%s --help: %s", name, r.stderr)
		require.Empty(t, r.stderr, name)
		usage, _, _ := strings.Cut(r.stdout, "\n")
		require.True(t, strings.HasPrefix(usage, "Usage: openjury "+name), name)
		for _, m := range flagRE.FindAllStringSubmatch(usage, -1) {
			require.Regexp(t, `\n  -`+m[1]+`[ \n]`, r.stdout, "%s --help does not describe --%s", name, m[1])
		}
		for _, global := range []string{"url", "key", "keystore", "chain-id", "insecure", "json"} {
			require.Contains(t, r.stdout, "\n  -"+global, name)
		}
		require.Contains(t, r.stdout, "Example:\n  openjury ", name)
		require.Contains(t, r.stdout, "Exit codes: 0 success; 1 ", name)
		require.Equal(t, r, run(t, srv.URL, nil, nil, "help", name))
	}
	r := run(t, srv.URL, nil, nil, "submit", "--help")
	require.Contains(t, r.stdout, "-content string")
	require.Contains(t, r.stdout, "-content-file string")
	// The help quotes the limits the service enforces, from their constants.
	require.Contains(t, r.stdout, fmt.Sprintf("the work itself (1..%d characters)", marketplace.MaxContentChars))
	require.Contains(t, r.stdout, fmt.Sprintf("at most %d Evidence objects", marketplace.MaxEvidence))
	r = run(t, srv.URL, nil, nil, "post-job", "--help")
	require.Contains(t, r.stdout, fmt.Sprintf("the title (1..%d characters)", marketplace.MaxTitleChars))
	require.Contains(t, r.stdout, fmt.Sprintf("a tag of 1..%d characters (repeatable, at most %d)", marketplace.MaxTagChars, marketplace.MaxTags))
	r = run(t, srv.URL, nil, nil, "boost", "--help")
	require.Contains(t, r.stdout, fmt.Sprintf("AGR to spend, 1..%d", marketplace.MaxBoostAGR))
	r = run(t, srv.URL, nil, nil, "--help")
	require.Equal(t, 0, r.code)
	require.Contains(t, r.stdout, "keygen")
	require.Contains(t, r.stdout, "Exit codes")

	for _, args := range [][]string{{"--json", "jobs"}, {"jobs", "--json"}, {"--url", srv.URL, "--json", "jobs"}} {
		r := run(t, "http://127.0.0.1:1", nil, nil, args...)
		if args[0] != "--url" {
			r = run(t, srv.URL, nil, nil, args...)
		}
		require.Equal(t, 0, r.code, "%v: %s", args, r.stderr)
		var jobs []client.Job
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &jobs), "%v", args)
	}
	r = run(t, srv.URL, nil, nil, "--no-such-flag", "jobs")
	require.Equal(t, 2, r.code)
	r = run(t, "http://127.0.0.1:1", nil, nil, "jobs")
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, "cannot reach the server at http://127.0.0.1:1")
}

// TestDevCommand: dev stake/reputation/mint call the dev endpoints, for
// the key's address by default, with the secret from --dev-secret or
// OPENJURY_DEV_SECRET; without it such a server says no.
func TestDevCommand(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	a := newAgent(t)
	r := run(t, srv.URL, &a, nil, "dev", "stake", "10")
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, "server answered 401: invalid dev secret")

	r = run(t, srv.URL, &a, nil, "dev", "stake", "12.5", "--dev-secret", openjurytest.DevSecret)
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "stake of "+a.addr+" is now 12.5 USDC (may submit and vote: true)")
	other := newAgent(t)
	r = run(t, srv.URL, nil, []string{"OPENJURY_DEV_SECRET=" + openjurytest.DevSecret}, "dev", "reputation", other.addr, "16")
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "reputation of "+other.addr+" is now 16")
	var agr client.AgrStatus
	runJSON(t, srv.URL, &a, &agr, "--url", srv.URL, "dev", "mint", "7", "--dev-secret", openjurytest.DevSecret)
	require.EqualValues(t, 7, agr.Balance)

	var st struct {
		Stake      client.StakeStatus `json:"stake"`
		Reputation client.Reputation  `json:"reputation"`
	}
	runJSON(t, srv.URL, nil, &st, "status", other.addr)
	require.EqualValues(t, 16, st.Reputation.Score)

	for _, args := range [][]string{{"dev"}, {"dev", "stake"}, {"dev", "fly", "1"}, {"dev", "stake", "ten"}, {"dev", "mint", "0"}, {"dev", "stake", "a", "b", "c"}} {
		r := run(t, srv.URL, &a, nil, args...)
		require.Equal(t, 2, r.code, "%v: %s", args, r.stderr)
	}
}

// TestCLISignsOnlyWhatItShould: the CLI refuses a hostile server's
// sign-in message (no signature leaves it), a message for another chain
// with --chain-id or OPENJURY_CHAIN_ID, and plain http off loopback
// without --insecure.
func TestCLISignsOnlyWhatItShould(t *testing.T) {
	t.Parallel()
	a := newAgent(t)
	var verifies int
	hostile := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/api/v1/agents/auth/verify" {
			verifies++
		}
		_ = json.NewEncoder(w).Encode(map[string]any{
			"address": a.addr, "nonce": "0123456789abcdef", "expires_in_seconds": 300,
			"message_to_sign": "bank.example wants you to sign in with your Ethereum account:\n" + checksum(a.addr) +
				"\n\nSign in.\n\nURI: https://bank.example\nVersion: 1\nChain ID: 1\nNonce: 0123456789abcdef\nIssued At: 2030-01-01T00:00:00Z\nExpiration Time: 2030-01-01T00:05:00Z",
		})
	}))
	defer hostile.Close()
	r := run(t, hostile.URL, &a, nil, "login")
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, `refusing to sign the sign-in message: the message is for domain "bank.example"`)
	require.Zero(t, verifies)

	srv := newServer(t)
	r = run(t, srv.URL, &a, nil, "--chain-id", "1", "login")
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, "expected chain id is 1")
	r = run(t, srv.URL, &a, []string{"OPENJURY_CHAIN_ID=1"}, "login")
	require.Equal(t, 1, r.code)
	r = run(t, srv.URL, &a, nil, "login", "--chain-id", "8453")
	require.Equal(t, 0, r.code, r.stderr)
	r = run(t, srv.URL, &a, nil, "login", "--chain-id", "x")
	require.Equal(t, 2, r.code)

	r = run(t, "http://jury.example.com", &a, nil, "jobs")
	require.Equal(t, 2, r.code)
	require.Contains(t, r.stderr, "--insecure")
}

// checksum is the EIP-55 form of a lowercase address.
func checksum(addr string) string { return common.HexToAddress(addr).Hex() }
