package callargs

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/net/idna"

	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/percent"
)

// errDotSegments refuses a GitHub URL, remote or path whose path holds "."
// or "..": clients resolve them (curl, git, fetch, Python's urllib3) where
// Go's net/http does not, so which owner it reaches cannot be read.
var errDotSegments = errors.New(`holds a GitHub URL, remote or path with "." or ".." segments: which repository it reaches depends on the client`)

// errEnterprise refuses a URL or path of the enterprise API: it reaches
// every organization of an enterprise, which no one owner's route bounds.
var errEnterprise = errors.New("names an enterprise, whose scope (every organization in it) no owner's route bounds")

// found is one owner (and repository, "" when none) a text names.
type found struct{ owner, repo string }

// hosts says which hosts are GitHub's: any whose name holds "github"
// (github.com, api.github.com, raw.githubusercontent.com, a GitHub
// Enterprise server named so), GHE.com's (*.ghe.com), and the hosts
// listed (the GitHub Enterprise server the broker is configured for) with
// every host below them (api., uploads., raw. of it).
type hosts []string

func (h hosts) gitHub(host string) bool {
	for _, name := range hostReadings(host) {
		if strings.Contains(name, "github") || name == "ghe.com" || strings.HasSuffix(name, ".ghe.com") {
			return true
		}
		if slices.ContainsFunc(h, func(own string) bool { return name == own || strings.HasSuffix(name, "."+own) }) {
			return true
		}
	}
	return false
}

