package server_test

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/server"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/projects"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var update = flag.Bool("update", false, "rewrite the tools/list snapshots")

// toolsListBudget is the most the default tools/list may weigh, compact.
const toolsListBudget = 10_000

func listTools(t *testing.T, toolsets []string, readOnly bool) *mcp.ListToolsResult {
	t.Helper()
	env := servertest.Start(t, servertest.Options{Toolsets: toolsets, ReadOnly: readOnly})
	res, err := env.Session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestToolsListSnapshot pins every tool's name, description, annotations
// and schemas, one file per tool in testdata/tools/<name>.json, so a change
// shows as a readable diff of that tool alone. When it changes on purpose,
// run
// go test ./internal/server -run TestToolsListSnapshot -update
// and review the diff in the commit. A snapshot whose tool is no longer
// served fails the test too (and -update removes it), so a rename is seen.
func TestToolsListSnapshot(t *testing.T) {
	res := listTools(t, []string{"all"}, false)
	dir := filepath.Join("testdata", "tools")
	served := map[string]bool{}
	for _, tool := range res.Tools {
		served[tool.Name+".json"] = true
		b, err := json.MarshalIndent(tool, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got := append(b, '\n')
		path := filepath.Join(dir, tool.Name+".json")
		t.Run(tool.Name, func(t *testing.T) {
			if *update {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if d := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(string(got), "\n")); d != "" {
				t.Errorf("%s changed; if on purpose, run with -update and commit the snapshot (-snapshot +now):\n%s", tool.Name, d)
			}
		})
	}
	files, err := os.ReadDir(dir)
	if err != nil && !*update {
		t.Fatal(err)
	}
	for _, f := range files {
		if served[f.Name()] {
			continue
		}
		if *update {
			if err := os.Remove(filepath.Join(dir, f.Name())); err != nil {
				t.Fatal(err)
			}
			continue
		}
		t.Errorf("testdata/tools/%s: no tool of that name is served; if it was removed or renamed on purpose, run with -update", f.Name())
	}
}

func TestDefaultToolsListBudget(t *testing.T) {
	res := listTools(t, nil, false)
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("default tools/list: %d bytes compact for %d tools", len(b), len(res.Tools))
	// Each tool's share, so a change that grows one is seen before the
	// total runs over.
	for _, tool := range res.Tools {
		tb, _ := json.Marshal(tool)
		t.Logf("  %s: %d bytes", tool.Name, len(tb))
	}
	if len(b) > toolsListBudget {
		t.Fatalf("default tools/list is %d bytes, over the %d budget", len(b), toolsListBudget)
	}
}

// otherToolsetBudget is the most each opt-in toolset's own tools may
// weigh in tools/list, compact.
const otherToolsetBudget = 4_000

// allToolsetsBudget is the most tools/list may weigh with every toolset
// served (GitHub's MCP server: 97,439 bytes for all of its toolsets).
const allToolsetsBudget = 26_000

// Each opt-in toolset, listed alone, stays within its budget, and all of
// them together within theirs; listed beside the default set, they leave
// the default tools as they were, but for the arguments gated on them.
func TestOtherToolsetsListBudget(t *testing.T) {
	for _, set := range server.ToolsetNames() {
		if slices.Contains(server.DefaultToolsets(), set) {
			continue
		}
		t.Run(set, func(t *testing.T) {
			res := listTools(t, []string{set}, false)
			b, err := json.Marshal(res)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s tools/list: %d bytes compact for %d tools", set, len(b), len(res.Tools))
			if len(res.Tools) == 0 {
				t.Fatalf("toolset %s lists no tools", set)
			}
			if len(b) > otherToolsetBudget {
				for _, tool := range res.Tools {
					tb, _ := json.Marshal(tool)
					t.Logf("  %s: %d bytes", tool.Name, len(tb))
				}
				t.Fatalf("%s tools/list is %d bytes, over the %d budget", set, len(b), otherToolsetBudget)
			}
		})
	}
	all := listTools(t, []string{"all"}, false)
	ab, err := json.Marshal(all)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("all toolsets tools/list: %d bytes compact for %d tools", len(ab), len(all.Tools))
	if len(ab) > allToolsetsBudget {
		t.Errorf("tools/list with every toolset is %d bytes, over the %d budget", len(ab), allToolsetsBudget)
	}
	def := listTools(t, nil, false).Tools
	both := listTools(t, append(server.DefaultToolsets(), server.ToolsetNames()...), false).Tools
	if len(both) <= len(def) {
		t.Fatalf("%d tools with every toolset, %d by default", len(both), len(def))
	}
	listed := map[string]string{}
	for _, tool := range both {
		b, _ := json.Marshal(tool)
		listed[tool.Name] = string(b)
	}
	// Beside the other toolsets a default tool keeps everything it had and
	// gains only the arguments gated on them (get_issue's source, the
	// issue writes' project).
	for _, tool := range def {
		want, _ := json.Marshal(tool)
		if got := withoutGated(t, listed[tool.Name], tool); got != string(want) {
			t.Errorf("listed beside the other toolsets, %s changed beyond gated arguments:\n%s\nwas\n%s", tool.Name, got, want)
		}
	}
}

// withoutGated is a tool's listing beside other toolsets less the input
// fields those toolsets bring (tooldef's Gated): everything else must
// stay as the default set lists it.
func withoutGated(t *testing.T, listed string, def *mcp.Tool) string {
	t.Helper()
	var tool mcp.Tool
	if err := json.Unmarshal([]byte(listed), &tool); err != nil {
		return listed
	}
	in, _ := json.Marshal(tool.InputSchema)
	var schema map[string]any
	_ = json.Unmarshal(in, &schema)
	defIn, _ := json.Marshal(def.InputSchema)
	var defSchema map[string]any
	_ = json.Unmarshal(defIn, &defSchema)
	props, _ := schema["properties"].(map[string]any)
	defProps, _ := defSchema["properties"].(map[string]any)
	for name := range props {
		if _, ok := defProps[name]; !ok {
			delete(props, name)
		}
	}
	tool.InputSchema = schema
	b, _ := json.Marshal(&tool)
	return string(b)
}

func TestEveryToolKeepsTheContract(t *testing.T) {
	res := listTools(t, []string{"all"}, false)
	for _, tool := range res.Tools {
		if !strings.HasPrefix(tool.Name, "github_") {
			t.Errorf("%s: name lacks the github_ prefix, want github_<verb>_<noun>", tool.Name)
		}
		if strings.ToLower(tool.Name) != tool.Name {
			t.Errorf("%s: name has upper case, want snake_case", tool.Name)
		}
		if tool.OutputSchema == nil {
			t.Errorf("%s: no outputSchema", tool.Name)
		}
		// Arguments are listed open and checked closed: TestForcedErrorPerTool
		// sends every tool a stray one.
		in, _ := json.Marshal(tool.InputSchema)
		if tool.Annotations == nil {
			t.Errorf("%s: annotations = nil, want them", tool.Name)
			continue
		}
		if tool.Description == "" {
			t.Errorf("%s: description is empty, want one", tool.Name)
			continue
		}
		// A client shows a person the title: a few words, as GitHub's
		// server sends it (annotations.title). Every tool reads or writes
		// GitHub, so every one says it is open-world.
		if words := len(strings.Fields(tool.Annotations.Title)); words < 2 || words > 4 {
			t.Errorf("%s: title %q has %d words, want 2 to 4", tool.Name, tool.Annotations.Title, words)
		}
		if h := tool.Annotations.OpenWorldHint; h == nil {
			t.Errorf("%s: openWorldHint absent, want true", tool.Name)
		} else if !*h {
			t.Errorf("%s: openWorldHint = false, want true", tool.Name)
		}
		// Every optional input says what leaving it out means: in words,
		// or as JSON Schema's default keyword.
		var schema struct {
			Properties map[string]struct {
				Description string          `json:"description"`
				Type        any             `json:"type"`
				Default     json.RawMessage `json:"default"`
			} `json:"properties"`
			Required []string `json:"required"`
		}
		_ = json.Unmarshal(in, &schema)
		required := map[string]bool{}
		for _, r := range schema.Required {
			required[r] = true
		}
		// A tool may say it once for all its fields, in its description
		// ("absent: kept"), rather than on each; a field that means
		// something else by its absence still says so itself. A cursor
		// left out is page 1 on every listing, and a boolean left out is
		// false (dry_run's: a real write), both said in the instructions.
		toolWide := strings.Contains(tool.Description, "absent: ")
		for name, p := range schema.Properties {
			d := p.Description
			cursor := name == "cursor" || strings.HasSuffix(name, "_cursor") ||
				p.Type == "boolean" // the instructions say absent is false
			says := p.Default != nil || strings.Contains(d, "absent") || strings.Contains(d, "default") || strings.Contains(d, "omit")
			if !required[name] && !says && !toolWide && !cursor {
				t.Errorf("%s: optional field %s does not say what omission means (%q)", tool.Name, name, d)
			}
		}
	}
}

func TestReadOnlyListsNoWrites(t *testing.T) {
	res := listTools(t, []string{"all"}, true)
	for _, tool := range res.Tools {
		if !tool.Annotations.ReadOnlyHint {
			t.Errorf("read-only server lists %s with readOnlyHint = false, want only read tools", tool.Name)
		}
	}
	env := servertest.Start(t, servertest.Options{ReadOnly: true})
	env.Upstream()
	// A write tool is refused with the envelope, nothing sent upstream.
	e := env.Call(t, toolkit.NameCreateIssue, map[string]any{"owner": "acme", "repo": "widgets", "title": "x"}).Envelope(t)
	if e.Code != contract.CodeReadOnly {
		t.Fatalf("a write on a read-only server: code = %s, want %s", e.Code, contract.CodeReadOnly)
	}
	if e.Settlement != contract.NotStarted {
		t.Fatalf("a write on a read-only server: settlement = %q, want %s", e.Settlement, contract.NotStarted)
	}
	if e.Repair == nil {
		t.Fatalf("a write on a read-only server: repair = nil, want one: %+v", e)
	}
	if e.RequestID == "" {
		t.Fatalf("a write on a read-only server: request_id is empty, want one")
	}
	if e.Fingerprint == "" {
		t.Fatalf("a write on a read-only server: fingerprint is empty, want one")
	}
	if calls := env.Upstream(); len(calls) != 0 {
		t.Fatalf("sent upstream: %v, want nothing", calls)
	}
	// A name ghgate does not have is the protocol's error.
	if _, err := env.Session.CallTool(context.Background(), &mcp.CallToolParams{Name: "github_no_such_tool", Arguments: map[string]any{}}); err == nil {
		t.Fatal("an unknown tool was answered as a tool")
	}
	if s := env.Stack.Server.Summary(); strings.Contains(s, "create and update") {
		t.Fatalf("the read-only capability summary offers writes (\"create and update\"), want none:\n%s", s)
	}
	if ins := env.Session.InitializeResult().Instructions; strings.Contains(ins, "dry_run") {
		t.Fatalf("the read-only instructions offer writes (dry_run), want none:\n%s", ins)
	}
}

// A tool a deployment's allow or deny list leaves out is refused as
// tool_not_allowed.
func TestDeniedToolIsRefusedWithTheEnvelope(t *testing.T) {
	var wrapped []string
	wrap := func(ctx context.Context, c tooldef.Call, next func(context.Context) (*mcp.CallToolResult, error)) (*mcp.CallToolResult, error) {
		wrapped = append(wrapped, c.Tool)
		return next(ctx)
	}
	srv, err := server.New(&toolkit.Service{Clients: toolkit.OneClient{}}, server.Options{Deny: []string{toolkit.NameLinkIssues}, Wrap: wrap})
	if err != nil {
		t.Fatal(err)
	}
	cs := servertest.Connect(t, srv.MCP)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: toolkit.NameLinkIssues, Arguments: map[string]any{}})
	if err != nil {
		t.Fatalf("denied tool: %v", err)
	}
	if !res.IsError {
		t.Fatalf("denied tool: isError = false, want true: %+v", res)
	}
	servertest.Answer(t, cs, toolkit.NameLinkIssues, map[string]any{}, res)
	var e contract.Error
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatalf("envelope %s: %v", b, err)
	}
	if e.Code != contract.CodeToolNotAllowed {
		t.Fatalf("envelope code = %s, want %s", e.Code, contract.CodeToolNotAllowed)
	}
	// The refusal went through the wrapper, as the broker's audit needs.
	if want := []string{toolkit.NameLinkIssues}; !slices.Equal(wrapped, want) {
		t.Fatalf("wrapped = %v, want %v", wrapped, want)
	}
}

