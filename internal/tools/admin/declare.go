package admin

import (
	"fmt"

	"github.com/ghgate/ghgate/internal/policy"
)

// Writes implements [policy.Declarer].
func (in *DeleteIssueIn) Writes() []policy.Write {
	return []policy.Write{{Kind: policy.KindDelete, Target: policy.Target{Owner: in.Owner, Repo: in.Repo, Number: int(in.IssueNumber)},
		Summary: "delete the issue for good", Request: "POST /graphql (deleteIssue)"}}
}

// Writes implements [policy.Declarer]: a label deleted is a delete; one
// created or changed is label administration, under its old and new name.
func (in *ManageLabelsIn) Writes() []policy.Write {
	repo := policy.Target{Owner: in.Owner, Repo: in.Repo}
	if in.Action == "delete" {
		return []policy.Write{{Kind: policy.KindDelete, Target: repo, Label: in.Name, Summary: fmt.Sprintf("delete the label %q", in.Name),
			Request: "DELETE " + policy.RepoPath(in.Owner, in.Repo, "labels", in.Name)}}
	}
	req := "PATCH " + policy.RepoPath(in.Owner, in.Repo, "labels", in.Name)
	if in.Action == "create" {
		req = "POST " + policy.RepoPath(in.Owner, in.Repo, "labels")
	}
	ws := []policy.Write{{Kind: policy.KindLabelAdmin, Target: repo, Label: in.Name, Text: policy.Str("description", in.Description),
		Summary: fmt.Sprintf("%s the label %q", in.Action, in.Name), Request: req}}
	if in.NewName != "" {
		ws[0].Summary += fmt.Sprintf(" as %q", in.NewName)
		ws = append(ws, policy.Write{Kind: policy.KindLabelAdmin, Target: repo, Label: in.NewName, Summary: "the label's new name"})
	}
	return ws
}

// Writes implements [policy.Declarer].
func (in *ManageMilestonesIn) Writes() []policy.Write {
	repo := policy.Target{Owner: in.Owner, Repo: in.Repo}
	one := policy.RepoPath(in.Owner, in.Repo, "milestones") + "/" + in.milestoneRef()
	if in.Action == "delete" {
		return []policy.Write{{Kind: policy.KindDelete, Target: repo, Summary: "delete a milestone", Request: "DELETE " + one}}
	}
	req := "PATCH " + one
	if in.Action == "create" {
		req = "POST " + policy.RepoPath(in.Owner, in.Repo, "milestones")
	}
	texts := append(policy.Str("title", &in.Title), policy.Str("description", in.Description)...)
	return []policy.Write{{Kind: policy.KindMilestone, Target: repo, Text: texts, Summary: string(in.Action) + " a milestone", Request: req}}
}

// milestoneRef names the milestone in a request: its number, or the one
// its title finds (read first).
func (in *ManageMilestonesIn) milestoneRef() string {
	if in.Number > 0 {
		return fmt.Sprint(int(in.Number))
	}
	return fmt.Sprintf("{number of %q}", in.Title)
}
