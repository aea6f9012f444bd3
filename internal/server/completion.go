package server

import (
	"context"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// completer answers completion/complete for the variables the served
// resource templates complete: owner, repo, and the issue index's labels
// (drawn from the repository's labels, as its labels resource lists them)
// and state; and for the same names among an offered prompt's arguments,
// with a milestone's title (drawn from the repository's open
// milestones). Anything else, including issue_number and variables a
// template or prompt does not declare, gets an empty list, never null.
type completer struct {
	svc *toolkit.Service
	// completes reports whether a served template completes a variable: a
	// template left out by allow, deny or read-only completes nothing, as
	// it reads nothing.
	completes func(uriTemplate, variable string) bool
	// promptCompletes is the same for a prompt's argument: a prompt not
	// offered completes nothing.
	promptCompletes func(prompt, arg string) bool
	// fingerprint is the surface's, stamped on a refusal's envelope.
	fingerprint func() string
}

func newCompleter(svc *toolkit.Service, completes, promptCompletes func(string, string) bool, fingerprint func() string) *completer {
	return &completer{svc: svc, completes: completes, promptCompletes: promptCompletes, fingerprint: fingerprint}
}

// serves reports whether ref, a template or a prompt offered now,
// completes its variable or argument arg.
func (c *completer) serves(ref *mcp.CompleteReference, arg string) bool {
	switch {
	case ref == nil:
		return false
	case ref.Type == "ref/resource":
		return c.completes(ref.URI, arg)
	case ref.Type == "ref/prompt":
		return c.promptCompletes != nil && c.promptCompletes(ref.Name, arg)
	}
	return false
}

// indexStates are the issue index's state values.
var indexStates = []string{"open", "closed", "all"}

func (c *completer) complete(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	p := req.Params
	known := map[string]string{}
	if p.Context != nil {
		for k, v := range p.Context.Arguments {
			known[k] = v
		}
	}
	var values []string
	if c.serves(p.Ref, p.Argument.Name) {
		// The owner and repository already chosen go into request paths:
		// they get the same name check as a tool's arguments.
		if e := checkCompletionContext(p.Argument.Name, known["owner"], known["repo"]); e != nil {
			return nil, c.refuse(e)
		}
		switch p.Argument.Name {
		case "owner":
			values = c.svc.CompleteOwners(ctx, p.Argument.Value)
		case "repo":
			values = c.svc.CompleteRepos(ctx, known["owner"], p.Argument.Value)
		case "labels":
			// A list: the items before the last stay as typed.
			head, item := splitLast(p.Argument.Value)
			values = c.svc.CompleteLabels(ctx, known["owner"], known["repo"], item)
			for i := range values {
				values[i] = head + values[i]
			}
		case "milestone":
			values = completeMilestones(ctx, c.svc, known["owner"], known["repo"], p.Argument.Value)
		case "state":
			values = []string{}
			for _, s := range indexStates {
				if strings.HasPrefix(s, p.Argument.Value) {
					values = append(values, s)
				}
			}
		}
	}
	if values == nil {
		values = []string{}
	}
	return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: values, Total: len(values)}}, nil
}

// checkCompletionContext refuses an owner or repo of a shape GitHub does
// not allow, where completing arg would put it in a request path.
func checkCompletionContext(arg, owner, repo string) *contract.Error {
	if arg == "owner" || arg == "state" {
		return nil
	}
	if owner != "" {
		if err := github.CheckOwner(owner); err != nil {
			return contract.Errorf(contract.CodeInvalidField, "context owner is not a GitHub user or organization name").
				WithField("owner", github.OwnerRule)
		}
	}
	if (arg == "labels" || arg == "milestone") && owner != "" && repo != "" {
		if err := github.CheckRepo(owner, repo); err != nil {
			return contract.Errorf(contract.CodeInvalidField, "context repo is not a GitHub repository name").
				WithField("repo", "must be a repository name (letters, digits, '.', '-', '_'), without the owner")
		}
	}
	return nil
}

// refuse is a completion's JSON-RPC error carrying the envelope, as a
// failed resource read carries it.
func (c *completer) refuse(e *contract.Error) error {
	e.RequestID = tooldef.NewRequestID()
	if c.fingerprint != nil {
		e.Fingerprint = c.fingerprint()
	}
	return EnvelopeError(jsonrpc.CodeInvalidParams, e)
}

// EnvelopeError is a JSON-RPC error carrying the envelope e in its data,
// with machine_code and human_message beside it, as a failed request
// other than a tool call carries it ([tooldef.ProtocolError]).
func EnvelopeError(code int64, e *contract.Error) *jsonrpc.Error {
	return tooldef.ProtocolError(code, e)
}

// splitLast splits a comma-separated list being typed into the items
// before the last (with their commas) and the last, the one completed.
func splitLast(v string) (head, item string) {
	i := strings.LastIndex(v, ",")
	return v[:i+1], v[i+1:]
}
