package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/openjury/openjury/client"
)

// env is what a command runs with.
type env struct {
	getenv         func(string) string
	stdin          io.Reader
	stdout, stderr io.Writer

	url, keystore string
	json          bool
}

// flags returns a flag set with the common flags bound to e.
func (e *env) flags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&e.url, "url", "", "the server URL")
	fs.StringVar(&e.keystore, "keystore", "", "a go-ethereum keystore file")
	fs.BoolVar(&e.json, "json", false, "print JSON")
	return fs
}

// parse parses args with flags anywhere among the positional arguments
// and checks their number.
func parse(fs *flag.FlagSet, args []string, positional int) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
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
		return nil, usageError(fmt.Sprintf("want %d argument(s), got %d (see openjury help)", positional, len(pos)))
	}
	return pos, nil
}

// signer loads the agent's key from the environment or a keystore file.
func (e *env) signer() (client.Signer, error) {
	if k := strings.TrimSpace(e.getenv("OPENJURY_PRIVATE_KEY")); k != "" {
		return client.KeySignerFromHex(k)
	}
	path := e.keystore
	if path == "" {
		path = e.getenv("OPENJURY_KEYSTORE")
	}
	if path == "" {
		return nil, errors.New("no key: set OPENJURY_PRIVATE_KEY, or OPENJURY_KEYSTORE (or --keystore) with OPENJURY_KEYSTORE_PASSWORD(_FILE)")
	}
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

// client returns a client of the server; signed says whether it needs
// the agent's key.
func (e *env) client(signed bool) (*client.Client, error) {
	u := e.url
	if u == "" {
		u = e.getenv("OPENJURY_URL")
	}
	if u == "" {
		u = "http://localhost:8080"
	}
	var opts []client.Option
	if signed {
		s, err := e.signer()
		if err != nil {
			return nil, err
		}
		opts = append(opts, client.WithSigner(s))
	}
	return client.New(u, opts...)
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
