// Package whsig is the Standard Webhooks signing scheme
// (https://www.standardwebhooks.com) that OpenJury's webhook deliveries
// use: the server signs with it (package events) and receivers verify
// with it (package client). A secret is "whsec_" + base64 of random
// bytes; three headers go with each delivery; the signature is "v1," +
// base64 of HMAC-SHA256, keyed with the secret's decoded bytes, of
// "<webhook-id>.<webhook-timestamp>.<body>". It is a few lines of the
// standard library, so no library is used for it; the tests check it
// against the scheme's own Go library.
package whsig

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"io"
	"strconv"
	"strings"
	"time"
)

// Names and defaults of the scheme.
const (
	// SecretPrefix starts every webhook secret.
	SecretPrefix = "whsec_"
	// secretBytes is the size of a new secret's key.
	secretBytes = 32
	// HeaderID, HeaderTimestamp and HeaderSignature are the signing
	// headers of a delivery.
	HeaderID        = "webhook-id"
	HeaderTimestamp = "webhook-timestamp"
	HeaderSignature = "webhook-signature"
	// DefaultTolerance is how far a delivery's timestamp may be from the
	// receiver's clock (replay protection).
	DefaultTolerance = 5 * time.Minute
)

// NewSecret returns a new webhook secret, its key read from r (nil:
// crypto/rand).
func NewSecret(r io.Reader) (string, error) {
	if r == nil {
		r = rand.Reader
	}
	key := make([]byte, secretBytes)
	if _, err := io.ReadFull(r, key); err != nil {
		return "", err
	}
	return SecretPrefix + base64.StdEncoding.EncodeToString(key), nil
}

// errBadSecret is the error of a secret that is not "whsec_" + base64.
var errBadSecret = errors.New("webhook: not a webhook secret (whsec_ + base64)")

// secretKey decodes a secret's key.
func secretKey(secret string) ([]byte, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, SecretPrefix))
	if err != nil || len(key) == 0 {
		return nil, errBadSecret
	}
	return key, nil
}

// Sign returns the signature of a delivery with secret: "v1," and the
// base64 HMAC-SHA256 of "id.timestamp.body".
func Sign(secret, id string, at time.Time, body []byte) (string, error) {
	key, err := secretKey(secret)
	if err != nil {
		return "", err
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + strconv.FormatInt(at.Unix(), 10) + "."))
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)), nil
}

// SignatureHeader returns the webhook-signature header of a delivery
// signed with each of secrets (after a rotation, the new secret and, for
// a while, the old one), space-separated.
func SignatureHeader(secrets []string, id string, at time.Time, body []byte) (string, error) {
	sigs := make([]string, 0, len(secrets))
	for _, s := range secrets {
		sig, err := Sign(s, id, at, body)
		if err != nil {
			return "", err
		}
		sigs = append(sigs, sig)
	}
	return strings.Join(sigs, " "), nil
}

// Errors of Verify.
var (
	ErrMissingHeaders = errors.New("webhook: missing webhook-id, webhook-timestamp or webhook-signature")
	ErrBadTimestamp   = errors.New("webhook: webhook-timestamp is not a Unix time in seconds")
	ErrTooOld         = errors.New("webhook: timestamp too far in the past")
	ErrTooNew         = errors.New("webhook: timestamp too far in the future")
	ErrNoSignature    = errors.New("webhook: no matching signature")
)

// Verify checks a delivery received at now: its three headers (as
// get returns them), its timestamp within tolerance of now (0:
// DefaultTolerance) and one of its v1 signatures against secret, in
// constant time.
func Verify(secret string, get func(string) string, body []byte, now time.Time, tolerance time.Duration) error {
	id, ts, sigs := get(HeaderID), get(HeaderTimestamp), get(HeaderSignature)
	if id == "" || ts == "" || sigs == "" {
		return ErrMissingHeaders
	}
	unix, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return ErrBadTimestamp
	}
	if tolerance <= 0 {
		tolerance = DefaultTolerance
	}
	at := time.Unix(unix, 0)
	switch {
	case now.Sub(at) > tolerance:
		return ErrTooOld
	case at.Sub(now) > tolerance:
		return ErrTooNew
	}
	want, err := Sign(secret, id, at, body)
	if err != nil {
		return err
	}
	for sig := range strings.FieldsSeq(sigs) {
		if hmac.Equal([]byte(sig), []byte(want)) {
			return nil
		}
	}
	return ErrNoSignature
}
