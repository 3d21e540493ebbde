package cursor

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
)

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	type pos struct {
		At int64  `json:"t"`
		ID string `json:"i"`
	}
	s := Encode(pos{At: 42, ID: "x"})
	var got pos
	require.NoError(t, Decode("op", s, &got))
	require.Equal(t, pos{At: 42, ID: "x"}, got)
	for _, bad := range []string{"!!", "bm90IGpzb24", Encode([]int{1})} {
		err := Decode("op", bad, &got)
		require.Equal(t, openjury.Invalid, openjury.KindOf(err), bad)
		require.Equal(t, Invalid, openjury.DetailOf(err))
	}
}
