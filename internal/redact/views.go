package redact

import (
	"sort"
	"strings"

	"github.com/ghgate/ghgate/internal/percent"
)

// maxUnescapeRounds bounds how many layers of percent-encoding are peeled
// off before matching: a secret escaped twice is still caught.
const maxUnescapeRounds = 3

// A view is a text derived from the original by dropping or decoding
// bytes, with the way back: a find in a view is redacted over the
// original bytes it came from.
type view struct {
	text   string
	parent *view // nil for the original
	// segs map the view's bytes to the parent's: from segs[k].at on, each
	// byte stands for width bytes of the parent starting at from. The
	// first starts at 0; where two start at the same byte, the later holds.
	segs []seg
}

type seg struct{ at, from, width int }

// orig maps [a, b) of v's text to the original text.
func (v *view) orig(a, b int) span {
	for ; v.parent != nil; v = v.parent {
		first, last := v.locate(a), v.locate(b-1)
		a = first.from + (a-first.at)*first.width
		b = last.from + (b-1-last.at)*last.width + last.width
	}
	return span{a, b}
}

func (v *view) locate(i int) seg {
	k := sort.Search(len(v.segs), func(k int) bool { return v.segs[k].at > i })
	return v.segs[k-1]
}

// eachNeedleView calls f with the views registered secrets are looked for
// in, until it returns false: the text with its line breaks taken out,
// then that with its percent-escapes decoded, a layer at a time.
func eachNeedleView(s string, f func(*view) bool) {
	v := &view{text: s}
	if j := joined(v); j != nil {
		v = j
	}
	eachUnescaped(v, f)
}

// eachPatternView calls f with the views credential shapes are looked for
// in: the text as it is, then decoded a layer at a time. Line breaks stay:
// a header's value ends at the end of its line.
func eachPatternView(s string, f func(*view) bool) {
	eachUnescaped(&view{text: s}, f)
}

func eachUnescaped(v *view, f func(*view) bool) {
	for range maxUnescapeRounds + 1 {
		if v == nil || !f(v) {
			return
		}
		v = unescaped(v)
	}
}

// joined is v's text with every line break taken out, together with the
// blanks around it and what a log opens the next line with (a timestamp,
// terminal colour codes, a GitHub Actions command marker such as
// "##[group]"), so a secret printed across lines reads whole. It is nil
// when there is no break.
func joined(v *view) *view {
	s := v.text
	i := nextBreak(s, 0)
	if i < 0 {
		return nil
	}
	var b strings.Builder
	b.Grow(len(s))
	out := &view{parent: v, segs: append(make([]seg, 0, strings.Count(s, "\n")+2), seg{0, 0, 1})}
	at := 0 // the next byte of s to copy
	for i >= 0 {
		start := trailerStart(s, at, i)
		end := skipBreaks(s, i)
		b.WriteString(s[at:start])
		at = end
		out.segs = append(out.segs, seg{b.Len(), at, 1})
		i = nextBreak(s, at)
	}
	b.WriteString(s[at:])
	out.text = b.String()
	return out
}

// trailerStart is where the blanks and terminal escape sequences that end
// the line s[at:i] begin (a colour reset before the break, say): they go
// with the break.
func trailerStart(s string, at, i int) int {
	for i > at {
		if isBlank(s[i-1]) {
			i--
			continue
		}
		esc := strings.LastIndexByte(s[at:i], 0x1b)
		if esc < 0 || escapeLen(s[at+esc:]) != i-(at+esc) {
			return i
		}
		i = at + esc
	}
	return i
}

// nextBreak is the index of the first line break in s at or after from,
// or -1.
func nextBreak(s string, from int) int {
	for i := from; i < len(s); i++ {
		if breakLen(s, i) > 0 {
			return i
		}
	}
	return -1
}

