package tooldef

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/policy"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// dryRunField is the argument every write tool takes: the call is
// checked as it would be for real (arguments, policy, quotas) and
// answered with its plan; nothing is sent to GitHub.
const dryRunField = "dry_run"

// confirmRequest is the id of the one input request a call that needs a
// person's yes sends.
const confirmRequest = "confirm"

// withDryRun returns a copy of a write tool's input schema with dry_run
// added: the adapter adds it, so no tool declares it and none can lack it.
func withDryRun(in *jsonschema.Schema) *jsonschema.Schema {
	cp := *in
	cp.Properties = make(map[string]*jsonschema.Schema, len(in.Properties)+1)
	for n, p := range in.Properties {
		cp.Properties[n] = p
	}
	cp.Properties[dryRunField] = &jsonschema.Schema{Type: "boolean"}
	if len(in.PropertyOrder) > 0 {
		cp.PropertyOrder = append(append([]string(nil), in.PropertyOrder...), dryRunField)
	}
	return &cp
}

// splitDryRun reads dry_run from the checked arguments and returns them
// without it: what a confirmation is bound to, so that a dry run and the
// real call are one call to the person asked.
func splitDryRun(normalized json.RawMessage) (bool, []byte) {
	var args map[string]json.RawMessage
	if len(normalized) == 0 || json.Unmarshal(normalized, &args) != nil || args == nil {
		return false, normalized
	}
	var dry bool
	if raw, ok := args[dryRunField]; ok {
		_ = json.Unmarshal(raw, &dry) // the schema checked it is a boolean
		delete(args, dryRunField)
	}
	canonical, err := json.Marshal(args) // map keys sorted: one spelling per call
	if err != nil {
		return dry, normalized
	}
	return dry, canonical
}

// Admission is what the write path decided for one call.
type Admission struct {
	ctx    context.Context
	plan   policy.Plan
	result *mcp.CallToolResult // answered without running: a dry run or a question
}

// admit runs a write call's declared writes through the write path.
func (t Tool[In, Out]) admit(ctx context.Context, env *Env, req *mcp.CallToolRequest, input *In, normalized json.RawMessage) (Admission, *contract.Error) {
	d, ok := any(input).(policy.Declarer)
	if !ok {
		// Build refuses such a tool; fail closed if one got through.
		return Admission{}, contract.Errorf(contract.CodeInternal, "%s declares no writes", t.Name)
	}
	writes, e := declared(env, t.Name, d)
	if e != nil {
		return Admission{}, e
	}
	var preview *forecast
	if t.Preview != nil {
		preview = &forecast{run: func(ctx context.Context) (any, error) { return t.Preview.run(ctx, *input) }, keep: t.Preview.keep}
	}
	return admitWrites(ctx, env, req, t.Name, writes, normalized, preview)
}

// declared reads a call's declaration, which runs before the tool's own
// panic guard: a panic in it refuses the write rather than reach the
// client.
func declared(env *Env, tool string, d policy.Declarer) (writes []policy.Write, e *contract.Error) {
	defer func() {
		if v := recover(); v != nil {
			env.log().Error("write path panic", "tool", tool, "panic", fmt.Sprint(v))
			writes, e = nil, admitPanic(tool)
		}
	}()
	return d.Writes(), nil
}

func admitPanic(tool string) *contract.Error {
	e := contract.Errorf(contract.CodeInternal, "ghgate hit an unexpected condition admitting %s; nothing was written", tool)
	e.Settlement = contract.NotStarted
	return e
}

// AdmitWrites runs one call's writes through the write path: ghgate's own
// tools through their declarations, an upstream tool's through what its
// configuration says it writes. The admission's result, when set, answers
// the call without running it (a dry run's plan, or a person's question);
// otherwise its ctx carries the ticket the run needs.
func AdmitWrites(ctx context.Context, env *Env, req *mcp.CallToolRequest, tool string, writes []policy.Write, normalized json.RawMessage) (Admission, *contract.Error) {
	return admitWrites(ctx, env, req, tool, writes, normalized, nil)
}

