package outbound

import "strings"

// delink rewrites each link to a host outside domains so that it reads
// the same but is no link: the URL, without its scheme, in a code span
// ("see https://evil.example/x" becomes "see `evil.example/x`"). Inside a
// code span GitHub makes no link and fetches no image, and GFM's
// autolinks need a scheme or "www." at a word's start, which a backtick
// is not; without the scheme, a plain-text reader (a notification email)
// does not link it either. A markdown link or image, "[text](url)",
// becomes "[text] (`url`)": a space after ']' makes no inline link (a
// definition "[text]: url" would still make a reference, which is
// rewritten in turn when its host is foreign), and the text keeps what is
// around it (link text taken out of its brackets could become an
// autolink of its own). It returns the text and how many
// links it de-linked; links do not nest (see findLinks), so one pass
// leaves none.
func delink(s string, domains []string) (string, int) {
	links := findLinks(s)
	var lay layout
	var b strings.Builder
	last, n, delim := 0, 0, 0
	var tail byte // the last byte written in place of a link
	for i, k := range links {
		if k.from < last || hostAllowed(k.host, domains) {
			continue // allowed, or in the title of a link rewritten whole
		}
		if delim == 0 {
			lay, delim = analyze(s), delimiterFor(s)
		}
		if lay.inCode(k.from) {
			continue
		}
		next := len(s)
		if i+1 < len(links) {
			next = links[i+1].from
		}
		from, to, with := inlineLink(s, k, next, delim)
		if from < last {
			// A backslash the last rewrite took in escapes nothing now.
			from = max(escapeStart(s, k.from), last)
			to = k.to
			before := byteAt(s, from-1)
			if from == last && n > 0 {
				before = tail // right after the link rewritten last
			}
			with = codeSpan(s[from:k.from]+s[k.keep:k.to], delim, before, byteAt(s, to))
		}
		b.WriteString(s[last:from])
		b.WriteString(with)
		last, tail = to, with[len(with)-1]
		n++
	}
	if n == 0 {
		return s, 0
	}
	b.WriteString(s[last:])
	return b.String(), n
}

// inlineLink rewrites the markdown link or image whose destination is
// k, from its "](" to its closing ')', title and all, as "] (`url`)":
// the bounds it replaces and what with, or -1 when k is no such
// destination, or one holding another link (before next) (then only the
// URL is rewritten, which is as safe: a destination without a scheme
// points back at GitHub).
func inlineLink(s string, k link, next, delim int) (int, int, string) {
	dest := k.from
	angle := strings.HasSuffix(s[:dest], "](<")
	if angle {
		dest--
	}
	if !strings.HasSuffix(s[:dest], "](") {
		return -1, 0, ""
	}
	end := destinationEnd(s[:next], k.from, angle)
	closing := linkClose(s, end)
	if end >= next && next < len(s) || closing < 0 {
		return -1, 0, ""
	}
	return dest - 2, closing, "] (" + codeSpan(s[k.keep:end], delim, ' ', ')') + ")"
}

// destinationEnd is where the destination starting at s[i] ends: at
// '>' when written in angle brackets, else at a blank or a ')' that
// closes no '(' of its own; len(s) if s ends first.
func destinationEnd(s string, i int, angle bool) int {
	if angle {
		if j := strings.IndexAny(s[i:], ">\n"); j >= 0 && s[i+j] == '>' {
			return i + j
		}
		return len(s)
	}
	depth := 0
	for j := i; j < len(s); j++ {
		switch c := s[j]; {
		case c == '\\' && j+1 < len(s):
			j++
		case c == '(':
			depth++
		case c == ')' && depth == 0, c <= ' ':
			return j
		case c == ')':
			depth--
		}
	}
	return len(s)
}

// linkClose is just past the ')' that closes a link whose destination
// ends at s[i] (past its '>' when in angle brackets), after an optional
// title of at most maxTitle bytes, or -1.
func linkClose(s string, i int) int {
	if i >= len(s) {
		return -1
	}
	if i < len(s) && s[i] == '>' {
		i++
	}
	i = skip(s, i, func(c byte) bool { return isBlank(c) || c == '\n' || c == '\r' })
	if i < len(s) && strings.IndexByte(`"'(`, s[i]) >= 0 {
		closer := s[i]
		if closer == '(' {
			closer = ')'
		}
		j := strings.IndexByte(s[i+1:min(len(s), i+1+maxTitle)], closer)
		if j < 0 {
			return -1
		}
		i = skip(s, i+1+j+1, isBlank)
	}
	if i < len(s) && s[i] == ')' {
		return i + 1
	}
	return -1
}

// maxTitle bounds the title looked for after a destination, so a text of
// many links without one costs linear time; a longer title leaves the
// link to be rewritten as a bare URL.
const maxTitle = 1024