func TestUnknownToolsetIsRefusedWithTheKnownOnes(t *testing.T) {
	_, err := server.NewStack(context.Background(), server.StackOptions{Toolsets: []string{"isues"}})
	if err == nil {
		t.Fatal("an unknown toolset was accepted, want an error")
	}
	for _, want := range []string{"isues", "issues"} {
		if !strings.Contains(err.Error(), want) {
			t.Fatalf("error = %v, want one naming %q", err, want)
		}
	}
}

// forcedErrors holds one failing call per tool; a tool without a row fails
// the test, so no tool ships without its error path exercised.
var forcedErrors = map[string]struct {
	args string
	code contract.Code
}{
	toolkit.NameSearchIssues:      {`{"owner":"acme","repo":"widgets","cursor":"forged.cursor"}`, contract.CodeCursorInvalid},
	toolkit.NameGetIssue:          {`{"owner":"acme","repo":"widgets","issue_number":99999}`, contract.CodeIssueNotFound},
	toolkit.NameCreateIssue:       {`{"owner":"acme","repo":"widgets","title":"x","labels":["no such label"]}`, contract.CodeLabelNotFound},
	toolkit.NameUpdateIssue:       {`{"owner":"acme","repo":"widgets","issue_number":1,"title":"x","expected_version":"v1.AAAAAAAAAAAAAAAA"}`, contract.CodeConflict},
	toolkit.NameAddComment:        {`{"owner":"acme","repo":"widgets","issue_number":99999,"body":"hello"}`, contract.CodeIssueNotFound},
	toolkit.NameEditComment:       {`{"owner":"acme","repo":"widgets","comment_id":1,"body":"x"}`, contract.CodeCommentNotFound},
	toolkit.NameListIssueItems:    {`{"owner":"acme","repo":"widgets","issue_number":99999,"collection":"comments"}`, contract.CodeIssueNotFound},
	toolkit.NameListRepoMetadata:  {`{"owner":"acme","repo":"nope","kind":"labels"}`, contract.CodeRepoNotFound},
	toolkit.NameGetOverview:       {`{"owner":"acme","repo":"nope"}`, contract.CodeRepoNotFound},
	toolkit.NameLinkIssues:        {`{"owner":"acme","repo":"widgets","issue_number":5,"relation":"blocked_by","action":"add","target_issue_number":5}`, contract.CodeSelfLink},
	toolkit.NameBulkUpdateIssues:  {`{"owner":"acme","repo":"widgets","issue_numbers":[1,2],"changes":{"labels":{"add":["no such label"]}}}`, contract.CodeLabelNotFound},
	toolkit.NameManageLabels:      {`{"owner":"acme","repo":"widgets","action":"update","name":"no such label","color":"ffffff"}`, contract.CodeLabelNotFound},
	toolkit.NameManageMilestones:  {`{"owner":"acme","repo":"widgets","action":"close","number":999}`, contract.CodeMilestoneNotFound},
	toolkit.NameDeleteIssue:       {`{"owner":"acme","repo":"widgets","issue_number":1,"confirm_issue_number":2}`, contract.CodeConfirmationMismatch},
	toolkit.NameSyncIssues:        {`{"owner":"acme","repo":"widgets"}`, contract.CodeSyncNotConfigured},
	projects.NameListProjects:     {`{"owner":"acme","cursor":"forged.cursor"}`, contract.CodeCursorInvalid},
	projects.NameListProjectItems: {`{"owner":"acme","project_number":99}`, contract.CodeProjectNotFound},
	projects.NameGetProjectItem:   {`{"owner":"acme","project_number":1,"repo":"widgets","issue_number":150}`, contract.CodeNotFound},
	projects.NameUpdateProjectItem: {`{"owner":"acme","project_number":1,"item":{"repo":"widgets","issue_number":20},"action":"set_fields","fields":{"Status":"Blocked"}}`,
		contract.CodeProjectOptionNotFound},
	toolkit.NameUpdateReviewThread:   {`{"owner":"acme","repo":"widgets","pull":1,"thread_id":"PRRT_kwDOnope","action":"resolve"}`, contract.CodeThreadNotOnPull},
	toolkit.NameReportUnlabeled:      {`{"owner":"acme","repo":"nope"}`, contract.CodeRepoNotFound},
	toolkit.NameReportSecurityAlerts: {`{"owner":"fleet","cursor":"forged.cursor"}`, contract.CodeCursorInvalid},
	toolkit.NameReportReleasePRs:     {`{"owner":"acme","repo":"nope"}`, contract.CodeRepoNotFound},
	toolkit.NameReportCIStatus:       {`{"owner":"acme","repo":"widgets","pull":9999}`, contract.CodeIssueNotFound},
}

