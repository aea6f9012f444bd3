package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	capabilitiesURI = "ghgate://capabilities"
	errorsURI       = "ghgate://errors"
	schemasURI      = "ghgate://schemas"
)

// resources serves the capability summary, the error catalog, the schemas,
// and GitHub's issues, comments and labels by URI template. Every failed
// read answers with the contract's envelope in the JSON-RPC error's data.
type resources struct {
	svc *toolkit.Service
	// fingerprint is the surface's, stamped on every envelope.
	fingerprint func() string
	// summary and schemas are the current documents: the surface can grow
	// while sessions run.
	summary func() string
	schemas func() ([]byte, error)
	// getIssue, searchIssues and listMetadata answer the templates, so a
	// resource and the tool that answers the same question read GitHub
	// the same way, through the same wrapper (routing, audit).
	getIssue, searchIssues, listMetadata *lazyHandler

	mu sync.RWMutex
	// served names the tools this server lists: a template is served only
	// when the tool that answers it is, so an allow or deny list cannot be
	// stepped around by reading a resource instead.
	served map[string]bool
	// registered names the templates added to the MCP server.
	registered map[string]bool
}

func newResources(svc *toolkit.Service) *resources {
	return &resources{svc: svc, served: map[string]bool{}, registered: map[string]bool{}}
}

// serve marks tools as served; templates they answer become readable at
// the next register.
func (r *resources) serve(names ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, n := range names {
		r.served[n] = true
	}
}

// servedTemplates are the templates whose tool is served, in table order.
func (r *resources) servedTemplates() []template {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var out []template
	for _, t := range templateTable() {
		if r.served[t.tool] {
			out = append(out, t)
		}
	}
	return out
}

// uris lists what a read may name: the templates first, then the fixed
// resources.
func (r *resources) uris() []string {
	var out []string
	for _, t := range r.servedTemplates() {
		out = append(out, t.def.URITemplate)
	}
	return append(out, capabilitiesURI, errorsURI, schemasURI)
}

// completes reports whether completion offers values for variable of the
// served template uriTemplate.
func (r *resources) completes(uriTemplate, variable string) bool {
	for _, t := range r.servedTemplates() {
		if t.def.URITemplate == uriTemplate {
			for _, v := range t.completes {
				if v == variable {
					return true
				}
			}
		}
	}
	return false
}

// fixed are the resources every deployment serves.
func fixed() []*mcp.Resource {
	return []*mcp.Resource{
		{URI: capabilitiesURI, Name: "capabilities", MIMEType: "text/plain",
			Description: "What ghgate does and does not do, its credential prerequisites and the surface fingerprint"},
		{URI: errorsURI, Name: "error-codes", MIMEType: "application/json",
			Description: "Every error code a tool can return, what it means and what to do"},
		{URI: schemasURI, Name: "tool-schemas", MIMEType: "application/json",
			Description: "Each tool's full schemas: input, output, error (the envelope of a failure) and, for a write, dry_run; tools/list carries a shorter output schema"},
	}
}

// build makes the handlers the templates are answered by. env is the
// tools' environment, Wrap included: a template read is the tool call
// that answers it, routed and audited as that call.
func (r *resources) build(env *tooldef.Env) {
	r.fingerprint = env.Fingerprint
	t := &issues.Tools{Service: r.svc}
	r.getIssue = newLazyHandler(env, t.GetIssue)
	r.searchIssues = newLazyHandler(env, t.SearchIssues)
	r.listMetadata = newLazyHandler(env, t.ListRepoMetadata)
}

// lazyHandler is a tool's handler built when a resource first needs it.
// Reads of the templates are rare beside tool calls, and building a tool
// (its schemas by reflection, its validator) cost every start about a
// millisecond a tool and held the schemas for the life of the process.
type lazyHandler struct {
	once sync.Once
	spec func() tooldef.Spec
	env  *tooldef.Env
	h    mcp.ToolHandler
	err  error
}

func newLazyHandler(env *tooldef.Env, spec func() tooldef.Spec) *lazyHandler {
	return &lazyHandler{spec: spec, env: env}
}

