package rest

import (
	"net/http"
	"path"
	"slices"
	"strings"
)

// A repository's README (rest/repos/contents#get-a-repository-readme):
// the preferred README file as a content-file, or its text with the raw
// media type (application/vnd.github.raw). GitHub also renders it as HTML
// (application/vnd.github.html); the emulator has no Markdown renderer, so
// it refuses that media type rather than answer HTML GitHub would not.

// readmeDirs are where GitHub looks for the repository's README, in its
// order of preference: .github, the root, then docs.
var readmeDirs = []string{".github", "", "docs"}

// findReadme finds the README in dir of files: a file named README with
// any extension or none, in any case; a Markdown one is preferred.
func findReadme(files map[string]string, dir string) (string, bool) {
	var found []string
	for p := range files {
		if path.Dir(p) != cmpOr(dir, ".") {
			continue
		}
		base := path.Base(p)
		if strings.EqualFold(strings.TrimSuffix(base, path.Ext(base)), "readme") {
			found = append(found, p)
		}
	}
	if len(found) == 0 {
		return "", false
	}
	slices.Sort(found)
	if i := slices.IndexFunc(found, func(p string) bool { return strings.EqualFold(path.Ext(p), ".md") }); i >= 0 {
		return found[i], true
	}
	return found[0], true
}

func cmpOr(s, otherwise string) string {
	if s == "" {
		return otherwise
	}
	return s
}

// getReadme is GET /repos/{o}/{r}/readme and /readme/{dir}, at ref.
func getReadme(c *call) {
	r, files := c.repoFiles()
	if r == nil {
		return
	}
	dirs := readmeDirs
	if d := c.Req.PathValue("dir"); d != "" {
		dirs = []string{strings.Trim(d, "/")}
	}
	for _, d := range dirs {
		p, ok := findReadme(files, d)
		if !ok {
			continue
		}
		switch readmeMedia(c.Req.Header.Get("Accept")) {
		case "raw":
			c.text("raw", files[p])
		case "html":
			c.Fail(http.StatusUnsupportedMediaType, "Unsupported 'Accept' header: 'application/vnd.github.html'. The emulator does not render Markdown.", "rest/repos/contents#get-a-repository-readme")
		default:
			c.JSON(http.StatusOK, c.fileContent(r, p, files[p]))
		}
		return
	}
	c.NotFound()
}

// readmeMedia is the README media type asked for: raw, html or "" (JSON).
// GitHub's documentation spells them application/vnd.github.raw+json and
// .html+json; the older spelling without +json is answered alike.
func readmeMedia(accept string) string {
	for _, part := range strings.Split(accept, ",") {
		mt, _, _ := strings.Cut(strings.TrimSpace(part), ";")
		mt = strings.TrimSuffix(mt, "+json")
		for _, f := range []string{"raw", "html"} {
			if strings.HasPrefix(mt, "application/vnd.github") && strings.HasSuffix(mt, "."+f) {
				return f
			}
		}
	}
	return ""
}
