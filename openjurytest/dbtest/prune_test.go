package dbtest

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestPruneTemplates: templates unused since before the cutoff go; recent
// ones, other files and the directories of templates being built stay.
func TestPruneTemplates(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	now := time.Now()
	file := func(name string, age time.Duration) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte("x"), 0o600))
		require.NoError(t, os.Chtimes(p, now.Add(-age), now.Add(-age)))
		return p
	}
	old := file(templatePrefix+"aaaa.db", 8*24*time.Hour)
	recent := file(templatePrefix+"bbbb.db", time.Hour)
	other := file("something-else.db", 30*24*time.Hour)
	building := filepath.Join(dir, templatePrefix+"cccc.db")
	require.NoError(t, os.Mkdir(building, 0o700))
	require.NoError(t, os.Chtimes(building, now.Add(-30*24*time.Hour), now.Add(-30*24*time.Hour)))

	pruneTemplates(dir, now.Add(-templateUnused))
	require.NoFileExists(t, old)
	require.FileExists(t, recent)
	require.FileExists(t, other)
	require.DirExists(t, building)
}

// TestTemplateTouchedOnUse: a test binary that finds its template marks it
// used now, so another build's run does not prune it.
func TestTemplateTouchedOnUse(t *testing.T) {
	SQLite(t) // the template exists
	old := time.Now().Add(-30 * 24 * time.Hour)
	require.NoError(t, os.Chtimes(sqliteTemplate, old, old))
	path, err := makeSQLiteTemplate()
	require.NoError(t, err)
	require.Equal(t, sqliteTemplate, path)
	st, err := os.Stat(path)
	require.NoError(t, err)
	require.WithinDuration(t, time.Now(), st.ModTime(), time.Minute)
}
