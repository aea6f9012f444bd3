package outbound

import (
	"fmt"
	"strings"
	"testing"
)

// FuzzApply holds the outbound policy's two promises on arbitrary text.
//
// A credential from the generated set, spliced into the text anywhere,
// is found: Apply refuses the text, whatever the rewriting rules.
//
// Text in which Scan finds nothing is written unchanged with the
// rewriting rules off; with them on, it changes only as the counts say:
// nothing when they are zero, only insertions for mentions (<code> and
// </code> around each, or a zero-width space after its '@' in raw HTML)
// and slash commands, only markup and schemes for links; applying
// the rules again changes and counts nothing; and the output holds no
// credential either.
func FuzzApply(f *testing.F) {
	for i, text := range quiet {
		f.Add(text, uint16(i*7), uint8(i))
	}
	for i, text := range []string{
		"/close @alice https://evil.example/x",
		"x `\n` @a `\n<div>\n`@b`\n</div>\n\n```\n@c\n```",
		"- ```\n  @x\n  ```\n@y\n  ```\n| `a | b` @z |\n|---|\n",
		"[![i](https://evil.example/i.png)](//evil.example/x) <https://e.example/@q> www.e.example",
		"\\@a \\\\@b `@c`@d@e <code>@f</code> \\<code>@g</code>",
		"a ``` b\n~~~\n@x\n```\n~~~\n@y",
		"<!--\n\n@a\n-->\n@b\n\n<pre>\n\n@c\n</pre>\n@d",
		"password: x\ntoken=y\n\"api_key\": \"z\"",
	} {
		f.Add(text, uint16(i*13), uint8(i*5))
	}
	configs := []struct {
		name  string
		rules Rules
		check func(t *testing.T, in, out string, c Counts)
	}{
		{"mentions", Rules{Mentions: Neutralize, AllowedMentions: []string{"alice"}}, func(t *testing.T, in, out string, c Counts) {
			// Each mention gains <code></code>, or in raw HTML a
			// zero-width space.
			inert := strings.Count(out, zeroWidth) - strings.Count(in, zeroWidth)
			if want := len(in) + (c.Mentions-inert)*len(codeOpen+codeClose) + inert*len(zeroWidth); len(out) != want || inert > c.Mentions {
				t.Errorf("%d mentions made %q of %q: %d bytes, want %d", c.Mentions, out, in, len(out), want)
			}
			if !isSubsequence(in, out) {
				t.Errorf("%d mentions made %q of %q, want the input's bytes all kept", c.Mentions, out, in)
			}
		}},
		{"slash commands", Rules{SlashCommands: Neutralize}, func(t *testing.T, in, out string, c Counts) {
			if !isSubsequence(in, out) {
				t.Errorf("%d slash commands made %q of %q: want only insertions", c.SlashCommands, out, in)
			}
		}},
		{"links", Rules{LinkDomains: []string{"github.com"}}, func(t *testing.T, in, out string, c Counts) {
			if !isSubsequence(alnumOf(out), alnumOf(in)) {
				t.Errorf("%d links made %q of %q: want no letter or digit added", c.Links, out, in)
			}
		}},
		{"all", allOn, nil},
		{"all with a footer", Rules{Mentions: Neutralize, SlashCommands: Neutralize, LinkDomains: []string{}, Footer: "— @bot"}, nil},
	}
	f.Fuzz(func(t *testing.T, text string, at uint16, which uint8) {
		c := credentialSet[int(which)%len(credentialSet)]
		i := int(at) % (len(text) + 1)
		spliced := text[:i] + c.text + text[i:]
		for _, rules := range []Rules{{}, allOn} {
			if out, _, sec := rules.Apply("body", spliced); sec == nil {
				t.Fatalf("%v spliced at %d of %q: not found; Apply = %q", c, i, text, out)
			}
		}

		if Scan(text) != nil {
			return
		}
		out, counts, sec := (Rules{}).Apply("body", text)
		checkUnchanged(t, "rules off", out, text, counts, sec)
		if t.Failed() {
			t.FailNow()
		}
		for _, cf := range configs {
			out, counts, sec := cf.rules.Apply("body", text)
			if sec != nil {
				t.Fatalf("%s: Apply(%q) found %s at %d in its output", cf.name, text, sec.Kind, sec.Offset)
			}
			if cf.rules.Footer == "" && counts.Zero() != (out == text) {
				t.Errorf("%s: Apply(%q) = %q, counts %+v", cf.name, text, out, counts)
			}
			if cf.check != nil {
				cf.check(t, text, out, counts)
			}
			again, counts2, sec := cf.rules.Apply("body", out)
			checkUnchanged(t, fmt.Sprintf("%s: applied again to %q (from %q)", cf.name, out, text), again, out, counts2, sec)
		}
	})
}

// isSubsequence says whether a's bytes appear in b in order.
func isSubsequence(a, b string) bool {
	for i := 0; i < len(a); i++ {
		j := strings.IndexByte(b, a[i])
		if j < 0 {
			return false
		}
		b = b[j+1:]
	}
	return true
}

func alnumOf(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x80 && isAlnum(byte(r)) {
			return r
		}
		return -1
	}, s)
}
