package openjury_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDomainDependencyRule enforces the dependency rule of
// docs/architecture.md#packages-and-the-dependency-rule: domain packages
// never depend on bun, net/http or go-ethereum's RPC clients, directly or
// not.
func TestDomainDependencyRule(t *testing.T) {
	t.Parallel()
	domain := []string{"auth", "marketplace", "stake", "agr", "anchor", "search"}
	forbidden := []string{
		"github.com/uptrace/bun",
		"net/http",
		"github.com/ethereum/go-ethereum/ethclient",
		"github.com/ethereum/go-ethereum/rpc",
	}
	for _, pkg := range domain {
		if _, err := os.Stat(pkg); err != nil {
			continue // the package does not exist yet
		}
		path := "github.com/openjury/openjury/" + pkg
		out, err := exec.Command("go", "list", "-deps", path).CombinedOutput()
		require.NoError(t, err, "go list %s: %s", path, out)
		for _, dep := range strings.Fields(string(out)) {
			for _, bad := range forbidden {
				require.Falsef(t, dep == bad || strings.HasPrefix(dep, bad+"/"),
					"domain package %s depends on %s", pkg, dep)
			}
		}
	}
}