// hostReadings are the names a client may take host for: as written, in
// lower case, and as a WHATWG URL parser maps it (percent escapes
// decoded, then UTS #46: full-width letters and dots folded, soft hyphens
// and other ignorable characters dropped), each without a trailing dot.
// Reading a host as GitHub's by any of them can only refuse more.
func hostReadings(host string) []string {
	lower := strings.ToLower(host)
	mapped, _ := idna.Lookup.ToASCII(percent.Decode(host)) // on error, what it could map
	var out []string
	for _, h := range []string{lower, strings.ToLower(mapped)} {
		h = strings.TrimSuffix(h, ".")
		if !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	return out
}

// readText reads what a whole string value names when no key says it
// holds a name: a GitHub web, API or raw URL (any scheme, or none:
// github.com/OWNER/REPO, //github.com/…), the search qualifiers in its
// query string, a git remote ([USER@]HOST:OWNER/REPO, [HOST:PORT]:…,
// TRANSPORT::URL), an API path (/repos/OWNER/REPO/…, repos/…, "GET
// /orgs/OWNER", search/issues?q=…), OWNER/REPO with anything after it
// (#12, @SHA, /issues/1, ?ref=…, :file), a gh command line or flag
// (gh repo view OWNER/REPO, --repo=OWNER/REPO, -ROWNER/REPO), and the
// scope qualifiers of a search. Other text names nothing; a GitHub URL,
// remote or path whose path cannot be read is an error.
func (h hosts) readText(v string) ([]found, error) {
	v = trimmed(v)
	var out []found
	add := func(f []found, err error) error {
		out = append(out, f...)
		return err
	}
	words, command, err := commandWords(v)
	if err != nil {
		return nil, err
	}
	if !command {
		words = []string{v}
	}
	for _, word := range words {
		if err := add(h.readWord(word)); err != nil {
			return nil, err
		}
	}
	// A repository flag names its repository in any text ("issue list -R
	// OWNER/REPO", "--repo OWNER/REPO").
	for _, m := range repoFlag.FindAllStringSubmatch(v, -1) {
		if err := add(h.readWord(m[1])); err != nil {
			return nil, err
		}
	}
	for _, r := range scopeRefs(v) {
		out = append(out, refFound(r))
	}
	return out, nil
}

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

// errGraphQL refuses a GraphQL document: it names what it acts on in its
// own syntax (repository(owner: …)), which the broker does not read.
var errGraphQL = errors.New("holds a GraphQL document or call, whose owners the broker does not read: call a tool that takes the owner and repository as arguments")

// readWord reads one value or word: the forms readText lists but the
// command line and the free-standing qualifiers.
func (h hosts) readWord(v string) ([]found, error) {
	if loc := envAssignment.FindStringIndex(v); loc != nil {
		v = v[loc[1]:] // GH_REPO=OWNER/REPO
	}
	for _, flag := range []string{"--repo=", "-R=", "-R"} {
		if rest, ok := strings.CutPrefix(v, flag); ok {
			v = rest
			break
		}
	}
	if _, address, ok := strings.Cut(v, "::"); ok && validScheme(v[:strings.Index(v, "::")]) {
		v = address // git's TRANSPORT::ADDRESS remote-helper form
	}
	if f, isURL, err := h.readURL(v); isURL || err != nil {
		return f, err
	}
	if f, isRemote, err := h.readRemote(v); isRemote || err != nil {
		return f, err
	}
	if f, isPath, err := readAPIPath(v, ""); isPath || err != nil {
		return f, err
	}
	return readOwnerRepo(v)
}

// readPathText reads a text under a key that holds a path or a ref (see
// pathKind): a whole GitHub URL, remote or rooted API path only, which
// no path inside a repository is.
func (h hosts) readPathText(v string) ([]found, error) {
	v = trimmed(v)
	if f, isURL, err := h.readSchemeURL(v); isURL || err != nil {
		return f, err
	}
	if f, _, err := h.readRemote(v); len(f) > 0 || err != nil {
		// A remote of another host may still be OWNER:BRANCH, below.
		return f, err
	}
	if strings.HasPrefix(v, "/") || strings.HasPrefix(v, `\`) {
		f, _, err := readAPIPath(v, "")
		return f, err
	}
	if !strings.ContainsAny(v, "@:") {
		return nil, nil
	}
	// OWNER/REPO/PATH@REF (a reusable workflow's uses:), OWNER/REPO@SHA,
	// OWNER/REPO:PATH, and OWNER:BRANCH (a fork's branch, as compare and
	// head take it) name their owner; a path or branch has neither.
	if f, err := readOwnerRepo(v); len(f) > 0 || err != nil {
		return f, err
	}
	if owner, _, fork := strings.Cut(v, ":"); fork && len(owner) > 1 && github.CheckOwner(owner) == nil {
		return []found{{owner, ""}}, nil
	}
	return nil, nil
}

// trimmed is v as a reader trims it: white space, control and format
// characters (no-break and ideographic spaces, a byte order mark)
// removed from the ends, and tabs and newlines, which a WHATWG URL
// parser drops, from within.
func trimmed(v string) string {
	v = strings.TrimFunc(v, func(r rune) bool { return r <= ' ' || unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) })
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, v)
}

// readURL reads v as a URL if it is one: with a scheme, protocol-relative
// (//HOST/…), or a GitHub host's name followed by a path
// (github.com/OWNER/REPO, as gh -R and Go import paths write it). Each
// reading a client may make is tried (see urlReadings); a URL names
// something when a GitHub host's is among them.
func (h hosts) readURL(v string) (f []found, isURL bool, err error) {
	return h.readURLs(urlReadings(v, true))
}

// readSchemeURL reads v as a URL only when it has a scheme or starts with
// //: a path key's "github.com/x" is a directory.
func (h hosts) readSchemeURL(v string) (f []found, isURL bool, err error) {
	return h.readURLs(urlReadings(v, false))
}

func (h hosts) readURLs(readings []string) (f []found, isURL bool, err error) {
	for _, u := range readings {
		host, path, query, ok := urlParts(u)
		if !ok {
			continue
		}
		isURL = true
		if !h.gitHub(host) && !enterpriseAPIPath(path) {
			continue
		}
		f, err = nameInURLPath(host, path)
		if err != nil {
			return nil, true, err
		}
		for _, r := range scopeRefs(strings.NewReplacer("&", " ", "=", " ").Replace(query)) {
			f = append(f, refFound(r))
		}
		return f, true, nil
	}
	return nil, isURL, nil
}

// urlReadings are the URLs v may be taken for. A WHATWG parser (Node,
// browsers) takes a backslash for a slash in a URL of a special scheme;
// curl and Python's urllib do not, so https://x\@github.com/… reaches
// github.com there: both are read. A value with no scheme is read as
// https when it starts with // (or /\, \/, \\, which Node resolves
// alike), and, with schemeless, when it starts with a host name and an
// optional port (github.com/OWNER/REPO, github.com:443/…, as curl and
// gh -R take them).
func urlReadings(v string, schemeless bool) []string {
	if len(v) >= 2 && strings.ContainsRune(`/\`, rune(v[0])) && strings.ContainsRune(`/\`, rune(v[1])) {
		v = "https://" + v[2:]
	} else if schemeless && hostFirst(v) {
		v = "https://" + v
	}
	scheme, _, ok := strings.Cut(v, ":")
	if !ok || !specialScheme(scheme) || !strings.Contains(v, `\`) {
		return []string{v}
	}
	return []string{strings.ReplaceAll(v, `\`, "/"), v}
}

// hostFirst reports whether v starts with [USER@]HOST[:PORT]/ where HOST
// is a domain name (dot-separated labels of letters, digits and hyphens,
// the last alphabetic), so "docs/readme.md", ".github/workflows" and a
// sentence do not.
func hostFirst(v string) bool {
	first, _, found := strings.Cut(v, "/")
	if !found {
		return false
	}
	if i := strings.LastIndex(first, "@"); i >= 0 {
		first = first[i+1:]
	}
	host, port, hasPort := strings.Cut(first, ":")
	if hasPort && (port == "" || strings.Trim(port, "0123456789") != "") {
		return false
	}
	labels := strings.Split(host, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" || strings.Trim(strings.ToLower(l), "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
			return false
		}
	}
	return strings.Trim(strings.ToLower(labels[len(labels)-1]), "abcdefghijklmnopqrstuvwxyz") == ""
}

// specialScheme reports whether a WHATWG URL parser treats scheme as
// special: its URLs always have a host, found after any number of
// slashes ("https:github.com/x" is https://github.com/x).
func specialScheme(scheme string) bool {
	switch strings.ToLower(scheme) {
	case "http", "https", "ws", "wss", "ftp":
		return true
	}
	return false
}

// urlParts splits a URL as a WHATWG URL parser does: a scheme, then for a
// special scheme the host after any slashes, for any other the host after
// "//"; user information and port dropped; the path up to a query or
// fragment, and the query. ok is false for anything else (OWNER/REPO, a
// remote in scp form, a search qualifier such as repo:OWNER/REPO).
func urlParts(v string) (host, path, query string, ok bool) {
	scheme, rest, found := strings.Cut(v, ":")
	if !found || !validScheme(scheme) {
		return "", "", "", false
	}
	if specialScheme(scheme) {
		rest = strings.TrimLeft(rest, `/\`)
	} else if after, slashes := strings.CutPrefix(rest, "//"); slashes {
		rest = after
	} else {
		return "", "", "", false
	}
	authority := rest
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		authority, path = rest[:i], rest[i:]
	}
	if i := strings.IndexByte(path, '#'); i >= 0 {
		path = path[:i]
	}
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path, query = path[:i], path[i+1:]
	}
	if i := strings.LastIndex(authority, "@"); i >= 0 {
		authority = authority[i+1:]
	}
	return hostOf(authority), path, query, true
}

// hostOf is the host of HOST[:PORT] or [HOST]:PORT.
func hostOf(hostport string) string {
	if strings.HasPrefix(hostport, "[") {
		if i := strings.Index(hostport, "]"); i >= 0 {
			return hostport[:i+1]
		}
	}
	host, _, _ := strings.Cut(hostport, ":")
	return host
}

// validScheme reports whether s is a URL scheme: a letter, then letters,
// digits, '+', '-' or '.'.
func validScheme(s string) bool {
	for i, r := range s {
		letter := 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
		if !letter && (i == 0 || !('0' <= r && r <= '9' || r == '+' || r == '-' || r == '.')) {
			return false
		}
	}
	return s != ""
}

// readRemote reads v as a git remote in scp form, as git reads one:
// [USER@]HOST:PATH with no "/" before the first ':' and a host that is not
// a single letter (a Windows drive), or [USER@][HOST:PORT]:PATH.
func (h hosts) readRemote(v string) (f []found, isRemote bool, err error) {
	var host, path string
	if i := strings.Index(v, "["); i >= 0 && !strings.Contains(v[:i], "/") {
		end := strings.Index(v, "]:")
		if end < i {
			return nil, false, nil
		}
		host, path = hostOf(strings.TrimSuffix(strings.TrimPrefix(v[i:end+1], "["), "]")), v[end+2:]
		if at := strings.LastIndex(host, "@"); at >= 0 {
			host = host[at+1:]
		}
	} else {
		before, rest, found := strings.Cut(v, ":")
		if !found || strings.Contains(before, "/") {
			return nil, false, nil
		}
		host, path = before, rest
		if at := strings.LastIndex(before, "@"); at >= 0 {
			host = before[at+1:]
		}
		if len(host) < 2 {
			return nil, false, nil
		}
	}
	if !h.gitHub(host) {
		return nil, true, nil
	}
	segs := strings.Split(strings.TrimSuffix(strings.TrimPrefix(path, "/"), ".git"), "/")
	if slices.Contains(segs, ".") || slices.Contains(segs, "..") {
		return nil, true, errDotSegments
	}
	if o, r, ok := ownerRepo(segs); ok {
		f = []found{{o, r}}
	}
	return f, true, nil
}

// apiMethod is an HTTP method written before a path ("GET /repos/…", as
// Octokit's routes are).
var apiMethod = regexp.MustCompile(`^(?i:GET|HEAD|POST|PUT|PATCH|DELETE)\s+`)

// readAPIPath reads v as a GitHub API path relative to the API's root:
// /repos/OWNER/REPO/…, repos/OWNER/REPO, /orgs/OWNER, users/OWNER,
// /api/v3/…, a search path with its q (search/issues?q=…), after any
// method. host is the path's host when known ("" for none).
func readAPIPath(v, host string) (f []found, isPath bool, err error) {
	v = apiMethod.ReplaceAllString(v, "")
	path, query, _ := strings.Cut(v, "?")
	segs := pathSegments(strings.ReplaceAll(path, `\`, "/"))
	if slices.Contains(segs, ".") || slices.Contains(segs, "..") {
		if slices.ContainsFunc(segs, func(s string) bool { return slices.Contains(apiRoots, strings.ToLower(s)) }) {
			return nil, true, errDotSegments
		}
		return nil, false, nil
	}
	if len(segs) >= 2 && strings.EqualFold(segs[0], "api") && strings.EqualFold(segs[1], "v3") {
		segs = segs[2:]
	}
	if len(segs) == 0 || !slices.Contains(apiRoots, strings.ToLower(segs[0])) {
		return nil, false, nil
	}
	if f, err = apiNames(segs); err != nil {
		return nil, true, err
	}
	for _, r := range scopeRefs(strings.NewReplacer("&", " ", "=", " ").Replace(query)) {
		f = append(f, refFound(r))
	}
	return f, true, nil
}

// apiRoots are the first segments of the API paths readAPIPath reads.
var apiRoots = []string{"repos", "orgs", "users", "search", "enterprises", "scim"}

// readOwnerRepo reads OWNER/REPO at the start of v, whatever follows it:
// the references GitHub links (#12, @SHA), a path below the repository
// (/issues/1, /.github/workflows/ci.yml@main), a query (?ref=main) or a
// file (:README.md); percent escapes decoded first, as GitHub decodes a
// path. A value with "." or ".." segments is an error.
func readOwnerRepo(v string) ([]found, error) {
	if strings.ContainsFunc(v, unicode.IsSpace) {
		return nil, nil
	}
	for _, s := range []string{v, percent.Decode(v)} {
		head := s
		if i := strings.IndexAny(head, "#@?:"); i > 0 {
			head = head[:i]
		}
		segs := strings.Split(strings.TrimSuffix(head, "/"), "/")
		if len(segs) < 2 {
			continue
		}
		if slices.Contains(segs, ".") || slices.Contains(segs, "..") {
			return nil, errDotSegments
		}
		if github.CheckRepo(segs[0], segs[1]) == nil {
			return []found{{segs[0], segs[1]}}, nil
		}
	}
	return nil, nil
}

// enterpriseAPIPath reports whether path is a GitHub Enterprise server's
// API path naming an owner (/api/v3/repos/…, /orgs/…, /users/…), read as
// GitHub's on any host: a server named neither "github" nor as configured
// is still one.
func enterpriseAPIPath(path string) bool {
	segs := pathSegments(path)
	return len(segs) >= 3 && strings.EqualFold(segs[0], "api") && strings.EqualFold(segs[1], "v3") &&
		slices.ContainsFunc([]string{"repos", "orgs", "users"}, func(k string) bool { return strings.EqualFold(segs[2], k) })
}

// pathSegments are path's segments, percent escapes decoded first (so
// %2F splits and %2e%2e is ".."), empty ones dropped.
func pathSegments(path string) []string {
	return strings.FieldsFunc(percent.Decode(path), func(r rune) bool { return r == '/' })
}

// nameInURLPath reads a GitHub URL's path: github.com/OWNER/REPO/…,
// github.com/orgs/OWNER (organizations/OWNER), api.github.com/repos/OWNER/REPO/…
// (orgs/OWNER, users/OWNER, scim/v2/organizations/OWNER), the same API
// paths on uploads.github.com and under a GitHub Enterprise server's
// /api/v3/ and /api/uploads/, a server's /raw/OWNER/REPO/…, and
// raw.githubusercontent.com/OWNER/REPO/…. API keywords are compared
// without case.
func nameInURLPath(host, path string) ([]found, error) {
	segs := pathSegments(path)
	if slices.Contains(segs, ".") || slices.Contains(segs, "..") {
		return nil, errDotSegments
	}
	readings := hostReadings(host)
	apiHost := slices.ContainsFunc(readings, func(h string) bool {
		return strings.HasPrefix(h, "api.") || strings.HasPrefix(h, "uploads.")
	})
	dotCom := slices.ContainsFunc(readings, func(h string) bool { return h == "github.com" || h == "www.github.com" })
	switch {
	case len(segs) >= 2 && strings.EqualFold(segs[0], "api") && (strings.EqualFold(segs[1], "v3") || strings.EqualFold(segs[1], "uploads")):
		return apiNames(segs[2:])
	case apiHost:
		return apiNames(segs)
	case len(segs) > 0 && !dotCom && strings.EqualFold(segs[0], "raw"):
		// A GitHub Enterprise server serves raw files at /raw/OWNER/REPO/….
		segs = segs[1:]
	case len(segs) > 0 && (strings.EqualFold(segs[0], "orgs") || strings.EqualFold(segs[0], "organizations") || strings.EqualFold(segs[0], "users")):
		return ownerOnly(segs[1:]), nil
	case len(segs) > 0 && strings.EqualFold(segs[0], "enterprises"):
		return nil, errEnterprise
	}
	if o, r, ok := ownerRepo(segs); ok {
		return []found{{o, r}}, nil
	}
	return nil, nil
}

// apiNames reads a REST API path's segments: repos/OWNER/REPO/…,
// orgs/OWNER, users/OWNER, scim/v2/organizations/OWNER; an enterprise's
// path is an error.
func apiNames(segs []string) ([]found, error) {
	if len(segs) == 0 {
		return nil, nil
	}
	switch strings.ToLower(segs[0]) {
	case "repos":
		if o, r, ok := ownerRepo(segs[1:]); ok {
			return []found{{o, r}}, nil
		}
	case "orgs", "users":
		return ownerOnly(segs[1:]), nil
	case "scim":
		if len(segs) >= 4 && strings.EqualFold(segs[2], "organizations") {
			return ownerOnly(segs[3:]), nil
		}
	case "enterprises":
		return nil, errEnterprise
	}
	return nil, nil
}

// ownerOnly reads the owner a path's first segment names.
func ownerOnly(segs []string) []found {
	if len(segs) == 0 || github.CheckOwner(segs[0]) != nil {
		return nil
	}
	return []found{{segs[0], ""}}
}

// ownerRepo reads OWNER and, when present, REPO from the first two path
// segments, each as GitHub spells names.
func ownerRepo(segs []string) (owner, repo string, ok bool) {
	if len(segs) == 0 || github.CheckOwner(segs[0]) != nil {
		return "", "", false
	}
	if len(segs) >= 2 && github.CheckRepo(segs[0], segs[1]) == nil {
		return segs[0], segs[1], true
	}
	return segs[0], "", true
}
