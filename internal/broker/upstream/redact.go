package upstream

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// minSecretRun is the shortest piece of a token that is treated as the
// token: a fragment this long in a log line is redacted too.
const minSecretRun = 8

// maxRemembered bounds the tokens kept for redaction; refreshed App tokens
// would otherwise accumulate forever. The newest are kept.
const maxRemembered = 64

// keyLen is how many leading bytes of a needle index it. Every needle is
// at least minSecretRun long, so it can be no more than that.
const keyLen = 8

var _ [minSecretRun - keyLen]struct{} // fails to compile if minSecretRun < keyLen

// publicPrefixes begin tokens and appear in documentation and code that
// detects tokens: a piece lying wholly inside one is no secret, and
// matching it would withhold every result that mentions the format.
var publicPrefixes = []string{"github_pat_"}

// maxUnescapeRounds bounds how many layers of percent-encoding are peeled
// off a result before matching: a token escaped twice is still caught.
const maxUnescapeRounds = 3

// redactor knows the tokens this proxy has handed to its upstream, and
// scrubs them from text before it is logged or returned.
type redactor struct {
	mu      sync.Mutex
	tokens  []string
	needles map[string][]string // per remembered token, computed once by add
	idx     *needleIndex        // replaced whole when tokens change, never modified
}

func newRedactor() *redactor { return &redactor{needles: map[string][]string{}} }

func (r *redactor) add(token string) {
	if token == "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if slices.Contains(r.tokens, token) {
		return
	}
	r.tokens = append(r.tokens, token)
	r.needles[token] = needlesFor(token)
	if len(r.tokens) > maxRemembered {
		for _, old := range r.tokens[:len(r.tokens)-maxRemembered] {
			delete(r.needles, old)
		}
		r.tokens = r.tokens[len(r.tokens)-maxRemembered:]
	}
	r.idx = buildIndex(r.tokens, r.needles)
}

// index is the current needle index; nil while no token is known.
func (r *redactor) index() *needleIndex {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.idx
}

// needlesFor lists the strings whose presence in text means token is
// there: its literal pieces of minSecretRun bytes, and the whole token as
// base64 and hex. A token shorter than minSecretRun has no pieces; it is
// matched whole by the index.
func needlesFor(token string) []string {
	var out []string
	public := 0
	for _, p := range publicPrefixes {
		if len(token) > len(p) && strings.HasPrefix(token, p) {
			public = len(p)
		}
	}
	for i := 0; i+minSecretRun <= len(token); i++ {
		end := i + minSecretRun
		if end <= public {
			// Stretched to one secret byte, so the prefix alone never
			// matches but the whole prefix is still redacted with it.
			end = public + 1
		}
		out = append(out, token[i:end])
	}
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		for lead := range 3 {
			out = append(out, base64Core(enc, token, lead))
		}
	}
	h := hex.EncodeToString([]byte(token))
	out = append(out, h, strings.ToUpper(h))
	slices.Sort(out)
	out = slices.Compact(out)
	return slices.DeleteFunc(out, func(n string) bool { return len(n) < minSecretRun })
}

// base64Core is the part of the base64 encoding of token that is the same
// whatever surrounds it, when token starts lead bytes (0 to 2) into a
// 3-byte group: the characters at either end that also carry bits of
// neighbouring bytes are dropped. Padding only ever follows the last
// group, so the core also matches padded encodings.
func base64Core(enc *base64.Encoding, token string, lead int) string {
	s := enc.EncodeToString(append(make([]byte, lead), token...))
	n := lead + len(token)
	start := (8*lead + 5) / 6 // characters that hold bits of the lead bytes
	end := n/3*4 + (n%3)*8/6  // characters made of the token's bits alone
	return s[start:max(start, end)]
}

// needleIndex finds needles in text in one pass: each window of keyLen
// bytes is looked up, and only needles starting with it are compared, so
// the cost grows with the text, not with the number of needles.
type needleIndex struct {
	// filter has the bit filterBit(k) set for every key k of byKey: most
	// windows of a text miss it, which is far cheaper than a map lookup.
	filter [filterBits / 64]uint64
	byKey  map[uint64][]string
	short  []string // tokens shorter than minSecretRun, matched whole
}

// filterBits sizes needleIndex.filter: with maxRemembered tokens of a few
// dozen needles each, a few percent of its bits are set.
const (
	filterLog  = 16
	filterBits = 1 << filterLog
)

// filterBit spreads a key over the filter by Fibonacci hashing.
func filterBit(k uint64) uint64 { return (k * 0x9e3779b97f4a7c15) >> (64 - filterLog) }

func buildIndex(tokens []string, needles map[string][]string) *needleIndex {
	x := &needleIndex{byKey: map[uint64][]string{}}
	for _, t := range tokens {
		if len(t) < minSecretRun {
			x.short = append(x.short, t)
		}
		for _, n := range needles[t] {
			k := key(n)
			x.filter[filterBit(k)/64] |= 1 << (filterBit(k) % 64)
			if !slices.Contains(x.byKey[k], n) {
				x.byKey[k] = append(x.byKey[k], n)
			}
		}
	}
	return x
}

// key packs the first keyLen bytes of s as scan's rolling window does.
func key(s string) uint64 {
	var k uint64
	for i := range keyLen {
		k = k<<8 | uint64(s[i])
	}
	return k
}

