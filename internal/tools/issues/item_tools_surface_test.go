package issues_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// TestItemToolsAnnotationsAndSize pins what tools/list says about the
// comment, item, metadata and link tools: honest hints, and a size that
// leaves the default set within its 10,000-byte budget.
func TestItemToolsAnnotationsAndSize(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	res, err := env.Session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	// Reads are read-only and, so, idempotent; destructiveHint means
	// nothing for them and is left out.
	type hints struct{ readOnly, destructive, idempotent bool }
	want := map[string]hints{
		toolkit.NameAddComment:       {destructive: false, idempotent: false},
		toolkit.NameEditComment:      {destructive: true, idempotent: true},
		toolkit.NameListIssueItems:   {readOnly: true, idempotent: true},
		toolkit.NameListRepoMetadata: {readOnly: true, idempotent: true},
		toolkit.NameLinkIssues:       {destructive: true, idempotent: true},
	}
	const maxBytes = 1400
	for _, tool := range res.Tools {
		w, ok := want[tool.Name]
		if !ok {
			continue
		}
		delete(want, tool.Name)
		a := tool.Annotations
		if a == nil {
			t.Errorf("%s: annotations = nil, want %+v", tool.Name, w)
			continue
		}
		hintsOK := true
		if a.ReadOnlyHint != w.readOnly {
			t.Errorf("%s: readOnlyHint = %v, want %v", tool.Name, a.ReadOnlyHint, w.readOnly)
			hintsOK = false
		}
		if a.IdempotentHint != w.idempotent {
			t.Errorf("%s: idempotentHint = %v, want %v", tool.Name, a.IdempotentHint, w.idempotent)
			hintsOK = false
		}
		if !hintsOK {
			continue
		}
		if !w.readOnly && (a.DestructiveHint == nil || *a.DestructiveHint != w.destructive) {
			t.Errorf("%s: destructiveHint = %s, want %v", tool.Name, ptr(a.DestructiveHint), w.destructive)
		}
		if tool.OutputSchema == nil {
			t.Errorf("%s: outputSchema = nil, want one", tool.Name)
		}
		b, _ := json.Marshal(tool)
		if len(b) > maxBytes {
			t.Errorf("%s: %d bytes in tools/list, want at most %d", tool.Name, len(b), maxBytes)
		}
		t.Logf("%s: %d bytes", tool.Name, len(b))
	}
	for name := range want {
		t.Errorf("%s is not listed, want it in the default tools/list", name)
	}
}
