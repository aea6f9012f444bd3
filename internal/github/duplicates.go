package github

import (
	"context"
	"errors"
	"fmt"
)

// IssueRef names an issue by repository and number.
type IssueRef struct {
	Owner, Repo string
	Number      int
}

// issueIDs resolves issues to their GraphQL node ids in one query.
//
// POST /graphql
func (c *Client) issueIDs(ctx context.Context, refs ...IssueRef) ([]string, error) {
	doc := "query {"
	for i, r := range refs {
		if err := checkRepo(r.Owner, r.Repo); err != nil {
			return nil, invalidArgument(true, err.Error())
		}
		// Names passed the checks above, so they hold no quote to escape.
		doc += fmt.Sprintf(" r%d: repository(owner: %q, name: %q) { issue(number: %d) { id } }", i, r.Owner, r.Repo, r.Number)
	}
	doc += " }"
	var data map[string]*struct {
		Issue *struct {
			ID string `json:"id"`
		} `json:"issue"`
	}
	if err := c.Query(ctx, doc, nil, &data); err != nil {
		return nil, err
	}
	ids := make([]string, len(refs))
	for i, r := range refs {
		got := data[fmt.Sprintf("r%d", i)]
		if got == nil || got.Issue == nil || got.Issue.ID == "" {
			return nil, &Error{Code: NotFound, Status: 200, Settlement: NotStarted, Message: fmt.Sprintf("%s/%s#%d does not exist or is not visible to this credential", r.Owner, r.Repo, r.Number)}
		}
		ids[i] = got.Issue.ID
	}
	return ids, nil
}

// CloseAsDuplicate closes issue as a duplicate of original through
// GitHub's closeIssue mutation with duplicateIssueId, the one way the API
// records which issue it duplicates (REST's state_reason only says that it
// is one). It returns the issue's state and state reason afterwards.
//
// POST /graphql
func (c *Client) CloseAsDuplicate(ctx context.Context, issue, original IssueRef) (state, reason string, err error) {
	ids, err := c.issueIDs(ctx, issue, original)
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			// Only the lookup was sent: the write never started.
			e.Settlement = NotStarted
		}
		return "", "", err
	}
	const doc = `mutation($id: ID!, $dup: ID!) { closeIssue(input: {issueId: $id, stateReason: DUPLICATE, duplicateIssueId: $dup}) {
  issue { state stateReason(enableDuplicate: true) } } }`
	var out struct {
		CloseIssue *struct {
			Issue struct {
				State       string  `json:"state"`
				StateReason *string `json:"stateReason"`
			} `json:"issue"`
		} `json:"closeIssue"`
	}
	if _, err := c.Mutate(ctx, doc, map[string]any{"id": ids[0], "dup": ids[1]}, &out); err != nil {
		return "", "", err
	}
	if out.CloseIssue == nil {
		return "", "", &Error{Code: MalformedResponse, Status: 200, Settlement: Indeterminate, Message: "GitHub's closeIssue answer held no issue"}
	}
	if out.CloseIssue.Issue.StateReason != nil {
		reason = *out.CloseIssue.Issue.StateReason
	}
	return out.CloseIssue.Issue.State, reason, nil
}
