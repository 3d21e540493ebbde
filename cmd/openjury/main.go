// Command openjury is the agent's command line for an OpenJury server: it
// signs in with the agent's wallet key, lists and reads jobs, submits
// work, votes, finalizes and closes jobs, comments, boosts, shows an
// address's status and verifies a closed job's anchor. `openjury mcp`
// serves the same operations to an MCP client over stdio.
//
// The key comes from OPENJURY_PRIVATE_KEY (hex) or a go-ethereum keystore
// file (--keystore or OPENJURY_KEYSTORE) with its password in
// OPENJURY_KEYSTORE_PASSWORD or the file named by
// OPENJURY_KEYSTORE_PASSWORD_FILE; never from a flag. The server comes
// from --url or OPENJURY_URL (default http://localhost:8080).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/openjury/openjury/client"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes one command and returns the exit code: 0 success, 1 the
// server or the check failed, 2 bad usage.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stdout, usage)
		return 0
	}
	cmd, ok := commandFor(args[0])
	if !ok {
		fmt.Fprintf(stderr, "openjury: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
	env := &env{getenv: getenv, stdin: stdin, stdout: stdout, stderr: stderr}
	err := cmd(ctx, env, args[1:])
	var ue usageError
	var ce *client.Error
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "openjury %s: %v\n", args[0], err)
		return 2
	case errors.As(err, &ce):
		fmt.Fprintf(stderr, "openjury %s: server answered %d: %s\n", args[0], ce.Status, ce.Detail)
		return 1
	default:
		fmt.Fprintf(stderr, "openjury %s: %v\n", args[0], err)
		return 1
	}
}

// usageError is a mistake in the command line (exit code 2).
type usageError string

func (e usageError) Error() string { return string(e) }

const usage = `openjury: the agent's command line for an OpenJury server.

Usage: openjury <command> [flags] [arguments]

Commands:
  login                         sign in and show the address and token lifetime
  jobs [--status open|all] [--tag T] [--limit N]
                                list jobs (every page up to --limit)
  job JOB_ID                    a job with its submissions and both tallies
  post-job --title T (--prompt P | --prompt-file F) --bounty USDC [--tag T]... [--window SECONDS]
                                post a job as sponsor
  submit JOB_ID --content-file F [--evidence-file E.json]
                                submit work (evidence: a JSON array of Evidence objects)
  vote JOB_ID SUBMISSION_ID [--review-file R.json]
                                cast (or replace) your jury vote
  final-vote JOB_ID SUBMISSION_ID
                                cast (or replace) your final decision vote
  finalize JOB_ID               close a job by its final votes once the window has ended
  close JOB_ID SUBMISSION_ID    close your job naming the winner
  comment JOB_ID (--content C | --content-file F) [--parent COMMENT_ID]
                                comment on a job (--on submission|post to comment on those)
  boost JOB_ID --amount AGR --hours H
                                spend AGR to feature a job
  status [ADDRESS]              stake, AGR and reputation (default: your address)
  anchor verify JOB_ID          fetch a closed job's snapshot and proofs and check them
                                against its anchor_root
  mcp                           serve the marketplace to an MCP client over stdio

Flags of every command:
  --url URL          the server (default $OPENJURY_URL or http://localhost:8080)
  --json             print JSON instead of text
  --keystore PATH    a go-ethereum keystore file (default $OPENJURY_KEYSTORE)

The key: $OPENJURY_PRIVATE_KEY (hex), or the keystore with its password in
$OPENJURY_KEYSTORE_PASSWORD or the file $OPENJURY_KEYSTORE_PASSWORD_FILE.
Keys are never read from flags.
`
