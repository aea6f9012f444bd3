package issues

import (
	"context"

	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/issueview"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// views renders what a read returns through the read's decision on
// strangers' text ([toolkit.Untrusted]): every issue body and comment a read
// tool shows, and every mirror file, is made here, so lockdown is applied
// in one place.
type views struct{ u *toolkit.Untrusted }

// openViews opens a read's views. include is the call's
// include_untrusted; again the call without it (the repair when the
// operator does not allow it).
func (s *Tools) openViews(ctx context.Context, c *github.Client, tool, owner, repo string, include bool, again any) (views, error) {
	u, err := s.OpenUntrusted(ctx, c, toolkit.UntrustedCall{Tool: tool, Owner: owner, Repo: repo, Include: include, Again: again})
	return views{u}, err
}

// OpenViews opens a read's views for another toolset (the mirror's).
func OpenViews(ctx context.Context, svc *toolkit.Service, c *github.Client, call toolkit.UntrustedCall) (Views, error) {
	u, err := svc.OpenUntrusted(ctx, c, call)
	return Views{views{u}}, err
}

// Views are a read's views, for the mirror toolset.
type Views struct{ v views }

// Withholds reports whether the read withholds anything ([toolkit.Untrusted]).
func (v Views) Withholds() bool { return v.v.u.Withholds() }

// issue renders an issue of repo ("owner/name"; "" reads it from the
// issue) at detail: at full, a stranger's body in a public repository is
// withheld under lockdown, and the marker says whose and how long.
func (v views) issue(is *github.IssueRow, detail Detail, withRepo bool, repo string) (issueview.Issue, error) {
	out := issueView(is, detail, withRepo)
	if detail != Full {
		return out, nil
	}
	if repo == "" {
		repo = repoOfURL(is.RepositoryURL)
	}
	_, w, err := v.u.Text(repo, is.User.Login, is.AuthorAssociation, is.Body)
	if err != nil {
		return issueview.Issue{}, err
	}
	if w != nil {
		out.Body, out.Sanitized = "", nil
		out.WithheldUntrusted = &toolkit.Withheld{Body: true, Association: w.Association, Bytes: w.Bytes}
	}
	return out, nil
}

// comment renders a comment of repo ("owner/name"), its body withheld as
// issue's is; withheld reports it.
func (v views) comment(repo string, cm *github.CommentRow) (out issueview.Comment, withheld bool, err error) {
	out = commentView(cm)
	_, w, err := v.u.Text(repo, out.Author, cm.AuthorAssociation, cm.Body)
	if err != nil {
		return issueview.Comment{}, false, err
	}
	if w != nil {
		out.Body, out.Sanitized, out.Withheld = "", nil, w
	}
	return out, w != nil, nil
}

// stored applies the decision to an issue and its comments read back from
// a mirror file of repo, by the associations the file keeps (a file
// written without lockdown holds every text), and leaves the
// associations out. A text the file already withheld stays withheld.
func (v views) stored(repo string, is issueview.Issue, comments []issueview.Comment) (issueview.Issue, []issueview.Comment, error) {
	if is.Body != "" {
		_, w, err := v.u.Text(repo, is.Author, is.Association, is.Body)
		if err != nil {
			return issueview.Issue{}, nil, err
		}
		if w != nil {
			is.Body, is.Sanitized = "", nil
			is.WithheldUntrusted = &toolkit.Withheld{Body: true, Association: w.Association, Bytes: w.Bytes}
		}
	}
	is.Association = ""
	out := make([]issueview.Comment, len(comments))
	for i, c := range comments {
		if c.Body != "" {
			_, w, err := v.u.Text(repo, c.Author, c.Association, c.Body)
			if err != nil {
				return issueview.Issue{}, nil, err
			}
			if w != nil {
				c.Body, c.Sanitized, c.Withheld = "", nil, w
			}
		}
		c.Association = ""
		out[i] = c
	}
	return is, out, nil
}

// countWithheld adds n withheld comments to an issue's marker.
func countWithheld(is *issueview.Issue, n int) {
	if n == 0 {
		return
	}
	if is.WithheldUntrusted == nil {
		is.WithheldUntrusted = &toolkit.Withheld{}
	}
	is.WithheldUntrusted.Comments += n
}
