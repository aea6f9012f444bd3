package graphql

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// Projects (v2) in GraphQL: an owner's boards (projectV2, projectsV2), a
// board's fields and items, an item's content and field values, and the
// projectItems of an issue or pull request. Access is GitHub's: a classic
// token needs the read:project scope (project to write), a board the
// viewer may not see does not resolve, and a fine-grained token never sees
// a user's boards.

// projectsArgs are the arguments of an owner's projectsV2.
type projectsArgs struct {
	connArgs
	Query              *string       `json:"query"`
	OrderBy            *projectOrder `json:"orderBy"`
	MinPermissionLevel *string       `json:"minPermissionLevel"`
}

// projectOrder is GitHub's ProjectV2Order.
type projectOrder struct {
	Field     string `json:"field"`     // NUMBER | TITLE | CREATED_AT | UPDATED_AT
	Direction string `json:"direction"` // ASC | DESC
}

// positionOrder is the orderBy of a board's fields, items and an item's
// values: POSITION (the only field the emulator orders by) and a direction.
type positionOrder struct {
	Field     string `json:"field"`
	Direction string `json:"direction"`
}

type positionArgs struct {
	connArgs
	OrderBy *positionOrder `json:"orderBy"`
}

// boardItemsArgs are ProjectV2.items': position order and GitHub's item
// filter (query, state/projects_filter.go).
type boardItemsArgs struct {
	positionArgs
	Query *string `json:"query"`
}

type projectItemsArgs struct {
	connArgs
	IncludeArchived *bool `json:"includeArchived"`
}

type optionsArgs struct {
	Names []string `json:"names"`
}

// insufficientScopes is GitHub's refusal of a field the token's OAuth
// scopes do not cover, naming the field, the scope it wants and the
// scopes the token has.
func insufficientScopes(field, scope string, t *state.Token) error {
	has := slices.Sorted(slices.Values(t.Scopes))
	quoted := make([]string, len(has))
	for i, s := range has {
		quoted[i] = "'" + s + "'"
	}
	return &gqlError{Type: "INSUFFICIENT_SCOPES", Message: fmt.Sprintf(
		"Your token has not been granted the required scopes to execute this query. The '%s' field requires one of the following scopes: ['%s'], but your token has only been granted the: [%s] scopes. Please modify your token's scopes at: https://github.com/settings/tokens.",
		field, scope, strings.Join(quoted, ", "))}
}

// projectScope checks the token may read (or, for a mutation, write)
// projects at all.
func (x *gqlContext) projectScope(write bool) error {
	scope := "read:project"
	if write {
		scope = "project"
	}
	if !x.c.Token.HasScope(scope) {
		return insufficientScopes(x.field.Name, scope, x.c.Token)
	}
	return nil
}

// projectPermission is what the caller may do on a board.
func (x *gqlContext) projectPermission(p *state.Project) state.Permission {
	return x.st.TokenProjectPermission(x.c.Token, x.c.Viewer, p)
}

func (x *gqlContext) seesProject(p *state.Project) bool {
	return x.projectPermission(p) >= state.PermRead
}

func projectNotFound(number int) error {
	return notFound("Could not resolve to a ProjectV2 with the number %d.", number)
}

// seesContent reports whether the caller may see an item's issue or pull
// request; an item whose content it may not see is REDACTED.
func (x *gqlContext) seesContent(it *state.ProjectItem) bool {
	if it.Draft != nil {
		return true
	}
	return it.Issue != nil && !it.Issue.Deleted && x.canRead(it.Issue.Repo)
}

