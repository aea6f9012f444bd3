package rest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
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
	if pub.TagName != "v2.0.0" {
		t.Errorf("created: tag_name %q, want %q", pub.TagName, "v2.0.0")
	}
	if pub.Name != "Two" {
		t.Errorf("created: name %q, want %q", pub.Name, "Two")
	}
	if pub.Body != "Big." {
		t.Errorf("created: body %q, want %q", pub.Body, "Big.")
	}
	if pub.Draft {
		t.Errorf("created: draft = true, want false")
	}
	if pub.PublishedAt == nil {
		t.Errorf("created: published_at null, want a time")
	}
	if pub.Target != "main" {
		t.Errorf("created: target_commitish %q, want %q", pub.Target, "main")
	}
	var ref struct{ Object struct{ SHA string } }
	getJSON(t, base+"/git/ref/tags/v2.0.0", carol, &ref)
	if ref.Object.SHA != main.Commit.SHA {
		t.Errorf("tag v2.0.0 at %s, want main's %s", ref.Object.SHA, main.Commit.SHA)
	}
	var latest releaseOut
	getJSON(t, base+"/releases/latest", carol, &latest)
	if latest.ID != pub.ID {
		t.Errorf("latest = %s (id %d), want v2.0.0 (id %d)", latest.TagName, latest.ID, pub.ID)
	}

	var draft releaseOut
	decode(t, send(t, "POST", base+"/releases", bob, map[string]any{"tag_name": "v2.1.0", "draft": true, "prerelease": true}), http.StatusCreated, &draft)
	if !draft.Draft {
		t.Errorf("draft: draft = false, want true")
	}
	if draft.PublishedAt != nil {
		t.Errorf("draft: published_at %q, want null", *draft.PublishedAt)
	}
	if !strings.Contains(draft.HTMLURL, "/releases/tag/untagged-") {
		t.Errorf("draft: html_url %q, want a /releases/tag/untagged- one", draft.HTMLURL)
	}
	if r := get(t, base+"/git/ref/tags/v2.1.0", bob); r.status != http.StatusNotFound {
		t.Errorf("a draft's tag: status %d, want %d", r.status, http.StatusNotFound)
	}
	byID := fmt.Sprintf("%s/releases/%d", base, draft.ID)
	if r := get(t, byID, carol); r.status != http.StatusNotFound {
		t.Errorf("a reader reads the draft: status %d, want %d", r.status, http.StatusNotFound)
	}
	var listed []releaseOut
	getJSON(t, base+"/releases", carol, &listed)
	for _, rel := range listed {
		if rel.ID == draft.ID {
			t.Errorf("a reader's list holds the draft %d, want it hidden", draft.ID)
		}
	}
	getJSON(t, base+"/releases", bob, &listed)
	if len(listed) == 0 {
		t.Errorf("a writer's list is empty, want the draft first")
	} else if listed[0].ID != draft.ID {
		t.Errorf("a writer's list starts with %d (%s), want the draft %d", listed[0].ID, listed[0].TagName, draft.ID)
	}
	if r := get(t, base+"/releases/tags/v2.1.0", bob); r.status != http.StatusNotFound {
		t.Errorf("a draft by tag: status %d, want %d", r.status, http.StatusNotFound)
	}

	// Publishing tags it; a pre-release does not become latest.
	var published releaseOut
	decode(t, send(t, "PATCH", byID, bob, map[string]any{"draft": false, "body": "Edited."}), http.StatusOK, &published)
	if published.Draft {
		t.Errorf("published: draft = true, want false")
	}
	if published.PublishedAt == nil {
		t.Errorf("published: published_at null, want a time")
	}
	if published.Body != "Edited." {
		t.Errorf("published: body %q, want %q", published.Body, "Edited.")
	}
	getJSON(t, base+"/git/ref/tags/v2.1.0", carol, &ref)
	getJSON(t, base+"/releases/latest", carol, &latest)
	if latest.ID != pub.ID {
		t.Errorf("latest after publishing a pre-release = %s (id %d), want v2.0.0 (id %d)", latest.TagName, latest.ID, pub.ID)
	}

	decode(t, send(t, "DELETE", byID, bob, nil), http.StatusNoContent, nil)
	if r := get(t, byID, bob); r.status != http.StatusNotFound {
		t.Errorf("deleted release: status %d, want %d", r.status, http.StatusNotFound)
	}
	decode(t, send(t, "DELETE", base+"/git/refs/tags/v2.1.0", bob, nil), http.StatusNoContent, nil)
	if r := get(t, base+"/git/ref/tags/v2.1.0", bob); r.status != http.StatusNotFound {
		t.Errorf("deleted tag: status %d, want %d", r.status, http.StatusNotFound)
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
		t.Errorf("latest = %s (id %d), want %s (id %d) kept", after.TagName, after.ID, before.TagName, before.ID)
	}
	decode(t, send(t, "PATCH", fmt.Sprintf("%s/releases/%d", base, rel.ID), bob, map[string]any{"make_latest": "true"}), http.StatusOK, nil)
	getJSON(t, base+"/releases/latest", bob, &after)
	if after.ID != rel.ID {
		t.Errorf("latest after make_latest true = %s (id %d), want v3.0.0 (id %d)", after.TagName, after.ID, rel.ID)
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
	if len(failure.Errors) != 1 {
		t.Errorf("duplicate tag: %d errors, want 1: %+v", len(failure.Errors), failure)
	} else {
		if e := failure.Errors[0]; e.Code != "already_exists" {
			t.Errorf("duplicate tag: error code %q, want %q", e.Code, "already_exists")
		}
		if e := failure.Errors[0]; e.Field != "tag_name" {
			t.Errorf("duplicate tag: error field %q, want %q", e.Field, "tag_name")
		}
	}
	decode(t, send(t, "POST", base+"/releases", bob, map[string]any{"tag_name": "v9", "target_commitish": "no-such-branch"}), http.StatusUnprocessableEntity, &failure)
	decode(t, send(t, "POST", base+"/releases", bob, map[string]any{"name": "no tag"}), http.StatusUnprocessableEntity, &failure)
	decode(t, send(t, "POST", base+"/releases", carol, map[string]any{"tag_name": "v9"}), http.StatusForbidden, nil)
	decode(t, send(t, "POST", base+"/releases", dave, map[string]any{"tag_name": "v9"}), http.StatusForbidden, nil)
	if r := get(t, base+"/git/ref/tags/v9", bob); r.status != http.StatusNotFound {
		t.Errorf("tag v9 after refused creates: status %d, want %d", r.status, http.StatusNotFound)
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
	if notes.Name != "v1.4.0" {
		t.Errorf("notes: name %q, want %q", notes.Name, "v1.4.0")
	}
	for _, want := range []string{"/acme/widgets/pull/37\n", "**Full Changelog**: "} {
		if !strings.Contains(notes.Body, want) {
			t.Errorf("notes body lacks %q:\n%s", want, notes.Body)
		}
	}
	if strings.Contains(notes.Body, "/pull/61\n") {
		t.Errorf("notes body lists /pull/61 (not between v1.3.7 and v1.4.0), want it left out:\n%s", notes.Body)
	}
	if want := "/acme/widgets/compare/v1.3.7...v1.4.0"; !strings.HasSuffix(notes.Body, want) {
		t.Errorf("notes body does not end with %q:\n%s", want, notes.Body)
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
		t.Errorf("upload_url = %s, want %s/releases/%d/assets{?name,label}", rel.UploadURL, base, rel.ID)
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
		t.Fatalf("upload: status %d, want %d", r.status, http.StatusCreated)
	}
	if r := upload(bob, "my.notes.txt", "again\n"); r.status != http.StatusUnprocessableEntity {
		t.Errorf("second upload under one name: status %d, want %d", r.status, http.StatusUnprocessableEntity)
	}
	if r := upload(carol, "other.txt", "x"); r.status != http.StatusForbidden {
		t.Errorf("a reader uploads: status %d, want %d", r.status, http.StatusForbidden)
	}
	var assets []struct {
		ID                 int64
		Name               string
		ContentType        string `json:"content_type"`
		Size               int
		BrowserDownloadURL string `json:"browser_download_url"`
	}
	getJSON(t, fmt.Sprintf("%s/releases/%d/assets", base, rel.ID), carol, &assets)
	if len(assets) != 1 {
		t.Fatalf("assets: %d, want 1: %+v", len(assets), assets)
	}
	if a := assets[0]; a.Name != "my.notes.txt" {
		t.Fatalf("asset name %q, want %q", a.Name, "my.notes.txt")
	}
	if a := assets[0]; a.Size != 6 {
		t.Fatalf("asset size %d, want 6", a.Size)
	}
	if want := "/releases/download/v2.0.0/my.notes.txt"; !strings.HasSuffix(assets[0].BrowserDownloadURL, want) {
		t.Fatalf("asset browser_download_url %q, want one ending %s", assets[0].BrowserDownloadURL, want)
	}
	asset := fmt.Sprintf("%s/releases/assets/%d", base, assets[0].ID)
	decode(t, send(t, "PATCH", asset, bob, map[string]any{"name": "notes.txt", "label": "Notes"}), http.StatusOK, nil)
	getJSON(t, base+"/releases/tags/v2.0.0", carol, &rel)
	var names []string
	for _, a := range rel.Assets {
		names = append(names, a.Name)
	}
	if !slices.Equal(names, []string{"notes.txt"}) {
		t.Errorf("release asset names %q, want [\"notes.txt\"]", names)
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
	if resp.StatusCode != http.StatusOK {
		t.Errorf("download: status %d, want %d", resp.StatusCode, http.StatusOK)
	}
	if got.String() != "hello\n" {
		t.Errorf("download: %q, want %q", got.String(), "hello\n")
	}
	if resp.Request.URL.Path == req.URL.Path {
		t.Errorf("download: served at %s, want a redirect elsewhere", resp.Request.URL)
	}
	decode(t, send(t, "DELETE", asset, carol, nil), http.StatusForbidden, nil)
	decode(t, send(t, "DELETE", asset, bob, nil), http.StatusNoContent, nil)
	if r := get(t, asset, bob); r.status != http.StatusNotFound {
		t.Errorf("deleted asset: status %d, want %d", r.status, http.StatusNotFound)
	}
}
