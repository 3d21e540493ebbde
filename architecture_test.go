package openjury_test

import (
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// The architecture tests hold the dependency rule of
// docs/architecture.md#packages-and-the-dependency-rule. They read the
// module's import graph once with go list (non-test files).

// module is the module path; packages below are named relative to it ("" is
// the root kernel).
const module = "github.com/openjury/openjury"

// goPackage is one package of the module as go list describes it.
type goPackage struct {
	// imports and deps are the direct and the transitive imports.
	imports, deps []string
}

var (
	graphOnce sync.Once
	graph     map[string]goPackage
	graphErr  error
	graphOut  []byte
)

// moduleGraph returns the module's packages by path relative to the module.
func moduleGraph(t *testing.T) map[string]goPackage {
	t.Helper()
	graphOnce.Do(func() {
		graphOut, graphErr = exec.Command("go", "list", "-f",
			"{{.ImportPath}}\t{{join .Imports \" \"}}\t{{join .Deps \" \"}}", "./...").CombinedOutput()
		if graphErr != nil {
			return
		}
		graph = map[string]goPackage{}
		for line := range strings.Lines(string(graphOut)) {
			f := strings.Split(strings.TrimRight(line, "\n"), "\t")
			if len(f) != 3 {
				continue
			}
			graph[rel(f[0])] = goPackage{imports: strings.Fields(f[1]), deps: strings.Fields(f[2])}
		}
	})
	require.NoError(t, graphErr, "go list: %s", graphOut)
	require.NotEmpty(t, graph)
	return graph
}

// rel is path relative to the module ("" for the root), or path itself
// outside the module.
func rel(path string) string {
	if path == module {
		return ""
	}
	if r, ok := strings.CutPrefix(path, module+"/"); ok {
		return r
	}
	return path
}

// inModule reports whether path is a package of this module.
func inModule(path string) bool { return path == module || strings.HasPrefix(path, module+"/") }

// isStd reports whether path is a standard-library package.
func isStd(path string) bool { return !strings.Contains(strings.Split(path, "/")[0], ".") }

// The rings of the module, from the centre out. A package of a ring may
// import, of this module, only what its entry lists ("internal/" stands for
// every internal package); the edges (transport, web, host, client,
// mcpserver, cmd/openjury, openjurytest and its tools) sit outside and may import any
// of them. No arrow runs back up, so no cycle can form across rings.
var (
	kernelOnly = []string{""}
	lowRing    = []string{"", "internal/"}
	domainRing = []string{"", "internal/", "agr", "anchor", "auth", "events", "marketplace", "search", "stake"}
	// eventRing: the event log is the one domain package every other may
	// import: each state change writes its events in its own transaction.
	eventRing = []string{"", "internal/", "events"}

	rings = map[string][]string{
		// The kernel imports nothing of the module.
		"": nil,
		// Internal helpers: the kernel and each other.
		"internal/cursor":  lowRing,
		"internal/gcfloor": lowRing,
		"internal/valid":   lowRing,
		"internal/wait":    lowRing,
		"internal/whsig":   lowRing,
		// Domain: the kernel, internal helpers and, in one direction only,
		// marketplace -> agr, stake, anchor.
		"events":      lowRing,
		"agr":         eventRing,
		"anchor":      eventRing,
		"auth":        eventRing,
		"search":      eventRing,
		"stake":       eventRing,
		"marketplace": {"", "internal/", "agr", "anchor", "events", "stake"},
		// The wire shapes of the HTTP interface, shared by transport and
		// client: the standard library only, nothing of the module.
		"wire": nil,
		// Ports of edges: the Idempotency-Key store's types.
		"idempotency": kernelOnly,
		"a2atask":     kernelOnly,
		// Adapters: the domain they implement and its ports, never an edge
		// (transport, web, host) nor another adapter; ethchain drives the
		// contract bindings.
		"contracts":      nil,
		"bunstore":       append(slices.Clone(domainRing), "idempotency", "a2atask"),
		"ethchain":       append(slices.Clone(domainRing), "contracts"),
		"search/openai":  {"", "internal/", "search"},
		"events/webhook": {"", "internal/", "events"},
		"storetest":      append(slices.Clone(domainRing), "idempotency", "a2atask"),
	}

	// domain are the domain packages.
	domain = []string{"agr", "anchor", "auth", "events", "marketplace", "search", "stake"}
	// adapters are the packages that implement ports for the domain (and
	// the conformance suite they pass).
	adapters = []string{"bunstore", "ethchain", "search/openai", "events/webhook", "contracts", "storetest"}

	// smallLibs are the third-party packages the kernel, the internal
	// helpers, the domain and the ports of edges may import: pure code,
	// no I/O.
	smallLibs = []string{
		"github.com/ethereum/go-ethereum/accounts", // EIP-191 text hash
		"github.com/ethereum/go-ethereum/common",   // addresses
		"github.com/ethereum/go-ethereum/crypto",   // secp256k1, keccak256
		"github.com/go-playground/validator/v10",   // internal/valid
		"github.com/google/uuid",                   // UUIDv7 ids
		"github.com/gowebpki/jcs",                  // RFC 8785 canonical JSON
		"github.com/kljensen/snowball/english",     // the Snowball English stemmer of lexical search
	}
)

// allowed reports whether a package whose ring allows allow may import
// the module package dep (relative).
func allowed(allow []string, dep string) bool {
	for _, a := range allow {
		if a == dep || (strings.HasSuffix(a, "/") && strings.HasPrefix(dep, a)) {
			return true
		}
	}
	return false
}

// TestDomainDependencyRule: domain packages never depend on bun, net/http
// or go-ethereum's RPC clients, directly or not.
func TestDomainDependencyRule(t *testing.T) {
	t.Parallel()
	g := moduleGraph(t)
	forbidden := []string{
		"github.com/uptrace/bun",
		"net/http",
		"github.com/ethereum/go-ethereum/ethclient",
		"github.com/ethereum/go-ethereum/rpc",
	}
	for _, pkg := range append(slices.Clone(domain), "", "internal/cursor", "internal/gcfloor", "internal/valid", "internal/whsig", "idempotency", "a2atask") {
		p, ok := g[pkg]
		require.True(t, ok, "package %q is missing", pkg)
		for _, dep := range p.deps {
			for _, bad := range forbidden {
				require.Falsef(t, dep == bad || strings.HasPrefix(dep, bad+"/"),
					"package %q depends on %s", pkg, dep)
			}
		}
	}
}

// TestImportRings: every package of the kernel, the internal helpers, the
// domain, the ports and the adapters imports only what its ring allows of
// the module; the inner rings import, besides the standard library, only
// the small pure libraries. So the domain imports the kernel, internal/,
// small libraries and each other in the one documented direction
// (marketplace -> agr, stake, anchor; the others no domain package), and
// no arrow runs back up (no import cycle across rings).
func TestImportRings(t *testing.T) {
	t.Parallel()
	g := moduleGraph(t)
	for pkg, allow := range rings {
		p, ok := g[pkg]
		require.True(t, ok, "package %q is missing: update the rings of architecture_test.go", pkg)
		inner := !slices.Contains(adapters, pkg)
		for _, imp := range p.imports {
			switch {
			case inModule(imp):
				require.Truef(t, allowed(allow, rel(imp)), "package %q imports %q, outside its ring %q", pkg, rel(imp), allow)
			case isStd(imp):
			case inner:
				require.Containsf(t, smallLibs, imp, "package %q imports %s, not one of the small pure libraries", pkg, imp)
			}
		}
	}
	// A package the table does not know is an edge: nothing in a ring may
	// import it (checked above), and it must be a real edge.
	for pkg := range g {
		if _, ok := rings[pkg]; ok {
			continue
		}
		edge := slices.ContainsFunc([]string{"transport", "web", "server", "host", "client", "mcpserver", "cmd/", "openjurytest"},
			func(e string) bool { return pkg == e || strings.HasPrefix(pkg, strings.TrimSuffix(e, "/")+"/") })
		require.Truef(t, edge, "package %q is in no ring: add it to the rings of architecture_test.go", pkg)
	}
}

// TestNoAdapterImportsTransport: transport is the HTTP edge. No adapter
// (bunstore, ethchain, search/openai, contracts, storetest) and nothing
// they stand on (the domain, the kernel, internal/, idempotency) depends
// on transport, web, server or host, directly or not; the ports they
// share with an edge live below it (idempotency). web, an edge itself (it
// is served inside transport's handler and reuses its error table, rate
// limit and counters), and server, which wires everything, may import
// transport.
func TestNoAdapterImportsTransport(t *testing.T) {
	t.Parallel()
	g := moduleGraph(t)
	below := append(slices.Clone(adapters), domain...)
	below = append(below, "", "internal/cursor", "internal/gcfloor", "internal/valid", "internal/whsig", "idempotency", "a2atask")
	for _, pkg := range below {
		p, ok := g[pkg]
		require.True(t, ok, "package %q is missing", pkg)
		for _, dep := range p.deps {
			if !inModule(dep) {
				continue
			}
			d := rel(dep)
			require.Falsef(t, d == "transport" || d == "web" || d == "server" || d == "host" || strings.HasPrefix(d, "transport/"),
				"package %q depends on the edge %q", pkg, d)
		}
	}
}

// TestWireIsShared: wire, the one definition of the interface's JSON
// shapes, depends on nothing of the module and on no HTTP, database or
// chain code (directly or not), so the server and the client can both
// import it; client speaks HTTP only and never depends on the server's
// side (transport, web, server, host), nor does anything below the edges
// depend on client.
func TestWireIsShared(t *testing.T) {
	t.Parallel()
	g := moduleGraph(t)
	w, ok := g["wire"]
	require.True(t, ok, "package wire is missing")
	for _, dep := range w.deps {
		require.Falsef(t, inModule(dep), "wire depends on the module package %q", rel(dep))
		require.Truef(t, isStd(dep), "wire depends on %s, outside the standard library", dep)
		require.NotEqualf(t, "net/http", dep, "wire depends on net/http")
	}
	for _, pkg := range []string{"transport", "client"} {
		require.Containsf(t, g[pkg].imports, module+"/wire", "%s does not use the wire types", pkg)
	}
	c, ok := g["client"]
	require.True(t, ok, "package client is missing")
	for _, dep := range c.deps {
		d := rel(dep)
		require.Falsef(t, d == "transport" || strings.HasPrefix(d, "transport/") || d == "web" || d == "server" || d == "host",
			"client depends on the server side %q", d)
	}
}
