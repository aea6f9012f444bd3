// Package mirrorfile is the format of a local mirror of a repository's
// issues (github_sync_issues writes it, github_get_issue's source
// "mirror" and the sync read it): one JSON file per issue, named
// NUMBER-SLUG.json, holding what github_get_issue shows of it, and a
// state file saying where the next sync starts.
package mirrorfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ghgate/ghgate/internal/tools/issueview"
)

// Schema is the layout version of the files github_sync_issues
// writes. A file of another version is reported, never read as this one
// and never deleted: a newer ghgate's mirror is not this one's to judge.
const Schema = 1

// StateFile is the mirror's own bookkeeping, beside the issue files.
const StateFile = ".ghgate-sync.json"

// File is one issue in a local mirror: what github_get_issue shows
// of it (the full view, relations, comments up to the sync's cap), and
// when its content last changed.
type File struct {
	Schema            int                  `json:"schema"`
	Repo              string               `json:"repo"`
	Issue             issueview.Issue      `json:"issue"`
	Relations         *issueview.Relations `json:"relations,omitempty"`
	Comments          []issueview.Comment  `json:"comments"`
	CommentsTruncated bool                 `json:"comments_truncated"`
	// SyncedAt is when a sync last wrote this file: it moves only when
	// the content changed, so an unchanged issue keeps its time.
	SyncedAt string `json:"synced_at"`
}

// State is the state file: where the next sync starts.
type State struct {
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

// Encode is the file's bytes: indented JSON (a mirror is read by people
// and diff tools too) ending in a newline.
func (f File) Encode() ([]byte, error) {
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

// Slug is the file-name form of a title: lower-case letters and
// digits, everything else one "-", at most 80 characters and 200 bytes
// (cut between characters); "issue" when nothing is left.
func Slug(title string) string {
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

// FileName is an issue's file name: NUMBER-SLUG.json.
func FileName(number int, title string) string {
	return strconv.Itoa(number) + "-" + Slug(title) + ".json"
}

var mirrorName = regexp.MustCompile(`^([1-9][0-9]{0,9})-[^/]+\.json$`)

// Number reads the issue number from a mirror file name; ok is
// false for a name no sync writes.
func Number(name string) (int, bool) {
	m := mirrorName.FindStringSubmatch(name)
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	return n, err == nil
}

// Parse reads a mirror file named name of repo: it must be JSON
// of this schema version whose issue is the one its name numbers. The
// error says why not.
func Parse(name string, b []byte, repo string) (File, error) {
	var f File
	n, ok := Number(name)
	if !ok {
		return f, fmt.Errorf("name is not NUMBER-SLUG.json")
	}
	var head struct {
		Schema *int `json:"schema"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return f, fmt.Errorf("not valid JSON")
	}
	if head.Schema == nil || *head.Schema != Schema {
		return f, fmt.Errorf("unknown schema version (this ghgate writes %d)", Schema)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return f, fmt.Errorf("not a schema %d mirror file: %v", Schema, err)
	}
	if !strings.EqualFold(f.Repo, repo) {
		return f, fmt.Errorf("holds an issue of %s, not %s", f.Repo, repo)
	}
	if f.Issue.Number != n {
		return f, fmt.Errorf("name says issue %d, the file holds issue %d", n, f.Issue.Number)
	}
	return f, nil
}
