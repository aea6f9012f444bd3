package outbound

import "strings"

// codeSpans finds the code spans of s[from:to], a run of lines that may
// be one paragraph, that certainly are code spans: it pairs backtick
// runs as CommonMark does, left to right, and stops where pairing could
// go otherwise in the paragraphs GitHub actually sees, which may be any
// runs of these lines. It stops at limit, and at:
//   - a run whose closing run is on a later line: had a block begun in
//     between, both would be literal and pairing would shift after;
//   - a backtick inside what may be a raw HTML tag or an autolink ("<a
//     title='`'>"), or a link's destination or title ("](`)"): these are
//     taken before code spans when they are what they seem;
//   - a backtick inside what may be a bare URL ("https://e.com/“" up to
//     a blank or '<'): GitHub's autolinker takes it into the link.
//
// A run with no closing run anywhere after it is literal in any of those
// paragraphs, and pairing goes on past it. Spans found before the point
// where it stops do not depend on what follows, since a run pairs with
// the next run of its length.
func codeSpans(s string, from, to, limit int) []span {
	var spans []span
	next := nextFinder{s: s, to: to}
	for p := from; p < limit; {
		switch c := s[p]; {
		case c == '\\' && p+1 < to && isASCIIPunct(s[p+1]):
			p += 2 // an escaped backtick opens nothing
		case c == '<' && p+1 < to && (isLetter(s[p+1]) || strings.IndexByte("/!?", s[p+1]) >= 0):
			if next.of('`', p) < next.of('>', p) {
				return spans
			}
			p++
		case (c == 'h' || c == 'H' || c == 'f' || c == 'F' || c == 'w' || c == 'W') && mayStartURL(s[p:to]):
			if end := p + runLen(s[p:to], func(c byte) bool { return !isSpace(c) && c != '<' }); strings.IndexByte(s[p:end], '`') >= 0 {
				return spans
			}
			p++
		case c == ']' && p+1 < to && s[p+1] == '(':
			if next.of('`', p) < next.of(')', p) {
				return spans
			}
			p++
		case c == '`':
			n := runLen(s[p:to], isBacktick)
			q := nextRun(s[p+n:to], n)
			if q < 0 {
				p += n
				continue
			}
			q += p + n
			if strings.ContainsAny(s[p:q], "\n\r") {
				return spans
			}
			spans = append(spans, span{p, q + n})
			p = q + n
		default:
			p++
		}
	}
	return spans
}

// nextFinder finds the next offset of a byte in s[:to] at or after a
// position that only grows, remembering each answer, so looking ahead
// from every position of a line costs one pass (to when there is none).
type nextFinder struct {
	s    string
	to   int
	seen map[byte]int
}

func (f *nextFinder) of(b byte, p int) int {
	if f.seen == nil {
		f.seen = map[byte]int{}
	}
	if at, ok := f.seen[b]; ok && at >= p {
		return at
	}
	at := f.to
	if i := strings.IndexByte(f.s[p:f.to], b); i >= 0 {
		at = p + i
	}
	f.seen[b] = at
	return at
}

// nextRun is the offset in s of the first run of exactly n backticks, or -1.
func nextRun(s string, n int) int {
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], '`')
		if j < 0 {
			return -1
		}
		i += j
		k := runLen(s[i:], isBacktick)
		if k == n {
			return i
		}
		i += k
	}
	return -1
}

func isBacktick(c byte) bool { return c == '`' }

// isASCIIPunct is what a backslash escapes in CommonMark.
func isASCIIPunct(c byte) bool {
	return '!' <= c && c <= '/' || ':' <= c && c <= '@' || '[' <= c && c <= '`' || '{' <= c && c <= '~'
}

// mayStartURL says whether s starts with what GitHub's autolinker may
// make a link of: a scheme it links and "://", or "www.", in any case.
func mayStartURL(s string) bool {
	for _, p := range [...]string{"http://", "https://", "ftp://", "www."} {
		if hasPrefixFold(s, p) {
			return true
		}
	}
	return false
}
