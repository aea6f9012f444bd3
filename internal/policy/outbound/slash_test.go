package outbound

import "testing"

func TestSlashCommandsNeutralized(t *testing.T) {
	rules := Rules{SlashCommands: Neutralize}
	checkRewrites(t, rules, func(c Counts) int { return c.SlashCommands }, []rewriteCase{
		{"a command alone", "/close", "`/close`", 1},
		{"with arguments", "/assign @alice\n/label bug", "`/assign` @alice\n`/label` bug", 2},
		{"indented", "  /lgtm\n\t/ok-to-test", "  `/lgtm`\n\t`/ok-to-test`", 2},
		{"with punctuation", "/close.\n/hold!", "`/close`.\n`/hold`!", 2},
		{"among other lines", "Thanks!\n/cherry-pick release-1.0\nBye", "Thanks!\n`/cherry-pick` release-1.0\nBye", 1},
		{"beside code spans", "/close `x` and ``y``", "```/close``` `x` and ``y``", 1},
		{"carriage returns", "ok\r\n/close\r\n", "ok\r\n`/close`\r\n", 1},
		// Left alone.
		{"not at a line's start", "please /close this", "please /close this", 0},
		{"a path", "/usr/bin/env bash\n/etc/hosts", "/usr/bin/env bash\n/etc/hosts", 0},
		{"no command", "/ 2\n//comment\n/1st\n/", "/ 2\n//comment\n/1st\n/", 0},
		{"in a fence", "```\n/close\n```", "```\n/close\n```", 0},
		{"already neutral", "`/close`", "`/close`", 0},
	})
}

// TestRulesTogether: a slash command's line holding a mention and a
// foreign link has each rewritten once, in an order none undoes.
func TestRulesTogether(t *testing.T) {
	rules := Rules{Mentions: Neutralize, SlashCommands: Neutralize, LinkDomains: []string{"github.com"}}
	checkRewrites(t, rules, func(c Counts) int { return c.Mentions*100 + c.SlashCommands*10 + c.Links }, []rewriteCase{
		{"all three", "/assign @alice see https://evil.example/@bob", "``/assign`` " + code("@alice") + " see `evil.example/@bob`", 111},
		{"an allowed link keeps its mention-like path", "/cc https://github.com/@alice", "`/cc` https://github.com/@alice", 10},
	})
}
