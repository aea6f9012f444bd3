package graphql

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// Query.resource(url:) looks a URL on the web host up as the object it
// shows: an account (/owner), a repository (/owner/repo), an issue or pull
// request (/owner/repo/issues/N or /owner/repo/pull/N; either path finds
// either, as github.com redirects one to the other). Anything else, an
// object the caller may not see, or a URL on another host is null, as
// GitHub answers it, never an error.

type resourceArgs struct {
	URL string `json:"url"`
}

func registerResource(r *resolvers) {
	resolveArgs(r, "Query.resource", func(x *gqlContext, _ root, a resourceArgs) (any, error) {
		return x.resource(a.URL), nil
	})
}

// resource is the object a URL shows, or nil.
func (x *gqlContext) resource(raw string) any {
	u, err := url.Parse(raw)
	if err != nil {
		return nil
	}
	web, err := url.Parse(x.c.Links.Web)
	if err != nil || !strings.EqualFold(u.Host, web.Host) {
		return nil
	}
	rest, ok := strings.CutPrefix(u.Path, strings.TrimSuffix(web.Path, "/")+"/")
	if !ok {
		return nil
	}
	parts := strings.Split(strings.TrimSuffix(rest, "/"), "/")
	switch len(parts) {
	case 1:
		if acc := x.st.Account(parts[0]); acc != nil {
			return acc
		}
	case 2:
		if repo := x.st.Repo(parts[0], parts[1]); repo != nil && x.canRead(repo) {
			return repo
		}
	case 4:
		repo := x.st.Repo(parts[0], parts[1])
		n, err := strconv.Atoi(parts[3])
		if repo == nil || err != nil || (parts[2] != "issues" && parts[2] != "pull") {
			return nil
		}
		if is := repo.Issue(n); is != nil {
			if v, _ := x.visibleNode(is.NodeID).(*state.Issue); v != nil {
				return v
			}
		}
	}
	return nil
}
