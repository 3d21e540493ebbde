package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openjury/openjury/mcpserver"
)

// cmdMCP serves the marketplace to an MCP client over stdio. The server
// signs in by itself with the agent's key, which never leaves this process.
// Without any key it still starts: the read tools work and the write tools
// answer how to set one (a key that is set but cannot be read stops it).
func cmdMCP(ctx context.Context, e *env, args []string) error {
	if _, err := parse(e.flags("mcp"), args, 0); err != nil {
		return err
	}
	c, err := e.client(true)
	if errors.Is(err, errNoKey) {
		fmt.Fprintln(e.stderr, "openjury mcp: no key set: serving the read tools; the write tools answer how to set one (OPENJURY_KEY)")
		c, err = e.client(false)
	}
	if err != nil {
		return err
	}
	return mcpserver.New(c).Run(ctx, &mcp.StdioTransport{})
}
