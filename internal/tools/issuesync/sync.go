package issuesync

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/mirrorfile"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/google/jsonschema-go/jsonschema"
)

// CommentsCap is how many comments a mirror file keeps per issue.
type CommentsCap int

const (
	defaultCommentsCap = 100
	maxCommentsCap     = 1000
)

// JSONSchema implements [tooldef.SelfDescribing].
func (CommentsCap) JSONSchema() (*jsonschema.Schema, error) {
	one, most := 1.0, float64(maxCommentsCap)
	return &jsonschema.Schema{Type: "integer", Minimum: &one, Maximum: &most}, nil
}

// SyncIssuesIn are github_sync_issues's arguments.
type SyncIssuesIn struct {
	Owner         string      `json:"owner"`
	Repo          string      `json:"repo"`
	IncludeClosed bool        `json:"include_closed,omitempty" jsonschema:"default false: closed issues' files are removed"`
	CommentsCap   CommentsCap `json:"comments_cap,omitempty" jsonschema:"comments kept per issue; default 100"`
	Full          bool        `json:"full,omitempty" jsonschema:"default false; true re-reads every issue and comment, finding deleted and transferred ones"`
	// IncludeUntrusted true shows (for the mirror: writes) the text
	// lockdown withholds, audited. It is listed and accepted only where
	// the operator allows it (Gated on toolkit.IncludeUntrustedGate); the
	// capability summary says what it does.
	IncludeUntrusted bool `json:"include_untrusted,omitempty" jsonschema:"default false"`
}

// Validate checks the names before they reach a path or a request.
func (in *SyncIssuesIn) Validate() *contract.Error { return toolkit.CheckNames(in.Owner, in.Repo) }

// Upstream is what a sync cost at GitHub.
type Upstream struct {
	Calls       int   `json:"calls"`
	NotModified int   `json:"not_modified,omitempty" jsonschema:"calls answered 304"`
	Bytes       int64 `json:"bytes" jsonschema:"response bodies received"`
}

// SyncIssuesOut says what the sync did to the mirror.
type SyncIssuesOut struct {
	Dir       string    `json:"dir"`
	Written   int       `json:"written"`
	Unchanged int       `json:"unchanged"`
	Removed   int       `json:"removed" jsonschema:"files of issues closed, deleted or moved away"`
	Invalid   []Invalid `json:"invalid,omitempty" jsonschema:"files left untouched, with why"`
	Full      bool      `json:"full,omitempty" jsonschema:"every issue was listed"`
	Upstream  Upstream  `json:"upstream"`
	SyncedAt  string    `json:"synced_at"`
}

// SyncIssues is github_sync_issues.
func (s *Tools) SyncIssues() tooldef.Spec {
	return tooldef.Tool[SyncIssuesIn, SyncIssuesOut]{
		Name:    toolkit.NameSyncIssues,
		Toolset: Toolset,
		Title:   "Sync issues to files",
		Description: "Write one JSON file per issue (NUMBER-SLUG.json: issue, relations, comments) to sync_root/OWNER/REPO. " +
			"Incremental: an unchanged repository costs one request answered 304. Removes files of closed issues; " +
			"reports, never touches, files it did not write. Read one back with github_get_issue source mirror.",
		Mode:        tooldef.Read,
		LocalWrites: true,
		Destructive: true,
		Idempotent:  true,
		Gated:       map[string]string{toolkit.IncludeUntrustedField: toolkit.IncludeUntrustedGate},
		Run:         s.syncIssues,
	}
}

// run is one sync's working state.
type run struct {
	s        *Tools
	c        *github.Client
	v        issues.Views // lockdown's decision on strangers' text
	md       *toolkit.MirrorDir
	in       SyncIssuesIn
	repo     string
	cap      int
	now      string
	files    map[int][]entry
	reuse    bool // a file's comments may stand when its issue's update time and comment count did not move
	out      SyncIssuesOut
	mirrored map[int]bool // issue numbers whose file this sync confirmed or wrote
	// unclaimed: the directory has no state file yet; one is written
	// before the first issue file (see claimDir).
	unclaimed bool
}

