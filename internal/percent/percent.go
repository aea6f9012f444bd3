// Package percent decodes %XX escapes as a WHATWG URL parser does: each
// valid escape becomes its byte, and a '%' not followed by two hex digits
// stays as it is, where [net/url]'s unescaping refuses the whole string.
// Readers that must see what a lenient client would (the broker's
// argument reader, the redactor) decode with it.
package percent

import "strings"

// Decode decodes every valid %XX escape in s and keeps any other '%'.
func Decode(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if IsEscape(s, i) {
			b.WriteByte(Unhex(s[i+1])<<4 | Unhex(s[i+2]))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// IsEscape reports whether s holds a valid escape (% and two hex digits)
// at i.
func IsEscape(s string, i int) bool {
	return s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2])
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// Unhex is the value of the hex digit c.
func Unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	default:
		return c - 'a' + 10
	}
}
