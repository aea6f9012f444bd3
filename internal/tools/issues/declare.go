package issues

import (
	"fmt"

	"github.com/ghgate/ghgate/internal/policy"
)

// The write tools' declarations (policy.Declarer): what each call would
// write, read from its arguments before anything is sent. The write path
// counts, checks and rewrites through them, and the GitHub client sends
// no write the call did not declare.

// Writes implements [policy.Declarer].
func (in *AddCommentIn) Writes() []policy.Write {
	return []policy.Write{{Kind: policy.KindComment, Target: issueTarget(in.Owner, in.Repo, int(in.IssueNumber)),
		Text: policy.Str("body", &in.Body), Summary: "comment",
		Request: "POST " + policy.RepoPath(in.Owner, in.Repo, "issues", int(in.IssueNumber), "comments")}}
}

// Writes implements [policy.Declarer].
func (in *EditCommentIn) Writes() []policy.Write {
	t := policy.Target{Owner: in.Owner, Repo: in.Repo, Comment: int64(in.CommentID)}
	path := policy.RepoPath(in.Owner, in.Repo, "issues", "comments", int64(in.CommentID))
	if in.Delete {
		return []policy.Write{{Kind: policy.KindDelete, Target: t, Summary: "delete a comment", Request: "DELETE " + path}}
	}
	return []policy.Write{{Kind: policy.KindComment, Target: t, Text: policy.Str("body", &in.Body), Summary: "edit a comment",
		Request: "PATCH " + path}}
}

// Writes implements [policy.Declarer].
func (in *CreateIssueIn) Writes() []policy.Write {
	repo := policy.Target{Owner: in.Owner, Repo: in.Repo}
	texts := append(policy.Str("title", &in.Title), policy.Str("body", &in.Body)...)
	ws := []policy.Write{{Kind: policy.KindIssueCreate, Target: repo, Text: texts, LabelsAdded: in.Labels,
		Summary: "open an issue", Request: "POST " + policy.RepoPath(in.Owner, in.Repo, "issues")}}
	if in.ParentIssueNumber > 0 {
		ws = append(ws, policy.Write{Kind: policy.KindLink, Target: issueTarget(in.Owner, in.Repo, int(in.ParentIssueNumber)),
			Summary: "add the new issue as a sub-issue",
			Request: "POST " + policy.RepoPath(in.Owner, in.Repo, "issues", int(in.ParentIssueNumber), "sub_issues")})
	}
	if in.Project != nil {
		ws = append(ws, boardWrite(in.Project.Owner, int(in.Project.ProjectNumber)))
	}
	return ws
}

// Writes implements [policy.Declarer].
func (in *UpdateIssueIn) Writes() []policy.Write {
	t := issueTarget(in.Owner, in.Repo, int(in.IssueNumber))
	var ws []policy.Write
	texts := append(policy.Str("title", in.Title), policy.Str("body", in.Body)...)
	if in.Title != nil || in.Body != nil || in.Locked != nil {
		ws = append(ws, policy.Write{Kind: policy.KindIssueEdit, Target: t, Text: texts, Summary: "edit the issue"})
	}
	ws = append(ws, in.IssueChanges.writes(t)...)
	if in.DuplicateOf > 0 {
		owner, repo := in.duplicateOf()
		ws = append(ws, policy.Write{Kind: policy.KindClose, Target: t,
			Touches: []policy.Target{{Owner: owner, Repo: repo, Number: int(in.DuplicateOf)}},
			Summary: fmt.Sprintf("close as a duplicate of %s/%s#%d", owner, repo, in.DuplicateOf)})
	}
	return ws
}

// Writes implements [policy.Declarer]: one set of writes per issue, so a
// quota counts each issue of the batch.
func (in *BulkUpdateIssuesIn) Writes() []policy.Write {
	var ws []policy.Write
	for _, n := range in.IssueNumbers {
		ws = append(ws, in.Changes.writes(issueTarget(in.Owner, in.Repo, int(n)))...)
	}
	return ws
}

