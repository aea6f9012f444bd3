package rest

import (
	"net/http"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// Creating, editing and deleting releases, and the notes GitHub generates
// for one. Publishing a release of a tag that does not exist yet creates
// the tag at target_commitish (the default branch when absent); a draft
// creates no tag until it is published. A tag has at most one published
// release.

const releasesDocs = "rest/releases/releases"

// releaseWrite is the body of POST .../releases and PATCH
// .../releases/{release_id}.
type releaseWrite struct {
	TagName              wire.Optional[string] `json:"tag_name"`
	TargetCommitish      wire.Optional[string] `json:"target_commitish"`
	Name                 wire.Optional[string] `json:"name"`
	Body                 wire.Optional[string] `json:"body"`
	Draft                wire.Optional[bool]   `json:"draft"`
	Prerelease           wire.Optional[bool]   `json:"prerelease"`
	MakeLatest           wire.Optional[string] `json:"make_latest"`
	GenerateReleaseNotes bool                  `json:"generate_release_notes"`
	// DiscussionCategoryName names a discussion category; the emulator
	// keeps no discussions, so it is accepted and not acted on.
	DiscussionCategoryName wire.Optional[string] `json:"discussion_category_name"`
}

// applyRelease validates a write and applies it to rel (a copy, so a 422
// changes nothing); it reports whether it answered with an error.
func (c *call) applyRelease(r *state.Repo, rel *state.Release, in releaseWrite, doc string) bool {
	invalid := func(field, code string) bool {
		c.Invalid("", doc, wire.FieldError{Resource: "Release", Field: field, Code: code})
		return false
	}
	if in.MakeLatest.Set && !in.MakeLatest.Null && in.MakeLatest.Value != "true" && in.MakeLatest.Value != "false" && in.MakeLatest.Value != "legacy" {
		return invalid("make_latest", "invalid")
	}
	if in.TagName.Set {
		tag := strings.TrimSpace(in.TagName.Value)
		if tag == "" {
			return invalid("tag_name", "missing_field")
		}
		rel.TagName = tag
	}
	if in.TargetCommitish.Set && !in.TargetCommitish.Null {
		rel.TargetCommitish = in.TargetCommitish.Value
	}
	if in.Name.Set {
		rel.Name = in.Name.Value
	}
	if in.Body.Set {
		rel.Body = in.Body.Value
	}
	if in.Draft.Set {
		rel.Draft = in.Draft.Value
	}
	if in.Prerelease.Set {
		rel.Prerelease = in.Prerelease.Value
	}
	if rel.Draft {
		return true
	}
	if other := r.PublishedRelease(rel.TagName); other != nil && other.ID != rel.ID {
		return invalid("tag_name", "already_exists")
	}
	if r.Git != nil && r.Git.Tags[rel.TagName] == nil && c.releaseTarget(r, rel) == nil {
		return invalid("target_commitish", "invalid")
	}
	return true
}

// releaseTarget is the commit a release's new tag would point at, nil if
// its target_commitish names none.
func (c *call) releaseTarget(r *state.Repo, rel *state.Release) *state.GitCommit {
	if r.Git == nil {
		return nil
	}
	return r.Git.Resolve(rel.TargetCommitish)
}

// publish tags rel's target when its tag does not exist yet, and stamps
// it published if it was not.
func (c *call) publish(r *state.Repo, rel *state.Release) {
	if rel.Draft {
		return
	}
	if r.Git != nil && r.Git.Tags[rel.TagName] == nil {
		c.State.Tag(r, rel.TagName, c.releaseTarget(r, rel))
	}
	if rel.PublishedAt.IsZero() {
		rel.PublishedAt = c.State.Now()
	}
}

func createRelease(c *call) {
	r := c.RepoFor(state.PermWrite)
	if r == nil {
		return
	}
	var in releaseWrite
	if !c.Decode(&in) {
		return
	}
	const doc = releasesDocs + "#create-a-release"
	if !in.TagName.Set || strings.TrimSpace(in.TagName.Value) == "" {
		c.Invalid("", doc, wire.FieldError{Resource: "Release", Field: "tag_name", Code: "missing_field"})
		return
	}
	now := c.State.Now()
	probe := &state.Release{TargetCommitish: state.RepoDefaultBranch, Author: c.Viewer, CreatedAt: now, UpdatedAt: now}
	if !c.applyRelease(r, probe, in, doc) {
		return
	}
	if in.GenerateReleaseNotes {
		name, body, ok := c.generateNotes(r, probe.TagName, probe.TargetCommitish, "")
		if !ok {
			c.Invalid("", doc, wire.FieldError{Resource: "Release", Field: "target_commitish", Code: "invalid"})
			return
		}
		if !in.Name.Set || in.Name.Value == "" {
			probe.Name = name
		}
		if probe.Body != "" {
			body = probe.Body + "\n\n" + body
		}
		probe.Body = body
	}
	c.publish(r, probe)
	rel := c.State.NewRelease(r, probe)
	r.MarkLatest(rel, in.MakeLatest.Value)
	out := c.releaseJSON(r, rel)
	c.W.Header().Set("Location", out.URL)
	c.JSON(http.StatusCreated, out)
}

func updateRelease(c *call) {
	r := c.RepoFor(state.PermWrite)
	if r == nil {
		return
	}
	rel := c.releaseFor(r)
	if rel == nil {
		return
	}
	var in releaseWrite
	if !c.Decode(&in) {
		return
	}
	probe := *rel
	if !c.applyRelease(r, &probe, in, releasesDocs+"#update-a-release") {
		return
	}
	c.publish(r, &probe)
	probe.UpdatedAt = c.State.Now()
	*rel = probe
	if in.MakeLatest.Set || in.Draft.Set || in.Prerelease.Set {
		r.MarkLatest(rel, in.MakeLatest.Value)
	}
	c.JSON(http.StatusOK, c.releaseJSON(r, rel))
}

func deleteRelease(c *call) {
	r := c.RepoFor(state.PermWrite)
	if r == nil {
		return
	}
	if rel := c.releaseFor(r); rel != nil {
		c.State.DeleteRelease(r, rel)
		c.NoContent()
	}
}

// generateNotesRequest is the body of POST .../releases/generate-notes.
type generateNotesRequest struct {
	TagName         string `json:"tag_name"`
	TargetCommitish string `json:"target_commitish"`
	PreviousTagName string `json:"previous_tag_name"`
	// ConfigurationFilePath names a .github/release.yml; the emulator
	// writes GitHub's default notes whatever it says.
	ConfigurationFilePath string `json:"configuration_file_path"`
}

// releaseNotesJSON is GitHub's release-notes-content.
type releaseNotesJSON struct {
	Name string `json:"name"`
	Body string `json:"body"`
}

func generateReleaseNotes(c *call) {
	r := c.RepoFor(state.PermWrite)
	if r == nil {
		return
	}
	var in generateNotesRequest
	if !c.Decode(&in) {
		return
	}
	const doc = releasesDocs + "#generate-release-notes-content-for-a-release"
	if strings.TrimSpace(in.TagName) == "" {
		c.Invalid("", doc, wire.FieldError{Resource: "Release", Field: "tag_name", Code: "missing_field"})
		return
	}
	if in.PreviousTagName != "" && (r.Git == nil || r.Git.Tags[in.PreviousTagName] == nil) {
		c.Invalid("", doc, wire.FieldError{Resource: "Release", Field: "previous_tag_name", Code: "invalid"})
		return
	}
	name, body, ok := c.generateNotes(r, in.TagName, in.TargetCommitish, in.PreviousTagName)
	if !ok {
		c.Invalid("", doc, wire.FieldError{Resource: "Release", Field: "target_commitish", Code: "invalid"})
		return
	}
	c.JSON(http.StatusOK, releaseNotesJSON{Name: name, Body: body})
}

// generateNotes writes GitHub's default notes for a release of tag: at
// the tag's commit when it exists, else at target (the default branch
// when empty), since prev, else since the newest full release. ok is false
// when neither the tag nor the target names a commit.
func (c *call) generateNotes(r *state.Repo, tag, target, prev string) (name, body string, ok bool) {
	if r.Git == nil {
		return "", "", false
	}
	head := r.Git.Tags[tag]
	if head == nil {
		if target == "" {
			target = state.RepoDefaultBranch
		}
		head = r.Git.Resolve(target)
	}
	if head == nil {
		return "", "", false
	}
	if prev == "" {
		// Since the newest full release: pre-releases are skipped.
		for _, rel := range r.ReleasesNewestFirst() {
			if !rel.Draft && !rel.Prerelease && rel.TagName != tag && r.Git.Tags[rel.TagName] != nil {
				prev = rel.TagName
				break
			}
		}
	}
	var base *state.GitCommit
	if prev != "" {
		base = r.Git.Tags[prev]
	}
	return tag, state.GeneratedNotes(r, c.Links.Web+"/"+r.FullName(), tag, prev, head, base), true
}
