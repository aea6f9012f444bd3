//go:build !conformance

package main

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/conformance"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The conformance suites' fixtures are compiled only into the test-only
// build (-tags conformance): ghgate as released neither links them nor
// knows the flag, and serves none of their names.
func TestConformanceFixturesAreNotInTheReleasedBuild(t *testing.T) {
	if fixtureFlags != nil {
		t.Fatal("the released build has fixtureFlags set, want nil")
	}
	if fixtureStack != nil {
		t.Fatal("the released build has fixtureStack set, want nil")
	}
	deps, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, deps)
	}
	if strings.Contains(string(deps), "github.com/ghgate/ghgate/internal/conformance\n") {
		t.Fatal("cmd/ghgate links internal/conformance without -tags conformance")
	}

	bin := ghgateBinary(t)
	out, err := exec.Command(bin, "serve", "--demo", "--conformance-fixtures").CombinedOutput()
	if err == nil {
		t.Fatalf("serve --conformance-fixtures: exit status 0, want a failure\n%s", out)
	}
	if !strings.Contains(string(out), "unknown flag: --conformance-fixtures") {
		t.Fatalf("serve --conformance-fixtures: output = %q, want one saying %q", out, "unknown flag: --conformance-fixtures")
	}

	url, _, stderr, _ := startHTTPServe(t, "--demo")
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "fixtures-test", Version: "0"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	defer cs.Close()
	served := map[string]bool{}
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools.Tools {
		served[tl.Name] = true
	}
	prompts, err := cs.ListPrompts(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range prompts.Prompts {
		served[p.Name] = true
	}
	for _, n := range conformance.New().Names() {
		if served[n] {
			t.Errorf("released ghgate serves the fixture %s", n)
		}
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "slow_compute", Arguments: map[string]any{}}); err == nil {
		t.Error("released ghgate answered a call of the fixture slow_compute")
	}
	if _, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "test://static-text"}); err == nil {
		t.Error("released ghgate reads the fixture resource test://static-text")
	}
}
