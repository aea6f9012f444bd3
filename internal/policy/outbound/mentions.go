package outbound

import (
	"strconv"
	"strings"
	"sync"
)

// The tags a mention is written inert between, and what follows its '@'
// instead in raw HTML (a zero-width space).
const (
	codeOpen  = "<code>"
	codeClose = "</code>"
	zeroWidth = "&#8203;"
)

// neutralizeMentions writes each @user and @org/team mention outside
// code as <code>@name</code>, except those of allowed (lower-cased
// handles, "alice" or "acme/triage"). It returns the text and how many
// mentions it changed; a mention already so written is not one.
//
// GitHub notifies on @name in rendered text and not inside code (the
// mention filter it published with html-pipeline skips text under <pre>,
// <code> and <a>). A code span in backticks, as gh-aw writes it, is
// markdown: inside a raw HTML block ("<div>" to a blank line) GitHub
// does not parse markdown, so `@name` there is text between backticks
// and still notifies. A <code> element is code both in markdown, as
// inline HTML, and in an HTML block, and it pairs with no backtick of
// the text around it.
func neutralizeMentions(s string, allowed map[string]bool) (string, int) {
	em := sync.OnceValue(func() *emphasis { return indexEmphasis(s) })
	lay := sync.OnceValue(func() layout { return analyze(s) })
	links := sync.OnceValue(func() []link { return findLinks(s) })
	var b strings.Builder
	last, n := 0, 0
	for i := nextAt(s, 0); i >= 0; i = nextAt(s, i+1) {
		// Right after a mention written inert, '@' follows "</code>", not
		// the handle's last byte: "@a@b" holds one mention, but once the
		// first is code, "@b" starts a text of its own, and is one too.
		end, handle := mentionAt(s, i, n > 0 && i == last, em, func(i int) bool { return lay().inHTML(i) })
		if end < 0 || allowed[strings.ToLower(handle)] && !continues(s, end) || isInert(s, i, end) && !within(em().angles, escapeStart(s, i)-len(codeOpen)) {
			continue
		}
		if lay().inCode(i) || shielded(s, links(), i, lay(), em) {
			// In a URL GitHub makes a link of, "@name" is part of the
			// link, which notifies no one.
			continue
		}
		if lay().inHTML(i) || within(em().angles, i) {
			// Raw HTML passes through as written, and so may what
			// follows an open '<' ("<!X @alice", "<?php @alice"): "@name"
			// may be in a tag, a comment or an attribute, whose end a
			// <code> would move, leaving the mention text after it. A
			// zero-width space after the '@' is text anywhere, and in
			// text it ends the mention.
			at := i + atSign(s, i, true)
			b.WriteString(s[last:at])
			b.WriteString(zeroWidth)
			last = at
			n++
			continue
		}
		from := escapeStart(s, i)
		b.WriteString(s[last:from])
		b.WriteString(codeOpen)
		b.WriteString(s[from:end])
		b.WriteString(codeClose)
		last = end
		n++
	}
	if n == 0 {
		return s, 0
	}
	b.WriteString(s[last:])
	return b.String(), n
}

// continues says whether what follows a handle ending at s[end] may
// render as more of it: an escaped or referenced character ("@carol\-x",
// "@carol&#47;x" render as @carol-x, @carol/x), a tag an HTML parser may
// drop ("@carol</b>_octo"), or an emphasis' closing delimiter, whose
// end tag an HTML parser drops inside some elements ("*<object>@carol*x"
// reads @carolx). An allowed handle so followed is no longer the allowed
// name.
func continues(s string, end int) bool {
	c := byteAt(s, end)
	return strings.IndexByte("\\&*_~", c) >= 0 || c == '<' && strings.IndexByte("/!?", byteAt(s, end+1)) >= 0
}

// nextAt is the offset of the next '@' from i on, as the byte or as a
// character reference (see atSign), or -1.
func nextAt(s string, i int) int {
	for i < len(s) {
		j := strings.IndexAny(s[i:], "@&")
		if j < 0 {
			return -1
		}
		if atSign(s, i+j, true) > 0 {
			return i + j
		}
		i += j + 1
	}
	return -1
}

// atSign is the length of the '@' spelled at s[i]: the byte, or a
// character reference markdown decodes to it (&#64;, &#x40;, &#0064;,
// &commat;), which GitHub's filter reads as '@' once the text is
// rendered, or in raw HTML one an HTML parser decodes (see numericRef);
// 0 when s[i] spells none.
func atSign(s string, i int, html bool) int {
	if s[i] == '@' {
		return 1
	}
	if strings.HasPrefix(s[i:], "&commat;") {
		return len("&commat;")
	}
	if c, n := numericRef(s, i, html); n > 0 && c == '@' {
		return n
	}
	return 0
}

