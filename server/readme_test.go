package server

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// configRowRE is a row of the configuration table of docs/operations.md:
// the variable and its default column.
var configRowRE = regexp.MustCompile("(?m)^\\| `(SERVICE_[A-Z0-9_]+)` \\| *([^|]*?) *\\|")

// TestReadmeConfiguration keeps the configuration table of
// docs/operations.md in step with FromEnv: one row per variable FromEnv
// reads, no other, and every default written as a value (`...`) is the one
// Defaults has.
func TestReadmeConfiguration(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../docs/operations.md")
	require.NoError(t, err)
	readme := string(raw)
	start := strings.Index(readme, "\n## Configuration\n")
	require.GreaterOrEqual(t, start, 0, "docs/operations.md has no Configuration section")
	section := readme[start+1:]
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}

	var read []string
	_, err = FromEnv(func(name string) string {
		read = append(read, name)
		return ""
	})
	require.NoError(t, err)

	documented := map[string]string{}
	var names []string
	for _, m := range configRowRE.FindAllStringSubmatch(section, -1) {
		require.NotContains(t, documented, m[1], "%s has two rows", m[1])
		names = append(names, m[1])
		if d := strings.TrimSpace(m[2]); len(d) >= 2 && d[0] == '`' && d[len(d)-1] == '`' {
			documented[m[1]] = d[1 : len(d)-1]
		} else {
			documented[m[1]] = ""
		}
	}
	slices.Sort(names)
	slices.Sort(read)
	require.Equal(t, read, names, "docs/operations.md's configuration table vs the variables FromEnv reads")

	// Setting every variable to its documented default changes nothing.
	c, err := FromEnv(env(documented))
	require.NoError(t, err)
	require.Equal(t, Defaults(), c, "a default in docs/operations.md differs from Defaults")
}

// TestReadmeEmbeddingExample keeps the embedding example of
// docs/architecture.md equal to Example_embedding, which go test compiles
// and runs.
func TestReadmeEmbeddingExample(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("example_test.go")
	require.NoError(t, err)
	doc, err := os.ReadFile("../docs/architecture.md")
	require.NoError(t, err)
	body := string(src[strings.Index(string(src), "func Example_embedding() {"):])
	body = strings.Replace(strings.TrimSpace(body), "func Example_embedding() {", "func main() {", 1)
	require.True(t, strings.Contains(string(doc), "```go\n"+body+"\n```"),
		"docs/architecture.md's embedding example differs from Example_embedding; it should read:\n```go\n%s\n```", body)
}
