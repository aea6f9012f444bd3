package server_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestDiscoveryResources(t *testing.T) {
	env := servertest.Start(t, servertest.Options{})
	ctx := context.Background()
	init := env.Session.InitializeResult()
	if !strings.Contains(init.Instructions, "Does not:") || !strings.Contains(init.Instructions, env.Stack.Server.Fingerprint) {
		t.Fatalf("instructions lack the capability summary or fingerprint: %q", init.Instructions)
	}
	caps, err := env.Session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "ghgate://capabilities"})
	if err != nil || !strings.Contains(caps.Contents[0].Text, "Does:") {
		t.Fatalf("capabilities: %v", err)
	}
	cat, err := env.Session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "ghgate://errors"})
	if err != nil {
		t.Fatal(err)
	}
	var codes []contract.CodeInfo
	if err := json.Unmarshal([]byte(cat.Contents[0].Text), &codes); err != nil || len(codes) != len(contract.Catalog()) {
		t.Fatalf("error catalog: %v, %d codes", err, len(codes))
	}
	tpls, err := env.Session.ListResourceTemplates(ctx, nil)
	if err != nil || len(tpls.ResourceTemplates) != 2 {
		t.Fatalf("templates: %v %+v", err, tpls)
	}
}

func TestIssueResourceTemplates(t *testing.T) {
	env := servertest.Start(t, servertest.Options{})
	ctx := context.Background()
	res, err := env.Session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "github://acme/widgets/issues/1"})
	if err != nil {
		t.Fatal(err)
	}
	var issue struct {
		Issue struct{ Number int } `json:"issue"`
	}
	if err := json.Unmarshal([]byte(res.Contents[0].Text), &issue); err != nil || issue.Issue.Number != 1 {
		t.Fatalf("issue resource: %v %s", err, res.Contents[0].Text)
	}
	list, err := env.Session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "github://acme/widgets/issues"})
	if err != nil || !strings.Contains(list.Contents[0].Text, `"items"`) {
		t.Fatalf("issues resource: %v", err)
	}
	_, err = env.Session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "github://acme/widgets/issues/99999"})
	var werr *jsonrpc.Error
	if err == nil || !asWire(err, &werr) {
		t.Fatalf("missing issue: %v", err)
	}
	var data struct {
		MachineCode  string `json:"machine_code"`
		HumanMessage string `json:"human_message"`
		Code         string `json:"code"`
	}
	if err := json.Unmarshal(werr.Data, &data); err != nil || data.MachineCode != "not_found" || data.Code != "not_found" || data.HumanMessage == "" {
		t.Fatalf("error.data: %s (%v)", werr.Data, err)
	}
}

func asWire(err error, target **jsonrpc.Error) bool {
	for e := err; e != nil; {
		if w, ok := e.(*jsonrpc.Error); ok {
			*target = w
			return true
		}
		u, ok := e.(interface{ Unwrap() error })
		if !ok {
			return false
		}
		e = u.Unwrap()
	}
	return false
}

func TestCompletions(t *testing.T) {
	env := servertest.Start(t, servertest.Options{})
	ctx := context.Background()
	complete := func(arg, value string, known map[string]string) []string {
		t.Helper()
		res, err := env.Session.Complete(ctx, &mcp.CompleteParams{
			Ref:      &mcp.CompleteReference{Type: "ref/resource", URI: "github://{owner}/{repo}/issues/{issue_number}"},
			Argument: mcp.CompleteParamsArgument{Name: arg, Value: value},
			Context:  &mcp.CompleteContext{Arguments: known},
		})
		if err != nil {
			t.Fatalf("complete %s: %v", arg, err)
		}
		if res.Completion.Values == nil {
			t.Fatalf("complete %s: null values", arg)
		}
		return res.Completion.Values
	}
	if got := complete("owner", "a", nil); !contains(got, emulator.DemoOrg) || !contains(got, "alice") {
		t.Errorf("owners: %v", got)
	}
	if got := complete("repo", "w", map[string]string{"owner": "acme"}); len(got) != 1 || got[0] != "widgets" {
		t.Errorf("repos: %v", got)
	}
	if got := complete("label", "status", map[string]string{"owner": "acme", "repo": "widgets"}); !contains(got, "status: triage") {
		t.Errorf("labels: %v", got)
	}
	if got := complete("repo", "x", nil); len(got) != 0 {
		t.Errorf("repo without owner: %v", got)
	}
	if got := complete("issue_number", "1", nil); got == nil || len(got) != 0 {
		t.Errorf("unsupported argument: %v", got)
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
