package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/core"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	capabilitiesURI = "ghgate://capabilities"
	errorsURI       = "ghgate://errors"
	schemasURI      = "ghgate://schemas"
	issueTemplate   = "github://{owner}/{repo}/issues/{issue_number}"
	// issuesTemplate's {?label} is RFC 6570 form-style query expansion:
	// github://acme/widgets/issues?label=status%3A%20triage.
	issuesTemplate = "github://{owner}/{repo}/issues{?label}"
)

// templateDeclares reports whether a resource template declares the
// variable: completion offers values only for those.
func templateDeclares(template, variable string) bool {
	switch template {
	case issueTemplate:
		return variable == "owner" || variable == "repo" || variable == "issue_number"
	case issuesTemplate:
		return variable == "owner" || variable == "repo" || variable == "label"
	}
	return false
}

// resources serves the capability summary, the error catalog, and issues
// by URI template. Every failed read answers with the contract's envelope
// in the JSON-RPC error's data.
type resources struct {
	svc *core.Service
	// served names the tools this server lists: a template is served only
	// when the tool that answers it is, so an allow or deny list cannot be
	// stepped around by reading a resource instead.
	served map[string]bool
	specs  []tooldef.Spec
	// fingerprint is the surface's, known once the server is built.
	fingerprint func() string
	// getIssue and searchIssues answer the templates, so a resource and
	// the tool that answers the same question give the same JSON.
	getIssue, searchIssues mcp.ToolHandler
}

func newResources(svc *core.Service, specs []tooldef.Spec) *resources {
	r := &resources{svc: svc, served: map[string]bool{}, specs: specs}
	for _, t := range specs {
		r.served[t.ToolName()] = true
	}
	return r
}

// Tools whose handlers answer the templates.
const (
	issueTool  = core.NameGetIssue
	issuesTool = core.NameSearchIssues
)

// uris lists what a read may name: the templates first, then the fixed
// resources.
func (r *resources) uris() []string {
	var out []string
	if r.served[issueTool] {
		out = append(out, issueTemplate)
	}
	if r.served[issuesTool] {
		out = append(out, issuesTemplate)
	}
	return append(out, capabilitiesURI, errorsURI, schemasURI)
}

// register adds the resources and templates to m, and the middleware that
// gives a read of a URI m does not serve the envelope too. env is the
// tools' environment, Wrap included: a template read is the tool call that
// answers it, routed and audited as that call.
func (r *resources) register(m *mcp.Server, summary string, env *tooldef.Env) error {
	r.fingerprint = env.Fingerprint
	var err error
	if _, r.getIssue, err = (&issues.Tools{Service: r.svc}).GetIssue().Build(env); err != nil {
		return err
	}
	if _, r.searchIssues, err = (&issues.Tools{Service: r.svc}).SearchIssues().Build(env); err != nil {
		return err
	}
	m.AddResource(&mcp.Resource{URI: capabilitiesURI, Name: "capabilities", MIMEType: "text/plain",
		Description: "What ghgate does and does not do"},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return text(req.Params.URI, "text/plain", summary+"Surface fingerprint: "+r.fingerprint()+"\n"), nil
		})
	schemas, err := r.schemas()
	if err != nil {
		return err
	}
	m.AddResource(&mcp.Resource{URI: schemasURI, Name: "tool-schemas", MIMEType: "application/json",
		Description: "Each tool's full input and output schema; tools/list carries a shorter output schema"},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return text(req.Params.URI, "application/json", string(schemas)), nil
		})
	m.AddResource(&mcp.Resource{URI: errorsURI, Name: "error-codes", MIMEType: "application/json",
		Description: "Every error code a tool can return, what it means and what to do"},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			b, _ := json.Marshal(contract.Catalog())
			return text(req.Params.URI, "application/json", string(b)), nil
		})
	if r.served[issueTool] {
		m.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: issueTemplate, Name: "issue", MIMEType: "application/json",
			Description: "One issue with its first page of comments, as github_get_issue returns it"}, r.readIssue)
	}
	if r.served[issuesTool] {
		m.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: issuesTemplate, Name: "repository-issues", MIMEType: "application/json",
			Description: "A repository's open issues (first 30), with the label given if any, as github_search_issues returns them"}, r.readIssues)
	}
	m.AddReceivingMiddleware(r.envelopeUnserved)
	return nil
}

