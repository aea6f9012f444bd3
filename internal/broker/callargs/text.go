package callargs

import (
	"errors"
	"net/url"
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/github"
)

// errDotSegments refuses a GitHub URL or remote whose path holds "." or
// "..": clients resolve them (curl, git, fetch, Python's urllib3) where
// Go's net/http does not, so which owner it reaches cannot be read.
var errDotSegments = errors.New(`has "." or ".." path segments: which repository it reaches depends on the client`)

// nameInText reads the owner (and repository) a whole string value names
// when no key says what it holds: a GitHub web, API or raw URL (any
// scheme: https, ssh, git, git+https), an scp-style git remote
// (USER@HOST:OWNER/REPO), or OWNER/REPO itself. Anything else names
// nothing; a GitHub URL or remote whose path cannot be read is an error.
func nameInText(v string) (owner, repo string, ok bool, err error) {
	v = asURLParserSees(v)
	if user, rest, found := strings.Cut(v, "@"); found && !strings.Contains(v, "://") && !strings.ContainsAny(user, "/:") {
		host, path, found := strings.Cut(rest, ":")
		if !found || !strings.Contains(strings.ToLower(host), "github") {
			return "", "", false, nil
		}
		segs := strings.Split(strings.TrimSuffix(strings.TrimPrefix(path, "/"), ".git"), "/")
		if slices.Contains(segs, ".") || slices.Contains(segs, "..") {
			return "", "", false, errDotSegments
		}
		owner, repo, ok = ownerRepo(segs)
		return owner, repo, ok, nil
	}
	switch {
	case strings.Contains(v, "://"):
		return nameInURL(v)
	case strings.Count(v, "/") == 1:
		o, r, _ := strings.Cut(v, "/")
		if github.CheckRepo(o, r) == nil {
			return o, r, true, nil
		}
	}
	return "", "", false, nil
}

// asURLParserSees is v as a WHATWG URL parser (Node's URL, browsers)
// reads it before parsing: spaces and control characters trimmed from
// the ends, tabs and newlines removed wherever they are, and, in an
// http(s) URL, backslashes taken for slashes. A value an upstream would
// clean up so is read clean.
func asURLParserSees(v string) string {
	v = strings.TrimFunc(v, func(r rune) bool { return r <= ' ' })
	v = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, v)
	if lower := strings.ToLower(v); strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://") {
		v = strings.ReplaceAll(v, `\`, "/")
	}
	return v
}

// nameInURL reads a GitHub URL: github.com/OWNER/REPO/…,
// api.github.com/repos/OWNER/REPO/… (orgs/OWNER, users/OWNER), the same
// API paths on uploads.github.com, a GitHub Enterprise server's /api/v3/
// form of those, and raw.githubusercontent.com/OWNER/REPO/…. Hosts that
// are not GitHub's (their name holds no "github") name nothing.
func nameInURL(v string) (owner, repo string, ok bool, err error) {
	u, perr := url.Parse(v)
	if perr != nil || !strings.Contains(strings.ToLower(u.Hostname()), "github") {
		return "", "", false, nil
	}
	segs := strings.FieldsFunc(u.Path, func(r rune) bool { return r == '/' })
	if slices.Contains(segs, ".") || slices.Contains(segs, "..") {
		return "", "", false, errDotSegments
	}
	host := strings.ToLower(u.Hostname())
	if len(segs) >= 2 && segs[0] == "api" && segs[1] == "v3" {
		segs = segs[2:]
	} else if strings.HasPrefix(host, "api.") || strings.HasPrefix(host, "uploads.") {
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
