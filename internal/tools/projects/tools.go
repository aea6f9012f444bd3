// Package projects is the projects toolset: GitHub Projects v2 boards,
// their fields and items. Agents name a board by owner and number, its
// fields and options by name and its items by issue; the node ids GitHub
// needs stay here. Values are checked against the board's fields before
// anything is written.
package projects

import (
	"context"
	"fmt"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/google/jsonschema-go/jsonschema"
)

// Toolset is this toolset's name.
const Toolset = "projects"

// The tools' names.
const (
	NameListProjects      = "github_list_projects"
	NameListProjectItems  = "github_list_project_items"
	NameGetProjectItem    = "github_get_project_item"
	NameUpdateProjectItem = "github_update_project_item"
)

// Tools builds the projects tools over a Service.
type Tools struct{ *toolkit.Service }

// Specs returns the toolset's tools in the order they are listed.
func Specs(s *toolkit.Service) []tooldef.Spec {
	t := &Tools{s}
	return []tooldef.Spec{t.ListProjects(), t.ListProjectItems(), t.GetProjectItem(), t.UpdateProjectItem()}
}

// ProjectNumber is a board's number; GitHub counts from 1.
type ProjectNumber int

// JSONSchema implements [tooldef.SelfDescribing].
func (ProjectNumber) JSONSchema() (*jsonschema.Schema, error) {
	return &jsonschema.Schema{Type: "integer", Minimum: ptr(1.0)}, nil
}

// board is a project as one call uses it: from the cache, or read.
type board struct {
	key string
	p   github.ProjectV2
	// items are the issues' items known on it ("owner/repo#n" -> id).
	items map[string]string
	// cached says the board came from the cache, so an id GitHub no
	// longer knows is worth one fresh read.
	cached bool
}

// openBoard returns owner's board number: from the cache when known,
// else read. With issue set and its item not known (or fresh set), the
// same request reads the issue's item; on is then the issue's node id
// and item (nil item: not on the board). A known item comes back as its
// id alone.
func (s *Tools) openBoard(ctx context.Context, c *github.Client, owner string, number int, issue *github.IssueRef, fresh bool) (*board, *github.IssueOnProject, error) {
	key := toolkit.ProjectKey(c, owner, number)
	now := s.CurrentTime()
	kind := ""
	if kp, ok := s.Projects().Get(key, now); ok {
		kind = kp.Project.OwnerKind
		b := &board{key: key, p: kp.Project, items: kp.Items, cached: true}
		if issue == nil {
			return b, nil, nil
		}
		if id := kp.Items[issueKey(*issue)]; id != "" && !fresh {
			return b, &github.IssueOnProject{Item: &github.ProjectItem{ID: id, Type: "ISSUE", Repo: issue.Owner + "/" + issue.Repo, Number: issue.Number}}, nil
		}
	}
	p, on, err := c.ProjectV2(ctx, kind, owner, number, issue)
	if p == nil {
		return nil, nil, boardError(err, owner, number)
	}
	s.Projects().Put(key, *p, now)
	b := &board{key: key, p: *p, items: map[string]string{}}
	if err != nil {
		// The board answered, the issue did not.
		return b, nil, toolkit.NotFoundIssue(err, issue.Owner, issue.Repo, issue.Number)
	}
	if on != nil && on.Item != nil {
		s.rememberItem(b, on.Item)
	}
	return b, on, nil
}

// rememberItem notes an issue's item on a board, so the next write to
// it needs no lookup.
func (s *Tools) rememberItem(b *board, it *github.ProjectItem) {
	if it.Type != "ISSUE" || it.Repo == "" {
		return
	}
	owner, repo, _ := strings.Cut(it.Repo, "/")
	k := toolkit.IssueKey(owner, repo, it.Number)
	b.items[k] = it.ID
	s.Projects().SetItem(b.key, k, it.ID)
}

func issueKey(r github.IssueRef) string { return toolkit.IssueKey(r.Owner, r.Repo, r.Number) }

// boardError names what a board read met: project_not_found with the
// owner's listing as the repair; a fine-grained token on a user's board
// is insufficient_scope that says so.
func boardError(err error, owner string, number int) error {
	e := toolkit.MapError(err)
	if e == nil {
		return err
	}
	switch e.Code {
	case contract.CodeNotFound:
		e.Code = contract.CodeProjectNotFound
		e.Message = fmt.Sprintf("%s has no project #%d visible to this credential", owner, number)
		e.WithField("project_number", "no such project for this owner")
		e.Repair = &contract.Repair{NextStep: "list " + owner + "'s projects and use a number it returns",
			Tool: NameListProjects, Arguments: ListProjectsIn{Owner: owner}}
	case contract.CodeInsufficientScope:
		if strings.Contains(e.Message, "fine-grained") {
			e.Repair = &contract.Repair{NextStep: "stop: this credential is a fine-grained token, which GitHub never lets reach a user's projects; the operator must configure a classic token with the project scope (or a GitHub App) for " + owner,
				Alternative: "organization boards stay reachable with this token"}
		}
	}
	return e
}

// issueRef parses an item named by repository and issue number: repo is
// owner/name, or a name under the board's owner.
func issueRef(owner, repo string, number toolkit.IssueNumber) github.IssueRef {
	if o, r, ok := strings.Cut(repo, "/"); ok {
		return github.IssueRef{Owner: o, Repo: r, Number: int(number)}
	}
	return github.IssueRef{Owner: owner, Repo: repo, Number: int(number)}
}

// checkRepoArg validates a repo argument (owner/name or name).
func checkRepoArg(field, owner, repo string) *contract.Error {
	o, r, ok := strings.Cut(repo, "/")
	if !ok {
		o, r = owner, repo
	}
	if github.CheckRepo(o, r) != nil || github.CheckOwner(o) != nil {
		return contract.Errorf(contract.CodeInvalidField, "%s is not a repository", field).WithField(field, "owner/name, or a repository name under owner")
	}
	// A call is routed and authorized by owner's credential (the broker,
	// the HTTP client policy): an issue of another owner's repository
	// would be read with it, past what the call was checked for. Such an
	// item is still reachable on the board by its item_id.
	if !strings.EqualFold(o, owner) {
		e := contract.Errorf(contract.CodeInvalidField, "%s names a repository of %s, not of the board's owner %s; nothing was read or written", field, o, owner).
			WithField(field, "must be a repository of "+owner+"; name another owner's item by item_id")
		e.Settlement = contract.NotStarted
		return e.WithRepair(contract.Repair{NextStep: "list the board's items with " + NameListProjectItems + " and name the item by its item_id"})
	}
	return nil
}

func ptr[T any](v T) *T { return &v }
