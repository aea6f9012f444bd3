package issues

import (
	"context"
	"fmt"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/issueview"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	gh "github.com/google/go-github/v88/github"
)

// fetchComment reads comment id of in's issue from GitHub. GitHub finds a
// comment by its id in the repository alone, so the issue it belongs to
// is checked here: a comment of another issue is answered as missing,
// the same as one that does not exist, naming neither's text.
func fetchComment(ctx context.Context, c *github.Client, in GetIssueIn, id int64) (*gh.IssueComment, error) {
	cm, _, err := c.GetComment(ctx, in.Owner, in.Repo, id)
	if err != nil {
		e := toolkit.MapError(err)
		if e == nil || e.Code != contract.CodeNotFound {
			return nil, err
		}
		return nil, commentNotOnIssue(in, id)
	}
	if ref := refFromAPIURL(cm.GetIssueURL(), in.Owner, in.Repo); ref == nil || ref.Repo != "" || ref.Number != int(in.IssueNumber) {
		return nil, commentNotOnIssue(in, id)
	}
	return cm, nil
}

// commentNotOnIssue refuses a comment id the issue has no comment of:
// never made, deleted, not visible to this credential, or another
// issue's. The repair lists the issue's comments, where the ids are.
func commentNotOnIssue(in GetIssueIn, id int64) *contract.Error {
	e := contract.Errorf(contract.CodeCommentNotFound, "%s/%s#%d has no comment %d visible to this credential (it may have been deleted, or belong to another issue)",
		in.Owner, in.Repo, in.IssueNumber, id).WithField("comment_id", "no such comment on this issue")
	return e.WithRepair(contract.Repair{NextStep: "list the issue's comments for the right id", Tool: toolkit.NameListIssueItems,
		Arguments: map[string]any{"owner": in.Owner, "repo": in.Repo, "issue_number": int(in.IssueNumber), "collection": "comments"}})
}

// storedComment finds comment id among a mirror file's comments.
func storedComment(in GetIssueIn, comments []issueview.Comment, id int64) (issueview.Comment, error) {
	for _, c := range comments {
		if c.ID == id {
			return c, nil
		}
	}
	e := commentNotOnIssue(in, id)
	e.Repair.Alternative = fmt.Sprintf("the mirror may be older than the comment: read it from GitHub (%s without source)", toolkit.NameGetIssue)
	return issueview.Comment{}, e
}
