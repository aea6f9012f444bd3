package outbound

import (
	"strings"
	"testing"
)

// rewriteCase is one text and what a rule makes of it.
type rewriteCase struct {
	name, in, want string
	n              int
}

// checkRewrites applies rules to each case, and again to the output:
// the second pass must change and count nothing.
func checkRewrites(t *testing.T, rules Rules, count func(Counts) int, cases []rewriteCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, counts, sec := rules.Apply("comment", c.in)
			if sec != nil {
				t.Fatalf("Apply found %s at %d", sec.Kind, sec.Offset)
			}
			if out != c.want {
				t.Errorf("Apply =\n%q\nwant\n%q", out, c.want)
			}
			if got := count(counts); got != c.n {
				t.Errorf("count = %d, want %d (%+v)", got, c.n, counts)
			}
			again, counts, _ := rules.Apply("comment", out)
			checkUnchanged(t, "applied twice", again, out, counts, nil)
		})
	}
}

func code(s string) string { return codeOpen + s + codeClose }

func TestMentionsNeutralized(t *testing.T) {
	rules := Rules{Mentions: Neutralize, AllowedMentions: []string{"Carol", "acme/triage", "carol_octo"}}
	long := strings.Repeat("a", 39)
	checkRewrites(t, rules, func(c Counts) int { return c.Mentions }, []rewriteCase{
		{"a user", "thanks @alice!", "thanks " + code("@alice") + "!", 1},
		{"a team", "cc @acme/everyone", "cc " + code("@acme/everyone"), 1},
		{"at the start and end", "@bob and @dave", code("@bob") + " and " + code("@dave"), 2},
		{"at a sentence's end", "ask @alice.", "ask " + code("@alice") + ".", 1},
		{"before an apostrophe", "@alice's patch", code("@alice") + "'s patch", 1},
		{"with hyphens", "@octo-cat-42 and @acme/team_b-1", code("@octo-cat-42") + " and " + code("@acme/team_b-1"), 2},
		{"39 bytes long", "@" + long, code("@" + long), 1},
		{"in a list and a quote", "- @alice\n> @bob", "- " + code("@alice") + "\n> " + code("@bob"), 2},
		{"in a link's text", "[@alice](https://github.com/alice)", "[" + code("@alice") + "](https://github.com/alice)", 1},
		{"allowed, any case", "@carol and @CAROL and @Acme/Triage", "@carol and @CAROL and @Acme/Triage", 0},
		{"allowed user, other team", "@carol/triage", code("@carol/triage"), 1},
		{"escaped", `\@alice`, code(`\@alice`), 1},
		{"after an escaped backslash", `\\@alice`, `\\` + code("@alice"), 1},
		{"after a lone backtick", "a ` @alice", "a ` " + code("@alice"), 1},
		{"already inert", code("@alice"), code("@alice"), 0},
		{"one right after another", "@a@b @c/d@e", code("@a") + code("@b") + " " + code("@c/d") + code("@e"), 4},
		{"an inert form escaped", `\` + code("@alice"), `\<code>` + code("@alice") + "</code>", 1},
		{"an inert form in code spans", "`<code>`@alice`</code>`", "`<code>`" + code("@alice") + "`</code>`", 1},
		// A managed user's login: the handle, '_' and the enterprise's short
		// code, 39 bytes at most in all.
		{"a managed user", "cc @mona-cat_octo, @octo_admin and @mona_octo.", "cc " + code("@mona-cat_octo") + ", " + code("@octo_admin") + " and " + code("@mona_octo") + ".", 3},
		{"a managed user, allowed", "@Carol_Octo and @carol_octo2", "@Carol_Octo and " + code("@carol_octo2"), 1},
		{"a managed user 39 bytes long", "@" + long[:34] + "_octo", code("@" + long[:34] + "_octo"), 1},
		// Markdown takes an '_' run that may open or close an emphasis
		// away before GitHub's filter reads the text: "_cc @alice_" is
		// <em>cc @alice</em>.
		{"in underscore emphasis", "_cc @alice_ and __@bob__", "_cc " + code("@alice") + "_ and __" + code("@bob") + "__", 2},
		{"a managed user in emphasis", "_cc @mona_octo_, _@octo_admin_.", "_cc " + code("@mona_octo") + "_, _" + code("@octo_admin") + "_.", 2},
		{"after an emphasis closes", "_x_@alice and _x_@mona_octo", "_x_" + code("@alice") + " and _x_" + code("@mona_octo"), 2},
		{"in emphasis, before a period", "_cc @alice._ and __@mona_octo.__", "_cc " + code("@alice") + "._ and __" + code("@mona_octo") + ".__", 2},
		{"an emphasis across a line of form feeds", "_cc\n\f\n@alice_ and __cc\n \v\n@bob__", "_cc\n\f\n" + code("@alice") + "_ and __cc\n \v\n" + code("@bob") + "__", 2},
		{"an emphasis opened in another paragraph", "_note\n\ncc @alice_ and x_@bob", "_note\n\ncc @alice_ and x_@bob", 0},
		// A character reference is an '@' once markdown renders the text.
		{"an '@' written as a reference", "cc &#64;alice, &#x40;bob, &#X0040;carol_x, &#0064;dave and &commat;erin",
			"cc " + code("&#64;alice") + ", " + code("&#x40;bob") + ", " + code("&#X0040;carol_x") + ", " + code("&#0064;dave") + " and " + code("&commat;erin"), 5},
		{"a reference to another character, or escaped", "&#65;alice &#64alice &#00000064;bob \\&#64;carol &amp;dave &commat; x&#64;erin",
			"&#65;alice &#64alice &#00000064;bob \\&#64;carol &amp;dave &commat; x&#64;erin", 0},
		{"carriage returns", "hi\r\n@alice\r\n", "hi\r\n" + code("@alice") + "\r\n", 1},
		// A handle's characters may be references too: "@&#97;lice"
		// renders as "@alice".
		{"a handle written with references", "cc @&#97;lice, @al&#x69;ce, &#64;&#98;ob and @acme/&#101;veryone",
			"cc " + code("@&#97;lice") + ", " + code("@al&#x69;ce") + ", " + code("&#64;&#98;ob") + " and " + code("@acme/&#101;veryone"), 4},
		{"allowed, written with references", "@&#67;arol and @acme/&#116;riage", "@&#67;arol and @acme/&#116;riage", 0},
		// After dots, GitHub's filter takes any non-word character, and a
		// second '.' is one; and what markdown makes of the text after a
		// single '.' leaves "@alice." a text of its own.
		{"two dots and a word", "@alice..bob", code("@alice") + "..bob", 1},
		{"a dot and an emphasis", "@alice._note_ and @bob.__x__", code("@alice") + "._note_ and " + code("@bob") + ".__x__", 2},
		{"a dot and a link", "@alice.https://example.com @bob.HTTP://x.org @carol_x.ftp://x.org @dave.www.example.com",
			code("@alice") + ".https://example.com " + code("@bob") + ".HTTP://x.org " + code("@carol_x") + ".ftp://x.org " + code("@dave") + ".www.example.com", 4},
		// Not mentions, as GitHub reads them.
		{"an address", "mail alice@example.com", "mail alice@example.com", 0},
		{"after a word", "ssh git@myhost or foo_@bar", "ssh git@myhost or foo_@bar", 0},
		{"a dotted name", "@alice.bob and @pytest.fixture", "@alice.bob and @pytest.fixture", 0},
		{"a dotted name going on as a word", "@alice.b_c_ and @alice.httpx and @alice.wwwx", "@alice.b_c_ and @alice.httpx and @alice.wwwx", 0},
		{"a reference to no handle's first character", "@&#233;lise @&#45;x @&#95;x @&#0;x @&#x41x", "@&#233;lise @&#45;x @&#95;x @&#0;x @&#x41x", 0},
		{"an underscore going on as a word", "@alice__x and @alice_x_y and @alice_x.y", "@alice__x and @alice_x_y and @alice_x.y", 0},
		{"an underscore that delimits nothing", "follow @dril_ and @jack_ on twitter; see snake_case and foo_@bar", "follow @dril_ and @jack_ on twitter; see snake_case and foo_@bar", 0},
		{"a managed user's login before a slash", "@mona_octo/team", "@mona_octo/team", 0},
		{"a slash and no team", "@alice/ and @alice/-x", "@alice/ and @alice/-x", 0},
		{"no handle", "@ @- @@ @_x", "@ @- @@ @_x", 0},
		{"over 39 bytes", "@" + long + "b and @" + long[:35] + "_octo", "@" + long + "b and @" + long[:35] + "_octo", 0},
		{"in a bare URL", "https://medium.com/@alice/post and www.npmjs.com/package/@types/node", "https://medium.com/@alice/post and www.npmjs.com/package/@types/node", 0},
		{"in an autolink", "<https://example.com/@alice>", "<https://example.com/@alice>", 0},
	})
}

// TestMentionsInCodeLeftAlone: text GitHub renders as code is never
// rewritten.
func TestMentionsInCodeLeftAlone(t *testing.T) {
	rules := Rules{Mentions: Neutralize}
	checkRewrites(t, rules, func(c Counts) int { return c.Mentions }, []rewriteCase{
		{"a code span", "run `npm i @types/node` then ask @alice", "run `npm i @types/node` then ask " + code("@alice"), 1},
		{"a longer span", "``a ` @x`` @y", "``a ` @x`` " + code("@y"), 1},
		{"spans on one line among lines", "`@a`\n`@b` @c\n", "`@a`\n`@b` " + code("@c") + "\n", 1},
		{"a fence", "```java\n@Override\nvoid f() {}\n```\n@alice", "```java\n@Override\nvoid f() {}\n```\n" + code("@alice"), 1},
		{"a tilde fence", "~~~\n@x\n~~~~\n@y", "~~~\n@x\n~~~~\n" + code("@y"), 1},
		{"an unclosed fence", "@y\n```\n@x\n", code("@y") + "\n```\n@x\n", 1},
		{"a fence closed by a longer one", "````\n```\n@x\n````\n@y", "````\n```\n@x\n````\n" + code("@y"), 1},
		{"a fence in a list item", "1. add\n   ```\n   @Override\n   ```\n@alice", "1. add\n   ```\n   @Override\n   ```\n" + code("@alice"), 1},
		{"an info string with a backtick is no fence", "```a`b\n@x", "```a`b\n" + code("@x"), 1},
		{"a closing fence indented four is content", "```\n    ```\n@x\n```\n@y", "```\n    ```\n@x\n```\n" + code("@y"), 1},
		{"after an HTML comment", "<!-- note -->\n\n`@x` @y", "<!-- note -->\n\n`@x` " + code("@y"), 1},
		{"a fence right after an HTML comment", "<!-- note -->\n```\n@x\n```\n@y", "<!-- note -->\n```\n@x\n```\n" + code("@y"), 1},
		{"a fence after a comment's last line", "<!--\nnote\n-->\n```\n@x\n```", "<!--\nnote\n-->\n```\n@x\n```", 0},
	})
}

// TestMentionsWhereCodeIsUncertain: where the text's structure leaves
// it open whether GitHub renders code, the text counts as prose. Each
// case is one a looser reading would leave alone, and GitHub notifies on.
func TestMentionsWhereCodeIsUncertain(t *testing.T) {
	rules := Rules{Mentions: Neutralize}
	checkRewrites(t, rules, func(c Counts) int { return c.Mentions }, []rewriteCase{
		// Backticks pair across lines within a paragraph: "`\n`" is the
		// span, and "@alice" is text.
		{"a span across lines", "x `\n` @alice `", "x `\n` " + code("@alice") + " `", 1},
		// A heading is a block of its own: had the lines been one
		// paragraph, "`b\nc`" would be the span.
		{"a span that may cross blocks", "# a `b\nc` @alice `d`", "# a `b\nc` " + code("@alice") + " `d`", 1},
		{"a span that may hold a heading's end", "# a `b\n@alice `c", "# a `b\n" + code("@alice") + " `c", 1},
		// An escaped backtick opens nothing: "@alice" is text between two
		// lone backticks.
		{"an escaped backtick", "\\`@alice`", "\\`" + code("@alice") + "`", 1},
		// In a raw HTML block markdown is not parsed: backticks are text.
		{"an HTML block", "<div>\n`@alice`\n</div>", "<div>\n`@" + zeroWidth + "alice`\n</div>", 1},
		{"an HTML comment block", "<!--\n\n-->\n`@alice`", "<!--\n\n-->\n`" + code("@alice") + "`", 1},
		{"a block tag with text after it", "<div>`@alice`</div>", "<div>`@" + zeroWidth + "alice`</div>", 1},
		// A fence inside an HTML block is text, so what follows it is
		// not known to be code.
		{"a fence in an HTML block", "<details>\n```\n@alice\n```", "<details>\n```\n@" + zeroWidth + "alice\n```", 1},
		// A tag takes its backticks before a code span does.
		{"a backtick in a tag", "<a title='`'> @alice `", "<a title='`'> " + code("@alice") + " `", 1},
		{"a backtick in a link destination", "[x](`) @alice `", "[x](`) " + code("@alice") + " `", 1},
		// A table splits cells at pipes before backticks pair.
		{"a table", "| a | `b |\n|---|---|\n| c` @alice | d |", "| a | `b |\n|---|---|\n| c` " + code("@alice") + " | d |", 1},
		{"a table's cells pairing otherwise", "| h | h |\n|---|---|\n| `a | b ` `@x` |", "| h | h |\n|---|---|\n| `a | b ` `" + code("@x") + "` |", 1},
		// In a list item the fence may end where the item does.
		{"a fence in a list item, then a line less indented", "- ```\n  x\n  ```\n@alice\n  @bob", "- ```\n  x\n  ```\n" + code("@alice") + "\n  " + code("@bob"), 2},
		{"an indented fence left by a line less indented", "  ```\n @x\n  ```\n@y", "  ```\n " + code("@x") + "\n  ```\n" + code("@y"), 2},
		{"an indented fence closed at another indentation", "  ```\n  @x\n ```\n@y", "  ```\n  @x\n ```\n" + code("@y"), 1},
		{"a fence in a quote", "> ```\n> @x\n> ```\n@y", "> ```\n> " + code("@x") + "\n> ```\n" + code("@y"), 2},
		{"a fence indented four", "    ```\n@x\n    ```", "    ```\n" + code("@x") + "\n    ```", 1},
		// Indented four after a paragraph's line, "```" is more of the
		// paragraph, and "@x" is text.
		{"a fence indented four after text", "text\n    ```\n    @x", "text\n    ```\n    " + code("@x"), 1},
		// Raw HTML has no autolinks: "@alice" in a URL is text.
		{"a URL in an HTML block", "<p>\nhttps://medium.com/@alice\n</p>", "<p>\nhttps://medium.com/@" + zeroWidth + "alice\n</p>", 1},
	})
}

// TestMentionsOneCall: one call leaves nothing for a second, even where
// writing a mention inert makes its neighbour one ("@a@b" mentions only
// a; once a is code, "@b" starts a text node).
func TestMentionsOneCall(t *testing.T) {
	out, n := neutralizeMentions("@a@b", nil)
	if want := code("@a") + code("@b"); out != want {
		t.Errorf("neutralizeMentions = %q, want %q", out, want)
	}
	if n != 2 {
		t.Errorf("neutralizeMentions counted %d, want 2", n)
	}
}

// TestMentionsInTextThatIsNoLink: a URL is read as a link, so that the
// "@name" in it is left alone, only where GitHub makes it one; each case
// here is text GitHub renders with the mention live.
func TestMentionsInTextThatIsNoLink(t *testing.T) {
	rules := Rules{Mentions: Neutralize, AllowedMentions: []string{"carol"}}
	checkRewrites(t, rules, func(c Counts) int { return c.Mentions }, []rewriteCase{
		// The autolinker makes no link inside an open '['.
		{"a URL after an open bracket", "see [https://medium.com/@alice] and ![www.e.com/@bob]",
			"see [https://medium.com/" + code("@alice") + "] and ![www.e.com/" + code("@bob") + "]", 2},
		{"a bracket left open", "[note: https://medium.com/@alice", "[note: https://medium.com/" + code("@alice"), 1},
		{"a letter before the scheme", "xhttps://example.com/@alice", "xhttps://example.com/" + code("@alice"), 1},
		{"an underscore in the host", "see https://x_y.example/@alice or www.x_y.com/@bob",
			"see https://x_y.example/" + code("@alice") + " or www.x_y.com/" + code("@bob"), 2},
		{"punctuation starting the host", "see https://-x.example/@alice and https://[::1]/@bob",
			"see https://-x.example/" + code("@alice") + " and https://[::1]/" + code("@bob"), 2},
		{"a // destination outside a link or tag", "a=//example.com/@alice [x](//example.com/@bob",
			"a=//example.com/" + code("@alice") + " [x](//example.com/" + code("@bob"), 2},
		{"a destination after a bracket that opens nothing", "x](//e.com/@alice)", "x](//e.com/" + code("@alice") + ")", 1},
		// cmark's HTML blocks and table rows take \v and \f as blanks; a
		// '\r' alone ends a line.
		{"an HTML block opened with a form feed", "<div\f>`@alice`\n\n<x\v>\n`@bob`",
			"<div\f>`@" + zeroWidth + "alice`\n\n<x\v>\n`@" + zeroWidth + "bob`", 2},
		{"a table's delimiter row with a vertical tab", "| h | h |\n|---|---|\v\n| `a | @alice ` |",
			"| h | h |\n|---|---|\v\n| `a | " + code("@alice") + " ` |", 1},
		{"lines ended by carriage returns alone", "`x\r\r@alice\r\r`", "`x\r\r" + code("@alice") + "\r\r`", 1},
		// A managed user's '_' and short code written otherwise still
		// render as the login.
		{"a managed login spelled with references or an escape", "@mona_&#111;cto, @carol\\_octo, @carol&#95;octo and @carol&lowbar;octo",
			code("@mona_&#111;cto") + ", " + code("@carol\\_octo") + ", " + code("@carol&#95;octo") + " and " + code("@carol&lowbar;octo"), 4},
		// Found by TestMentionsRenderedByCmarkGFM.
		{"a tag that never closes", "<a href=\"//e.com/@alice", "<a href=\"//e.com/@" + zeroWidth + "alice", 1},
		{"text after a link's destination", "[x](https://e.com)(@alice", "[x](https://e.com)(" + code("@alice"), 1},
		{"a domain the autolinker ends at an underscore", "https://e.com_~~@alice!", "https://e.com_~~" + code("@alice") + "!", 1},
		{"backticks a URL takes in", "https://a.co/`` @alice https://a.co/``", "https://a.co/`` " + code("@alice") + " https://a.co/``", 1},
		{"a code span across a lone carriage return in a table", "| a |\n|---|\n| ``x\r@alice`` |", "| a |\n|---|\n| ``x\r" + code("@alice") + "`` |", 1},
		{"an emphasis a '-' lets open", "@alice-_x_ and @bob-__y__", code("@alice-_x") + "_ and " + code("@bob-") + "__y__", 2},
		{"a managed login's '_' closing an emphasis", "__@mona_&#111;cto/>", "__" + code("@mona_&#111;cto") + "/>", 1},
		// Raw HTML has no escapes: "@mona\_octo" is @mona and a backslash.
		{"an escape in raw HTML", "<div>\n@mona\\_octo.x \\&#64;alice", "<div>\n@" + zeroWidth + "mona\\_octo.x \\&#64;" + zeroWidth + "alice", 2},
		// Links GitHub makes: the mention in them notifies no one.
		{"links", "[x] https://medium.com/@alice, [x](https://medium.com/@bob), [x](//medium.com/@dave), <https://e.com/@erin>, <a href=\"//e.com/@frank\"> and x](https://e.com/@gina)",
			"[x] https://medium.com/@alice, [x](https://medium.com/@bob), [x](//medium.com/@dave), <https://e.com/@erin>, <a href=\"//e.com/@frank\"> and x](https://e.com/@gina)", 0},
		{"an allowed user", "@carol and @carol.", "@carol and @carol.", 0},
		// In raw HTML the '@' may be in a tag, a comment or an attribute,
		// whose end a <code> would move (its '>' ends "<x @alice" and
		// leaves the mention text): a zero-width space after the '@' is
		// text anywhere.
		{"a tag in raw HTML", "<div>\n<x @alice\n\n<p>\n<https://e.com/@bob x\n\n- <div @carol_x>\n\n<div>\n</@dave <?@erin",
			"<div>\n<x @" + zeroWidth + "alice\n\n<p>\n<https://e.com/@" + zeroWidth + "bob x\n\n- <div @" + zeroWidth + "carol_x>\n\n<div>\n</@" + zeroWidth + "dave <?@" + zeroWidth + "erin", 5},
		// An escape, a reference or a tag an HTML parser drops may go on
		// with an allowed handle: it is no longer the allowed name.
		{"an allowed handle going on", "@carol\\-x @carol&#47;x @carol&UnderBar;octo @acme/triage\\_x @carol</b>-x",
			code("@carol") + "\\-x " + code("@carol") + "&#47;x " + code("@carol") + "&UnderBar;octo " + code("@acme/triage") + "\\_x " + code("@carol") + "</b>-x", 5},
		{"a tag between the '@' and the handle", "@</b>alice @<!-- -->bob", code("@") + "</b>alice " + code("@") + "<!-- -->bob", 2},
		{"an upper-case Www. is no link", "Www.e.com/@alice", "Www.e.com/" + code("@alice"), 1},
		// An HTML parser reads references without ';' and with any
		// number of digits, in raw HTML.
		{"references an HTML parser reads", "<div>\n&#64alice @&#97lice x&#32@bob x&lt@dave\n</div>",
			"<div>\n&#64" + zeroWidth + "alice @" + zeroWidth + "&#97lice x&#32@" + zeroWidth + "bob x&lt@" + zeroWidth + "dave\n</div>", 4},
		// After an open '<', a <code>'s '>' may end a declaration, a
		// processing instruction or a tag the '@' was in.
		{"after an open declaration or processing instruction", "x <?php @alice ?> y <![CDATA[ @bob ]]> z <!X @dave",
			"x <?php @" + zeroWidth + "alice ?> y <![CDATA[ @" + zeroWidth + "bob ]]> z <!X @" + zeroWidth + "dave", 3},
		{"a URL in a processing instruction", "x <?php --><noscript>http://e.com/@alice ?>", "x <?php --><noscript>http://e.com/" + code("@alice") + " ?>", 1},
		{"a <code> inside a declaration is not inert", "x <!X <code>@alice</code>", "x <!X <code>" + code("@alice") + "</code>", 1},
		// Inside some elements an HTML parser drops an emphasis' end tag,
		// and the text either side joins.
		{"an allowed handle before an emphasis' end", "*a <object>@carol*x", "*a <object>" + code("@carol") + "*x", 1},
		{"an '@' before an emphasis' end and a reference", "*a <object>@*&#98;ob", "*a <object>" + code("@") + "*&#98;ob", 1},
	})
}
