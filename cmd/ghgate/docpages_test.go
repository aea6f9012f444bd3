package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/ghgate/ghgate/internal/server"
)

const docsDir = "../../docs"

// TestDocPagesFresh: each generated page is what the code makes now, so a
// setting, tool, argument, output field, permission or error code cannot
// change without its page.
func TestDocPagesFresh(t *testing.T) {
	for _, p := range docPages {
		got, err := p.render(context.Background(), docsDir)
		if err != nil {
			t.Fatalf("rendering docs/%s: %v", p.name, err)
		}
		have, err := os.ReadFile(filepath.Join(docsDir, p.name))
		if err != nil {
			t.Fatalf("docs/%s: %v; run %s", p.name, err, regenerateCommand)
		}
		if string(have) != string(got) {
			t.Errorf("docs/%s is stale (%d bytes, the code makes %d, first difference at line %d); run %s",
				p.name, len(have), len(got), firstDiffLine(string(have), string(got)), regenerateCommand)
		}
	}
}

func firstDiffLine(a, b string) int {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return i + 1
		}
	}
	return min(len(al), len(bl)) + 1
}

// TestBrokerSettingsDocumentEveryKey: every key of the broker's config
// has a row in brokerSettingDocs, and every row names a key.
func TestBrokerSettingsDocumentEveryKey(t *testing.T) {
	keys := brokerConfigKeys()
	if len(keys) < 20 {
		t.Fatalf("walked %d broker keys, want at least 20: %v", len(keys), keys)
	}
	if err := checkSettingDocs("brokerSettingDocs", keys, brokerSettingDocs); err != nil {
		t.Error(err)
	}
}

// TestToolFragmentsCoverEveryTool: every tool and toolset has its
// hand-written fragment under docs/tools, and no fragment is left over
// from a tool that is gone.
func TestToolFragmentsCoverEveryTool(t *testing.T) {
	_, specs, err := listedTools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"_intro.md": true, "_surface.md": true}
	for _, sp := range specs {
		want[sp.ToolName()+".md"] = true
		want["toolset-"+sp.ToolsetName()+".md"] = true
	}
	if len(specs) < 20 {
		t.Fatalf("listed only %d tools", len(specs))
	}
	entries, err := os.ReadDir(filepath.Join(docsDir, "tools"))
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, e := range entries {
		have[e.Name()] = true
		if !want[e.Name()] {
			t.Errorf("docs/tools/%s is no tool's or toolset's fragment", e.Name())
		}
	}
	for _, name := range sortedKeys(want) {
		if !have[name] {
			t.Errorf("docs/tools/%s is missing: every tool and toolset has its hand-written section", name)
		}
	}
	// The default toolset is the one the README names first.
	if !slices.Equal(server.DefaultToolsets(), []string{"issues"}) {
		t.Errorf("default toolsets = %v; docs/tools.md's table marks issues as the default", server.DefaultToolsets())
	}
}

// pendingLinkTargets are pages other branches add; a link to one is
// allowed until they land. Empty this list once they are merged.
var pendingLinkTargets = []string{}

