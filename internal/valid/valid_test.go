package valid

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
)

type input struct {
	Title string   `name:"title" validate:"notblank,max=5"`
	Tags  []string `name:"tags" validate:"max=2,dive,min=1,max=3"`
	N     *int64   `name:"n" validate:"omitnil,min=60,max=100"`
}

func TestStruct(t *testing.T) {
	t.Parallel()
	n := func(v int64) *int64 { return &v }
	cases := []struct {
		name   string
		in     input
		detail string
	}{
		{"ok", input{Title: "ab", Tags: []string{"x"}}, ""},
		{"blank", input{Title: "   "}, "title: is required and must not be blank"},
		{"long", input{Title: "ééééééé"}, "title: must be at most 5 characters"},
		{"too many tags", input{Title: "a", Tags: []string{"a", "b", "c"}}, "tags: must have at most 2 items"},
		{"long tag", input{Title: "a", Tags: []string{"abcd"}}, "tags[0]: must be at most 3 characters"},
		{"small n", input{Title: "a", N: n(1)}, "n: must be at least 60"},
		{"nil n", input{Title: "a", N: nil}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := Struct("op", tc.in)
			if tc.detail == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			require.Equal(t, openjury.Invalid, openjury.KindOf(err))
			require.Equal(t, tc.detail, openjury.DetailOf(err))
		})
	}
}
