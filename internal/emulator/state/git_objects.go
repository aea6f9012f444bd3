package state

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// A repository's git data is a small real git object model: every commit
// holds the whole tree as a map of file paths to contents, and its sha is
// the object id git itself would compute for that commit (sha1 over the
// "commit <size>\0" header and body, whose tree is hashed from blobs and
// subtrees the same way). Two commits with the same content, parents,
// signatures and message therefore get the same sha here and in git.

// GitSignature is a commit's author or committer line.
type GitSignature struct {
	Name  string
	Email string
	When  time.Time
	// User is the GitHub account the email belongs to, nil when none does.
	User *Account
}

// GitCommit is one commit and the snapshot of files it records.
type GitCommit struct {
	SHA       string
	TreeSHA   string
	Parents   []*GitCommit
	Author    GitSignature
	Committer GitSignature
	Message   string
	// Files is the whole tree: path -> content.
	Files map[string]string
}

// GitRepo is a repository's branches, commits, commit statuses and check
// runs.
type GitRepo struct {
	Commits  map[string]*GitCommit
	Branches map[string]*GitCommit
	// Statuses and CheckRuns hang off commits by sha, as on GitHub.
	Statuses  map[string][]*CommitStatus
	CheckRuns map[string][]*CheckRun
	// Tags are lightweight tags by name.
	Tags map[string]*GitCommit
	// Trees (root trees: path -> content) and Blobs by object id, for the
	// Git Data API, which names them by sha.
	Trees map[string]map[string]string
	Blobs map[string]string
}

func NewGitRepo() *GitRepo {
	return &GitRepo{Commits: map[string]*GitCommit{}, Branches: map[string]*GitCommit{},
		Statuses: map[string][]*CommitStatus{}, CheckRuns: map[string][]*CheckRun{},
		Trees: map[string]map[string]string{}, Blobs: map[string]string{}}
}

// add makes a commit, its tree and its blobs known to the repository by
// sha.
func (g *GitRepo) add(c *GitCommit) {
	if g.Commits[c.SHA] != nil {
		return
	}
	g.Commits[c.SHA] = c
	g.AddTree(c.Files)
}

// AddTree records a root tree and its blobs, and returns its sha.
func (g *GitRepo) AddTree(files map[string]string) string {
	sha := TreeSHA(files)
	if g.Trees[sha] == nil {
		g.Trees[sha] = files
		for _, content := range files {
			g.Blobs[BlobSHA(content)] = content
		}
	}
	return sha
}

// Headline is the commit message's first line.
func (c *GitCommit) Headline() string {
	h, _, _ := strings.Cut(c.Message, "\n")
	return h
}

// Body is the commit message after the headline and the blank line.
func (c *GitCommit) Body() string {
	_, b, _ := strings.Cut(c.Message, "\n")
	return strings.TrimLeft(b, "\n")
}

// gitObjectID hashes an object as git does: "<kind> <size>\0<body>".
func gitObjectID(kind string, body []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "%s %d\x00", kind, len(body))
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil))
}

// TreeSHA is the id of the tree holding files (path -> content), built
// from nested trees as git builds it: entries "<mode> <name>\0<20-byte id>",
// ordered by name with a subtree compared as if its name ended in "/".
func TreeSHA(files map[string]string) string {
	return TreeOf(files, "")
}

// TreeOf hashes the subtree under prefix ("" for the root, else "dir/").
func TreeOf(files map[string]string, prefix string) string {
	type entry struct {
		name, mode, id string
	}
	seen := map[string]bool{}
	var entries []entry
	for p, content := range files {
		rest, ok := strings.CutPrefix(p, prefix)
		if !ok {
			continue
		}
		if dir, _, nested := strings.Cut(rest, "/"); nested {
			if !seen[dir] {
				seen[dir] = true
				entries = append(entries, entry{dir, "40000", TreeOf(files, prefix+dir+"/")})
			}
			continue
		}
		entries = append(entries, entry{rest, "100644", BlobSHA(content)})
	}
	key := func(e entry) string {
		if e.mode == "40000" {
			return e.name + "/"
		}
		return e.name
	}
	sort.Slice(entries, func(i, j int) bool { return key(entries[i]) < key(entries[j]) })
	var body []byte
	for _, e := range entries {
		raw, _ := hex.DecodeString(e.id)
		body = append(body, e.mode+" "+e.name+"\x00"...)
		body = append(body, raw...)
	}
	return gitObjectID("tree", body)
}

// signatureLine is an author or committer header line's value.
func (s GitSignature) line() string {
	return fmt.Sprintf("%s <%s> %d +0000", s.Name, s.Email, s.When.Unix())
}

// commitSHA is the commit object's id.
func commitSHA(c *GitCommit) string {
	var b strings.Builder
	b.WriteString("tree " + c.TreeSHA + "\n")
	for _, p := range c.Parents {
		b.WriteString("parent " + p.SHA + "\n")
	}
	b.WriteString("author " + c.Author.line() + "\n")
	b.WriteString("committer " + c.Committer.line() + "\n\n")
	b.WriteString(c.Message)
	return gitObjectID("commit", []byte(b.String()))
}

