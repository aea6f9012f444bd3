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
	return linkCertain(s, links[k], em)
}

// linkCertain says whether GitHub makes l a link (or reads it as a
// destination or an attribute, never as text). Its autolinker, cmark-gfm's,
// makes none inside an open '[' (in a link's text the outer link would
// hold it), after a letter ("xhttps://" is no scheme it takes), when the
// host starts with punctuation or has an '_' ("https://-x", "x_y.com");
// and a destination or an attribute is one only in a link that closes or
// in a tag ("a=//x/@alice" is text).
func linkCertain(s string, l link, em func() *emphasis) bool {
	before := s[:l.from]
	if dest := strings.LastIndex(before, "]("); dest >= 0 && (dest+2 == l.from || dest+3 == l.from && s[dest+2] == '<') {
		angle := dest+3 == l.from
		if linkClose(s, destinationEnd(s, l.from, angle)) >= 0 && bracketOpen(s, dest, em) {
			return true
		}
	}
	if strings.HasSuffix(before, "=") || strings.HasSuffix(before, `="`) || strings.HasSuffix(before, "='") {
		if inTag(s, l.from) {
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
	// autolinker's.
	host := s[l.keep:]
	return (l.from == 0 || !isLetter(s[l.from-1])) && host != "" && isAlnum(host[0]) &&
		!strings.Contains(l.host, "_") && !bracketOpen(s, l.from, em)
}

// bracketOpen says whether a '[' not escaped is open at s[i] in its
// paragraph. Brackets in code spans count too: reading one more open
// bracket than GitHub does only neutralises a mention in a link.
func bracketOpen(s string, i int, em func() *emphasis) bool {
	e := em()
	from := e.paragraphs[sort.SearchInts(e.paragraphs, i+1)-1]
	depth := 0
	for j := from; j < i; j++ {
		switch s[j] {
		case '\\':
			j++
		case '[':
			depth++
		case ']':
			depth = max(depth-1, 0)
		}
	}
	return depth > 0
}

// inTag says whether s[i] is inside an HTML tag opened on its line
// ("<a href=…"): a '<' and a letter before it, and no '>' between.
func inTag(s string, i int) bool {
	line := s[strings.LastIndexAny(s[:i], "\r\n")+1 : i]
	lt := strings.LastIndexByte(line, '<')
	return lt >= 0 && lt+1 < len(line) && isLetter(line[lt+1]) && !strings.Contains(line[lt:], ">")
}
