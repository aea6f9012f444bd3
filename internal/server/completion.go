package server

import (
	"context"

	"github.com/ghgate/ghgate/internal/tools"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// completer answers completion/complete for the variables the resource
// templates declare: owner, repo and label (the repository-issues
// template's filter). Anything else, including issue_number and
// variables a template does not declare, gets an empty list, never null.
type completer struct{ svc *tools.Service }

func newCompleter(svc *tools.Service) *completer { return &completer{svc: svc} }

func (c *completer) complete(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	p := req.Params
	known := map[string]string{}
	if p.Context != nil {
		for k, v := range p.Context.Arguments {
			known[k] = v
		}
	}
	var values []string
	if p.Ref != nil && p.Ref.Type == "ref/resource" && templateDeclares(p.Ref.URI, p.Argument.Name) {
		switch p.Argument.Name {
		case "owner":
			values = c.svc.CompleteOwners(ctx, p.Argument.Value)
		case "repo":
			values = c.svc.CompleteRepos(ctx, known["owner"], p.Argument.Value)
		case "label":
			values = c.svc.CompleteLabels(ctx, known["owner"], known["repo"], p.Argument.Value)
		}
	}
	if values == nil {
		values = []string{}
	}
	return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: values, Total: len(values)}}, nil
}
