package reports

import (
	"context"
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/google/jsonschema-go/jsonschema"
)

// ReadmeNote says why a row's readme_mentions_version is absent though
// its version is known: the head has no README, or its README has no
// "What's new" block.
type ReadmeNote string

// The notes.
const (
	ReadmeMissing    ReadmeNote = "no_readme"
	ReadmeNoWhatsNew ReadmeNote = "no_whats_new"
)

// JSONSchema implements tooldef.SelfDescribing.
func (ReadmeNote) JSONSchema() (*jsonschema.Schema, error) {
	return toolkit.Enum(ReadmeMissing, ReadmeNoWhatsNew), nil
}

// readmeDoc is what the README at the head says of versions: found is
// false when there is no README or no "What's new" block (note says
// which); versions are those the block names, in order.
type readmeDoc struct {
	found    bool
	note     ReadmeNote
	versions []string
}

// mentions reports whether the block names version as a whole token.
func (d readmeDoc) mentions(version string) bool { return slices.Contains(d.versions, version) }

// other is the first version the block names when it does not name
// version, or "" (the block names it, or names none): the README
// announces another release than this one.
func (d readmeDoc) other(version string) string {
	if !d.found || len(d.versions) == 0 || d.mentions(version) {
		return ""
	}
	return d.versions[0]
}

// readme reads the repository's preferred README at p's head commit
// (one call, and one more for a README over 1 MB, read raw as a
// changelog is) and finds its "What's new" block. A 404 is no README.
func (s *releaseScan) readme(ctx context.Context, p releasePull) (readmeDoc, error) {
	var f github.ContentEntry
	err := s.call(ctx, p, func(ctx context.Context) (github.Meta, error) {
		e, m, err := s.c.GetReadmeAt(ctx, s.in.Owner, p.repo, p.head)
		f = e
		return m, err
	})
	if toolkit.GitHubCode(err) == github.NotFound && !s.stopped(err) {
		return readmeDoc{note: ReadmeMissing}, nil
	}
	if err != nil {
		return readmeDoc{}, err
	}
	text := string(f.Decoded())
	if f.Encoding == "none" {
		err := s.call(ctx, p, func(ctx context.Context) (github.Meta, error) {
			b, m, err := s.c.GetRawFileAt(ctx, s.in.Owner, p.repo, f.Path, p.head)
			text = string(b)
			return m, err
		})
		if err != nil {
			return readmeDoc{}, err
		}
	}
	block, ok := whatsNew(text)
	if !ok {
		return readmeDoc{note: ReadmeNoWhatsNew}, nil
	}
	return readmeDoc{found: true, versions: versions(block)}, nil
}

// whatsNew is the README's "What's new" block: the first ATX heading
// (# to ######) whose text holds "what's new", case ignored (a typographic
// apostrophe too), and the lines after it up to the next heading of the
// same or a higher level (fewer #), or the end. The heading is part of
// the block ("What's new in v1.2.3"). Lines inside fenced code blocks are
// never headings. The README is its authors' text: hidden characters are
// removed first, so "What's\u200b new" is not missed, nor a version split
// by one.
func whatsNew(text string) (string, bool) {
	text, _ = contract.SanitizeText(text)
	lines := strings.Split(text, "\n")
	start, level := -1, 0
	fence := ""
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if f := fenceOf(t); f != "" {
			switch {
			case fence == "":
				fence = f
			case strings.HasPrefix(t, fence):
				fence = ""
			}
			continue
		}
		if fence != "" {
			continue
		}
		n, title := heading(l)
		if n == 0 {
			continue
		}
		if start < 0 {
			title = strings.ToLower(strings.ReplaceAll(title, "\u2019", "'"))
			if strings.Contains(title, "what's new") {
				start, level = i, n
			}
			continue
		}
		if n <= level {
			return strings.Join(lines[start:i], "\n"), true
		}
	}
	if start < 0 {
		return "", false
	}
	return strings.Join(lines[start:], "\n"), true
}

// heading is an ATX heading's level and text: up to three spaces, 1 to 6
// #, then a space or the line's end (CommonMark); 0 for any other line.
func heading(line string) (int, string) {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return 0, ""
	}
	n := len(t) - len(strings.TrimLeft(t, "#"))
	if n < 1 || n > 6 || len(t) > n && t[n] != ' ' && t[n] != '\t' {
		return 0, ""
	}
	return n, strings.TrimSpace(t[n:])
}

// fenceOf is the fence a line opens or closes (``` or ~~~), or "".
func fenceOf(trimmed string) string {
	for _, f := range []string{"```", "~~~"} {
		if strings.HasPrefix(trimmed, f) {
			return f
		}
	}
	return ""
}
