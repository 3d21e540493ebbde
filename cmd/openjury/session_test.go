package main_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/client"
)

// savedSession is a session file as the command writes it.
type savedSession struct {
	Server    string    `json:"server"`
	Address   string    `json:"address"`
	Token     string    `json:"access_token"`
	ExpiresAt time.Time `json:"expires_at"`
}

// sessionFiles lists the session files under home.
func sessionFiles(t *testing.T, home string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(home, "sessions", "*.json"))
	require.NoError(t, err)
	return files
}

// readSession reads the one session file under home, checking its mode.
func readSession(t *testing.T, home string) (string, savedSession) {
	t.Helper()
	files := sessionFiles(t, home)
	require.Len(t, files, 1)
	st, err := os.Stat(files[0])
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	dir, err := os.Stat(filepath.Dir(files[0]))
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o700), dir.Mode().Perm())
	raw, err := os.ReadFile(files[0])
	require.NoError(t, err)
	var s savedSession
	require.NoError(t, json.Unmarshal(raw, &s))
	return files[0], s
}

// writeSession overwrites a session file (mode 0600 unless mode says).
func writeSession(t *testing.T, path string, s savedSession, mode os.FileMode) {
	t.Helper()
	raw, err := json.Marshal(s)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, raw, mode))
	require.NoError(t, os.Chmod(path, mode))
}

// TestSessionCache: login saves the token (0600, in a 0700 directory,
// never printed unless asked); the next commands use it without signing
// in (a pinned chain id that would refuse any sign-in does not matter);
// a stale, forged or world-readable session is not used; logout revokes
// the token on the server and forgets it.
func TestSessionCache(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	home := t.TempDir()
	env := []string{"OPENJURY_HOME=" + home}
	require.Equal(t, 0, run(t, srv.URL, nil, env, "keygen", "--name", "a").code)
	key := append(env, "OPENJURY_KEY=a")
	postJob := []string{"post-job", "--title", "Cached", "--prompt", "Session test.", "--bounty", "1", "--json"}
	wrongChain := append([]string{"--chain-id", "1"}, postJob...) // the server is on 8453

	r := run(t, srv.URL, nil, key, "login")
	require.Equal(t, 0, r.code, r.stderr)
	path, s := readSession(t, home)
	require.Equal(t, srv.URL, s.Server)
	require.NotEmpty(t, s.Token)
	require.NotContains(t, r.stdout, s.Token, "the token is printed only when asked")
	require.WithinDuration(t, time.Now().Add(24*time.Hour), s.ExpiresAt, time.Hour)

	var shown struct {
		AccessToken string `json:"access_token"`
		Address     string `json:"address"`
	}
	r = run(t, srv.URL, nil, key, "login", "--show-token", "--json")
	require.Equal(t, 0, r.code, r.stderr)
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &shown))
	_, s = readSession(t, home)
	require.Equal(t, s.Token, shown.AccessToken, "login signs in anew and saves that token")

	// The saved token is used: no sign-in happens (it would be refused).
	r = run(t, srv.URL, nil, key, wrongChain...)
	require.Equal(t, 0, r.code, r.stderr)
	var job client.Job
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &job))
	require.Equal(t, s.Address, *job.SponsorAddress)
	// Another home has no session: the same command signs in and is refused.
	r = run(t, srv.URL, nil, []string{"OPENJURY_HOME=" + t.TempDir(), "OPENJURY_KEY=" + filepath.Join(home, "keys", "a.key")}, wrongChain...)
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, "expected chain id is 1")

	// A token the server does not know: the command signs in again and
	// saves the new token.
	writeSession(t, path, savedSession{Server: s.Server, Address: s.Address, Token: "forged", ExpiresAt: s.ExpiresAt}, 0o600)
	r = run(t, srv.URL, nil, key, postJob...)
	require.Equal(t, 0, r.code, r.stderr)
	_, renewed := readSession(t, home)
	require.NotEqual(t, "forged", renewed.Token)
	r = run(t, srv.URL, nil, key, wrongChain...)
	require.Equal(t, 0, r.code, "the renewed session is used: %s", r.stderr)

	// An expired session is not used; nor one others can read.
	writeSession(t, path, savedSession{Server: s.Server, Address: s.Address, Token: renewed.Token, ExpiresAt: time.Now().Add(-time.Minute)}, 0o600)
	r = run(t, srv.URL, nil, key, wrongChain...)
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, "expected chain id is 1")
	writeSession(t, path, renewed, 0o644)
	r = run(t, srv.URL, nil, key, wrongChain...)
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, "others can read it")
	require.NoError(t, os.Chmod(path, 0o600))

	// logout revokes the token on the server and forgets it.
	r = run(t, srv.URL, nil, key, "logout")
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "the token is revoked and forgotten")
	require.Empty(t, sessionFiles(t, home))
	c, err := client.New(srv.URL, client.WithToken(renewed.Token), client.WithoutRetries())
	require.NoError(t, err)
	_, err = c.CreateJob(context.Background(), client.CreateJobRequest{Title: "x", Prompt: "y", BountyUSDC: "1"})
	var ce *client.Error
	require.ErrorAs(t, err, &ce)
	require.Equal(t, 401, ce.Status, "the revoked token no longer works")
	r = run(t, srv.URL, nil, key, "logout", "--json")
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, `"had_saved_session": false`)

	// One session per server.
	other := newServer(t)
	require.Equal(t, 0, run(t, srv.URL, nil, key, "login").code)
	require.Equal(t, 0, run(t, other.URL, nil, key, "login").code)
	require.Len(t, sessionFiles(t, home), 2)
	for _, f := range sessionFiles(t, home) {
		raw, err := os.ReadFile(f)
		require.NoError(t, err)
		require.False(t, strings.Contains(filepath.Base(f), "127.0.0.1"), "file names carry no URL")
		require.Contains(t, string(raw), `"server"`)
	}
}
