package outbound

import (
	"sort"
	"strings"
)

// span is the byte range [from, to) of a text.
type span struct{ from, to int }

// layout is what the rewriting rules need to know of a text's markdown:
// the ranges certainly rendered as code, where nothing is rewritten, and
// the lines that may be raw HTML, where neither a code span nor an
// autolink means what it means in markdown.
//
// It is not a markdown parser. GitHub's rendering decides whether an
// @name notifies, and a hostile writer may shape text to make a checker
// and GitHub disagree, so the analysis only ever errs one way: a range is
// code only where GitHub renders it as code whatever the surrounding
// containers (lists, quotes, HTML blocks, tables) turn out to be. Where
// that is not certain, the text counts as prose and is rewritten: a
// mention inside real code then gains visible markup, which is harmless,
// where the other error would let a notification through.
type layout struct {
	code []span
	html []span
}

func (l layout) inCode(i int) bool { return within(l.code, i) }
func (l layout) inHTML(i int) bool { return within(l.html, i) }

func within(spans []span, i int) bool {
	k := sort.Search(len(spans), func(k int) bool { return spans[k].to > i })
	return k < len(spans) && spans[k].from <= i
}

// fence is an open fenced code block: its character, length, the
// indentation of its opening line, and where that line starts.
type fence struct {
	char   byte
	n      int
	indent int
	from   int
}

// analyzer walks a text's lines, keeping what is open.
type analyzer struct {
	s        string
	lay      layout
	fence    *fence
	poisoned bool // from here on nothing is certain, so nothing is code
	html     htmlBlock
	chunk    chunk
}

// htmlBlock is an HTML block that may be open: one started by a line
// beginning with a tag ends before a blank line; one of CommonMark's
// kinds 1 to 5 (<script>, <pre>, <style>, <textarea>, comments,
// processing instructions, declarations, CDATA) ends with the line that
// holds its end marker.
type htmlBlock struct {
	open   bool
	marker string
}

// chunk is a run of lines between blank lines and fences: what may be
// one paragraph, or several blocks whose boundaries are not known. Code
// spans are looked for in it up to uncertain, where a line that may
// change how backticks pair begins; table says a line of it may be a
// table's delimiter row.
type chunk struct {
	from, to  int
	uncertain int
	table     bool
	open      bool
}

// analyze finds s's code and possible raw HTML (see layout).
func analyze(s string) layout {
	a := &analyzer{s: s}
	for from := 0; from <= len(s); {
		to := lineEnd(s, from)
		a.line(from, to)
		from = to + 1
	}
	a.flush()
	if a.fence != nil {
		// Unclosed, it runs to the end of the text or, nested, of its
		// container; both are the end here, since every line after the
		// opening one kept its indentation.
		a.lay.code = append(a.lay.code, span{a.fence.from, len(s)})
	}
	return a.lay
}

// lineEnd is where the line starting at s[from] ends: at its '\n', a
// '\r' alone (CommonMark ends a line at either; "\r\n" ends it at the
// '\n', the '\r' left as a blank the line's readers trim), or len(s).
func lineEnd(s string, from int) int {
	for i := from; i < len(s); i++ {
		if s[i] == '\n' || s[i] == '\r' && byteAt(s, i+1) != '\n' {
			return i
		}
	}
	return len(s)
}

// line takes the line s[from:to] (without its newline).
func (a *analyzer) line(from, to int) {
	t := a.s[from:to]
	if a.fence != nil {
		a.inFence(from, to, t)
		if a.fence != nil || !a.poisoned {
			return
		}
	}
	blank := strings.TrimLeft(t, " \t\r") == ""
	c, contained := content(t)
	rest := t // where an end marker is looked for
	if !a.html.open && !blank && startsHTML(c) {
		marker, opening := htmlEndMarker(c)
		a.html = htmlBlock{open: true, marker: marker}
		rest = c[opening:]
	}
	if a.html.open && blank && a.html.marker == "" {
		a.html = htmlBlock{}
	}
	inHTML := a.html.open
	if inHTML {
		a.markHTML(from, to)
		if a.html.marker != "" && strings.Contains(strings.ToLower(rest), a.html.marker) {
			a.html = htmlBlock{} // this line is its last
		}
	}
	if a.poisoned {
		return
	}
	if blank {
		a.flush()
		return
	}
	if char, n, info, ok := fenceLine(c); ok && (char == '~' || !strings.Contains(info, "`")) {
		indent := indentOf(t)
		a.flush()
		if inHTML || contained || indent > 3 {
			// Inside what may be an HTML block, a list item, a quote or an
			// indented code block, this may open a fence or be text; where
			// it ends is unknown either way.
			a.poisoned = true
			return
		}
		a.fence = &fence{char: char, n: n, indent: indent, from: from}
		return
	}
	if !a.chunk.open {
		a.chunk = chunk{from: from, uncertain: -1, open: true}
	}
	a.chunk.to = to
	if a.chunk.uncertain < 0 && inHTML {
		a.chunk.uncertain = from
	}
	a.chunk.table = a.chunk.table || isTableDelimiter(c)
}

