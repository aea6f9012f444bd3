package issues

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ghgate/ghgate/internal/github"
)

// MirrorSchema is the layout version of the files github_sync_issues
// writes. A file of another version is reported, never read as this one
// and never deleted: a newer ghgate's mirror is not this one's to judge.
const MirrorSchema = 1

// MirrorStateFile is the mirror's own bookkeeping, beside the issue files.
const MirrorStateFile = ".ghgate-sync.json"

// MirrorFile is one issue in a local mirror: what github_get_issue shows
// of it (the full view, relations, comments up to the sync's cap), and
// when its content last changed.
type MirrorFile struct {
	Schema            int        `json:"schema"`
	Repo              string     `json:"repo"`
	Issue             Issue      `json:"issue"`
	Relations         *Relations `json:"relations,omitempty"`
	Comments          []Comment  `json:"comments"`
	CommentsTruncated bool       `json:"comments_truncated"`
	// SyncedAt is when a sync last wrote this file: it moves only when
	// the content changed, so an unchanged issue keeps its time.
	SyncedAt string `json:"synced_at"`
}

// MirrorState is the state file: where the next sync starts.
type MirrorState struct {
	Schema int    `json:"schema"`
	Repo   string `json:"repo"`
	// Lockdown is set when the files were written with strangers' text
	// withheld: a sync under another rule rewrites every file.
	Lockdown bool `json:"lockdown,omitempty"`
	// Since is the lower bound of the update times the next sync lists
	// (empty: every issue); ETag validates that listing's first page.
	Since         string `json:"since,omitempty"`
	ETag          string `json:"etag,omitempty"`
	IncludeClosed bool   `json:"include_closed"`
	CommentsCap   int    `json:"comments_cap"`
	// SyncedAt is when the last sync finished: the mirror is at most this
	// old.
	SyncedAt string `json:"synced_at"`
}

// MirrorFile renders an issue for the mirror with the view code of
// github_get_issue, so the mirror answers what GitHub would, lockdown
// included: under it, strangers' text in a public repository never
// reaches the file. Each text keeps its author's association, by which a
// read of the mirror decides again.
func (v Views) MirrorFile(rec *github.IssueRecord, owner, repo string, comments []*github.CommentRow, truncated bool) (MirrorFile, error) {
	full := owner + "/" + repo
	is, err := v.v.issue(github.IssueRowOf(&rec.Issue), Full, false, full)
	if err != nil {
		return MirrorFile{}, err
	}
	is.Association = rec.GetAuthorAssociation()
	f := MirrorFile{Schema: MirrorSchema, Repo: full, Issue: is,
		Relations: recordRelations(rec, owner, repo), Comments: []Comment{}, CommentsTruncated: truncated}
	for _, c := range comments {
		cv, _, err := v.v.comment(full, c)
		if err != nil {
			return MirrorFile{}, err
		}
		cv.Association = c.AuthorAssociation
		f.Comments = append(f.Comments, cv)
	}
	return f, nil
}

// Encode is the file's bytes: indented JSON (a mirror is read by people
// and diff tools too) ending in a newline.
func (f MirrorFile) Encode() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// maxSlug bounds the title part of a file name in characters, and
// maxSlugBytes in bytes: file systems cap a name at 255 bytes, and 80
// letters of four bytes each with the number and ".json" would pass it.
const (
	maxSlug      = 80
	maxSlugBytes = 200
)

// MirrorSlug is the file-name form of a title: lower-case letters and
// digits, everything else one "-", at most 80 characters and 200 bytes
// (cut between characters); "issue" when nothing is left.
func MirrorSlug(title string) string {
	var b strings.Builder
	n, dash := 0, false
	fits := func(r rune, extra int) bool {
		return n+1+extra <= maxSlug && b.Len()+utf8.RuneLen(r)+extra <= maxSlugBytes
	}
	for _, r := range strings.ToLower(title) {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			dash = true
			continue
		}
		sep := 0
		if dash && n > 0 {
			sep = 1
		}
		if !fits(r, sep) {
			break
		}
		if sep == 1 {
			b.WriteByte('-')
			n++
		}
		b.WriteRune(r)
		n++
		dash = false
	}
	if b.Len() == 0 {
		return "issue"
	}
	return b.String()
}

// MirrorFileName is an issue's file name: NUMBER-SLUG.json.
func MirrorFileName(number int, title string) string {
	return strconv.Itoa(number) + "-" + MirrorSlug(title) + ".json"
}

var mirrorName = regexp.MustCompile(`^([1-9][0-9]{0,9})-[^/]+\.json$`)

// MirrorNumber reads the issue number from a mirror file name; ok is
// false for a name no sync writes.
func MirrorNumber(name string) (int, bool) {
	m := mirrorName.FindStringSubmatch(name)
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	return n, err == nil
}

// ParseMirrorFile reads a mirror file named name of repo: it must be JSON
// of this schema version whose issue is the one its name numbers. The
// error says why not.
func ParseMirrorFile(name string, b []byte, repo string) (MirrorFile, error) {
	var f MirrorFile
	n, ok := MirrorNumber(name)
	if !ok {
		return f, fmt.Errorf("name is not NUMBER-SLUG.json")
	}
	var head struct {
		Schema *int `json:"schema"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return f, fmt.Errorf("not valid JSON")
	}
	if head.Schema == nil || *head.Schema != MirrorSchema {
		return f, fmt.Errorf("unknown schema version (this ghgate writes %d)", MirrorSchema)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return f, fmt.Errorf("not a schema %d mirror file: %v", MirrorSchema, err)
	}
	if !strings.EqualFold(f.Repo, repo) {
		return f, fmt.Errorf("holds an issue of %s, not %s", f.Repo, repo)
	}
	if f.Issue.Number != n {
		return f, fmt.Errorf("name says issue %d, the file holds issue %d", n, f.Issue.Number)
	}
	return f, nil
}
