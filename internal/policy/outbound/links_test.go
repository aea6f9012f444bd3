package outbound

import "testing"

func TestLinksOutsideTheAllowlistDelinked(t *testing.T) {
	rules := Rules{LinkDomains: []string{"github.com", "GitHubUserContent.com."}}
	checkRewrites(t, rules, func(c Counts) int { return c.Links }, []rewriteCase{
		{"a bare URL", "see https://evil.example/x?a=1#f now", "see `evil.example/x?a=1#f` now", 1},
		{"plain http", "http://evil.example", "`evil.example`", 1},
		{"the scheme in capitals", "HTTPS://EVIL.EXAMPLE/X", "`EVIL.EXAMPLE/X`", 1},
		{"sentence punctuation after", "(see https://evil.example/x).", "(see `evil.example/x`).", 1},
		{"parentheses in the path", "https://evil.example/a_(b)", "`evil.example/a_(b)`", 1},
		{"a lookalike host", "https://github.com.evil.example/x https://evilgithub.com", "`github.com.evil.example/x` `evilgithub.com`", 2},
		{"a user before the host", "https://github.com@evil.example/login", "`github.com@evil.example/login`", 1},
		{"a markdown link", `read [the docs](https://evil.example/d "Docs") first`, "read [the docs] (`evil.example/d`) first", 1},
		{"a link in angle brackets", "[x](<https://evil.example/a b>)", "[x] (`evil.example/a b`)", 1},
		{"an image", "![chart](https://evil.example/c.png?leak=1)", "![chart] (`evil.example/c.png?leak=1`)", 1},
		{"an image in a link", "[![i](https://evil.example/i.png)](https://evil.example/x)", "[![i] (`evil.example/i.png`)] (`evil.example/x`)", 2},
		{"link text that looks like a link", "[www.evil.example](https://evil.example) [https://a.example](https://b.example)", "[www.evil.example] (`evil.example`) [`a.example](` `b.example`)", 3},
		{"a link holding a link", "[x](https://evil.example/?u=(https://b.example))", "[x](`evil.example/?u=(` `b.example`))", 2},
		{"a title holding a link", `[x](https://evil.example "see https://b.example")`, "[x] (`evil.example`)", 1},
		{"an escaped bracket in the text", `[a \] b](https://evil.example)`, `[a \] b] (` + "`evil.example`)", 1},
		{"protocol-relative", "[x](//evil.example/x)", "[x] (`evil.example/x`)", 1},
		{"an autolink", "<https://evil.example/x>", "<`evil.example/x`>", 1},
		{"a www autolink", "go to www.evil.example/x", "go to `www.evil.example/x`", 1},
		{"an HTML attribute", `<img src="https://evil.example/p.png">`, "<img src=\"`evil.example/p.png`\">", 1},
		{"a protocol-relative attribute", `<a href="//evil.example/">x</a>`, "<a href=\"`evil.example/`\">x</a>", 1},
		{"a reference definition", "[ref]: https://evil.example/r", "[ref]: `evil.example/r`", 1},
		{"next to a code span", "`a`https://evil.example", "`a` ``evil.example``", 1},
		{"after a backslash", `\https://evil.example`, "`\\evil.example`", 1},
		{"after a backslash ending the last", `http://a.example\http://b.example`, "`a.example\\` `b.example`", 2},
		// Left alone.
		{"allowed hosts and subdomains", "https://github.com/o/r https://docs.github.com/x https://raw.githubusercontent.com/o/r/f www.github.com", "https://github.com/o/r https://docs.github.com/x https://raw.githubusercontent.com/o/r/f www.github.com", 0},
		{"an allowed host with a port", "https://github.com:443/o", "https://github.com:443/o", 0},
		{"an allowed host after a user", "https://git@github.com/o/r", "https://git@github.com/o/r", 0},
		{"an allowed link and image", "[x](https://github.com/o) ![y](https://raw.githubusercontent.com/a.png)", "[x](https://github.com/o) ![y](https://raw.githubusercontent.com/a.png)", 0},
		{"in a code span", "`curl https://evil.example/x`", "`curl https://evil.example/x`", 0},
		{"in a fence", "```\nhttps://evil.example\n```", "```\nhttps://evil.example\n```", 0},
		{"no host", "http:// and https:///x and www. alone", "http:// and https:///x and www. alone", 0},
		{"not web links", "mailto:a@evil.example ftp evil.example/x", "mailto:a@evil.example ftp evil.example/x", 0},
		{"www. inside a word", "awww.evil.example", "awww.evil.example", 0},
		{"a comment, not a host", "x = //todo", "x = //todo", 0},
	})
}

func TestLinksWithEmptyAllowlist(t *testing.T) {
	rules := Rules{LinkDomains: []string{}}
	out, c, _ := rules.Apply("body", "https://github.com/o/r")
	// An empty list allows no host.
	if want := "`github.com/o/r`"; out != want {
		t.Errorf("with an empty list: Apply = %q, want %q", out, want)
	}
	if c.Links != 1 {
		t.Errorf("with an empty list: %d links, want 1", c.Links)
	}
	out, c, _ = Rules{}.Apply("body", "https://evil.example")
	checkUnchanged(t, "with no list", out, "https://evil.example", c, nil)
}
