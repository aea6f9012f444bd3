package outbound

import (
	"math"
	"strings"
)

// secretKeyWords are what a key is named when its value is a credential
// (matched in the key lower-cased, without '_', '-' and '.': "api_key",
// "API-KEY" and "apiKey" are all "apikey").
var secretKeyWords = []string{
	"password", "passwd", "passphrase", "secret", "token", "apikey",
	"accesskey", "privatekey", "credential", "authorization",
}

// authSchemes are the words an Authorization value may start with; the
// credential is the word after.
var authSchemes = []string{"bearer", "token", "basic"}

// maxValue bounds the value read after a key, so a text of many keys
// costs linear time.
const maxValue = 512

// keyValueSecret finds a credential given to a key named for one, as in
// `password: X`, `token=X`, `"api_key": "X"`, `SECRET := 'X'` or
// `Authorization: Bearer X`, and says which: an AWS secret access key (40
// base64 characters under a key naming AWS's secret), a GitHub token of
// the format before 2021 (40 hex digits under a key naming a token), or
// any value that looks random (see randomLooking). The offset is the
// value's.
func keyValueSecret(s string) (string, int) {
	for i := 0; i < len(s); i++ {
		if s[i] != ':' && s[i] != '=' {
			continue
		}
		key := normalizeKey(keyBefore(s, i))
		if key == "" || !namesSecret(key) {
			continue
		}
		a, b := valueAfter(s, separatorEnd(s, i), strings.HasSuffix(key, "authorization"))
		if kind := valueKind(key, s[a:b]); kind != "" {
			return kind, a
		}
	}
	return "", -1
}

// keyBefore is the key whose separator is at s[i]: the identifier before
// it, past blanks and one closing quote (`"token": `, `token = `).
func keyBefore(s string, i int) string {
	j := i
	for j > 0 && isBlank(s[j-1]) {
		j--
	}
	if j > 0 && (s[j-1] == '"' || s[j-1] == '\'') {
		j--
	}
	k := j
	for k > 0 && j-k < 64 && isKeyByte(s[k-1]) {
		k--
	}
	return s[k:j]
}

func isKeyByte(c byte) bool { return isAlnum(c) || c == '_' || c == '-' || c == '.' }

