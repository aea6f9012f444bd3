package outbound

import (
	"encoding/base64"
	"encoding/json"
	"strings"
)

// Secret is a credential-shaped string found in outbound text: its kind
// and the byte offset where it begins (for a value found by its key, as
// in "password: X", where X begins). It never carries the matched text,
// so a refusal built from it cannot leak what it refuses.
type Secret struct {
	Kind   string `json:"kind"`
	Offset int    `json:"offset"`
	// Field is the field Apply was given ("body", "title"); Scan leaves it empty.
	Field string `json:"field,omitempty"`
}

// A detector finds the first credential of its kinds in s: the kind and
// the offset, or an offset of -1.
type detector func(s string) (string, int)

// detectors are tried on the whole text; the earliest finding wins, and
// between two at one offset the one listed first (a specific shape before
// the generic key-value rule).
var detectors = []detector{
	githubToken,
	githubFineGrained,
	awsAccessKey,
	gcpAPIKey,
	gcpServiceAccountKey,
	slackToken,
	slackWebhook,
	stripeKey,
	privateKeyBlock,
	jwt,
	keyValueSecret,
}

// Scan finds the first credential-shaped string in text, code included,
// or nil. The shapes are public formats, not a list of known secrets:
// GitHub's token prefixes, AWS, GCP, Slack and Stripe keys, PEM private
// keys, JWTs, and random-looking values given to a key named like a
// password, secret or token (see keyValueSecret).
func Scan(text string) *Secret {
	var found *Secret
	for _, d := range detectors {
		if kind, at := d(text); at >= 0 && (found == nil || at < found.Offset) {
			found = &Secret{Kind: kind, Offset: at}
		}
	}
	return found
}

// firstAt returns the first offset at which s holds prefix and match
// accepts what starts there (prefix included), or -1. No boundary is
// asked for before the prefix: a credential glued to a word is still
// one, and a hostile writer could glue it on purpose.
func firstAt(s, prefix string, match func(rest string) bool) int {
	for i := 0; ; i++ {
		j := strings.Index(s[i:], prefix)
		if j < 0 {
			return -1
		}
		i += j
		if match(s[i:]) {
			return i
		}
	}
}

// firstOf is firstAt over several prefixes: the earliest offset any holds.
func firstOf(s string, prefixes []string, match func(rest string) bool) int {
	first := -1
	for _, p := range prefixes {
		if at := firstAt(s, p, match); at >= 0 && (first < 0 || at < first) {
			first = at
		}
	}
	return first
}

// githubToken finds GitHub's prefixed tokens: ghp_ (classic personal),
// gho_ (OAuth), ghu_ (app user-to-server), ghs_ (app installation) and
// ghr_ (refresh), each the prefix and at least 36 of [A-Za-z0-9_]
// (github.blog/changelog/2021-03-31: the charset and prefixes; refresh
// tokens are longer, and GitHub said lengths may grow). Installation
// tokens in the stateless format since April 2026 are ghs_APPID_JWT,
// with '.' and '-' as well (GitHub's changelog of 2026-05-15).
func githubToken(s string) (string, int) {
	return "github_token", firstAt(s, "gh", func(r string) bool {
		if len(r) < 4 || strings.IndexByte("pousr", r[2]) < 0 || r[3] != '_' {
			return false
		}
		ok := isTokenByte
		if r[2] == 's' {
			ok = func(c byte) bool { return isTokenByte(c) || c == '.' || c == '-' }
		}
		return runLen(r[4:], ok) >= 36
	})
}

// githubFineGrained finds fine-grained personal access tokens:
// github_pat_, 22 alphanumerics, '_', then 59 more.
func githubFineGrained(s string) (string, int) {
	return "github_fine_grained_pat", firstAt(s, "github_pat_", func(r string) bool {
		r = r[len("github_pat_"):]
		return runLen(r, isAlnum) == 22 && len(r) > 22 && r[22] == '_' && runLen(r[23:], isAlnum) >= 59
	})
}

// awsAccessKey finds AWS access key ids: AKIA (long-term) or ASIA
// (temporary) and 16 upper-case letters or digits. The id alone grants
// nothing, but it is never written without reason, and its secret is
// usually beside it.
func awsAccessKey(s string) (string, int) {
	return "aws_access_key", firstOf(s, []string{"AKIA", "ASIA"}, func(r string) bool {
		return runLen(r[4:], isUpperOrDigit) >= 16
	})
}

// gcpAPIKey finds Google API keys: AIza and 35 of [A-Za-z0-9_-].
func gcpAPIKey(s string) (string, int) {
	return "gcp_api_key", firstAt(s, "AIza", func(r string) bool {
		return runLen(r[4:], func(c byte) bool { return isTokenByte(c) || c == '-' }) >= 35
	})
}

// gcpServiceAccountKey finds the private key of a service account's JSON
// key file, `"private_key": "-----BEGIN PRIVATE KEY-----...`, at the
// value. Only the PEM header is asked for: the JSON says what follows.
func gcpServiceAccountKey(s string) (string, int) {
	at := -1
	firstAt(s, `"private_key"`, func(r string) bool {
		i := skip(r, len(`"private_key"`), isBlank)
		if i >= len(r) || r[i] != ':' {
			return false
		}
		i = skip(r, i+1, isBlank)
		if i >= len(r) || r[i] != '"' || pemHeaderLen(r[i+1:]) == 0 {
			return false
		}
		at = len(s) - len(r) + i + 1
		return true
	})
	return "gcp_service_account_key", at
}

