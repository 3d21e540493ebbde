package cursor_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/internal/cursor"
)

// FuzzDecodeTimeID checks that any text either decodes into a position that
// encodes back to an equal position, or is refused with the one Invalid
// detail.
func FuzzDecodeTimeID(f *testing.F) {
	f.Add(cursor.EncodeTimeID(time.UnixMilli(1_700_000_000_123), "01900000-0000-7000-8000-000000000000"))
	f.Add("")
	f.Add("e30")
	f.Add("eyJ0IjoxLCJpIjoieCJ9")
	f.Add("!!!")
	f.Fuzz(func(t *testing.T, s string) {
		at, id, err := cursor.DecodeTimeID("test", s)
		if err != nil {
			require.Equal(t, openjury.Invalid, openjury.KindOf(err))
			require.Equal(t, cursor.Invalid, openjury.DetailOf(err))
			return
		}
		require.True(t, openjury.ValidID(id))
		at2, id2, err := cursor.DecodeTimeID("test", cursor.EncodeTimeID(at, id))
		require.NoError(t, err)
		require.Equal(t, at, at2)
		require.Equal(t, id, id2)
	})
}
