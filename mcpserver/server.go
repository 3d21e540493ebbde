package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openjury/openjury/client"
)

// PlaybookURI is the MCP resource URI of the agent playbook.
const PlaybookURI = "openjury://docs/agent-playbook.md"

// SignInHint is the error of a write tool called over stdio without a key:
// what to set so that the server can sign in.
const SignInHint = "sign in: set OPENJURY_KEY to a key file made with `openjury keygen` " +
	"(or OPENJURY_PRIVATE_KEY, or OPENJURY_KEYSTORE with its password) in the MCP server's " +
	"environment and restart it; the read tools work without a key"

// caller is who a tool call acts for: the client it calls the API with,
// the caller's address ("" when unknown) and whether the client can make
// signed-in calls (a key to sign in with, or a bearer token).
type caller struct {
	c       *client.Client
	address string
	signed  bool
	// signInHint is the error of a write tool when signed is false.
	signInHint string
}

// addressOr is addr, or the caller's address when addr is empty; an error
// saying how to sign in when neither is known.
func (cl caller) addressOr(addr string) (string, error) {
	if addr == "" {
		addr = cl.address
	}
	if addr == "" {
		return "", errors.New("address is required: no caller is signed in (" + cl.signInHint + ")")
	}
	return addr, nil
}

// callerFunc gives a tool call its caller.
type callerFunc func(ctx context.Context) caller

// Local are the tools only a server on the agent's machine offers (the
// stdio server of `openjury mcp`): the HTTP endpoint has no agent machine
// to keep a salt on and no agent key to send a transaction with.
type Local struct {
	// Juror, when set, adds commit_vote and reveal_vote.
	Juror Juror
	// Claim, when set, adds claim_payout: it sends the claim of
	// recipient's payout of jobID ("" for the caller's own) on chain.
	Claim func(ctx context.Context, jobID, recipient string) (ClaimReceipt, error)
}

// Juror commits and reveals the caller's jury votes on commit-reveal jobs,
// keeping each commitment's salt on the agent's machine between the two:
// the server sees the choice only at the reveal.
type Juror interface {
	// Commit makes a salt, keeps it, and posts the commitment of the
	// caller's vote for submissionID on jobID.
	Commit(ctx context.Context, jobID, submissionID string) (client.CreateCommitmentResponse, error)
	// Reveal reveals the kept commitment of the caller on jobID.
	Reveal(ctx context.Context, jobID string) (client.CreateVoteResponse, error)
}

// ClaimReceipt is the result of claim_payout: the claim's transaction.
type ClaimReceipt struct {
	JobID           string `json:"job_id"`
	Recipient       string `json:"recipient"`
	AmountMicroUSDC string `json:"amount_micro_usdc"`
	TxHash          string `json:"tx_hash"`
	BlockNumber     int64  `json:"block_number"`
}

// New returns the MCP server of the tools over c, for stdio: every call
// acts for c's signer, which signs in by itself (the key never leaves the
// process). Without a signer (no key) the server still starts: the read
// tools work and the write tools answer SignInHint as a tool error. local
// adds the tools of the agent's machine.
func New(c *client.Client, local Local) *mcp.Server {
	signed := c.Address() != "" || c.Token() != ""
	instructions := "You act as wallet " + c.Address() + "; sign-in is automatic."
	if !signed {
		instructions = "No wallet key is configured: the read tools work; the write tools answer how to set one (OPENJURY_KEY)."
	}
	b := newBuilder(func(context.Context) caller {
		return caller{c: c, address: c.Address(), signed: signed, signInHint: SignInHint}
	}, instructions)
	b.addLocalTools(local)
	return b.server
}

// builder registers the tools on one server and remembers which of them
// change state (the HTTP handler asks for a token before those).
type builder struct {
	server *mcp.Server
	caller callerFunc
	writes map[string]bool
}

// newBuilder builds the server with every tool and the playbook resource.
func newBuilder(cf callerFunc, instructions string) *builder {
	s := mcp.NewServer(&mcp.Implementation{Name: "openjury", Title: "OpenJury marketplace", Version: "1"}, &mcp.ServerOptions{
		Instructions: "OpenJury is a work-and-jury marketplace: sponsors post jobs with a USDC bounty, staked agents submit work with evidence, a jury votes and a winner is chosen. " +
			instructions + " Read the playbook resource first.",
	})
	b := &builder{server: s, caller: cf, writes: map[string]bool{}}
	b.addTools()
	s.AddResource(&mcp.Resource{URI: PlaybookURI, Name: "agent-playbook", Title: "OpenJury agent playbook", MIMEType: "text/markdown", Description: "How an agent signs in, stakes, finds jobs, submits, votes and gets paid."},
		func(ctx context.Context, _ *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			body, err := cf(ctx).c.GetAgentPlaybook(ctx)
			if err != nil {
				return nil, toolError(err)
			}
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: PlaybookURI, MIMEType: "text/markdown", Text: string(body)}}}, nil
		})
	return b
}

// kind says what a tool does to the marketplace, for its annotations.
type kind int

const (
	// read changes nothing.
	read kind = iota
	// add creates something new each call (a job, a submission, a
	// comment): not idempotent, not destructive.
	add
	// spend creates or spends each call with an effect that cannot be
	// undone (AGR spent): not idempotent, destructive.
	spend
	// replace sets or replaces the caller's one record (a vote): the same
	// call again changes nothing more; it overwrites the caller's earlier
	// choice.
	replace
	// settle closes a job for good: destructive; a second call fails
	// with no further effect.
	settle
)

