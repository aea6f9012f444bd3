package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/permissions"
	"github.com/ghgate/ghgate/internal/server"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolsetOrder is the order docs/tools.md takes the toolsets in: the
// default first, then as --toolsets lists them. A toolset missing here
// still gets its section, after these.
var toolsetOrder = []string{"issues", "admin", "projects", "pull_requests", "reports", "sync"}

// classicScopes maps each GitHub App / fine-grained permission ghgate's
// tools need to the personal access token (classic) scopes that grant
// it, read and write, as GitHub's "Scopes for OAuth apps" and each
// endpoint's reference describe them. repo covers public and private
// repositories; public_repo (or, for reads, no scope at all) is enough
// where only public repositories are touched.
var classicScopes = map[string][2]string{
	// name: {read, write}
	"issues":                 {"`repo` (public only: `public_repo`)", "`repo` (public only: `public_repo`)"},
	"pull_requests":          {"`repo` (public only: `public_repo`)", "`repo` (public only: `public_repo`)"},
	"contents":               {"`repo` (public only: `public_repo`)", "`repo` (public only: `public_repo`)"},
	"administration":         {"`repo`", "`repo` (and admin rights on the repository)"},
	"actions":                {"`repo` (public only: `public_repo`)", "`repo`"},
	"checks":                 {"`repo` (public only: `public_repo`)", "`repo`"},
	"statuses":               {"`repo` or `repo:status`", "`repo` or `repo:status`"},
	"organization_projects":  {"`read:project`", "`project`"},
	"security_events":        {"`security_events` or `repo` (public only: `public_repo`)", "`security_events` or `repo`"},
	"vulnerability_alerts":   {"`security_events` or `repo` (public only: `public_repo`)", "`security_events` or `repo`"},
	"secret_scanning_alerts": {"`security_events` or `repo` (public only: `public_repo`)", "`security_events` or `repo`"},
}

// listedTools builds ghgate with every toolset (and every gated argument
// offered) over no credential and lists its tools as a client sees
// them: description and annotations come from tools/list, the full
// schemas from each tool's Spec.
func listedTools(ctx context.Context) (map[string]*mcp.Tool, []tooldef.Spec, error) {
	st, err := server.NewStack(ctx, server.StackOptions{Toolsets: []string{"all"},
		Lockdown: server.LockdownOptions{AllowInclude: true}})
	if err != nil {
		return nil, nil, err
	}
	defer st.Close()
	sTr, cTr := mcp.NewInMemoryTransports()
	ss, err := st.Server.MCP.Connect(ctx, sTr, nil)
	if err != nil {
		return nil, nil, err
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "ghgate-docs", Version: "1"}, nil).Connect(ctx, cTr, nil)
	if err != nil {
		return nil, nil, err
	}
	defer cs.Close()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		return nil, nil, err
	}
	byName := map[string]*mcp.Tool{}
	for _, t := range res.Tools {
		byName[t.Name] = t
	}
	return byName, st.Server.Tools(), nil
}

// byToolset groups specs by toolset, in toolsetOrder.
func byToolset(specs []tooldef.Spec) ([]string, map[string][]tooldef.Spec) {
	groups := map[string][]tooldef.Spec{}
	for _, sp := range specs {
		groups[sp.ToolsetName()] = append(groups[sp.ToolsetName()], sp)
	}
	var order []string
	for _, ts := range toolsetOrder {
		if len(groups[ts]) > 0 {
			order = append(order, ts)
		}
	}
	for _, ts := range sortedKeys(groups) {
		if !slices.Contains(order, ts) {
			order = append(order, ts)
		}
	}
	return order, groups
}

// renderTools is docs/tools.md.
func renderTools(ctx context.Context, docsDir string) ([]byte, error) {
	listed, specs, err := listedTools(ctx)
	if err != nil {
		return nil, err
	}
	order, groups := byToolset(specs)
	var w mdWriter
	w.p("# Tools\n\n")
	w.p(generatedNote)
	intro, err := fragment(docsDir, "_intro.md")
	if err != nil {
		return nil, err
	}
	w.p("%s\n\n", intro)
	w.p("| toolset | tools |\n|---|---|\n")
	for _, ts := range order {
		names := make([]string, len(groups[ts]))
		for i, sp := range groups[ts] {
			names[i] = fmt.Sprintf("[`%s`](#%s)", sp.ToolName(), sp.ToolName())
		}
		label := "`" + ts + "`"
		if slices.Contains(server.DefaultToolsets(), ts) {
			label += " (the default)"
		}
		w.p("| %s | %s |\n", label, strings.Join(names, ", "))
	}
	w.p("\n")
	for _, ts := range order {
		w.p("## Toolset `%s`\n\n", ts)
		prose, err := fragment(docsDir, "toolset-"+ts+".md")
		if err != nil {
			return nil, err
		}
		w.p("%s\n\n", prose)
		for _, sp := range groups[ts] {
			if err := renderTool(&w, docsDir, sp, listed[sp.ToolName()]); err != nil {
				return nil, err
			}
		}
	}
	outro, err := fragment(docsDir, "_surface.md")
	if err != nil {
		return nil, err
	}
	w.p("%s\n", outro)
	return w.Bytes(), nil
}

