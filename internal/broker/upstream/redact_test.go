package upstream

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	// leakTok has the shape of a classic personal access token.
	leakTok = "ghp_Xq7Lm2Vb9Rt4Kp8Zn3Wc6Hy1Fd5Js0Ge2Ua"
	// leakOdd is a token an HTTP upstream might be given: its bytes make
	// the standard and URL-safe base64 alphabets differ and need
	// percent-encoding in a query.
	leakOdd = "s3cr~t?vAl>u3~f0r an/Http-Ups7r3am?&=x"
	// leakPAT has the shape of a fine-grained token, whose public prefix
	// is longer than minSecretRun.
	leakPAT = "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c9"
)

func leakRedactor() *redactor {
	r := newRedactor(nil)
	for _, tok := range []string{leakTok, leakOdd, leakPAT} {
		r.add(tok)
	}
	return r
}

func textResult(blocks ...string) *mcp.CallToolResult {
	res := &mcp.CallToolResult{}
	for _, b := range blocks {
		res.Content = append(res.Content, &mcp.TextContent{Text: b})
	}
	return res
}

// chunks cuts s into pieces of n bytes, the last possibly shorter.
func chunks(s string, n int) []string {
	var out []string
	for len(s) > n {
		out = append(out, s[:n])
		s = s[n:]
	}
	return append(out, s)
}

func percentAll(s, format string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		fmt.Fprintf(&b, format, s[i])
	}
	return b.String()
}

// percentEveryOther escapes every second byte, leaving the rest literal:
// no literal run of the token is longer than one byte.
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

// wrap breaks s into lines of n characters, as base64 tools and the
// GitHub contents API do.
func wrap(s string, n int) string {
	return strings.Join(chunks(s, n), "\n")
}