// claimDir writes, before a first sync's first file, a state that lists
// everything next time, then the .gitignore: the state marks the
// directory as this mirror's, so a first sync cut short (a failed
// listing, a lost connection) leaves an empty directory or a claimed
// one, never one claim refuses.
func (r *run) claimDir() error {
	if !r.unclaimed {
		return nil
	}
	st := mirrorfile.State{Schema: mirrorfile.Schema, Repo: r.repo, IncludeClosed: r.in.IncludeClosed, CommentsCap: r.cap,
		Lockdown: r.v.Withholds()}
	if err := writeState(r.md, st); err != nil {
		return localFailed(r.md, mirrorfile.StateFile, err)
	}
	r.unclaimed = false
	if err := ensureGitignore(r.md, &r.out.Invalid); err != nil {
		return localFailed(r.md, gitignore, err)
	}
	return nil
}

func (s *Tools) syncIssues(ctx context.Context, in SyncIssuesIn) (SyncIssuesOut, error) {
	md, err := s.OpenMirrorDir(ctx, in.Owner, in.Repo, true)
	if err != nil {
		return SyncIssuesOut{}, err
	}
	defer md.Close()
	c, err := s.Client(ctx, in.Owner, tooldef.Read)
	if err != nil {
		return SyncIssuesOut{}, err
	}
	again := in
	again.IncludeUntrusted = false
	v, err := issues.OpenViews(ctx, s.Service, c, toolkit.UntrustedCall{Tool: toolkit.NameSyncIssues, Owner: in.Owner, Repo: in.Repo,
		Include: in.IncludeUntrusted, Again: again})
	if err != nil {
		return SyncIssuesOut{}, err
	}
	tally := &github.Tally{}
	ctx = github.WithTally(ctx, tally)
	r := &run{s: s, c: c, v: v, md: md, in: in, repo: in.Owner + "/" + in.Repo, cap: int(in.CommentsCap),
		now: s.CurrentTime().UTC().Format(time.RFC3339), mirrored: map[int]bool{}}
	if r.cap == 0 {
		r.cap = defaultCommentsCap
	}
	r.out.Dir = md.Path
	st, err := readState(md, r.repo, &r.out.Invalid)
	if err != nil {
		return SyncIssuesOut{}, err
	}
	if err := claim(md); err != nil {
		return SyncIssuesOut{}, err
	}
	if k, err := kind(md.Root, mirrorfile.StateFile); err == nil && k == "" {
		r.unclaimed = true
	}
	if !r.unclaimed {
		if err := ensureGitignore(md, &r.out.Invalid); err != nil {
			return SyncIssuesOut{}, localFailed(md, gitignore, err)
		}
	}
	files, invalid, err := scan(md, r.repo, s.CurrentTime())
	if err != nil {
		return SyncIssuesOut{}, localFailed(md, ".", err)
	}
	r.files, r.out.Invalid = files, append(r.out.Invalid, invalid...)
	// Another cap, another choice of closed issues or another lockdown
	// changes what every file holds: such a sync lists everything and
	// reuses nothing (a file written before lockdown was turned on must
	// not keep a stranger's text).
	same := st != nil && st.IncludeClosed == in.IncludeClosed && st.CommentsCap == r.cap && st.Lockdown == v.Withholds()
	r.reuse = same && !in.Full
	var since time.Time
	etag := ""
	if same && !in.Full {
		etag = st.ETag
		if st.Since != "" {
			if since, err = time.Parse(time.RFC3339, st.Since); err != nil {
				since, etag = time.Time{}, ""
			}
		}
	}
	next, err := r.pass(ctx, since, etag)
	if err != nil {
		return SyncIssuesOut{}, err
	}
	next.SyncedAt = r.now
	if err := r.claimDir(); err != nil {
		return SyncIssuesOut{}, err
	}
	if err := writeState(md, next); err != nil {
		return SyncIssuesOut{}, localFailed(md, mirrorfile.StateFile, err)
	}
	for n, es := range r.files {
		if !r.mirrored[n] {
			r.out.Unchanged += len(es)
		}
	}
	r.out.SyncedAt = r.now
	r.out.Upstream = Upstream{Calls: int(tally.Requests.Load()), NotModified: int(tally.NotModified.Load()), Bytes: tally.Bytes.Load()}
	return r.out, nil
}

