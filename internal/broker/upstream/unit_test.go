package upstream

import (
	"encoding/json"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestRedactor(t *testing.T) {
	r := newRedactor(nil)
	const tok = "ghp_0123456789abcdefghij"
	r.add(tok)
	for in, want := range map[string]string{
		"token " + tok + " rejected":   "token [redacted] rejected",
		"prefix ghp_0123 only":         "prefix [redacted] only",
		"tail cdefghij.":               "tail [redacted].",
		"short ghp_012 is fine":        "short ghp_012 is fine",
		tok + tok:                      "[redacted]",
		"nothing to see":               "nothing to see",
		"a=" + tok[3:15] + " b=" + tok: "a=[redacted] b=[redacted]",
	} {
		if got := r.clean(in); got != want {
			t.Errorf("clean(%q) = %q, want %q", in, got, want)
		}
	}
	if !r.leaks(&mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "leak: " + tok[4:14]}}}) {
		t.Error("leaks missed a token piece in a result")
	}
	if r.leaks(&mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "fine"}}}) {
		t.Error("leaks flagged a clean result")
	}
}

func TestLineLog(t *testing.T) {
	tr, log := newTranscript(t, "sekrit-token-value")
	r := newRedactor(nil)
	r.add("sekrit-token-value")
	w := &lineLog{log: log, red: r}
	_, _ = w.Write([]byte("first line\nsecond with sekrit-token-value"))
	_, _ = w.Write([]byte(" end\r\n"))
	_, _ = w.Write([]byte(strings.Repeat("x", 3*maxLogLine)))
	_, _ = w.Write([]byte("\n"))
	out := tr.log.String()
	for _, want := range []string{`line="first line"`, `line="second with [redacted] end"`} {
		if !strings.Contains(out, want) {
			t.Fatalf("log lacks %s:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "upstream stderr"); n != 5 {
		t.Errorf("%d records, want 5 (2 lines, a long one in 3 pieces)", n)
	}
}

func TestChildEnv(t *testing.T) {
	broker := map[string]string{"PATH": "/bin", "LANG": "C.UTF-8", "SECRET": "s", "CREDENTIALS_DIRECTORY": "/run/c"}
	lookup := func(k string) (string, bool) { v, ok := broker[k]; return v, ok }
	got := childEnv(lookup, "GITHUB_TOKEN", "tok")
	want := []string{"PATH=/bin", "LANG=C.UTF-8", "GITHUB_TOKEN=tok"}
	if !slices.Equal(got, want) {
		t.Fatalf("childEnv = %v, want %v", got, want)
	}
	got = childEnv(func(string) (string, bool) { return "", false }, "T", "x")
	if !slices.Equal(got, []string{"PATH=" + defaultPath, "T=x"}) {
		t.Fatalf("childEnv without PATH = %v", got)
	}
}

func TestCheckNames(t *testing.T) {
	mk := func(name string, tools ...string) *Proxy {
		p := &Proxy{cfg: Config{Name: name}}
		for _, n := range tools {
			p.tools = append(p.tools, Tool{Def: &mcp.Tool{Name: n}, Mode: tooldef.Read})
		}
		return p
	}
	if err := CheckNames([]string{"github_get_issue"}, mk("a", "pull_request_read"), mk("b", "list_commits")); err != nil {
		t.Fatal(err)
	}
	err := CheckNames([]string{"github_get_issue"}, mk("a", "github_get_issue", "x"), mk("b", "x"))
	if err == nil {
		t.Fatal("CheckNames with clashing names: error = nil, want one naming each clash")
	}
	for _, want := range []string{`"github_get_issue" (upstream "a" and ghgate's own tool)`, `"x" (upstream "b" and upstream "a")`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("CheckNames error = %v, want one saying %s", err, want)
		}
	}
}

func TestExactStructured(t *testing.T) {
	text := `{"id":9007199254740993,"n":1}`
	var decoded any
	_ = json.Unmarshal([]byte(text), &decoded)
	res := exactStructured(&mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, StructuredContent: decoded})
	raw, ok := res.StructuredContent.(json.RawMessage)
	if !ok {
		t.Fatalf("structuredContent is a %T, want json.RawMessage", res.StructuredContent)
	}
	if string(raw) != text {
		t.Fatalf("structuredContent = %s, want %s", raw, text)
	}
	other := map[string]any{"different": true}
	res = exactStructured(&mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, StructuredContent: other})
	if _, ok := res.StructuredContent.(map[string]any); !ok {
		t.Fatal("a structuredContent that differs from the text was replaced")
	}
}

func TestErrorResult(t *testing.T) {
	p := &Proxy{opts: Options{Fingerprint: func() string { return "fp" }}, log: slog.New(slog.DiscardHandler)}
	res := p.errorResult(tooldef.Write, "ghg_1", unavailable("upstream %s did not answer", "x"))
	var e map[string]any
	if err := json.Unmarshal(res.StructuredContent.(json.RawMessage), &e); err != nil {
		t.Fatal(err)
	}
	wantEnvelope(t, "errorResult", res.IsError, e, map[string]any{
		"code":        string(contract.CodeUpstreamUnavailable),
		"temporary":   true,
		"settlement":  string(contract.Indeterminate),
		"request_id":  "ghg_1",
		"fingerprint": "fp",
	})
	if _, ok := e["retry_after_ms"]; !ok {
		t.Fatal("retry_after_ms missing")
	}
}
