package outbound

import (
	"encoding/json"
	"strings"
	"testing"
)

// allOn is every rewriting rule at once, with an allowlist.
var allOn = Rules{
	Mentions:        Neutralize,
	AllowedMentions: []string{"alice"},
	SlashCommands:   Neutralize,
	LinkDomains:     []string{"github.com", "githubusercontent.com"},
}

// quiet are texts an agent writes that have nothing for any rule to
// change: every rule on, each comes back byte for byte, counting nothing.
var quiet = []string{
	"",
	"Closing as a duplicate of #12.",
	"Thanks, @alice! Reproduced on main; see https://github.com/acme/widgets/issues/12#issuecomment-1.",
	"Mail ops@example.com, or read docs/setup.md and /etc/hosts.",
	"Fixed in 4196919fb12cc4aa8ec0159a746c1e03b4ffa89c.\n\nGITHUB_SHA=4196919fb12cc4aa8ec0159a746c1e03b4ffa89c",
	"## Steps\n\n1. Install:\n   ```sh\n   npm i @types/node\n   ```\n2. Run `npx tsc --project @scope/pkg`.\n",
	"```java\n@Override\npublic String toString() { return \"@x\"; }\n```\n",
	"| name | value |\n|------|-------|\n| `@x` | 1 |\n",
	"<details>\n<summary>Log</summary>\n\n```\n/close @bob https://evil.example\n```\n\n</details>\n",
	"![screenshot](https://user-images.githubusercontent.com/1/2.png)\n\n> quoted @alice\n",
	"Use `/close` to close, or write it as `/close` at a line's start.\n",
	"Paths: /usr/bin/env, /tmp/x\n  /1 /2\n",
	"Python: @pytest.fixture and @dataclass.field; emails: a.b@c.org.",
	"token: ${{ secrets.GITHUB_TOKEN }}\npassword: $PASSWORD\n",
	"mixed\r\nline endings\r\n`@x`\r\n",
	"unicode: café @alice ☃ https://github.com/☃",
}

func TestApplyLeavesQuietTextByteIdentical(t *testing.T) {
	for _, text := range quiet {
		for _, rules := range []Rules{{}, allOn} {
			out, counts, sec := rules.Apply("body", text)
			if sec != nil {
				t.Errorf("%q: found %s at %d", text, sec.Kind, sec.Offset)
			}
			if out != text {
				t.Errorf("Apply(%q) = %q, want it unchanged", text, out)
			}
			if !counts.Zero() {
				t.Errorf("Apply(%q) counts %+v, want none", text, counts)
			}
		}
	}
}

func TestApplyFooter(t *testing.T) {
	rules := Rules{Footer: "— written by an agent through ghgate\n"}
	const foot = "— written by an agent through ghgate"
	for _, c := range []struct{ field, in, want string }{
		{"body", "Done.", "Done.\n\n" + foot},
		{"body", "Done.\n\n\n", "Done.\n\n" + foot},
		{"comment", "", foot},
		{"changes.body", "x", "x\n\n" + foot},
		{"body", "Done.\n\n" + foot, "Done.\n\n" + foot},
		{"body", "Done.\n\n" + foot + "\n", "Done.\n\n" + foot},
		{"title", "A title", "A title"},
		{"bodyish", "x", "x"},
	} {
		out, counts, sec := rules.Apply(c.field, c.in)
		if sec != nil {
			t.Errorf("%s %q: found %s at %d, want no secret", c.field, c.in, sec.Kind, sec.Offset)
		}
		if !counts.Zero() {
			t.Errorf("%s %q: counts = %+v, want none", c.field, c.in, counts)
		}
		if out != c.want {
			t.Errorf("%s %q: Apply = %q, want %q", c.field, c.in, out, c.want)
		}
	}
}