func registerProjects(r *resolvers) {
	objectType(r, func(*state.Project) string { return "ProjectV2" })
	objectType(r, func(*state.ProjectItem) string { return "ProjectV2Item" })
	objectType(r, func(*state.DraftIssue) string { return "DraftIssue" })
	objectType(r, func(f *state.ProjectField) string {
		switch f.DataType {
		case "SINGLE_SELECT":
			return "ProjectV2SingleSelectField"
		case "ITERATION":
			return "ProjectV2IterationField"
		}
		return "ProjectV2Field"
	})
	objectType(r, func(*state.ProjectOption) string { return "ProjectV2SingleSelectFieldOption" })
	objectType(r, func(*state.IterationConfig) string { return "ProjectV2IterationFieldConfiguration" })
	objectType(r, func(*state.Iteration) string { return "ProjectV2IterationFieldIteration" })

	for _, t := range []string{"User", "Organization"} {
		resolveArgs(r, t+".projectV2", func(x *gqlContext, owner *state.Account, a numberArgs) (any, error) {
			if err := x.projectScope(false); err != nil {
				return nil, err
			}
			p := x.st.Project(owner, a.Number)
			if p == nil || !x.seesProject(p) {
				return nil, projectNotFound(a.Number)
			}
			return p, nil
		})
		resolveArgs(r, t+".projectsV2", func(x *gqlContext, owner *state.Account, a projectsArgs) (any, error) {
			if err := x.projectScope(false); err != nil {
				return nil, err
			}
			return x.projectList(x.st.Projects(owner), a)
		})
	}
	// A repository's projects are its owner's boards linked to it: by
	// linkProjectV2ToRepository, or when one of its issues or pull requests
	// was added (GitHub links them then).
	resolveArgs(r, "Repository.projectsV2", func(x *gqlContext, repo *state.Repo, a projectsArgs) (any, error) {
		if err := x.projectScope(false); err != nil {
			return nil, err
		}
		var linked []*state.Project
		for _, p := range x.st.Projects(repo.Owner) {
			if slices.Contains(p.Repos, repo) {
				linked = append(linked, p)
			}
		}
		return x.projectList(linked, a)
	})
	for _, t := range []string{"Issue", "PullRequest"} {
		resolveArgs(r, t+".projectItems", func(x *gqlContext, is *state.Issue, a projectItemsArgs) (any, error) {
			if err := x.projectScope(false); err != nil {
				return nil, err
			}
			var list []*state.ProjectItem
			for _, it := range x.st.ProjectItemsOf(is) {
				if x.seesProject(it.Project) && (a.IncludeArchived == nil || *a.IncludeArchived || !it.Archived) {
					list = append(list, it)
				}
			}
			return pageOf(x, list, a.connArgs)
		})
	}

	registerProjectFields(r)
	registerProjectItems(r)
	registerProjectValues(r)
	registerProjectMutations(r)
	registerProjectBoards(r)
	registerProjectTeams(r)
	registerResource(r)
}

// projectList filters (query matches title words; is:open, is:closed) and
// orders an owner's boards the caller can see; GitHub's default order is
// by number, newest first.
func (x *gqlContext) projectList(all []*state.Project, a projectsArgs) (any, error) {
	var terms []string
	if a.Query != nil {
		terms = strings.Fields(*a.Query)
	}
	var list []*state.Project
	for _, p := range all {
		if !x.seesProject(p) || !projectMatches(p, terms) {
			continue
		}
		if a.MinPermissionLevel != nil && x.projectPermission(p) < permissionLevel(*a.MinPermissionLevel) {
			continue
		}
		list = append(list, p)
	}
	o := projectOrder{Field: "NUMBER", Direction: "DESC"}
	if a.OrderBy != nil {
		o = *a.OrderBy
	}
	slices.SortStableFunc(list, func(p, q *state.Project) int {
		c := 0
		switch o.Field {
		case "TITLE":
			c = strings.Compare(strings.ToLower(p.Title), strings.ToLower(q.Title))
		case "CREATED_AT":
			c = p.CreatedAt.Compare(q.CreatedAt)
		case "UPDATED_AT":
			c = p.UpdatedAt.Compare(q.UpdatedAt)
		}
		if c == 0 {
			c = p.Number - q.Number
		}
		if o.Direction == "DESC" {
			return -c
		}
		return c
	})
	return pageOf(x, list, a.connArgs)
}

// projectMatches applies a projectsV2 query: is:open and is:closed, and
// every other word found in the title or description.
func projectMatches(p *state.Project, terms []string) bool {
	for _, t := range terms {
		switch strings.ToLower(t) {
		case "is:open":
			if p.Closed {
				return false
			}
		case "is:closed":
			if !p.Closed {
				return false
			}
		default:
			desc := ""
			if p.ShortDescription != nil {
				desc = *p.ShortDescription
			}
			if !strings.Contains(strings.ToLower(p.Title+" "+desc), strings.ToLower(t)) {
				return false
			}
		}
	}
	return true
}

// permissionLevel reads a ProjectV2PermissionLevel.
func permissionLevel(s string) state.Permission {
	switch s {
	case "ADMIN":
		return state.PermAdmin
	case "WRITE":
		return state.PermWrite
	}
	return state.PermRead
}