// annotations are the MCP hints of a tool of kind k; openWorld: it acts
// beyond the marketplace (a chain transaction).
func (k kind) annotations(title string, openWorld bool) *mcp.ToolAnnotations {
	a := &mcp.ToolAnnotations{Title: title, OpenWorldHint: &openWorld}
	switch k {
	case read:
		a.ReadOnlyHint, a.IdempotentHint = true, true
	case add:
		a.DestructiveHint = new(false)
	case spend:
		a.DestructiveHint = new(true)
	case replace, settle:
		a.DestructiveHint, a.IdempotentHint = new(true), true
	}
	return a
}

// toolDef is one tool: its name, title, description, kind, whether it
// acts beyond the marketplace (openWorld) and the descriptions of input
// properties that quote limits (set from Go constants rather than struct
// tags).
type toolDef struct {
	name, title, description string
	kind                     kind
	openWorld                bool
	args                     map[string]string
}

// addTool registers a tool whose input is In and whose structured result
// is Out: the input schema comes from In's fields and jsonschema tags
// (with def.args), the output schema from Out with its nullable fields
// made optional, because results leave out null fields (compact). A
// write tool without a signed-in caller answers the caller's sign-in hint.
func addTool[In, Out any](b *builder, def toolDef, run func(ctx context.Context, cl caller, in In) (Out, error)) {
	t := &mcp.Tool{
		Name:         def.name,
		Title:        def.title,
		Description:  def.description,
		InputSchema:  inputSchema[In](def.args),
		OutputSchema: outputSchema[Out](),
		Annotations:  def.kind.annotations(def.title, def.openWorld),
	}
	write := def.kind != read
	if write {
		b.writes[def.name] = true
	}
	mcp.AddTool(b.server, t, func(ctx context.Context, _ *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
		cl := b.caller(ctx)
		if write && !cl.signed {
			return nil, nil, errors.New(cl.signInHint)
		}
		out, err := run(ctx, cl, in)
		if err != nil {
			return nil, nil, toolError(err)
		}
		res, err := compact(out)
		if err != nil {
			return nil, nil, err
		}
		return nil, res, nil
	})
}

// toolError is the message of a failed call: the server's status and
// detail for a refusal, a plain sentence for an unreachable server.
func toolError(err error) error {
	var ce *client.Error
	if errors.As(err, &ce) {
		return fmt.Errorf("the server refused (%d %s): %s", ce.Status, strings.ToLower(http.StatusText(ce.Status)), ce.Detail)
	}
	return err
}

// inputSchema is the input schema of T, inferred from its fields and
// jsonschema tags, with the property descriptions of desc, which quote the
// limits' constants. A property desc names that T lacks is a programming
// error: it panics.
func inputSchema[T any](desc map[string]string) *jsonschema.Schema {
	s, err := jsonschema.For[T](&jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[client.Evidence](): evidenceInput,
	}})
	if err != nil {
		panic(fmt.Sprintf("mcpserver: the input schema of %T: %v", *new(T), err))
	}
	for name, d := range desc {
		p := s.Properties[name]
		if p == nil {
			panic(fmt.Sprintf("mcpserver: the input schema of %T has no property %s", *new(T), name))
		}
		p.Description = d
	}
	return s
}

// evidenceInput is the input schema of a piece of evidence: every member
// optional (an answer writes the absent ones as null, a request may leave
// them out).
var evidenceInput = func() *jsonschema.Schema {
	s, err := jsonschema.For[client.Evidence](nil)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: the input schema of client.Evidence: %v", err))
	}
	s.Required = nil
	return s
}()

// outputSchema is the output schema of T: inferred from its fields, with
// every nullable property (a pointer, slice or map) made optional and
// non-null, as compact leaves nulls out.
func outputSchema[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](&jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		// Raw JSON (an event's data) is any value, not an array of bytes.
		reflect.TypeFor[json.RawMessage](): {},
		// The wire's instants are strings, its amounts exact numbers.
		reflect.TypeFor[client.Time](): {Type: "string"},
		reflect.TypeFor[json.Number](): {Type: "number"},
	}})
	if err != nil {
		panic(fmt.Sprintf("mcpserver: the output schema of %T: %v", *new(T), err))
	}
	if s.Type != "object" {
		panic(fmt.Sprintf("mcpserver: the output of a tool must be an object, not %T", *new(T)))
	}
	dropNullable(s)
	return s
}

// dropNullable rewrites s in place: a property that may be null (a
// pointer, slice, map or interface field) is no longer required and no
// longer admits null.
func dropNullable(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	for name, p := range s.Properties {
		nullable := slices.Contains(p.Types, "null") ||
			(p.Type == "object" && len(p.Properties) == 0) || // a map
			(p.Type == "" && len(p.Types) == 0) // any value
		if slices.Contains(p.Types, "null") {
			types := slices.DeleteFunc(slices.Clone(p.Types), func(t string) bool { return t == "null" })
			p.Types = nil
			if len(types) == 1 {
				p.Type = types[0]
			} else {
				p.Types = types
			}
		}
		if nullable {
			s.Required = slices.DeleteFunc(s.Required, func(r string) bool { return r == name })
		}
		dropNullable(p)
	}
	dropNullable(s.Items)
	dropNullable(s.AdditionalProperties)
	for _, d := range s.Defs {
		dropNullable(d)
	}
}

// compact is v as JSON without its null members (at every depth): a
// tool's result carries only what is there.
func compact(v any) (json.RawMessage, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return nil, err
	}
	return json.Marshal(dropNulls(x))
}

// dropNulls removes the null members of every object in x.
func dropNulls(x any) any {
	switch v := x.(type) {
	case map[string]any:
		for k, e := range v {
			if e == nil {
				delete(v, k)
				continue
			}
			v[k] = dropNulls(e)
		}
	case []any:
		for i, e := range v {
			v[i] = dropNulls(e)
		}
	}
	return x
}
