package issues

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"strconv"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tools/issueview"
	"github.com/ghgate/ghgate/internal/tools/mirrorfile"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// ReadSource says where github_get_issue reads: GitHub, or the local
// mirror github_sync_issues keeps under sync_root/OWNER/REPO.
type ReadSource string

const (
	Remote ReadSource = "remote"
	Mirror ReadSource = "mirror"
)

// maxMirrorFile bounds what is read of a mirror file.
const maxMirrorFile = 16 << 20

// getIssueFromMirror answers github_get_issue from the mirror: no
// request to GitHub. The answer's age is the time since the last sync
// (the state file's), or since the file was written when that is missing.
//
// Lockdown is applied as for a read from GitHub, by the associations the
// file keeps: a mirror written without it holds every text, and another
// caller under lockdown may read it.
//
// Bodies are windowed as a read from GitHub windows them; one comment
// (spot's) is found among the file's.
func (s *Tools) getIssueFromMirror(ctx context.Context, in GetIssueIn, pg *toolkit.Pager, v views, spot bodySpot) (GetIssueOut, error) {
	n := int(in.IssueNumber)
	missing := func(why string) error {
		e := contract.Errorf(contract.CodeMirrorNotFound, "the mirror of %s/%s has no file for #%d: %s", in.Owner, in.Repo, n, why).
			WithField("source", why)
		return e.WithRepair(contract.Repair{NextStep: "sync the repository's mirror, then read it again",
			Tool: toolkit.NameSyncIssues, Arguments: map[string]any{"owner": in.Owner, "repo": in.Repo},
			Alternative: "read it from GitHub: call " + toolkit.NameGetIssue + " without source"})
	}
	md, err := s.OpenMirrorDir(ctx, in.Owner, in.Repo, false)
	if errors.Is(err, toolkit.ErrNoMirror) {
		return GetIssueOut{}, missing("the repository was never synced here")
	}
	if err != nil {
		return GetIssueOut{}, err
	}
	defer md.Close()
	ents, err := fs.ReadDir(md.Root.FS(), ".")
	if err != nil {
		return GetIssueOut{}, err
	}
	repo := in.Owner + "/" + in.Repo
	var f *mirrorfile.File
	for _, d := range ents {
		if !d.Type().IsRegular() || !strings.HasPrefix(d.Name(), strconv.Itoa(n)+"-") {
			continue // links are never followed
		}
		b, err := readCapped(md, d.Name())
		if err != nil {
			continue
		}
		if mf, err := mirrorfile.Parse(d.Name(), b, repo); err == nil {
			f = &mf
			break
		}
	}
	if f == nil {
		return GetIssueOut{}, missing("not synced, or closed and not mirrored")
	}
	if !s.CreatorAllowed(f.Issue.Author) {
		return GetIssueOut{}, s.creatorRefusal(in.Owner, in.Repo, n)
	}
	g := newGrant(ctx, in.Owner, in.Repo)
	comments, next := toolkit.PageOf(f.Comments, pg.Page, commentsPerPage)
	switch {
	case spot.Comment != 0:
		one, err := storedComment(in, f.Comments, spot.Comment)
		if err != nil {
			return GetIssueOut{}, err
		}
		comments, next = []issueview.Comment{one}, 0
	case in.BodyCursor != "":
		comments, next = nil, 0
	}
	issue, comments, err := v.stored(repo, f.Issue, comments)
	if err != nil {
		return GetIssueOut{}, err
	}
	if w := issue.WithheldUntrusted; w != nil {
		// The file's marker counts none of its comments: they are counted
		// by page, here.
		w.Comments = 0
		if *w == (toolkit.Withheld{}) {
			issue.WithheldUntrusted = nil
		}
	}
	out := GetIssueOut{Issue: issue, Relations: withholdRelations(f.Relations, g), Withheld: g.withheld}
	if in.detail(spot) == Summary {
		out.Issue = summaryOf(issue)
	} else if err := s.windowIssue(in, spot, &out.Issue); err != nil {
		return GetIssueOut{}, err
	}
	withheld := 0
	for i := range comments {
		if comments[i].Withheld != nil {
			withheld++
		}
		at := bodySpot{Comment: comments[i].ID}
		if spot.Comment != 0 {
			at = spot
		}
		if err := s.windowComment(in, at, &comments[i]); err != nil {
			return GetIssueOut{}, err
		}
	}
	countWithheld(&out.Issue, withheld)
	if spot.Comment != 0 {
		out.Comment = &comments[0]
	} else {
		out.Comments = comments
	}
	if c := pg.Next(next); c != "" {
		out.CommentsHasMore, out.CommentsNextCursor = true, c
	}
	synced := f.SyncedAt
	if b, err := readCapped(md, mirrorfile.StateFile); err == nil {
		var st mirrorfile.State
		if json.Unmarshal(b, &st) == nil && st.SyncedAt != "" {
			synced = st.SyncedAt
		}
	}
	if t, err := time.Parse(time.RFC3339, synced); err == nil {
		age := max(0, int(s.CurrentTime().Sub(t).Seconds()))
		out.MirrorAgeS = &age
	}
	return out, nil
}

// readCapped reads a regular file of the mirror, never through a link.
func readCapped(md *toolkit.MirrorDir, name string) ([]byte, error) {
	fi, err := md.Root.Lstat(name)
	if err != nil || !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	fh, err := md.Root.Open(name)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	return io.ReadAll(io.LimitReader(fh, maxMirrorFile))
}

// summaryOf is the summary detail of a full view: the same fields
// issueView leaves out at summary, left out here.
func summaryOf(v issueview.Issue) issueview.Issue {
	return issueview.Issue{Number: v.Number, Title: v.Title, State: v.State, Labels: v.Labels, Assignees: v.Assignees,
		Milestone: v.Milestone, Type: v.Type, Comments: v.Comments, Updated: v.Updated, IsPR: v.IsPR,
		TitleSanitized: v.TitleSanitized, Version: v.Version}
}
