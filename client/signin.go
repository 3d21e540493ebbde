package client

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"
)

// ErrSignInRefused is the error (wrapped) of a sign-in the client refuses
// to sign: the server's message is not an EIP-4361 message for this
// server, this signer and the expected chain, or it has expired. The
// signer is never asked. A hostile server cannot use the client to
// harvest a signature that signs in elsewhere.
var ErrSignInRefused = errors.New("client: refusing to sign the sign-in message")

// ErrInsecureURL is the error (wrapped) of New for a plain http:// base URL
// off loopback without WithInsecureHTTP: bearer tokens and sign-in
// messages would cross the network in clear text.
var ErrInsecureURL = errors.New("client: plain http is allowed only to loopback")

// MaxClockSkew is how far in the future a sign-in message's Issued At (and
// Not Before) may be, for a server whose clock runs ahead of ours.
const MaxClockSkew = 5 * time.Minute

// WithChainID makes the client sign only sign-in messages for chain id
// (EIP-155). Without it any chain id is accepted (the domain, URI,
// address and expiry are still checked): the chain a server publishes
// cannot be trusted to choose it, so only the caller can.
func WithChainID(id int64) Option { return func(c *Client) { c.chainID = id } }

// WithClock sets the clock sign-in messages are judged by (default
// time.Now): tests against a server on a fake clock pass its Now.
func WithClock(now func() time.Time) Option { return func(c *Client) { c.now = now } }

// WithInsecureHTTP lets the client use a plain http:// base URL on a host
// other than loopback (localhost, 127.0.0.0/8, ::1). Tokens and sign-in
// messages then travel unencrypted: use it only on a network you trust.
func WithInsecureHTTP() Option { return func(c *Client) { c.insecureHTTP = true } }

// isLoopbackHost reports whether host (no port, no brackets) is
// localhost or a loopback IP address.
func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// checkBaseURL refuses plain http off loopback unless insecure is set.
func checkBaseURL(u *url.URL, insecure bool) error {
	if u.Scheme == "http" && !insecure && !isLoopbackHost(u.Hostname()) {
		return fmt.Errorf("%w (localhost, 127.0.0.0/8, ::1), not %q: use https, or WithInsecureHTTP (the CLI's --insecure) on a network you trust", ErrInsecureURL, u.Hostname())
	}
	return nil
}

// authority is host[:port] of u in lower case, without the scheme's
// default port, the form EIP-4361 domains are compared in.
func authority(scheme, hostport string) string {
	hostport = strings.ToLower(hostport)
	if host, port, err := net.SplitHostPort(hostport); err == nil &&
		((scheme == "https" && port == "443") || (scheme == "http" && port == "80")) {
		if strings.Contains(host, ":") {
			return "[" + host + "]"
		}
		return host
	}
	return hostport
}

// pathPrefix reports whether prefix is base or one of its parent paths,
// segment by segment ("" and "/" are the root).
func pathPrefix(prefix, base string) bool {
	prefix, base = strings.TrimRight(prefix, "/"), strings.TrimRight(base, "/")
	return base == prefix || strings.HasPrefix(base, prefix+"/")
}

// checkSignIn says why the client must not sign msg, the message of the
// challenge with nonce, or returns nil: the message must parse as
// EIP-4361, name this server (domain = the base URL's host[:port], the
// optional scheme = the base URL's, URI on the base URL's origin with a
// path that is the base path or a parent of it), this signer's address,
// the nonce of the challenge and the expected chain id (when set), and be
// valid now (Expiration Time present and in the future, Issued At and Not
// Before at most MaxClockSkew ahead).
func (c *Client) checkSignIn(msg, nonce string, now time.Time) error {
	refuse := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrSignInRefused, fmt.Sprintf(format, args...))
	}
	m, err := ParseSignInMessage(msg)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrSignInRefused, err)
	}
	base, _ := url.Parse(c.base) // New checked it
	want := authority(base.Scheme, base.Host)
	if m.Scheme != "" && !strings.EqualFold(m.Scheme, base.Scheme) {
		return refuse("the message's scheme %q is not the server's %q", m.Scheme, base.Scheme)
	}
	if got := authority(base.Scheme, m.Domain); got != want {
		hint := ""
		if h, _, err := net.SplitHostPort(m.Domain); err == nil && isLoopbackHost(strings.Trim(h, "[]")) && isLoopbackHost(base.Hostname()) {
			hint = fmt.Sprintf(" (call the server by the URL it names: %s://%s)", base.Scheme, m.Domain)
		}
		return refuse("the message is for domain %q, but this client calls %q%s", m.Domain, want, hint)
	}
	u, err := url.Parse(m.URI)
	if err != nil || !strings.EqualFold(u.Scheme, base.Scheme) || authority(base.Scheme, u.Host) != want ||
		u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" || !pathPrefix(u.EscapedPath(), base.EscapedPath()) {
		return refuse("the message's URI %q is not the server's base URL %q", m.URI, c.base)
	}
	if signer := c.signer.Address(); m.Address != signer {
		return refuse("the message is for address %s, but the signer is %s", m.Address.Hex(), signer.Hex())
	}
	if m.Nonce != nonce {
		return refuse("the message's nonce %q is not the challenge's %q", m.Nonce, nonce)
	}
	if c.chainID != 0 && m.ChainID != c.chainID {
		return refuse("the message is for chain id %d, but the expected chain id is %d", m.ChainID, c.chainID)
	}
	switch {
	case m.ExpirationTime.IsZero():
		return refuse("the message has no Expiration Time (it would stay valid forever)")
	case !m.ExpirationTime.After(now):
		return refuse("the message expired at %s", m.ExpirationTime.UTC().Format(time.RFC3339))
	case !m.ExpirationTime.After(m.IssuedAt):
		return refuse("the message expires (%s) before it is issued (%s)", m.ExpirationTime.UTC().Format(time.RFC3339), m.IssuedAt.UTC().Format(time.RFC3339))
	case m.IssuedAt.After(now.Add(MaxClockSkew)):
		return refuse("the message is issued in the future (%s; now %s)", m.IssuedAt.UTC().Format(time.RFC3339), now.UTC().Format(time.RFC3339))
	case !m.NotBefore.IsZero() && m.NotBefore.After(now.Add(MaxClockSkew)):
		return refuse("the message is not valid before %s", m.NotBefore.UTC().Format(time.RFC3339))
	}
	return nil
}
