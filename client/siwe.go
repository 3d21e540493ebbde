package client

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// SignInMessage is a parsed EIP-4361 (Sign-In with Ethereum) message: the
// fields a wallet shows its owner before signing.
type SignInMessage struct {
	// Scheme is the optional URI scheme written before the domain ("" when absent).
	Scheme string
	// Domain is the authority (host[:port]) asking for the sign-in.
	Domain string
	// Address is the signing address as written (EIP-55 checksummed).
	Address common.Address
	// Statement is the optional human-readable line ("" when absent).
	Statement string
	// URI is the resource the sign-in is for.
	URI string
	// Version is the message version, always "1".
	Version string
	// ChainID is the EIP-155 chain id the sign-in is bound to.
	ChainID int64
	// Nonce is the server's random nonce (at least 8 alphanumerics).
	Nonce string
	// IssuedAt is when the message was made.
	IssuedAt time.Time
	// ExpirationTime is when it stops being valid (zero when absent).
	ExpirationTime time.Time
	// NotBefore is when it becomes valid (zero when absent).
	NotBefore time.Time
	// RequestID is the optional system-specific request id.
	RequestID string
	// HasRequestID tells an empty Request ID line from none.
	HasRequestID bool
	// Resources are the optional resource URIs.
	Resources []string
}

// ErrMalformedSignIn is the error (wrapped) of a message that is not an
// EIP-4361 message.
var ErrMalformedSignIn = errors.New("not an EIP-4361 sign-in message")

// maxSignInMessage bounds the message the parser reads: the server's are
// about 400 bytes.
const maxSignInMessage = 16 << 10

// Fixed texts of the EIP-4361 grammar.
const (
	siweHeader    = " wants you to sign in with your Ethereum account:"
	siweURI       = "URI: "
	siweVersion   = "Version: "
	siweChainID   = "Chain ID: "
	siweNonce     = "Nonce: "
	siweIssuedAt  = "Issued At: "
	siweExpires   = "Expiration Time: "
	siweNotBefore = "Not Before: "
	siweRequestID = "Request ID: "
	siweResources = "Resources:"
)

// ParseSignInMessage parses msg strictly by the ABNF of EIP-4361: lines
// separated by LF (no CR), the fields in the grammar's order, the address
// EIP-55 checksummed, version 1, a decimal chain id, a nonce of at least 8
// letters or digits, RFC 3339 times and absolute URIs. Anything else is an
// error wrapping ErrMalformedSignIn that names the first problem.
func ParseSignInMessage(msg string) (*SignInMessage, error) {
	m, err := parseSignIn(msg)
	if err != nil {
		return nil, fmt.Errorf("%w: %s", ErrMalformedSignIn, err.Error())
	}
	return m, nil
}

// siweLines walks the message line by line.
type siweLines struct {
	lines []string
	i     int
}

func (l *siweLines) done() bool { return l.i >= len(l.lines) }

func (l *siweLines) next() (string, bool) {
	if l.done() {
		return "", false
	}
	l.i++
	return l.lines[l.i-1], true
}

// field reads the line "prefix value" and returns value.
func (l *siweLines) field(prefix string) (string, error) {
	line, ok := l.next()
	if !ok {
		return "", fmt.Errorf("missing %q line", strings.TrimSpace(prefix))
	}
	v, ok := strings.CutPrefix(line, prefix)
	if !ok {
		return "", fmt.Errorf("line %d: want %q, got %q", l.i, strings.TrimSpace(prefix), clip(line))
	}
	return v, nil
}

// optional reads the line "prefix value" when the next line starts with prefix.
func (l *siweLines) optional(prefix string) (string, bool) {
	if l.done() || !strings.HasPrefix(l.lines[l.i], prefix) {
		return "", false
	}
	line, _ := l.next()
	return strings.TrimPrefix(line, prefix), true
}

