package callargs

import (
	"regexp"
	"strings"
)

// ownerFlag is an owner or organization flag of gh and its value
// (--owner fleet, --org=fleet, -o fleet).
var ownerFlag = regexp.MustCompile(`^(?:--(?:owner|org|organization)|-o)(?:=(.*))?$`)

// commandWords splits v into the words of a gh or git command line, or
// command false when v is not one. A command line here is one line
// (no newline, ;, | or &: a script is not read, see the package
// documentation) of gh or git under any path or with .exe, after any
// NAME=VALUE assignments (GH_REPO=OWNER/REPO). Each word is read as a
// value, quotes removed; an owner flag's value (--owner OWNER, --org=OWNER,
// -o OWNER) is read as the owner. gh's GraphQL call (gh api graphql) is
// refused: its document names owners in its own syntax.
func commandWords(v string) (words []string, command bool, err error) {
	if strings.ContainsAny(v, "\n\r;|&") {
		return nil, false, nil
	}
	fields := strings.Fields(v)
	for len(fields) > 0 && envAssignment.MatchString(fields[0]) {
		words = append(words, fields[0])
		fields = fields[1:]
	}
	if len(fields) == 0 {
		return nil, false, nil
	}
	program := strings.ToLower(strings.Trim(fields[0], `"'`))
	program = strings.TrimSuffix(program[strings.LastIndexAny(program, `/\`)+1:], ".exe")
	if program != "gh" && program != "git" {
		return nil, false, nil
	}
	args := fields[1:]
	for i := 0; i < len(args); i++ {
		w := strings.Trim(args[i], `"'`)
		if l := strings.ToLower(w); program == "gh" && args[0] == "api" && (l == "graphql" || strings.HasSuffix(l, "/graphql")) {
			return nil, true, errGraphQL
		}
		if m := ownerFlag.FindStringSubmatch(w); m != nil && program == "gh" {
			owner := m[1]
			if !strings.Contains(w, "=") && i+1 < len(args) {
				i++
				owner = args[i]
			}
			words = append(words, "orgs/"+strings.Trim(owner, `"'`))
			continue
		}
		words = append(words, w)
	}
	return words, true, nil
}

// envAssignment is a shell's NAME=VALUE before a command, or an
// environment entry.
var envAssignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)