// renderTool writes one tool's section: what it is, its arguments and
// output fields, the permissions it needs, then its hand-written prose
// (the GitHub calls it makes and their costs).
func renderTool(w *mdWriter, docsDir string, sp tooldef.Spec, t *mcp.Tool) error {
	name := sp.ToolName()
	if t == nil {
		return fmt.Errorf("tool %s is registered but not listed", name)
	}
	pub, err := sp.Schemas()
	if err != nil {
		return err
	}
	w.p("### %s\n\n", name)
	w.p("%s\n\n", strings.TrimSpace(t.Description))
	kind := "read"
	if sp.ToolMode() == tooldef.Write {
		kind = "write"
	}
	var hints []string
	if a := t.Annotations; a != nil {
		if a.ReadOnlyHint {
			hints = append(hints, "`readOnlyHint`")
		}
		if a.DestructiveHint != nil && *a.DestructiveHint {
			hints = append(hints, "`destructiveHint`")
		}
		if a.IdempotentHint {
			hints = append(hints, "`idempotentHint`")
		}
	}
	if len(hints) == 0 {
		hints = append(hints, "none")
	}
	w.p("- toolset `%s`; %s tool; annotations: %s", sp.ToolsetName(), kind, strings.Join(hints, ", "))
	if sp.ToolTaskSupport().Runs() {
		w.p("; may run as an MCP task")
	}
	w.p("\n")
	w.p("- GitHub permissions (fine-grained token or App): %s\n", permissionLine(name, sp.ToolMode() == tooldef.Write))
	w.p("- classic token scopes: %s\n\n", classicLine(name, sp.ToolMode() == tooldef.Write))

	w.p("Arguments:\n\n")
	if pub.Input == nil || len(pub.Input.Properties) == 0 {
		w.p("none\n\n")
	} else {
		w.p("| argument | type | description |\n|---|---|---|\n")
		schemaRows(w, pub.Input, "", 0, true)
		w.p("\n")
	}
	w.p("Output fields:\n\n")
	if pub.Output == nil || len(pub.Output.Properties) == 0 {
		w.p("none\n\n")
	} else {
		w.p("| field | type | description |\n|---|---|---|\n")
		schemaRows(w, pub.Output, "", 0, false)
		w.p("\n")
	}
	prose, err := fragment(docsDir, name+".md")
	if err != nil {
		return err
	}
	w.p("%s\n\n", prose)
	return nil
}

// permissionLine is the fine-grained permissions a tool's calls need,
// from internal/permissions (the table a broker's App route narrows its
// tokens by).
func permissionLine(tool string, write bool) string {
	reads, ok := permissions.For(tool, false)
	if !ok {
		return "not in the permissions table"
	}
	line := setLine(reads)
	if write {
		all, _ := permissions.For(tool, true)
		line = "reads " + line + "; writes " + setLine(all)
	}
	return line
}

func setLine(s permissions.Set) string {
	parts := make([]string, 0, len(s))
	for _, n := range sortedKeys(map[string]string(s)) {
		parts = append(parts, "`"+n+": "+s[n]+"`")
	}
	return strings.Join(parts, ", ")
}

// classicLine maps a tool's permissions to classic token scopes.
func classicLine(tool string, write bool) string {
	set, ok := permissions.For(tool, write)
	if !ok {
		return "not in the permissions table"
	}
	var parts []string
	for _, n := range sortedKeys(map[string]string(set)) {
		if n == permissions.Metadata {
			continue
		}
		sc, ok := classicScopes[n]
		if !ok {
			parts = append(parts, "`"+n+"`: no mapping known")
			continue
		}
		s := sc[0]
		if permissions.Covers(set[n], permissions.Write) {
			s = sc[1]
		}
		parts = append(parts, n+" → "+s)
	}
	if len(parts) == 0 {
		return "none (public data)"
	}
	return strings.Join(parts, "; ")
}

// schemaRows writes a row per property, nested objects' properties (and
// those of arrays of objects) under their parent's name, two levels deep.
func schemaRows(w *mdWriter, s *jsonschema.Schema, prefix string, depth int, markRequired bool) {
	for _, name := range sortedKeys(s.Properties) {
		p := s.Properties[name]
		typ := schemaType(p)
		if markRequired && slices.Contains(s.Required, name) {
			typ += ", required"
		}
		w.p("| `%s` | %s | %s |\n", prefix+name, cell(typ), cell(p.Description))
		inner := p
		if inner.Items != nil {
			inner = inner.Items
		}
		if depth < 1 && len(inner.Properties) > 0 {
			schemaRows(w, inner, prefix+name+".", depth+1, markRequired)
		}
	}
}

// schemaType is a short type: "string", "array of integer", "object",
// "string (one of: a, b)".
func schemaType(s *jsonschema.Schema) string {
	t := s.Type
	if t == "" && len(s.Types) > 0 {
		t = strings.Join(s.Types, " or ")
	}
	if t == "" && len(s.AnyOf) > 0 {
		var alts []string
		for _, a := range s.AnyOf {
			alts = append(alts, schemaType(a))
		}
		t = strings.Join(alts, " or ")
	}
	if t == "" && len(s.OneOf) > 0 {
		var alts []string
		for _, a := range s.OneOf {
			alts = append(alts, schemaType(a))
		}
		t = strings.Join(alts, " or ")
	}
	if t == "" && len(s.Enum) > 0 && allStrings(s.Enum) {
		t = "string"
	}
	if t == "" {
		t = "any"
	}
	if s.Items != nil && strings.Contains(t, "array") {
		t = strings.Replace(t, "array", "array of "+schemaType(s.Items), 1)
	}
	if len(s.Enum) > 0 {
		vals := make([]string, len(s.Enum))
		for i, v := range s.Enum {
			vals[i] = fmt.Sprint(v)
		}
		t += " (one of: " + strings.Join(vals, ", ") + ")"
	}
	return t
}

func allStrings(vals []any) bool {
	for _, v := range vals {
		if _, ok := v.(string); !ok {
			return false
		}
	}
	return true
}