// pass lists what changed since since (everything when it is zero),
// conditionally on etag, brings the files in line, and returns the state
// the next sync starts from.
//
// The listing is every state, newest update first, so its first page
// changes whenever any issue is updated (closing one updates it): a 304
// on it means nothing changed. Deleted and transferred issues leave no
// trace in a listing by update time, so their files go only when the
// listing is complete (since zero): a repository whose changes fit one
// page keeps listing from the same point, a larger one moves the point
// forward and needs full to find them.
func (r *run) pass(ctx context.Context, since time.Time, etag string) (mirrorfile.State, error) {
	st := mirrorfile.State{Schema: mirrorfile.Schema, Repo: r.repo, IncludeClosed: r.in.IncludeClosed, CommentsCap: r.cap,
		Lockdown: r.v.Withholds()}
	if !since.IsZero() {
		st.Since = since.UTC().Format(time.RFC3339)
	}
	first, err := r.c.ListIssueChanges(ctx, r.in.Owner, r.in.Repo, since, 1, etag)
	if err != nil {
		return st, r.listFailed(err)
	}
	if first.NotModified {
		st.ETag = etag
		for n := range r.files {
			r.tidy(n)
		}
		return st, nil
	}
	listed := map[int]*github.IssueRecord{}
	var newest time.Time
	page, pages := first, 1
	for {
		for _, rec := range page.Issues {
			if rec.IsPullRequest() {
				continue
			}
			listed[rec.GetNumber()] = rec
			if t := rec.GetUpdatedAt().Time; t.After(newest) {
				newest = t
			}
		}
		if page.Meta.NextPage == 0 {
			break
		}
		pages++
		if page, err = r.c.ListIssueChanges(ctx, r.in.Owner, r.in.Repo, since, page.Meta.NextPage, ""); err != nil {
			return st, r.listFailed(err)
		}
	}
	complete := since.IsZero()
	r.out.Full = complete
	for _, rec := range listed {
		if err := r.apply(ctx, rec); err != nil {
			return st, err
		}
	}
	for n := range r.files {
		if _, ok := listed[n]; ok {
			continue
		}
		if !complete {
			r.tidy(n)
			continue
		}
		if err := r.vanished(ctx, n); err != nil {
			return st, err
		}
	}
	st.ETag = first.ETag
	if pages > 1 && !newest.IsZero() {
		// Listing from the same point again would cost every page each
		// time something changes: start after what was seen, validated
		// by one more request for that listing's first page.
		st.Since, st.ETag = newest.UTC().Format(time.RFC3339), ""
		probe, err := r.c.ListIssueChanges(ctx, r.in.Owner, r.in.Repo, newest, 1, "")
		if err == nil && probe.Meta.NextPage == 0 && seenAll(probe.Issues, listed) {
			st.ETag = probe.ETag
		}
	}
	return st, nil
}

// vanished settles a mirrored issue a complete listing did not name:
// deleted (GitHub answers 404 or 410) or moved to another repository, its
// file goes; still here (an update moved it across pages while they were
// read), it is brought in line like a listed one. One request, for what
// is rare; a failed look leaves the file.
func (r *run) vanished(ctx context.Context, n int) error {
	rec, _, err := r.c.GetIssueRecord(ctx, r.in.Owner, r.in.Repo, n)
	if err != nil {
		if e := toolkit.MapError(err); e != nil && (e.Code == contract.CodeNotFound || e.Code == contract.CodeGone) {
			r.remove(n)
		} else {
			r.tidy(n)
		}
		return nil
	}
	if !strings.HasSuffix(strings.ToLower(rec.GetRepositoryURL()), "/repos/"+strings.ToLower(r.repo)) || rec.GetNumber() != n {
		r.remove(n) // transferred: GitHub redirects to where it went
		return nil
	}
	return r.apply(ctx, rec)
}

// seenAll reports whether every issue of a page was listed with the same
// update time: only then does its ETag stand for what the mirror holds.
func seenAll(page []*github.IssueRecord, listed map[int]*github.IssueRecord) bool {
	for _, rec := range page {
		if rec.IsPullRequest() {
			continue
		}
		was, ok := listed[rec.GetNumber()]
		if !ok || !was.GetUpdatedAt().Equal(rec.GetUpdatedAt()) {
			return false
		}
	}
	return true
}

// listFailed maps a failed listing; a 404 there is the repository's.
func (r *run) listFailed(err error) error {
	e := toolkit.MapError(err)
	if e == nil || e.Code != contract.CodeNotFound {
		return err
	}
	e.Code = contract.CodeRepoNotFound
	e.Message = fmt.Sprintf("%s does not exist or is not visible to this credential; nothing was written", r.repo)
	return e.WithRepair(contract.Repair{NextStep: "search " + r.in.Owner + "'s issues: each row names its repository",
		Tool: toolkit.NameSearchIssues, Arguments: map[string]any{"owner": r.in.Owner, "state": "all"}})
}