// numericRef reads a numeric character reference at s[i] as CommonMark
// does (&# and 1-7 decimal digits, or &#x and 1-6 hex digits, then ';'),
// or, in raw HTML (html), as an HTML parser does (any number of digits,
// the ';' optional: "&#64alice" is @alice there), and returns the ASCII
// byte it stands for and its length; 0 for none, or for a character
// outside ASCII, which no handle holds.
func numericRef(s string, i int, html bool) (byte, int) {
	if !strings.HasPrefix(s[i:], "&#") {
		return 0, 0
	}
	digits, base, most := s[i+2:], 10, 7
	if digits != "" && (digits[0] == 'x' || digits[0] == 'X') {
		digits, base, most = digits[1:], 16, 6
	}
	n := runLen(digits, func(c byte) bool { return isDigit(c) || base == 16 && isHex(c) })
	semicolon := n < len(digits) && digits[n] == ';'
	if n == 0 || !html && (n > most || !semicolon) {
		return 0, 0
	}
	v, err := strconv.ParseUint(strings.TrimLeft(digits[:n], "0"), base, 32)
	if err != nil && strings.TrimLeft(digits[:n], "0") != "" || v == 0 || v > 0x7f {
		return 0, 0
	}
	end := len(s[i:]) - len(digits) + n
	if semicolon {
		end++
	}
	return byte(v), end
}

// endsReference says whether s ends with what an HTML parser may read as
// a character reference without its ';' ("&#32", "&#x40", "&lt", "&amp"):
// its last letter or digit is then no word byte once decoded.
func endsReference(s string) bool {
	k := len(s)
	for k > 0 && isAlnum(s[k-1]) {
		k--
	}
	if k == len(s) || k == 0 {
		return false
	}
	if s[k-1] == '&' {
		return isLetter(s[k])
	}
	return k >= 2 && s[k-1] == '#' && s[k-2] == '&'
}

// handleRun reads the characters of a handle from s[k] on while ok takes
// them, each the byte or a numeric reference to it ("@&#97;lice" renders
// as "@alice", and GitHub's filter reads the rendered text). It returns
// where the run ends and the handle it spells.
func handleRun(s string, k int, ok func(byte) bool, html bool) (int, string) {
	var h []byte
	for k < len(s) {
		c, n := s[k], 1
		if c == '&' {
			if c, n = numericRef(s, k, html); n == 0 {
				break
			}
		}
		if !ok(c) {
			break
		}
		h = append(h, c)
		k += n
	}
	return k, string(h)
}

// mentionAt reads a mention at s[i] ('@') as GitHub's mention filter
// does: not after a word byte (so "a@b.com" is an address), a handle of
// letters, digits and hyphens starting with a letter or digit (each may
// be written as a numeric character reference; see handleRun), then
// either "/team" (team slugs also take '_') or, for a user, nothing that
// continues a word: not '_', and not a single '.' followed by a word
// byte ("@alice." ends a sentence, "@alice.bob" is no mention; see
// dotEndsWord). A managed user's handle goes on with '_' and its
// enterprise's short code (@mona_octo; see managedSuffix), and the same
// rules follow that. A handle over 39 bytes names no user. It returns the
// mention's end and handle (references decoded), or -1. afterTag says
// what precedes s[i] is a tag, whatever s holds before it.
//
// The filter reads text after markdown is rendered, and markdown takes
// the '_' runs of an emphasis away ("_cc @alice_" is <em>cc @alice</em>,
// a mention): a run around the handle that may be one is read as one
// (see emphasis; em indexes s, on first use).
func mentionAt(s string, i int, afterTag bool, em func() *emphasis, inHTML func(int) bool) (int, string) {
	html := inHTML(i)
	a := atSign(s, i, html)
	if a == 0 {
		return -1, "" // "&#64alice": an '@' only to an HTML parser
	}
	if a > 1 && escapeStart(s, i) != i && !html {
		return -1, "" // \&#64;: the reference is text, not an '@' (but raw HTML has no escapes)
	}
	if i > 0 && !afterTag && isWordByte(s[i-1]) && !(s[i-1] == '_' && em().before(s, i)) && !(html && endsReference(s[:i])) {
		return -1, ""
	}
	if c := byteAt(s, i+a); c == '<' && strings.IndexByte("/!?", byteAt(s, i+a+1)) >= 0 || delimitsThenHandle(s, i+a) {
		// "@</b>alice": an HTML parser drops an end tag that closes
		// nothing, and the text either side is one (and a sanitiser may
		// drop a comment, "@<!-- -->alice"). The '@' alone is written
		// inert; "<" is no allowed handle. An element's start tag
		// ("@<b>alice") puts what follows in a node of its own.
		return i + a, "<"
	}
	j, handle := handleRun(s, i+a, func(c byte) bool { return isAlnum(c) || c == '-' }, html)
	if handle == "" || handle[0] == '-' {
		return -1, ""
	}
	if c := byteAt(s, j); (c == '/' || c == '_') && byteAt(s, j+1) == '<' && strings.IndexByte("/!?", byteAt(s, j+2)) >= 0 {
		// "@alice/</b>x", "@mona_</b>octo": an HTML parser drops the
		// tag, and the team or short code after it joins the handle;
		// written inert with the '/' or '_'.
		return j + 1, "<"
	}
	if byteAt(s, j) == '/' {
		k, slug := handleRun(s, j+1, func(c byte) bool { return isWordByte(c) || c == '-' }, html)
		if slug == "" || !isAlnum(slug[0]) {
			return -1, ""
		}
		return k, handle + "/" + slug
	}
	if n, suffix := managedSuffix(s[j:], html); n > 0 {
		if !strings.HasPrefix(s[j:], "_") || !isAlnum(s[j-1]) || !isAlnum(byteAt(s, j+1)) {
			// "@mona\_octo" in raw HTML, which has no escapes, is @mona
			// and a backslash; "__@mona_&#111;cto" is _<em>@mona</em>octo,
			// the '_' before a reference closing the emphasis, as one
			// after a '-' may open one ("@mona-_octo_"). Both
			// readings may notify, so the mention is written inert
			// whatever follows, and no allowed handle is spelled so.
			if len(handle) > 39 {
				return -1, ""
			}
			return j + n, s[i : j+n]
		}
		// An organization's name holds no '_', so no team follows.
		if handle, j = handle+suffix, j+n; byteAt(s, j) == '/' {
			return -1, ""
		}
	}
	if len(handle) > 39 {
		return -1, ""
	}
	switch c := byteAt(s, j); {
	case c == '_':
		// The run may close an emphasis ("_cc @alice_"), or, after a
		// handle ending in '-', open one ("@alice-_x_").
		if !em().after(s, i, j) && !em().opens(j) {
			return -1, ""
		}
	case c == '.' && dotEndsWord(s, i, j, em):
		return -1, ""
	}
	return j, handle
}

