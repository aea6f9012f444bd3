package rest_test

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
)

func TestRESTReleases(t *testing.T) {
	base := serveDemo(t) + "/repos/acme/widgets"
	tok := emulator.DemoTokenDave
	var tags []struct {
		Name   string
		Commit struct{ SHA string }
	}
	getJSON(t, base+"/tags", tok, &tags)
	if len(tags) != 5 {
		t.Fatalf("tags: %d, want 5: %+v", len(tags), tags)
	}
	if tags[0].Name != "v1.5.0-rc.1" {
		t.Fatalf("first tag %q, want %q", tags[0].Name, "v1.5.0-rc.1")
	}
	if tags[4].Name != "v1.3.7" {
		t.Fatalf("last tag %q, want %q", tags[4].Name, "v1.3.7")
	}
	var releases []struct {
		TagName    string `json:"tag_name"`
		Prerelease bool
		Body       string
	}
	getJSON(t, base+"/releases", tok, &releases)
	if len(releases) != 5 {
		t.Fatalf("releases: %d, want 5: %+v", len(releases), releases)
	}
	if releases[0].TagName != "v1.5.0-rc.1" {
		t.Fatalf("first release %q, want %q", releases[0].TagName, "v1.5.0-rc.1")
	}
	if !releases[0].Prerelease {
		t.Fatalf("release %s: prerelease = false, want true", releases[0].TagName)
	}
	// v1.4.0 lists what was merged after v1.3.7 and before it.
	if releases[3].TagName != "v1.4.0" {
		t.Errorf("releases[3] %q, want %q", releases[3].TagName, "v1.4.0")
	}
	notes := releases[3].Body
	for _, want := range []string{"in #6\n", "in #37\n"} {
		if !strings.Contains(notes, want) {
			t.Errorf("%s notes lack %q:\n%s", releases[3].TagName, want, notes)
		}
	}
	if strings.Contains(notes, "in #61\n") {
		t.Errorf("%s notes list #61, want it left out:\n%s", releases[3].TagName, notes)
	}
	var latest struct {
		TagName string `json:"tag_name"`
	}
	getJSON(t, base+"/releases/latest", tok, &latest)
	if latest.TagName != "v1.4.2" {
		t.Errorf("latest release = %s, want the newest that is not a pre-release", latest.TagName)
	}
	var byTag struct {
		TagName string `json:"tag_name"`
	}
	getJSON(t, base+"/releases/tags/v1.4.1", tok, &byTag)
	if byTag.TagName != "v1.4.1" {
		t.Errorf("release by tag v1.4.1: tag_name %q, want %q", byTag.TagName, "v1.4.1")
	}
	if r := get(t, base+"/releases/tags/v9", tok); r.status != http.StatusNotFound {
		t.Errorf("unknown tag: status %d, want %d", r.status, http.StatusNotFound)
	}
	var ref struct {
		Ref    string
		Object struct{ SHA string }
	}
	getJSON(t, base+"/git/ref/tags/v1.4.0", tok, &ref)
	if ref.Ref != "refs/tags/v1.4.0" {
		t.Errorf("tag ref %q, want %q", ref.Ref, "refs/tags/v1.4.0")
	}
	if ref.Object.SHA != tags[3].Commit.SHA {
		t.Errorf("tag ref v1.4.0 at %s, want the listed tag's %s", ref.Object.SHA, tags[3].Commit.SHA)
	}
	var matching []struct{ Ref string }
	getJSON(t, base+"/git/matching-refs/tags/v1.4", tok, &matching)
	if len(matching) != 3 {
		t.Errorf("refs matching tags/v1.4: %d %+v, want 3", len(matching), matching)
	}
	// The tag points at main as it was: the v1.4.0 commit holds #37's
	// changelog line, not #84's.
	var c struct{ SHA string }
	getJSON(t, base+"/commits/"+tags[3].Commit.SHA, tok, &c)
	var file struct{ Content string }
	getJSON(t, base+"/contents/CHANGELOG.md?ref="+c.SHA, tok, &file)
	text, err := base64.StdEncoding.DecodeString(strings.ReplaceAll(file.Content, "\n", ""))
	if err != nil {
		t.Fatal(err)
	}
	if want := "- Support custom number formats in the widget editor\n"; !strings.Contains(string(text), want) {
		t.Errorf("CHANGELOG.md at v1.4.0 lacks %q:\n%s", want, text)
	}
	if strings.Contains(string(text), "retry back-off") {
		t.Errorf("CHANGELOG.md at v1.4.0 mentions %q, want it absent:\n%s", "retry back-off", text)
	}
}
