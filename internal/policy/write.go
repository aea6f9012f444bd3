// Package policy is the one write path every write on GitHub passes: a
// tool's input declares what the call would write (a Declarer), and the
// Path admits those writes against the operator's rules before anything
// is sent: quotas per kind and window, argument rules, the outbound text
// policy, the data-flow guard and a person's confirmation. The GitHub
// client refuses any write whose context carries no admission, so a call
// site that forgets the path fails closed.
package policy

import (
	"fmt"
	"net/url"
	"strings"
)

// Kind is what a quota counts and a confirmation rule names.
type Kind string

// The kinds of writes. Each is one thing an operator may want to bound
// on its own; a call can make writes of several kinds (an update that
// relabels and closes an issue makes a label and a close write).
const (
	KindIssueCreate  Kind = "issue_create"  // an issue opened
	KindIssueEdit    Kind = "issue_edit"    // title, body, assignees, milestone, type, lock, reopen
	KindClose        Kind = "close"         // an issue closed (also as a duplicate)
	KindComment      Kind = "comment"       // a comment or review reply posted or edited
	KindLabel        Kind = "label"         // labels added to or removed from an issue
	KindLink         Kind = "link"          // sub-issue, dependency and related links
	KindBoard        Kind = "board"         // a project board written
	KindLabelAdmin   Kind = "label_admin"   // a repository's label created or changed
	KindMilestone    Kind = "milestone"     // a milestone created, changed or deleted
	KindDelete       Kind = "delete"        // an issue, comment or label deleted
	KindReviewThread Kind = "review_thread" // a review thread resolved or reopened
	// KindUpstream is a write through an upstream MCP server's tool the
	// broker fronts, unless its configuration names another kind.
	KindUpstream Kind = "upstream"
)

// Kinds lists every kind, for configuration checks and docs.
var Kinds = []Kind{KindIssueCreate, KindIssueEdit, KindClose, KindComment, KindLabel, KindLink,
	KindBoard, KindLabelAdmin, KindMilestone, KindDelete, KindReviewThread, KindUpstream}

// KnownKind reports whether k is one of Kinds.
func KnownKind(k Kind) bool { return knownKind(k) }

func knownKind(k Kind) bool {
	for _, c := range Kinds {
		if c == k {
			return true
		}
	}
	return false
}

// Target is where a write lands: a repository, and the issue, pull
// request or comment in it where there is one. A board write names only
// the board's owner.
type Target struct {
	Owner   string `json:"owner"`
	Repo    string `json:"repo,omitempty"`
	Number  int    `json:"number,omitempty"`
	Comment int64  `json:"comment,omitempty"`
}

// Repository is "owner/repo", or the owner alone for a board.
func (t Target) Repository() string {
	if t.Repo == "" {
		return t.Owner
	}
	return t.Owner + "/" + t.Repo
}

func (t Target) String() string {
	s := t.Repository()
	if t.Number > 0 {
		s += fmt.Sprintf("#%d", t.Number)
	}
	if t.Comment > 0 {
		s += fmt.Sprintf(" comment %d", t.Comment)
	}
	return s
}

// Text is one outbound text field: its name on the wire ("body",
// "title", "changes.body") and a pointer to the value the tool will send,
// which the outbound policy may rewrite in place before the tool runs.
type Text struct {
	Field string
	Value *string
}

// A Write is one thing a call writes on GitHub; a bulk edit declares one
// per issue.
type Write struct {
	Kind   Kind
	Target Target
	// Text holds the outbound fields this write sends.
	Text []Text
	// LabelsAdded and LabelsRemoved name the labels a label write puts on
	// or takes off (as the agent gave them); Label names the repository
	// label a label_admin write changes.
	LabelsAdded   []string
	LabelsRemoved []string
	Label         string
	// Touches names other repositories the write's requests go to
	// without writing there on their own account (a link's other end, a
	// duplicate's original): admitted, not counted.
	Touches []Target
	// Summary says in a few words what the write does, for a dry run and
	// for the person asked to confirm ("close #12 as a duplicate of #3").
	Summary string
	// Request is the request the write sends, "METHOD /path (note)"
	// relative to the API root, for a dry run. A tool whose requests
	// depend on what it reads forecasts them itself (tooldef.Tool.Preview).
	Request string
}

// A Declarer says, before anything is sent, what a call would write.
// Every write tool's input implements it; tooldef refuses to build a
// write tool whose input does not.
type Declarer interface {
	Writes() []Write
}

// Str returns a Text for a field whose value is a plain string; empty
// values are left out (nothing is sent).
func Str(field string, v *string) []Text {
	if v == nil || *v == "" {
		return nil
	}
	return []Text{{Field: field, Value: v}}
}

func lower(s string) string { return strings.ToLower(s) }

// RepoPath is "/repos/OWNER/REPO" followed by the parts given, for a
// write's Request.
func RepoPath(owner, repo string, parts ...any) string {
	var b strings.Builder
	b.WriteString("/repos/" + url.PathEscape(owner) + "/" + url.PathEscape(repo))
	for _, p := range parts {
		b.WriteString("/")
		if s, ok := p.(string); ok {
			b.WriteString(url.PathEscape(s))
		} else {
			fmt.Fprint(&b, p)
		}
	}
	return b.String()
}
