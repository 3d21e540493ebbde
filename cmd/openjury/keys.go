package main

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/openjury/openjury/client"
)

// defaultKeyName is the key used when no key is named.
const defaultKeyName = "default"

// keyFileExt ends every key file keygen writes.
const keyFileExt = ".key"

// home is the directory of the command's files: $OPENJURY_HOME, else
// openjury/ in the user's config directory.
func (e *env) home() (string, error) {
	if h := e.getenv("OPENJURY_HOME"); h != "" {
		return h, nil
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("no place for key files (%v): set OPENJURY_HOME", err)
	}
	return filepath.Join(dir, "openjury"), nil
}

// validKeyName is a key NAME: 1..64 letters, digits, '-', '_' or '.', not
// starting with '.'.
func validKeyName(name string) bool {
	if name == "" || len(name) > 64 || name[0] == '.' {
		return false
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// isPath tells a PATH from a key NAME: a path has a separator or ends in
// ".key".
func isPath(s string) bool {
	return strings.ContainsRune(s, '/') || strings.ContainsRune(s, filepath.Separator) || strings.HasSuffix(s, keyFileExt)
}

// keyPath is the file of the key called name: HOME/keys/NAME.key.
func (e *env) keyPath(name string) (string, error) {
	if !validKeyName(name) {
		return "", usageError(fmt.Sprintf("key name %q: use 1..64 letters, digits, '-', '_' or '.' (or give a path)", name))
	}
	h, err := e.home()
	if err != nil {
		return "", err
	}
	return filepath.Join(h, "keys", name+keyFileExt), nil
}

// readKeyFile reads a key file: the hex private key (0x optional) on one
// line. A file that others may read is refused, like ssh does.
func readKeyFile(path string) (client.Signer, error) {
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("key file %s does not exist (make it with `openjury keygen --name NAME`)", path)
	}
	if err != nil {
		return nil, err
	}
	if runtime.GOOS != "windows" && st.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("key file %s can be read by others (mode %04o): run chmod 600 %s", path, st.Mode().Perm(), path)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s, err := client.KeySignerFromHex(string(raw))
	if err != nil {
		return nil, fmt.Errorf("key file %s: not a hex private key", path) // never echo the content
	}
	return s, nil
}

// keygenResult is what keygen prints.
type keygenResult struct {
	Name       string `json:"name,omitempty"`
	Address    string `json:"address"`
	Path       string `json:"path"`
	PrivateKey string `json:"private_key,omitempty"`
}

func cmdKeygen(_ context.Context, e *env, args []string) error {
	flags := e.flags("keygen")
	name := flags.String("name", defaultKeyName, "the key's name: its file is $OPENJURY_HOME/keys/NAME.key")
	out := flags.String("out", "", "write the key to this file instead")
	show := flags.Bool("show-key", false, "also print the private key (keep it secret)")
	if _, err := parse(flags, args, 0); err != nil {
		return err
	}
	path := *out
	if path != "" {
		abs, err := filepath.Abs(path)
		if err != nil {
			return err
		}
		path = abs
	} else {
		var err error
		if path, err = e.keyPath(*name); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	key, err := crypto.GenerateKey()
	if err != nil {
		return err
	}
	hexKey := hex.EncodeToString(crypto.FromECDSA(key))
	// O_EXCL: never overwrite a key, even one made a moment ago by another
	// process.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s already exists: keygen never overwrites a key (choose another --name or --out)", path)
	}
	if err != nil {
		return err
	}
	_, werr := f.WriteString(hexKey + "\n")
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		_ = os.Remove(path)
		return werr
	}
	res := keygenResult{Address: crypto.PubkeyToAddress(key.PublicKey).Hex(), Path: path}
	if *out == "" {
		res.Name = *name
	}
	if *show {
		res.PrivateKey = "0x" + hexKey
	}
	return e.print(res, func(w io.Writer) {
		fmt.Fprintf(w, "address  %s\nkey file %s (mode 0600: keep it secret, back it up)\n", res.Address, res.Path)
		if *show {
			fmt.Fprintf(w, "private key %s\n", res.PrivateKey)
		}
		switch {
		case res.Name == defaultKeyName:
			fmt.Fprintln(w, "this is the default key: commands use it when no --key is given")
		case res.Name != "":
			fmt.Fprintf(w, "use it with: openjury --key %s <command>\n", res.Name)
		default:
			fmt.Fprintf(w, "use it with: openjury --key %s <command>\n", res.Path)
		}
	})
}
