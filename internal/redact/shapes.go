package redact

import "strings"

// authSchemes are the Authorization schemes whose word is kept: the
// credential is what follows it. Any other first word is the credential.
var authSchemes = []string{"basic", "bearer", "bot", "digest", "negotiate", "ntlm", "token"}

// opens marks the bytes a credential shape can start with.
var opens = [256]bool{'g': true, 'a': true, 'A': true, 'x': true, 'X': true}

// scanShapes calls hit with the bounds of each credential-shaped run of
// s, known or not: GitHub's token formats (classic, OAuth, user-to-server,
// server-to-server and refresh tokens, ghp_ gho_ ghu_ ghs_ ghr_, and
// fine-grained github_pat_ tokens), the value of an Authorization header
// (after its scheme), and the password of an x-access-token user, as in
// https://x-access-token:TOKEN@github.com/. A value already masked (***)
// is left alone.
func scanShapes(s string, hit func(start, end int)) {
	for i := 0; i < len(s); i++ {
		if !opens[s[i]] {
			continue
		}
		var a, b int
		switch s[i] | 0x20 {
		case 'g':
			a, b = i, i+ghTokenLen(s[i:])
		case 'a':
			a, b = authValue(s, i)
		case 'x':
			a, b = accessTokenValue(s, i)
		}
		if b > a {
			hit(a, b)
			i = b - 1
		}
	}
}

// ghTokenLen is the length of the GitHub token s starts with, 0 if none.
// Nothing is needed before the prefix: a token printed glued to a word
// ("tokenghp_...") is still one, and redacting the tail of a longer word
// that looks like a credential costs the reader little.
func ghTokenLen(s string) int {
	switch {
	case len(s) > 4 && s[0] == 'g' && s[1] == 'h' && strings.IndexByte("pousr", s[2]) >= 0 && s[3] == '_':
		if n := runLen(s[4:], isAlnum); n >= 20 {
			return 4 + n
		}
	case strings.HasPrefix(s, "github_pat_"):
		if n := runLen(s[11:], func(c byte) bool { return isAlnum(c) || c == '_' }); n >= 20 {
			return 11 + n
		}
	}
	return 0
}

// authValue finds the credential of an Authorization header whose name
// starts at s[i]: "Authorization: Bearer X", "authorization=token X",
// `"Authorization": "Basic X"`, "AUTHORIZATION: X". The bounds are X's.
func authValue(s string, i int) (int, int) {
	const name = "authorization"
	if len(s)-i < len(name) || s[i+1]|0x20 != 'u' || !strings.EqualFold(s[i:i+len(name)], name) {
		return 0, 0
	}
	j := skip(s, i+len(name), isQuoteOrBlank)
	if j >= len(s) || s[j] != ':' && s[j] != '=' {
		return 0, 0
	}
	a := skip(s, j+1, isQuoteOrBlank)
	b := a + runLen(s[a:], isValueByte)
	if word := s[a:b]; isScheme(word) {
		a = skip(s, b, isBlank)
		if a == b {
			return 0, 0 // the scheme alone, or glued to something else
		}
		b = a + runLen(s[a:], isValueByte)
	}
	return masked(s, a, b)
}

// accessTokenValue finds the password of an x-access-token user starting
// at s[i]: the run after "x-access-token:" up to the '@' of a URL or the
// end of the word.
func accessTokenValue(s string, i int) (int, int) {
	const name = "x-access-token:"
	if len(s)-i < len(name) || s[i+1] != '-' || !strings.EqualFold(s[i:i+len(name)], name) {
		return 0, 0
	}
	a := i + len(name)
	return masked(s, a, a+runLen(s[a:], func(c byte) bool { return c != '@' && c != '/' && isValueByte(c) }))
}

// masked drops a value that is no credential: empty, already masked
// (GitHub's logs print secrets as ***), or a variable's name ($TOKEN,
// ${{ secrets.X }}).
func masked(s string, a, b int) (int, int) {
	v := s[a:b]
	if v == "" || strings.Trim(v, "*") == "" || v[0] == '$' {
		return 0, 0
	}
	return a, b
}

func isScheme(word string) bool {
	for _, s := range authSchemes {
		if strings.EqualFold(word, s) {
			return true
		}
	}
	return false
}

// isValueByte is a byte a credential is printed with: anything visible
// but quotes and the punctuation that closes a value in code and JSON.
func isValueByte(c byte) bool {
	return c > ' ' && c < 0x7f && strings.IndexByte("\"'`,;<>()[]{}\\", c) < 0
}

func isQuoteOrBlank(c byte) bool { return isBlank(c) || c == '"' || c == '\'' }

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func runLen(s string, ok func(byte) bool) int {
	n := 0
	for n < len(s) && ok(s[n]) {
		n++
	}
	return n
}

func skip(s string, i int, ok func(byte) bool) int {
	return i + runLen(s[i:], ok)
}