func TestForcedErrorPerTool(t *testing.T) {
	env := servertest.Start(t, servertest.Options{Toolsets: []string{"all"}})
	res, err := env.Session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		row, ok := forcedErrors[tool.Name]
		if !ok {
			t.Errorf("%s has no forced-error row", tool.Name)
			continue
		}
		e := env.Call(t, tool.Name, row.args).Envelope(t)
		if e.Code != row.code {
			t.Errorf("%s: code = %s, want %s (%s)", tool.Name, e.Code, row.code, e.Message)
		}
		raw := string(env.Call(t, tool.Name, row.args).JSON)
		if !strings.Contains(raw, `"retry_after_ms":`) {
			t.Errorf("%s: retry_after_ms missing: %s", tool.Name, raw)
		}
		if e.RequestID == "" {
			t.Errorf("%s: envelope's request_id is empty, want one: %s", tool.Name, raw)
		}
		if e.Fingerprint == "" {
			t.Errorf("%s: envelope's fingerprint is empty, want one: %s", tool.Name, raw)
		}
		if e.Message == "" {
			t.Errorf("%s: envelope's message is empty, want one: %s", tool.Name, raw)
		}
		if !tool.Annotations.ReadOnlyHint && e.Settlement == "" {
			t.Errorf("%s: a write's error has no settlement, want one", tool.Name)
		}
		if tool.Annotations.ReadOnlyHint && e.Settlement != "" {
			t.Errorf("%s: a read's error has settlement %q, want none", tool.Name, e.Settlement)
		}
		// Every tool's arguments are closed: a stray one is refused by
		// name before anything runs, and the repair drops it.
		stray := env.Call(t, tool.Name, strings.Replace(row.args, "{", `{"zz_stray":1,`, 1)).Envelope(t)
		switch {
		case stray.Code != contract.CodeInvalidField:
			t.Errorf("%s: a stray argument: code = %s, want %s", tool.Name, stray.Code, contract.CodeInvalidField)
		case stray.Details == nil:
			t.Errorf("%s: a stray argument: details = nil, want field zz_stray", tool.Name)
		case stray.Details.Field != "zz_stray":
			t.Errorf("%s: a stray argument: details.field = %q, want zz_stray", tool.Name, stray.Details.Field)
		default:
			if got, _ := json.Marshal(stray.Repair.Arguments); !jsonSame(t, got, row.args) {
				t.Errorf("%s: the stray argument's repair calls with %s, want %s", tool.Name, got, row.args)
			}
		}
		// Some clients (the TypeScript SDK) check an error's
		// structuredContent against the outputSchema too: the published
		// schema must accept the envelope.
		if err := validateAgainst(tool.OutputSchema, []byte(raw)); err != nil {
			t.Errorf("%s: the error envelope does not fit the published outputSchema: %v", tool.Name, err)
		}
	}
}

