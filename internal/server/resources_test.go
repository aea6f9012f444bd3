package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestDiscoveryResources(t *testing.T) {
	env := servertest.Start(t, servertest.Options{})
	ctx := context.Background()
	init := env.Session.InitializeResult()
	if !strings.Contains(init.Instructions, "ghgate://capabilities") || !strings.Contains(init.Instructions, env.Stack.Server.Fingerprint()) {
		t.Fatalf("instructions lack the capability summary's URI or the fingerprint: %q", init.Instructions)
	}
	caps, err := env.Session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "ghgate://capabilities"})
	if err != nil || !strings.Contains(caps.Contents[0].Text, "Does:") || !strings.Contains(caps.Contents[0].Text, "Does not:") ||
		!strings.Contains(caps.Contents[0].Text, env.Stack.Server.Fingerprint()) {
		t.Fatalf("capabilities: %v", err)
	}
	// The summary says which filters are listed and which searched.
	for _, want := range []string{"source: list", "source: search", "no_labels", "trail writes"} {
		if !strings.Contains(caps.Contents[0].Text, want) {
			t.Fatalf("capabilities do not say %q: %s", want, caps.Contents[0].Text)
		}
	}
	cat, err := env.Session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "ghgate://errors"})
	if err != nil {
		t.Fatal(err)
	}
	var codes []contract.CodeInfo
	if err := json.Unmarshal([]byte(cat.Contents[0].Text), &codes); err != nil || len(codes) != len(contract.Catalog()) {
		t.Fatalf("error catalog: %v, %d codes", err, len(codes))
	}
	// The full schemas: every listed tool, its output with the nested
	// fields tools/list leaves out (an issue's version, say).
	sch, err := env.Session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "ghgate://schemas"})
	if err != nil {
		t.Fatal(err)
	}
	var schemas map[string]struct {
		Input  map[string]any `json:"input"`
		Output map[string]any `json:"output"`
	}
	if err := json.Unmarshal([]byte(sch.Contents[0].Text), &schemas); err != nil || len(schemas) != len(env.Stack.Server.Tools()) {
		t.Fatalf("schemas: %v, %d tools", err, len(schemas))
	}
	got := schemas[toolkit.NameGetIssue].Output
	if !strings.Contains(fmt.Sprint(got), "version") || !strings.Contains(fmt.Sprint(got), "blocked_by") || schemas[toolkit.NameGetIssue].Input == nil {
		t.Fatalf("get_issue's full output schema lacks nested fields: %v", got)
	}
	if !strings.Contains(init.Instructions, "ghgate://schemas") || !strings.Contains(caps.Contents[0].Text, "ghgate://schemas") {
		t.Fatal("the instructions or the capability summary do not name ghgate://schemas")
	}
	tpls, err := env.Session.ListResourceTemplates(ctx, nil)
	if err != nil || len(tpls.ResourceTemplates) != 4 {
		t.Fatalf("templates: %v %+v", err, tpls)
	}
	var uris []string
	for _, tpl := range tpls.ResourceTemplates {
		uris = append(uris, tpl.URITemplate)
	}
	for _, want := range []string{issuesTemplate, "github://{owner}/{repo}/issues/{issue_number}",
		"github://{owner}/{repo}/issues/{issue_number}/comments{?chunk}", "github://{owner}/{repo}/labels"} {
		if !contains(uris, want) {
			t.Errorf("templates %v, want %s", uris, want)
		}
	}
}

// issuesTemplate is the issue index, its filters RFC 6570 form-style
// query variables.
const issuesTemplate = "github://{owner}/{repo}/issues{?state,labels,assignee,updated_after}"

