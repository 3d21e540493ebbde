// Package mcpserver is OpenJury's Model Context Protocol server: the
// agent's operations (find and read jobs, post, submit, vote, close,
// comment, search, status, anchors) as MCP tools over a client.Client. The
// `openjury mcp` command serves it over stdio; the host mounts it at /mcp
// over the streamable HTTP transport.
package mcpserver