func normalizeKey(k string) string {
	b := make([]byte, 0, len(k))
	for i := 0; i < len(k); i++ {
		switch c := k[i]; {
		case c == '_' || c == '-' || c == '.':
		case 'A' <= c && c <= 'Z':
			b = append(b, c+'a'-'A')
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

// namesSecret says whether key names a credential. A key's id
// ("private_key_id", "access_key_id") names which key, not the key.
func namesSecret(key string) bool {
	if strings.HasSuffix(key, "keyid") {
		return false
	}
	for _, w := range secretKeyWords {
		if strings.Contains(key, w) {
			return true
		}
	}
	return false
}

// separatorEnd is where the value may start after the separator at s[i]:
// past ":=" and "=>" as a whole. A '=' that is half of "==" or of ":="
// names no value.
func separatorEnd(s string, i int) int {
	if s[i] == '=' && (i > 0 && (s[i-1] == '=' || s[i-1] == ':' || s[i-1] == '!') || i+1 < len(s) && s[i+1] == '=') {
		return len(s)
	}
	if i+1 < len(s) && (s[i] == ':' && s[i+1] == '=' || s[i] == '=' && s[i+1] == '>') {
		return i + 2
	}
	return i + 1
}

// valueAfter is the bounds of the value starting after blanks at s[i]:
// a quoted string on one line, or a run of value bytes. With auth, a
// scheme word before it ("Bearer X", bare or quoted) is passed over.
func valueAfter(s string, i int, auth bool) (int, int) {
	a, b, quoted := valueBounds(s, i)
	if auth {
		if n := schemeLen(s[a:b]); quoted && n > 0 {
			a = skip(s, a+n, isBlank)
		} else if !quoted && n == b-a && n > 0 {
			a, b, _ = valueBounds(s, b)
		}
	}
	v := s[a:b]
	if v == "" || strings.ContainsAny(v, " \t\r\n") || strings.IndexByte("$%{<*", v[0]) >= 0 {
		return 0, 0 // a phrase, a variable ($TOKEN, ${{ secrets.X }}, %s) or a mask
	}
	return a, valueEnd(s, a, b)
}

// valueEnd is where the value s[a:b] ends for the scan: before anything
// Apply may rewrite in it (a mention, a link, the markup rewriting puts
// around them: '<', '>', '`', '\\') and before sentence punctuation at its
// end. A credential is seldom written so, and text without one must not
// gain one by being rewritten ("x!@a" becoming "x!<code>@a</code>").
func valueEnd(s string, a, b int) int {
	for i := a; i < b; i++ {
		c := s[i]
		_, link := linkStart(s[:b], i)
		if link || strings.IndexByte("<>`\\", c) >= 0 || c == '@' && (i == 0 || !isWordByte(s[i-1])) {
			b = i
			break
		}
	}
	for b > a && strings.IndexByte(".,;:!?*_~", s[b-1]) >= 0 {
		b--
	}
	return b
}

// valueBounds is the bounds of a quoted string on one line or of a run
// of value bytes, after blanks at s[i].
func valueBounds(s string, i int) (a, b int, quoted bool) {
	i = skip(s, min(i, len(s)), isBlank)
	if i >= len(s) {
		return i, i, false
	}
	if q := s[i]; q == '"' || q == '\'' || q == '`' {
		end := strings.IndexByte(s[i+1:min(len(s), i+1+maxValue)], q)
		if end < 0 || strings.IndexByte(s[i+1:i+1+end], '\n') >= 0 {
			return i, i, true
		}
		return i + 1, i + 1 + end, true
	}
	end := i + runLen(s[i:min(len(s), i+maxValue)], isValueByte)
	return i, end + runLen(s[end:min(len(s), end+2)], func(c byte) bool { return c == '=' }), false // base64's padding
}

// isValueByte is a byte a bare value is written with: anything visible
// but quotes, '=' (which ends a value or pads base64 at its end) and the
// punctuation that ends a value in code, query strings and prose.
func isValueByte(c byte) bool {
	return c > ' ' && c < 0x7f && strings.IndexByte("\"'`,;&<>()[]{}|\\=", c) < 0
}

// schemeLen is the length of the Authorization scheme w starts with,
// alone or followed by a blank, 0 if none.
func schemeLen(w string) int {
	for _, s := range authSchemes {
		if len(w) >= len(s) && strings.EqualFold(w[:len(s)], s) && (len(w) == len(s) || isBlank(w[len(s)])) {
			return len(s)
		}
	}
	return 0
}

// valueKind says what credential v, given to key, is, or "".
func valueKind(key, v string) string {
	switch {
	case len(v) == 40 && allBytes(v, func(c byte) bool { return isAlnum(c) || c == '+' || c == '/' }) &&
		(strings.Contains(key, "secretaccesskey") || strings.Contains(key, "aws") && strings.Contains(key, "secret")):
		return "aws_secret_key"
	case len(v) == 40 && allBytes(v, isHex) && (strings.Contains(key, "token") || strings.HasSuffix(key, "authorization")):
		return "github_token"
	case randomLooking(v):
		return "high_entropy_secret"
	}
	return ""
}

// randomLooking says whether v looks generated rather than written: at
// least 20 bytes, a Shannon entropy of at least 3.2 bits a byte (2.7 for
// hex digits), and not made of words (see wordy).
//
// The thresholds keep nearly every random value: of 100,000 random
// strings of 20 bytes, 99.9% measure at least 3.2 over [a-z0-9] (base62
// and base64: 3.5) and at least 2.7 over hex, and longer strings measure
// more. What they drop is repetition: "changeme-changeme-changeme" is 2.9,
// "xxxxxxxx…" 0. Entropy alone does not tell words from noise at these
// lengths ("production-database-credentials-2024" measures 4.0), which
// is what wordy is for.
func randomLooking(v string) bool {
	if len(v) < 20 {
		return false
	}
	threshold := 3.2
	if allBytes(v, isHex) {
		threshold = 2.7
	}
	return entropy(v) >= threshold && !wordy(v)
}

// entropy is the Shannon entropy of v's bytes, in bits a byte.
func entropy(v string) float64 {
	var count [256]int
	for i := 0; i < len(v); i++ {
		count[v[i]]++
	}
	h := 0.0
	for _, n := range count {
		if n > 0 {
			p := float64(n) / float64(len(v))
			h -= p * math.Log2(p)
		}
	}
	return h
}

// wordy says whether every alphanumeric piece of v is written as words
// are: digits alone, or letters in one case or in camel case, with at
// most four digits before or after ("v2", "sha256", "prod2024"). A
// generated value has a piece that mixes digits into letters or runs
// capitals together at random ("4196919fb12c", "pdFZKVeTuE8s"); a path, a
// resource name or a placeholder ("YOUR_TOKEN_HERE") has none.
func wordy(v string) bool {
	for _, piece := range strings.FieldsFunc(v, func(r rune) bool { return r > 0x7f || !isAlnum(byte(r)) }) {
		lead := runLen(piece, isDigit)
		if lead == len(piece) {
			continue
		}
		letters := runLen(piece[lead:], isLetter)
		trail := len(piece) - lead - letters
		if lead > 4 || trail > 4 || !allBytes(piece[lead+letters:], isDigit) || !camel(piece[lead:lead+letters]) {
			return false
		}
	}
	return true
}

// camel says whether letters are in one case, or mix cases without two
// capitals in a row ("MyDatabasePassword", "iPhone"; not "pdFZKVeTu").
// Acronyms in camel case ("HTTPServer") are taken for noise: rare in a
// value given to a key named like a secret.
func camel(letters string) bool {
	lower, upper := false, false
	for i := 0; i < len(letters); i++ {
		lower = lower || isLower(letters[i])
		upper = upper || !isLower(letters[i])
	}
	if !lower || !upper {
		return true
	}
	for i := 1; i < len(letters); i++ {
		if !isLower(letters[i]) && !isLower(letters[i-1]) {
			return false
		}
	}
	return true
}

func allBytes(s string, ok func(byte) bool) bool { return runLen(s, ok) == len(s) }

func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isLower(c byte) bool  { return 'a' <= c && c <= 'z' }
func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isHex(c byte) bool    { return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