func text(uri, mime, body string) *mcp.ReadResourceResult {
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: mime, Text: body}}}
}

func (r *resources) readIssue(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	in, e := issueArgs(req.Params.URI)
	if e != nil {
		return nil, r.fail(req.Params.URI, e)
	}
	return r.viaTool(ctx, req.Params.URI, r.getIssue, in)
}

func (r *resources) readIssues(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	in, e := issuesArgs(req.Params.URI)
	if e != nil {
		return nil, r.fail(req.Params.URI, e)
	}
	return r.viaTool(ctx, req.Params.URI, r.searchIssues, in)
}

// issueArgs reads github://owner/repo/issues/n as github_get_issue's
// arguments.
func issueArgs(uri string) (issues.GetIssueIn, *contract.Error) {
	u, owner, repo, rest, e := parseRepoURI(uri)
	switch {
	case e != nil:
		return issues.GetIssueIn{}, e
	case len(rest) != 2 || rest[0] != "issues":
		return issues.GetIssueIn{}, unservedURI("does not name an issue")
	case u.RawQuery != "":
		return issues.GetIssueIn{}, unservedURI("an issue's URI takes no query")
	}
	n, err := strconv.Atoi(rest[1])
	if err != nil || n < 1 {
		return issues.GetIssueIn{}, unservedURI("issue_number must be a positive whole number")
	}
	return issues.GetIssueIn{Owner: owner, Repo: repo, IssueNumber: core.IssueNumber(n)}, nil
}

// issuesArgs reads github://owner/repo/issues[?label=NAME] as
// github_search_issues's arguments (open issues is its default).
func issuesArgs(uri string) (issues.SearchIssuesIn, *contract.Error) {
	u, owner, repo, rest, e := parseRepoURI(uri)
	switch {
	case e != nil:
		return issues.SearchIssuesIn{}, e
	case len(rest) != 1 || rest[0] != "issues":
		return issues.SearchIssuesIn{}, unservedURI("does not name a repository's issues")
	}
	labels, e := labelFilter(u.RawQuery)
	if e != nil {
		return issues.SearchIssuesIn{}, e
	}
	return issues.SearchIssuesIn{Owner: owner, Repo: repo, Labels: labels}, nil
}

// parseRepoURI splits github://owner/repo/rest...
func parseRepoURI(raw string) (u *url.URL, owner, repo string, rest []string, e *contract.Error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "github" {
		return nil, "", "", nil, unservedURI("is not a github:// URI ghgate can parse")
	}
	parts := strings.Split(strings.TrimPrefix(u.Path, "/"), "/")
	if u.Host == "" || len(parts) < 2 || parts[0] == "" {
		return nil, "", "", nil, unservedURI("must name an owner and a repository")
	}
	return u, u.Host, parts[0], parts[1:], nil
}

// labelFilter reads the repository-issues template's query: nothing, or
// label=NAME once.
func labelFilter(rawQuery string) ([]string, *contract.Error) {
	if rawQuery == "" {
		return nil, nil
	}
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return nil, unservedURI("has a query that cannot be parsed")
	}
	for k, vs := range q {
		switch {
		case k != "label":
			return nil, unservedURI("takes no query parameter but label")
		case len(vs) != 1:
			return nil, unservedURI("label may be given once")
		case vs[0] == "":
			return nil, unservedURI("label must not be empty")
		}
	}
	return []string{q.Get("label")}, nil
}

// unservedURI is the envelope for a read naming nothing ghgate serves; the
// reason says what is wrong without echoing the URI. fail adds what is
// served.
func unservedURI(reason string) *contract.Error {
	return contract.Errorf(contract.CodeInvalidField, "the uri %s", reason).WithField("uri", reason)
}

// listServed completes an unservedURI envelope with what this server
// serves, and the repair that reads one of them.
func (r *resources) listServed(e *contract.Error) {
	uris := r.uris()
	served := strings.Join(uris, ", ")
	e.Message += "; ghgate serves " + served
	e.Details.Value = uris
	e.WithRepair(contract.Repair{
		NextStep:    "read one of " + served + " (a github:// template filled in, e.g. github://OWNER/REPO/issues/NUMBER)",
		Alternative: "read " + capabilitiesURI + " for everything this server offers"})
}

