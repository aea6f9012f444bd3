package callargs

import (
	"errors"
	"regexp"
	"slices"
	"strings"
)

// ownerFlag is an owner or organization flag of gh and its value
// (--owner fleet, --org=fleet, -o fleet, -o=fleet); -ofleet, joined as
// pflag takes a shorthand's value, is read with the other joined flags.
var ownerFlag = regexp.MustCompile(`^(?:--(?:owner|org|organization)|-o)(?:=(.*))?$`)

// commandWords splits v into the words of a gh or git command line, or
// command false when v is not one. A command line here is one simple
// command (no newline, ;, | or & outside quotes: a script is not read,
// see the package documentation) of gh or git under any path or with
// .exe, after any NAME=VALUE assignments (GH_REPO=OWNER/REPO) and
// wrappers that run it (env, command, builtin, exec, nohup, time,
// timeout, nice, sudo, doas, with their flags and arguments). Its words
// are read as the shell makes them (see shellWords), each as a value; an
// owner flag's value (--owner OWNER, --org=OWNER, -o OWNER, -oOWNER) and
// gh repo list's argument (see listedOwners) are read as owners. What the
// broker cannot read from the text is refused: gh's GraphQL call (gh api
// graphql), whose document names owners in its own syntax; a command
// with a word the shell expands ($NAME, $(…), `…`, {a,b}, anywhere in
// it, a NAME=VALUE or a wrapper's argument too), since what gh or git is
// given is not in the text; and env's split string (env -S '…').
//
// searches are the texts read for a search's scope: the words but other
// gh api fields' values, a flag's value (--search=…, -Srepo:…), and the
// searches gh api's q fields assign (-f q=VALUE, --raw-field, -F,
// --field, apart or joined, after -i): gh sends a GET's fields as the
// query string, and q is the parameter GitHub's search reads, so "gh api
// -X GET search/issues -f q=repo:OWNER/REPO" searches that repository. A
// q the broker cannot read is refused: one read from a file (-F
// q=@FILE). Every field's value is a word.
func commandWords(v string) (words, searches []string, command bool, err error) {
	parts, script := shellWords(v)
	if script {
		return nil, nil, false, nil
	}
	words, searches, command, err = readCommand(parts)
	if command && err == nil && slices.ContainsFunc(parts, func(w shellWord) bool { return w.expands }) {
		return nil, nil, true, errExpands
	}
	return words, searches, command, err
}

