package outbound

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestMentionsRenderedByCmarkGFM judges the mention policy by GitHub's
// own published parts rather than by this package's reading of markdown:
// each generated text is neutralised, rendered by cmark-gfm (GitHub's
// fork of the CommonMark reference implementation, with the extensions
// github.com enables), and the rendered text is searched as GitHub's
// mention filter searches it (see liveMentions). Nothing the policy wrote
// may notify anyone it does not allow. The texts put mentions, spelled
// every way rendering turns into one, around what changes where text
// ends: emphasis, brackets, links, code, HTML blocks, tables, escapes and
// line endings.
func TestMentionsRenderedByCmarkGFM(t *testing.T) {
	cmark, err := exec.LookPath("cmark-gfm")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("cmark-gfm is not installed; make sys-deps installs the cmark-gfm package for this test")
		}
		t.Skip("SKIPPED: cmark-gfm is not installed (apt-get install cmark-gfm); the policy was not checked against GitHub's renderer")
	}
	rules := Rules{Mentions: Neutralize, AllowedMentions: []string{"carol", "acme/triage"}}
	allowed := map[string]bool{"carol": true, "acme/triage": true}
	rng := rand.New(rand.NewPCG(1, 2))
	const texts = 1500
	liveBefore := 0
	for n := range texts {
		in := mentionText(rng)
		out, _, _ := rules.Apply("comment", in)
		if n%5 == 0 && len(liveMentions(t, render(t, cmark, in), allowed)) > 0 {
			liveBefore++
		}
		if live := liveMentions(t, render(t, cmark, out), allowed); len(live) > 0 {
			t.Errorf("%q neutralised is %q, which GitHub renders with %q live:\n%s", in, out, live, render(t, cmark, out))
		}
	}
	// The texts are worth checking only if many would have notified.
	if liveBefore < texts/5/3 {
		t.Errorf("only %d of %d texts checked before the policy hold a live mention: the generator or the renderer is off", liveBefore, texts/5)
	}
}

// The pieces a text is made of: what comes before a mention, a URL it may
// sit in, the mention, what follows it, and what may close what came
// before.
var (
	mentionBefore = []string{"", "", "x", " ", "_", "__", "*", "[", "![", "x](", "[x](", "`", "``", `\`, "<div>\n", "<div\f>",
		"<span>", "| a | b |\n|---|---|\n| ", "| a |\n|---|\v\n| `x | ", "> ", "- ", "1. ", "    ", "```\n", "~~~\n", "<!-- ",
		"&#95;", "(", `"`, `<a href="`, "=", "x_", "_x_", "**x** ", "~~", "# ", "x\r", "`x\r\r", "_note\n\n", "<p>\n",
		"- <div ", "> <div ", `<div title="a>b" `, "<div>\n</", "<div>\nx <?", "<div>\nx <!", "<span ", "<a title=x ", "[x]: ",
		"[^1]: ", "x  \n", "é", "&nbsp;", "a.b", "mailto:", "- [ ] ", "  - ", "*_", "~", "<!-- -->", "<b>", "</",
		"x <!X ", "x <?php ", "x <![CDATA[ ", "*a <object>", "_a <table><tr><td>", "<div>\nx&#32", "<noscript>"}
	mentionURL = []string{"https://e.com/", "http://e.com/", "www.e.com/", "xhttps://e.com/", "https://x_y.com/",
		"https://-x.com/", "//e.com/", "<https://e.com/", "ftp://e.com/", "HTTPS://E.COM/", "(https://e.com/", "[x] https://e.com/",
		"Www.e.com/", "https://e.com:8080/", "https://e.com/?q=", "[x]: https://e.com/", `<a href="https://e.com/`}
	mentionSpelled = []string{"@alice", "@Alice", "@&#97;lice", "@al&#105;ce", "&#64;alice", "&#x40;bob", "&commat;dave",
		"@mona_octo", "@mona&#95;octo", `@mona\_octo`, "@mona_&#111;cto", "@acme/team", "@acme/&#116;eam", "@acme/triage",
		"@carol", "@carol_octo", `@carol\_octo`, `\@alice`, "@a-b", "@-a", "@_a", "@1", "@alice@bob",
		"@</b>alice", "@<!-- -->bob", `@carol\-x`, "@carol&#47;x", "@carol&UnderBar;octo", `@acme/triage\_x`, "@carol</b>-x",
		"&#X40;alice", "@élan", "&#64alice", "@&#97lice", "&#x40zed", "@*&#98;ob"}
	mentionAfter = []string{"", "", ".", "..", "...x", ".x", "..x", "._x_", "_", "__", "_x", "/", "'s", "!", ".\n", "`",
		"*", "_ ", "._", ".https://e.com", ".www.e.com", "-", "&#46;", ")", "]", "](https://e.com)", ">", "\r", " ", "\n\n", "\r\n",
		`\-`, `\/`, `\.`, "&period;x", "&sol;x", "&lowbar;x", "<!-- -->x", "~", "~~", "**", "@x.co", "=1>", "*x", "_-x", "~x"}
	mentionClose = []string{"", "", " x", "`", "``", "_", "__", "*", "]", "](u)", ")", ">", "\n</div>", " |", "\n```", "\n~~~",
		" -->", `">`, "_x", "\n\n@erin", " ?>", "]]>", "</details>", "\n  x"}
)

