package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/openjury/openjury/client"
)

// env is what a command runs with: the process's environment and streams
// and the global flags (which every command's flag set shares).
type env struct {
	getenv         func(string) string
	stdin          io.Reader
	stdout, stderr io.Writer

	url, keystore, key, chainID string
	json, insecure              bool
}

// flags returns a flag set with the global flags bound to e, so they work
// before the command's name and after it.
func (e *env) flags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&e.url, "url", e.url, "the server URL (default $OPENJURY_URL or http://localhost:8080)")
	fs.StringVar(&e.key, "key", e.key, "a key file: a NAME written by keygen or a PATH (default $OPENJURY_KEY)")
	fs.StringVar(&e.keystore, "keystore", e.keystore, "a go-ethereum keystore file (default $OPENJURY_KEYSTORE)")
	fs.StringVar(&e.chainID, "chain-id", e.chainID, "sign in only on this chain id (default $OPENJURY_CHAIN_ID; unset: any)")
	fs.BoolVar(&e.insecure, "insecure", e.insecure, "allow plain http to a host other than this machine")
	fs.BoolVar(&e.json, "json", e.json, "print JSON")
	return fs
}

// parse parses args with flags anywhere among the positional arguments
// and checks their number (positional < 0: any number).
func parse(fs *flag.FlagSet, args []string, positional int) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				var b strings.Builder
				fs.SetOutput(&b)
				fs.PrintDefaults()
				fs.SetOutput(io.Discard)
				return nil, helpRequested{flags: b.String()}
			}
			return nil, usageError(err.Error())
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
	if positional >= 0 && len(pos) != positional {
		return nil, usageError(fmt.Sprintf("want %d argument(s), got %d", positional, len(pos)))
	}
	return pos, nil
}

// serverURL is the server the command calls.
func (e *env) serverURL() string {
	switch {
	case e.url != "":
		return e.url
	case e.getenv("OPENJURY_URL") != "":
		return e.getenv("OPENJURY_URL")
	}
	return "http://localhost:8080"
}

// signer loads the agent's key: --key, --keystore, OPENJURY_PRIVATE_KEY,
// OPENJURY_KEY, OPENJURY_KEYSTORE, then the "default" key file when it
// exists, in that order.
func (e *env) signer() (client.Signer, error) {
	if e.key != "" && e.keystore != "" {
		return nil, usageError("give --key or --keystore, not both")
	}
	switch {
	case e.key != "":
		return e.keyFileSigner(e.key)
	case e.keystore != "":
		return e.keystoreSigner(e.keystore)
	}
	if k := strings.TrimSpace(e.getenv("OPENJURY_PRIVATE_KEY")); k != "" {
		return client.KeySignerFromHex(k)
	}
	if k := e.getenv("OPENJURY_KEY"); k != "" {
		return e.keyFileSigner(k)
	}
	if path := e.getenv("OPENJURY_KEYSTORE"); path != "" {
		return e.keystoreSigner(path)
	}
	if path, err := e.keyPath(defaultKeyName); err == nil {
		if _, err := os.Stat(path); err == nil {
			return readKeyFile(path)
		}
	}
	return nil, errNoKey
}

// errNoKey is the error of a command that needs a key when none is set.
var errNoKey = errors.New("no key: make one with `openjury keygen` (it becomes the default key), or pass --key NAME|PATH, or set OPENJURY_PRIVATE_KEY or OPENJURY_KEYSTORE (with OPENJURY_KEYSTORE_PASSWORD(_FILE))")

// keystoreSigner decrypts a keystore file with the password from the
// environment.
func (e *env) keystoreSigner(path string) (client.Signer, error) {
	pw := e.getenv("OPENJURY_KEYSTORE_PASSWORD")
	if f := e.getenv("OPENJURY_KEYSTORE_PASSWORD_FILE"); f != "" {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("keystore password file: %w", err)
		}
		pw = strings.TrimRight(string(b), "\r\n")
	}
	return client.KeystoreSigner(path, pw)
}

// keyFileSigner reads the key file named by a keygen NAME or a PATH.
func (e *env) keyFileSigner(nameOrPath string) (client.Signer, error) {
	path := nameOrPath
	if !isPath(nameOrPath) {
		var err error
		if path, err = e.keyPath(nameOrPath); err != nil {
			return nil, err
		}
	}
	return readKeyFile(path)
}

// client returns a client of the server with opts; signed says whether
// it needs the agent's key (it then starts with the saved session's token,
// if any, and saves the token of each new sign-in).
func (e *env) client(signed bool, opts ...client.Option) (*client.Client, error) {
	if signed {
		s, err := e.signer()
		if err != nil {
			return nil, err
		}
		opts = append(opts, client.WithSigner(s))
		opts = append(opts, e.sessionOptions(s.Address().Hex())...)
	}
	chain := e.chainID
	if chain == "" {
		chain = strings.TrimSpace(e.getenv("OPENJURY_CHAIN_ID"))
	}
	if chain != "" {
		id, err := strconv.ParseInt(chain, 10, 64)
		if err != nil || id <= 0 {
			return nil, usageError(fmt.Sprintf("--chain-id (or OPENJURY_CHAIN_ID): want a positive integer, got %q", chain))
		}
		opts = append(opts, client.WithChainID(id))
	}
	if e.insecure {
		opts = append(opts, client.WithInsecureHTTP())
	}
	c, err := client.New(e.serverURL(), opts...)
	if errors.Is(err, client.ErrInsecureURL) {
		return nil, usageError(err.Error())
	}
	return c, err
}

// print writes v as indented JSON with --json, else the text of human.
func (e *env) print(v any, human func(w io.Writer)) error {
	if e.json {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	}
	human(e.stdout)
	return nil
}

// readJSONFile decodes a JSON file into v, naming the file on failure.
func readJSONFile(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
