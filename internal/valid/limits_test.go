package valid

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// numericRule finds a validate tag holding a number in a rule: a limit
// written as text. Limits are Go constants, given to the validator as
// Rules (docs/architecture.md#habits).
var numericRule = regexp.MustCompile("validate:\"[^\"]*\\b(max|min|len|gte|lte|gt|lt|eq|ne)=[0-9]")

// TestNoLimitInValidateTags: no non-test Go file of the module writes a
// limit into a validate tag.
func TestNoLimitInValidateTags(t *testing.T) {
	t.Parallel()
	require.True(t, numericRule.MatchString("Title string `validate:\"notblank,max=140\"`"), "the check can fail")
	require.False(t, numericRule.MatchString("At string `validate:\"omitempty,datetime=2006-01-02T15:04:05Z07:00\"`"))
	root := filepath.Join("..", "..")
	_, err := os.Stat(filepath.Join(root, "go.mod"))
	require.NoError(t, err, "the module root")
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "testdata":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		files++
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(src), "\n") {
			if numericRule.MatchString(line) {
				t.Errorf("%s:%d: a limit in a validate tag; make it a constant and a valid.Rules entry: %s", path, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, files, 100)
}
