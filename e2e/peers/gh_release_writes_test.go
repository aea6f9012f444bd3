package peers

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// gh's release command group against a fresh `ghgate emulator`, as a
// maintainer runs it on acme/widgets: create (notes, a notes file, a
// draft, a pre-release, a target, generated notes, --latest=false, with
// assets), view, list, edit, upload, download, delete-asset and delete
// --cleanup-tag; a reader and a duplicate tag are refused. Each write is
// read back; a download is compared byte for byte with what was uploaded.
// gh uploads several assets at once, so their order is read sorted.

const ghReleaseExpectedList = "gh-release-expected-failures.txt"

func init() { insideSessions["gh-release"] = runGhReleaseSession }

// The files the session uploads, written into its scratch directory
// (gh runs there), and the directory downloads go to.
const (
	releaseNotesFile = "peers-notes.md"
	releaseTextAsset = "peers-readme.txt"
	releaseBinAsset  = "peers-data.bin"
	releaseDownloads = "downloads"
)

var releaseBinBytes = func() []byte {
	b := make([]byte, 3000)
	for i := range b {
		b[i] = byte(i * 7)
	}
	return b
}()

// releaseCompareCheck is not a gh command: the runner compares the
// downloaded file with the uploaded one and records "identical" or why not.
const releaseCompareCheck = "release-download-bytes"

