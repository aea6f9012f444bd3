package admin

import (
	"fmt"

	"github.com/ghgate/ghgate/internal/policy"
)

// Writes implements policy.Declarer.
func (in *DeleteIssueIn) Writes() []policy.Write {
	return []policy.Write{{Kind: policy.KindDelete, Target: policy.Target{Owner: in.Owner, Repo: in.Repo, Number: int(in.IssueNumber)},
		Summary: "delete the issue for good"}}
}

// Writes implements policy.Declarer: a label deleted is a delete; one
// created or changed is label administration, under its old and new name.
func (in *ManageLabelsIn) Writes() []policy.Write {
	repo := policy.Target{Owner: in.Owner, Repo: in.Repo}
	if in.Action == "delete" {
		return []policy.Write{{Kind: policy.KindDelete, Target: repo, Label: in.Name, Summary: fmt.Sprintf("delete the label %q", in.Name)}}
	}
	ws := []policy.Write{{Kind: policy.KindLabelAdmin, Target: repo, Label: in.Name, Text: policy.Str("description", in.Description),
		Summary: fmt.Sprintf("%s the label %q", in.Action, in.Name)}}
	if in.NewName != "" {
		ws[0].Summary += fmt.Sprintf(" as %q", in.NewName)
		ws = append(ws, policy.Write{Kind: policy.KindLabelAdmin, Target: repo, Label: in.NewName, Summary: "the label's new name"})
	}
	return ws
}

// Writes implements policy.Declarer.
func (in *ManageMilestonesIn) Writes() []policy.Write {
	repo := policy.Target{Owner: in.Owner, Repo: in.Repo}
	if in.Action == "delete" {
		return []policy.Write{{Kind: policy.KindDelete, Target: repo, Summary: "delete a milestone"}}
	}
	texts := append(policy.Str("title", &in.Title), policy.Str("description", in.Description)...)
	return []policy.Write{{Kind: policy.KindMilestone, Target: repo, Text: texts, Summary: string(in.Action) + " a milestone"}}
}