// breakLen is the length of the line break s[i] starts: \n, \r, \v, \f,
// and Unicode's NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR; 0 for none.
func breakLen(s string, i int) int {
	switch c := s[i]; {
	case c == '\n' || c == '\r' || c == '\v' || c == '\f':
		return 1
	case strings.HasPrefix(s[i:], "\u0085"):
		return len("\u0085")
	case strings.HasPrefix(s[i:], "\u2028"), strings.HasPrefix(s[i:], "\u2029"):
		return len("\u2028")
	}
	return 0
}

// skipBreaks returns the end of the run of line breaks, blanks, line
// timestamps, terminal escape sequences and log command markers starting
// at s[i].
func skipBreaks(s string, i int) int {
	for i < len(s) {
		if n := max(breakLen(s, i), timestampLen(s[i:]), escapeLen(s[i:]), markerLen(s[i:])); n > 0 {
			i += n
			continue
		}
		if !isBlank(s[i]) {
			return i
		}
		i++
	}
	return i
}

// escapeLen is the length of the terminal control sequence (ESC [
// parameters, a final byte) s starts with, 0 when there is none.
func escapeLen(s string) int {
	if len(s) < 3 || s[0] != 0x1b || s[1] != '[' {
		return 0
	}
	for i := 2; i < len(s) && i < 32; i++ {
		if c := s[i]; c >= 0x40 && c <= 0x7e {
			return i + 1
		} else if c < 0x20 || c > 0x3f {
			return 0
		}
	}
	return 0
}

// markerLen is the length of the GitHub Actions log command marker
// ("##[group]", "##[error]") s starts with, 0 when there is none.
func markerLen(s string) int {
	if !strings.HasPrefix(s, "##[") {
		return 0
	}
	end := strings.IndexByte(s, ']')
	if end < 0 || end > 24 {
		return 0
	}
	for _, c := range s[3:end] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-') {
			return 0
		}
	}
	return end + 1
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// timestampLen is the length of the RFC 3339 UTC timestamp s starts with
// (as GitHub Actions opens each log line with), 0 when there is none.
func timestampLen(s string) int {
	const shape = "dddd-dd-ddTdd:dd:dd"
	if len(s) < len(shape) {
		return 0
	}
	for i := range len(shape) {
		if c := s[i]; shape[i] == 'd' && (c < '0' || c > '9') || shape[i] != 'd' && c != shape[i] {
			return 0
		}
	}
	n := len(shape)
	if n < len(s) && s[n] == '.' {
		for n++; n < len(s) && s[n] >= '0' && s[n] <= '9'; n++ {
		}
	}
	if n < len(s) && s[n] == 'Z' {
		n++
	}
	return n
}

// unescaped is v's text with every %XX escape decoded, malformed ones
// left as they are; nil when there is none.
func unescaped(v *view) *view {
	s := v.text
	i := firstEscape(s)
	if i < 0 {
		return nil
	}
	out := &view{parent: v, segs: append(make([]seg, 0, 2*strings.Count(s, "%")+1), seg{0, 0, 1})}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for i < len(s) {
		j := strings.IndexByte(s[i:], '%')
		if j < 0 {
			b.WriteString(s[i:])
			break
		}
		b.WriteString(s[i : i+j])
		if i += j; !percent.IsEscape(s, i) {
			b.WriteByte('%')
			i++
			continue
		}
		if last := len(out.segs) - 1; out.segs[last].at == b.Len() {
			out.segs = out.segs[:last] // a plain run of no bytes
		}
		if k := len(out.segs) - 1; k < 0 || out.segs[k].width != 3 || out.segs[k].from+3*(b.Len()-out.segs[k].at) != i {
			out.segs = append(out.segs, seg{b.Len(), i, 3})
		}
		b.WriteByte(percent.Unhex(s[i+1])<<4 | percent.Unhex(s[i+2]))
		i += 3
		out.segs = append(out.segs, seg{b.Len(), i, 1})
	}
	out.text = b.String()
	return out
}

func firstEscape(s string) int {
	for i := 0; ; i++ {
		j := strings.IndexByte(s[i:], '%')
		if j < 0 {
			return -1
		}
		if i += j; percent.IsEscape(s, i) {
			return i
		}
	}
}