// admitWrites is [AdmitWrites] with a tool's own dry run (Tool.Preview).
func admitWrites(ctx context.Context, env *Env, req *mcp.CallToolRequest, tool string, writes []policy.Write, normalized json.RawMessage,
	preview *forecast) (adm Admission, e *contract.Error) {
	defer func() {
		// The write path runs before the tool's own panic guard: a panic in
		// it refuses the write (nothing was sent) rather than reach the client.
		if v := recover(); v != nil {
			env.log().Error("write path panic", "tool", tool, "panic", fmt.Sprint(v))
			adm, e = Admission{}, admitPanic(tool)
		}
	}()
	dry, args := splitDryRun(normalized)
	call := policy.Call{Tool: tool, Writes: writes, DryRun: dry, Arguments: args,
		Answer: answerOf(req), CanElicit: canElicit(req)}
	actx, dec, e := env.policy().Admit(ctx, call)
	if e != nil {
		return Admission{}, e
	}
	switch {
	case dec.Ask != nil:
		return Admission{result: &mcp.CallToolResult{
			InputRequests: mcp.InputRequestMap{confirmRequest: &mcp.ElicitParams{
				Mode: "form", Message: dec.Ask.Message, RequestedSchema: policy.ConfirmSchema}},
			RequestState: dec.Ask.State,
		}}, nil
	case dry:
		var forecast any
		keep := slices.Clone(dryRunKeep)
		if preview != nil {
			// The tool's own forecast shows each issue before and after.
			p, err := preview.run(ctx)
			if err != nil {
				e := toEnvelope(env, err)
				e.Settlement = contract.NotStarted
				return Admission{}, e
			}
			forecast = p
			for _, k := range preview.keep {
				keep = append(keep, previewField+"."+k)
			}
		} else {
			addBefore(ctx, env, writes, &dec.Plan)
		}
		body, err := Compact(struct {
			DryRun  policy.Plan `json:"dry_run"`
			Preview any         `json:"preview,omitempty"`
		}{dec.Plan, forecast}, keep...)
		if err != nil {
			return Admission{}, internal(env, tool, fmt.Errorf("encoding a dry run: %w", err))
		}
		return Admission{result: &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: string(body)}},
			StructuredContent: json.RawMessage(body),
		}}, nil
	}
	return Admission{ctx: actx, plan: dec.Plan}, nil
}

// Admitted returns what [AdmitWrites] decided: the context to run with, or
// the result that answers the call instead.
func (a Admission) Admitted() (context.Context, *mcp.CallToolResult) { return a.ctx, a.result }

// answerOf reads a person's answer from a retried call.
func answerOf(req *mcp.CallToolRequest) *policy.Answer {
	if req == nil || req.Params == nil || req.Params.InputResponses == nil {
		return nil
	}
	r, ok := req.Params.InputResponses[confirmRequest].(*mcp.ElicitResult)
	if !ok {
		return &policy.Answer{Action: "cancel", State: req.Params.RequestState}
	}
	yes, _ := r.Content["confirm"].(bool)
	return &policy.Answer{Action: r.Action, Confirmed: yes, State: req.Params.RequestState}
}

// canElicit reports whether the client declared it can ask its user
// through a form (an empty elicitation capability means form). The SDK
// reads the capability from the request's _meta under the 2026-07-28
// protocol and from the session's initialize before it.
func canElicit(req *mcp.CallToolRequest) bool {
	if req == nil {
		return false
	}
	caps := req.ClientCapabilities()
	if caps == nil || caps.Elicitation == nil {
		return false
	}
	el := caps.Elicitation
	return el.Form != nil || el.URL == nil
}

// sessionOf is the MCP session id a call arrives on ("" over stdio and
// stateless HTTP).
func sessionOf(req *mcp.CallToolRequest) string {
	if req == nil || req.Session == nil {
		return ""
	}
	return req.Session.ID()
}

// withNeutralized adds what the outbound policy rewrote to a write's
// answer, so the agent knows the text GitHub holds is not the text it
// sent.
func withNeutralized(body []byte, n policy.Neutralized) []byte {
	if n == (policy.Neutralized{}) || len(body) < 2 || body[0] != '{' {
		return body
	}
	enc, err := json.Marshal(struct {
		N policy.Neutralized `json:"neutralized"`
	}{n})
	if err != nil {
		return body
	}
	enc = bytes.TrimSuffix(enc, []byte("}"))
	if string(body) == "{}" {
		return append(enc, '}')
	}
	return append(append(enc, ','), body[1:]...)
}

func (env *Env) policy() *policy.Path {
	if env != nil && env.Policy != nil {
		return env.Policy
	}
	return defaultPath
}

// defaultPath is the write path of a server configured with no policy:
// the defaults (secret scan on) and no quotas.
var defaultPath = &policy.Path{}

// addBefore reads, once per issue, the issues a dry run's writes change,
// so the plan shows each as it stands. A read that fails leaves that
// item without it: the plan is still what the call would write.
func addBefore(ctx context.Context, env *Env, writes []policy.Write, plan *policy.Plan) {
	if env == nil || env.Before == nil {
		return
	}
	seen := map[policy.Target]*policy.IssueBefore{}
	for i, w := range writes {
		t := policy.Target{Owner: w.Target.Owner, Repo: w.Target.Repo, Number: w.Target.Number}
		if t.Number == 0 || t.Repo == "" || i >= len(plan.Writes) {
			continue
		}
		v, ok := seen[t]
		if !ok {
			v, _ = env.Before(ctx, t)
			seen[t] = v
		}
		plan.Writes[i].Before = v
	}
}
