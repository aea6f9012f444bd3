package github

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// endpoints are the roots a base URL resolves to.
type endpoints struct {
	rest    *url.URL // REST root, with a trailing slash
	upload  *url.URL // release-asset uploads (unused by ghgate, required by go-github)
	graphql *url.URL
}

// resolveEndpoints turns the one base URL a user configures into the REST
// and GraphQL roots, by the base URL alone:
//
//   - "" or https://api.github.com (or https://github.com): GitHub.com,
//     REST at the root and GraphQL at /graphql.
//   - a host named api.* (GitHub Enterprise Cloud with data residency,
//     api.SUBDOMAIN.ghe.com): the same layout on that host.
//   - anything else: GitHub Enterprise Server, REST under /api/v3/ and
//     GraphQL at /api/graphql. A base that already ends in /api/v3 is
//     accepted as is. The ghgate emulator serves this layout too.
func resolveEndpoints(base string) (endpoints, error) {
	if base == "" {
		base = "https://api.github.com"
	}
	u, err := url.Parse(base)
	if err != nil {
		// url.Parse quotes the input; a base URL is configuration, not a
		// secret, but keep the message short.
		return endpoints{}, errors.New("github: base URL is not a URL")
	}
	if u.Scheme != "https" && u.Scheme != "http" {
		return endpoints{}, fmt.Errorf("github: base URL scheme %q: want https (or http for a local emulator)", u.Scheme)
	}
	if u.Host == "" {
		return endpoints{}, errors.New("github: base URL has no host")
	}
	if u.User != nil {
		// Credentials belong in Options.Token, where they are kept out of
		// logs and errors; never echo them back.
		return endpoints{}, errors.New("github: base URL must not carry credentials; use the token option")
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return endpoints{}, errors.New("github: base URL must not have a query or fragment")
	}
	root := &url.URL{Scheme: u.Scheme, Host: u.Host}
	host := strings.ToLower(u.Hostname())
	path := strings.TrimSuffix(u.Path, "/")

	if host == "github.com" || host == "www.github.com" {
		root.Host = "api.github.com"
		host = "api.github.com"
		path = ""
	}
	if strings.HasPrefix(host, "api.") {
		if path != "" {
			return endpoints{}, fmt.Errorf("github: base URL %s: an api.* host takes no path", root)
		}
		rest := *root
		rest.Path = "/"
		gql := *root
		gql.Path = "/graphql"
		upload := *root
		upload.Host = "uploads." + strings.TrimPrefix(root.Host, "api.")
		upload.Path = "/"
		return endpoints{rest: &rest, upload: &upload, graphql: &gql}, nil
	}
	path = strings.TrimSuffix(path, "/api/v3")
	rest := *root
	rest.Path = path + "/api/v3/"
	gql := *root
	gql.Path = path + "/api/graphql"
	upload := *root
	upload.Path = path + "/api/uploads/"
	return endpoints{rest: &rest, upload: &upload, graphql: &gql}, nil
}

// owns reports whether u is on a host this client talks to, so the token
// is only ever attached to requests for GitHub (never to a redirect or a
// link pointing elsewhere).
func (e endpoints) owns(u *url.URL) bool {
	return strings.EqualFold(u.Host, e.rest.Host) && u.Scheme == e.rest.Scheme ||
		strings.EqualFold(u.Host, e.graphql.Host) && u.Scheme == e.graphql.Scheme
}

// resource names the rate budget a request draws on, as GitHub's
// x-ratelimit-resource header does.
func (e endpoints) resource(u *url.URL) string {
	if strings.EqualFold(u.Host, e.graphql.Host) && u.Path == e.graphql.Path {
		return "graphql"
	}
	if rest, ok := strings.CutPrefix(u.Path, e.rest.Path); ok && strings.HasPrefix(rest, "search/") {
		return "search"
	}
	return "core"
}
