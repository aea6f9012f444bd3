package outbound

import (
	"sort"
	"strings"
)

// shielded says whether the mention at s[i] sits in what GitHub renders as
// a link, or as a link's destination or a tag's attribute, where "@name"
// notifies no one. findLinks reads links loosely, as de-linking must (a
// link read where there is none costs a code span); here a link read
// where GitHub makes none would leave a mention live, so each way it
// makes none leaves the mention to be neutralised (see linkCertain).
func shielded(s string, links []link, i int, lay layout, em func() *emphasis) bool {
	k := sort.Search(len(links), func(k int) bool { return links[k].to > i })
	if k == len(links) || links[k].from > i || lay.inHTML(i) {
		return false // in raw HTML nothing is linked
	}
	return linkCertain(s, links[k], i, em)
}

// linkCertain says whether GitHub makes l a link (or reads it as a
// destination or an attribute, never as text). Its autolinker, cmark-gfm's,
// makes none inside an open '[' (in a link's text the outer link would
// hold it), after a letter ("xhttps://" is no scheme it takes), when the
// host starts with punctuation or has an '_' ("https://-x", "x_y.com");
// and a destination or an attribute is one only in a link that closes or
// in a tag ("a=//x/@alice" is text).
func linkCertain(s string, l link, i int, em func() *emphasis) bool {
	before := s[:l.from]
	dest := -1 // where the "](" before a destination is
	if strings.HasSuffix(before, "](") {
		dest = l.from - 2
	} else if strings.HasSuffix(before, "](<") {
		dest = l.from - 3
	}
	if dest >= 0 {
		angle := dest+3 == l.from
		end := destinationEnd(s, l.from, angle)
		if close := linkClose(s, end); close >= 0 && !hasBlankLine(s[dest:close]) && bracketOpen(dest, em) {
			// A link's destination, which ends where the link reads it
			// ending: what follows is text.
			return i < end
		}
	}
	if strings.HasSuffix(before, "=") || strings.HasSuffix(before, `="`) || strings.HasSuffix(before, "='") {
		if inTag(s, i) {
			return true
		}
	}
	if strings.HasSuffix(before, "<") && byteAt(s, l.to) == '>' && s[l.from] != '/' {
		return true // an autolink, <https://…>
	}
	if s[l.from] == '/' {
		return false // "//host" is a link only as a destination or attribute
	}
	// A bare URL, or one where a destination or attribute is none: the
	// autolinker's, whose domain is the letters, digits, '.', '-' and '_'
	// after the scheme.
	domain := s[l.keep : l.keep+runLen(s[l.keep:], func(c byte) bool { return isAlnum(c) || strings.IndexByte(".-_", c) >= 0 })]
	if l.keep == l.from && !strings.HasPrefix(s[l.from:], "www.") {
		return false // the autolinker takes "www." in lower case only
	}
	if em().rawBefore(l.from) {
		return false // markdown may pass it through as raw HTML, unlinked
	}
	return (l.from == 0 || !isLetter(s[l.from-1])) && domain != "" && isAlnum(domain[0]) &&
		!strings.Contains(domain, "_") && !bracketOpen(l.from, em)
}

// bracketOpen says whether a '[' not escaped is open at s[i] in its
// paragraph. Brackets in code spans count too: reading one more open
// bracket than GitHub does only neutralises a mention in a link.
func bracketOpen(i int, em func() *emphasis) bool { return within(em().brackets, i) }

// inTag says whether s[i] is inside an HTML tag that markdown passes
// through: a '<' and a tag's name before it, and the tag's '>' after it
// (a tag that never closes is text, "<a href=\"//x/@alice" among it),
// with no blank line between.
func inTag(s string, i int) bool {
	lt := tagOpening(s, i)
	if lt < 0 {
		return false
	}
	_, rest, ok := tagName(s[lt:])
	end := tagEnd(rest)
	if !ok || end < 0 {
		return false
	}
	end += len(s) - len(rest)
	return end > i && !hasBlankLine(s[lt:end])
}

// hasBlankLine says whether t holds a whole line of only blanks, which
// ends a paragraph: no link or tag goes on past it.
func hasBlankLine(t string) bool {
	for from := lineEnd(t, 0) + 1; from < len(t); from = lineEnd(t, from) + 1 {
		end := lineEnd(t, from)
		if end < len(t) && strings.Trim(t[from:end], " \t\r") == "" {
			return true
		}
	}
	return false
}

// tagOpening is the offset of the last "<" or "</" and a letter before
// s[i], or -1.
func tagOpening(s string, i int) int {
	for lt := strings.LastIndexByte(s[:i], '<'); lt >= 0; lt = strings.LastIndexByte(s[:lt], '<') {
		if n := lt + 1 + runLen(s[lt+1:min(lt+2, i)], func(c byte) bool { return c == '/' }); n < i && isLetter(s[n]) {
			return lt
		}
		if strings.Contains(s[lt:i], ">") {
			return -1
		}
	}
	return -1
}
