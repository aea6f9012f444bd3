package issues

import (
	"bytes"
	"context"
	"path"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"go.yaml.in/yaml/v4"
)

// templateDir is where GitHub looks for issue templates.
const templateDir = ".github/ISSUE_TEMPLATE"

// maxTemplates bounds the files read: each costs one request.
const maxTemplates = 20

// templateHead is what an issue form (YAML) or a Markdown template's front
// matter says about the issue it opens. Labels and assignees may be a list
// or a comma-separated string, so they are decoded loosely.
type templateHead struct {
	Name        string    `yaml:"name"`
	Description string    `yaml:"description"` // issue forms
	About       string    `yaml:"about"`       // Markdown templates
	Title       string    `yaml:"title"`
	Labels      yaml.Node `yaml:"labels"`
}

// templateRead bounds and reports a listTemplates call.
type templateRead struct {
	// max is how many template files may be read.
	max int
	// repoKnown says the repository is known to exist, so a missing
	// directory needs no second request to tell it from a missing
	// repository.
	repoKnown bool
	// sent, when set, is told of each request made: the path read, ""
	// for the repository itself.
	sent func(path string)
}

// listTemplates reads the repository's issue templates: one request for
// the directory, one per template file. config.yml (the chooser's
// settings) is not a template.
func listTemplates(ctx context.Context, c *github.Client, owner, repo string, rd templateRead) ([]RepoMetaItem, bool, error) {
	sent := func(p string) {
		if rd.sent != nil {
			rd.sent(p)
		}
	}
	sent(templateDir)
	dir, _, err := c.ListDirectory(ctx, owner, repo, templateDir)
	if err != nil {
		if e := toolkit.MapError(err); e == nil || e.Code != contract.CodeNotFound {
			return nil, false, err
		}
		// GitHub answers 404 alike for a missing directory and a missing
		// (or invisible) repository; only the repository read tells them
		// apart, so it is made on this path alone, when still in doubt.
		if !rd.repoKnown {
			sent("")
			if _, _, rerr := c.GetRepo(ctx, owner, repo); rerr != nil {
				return nil, false, rerr
			}
		}
		return nil, false, nil // the repository has no templates
	}
	var out []RepoMetaItem
	truncated := false
	for _, f := range dir {
		if f.Type != "file" || !isTemplateFile(f.Name) {
			continue
		}
		if len(out) == rd.max {
			truncated = true
			break
		}
		sent(f.Path)
		file, _, err := c.GetFile(ctx, owner, repo, f.Path)
		if err != nil {
			return nil, false, err
		}
		item := RepoMetaItem{File: f.Name}
		if head, ok := parseTemplate(f.Name, file.Decoded()); ok {
			desc := head.Description
			if desc == "" {
				desc = head.About
			}
			item.Name, item.Title, item.Description, item.Labels = clean(head.Name), clean(head.Title), clean(desc), stringList(head.Labels)
		}
		out = append(out, item)
	}
	return out, truncated, nil
}

func isTemplateFile(name string) bool {
	lower := strings.ToLower(name)
	if lower == "config.yml" || lower == "config.yaml" {
		return false
	}
	switch path.Ext(lower) {
	case ".md", ".yml", ".yaml":
		return true
	}
	return false
}

// parseTemplate reads an issue form (the whole file is YAML) or a Markdown
// template (YAML front matter between "---" lines). A file that does not
// parse is still listed, by file name only.
func parseTemplate(name string, body []byte) (templateHead, bool) {
	var head templateHead
	doc := body
	if strings.EqualFold(path.Ext(name), ".md") {
		fm, ok := frontMatter(body)
		if !ok {
			return head, false
		}
		doc = fm
	}
	if err := yaml.Unmarshal(doc, &head); err != nil {
		return templateHead{}, false
	}
	return head, true
}

// frontMatter returns the YAML between a leading "---" line and the next.
func frontMatter(body []byte) ([]byte, bool) {
	body = bytes.TrimPrefix(body, []byte("\ufeff"))
	rest, ok := bytes.CutPrefix(body, []byte("---"))
	if !ok {
		return nil, false
	}
	nl := bytes.IndexByte(rest, '\n')
	if nl < 0 || strings.TrimSpace(string(rest[:nl])) != "" {
		return nil, false
	}
	rest = rest[nl+1:]
	for off := 0; off < len(rest); {
		end := bytes.IndexByte(rest[off:], '\n')
		line := rest[off:]
		if end >= 0 {
			line = rest[off : off+end]
		}
		if strings.TrimSpace(string(line)) == "---" {
			return rest[:off], true
		}
		if end < 0 {
			break
		}
		off += end + 1
	}
	return nil, false
}

// stringList reads a YAML list of strings or a comma-separated string.
func stringList(n yaml.Node) []string {
	var raw []string
	switch n.Kind {
	case yaml.ScalarNode:
		raw = strings.Split(n.Value, ",")
	case yaml.SequenceNode:
		for _, c := range n.Content {
			if c.Kind == yaml.ScalarNode {
				raw = append(raw, c.Value)
			}
		}
	}
	var out []string
	for _, s := range raw {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