func registerProjectBoard(r *resolvers) {
	const p = "ProjectV2"
	resolve(r, p+".id", func(_ *gqlContext, pr *state.Project) (any, error) { return pr.NodeID, nil })
	resolve(r, p+".fullDatabaseId", func(_ *gqlContext, pr *state.Project) (any, error) { return bigInt(pr.ID), nil })
	resolve(r, p+".databaseId", func(_ *gqlContext, pr *state.Project) (any, error) { return pr.ID, nil })
	resolve(r, p+".number", func(_ *gqlContext, pr *state.Project) (any, error) { return pr.Number, nil })
	resolve(r, p+".title", func(_ *gqlContext, pr *state.Project) (any, error) { return pr.Title, nil })
	resolve(r, p+".shortDescription", func(_ *gqlContext, pr *state.Project) (any, error) { return pr.ShortDescription, nil })
	resolve(r, p+".readme", func(_ *gqlContext, pr *state.Project) (any, error) { return pr.Readme, nil })
	resolve(r, p+".public", func(_ *gqlContext, pr *state.Project) (any, error) { return pr.Public, nil })
	resolve(r, p+".closed", func(_ *gqlContext, pr *state.Project) (any, error) { return pr.Closed, nil })
	resolve(r, p+".closedAt", func(_ *gqlContext, pr *state.Project) (any, error) { return pr.ClosedAt, nil })
	resolve(r, p+".createdAt", func(_ *gqlContext, pr *state.Project) (any, error) { return pr.CreatedAt, nil })
	resolve(r, p+".updatedAt", func(_ *gqlContext, pr *state.Project) (any, error) { return pr.UpdatedAt, nil })
	resolve(r, p+".creator", func(_ *gqlContext, pr *state.Project) (any, error) { return pr.Creator, nil })
	resolve(r, p+".owner", func(_ *gqlContext, pr *state.Project) (any, error) { return pr.Owner, nil })
	resolve(r, p+".resourcePath", func(_ *gqlContext, pr *state.Project) (any, error) { return projectPath(pr), nil })
	resolve(r, p+".url", func(x *gqlContext, pr *state.Project) (any, error) { return x.webURL(projectPath(pr)), nil })
	resolve(r, p+".viewerCanUpdate", func(x *gqlContext, pr *state.Project) (any, error) {
		return x.projectPermission(pr) >= state.PermWrite, nil
	})
	for _, f := range []string{"viewerCanClose", "viewerCanReopen"} {
		resolve(r, p+"."+f, func(x *gqlContext, pr *state.Project) (any, error) {
			return x.projectPermission(pr) >= state.PermAdmin, nil
		})
	}
	resolveArgs(r, p+".fields", func(x *gqlContext, pr *state.Project, a positionArgs) (any, error) {
		return pageOf(x, orderedFields(pr.Fields, a.OrderBy), a.connArgs)
	})
	resolveArgs(r, p+".field", func(_ *gqlContext, pr *state.Project, a nameArgs) (any, error) {
		if f := pr.FindField(a.Name); f != nil {
			return f, nil
		}
		return nil, nil
	})
	resolveArgs(r, p+".items", func(x *gqlContext, pr *state.Project, a boardItemsArgs) (any, error) {
		items := pr.Items
		if a.Query != nil && strings.TrimSpace(*a.Query) != "" {
			f, err := state.ParseItemFilter(pr, *a.Query)
			if err != nil {
				return nil, &gqlError{Message: err.Error()}
			}
			items = nil
			for _, it := range pr.Items {
				if f.Match(it, x.c.Viewer, x.st.Now()) {
					items = append(items, it)
				}
			}
		}
		return pageOf(x, positioned(items, a.OrderBy), a.connArgs)
	})
}

// positioned is a list in position order, reversed for DESC.
func positioned[T any](list []T, o *positionOrder) []T {
	if o != nil && o.Direction == "DESC" {
		out := slices.Clone(list)
		slices.Reverse(out)
		return out
	}
	return list
}

// orderedFields orders a board's fields by POSITION, NAME or CREATED_AT.
func orderedFields(list []*state.ProjectField, o *positionOrder) []*state.ProjectField {
	if o == nil || o.Field == "POSITION" {
		return positioned(list, o)
	}
	out := slices.Clone(list)
	slices.SortStableFunc(out, func(a, b *state.ProjectField) int {
		if o.Field == "NAME" {
			return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name))
		}
		return a.CreatedAt.Compare(b.CreatedAt)
	})
	if o.Direction == "DESC" {
		slices.Reverse(out)
	}
	return out
}

// projectPath is a board's address on github.com.
func projectPath(p *state.Project) string {
	kind := "users"
	if p.Owner.IsOrg {
		kind = "orgs"
	}
	return "/" + kind + "/" + p.Owner.Login + "/projects/" + strconv.Itoa(p.Number)
}

