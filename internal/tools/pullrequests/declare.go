package pullrequests

import "github.com/ghgate/ghgate/internal/policy"

// Writes implements [policy.Declarer].
func (in *UpdateReviewThreadIn) Writes() []policy.Write {
	t := policy.Target{Owner: in.Owner, Repo: in.Repo, Number: int(in.Pull)}
	if in.Action == "reply" {
		return []policy.Write{{Kind: policy.KindComment, Target: t, Text: policy.Str("body", &in.Body), Summary: "reply in a review thread",
			Request: "POST " + policy.RepoPath(in.Owner, in.Repo, "pulls", int(in.Pull), "comments", int64(in.CommentID), "replies")}}
	}
	return []policy.Write{{Kind: policy.KindReviewThread, Target: t, Summary: string(in.Action) + " a review thread",
		Request: "POST /graphql (" + string(in.Action) + "ReviewThread)"}}
}