// readError reads uri, expects a failure and returns the JSON-RPC error
// and its data decoded as the envelope.
func readError(t *testing.T, env *servertest.Env, uri string) (*jsonrpc.Error, resourceErrorData) {
	t.Helper()
	_, err := env.Session.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
	var werr *jsonrpc.Error
	if err == nil || !asWire(err, &werr) {
		t.Fatalf("%s: want a JSON-RPC error, got %v", uri, err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(werr.Data, &raw); err != nil {
		t.Fatalf("%s: error.data %s: %v", uri, werr.Data, err)
	}
	for _, k := range []string{"code", "message", "temporary", "retry_after_ms", "request_id", "fingerprint", "machine_code", "human_message"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("%s: error.data lacks %s: %s", uri, k, werr.Data)
		}
	}
	var data resourceErrorData
	if err := json.Unmarshal(werr.Data, &data); err != nil {
		t.Fatalf("%s: error.data %s: %v", uri, werr.Data, err)
	}
	if !contract.Known(data.Code) || data.MachineCode != string(data.Code) || data.HumanMessage != data.Message || data.HumanMessage == "" {
		t.Errorf("%s: error.data %s: code, machine_code, message and human_message disagree", uri, werr.Data)
	}
	if data.Fingerprint != env.Stack.Server.Fingerprint() {
		t.Errorf("%s: fingerprint %q, want the surface's %q", uri, data.Fingerprint, env.Stack.Server.Fingerprint())
	}
	if !strings.HasPrefix(data.RequestID, "ghg_") {
		t.Errorf("%s: request_id %q", uri, data.RequestID)
	}
	if data.URI != uri { // MCP SEP-2164: error.data.uri is the URI read
		t.Errorf("%s: error.data.uri %q", uri, data.URI)
	}
	return werr, data
}

type resourceErrorData struct {
	contract.Error
	MachineCode  string `json:"machine_code"`
	HumanMessage string `json:"human_message"`
	URI          string `json:"uri"`
}

// TestUnservedResourceURIsCarryTheEnvelope: a read naming nothing ghgate
// serves, whether or not the SDK matched it to a template, fails with the
// envelope, and says which URIs are served.
func TestUnservedResourceURIsCarryTheEnvelope(t *testing.T) {
	env := servertest.Start(t, servertest.Options{})
	for _, uri := range []string{
		"github://acme/widgets/issues/abc",             // matches the issue template, not a number
		"github://acme/widgets/issues/0",               // not a positive number
		"github://acme/widgets/issues/",                // no number
		"github://acme/widgets/pulls/1",                // matches no template
		"github://acme/widgets/issues?labels=a&sort=x", // matches the template's query shape, not its variables
		"github://acme/widgets/issues?sort=updated",    // the same
		"github://acme/widgets/issues?labels=",         // empty labels
		"github://acme/widgets/issues?labels=a,,b",     // an empty label in the list
		"github://acme/widgets/issues?state=open&state=closed",
		"github://acme/widgets/issues/1/comments?chunk=0",
		"github://acme/widgets/issues/1/comments?page=2",
		"github://acme/widgets/labels?page=2",
		"github:///widgets/issues/1", // no owner
		"github://acme",              // no repository
		"ghgate://nothing",
		"https://github.com/acme/widgets/issues/1",
	} {
		t.Run(uri, func(t *testing.T) {
			werr, data := readError(t, env, uri)
			if werr.Code != jsonrpc.CodeInvalidParams || data.Code != contract.CodeInvalidField {
				t.Errorf("%s: JSON-RPC code %d, envelope code %s; want %d invalid_field", uri, werr.Code, data.Code, jsonrpc.CodeInvalidParams)
			}
			if data.Details == nil || data.Details.Field != "uri" || data.Details.Reason == "" {
				t.Errorf("%s: details %+v, want field uri and a reason", uri, data.Details)
			}
			if data.Repair == nil || !strings.Contains(data.Repair.NextStep, issuesTemplate) ||
				!strings.Contains(data.Repair.NextStep, "github://{owner}/{repo}/issues/{issue_number}") ||
				!strings.Contains(data.Message, issuesTemplate) {
				t.Errorf("%s: message %q and repair %+v should name the served URIs", uri, data.Message, data.Repair)
			}
			if strings.Contains(data.Message, uri) {
				t.Errorf("%s: message echoes the URI: %q", uri, data.Message)
			}
		})
	}
}

// TestIssueIndexFilters: the issue index's filters narrow what it lists
// as github_search_issues's would, and it carries triage metadata only.
func TestIssueIndexFilters(t *testing.T) {
	env := servertest.Start(t, servertest.Options{})
	read := func(uri string) (indexDoc, *mcp.ReadResourceResult) {
		t.Helper()
		res, err := env.Session.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatalf("%s: %v", uri, err)
		}
		var out indexDoc
		if err := json.Unmarshal([]byte(res.Contents[0].Text), &out); err != nil {
			t.Fatalf("%s: %v", uri, err)
		}
		return out, res
	}
	all, res := read("github://acme/widgets/issues")
	if res.CacheScope != "private" || res.TTLMs != 30_000 {
		t.Errorf("index cache hints %s/%d, want private/30000", res.CacheScope, res.TTLMs)
	}
	if strings.Contains(res.Contents[0].Text, `"body"`) {
		t.Errorf("the index carries bodies: %.300s", res.Contents[0].Text)
	}
	if len(all.Issues) == 0 {
		t.Fatal("the index lists no issues")
	}
	for _, is := range all.Issues {
		if is.State != "open" || is.URI != fmt.Sprintf("github://acme/widgets/issues/%d", is.Number) || is.Title == "" {
			t.Errorf("row %+v", is)
		}
		if _, err := time.Parse(time.RFC3339, is.Annotations.LastModified); err != nil {
			t.Errorf("#%d lastModified %q: %v", is.Number, is.Annotations.LastModified, err)
		}
		if n := utf8.RuneCountInString(is.Preview); n > 120 || (is.Size > 0 && is.Preview == "") {
			t.Errorf("#%d preview of %d runes for a body of %d bytes", is.Number, n, is.Size)
		}
	}
	const label = "status: triage"
	// RFC 6570 form-style expansion percent-encodes the space and colon.
	triage, _ := read("github://acme/widgets/issues?labels=status%3A%20triage")
	// acme/widgets has more open issues than one upstream page of the
	// index holds: their count is not known, and the index says more.
	if all.total() != -1 || !all.HasMore {
		t.Errorf("unfiltered index: total_count %d, has_more %v; want absent (-1), true", all.total(), all.HasMore)
	}
	if got := triage.total(); got <= 0 || got != len(triage.Issues) || triage.HasMore {
		t.Errorf("label filter: total_count %d, %d rows, has_more %v; want the row count, above 0, no more", got, len(triage.Issues), triage.HasMore)
	}
	for _, is := range triage.Issues {
		if !contains(is.Labels, label) || is.State != "open" {
			t.Errorf("label filter returned #%d (%s, %v)", is.Number, is.State, is.Labels)
		}
	}
	// The same rows as the tool that answers the same question.
	viaTool := env.Call(t, toolkit.NameSearchIssues, map[string]any{"owner": "acme", "repo": "widgets", "labels": []string{label}, "sort": "updated"})
	var tool struct {
		Items []struct {
			Number int `json:"number"`
		} `json:"items"`
		TotalCount int `json:"total_count"`
	}
	viaTool.Decode(t, &tool)
	if viaTool.IsError || len(tool.Items) != len(triage.Issues) || tool.TotalCount != triage.total() {
		t.Fatalf("resource and github_search_issues differ: %d/%d rows, %d/%d total", len(triage.Issues), len(tool.Items), triage.total(), tool.TotalCount)
	}
	for i := range tool.Items {
		if tool.Items[i].Number != triage.Issues[i].Number {
			t.Errorf("row %d: resource #%d, tool #%d", i, triage.Issues[i].Number, tool.Items[i].Number)
		}
	}
	closed, _ := read("github://acme/widgets/issues?state=closed")
	for _, is := range closed.Issues {
		if is.State != "closed" {
			t.Errorf("state=closed listed #%d (%s)", is.Number, is.State)
		}
	}
	if len(closed.Issues) == 0 {
		t.Error("state=closed listed nothing")
	}
	bob, _ := read("github://acme/widgets/issues?state=all&assignee=bob")
	for _, is := range bob.Issues {
		if !contains(is.Assignees, "bob") {
			t.Errorf("assignee=bob listed #%d (%v)", is.Number, is.Assignees)
		}
	}
	later, _ := read("github://acme/widgets/issues?state=all&updated_after=2100-01-01")
	if later.total() != 0 {
		t.Errorf("updated_after in 2100: total_count %d, want 0", later.total())
	}
	// A form-encoded space (+) is not what the template expands to; the
	// envelope says how to encode it.
	_, data := readError(t, env, "github://acme/widgets/issues?labels="+url.QueryEscape(label))
	if data.Details == nil || !strings.Contains(data.Details.Reason, "%20") {
		t.Errorf("label with +: details %+v should say a space is %%20", data.Details)
	}
	// An RFC 3339 time's colons are percent-encoded too.
	_, data = readError(t, env, "github://acme/widgets/issues?updated_after=2024-01-01T00:00:00Z")
	if data.Details == nil || !strings.Contains(data.Details.Reason, "%3A") {
		t.Errorf("updated_after with colons: details %+v should say a colon is %%3A", data.Details)
	}
	if later, _ := read("github://acme/widgets/issues?state=all&updated_after=2100-01-01T00%3A00%3A00Z"); later.total() != 0 {
		t.Errorf("updated_after as RFC 3339: total_count %d, want 0", later.total())
	}
}