// inFence takes a line inside the open fence: the closing line, content,
// or, for a fence opened with indentation, a line that leaves it unknown
// where the fence ends.
func (a *analyzer) inFence(from, to int, t string) {
	f := a.fence
	if strings.TrimLeft(t, " \t\r") == "" {
		return
	}
	indent := indentOf(t)
	char, n, info, isFence := fenceLine(strings.TrimLeft(t, " \t"))
	closes := isFence && char == f.char && n >= f.n && strings.TrimRight(info, " \t\r") == ""
	if f.indent == 0 {
		// At the margin no container holds the fence: CommonMark's rule
		// applies as written.
		if closes && indent <= 3 {
			a.closeFence(to)
		}
		return
	}
	// Opened with indentation, the fence may sit in a list item whose
	// content starts anywhere up to that indentation. A line indented
	// less may end the item and with it the fence; a closing line
	// indented otherwise than the opening one may or may not close it.
	switch {
	case indent < f.indent || closes && indent != f.indent:
		a.lay.code = append(a.lay.code, span{f.from, from})
		a.fence, a.poisoned = nil, true
	case closes:
		a.closeFence(to)
	}
}

func (a *analyzer) closeFence(to int) {
	a.lay.code = append(a.lay.code, span{a.fence.from, to})
	a.fence = nil
}

func (a *analyzer) markHTML(from, to int) {
	if k := len(a.lay.html); k > 0 && a.lay.html[k-1].to >= from-1 {
		a.lay.html[k-1].to = to
		return
	}
	a.lay.html = append(a.lay.html, span{from, to})
}

// flush looks for code spans in the chunk that ends here.
func (a *analyzer) flush() {
	ch := a.chunk
	a.chunk = chunk{}
	if !ch.open {
		return
	}
	limit := ch.to
	if ch.uncertain >= 0 {
		limit = ch.uncertain
	}
	spans := codeSpans(a.s, ch.from, ch.to, limit)
	if ch.table {
		// A table's rows are split into cells at '|' before backticks
		// pair; whether these lines are a table depends on more than is
		// read here (a header of as many cells as the delimiter row), so
		// a span counts only if it is one either way.
		spans = intersect(spans, cellSpans(a.s, ch.from, limit))
	}
	a.lay.code = append(a.lay.code, spans...)
}

// cellSpans is the code spans of each cell of the lines in s[from:to],
// read as table rows: split at each '|' no backslash escapes.
func cellSpans(s string, from, to int) []span {
	var spans []span
	cell := from
	for i := from; i <= to; i++ {
		if i == to || s[i] == '\n' || s[i] == '|' && escapeStart(s, i) == i {
			spans = append(spans, codeSpans(s, cell, i, i)...)
			cell = i + 1
		}
	}
	return spans
}

// intersect is the spans that are in both sorted lists.
func intersect(a, b []span) []span {
	var both []span
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			both = append(both, a[i])
			i++
			j++
		case a[i].from < b[j].from || a[i].from == b[j].from && a[i].to < b[j].to:
			i++
		default:
			j++
		}
	}
	return both
}

// content is t without what may be container markers at its start:
// blanks, '>' of block quotes and list markers ("-", "*", "+", "1." and
// "1)" before a blank); contained says whether there was a marker.
func content(t string) (c string, contained bool) {
	for {
		t = strings.TrimLeft(t, " \t")
		switch n := listMarkerLen(t); {
		case strings.HasPrefix(t, ">"):
			t, contained = t[1:], true
		case n > 0:
			t, contained = t[n:], true
		default:
			return t, contained
		}
	}
}

func listMarkerLen(t string) int {
	n := 1
	if t == "" || strings.IndexByte("-*+", t[0]) < 0 {
		n = runLen(t[:min(len(t), 9)], isDigit)
		if n == 0 || n >= len(t) || t[n] != '.' && t[n] != ')' {
			return 0
		}
		n++
	}
	if n < len(t) && !isBlank(t[n]) && t[n] != '\r' {
		return 0
	}
	return n
}

