package graphql

import (
	"slices"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// The board mutations gh's project command group sends: create, edit
// (close and reopen), copy and delete a board; create and delete a
// custom field; edit a draft issue; link and unlink a repository. Each
// needs the project scope on a classic token. A user creates boards only
// for themselves and an organization's members for it (GitHub's default
// base permission); a board's settings, copying aside, and its deletion
// need its admin role, its fields and draft issues the write role, as
// GitHub's project roles divide them.

type createProjectArgs struct {
	Input struct {
		OwnerID          gqlID   `json:"ownerId"`
		Title            string  `json:"title"`
		RepositoryID     *gqlID  `json:"repositoryId"`
		TeamID           *gqlID  `json:"teamId"`
		ClientMutationID *string `json:"clientMutationId"`
	} `json:"input"`
}

type updateProjectArgs struct {
	Input struct {
		ProjectID gqlID `json:"projectId"`
		// null clears the short description and the readme; a board
		// cannot be without a title, so null there is refused. A null
		// public or closed, flags with nothing to clear, leaves them as
		// they are.
		Title            nullable[string] `json:"title"`
		ShortDescription nullable[string] `json:"shortDescription"`
		Readme           nullable[string] `json:"readme"`
		Public           *bool            `json:"public"`
		Closed           *bool            `json:"closed"`
		ClientMutationID *string          `json:"clientMutationId"`
	} `json:"input"`
}

type projectIDArgs struct {
	Input struct {
		ProjectID        gqlID   `json:"projectId"`
		ClientMutationID *string `json:"clientMutationId"`
	} `json:"input"`
}

type copyProjectArgs struct {
	Input struct {
		ProjectID          gqlID   `json:"projectId"`
		OwnerID            gqlID   `json:"ownerId"`
		Title              string  `json:"title"`
		IncludeDraftIssues *bool   `json:"includeDraftIssues"`
		ClientMutationID   *string `json:"clientMutationId"`
	} `json:"input"`
}

type createFieldArgs struct {
	Input struct {
		ProjectID           gqlID  `json:"projectId"`
		Name                string `json:"name"`
		DataType            string `json:"dataType"`
		SingleSelectOptions []struct {
			Name        string `json:"name"`
			Color       string `json:"color"`
			Description string `json:"description"`
		} `json:"singleSelectOptions"`
		IterationConfiguration *iterationConfigInput `json:"iterationConfiguration"`
		ClientMutationID       *string               `json:"clientMutationId"`
	} `json:"input"`
}

// iterationConfigInput is GitHub's ProjectV2IterationFieldConfigurationInput.
type iterationConfigInput struct {
	Duration   int    `json:"duration"`
	StartDate  string `json:"startDate"`
	Iterations []struct {
		Title     string `json:"title"`
		StartDate string `json:"startDate"`
		Duration  int    `json:"duration"`
	} `json:"iterations"`
}

type deleteFieldArgs struct {
	Input struct {
		FieldID          gqlID   `json:"fieldId"`
		ClientMutationID *string `json:"clientMutationId"`
	} `json:"input"`
}

type updateDraftArgs struct {
	Input struct {
		DraftIssueID gqlID `json:"draftIssueId"`
		// null clears the body and the assignees; a draft issue cannot
		// be without a title, so null there is refused.
		Title            nullable[string]  `json:"title"`
		Body             nullable[string]  `json:"body"`
		AssigneeIDs      nullable[[]gqlID] `json:"assigneeIds"`
		ClientMutationID *string           `json:"clientMutationId"`
	} `json:"input"`
}

type linkRepoArgs struct {
	Input struct {
		ProjectID        gqlID   `json:"projectId"`
		RepositoryID     gqlID   `json:"repositoryId"`
		ClientMutationID *string `json:"clientMutationId"`
	} `json:"input"`
}

// boardPayload is what the board mutations return.
type boardPayload struct {
	project          *state.Project
	field            *state.ProjectField
	draft            *state.DraftIssue
	repo             *state.Repo
	clientMutationID *string
}

func registerProjectBoards(r *resolvers) {
	resolveArgs(r, "Mutation.createProjectV2", createProject)
	resolveArgs(r, "Mutation.updateProjectV2", updateProject)
	resolveArgs(r, "Mutation.deleteProjectV2", func(x *gqlContext, _ root, a projectIDArgs) (any, error) {
		p, err := x.boardWithRole(a.Input.ProjectID, state.PermAdmin, "DeleteProjectV2")
		if err != nil {
			return nil, err
		}
		x.st.DeleteProject(p)
		return &boardPayload{project: p, clientMutationID: a.Input.ClientMutationID}, nil
	})
	resolveArgs(r, "Mutation.copyProjectV2", copyProject)
	resolveArgs(r, "Mutation.createProjectV2Field", createField)
	resolveArgs(r, "Mutation.deleteProjectV2Field", deleteField)
	resolveArgs(r, "Mutation.updateProjectV2DraftIssue", updateDraft)
	resolveArgs(r, "Mutation.linkProjectV2ToRepository", func(x *gqlContext, _ root, a linkRepoArgs) (any, error) {
		return linkRepo(x, a, true)
	})
	resolveArgs(r, "Mutation.unlinkProjectV2FromRepository", func(x *gqlContext, _ root, a linkRepoArgs) (any, error) {
		return linkRepo(x, a, false)
	})

	for _, t := range []string{"CreateProjectV2Payload", "UpdateProjectV2Payload", "DeleteProjectV2Payload", "CopyProjectV2Payload"} {
		resolve(r, t+".projectV2", func(_ *gqlContext, p *boardPayload) (any, error) { return p.project, nil })
	}
	for _, t := range []string{"CreateProjectV2FieldPayload", "DeleteProjectV2FieldPayload"} {
		resolve(r, t+".projectV2Field", func(_ *gqlContext, p *boardPayload) (any, error) { return p.field, nil })
	}
	resolve(r, "UpdateProjectV2DraftIssuePayload.draftIssue", func(_ *gqlContext, p *boardPayload) (any, error) { return p.draft, nil })
	for _, t := range []string{"LinkProjectV2ToRepositoryPayload", "UnlinkProjectV2FromRepositoryPayload"} {
		resolve(r, t+".repository", func(_ *gqlContext, p *boardPayload) (any, error) { return p.repo, nil })
	}
	for _, t := range []string{"CreateProjectV2Payload", "UpdateProjectV2Payload", "DeleteProjectV2Payload", "CopyProjectV2Payload",
		"CreateProjectV2FieldPayload", "DeleteProjectV2FieldPayload", "UpdateProjectV2DraftIssuePayload",
		"LinkProjectV2ToRepositoryPayload", "UnlinkProjectV2FromRepositoryPayload"} {
		resolve(r, t+".clientMutationId", func(_ *gqlContext, p *boardPayload) (any, error) { return p.clientMutationID, nil })
	}
}

// boardWithRole resolves a board id on which the caller has at least the
// role.
func (x *gqlContext) boardWithRole(id gqlID, role state.Permission, mutation string) (*state.Project, error) {
	p, err := x.writableBoard(id, mutation)
	if err != nil {
		return nil, err
	}
	if x.projectPermission(p) < role {
		return nil, forbidden(x.c.Token.Login, mutation)
	}
	return p, nil
}

// projectOwner resolves the owner a board is created under and checks the
// caller may create one there: a user only for themselves (and not with a
// fine-grained token, which never reaches a user's boards), an
// organization for its members.
func (x *gqlContext) projectOwner(id gqlID, mutation string) (*state.Account, error) {
	if err := x.projectScope(true); err != nil {
		return nil, err
	}
	owner, _ := x.st.Node(string(id)).(*state.Account)
	if owner == nil {
		return nil, nodeNotFound(string(id))
	}
	viewer := x.c.Viewer
	switch {
	case viewer == nil:
		return nil, forbidden(x.c.Token.Login, mutation)
	case owner.IsOrg && !x.st.IsOrgMember(owner, viewer):
		return nil, forbidden(x.c.Token.Login, mutation)
	case !owner.IsOrg && (owner != viewer || x.c.Token.FineGrained):
		return nil, forbidden(x.c.Token.Login, mutation)
	}
	return owner, nil
}

func createProject(x *gqlContext, _ root, a createProjectArgs) (any, error) {
	owner, err := x.projectOwner(a.Input.OwnerID, "CreateProjectV2")
	if err != nil {
		return nil, err
	}
	title := strings.TrimSpace(a.Input.Title)
	if title == "" {
		return nil, unprocessable("Title can't be blank")
	}
	var team *state.Team
	if a.Input.TeamID != nil {
		if team, err = x.ownersTeam(owner, *a.Input.TeamID); err != nil {
			return nil, err
		}
	}
	var repo *state.Repo
	if a.Input.RepositoryID != nil {
		if repo, err = x.linkableRepo(owner, *a.Input.RepositoryID); err != nil {
			return nil, err
		}
	}
	p := x.st.AddProject(owner, x.c.Viewer, title, nil, false)
	if repo != nil {
		x.st.LinkProjectRepo(p, repo)
	}
	if team != nil {
		x.st.LinkProjectTeam(p, team)
	}
	return &boardPayload{project: p, clientMutationID: a.Input.ClientMutationID}, nil
}

// linkableRepo resolves a repository the caller may link to a board of
// owner: one it can write to, of the same owner, as GitHub links only
// those.
func (x *gqlContext) linkableRepo(owner *state.Account, id gqlID) (*state.Repo, error) {
	repo, _ := x.visibleNode(string(id)).(*state.Repo)
	if repo == nil {
		return nil, nodeNotFound(string(id))
	}
	if x.c.Token.Permission(repo) < state.PermWrite {
		return nil, forbidden(x.c.Token.Login, "LinkProjectV2ToRepository")
	}
	if repo.Owner != owner {
		return nil, unprocessable("The repository must be owned by the project's owner")
	}
	return repo, nil
}

func updateProject(x *gqlContext, _ root, a updateProjectArgs) (any, error) {
	in := a.Input
	p, err := x.boardWithRole(in.ProjectID, state.PermAdmin, "UpdateProjectV2")
	if err != nil {
		return nil, err
	}
	if in.Title.Set && strings.TrimSpace(deref(in.Title.Value)) == "" {
		return nil, unprocessable("Title can't be blank")
	}
	if in.Public != nil && *in.Public && x.c.Token.FineGrained && !p.Owner.IsOrg {
		return nil, forbidden(x.c.Token.Login, "UpdateProjectV2")
	}
	x.st.EditProject(p, state.ProjectEdit{Title: in.Title.Value, ShortDescription: in.ShortDescription.Value, Readme: in.Readme.Value,
		Public: in.Public, Closed: in.Closed})
	// ProjectEdit leaves what it is given as nil; a null clears.
	if in.ShortDescription.Null() {
		p.ShortDescription = nil
	}
	if in.Readme.Null() {
		p.Readme = nil
	}
	return &boardPayload{project: p, clientMutationID: in.ClientMutationID}, nil
}

// copyProject copies a board the caller can see to an owner it may create
// boards for.
func copyProject(x *gqlContext, _ root, a copyProjectArgs) (any, error) {
	owner, err := x.projectOwner(a.Input.OwnerID, "CopyProjectV2")
	if err != nil {
		return nil, err
	}
	src, _ := x.visibleNode(string(a.Input.ProjectID)).(*state.Project)
	if src == nil {
		return nil, nodeNotFound(string(a.Input.ProjectID))
	}
	title := strings.TrimSpace(a.Input.Title)
	if title == "" {
		return nil, unprocessable("Title can't be blank")
	}
	drafts := a.Input.IncludeDraftIssues != nil && *a.Input.IncludeDraftIssues
	p := x.st.CopyProject(src, owner, x.c.Viewer, title, drafts)
	return &boardPayload{project: p, clientMutationID: a.Input.ClientMutationID}, nil
}

func createField(x *gqlContext, _ root, a createFieldArgs) (any, error) {
	in := a.Input
	p, err := x.writableBoard(in.ProjectID, "CreateProjectV2Field")
	if err != nil {
		return nil, err
	}
	name := strings.TrimSpace(in.Name)
	switch {
	case name == "":
		return nil, unprocessable("Name can't be blank")
	case p.FindField(name) != nil:
		return nil, unprocessable("Name has already been taken")
	case in.DataType == "SINGLE_SELECT" && len(in.SingleSelectOptions) == 0:
		return nil, unprocessable("At least one option is required for a single select field")
	case in.DataType != "SINGLE_SELECT" && len(in.SingleSelectOptions) > 0:
		return nil, unprocessable("Options can only be given for a single select field")
	case in.DataType != "ITERATION" && in.IterationConfiguration != nil:
		return nil, unprocessable("An iteration configuration can only be given for an iteration field")
	}
	if in.DataType == "ITERATION" {
		return x.createIterationField(p, name, in.IterationConfiguration, in.ClientMutationID)
	}
	f := x.st.AddProjectField(p, name, in.DataType)
	for _, o := range in.SingleSelectOptions {
		x.st.AddProjectOption(f, o.Name, o.Color, o.Description)
	}
	return &boardPayload{field: f, clientMutationID: in.ClientMutationID}, nil
}

// createIterationField adds an iteration field with the schedule given, or
// GitHub's default: three two-week iterations from today.
func (x *gqlContext) createIterationField(p *state.Project, name string, cfg *iterationConfigInput, clientMutationID *string) (any, error) {
	duration, start := 14, x.st.Now()
	var iterations []state.Iteration
	if cfg != nil {
		if cfg.Duration < 1 {
			return nil, unprocessable("Duration must be greater than 0")
		}
		d, err := time.Parse(time.DateOnly, cfg.StartDate)
		if err != nil {
			return nil, unprocessable("Start date is not a valid date: " + cfg.StartDate)
		}
		duration, start = cfg.Duration, d
		for _, it := range cfg.Iterations {
			if _, err := time.Parse(time.DateOnly, it.StartDate); err != nil || it.Duration < 1 || strings.TrimSpace(it.Title) == "" {
				return nil, unprocessable("Each iteration needs a title, a start date and a duration greater than 0")
			}
			iterations = append(iterations, state.Iteration{Title: it.Title, StartDate: it.StartDate, Duration: it.Duration})
		}
	}
	f := x.st.AddIterationField(p, name, duration, start, iterations)
	return &boardPayload{field: f, clientMutationID: clientMutationID}, nil
}

func deleteField(x *gqlContext, _ root, a deleteFieldArgs) (any, error) {
	if err := x.projectScope(true); err != nil {
		return nil, err
	}
	f, _ := x.visibleNode(string(a.Input.FieldID)).(*state.ProjectField)
	if f == nil {
		return nil, nodeNotFound(string(a.Input.FieldID))
	}
	if x.projectPermission(f.Project) < state.PermWrite {
		return nil, forbidden(x.c.Token.Login, "DeleteProjectV2Field")
	}
	if f.Builtin() {
		return nil, unprocessable("The " + f.Name + " field is built into every project and cannot be deleted")
	}
	x.st.DeleteProjectField(f)
	return &boardPayload{field: f, clientMutationID: a.Input.ClientMutationID}, nil
}

func updateDraft(x *gqlContext, _ root, a updateDraftArgs) (any, error) {
	in := a.Input
	if err := x.projectScope(true); err != nil {
		return nil, err
	}
	d, _ := x.visibleNode(string(in.DraftIssueID)).(*state.DraftIssue)
	if d == nil {
		return nil, nodeNotFound(string(in.DraftIssueID))
	}
	if x.projectPermission(d.Item.Project) < state.PermWrite {
		return nil, forbidden(x.c.Token.Login, "UpdateProjectV2DraftIssue")
	}
	if in.Title.Set && strings.TrimSpace(deref(in.Title.Value)) == "" {
		return nil, unprocessable("Title can't be blank")
	}
	e := state.DraftEdit{Title: in.Title.Value, Body: in.Body.Value}
	if in.Body.Null() {
		e.Body = new(string)
	}
	if in.AssigneeIDs.Set {
		// null, as [], leaves the draft unassigned.
		assignees, err := x.draftAssignees(deref(in.AssigneeIDs.Value))
		if err != nil {
			return nil, err
		}
		e.Assignees = &assignees
	}
	x.st.EditDraftIssue(d, e)
	return &boardPayload{draft: d, clientMutationID: in.ClientMutationID}, nil
}

func linkRepo(x *gqlContext, a linkRepoArgs, link bool) (any, error) {
	name := "LinkProjectV2ToRepository"
	if !link {
		name = "UnlinkProjectV2FromRepository"
	}
	p, err := x.boardWithRole(a.Input.ProjectID, state.PermAdmin, name)
	if err != nil {
		return nil, err
	}
	repo, err := x.linkableRepo(p.Owner, a.Input.RepositoryID)
	if err != nil {
		return nil, err
	}
	switch {
	case link:
		x.st.LinkProjectRepo(p, repo)
	case !slices.Contains(p.Repos, repo):
		return nil, unprocessable("The repository is not linked to the project")
	default:
		x.st.UnlinkProjectRepo(p, repo)
	}
	return &boardPayload{repo: repo, clientMutationID: a.Input.ClientMutationID}, nil
}
