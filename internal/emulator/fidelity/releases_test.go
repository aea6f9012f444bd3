package fidelity

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
)

// releaseSteps drive the release write and asset routes in the order gh
// release create, upload, edit, download, delete-asset and delete
// --cleanup-tag do, and record the operations that succeeded. Each step
// may name the release or asset the steps before created.
func releaseSteps(t *testing.T, w *world, succeeded map[string]bool) {
	t.Helper()
	const repo = "/repos/acme/widgets"
	var rel, asset string
	for _, s := range []step{
		{"POST", repo + "/releases/generate-notes", tokBob, map[string]any{"tag_name": "v1.1.0", "target_commitish": "main", "previous_tag_name": "v1.0.0"}, 200},
		{"POST", repo + "/releases", tokBob, map[string]any{"tag_name": "v1.1.0", "target_commitish": "main", "name": "Gears",
			"body": "Notes.", "draft": true, "prerelease": false, "make_latest": "true"}, 201},
		{"GET", repo + "/releases/{rel}", tokBob, nil, 200},
		{"POST", repo + "/releases/{rel}/assets?name=gears.txt&label=Gear+notes", tokBob, []byte("gear notes\n"), 201},
		{"GET", repo + "/releases/{rel}/assets", tokBob, nil, 200},
		{"GET", repo + "/releases/assets/{asset}", tokBob, nil, 200},
		{"PATCH", repo + "/releases/assets/{asset}", tokBob, map[string]any{"name": "gear-notes.txt", "label": "Notes"}, 200},
		{"PATCH", repo + "/releases/{rel}", tokBob, map[string]any{"draft": false, "make_latest": "true"}, 200},
		{"GET", repo + "/releases/assets/{asset}", tokCarol, nil, 200},
		{"DELETE", repo + "/releases/assets/{asset}", tokBob, nil, 204},
		{"DELETE", repo + "/releases/{rel}", tokBob, nil, 204},
		{"DELETE", repo + "/git/refs/tags%2Fv1.1.0", tokBob, nil, 204},
	} {
		path := strings.NewReplacer("{rel}", rel, "{asset}", asset).Replace(s.path)
		res := w.do(t, s.method, path, s.token, s.body)
		if res.Status != s.want {
			t.Errorf("%s %s: status %d, want %d: %s", s.method, path, res.Status, s.want, res.Body)
			continue
		}
		if res.Operation == "" {
			t.Errorf("%s %s: no operation matched, want one in GitHub's description", s.method, path)
			continue
		}
		succeeded[res.Operation] = true
		var created struct{ ID int64 }
		switch {
		case s.method == "POST" && strings.HasSuffix(path, "/releases"):
			res.JSON(t, &created)
			rel = fmt.Sprint(created.ID)
		case s.method == "POST" && strings.Contains(path, "/assets?"):
			res.JSON(t, &created)
			asset = fmt.Sprint(created.ID)
		}
	}
}

// TestReleaseAssetDownload follows GitHub's redirect for an asset asked
// for as application/octet-stream to the bytes uploaded.
func TestReleaseAssetDownload(t *testing.T) {
	w := newWorld(t, emulator.Options{})
	const repo = "/repos/acme/widgets"
	var rel struct{ ID int64 }
	w.do(t, "POST", repo+"/releases", tokBob, map[string]any{"tag_name": "v1.1.0"}).JSON(t, &rel)
	var a struct{ ID int64 }
	want := []byte("\x00binary\xffgear data")
	w.do(t, "POST", fmt.Sprintf("%s/releases/%d/assets?name=gears.bin", repo, rel.ID), tokBob, want).JSON(t, &a)
	res := w.srv.Do(t, "GET", fmt.Sprintf("%s/releases/assets/%d", repo, a.ID), tokCarol, nil, http.Header{"Accept": {"application/octet-stream"}})
	if res.Status != http.StatusFound {
		t.Fatalf("download: status %d, want %d: %s", res.Status, http.StatusFound, res.Body)
	}
	got, err := http.Get(res.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	defer got.Body.Close()
	body, err := io.ReadAll(got.Body)
	if err != nil {
		t.Errorf("signed URL: read body: %v", err)
	}
	if got.StatusCode != http.StatusOK {
		t.Errorf("signed URL: status %d, want %d", got.StatusCode, http.StatusOK)
	}
	if string(body) != string(want) {
		t.Errorf("signed URL: body %q, want %q", body, want)
	}
}
