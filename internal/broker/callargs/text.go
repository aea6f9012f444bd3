package callargs

import (
	"errors"
	"slices"
	"strings"

	"golang.org/x/net/idna"

	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/percent"
)

// errDotSegments refuses a GitHub URL or remote whose path holds "." or
// "..": clients resolve them (curl, git, fetch, Python's urllib3) where
// Go's net/http does not, so which owner it reaches cannot be read.
var errDotSegments = errors.New(`has "." or ".." path segments: which repository it reaches depends on the client`)

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

// nameInText reads the owner (and repository) a whole string value names
// when no key says what it holds: a GitHub web, API or raw URL (any
// scheme: https, ssh, git, git+https), a git remote in scp form
// ([USER@]HOST:OWNER/REPO), or OWNER/REPO itself, alone or as GitHub
// links a reference (OWNER/REPO#12, OWNER/REPO@SHA, OWNER/REPO/). Anything
// else names nothing; a GitHub URL or remote whose path cannot be read is
// an error.
func nameInText(v string, gh hosts) (owner, repo string, ok bool, err error) {
	v = asURLParserSees(v)
	if host, path, isURL := urlParts(v); isURL {
		if !gh.gitHub(host) && !gh.enterpriseAPIPath(path) {
			return "", "", false, nil
		}
		return nameInURLPath(host, path)
	}
	if host, path, isRemote := scpRemote(v); isRemote {
		if !gh.gitHub(host) {
			return "", "", false, nil
		}
		segs := strings.Split(strings.TrimSuffix(strings.TrimPrefix(path, "/"), ".git"), "/")
		if slices.Contains(segs, ".") || slices.Contains(segs, "..") {
			return "", "", false, errDotSegments
		}
		owner, repo, ok = ownerRepo(segs)
		return owner, repo, ok, nil
	}
	// OWNER/REPO, and the references GitHub links: #N, @SHA, a trailing
	// slash.
	head := v
	if i := strings.IndexAny(head, "#@"); i > 0 {
		head = head[:i]
	}
	head = strings.TrimSuffix(head, "/")
	if o, r, found := strings.Cut(head, "/"); found && github.CheckRepo(o, r) == nil {
		return o, r, true, nil
	}
	return "", "", false, nil
}

// enterpriseAPIPath reports whether path is a GitHub Enterprise server's
// API path naming an owner (/api/v3/repos/…, /orgs/…, /users/…), read as
// GitHub's on any host: a server named neither "github" nor as configured
// is still one.
func (hosts) enterpriseAPIPath(path string) bool {
	segs := pathSegments(path)
	return len(segs) >= 3 && segs[0] == "api" && segs[1] == "v3" && slices.Contains([]string{"repos", "orgs", "users"}, segs[2])
}

// asURLParserSees is v as a WHATWG URL parser (Node's URL, browsers)
// reads it before parsing: spaces and control characters trimmed from
// the ends, tabs and newlines removed wherever they are, and, in a URL of
// a special scheme (http, https, ws, wss, ftp), backslashes taken for
// slashes. A value an upstream would clean up so is read clean.
func asURLParserSees(v string) string {
	v = strings.TrimFunc(v, func(r rune) bool { return r <= ' ' })
	v = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, v)
	if scheme, _, ok := strings.Cut(v, ":"); ok && specialScheme(scheme) {
		v = strings.ReplaceAll(v, `\`, "/")
	}
	return v
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
// fragment. isURL is false for anything else (OWNER/REPO, a remote in scp
// form, a search qualifier such as repo:OWNER/REPO).
func urlParts(v string) (host, path string, isURL bool) {
	scheme, rest, found := strings.Cut(v, ":")
	if !found || !validScheme(scheme) {
		return "", "", false
	}
	if specialScheme(scheme) {
		rest = strings.TrimLeft(rest, "/")
	} else if after, ok := strings.CutPrefix(rest, "//"); ok {
		rest = after
	} else {
		return "", "", false
	}
	authority := rest
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		authority, path = rest[:i], rest[i:]
	}
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		path = path[:i]
	}
	if i := strings.LastIndex(authority, "@"); i >= 0 {
		authority = authority[i+1:]
	}
	host = authority
	if strings.HasPrefix(host, "[") {
		if i := strings.Index(host, "]"); i >= 0 {
			host = host[:i+1]
		}
	} else if h, _, ok := strings.Cut(host, ":"); ok {
		host = h
	}
	return host, path, true
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

// scpRemote splits a git remote in scp form, [USER@]HOST:PATH, as git
// reads one: no "/" before the first ':', and a host that is not a single
// letter (a Windows drive).
func scpRemote(v string) (host, path string, isRemote bool) {
	before, path, found := strings.Cut(v, ":")
	if !found || strings.Contains(before, "/") {
		return "", "", false
	}
	host = before
	if i := strings.LastIndex(before, "@"); i >= 0 {
		host = before[i+1:]
	}
	if len(host) < 2 {
		return "", "", false
	}
	return host, path, true
}

// pathSegments are path's segments, percent escapes decoded first (so
// %2F splits and %2e%2e is ".."), empty ones dropped.
func pathSegments(path string) []string {
	return strings.FieldsFunc(percent.Decode(path), func(r rune) bool { return r == '/' })
}

// nameInURLPath reads a GitHub URL's path: github.com/OWNER/REPO/…,
// api.github.com/repos/OWNER/REPO/… (orgs/OWNER, users/OWNER), the same
// API paths on uploads.github.com, a GitHub Enterprise server's /api/v3/
// form of those, and raw.githubusercontent.com/OWNER/REPO/….
func nameInURLPath(host, path string) (owner, repo string, ok bool, err error) {
	segs := pathSegments(path)
	if slices.Contains(segs, ".") || slices.Contains(segs, "..") {
		return "", "", false, errDotSegments
	}
	apiHost := slices.ContainsFunc(hostReadings(host), func(h string) bool {
		return strings.HasPrefix(h, "api.") || strings.HasPrefix(h, "uploads.")
	})
	if len(segs) >= 2 && segs[0] == "api" && segs[1] == "v3" {
		segs = segs[2:]
	} else if apiHost {
		// api.github.com's and uploads.github.com's paths are the API's.
	} else if len(segs) > 0 && (segs[0] == "orgs" || segs[0] == "users") {
		owner, repo, ok = ownerRepo(segs[1:2])
		return owner, repo, ok, nil
	} else {
		owner, repo, ok = ownerRepo(segs)
		return owner, repo, ok, nil
	}
	if len(segs) >= 2 && (segs[0] == "repos" || segs[0] == "orgs" || segs[0] == "users") {
		if segs[0] == "repos" {
			owner, repo, ok = ownerRepo(segs[1:])
		} else {
			owner, repo, ok = ownerRepo(segs[1:2])
		}
		return owner, repo, ok, nil
	}
	return "", "", false, nil
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