// envelopeUnserved is a receiving middleware: the SDK answers a read of a
// URI that matches no resource and no template with a bare "Resource not
// found"; this gives it the envelope every other failed read carries.
func (r *resources) envelopeUnserved(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err == nil || method != "resources/read" {
			return res, err
		}
		var werr *jsonrpc.Error
		if !errors.As(err, &werr) || werr.Code != mcp.CodeResourceNotFound || carriesEnvelope(werr.Data) {
			return res, err
		}
		reason, uri := "matches no resource or resource template", ""
		if p, ok := req.GetParams().(*mcp.ReadResourceParams); ok {
			uri = p.URI
			if u, err := url.Parse(p.URI); err == nil && strings.Contains(u.RawQuery, "+") {
				// Form encoding; the template's {?label} expands a space
				// to %20 and matches no +.
				reason = "must percent-encode the label as RFC 6570 does (a space is %20, not +)"
			}
		}
		return nil, r.fail(uri, unservedURI(reason))
	}
}

func carriesEnvelope(data json.RawMessage) bool {
	var d struct {
		MachineCode string `json:"machine_code"`
	}
	return json.Unmarshal(data, &d) == nil && d.MachineCode != ""
}

// viaTool reads a resource through the tool handler that answers the same
// question; a failure becomes a JSON-RPC error carrying the envelope.
func (r *resources) viaTool(ctx context.Context, uri string, h mcp.ToolHandler, args any) (*mcp.ReadResourceResult, error) {
	raw, _ := json.Marshal(args)
	res, err := h(ctx, &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Arguments: raw}})
	if err != nil {
		return nil, err
	}
	body, _ := res.StructuredContent.(json.RawMessage)
	if res.IsError {
		var env contract.Error
		if err := json.Unmarshal(body, &env); err != nil || env.Code == "" {
			env = *contract.Errorf(contract.CodeInternal, "ghgate hit an unexpected condition reading the resource")
		}
		return nil, r.fail(uri, &env)
	}
	return text(uri, "application/json", string(body)), nil
}

// fail turns an envelope into a read's JSON-RPC error: the envelope in
// error.data with machine_code and human_message beside it, request_id and
// fingerprint filled in as on a tool's error, and the URI read (MCP's
// SEP-2164 asks for it in error.data.uri).
func (r *resources) fail(uri string, e *contract.Error) error {
	if e.RequestID == "" {
		e.RequestID = tooldef.NewRequestID()
	}
	if e.Fingerprint == "" && r.fingerprint != nil {
		e.Fingerprint = r.fingerprint()
	}
	e.Settlement = "" // a read changes nothing
	if e.Code == contract.CodeInvalidField && e.Details != nil && e.Details.Field == "uri" && e.Repair == nil {
		r.listServed(e)
	}
	data, err := json.Marshal(resourceErrorData{Error: *e, MachineCode: e.Code, HumanMessage: e.Message, URI: uri})
	if err != nil {
		data = json.RawMessage(`{"code":"internal_error","message":"cannot encode error","retry_after_ms":null,"machine_code":"internal_error","human_message":"cannot encode error"}`)
	}
	code := int64(jsonrpc.CodeInternalError)
	if contract.IsNotFound(e.Code) {
		code = mcp.CodeResourceNotFound
	}
	switch e.Code {
	case contract.CodeGone:
		code = mcp.CodeResourceNotFound
	case contract.CodeInvalidField:
		code = jsonrpc.CodeInvalidParams
	}
	return &jsonrpc.Error{Code: code, Message: fmt.Sprintf("%s: %s", e.Code, e.Message), Data: data}
}

// resourceErrorData is a resource failure's JSON-RPC error.data: the
// envelope, plus machine_code and human_message for clients that look for
// those names, and the URI that was read.
type resourceErrorData struct {
	contract.Error
	MachineCode  contract.Code `json:"machine_code"`
	HumanMessage string        `json:"human_message"`
	URI          string        `json:"uri,omitempty"`
}

// schemas is the ghgate://schemas document: for each served tool, the full
// schemas its arguments and results are checked against.
func (r *resources) schemas() ([]byte, error) {
	type pair struct {
		Input  any `json:"input"`
		Output any `json:"output"`
	}
	doc := map[string]pair{}
	for _, sp := range r.specs {
		in, out, err := sp.Schemas()
		if err != nil {
			return nil, err
		}
		doc[sp.ToolName()] = pair{in, out}
	}
	return json.Marshal(doc)
}
