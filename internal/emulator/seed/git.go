package seed

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// The demo seed's git data. Each repository starts with one commit of its
// files and a small source tree; each pull request opens from a branch of
// one to three commits whose changes follow from its title (a fix edits
// the component its issue names and adds a test, a bump edits the
// manifest, docs add a page and link it, a feature adds a proposal and a
// changelog line). Merges write merge commits on main at their seeded
// moment, so later branches fork from a main that moved and a pull request
// can conflict with it. Reviews, review threads, check runs and statuses
// follow once every issue's history has run, when each pull request's fate
// is known. Everything draws from its own fixed-seed source, so the issue
// seed's sequence is untouched.

// seedGit gives each demo repository its initial commit.
func (sd *seeder) seedGit(w *world) {
	for _, r := range []*state.Repo{w.widgets, w.gadgets, w.notes} {
		files := map[string]string{}
		for p, c := range r.Files {
			files[p] = c
		}
		for p, c := range sourceTree(r) {
			files[p] = c
		}
		r.Git = state.NewGitRepo()
		// An organization's repository is created by a member.
		author := r.Owner
		if r.Owner.IsOrg && len(r.Collaborators) > 0 {
			if a := sd.s.Account(r.Collaborators[0]); a != nil {
				author = a
			}
		}
		sig := state.Signature(author, r.CreatedAt)
		r.Git.Commit(state.RepoDefaultBranch, nil, files, sig, sig, "Initial commit")
		// Repo.Files is the default branch's tree.
		r.Files = make(map[string]string, len(files))
		for p, c := range files {
			r.Files[p] = c
		}
	}
	// dave, an outside contributor, sends his pull requests to the public
	// acme/widgets from his fork.
	sd.s.Fork(w.widgets, w.dave, day(2025, time.November, 3))
}

// repoLayout says where a repository keeps the sources of user-facing
// (front) and other components, and its manifests.
type repoLayout struct {
	frontDir, frontExt, backDir, backExt string
	vocab                                *vocab
}

func layoutOf(r *state.Repo) *repoLayout {
	switch r.Name {
	case DemoWidgetsRepo:
		return &repoLayout{"web/src/widgets/", ".tsx", "internal/", ".go", widgetsVocab()}
	case DemoGadgetsRepo:
		return &repoLayout{"app/src/", ".tsx", "firmware/main/", ".c", gadgetsVocab()}
	}
	return nil
}

// sourceFile is where a component's code lives.
func (l *repoLayout) sourceFile(c component) string {
	if c.front {
		return l.frontDir + c.file + l.frontExt
	}
	if l.backExt == ".go" {
		return l.backDir + c.file + "/" + c.file + ".go"
	}
	return l.backDir + c.file + l.backExt
}

// testFile is where a fix for issue n of a component adds its test.
func (l *repoLayout) testFile(c component, n int) string {
	switch {
	case c.front:
		return fmt.Sprintf("%s%s.issue%d.test%s", l.frontDir, c.file, n, l.frontExt)
	case l.backExt == ".go":
		return fmt.Sprintf("%s%s/issue%d_test.go", l.backDir, c.file, n)
	}
	return fmt.Sprintf("firmware/test/test_%s_issue%d.c", c.file, n)
}

// sourceTree is a repository's code beyond its documents: one file per
// component and the dependency manifests.
func sourceTree(r *state.Repo) map[string]string {
	l := layoutOf(r)
	files := map[string]string{}
	if l == nil {
		files["reading-list.md"] = "# Reading list\n\n- Designing Data-Intensive Applications\n- A Philosophy of Software Design\n"
		files["talks/2026-gophercon.md"] = "# Talk draft: emulators as test doubles\n\n## Outline\n\n1. Why mocks drift\n2. A stateful fake\n3. Fidelity tests\n"
		return files
	}
	for _, c := range l.vocab.components {
		p := l.sourceFile(c)
		if _, ok := files[p]; !ok {
			files[p] = componentSource(c, p)
		}
	}
	manifests := map[string][]dep{}
	for _, d := range l.vocab.deps {
		manifests[d.file] = append(manifests[d.file], d)
	}
	for file, deps := range manifests {
		files[file] = manifest(r, file, deps)
	}
	files["CHANGELOG.md"] = "# Changelog\n\n## Unreleased\n\n## Earlier releases\n\nSee the release notes on GitHub.\n"
	return files
}

