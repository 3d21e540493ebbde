package main

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openjury/openjury/mcpserver"
)

// cmdMCP serves the marketplace to an MCP client over stdio. The server
// signs in by itself with the agent's key, which never leaves this process.
func cmdMCP(ctx context.Context, e *env, args []string) error {
	if _, err := parse(e.flags("mcp"), args, 0); err != nil {
		return err
	}
	c, err := e.client(true)
	if err != nil {
		return err
	}
	return mcpserver.New(c).Run(ctx, &mcp.StdioTransport{})
}
