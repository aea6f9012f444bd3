package github

import (
	"context"
	"fmt"
	"regexp"

	gh "github.com/google/go-github/v88/github"
)

// Meta is what a read reports besides its value.
type Meta struct {
	// Cached is true when GitHub answered 304 and the stored body was
	// served: the read cost no rate budget.
	Cached bool
	// RequestID is GitHub's x-github-request-id.
	RequestID string
	// NextPage and LastPage come from the Link header; 0 when there is no
	// such page.
	NextPage, LastPage int
}

// read runs one REST read and maps its failure.
func (c *Client) read(ctx context.Context, do func(context.Context) (*gh.Response, error)) (Meta, error) {
	if c.token == "" {
		return Meta{}, missingCredential(false)
	}
	ctx, rec := withCall(ctx, true)
	resp, err := do(ctx)
	if err != nil {
		return Meta{}, c.fail(rec, resp, err, false)
	}
	m := Meta{Cached: rec.cacheHit.Load()}
	if resp != nil && resp.Response != nil {
		m.RequestID = resp.Header.Get("X-GitHub-Request-Id")
		m.NextPage, m.LastPage = resp.NextPage, resp.LastPage
	}
	return m, nil
}

// write runs one REST write, once, and settles it.
func (c *Client) write(ctx context.Context, do func(context.Context) (*gh.Response, error)) (Settlement, error) {
	if c.token == "" {
		return NotStarted, missingCredential(true)
	}
	ctx, rec := withCall(ctx, false)
	resp, err := do(ctx)
	if err != nil {
		e := c.fail(rec, resp, err, true)
		return e.Settlement, e
	}
	return RemoteSuccessKnown, nil
}

var (
	// ownerName is a login: letters, digits and hyphens, not starting with
	// a hyphen; a managed user of an Enterprise Managed Users enterprise
	// adds an underscore and the enterprise's short code of letters and
	// digits (mona-cat_octo), and its setup user is the short code then
	// "_admin" (octo_admin). Organization names never hold an underscore.
	// The length, at most 39 in all, is checked apart.
	ownerName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9-]*(?:_[A-Za-z0-9]+)?$`)
	repoName  = regexp.MustCompile(`^[A-Za-z0-9._-]{1,100}$`)
)

// OwnerRule says what [CheckOwner] takes, for a refusal's repair.
const OwnerRule = "must be a GitHub user or organization name (letters, digits and hyphens; a managed user's login adds _ and its enterprise's short code)"

// maxOwnerLen is the longest login GitHub gives, a managed user's short
// code included.
const maxOwnerLen = 39

// CheckOwner and [CheckRepo] report whether names have the shape GitHub
// allows; a name that does not would change the path of the request it is
// put in.
func CheckOwner(owner string) error {
	if len(owner) > maxOwnerLen || !ownerName.MatchString(owner) {
		return fmt.Errorf("owner %q is not a GitHub user or organization name", owner)
	}
	return nil
}

// CheckRepo: see [CheckOwner].
func CheckRepo(owner, repo string) error { return checkRepo(owner, repo) }

// checkRepo refuses names that are not GitHub owner and repository names,
// before they are put into a URL path (go-github does not escape them).
func checkRepo(owner, repo string) error {
	if err := CheckOwner(owner); err != nil {
		return err
	}
	if !repoName.MatchString(repo) || repo == "." || repo == ".." {
		return fmt.Errorf("repository %q is not a GitHub repository name", repo)
	}
	return nil
}

// refIssue is refRepo for a method naming an issue, which also refuses
// numbers below 1.
func refIssue(owner, repo string, number int, write bool) (repoRef, error) {
	r, err := refRepo(owner, repo, write)
	if err != nil {
		return r, err
	}
	if number < 1 {
		return repoRef{}, invalidArgument(write, fmt.Sprintf("issue number %d: numbers start at 1", number))
	}
	return r, nil
}

// pageOpts maps page and per_page; 0 leaves GitHub's defaults (page 1,
// 30 per page). GitHub caps per_page at 100.
func pageOpts(page, perPage int) (gh.ListOptions, error) {
	if page < 0 || perPage < 0 || perPage > 100 {
		return gh.ListOptions{}, fmt.Errorf("page %d, per_page %d: want page >= 1 and per_page 1..100", page, perPage)
	}
	return gh.ListOptions{Page: page, PerPage: perPage}, nil
}
