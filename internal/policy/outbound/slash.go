package outbound

import "strings"

// neutralizeSlash writes each slash command at a line's start outside
// code, "/close" or "/assign @x" as bots read comments, as a code span:
// "`/close` @x". A bot looks for '/' first on the line, which is then a
// backtick; the reader still sees the command. A command is '/', a
// letter, letters, digits, '-' or '_', then the line's end, a blank or
// sentence punctuation: "/usr/bin/env" is a path. It returns the text and
// how many commands it changed.
func neutralizeSlash(s string) (string, int) {
	var lay layout
	var b strings.Builder
	last, n, delim := 0, 0, 0
	for from := 0; from < len(s); {
		to := strings.IndexByte(s[from:], '\n')
		if to < 0 {
			to = len(s)
		} else {
			to += from
		}
		i := skip(s[:to], from, isBlank)
		if end := slashCommandEnd(s[i:to]); end > 0 {
			if delim == 0 {
				lay, delim = analyze(s), delimiterFor(s)
			}
			if !lay.inCode(i) {
				b.WriteString(s[last:i])
				b.WriteString(codeSpan(s[i:i+end], delim, 0, 0))
				last = i + end
				n++
			}
		}
		from = to + 1
	}
	if n == 0 {
		return s, 0
	}
	b.WriteString(s[last:])
	return b.String(), n
}

// slashCommandEnd is the length of the slash command line starts with, 0
// if none.
func slashCommandEnd(line string) int {
	if len(line) < 2 || line[0] != '/' || !isLetter(line[1]) {
		return 0
	}
	end := 1 + runLen(line[1:], func(c byte) bool { return isWordByte(c) || c == '-' })
	if end < len(line) && !isBlank(line[end]) && strings.IndexByte("\r.,;:!?", line[end]) < 0 {
		return 0
	}
	return end
}