func ghReleaseSession() []ghCheck {
	const (
		repo = "acme/widgets"
		web  = "http://github.localhost/acme/widgets/releases/tag/"
	)
	view := func(tag, jq string, want ...string) *ghCheck {
		return &ghCheck{args: []string{"release", "view", tag, "-R", repo, "--json", "tagName,name,body,isDraft,isPrerelease,assets,targetCommitish", "--jq", jq}, exactLines: want}
	}
	api := func(path, jq string, want ...string) *ghCheck {
		return &ghCheck{args: []string{"api", path, "--jq", jq}, exactLines: want}
	}
	return []ghCheck{
		{name: "release-create", args: []string{"release", "create", "v2.0.0", "-R", repo, "--title", "Widgets 2", "--notes", "Big release.", "--target", "main"},
			exactLines: []string{web + "v2.0.0"},
			effect:     view("v2.0.0", `"\(.name) | \(.body) | \(.isDraft) | \(.isPrerelease) | \(.targetCommitish)"`, "Widgets 2 | Big release. | false | false | main")},
		{name: "release-create-tag", args: []string{"api", "repos/acme/widgets/git/ref/tags/v2.0.0", "--jq", ".ref"}, exactLines: []string{"refs/tags/v2.0.0"}},
		{name: "release-create-latest", args: []string{"release", "view", "-R", repo, "--json", "tagName", "--jq", ".tagName"}, exactLines: []string{"v2.0.0"}},
		{name: "release-create-notes-file-prerelease", args: []string{"release", "create", "v2.1.0-rc.1", "-R", repo, "--notes-file", releaseNotesFile, "--prerelease",
			"--target", "fix/48-query-cache-writes-a-byte-order-mark-int"},
			exactLines: []string{web + "v2.1.0-rc.1"},
			effect:     view("v2.1.0-rc.1", `"\(.body) | \(.isPrerelease) | \(.targetCommitish)"`, "Notes from a file. | true | fix/48-query-cache-writes-a-byte-order-mark-int")},
		{name: "release-create-draft", args: []string{"release", "create", "v2.2.0", "-R", repo, "--draft", "--title", "Draft two", "--notes", "Not yet."},
			stdout: []string{"http://github.localhost/acme/widgets/releases/tag/untagged-"},
			effect: view("v2.2.0", `"\(.name) | \(.isDraft)"`, "Draft two | true")},
		{name: "release-draft-no-tag", args: []string{"api", "repos/acme/widgets/git/ref/tags/v2.2.0"}, code: 1, stderr: []string{"HTTP 404"}},
		{name: "release-draft-hidden", token: "emu-carol", args: []string{"release", "view", "v2.2.0", "-R", repo}, code: 1, stderr: []string{"release not found"}},
		{name: "release-create-generate-notes", args: []string{"release", "create", "v2.3.0", "-R", repo, "--generate-notes"},
			exactLines: []string{web + "v2.3.0"},
			effect:     view("v2.3.0", `"\(.name) | \(.body | startswith("## What's Changed")) | \(.body | contains("**Full Changelog**: http://github.localhost/acme/widgets/compare/v2.0.0...v2.3.0"))"`, "v2.3.0 | true | true")},
		{name: "release-create-not-latest", args: []string{"release", "create", "v2.4.0", "-R", repo, "--notes", "Side release.", "--latest=false"},
			exactLines: []string{web + "v2.4.0"},
			effect:     &ghCheck{args: []string{"release", "view", "-R", repo, "--json", "tagName", "--jq", ".tagName"}, exactLines: []string{"v2.3.0"}}},
		{name: "release-create-assets", args: []string{"release", "create", "v2.5.0", "-R", repo, "--notes", "With files.", releaseTextAsset + "#Read me", releaseBinAsset},
			exactLines: []string{web + "v2.5.0"},
			effect: view("v2.5.0", `[(.isDraft | tostring), ([.assets[] | "\(.name) \(.label) \(.size) \(.state)"] | sort | .[])] | join(" | ")`,
				fmt.Sprintf("false | %s  %d uploaded | %s Read me 20 uploaded", releaseBinAsset, len(releaseBinBytes), releaseTextAsset))},
		{name: "release-list", args: []string{"release", "list", "-R", repo, "--limit", "7", "--json", "tagName,isDraft,isLatest,isPrerelease", "--jq", `.[] | "\(.tagName) \(.isDraft) \(.isLatest) \(.isPrerelease)"`},
			exactLines: []string{"v2.5.0 false true false", "v2.4.0 false false false", "v2.3.0 false false false", "v2.2.0 true false false",
				"v2.1.0-rc.1 false false true", "v2.0.0 false false false", "v1.5.0-rc.1 false false true"}},
		{name: "release-list-reader", token: "emu-carol", args: []string{"release", "list", "-R", repo, "--limit", "3", "--json", "tagName", "--jq", ".[].tagName"},
			exactLines: []string{"v2.5.0", "v2.4.0", "v2.3.0"}},
		{name: "release-view", args: []string{"release", "view", "v2.0.0", "-R", repo}, stdout: []string{"title:\tWidgets 2", "tag:\tv2.0.0", "draft:\tfalse", "Big release."}},

		{name: "release-edit", args: []string{"release", "edit", "v2.0.0", "-R", repo, "--title", "Widgets 2.0", "--notes", "Edited notes."},
			exactLines: []string{web + "v2.0.0"},
			effect:     view("v2.0.0", `"\(.name) | \(.body)"`, "Widgets 2.0 | Edited notes.")},
		{name: "release-edit-prerelease", args: []string{"release", "edit", "v2.4.0", "-R", repo, "--prerelease"},
			effect: view("v2.4.0", ".isPrerelease", "true")},
		{name: "release-edit-publish", args: []string{"release", "edit", "v2.2.0", "-R", repo, "--draft=false", "--latest"},
			exactLines: []string{web + "v2.2.0"},
			effect:     view("v2.2.0", `"\(.isDraft) \(.name)"`, "false Draft two")},
		{name: "release-edit-publish-tag", args: []string{"api", "repos/acme/widgets/git/ref/tags/v2.2.0", "--jq", ".ref"}, exactLines: []string{"refs/tags/v2.2.0"}},
		{name: "release-edit-publish-latest", args: []string{"release", "view", "-R", repo, "--json", "tagName", "--jq", ".tagName"}, exactLines: []string{"v2.2.0"}},

		{name: "release-upload", args: []string{"release", "upload", "v2.0.0", "-R", repo, releaseBinAsset},
			effect: view("v2.0.0", `.assets[] | "\(.name) \(.size)"`, fmt.Sprintf("%s %d", releaseBinAsset, len(releaseBinBytes)))},
		{name: "release-upload-exists", args: []string{"release", "upload", "v2.0.0", "-R", repo, releaseBinAsset}, code: 1,
			stderr: []string{"asset under the same name already exists: [" + releaseBinAsset + "]"}},
		{name: "release-upload-clobber", args: []string{"release", "upload", "v2.0.0", "-R", repo, releaseBinAsset, releaseTextAsset, "--clobber"},
			effect: view("v2.0.0", `[.assets[].name] | sort | join(",")`, releaseBinAsset+","+releaseTextAsset)},
		{name: "release-download", args: []string{"release", "download", "v2.0.0", "-R", repo, "-p", releaseBinAsset, "-D", releaseDownloads}},
		{name: releaseCompareCheck, exactLines: []string{"identical"}},
		{name: "release-download-count", args: []string{"api", "repos/acme/widgets/releases/tags/v2.0.0", "--jq", `.assets[] | select(.name == "` + releaseBinAsset + `") | .download_count`},
			exactLines: []string{"1"}},
		{name: "release-delete-asset", args: []string{"release", "delete-asset", "v2.0.0", releaseTextAsset, "-R", repo, "-y"},
			effect: view("v2.0.0", `[.assets[].name] | join(",")`, releaseBinAsset)},
		{name: "release-delete-cleanup-tag", args: []string{"release", "delete", "v2.5.0", "-R", repo, "-y", "--cleanup-tag"},
			effect: &ghCheck{args: []string{"release", "view", "v2.5.0", "-R", repo}, code: 1, stderr: []string{"release not found"}}},
		{name: "release-delete-cleanup-tag-gone", args: []string{"api", "repos/acme/widgets/git/ref/tags/v2.5.0"}, code: 1, stderr: []string{"HTTP 404"}},
		{name: "release-delete", args: []string{"release", "delete", "v2.4.0", "-R", repo, "-y"},
			effect: api("repos/acme/widgets/git/ref/tags/v2.4.0", ".ref", "refs/tags/v2.4.0")},

		// Refusals: a reader creating a release, a tag that has one.
		{name: "release-create-reader", token: "emu-carol", args: []string{"release", "create", "v2.9.0", "-R", repo, "--notes", "Mine."}, code: 1,
			stderr: []string{"HTTP 403"},
			effect: &ghCheck{args: []string{"api", "repos/acme/widgets/git/ref/tags/v2.9.0"}, code: 1, stderr: []string{"HTTP 404"}}},
		{name: "release-create-duplicate", args: []string{"release", "create", "v1.4.0", "-R", repo, "--notes", "Again."}, code: 1,
			stderr: []string{"HTTP 422", "Release.tag_name already exists"},
			effect: &ghCheck{args: []string{"release", "list", "-R", repo, "--limit", "100", "--json", "tagName", "--jq", `[.[] | select(.tagName == "v1.4.0")] | length`},
				exactLines: []string{"1"}}},
		{name: "release-upload-reader", token: "emu-carol", args: []string{"release", "upload", "v2.0.0", "-R", repo, releaseTextAsset}, code: 1,
			stderr: []string{"HTTP 403"}},
		{name: "release-delete-reader", token: "emu-carol", args: []string{"release", "delete", "v2.0.0", "-R", repo, "-y"}, code: 1,
			stderr: []string{"HTTP 403"}, effect: view("v2.0.0", ".tagName", "v2.0.0")},
	}
}