func parseSignIn(msg string) (*SignInMessage, error) {
	if len(msg) > maxSignInMessage {
		return nil, fmt.Errorf("longer than %d bytes", maxSignInMessage)
	}
	for i := 0; i < len(msg); i++ {
		if c := msg[i]; (c < 0x20 && c != '\n') || c == 0x7f {
			return nil, fmt.Errorf("control character 0x%02x at byte %d", c, i)
		}
	}
	l := &siweLines{lines: strings.Split(msg, "\n")}
	m := &SignInMessage{}

	// [ scheme "://" ] domain " wants you to sign in with your Ethereum account:"
	head, _ := l.next()
	origin, ok := strings.CutSuffix(head, siweHeader)
	if !ok {
		return nil, fmt.Errorf("line 1: want %q", "<domain>"+siweHeader)
	}
	if s, rest, found := strings.Cut(origin, "://"); found {
		if !validScheme(s) {
			return nil, fmt.Errorf("scheme %q", clip(s))
		}
		m.Scheme, origin = s, rest
	}
	if !validAuthority(origin) {
		return nil, fmt.Errorf("domain %q is not an authority (host[:port])", clip(origin))
	}
	m.Domain = origin

	// address LF LF
	addr, _ := l.next()
	if !validChecksumAddress(addr) {
		return nil, fmt.Errorf("address %q is not an EIP-55 checksummed address", clip(addr))
	}
	m.Address = common.HexToAddress(addr)
	if line, ok := l.next(); !ok || line != "" {
		return nil, errors.New("want an empty line after the address")
	}

	// [ statement LF ] LF
	line, ok := l.next()
	if !ok {
		return nil, errors.New("missing \"URI\" line")
	}
	switch {
	case line == "":
		// No statement. Older generators leave one empty line out; both
		// forms say the same.
	case strings.HasPrefix(line, siweURI):
		l.i-- // no statement and a single empty line
	default:
		if !validStatement(line) {
			return nil, fmt.Errorf("statement %q has a character outside the grammar", clip(line))
		}
		m.Statement = line
		if next, ok := l.next(); !ok || next != "" {
			return nil, errors.New("want an empty line after the statement")
		}
	}

	var err error
	if m.URI, err = l.field(siweURI); err != nil {
		return nil, err
	}
	if !validURI(m.URI) {
		return nil, fmt.Errorf("URI %q is not an absolute URI", clip(m.URI))
	}
	if m.Version, err = l.field(siweVersion); err != nil {
		return nil, err
	}
	if m.Version != "1" {
		return nil, fmt.Errorf("version %q (want 1)", clip(m.Version))
	}
	chain, err := l.field(siweChainID)
	if err != nil {
		return nil, err
	}
	if m.ChainID, err = parseDigits(chain); err != nil {
		return nil, fmt.Errorf("chain id %q: %v", clip(chain), err)
	}
	if m.Nonce, err = l.field(siweNonce); err != nil {
		return nil, err
	}
	if !validNonce(m.Nonce) {
		return nil, fmt.Errorf("nonce %q (want at least 8 letters or digits)", clip(m.Nonce))
	}
	issued, err := l.field(siweIssuedAt)
	if err != nil {
		return nil, err
	}
	if m.IssuedAt, err = parseDateTime(issued); err != nil {
		return nil, fmt.Errorf("issued at: %v", err)
	}
	if v, ok := l.optional(siweExpires); ok {
		if m.ExpirationTime, err = parseDateTime(v); err != nil {
			return nil, fmt.Errorf("expiration time: %v", err)
		}
	}
	if v, ok := l.optional(siweNotBefore); ok {
		if m.NotBefore, err = parseDateTime(v); err != nil {
			return nil, fmt.Errorf("not before: %v", err)
		}
	}
	if v, ok := l.optional(siweRequestID); ok {
		if !validPchars(v) {
			return nil, fmt.Errorf("request id %q has a character outside the grammar", clip(v))
		}
		m.RequestID, m.HasRequestID = v, true
	}
	if !l.done() && l.lines[l.i] == siweResources {
		l.i++
		for !l.done() {
			line, _ := l.next()
			r, ok := strings.CutPrefix(line, "- ")
			if !ok || !validURI(r) {
				return nil, fmt.Errorf("resource line %q (want \"- <URI>\")", clip(line))
			}
			m.Resources = append(m.Resources, r)
		}
	}
	if !l.done() {
		return nil, fmt.Errorf("line %d: unexpected %q", l.i+1, clip(l.lines[l.i]))
	}
	return m, nil
}

