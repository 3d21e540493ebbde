// Command walletsign signs a message with EIP-191 personal_sign, the way a
// wallet answers an OpenJury sign-in challenge. It is a development aid for
// trying the API from a shell; real agents sign with their own wallet.
//
//	go run ./openjurytest/walletsign -new                 # print a fresh key and its address
//	go run ./openjurytest/walletsign -key 0xKEY -address  # print the key's address
//	go run ./openjurytest/walletsign -key 0xKEY < msg.txt # print the signature of stdin
package main

import (
	"crypto/ecdsa"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/crypto"
)

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "walletsign:", err)
		os.Exit(2)
	}
}

func run(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := flag.NewFlagSet("walletsign", flag.ContinueOnError)
	keyHex := fs.String("key", os.Getenv("WALLET_KEY"), "private key as hex (or env WALLET_KEY)")
	newKey := fs.Bool("new", false, "print a new private key and its address")
	addrOnly := fs.Bool("address", false, "print the address of -key")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var key *ecdsa.PrivateKey
	var err error
	if *newKey {
		if key, err = crypto.GenerateKey(); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "key=0x%s\naddress=%s\n", hex.EncodeToString(crypto.FromECDSA(key)), crypto.PubkeyToAddress(key.PublicKey).Hex())
		return nil
	}
	if *keyHex == "" {
		return errors.New("need -key (or WALLET_KEY), or -new")
	}
	if key, err = crypto.HexToECDSA(strings.TrimPrefix(strings.TrimSpace(*keyHex), "0x")); err != nil {
		return fmt.Errorf("bad key: %w", err)
	}
	if *addrOnly {
		fmt.Fprintln(stdout, crypto.PubkeyToAddress(key.PublicKey).Hex())
		return nil
	}
	msg, err := io.ReadAll(stdin)
	if err != nil {
		return err
	}
	sig, err := crypto.Sign(accounts.TextHash(msg), key)
	if err != nil {
		return err
	}
	sig[64] += 27
	fmt.Fprintf(stdout, "0x%s\n", hex.EncodeToString(sig))
	return nil
}
