package callargs

import (
	"regexp"
	"slices"
	"strings"
)

// repoFlag is gh's repository flag and its value, in any text.
var repoFlag = regexp.MustCompile(`(?:^|\s)(?:-R|--repo)(?:=|\s+)?(\S+)`)

// ownerFlag is an owner or organization flag of gh and its value
// (--owner fleet, --org=fleet).
var ownerFlag = regexp.MustCompile(`^--?(?:owner|org|organization|user)(?:=(.*))?$`)

// commands are the programs whose command lines name repositories in
// their words.
var commands = []string{"gh", "git", "curl", "wget", "http", "https"}

// commandWords splits v into the words of the command lines it holds
// (commands joined by &&, ||, ; or |, each after any NAME=VALUE
// assignments, its program gh, git, curl or wget under any path or with
// .exe), or command false when it holds none. Each word is read as a
// value: an assignment's value (GH_REPO=OWNER/REPO), a flag's value
// (--owner=OWNER, --org OWNER: the owner alone). gh's GraphQL call (gh api
// graphql) is refused: its document names owners in its own syntax.
func commandWords(v string) (words []string, command bool, err error) {
	for _, line := range strings.FieldsFunc(v, func(r rune) bool { return r == ';' || r == '|' || r == '&' }) {
		fields := strings.Fields(line)
		for len(fields) > 0 && envAssignment.MatchString(fields[0]) {
			words = append(words, fields[0])
			fields = fields[1:]
		}
		if len(fields) == 0 {
			continue
		}
		program := strings.ToLower(fields[0][strings.LastIndexAny(fields[0], `/\`)+1:])
		if !slices.Contains(commands, strings.TrimSuffix(program, ".exe")) {
			continue
		}
		command = true
		for i, w := range fields[1:] {
			if strings.EqualFold(w, "graphql") {
				return nil, true, errGraphQL
			}
			if m := ownerFlag.FindStringSubmatch(w); m != nil {
				owner := m[1]
				if m[1] == "" && i+2 < len(fields) {
					owner = fields[i+2]
				}
				words = append(words, "orgs/"+strings.Trim(owner, `"'`))
				continue
			}
			words = append(words, strings.Trim(w, `"'`))
		}
	}
	return words, command, nil
}

// envAssignment is a shell's NAME=VALUE before a command, or an
// environment entry.
var envAssignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)
