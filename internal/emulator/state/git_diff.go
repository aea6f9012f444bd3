package state

import (
	"fmt"
	"sort"
	"strings"

	"github.com/pmezard/go-difflib/difflib"
)

// FileChange is one file that differs between two trees, as a pull
// request's files and a commit's files list it.
type FileChange struct {
	Path      string
	Status    string // added | removed | modified
	Before    string // content in the old tree ("" when added)
	After     string // content in the new tree ("" when removed)
	Additions int
	Deletions int
	// Patch is the unified diff's hunks, without the file headers, as
	// GitHub's "patch" field carries them.
	Patch string
}

// Changes is what differs from tree a to tree b, ordered by path as git
// orders a diff.
func Changes(a, b map[string]string) []FileChange {
	paths := map[string]bool{}
	for p := range a {
		paths[p] = true
	}
	for p := range b {
		paths[p] = true
	}
	sorted := make([]string, 0, len(paths))
	for p := range paths {
		sorted = append(sorted, p)
	}
	sort.Strings(sorted)
	var out []FileChange
	for _, p := range sorted {
		before, inA := a[p]
		after, inB := b[p]
		if inA && inB && before == after {
			continue
		}
		fc := FileChange{Path: p, Before: before, After: after, Status: "modified"}
		switch {
		case !inA:
			fc.Status = "added"
		case !inB:
			fc.Status = "removed"
		}
		fc.Patch = hunks(before, after)
		for _, l := range strings.Split(fc.Patch, "\n") {
			switch {
			case strings.HasPrefix(l, "+"):
				fc.Additions++
			case strings.HasPrefix(l, "-"):
				fc.Deletions++
			}
		}
		out = append(out, fc)
	}
	return out
}

// splitLines cuts text into lines that keep their newline; a last line
// without one is marked as git marks it.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	} else {
		lines[len(lines)-1] += "\n\\ No newline at end of file\n"
	}
	return lines
}

// hunks is the unified diff of two texts with git's three lines of
// context, without file headers and without a trailing newline.
func hunks(a, b string) string {
	s, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{A: splitLines(a), B: splitLines(b), Context: 3})
	if err != nil {
		return "" // writing to a strings.Builder does not fail
	}
	return strings.TrimSuffix(s, "\n")
}

// GitDiff renders changes as `git diff` does: the text GitHub answers for
// a pull request in the application/vnd.github.diff media type.
func GitDiff(changes []FileChange) string {
	var b strings.Builder
	for _, fc := range changes {
		fmt.Fprintf(&b, "diff --git a/%s b/%s\n", fc.Path, fc.Path)
		before, after := ShortSHA(BlobSHA(fc.Before)), ShortSHA(BlobSHA(fc.After))
		from, to := "a/"+fc.Path, "b/"+fc.Path
		switch fc.Status {
		case "added":
			b.WriteString("new file mode 100644\n")
			fmt.Fprintf(&b, "index 0000000..%s\n", after)
			from = "/dev/null"
		case "removed":
			b.WriteString("deleted file mode 100644\n")
			fmt.Fprintf(&b, "index %s..0000000\n", before)
			to = "/dev/null"
		default:
			fmt.Fprintf(&b, "index %s..%s 100644\n", before, after)
		}
		if fc.Patch == "" {
			continue // an empty file added or removed has no hunks
		}
		fmt.Fprintf(&b, "--- %s\n+++ %s\n%s\n", from, to, fc.Patch)
	}
	return b.String()
}

// ShortSHA is git's default abbreviation of an object id.
func ShortSHA(sha string) string { return sha[:7] }

// diffStat is `git diff --stat`'s summary line.
func diffStat(changes []FileChange) string {
	adds, dels := 0, 0
	for _, fc := range changes {
		adds += fc.Additions
		dels += fc.Deletions
	}
	s := fmt.Sprintf(" %d file%s changed", len(changes), plural(len(changes)))
	if adds > 0 || dels == 0 {
		s += fmt.Sprintf(", %d insertion%s(+)", adds, plural(adds))
	}
	if dels > 0 {
		s += fmt.Sprintf(", %d deletion%s(-)", dels, plural(dels))
	}
	return s
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// FormatPatch renders commits as `git format-patch --stdout` does: the text
// GitHub answers for a pull request in the application/vnd.github.patch
// media type, one mail per commit.
func FormatPatch(commits []*GitCommit) string {
	var b strings.Builder
	for i, c := range commits {
		var parent map[string]string
		if len(c.Parents) > 0 {
			parent = c.Parents[0].Files
		}
		changes := Changes(parent, c.Files)
		fmt.Fprintf(&b, "From %s Mon Sep 17 00:00:00 2001\n", c.SHA)
		fmt.Fprintf(&b, "From: %s <%s>\n", c.Author.Name, c.Author.Email)
		fmt.Fprintf(&b, "Date: %s\n", c.Author.When.Format("Mon, 2 Jan 2006 15:04:05 -0700"))
		subject := c.Headline()
		if len(commits) > 1 {
			subject = fmt.Sprintf("[PATCH %d/%d] %s", i+1, len(commits), subject)
		} else {
			subject = "[PATCH] " + subject
		}
		fmt.Fprintf(&b, "Subject: %s\n\n", subject)
		if body := strings.TrimRight(c.Body(), "\n"); body != "" {
			b.WriteString(body + "\n")
		}
		b.WriteString("---\n")
		for _, fc := range changes {
			fmt.Fprintf(&b, " %s | %d %s\n", fc.Path, fc.Additions+fc.Deletions,
				strings.Repeat("+", fc.Additions)+strings.Repeat("-", fc.Deletions))
		}
		b.WriteString(diffStat(changes) + "\n\n")
		b.WriteString(GitDiff(changes))
		b.WriteString("\n")
	}
	return b.String()
}

// SplitPatch cuts a patch into its lines.
func SplitPatch(p string) []string {
	if p == "" {
		return nil
	}
	return strings.Split(p, "\n")
}

func joinLines(ls []string) string { return strings.Join(ls, "\n") }

// HunkStart is the new file's first line number in a hunk header
// "@@ -a,b +c,d @@".
func HunkStart(header string) int {
	var a, b, c int
	if _, err := fmt.Sscanf(header, "@@ -%d,%d +%d", &a, &b, &c); err == nil {
		return c
	}
	if _, err := fmt.Sscanf(header, "@@ -%d +%d", &a, &c); err == nil {
		return c
	}
	_, _ = fmt.Sscanf(header, "@@ -%d,%d +%d", &a, &b, &c)
	return c
}

// FirstAddedLine is the new file's number of the first added line in a
// patch, 0 when it adds none.
func FirstAddedLine(patch string) int {
	n := 0
	for _, l := range SplitPatch(patch) {
		switch {
		case strings.HasPrefix(l, "@@"):
			n = HunkStart(l) - 1
		case strings.HasPrefix(l, "+"):
			return n + 1
		case strings.HasPrefix(l, "-"), strings.HasPrefix(l, "\\"):
		default:
			n++
		}
	}
	return 0
}
