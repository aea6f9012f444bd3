package issues

import (
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/issueview"
	"github.com/ghgate/ghgate/internal/tools/mirrorfile"
)

// MirrorFile renders an issue for the mirror with the view code of
// github_get_issue, so the mirror answers what GitHub would, lockdown
// included: under it, strangers' text in a public repository never
// reaches the file. Each text keeps its author's association, by which a
// read of the mirror decides again.
func (v Views) MirrorFile(rec *github.IssueRecord, owner, repo string, comments []*github.CommentRow, truncated bool) (mirrorfile.File, error) {
	full := owner + "/" + repo
	is, err := v.v.issue(github.IssueRowOf(&rec.Issue), Full, false, full)
	if err != nil {
		return mirrorfile.File{}, err
	}
	is.Association = rec.GetAuthorAssociation()
	f := mirrorfile.File{Schema: mirrorfile.Schema, Repo: full, Issue: is,
		Relations: recordRelations(rec, owner, repo), Comments: []issueview.Comment{}, CommentsTruncated: truncated}
	for _, c := range comments {
		cv, _, err := v.v.comment(full, c)
		if err != nil {
			return mirrorfile.File{}, err
		}
		cv.Association = c.AuthorAssociation
		f.Comments = append(f.Comments, cv)
	}
	return f, nil
}
