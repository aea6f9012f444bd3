package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ghgate/ghgate/internal/server"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var errDeliberate = errors.New("deliberate build failure")

// failOnce is a served tool whose first build while
// github_list_repo_metadata counts as served fails: enabling the late
// toolset then fails in the rebuild of the tools served already, after
// the new ones were built.
type failOnce struct {
	tooldef.Spec
	failed *atomic.Bool
}

func (f failOnce) Build(env *tooldef.Env) (*mcp.Tool, mcp.ToolHandler, error) {
	if env.Serves(toolkit.NameListRepoMetadata) && f.failed.CompareAndSwap(false, true) {
		return nil, nil, errDeliberate
	}
	return f.Spec.Build(env)
}

// surfaceOf is what a client is served: the tools listed and the
// templates, as JSON, so a comparison sees every field.
func surfaceOf(t *testing.T, cs *mcp.ClientSession) (tools, templates string) {
	t.Helper()
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tpls, err := cs.ListResourceTemplates(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(list.Tools)
	b, _ := json.Marshal(tpls.ResourceTemplates)
	return string(a), string(b)
}

// probeListsExtra is whether tools/list offers the probe's field gated
// on github_list_repo_metadata.
func probeListsExtra(t *testing.T, cs *mcp.ClientSession) bool {
	t.Helper()
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range list.Tools {
		if tool.Name == probe.Name {
			schema, _ := json.Marshal(tool.InputSchema)
			return strings.Contains(string(schema), `"extra"`)
		}
	}
	t.Fatalf("%s is not listed", probe.Name)
	return false
}

// A toolset whose enabling fails in the rebuild of the tools served
// already leaves the server as it was: the same tools and templates
// listed, the same fingerprint and summary, and the late tools not
// counted as served, so a later enable does not offer fields gated on
// them.
func TestEnableToolsetsFailingRebuildChangesNothing(t *testing.T) {
	svc := &toolkit.Service{Clients: toolkit.OneClient{}}
	registry := func(svc *toolkit.Service) []tooldef.Spec {
		return append(splitRegistry(svc), failOnce{Spec: probe, failed: new(atomic.Bool)})
	}
	srv, err := server.NewWithRegistry(svc, server.Options{}, registry)
	if err != nil {
		t.Fatal(err)
	}
	cs := servertest.Connect(t, srv.MCP)
	tools, templates := surfaceOf(t, cs)
	fp, summary := srv.Fingerprint(), srv.Summary()

	if err := srv.EnableToolsets("late"); !errors.Is(err, errDeliberate) {
		t.Fatalf("EnableToolsets(late) = %v, want the rebuild's %v", err, errDeliberate)
	}
	gotTools, gotTemplates := surfaceOf(t, cs)
	if diff := cmp.Diff(tools, gotTools); diff != "" {
		t.Errorf("tools/list changed by a failed enable (-before +after):\n%s", diff)
	}
	if diff := cmp.Diff(templates, gotTemplates); diff != "" {
		t.Errorf("resource templates changed by a failed enable (-before +after):\n%s", diff)
	}
	if got := srv.Fingerprint(); got != fp {
		t.Errorf("fingerprint after a failed enable = %s, want %s", got, fp)
	}
	if diff := cmp.Diff(summary, srv.Summary()); diff != "" {
		t.Errorf("summary changed by a failed enable (-before +after):\n%s", diff)
	}
	if srv.Serves(toolkit.NameListRepoMetadata) {
		t.Errorf("%s is served after a failed enable", toolkit.NameListRepoMetadata)
	}

	// Another toolset rebuilds the served tools: the probe's gated field
	// must still wait for the late toolset.
	if err := srv.EnableToolsets("projects"); err != nil {
		t.Fatal(err)
	}
	if probeListsExtra(t, cs) {
		t.Errorf("after enabling projects, %s lists extra, gated on %s, which is not served", probe.Name, toolkit.NameListRepoMetadata)
	}
	if res := servertest.CallOn(t, cs, probe.Name, map[string]any{"owner": "acme", "extra": "x"}); !res.IsError {
		t.Errorf("after enabling projects, a %s call with extra was accepted: %s", probe.Name, res.JSON)
	}

	// The failure was the build's, not the toolset's: enabling it again
	// serves it, gated field and all.
	if err := srv.EnableToolsets("late"); err != nil {
		t.Fatalf("EnableToolsets(late) again: %v", err)
	}
	if !srv.Serves(toolkit.NameListRepoMetadata) {
		t.Errorf("after enabling late: %s not served, want it served", toolkit.NameListRepoMetadata)
	}
	if !probeListsExtra(t, cs) {
		t.Errorf("after enabling late: %s does not list extra, want it to", probe.Name)
	}
}
