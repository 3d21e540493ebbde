package openjury_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDocReferencesResolve: every section of docs/ that a Go comment or a
// document cites (docs/rules.md#escrow-and-payouts, rules.md#events,
// docs/rules.md, "Jury integrity") exists, so a reader who follows one
// lands on it.
func TestDocReferencesResolve(t *testing.T) {
	headings := map[string]map[string]bool{} // file -> anchors and titles
	entries, err := os.ReadDir("docs")
	require.NoError(t, err)
	heading := regexp.MustCompile(`(?m)^#{1,6} (.+)$`)
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".md") {
			continue
		}
		b, err := os.ReadFile(filepath.Join("docs", e.Name()))
		require.NoError(t, err)
		set := map[string]bool{}
		for _, m := range heading.FindAllStringSubmatch(string(b), -1) {
			title := strings.TrimSpace(m[1])
			set[title] = true
			set["#"+slug(title)] = true
		}
		headings[e.Name()] = set
	}
	anchor := regexp.MustCompile(`(?:docs/)?([a-z]+\.md)(#[a-z0-9-]+)`)
	titled := regexp.MustCompile(`docs/([a-z]+\.md), "([^"]+)"`)
	var missing []string
	check := func(where, file, key string) {
		set, ok := headings[file]
		if !ok {
			return // another folder's file (README.md of the root)
		}
		if !set[key] {
			missing = append(missing, where+": "+file+" "+key)
		}
	}
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (strings.HasPrefix(name, ".") || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, ".md") && !strings.HasSuffix(path, ".tmpl") && !strings.HasSuffix(path, ".yaml") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text := strings.Join(strings.Fields(string(b)), " ") // citations wrap across comment lines
		text = strings.ReplaceAll(text, " // ", " ")
		for _, m := range anchor.FindAllStringSubmatch(text, -1) {
			if strings.HasSuffix(path, ".md") && !strings.HasPrefix(m[0], "docs/") && filepath.Dir(path) != "docs" {
				continue // a root document's link to its own folder's file
			}
			check(path, m[1], m[2])
		}
		for _, m := range titled.FindAllStringSubmatch(text, -1) {
			check(path, m[1], m[2])
		}
		return nil
	})
	require.NoError(t, err)
	require.Empty(t, missing, "cited sections that docs/ does not have")
}

// slug is GitHub's anchor of a heading: lowercase, punctuation dropped,
// spaces as hyphens.
func slug(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteRune('-')
		}
	}
	return b.String()
}
