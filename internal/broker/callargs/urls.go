package callargs

import (
	"regexp"
	"slices"
	"strings"

	"golang.org/x/net/idna"

	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/percent"
)

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
	labels := strings.Split(strings.TrimSuffix(host, "."), ".")
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
// method.
func readAPIPath(v string) (f []found, isPath bool, err error) {
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
