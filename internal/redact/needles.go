package redact

import (
	"encoding/base64"
	"encoding/hex"
	"slices"
	"strings"
)

// minRun is the shortest piece of a secret treated as the secret: a
// fragment of this many bytes, in any of its forms, is redacted, so a
// secret cut by a line break, a cap or a read boundary is still caught
// in what remains of it.
const minRun = 8

// keyLen is how many leading bytes of a needle index it; no needle is
// shorter.
const keyLen = 8

// publicPrefixes begin tokens and appear in documentation and code that
// detects tokens: a piece lying wholly inside one is no secret, and
// matching it would redact every mention of the format.
var publicPrefixes = []string{"github_pat_"}

// form is one way a secret is printed: its text, how many characters of
// it carry minRun bytes of the secret, and which of its characters carry
// only a public prefix ([pubStart, pubEnd), empty when there is none).
type form struct {
	text             string
	window           int
	pubStart, pubEnd int
}

// needlesFor lists the strings whose presence in text means secret is
// there: every window of each of its forms (literal, reversed, hex in
// both cases, and the part of its base64 that does not depend on its
// neighbours, at the three alignments in both alphabets). A secret
// shorter than keyLen has no needles; the index matches it whole.
func needlesFor(secret string) []string {
	var out []string
	for _, f := range forms(secret) {
		out = append(out, f.windows()...)
	}
	slices.Sort(out)
	out = slices.Compact(out)
	return slices.DeleteFunc(out, func(n string) bool { return len(n) < keyLen })
}

func forms(secret string) []form {
	p := 0
	for _, pre := range publicPrefixes {
		if len(secret) > len(pre) && strings.HasPrefix(secret, pre) {
			p = len(pre)
		}
	}
	n := len(secret)
	rev := []byte(secret)
	slices.Reverse(rev)
	h := hex.EncodeToString([]byte(secret))
	out := []form{
		{secret, minRun, 0, p},
		{string(rev), minRun, n - p, n},
		{h, 2 * minRun, 0, 2 * p},
		{strings.ToUpper(h), 2 * minRun, 0, 2 * p},
	}
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		for lead := range 3 {
			core, pub := base64Core(enc, secret, lead, p)
			out = append(out, form{core, (8*minRun + 5) / 6, 0, pub})
		}
	}
	return out
}

// windows cuts f into its pieces of f.window characters (the whole text
// when shorter). A piece lying wholly in the public part is stretched
// by one character into the secret, so the prefix alone never matches
// but is redacted along with what follows it.
func (f form) windows() []string {
	w := min(f.window, len(f.text))
	var out []string
	for i := 0; i+w <= len(f.text); i++ {
		start, end := i, i+w
		if f.pubStart <= start && end <= f.pubEnd {
			if f.pubStart == 0 {
				end = min(f.pubEnd+1, len(f.text))
			} else {
				start = max(f.pubStart-1, 0)
			}
		}
		out = append(out, f.text[start:end])
	}
	return out
}

// base64Core is the part of the base64 encoding of secret that is the
// same whatever surrounds it, when secret starts lead bytes (0 to 2) into
// a 3-byte group: the characters at either end that also carry bits of
// neighbouring bytes are dropped. Padding only ever follows the last
// group, so the core also matches padded encodings. pub is how many of
// the core's characters carry only the secret's first p bytes.
func base64Core(enc *base64.Encoding, secret string, lead, p int) (core string, pub int) {
	s := enc.EncodeToString(append(make([]byte, lead), secret...))
	n := lead + len(secret)
	start := (8*lead + 5) / 6 // characters that hold bits of the lead bytes
	end := n/3*4 + (n%3)*8/6  // characters made of the secret's bits alone
	end = max(start, end)
	return s[start:end], max(0, min(8*(lead+p)/6, end)-start)
}

// index finds needles in text in one pass: each window of keyLen bytes is
// looked up, and only needles starting with it are compared, so the cost
// grows with the text, not with the number of needles.
type index struct {
	// filter has the bit filterBit(k) set for every key k of byKey: most
	// windows of a text miss it, which is far cheaper than a map lookup.
	filter [filterBits / 64]uint64
	byKey  map[uint64][]string
	short  []string // secrets shorter than keyLen, matched whole
}

// filterBits sizes index.filter: with maxMinted tokens and a few route
// secrets of a few hundred needles each, a small share of its bits is set.
const (
	filterLog  = 19
	filterBits = 1 << filterLog
)

// filterBit spreads a key over the filter by Fibonacci hashing.
func filterBit(k uint64) uint64 { return (k * 0x9e3779b97f4a7c15) >> (64 - filterLog) }

func buildIndex(secrets []string, needles map[string][]string) *index {
	x := &index{byKey: map[uint64][]string{}}
	for _, s := range secrets {
		if len(s) < keyLen {
			x.short = append(x.short, s)
		}
		for _, n := range needles[s] {
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
func (x *index) scan(s string, hit func(start, end int) bool) {
	var k uint64
	for i := 0; i < len(s); i++ {
		k = k<<8 | uint64(s[i])
		if i < keyLen-1 {
			continue
		}
		if b := filterBit(k); x.filter[b/64]&(1<<(b%64)) == 0 {
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
		for from := 0; ; {
			j := strings.Index(s[from:], t)
			if j < 0 {
				break
			}
			from += j
			if !hit(from, from+len(t)) {
				return
			}
			from++
		}
	}
}
