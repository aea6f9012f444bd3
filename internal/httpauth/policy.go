package httpauth

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/broker/callargs"
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/searchquery"
	"github.com/ghgate/ghgate/internal/tooldef"
)

// Scopes name what a refusal says is missing, in one vocabulary:
//
//	read:OWNER, read:OWNER/REPO, write:…, read:* — reach, by mode
//	toolset:NAME — a toolset the client is not given
//	tool:NAME    — a tool an allow or deny list keeps from it
//	write        — any write, for a read-only client
const (
	scopeWrite = "write"
)

// ToolInfo is what the policy needs to know of a served tool.
type ToolInfo struct {
	Mode    tooldef.Mode
	Toolset string
	// Writes is true for a tool that writes anything, GitHub or local
	// files (tooldef.Writes): a read-only client may call none.
	Writes bool
}

// policy is one client's, ready to ask.
type policy struct {
	read, write []string
	toolsets    []string // empty or containing "all": every toolset
	allow, deny []string
	readOnly    bool
}

func newPolicy(c Client) *policy {
	p := &policy{read: c.Read, write: c.Write, toolsets: c.Tools.Toolsets, allow: c.Tools.Allow,
		deny: c.Tools.Deny, readOnly: c.Tools.ReadOnly}
	return p
}

// toolScope is the scope the client lacks to call a tool, or "".
func (p *policy) toolScope(name string, t ToolInfo) string {
	switch {
	case len(p.toolsets) > 0 && !slices.Contains(p.toolsets, "all") && !slices.Contains(p.toolsets, t.Toolset):
		return "toolset:" + t.Toolset
	case len(p.allow) > 0 && !slices.Contains(p.allow, name), slices.Contains(p.deny, name):
		return "tool:" + name
	case p.readOnly && (t.Mode == tooldef.Write || t.Writes):
		return scopeWrite
	case t.Mode == tooldef.Write && len(p.write) == 0:
		return scopeWrite
	}
	return ""
}

// lists returns the patterns that grant mode: a read is granted by the
// read or the write list.
func (p *policy) lists(mode tooldef.Mode) []string {
	if mode == tooldef.Write {
		return p.write
	}
	return append(slices.Clip(p.read), p.write...)
}

// reaches reports whether mode is granted on owner (and repo, when not
// empty). An owner-wide target needs an owner-wide grant.
func (p *policy) reaches(mode tooldef.Mode, owner, repo string) bool {
	for _, pat := range p.lists(mode) {
		if pat == "*" {
			return true
		}
		po, pr, hasRepo := strings.Cut(pat, "/")
		if owner == "" || owner == searchquery.ViewerLogin || !strings.EqualFold(po, owner) {
			continue
		}
		if !hasRepo || (repo != "" && strings.EqualFold(pr, repo)) {
			return true
		}
	}
	return false
}

// everything reports whether mode is granted everywhere ("*").
func (p *policy) everything(mode tooldef.Mode) bool {
	return slices.Contains(p.lists(mode), "*")
}

// readableOwners lists the owners the client may read anything of, or
// all when it may read everything.
func (p *policy) readableOwners() (owners []string, all bool) {
	for _, pat := range p.lists(tooldef.Read) {
		if pat == "*" {
			return nil, true
		}
		o, _, _ := strings.Cut(pat, "/")
		if !slices.ContainsFunc(owners, func(x string) bool { return strings.EqualFold(x, o) }) {
			owners = append(owners, o)
		}
	}
	return owners, false
}

// target is one place a call acts on.
type target struct{ owner, repo string }

func (t target) scope(mode tooldef.Mode) string {
	switch {
	case t.owner == "" || t.owner == searchquery.ViewerLogin:
		return string(mode) + ":*"
	case t.repo == "":
		return string(mode) + ":" + t.owner
	}
	return string(mode) + ":" + t.owner + "/" + t.repo
}

// targets are the places a call's arguments reach: the owner (and repo)
// named, else each repository or owner its query's scope qualifiers name;
// no target at all means the call is not bounded to an owner, which only
// a "*" grant covers.
func targets(a callargs.Args) []target {
	if a.Target.Owner != "" {
		out := []target{{a.Target.Owner, a.Target.Repo}}
		// The other repositories a link or a duplicate names are acted on
		// too, in the call's mode.
		for _, r := range a.Target.Also {
			out = append(out, target{r.Owner, r.Repo})
		}
		return out
	}
	refs := a.QueryRefs()
	if len(refs) == 0 {
		return []target{{}}
	}
	out := make([]target, 0, len(refs))
	for _, r := range refs {
		t := target{owner: r.Owner}
		if r.Name == "repo" {
			t.repo = r.Repo
		}
		out = append(out, t)
	}
	return out
}

// missingScopes are the reach scopes a call with args lacks in mode.
func (p *policy) missingScopes(mode tooldef.Mode, a callargs.Args) []string {
	if p.everything(mode) {
		return nil
	}
	var missing []string
	for _, t := range targets(a) {
		if !p.reaches(mode, t.owner, t.repo) {
			if s := t.scope(mode); !slices.Contains(missing, s) {
				missing = append(missing, s)
			}
		}
	}
	return missing
}

// refusal is the insufficient_scope envelope naming what client lacks.
func refusal(client string, scopes []string, what string) *contract.Error {
	e := contract.Errorf(contract.CodeInsufficientScope, "client %q is not allowed %s (missing %s); nothing was sent to GitHub",
		client, what, strings.Join(scopes, ", "))
	e.Details = &contract.Details{RequiredScopes: scopes}
	e.Settlement = contract.NotStarted
	return e.WithRepair(contract.Repair{NextStep: "stay within what this client's policy allows, or ask the operator to widen it; retrying will not help"})
}

func describe(name string) string { return fmt.Sprintf("to call %s", name) }