func randomBytes(n int, seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

type leakCase struct {
	name string
	res  *mcp.CallToolResult
	want bool
}

// base64LeakCases puts each token at every offset modulo 3 inside a
// longer plaintext, with every tail length, in every base64 alphabet.
func base64LeakCases() []leakCase {
	encs := []struct {
		name string
		enc  *base64.Encoding
	}{
		{"std", base64.StdEncoding},
		{"url", base64.URLEncoding},
		{"rawstd", base64.RawStdEncoding},
		{"rawurl", base64.RawURLEncoding},
	}
	var cases []leakCase
	for _, e := range encs {
		for _, tok := range []string{leakTok, leakOdd} {
			for _, lead := range []string{"", "a", "ab", "header: ", "header:: ", "header::: "} {
				for _, tail := range []string{"", "z", "zy", " trailing text"} {
					enc := e.enc.EncodeToString([]byte(lead + tok + tail))
					cases = append(cases, leakCase{
						name: fmt.Sprintf("base64 %s %.6s lead %d tail %d", e.name, tok, len(lead), len(tail)),
						res:  textResult("payload: " + enc + " (end)"),
						want: true,
					})
				}
			}
		}
	}
	return cases
}

func leakCases() []leakCase {
	noise := randomBytes(64<<10, 1)
	otherTok := "ghp_" + strings.Repeat("Ab3", 12)
	cases := []leakCase{
		// Literal forms, as before.
		{"literal token", textResult("token " + leakTok), true},
		{"literal 8-character piece", textResult("x" + leakTok[9:17] + "x"), true},
		{"literal in structured content", &mcp.CallToolResult{StructuredContent: map[string]any{"k": []any{"x", leakTok}}}, true},

		// Hex.
		{"hex lower", textResult("digest=" + hex.EncodeToString([]byte(leakTok)) + ";"), true},
		{"hex upper", textResult("DIGEST=" + strings.ToUpper(hex.EncodeToString([]byte(leakTok))) + ";"), true},
		{"hex lower odd token", textResult("h:" + hex.EncodeToString([]byte(leakOdd))), true},
		{"hex inside longer hex", textResult(hex.EncodeToString([]byte("prefix" + leakTok + "suffix"))), true},

		// Percent-encoding.
		{"percent every byte lower", textResult("q=" + percentAll(leakTok, "%%%02x")), true},
		{"percent every byte upper", textResult("q=" + percentAll(leakTok, "%%%02X") + "&x=1"), true},
		{"percent every other byte", textResult("https://example.com/?t=" + percentEveryOther(leakTok)), true},
		{"query escape odd token", textResult("https://example.com/?t=" + url.QueryEscape(leakOdd)), true},
		{"path escape odd token", textResult("https://example.com/" + url.PathEscape(leakOdd)), true},
		{"percent twice", textResult("q=" + strings.ReplaceAll(percentAll(leakTok, "%%%02x"), "%", "%25")), true},
		{"percent-encoded base64", textResult("q=" + url.QueryEscape(base64.StdEncoding.EncodeToString([]byte("~"+leakOdd)))), true},

		// Split across blocks.
		{"split in 7-character blocks", textResult(chunks(leakTok, 7)...), true},
		{"split in 1-character blocks", textResult(chunks(leakTok, 1)...), true},
		{"split fine-grained token", textResult(chunks(leakPAT, 7)...), true},
		{"split between surrounding text", textResult(append(append([]string{"before "}, chunks(leakTok, 5)...), " after")...), true},
		{"base64 split in 7-character blocks", textResult(chunks(base64.StdEncoding.EncodeToString([]byte("b"+leakTok)), 7)...), true},
		{"hex split in 7-character blocks", textResult(chunks(hex.EncodeToString([]byte(leakTok)), 7)...), true},
		{"split between text and structured content", &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: "head " + leakTok[:7]}},
			StructuredContent: map[string]any{"rest": leakTok[7:]},
		}, true},
		{"split across structured values", &mcp.CallToolResult{
			StructuredContent: map[string]any{"c": leakTok[14:], "a": leakTok[:7], "b": map[string]any{"n": 3.0, "s": []any{leakTok[7:14]}}},
		}, true},
		{"split into embedded resource", &mcp.CallToolResult{Content: []mcp.Content{
			&mcp.TextContent{Text: leakTok[:7]},
			&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///a", Text: leakTok[7:]}},
		}}, true},
		{"percent-encoded in resource link", &mcp.CallToolResult{Content: []mcp.Content{
			&mcp.ResourceLink{URI: "https://example.com/?t=" + percentAll(leakTok, "%%%02x"), Name: "link"},
		}}, true},
		{"in image bytes", &mcp.CallToolResult{Content: []mcp.Content{
			&mcp.ImageContent{MIMEType: "image/png", Data: []byte("\x89PNG" + leakTok)},
		}}, true},
		{"in blob bytes", &mcp.CallToolResult{Content: []mcp.Content{
			&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///b", Blob: []byte("xy" + leakTok)}},
		}}, true},
		{"base64 wrapped at 60 columns", textResult(wrap(base64.StdEncoding.EncodeToString([]byte(strings.Repeat("f", 41)+leakTok+"\n")), 60)), true},
		{"base64 wrapped at 76 columns with CRLF", textResult(strings.ReplaceAll(wrap(base64.StdEncoding.EncodeToString([]byte(strings.Repeat("f", 50)+leakTok)), 76), "\n", "\r\n")), true},

		// Ordinary results.
		{"the word token", textResult("token expired; refresh the token and retry"), false},
		{"token prefix only", textResult("classic tokens start with ghp_ and fine-grained ones with github_pat_"), false},
		{"fine-grained prefix in code", textResult(`if strings.HasPrefix(s, "github_pat_") {`), false},
		{"7-character pieces apart", textResult("a " + leakTok[:7] + " b " + leakTok[7:14] + " c " + leakTok[14:21]), false},
		{"pieces apart in blocks", textResult(leakTok[:7], "-", leakTok[7:14], "-", leakTok[14:21]), false},
		{"another token", textResult("token " + otherTok), false},
		{"another token encoded", textResult(base64.StdEncoding.EncodeToString([]byte(otherTok)), hex.EncodeToString([]byte(otherTok))), false},
		{"random base64", textResult(base64.StdEncoding.EncodeToString(noise)), false},
		{"random url base64", textResult(base64.RawURLEncoding.EncodeToString(noise)), false},
		{"random hex", textResult(hex.EncodeToString(noise[:32<<10]), strings.ToUpper(hex.EncodeToString(noise[32<<10:]))), false},
		{"random base64 split in blocks", textResult(chunks(base64.StdEncoding.EncodeToString(noise[:8<<10]), 7)...), false},
		{"random image", &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{MIMEType: "image/png", Data: noise}}}, false},
		{"percent-encoded url", textResult("https://example.com/search?q=%67%68%70%20token&lang=%E6%97%A5"), false},
		{"broken percent escapes", textResult("100% sure, %zz and %4 and %"), false},
		{"ordinary structured result", &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: `{"number":42,"title":"Fix the token refresh"}`}},
			StructuredContent: map[string]any{"number": 42.0, "title": "Fix the token refresh", "labels": []any{"bug", "auth"}},
		}, false},
		{"empty result", &mcp.CallToolResult{}, false},
	}
	return append(cases, base64LeakCases()...)
}

func TestRedactorLeaks(t *testing.T) {
	r := leakRedactor()
	for _, c := range leakCases() {
		t.Run(c.name, func(t *testing.T) {
			if got := r.leaks(c.res); got != c.want {
				t.Errorf("leaks = %v, want %v", got, c.want)
			}
		})
	}
}