// handler builds the tool once. A tool that cannot be built (its schemas
// are the code's, so every test that reads a template would fail first)
// keeps its error, logged once; a build that panics is an error too, so
// no read calls a handler that was never made.
func (l *lazyHandler) handler() (mcp.ToolHandler, error) {
	l.once.Do(func() {
		defer func() {
			if p := recover(); p != nil {
				l.h, l.err = nil, fmt.Errorf("building the tool panicked: %v", p)
			}
			if l.err == nil && l.h == nil {
				l.err = errors.New("building the tool gave no handler")
			}
			if l.err != nil && l.env.Log != nil {
				l.env.Log.Error("a tool behind the issue resources could not be built; reads of them fail", "err", l.err)
			}
			l.spec, l.env = nil, nil
		}()
		_, l.h, l.err = l.spec().Build(l.env)
	})
	return l.h, l.err
}

// registerFixed adds the fixed resources to m, and the middleware that
// gives a read of a URI m does not serve the envelope too.
func (r *resources) registerFixed(m *mcp.Server) {
	docs := map[string]func() (string, error){
		capabilitiesURI: func() (string, error) { return r.summary(), nil },
		errorsURI: func() (string, error) {
			b, err := json.Marshal(contract.Catalog())
			return string(b), err
		},
		schemasURI: func() (string, error) {
			b, err := r.schemas()
			return string(b), err
		},
	}
	for _, res := range fixed() {
		doc, mime := docs[res.URI], res.MIMEType
		m.AddResource(res, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			body, err := doc()
			if err != nil {
				return nil, r.fail(req.Params.URI, contract.Errorf(contract.CodeInternal, "ghgate could not encode the document"))
			}
			// The same for every client of this deployment, and changed only
			// with the surface: public, and long-lived but for the summary.
			ttl := surfaceTTL
			if req.Params.URI == capabilitiesURI {
				ttl = summaryTTL
			}
			return hinted(text(req.Params.URI, mime, body), ttl, scopePublic), nil
		})
	}
	m.AddReceivingMiddleware(r.envelopeUnserved, annotateReads)
}

// registerTemplates adds every served template not added yet; the SDK
// tells listening clients (notifications/resources/list_changed).
func (r *resources) registerTemplates(m *mcp.Server) {
	for _, t := range r.servedTemplates() {
		r.mu.Lock()
		done := r.registered[t.def.URITemplate]
		r.registered[t.def.URITemplate] = true
		r.mu.Unlock()
		if done {
			continue
		}
		def, read := t.def, t.read
		m.AddResourceTemplate(&def, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return read(r, ctx, req)
		})
	}
}

func text(uri, mime, body string) *mcp.ReadResourceResult {
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: mime, Text: body}}}
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
				// Form encoding; the templates' query variables expand a
				// space to %20 and match no +.
				reason = "must percent-encode query values as RFC 6570 does (a space is %20, not +)"
			} else if err == nil && strings.Contains(u.RawQuery, ":") {
				reason = "must percent-encode query values as RFC 6570 does (a colon is %3A)"
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

// viaTool reads through the tool handler that answers the same question
// and returns its structuredContent; a failure becomes a JSON-RPC error
// carrying the envelope.
func (r *resources) viaTool(ctx context.Context, uri string, tool *lazyHandler, args any) (json.RawMessage, error) {
	h, err := tool.handler()
	if err != nil {
		return nil, r.fail(uri, contract.Errorf(contract.CodeInternal, "ghgate could not build the tool that answers this resource"))
	}
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
	return body, nil
}

// fail turns an envelope into a read's JSON-RPC error: the envelope in
// error.data with machine_code and human_message beside it, request_id and
// fingerprint filled in as on a tool's error, and the URI read (MCP's
// SEP-2164 asks for it in error.data.uri). The code says who is at fault:
// resource not found, invalid params, the two upstream conditions a client
// should wait out ([contract.RPCRateLimited], RPCUpstreamUnavailable), and
// internal error for the rest.
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
	case contract.CodeRateLimited:
		code = contract.RPCRateLimited
	case contract.CodeUpstreamUnavailable:
		code = contract.RPCUpstreamUnavailable
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

// schemasDoc is the ghgate://schemas document: for each served tool, the
// full schemas its arguments are checked against and each kind of answer
// conforms to: input, output (a result), error (a failure's envelope)
// and, for a write tool, dry_run (the answer to dry_run: true).
func schemasDoc(specs []tooldef.Spec) ([]byte, error) {
	doc := map[string]tooldef.Published{}
	for _, sp := range specs {
		p, err := sp.Schemas()
		if err != nil {
			return nil, err
		}
		doc[sp.ToolName()] = p
	}
	return json.Marshal(doc)
}