// dotEndsWord says whether the '.' at s[j], after the handle of a mention
// starting at s[at], makes it no mention: GitHub's filter takes a handle
// followed by dots and then a space or any non-word character, and since
// a '.' is one, only a single '.' and a word character ("@alice.bob",
// "@pytest.fixture") is no mention. The character after the '.' has to
// be text once rendered: an '_' run that may open or close an emphasis
// ("@alice._note_", "_cc @alice._") and a URL GitHub makes a link of
// ("@alice.https://…") leave "@alice." a text of its own, a mention.
func dotEndsWord(s string, at, j int, em func() *emphasis) bool {
	k := j + 1
	if k >= len(s) || !isWordByte(s[k]) {
		return false
	}
	if s[k] == '_' {
		return !em().opens(k) && !em().after(s, at, k)
	}
	return !mayStartURL(s[k:])
}

// delimitsThenHandle says whether s[k:], after an '@', is a run of
// emphasis delimiters that may close an emphasis and then a reference
// that may start a handle ("*x @*&#98;ob"; before a letter the run could
// only open one): the run's end tag, dropped by an HTML parser inside
// some elements, would join the '@' to the handle.
func delimitsThenHandle(s string, k int) bool {
	n := runLen(s[k:], func(c byte) bool { return c == '*' || c == '_' || c == '~' })
	return n > 0 && byteAt(s, k+n) == '&'
}

// managedSuffix reads the "_SHORTCODE" at the start of s that ends a
// managed user's login (letters and digits after one '_'): its length and
// what it renders as, or 0. GitHub notifies a managed user mentioned by
// that login, so the policy reads it as part of the handle: stopping at
// the '_' would leave the mention written as it came. The '_' may be
// escaped or a reference ("@carol\_octo" renders as "@carol_octo", and
// must not pass as "carol" allowed), the code's characters references.
func managedSuffix(s string, html bool) (int, string) {
	n := underscore(s, html)
	if n == 0 {
		return 0, ""
	}
	end, code := handleRun(s, n, isAlnum, html)
	if code == "" {
		return 0, ""
	}
	return end, "_" + code
}

// underscore is the length of the '_' spelled at s's start: the byte,
// escaped, or a reference to it; 0 for none.
func underscore(s string, html bool) int {
	switch {
	case strings.HasPrefix(s, "_"):
		return 1
	case strings.HasPrefix(s, `\_`):
		return 2
	case strings.HasPrefix(s, "&lowbar;"):
		return len("&lowbar;")
	}
	if c, n := numericRef(s, 0, html); c == '_' {
		return n
	}
	return 0
}

// isInert says whether the mention s[i:end] is already written as
// <code>@name</code> (the open tag itself not escaped; the caller asks
// whether it is a tag, not text in an open '<': "<!X <code>" is a
// comment, and "@name" after it text).
func isInert(s string, i, end int) bool {
	from := escapeStart(s, i)
	return strings.HasSuffix(s[:from], codeOpen) && strings.HasPrefix(s[end:], codeClose) &&
		escapeStart(s, from-len(codeOpen)) == from-len(codeOpen)
}

func isWordByte(c byte) bool { return isAlnum(c) || c == '_' }
