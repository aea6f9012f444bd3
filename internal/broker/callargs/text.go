package callargs

import (
	"net/url"
	"strings"

	"github.com/ghgate/ghgate/internal/github"
)

// nameInText reads the owner (and repository) a whole string value names
// when no key says what it holds: a GitHub web, API or raw URL, a git
// remote (git@HOST:OWNER/REPO), or OWNER/REPO itself. Anything else names
// nothing.
func nameInText(v string) (owner, repo string, ok bool) {
	switch {
	case strings.HasPrefix(v, "git@"):
		_, path, found := strings.Cut(v, ":")
		if !found {
			return "", "", false
		}
		return ownerRepo(strings.Split(strings.TrimSuffix(path, ".git"), "/"))
	case strings.HasPrefix(strings.ToLower(v), "http://"), strings.HasPrefix(strings.ToLower(v), "https://"):
		return nameInURL(v)
	case strings.Count(v, "/") == 1:
		o, r, _ := strings.Cut(v, "/")
		if github.CheckRepo(o, r) == nil {
			return o, r, true
		}
	}
	return "", "", false
}

// nameInURL reads a GitHub URL: github.com/OWNER/REPO/…,
// api.github.com/repos/OWNER/REPO/… (orgs/OWNER, users/OWNER), a GitHub
// Enterprise server's /api/v3/ form of those, and
// raw.githubusercontent.com/OWNER/REPO/…. Hosts that are not GitHub's
// (their name holds no "github") name nothing.
func nameInURL(v string) (owner, repo string, ok bool) {
	u, err := url.Parse(v)
	if err != nil || !strings.Contains(strings.ToLower(u.Hostname()), "github") {
		return "", "", false
	}
	segs := strings.FieldsFunc(u.Path, func(r rune) bool { return r == '/' })
	if len(segs) >= 2 && segs[0] == "api" && segs[1] == "v3" {
		segs = segs[2:]
	} else if strings.HasPrefix(strings.ToLower(u.Hostname()), "api.") {
		// api.github.com's paths are the API's already.
	} else if len(segs) > 0 && (segs[0] == "orgs" || segs[0] == "users") {
		return ownerRepo(segs[1:2])
	} else {
		return ownerRepo(segs)
	}
	if len(segs) >= 2 && (segs[0] == "repos" || segs[0] == "orgs" || segs[0] == "users") {
		if segs[0] == "repos" {
			return ownerRepo(segs[1:])
		}
		return ownerRepo(segs[1:2])
	}
	return "", "", false
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
