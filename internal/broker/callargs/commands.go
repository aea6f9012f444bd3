package callargs

import (
	"errors"
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
//
// fields are the searches gh api's q fields assign (-f q=VALUE,
// --raw-field, -F, --field, joined or apart), read as search text: gh
// sends a GET's fields as the query string, and q is the parameter
// GitHub's search reads, so "gh api -X GET search/issues -f
// q=repo:OWNER/REPO" searches that repository. A q read from a file
// (-F q=@FILE) is refused: what it holds cannot be read; so is one with
// shell quoting inside it. Every field's value is also a word.
func commandWords(v string) (words, fields []string, command bool, err error) {
	if strings.ContainsAny(v, "\n\r;|&") {
		return nil, nil, false, nil
	}
	parts := strings.Fields(v)
	for len(parts) > 0 && envAssignment.MatchString(parts[0]) {
		words = append(words, parts[0])
		parts = parts[1:]
	}
	if len(parts) == 0 {
		return nil, nil, false, nil
	}
	program := strings.ToLower(strings.Trim(parts[0], `"'`))
	program = strings.TrimSuffix(program[strings.LastIndexAny(program, `/\`)+1:], ".exe")
	if program != "gh" && program != "git" {
		return nil, nil, false, nil
	}
	args := parts[1:]
	for i := 0; i < len(args); i++ {
		w := strings.Trim(args[i], `"'`)
		api := program == "gh" && args[0] == "api"
		if l := strings.ToLower(w); api && (l == "graphql" || strings.HasSuffix(l, "/graphql")) {
			return nil, nil, true, errGraphQL
		}
		if flag, field, ok := apiField(w); ok && api {
			if field == "" && i+1 < len(args) {
				i++
				field = strings.Trim(args[i], `"'`)
			}
			name, value, _ := strings.Cut(field, "=")
			if name == "q" {
				if strings.HasPrefix(value, "@") && (flag == "-F" || flag == "--field") {
					return nil, nil, true, errFieldFile
				}
				// A quote opening the value is the shell's (q='is:open
				// org:acme', the rest in the words after); one inside it
				// is not read.
				if strings.ContainsAny(strings.TrimLeft(value, `"'`), "\\'\"$`") {
					return nil, nil, true, errFieldQuoted
				}
				fields = append(fields, strings.TrimLeft(value, `"'`))
			}
			words = append(words, value)
			continue
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
	return words, fields, true, nil
}

// apiField reads w as a field flag of gh api and, when joined to it, the
// field: -f q=VALUE is apart; -fq=VALUE, -f=q=VALUE and
// --raw-field=q=VALUE are joined, as pflag reads them.
func apiField(w string) (flag, field string, ok bool) {
	for _, long := range []string{"--raw-field", "--field"} {
		if w == long {
			return long, "", true
		}
		if rest, joined := strings.CutPrefix(w, long+"="); joined {
			return long, rest, true
		}
	}
	for _, short := range []string{"-f", "-F"} {
		if rest, found := strings.CutPrefix(w, short); found {
			return short, strings.TrimPrefix(rest, "="), true
		}
	}
	return "", "", false
}

// errFieldQuoted refuses gh api's q with shell quoting or expansion inside
// it (q=repo\:OWNER/REPO, a quote within the value, q=$'…'), which the shell takes away
// before gh sends it and the broker does not undo.
var errFieldQuoted = errors.New("holds a gh api search (q=) with shell quoting or expansion inside it, which the broker does not undo: write the search plainly")

// errFieldFile refuses gh api's field read from a file (-F q=@FILE).
var errFieldFile = errors.New("holds a gh api field read from a file (-F NAME=@FILE), whose value the broker cannot read: write the value itself")

// envAssignment is a shell's NAME=VALUE before a command, or an
// environment entry.
var envAssignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)
