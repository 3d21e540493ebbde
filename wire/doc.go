// Package wire holds the JSON shapes of OpenJury's HTTP interface: the
// request and response bodies of every operation, with their json tags.
// It is the one definition of those shapes: the server (package transport)
// encodes its answers and decodes its requests with these types, and the
// Go client (package client) uses the same types, so the two cannot drift
// apart; tests hold them equal to the served OpenAPI document.
//
// Types are named after the document's schemas. A property the document
// marks nullable is a pointer (or a nil map or slice) and is always
// written, null when unknown; request fields the server treats as absent
// when empty carry omitempty. Instants are Time (RFC 3339 in UTC with
// milliseconds); amounts of USDC in answers are exact decimal numbers
// (json.Number, e.g. 12.5), and in requests Number, which refuses a JSON
// string. The package imports nothing of the project and no HTTP code:
// conversions from the domain's types live in transport.
package wire
