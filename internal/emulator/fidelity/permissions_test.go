package fidelity

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ghgate/ghgate/internal/emulator"
)

type issueBody struct {
	Title  string `json:"title"`
	Labels []struct {
		Name string `json:"name"`
	} `json:"labels"`
	Assignees []struct {
		Login string `json:"login"`
	} `json:"assignees"`
	Milestone *struct {
		Number int `json:"number"`
	} `json:"milestone"`
}

// GitHub's description of "Update an issue": issue authors may edit their
// issue, and without push access "label changes are silently dropped" (so
// are assignee, milestone and type changes). The edit answers 200, applies
// the title, and leaves the rest as it was.
func TestAuthorWithoutPushAccessEditsDropTriageFields(t *testing.T) {
	w := newWorld(t, emulator.Options{})
	// Issue 2 is carol's (authors rotate alice, bob, carol from issue 0).
	const path = "/repos/acme/widgets/issues/2"
	res := w.do(t, "PATCH", path, tokCarol, map[string]any{
		"title": "Widget 2 rattles loudly", "labels": []string{"bug"}, "assignees": []string{"carol"}, "milestone": 1,
	})
	if res.Status != http.StatusOK {
		t.Fatalf("author edit with triage fields: status %d, want %d: %s", res.Status, http.StatusOK, res.Body)
	}
	var got issueBody
	res.JSON(t, &got)
	if got.Title != "Widget 2 rattles loudly" {
		t.Errorf("title %q: the author's own change was not applied", got.Title)
	}
	if len(got.Labels) != 0 {
		t.Errorf("labels applied without push access: %+v, want none", got.Labels)
	}
	if len(got.Assignees) != 0 {
		t.Errorf("assignees applied without push access: %+v, want none", got.Assignees)
	}
	if got.Milestone != nil {
		t.Errorf("milestone applied without push access: #%d, want none", got.Milestone.Number)
	}
	// A field that would fail validation is dropped too, not answered 422.
	if res := w.do(t, "PATCH", path, tokCarol, map[string]any{"milestone": 99}); res.Status != http.StatusOK {
		t.Errorf("dropped milestone still validated: status %d, want %d: %s", res.Status, http.StatusOK, res.Body)
	}
	// With triage access the same fields apply.
	res = w.do(t, "PATCH", path, tokBob, map[string]any{"labels": []string{"bug"}})
	res.JSON(t, &got)
	if diff := cmp.Diff([]struct {
		Name string `json:"name"`
	}{{"bug"}}, got.Labels); diff != "" {
		t.Errorf("write token's labels mismatch (-want +got):\n%s", diff)
	}
}

// "Add assignees" and "Remove assignees": without push access "assignees
// are silently ignored"; the routes document only 201 and 200.
func TestAssigneesWithoutPushAccessAreIgnored(t *testing.T) {
	w := newWorld(t, emulator.Options{})
	const path = "/repos/acme/widgets/issues/4/assignees"
	var got issueBody
	res := w.do(t, "POST", path, tokCarol, map[string]any{"assignees": []string{"carol"}})
	if res.Status != http.StatusCreated {
		t.Fatalf("add by a read token: status %d, want %d: %s", res.Status, http.StatusCreated, res.Body)
	}
	res.JSON(t, &got)
	if len(got.Assignees) != 0 {
		t.Fatalf("read token assigned %+v, want no assignees", got.Assignees)
	}
	res = w.do(t, "POST", path, tokBob, map[string]any{"assignees": []string{"carol"}})
	res.JSON(t, &got)
	if res.Status != http.StatusCreated {
		t.Fatalf("add by a write token: status %d, want %d", res.Status, http.StatusCreated)
	}
	if len(got.Assignees) != 1 {
		t.Fatalf("add by a write token: assignees %+v, want 1", got.Assignees)
	}
	res = w.do(t, "DELETE", path, tokCarol, map[string]any{"assignees": []string{"carol"}})
	res.JSON(t, &got)
	if res.Status != http.StatusOK {
		t.Fatalf("remove by a read token: status %d, want %d", res.Status, http.StatusOK)
	}
	if len(got.Assignees) != 1 {
		t.Fatalf("remove by a read token: assignees now %+v, want the 1 unchanged", got.Assignees)
	}
}