func TestArgumentErrorsAreEnvelopes(t *testing.T) {
	env := servertest.Start(t, servertest.Options{})
	e := env.Call(t, toolkit.NameGetIssue, `{"owner":"acme","repo":"widgets","issue_number":"seven"}`).Envelope(t)
	if e.Code != contract.CodeInvalidField {
		t.Fatalf("a string for a number: code = %s, want %s", e.Code, contract.CodeInvalidField)
	}
	if e.Details == nil {
		t.Fatalf("a string for a number: details = nil, want field issue_number")
	}
	if e.Details.Field != "issue_number" {
		t.Fatalf("a string for a number: details.field = %q, want issue_number", e.Details.Field)
	}
	if strings.Contains(e.Message, "seven") {
		t.Fatalf("a string for a number: message = %q, want it not to echo the value", e.Message)
	}
	e = env.Call(t, toolkit.NameSearchIssues, `{"state":"opne"}`).Envelope(t)
	if e.Code != contract.CodeInvalidField {
		t.Fatalf("an enum error: code = %s, want %s", e.Code, contract.CodeInvalidField)
	}
	if e.Details.Field != "state" {
		t.Fatalf("an enum error: details.field = %q, want state", e.Details.Field)
	}
	if e.Details.Value == nil {
		t.Fatalf("an enum error: details.value = nil, want the members listed: %+v", e)
	}
}

func validateAgainst(schema any, doc []byte) error {
	b, err := json.Marshal(schema)
	if err != nil {
		return err
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	resolved, err := s.Resolve(nil)
	if err != nil {
		return err
	}
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		return err
	}
	return resolved.Validate(v)
}

// jsonSame reports whether two JSON texts hold the same value.
func jsonSame(t *testing.T, a []byte, b string) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