// indexDoc is the issue index as a client decodes it.
type indexDoc struct {
	Issues []struct {
		URI         string   `json:"uri"`
		Number      int      `json:"number"`
		Title       string   `json:"title"`
		State       string   `json:"state"`
		Labels      []string `json:"labels"`
		Assignees   []string `json:"assignees"`
		Preview     string   `json:"preview"`
		Size        int      `json:"size"`
		Annotations struct {
			LastModified string `json:"lastModified"`
		} `json:"annotations"`
	} `json:"issues"`
	TotalCount *int `json:"total_count"`
	HasMore    bool `json:"has_more"`
}

// total is the index's total_count, -1 where it is absent.
func (d indexDoc) total() int {
	if d.TotalCount == nil {
		return -1
	}
	return *d.TotalCount
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
	if err != nil || !strings.Contains(list.Contents[0].Text, `"issues"`) {
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
	if err := json.Unmarshal(werr.Data, &data); err != nil || data.MachineCode != "issue_not_found" || data.Code != "issue_not_found" || data.HumanMessage == "" {
		t.Fatalf("error.data: %s (%v)", werr.Data, err)
	}
	// The same envelope as a tool's error, fingerprint included.
	werr, envl := readError(t, env, "github://acme/widgets/issues/9999")
	if werr.Code != mcp.CodeResourceNotFound || envl.Code != contract.CodeIssueNotFound || envl.Settlement != "" {
		t.Errorf("missing issue: JSON-RPC code %d, envelope %+v", werr.Code, envl)
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
	const issueTemplate = "github://{owner}/{repo}/issues/{issue_number}"
	complete := func(template, arg, value string, known map[string]string) []string {
		t.Helper()
		res, err := env.Session.Complete(ctx, &mcp.CompleteParams{
			Ref:      &mcp.CompleteReference{Type: "ref/resource", URI: template},
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
	for _, tpl := range []string{issueTemplate, issuesTemplate} {
		t.Run(tpl, func(t *testing.T) {
			if got := complete(tpl, "owner", "a", nil); !contains(got, emulator.DemoOrg) || !contains(got, "alice") {
				t.Errorf("%s owners: %v", tpl, got)
			}
			if got := complete(tpl, "repo", "w", map[string]string{"owner": "acme"}); len(got) != 1 || got[0] != "widgets" {
				t.Errorf("%s repos: %v", tpl, got)
			}
			if got := complete(tpl, "repo", "x", nil); len(got) != 0 {
				t.Errorf("%s repo without owner: %v", tpl, got)
			}
		})
	}
	// labels is the issue index's variable, so a client that completes
	// the variables a template declares reaches it; it is a list, and the
	// last item is the one completed.
	if got := complete(issuesTemplate, "labels", "status", map[string]string{"owner": "acme", "repo": "widgets"}); !contains(got, "status: triage") {
		t.Errorf("labels: %v", got)
	}
	if got := complete(issuesTemplate, "labels", "bug,status", map[string]string{"owner": "acme", "repo": "widgets"}); !contains(got, "bug,status: triage") {
		t.Errorf("labels after a first: %v", got)
	}
	if got := complete(issuesTemplate, "state", "c", nil); len(got) != 1 || got[0] != "closed" {
		t.Errorf("state: %v", got)
	}
	if got := complete(issuesTemplate, "labels", "status", nil); len(got) != 0 {
		t.Errorf("labels without a repository: %v", got)
	}
	// Variables a template does not declare, and issue numbers, get an
	// empty list, never null.
	if got := complete(issueTemplate, "labels", "status", map[string]string{"owner": "acme", "repo": "widgets"}); len(got) != 0 {
		t.Errorf("label on the issue template, which declares none: %v", got)
	}
	if got := complete(issueTemplate, "issue_number", "1", nil); len(got) != 0 {
		t.Errorf("unsupported argument: %v", got)
	}
	if got := complete("github://{owner}/elsewhere", "owner", "a", nil); len(got) != 0 {
		t.Errorf("a template ghgate does not serve: %v", got)
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

// TestEveryResourceHintsItsScope reads every listed resource and one URI
// of every listed template: what is read from GitHub is private and
// short-lived, the deployment's own documents public and long-lived. A
// template without a sample here fails, so a new one cannot skip it.
func TestEveryResourceHintsItsScope(t *testing.T) {
	env := servertest.Start(t, servertest.Options{})
	ctx := context.Background()
	samples := map[string]string{
		"github://{owner}/{repo}/issues/{issue_number}":                        "github://acme/widgets/issues/1",
		"github://{owner}/{repo}/issues/{issue_number}/comments{?chunk}":       "github://acme/widgets/issues/1/comments",
		"github://{owner}/{repo}/issues{?state,labels,assignee,updated_after}": "github://acme/widgets/issues?state=all",
		"github://{owner}/{repo}/labels":                                       "github://acme/widgets/labels",
	}
	tpls, err := env.Session.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tpl := range tpls.ResourceTemplates {
		uri, ok := samples[tpl.URITemplate]
		if !ok {
			t.Errorf("template %s has no sample URI in this test", tpl.URITemplate)
			continue
		}
		res, err := env.Session.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatalf("%s: %v", uri, err)
		}
		if res.CacheScope != "private" || res.TTLMs != 30_000 {
			t.Errorf("%s: %s for %d ms, want private for 30000", uri, res.CacheScope, res.TTLMs)
		}
	}
	list, err := env.Session.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range list.Resources {
		res, err := env.Session.ReadResource(ctx, &mcp.ReadResourceParams{URI: r.URI})
		if err != nil {
			t.Fatalf("%s: %v", r.URI, err)
		}
		if res.CacheScope != "public" || res.TTLMs != 86_400_000 {
			t.Errorf("%s: %s for %d ms, want public for 86400000", r.URI, res.CacheScope, res.TTLMs)
		}
	}
}