// clip shortens s for an error message.
func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

func isAlpha(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isHex(c byte) bool   { return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') }

// isUnreserved is RFC 3986 unreserved.
func isUnreserved(c byte) bool {
	return isAlpha(c) || isDigit(c) || c == '-' || c == '.' || c == '_' || c == '~'
}

// isSubDelim is RFC 3986 sub-delims.
func isSubDelim(c byte) bool { return strings.IndexByte("!$&'()*+,;=", c) >= 0 }

// validScheme is RFC 3986 scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
func validScheme(s string) bool {
	if s == "" || !isAlpha(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !isAlpha(c) && !isDigit(c) && c != '+' && c != '-' && c != '.' {
			return false
		}
	}
	return true
}

// validPctChars checks s against *( unreserved / pct-encoded / sub-delims /
// extra ), RFC 3986's building block of authorities and paths.
func validPctChars(s, extra string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isUnreserved(c) || isSubDelim(c) || strings.IndexByte(extra, c) >= 0:
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			i += 2
		default:
			return false
		}
	}
	return true
}

// validPchars is *pchar (the request id).
func validPchars(s string) bool { return validPctChars(s, ":@") }

// validAuthority is RFC 3986 authority = [ userinfo "@" ] host [ ":" port ],
// with host a reg-name, an IPv4 address or a bracketed IPv6 literal.
func validAuthority(s string) bool {
	if s == "" {
		return false
	}
	if at := strings.LastIndexByte(s, '@'); at >= 0 {
		if !validPctChars(s[:at], ":") {
			return false
		}
		s = s[at+1:]
	}
	host, port := s, ""
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return false
		}
		lit := s[1:end]
		if lit == "" || strings.Trim(lit, "0123456789abcdefABCDEF:.") != "" {
			return false
		}
		host, s = s[:end+1], s[end+1:]
		if s != "" {
			p, ok := strings.CutPrefix(s, ":")
			if !ok {
				return false
			}
			port = p
		}
	} else if i := strings.LastIndexByte(s, ':'); i >= 0 {
		host, port = s[:i], s[i+1:]
	}
	for i := 0; i < len(port); i++ {
		if !isDigit(port[i]) {
			return false
		}
	}
	return host != "" && (strings.HasPrefix(host, "[") || validPctChars(host, ""))
}

// validStatement is *( reserved / unreserved / " " ), one line.
func validStatement(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isUnreserved(c) && !isSubDelim(c) && strings.IndexByte(":/?#[]@ ", c) < 0 {
			return false
		}
	}
	return true
}

// validURI is an absolute RFC 3986 URI: a scheme, then only URI characters
// (Go's parser checks the structure).
func validURI(s string) bool {
	scheme, rest, ok := strings.Cut(s, ":")
	if !ok || !validScheme(scheme) || rest == "" {
		return false
	}
	if !validPctChars(rest, ":/?#[]@") {
		return false
	}
	u, err := url.Parse(s)
	return err == nil && u.IsAbs()
}

// validNonce is 8*( ALPHA / DIGIT ).
func validNonce(s string) bool {
	if len(s) < 8 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isAlpha(s[i]) && !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// validChecksumAddress is "0x" and 40 hex digits in their EIP-55 form.
func validChecksumAddress(s string) bool {
	if len(s) != 42 || s[:2] != "0x" {
		return false
	}
	for i := 2; i < len(s); i++ {
		if !isHex(s[i]) {
			return false
		}
	}
	return common.HexToAddress(s).Hex() == s
}

// parseDigits is 1*DIGIT as a non-negative int64.
func parseDigits(s string) (int64, error) {
	if s == "" {
		return 0, errors.New("empty")
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return 0, errors.New("not a decimal number")
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, errors.New("out of range")
	}
	return n, nil
}

// parseDateTime is an RFC 3339 date-time.
func parseDateTime(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is not an RFC 3339 date-time", clip(s))
	}
	return t, nil
}