// scan calls hit with the bounds of each needle found in s, until hit
// returns false.
func (x *needleIndex) scan(s string, hit func(start, end int) bool) {
	if x == nil {
		return
	}
	var k uint64
	for i := 0; i < len(s); i++ {
		k = k<<8 | uint64(s[i])
		if i < keyLen-1 {
			continue
		}
		if x.filter[filterBit(k)/64]&(1<<(filterBit(k)%64)) == 0 {
			continue
		}
		start := i + 1 - keyLen
		for _, n := range x.byKey[k] {
			if strings.HasPrefix(s[start:], n) && !hit(start, start+len(n)) {
				return
			}
		}
	}
	for _, t := range x.short {
		for from := 0; ; from++ {
			j := strings.Index(s[from:], t)
			if j < 0 {
				break
			}
			from += j
			if !hit(from, from+len(t)) {
				return
			}
		}
	}
}

func (x *needleIndex) found(s string) bool {
	found := false
	x.scan(s, func(int, int) bool { found = true; return false })
	return found
}

// holds reports whether s carries a token, literally or encoded, also
// once its percent-escapes are decoded: that catches every URL-encoded
// form, however many characters were escaped and in whichever case.
func (x *needleIndex) holds(s string) bool {
	if x == nil {
		return false
	}
	if x.found(s) {
		return true
	}
	for range maxUnescapeRounds {
		d, ok := unescapePercent(s)
		if !ok {
			return false
		}
		if x.found(d) {
			return true
		}
		s = d
	}
	return false
}

// unescapePercent decodes every %XX escape of s, leaving malformed ones as
// they are; ok is false when there was nothing to decode.
func unescapePercent(s string) (string, bool) {
	i := strings.IndexByte(s, '%')
	if i < 0 {
		return s, false
	}
	b := make([]byte, 0, len(s))
	b = append(b, s[:i]...)
	ok := false
	for ; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			b = append(b, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
			ok = true
			continue
		}
		b = append(b, s[i])
	}
	return string(b), ok
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	default:
		return c - 'a' + 10
	}
}

// clean replaces every run of s that is a token, an 8+ character piece of
// one, or a token's base64 or hex form, with [redacted].
func (r *redactor) clean(s string) string {
	var mark []bool
	r.index().scan(s, func(start, end int) bool {
		if mark == nil {
			mark = make([]bool, len(s))
		}
		for k := start; k < end; k++ {
			mark[k] = true
		}
		return true
	})
	if mark == nil {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if !mark[i] {
			b.WriteByte(s[i])
			i++
			continue
		}
		b.WriteString("[redacted]")
		for i < len(s) && mark[i] {
			i++
		}
	}
	return b.String()
}

// contains reports whether v, as JSON, holds a known token in any form
// the redactor knows. Upstream results are checked with leaks, which also
// sees tokens split across their parts.
func (r *redactor) contains(v any) bool {
	raw, err := json.Marshal(v)
	return err == nil && r.index().holds(string(raw))
}

// leaks reports whether an upstream result holds a known token: anywhere
// in its JSON, or in the text its parts carry when joined with nothing
// between them, which catches a token cut into pieces shorter than
// minSecretRun. A result that cannot be rendered as JSON cannot be
// checked, so it counts as a leak.
func (r *redactor) leaks(res *mcp.CallToolResult) bool {
	x := r.index()
	if x == nil || res == nil {
		return false
	}
	raw, err := json.Marshal(res)
	if err != nil || x.holds(string(raw)) {
		return true
	}
	joined := joinedText(res)
	if x.holds(joined) {
		return true
	}
	// Base64 is often wrapped into lines (by base64 tools, and by the
	// GitHub contents API), which would cut its needles apart.
	if strings.ContainsAny(joined, "\r\n") {
		return x.holds(strings.NewReplacer("\r", "", "\n", "").Replace(joined))
	}
	return false
}

// joinedText concatenates the text and bytes of res's content in order,
// then every string value of its structured content.
func joinedText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			b.WriteString(c.Text)
		case *mcp.ImageContent:
			b.Write(c.Data)
		case *mcp.AudioContent:
			b.Write(c.Data)
		case *mcp.ResourceLink:
			b.WriteString(c.URI)
			b.WriteString(c.Name)
			b.WriteString(c.Title)
			b.WriteString(c.Description)
		case *mcp.EmbeddedResource:
			if c.Resource != nil {
				b.WriteString(c.Resource.URI)
				b.WriteString(c.Resource.Text)
				b.Write(c.Resource.Blob)
			}
		}
	}
	writeStrings(&b, res.StructuredContent)
	return b.String()
}

// writeStrings appends the string values inside v, objects in key order
// so the result does not depend on map iteration. Keys are left out: they
// would sit between the pieces of a token split across values.
func writeStrings(b *strings.Builder, v any) {
	switch v := v.(type) {
	case nil, bool, float64, json.Number:
	case string:
		b.WriteString(v)
	case []any:
		for _, e := range v {
			writeStrings(b, e)
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			writeStrings(b, v[k])
		}
	default:
		// Typed values and raw JSON: walk their generic JSON form.
		raw, err := json.Marshal(v)
		if err != nil {
			return
		}
		var generic any
		if json.Unmarshal(raw, &generic) == nil {
			writeStrings(b, generic)
		}
	}
}
