package issues

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/issueview"
	"github.com/ghgate/ghgate/internal/tools/projects"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// CreateIssueIn are github_create_issue's arguments.
type CreateIssueIn struct {
	Owner             string                  `json:"owner"`
	Repo              string                  `json:"repo"`
	Title             string                  `json:"title"`
	Body              string                  `json:"body,omitempty"`
	Labels            []string                `json:"labels,omitempty"`
	Assignees         []string                `json:"assignees,omitempty"`
	Milestone         toolkit.MilestoneNumber `json:"milestone,omitempty"`
	Type              string                  `json:"type,omitempty"`
	ParentIssueNumber toolkit.IssueNumber     `json:"parent_issue_number,omitempty"`
	IdempotencyKey    toolkit.IdempotencyKey  `json:"idempotency_key,omitempty" jsonschema:"reuse in 10 min returns it"`
	Project           *projects.Placement     `json:"project,omitempty"`
}

// Validate checks what the schema cannot.
func (in *CreateIssueIn) Validate() *contract.Error {
	if e := toolkit.CheckNames(in.Owner, in.Repo); e != nil {
		return e
	}
	if e := toolkit.CheckLength("title", strings.TrimSpace(in.Title), toolkit.MaxTitleChars); e != nil {
		return e
	}
	if e := toolkit.CheckLength("body", in.Body, toolkit.MaxBodyChars); e != nil {
		return e
	}
	switch {
	case strings.TrimSpace(in.Title) == "":
		return contract.Errorf(contract.CodeInvalidField, "title cannot be blank").WithField("title", "must hold a non-space character")
	case len(in.Labels) > maxLabelNames:
		return contract.Errorf(contract.CodeInvalidField, "too many labels").WithField("labels", fmt.Sprintf("at most %d", maxLabelNames))
	case len(in.Assignees) > 10:
		return contract.Errorf(contract.CodeInvalidField, "GitHub allows 10 assignees per issue").WithField("assignees", "at most 10")
	}
	for _, l := range in.Labels {
		if strings.TrimSpace(l) == "" {
			return contract.Errorf(contract.CodeInvalidField, "labels holds an empty name").WithField("labels", "names cannot be blank")
		}
	}
	if in.Project != nil {
		e := in.Project.Validate("project", in.Owner)
		if e != nil && e.Details != nil && e.Details.Field == "project.owner" && in.Project.Owner != "" {
			without := *in
			without.Project = nil
			return e.WithRepair(contract.Repair{NextStep: "create the issue without project; a board of another owner than the issue's cannot be reached from this call",
				Tool: toolkit.NameCreateIssue, Arguments: without})
		}
		return e
	}
	return nil
}

// CreateIssueOut is the new issue.
type CreateIssueOut struct {
	Issue              issueview.Issue  `json:"issue"`
	Project            *projects.Placed `json:"project,omitempty"`
	Replayed           bool             `json:"replayed,omitempty"`
	Notes              []string         `json:"notes,omitempty"`
	RateLimitRemaining *int             `json:"rate_limit_remaining,omitempty"`
}

// CreateIssue is github_create_issue.
func (s *Tools) CreateIssue() tooldef.Spec {
	guard := &toolkit.KeyGuard{}
	return tooldef.Tool[CreateIssueIn, CreateIssueOut]{
		Name:    toolkit.NameCreateIssue,
		Toolset: Toolset,
		Title:   "Create issue",
		// "Absent: none" is said once here, for every optional field.
		// Unknown names write nothing: the capability summary says so once
		// for every write.
		Description: "Open an issue; absent: none.",
		Mode:        tooldef.Write,
		Keep:        triageState("issue"),
		Outline:     []string{"issue.parent"},
		// project places the issue on a board: offered where the
		// projects toolset is served.
		Gated: map[string]string{"project": projects.NameUpdateProjectItem},
		// What project did, in answer to the argument.
		Unlisted: []string{"project"},
		Run: func(ctx context.Context, in CreateIssueIn) (CreateIssueOut, error) {
			return s.createIssue(ctx, in, guard)
		},
	}
}

func (s *Tools) createIssue(ctx context.Context, in CreateIssueIn, guard *toolkit.KeyGuard) (CreateIssueOut, error) {
	const tool = toolkit.NameCreateIssue
	c, err := s.Client(ctx, in.Owner, tooldef.Write)
	if err != nil {
		return CreateIssueOut{}, toolkit.NotStarted(err)
	}
	if err := s.createAllowed(ctx, c, in); err != nil {
		return CreateIssueOut{}, err
	}
	if in.IdempotencyKey == "" {
		return s.createNow(ctx, c, in)
	}
	request := in
	request.IdempotencyKey = ""
	k, err := s.OpenKey(ctx, guard, in.Owner, in.Repo, tool, string(in.IdempotencyKey), request)
	if err != nil {
		return CreateIssueOut{}, toolkit.NotStarted(err)
	}
	return toolkit.RunKeyed(ctx, k, toolkit.KeyedWrite[CreateIssueOut]{
		Adopt: func(since time.Time) (CreateIssueOut, bool, error) {
			found, err := s.findCreated(ctx, c, in, since)
			if err != nil || found == nil {
				return CreateIssueOut{}, false, err
			}
			out, err := s.finishCreate(ctx, c, in, found, nil)
			return out, true, err
		},
		Write:    func() (CreateIssueOut, error) { return s.createNow(ctx, c, in) },
		Clear:    clearCreate,
		Replayed: func(out *CreateIssueOut) { out.Replayed = true },
		Again: func(key toolkit.IdempotencyKey) any {
			again := in
			again.IdempotencyKey = key
			return again
		},
	})
}

// clearCreate drops what belongs to one call, not to the stored result.
func clearCreate(out *CreateIssueOut) { out.RateLimitRemaining = nil }
