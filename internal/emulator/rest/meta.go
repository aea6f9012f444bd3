package rest

import (
	"net/http"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// SetScopeHeaders writes X-OAuth-Scopes as GitHub does for a classic
// token: its scopes, comma separated. Tokens without scopes get none.
func SetScopeHeaders(h http.Header, t *state.Token) {
	if t.Scopes != nil {
		h.Set("X-OAuth-Scopes", strings.Join(t.Scopes, ", "))
	}
}

// getRoot answers GET / (operation meta/root): the hypermedia links of
// the REST API, under the address the caller used (with /api/v3 when it
// came that way). It needs no scope, so X-Accepted-OAuth-Scopes is empty,
// as GitHub sends it. The document is the 2022-11-28 one, the version the
// emulator selects, which still lists authorizations_url and hub_url.
func getRoot(c *call) {
	api, web := c.Links.API, c.Links.Web
	c.W.Header().Set("X-Accepted-OAuth-Scopes", "")
	c.JSON(http.StatusOK, map[string]string{
		"current_user_url":                     api + "/user",
		"current_user_authorizations_html_url": web + "/settings/connections/applications{/client_id}",
		"authorizations_url":                   api + "/authorizations",
		"code_search_url":                      api + "/search/code?q={query}{&page,per_page,sort,order}",
		"commit_search_url":                    api + "/search/commits?q={query}{&page,per_page,sort,order}",
		"emails_url":                           api + "/user/emails",
		"emojis_url":                           api + "/emojis",
		"events_url":                           api + "/events",
		"feeds_url":                            api + "/feeds",
		"followers_url":                        api + "/user/followers",
		"following_url":                        api + "/user/following{/target}",
		"gists_url":                            api + "/gists{/gist_id}",
		"hub_url":                              api + "/hub",
		"issue_search_url":                     api + "/search/issues?q={query}{&page,per_page,sort,order}",
		"issues_url":                           api + "/issues",
		"keys_url":                             api + "/user/keys",
		"label_search_url":                     api + "/search/labels?q={query}&repository_id={repository_id}{&page,per_page}",
		"notifications_url":                    api + "/notifications",
		"organization_url":                     api + "/orgs/{org}",
		"organization_repositories_url":        api + "/orgs/{org}/repos{?type,page,per_page,sort}",
		"organization_teams_url":               api + "/orgs/{org}/teams",
		"public_gists_url":                     api + "/gists/public",
		"rate_limit_url":                       api + "/rate_limit",
		"repository_url":                       api + "/repos/{owner}/{repo}",
		"repository_search_url":                api + "/search/repositories?q={query}{&page,per_page,sort,order}",
		"current_user_repositories_url":        api + "/user/repos{?type,page,per_page,sort}",
		"starred_url":                          api + "/user/starred{/owner}{/repo}",
		"starred_gists_url":                    api + "/gists/starred",
		"topic_search_url":                     api + "/search/topics?q={query}{&page,per_page}",
		"user_url":                             api + "/users/{user}",
		"user_organizations_url":               api + "/user/orgs",
		"user_repositories_url":                api + "/users/{user}/repos{?type,page,per_page,sort}",
		"user_search_url":                      api + "/search/users?q={query}{&page,per_page,sort,order}",
	})
}
