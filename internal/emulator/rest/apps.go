package rest

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// installationTokenJSON is GitHub's installation-token.
type installationTokenJSON struct {
	Token               string            `json:"token"`
	ExpiresAt           string            `json:"expires_at"`
	Permissions         map[string]string `json:"permissions"`
	RepositorySelection string            `json:"repository_selection"`
}

// createInstallationToken is POST /app/installations/{installation_id}/access_tokens:
// the App, authenticated with its JWT, gets a token acting as its bot on
// the installation's repositories. The body may narrow the token to some
// of those repositories (by name or id) and to read access on issues.
func createInstallationToken(c *call) {
	app := c.State.AppForIdentity(c.Token)
	if app == nil {
		// Any other credential is not an App JWT.
		c.Fail(http.StatusUnauthorized, state.JWTUndecodable, "rest")
		return
	}
	id, err := strconv.ParseInt(c.Req.PathValue("installation_id"), 10, 64)
	in := app.Installations[id]
	if err != nil || in == nil {
		c.NotFound()
		return
	}
	var body struct {
		Repositories  []string          `json:"repositories"`
		RepositoryIDs []int64           `json:"repository_ids"`
		Permissions   map[string]string `json:"permissions"`
	}
	if !c.Decode(&body) {
		return
	}
	perms := map[string]state.Permission{}
	narrowed := len(body.Repositories) > 0 || len(body.RepositoryIDs) > 0
	if !narrowed {
		for repo, p := range in.Perms {
			perms[repo] = p
		}
	}
	for _, name := range body.Repositories {
		key := strings.ToLower(in.Account + "/" + name)
		p, ok := in.Perms[key]
		if !ok {
			c.Invalid("There is at least one repository that does not exist or is not accessible to the parent installation.", "rest/apps/apps#create-an-installation-access-token-for-an-app")
			return
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
			c.Invalid("There is at least one repository that does not exist or is not accessible to the parent installation.", "rest/apps/apps#create-an-installation-access-token-for-an-app")
			return
		}
	}
	if lvl, ok := body.Permissions["issues"]; ok {
		switch lvl {
		case "read":
			for k, p := range perms {
				perms[k] = min(p, state.PermRead)
			}
		case "write":
		default:
			c.Invalid("", "rest/apps/apps#create-an-installation-access-token-for-an-app",
				wire.FieldError{Resource: "Request", Field: "permissions", Code: "invalid"})
			return
		}
	}
	issues := "read"
	for _, p := range perms {
		if p >= state.PermWrite {
			issues = "write"
		}
	}
	t := c.State.Mint(in, perms)
	c.JSON(http.StatusCreated, installationTokenJSON{Token: t.Value, ExpiresAt: wire.Timestamp(t.ExpiresAt),
		Permissions:         map[string]string{"issues": issues, "metadata": "read"},
		RepositorySelection: "selected"})
}
