package redact

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"net/url"
	"slices"
	"strings"
	"testing"
)

const (
	// canary has the shape of a classic personal access token.
	canary = "ghp_Rd7Lm2Vb9Rt4Kp8Zn3Wc6Hy1Fd5Js0Ge2Ua"
	// opaque is a secret of no known shape, whose bytes make the two
	// base64 alphabets differ and need percent-encoding: only the
	// registry can find it.
	opaque = "s3cr~t?vAl>u3~f0r;an/Http-Ups7r3am?&=x~~~"
	// pat has the shape of a fine-grained token, whose public prefix is
	// longer than minRun.
	pat = "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c9"
)

func registry() *Registry { return NewRegistry(canary, opaque, pat) }

// encoding is one way a secret is printed: enc prints it inside a line
// of text, and shown is what must not be left of it in the output (its
// pieces of width bytes are looked for).
type encoding struct {
	name  string
	enc   func(secret string) string
	shown func(secret string) string
	width int
}

func reverse(s string) string {
	b := []byte(s)
	slices.Reverse(b)
	return string(b)
}

func percentAll(s, format string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		fmt.Fprintf(&b, format, s[i])
	}
	return b.String()
}

// percentEveryOther escapes every second byte, so no literal run of the
// secret is longer than one byte.
func percentEveryOther(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if i%2 == 0 {
			fmt.Fprintf(&b, "%%%02X", s[i])
		} else {
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

func same(s string) string { return s }

// b64 encodes lead+secret+tail and shows the characters of the secret's
// own bits: those also carrying lead or tail bits may stay.
func b64(enc *base64.Encoding, lead, tail string) encoding {
	name := fmt.Sprintf("base64 %s lead %d tail %d", map[bool]string{true: "std", false: "url"}[enc == base64.StdEncoding || enc == base64.RawStdEncoding], len(lead), len(tail))
	if enc.Strict() == enc && (enc == base64.RawStdEncoding || enc == base64.RawURLEncoding) {
		name += " unpadded"
	}
	return encoding{
		name: name,
		enc:  func(s string) string { return "blob " + enc.EncodeToString([]byte(lead+s+tail)) + " end" },
		shown: func(s string) string {
			core, _ := base64Core(enc, s, len(lead)%3, 0)
			return core
		},
		width: 11,
	}
}

func encodings() []encoding {
	out := []encoding{
		{"raw", func(s string) string { return "token=" + s + " next" }, same, minRun},
		{"raw glued to words", func(s string) string { return "abc" + s + "xyz" }, same, minRun},
		{"raw in JSON", func(s string) string { return `{"token":"` + s + `"}` }, same, minRun},
		{"hex lower", func(s string) string { return "digest=" + hex.EncodeToString([]byte(s)) + ";" }, func(s string) string { return hex.EncodeToString([]byte(s)) }, 2 * minRun},
		{"hex upper", func(s string) string { return "DIGEST=" + strings.ToUpper(hex.EncodeToString([]byte(s))) }, func(s string) string { return strings.ToUpper(hex.EncodeToString([]byte(s))) }, 2 * minRun},
		{"hex inside longer hex", func(s string) string { return hex.EncodeToString([]byte("prefix" + s + "suffix")) }, func(s string) string { return hex.EncodeToString([]byte(s)) }, 2 * minRun},
		{"reversed", func(s string) string { return "rev " + reverse(s) + " end" }, reverse, minRun},
		{"percent every byte upper", func(s string) string { return "q=" + percentAll(s, "%%%02X") + "&x=1" }, func(s string) string { return percentAll(s, "%%%02X") }, 3 * minRun},
		{"percent every byte lower", func(s string) string { return "q=" + percentAll(s, "%%%02x") }, func(s string) string { return percentAll(s, "%%%02x") }, 3 * minRun},
		{"percent every other byte", func(s string) string { return "https://example.com/?t=" + percentEveryOther(s) }, percentEveryOther, 2 * minRun},
		{"query escape", func(s string) string { return "https://example.com/?t=" + url.QueryEscape(s) }, url.QueryEscape, 2 * minRun},
		{"percent twice", func(s string) string { return "q=" + strings.ReplaceAll(percentAll(s, "%%%02x"), "%", "%25") }, func(s string) string { return percentAll(s, "%%%02x") }, 3 * minRun},
		{"authorization bearer", func(s string) string { return "Authorization: Bearer " + s }, same, minRun},
		{"authorization token in curl", func(s string) string { return `curl -H "authorization: token ` + s + `" https://api.github.com` }, same, minRun},
		{"authorization basic", func(s string) string {
			return "AUTHORIZATION: basic " + base64.StdEncoding.EncodeToString([]byte("x-access-token:"+s))
		}, func(s string) string {
			core, _ := base64Core(base64.StdEncoding, s, len("x-access-token:")%3, 0)
			return core
		}, 11},
		{"x-access-token URL", func(s string) string { return "git clone https://x-access-token:" + s + "@github.com/acme/widgets.git" }, same, minRun},
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		for _, lead := range []string{"", "a", "ab", "header: "} {
			for _, tail := range []string{"", "z", "zy", " trailing text"} {
				out = append(out, b64(enc, lead, tail))
			}
		}
	}
	return out
}

// breaks are the ways a line break is printed inside a secret.
var breaks = []string{"\n", "\r\n", "\n    ", " \n\t", "\r", "\n2026-01-02T15:04:05.0000000Z ", "\n\n",
	"\v", "\f", "\u0085", "\u2028", "\u2029", "\n\x1b[32m", "\x1b[0m\n\x1b[1;31m", "\n##[group]",
	"\n2026-01-02T15:04:05.0000000Z ##[error]\x1b[31m"}

// TestCleanEveryForm prints each registered secret in every encoding and
// checks that no piece of minRun bytes of it is left, in that encoding,
// and that one marker took its place.
func TestCleanEveryForm(t *testing.T) {
	t.Parallel()
	r := registry()
	for _, secret := range []string{canary, opaque, pat} {
		for _, e := range encodings() {
			t.Run(fmt.Sprintf("%s %.8s", e.name, secret), func(t *testing.T) {
				t.Parallel()
				in := "before\n" + e.enc(secret) + "\nafter"
				out, n := r.Clean(in)
				if n != 1 {
					t.Errorf("count = %d, want 1 (out %q)", n, out)
				}
				if piece := leftover(out, e.shown(secret), e.width); piece != "" {
					t.Errorf("output %q keeps %q", out, piece)
				}
				if !strings.HasPrefix(out, "before\n") {
					t.Errorf("output %q lost the line before the secret, want it to start %q", out, "before\n")
				}
				if !strings.HasSuffix(out, "\nafter") {
					t.Errorf("output %q lost the line after the secret, want it to end %q", out, "\nafter")
				}
			})
		}
	}
}

// TestCleanSplitAcrossLines breaks each secret at every position, and
// its hex and base64 forms at a few, with each kind of line break.
func TestCleanSplitAcrossLines(t *testing.T) {
	t.Parallel()
	r := registry()
	for _, secret := range []string{canary, opaque, pat} {
		forms := map[string]string{
			"raw":    secret,
			"hex":    hex.EncodeToString([]byte(secret)),
			"base64": base64.StdEncoding.EncodeToString([]byte(secret)),
		}
		for name, f := range forms {
			for _, br := range breaks {
				for at := 1; at < len(f); at++ {
					if name != "raw" && at%7 != 0 {
						continue
					}
					in := "log: " + f[:at] + br + f[at:] + "\nnext line"
					out, n := r.Clean(in)
					if n != 1 {
						t.Errorf("%s %.8s split at %d by %q: count = %d, want 1 (out %q)", name, secret, at, br, n, out)
					}
					if piece := leftover(strings.ReplaceAll(out, br, ""), f, minRun); piece != "" {
						t.Errorf("%s %.8s split at %d by %q: output %q keeps %q", name, secret, at, br, out, piece)
					}
					if !strings.HasSuffix(out, "\nnext line") {
						t.Errorf("%s %.8s split at %d by %q: output %q lost the next line", name, secret, at, br, out)
					}
				}
			}
		}
	}
}

// TestCleanUnknownCredentials redacts what is shaped like a credential
// though no registry knows it.
func TestCleanUnknownCredentials(t *testing.T) {
	t.Parallel()
	body := "Zx9" + strings.Repeat("Qw8Er7Ty6", 4)
	for _, c := range []struct{ in, secret string }{
		{"token ghp_" + body, "ghp_" + body},
		{"token gho_" + body, "gho_" + body},
		{"token ghu_" + body, "ghu_" + body},
		{"token ghs_" + body, "ghs_" + body},
		{"token ghr_" + body, "ghr_" + body},
		{"glued xghp_" + body, "ghp_" + body},
		{"fine-grained github_pat_11ABCDEFG0123456789_" + body, "github_pat_11ABCDEFG0123456789_" + body},
		{"Authorization: Bearer eyJhbGciOi." + body, "eyJhbGciOi." + body},
		{"authorization: token " + body, body},
		{"Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte("user:"+body)), base64.StdEncoding.EncodeToString([]byte("user:" + body))},
		{"Authorization: " + body, body},
		{`"Authorization": "Bearer ` + body + `"`, body},
		{"authorization=bearer " + body + "&x=1", body},
		{"Authorization%3A%20Bearer%20" + body, body},
		{"https://x-access-token:" + body + "@github.com/acme/widgets", body},
		{"X-ACCESS-TOKEN:" + body, body},
		{"https://x-access-token%3A" + body + "%40github.com/", body},
	} {
		out, n := (*Registry)(nil).Clean(c.in)
		if strings.Contains(out, c.secret) {
			t.Errorf("Clean(%q) = %q, keeps %q", c.in, out, c.secret)
		}
		if n != 1 {
			t.Errorf("Clean(%q) count = %d, want 1", c.in, n)
		}
	}
}

// TestCleanLeavesOrdinaryText: what is no credential passes unchanged.
func TestCleanLeavesOrdinaryText(t *testing.T) {
	t.Parallel()
	r := registry()
	noise := randomBytes(64<<10, 1)
	other := "ghp" + strings.Repeat("Ab3", 12)
	for _, in := range []string{
		"token expired; refresh the token and retry",
		"classic tokens start with ghp_ and fine-grained ones with github_pat_",
		`if strings.HasPrefix(s, "github_pat_") {`,
		"a " + canary[:7] + " b " + canary[7:14] + " c " + canary[14:21],
		"a\n" + canary[:7] + "\nb\n" + canary[7:14],
		other + " " + base64.StdEncoding.EncodeToString([]byte(other)),
		base64.StdEncoding.EncodeToString(noise),
		base64.RawURLEncoding.EncodeToString(noise),
		hex.EncodeToString(noise[:32<<10]),
		"https://example.com/search?q=%67%68%70%20token&lang=%E6%97%A5",
		"100% sure, %zz and %4 and %",
		"git config http.https://github.com/.extraheader AUTHORIZATION: basic ***",
		"Authorization: Bearer ***",
		`curl -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com`,
		"https://x-access-token:${{ secrets.GITHUB_TOKEN }}@github.com/",
		"the Authorization header is missing",
		"2026-01-02T15:04:05.0000000Z ##[group]Run actions/checkout@v4\n2026-01-02T15:04:06.0000000Z done",
		"",
	} {
		out, n := r.Clean(in)
		if out != in {
			t.Errorf("Clean(%.80q) = %.80q, want it unchanged", in, out)
		}
		if n != 0 {
			t.Errorf("Clean(%.80q) counted %d, want 0", in, n)
		}
	}
}

// TestCleanCountsEachRun: separate finds count apart; overlapping ones
// (a header whose value holds a registered secret) once.
func TestCleanCountsEachRun(t *testing.T) {
	t.Parallel()
	r := registry()
	for _, c := range []struct {
		in   string
		want string
		n    int
	}{
		{canary + " and " + opaque, Marker + " and " + Marker, 2},
		{"Authorization: Bearer " + opaque, "Authorization: Bearer " + Marker, 1},
		{canary + "\n" + canary, Marker + "\n" + Marker, 2},
		{"a " + canary + canary + " b", "a " + Marker + " b", 1},
	} {
		out, n := r.Clean(c.in)
		if out != c.want {
			t.Errorf("Clean(%q) = %q, want %q", c.in, out, c.want)
		}
		if n != c.n {
			t.Errorf("Clean(%q) count = %d, want %d", c.in, n, c.n)
		}
	}
}

// TestCleanPiecesOfASecret: a piece of minRun bytes is redacted wherever
// a cut (a line cap, a read boundary) left it, in every form; the public
// prefix of a fine-grained token alone is not.
func TestCleanPiecesOfASecret(t *testing.T) {
	t.Parallel()
	r := registry()
	h := hex.EncodeToString([]byte(opaque))
	b := base64.RawStdEncoding.EncodeToString([]byte(opaque))
	for in, want := range map[string]string{
		"x" + opaque[9:17] + "x":     "x" + Marker + "x",
		"tail " + opaque[20:]:        "tail " + Marker,
		"hex tail " + h[len(h)-16:]:  "hex tail " + Marker,
		"b64 head " + b[:11] + "\n":  "b64 head " + Marker + "\n",
		"rev " + reverse(opaque)[:8]: "rev " + Marker,
		"see github_pat_ docs":       "see github_pat_ docs",
		"pat " + pat[:20]:            "pat " + Marker,
	} {
		if got, _ := r.Clean(in); got != want {
			t.Errorf("Clean(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRegistryShortAndPEM(t *testing.T) {
	t.Parallel()
	r := NewRegistry("abc12", "", "ab")
	if got, _ := r.Clean("x abc12 y ab"); got != "x "+Marker+" y ab" {
		t.Errorf("short secret: Clean = %q, want %q", got, "x "+Marker+" y ab")
	}
	body := base64.StdEncoding.EncodeToString(randomBytes(300, 3))
	pem := "-----BEGIN RSA PRIVATE KEY-----\n" + strings.Join(chunk(body, 64), "\n") + "\n-----END RSA PRIVATE KEY-----\n"
	r.Add(pem)
	out, n := r.Clean("key:\n" + pem)
	if strings.Contains(out, body[100:164]) {
		t.Errorf("PEM body left in %q", out)
	}
	if n != 1 {
		t.Errorf("PEM count = %d, want 1 (out %q)", n, out)
	}
	if got, _ := r.Clean("-----BEGIN RSA PRIVATE KEY-----"); got != "-----BEGIN RSA PRIVATE KEY-----" {
		t.Errorf("PEM armour alone: Clean = %q, want it unchanged", got)
	}
}

func TestRegistryForgetsOldestMinted(t *testing.T) {
	t.Parallel()
	r := NewRegistry(opaque)
	tok := func(i int) string { return fmt.Sprintf("mint%x", randomBytes(18, uint64(i))) }
	for i := range maxMinted + 1 {
		r.AddMinted(tok(i))
	}
	if r.Holds(tok(0)) {
		t.Error("the oldest minted token is still held")
	}
	for _, s := range []string{tok(1), tok(maxMinted), opaque} {
		if !r.Holds("x" + base64.StdEncoding.EncodeToString([]byte(s))) {
			t.Errorf("%.8s is forgotten", s)
		}
	}
}

func TestNilRegistry(t *testing.T) {
	t.Parallel()
	var r *Registry
	r.Add(canary)
	if r.Holds(canary) {
		t.Error("the nil registry holds a secret")
	}
	if got := r.String("tok " + canary); got != "tok "+Marker {
		t.Errorf("nil registry: String = %q, want the token shape redacted", got)
	}
}

// leftover returns a piece of form of width bytes found in out, "" when
// none is.
func leftover(out, form string, width int) string {
	width = min(width, len(form))
	for i := 0; i+width <= len(form); i++ {
		if strings.Contains(out, form[i:i+width]) {
			return form[i : i+width]
		}
	}
	return ""
}

func chunk(s string, n int) []string {
	var out []string
	for len(s) > n {
		out = append(out, s[:n])
		s = s[n:]
	}
	return append(out, s)
}

func randomBytes(n int, seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// TestOpaqueAlphabets guards the opaque secret's purpose: if its
// encodings were the same in both alphabets, the URL-safe cases would
// prove nothing.
func TestOpaqueAlphabets(t *testing.T) {
	t.Parallel()
	for _, lead := range []string{"", "a", "ab"} {
		if base64.StdEncoding.EncodeToString([]byte(lead+opaque)) == base64.URLEncoding.EncodeToString([]byte(lead+opaque)) {
			t.Errorf("opaque at offset %d encodes the same in both alphabets", len(lead))
		}
	}
}