// writes declares the shared edits for one issue.
func (c *IssueChanges) writes(t policy.Target) []policy.Write {
	var ws []policy.Write
	switch c.State {
	case "closed":
		ws = append(ws, policy.Write{Kind: policy.KindClose, Target: t, Summary: "close"})
	case "open":
		ws = append(ws, policy.Write{Kind: policy.KindIssueEdit, Target: t, Summary: "reopen"})
	}
	if l := c.Labels; l != nil {
		add := append(append([]string(nil), l.Add...), l.Set...)
		if l.Swap != nil {
			add = append(add, l.Swap.To...)
		}
		ws = append(ws, policy.Write{Kind: policy.KindLabel, Target: t, LabelsAdded: add, LabelsRemoved: l.Remove, Summary: "change labels"})
		if l.CreateMissing.On {
			for _, name := range add {
				ws = append(ws, policy.Write{Kind: policy.KindLabelAdmin, Target: policy.Target{Owner: t.Owner, Repo: t.Repo},
					Label: name, Summary: "create the label if missing"})
			}
		}
	}
	if c.Assignees != nil || c.Milestone.Set || c.Type.Set {
		ws = append(ws, policy.Write{Kind: policy.KindIssueEdit, Target: t, Summary: "change assignees, milestone or type"})
	}
	if c.Project != nil {
		ws = append(ws, boardWrite(c.Project.Owner, int(c.Project.ProjectNumber)))
	}
	return ws
}

// Writes implements [policy.Declarer].
func (in *LinkIssuesIn) Writes() []policy.Write {
	owner, repo := in.targetRepo()
	return []policy.Write{{Kind: policy.KindLink, Target: issueTarget(in.Owner, in.Repo, int(in.IssueNumber)),
		Touches: []policy.Target{{Owner: owner, Repo: repo, Number: int(in.TargetIssueNumber)}},
		Summary: fmt.Sprintf("%s %s link to %s/%s#%d", in.Action, in.Relation, owner, repo, in.TargetIssueNumber),
		Request: in.request(owner, repo)}}
}

// request is the request a link sends: GitHub's REST endpoint for the
// relation, naming the other issue by its id (read first) on a removal.
func (in *LinkIssuesIn) request(owner, repo string) string {
	n := int(in.IssueNumber)
	other := fmt.Sprintf("{id of %s/%s#%d}", owner, repo, in.TargetIssueNumber)
	switch {
	case in.Relation == "sub_issue" && in.Action == "reorder":
		return "PATCH " + policy.RepoPath(in.Owner, in.Repo, "issues", n, "sub_issues", "priority")
	case in.Relation == "sub_issue" && in.Action == "remove":
		return "DELETE " + policy.RepoPath(in.Owner, in.Repo, "issues", n, "sub_issue")
	case in.Relation == "sub_issue":
		return "POST " + policy.RepoPath(in.Owner, in.Repo, "issues", n, "sub_issues")
	case in.Relation == "blocked_by" && in.Action == "remove":
		return "DELETE " + policy.RepoPath(in.Owner, in.Repo, "issues", n, "dependencies", "blocked_by") + "/" + other
	case in.Relation == "blocked_by":
		return "POST " + policy.RepoPath(in.Owner, in.Repo, "issues", n, "dependencies", "blocked_by")
	case in.Action == "remove":
		return "DELETE " + policy.RepoPath(in.Owner, in.Repo, "issues", n, "related") + "/" + other
	}
	return "POST " + policy.RepoPath(in.Owner, in.Repo, "issues", n, "related")
}

func issueTarget(owner, repo string, n int) policy.Target {
	return policy.Target{Owner: owner, Repo: repo, Number: n}
}

func boardWrite(owner string, number int) policy.Write {
	return policy.Write{Kind: policy.KindBoard, Target: policy.Target{Owner: owner},
		Summary: fmt.Sprintf("place the issue on board %d", number),
		Request: "POST /graphql (addProjectV2ItemById, then the fields' updateProjectV2ItemFieldValue)"}
}
