package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
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
	// The capability summary's URI and the fingerprint.
	for _, want := range []string{"ghgate://capabilities", env.Stack.Server.Fingerprint()} {
		if !strings.Contains(init.Instructions, want) {
			t.Fatalf("instructions = %q, want them to contain %q", init.Instructions, want)
		}
	}
	caps, err := env.Session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "ghgate://capabilities"})
	if err != nil {
		t.Fatalf("read ghgate://capabilities: %v", err)
	}
	for _, want := range []string{"Does:", "Does not:", env.Stack.Server.Fingerprint()} {
		if !strings.Contains(caps.Contents[0].Text, want) {
			t.Fatalf("capabilities = %q, want them to contain %q", caps.Contents[0].Text, want)
		}
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
	if err := json.Unmarshal([]byte(cat.Contents[0].Text), &codes); err != nil {
		t.Fatalf("decode error catalog: %v", err)
	}
	if len(codes) != len(contract.Catalog()) {
		t.Fatalf("error catalog has %d codes, want %d", len(codes), len(contract.Catalog()))
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
	if err := json.Unmarshal([]byte(sch.Contents[0].Text), &schemas); err != nil {
		t.Fatalf("decode schemas: %v", err)
	}
	if len(schemas) != len(env.Stack.Server.Tools()) {
		t.Fatalf("schemas for %d tools, want %d", len(schemas), len(env.Stack.Server.Tools()))
	}
	got := schemas[toolkit.NameGetIssue].Output
	for _, want := range []string{"version", "blocked_by"} {
		if !strings.Contains(fmt.Sprint(got), want) {
			t.Fatalf("get_issue's full output schema = %v, want the nested field %s", got, want)
		}
	}
	if schemas[toolkit.NameGetIssue].Input == nil {
		t.Fatal("get_issue's input schema = nil, want one")
	}
	if !strings.Contains(init.Instructions, "ghgate://schemas") {
		t.Fatalf("instructions = %q, want them to name ghgate://schemas", init.Instructions)
	}
	if !strings.Contains(caps.Contents[0].Text, "ghgate://schemas") {
		t.Fatalf("capabilities = %q, want them to name ghgate://schemas", caps.Contents[0].Text)
	}
	tpls, err := env.Session.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatalf("list resource templates: %v", err)
	}
	if len(tpls.ResourceTemplates) != 4 {
		t.Fatalf("%d resource templates, want 4: %+v", len(tpls.ResourceTemplates), tpls)
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
	if err == nil {
		t.Fatalf("%s: read succeeded, want a JSON-RPC error", uri)
	}
	if !asWire(err, &werr) {
		t.Fatalf("%s: error = %v, want a JSON-RPC error", uri, err)
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
	if !contract.Known(data.Code) {
		t.Errorf("%s: error.data.code = %q, want a code in the catalog", uri, data.Code)
	}
	if data.MachineCode != string(data.Code) {
		t.Errorf("%s: error.data.machine_code = %q, want the code %q", uri, data.MachineCode, data.Code)
	}
	if data.HumanMessage != data.Message {
		t.Errorf("%s: error.data.human_message = %q, want the message %q", uri, data.HumanMessage, data.Message)
	}
	if data.HumanMessage == "" {
		t.Errorf("%s: error.data.human_message is empty, want a message", uri)
	}
	if data.Fingerprint != env.Stack.Server.Fingerprint() {
		t.Errorf("%s: fingerprint %q, want the surface's %q", uri, data.Fingerprint, env.Stack.Server.Fingerprint())
	}
	if !strings.HasPrefix(data.RequestID, "ghg_") {
		t.Errorf("%s: request_id = %q, want a ghg_ prefix", uri, data.RequestID)
	}
	if data.URI != uri { // MCP SEP-2164: error.data.uri is the URI read
		t.Errorf("%s: error.data.uri = %q, want %q", uri, data.URI, uri)
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
			if werr.Code != jsonrpc.CodeInvalidParams {
				t.Errorf("%s: JSON-RPC code = %d, want %d", uri, werr.Code, jsonrpc.CodeInvalidParams)
			}
			if data.Code != contract.CodeInvalidField {
				t.Errorf("%s: envelope code = %s, want %s", uri, data.Code, contract.CodeInvalidField)
			}
			if data.Details == nil {
				t.Errorf("%s: details = nil, want field uri and a reason", uri)
			} else {
				if data.Details.Field != "uri" {
					t.Errorf("%s: details.field = %q, want uri", uri, data.Details.Field)
				}
				if data.Details.Reason == "" {
					t.Errorf("%s: details.reason is empty, want a reason", uri)
				}
			}
			if data.Repair == nil {
				t.Errorf("%s: repair = nil, want a next step naming the served URIs", uri)
			} else {
				for _, want := range []string{issuesTemplate, "github://{owner}/{repo}/issues/{issue_number}"} {
					if !strings.Contains(data.Repair.NextStep, want) {
						t.Errorf("%s: repair.next_step = %q, want it to name %s", uri, data.Repair.NextStep, want)
					}
				}
			}
			if !strings.Contains(data.Message, issuesTemplate) {
				t.Errorf("%s: message = %q, want it to name %s", uri, data.Message, issuesTemplate)
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
	if res.CacheScope != "private" {
		t.Errorf("index cache scope = %q, want private", res.CacheScope)
	}
	if res.TTLMs != 30_000 {
		t.Errorf("index TTL = %d ms, want 30000", res.TTLMs)
	}
	if strings.Contains(res.Contents[0].Text, `"body"`) {
		t.Errorf("the index carries bodies: %.300s", res.Contents[0].Text)
	}
	if len(all.Issues) == 0 {
		t.Fatal("the index lists no issues")
	}
	for _, is := range all.Issues {
		if is.State != "open" {
			t.Errorf("#%d state = %q, want open", is.Number, is.State)
		}
		if want := fmt.Sprintf("github://acme/widgets/issues/%d", is.Number); is.URI != want {
			t.Errorf("#%d uri = %q, want %q", is.Number, is.URI, want)
		}
		if is.Title == "" {
			t.Errorf("#%d title is empty, want one", is.Number)
		}
		if _, err := time.Parse(time.RFC3339, is.Annotations.LastModified); err != nil {
			t.Errorf("#%d lastModified %q: %v", is.Number, is.Annotations.LastModified, err)
		}
		if n := utf8.RuneCountInString(is.Preview); n > 120 {
			t.Errorf("#%d preview of %d runes, want at most 120", is.Number, n)
		}
		if is.Size > 0 && is.Preview == "" {
			t.Errorf("#%d preview is empty for a body of %d bytes, want one", is.Number, is.Size)
		}
	}
	const label = "status: triage"
	// RFC 6570 form-style expansion percent-encodes the space and colon.
	triage, _ := read("github://acme/widgets/issues?labels=status%3A%20triage")
	// acme/widgets has more open issues than one upstream page of the
	// index holds: their count is not known, and the index says more.
	if got := all.total(); got != -1 {
		t.Errorf("unfiltered index: total_count = %d, want absent (-1)", got)
	}
	if !all.HasMore {
		t.Errorf("unfiltered index: has_more = false, want true")
	}
	if got := triage.total(); got <= 0 {
		t.Errorf("label filter: total_count = %d, want above 0", got)
	}
	if got := triage.total(); got != len(triage.Issues) {
		t.Errorf("label filter: total_count = %d, want the row count %d", got, len(triage.Issues))
	}
	if triage.HasMore {
		t.Errorf("label filter: has_more = true, want false")
	}
	for _, is := range triage.Issues {
		if !contains(is.Labels, label) {
			t.Errorf("label filter returned #%d with labels %v, want %q among them", is.Number, is.Labels, label)
		}
		if is.State != "open" {
			t.Errorf("label filter returned #%d in state %q, want open", is.Number, is.State)
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
	if viaTool.IsError {
		t.Fatalf("github_search_issues failed: %s", viaTool.JSON)
	}
	if len(tool.Items) != len(triage.Issues) {
		t.Fatalf("github_search_issues returned %d rows, want the resource's %d", len(tool.Items), len(triage.Issues))
	}
	if tool.TotalCount != triage.total() {
		t.Fatalf("github_search_issues total_count = %d, want the resource's %d", tool.TotalCount, triage.total())
	}
	for i := range tool.Items {
		if tool.Items[i].Number != triage.Issues[i].Number {
			t.Errorf("row %d: tool #%d, want the resource's #%d", i, tool.Items[i].Number, triage.Issues[i].Number)
		}
	}
	closed, _ := read("github://acme/widgets/issues?state=closed")
	for _, is := range closed.Issues {
		if is.State != "closed" {
			t.Errorf("state=closed listed #%d in state %q, want closed", is.Number, is.State)
		}
	}
	if len(closed.Issues) == 0 {
		t.Error("state=closed listed nothing")
	}
	bob, _ := read("github://acme/widgets/issues?state=all&assignee=bob")
	for _, is := range bob.Issues {
		if !contains(is.Assignees, "bob") {
			t.Errorf("assignee=bob listed #%d with assignees %v, want bob among them", is.Number, is.Assignees)
		}
	}
	later, _ := read("github://acme/widgets/issues?state=all&updated_after=2100-01-01")
	if later.total() != 0 {
		t.Errorf("updated_after in 2100: total_count %d, want 0", later.total())
	}
	// A form-encoded space (+) is not what the template expands to; the
	// envelope says how to encode it.
	_, data := readError(t, env, "github://acme/widgets/issues?labels="+url.QueryEscape(label))
	if data.Details == nil {
		t.Errorf("label with +: details = nil, want a reason saying a space is %%20")
	} else if !strings.Contains(data.Details.Reason, "%20") {
		t.Errorf("label with +: details.reason = %q, want it to say a space is %%20", data.Details.Reason)
	}
	// An RFC 3339 time's colons are percent-encoded too.
	_, data = readError(t, env, "github://acme/widgets/issues?updated_after=2024-01-01T00:00:00Z")
	if data.Details == nil {
		t.Errorf("updated_after with colons: details = nil, want a reason saying a colon is %%3A")
	} else if !strings.Contains(data.Details.Reason, "%3A") {
		t.Errorf("updated_after with colons: details.reason = %q, want it to say a colon is %%3A", data.Details.Reason)
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
	if err := json.Unmarshal([]byte(res.Contents[0].Text), &issue); err != nil {
		t.Fatalf("decode issue resource %s: %v", res.Contents[0].Text, err)
	}
	if issue.Issue.Number != 1 {
		t.Fatalf("issue resource: number = %d, want 1", issue.Issue.Number)
	}
	list, err := env.Session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "github://acme/widgets/issues"})
	if err != nil {
		t.Fatalf("read issues resource: %v", err)
	}
	if !strings.Contains(list.Contents[0].Text, `"issues"`) {
		t.Fatalf("issues resource = %s, want an \"issues\" field", list.Contents[0].Text)
	}
	_, err = env.Session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "github://acme/widgets/issues/99999"})
	var werr *jsonrpc.Error
	if err == nil {
		t.Fatal("missing issue: read succeeded, want a JSON-RPC error")
	}
	if !asWire(err, &werr) {
		t.Fatalf("missing issue: error = %v, want a JSON-RPC error", err)
	}
	var data struct {
		MachineCode  string `json:"machine_code"`
		HumanMessage string `json:"human_message"`
		Code         string `json:"code"`
	}
	if err := json.Unmarshal(werr.Data, &data); err != nil {
		t.Fatalf("decode error.data %s: %v", werr.Data, err)
	}
	if data.MachineCode != "issue_not_found" {
		t.Fatalf("error.data.machine_code = %q, want issue_not_found", data.MachineCode)
	}
	if data.Code != "issue_not_found" {
		t.Fatalf("error.data.code = %q, want issue_not_found", data.Code)
	}
	if data.HumanMessage == "" {
		t.Fatalf("error.data.human_message is empty, want a message: %s", werr.Data)
	}
	// The same envelope as a tool's error, fingerprint included.
	werr, envl := readError(t, env, "github://acme/widgets/issues/9999")
	if werr.Code != mcp.CodeResourceNotFound {
		t.Errorf("missing issue: JSON-RPC code = %d, want %d", werr.Code, mcp.CodeResourceNotFound)
	}
	if envl.Code != contract.CodeIssueNotFound {
		t.Errorf("missing issue: envelope code = %s, want %s", envl.Code, contract.CodeIssueNotFound)
	}
	if envl.Settlement != "" {
		t.Errorf("missing issue: envelope settlement = %q, want none", envl.Settlement)
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
			got := complete(tpl, "owner", "a", nil)
			for _, want := range []string{emulator.DemoOrg, "alice"} {
				if !contains(got, want) {
					t.Errorf("%s owners = %v, want %s among them", tpl, got, want)
				}
			}
			if got := complete(tpl, "repo", "w", map[string]string{"owner": "acme"}); !slices.Equal(got, []string{"widgets"}) {
				t.Errorf("%s repos = %v, want [widgets]", tpl, got)
			}
			if got := complete(tpl, "repo", "x", nil); len(got) != 0 {
				t.Errorf("%s repo without owner = %v, want none", tpl, got)
			}
		})
	}
	// labels is the issue index's variable, so a client that completes
	// the variables a template declares reaches it; it is a list, and the
	// last item is the one completed.
	if got := complete(issuesTemplate, "labels", "status", map[string]string{"owner": "acme", "repo": "widgets"}); !contains(got, "status: triage") {
		t.Errorf("labels = %v, want %q among them", got, "status: triage")
	}
	if got := complete(issuesTemplate, "labels", "bug,status", map[string]string{"owner": "acme", "repo": "widgets"}); !contains(got, "bug,status: triage") {
		t.Errorf("labels after a first = %v, want %q among them", got, "bug,status: triage")
	}
	if got := complete(issuesTemplate, "state", "c", nil); !slices.Equal(got, []string{"closed"}) {
		t.Errorf("state = %v, want [closed]", got)
	}
	if got := complete(issuesTemplate, "labels", "status", nil); len(got) != 0 {
		t.Errorf("labels without a repository = %v, want none", got)
	}
	// Variables a template does not declare, and issue numbers, get an
	// empty list, never null.
	if got := complete(issueTemplate, "labels", "status", map[string]string{"owner": "acme", "repo": "widgets"}); len(got) != 0 {
		t.Errorf("label on the issue template, which declares none = %v, want none", got)
	}
	if got := complete(issueTemplate, "issue_number", "1", nil); len(got) != 0 {
		t.Errorf("unsupported argument = %v, want none", got)
	}
	if got := complete("github://{owner}/elsewhere", "owner", "a", nil); len(got) != 0 {
		t.Errorf("a template ghgate does not serve = %v, want none", got)
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
		if res.CacheScope != "private" {
			t.Errorf("%s: cache scope = %q, want private", uri, res.CacheScope)
		}
		if res.TTLMs != 30_000 {
			t.Errorf("%s: TTL = %d ms, want 30000", uri, res.TTLMs)
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
		if res.CacheScope != "public" {
			t.Errorf("%s: cache scope = %q, want public", r.URI, res.CacheScope)
		}
		want := 86_400_000
		if r.URI == "ghgate://capabilities" {
			want = 300_000 // it names tools added while sessions run
		}
		if res.TTLMs != want {
			t.Errorf("%s: TTL = %d ms, want %d", r.URI, res.TTLMs, want)
		}
	}
}

// ghgate://schemas follows the served tools: it is built once and kept,
// but a toolset enabled later is in the next session's read.
func TestSchemasFollowEnabledToolsets(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	read := func() map[string]json.RawMessage {
		t.Helper()
		res, err := env.Session.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "ghgate://schemas"})
		if err != nil {
			t.Fatalf("read ghgate://schemas: %v", err)
		}
		var doc map[string]json.RawMessage
		if err := json.Unmarshal([]byte(res.Contents[0].Text), &doc); err != nil {
			t.Fatalf("decode ghgate://schemas: %v", err)
		}
		return doc
	}
	const listProjects = "github_list_projects" // the projects toolset's
	before := read()
	if _, ok := before[listProjects]; ok {
		t.Fatalf("ghgate://schemas lists %s before the projects toolset is enabled", listProjects)
	}
	if again := read(); len(again) != len(before) {
		t.Fatalf("a second read lists %d tools, want %d", len(again), len(before))
	}
	if err := env.Stack.Server.EnableToolsets("projects"); err != nil {
		t.Fatal(err)
	}
	// A new session: the SDK's client keeps the first read for its ttlMs.
	env.Session = servertest.Connect(t, env.Stack.Server.MCP)
	after := read()
	if _, ok := after[listProjects]; !ok {
		t.Errorf("after enabling projects, ghgate://schemas does not list %s", listProjects)
	}
	if got, want := len(after), len(env.Stack.Server.Tools()); got != want {
		t.Errorf("after enabling projects, ghgate://schemas lists %d tools, want %d (those served)", got, want)
	}
}
