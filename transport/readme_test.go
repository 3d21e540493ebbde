package transport_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReadmeEmbeddingExample keeps the embedding example of
// docs/architecture.md equal to Example_embedding, which go test compiles
// and runs.
func TestReadmeEmbeddingExample(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("example_test.go")
	require.NoError(t, err)
	readme, err := os.ReadFile("../docs/architecture.md")
	require.NoError(t, err)
	body := string(src[strings.Index(string(src), "func Example_embedding() {"):])
	body = strings.Replace(strings.TrimSpace(body), "func Example_embedding() {", "func main() {", 1)
	require.Contains(t, string(readme), "```go\n"+body+"\n```", "docs/architecture.md's embedding example differs from Example_embedding")
}
