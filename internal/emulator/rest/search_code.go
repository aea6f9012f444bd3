package rest

import (
	"net/http"
	"path"
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/search"
	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// GET /search/code: GitHub's legacy code search as its REST docs describe
// it. Only the default branch's files are searched, and only files under
// 384 KB; a query needs at least one search term besides qualifiers, and
// the caller must be signed in. The qualifiers repo:, org:, user:, path:,
// filename:, extension:, language:, in:file/path and size: narrow the set.
// text_matches come only with the text-match media type.

// codeSearchMaxFile is the largest file legacy code search indexes.
const codeSearchMaxFile = 384 * 1024

// codeSearch is a parsed code query.
type codeSearch struct {
	scope              searchScope
	paths, filenames   []string
	extensions, langs  []string
	size               func(int) bool
	inFile, inPath     bool
	words              []string
	badSize, onlyTerms bool
}

func parseCodeSearch(q string) *codeSearch {
	s := &codeSearch{}
	for _, term := range search.Terms(q) {
		key, value, isQualifier := strings.Cut(term, ":")
		if !isQualifier || value == "" {
			s.words = append(s.words, strings.Trim(term, `"`))
			continue
		}
		if s.scope.take(strings.ToLower(key), value) {
			continue
		}
		switch strings.ToLower(key) {
		case "path":
			s.paths = append(s.paths, strings.Trim(value, "/"))
		case "filename":
			s.filenames = append(s.filenames, strings.ToLower(value))
		case "extension":
			s.extensions = append(s.extensions, strings.ToLower(strings.TrimPrefix(value, ".")))
		case "language":
			s.langs = append(s.langs, strings.ToLower(value))
		case "in":
			for _, where := range strings.Split(strings.ToLower(value), ",") {
				s.inFile = s.inFile || where == "file"
				s.inPath = s.inPath || where == "path"
			}
		case "size":
			f, ok := search.IntRange(value)
			s.size, s.badSize = f, !ok
		default:
			s.words = append(s.words, term)
		}
	}
	if !s.inFile && !s.inPath {
		// Without in:, GitHub looks in the file's contents and its path.
		s.inFile, s.inPath = true, true
	}
	return s
}

// fileLanguage is the language GitHub's linguist gives a file by its
// extension, for the extensions the seed's repositories hold; "" when
// unknown.
func fileLanguage(p string) string {
	switch strings.ToLower(strings.TrimPrefix(path.Ext(p), ".")) {
	case "go":
		return "Go"
	case "md", "markdown":
		return "Markdown"
	case "yml", "yaml":
		return "YAML"
	case "json":
		return "JSON"
	case "js", "mjs", "cjs":
		return "JavaScript"
	case "ts", "tsx":
		return "TypeScript"
	case "py":
		return "Python"
	case "sh":
		return "Shell"
	case "sql":
		return "SQL"
	case "toml":
		return "TOML"
	case "html":
		return "HTML"
	case "css":
		return "CSS"
	case "txt":
		return "Text"
	}
	switch path.Base(p) {
	case "Makefile":
		return "Makefile"
	case "Dockerfile":
		return "Dockerfile"
	}
	return ""
}

func (s *codeSearch) match(p, content string) bool {
	base := strings.ToLower(path.Base(p))
	ext := strings.TrimPrefix(path.Ext(base), ".")
	switch {
	case len(content) > codeSearchMaxFile,
		len(s.paths) > 0 && !slices.ContainsFunc(s.paths, func(dir string) bool { return underDir(p, dir) }),
		len(s.filenames) > 0 && !slices.ContainsFunc(s.filenames, func(f string) bool {
			return base == f || strings.TrimSuffix(base, path.Ext(base)) == f
		}),
		len(s.extensions) > 0 && !slices.Contains(s.extensions, ext),
		len(s.langs) > 0 && !slices.Contains(s.langs, strings.ToLower(fileLanguage(p))),
		s.size != nil && !s.size(len(content)):
		return false
	}
	for _, w := range s.words {
		if neg, ok := strings.CutPrefix(w, "-"); ok && neg != "" {
			if s.found(neg, p, content) {
				return false
			}
			continue
		}
		if !s.found(w, p, content) {
			return false
		}
	}
	return true
}

// found reports whether a word is in the places in: names.
func (s *codeSearch) found(w, p, content string) bool {
	return (s.inFile && wire.ContainsFold(w, content)) || (s.inPath && wire.ContainsFold(w, p))
}

// underDir reports whether p is in dir or below it ("" and "/" are the
// root).
func underDir(p, dir string) bool {
	return dir == "" || strings.EqualFold(path.Dir(p), dir) || strings.HasPrefix(strings.ToLower(p), strings.ToLower(dir)+"/")
}

// positiveTerms counts the words that are not negated.
func (s *codeSearch) positiveTerms() int {
	n := 0
	for _, w := range s.words {
		if !strings.HasPrefix(w, "-") {
			n++
		}
	}
	return n
}

// codeHit is a matching file.
type codeHit struct {
	repo          *state.Repo
	path, content string
}

type textMatchJSON struct {
	Text    string `json:"text"`
	Indices []int  `json:"indices"`
}

// textMatchesJSON is one entry of GitHub's search-result-text-matches.
type textMatchesJSON struct {
	ObjectURL  string          `json:"object_url"`
	ObjectType *string         `json:"object_type"`
	Property   string          `json:"property"`
	Fragment   string          `json:"fragment"`
	Matches    []textMatchJSON `json:"matches"`
}

// codeSearchItemJSON is GitHub's code-search-result-item.
type codeSearchItemJSON struct {
	Name        string            `json:"name"`
	Path        string            `json:"path"`
	SHA         string            `json:"sha"`
	URL         string            `json:"url"`
	GitURL      string            `json:"git_url"`
	HTMLURL     string            `json:"html_url"`
	Repository  repoJSON          `json:"repository"`
	Score       float64           `json:"score"`
	TextMatches []textMatchesJSON `json:"text_matches,omitempty"`
}

func searchCode(c *call) {
	const doc = "rest/search/search#search-code"
	if c.Viewer == nil {
		c.Fail(http.StatusUnauthorized, "Requires authentication", doc)
		return
	}
	query, ok := c.searchQ(doc)
	if !ok {
		return
	}
	s := parseCodeSearch(query)
	switch {
	case s.badSize:
		c.Invalid("", doc, wire.FieldError{Resource: "Search", Field: "q", Code: "invalid",
			Message: "The size qualifier's value could not be read."})
		return
	case s.positiveTerms() == 0:
		// "You must include at least one search term when searching
		// source code": a query of qualifiers only is refused.
		c.Invalid("", doc, wire.FieldError{Resource: "Search", Field: "q", Code: "invalid",
			Message: "Must include at least one search term."})
		return
	case !s.scope.check(c, doc):
		return
	}
	var hits []codeHit
	for _, r := range s.scope.reposFor(c) {
		if r.Git == nil {
			continue
		}
		paths := make([]string, 0, len(r.Files))
		for p := range r.Files {
			paths = append(paths, p)
		}
		slices.Sort(paths)
		for _, p := range paths {
			if s.match(p, r.Files[p]) {
				hits = append(hits, codeHit{r, p, r.Files[p]})
			}
		}
	}
	page, ok := searchPage(c, doc, hits)
	if !ok {
		return
	}
	withMatches := strings.Contains(c.Req.Header.Get("Accept"), "text-match")
	items := []codeSearchItemJSON{}
	for _, h := range page {
		items = append(items, c.codeSearchItem(h, s, withMatches))
	}
	c.JSON(http.StatusOK, map[string]any{"total_count": len(hits), "incomplete_results": false, "items": items})
}

// codeSearchItem renders a hit; its URLs name the file at the default
// branch's head commit, as GitHub's do.
func (c *call) codeSearchItem(h codeHit, s *codeSearch, withMatches bool) codeSearchItemJSON {
	api := c.Links.Repo(h.repo)
	head := h.repo.Git.Branches[state.RepoDefaultBranch]
	ref := state.RepoDefaultBranch
	if head != nil {
		ref = head.SHA
	}
	sha := state.BlobSHA(h.content)
	url := api + "/contents/" + escapePath(h.path) + "?ref=" + ref
	out := codeSearchItemJSON{Name: path.Base(h.path), Path: h.path, SHA: sha, URL: url,
		GitURL: api + "/git/blobs/" + sha, HTMLURL: c.Links.Web + "/" + h.repo.FullName() + "/blob/" + ref + "/" + escapePath(h.path),
		Repository: c.repoJSON(h.repo, false), Score: 1}
	if withMatches {
		kind := "FileContent"
		out.TextMatches = []textMatchesJSON{}
		if s.inFile {
			if m, ok := textMatch(h.content, s.words); ok {
				m.ObjectURL, m.ObjectType, m.Property = url, &kind, "content"
				out.TextMatches = append(out.TextMatches, m)
			}
		}
		if s.inPath {
			if m, ok := textMatch(h.path, s.words); ok {
				m.ObjectURL, m.ObjectType, m.Property = url, &kind, "path"
				out.TextMatches = append(out.TextMatches, m)
			}
		}
	}
	return out
}

// textMatch is the first line of text holding a search word, as the
// fragment, with where each word occurs in it.
func textMatch(text string, words []string) (textMatchesJSON, bool) {
	for _, line := range strings.Split(text, "\n") {
		var matches []textMatchJSON
		lower := strings.ToLower(line)
		for _, w := range words {
			if strings.HasPrefix(w, "-") || w == "" {
				continue
			}
			// Lowering can change a non-ASCII line's length; such a line
			// is matched but its indices would not point into it.
			if i := strings.Index(lower, strings.ToLower(w)); i >= 0 && len(lower) == len(line) {
				matches = append(matches, textMatchJSON{Text: line[i : i+len(w)], Indices: []int{i, i + len(w)}})
			}
		}
		if len(matches) > 0 {
			return textMatchesJSON{Fragment: line, Matches: matches}, true
		}
	}
	return textMatchesJSON{}, false
}