// Signature is the git identity of a GitHub account: its name and its
// noreply address, as GitHub writes them for web commits.
func Signature(a *Account, at time.Time) GitSignature {
	name := a.Name
	if name == "" {
		name = a.Login
	}
	return GitSignature{Name: name, Email: fmt.Sprintf("%d+%s@users.noreply.github.com", a.ID, a.Login), When: at.UTC(), User: a}
}

// Commit records a commit of files over parents on the repository; the
// branch, if named, moves to it.
func (g *GitRepo) Commit(branch string, parents []*GitCommit, files map[string]string, author, committer GitSignature, message string) *GitCommit {
	if !strings.HasSuffix(message, "\n") {
		message += "\n" // git stores messages newline-terminated
	}
	c := &GitCommit{Parents: parents, Author: author, Committer: committer, Message: message, Files: files}
	c.TreeSHA = TreeSHA(files)
	c.SHA = commitSHA(c)
	g.add(c)
	if branch != "" {
		g.Branches[branch] = c
	}
	return c
}

// BranchNames lists the branches by name.
func (g *GitRepo) BranchNames() []string {
	names := make([]string, 0, len(g.Branches))
	for n := range g.Branches {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Resolve finds the commit a ref names: a branch, a tag, a full or
// abbreviated (at least 7 hex digits) sha, or "refs/heads/<branch>" or
// "refs/tags/<tag>".
func (g *GitRepo) Resolve(ref string) *GitCommit {
	if tag, ok := strings.CutPrefix(ref, "refs/tags/"); ok {
		return g.Tags[tag]
	}
	ref = strings.TrimPrefix(ref, "refs/heads/")
	if c := g.Branches[ref]; c != nil {
		return c
	}
	if c := g.Tags[ref]; c != nil {
		return c
	}
	if c := g.Commits[strings.ToLower(ref)]; c != nil {
		return c
	}
	if len(ref) >= 7 && len(ref) < 40 {
		var found *GitCommit
		for sha, c := range g.Commits {
			if strings.HasPrefix(sha, strings.ToLower(ref)) {
				if found != nil {
					return nil // ambiguous
				}
				found = c
			}
		}
		return found
	}
	return nil
}

// History lists the commits reachable from tip, newest first by committer
// date (ties by sha), as `git log` shows them.
func History(tip *GitCommit) []*GitCommit {
	seen := map[string]bool{}
	var out []*GitCommit
	stack := []*GitCommit{tip}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if c == nil || seen[c.SHA] {
			continue
		}
		seen[c.SHA] = true
		out = append(out, c)
		stack = append(stack, c.Parents...)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Committer.When.Equal(out[j].Committer.When) {
			return out[i].Committer.When.After(out[j].Committer.When)
		}
		return out[i].SHA < out[j].SHA
	})
	return out
}

// ancestors is the set of shas reachable from c, c included.
func ancestors(c *GitCommit) map[string]bool {
	seen := map[string]bool{}
	for _, a := range History(c) {
		seen[a.SHA] = true
	}
	return seen
}

// MergeBase is a best common ancestor of a and b, as git merge-base
// finds it: common to both and no ancestor of another common one. It is
// found by the graph, not by date: commits made within one second (the
// committer date's resolution) would otherwise tie, and a tie broken by
// sha could pick an older ancestor and refuse a genuine fast-forward.
// Among several best ones (criss-cross merges) the newest by History's
// order is taken.
func MergeBase(a, b *GitCommit) *GitCommit {
	inA := ancestors(a)
	var common []*GitCommit
	for _, c := range History(b) {
		if inA[c.SHA] {
			common = append(common, c)
		}
	}
	// below holds every proper ancestor of a common commit.
	below := map[string]bool{}
	var stack []*GitCommit
	for _, c := range common {
		stack = append(stack, c.Parents...)
	}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if c == nil || below[c.SHA] {
			continue
		}
		below[c.SHA] = true
		stack = append(stack, c.Parents...)
	}
	for _, c := range common {
		if !below[c.SHA] {
			return c
		}
	}
	return nil
}

// Between lists the commits reachable from head but not from base, oldest
// first, as a pull request's commits are listed.
func Between(base, head *GitCommit) []*GitCommit {
	skip := map[string]bool{}
	if base != nil {
		skip = ancestors(base)
	}
	var out []*GitCommit
	for _, c := range History(head) {
		if !skip[c.SHA] {
			out = append(out, c)
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// BlobSHA is git's object id for a blob with this content.
func BlobSHA(content string) string {
	h := sha1.New()
	h.Write([]byte("blob "))
	h.Write([]byte(strconv.Itoa(len(content))))
	h.Write([]byte{0})
	h.Write([]byte(content))
	return hex.EncodeToString(h.Sum(nil))
}

// Refs lists a repository's refs by name without "refs/": branches, then
// tags.
func Refs(g *GitRepo) (names []string, tips map[string]*GitCommit) {
	tips = map[string]*GitCommit{}
	for _, n := range g.BranchNames() {
		names = append(names, "heads/"+n)
		tips["heads/"+n] = g.Branches[n]
	}
	tags := make([]string, 0, len(g.Tags))
	for n := range g.Tags {
		tags = append(tags, n)
	}
	slices.Sort(tags)
	for _, n := range tags {
		names = append(names, "tags/"+n)
		tips["tags/"+n] = g.Tags[n]
	}
	return names, tips
}
