package search

import (
	"html"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
)

// Fragment is a piece of a snippet's text; Match marks a word of the
// query (the same word, or one with the same English stem).
type Fragment struct {
	Text  string
	Match bool
}

// Snippet is a passage of a document: its fragments in order. A cut is
// shown as "…" at either end.
type Snippet []Fragment

// HTML renders the snippet for the API's `snippet` field: every fragment
// HTML-escaped, the matched ones wrapped in <mark>…</mark>. It holds no
// other markup, so a client may insert it as HTML.
func (s Snippet) HTML() string {
	var b strings.Builder
	for _, f := range s {
		if f.Match {
			b.WriteString("<mark>")
			b.WriteString(html.EscapeString(f.Text))
			b.WriteString("</mark>")
			continue
		}
		b.WriteString(html.EscapeString(f.Text))
	}
	return b.String()
}

// Text is the snippet's plain text.
func (s Snippet) Text() string {
	var b strings.Builder
	for _, f := range s {
		b.WriteString(f.Text)
	}
	return b.String()
}

// maxSnippetScan bounds the bytes of a document the highlighter reads.
const maxSnippetScan = 64 << 10

// contextChars is how much text a snippet shows before its first match.
const contextChars = 60

// highlighter marks the words of one query in documents.
type highlighter struct {
	words map[string]bool
	stems map[string]bool
	// prefixes holds the first two bytes of every stem: only words that
	// begin the same way are stemmed (an English stem keeps the word's
	// beginning).
	prefixes map[string]bool
}

func newHighlighter(terms []string) *highlighter {
	h := &highlighter{words: map[string]bool{}, stems: map[string]bool{}, prefixes: map[string]bool{}}
	for _, t := range terms {
		h.words[t] = true
		s := english.Stem(t, true)
		h.stems[s] = true
		h.prefixes[prefix2(s)] = true
	}
	return h
}

// prefix2 is the first two bytes of s (all of a shorter s).
func prefix2(s string) string { return s[:min(2, len(s))] }

// matches reports whether the word w (lowercase) is one of the query's.
func (h *highlighter) matches(w string) bool {
	if h.words[w] {
		return true
	}
	if !h.prefixes[prefix2(w)] {
		return false
	}
	return h.stems[english.Stem(w, true)]
}

// span is a word of a text: its byte range and whether it matches.
type span struct {
	start, end int
	match      bool
}

// snippet returns the passage of about n characters of text with the most
// distinct query words (the earliest such), with them marked; without
// any, the beginning of text. Runs of white space show as one space.
func (h *highlighter) snippet(text string, n int) Snippet {
	if len(text) > maxSnippetScan {
		text = text[:maxSnippetScan]
		for !utf8.ValidString(text) {
			text = text[:len(text)-1]
		}
	}
	var words []span
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !isWordRune(r) {
			i += size
			continue
		}
		j := i + size
		for j < len(text) {
			r, size := utf8.DecodeRuneInString(text[j:])
			if !isWordRune(r) {
				break
			}
			j += size
		}
		words = append(words, span{start: i, end: j, match: len(h.words) > 0 && h.matches(strings.ToLower(text[i:j]))})
		i = j
	}
	// The window: from a matched word, as far as n characters reach; the
	// best has the most distinct matched words, then the most matches.
	from, to := 0, len(text)
	bestDistinct, bestCount := 0, 0
	for i, w := range words {
		if !w.match {
			continue
		}
		distinct, count := map[string]bool{}, 0
		limit := w.start + byteSpan(text[w.start:], n-contextChars)
		for _, x := range words[i:] {
			if x.end > limit {
				break
			}
			if x.match {
				distinct[strings.ToLower(text[x.start:x.end])] = true
				count++
			}
		}
		if len(distinct) > bestDistinct || (len(distinct) == bestDistinct && count > bestCount) {
			bestDistinct, bestCount = len(distinct), count
			from = w.start
		}
	}
	if bestDistinct > 0 {
		// Some context before the first match, from a word's start.
		back := from
		for k := len(words) - 1; k >= 0; k-- {
			if words[k].start >= from {
				continue
			}
			if utf8.RuneCountInString(text[words[k].start:from]) > contextChars {
				break
			}
			back = words[k].start
		}
		if back == words[0].start {
			back = 0
		}
		from = back
	}
	to = from + byteSpan(text[from:], n)
	if to < len(text) {
		// End at a word's end when the cut falls inside a word.
		for _, w := range words {
			if w.start < to && w.end > to && w.start > from {
				to = w.start
				break
			}
		}
	}
	var out Snippet
	add := func(s string, match bool) {
		if s == "" {
			return
		}
		if k := len(out) - 1; k >= 0 && out[k].Match == match {
			out[k].Text += s
			return
		}
		out = append(out, Fragment{Text: s, Match: match})
	}
	if from > 0 {
		add("…", false)
	}
	at := from
	for _, w := range words {
		if w.end <= from || w.start >= to {
			continue
		}
		add(collapseSpace(text[at:w.start]), false)
		add(text[w.start:w.end], w.match)
		at = w.end
	}
	add(collapseSpace(text[at:to]), false)
	if to < len(text) {
		add("…", false)
	}
	return out
}

// byteSpan returns the byte length of the first n characters of s (all of
// s when shorter).
func byteSpan(s string, n int) int {
	if n <= 0 {
		return 0
	}
	i := 0
	for pos := range s {
		if i == n {
			return pos
		}
		i++
	}
	return len(s)
}

// collapseSpace replaces every run of white space in s by one space.
func collapseSpace(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return unicode.IsSpace(r) && r != ' ' }) && !strings.Contains(s, "  ") {
		return s
	}
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			if !space {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// isWordRune reports whether r belongs to a word (as tokenize splits
// text).
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

// isStopWord reports whether w is an English stop word (the Snowball
// list, which PostgreSQL's 'english' configuration also drops).
func isStopWord(w string) bool { return english.IsStopWord(w) }
