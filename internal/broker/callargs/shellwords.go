package callargs

import "strings"

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
		case '$', '`':
			expands, inWord = true, true
			cur.WriteByte(c)
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	end()
	return words, false
}
