package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	capabilitiesURI = "ghgate://capabilities"
	errorsURI       = "ghgate://errors"
	issueTemplate   = "github://{owner}/{repo}/issues/{issue_number}"
	issuesTemplate  = "github://{owner}/{repo}/issues"
)

// resources serves the capability summary, the error catalog, and issues
// by URI template.
type resources struct{ svc *tools.Service }

func newResources(svc *tools.Service) *resources { return &resources{svc: svc} }

func (r *resources) uris() []string {
	return []string{capabilitiesURI, errorsURI, issueTemplate, issuesTemplate}
}

func (r *resources) register(m *mcp.Server, summary, fingerprint string) {
	m.AddResource(&mcp.Resource{URI: capabilitiesURI, Name: "capabilities", MIMEType: "text/plain",
		Description: "What ghgate does and does not do"},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return text(req.Params.URI, "text/plain", summary+"Surface fingerprint: "+fingerprint+"\n"), nil
		})
	m.AddResource(&mcp.Resource{URI: errorsURI, Name: "error-codes", MIMEType: "application/json",
		Description: "Every error code a tool can return, what it means and what to do"},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			b, _ := json.Marshal(contract.Catalog())
			return text(req.Params.URI, "application/json", string(b)), nil
		})
	m.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: issueTemplate, Name: "issue", MIMEType: "application/json",
		Description: "One issue with its first page of comments, as github_get_issue returns it"}, r.readIssue)
	m.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: issuesTemplate, Name: "repository-issues", MIMEType: "application/json",
		Description: "A repository's open issues (first 30), as github_search_issues returns them"}, r.readIssues)
}

func text(uri, mime, body string) *mcp.ReadResourceResult {
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: mime, Text: body}}}
}

// parseGitHubURI splits github://owner/repo/issues[/n].
func parseGitHubURI(raw string) (owner, repo string, number int, ok bool) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "github" {
		return "", "", 0, false
	}
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	owner = u.Host
	if len(parts) < 2 || parts[1] != "issues" || owner == "" {
		return "", "", 0, false
	}
	repo = parts[0]
	if len(parts) == 3 {
		n, err := strconv.Atoi(parts[2])
		if err != nil || n < 1 {
			return "", "", 0, false
		}
		return owner, repo, n, true
	}
	return owner, repo, 0, len(parts) == 2
}

func (r *resources) readIssue(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	owner, repo, n, ok := parseGitHubURI(req.Params.URI)
	if !ok || n == 0 {
		return nil, mcp.ResourceNotFoundError(req.Params.URI)
	}
	return r.viaTool(ctx, req.Params.URI, r.svc.GetIssue(), tools.GetIssueIn{Owner: owner, Repo: repo, IssueNumber: n})
}

func (r *resources) readIssues(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	owner, repo, n, ok := parseGitHubURI(req.Params.URI)
	if !ok || n != 0 {
		return nil, mcp.ResourceNotFoundError(req.Params.URI)
	}
	return r.viaTool(ctx, req.Params.URI, r.svc.SearchIssues(), tools.SearchIssuesIn{Owner: owner, Repo: repo})
}

// viaTool reads a resource through the tool that answers the same question,
// so both give the same JSON; a failure becomes a JSON-RPC error whose data
// is the contract's envelope.
func (r *resources) viaTool(ctx context.Context, uri string, spec tooldef.Spec, args any) (*mcp.ReadResourceResult, error) {
	_, h, err := spec.Build(&tooldef.Env{MapError: tools.MapError})
	if err != nil {
		return nil, err
	}
	raw, _ := json.Marshal(args)
	res, err := h(ctx, &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: spec.ToolName(), Arguments: raw}})
	if err != nil {
		return nil, err
	}
	body, _ := res.StructuredContent.(json.RawMessage)
	if res.IsError {
		var env contract.Error
		_ = json.Unmarshal(body, &env)
		data, _ := json.Marshal(resourceErrorData{Error: env, MachineCode: env.Code, HumanMessage: env.Message})
		code := int64(jsonrpc.CodeInternalError)
		if env.Code == contract.CodeNotFound || env.Code == contract.CodeGone {
			code = mcp.CodeResourceNotFound
		}
		return nil, &jsonrpc.Error{Code: code, Message: fmt.Sprintf("%s: %s", env.Code, env.Message), Data: data}
	}
	return text(uri, "application/json", string(body)), nil
}

// resourceErrorData is a resource failure's JSON-RPC error.data: the
// envelope, plus machine_code and human_message for clients that look for
// those names.
type resourceErrorData struct {
	contract.Error
	MachineCode  contract.Code `json:"machine_code"`
	HumanMessage string        `json:"human_message"`
}
