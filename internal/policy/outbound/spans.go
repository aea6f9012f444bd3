package outbound

import "strings"

// delimiterFor is the length of backtick run a code span inserted into s
// is written with: the shortest that appears nowhere in s. A run pairs
// with the next run of its length, so no backtick already in s can pair
// with an inserted one, and none of s's own pairs changes.
func delimiterFor(s string) int {
	present := map[int]bool{}
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], '`')
		if j < 0 {
			break
		}
		i += j
		n := runLen(s[i:], isBacktick)
		present[n] = true
		i += n
	}
	n := 1
	for present[n] {
		n++
	}
	return n
}

// codeSpan writes content as a code span of n backticks, to go between
// the bytes before and after (0 for none). A blank keeps the span's run
// from touching a backtick outside it or in content, where the runs
// would merge into one of another length; CommonMark drops one blank
// from each side of the content when both are there.
func codeSpan(content string, n int, before, after byte) string {
	delim := strings.Repeat("`", n)
	if strings.HasPrefix(content, "`") || strings.HasSuffix(content, "`") {
		content = " " + content + " "
	}
	out := delim + content + delim
	if before == '`' {
		out = " " + out
	}
	if after == '`' {
		out += " "
	}
	return out
}

// escapeStart is where markup inserted before s[i] has to go so that no
// backslash escapes its first byte: before the last of an odd run of
// backslashes ending at i, else i. Moved, the markup takes that
// backslash in.
func escapeStart(s string, i int) int {
	n := 0
	for i-n > 0 && s[i-n-1] == '\\' {
		n++
	}
	if n%2 == 1 {
		return i - 1
	}
	return i
}

func byteAt(s string, i int) byte {
	if i < 0 || i >= len(s) {
		return 0
	}
	return s[i]
}