// TestRedactorLeaksAlphabets guards the odd token's purpose: if its
// encodings were the same in both alphabets, the URL-safe cases above
// would prove nothing.
func TestRedactorLeaksAlphabets(t *testing.T) {
	for _, lead := range []string{"", "a", "ab"} {
		std := base64.StdEncoding.EncodeToString([]byte(lead + leakOdd))
		if std != base64.URLEncoding.EncodeToString([]byte(lead+leakOdd)) {
			return
		}
	}
	t.Fatal("leakOdd encodes the same in the standard and URL-safe alphabets")
}

func TestRedactorLeaksNothingRemembered(t *testing.T) {
	r := newRedactor(nil)
	if r.leaks(textResult(leakTok)) {
		t.Error("a redactor that knows no token flagged a result")
	}
	r.add("")
	if r.leaks(textResult("")) {
		t.Error("the empty token flagged an empty result")
	}
}

// TestRedactorShortToken keeps a token shorter than minSecretRun matched
// whole, as clean always has.
func TestRedactorShortToken(t *testing.T) {
	r := newRedactor(nil)
	r.add("abc12")
	if !r.leaks(textResult("x abc12 y")) {
		t.Error("missed a short token")
	}
	if !r.leaks(textResult("x ab", "c12 y")) {
		t.Error("missed a short token split across blocks")
	}
	if r.leaks(textResult("x abc1 y")) {
		t.Error("flagged part of a short token")
	}
	if got := r.clean("x abc12 y"); got != "x [redacted] y" {
		t.Errorf("clean = %q", got)
	}
}

func TestRedactorCleanEncoded(t *testing.T) {
	r := leakRedactor()
	hexTok := hex.EncodeToString([]byte(leakTok))
	for in, want := range map[string]string{
		"sent " + leakTok + " upstream":           "sent [redacted] upstream",
		"digest " + hexTok + ".":                  "digest [redacted].",
		"digest " + strings.ToUpper(hexTok) + ".": "digest [redacted].",
		"see github_pat_ docs":                    "see github_pat_ docs",
		"pat " + leakPAT[:20]:                     "pat [redacted]",
	} {
		if got := r.clean(in); got != want {
			t.Errorf("clean(%q) = %q, want %q", in, got, want)
		}
	}
	// The base64 characters that also encode the bytes around the token
	// stay: at most 3 on each side, carrying a few bits of it.
	for _, lead := range []string{"", "a", "ab"} {
		b64 := base64.StdEncoding.EncodeToString([]byte(lead + leakTok))
		got := r.clean("header " + b64 + " end")
		head, tail, ok := strings.Cut(got, "[redacted]")
		if !ok {
			t.Errorf("clean(base64 at offset %d) = %q, want it to hold [redacted]", len(lead), got)
			continue
		}
		if !strings.HasPrefix(head, "header ") {
			t.Errorf("clean(base64 at offset %d) = %q, want it to start with %q", len(lead), got, "header ")
		}
		if limit := len("header ") + 3; len(head) > limit {
			t.Errorf("clean(base64 at offset %d): %d bytes before [redacted], want at most %d: %q", len(lead), len(head), limit, got)
		}
		if !strings.HasSuffix(tail, " end") {
			t.Errorf("clean(base64 at offset %d) = %q, want it to end with %q", len(lead), got, " end")
		}
		if limit := len(" end") + 3; len(tail) > limit {
			t.Errorf("clean(base64 at offset %d): %d bytes after [redacted], want at most %d: %q", len(lead), len(tail), limit, got)
		}
	}
}

// BenchmarkRedactorLeaks checks a result of a few hundred KB against the
// full set of remembered tokens: the proxy pays this on every result.
func BenchmarkRedactorLeaks(b *testing.B) {
	r := newRedactor(nil)
	for i := range 64 {
		r.add(fmt.Sprintf("ghs_%x", randomBytes(18, uint64(100+i))))
	}
	noise := randomBytes(96<<10, 2)
	res := &mcp.CallToolResult{
		Content: []mcp.Content{
			&mcp.TextContent{Text: base64.StdEncoding.EncodeToString(noise)},
			&mcp.TextContent{Text: hex.EncodeToString(noise[:48<<10])},
			&mcp.TextContent{Text: strings.Repeat("%41 the token, ", 4<<10)},
		},
		StructuredContent: map[string]any{"blob": base64.URLEncoding.EncodeToString(noise)},
	}
	b.ResetTimer()
	for range b.N {
		if r.leaks(res) {
			b.Fatal("flagged")
		}
	}
}
