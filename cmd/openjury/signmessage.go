package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/ethereum/go-ethereum/common/hexutil"
)

// maxMessageBytes bounds the message sign-message reads: a sign-in
// message is well under a kilobyte.
const maxMessageBytes = 64 << 10

// signedMessage is what sign-message prints with --json.
type signedMessage struct {
	Address   string `json:"address"`
	Signature string `json:"signature"`
}

// cmdSignMessage signs a message with the agent's key as a wallet's
// personal_sign does (EIP-191), for the web app's sign-in without a
// browser wallet: the message is read from --file or standard input, its
// trailing line breaks dropped (a sign-in message has none; a shell's echo
// or an editor adds one).
func cmdSignMessage(ctx context.Context, e *env, args []string) error {
	fs := e.flags("sign-message")
	file := fs.String("file", "", "read the message from this file (default: standard input)")
	if _, err := parse(fs, args, 0); err != nil {
		return err
	}
	s, err := e.signer()
	if err != nil {
		return err
	}
	in := e.stdin
	if *file != "" {
		f, err := os.Open(*file)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	if in == nil {
		return usageError("no message: pipe it in or give --file")
	}
	b, err := io.ReadAll(io.LimitReader(in, maxMessageBytes+1))
	if err != nil {
		return err
	}
	if len(b) > maxMessageBytes {
		return usageError(fmt.Sprintf("the message is over %d KiB", maxMessageBytes>>10))
	}
	msg := strings.TrimRight(string(b), "\r\n")
	if msg == "" {
		return usageError("the message is empty")
	}
	sig, err := s.SignPersonal(ctx, []byte(msg))
	if err != nil {
		return err
	}
	out := signedMessage{Address: strings.ToLower(s.Address().Hex()), Signature: hexutil.Encode(sig)}
	return e.print(out, func(w io.Writer) { fmt.Fprintln(w, out.Signature) })
}
