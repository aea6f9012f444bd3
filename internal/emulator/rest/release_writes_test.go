package rest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
)

type releaseOut struct {
	ID          int64
	TagName     string  `json:"tag_name"`
	Target      string  `json:"target_commitish"`
	Name        string  `json:"name"`
	Body        string  `json:"body"`
	Draft       bool    `json:"draft"`
	Prerelease  bool    `json:"prerelease"`
	PublishedAt *string `json:"published_at"`
	HTMLURL     string  `json:"html_url"`
	UploadURL   string  `json:"upload_url"`
	URL         string  `json:"url"`
	Assets      []struct {
		ID   int64
		Name string
	}
}

func decode(t *testing.T, r reply, want int, v any) {
	t.Helper()
	if r.status != want {
		t.Fatalf("status %d, want %d: %s", r.status, want, r.body)
	}
	if v != nil {
		if err := json.Unmarshal(r.body, v); err != nil {
			t.Fatal(err)
		}
	}
}

// A published release of a new tag creates the tag at its target; a
// draft creates none and is seen only by those who can push, until it is
// published.
func TestReleaseCreateTagsAndDrafts(t *testing.T) {
	base := serveDemo(t) + "/repos/acme/widgets"
	bob, carol := emulator.DemoTokenBob, emulator.DemoTokenCarol
	var main struct{ Commit struct{ SHA string } }
	getJSON(t, base+"/branches/main", bob, &main)

	var pub releaseOut
	decode(t, send(t, "POST", base+"/releases", bob, map[string]any{"tag_name": "v2.0.0", "name": "Two", "body": "Big."}), http.StatusCreated, &pub)
	if pub.TagName != "v2.0.0" || pub.Name != "Two" || pub.Body != "Big." || pub.Draft || pub.PublishedAt == nil || pub.Target != "main" {
		t.Errorf("created = %+v", pub)
	}
	var ref struct{ Object struct{ SHA string } }
	getJSON(t, base+"/git/ref/tags/v2.0.0", carol, &ref)
	if ref.Object.SHA != main.Commit.SHA {
		t.Errorf("tag v2.0.0 at %s, want main's %s", ref.Object.SHA, main.Commit.SHA)
	}
	var latest releaseOut
	getJSON(t, base+"/releases/latest", carol, &latest)
	if latest.ID != pub.ID {
		t.Errorf("latest = %s, want v2.0.0", latest.TagName)
	}

	var draft releaseOut
	decode(t, send(t, "POST", base+"/releases", bob, map[string]any{"tag_name": "v2.1.0", "draft": true, "prerelease": true}), http.StatusCreated, &draft)
	if !draft.Draft || draft.PublishedAt != nil || !strings.Contains(draft.HTMLURL, "/releases/tag/untagged-") {
		t.Errorf("draft = %+v", draft)
	}
	if r := get(t, base+"/git/ref/tags/v2.1.0", bob); r.status != http.StatusNotFound {
		t.Errorf("a draft's tag exists: %d", r.status)
	}
	byID := fmt.Sprintf("%s/releases/%d", base, draft.ID)
	if r := get(t, byID, carol); r.status != http.StatusNotFound {
		t.Errorf("a reader reads the draft: %d", r.status)
	}
	var listed []releaseOut
	getJSON(t, base+"/releases", carol, &listed)
	for _, rel := range listed {
		if rel.ID == draft.ID {
			t.Errorf("a reader lists the draft")
		}
	}
	getJSON(t, base+"/releases", bob, &listed)
	if len(listed) == 0 || listed[0].ID != draft.ID {
		t.Errorf("a writer's list does not start with the draft")
	}
	if r := get(t, base+"/releases/tags/v2.1.0", bob); r.status != http.StatusNotFound {
		t.Errorf("a draft found by tag: %d", r.status)
	}

	// Publishing tags it; a pre-release does not become latest.
	var published releaseOut
	decode(t, send(t, "PATCH", byID, bob, map[string]any{"draft": false, "body": "Edited."}), http.StatusOK, &published)
	if published.Draft || published.PublishedAt == nil || published.Body != "Edited." {
		t.Errorf("published = %+v", published)
	}
	getJSON(t, base+"/git/ref/tags/v2.1.0", carol, &ref)
	getJSON(t, base+"/releases/latest", carol, &latest)
	if latest.ID != pub.ID {
		t.Errorf("latest = %s after publishing a pre-release", latest.TagName)
	}

	decode(t, send(t, "DELETE", byID, bob, nil), http.StatusNoContent, nil)
	if r := get(t, byID, bob); r.status != http.StatusNotFound {
		t.Errorf("deleted release: %d", r.status)
	}
	decode(t, send(t, "DELETE", base+"/git/refs/tags/v2.1.0", bob, nil), http.StatusNoContent, nil)
	if r := get(t, base+"/git/ref/tags/v2.1.0", bob); r.status != http.StatusNotFound {
		t.Errorf("deleted tag: %d", r.status)
	}
}

