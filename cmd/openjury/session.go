package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/openjury/openjury/client"
)

// Saved sessions: after a sign-in the command keeps the bearer token, per
// server and address, in a file of its own (mode 0600, in a 0700
// directory) until it expires, so that the next commands do not sign in
// again; `logout` revokes it on the server and deletes the file.

// sessionMargin is how long before its expiry a saved token is no longer
// used: a command started just before that would fail half way.
const sessionMargin = time.Minute

// session is one saved sign-in.
type session struct {
	Server    string    `json:"server"`
	Address   string    `json:"address"`
	Token     string    `json:"access_token"`
	ExpiresAt time.Time `json:"expires_at"`
}

// sessionDir is where sessions are kept: $OPENJURY_HOME/sessions, else
// openjury/sessions in the user's cache directory.
func (e *env) sessionDir() (string, error) {
	if h := e.getenv("OPENJURY_HOME"); h != "" {
		return filepath.Join(h, "sessions"), nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", errNoSessionDir
	}
	return filepath.Join(dir, "openjury", "sessions"), nil
}

// errNoSessionDir: neither OPENJURY_HOME nor a user cache directory is
// set (no HOME): sessions are not saved.
var errNoSessionDir = errors.New("no directory for saved sessions: set OPENJURY_HOME")

// sessionPath is the file of the session of address on server: a hash of
// both, so that a file name never carries the URL.
func (e *env) sessionPath(server, address string) (string, error) {
	dir, err := e.sessionDir()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(strings.TrimRight(server, "/") + "\n" + strings.ToLower(address)))
	return filepath.Join(dir, hex.EncodeToString(sum[:16])+".json"), nil
}

// loadSession returns the saved session of address on server when there
// is one that is still valid and that only its owner can read; a file
// others may read is ignored with a warning.
func (e *env) loadSession(server, address string, now time.Time) (session, bool) {
	path, err := e.sessionPath(server, address)
	if err != nil {
		return session{}, false
	}
	st, err := os.Stat(path)
	if err != nil {
		return session{}, false
	}
	if runtime.GOOS != "windows" && st.Mode().Perm()&0o077 != 0 {
		fmt.Fprintf(e.stderr, "openjury: ignoring the saved session %s: others can read it (mode %04o)\n", path, st.Mode().Perm())
		return session{}, false
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return session{}, false
	}
	var s session
	if json.Unmarshal(raw, &s) != nil || s.Token == "" ||
		s.Server != strings.TrimRight(server, "/") || s.Address != strings.ToLower(address) ||
		!now.Add(sessionMargin).Before(s.ExpiresAt) {
		return session{}, false
	}
	return s, true
}

// saveSession writes the session of a sign-in (atomically: a temporary
// file renamed over the old one).
func (e *env) saveSession(s session) error {
	path, err := e.sessionPath(s.Server, s.Address)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".session-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // after the rename, nothing to remove
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(raw); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// forgetSession deletes the saved session of address on server; a missing
// one is not an error.
func (e *env) forgetSession(server, address string) error {
	path, err := e.sessionPath(server, address)
	if err != nil {
		return err
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// sessionOptions are the client options of a signed client for address:
// the saved token when there is a valid one, and a hook that saves the
// token of every new sign-in. A session that cannot be saved is only
// warned about.
func (e *env) sessionOptions(address string) []client.Option {
	server := strings.TrimRight(e.serverURL(), "/")
	var opts []client.Option
	if s, ok := e.loadSession(server, address, time.Now()); ok {
		opts = append(opts, client.WithToken(s.Token))
	}
	return append(opts, client.WithSignInHook(func(v client.AuthVerifyResponse) {
		s := session{Server: server, Address: strings.ToLower(address), Token: v.AccessToken,
			ExpiresAt: time.Now().Add(time.Duration(v.ExpiresInSeconds) * time.Second)}
		if err := e.saveSession(s); err != nil && !errors.Is(err, errNoSessionDir) {
			fmt.Fprintf(e.stderr, "openjury: the session could not be saved (%v): the next command signs in again\n", err)
		}
	}))
}

// logoutResult is what logout prints.
type logoutResult struct {
	Address string `json:"address"`
	Server  string `json:"server"`
	Revoked bool   `json:"revoked"`
	Saved   bool   `json:"had_saved_session"`
}

func cmdLogout(ctx context.Context, e *env, args []string) error {
	if _, err := parse(e.flags("logout"), args, 0); err != nil {
		return err
	}
	s, err := e.signer()
	if err != nil {
		return err
	}
	addr := strings.ToLower(s.Address().Hex())
	server := strings.TrimRight(e.serverURL(), "/")
	res := logoutResult{Address: addr, Server: server}
	saved, ok := e.loadSession(server, addr, time.Now().Add(-sessionMargin))
	if ok {
		res.Saved = true
		// No signer: a token the server no longer knows is not replaced
		// by a new sign-in only to revoke that one.
		c, err := e.client(false, client.WithToken(saved.Token))
		if err != nil {
			return err
		}
		r, err := c.Logout(ctx)
		var ce *client.Error
		switch {
		case errors.As(err, &ce) && ce.Status == 401: // expired or revoked already
		case err != nil:
			return err
		default:
			res.Revoked = r.Revoked
		}
	}
	if err := e.forgetSession(server, addr); err != nil {
		return err
	}
	return e.print(res, func(w io.Writer) {
		switch {
		case res.Revoked:
			fmt.Fprintf(w, "signed out of %s as %s: the token is revoked and forgotten\n", server, addr)
		case res.Saved:
			fmt.Fprintf(w, "signed out of %s as %s: the saved token had expired already; forgotten\n", server, addr)
		default:
			fmt.Fprintf(w, "not signed in to %s as %s (no saved session)\n", server, addr)
		}
	})
}