// indentOf is the width of t's leading blanks, a tab reaching the next
// multiple of four.
func indentOf(t string) int {
	w := 0
	for i := 0; i < len(t) && isBlank(t[i]); i++ {
		if t[i] == '\t' {
			w += 4 - w%4
		} else {
			w++
		}
	}
	return w
}

// fenceLine says whether c starts with a code fence: three or more
// backticks or tildes, then its info string.
func fenceLine(c string) (char byte, n int, info string, ok bool) {
	if c == "" || c[0] != '`' && c[0] != '~' {
		return 0, 0, "", false
	}
	char = c[0]
	n = runLen(c, func(b byte) bool { return b == char })
	return char, n, c[n:], n >= 3
}

// startsHTML says whether c may start an HTML block, by CommonMark's
// seven start conditions, read loosely: kinds 1 to 5 by their openings
// ("<pre", "<!--", ...); kind 6 by a block tag's name; kind 7 by any tag
// alone on the line, valid or not. Kind 7 cannot interrupt a paragraph,
// which is not asked either: taking more for HTML only takes less for
// code. Inline HTML at a line's start followed by text,
// "<code>@x</code> ...", starts none.
func startsHTML(c string) bool {
	if marker, _ := htmlEndMarker(c); marker != "" {
		return true
	}
	name, rest, ok := tagName(c)
	if !ok {
		return false
	}
	if blockTags[strings.ToLower(name)] {
		return true
	}
	end := tagEnd(rest)
	return end >= 0 && strings.TrimRight(rest[end:], " \t\r\v\f") == ""
}

// tagName reads "<name" or "</name" at c's start: the name, what follows
// it, and whether that can go on as a tag (a blank, '/', '>' or the end;
// "<https://x>" is an autolink).
func tagName(c string) (name, rest string, ok bool) {
	c, _ = strings.CutPrefix(c, "<")
	c, _ = strings.CutPrefix(c, "/")
	if c == "" || !isLetter(c[0]) {
		return "", "", false
	}
	n := runLen(c, func(b byte) bool { return isAlnum(b) || b == '-' })
	rest = c[n:]
	return c[:n], rest, rest == "" || strings.IndexByte(" \t\r\n\v\f/>", rest[0]) >= 0
}

// tagEnd is the offset just past the '>' ending the tag whose attributes
// s starts with ('>' in quotes does not end it), or -1.
func tagEnd(s string) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"', '\'':
			j := strings.IndexByte(s[i+1:], s[i])
			if j < 0 {
				return -1
			}
			i += j + 1
		case '>':
			return i + 1
		}
	}
	return -1
}

// blockTags are the tag names of CommonMark's HTML blocks of kind 6.
var blockTags = func() map[string]bool {
	m := map[string]bool{}
	for _, t := range strings.Fields(`address article aside base basefont blockquote body caption
		center col colgroup dd details dialog dir div dl dt fieldset figcaption figure footer
		form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend li link main
		menu menuitem nav noframes ol optgroup option p param search section summary table
		tbody td tfoot th thead title tr track ul`) {
		m[t] = true
	}
	return m
}()

// htmlEndMarker is the end marker of an HTML block of CommonMark's kinds
// 1 to 5 starting c, lower-cased, and the length of its opening, after
// which the marker is looked for on the first line; "" for a block that
// ends at a blank line.
func htmlEndMarker(c string) (string, int) {
	l := strings.ToLower(c)
	for _, tag := range []string{"script", "pre", "style", "textarea"} {
		if strings.HasPrefix(l, "<"+tag) && (len(l) == len(tag)+1 || strings.IndexByte(" \t\r\v\f>", l[len(tag)+1]) >= 0) {
			return "</" + tag + ">", len(tag) + 1
		}
	}
	switch {
	case strings.HasPrefix(l, "<!--"):
		return "-->", len("<!--")
	case strings.HasPrefix(l, "<?"):
		return "?>", len("<?")
	case strings.HasPrefix(l, "<![cdata["):
		return "]]>", len("<![cdata[")
	case strings.HasPrefix(l, "<!") && len(l) > 2 && isLetter(l[2]):
		return ">", len("<!")
	}
	return "", 0
}

// isTableDelimiter says whether c is a table's delimiter row, as
// "| --- | :-: |": cells of dashes and colons between pipes.
func isTableDelimiter(c string) bool {
	c = strings.TrimRight(c, " \t\r\v\f")
	return strings.Contains(c, "|") && strings.Contains(c, "-") &&
		allBytes(c, func(b byte) bool { return strings.IndexByte("|-: \t\v\f", b) >= 0 })
}