// make_latest "false" keeps latest where it was.
func TestReleaseMakeLatestFalse(t *testing.T) {
	base := serveDemo(t) + "/repos/acme/widgets"
	bob := emulator.DemoTokenBob
	var before, rel, after releaseOut
	getJSON(t, base+"/releases/latest", bob, &before)
	decode(t, send(t, "POST", base+"/releases", bob, map[string]any{"tag_name": "v3.0.0", "make_latest": "false"}), http.StatusCreated, &rel)
	getJSON(t, base+"/releases/latest", bob, &after)
	if after.ID != before.ID {
		t.Errorf("latest = %s, want %s kept", after.TagName, before.TagName)
	}
	decode(t, send(t, "PATCH", fmt.Sprintf("%s/releases/%d", base, rel.ID), bob, map[string]any{"make_latest": "true"}), http.StatusOK, nil)
	getJSON(t, base+"/releases/latest", bob, &after)
	if after.ID != rel.ID {
		t.Errorf("latest = %s after make_latest true", after.TagName)
	}
}

func TestReleaseRefusals(t *testing.T) {
	base := serveDemo(t) + "/repos/acme/widgets"
	bob, carol, dave := emulator.DemoTokenBob, emulator.DemoTokenCarol, emulator.DemoTokenDave
	var failure struct {
		Message string
		Errors  []struct{ Resource, Field, Code string }
	}
	decode(t, send(t, "POST", base+"/releases", bob, map[string]any{"tag_name": "v1.4.0"}), http.StatusUnprocessableEntity, &failure)
	if len(failure.Errors) != 1 || failure.Errors[0].Code != "already_exists" || failure.Errors[0].Field != "tag_name" {
		t.Errorf("duplicate tag: %+v", failure)
	}
	decode(t, send(t, "POST", base+"/releases", bob, map[string]any{"tag_name": "v9", "target_commitish": "no-such-branch"}), http.StatusUnprocessableEntity, &failure)
	decode(t, send(t, "POST", base+"/releases", bob, map[string]any{"name": "no tag"}), http.StatusUnprocessableEntity, &failure)
	decode(t, send(t, "POST", base+"/releases", carol, map[string]any{"tag_name": "v9"}), http.StatusForbidden, nil)
	decode(t, send(t, "POST", base+"/releases", dave, map[string]any{"tag_name": "v9"}), http.StatusForbidden, nil)
	if r := get(t, base+"/git/ref/tags/v9", bob); r.status != http.StatusNotFound {
		t.Errorf("a refused create left tag v9: %d", r.status)
	}
	var rels []releaseOut
	getJSON(t, base+"/releases", carol, &rels)
	id := rels[0].ID
	decode(t, send(t, "PATCH", fmt.Sprintf("%s/releases/%d", base, id), carol, map[string]any{"name": "x"}), http.StatusForbidden, nil)
	decode(t, send(t, "DELETE", fmt.Sprintf("%s/releases/%d", base, id), carol, nil), http.StatusForbidden, nil)
	decode(t, send(t, "DELETE", base+"/git/refs/tags/v1.4.0", carol, nil), http.StatusForbidden, nil)
	decode(t, send(t, "DELETE", base+"/git/refs/tags/v9", bob, nil), http.StatusUnprocessableEntity, nil)
	decode(t, send(t, "DELETE", base+"/git/refs/heads/main", bob, nil), http.StatusUnprocessableEntity, nil)
	// Moving a release onto a tag that already has one is refused too.
	decode(t, send(t, "PATCH", fmt.Sprintf("%s/releases/%d", base, id), bob, map[string]any{"tag_name": "v1.4.0"}), http.StatusUnprocessableEntity, nil)
}

