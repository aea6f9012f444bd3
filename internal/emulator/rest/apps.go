package rest

import (
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// installationTokenJSON is GitHub's installation-token. Repositories are
// listed when the request named some.
type installationTokenJSON struct {
	Token               string               `json:"token"`
	ExpiresAt           string               `json:"expires_at"`
	Permissions         state.AppPermissions `json:"permissions"`
	RepositorySelection string               `json:"repository_selection"`
	Repositories        []repoJSON           `json:"repositories,omitempty"`
}

// GitHub's answers to a token request the installation cannot serve.
const (
	notInInstallation = "There is at least one repository that does not exist or is not accessible to the parent installation."
	notGranted        = "The permissions requested are not granted to this installation."
	tokenDocs         = "rest/apps/apps#create-an-installation-access-token-for-an-app"
)

// appInstallation resolves {installation_id} for the App whose JWT
// authenticated the request. Any other credential is not an App JWT
// (401); an installation the App does not have is 404. It returns nil
// when it has answered.
func appInstallation(c *call) *state.Installation {
	app := c.State.AppForIdentity(c.Token)
	if app == nil {
		c.Fail(http.StatusUnauthorized, state.JWTUndecodable, "rest")
		return nil
	}
	id, err := strconv.ParseInt(c.Req.PathValue("installation_id"), 10, 64)
	in := app.Installations[id]
	if err != nil || in == nil {
		c.NotFound()
		return nil
	}
	return in
}

// createInstallationToken is POST /app/installations/{installation_id}/access_tokens:
// the App, authenticated with its JWT, gets a token acting as its bot on
// the installation's repositories with the installation's permissions.
// The body may narrow the token to some of those repositories (by name or
// id) and to some of those permissions; asking for a repository or a
// permission the installation lacks is refused (422), as GitHub does.
func createInstallationToken(c *call) {
	in := appInstallation(c)
	if in == nil {
		return
	}
	var body state.TokenRequest
	if !c.Decode(&body) {
		return
	}
	perms, ok := tokenRepos(c, in, body)
	if !ok {
		return
	}
	grant := maps.Clone(in.Permissions)
	if body.Permissions != nil {
		grant = state.AppPermissions{"metadata": "read"}
		for name, level := range body.Permissions {
			if !state.ValidAppPermission(name, level) && state.ValidAppPermission(name, "read") {
				c.Invalid("", tokenDocs, wire.FieldError{Resource: "Request", Field: "permissions", Code: "invalid"})
				return
			}
			if !state.ValidAppPermission(name, level) || !in.Permissions.Covers(name, level) {
				c.Invalid(notGranted, tokenDocs)
				return
			}
			grant[name] = level
		}
	}
	if !grant.Writes() {
		// A token that may write nothing writes nowhere, whatever the
		// installation's access to a repository.
		for k, p := range perms {
			perms[k] = min(p, state.PermRead)
		}
	}
	narrowed := len(body.Repositories) > 0 || len(body.RepositoryIDs) > 0
	selection := in.RepositorySelection
	if narrowed {
		selection = "selected"
	}
	t := c.State.Mint(in, perms, grant, selection)
	in.Requests = append(in.Requests, body)
	out := installationTokenJSON{Token: t.Value, ExpiresAt: wire.Timestamp(t.ExpiresAt), Permissions: grant, RepositorySelection: selection}
	if narrowed {
		for _, key := range slices.Sorted(maps.Keys(perms)) {
			owner, name, _ := strings.Cut(key, "/")
			if r := c.State.Repo(owner, name); r != nil {
				out.Repositories = append(out.Repositories, c.repoJSON(r, false))
			}
		}
	}
	c.JSON(http.StatusCreated, out)
}

// tokenRepos is the token's repositories with the installation's access
// to each: all of the installation's, or those the request names. A name
// or id outside the installation answers 422 and reports false.
func tokenRepos(c *call, in *state.Installation, body state.TokenRequest) (map[string]state.Permission, bool) {
	perms := map[string]state.Permission{}
	if len(body.Repositories) == 0 && len(body.RepositoryIDs) == 0 {
		maps.Copy(perms, in.Perms)
		return perms, true
	}
	for _, name := range body.Repositories {
		key := strings.ToLower(in.Account + "/" + name)
		p, ok := in.Perms[key]
		if !ok {
			c.Invalid(notInInstallation, tokenDocs)
			return nil, false
		}
		perms[key] = p
	}
	for _, rid := range body.RepositoryIDs {
		found := false
		for key, p := range in.Perms {
			owner, name, _ := strings.Cut(key, "/") // keys are lower-case "owner/name"
			if r := c.State.Repo(owner, name); r != nil && r.ID == rid {
				perms[key], found = p, true
			}
		}
		if !found {
			c.Invalid(notInInstallation, tokenDocs)
			return nil, false
		}
	}
	return perms, true
}

// installationJSON is GitHub's installation.
type installationJSON struct {
	ID                  int64                `json:"id"`
	Account             *userJSON            `json:"account"`
	RepositorySelection string               `json:"repository_selection"`
	AccessTokensURL     string               `json:"access_tokens_url"`
	RepositoriesURL     string               `json:"repositories_url"`
	HTMLURL             string               `json:"html_url"`
	AppID               int64                `json:"app_id"`
	AppSlug             string               `json:"app_slug"`
	TargetID            int64                `json:"target_id"`
	TargetType          string               `json:"target_type"`
	Permissions         state.AppPermissions `json:"permissions"`
	Events              []string             `json:"events"`
	CreatedAt           string               `json:"created_at"`
	UpdatedAt           string               `json:"updated_at"`
	SingleFileName      *string              `json:"single_file_name"`
	SuspendedBy         *userJSON            `json:"suspended_by"`
	SuspendedAt         *string              `json:"suspended_at"`
}

// getInstallation is GET /app/installations/{installation_id}: the App,
// with its JWT, reads one of its installations, the permissions it was
// granted among them.
func getInstallation(c *call) {
	in := appInstallation(c)
	if in == nil {
		return
	}
	id := strconv.FormatInt(in.ID, 10)
	out := installationJSON{ID: in.ID, RepositorySelection: in.RepositorySelection,
		AccessTokensURL: c.Links.API + "/app/installations/" + id + "/access_tokens",
		RepositoriesURL: c.Links.API + "/installation/repositories",
		AppID:           in.App.ID, AppSlug: in.App.Slug, TargetType: "User", Permissions: in.Permissions, Events: []string{},
		CreatedAt: wire.Timestamp(in.CreatedAt), UpdatedAt: wire.Timestamp(in.CreatedAt)}
	out.HTMLURL = c.Links.Web + "/settings/installations/" + id
	if a := c.State.Account(in.Account); a != nil {
		out.Account, out.TargetID = renderSimpleUser(c.Links, a), a.ID
		if a.IsOrg {
			out.TargetType = "Organization"
			out.HTMLURL = c.Links.Web + "/organizations/" + a.Login + "/settings/installations/" + id
		}
	}
	c.JSON(http.StatusOK, out)
}
