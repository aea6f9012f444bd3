package tools

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tooldef"
)

// CreateIssueIn are github_create_issue's arguments.
type CreateIssueIn struct {
	Owner             string          `json:"owner"`
	Repo              string          `json:"repo"`
	Title             string          `json:"title"`
	Body              string          `json:"body,omitempty" jsonschema:"absent: empty"`
	Labels            []string        `json:"labels,omitempty" jsonschema:"absent: none"`
	Assignees         []string        `json:"assignees,omitempty" jsonschema:"absent: none"`
	Milestone         MilestoneNumber `json:"milestone,omitempty" jsonschema:"number; absent: none"`
	Type              string          `json:"type,omitempty" jsonschema:"absent: none"`
	ParentIssueNumber IssueNumber     `json:"parent_issue_number,omitempty" jsonschema:"absent: none"`
	IdempotencyKey    IdempotencyKey  `json:"idempotency_key,omitempty" jsonschema:"a repeat in 10 min returns it; absent: none"`
}

// Validate checks what the schema cannot.
func (in *CreateIssueIn) Validate() *contract.Error {
	if e := checkNames(in.Owner, in.Repo); e != nil {
		return e
	}
	if e := checkLength("title", strings.TrimSpace(in.Title), maxTitleChars); e != nil {
		return e
	}
	if e := checkLength("body", in.Body, maxBodyChars); e != nil {
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
	return nil
}

// CreateIssueOut is the new issue.
type CreateIssueOut struct {
	Issue              Issue    `json:"issue"`
	Replayed           bool     `json:"replayed,omitempty"`
	Notes              []string `json:"notes,omitempty"`
	RateLimitRemaining *int     `json:"rate_limit_remaining,omitempty"`
}

// CreateIssue is github_create_issue.
func (s *Service) CreateIssue() tooldef.Spec {
	guard := &keyGuard{}
	return tooldef.Tool[CreateIssueIn, CreateIssueOut]{
		Name:        NameCreateIssue,
		Toolset:     ToolsetIssues,
		Title:       "Create an issue",
		Description: "Open an issue; unknown names write nothing.",
		Mode:        tooldef.Write,
		Run: func(ctx context.Context, in CreateIssueIn) (CreateIssueOut, error) {
			return s.createIssue(ctx, in, guard)
		},
	}
}

func (s *Service) createIssue(ctx context.Context, in CreateIssueIn, guard *keyGuard) (CreateIssueOut, error) {
	const tool = NameCreateIssue
	c, err := s.client(ctx, in.Owner, tooldef.Write)
	if err != nil {
		return CreateIssueOut{}, notStarted(err)
	}
	if in.IdempotencyKey == "" {
		return s.createNow(ctx, c, in)
	}
	request := in
	request.IdempotencyKey = ""
	k, err := s.idempotencyKey(ctx, guard, in.Owner, in.Repo, tool, string(in.IdempotencyKey), request)
	if err != nil {
		return CreateIssueOut{}, notStarted(err)
	}
	return runKeyed(ctx, k, keyedWrite[CreateIssueOut]{
		adopt: func(since time.Time) (CreateIssueOut, bool, error) {
			found, err := s.findCreated(ctx, c, in, since)
			if err != nil || found == nil {
				return CreateIssueOut{}, false, err
			}
			out, err := s.finishCreate(ctx, c, in, found)
			return out, true, err
		},
		write:    func() (CreateIssueOut, error) { return s.createNow(ctx, c, in) },
		clear:    clearCreate,
		replayed: func(out *CreateIssueOut) { out.Replayed = true },
	})
}

// clearCreate drops what belongs to one call, not to the stored result.
func clearCreate(out *CreateIssueOut) { out.RateLimitRemaining = nil }
