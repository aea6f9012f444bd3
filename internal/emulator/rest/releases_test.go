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
	if len(tags) != 5 || tags[0].Name != "v1.5.0-rc.1" || tags[4].Name != "v1.3.7" {
		t.Fatalf("tags = %+v", tags)
	}
	var releases []struct {
		TagName    string `json:"tag_name"`
		Prerelease bool
		Body       string
	}
	getJSON(t, base+"/releases", tok, &releases)
	if len(releases) != 5 || releases[0].TagName != "v1.5.0-rc.1" || !releases[0].Prerelease {
		t.Fatalf("releases = %+v", releases)
	}
	// v1.4.0 lists what was merged after v1.3.7 and before it.
	if notes := releases[3].Body; releases[3].TagName != "v1.4.0" || !strings.Contains(notes, "in #6\n") || !strings.Contains(notes, "in #37\n") || strings.Contains(notes, "in #61\n") {
		t.Errorf("v1.4.0 notes:\n%s", notes)
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
		t.Errorf("release by tag = %+v", byTag)
	}
	if r := get(t, base+"/releases/tags/v9", tok); r.status != http.StatusNotFound {
		t.Errorf("unknown tag: %d", r.status)
	}
	var ref struct {
		Ref    string
		Object struct{ SHA string }
	}
	getJSON(t, base+"/git/ref/tags/v1.4.0", tok, &ref)
	if ref.Ref != "refs/tags/v1.4.0" || ref.Object.SHA != tags[3].Commit.SHA {
		t.Errorf("tag ref = %+v", ref)
	}
	var matching []struct{ Ref string }
	getJSON(t, base+"/git/matching-refs/tags/v1.4", tok, &matching)
	if len(matching) != 3 {
		t.Errorf("refs matching tags/v1.4 = %+v", matching)
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
	if !strings.Contains(string(text), "- Support custom number formats in the widget editor\n") ||
		strings.Contains(string(text), "retry back-off") {
		t.Errorf("CHANGELOG.md at v1.4.0:\n%s", text)
	}
}