func registerProjectFields(r *resolvers) {
	registerProjectBoard(r)
	for _, t := range []string{"ProjectV2Field", "ProjectV2SingleSelectField", "ProjectV2IterationField"} {
		resolve(r, t+".id", func(_ *gqlContext, f *state.ProjectField) (any, error) { return f.NodeID, nil })
		resolve(r, t+".databaseId", func(_ *gqlContext, f *state.ProjectField) (any, error) { return f.ID, nil })
		resolve(r, t+".name", func(_ *gqlContext, f *state.ProjectField) (any, error) { return f.Name, nil })
		resolve(r, t+".dataType", func(_ *gqlContext, f *state.ProjectField) (any, error) { return f.DataType, nil })
		resolve(r, t+".createdAt", func(_ *gqlContext, f *state.ProjectField) (any, error) { return f.CreatedAt, nil })
		resolve(r, t+".updatedAt", func(_ *gqlContext, f *state.ProjectField) (any, error) { return f.UpdatedAt, nil })
		resolve(r, t+".project", func(_ *gqlContext, f *state.ProjectField) (any, error) { return f.Project, nil })
	}
	resolveArgs(r, "ProjectV2SingleSelectField.options", func(_ *gqlContext, f *state.ProjectField, a optionsArgs) (any, error) {
		if a.Names == nil {
			return f.Options, nil
		}
		out := []*state.ProjectOption{}
		for _, o := range f.Options {
			if slices.ContainsFunc(a.Names, func(n string) bool { return strings.EqualFold(n, o.Name) }) {
				out = append(out, o)
			}
		}
		return out, nil
	})
	const o = "ProjectV2SingleSelectFieldOption"
	resolve(r, o+".id", func(_ *gqlContext, v *state.ProjectOption) (any, error) { return v.ID, nil })
	resolve(r, o+".name", func(_ *gqlContext, v *state.ProjectOption) (any, error) { return v.Name, nil })
	resolve(r, o+".nameHTML", func(_ *gqlContext, v *state.ProjectOption) (any, error) { return htmlText(v.Name), nil })
	resolve(r, o+".color", func(_ *gqlContext, v *state.ProjectOption) (any, error) { return v.Color, nil })
	resolve(r, o+".description", func(_ *gqlContext, v *state.ProjectOption) (any, error) { return v.Description, nil })
	resolve(r, o+".descriptionHTML", func(_ *gqlContext, v *state.ProjectOption) (any, error) {
		return htmlText(v.Description), nil
	})

	resolve(r, "ProjectV2IterationField.configuration", func(_ *gqlContext, f *state.ProjectField) (any, error) {
		if f.Iteration == nil {
			return &state.IterationConfig{Duration: 14, StartDay: 1}, nil
		}
		return f.Iteration, nil
	})
	const c = "ProjectV2IterationFieldConfiguration"
	resolve(r, c+".duration", func(_ *gqlContext, v *state.IterationConfig) (any, error) { return v.Duration, nil })
	resolve(r, c+".startDay", func(_ *gqlContext, v *state.IterationConfig) (any, error) { return v.StartDay, nil })
	resolve(r, c+".iterations", func(_ *gqlContext, v *state.IterationConfig) (any, error) { return nonNil(v.Iterations), nil })
	resolve(r, c+".completedIterations", func(_ *gqlContext, v *state.IterationConfig) (any, error) {
		return nonNil(v.Completed), nil
	})
	const i = "ProjectV2IterationFieldIteration"
	resolve(r, i+".id", func(_ *gqlContext, v *state.Iteration) (any, error) { return v.ID, nil })
	resolve(r, i+".title", func(_ *gqlContext, v *state.Iteration) (any, error) { return v.Title, nil })
	resolve(r, i+".titleHTML", func(_ *gqlContext, v *state.Iteration) (any, error) { return htmlText(v.Title), nil })
	resolve(r, i+".startDate", func(_ *gqlContext, v *state.Iteration) (any, error) { return v.StartDate, nil })
	resolve(r, i+".duration", func(_ *gqlContext, v *state.Iteration) (any, error) { return v.Duration, nil })
}

// nonNil turns a nil list into an empty one, for non-null list fields.
func nonNil[T any](list []T) []T {
	if list == nil {
		return []T{}
	}
	return list
}

// htmlText escapes plain text as GitHub's *HTML fields render a name
// without Markdown.
func htmlText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;").Replace(s)
}
