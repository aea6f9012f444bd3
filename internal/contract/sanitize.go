package contract

import (
	"strings"
	"unicode/utf8"
)

// Removed counts what Sanitize took out of a text, by kind. Agents see the
// counts so they know a text was altered and how.
type Removed struct {
	ZeroWidth    int `json:"zero_width,omitempty"`
	Bidi         int `json:"bidi_controls,omitempty"`
	Tags         int `json:"tag_characters,omitempty"`
	HTMLComments int `json:"html_comments,omitempty"`
}

// Any reports whether anything was removed.
func (r Removed) Any() bool { return r != Removed{} }

// Add sums two counts.
func (r Removed) Add(o Removed) Removed {
	return Removed{r.ZeroWidth + o.ZeroWidth, r.Bidi + o.Bidi, r.Tags + o.Tags, r.HTMLComments + o.HTMLComments}
}

// invisibleKind classifies the characters that can hide text from a human
// reader while an agent still reads it.
func invisibleKind(r rune) (zeroWidth, bidi, tag bool) {
	switch r {
	case '\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF', '\u180E', '\u2061', '\u2062', '\u2063', '\u2064':
		return true, false, false
	case '\u200E', '\u200F', '\u061C',
		'\u202A', '\u202B', '\u202C', '\u202D', '\u202E',
		'\u2066', '\u2067', '\u2068', '\u2069':
		return false, true, false
	}
	if r >= 0xE0000 && r <= 0xE007F {
		return false, false, true
	}
	return false, false, false
}

// Sanitize removes from untrusted Markdown what can hide instructions from a
// human reviewer: zero-width characters, bidirectional controls, Unicode tag
// characters, and HTML comments outside code. Everything else is kept byte
// for byte: no HTML escaping, no truncation, `a<b` and `&&` intact. HTML
// comments inside fenced code blocks and inline code spans are content a
// reader sees, so they stay.
func Sanitize(s string) (string, Removed) {
	return untilStable(s, sanitizeOnce)
}

// SanitizeText removes the invisible characters Sanitize removes from a
// plain-text field (an issue title). HTML comments stay: GitHub shows a
// title's text as it is, so a comment in it is visible, not hidden.
func SanitizeText(s string) (string, Removed) {
	return untilStable(s, removeInvisible)
}

// untilStable repeats pass until it removes nothing. A removal can join
// what was around it into something that must be removed too: bytes of
// invalid UTF-8 around a tag character into a zero-width space, or
// "<!<!-- -->-- hidden -->" into a new comment. Each pass that removes
// something shortens the text, so this ends.
func untilStable(s string, pass func(string) (string, Removed)) (string, Removed) {
	var total Removed
	for {
		out, rm := pass(s)
		if !rm.Any() {
			return s, total
		}
		total = total.Add(rm)
		s = out
	}
}

func sanitizeOnce(s string) (string, Removed) {
	s, rm := removeInvisible(s)
	if strings.Contains(s, "<!--") {
		var n int
		s, n = stripHTMLComments(s)
		rm.HTMLComments = n
	}
	return s, rm
}

// removeInvisible drops zero-width, bidi-control and tag characters.
func removeInvisible(s string) (string, Removed) {
	var rm Removed
	if strings.IndexFunc(s, func(r rune) bool { z, b, t := invisibleKind(r); return z || b || t }) >= 0 {
		var b strings.Builder
		b.Grow(len(s))
		// Bytes are copied as they are, so invalid UTF-8 passes through
		// unchanged rather than turning into replacement characters.
		for i := 0; i < len(s); {
			r, size := utf8.DecodeRuneInString(s[i:])
			z, bi, t := invisibleKind(r)
			switch {
			case z:
				rm.ZeroWidth++
			case bi:
				rm.Bidi++
			case t:
				rm.Tags++
			default:
				b.WriteString(s[i : i+size])
			}
			i += size
		}
		s = b.String()
	}
	return s, rm
}

// stripHTMLComments removes <!-- ... --> outside fenced code blocks and
// inline code spans. An unterminated comment runs to the end of the text,
// as a Markdown renderer hides it.
func stripHTMLComments(s string) (string, int) {
	var b strings.Builder
	b.Grow(len(s))
	count := 0
	fence := "" // the open fence's marker run, e.g. "```" or "~~~~"
	for len(s) > 0 {
		line, rest, hasNL := strings.Cut(s, "\n")
		if hasNL {
			line += "\n"
		}
		if marker := fenceMarker(line); marker != "" {
			switch {
			case fence == "":
				fence = marker
			case marker[0] == fence[0] && len(marker) >= len(fence) && strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), string(marker[0]))) == "":
				fence = ""
			}
			b.WriteString(line)
			s = rest
			continue
		}
		if fence != "" {
			b.WriteString(line)
			s = rest
			continue
		}
		// Outside code: scan the rest of the text from this line for a
		// comment start that is not inside an inline code span.
		i := commentStart(line)
		if i < 0 {
			b.WriteString(line)
			s = rest
			continue
		}
		b.WriteString(line[:i])
		after := s[i+4:]
		end := strings.Index(after, "-->")
		count++
		if end < 0 {
			return b.String(), count
		}
		s = after[end+3:]
	}
	return b.String(), count
}

// fenceMarker returns the run of ``` or ~~~ (three or more) that opens or
// closes a fenced code block on this line, allowing up to three spaces of
// indentation as CommonMark does.
func fenceMarker(line string) string {
	trimmed := strings.TrimLeft(line, " ")
	if len(line)-len(trimmed) > 3 || len(trimmed) < 3 {
		return ""
	}
	c := trimmed[0]
	if c != '`' && c != '~' {
		return ""
	}
	n := 0
	for n < len(trimmed) && trimmed[n] == c {
		n++
	}
	if n < 3 {
		return ""
	}
	// A backtick fence's info string cannot contain backticks.
	if c == '`' && strings.Contains(trimmed[n:], "`") {
		return ""
	}
	return trimmed[:n]
}

// commentStart finds "<!--" in line outside inline code spans.
func commentStart(line string) int {
	for i := 0; i < len(line); {
		switch {
		case line[i] == '`':
			n := 1
			for i+n < len(line) && line[i+n] == '`' {
				n++
			}
			closer := strings.Index(line[i+n:], line[i:i+n])
			if closer < 0 {
				i += n
				continue
			}
			i += n + closer + n
		case strings.HasPrefix(line[i:], "<!--"):
			return i
		default:
			_, size := utf8.DecodeRuneInString(line[i:])
			i += size
		}
	}
	return -1
}