// readCommand reads the words of a command line (see commandWords).
func readCommand(parts []shellWord) (words, searches []string, command bool, err error) {
	for len(parts) > 0 && envAssignment.MatchString(parts[0].text) {
		words = append(words, parts[0].text)
		parts = parts[1:]
	}
	if len(parts) == 0 {
		return nil, nil, false, nil
	}
	if !wrappers[programName(parts[0].text)] {
		w, s, err := programWords(parts)
		return append(words, w...), s, w != nil || err != nil, err
	}
	// Its flags, their arguments (sudo -u root, nice -n 10) and any
	// wrapper after it come before the program, which is a word naming gh
	// or git; a flag's argument may name one too (sudo -D /src/gh gh …),
	// so the command is read from each such word, and what every reading
	// finds is read. env's split string is refused (see errSplitString).
	wrapper := ""
	for k, w := range parts {
		if envAssignment.MatchString(w.text) {
			words = append(words, w.text) // env GH_REPO=OWNER/REPO
			continue
		}
		if strings.HasPrefix(w.text, "-") {
			if wrapper == "env" && splitsString(w.text) {
				return nil, nil, true, errSplitString
			}
			continue
		}
		if p := programName(w.text); wrappers[p] {
			wrapper = p
		}
		ws, ss, err := programWords(parts[k:])
		if err != nil {
			return nil, nil, true, err
		}
		if ws != nil {
			command = true
			words, searches = append(words, ws...), append(searches, ss...)
			// A bare gh or git not followed by another is the program;
			// the words after it are its arguments (gh search code gh).
			if !strings.ContainsAny(w.text, `/\`) && (k+1 == len(parts) || !isProgram(parts[k+1].text)) {
				break
			}
		}
	}
	return words, searches, command, nil
}

// maxCluster bounds the flag letters read in one short-flag word: every
// letter's rest is a search, so the bound keeps a long word's reading
// linear.
const maxCluster = 8

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// isProgram says whether w names gh or git.
func isProgram(w string) bool {
	p := programName(w)
	return p == "gh" || p == "git"
}

// programWords reads parts as a gh or git command, its program first; nil
// words when parts[0] names neither.
func programWords(parts []shellWord) (words, searches []string, err error) {
	program := programName(parts[0].text)
	if program != "gh" && program != "git" {
		return nil, nil, nil
	}
	words = []string{}
	args := parts[1:]
	api := program == "gh" && len(args) > 0 && args[0].text == "api"
	if program == "gh" {
		for _, owner := range listedOwners(args) {
			for _, owner := range strings.Split(owner, ",") {
				words = append(words, "orgs/"+owner)
			}
		}
	}
	for i := 0; i < len(args); i++ {
		w := args[i].text
		if l := strings.ToLower(w); api && (l == "graphql" || strings.HasSuffix(l, "/graphql")) {
			return nil, nil, errGraphQL
		}
		if flag, field, ok := apiField(w); ok && api {
			if field == "" && i+1 < len(args) {
				i++
				field = args[i].text
			}
			name, value, _ := strings.Cut(field, "=")
			if name == "q" {
				if strings.HasPrefix(value, "@") && (flag == "-F" || flag == "--field") {
					return nil, nil, errFieldFile
				}
				searches = append(searches, value)
			}
			// Another field's value is a word, not a search: gh sends it
			// as a parameter of its own (labels[]=org:x is a label).
			words = append(words, value)
			continue
		}
		if m := ownerFlag.FindStringSubmatch(w); m != nil && program == "gh" {
			owner := m[1]
			if !strings.Contains(w, "=") && i+1 < len(args) {
				i++
				owner = args[i].text
			}
			for _, owner := range strings.Split(owner, ",") {
				words = append(words, "orgs/"+owner) // gh search --owner a,b
			}
			continue
		}
		words = append(words, w)
		words = append(words, listParts(w)...)
		searches = append(searches, w)
		if _, value, ok := strings.Cut(w, "="); ok && strings.HasPrefix(w, "-") {
			searches = append(searches, value) // --search=…
		}
		if len(w) > 2 && w[0] == '-' && w[1] != '-' {
			// A short flag's joined value, after the flags clustered
			// before it (-Srepo:…, -dSrepo:…, -dRacme/x, -oacme,
			// -uoacme): what follows each of the first letters; -S-repo:…
			// is an exclusion. gh's -o is an owner's flag wherever gh has
			// one: what follows it is its value when it is first, or after
			// only shorthands that take no value where gh has -o (-u of
			// secret, -p and -w of ruleset: -uoacme). After another letter
			// the o may be a letter of that letter's value (-Bdevelop).
			for k := 2; k < min(len(w), maxCluster+2) && isLetter(w[k-1]); k++ {
				searches = append(searches, w[k:])
				if w[k-1] == 'R' && k > 2 {
					words = append(words, "-R"+w[k:])
				}
				if w[k-1] == 'o' && program == "gh" && strings.Trim(w[1:k-1], "upw") == "" {
					for _, owner := range strings.Split(strings.TrimPrefix(w[k:], "="), ",") {
						words = append(words, "orgs/"+owner)
					}
				}
			}
		}
	}
	return words, searches, nil
}

// listParts are the parts of w read as words of their own: each of a
// list's items (gh's list flags split their value at commas: gh search
// code -R acme/w,fleet/x searches both), and a setting's value
// (git -c remote.origin.pushurl=URL pushes to URL).
func listParts(w string) []string {
	var parts []string
	if strings.Contains(w, ",") {
		parts = strings.Split(w, ",")
	}
	if k := strings.IndexByte(w, '='); k > 0 && w[0] != '-' {
		parts = append(parts, w[k+1:])
	}
	return parts
}

// listedOwners are the owners a gh command takes as its argument: gh repo
// list OWNER (or ls). The subcommands are found as cobra finds them,
// where a flag without '=' before them takes the next word (gh repo -L 5
// list acme lists acme's), and the command's arguments as pflag reads
// them, with gh repo list's flags that take a value (repoListValues);
// every argument is read, though gh takes one.
func listedOwners(args []shellWord) []string {
	var path, owners []string
	for i := 0; i < len(args); i++ {
		w := args[i].text
		listing := len(path) == 2
		switch {
		case w == "--":
			if !listing {
				return nil
			}
			for _, a := range args[i+1:] {
				owners = append(owners, a.text)
			}
			return owners
		case len(w) > 1 && w[0] == '-':
			if !listing && !strings.Contains(w, "=") && (len(w) == 2 || w[1] == '-' && w != "--help" && w != "--version") ||
				listing && takesValueApart(w) {
				i++
			}
		case listing:
			owners = append(owners, w)
		case w == "-":
		case len(path) == 0 && w == "repo", len(path) == 1 && (w == "list" || w == "ls"):
			path = append(path, w)
		default:
			return nil
		}
	}
	return owners
}

// repoListValues are gh repo list's flags that take a value, by name and
// shorthand; its other flags are booleans.
var repoListValues = map[string]bool{"limit": true, "L": true, "language": true, "l": true, "topic": true, "visibility": true, "json": true, "jq": true, "q": true, "template": true, "t": true}

// takesValueApart says whether w is a flag of gh repo list whose value is
// the next word, as pflag reads it: --limit, or a cluster of shorthands
// whose first one that takes a value ends it (-L, -hL).
func takesValueApart(w string) bool {
	if name, long := strings.CutPrefix(w, "--"); long {
		return !strings.Contains(name, "=") && repoListValues[name]
	}
	for k := 1; k < len(w); k++ {
		if repoListValues[w[k:k+1]] {
			return k == len(w)-1
		}
	}
	return false
}

// programName is the program a command word runs: its base name, lower
// case, without .exe.
func programName(w string) string {
	p := strings.ToLower(w)
	return strings.TrimSuffix(p[strings.LastIndexAny(p, `/\`)+1:], ".exe")
}

// wrappers are programs that run the command after them.
var wrappers = map[string]bool{"env": true, "command": true, "builtin": true, "exec": true, "nohup": true, "time": true, "timeout": true, "nice": true, "sudo": true, "doas": true}

// splitsString says whether w, a flag of env, is its split-string
// option: -S alone, with its value joined (-S'…') or after flags
// clustered before it (-iS), or --split-string, which getopt also takes
// abbreviated (--spl) and with '='. A letter that takes a value ends a
// cluster: -uS unsets S.
func splitsString(w string) bool {
	if name, long := strings.CutPrefix(w, "--"); long {
		name, _, _ = strings.Cut(name, "=")
		return name != "" && strings.HasPrefix("split-string", name)
	}
	for _, c := range w[1:] {
		if c == 'S' {
			return true
		}
		if strings.ContainsRune("uCaPL", c) {
			return false
		}
	}
	return false
}

// errSplitString refuses env's split string (env -S 'gh repo view
// OWNER/REPO'): env splits it into the command by rules of its own (\_
// is a blank, ${NAME} expands), which are not the shell's.
var errSplitString = errors.New("holds env -S (--split-string), a command line env splits by rules of its own, which the broker does not read: write the command without env -S")

// apiField reads w as a field flag of gh api and, when joined to it, the
// field: -f q=VALUE is apart; -fq=VALUE, -f=q=VALUE and
// --raw-field=q=VALUE are joined, as pflag reads them, and so is -if
// (-i, --include, is gh api's one shorthand that takes no value, so it
// may come first in a cluster of them).
func apiField(w string) (flag, field string, ok bool) {
	if len(w) > 2 && w[0] == '-' && w[1] == 'i' {
		w = "-" + strings.TrimLeft(w[1:], "i")
	}
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

// errExpands refuses a gh or git command with a word the shell expands
// (-R $REPO, q=$(cat q.txt)): what gh or git is given is not in the
// text, so which owner it names cannot be read.
var errExpands = errors.New("holds a gh or git command with a word the shell expands ($NAME, ${…}, $(…), `…`, {a,b}), whose value the broker cannot read: write the value itself (a '$' meant literally goes in single quotes)")

// errFieldFile refuses gh api's field read from a file (-F q=@FILE).
var errFieldFile = errors.New("holds a gh api field read from a file (-F NAME=@FILE), whose value the broker cannot read: write the value itself")

// envAssignment is a shell's NAME=VALUE before a command, or an
// environment entry.
var envAssignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)
