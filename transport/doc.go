// Package transport is OpenJury's HTTP interface and the only package that
// speaks net/http.
//
// NewHandler turns the domain services into one http.Handler serving the
// /api/v1 routes of the service specification plus /healthz and /readyz.
// Every route handler has the form func(w, r) error; one wrapper turns a
// returned error into a response through the single Kind -> HTTP status
// table (see StatusOf), so the body of every error is {"detail": "..."} and
// internal causes are logged with the request id but never sent.
//
// Around the routes sit, outermost first: panic recovery, request ids
// (X-Request-Id), a JSON access log through log/slog and a request body
// limit. Request and response bodies are the types of package wire, the one
// definition the Go client uses too; this package converts the domain's
// values into them (domain types carry no tags). Optional response fields
// are always present, null when unknown.
//
// The dev endpoints (POST /api/v1/stake/dev_set, /api/v1/slashing/dev_record,
// /api/v1/reputation/dev_set and /api/v1/agr/dev_mint) take the
// X-Dev-Secret header instead of a bearer token; without Options.DevSecret
// they are off and answer 401, and with Options.DevOpen (the host's local
// development mode, on loopback only) they need no header.
package transport