// mentionText makes one text of one or two mentions with what is around
// them.
func mentionText(rng *rand.Rand) string {
	pick := func(from []string) string { return from[rng.IntN(len(from))] }
	var b strings.Builder
	for range 1 + rng.IntN(2) {
		b.WriteString(pick(mentionBefore))
		if rng.IntN(3) == 0 {
			b.WriteString(pick(mentionURL))
		}
		b.WriteString(pick(mentionSpelled))
		b.WriteString(pick(mentionAfter))
		b.WriteString(pick(mentionClose))
	}
	return b.String()
}

// render is cmark-gfm's HTML of text, with the extensions github.com
// renders comments with, raw HTML kept (GitHub sanitises it afterwards;
// tagfilter escapes the tags whose content would be raw text).
func render(t *testing.T, cmark, text string) string {
	t.Helper()
	cmd := exec.Command(cmark, "--unsafe", "-e", "autolink", "-e", "table", "-e", "strikethrough", "-e", "tagfilter", "-e", "tasklist", "-e", "footnotes")
	cmd.Stdin = strings.NewReader(text)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("cmark-gfm on %q: %v", text, err)
	}
	return string(out)
}

// liveMentions is the mentions GitHub's filter finds in rendered HTML and
// that allowed does not hold: it reads text nodes outside pre, code, a,
// style and script (html-pipeline's MentionFilter IGNORE_PARENTS).
func liveMentions(t *testing.T, rendered string, allowed map[string]bool) []string {
	t.Helper()
	// A server parses without scripting: <noscript> holds elements.
	doc, err := html.ParseWithOptions(strings.NewReader(rendered), html.ParseOptionEnableScripting(false))
	if err != nil {
		t.Fatalf("parse %q: %v", rendered, err)
	}
	var live []string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "pre", "code", "a", "style", "script":
				return
			}
		}
		if n.Type == html.TextNode {
			for _, m := range filterMentions(n.Data) {
				if !allowed[strings.ToLower(m)] {
					live = append(live, m)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return live
}

// filterMentions finds the mentions of a text node as GitHub's published
// patterns do, written out because Go's regexp has no lookahead:
//
//	user: (?:^|\W)@([a-z0-9][a-z0-9-]*)(?!\/)(?=\.+[ \t\W]|\.+$|[^0-9a-zA-Z_.]|$)
//	team: (?:^|\W)@([a-z0-9][a-z0-9-]*)\/([a-z0-9][a-z0-9\-_]*)
//
// case-insensitive, ^ and $ at each line's ends (Ruby), \W any byte but
// [0-9A-Za-z_]; and a managed user's handle_SHORTCODE, read as a user's
// handle is (GitHub publishes no pattern of its own for it). No login is
// over 39 bytes.
func filterMentions(d string) []string {
	var found []string
	word := func(c byte) bool { return isWordByte(c) }
	for p := strings.IndexByte(d, '@'); p >= 0; p = nextByte(d, '@', p+1) {
		if p > 0 && d[p-1] != '\n' && word(d[p-1]) {
			continue
		}
		h := p + 1 + runLen(d[p+1:], func(c byte) bool { return isAlnum(c) || c == '-' })
		if h == p+1 || d[p+1] == '-' {
			continue
		}
		handle := d[p+1 : h]
		if len(handle) > 39 {
			continue // no login is longer
		}
		if byteAt(d, h) == '/' {
			if s := h + 1 + runLen(d[h+1:], func(c byte) bool { return isWordByte(c) || c == '-' }); s > h+1 && isAlnum(d[h+1]) {
				found = append(found, handle+"/"+d[h+1:s])
			}
			continue
		}
		if n := runLen(d[h:], func(c byte) bool { return c == '_' }); n == 1 {
			if e := h + 1 + runLen(d[h+1:], isAlnum); e > h+1 && e-p-1 <= 39 && byteAt(d, e) != '/' && userMentionEnds(d, e) {
				found = append(found, d[p+1:e])
			}
		}
		if userMentionEnds(d, h) {
			found = append(found, handle)
		}
	}
	return found
}

// userMentionEnds is the user pattern's lookahead at d[h].
func userMentionEnds(d string, h int) bool {
	if h == len(d) || d[h] == '\n' {
		return true
	}
	if d[h] != '.' {
		return !isWordByte(d[h])
	}
	r := h + runLen(d[h:], func(c byte) bool { return c == '.' })
	return r == len(d) || d[r] == '\n' || r-h >= 2 || !isWordByte(d[r])
}

func nextByte(s string, c byte, from int) int {
	if i := strings.IndexByte(s[from:], c); i >= 0 {
		return from + i
	}
	return -1
}

// TestFilterMentionsReadsAsGitHub holds the oracle to GitHub's published
// examples of the patterns, so the rendered check cannot pass by reading
// nothing.
func TestFilterMentionsReadsAsGitHub(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"hi @alice!", []string{"alice"}},
		{"@alice.", []string{"alice"}},
		{"@alice..bob", []string{"alice"}},
		{"@alice.bob", nil},
		{"a@alice", nil},
		{"x\n@alice_", nil},
		{"@acme/triage", []string{"acme/triage"}},
		{"@alice/", nil},
		{"(@mona_octo)", []string{"mona_octo"}},
		{"@mona_octo_x", nil},
		{"@mona_octo.x @mona_octo/x", nil},
		{"@-x @_x", nil},
	} {
		if got := filterMentions(c.text); strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("filterMentions(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}
