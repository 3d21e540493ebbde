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

// TestNUL: a NUL character anywhere in an input, however deep, is
// Invalid naming where it is; Text checks a lone string.
func TestNUL(t *testing.T) {
	t.Parallel()
	type item struct {
		Quote string         `name:"quote"`
		Meta  map[string]any `name:"metadata"`
	}
	type nested struct {
		Title string  `name:"title" validate:"notblank"`
		Items []item  `name:"evidence"`
		Note  *string `name:"note"`
	}
	nul := "a\x00b"
	cases := []struct {
		name   string
		in     nested
		detail string
	}{
		{"clean", nested{Title: "t", Items: []item{{Quote: "q", Meta: map[string]any{"k": []any{"v", 1.5}}}}}, ""},
		{"field", nested{Title: nul}, "title: must not contain NUL characters"},
		{"pointer", nested{Title: "t", Note: &nul}, "note: must not contain NUL characters"},
		{"slice", nested{Title: "t", Items: []item{{}, {Quote: nul}}}, "evidence[1].quote: must not contain NUL characters"},
		{"map value", nested{Title: "t", Items: []item{{Meta: map[string]any{"k": map[string]any{"deep": []any{1, nul}}}}}}, "evidence[0].metadata.k.deep[1]: must not contain NUL characters"},
		{"map key", nested{Title: "t", Items: []item{{Meta: map[string]any{nul: 1}}}}, "evidence[0].metadata: must not contain NUL characters"},
		{"before the rules", nested{Title: "\x00"}, "title: must not contain NUL characters"},
	}
	for _, tc := range cases {
		err := Struct("op", tc.in)
		if tc.detail == "" {
			require.NoError(t, err, tc.name)
			continue
		}
		require.Equal(t, openjury.Invalid, openjury.KindOf(err), tc.name)
		require.Equal(t, tc.detail, openjury.DetailOf(err), tc.name)
	}
	require.NoError(t, Text("op", "q", "fine"))
	err := Text("op", "q", "x\x00")
	require.Equal(t, openjury.Invalid, openjury.KindOf(err))
	require.Equal(t, "q: must not contain NUL characters", openjury.DetailOf(err))
}

// ruled is input with its limits given as Rules built from constants.
type ruled struct {
	Title string   `name:"title"`
	Tags  []string `name:"tags"`
	N     *int64   `name:"n"`
	Items []item2  `name:"items"`
}

type item2 struct {
	Score *float64 `name:"score"`
}

const (
	maxTitle, maxTags, maxTag = 5, 2, 3
	minN, maxN                = 60, 100
	maxScore                  = 0.5
)

var ruledRules = New(
	For[ruled](Rules{
		"Title": "notblank," + Max(maxTitle),
		"Tags":  Max(maxTags) + ",dive,min=1," + Max(maxTag),
		"N":     "omitnil," + Min(minN) + "," + Max(maxN),
		"Items": "dive",
	}),
	For[item2](Rules{"Score": "omitnil," + Min(0.0) + "," + Max(maxScore)}),
)

// TestRules: rules built in Go give the same checks and details as the
// same rules in tags, nested element types included.
func TestRules(t *testing.T) {
	t.Parallel()
	n := func(v int64) *int64 { return &v }
	f := func(v float64) *float64 { return &v }
	cases := []struct {
		name   string
		in     ruled
		detail string
	}{
		{"ok", ruled{Title: "ab", Tags: []string{"x"}, Items: []item2{{Score: f(0.5)}}}, ""},
		{"blank", ruled{Title: "   "}, "title: is required and must not be blank"},
		{"long", ruled{Title: "ééééééé"}, "title: must be at most 5 characters"},
		{"too many tags", ruled{Title: "a", Tags: []string{"a", "b", "c"}}, "tags: must have at most 2 items"},
		{"long tag", ruled{Title: "a", Tags: []string{"abcd"}}, "tags[0]: must be at most 3 characters"},
		{"empty tag", ruled{Title: "a", Tags: []string{""}}, "tags[0]: must be at least 1 characters"},
		{"small n", ruled{Title: "a", N: n(1)}, "n: must be at least 60"},
		{"large n", ruled{Title: "a", N: n(101)}, "n: must be at most 100"},
		{"nested", ruled{Title: "a", Items: []item2{{}, {Score: f(0.75)}}}, "items[1].score: must be at most 0.5"},
		{"nested negative", ruled{Title: "a", Items: []item2{{Score: f(-1)}}}, "items[0].score: must be at least 0"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := ruledRules.Struct("op", tc.in)
			if tc.detail == "" {
				require.NoError(t, err)
				return
			}
			require.Equal(t, openjury.Invalid, openjury.KindOf(err))
			require.Equal(t, tc.detail, openjury.DetailOf(err))
		})
	}
	// The rules are the rules' own: the tags-only validator ignores them.
	require.NoError(t, Struct("op", ruled{Title: "far too long a title"}))
}

func TestForRefusesMistakes(t *testing.T) {
	t.Parallel()
	require.PanicsWithValue(t, "valid.For: valid.ruled has no field Titel", func() {
		For[ruled](Rules{"Titel": "max=1"})
	})
	require.PanicsWithValue(t, `valid.For: valid.input.Title has a validate tag "notblank,max=5" and rules: keep one`, func() {
		For[input](Rules{"Title": "max=1"})
	})
	require.Panics(t, func() { For[int](Rules{}) })
	require.Equal(t, "max=20000", Max(20000))
	require.Equal(t, "min=0.25", Min(0.25))
	require.Equal(t, "max=2592000", Max(int64(2592000)))
}
