package outbound

import (
	"sort"
	"strings"
)

// emphasis says where underscore emphasis may open in a text, for the
// mention reader: GitHub's mention filter reads the text markdown renders,
// and markdown takes the '_' runs of an emphasis away ("_cc @alice_" is
// <em>cc @alice</em>, a mention), where an '_' that delimits nothing stays
// and ends the word ("@alice_" alone is no mention). Which runs pair up
// is left unread: a run that may close counts when one that may open
// comes before it in its paragraph (emphasis never spans a blank line),
// so some text with no emphasis is read as having one, and a mention
// there is neutralised, which notifies no one either.
type emphasis struct {
	paragraphs []int // the offsets paragraphs start at, ascending, 0 first
	openers    []int // the offsets of '_' runs that may open, ascending
	// brackets are where a '[' not escaped is open in its paragraph
	// (see bracketOpen), ascending.
	brackets []span
	// angles are where a '<' that may open a tag, a comment, a
	// declaration or a processing instruction ("<a", "</", "<!", "<?")
	// is open in its paragraph, to the first '>' outside quotes after it
	// (see neutralizeMentions), ascending.
	angles []span
	// raw are the offsets of "<?" and "<!", which may open a processing
	// instruction, a comment, a declaration or CDATA: markdown passes
	// what follows to the end marker through as raw HTML, unlinked, and
	// an HTML parser may end it sooner (at the first '>'), leaving text.
	raw []int
}

// indexEmphasis reads s once: a text is read for each mention next to an
// '_', so each question is a search, not a scan.
func indexEmphasis(s string) *emphasis {
	e := &emphasis{paragraphs: []int{0}}
	blank := true       // the line so far holds only space
	depth, from := 0, 0 // of the '[' open, and where the outermost opened
	closeBrackets := func(at int) {
		if depth > 0 {
			e.brackets = append(e.brackets, span{from + 1, at + 1})
		}
		depth = 0
	}
	angle, quote := -1, byte(0) // where a '<' is open, and the quote open in it
	closeAngle := func(at int) {
		if angle >= 0 {
			e.angles = append(e.angles, span{angle + 1, at})
		}
		angle, quote = -1, 0
	}
	for k := 0; k < len(s); k++ {
		switch c := s[k]; {
		case angle >= 0 && quote != 0 && c == quote:
			quote = 0
		case angle >= 0 && quote == 0 && (c == '"' || c == '\''):
			quote = c
		case angle >= 0 && quote == 0 && c == '>':
			closeAngle(k)
		case angle < 0 && c == '<' && (isLetter(byteAt(s, k+1)) || strings.IndexByte("/!?", byteAt(s, k+1)) >= 0):
			angle = k
		}
		if s[k] == '<' && (byteAt(s, k+1) == '!' || byteAt(s, k+1) == '?') {
			e.raw = append(e.raw, k)
		}
		switch c := s[k]; {
		case c == '\\' && (byteAt(s, k+1) == '[' || byteAt(s, k+1) == ']'):
			k++ // an escaped bracket opens and closes nothing
			blank = false
		case c == '[':
			if depth == 0 {
				from = k
			}
			depth++
			blank = false
		case c == ']':
			if depth--; depth == 0 {
				e.brackets = append(e.brackets, span{from + 1, k + 1})
			}
			depth = max(depth, 0)
			blank = false
		case c == '\n' || c == '\r' && byteAt(s, k+1) != '\n':
			if blank {
				closeBrackets(k)
				closeAngle(k)
				e.paragraphs = append(e.paragraphs, k+1)
			}
			blank = true
		case c == '_' && (k == 0 || s[k-1] != '_'):
			// A run that may open: not inside a word, and something
			// other than space after it.
			end := k + runLen(s[k:], func(c byte) bool { return c == '_' })
			if (k == 0 || !isAlnum(s[k-1])) && end < len(s) && !isSpace(s[end]) {
				e.openers = append(e.openers, k)
			}
			blank = false
		case c != ' ' && c != '\t' && c != '\r':
			// A blank line holds only spaces and tabs (CommonMark): a
			// line of \f or \v does not end a paragraph.
			blank = false
		}
	}
	closeBrackets(len(s))
	closeAngle(len(s))
	return e
}

// openerBefore says whether a run that may open an emphasis starts before
// i in i's paragraph.
func (e *emphasis) openerBefore(i int) bool {
	p := e.paragraphs[sort.SearchInts(e.paragraphs, i+1)-1]
	k := sort.SearchInts(e.openers, i) // the first opener at or after i
	return k > 0 && e.openers[k-1] >= p
}

// opens says whether the '_' run starting at s[k] may open an emphasis.
func (e *emphasis) opens(k int) bool {
	n := sort.SearchInts(e.openers, k)
	return n < len(e.openers) && e.openers[n] == k
}

// rawBefore says whether a "<?" or "<!" comes before i in i's paragraph.
func (e *emphasis) rawBefore(i int) bool {
	p := e.paragraphs[sort.SearchInts(e.paragraphs, i+1)-1]
	k := sort.SearchInts(e.raw, i)
	return k > 0 && e.raw[k-1] >= p
}

// before says whether the '_' run ending at s[i-1] may be an emphasis
// delimiter: one that may open (nothing but space or punctuation before
// it: "_@alice_"), or close one opened before it ("_x_@alice"). A run
// inside a word with no opener before it ("foo_@bar") is text.
func (e *emphasis) before(s string, i int) bool {
	j := i
	for j > 0 && s[j-1] == '_' {
		j--
	}
	return j < i && (j == 0 || !isAlnum(s[j-1]) || e.openerBefore(j))
}

// after says whether the '_' run at s[j] ending a mention that starts at
// s[at] may close an emphasis: nothing that continues a word after it
// ("@alice_ ", "@alice_."; "@alice_x" goes on as a word), and a run that
// may open before the mention in its paragraph.
func (e *emphasis) after(s string, at, j int) bool {
	k := j + runLen(s[j:], func(c byte) bool { return c == '_' })
	return (k == len(s) || !isAlnum(s[k])) && e.openerBefore(at+1)
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}