// TestApplyFooterNotRewritten: the footer is the operator's, so a
// mention in it stays, and text already carrying it is rewritten alone.
func TestApplyFooterNotRewritten(t *testing.T) {
	rules := Rules{Mentions: Neutralize, Footer: "cc @ops-bot"}
	out, counts, _ := rules.Apply("body", "hi @bob")
	if want := "hi " + code("@bob") + "\n\ncc @ops-bot"; out != want {
		t.Fatalf("Apply = %q, want %q", out, want)
	}
	if counts.Mentions != 1 {
		t.Fatalf("Apply counted %d mentions, want 1", counts.Mentions)
	}
	again, counts, _ := rules.Apply("body", out)
	checkUnchanged(t, "applied twice", again, out, counts, nil)
}

func TestCountsJSON(t *testing.T) {
	for _, c := range []struct {
		counts Counts
		want   string
	}{
		{Counts{}, `{}`},
		{Counts{Mentions: 2}, `{"mentions":2}`},
		{Counts{Mentions: 1, SlashCommands: 2, Links: 3}, `{"mentions":1,"slash_commands":2,"links":3}`},
	} {
		b, err := json.Marshal(c.counts)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != c.want {
			t.Errorf("json(%+v) = %s, want %s", c.counts, b, c.want)
		}
	}
}

func TestValidate(t *testing.T) {
	on := true
	for _, c := range []struct {
		name  string
		rules Rules
		want  []string // pieces of the error; none: valid
	}{
		{"the zero value", Rules{}, nil},
		{"everything set", Rules{Mentions: Allow, SlashCommands: Neutralize, AllowedMentions: []string{"alice", "Octo-Cat", "acme/triage_team-2", "mona-cat_octo", "octo_admin"},
			LinkDomains: []string{"github.com", "Docs.Example.ORG", "localhost"}, SecretScan: &on, Footer: "— bot"}, nil},
		{"a mode misspelt", Rules{Mentions: "neutralise"}, []string{`mentions = "neutralise"`, `want "allow" or "neutralize"`}},
		{"a slash mode unknown", Rules{SlashCommands: "off"}, []string{`slash_commands = "off"`}},
		{"a handle with @", Rules{AllowedMentions: []string{"@alice"}}, []string{`allowed_mentions[0] = "@alice"`, "without '@'"}},
		{"bad handles", Rules{AllowedMentions: []string{"ok", "-alice", "al--ice", "alice-", strings.Repeat("a", 40), "acme/", "acme/-x", "",
			"mona_", "_octo", "mona_oc-to", "mona_octo_x", "acme_x/triage", strings.Repeat("a", 35) + "_octo"}},
			[]string{"allowed_mentions[1]", "allowed_mentions[2]", "allowed_mentions[3]", "allowed_mentions[4]", "allowed_mentions[5]", "allowed_mentions[6]", "allowed_mentions[7]",
				"allowed_mentions[8]", "allowed_mentions[9]", "allowed_mentions[10]", "allowed_mentions[11]", "allowed_mentions[12]", "allowed_mentions[13]"}},
		{"bad domains", Rules{LinkDomains: []string{"https://github.com", "github.com/x", "github.com:443", "*.github.com", ".github.com", "-x.com", "", "a..b"}},
			[]string{"link_domains[0]", "link_domains[1]", "link_domains[2]", "link_domains[3]", "link_domains[4]", "link_domains[5]", "link_domains[6]", "link_domains[7]"}},
		{"a credential in the footer", Rules{Footer: "by " + credentialSet[0].text}, []string{"footer holds a credential-shaped string (github_token at byte 3)"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.rules.Validate()
			if len(c.want) == 0 {
				if err != nil {
					t.Errorf("Validate = %v, want nil", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Validate = nil, want an error naming %q", c.want)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Validate = %v, want it to name %q", err, w)
				}
			}
			if strings.Contains(err.Error(), credentialSet[0].text) {
				t.Errorf("Validate's error holds the credential")
			}
		})
	}
}
