// Package augment holds what the broker adds to an allowlisted upstream
// tool: post-processors and description notes, chosen per tool by name
// in the configuration (`augment = ["pull_request_ci"]` on an [[upstream]]
// allow entry), and an operator's own note (`note = "..."`).
//
// Decisions, so the operator can predict the behaviour:
//
//   - An augment is for one upstream tool, by its name: naming it on
//     another tool, naming one twice, or naming one that does not exist is
//     refused when the configuration is loaded ([Check]).
//   - An augment's own arguments are added to the tool's advertised input
//     schema (an upstream that already declares one of them is refused at
//     start), read by the broker, and never forwarded: the upstream gets
//     the call as a plain proxy would have sent it without them.
//   - A call that gives none of an augment's arguments is a plain forward:
//     the same arguments, the same result bytes.
//   - Post-processing is best effort: a result the broker cannot read (an
//     error result, not JSON, no head SHA) or whose extra reads fail comes
//     back unchanged, with one more text content saying why nothing was
//     added (ghgate: ...), so a client shows the reason beside the answer.
//   - Notes are appended to the tool's description in tools/list: built-in
//     ones first, in the order named, then the operator's.
package augment

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/ghgate/ghgate/internal/broker/upstream"
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/reports"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// spec is one named augment.
type spec struct {
	// tool is the upstream tool it is made for.
	tool string
	// note, when set, is appended to the tool's description.
	note string
	// params are the arguments it adds to the input schema, read by the
	// broker and never forwarded, each with its JSON schema.
	params map[string]map[string]any
	// wrap, when set, post-processes the tool's calls; mode is the
	// tool's, for the refusals it renders.
	wrap func(d Deps, mode tooldef.Mode, next mcp.ToolHandler) mcp.ToolHandler
}

// registry is every augment, by the name the configuration uses.
var registry = map[string]spec{
	PullRequestCI: pullRequestCI(),
	IssueWriteLabelsNote: {
		tool: "issue_write",
		note: "Caution: labels replaces the issue's whole label set; include every label to keep.",
	},
}

// The augments' names.
const (
	// PullRequestCI adds a ci field to GitHub's pull_request_read, method
	// get, when the call gives ciVerbosity.
	PullRequestCI = "pull_request_ci"
	// IssueWriteLabelsNote warns in GitHub's issue_write description
	// that labels replaces the label set.
	IssueWriteLabelsNote = "issue_write_labels_note"
)

// Names lists the augments, sorted.
func Names() []string { return slices.Sorted(maps.Keys(registry)) }

// maxNote bounds an operator's note: it is sent in every tools/list.
const maxNote = 500

// Check refuses what the configuration says of one allowlisted tool that
// the broker could not do: an augment that does not exist or is for
// another tool, one named twice, and a note that is blank, too long or
// holds control characters.
func Check(tool string, names []string, note string) error {
	var errs []error
	seen := map[string]bool{}
	for _, n := range names {
		s, ok := registry[n]
		switch {
		case !ok:
			errs = append(errs, fmt.Errorf("augment %q does not exist (known: %s)", n, strings.Join(Names(), ", ")))
		case s.tool != tool:
			errs = append(errs, fmt.Errorf("augment %q is for the tool %s, not %s", n, s.tool, tool))
		case seen[n]:
			errs = append(errs, fmt.Errorf("augment %q is named twice", n))
		}
		seen[n] = true
	}
	switch {
	case note == "":
	case strings.TrimSpace(note) == "":
		errs = append(errs, errors.New("note is blank: remove it or write the warning"))
	case len(note) > maxNote:
		errs = append(errs, fmt.Errorf("note is %d bytes, over %d: every tools/list sends it", len(note), maxNote))
	case strings.ContainsFunc(note, func(r rune) bool { return unicode.IsControl(r) && r != '\n' }):
		errs = append(errs, errors.New("note holds control characters"))
	}
	return errors.Join(errs...)
}

// CI reads one commit's CI for a post-processor ([reports.Tools.CommitCI]
// with the broker's credential for the owner).
type CI func(ctx context.Context, in reports.CommitCIIn) (reports.CommitCIOut, error)

// Deps are what the post-processors need from the broker.
type Deps struct {
	CI CI
	// Refuse renders a refusal as every tool's error result.
	Refuse func(e *contract.Error, mode tooldef.Mode) *mcp.CallToolResult
	// Redact cleans text the broker adds to a result (a note quoting an
	// error); nil leaves it.
	Redact func(string) string
}

// Apply returns t with the augments named and the operator's note
// applied: its description, its input schema and the names its
// arguments are read by (callargs.Upstream.Declared), and its handler.
// names and note have passed Check; an upstream tool that already
// declares an augment's argument is refused.
func Apply(t upstream.Tool, names []string, note string, d Deps) (upstream.Tool, error) {
	if len(names) == 0 && note == "" {
		return t, nil
	}
	def := *t.Def
	var notes []string
	params := map[string]map[string]any{}
	var wraps []func(Deps, tooldef.Mode, mcp.ToolHandler) mcp.ToolHandler
	for _, n := range names {
		s, ok := registry[n]
		if !ok || s.tool != def.Name {
			return t, fmt.Errorf("augment %q cannot apply to %s", n, def.Name)
		}
		if s.note != "" {
			notes = append(notes, s.note)
		}
		for k, v := range s.params {
			params[k] = v
		}
		if s.wrap != nil {
			wraps = append(wraps, s.wrap)
		}
	}
	if note != "" {
		notes = append(notes, note)
	}
	if len(notes) > 0 {
		def.Description = strings.TrimRight(def.Description, "\n") + "\n\n" + strings.Join(notes, "\n")
	}
	if len(params) > 0 {
		schema, err := withParams(def.InputSchema, params)
		if err != nil {
			return t, fmt.Errorf("tool %s: %w", def.Name, err)
		}
		def.InputSchema = schema
		declared := maps.Clone(t.Args.Declared)
		for k := range params {
			declared[k] = true
		}
		t.Args.Declared = declared
	}
	for _, w := range wraps {
		t.Handler = w(d, t.Mode, t.Handler)
	}
	t.Def = &def
	return t, nil
}

// withParams is a copy of an input schema (an object schema, as the
// upstream listed it) with more properties; one the upstream already
// declares is refused: the broker would take the argument from it.
func withParams(inputSchema any, params map[string]map[string]any) (map[string]any, error) {
	raw, err := json.Marshal(inputSchema)
	if err != nil {
		return nil, err
	}
	var schema map[string]any
	if err := json.Unmarshal(raw, &schema); err != nil {
		return nil, err
	}
	props, _ := schema["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
	}
	for _, k := range slices.Sorted(maps.Keys(params)) {
		if _, taken := props[k]; taken {
			return nil, fmt.Errorf("the upstream already declares the argument %s the augment adds", k)
		}
		props[k] = params[k]
	}
	schema["properties"] = props
	return schema, nil
}
