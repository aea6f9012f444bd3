package github

import "context"

// DeleteIssue deletes an issue for good through GitHub's deleteIssue
// mutation (REST has no route for it). id is the issue's node id. GitHub
// allows it only to repository admins; others are refused as
// insufficient_scope.
//
// POST /graphql
func (c *Client) DeleteIssue(ctx context.Context, id string) (Settlement, error) {
	if id == "" {
		return NotStarted, invalidArgument(true, "no issue node id")
	}
	const doc = `mutation($id: ID!) { deleteIssue(input: {issueId: $id}) { repository { nameWithOwner } } }`
	var out struct {
		DeleteIssue *struct {
			Repository struct {
				NameWithOwner string `json:"nameWithOwner"`
			} `json:"repository"`
		} `json:"deleteIssue"`
	}
	s, err := c.Mutate(ctx, doc, map[string]any{"id": id}, &out)
	if err != nil {
		return s, err
	}
	if out.DeleteIssue == nil {
		return Indeterminate, &Error{Code: MalformedResponse, Status: 200, Settlement: Indeterminate, Message: "GitHub's deleteIssue answer held no payload"}
	}
	return RemoteSuccessKnown, nil
}
