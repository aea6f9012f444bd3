package httpauth

import (
	"sync"
	"testing"

	"github.com/ghgate/ghgate/internal/broker"
	"github.com/ghgate/ghgate/internal/tooldef"
)

// namedSpec is a served tool as the guard sees it: a name, a mode and a
// toolset (the guard never builds or runs it).
type namedSpec struct {
	tooldef.Spec
	name, toolset string
	mode          tooldef.Mode
}

func (s namedSpec) ToolName() string       { return s.name }
func (s namedSpec) ToolMode() tooldef.Mode { return s.mode }
func (s namedSpec) ToolsetName() string    { return s.toolset }

// A toolset enabled while the server runs changes the surface (and its
// fingerprint); its tools must meet the client's policy like the tools
// served from the start, not pass as unknown.
func TestGuardSeesToolsAddedAtRunTime(t *testing.T) {
	var mu sync.Mutex
	specs := []tooldef.Spec{namedSpec{name: "github_search_issues", toolset: "issues", mode: tooldef.Read}}
	fingerprint := "ghgate@dev+one"
	g := NewGuard(
		func() []tooldef.Spec { mu.Lock(); defer mu.Unlock(); return append([]tooldef.Spec(nil), specs...) },
		func() string { mu.Lock(); defer mu.Unlock(); return fingerprint },
		nil)
	p := newPolicy(Client{Read: []string{"acme"}, Write: []string{"acme"}, Tools: broker.Tools{Toolsets: []string{"issues"}}})

	if _, ok := g.tool("github_list_projects"); ok {
		t.Fatal("a tool not yet served is described")
	}
	mu.Lock()
	specs = append(specs, namedSpec{name: "github_list_projects", toolset: "projects", mode: tooldef.Read})
	fingerprint = "ghgate@dev+two"
	mu.Unlock()

	info, ok := g.tool("github_list_projects")
	if !ok {
		t.Fatal("a tool added at run time is unknown to the guard")
	}
	if got := p.toolScope("github_list_projects", info); got != "toolset:projects" {
		t.Errorf("policy limited to the issues toolset gives %q for a projects tool, want toolset:projects", got)
	}
	if info, _ := g.tool("github_search_issues"); p.toolScope("github_search_issues", info) != "" {
		t.Error("the tool served from the start is refused")
	}
}