// apply brings one listed issue's file in line: removed when the issue is
// no longer mirrored (closed, or outside the creator scope), else written
// when its content (synced_at aside) or its name changed.
func (r *run) apply(ctx context.Context, rec *github.IssueRecord) error {
	n := rec.GetNumber()
	if (rec.GetState() == "closed" && !r.in.IncludeClosed) || !r.s.CreatorAllowed(rec.GetUser().GetLogin()) {
		r.remove(n)
		return nil
	}
	f, err := r.v.MirrorFile(rec, r.in.Owner, r.in.Repo, nil, false)
	if err != nil {
		return err
	}
	name := mirrorfile.FileName(n, f.Issue.Title)
	var cur *entry
	for i, e := range r.files[n] {
		if cur == nil || e.name == name {
			cur = &r.files[n][i]
		}
	}
	if cur != nil && r.reuse && cur.file.Issue.UpdatedAt == f.Issue.UpdatedAt && cur.file.Issue.Comments == f.Issue.Comments {
		f.Comments, f.CommentsTruncated = cur.file.Comments, cur.file.CommentsTruncated
	} else if err := r.comments(ctx, rec, &f); err != nil {
		return err
	}
	r.mirrored[n] = true
	if cur != nil {
		f.SyncedAt = cur.file.SyncedAt
	}
	b, err := f.Encode()
	if err != nil {
		return err
	}
	if cur != nil && cur.name == name && bytes.Equal(b, cur.raw) {
		r.out.Unchanged++
		r.dropOthers(n, name)
		return nil
	}
	f.SyncedAt = r.now
	if b, err = f.Encode(); err != nil {
		return err
	}
	switch k, err := kind(r.md.Root, name); {
	case err != nil:
		return err
	case k != "" && k != "file":
		// Reported by scan already; a link planted under the name is
		// neither followed nor replaced.
		return nil
	}
	if err := r.claimDir(); err != nil {
		return err
	}
	if err := writeIssueFile(r.md.Root, name, b); err != nil {
		// One file the file system refuses (a name too long for it, a
		// full disk) is reported; the other issues' files and the state
		// still are written, and any older copy of this one stays.
		r.out.Invalid = append(r.out.Invalid, Invalid{Path: filepath.Join(r.md.Path, name), Reason: "not written: " + errText(err)})
		return nil
	}
	r.out.Written++
	r.dropOthers(n, name)
	return nil
}

// writeIssueFile writes an issue's file; a variable so a test can make
// the file system refuse one.
var writeIssueFile = writeFile

// comments reads up to the cap of an issue's comments into f.
func (r *run) comments(ctx context.Context, rec *github.IssueRecord, f *mirrorfile.File) error {
	if rec.GetComments() == 0 {
		return nil
	}
	var all []*github.CommentRow
	more := false
	for page := 1; ; page++ {
		list, meta, err := r.c.ListComments(ctx, r.in.Owner, r.in.Repo, rec.GetNumber(), github.ListCommentsOptions{Page: page, PerPage: 100})
		if err != nil {
			return err
		}
		all = append(all, list...)
		if meta.NextPage == 0 {
			break
		}
		if len(all) >= r.cap {
			more = true
			break
		}
	}
	if len(all) > r.cap {
		all, more = all[:r.cap], true
	}
	cf, err := r.v.MirrorFile(rec, r.in.Owner, r.in.Repo, all, more || rec.GetComments() > r.cap)
	if err != nil {
		return err
	}
	f.Comments, f.CommentsTruncated = cf.Comments, cf.CommentsTruncated
	return nil
}

// remove deletes the files of an issue no longer mirrored.
func (r *run) remove(n int) {
	r.mirrored[n] = true
	for _, e := range r.files[n] {
		if r.md.Root.Remove(e.name) == nil {
			r.out.Removed++
		}
	}
}

// tidy keeps an issue the listing did not name: one file stays, copies
// under an older title's name go.
func (r *run) tidy(n int) {
	if len(r.files[n]) > 1 {
		r.mirrored[n] = true
		r.out.Unchanged++
		r.dropOthers(n, r.files[n][0].name)
	}
}

// dropOthers removes an issue's files under other names: the title
// changed, and NUMBER-SLUG.json follows it.
func (r *run) dropOthers(n int, keep string) {
	for _, e := range r.files[n] {
		if e.name != keep {
			_ = r.md.Root.Remove(e.name)
		}
	}
}