// componentSource is a plausible source file for a component.
func componentSource(c component, path string) string {
	switch {
	case strings.HasSuffix(path, ".tsx"):
		return fmt.Sprintf("import { useWidgetData } from \"../data\";\nimport { Frame, WidgetError } from \"../frame\";\n\n"+
			"// %s renders %s.\nexport function %s(props: WidgetProps) {\n"+
			"  const { data, error } = useWidgetData(props.query);\n  if (error) {\n    return <WidgetError error={error} />;\n  }\n"+
			"  return <Frame title={props.title}>{render(data)}</Frame>;\n}\n", c.file, c.name, c.file)
	case strings.HasSuffix(path, ".go"):
		return fmt.Sprintf("// Package %s implements %s.\npackage %s\n\nimport \"context\"\n\n"+
			"// Service serves %s.\ntype Service struct {\n\tStore Store\n}\n\n"+
			"// Handle runs one request.\nfunc (s *Service) Handle(ctx context.Context, req Request) (Response, error) {\n"+
			"\tres, err := s.Store.Load(ctx, req)\n\tif err != nil {\n\t\treturn Response{}, err\n\t}\n\treturn res, nil\n}\n",
			c.file, c.name, c.file, c.name)
	}
	return fmt.Sprintf("/* %s: %s. */\n#include \"hub.h\"\n\nint %s_step(struct hub *h)\n{\n"+
		"\tint err = hub_read(h);\n\tif (err) {\n\t\treturn err;\n\t}\n\treturn hub_commit(h);\n}\n", c.file, c.name, c.file)
}

// manifest lists deps at their old versions in the file's format.
func manifest(r *state.Repo, file string, deps []dep) string {
	var b strings.Builder
	switch {
	case strings.HasSuffix(file, "go.mod"):
		fmt.Fprintf(&b, "module github.com/%s\n\ngo 1.23\n\nrequire (\n", r.FullName())
		for _, d := range deps {
			fmt.Fprintf(&b, "\t%s v%s\n", d.name, d.from)
		}
		b.WriteString(")\n")
	case strings.HasSuffix(file, ".json"):
		fmt.Fprintf(&b, "{\n  \"name\": \"%s\",\n  \"private\": true,\n  \"dependencies\": {\n", r.Name)
		for i, d := range deps {
			sep := ","
			if i == len(deps)-1 {
				sep = ""
			}
			fmt.Fprintf(&b, "    \"%s\": \"^%s\"%s\n", d.name, d.from, sep)
		}
		b.WriteString("  }\n}\n")
	default:
		b.WriteString("dependencies:\n")
		for _, d := range deps {
			fmt.Fprintf(&b, "  %s: \"%s\"\n", d.name, d.from)
		}
	}
	return b.String()
}

var (
	bumpTitle = regexp.MustCompile(`^Bump (\S+) from (\S+) to (\S+)$`)
	fixTitle  = regexp.MustCompile(`^Fix #(\d+): `)
	nonSlug   = regexp.MustCompile(`[^a-z0-9]+`)
)

func slug(s string) string {
	s = strings.Trim(nonSlug.ReplaceAllString(strings.ToLower(s), "-"), "-")
	if len(s) > 40 {
		s = strings.TrimRight(s[:40], "-")
	}
	return s
}

// gitRand is the git seed's own source for a pull request.
func gitRand(is *state.Issue) *rand.Rand {
	return rand.New(rand.NewPCG(0x617, uint64(is.ID)))
}

