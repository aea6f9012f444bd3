package callargs

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// FuzzCommandWords reads any text as a command line: the reader never
// panics, refuses a line for a word the shell expands only when the
// line holds what expands ($, `, {), and reads every owner gh repo list
// takes among the line's words (each of a comma list).
func FuzzCommandWords(f *testing.F) {
	for _, s := range []string{
		`gh repo view {fleet,acme}/x`,
		`gh issue list -R "$(echo acme/x)"`,
		"gh issue list -R `echo acme/x`",
		`gh repo -L 5 list acme`,
		`gh secret list -uoacme`,
		`env -iS'gh repo view acme/x'`,
		`sudo -u ci gh repo list -- acme`,
		`gh issue list -R acme/w --search 'cost:$5'`,
		`gh api -X GET search/issues -f q=$'repo\x3aacme/x'`,
		`gh repo list ,0000`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		words, _, command, err := commandWords(line)
		if errors.Is(err, errExpands) && !strings.ContainsAny(line, "$`{") {
			t.Fatalf("%q: refused as expanding, but holds no $, ` or {", line)
		}
		if !command || err != nil {
			return
		}
		parts, _ := shellWords(line)
		for k, p := range parts {
			if isProgram(p.text) && programName(p.text) == "gh" {
				for _, owners := range listedOwners(parts[k+1:]) {
					for _, owner := range strings.Split(owners, ",") { // gh splits a list at commas
						if !slices.Contains(words, "orgs/"+owner) {
							t.Fatalf("%q: gh repo list's %q is not read", line, owner)
						}
					}
				}
				break
			}
		}
	})
}
