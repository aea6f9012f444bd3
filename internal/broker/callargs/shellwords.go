package callargs

import (
	"strconv"
	"strings"
)

// shellWord is one word of a command line as a POSIX shell hands it to
// the program: quotes and backslashes taken away.
type shellWord struct {
	text string
	// expands is set when the shell would put something else in the word
	// ($NAME, ${…}, $(…), `…`), which the broker cannot know, or make
	// more words of it (bash's {a,b} and {1..3}).
	expands bool
}

// shellWords splits line into the words a POSIX shell makes of it: blanks
// outside quotes separate words; '…' is literal; in "…" a backslash
// escapes only $ ` " \ and a newline; outside quotes a backslash escapes
// the next byte, and a backslash and newline join two lines. A
// redirection (>out, 2>/dev/null, < in) is left out with its target:
// the command runs with the other words. script is set when line is more
// than one simple command: a newline, ;, | or & outside quotes, or a
// quote left open. The line is read the way it runs: q='repo':acme/x is
// the word q=repo:acme/x, whichever quotes spell it.
func shellWords(line string) (words []shellWord, script bool) {
	var cur strings.Builder
	inWord, expands, redirect := false, false, false
	var braces []int // where the word's unquoted {s still open are in cur
	end := func() {
		if inWord && !redirect {
			words = append(words, shellWord{cur.String(), expands})
		}
		if inWord {
			redirect = false
		}
		cur.Reset()
		inWord, expands, braces = false, false, braces[:0]
	}
	for i := 0; i < len(line); i++ {
		switch c := line[i]; c {
		case ' ', '\t':
			end()
		case '<', '>':
			// A file descriptor's number before it (2>) is part of it.
			if inWord && strings.Trim(cur.String(), "0123456789") == "" && !expands {
				cur.Reset()
				inWord = false
			}
			end()
			for i+1 < len(line) && (line[i+1] == '<' || line[i+1] == '>' || line[i+1] == '&') {
				i++
			}
			redirect = true
		case '\n', '\r', ';', '|', '&':
			return nil, true
		case '\\':
			switch {
			case i+1 < len(line) && line[i+1] == '\n':
				i++ // a continued line
			case i+1 < len(line):
				i++
				cur.WriteByte(line[i])
				inWord = true
			}
		case '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, true
			}
			cur.WriteString(line[i+1 : i+1+j])
			i += 1 + j
			inWord = true
		case '"':
			i++
			for ; i < len(line) && line[i] != '"'; i++ {
				switch d := line[i]; {
				case d == '\\' && i+1 < len(line) && line[i+1] == '\n':
					i++ // a continued line
				case d == '\\' && i+1 < len(line) && strings.IndexByte("$`\"\\", line[i+1]) >= 0:
					i++
					cur.WriteByte(line[i])
				case d == '$' && expandsAt(line, i) || d == '`':
					expands = true
					cur.WriteByte(d)
				default:
					cur.WriteByte(d)
				}
			}
			if i >= len(line) {
				return nil, true
			}
			inWord = true
		case '$':
			next := byte(0)
			if i+1 < len(line) {
				next = line[i+1]
			}
			switch {
			case next == '\'':
				// $'…': quoted with C escapes, no expansion.
				n, ok := ansiQuoted(line[i+2:], &cur)
				if !ok {
					return nil, true
				}
				i += 2 + n
			case next == '"':
				// $"…": a translated string, "…" where no catalog exists;
				// the next round reads it as double quotes.
			default:
				expands = expands || expandsAt(line, i)
				cur.WriteByte(c)
			}
			inWord = true
		case '`':
			expands, inWord = true, true
			cur.WriteByte(c)
		case '{', '}':
			// Brace expansion: an unquoted pair {…} holding a comma or a
			// range makes a word of each (gh repo view {fleet,acme}/x
			// views fleet/x and acme/x), at any nesting; {owner} alone,
			// git's HEAD@{1}..HEAD@{0}, or quoted braces are left as is.
			if c == '{' {
				braces = append(braces, cur.Len())
			} else if n := len(braces); n > 0 {
				body := cur.String()[braces[n-1]+1:]
				braces = braces[:n-1]
				expands = expands || strings.Contains(body, ",") || strings.Contains(body, "..")
			}
			cur.WriteByte(c)
			inWord = true
		case '#':
			if !inWord {
				// A comment, to the end of the line; a line after it is
				// a command of its own.
				end()
				return words, strings.ContainsAny(line[i:], "\n\r")
			}
			cur.WriteByte(c)
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	end()
	return words, false
}

// ansiQuoted reads the body of $'…' from s (after the opening quote) into
// b, with its escapes decoded as bash decodes them (\n, \t, \\, \',
// \xHH, \NNN, \uHHHH, \UHHHHHHHH, \cX, …; an unknown one keeps its
// backslash, and a NUL ends what the word gets of it), and returns how
// many bytes it read, the closing quote included; false when the quote is
// left open.
func ansiQuoted(s string, b *strings.Builder) (int, bool) {
	ended := false // a NUL was decoded: bash keeps nothing after it
	write := func(r rune) {
		if r == 0 {
			ended = true
		}
		if !ended {
			b.WriteRune(r)
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\'' {
			return i + 1, true
		}
		if c != '\\' || i+1 >= len(s) {
			if !ended {
				b.WriteByte(c)
			}
			continue
		}
		i++
		e := s[i]
		if r, ok := simpleEscapes[e]; ok {
			write(r)
			continue
		}
		base, most, from := 0, 0, i+1
		switch {
		case e >= '0' && e <= '7':
			base, most, from = 8, 3, i
		case e == 'x':
			base, most = 16, 2
		case e == 'u':
			base, most = 16, 4
		case e == 'U':
			base, most = 16, 8
		case e == 'c' && i+1 < len(s):
			i++
			if s[i] == '\\' && i+1 < len(s) && s[i+1] == '\\' {
				i++ // \c\\ is the control character of a backslash
			}
			write(rune(s[i] & 0x1f))
			continue
		default:
			write('\\')
			write(rune(e))
			continue
		}
		n := 0
		for n < most && from+n < len(s) && digitOf(s[from+n], base) {
			n++
		}
		v, err := strconv.ParseUint(s[from:from+n], base, 32)
		if n == 0 || err != nil {
			write('\\')
			write(rune(e))
			continue
		}
		if base == 16 && e != 'x' {
			write(rune(v))
		} else if !ended {
			// \400 is a byte too, 0: bash keeps the low eight bits.
			if byte(v) == 0 {
				ended = true
			} else {
				b.WriteByte(byte(v))
			}
		}
		i = from + n - 1
	}
	return len(s), false
}

// simpleEscapes are $'…”s one-letter escapes.
var simpleEscapes = map[byte]rune{'n': '\n', 't': '\t', 'r': '\r', 'a': '\a', 'b': '\b', 'f': '\f', 'v': '\v', 'e': 0x1b, 'E': 0x1b, '\\': '\\', '\'': '\'', '"': '"', '?': '?'}

// digitOf says whether c is a digit in base 8 or 16.
func digitOf(c byte, base int) bool {
	if base == 8 {
		return '0' <= c && c <= '7'
	}
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// expandsAt says whether the '$' at line[i] expands: before a name, a
// digit, '{', '(' or a special parameter; bash leaves any other '$' as it
// is ("100$", "$ 5").
func expandsAt(line string, i int) bool {
	if i+1 >= len(line) {
		return false
	}
	c := line[i+1]
	return isLetter(c) || c == '_' || '0' <= c && c <= '9' || strings.IndexByte("{(@*#?$!-", c) >= 0
}