func TestGhReleaseSession(t *testing.T) {
	needNamespaces(t, "gh")
	passed, listed, n := judgeGhChecks(t, "gh-release", ghReleaseExpectedList, ghReleaseSession())
	t.Logf("gh release session: %d commands: %d behave as on GitHub, %d fail as listed in %s", n, passed, listed, ghReleaseExpectedList)
}

// runGhReleaseSession runs inside the namespaces (whose hosts file names
// uploads.github.localhost, where gh sends assets): it writes the files to
// upload, runs the commands and compares the download with the upload.
func runGhReleaseSession(work string) (any, error) {
	gh := os.Getenv(envGh)
	if gh == "" {
		return nil, errors.New(envGh + " must name gh's binary")
	}
	files := map[string][]byte{
		releaseNotesFile: []byte("Notes from a file."),
		releaseTextAsset: []byte("Read me before use.\n"), // 20 bytes
		releaseBinAsset:  releaseBinBytes,
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(work, name), data, 0o644); err != nil {
			return nil, err
		}
	}
	var recs []record
	for _, c := range ghReleaseSession() {
		if c.name == releaseCompareCheck {
			recs = append(recs, compareDownload(work))
			continue
		}
		recs = append(recs, runGh(gh, work, c.name, c))
		if c.effect != nil {
			recs = append(recs, runGh(gh, work, effectName(c.name), *c.effect))
		}
	}
	return recs, nil
}

func compareDownload(work string) record {
	r := record{Name: releaseCompareCheck, Args: []string{"compare", filepath.Join(releaseDownloads, releaseBinAsset), releaseBinAsset}}
	got, err := os.ReadFile(filepath.Join(work, releaseDownloads, releaseBinAsset))
	switch {
	case err != nil:
		r.Code, r.Stderr = 1, err.Error()
	case !bytes.Equal(got, releaseBinBytes):
		r.Code, r.Stderr = 1, fmt.Sprintf("downloaded %d bytes differ from the %d uploaded", len(got), len(releaseBinBytes))
	default:
		r.Stdout = "identical\n"
	}
	return r
}