// TestDocLinksResolve: every relative link and #anchor between the
// README, SECURITY.md, CHANGELOG.md and docs/*.md names a file that
// exists and, for an anchor into Markdown, a heading there (by GitHub's
// slug rules).
func TestDocLinksResolve(t *testing.T) {
	root := filepath.Join("..", "..")
	files := []string{"README.md", "SECURITY.md", "CHANGELOG.md"}
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		rel, _ := filepath.Rel(root, p)
		files = append(files, filepath.ToSlash(rel))
	}
	anchors := map[string]map[string]bool{}
	anchorsOf := func(rel string) (map[string]bool, bool) {
		if a, ok := anchors[rel]; ok {
			return a, true
		}
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			return nil, false
		}
		anchors[rel] = headingAnchors(string(b))
		return anchors[rel], true
	}
	checked := 0
	for _, file := range files {
		raw, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			t.Fatal(err)
		}
		for _, link := range markdownLinks(string(raw)) {
			if isExternal(link) {
				continue
			}
			checked++
			target, anchor, _ := strings.Cut(link, "#")
			targetRel := file
			if target != "" {
				targetRel = filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(file), target)))
			}
			if slices.Contains(pendingLinkTargets, targetRel) {
				continue
			}
			if _, err := os.Stat(filepath.Join(root, targetRel)); err != nil {
				t.Errorf("%s links to %q: %s does not exist", file, link, targetRel)
				continue
			}
			if anchor == "" || !strings.HasSuffix(targetRel, ".md") {
				continue
			}
			a, _ := anchorsOf(targetRel)
			if !a[strings.ToLower(anchor)] {
				t.Errorf("%s links to %q: %s has no heading with the anchor #%s", file, link, targetRel, anchor)
			}
		}
	}
	if checked < 20 {
		t.Errorf("checked only %d links; the link reader is broken", checked)
	}
}

// TestDocSlug: GitHub's anchor slugs, as the link check computes them.
func TestDocSlug(t *testing.T) {
	for in, want := range map[string]string{
		"Run as a broker":                      "run-as-a-broker",
		"With `go install`":                    "with-go-install",
		"Toolset `pull_requests`":              "toolset-pull_requests",
		"github_sync_issues":                   "github_sync_issues",
		"Guards against a steered agent":       "guards-against-a-steered-agent",
		"What's new: 1.2 (done)":               "whats-new-12-done",
		"[Scale-out](scale-out.md) and more":   "scale-out-and-more",
		"HTTP and authentication — the basics": "http-and-authentication--the-basics",
	} {
		if got := slug(in); got != want {
			t.Errorf("slug(%q) = %q, want %q", in, got, want)
		}
	}
}

var (
	fenceRE     = regexp.MustCompile("(?m)^\\s*(```|~~~)")
	codeSpanRE  = regexp.MustCompile("`[^`\n]*`")
	linkRE      = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	headingRE   = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
	htmlAnchorR = regexp.MustCompile(`<a\s+(?:id|name)="([^"]+)"`)
	mdLinkText  = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
)

// proseLines are a Markdown file's lines outside fenced code blocks.
func proseLines(md string) []string {
	var out []string
	in := false
	for _, line := range strings.Split(md, "\n") {
		if fenceRE.MatchString(line) {
			in = !in
			continue
		}
		if !in {
			out = append(out, line)
		}
	}
	return out
}

// markdownLinks are the inline link targets outside code.
func markdownLinks(md string) []string {
	var out []string
	for _, line := range proseLines(md) {
		line = codeSpanRE.ReplaceAllString(line, "")
		for _, m := range linkRE.FindAllStringSubmatch(line, -1) {
			out = append(out, m[1])
		}
	}
	return out
}

func isExternal(link string) bool {
	return strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:")
}

// headingAnchors are the anchors GitHub gives a file's headings (a
// repeated slug gets -1, -2, ...) and its explicit <a id> anchors.
func headingAnchors(md string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, line := range proseLines(md) {
		for _, m := range htmlAnchorR.FindAllStringSubmatch(line, -1) {
			out[strings.ToLower(m[1])] = true
		}
		m := headingRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		s := slug(m[1])
		if n := seen[s]; n > 0 {
			out[s+"-"+itoa(n)] = true
		} else {
			out[s] = true
		}
		seen[s]++
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }

// slug is GitHub's heading anchor: the heading's text (links by their
// text, code spans by their content) in lower case, every character but
// letters, digits, spaces, hyphens and underscores dropped, spaces made
// hyphens.
func slug(heading string) string {
	text := mdLinkText.ReplaceAllString(heading, "$1")
	text = strings.ReplaceAll(text, "`", "")
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteRune('-')
		}
	}
	return b.String()
}