// slackToken finds Slack tokens, xoxb- (bot), xoxp- (user), xoxa- (app),
// xoxr- (refresh), xoxs- (session): the prefix and at least 20 of
// [A-Za-z0-9-] with a digit among the first 20. Real ones start with
// numeric team and user ids; "xoxb-your-token-goes-here" does not.
func slackToken(s string) (string, int) {
	return "slack_token", firstAt(s, "xox", func(r string) bool {
		if len(r) < 5 || strings.IndexByte("baprs", r[3]) < 0 || r[4] != '-' {
			return false
		}
		body := r[5:min(len(r), 25)]
		return runLen(body, func(c byte) bool { return isAlnum(c) || c == '-' }) == 20 &&
			strings.ContainsAny(body, "0123456789")
	})
}

// slackWebhook finds Slack's incoming webhook URLs,
// hooks.slack.com/services/T…/B…/secret: whoever has one can post.
func slackWebhook(s string) (string, int) {
	const host = "hooks.slack.com/services/"
	return "slack_webhook", firstAt(s, host, func(r string) bool {
		r = r[len(host):]
		for _, lead := range []byte{'T', 'B'} {
			n := runLen(r, isUpperOrDigit)
			if n < 9 || r[0] != lead || n >= len(r) || r[n] != '/' {
				return false
			}
			r = r[n+1:]
		}
		return runLen(r, isAlnum) >= 20
	})
}

// stripeKey finds Stripe secret and restricted keys, live or test:
// sk_live_, rk_live_, sk_test_, rk_test_ and at least 24 alphanumerics.
// Publishable keys (pk_) are public by design.
func stripeKey(s string) (string, int) {
	return "stripe_key", firstOf(s, []string{"sk_live_", "rk_live_", "sk_test_", "rk_test_"}, func(r string) bool {
		return runLen(r[8:], isAlnum) >= 24
	})
}

// privateKeyBlock finds a PEM private key: a "-----BEGIN … PRIVATE
// KEY-----" header (RSA, EC, DSA, OPENSSH, ENCRYPTED, PGP … BLOCK) with
// key material after it, a run of 40 base64 characters within the next
// 512 bytes. A header alone, as documentation shows it with "..." for the
// body, is not a key.
func privateKeyBlock(s string) (string, int) {
	return "private_key", firstAt(s, "-----BEGIN ", func(r string) bool {
		n := pemHeaderLen(r)
		if n == 0 {
			return false
		}
		body := r[n:min(len(r), n+512)]
		for i := 0; i < len(body); i++ {
			if k := runLen(body[i:], isBase64Byte); k >= 40 {
				return true
			} else {
				i += k
			}
		}
		return false
	})
}

// pemHeaderLen is the length of the private-key PEM header s starts
// with, 0 if none.
func pemHeaderLen(s string) int {
	const begin = "-----BEGIN "
	if !strings.HasPrefix(s, begin) {
		return 0
	}
	label := runLen(s[len(begin):], func(c byte) bool { return 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == ' ' })
	if label > 40 {
		return 0
	}
	end := len(begin) + label
	words := s[len(begin):end]
	if !strings.HasSuffix(words, "PRIVATE KEY") && !strings.HasSuffix(words, "PRIVATE KEY BLOCK") {
		return 0
	}
	if !strings.HasPrefix(s[end:], "-----") {
		return 0
	}
	return end + len("-----")
}

// jwt finds JSON Web Tokens: three (or, encrypted, five) base64url
// segments joined by dots, the first decoding to a JSON object with an
// "alg" member. A JSON object's encoding starts "eyJ" ('{"' and a key's
// first letter), where the search starts; the header is decoded to rule
// out dotted names that merely start so.
func jwt(s string) (string, int) {
	// Candidates in one run of base64url bytes share its end, where the
	// header's dot must be, and what follows that dot: each is looked at
	// once.
	runEnd, tailOK := -1, false
	return "jwt", firstAt(s, "eyJ", func(r string) bool {
		at := len(s) - len(r)
		if at >= runEnd {
			runEnd = at + runLen(r, isBase64URLByte)
			tailOK = runEnd < len(s) && s[runEnd] == '.' && hasJWTTail(s[runEnd+1:])
		}
		head := runEnd - at
		return tailOK && head <= maxJWTHeader && isJWTHeader(r[:head])
	})
}

// hasJWTTail says whether s, what follows a JWT header's dot, is a
// payload segment, a dot and a signature (or further) segment.
func hasJWTTail(s string) bool {
	payload := runLen(s, isBase64URLByte)
	rest := s[payload:]
	return payload > 0 && len(rest) >= 2 && rest[0] == '.' && isBase64URLByte(rest[1])
}

// maxJWTHeader bounds the header segment decoded, so a text of many
// "eyJ" candidates costs linear time. Headers are tens of bytes; one
// carrying a certificate chain (x5c) is a few kilobytes.
const maxJWTHeader = 8 << 10

func isJWTHeader(seg string) bool {
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(seg, "="))
	if err != nil {
		return false
	}
	var head map[string]json.RawMessage
	if json.Unmarshal(raw, &head) != nil {
		return false
	}
	_, ok := head["alg"]
	return ok
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func isUpperOrDigit(c byte) bool { return 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' }

// isTokenByte is [A-Za-z0-9_], the charset of GitHub's tokens.
func isTokenByte(c byte) bool { return isAlnum(c) || c == '_' }

func isBase64Byte(c byte) bool { return isAlnum(c) || c == '+' || c == '/' || c == '=' }

func isBase64URLByte(c byte) bool { return isAlnum(c) || c == '-' || c == '_' || c == '=' }

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

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