// openPull creates the pull request's branch and commits, from main as it
// is at the pull request's creation, and opens it.
func (sd *seeder) openPull(is *state.Issue) {
	r := is.Repo
	g := r.Git
	l := layoutOf(r)
	if g == nil || l == nil {
		return
	}
	rng := gitRand(is)
	author := is.User
	at := is.CreatedAt.Add(-time.Duration(2+rng.IntN(20)) * time.Hour)
	type step struct {
		msg    string
		writes map[string]*string
	}
	var branch string
	var steps []step
	main := g.Branches[state.RepoDefaultBranch].Files
	switch m := bumpTitle.FindStringSubmatch(is.Title); {
	case m != nil:
		name, from, to := m[1], m[2], m[3]
		file := ""
		for _, d := range l.vocab.deps {
			if d.name == name {
				file = d.file
			}
		}
		eco := "go_modules"
		if !strings.HasSuffix(file, "go.mod") {
			eco = "npm_and_yarn"
		}
		branch = fmt.Sprintf("dependabot/%s/%s-%s", eco, name, to)
		steps = append(steps, step{is.Title, map[string]*string{file: ptr(bump(main[file], name, from, to))}})
	case fixTitle.MatchString(is.Title):
		n := 0
		fmt.Sscanf(is.Title, "Fix #%d:", &n)
		issueTitle := strings.TrimPrefix(is.Title, fixTitle.FindString(is.Title))
		c := l.vocab.components[0]
		for _, cand := range l.vocab.components {
			if strings.HasPrefix(issueTitle, cand.title) {
				c = cand
			}
		}
		src, test := l.sourceFile(c), l.testFile(c, n)
		branch = fmt.Sprintf("fix/%d-%s", n, slug(issueTitle))
		steps = append(steps,
			step{fmt.Sprintf("%s: %s\n\nFixes #%d.", c.file, lowerFirst(issueTitle), n),
				map[string]*string{src: ptr(insertFix(main[src], n, issueTitle))}},
			step{fmt.Sprintf("Add a regression test for #%d", n),
				map[string]*string{test: ptr(regressionTest(test, c, n, issueTitle))}})
	case strings.HasPrefix(is.Title, "docs: document "):
		topic := strings.TrimPrefix(is.Title, "docs: document ")
		page := "docs/" + slug(topic) + ".md"
		branch = "docs/" + slug(topic)
		steps = append(steps,
			step{is.Title, map[string]*string{page: ptr(fmt.Sprintf("# %s\n\nThis page explains %s, with a worked example.\n\n## Example\n\nSee the quick start in the README first.\n", upperFirst(topic), topic))}},
			step{"docs: link the new page from the README", map[string]*string{"README.md": ptr(linkDoc(main["README.md"], upperFirst(topic), page))}})
	default:
		s := slug(is.Title)
		branch = "feature/" + s
		steps = append(steps,
			step{is.Title, map[string]*string{"docs/proposals/" + s + ".md": ptr(fmt.Sprintf("# %s\n\nStatus: implemented behind an option, off by default.\n", is.Title))}},
			step{"Add a changelog entry", map[string]*string{"CHANGELOG.md": ptr(strings.Replace(main["CHANGELOG.md"], "## Unreleased\n\n", "## Unreleased\n\n- "+is.Title+"\n", 1))}})
	}
	// An outside contributor cannot push to the repository: the branch
	// lives in their fork, brought up to date first.
	head := r
	if !slices.ContainsFunc(r.Collaborators, func(l string) bool { return strings.EqualFold(l, author.Login) }) {
		if head = sd.s.Repo(author.Login, r.Name); head == nil || head.Parent != r {
			panic(fmt.Sprintf("emulator: demo seed: %s has no fork of %s", author.Login, r.FullName()))
		}
		sd.s.SyncFork(head)
	}
	hg := head.Git
	if hg.Branches[branch] != nil {
		branch = fmt.Sprintf("%s-%d", branch, is.Number)
	}
	hg.Branches[branch] = hg.Branches[state.RepoDefaultBranch]
	for i, st := range steps {
		sd.s.Commit(head, branch, author, at.Add(time.Duration(i)*37*time.Minute), st.msg, st.writes)
	}
	sd.s.OpenPull(is, head, branch, state.RepoDefaultBranch, false)
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// bump moves a dependency's version in a manifest.
func bump(content, name, from, to string) string {
	lines := strings.SplitAfter(content, "\n")
	for i, l := range lines {
		if strings.Contains(l, name) && strings.Contains(l, from) {
			lines[i] = strings.Replace(l, from, to, 1)
			return strings.Join(lines, "")
		}
	}
	return content + fmt.Sprintf("# %s %s\n", name, to)
}

// insertFix adds a guard to a component's source after its error check.
func insertFix(src string, n int, title string) string {
	var guard, anchor string
	switch {
	case strings.Contains(src, "useWidgetData"):
		anchor = "    return <WidgetError error={error} />;\n  }\n"
		guard = fmt.Sprintf("  // #%d: %s\n  if (data === undefined) {\n    return <Frame title={props.title} loading />;\n  }\n", n, title)
	case strings.Contains(src, "package "):
		anchor = "\t\treturn Response{}, err\n\t}\n"
		guard = fmt.Sprintf("\t// #%d: %s\n\tif res.Partial {\n\t\treturn s.retry(ctx, req)\n\t}\n", n, title)
	default:
		anchor = "\t\treturn err;\n\t}\n"
		guard = fmt.Sprintf("\t/* #%d: %s */\n\tif (hub_busy(h)) {\n\t\treturn -EAGAIN;\n\t}\n", n, title)
	}
	if !strings.Contains(src, anchor) {
		return src + guard
	}
	return strings.Replace(src, anchor, anchor+guard, 1)
}

// regressionTest is the test a fix adds.
func regressionTest(path string, c component, n int, title string) string {
	switch {
	case strings.HasSuffix(path, ".tsx"):
		return fmt.Sprintf("import { render } from \"@testing-library/react\";\nimport { %s } from \"./%s\";\n\n"+
			"test(\"issue %d: %s\", () => {\n  const view = render(<%s query=\"orders\" />);\n  expect(view.container).not.toBeEmptyDOMElement();\n});\n",
			c.file, c.file, n, strings.ReplaceAll(title, "\"", "'"), c.file)
	case strings.HasSuffix(path, ".go"):
		return fmt.Sprintf("package %s\n\nimport \"testing\"\n\n// TestIssue%d: %s.\nfunc TestIssue%d(t *testing.T) {\n"+
			"\ts := &Service{Store: partialStore{}}\n\tif _, err := s.Handle(t.Context(), Request{}); err != nil {\n\t\tt.Fatal(err)\n\t}\n}\n",
			c.file, n, title, n)
	}
	return fmt.Sprintf("/* Issue #%d: %s. */\n#include \"unity.h\"\n#include \"hub.h\"\n\nvoid test_issue_%d(void)\n{\n\tTEST_ASSERT_EQUAL(0, %s_step(hub_fake()));\n}\n",
		n, title, n, c.file)
}

// linkDoc adds a page to the README's documentation list, or at its end.
func linkDoc(readme, title, page string) string {
	line := fmt.Sprintf("- [%s](%s)\n", title, page)
	if i := strings.Index(readme, "## Documentation\n\n"); i >= 0 {
		if j := strings.Index(readme[i:], "\n\n## "); j >= 0 {
			at := i + j + 1
			return readme[:at] + line + readme[at:]
		}
	}
	return readme + "\n" + line
}