// Generated notes list the pull requests merged between the two tags.
func TestReleaseGenerateNotes(t *testing.T) {
	base := serveDemo(t) + "/repos/acme/widgets"
	var notes struct{ Name, Body string }
	decode(t, send(t, "POST", base+"/releases/generate-notes", emulator.DemoTokenBob,
		map[string]any{"tag_name": "v1.4.0", "previous_tag_name": "v1.3.7"}), http.StatusOK, &notes)
	if notes.Name != "v1.4.0" || !strings.Contains(notes.Body, "/acme/widgets/pull/37\n") || strings.Contains(notes.Body, "/pull/61\n") ||
		!strings.Contains(notes.Body, "**Full Changelog**: ") || !strings.HasSuffix(notes.Body, "/acme/widgets/compare/v1.3.7...v1.4.0") {
		t.Errorf("notes = %+v", notes)
	}
	decode(t, send(t, "POST", base+"/releases/generate-notes", emulator.DemoTokenCarol, map[string]any{"tag_name": "v1.4.0"}), http.StatusForbidden, nil)
}

// Assets: uploaded under GitHub's renaming, listed, renamed, refused
// twice under one name, downloaded by redirect, deleted.
func TestReleaseAssets(t *testing.T) {
	base := serveDemo(t) + "/repos/acme/widgets"
	bob, carol := emulator.DemoTokenBob, emulator.DemoTokenCarol
	var rel releaseOut
	decode(t, send(t, "POST", base+"/releases", bob, map[string]any{"tag_name": "v2.0.0"}), http.StatusCreated, &rel)
	up := strings.TrimSuffix(rel.UploadURL, "{?name,label}")
	if up != fmt.Sprintf("%s/releases/%d/assets", base, rel.ID) {
		t.Errorf("upload_url = %s", rel.UploadURL)
	}
	upload := func(token, name, body string) reply {
		req, err := http.NewRequest("POST", up+"?name="+name, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "token "+token)
		req.Header.Set("Content-Type", "text/plain")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		return reply{status: resp.StatusCode}
	}
	if r := upload(bob, "my%20notes!.txt", "hello\n"); r.status != http.StatusCreated {
		t.Fatalf("upload: %d", r.status)
	}
	if r := upload(bob, "my.notes.txt", "again\n"); r.status != http.StatusUnprocessableEntity {
		t.Errorf("second upload under one name: %d", r.status)
	}
	if r := upload(carol, "other.txt", "x"); r.status != http.StatusForbidden {
		t.Errorf("a reader uploads: %d", r.status)
	}
	var assets []struct {
		ID                 int64
		Name               string
		ContentType        string `json:"content_type"`
		Size               int
		BrowserDownloadURL string `json:"browser_download_url"`
	}
	getJSON(t, fmt.Sprintf("%s/releases/%d/assets", base, rel.ID), carol, &assets)
	if len(assets) != 1 || assets[0].Name != "my.notes.txt" || assets[0].Size != 6 || !strings.HasSuffix(assets[0].BrowserDownloadURL, "/releases/download/v2.0.0/my.notes.txt") {
		t.Fatalf("assets = %+v", assets)
	}
	asset := fmt.Sprintf("%s/releases/assets/%d", base, assets[0].ID)
	decode(t, send(t, "PATCH", asset, bob, map[string]any{"name": "notes.txt", "label": "Notes"}), http.StatusOK, nil)
	getJSON(t, base+"/releases/tags/v2.0.0", carol, &rel)
	if len(rel.Assets) != 1 || rel.Assets[0].Name != "notes.txt" {
		t.Errorf("release assets = %+v", rel.Assets)
	}
	req, _ := http.NewRequest("GET", asset, nil)
	req.Header.Set("Authorization", "token "+carol)
	req.Header.Set("Accept", "application/octet-stream")
	resp, err := http.DefaultClient.Do(req) // follows the redirect
	if err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	buf := make([]byte, 64)
	n, _ := resp.Body.Read(buf)
	got.Write(buf[:n])
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || got.String() != "hello\n" || resp.Request.URL.Path == req.URL.Path {
		t.Errorf("download: %d %q from %s", resp.StatusCode, got.String(), resp.Request.URL)
	}
	decode(t, send(t, "DELETE", asset, carol, nil), http.StatusForbidden, nil)
	decode(t, send(t, "DELETE", asset, bob, nil), http.StatusNoContent, nil)
	if r := get(t, asset, bob); r.status != http.StatusNotFound {
		t.Errorf("deleted asset: %d", r.status)
	}
}
