package outbound

import "strings"

// delink rewrites each link to a host outside domains so that it reads
// the same but is no link: the URL, without its scheme, in a code span
// ("see https://evil.example/x" becomes "see `evil.example/x`"). Inside a
// code span GitHub makes no link and fetches no image, and GFM's
// autolinks need a scheme or "www." at a word's start, which a backtick
// is not; without the scheme, a plain-text reader (a notification email)
// does not link it either. A markdown link or image, "[text](url)",
// becomes "text (`url`)". It returns the text and how many links it
// de-linked; rewriting until none is left (a link inside an image's
// link) makes a second call change nothing.
func delink(s string, domains []string) (string, int) {
	total := 0
	for {
		out, n := delinkOnce(s, domains)
		if n == 0 {
			return s, total
		}
		s, total = out, total+n
	}
}

func delinkOnce(s string, domains []string) (string, int) {
	var lay layout
	var b strings.Builder
	last, n, delim := 0, 0, 0
	for _, k := range findLinks(s) {
		if hostAllowed(k.host, domains) {
			continue
		}
		if delim == 0 {
			lay, delim = analyze(s), delimiterFor(s)
		}
		if lay.inCode(k.from) {
			continue
		}
		from, to, with := inlineLink(s, k, lay, delim)
		if from < 0 {
			from = escapeStart(s, k.from)
			to = k.to
			with = codeSpan(s[from:k.from]+s[k.keep:k.to], delim, byteAt(s, from-1), byteAt(s, to))
		}
		if from < last {
			continue // inside a link rewritten in this round; the next round takes it
		}
		b.WriteString(s[last:from])
		b.WriteString(with)
		last = to
		n++
	}
	if n == 0 {
		return s, 0
	}
	b.WriteString(s[last:])
	return b.String(), n
}

// inlineLink rewrites the markdown link or image whose destination is
// k, "[text](url "title")", as "text (`url`)": the bounds it replaces
// and what with, or -1 when k is not the destination of one that can be
// read whole (then only the URL is rewritten, which is as safe: a
// destination without a scheme points back at GitHub).
func inlineLink(s string, k link, lay layout, delim int) (int, int, string) {
	dest := k.from
	angle := strings.HasSuffix(s[:dest], "](<")
	if angle {
		dest--
	}
	if !strings.HasSuffix(s[:dest], "](") {
		return -1, 0, ""
	}
	open := openingBracket(s, dest-2)
	if open < 0 || lay.inCode(open) {
		return -1, 0, ""
	}
	end := destinationEnd(s, k.from, angle)
	closing := linkClose(s, end)
	if closing < 0 {
		return -1, 0, ""
	}
	from := open
	if open > 0 && s[open-1] == '!' && escapeStart(s, open-1) == open-1 {
		from-- // an image: its alt text stands for it
	}
	text := s[open+1 : dest-2]
	return from, closing, text + " (" + codeSpan(s[k.keep:end], delim, ' ', ')') + ")"
}

// openingBracket is the '[' that the ']' at s[close] closes, or -1:
// brackets nest, a backslash escapes one, and a link's text does not
// cross a blank line.
func openingBracket(s string, close int) int {
	depth := 0
	for i := close - 1; i >= 0; i-- {
		if escapeStart(s, i) != i {
			continue // escaped
		}
		switch s[i] {
		case ']':
			depth++
		case '[':
			if depth == 0 {
				return i
			}
			depth--
		case '\n':
			if strings.TrimLeft(lineBefore(s, i), " \t\r") == "" {
				return -1
			}
		}
	}
	return -1
}

// lineBefore is the line that ends at the newline s[i].
func lineBefore(s string, i int) string {
	return s[strings.LastIndexByte(s[:i], '\n')+1 : i]
}

// destinationEnd is where the destination starting at s[i] ends: at
// '>' when written in angle brackets, else at a blank or a ')' that
// closes no '(' of its own.
func destinationEnd(s string, i int, angle bool) int {
	if angle {
		if j := strings.IndexAny(s[i:], ">\n"); j >= 0 && s[i+j] == '>' {
			return i + j
		}
		return i
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
// title, or -1.
func linkClose(s string, i int) int {
	if i < len(s) && s[i] == '>' {
		i++
	}
	i = skip(s, i, func(c byte) bool { return isBlank(c) || c == '\n' || c == '\r' })
	if i < len(s) && strings.IndexByte(`"'(`, s[i]) >= 0 {
		closer := s[i]
		if closer == '(' {
			closer = ')'
		}
		j := strings.IndexByte(s[i+1:], closer)
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
