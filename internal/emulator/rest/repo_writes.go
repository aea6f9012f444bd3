package rest

import (
	"net/http"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

const reposDoc = "rest/repos/repos"

// adminRights is GitHub's answer to a repository setting written by a
// caller who can see the repository but does not administer it.
const adminRights = "Must have admin rights to Repository."

// orgAdminNeeded is GitHub's answer to a repository created or forked into
// an organization by someone outside it.
const orgAdminNeeded = "You need admin access to the organization before adding a repository to it."

// repoAdmin resolves {owner}/{repo} for a settings write: 404 when the
// caller cannot see it, 403 with GitHub's message when it may not
// administer it. Archived repositories are not refused here: unarchiving
// is one of their settings.
func (c *call) repoAdmin() *state.Repo {
	r := c.State.Repo(c.Req.PathValue("owner"), c.Req.PathValue("repo"))
	if r == nil {
		// A renamed repository's old name redirects (RepoFor answers so).
		return c.RepoFor(state.PermAdmin)
	}
	switch p := c.Token.Permission(r); {
	case p == state.PermNone:
		c.NotFound()
		return nil
	case p < state.PermAdmin:
		c.Fail(http.StatusForbidden, adminRights, reposDoc+"#update-a-repository")
		return nil
	}
	return r
}

// repoUpdate is the body of PATCH /repos/{owner}/{repo}. Settings the
// emulator does not model (merge methods, security_and_analysis, …) are
// accepted and keep the values GitHub gives a new repository.
type repoUpdate struct {
	Name          *string               `json:"name"`
	Description   wire.Optional[string] `json:"description"`
	Homepage      wire.Optional[string] `json:"homepage"`
	Private       *bool                 `json:"private"`
	Visibility    *string               `json:"visibility"`
	HasIssues     *bool                 `json:"has_issues"`
	HasWiki       *bool                 `json:"has_wiki"`
	DefaultBranch *string               `json:"default_branch"`
	Archived      *bool                 `json:"archived"`
}

func updateRepo(c *call) {
	r := c.repoAdmin()
	if r == nil {
		return
	}
	var in repoUpdate
	if !c.Decode(&in) {
		return
	}
	const doc = reposDoc + "#update-a-repository"
	// An archived repository takes no change but being unarchived.
	if r.Archived && (in.Archived == nil || *in.Archived) {
		c.Fail(http.StatusForbidden, "Repository was archived so is read-only.", doc)
		return
	}
	if in.Name != nil && *in.Name != r.Name {
		if !state.ValidRepoName(*in.Name) {
			c.Invalid("", doc, wire.FieldError{Resource: "Repository", Field: "name", Code: "invalid"})
			return
		}
		if other := c.State.Repo(r.Owner.Login, *in.Name); other != nil && other != r {
			c.Invalid("", doc, wire.FieldError{Resource: "Repository", Field: "name", Code: "custom", Message: "name already exists on this account"})
			return
		}
	}
	if in.Visibility != nil && *in.Visibility != "public" && *in.Visibility != "private" {
		c.Invalid("", doc, wire.FieldError{Resource: "Repository", Field: "visibility", Code: "invalid"})
		return
	}
	// Only branches the repository has can be its default; the emulator
	// keeps every repository's default at main.
	if in.DefaultBranch != nil && *in.DefaultBranch != state.RepoDefaultBranch {
		c.Invalid("", doc, wire.FieldError{Resource: "Repository", Field: "default_branch", Code: "invalid"})
		return
	}
	if in.Description.Set {
		r.Description = in.Description.Value
	}
	if in.Homepage.Set {
		r.Homepage = in.Homepage.Value
	}
	if in.Private != nil {
		r.Private = *in.Private
	}
	if in.Visibility != nil {
		r.Private = *in.Visibility == "private"
	}
	if in.HasIssues != nil {
		r.IssuesDisabled = !*in.HasIssues
	}
	if in.HasWiki != nil {
		r.WikiDisabled = !*in.HasWiki
	}
	if in.Archived != nil {
		r.Archived = *in.Archived
	}
	if in.Name != nil && *in.Name != r.Name {
		c.State.RenameRepo(r, *in.Name)
	}
	r.UpdatedAt = c.State.Now()
	c.JSON(http.StatusOK, c.repoJSON(r, true))
}

// deleteRepo needs admin rights and, for a classic token, the delete_repo
// scope: GitHub answers a token without it 403 and names the scope in
// X-Accepted-OAuth-Scopes, which GitHub's CLI turns into its hint.
func deleteRepo(c *call) {
	r := c.repoAdmin()
	if r == nil {
		return
	}
	const doc = reposDoc + "#delete-a-repository"
	if !c.Token.HasScope("delete_repo") {
		c.W.Header().Set("X-Accepted-OAuth-Scopes", "delete_repo")
		c.Fail(http.StatusForbidden, adminRights, doc)
		return
	}
	c.State.DeleteRepo(r)
	c.NoContent()
}

// simpleValidation is GitHub's validation-error-simple.
type simpleValidation struct {
	Message          string   `json:"message"`
	DocumentationURL string   `json:"documentation_url"`
	Errors           []string `json:"errors"`
}

type topicsJSON struct {
	Names []string `json:"names"`
}

func getTopics(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	c.JSON(http.StatusOK, topicsJSON{Names: topicNames(r)})
}

func replaceTopics(c *call) {
	r := c.repoAdmin()
	if r == nil {
		return
	}
	const doc = reposDoc + "#replace-all-repository-topics"
	if r.Archived {
		c.Fail(http.StatusForbidden, "Repository was archived so is read-only.", doc)
		return
	}
	var in struct {
		Names *[]string `json:"names"`
	}
	if !c.Decode(&in) {
		return
	}
	if in.Names == nil {
		c.Invalid("Invalid request.\n\n\"names\" wasn't supplied.", doc)
		return
	}
	names, bad := state.NormalizeTopics(*in.Names)
	if bad != "" || len(names) > state.MaxTopics {
		// GitHub's answer here is validation-error-simple: its errors
		// are sentences.
		c.JSON(http.StatusUnprocessableEntity, simpleValidation{Message: "Validation Failed", DocumentationURL: wire.DocsURL(doc),
			Errors: []string{"Topics must start with a lowercase letter or number, consist of 50 characters or less, and can include hyphens; a repository has at most 20 topics."}})
		return
	}
	r.Topics = names
	r.UpdatedAt = c.State.Now()
	c.JSON(http.StatusOK, topicsJSON{Names: topicNames(r)})
}

func topicNames(r *state.Repo) []string {
	if r.Topics == nil {
		return []string{}
	}
	return r.Topics
}

// repoCreate is the body of POST /user/repos and /orgs/{org}/repos.
type repoCreate struct {
	Name        string  `json:"name"`
	Description string  `json:"description"`
	Homepage    string  `json:"homepage"`
	Private     bool    `json:"private"`
	Visibility  *string `json:"visibility"`
	HasIssues   *bool   `json:"has_issues"`
	HasWiki     *bool   `json:"has_wiki"`
	AutoInit    bool    `json:"auto_init"`
}

func createViewerRepo(c *call) {
	if c.Viewer == nil || c.Viewer.IsBot {
		c.NotFound()
		return
	}
	c.createRepo(c.Viewer, reposDoc+"#create-a-repository-for-the-authenticated-user")
}

func createOrgRepo(c *call) {
	org := c.State.Account(c.Req.PathValue("org"))
	if org == nil || !org.IsOrg {
		c.NotFound()
		return
	}
	const doc = reposDoc + "#create-an-organization-repository"
	if !c.State.MayCreateRepoIn(org, c.Viewer) {
		c.Fail(http.StatusForbidden, orgAdminNeeded, doc)
		return
	}
	c.createRepo(org, doc)
}

// createRepo makes owner's repository from the request body (GraphQL's
// createRepository shares the state code: [state.CreateRepo]).
func (c *call) createRepo(owner *state.Account, doc string) {
	var in repoCreate
	if !c.Decode(&in) {
		return
	}
	if in.Name == "" {
		c.Invalid("", doc, wire.FieldError{Resource: "Repository", Field: "name", Code: "missing_field"})
		return
	}
	if !state.ValidRepoName(in.Name) {
		c.Invalid("", doc, wire.FieldError{Resource: "Repository", Field: "name", Code: "invalid"})
		return
	}
	if c.State.Repo(owner.Login, in.Name) != nil {
		c.Invalid("Repository creation failed.", doc, wire.FieldError{Resource: "Repository", Field: "name", Code: "custom", Message: "name already exists on this account"})
		return
	}
	private := in.Private
	if in.Visibility != nil {
		switch *in.Visibility {
		case "public", "private":
			private = *in.Visibility == "private"
		default:
			c.Invalid("", doc, wire.FieldError{Resource: "Repository", Field: "visibility", Code: "invalid"})
			return
		}
	}
	r := c.State.CreateRepo(owner, c.Viewer, in.Name, in.Description, private, in.AutoInit)
	r.Homepage = in.Homepage
	r.IssuesDisabled = in.HasIssues != nil && !*in.HasIssues
	r.WikiDisabled = in.HasWiki != nil && !*in.HasWiki
	c.W.Header().Set("Location", c.Links.Repo(r))
	c.JSON(http.StatusCreated, c.repoJSON(r, true))
}

// forkRequest is the body of POST /repos/{owner}/{repo}/forks.
type forkRequest struct {
	Organization      string `json:"organization"`
	Name              string `json:"name"`
	DefaultBranchOnly bool   `json:"default_branch_only"`
}

// createFork forks the repository under the caller, or the organization
// named, and answers 202 as GitHub does while it copies the git data. A
// caller asking for a fork it already has gets that fork.
func createFork(c *call) {
	parent := c.RepoFor(state.PermRead)
	if parent == nil {
		return
	}
	var in forkRequest
	if !c.Decode(&in) {
		return
	}
	const doc = reposDoc + "/forks#create-a-fork"
	owner := c.Viewer
	if in.Organization != "" {
		org := c.State.Account(in.Organization)
		if org == nil || !org.IsOrg {
			c.Invalid("", doc, wire.FieldError{Resource: "Fork", Field: "organization", Code: "invalid"})
			return
		}
		if !c.State.MayCreateRepoIn(org, c.Viewer) {
			c.Fail(http.StatusForbidden, orgAdminNeeded, doc)
			return
		}
		owner = org
	}
	if owner == nil || owner.IsBot {
		c.NotFound()
		return
	}
	if owner == parent.Owner {
		// GitHub answers a fork of one's own repository with the
		// repository itself.
		c.JSON(http.StatusAccepted, c.repoJSON(parent, true))
		return
	}
	if in.Name != "" && !state.ValidRepoName(in.Name) {
		c.Invalid("", doc, wire.FieldError{Resource: "Fork", Field: "name", Code: "invalid"})
		return
	}
	f := c.State.ForkFor(parent, owner, strings.TrimSpace(in.Name))
	c.JSON(http.StatusAccepted, c.repoJSON(f, true))
}
