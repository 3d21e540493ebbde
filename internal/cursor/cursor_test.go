package cursor

import (
	"testing"
	"time"

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

func TestTimeID(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 21, 1, 2, 3, 456_000_000, time.UTC)
	id := openjury.NewID()
	gotAt, gotID, err := DecodeTimeID("op", EncodeTimeID(at, id))
	require.NoError(t, err)
	require.Equal(t, at, gotAt)
	require.Equal(t, id, gotID)
	_, _, err = DecodeTimeID("op", EncodeTimeID(at, "x\x00"))
	require.Equal(t, Invalid, openjury.DetailOf(err), "ids in cursors are checked")
	_, _, err = DecodeTimeID("op", Encode(map[string]int{"t": 1}))
	require.Equal(t, Invalid, openjury.DetailOf(err), "a cursor without an id is refused")
}

func TestAfter(t *testing.T) {
	t.Parallel()
	type pos struct {
		At time.Time
		ID string
	}
	got, err := After[pos]("op", "")
	require.NoError(t, err)
	require.Nil(t, got, "no cursor: the first page")
	at := time.Date(2026, 11, 21, 1, 2, 3, 456_000_000, time.UTC)
	id := openjury.NewID()
	got, err = After[pos]("op", EncodeTimeID(at, id))
	require.NoError(t, err)
	require.Equal(t, &pos{At: at, ID: id}, got)
	_, err = After[pos]("op", "!!")
	require.Equal(t, openjury.Invalid, openjury.KindOf(err))
	require.Equal(t, Invalid, openjury.DetailOf(err))
}

func TestCut(t *testing.T) {
	t.Parallel()
	next := func(last int) string { return string(rune('0' + last)) }
	rows, cur := Cut([]int{1, 2, 3}, 2, next)
	require.Equal(t, []int{1, 2}, rows, "the extra row is dropped")
	require.Equal(t, "2", cur, "the cursor is the last kept row's")
	rows, cur = Cut([]int{1, 2}, 2, next)
	require.Equal(t, []int{1, 2}, rows)
	require.Empty(t, cur, "no extra row: the last page")
	rows, cur = Cut[int](nil, 2, next)
	require.Nil(t, rows)
	require.Empty(t, cur)
}
