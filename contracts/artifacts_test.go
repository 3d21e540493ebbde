package contracts_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/contracts"
)

// bindings maps each artifact name to the metadata abigen embedded.
var bindings = map[string]*bind.MetaData{
	"AnchorRegistry": contracts.AnchorRegistryMetaData,
	"BountyEscrow":   contracts.BountyEscrowMetaData,
	"MerkleVerifier": contracts.MerkleVerifierMetaData,
	"StakeVault":     contracts.StakeVaultMetaData,
	"TestUSDC":       contracts.TestUSDCMetaData,
	"TestWallet":     contracts.TestWalletMetaData,
}

func readArtifact(t *testing.T, dir, name string) (abiJSON, bin string) {
	t.Helper()
	a, err := os.ReadFile(filepath.Join(dir, name+".abi"))
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(dir, name+".bin"))
	require.NoError(t, err)
	return strings.TrimSpace(string(a)), strings.TrimSpace(string(b))
}

// TestBindingsMatchArtifacts holds the Go bindings equal to the committed
// ABI and bytecode.
func TestBindingsMatchArtifacts(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("build/*.abi")
	require.NoError(t, err)
	require.Len(t, files, len(bindings), "every artifact has a binding")
	for name, md := range bindings {
		abiJSON, bin := readArtifact(t, "build", name)
		// abigen drops the spaces of internalType ("contract IERC20").
		require.JSONEq(t, strings.ReplaceAll(abiJSON, " ", ""), md.ABI, name)
		require.Equal(t, "0x"+bin, md.Bin, name)
	}
}

// TestArtifactsMatchSources recompiles src/ with the pinned solc that
// build.sh installs and compares with the committed artifacts.
func TestArtifactsMatchSources(t *testing.T) {
	t.Parallel()
	cache := os.Getenv("OPENJURY_SOLC_DIR")
	if cache == "" {
		home, err := os.UserHomeDir()
		require.NoError(t, err)
		cache = filepath.Join(home, ".cache", "openjury-solc")
	}
	modules := filepath.Join(cache, "node_modules")
	_, solcErr := os.Stat(filepath.Join(modules, "solc", "package.json"))
	node, nodeErr := exec.LookPath("node")
	if solcErr != nil || nodeErr != nil {
		msg := "SKIPPING the contracts source check: solc is not installed under " + cache +
			" (run `bash contracts/build.sh --install`) or node is missing"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	out := t.TempDir()
	cmd := exec.Command(node, "compile.js", "src", out)
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
	b, err := cmd.CombinedOutput()
	require.NoError(t, err, string(b))
	for name := range bindings {
		wantABI, wantBin := readArtifact(t, "build", name)
		gotABI, gotBin := readArtifact(t, out, name)
		require.JSONEq(t, wantABI, gotABI, "%s: build/%s.abi is stale: run bash contracts/build.sh", name, name)
		require.Equal(t, wantBin, gotBin, "%s: build/%s.bin is stale: run bash contracts/build.sh", name, name)
	}
	var pkg struct{ Version string }
	raw, err := os.ReadFile(filepath.Join(modules, "solc", "package.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &pkg))
	require.Equal(t, "0.8.28", pkg.Version, "the pinned solc of build.sh")
}
