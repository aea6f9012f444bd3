package callargs

import (
	"errors"
	"net/url"
	"slices"
	"strings"
	"unicode"

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

// readText reads what a whole string value names when no key says it
// holds a name: a GitHub web, API or raw URL (any scheme, or none:
// github.com/OWNER/REPO, //github.com/…), the search qualifiers in its
// query string, a git remote ([USER@]HOST:OWNER/REPO, [HOST:PORT]:…,
// TRANSPORT::URL), an API path (/repos/OWNER/REPO/…, repos/…, "GET
// /orgs/OWNER", search/issues?q=…), OWNER/REPO with anything after it
// (#12, @SHA, /issues/1, ?ref=…, :file), a one-line gh or git command
// (gh repo view OWNER/REPO, see commandWords) or a lone flag
// (--repo=OWNER/REPO, -ROWNER/REPO, GH_REPO=OWNER/REPO), and the scope
// qualifiers of a search. Other text names nothing: a sentence naming a
// repository is text, and so is a script. A GitHub URL, remote or path
// whose path cannot be read is an error.
func (h hosts) readText(v string) ([]found, error) {
	words, commandSearches, command, err := commandWords(strings.TrimSpace(v))
	v = trimmed(v)
	var out []found
	add := func(f []found, err error) error {
		out = append(out, f...)
		return err
	}
	if err != nil {
		return nil, err
	}
	// The searches: a command's words as the shell makes them (and a
	// flag's value, --search=…), else the text and the search a query
	// string assigns (q=…&type=…).
	searches := append([]string{v}, searchParams(v)...)
	if command {
		searches = commandSearches
	} else {
		words = []string{v}
	}
	for _, word := range words {
		if err := add(h.readWord(word)); err != nil {
			return nil, err
		}
	}
	for _, q := range searches {
		if piece, found := uncheckableScope(q); found {
			return nil, errUncheckable(piece)
		}
		for _, r := range scopeRefs(q) {
			out = append(out, refFound(r))
		}
	}
	return out, nil
}

// searchParams are the values a query string gives to q, the parameter
// GitHub's search reads, each read as search text too: a tool may send
// the string as its URL's query. The string is read as URL parsers read
// one: after a path's '?' (search?q=…), keys decoded (%71=… is q=…). A
// value with a blank in it is a sentence unless it starts as a query
// string does ("?…", "NAME=…&…"); other parameters are left unread
// (DD_TAGS=org:payments is no search).
func searchParams(v string) []string {
	if !strings.Contains(v, "=") || strings.ContainsFunc(v, unicode.IsSpace) &&
		!strings.HasPrefix(v, "?") && !(envAssignment.MatchString(v) && strings.Contains(v, "&")) {
		return nil
	}
	if i := strings.IndexByte(v, '?'); i >= 0 && !strings.Contains(v[:i], "=") {
		v = v[i+1:] // a path's query; a '?' after an '=' is a value's
	}
	var out []string
	for _, pair := range strings.Split(v, "&") {
		key, value, _ := strings.Cut(pair, "=")
		if k, err := url.QueryUnescape(key); err == nil && k == "q" {
			out = append(out, value)
		}
	}
	return out
}

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
	if f, isPath, err := readAPIPath(v); isPath || err != nil {
		return f, err
	}
	return readOwnerRepo(v)
}

// readPathText reads a text under a key that holds a path or a cursor
// (see pathKind): a whole GitHub URL with a scheme, a GitHub remote or a
// rooted API path only, which no path inside a repository is.
func (h hosts) readPathText(v string) ([]found, error) {
	v = trimmed(v)
	if f, isURL, err := h.readSchemeURL(v); isURL || err != nil {
		return f, err
	}
	if f, isRemote, err := h.readRemote(v); isRemote || err != nil {
		return f, err
	}
	if strings.HasPrefix(v, "/") || strings.HasPrefix(v, `\`) {
		f, _, err := readAPIPath(v)
		return f, err
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
