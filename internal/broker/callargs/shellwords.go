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
	// ($NAME, $(…), `…`, $'…'), which the broker cannot know.
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
	end := func() {
		if inWord && !redirect {
			words = append(words, shellWord{cur.String(), expands})
		}
		if inWord {
			redirect = false
		}
		cur.Reset()
		inWord, expands = false, false
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
				case d == '$' || d == '`':
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
				expands = true
				cur.WriteByte(c)
			}
			inWord = true
		case '`':
			expands, inWord = true, true
			cur.WriteByte(c)
		case '#':
			if !inWord {
				// A comment, to the end of the line.
				end()
				return words, false
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
// b, with its escapes decoded (\n, \t, \\, \', \", \xHH, \NNN; other
// escapes keep their byte), and returns how many bytes it read, the
// closing quote included; false when the quote is left open.
func ansiQuoted(s string, b *strings.Builder) (int, bool) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\'':
			return i + 1, true
		case c != '\\' || i+1 >= len(s):
			b.WriteByte(c)
		default:
			i++
			switch e := s[i]; {
			case e == 'n':
				b.WriteByte('\n')
			case e == 't':
				b.WriteByte('\t')
			case e == 'x' || e >= '0' && e <= '7':
				base, most, from := 16, 2, i+1
				if e != 'x' {
					base, most, from = 8, 3, i
				}
				n := 0
				for n < most && from+n < len(s) && digitOf(s[from+n], base) {
					n++
				}
				if v, err := strconv.ParseUint(s[from:from+n], base, 8); n > 0 && err == nil {
					b.WriteByte(byte(v))
					i = from + n - 1
				} else {
					b.WriteByte(e)
				}
			default:
				b.WriteByte(e)
			}
		}
	}
	return len(s), false
}

// digitOf says whether c is a digit in base 8 or 16.
func digitOf(c byte, base int) bool {
	if base == 8 {
		return '0' <= c && c <= '7'
	}
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
