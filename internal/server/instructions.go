package server

import (
	"strings"

	"github.com/ghgate/ghgate/internal/policy"
)

// guards are what the instructions say is in force: what the operator
// configured, as the server was built with it.
type guards struct {
	readOnly bool
	lockdown LockdownOptions
	policy   *policy.Path
	// credentials is the deployment's line on the GitHub credential (a
	// broker's App routes), the same line the capability summary carries.
	credentials string
	// forwarded is whether tools of other MCP servers are served.
	forwarded bool
}

// instructions is what a client reads at session start: what ghgate is,
// the rules no tool's schema or error carries (a cursor's and a
// boolean's absence), one line per guard in force, and where the rest is. Everything
// a schema, an error envelope or a result's own fields say is left to them
// and to the capability summary, which keeps the whole text.
func instructions(g guards) string {
	var b strings.Builder
	b.WriteString("ghgate: GitHub issues for agents; a pull request's number works where GitHub's Issues API takes one.\n")
	b.WriteString("Tool schemas and errors (code, literal repair call) say how to call each tool; " + capabilitiesURI +
		" has the rest (what ghgate does and does not do, how search_issues is answered, result fields, resources, credential failures")
	if g.forwarded {
		b.WriteString(", tools forwarded from other MCP servers")
	}
	b.WriteString("), " + schemasURI + " full schemas, " + errorsURI + " every code.\n")
	b.WriteString("\nBefore the first call:\n")
	b.WriteString("- listings: pass next_cursor as cursor with the same other arguments (within 15 minutes) for the next page; no cursor is page 1\n")
	b.WriteString("- a boolean left out is false\n")
	if !g.readOnly {
		b.WriteString("- write tools take dry_run: true checks the call as for real, writing nothing\n")
	}
	b.WriteString("\nGuards in force:\n")
	if g.readOnly {
		b.WriteString("- read-only: no write tool is served\n")
	} else {
		b.WriteString(policyLine(g.policy))
		b.WriteString(flowLine(g.policy))
	}
	b.WriteString(lockdownLine(g.lockdown))
	b.WriteString(g.credentials)
	return b.String()
}

// policyLine is the write policy's guard line: every deployment refuses
// credentials in text, so it is always in force where writes are served.
// The rules the deployment sets are named, not their values (a refusal
// names its rule, a dry run applies them all); they are the defaults,
// which an HTTP client's own rules replace for that client.
func policyLine(p *policy.Path) string {
	line := "- write policy"
	if p != nil {
		if set := rulesSet(p.Rules); len(set) > 0 {
			line += " (" + strings.Join(set, ", ") + ")"
		}
	}
	return line + ": a write may be refused (details.rule names the rule) or wait for a person's yes\n"
}

// rulesSet names the rules r sets, as the configuration spells them.
func rulesSet(r policy.Rules) []string {
	var set []string
	for _, rule := range []struct {
		name string
		on   bool
	}{
		{"quotas", len(r.Quotas) > 0},
		{"allowed_labels", len(r.AllowedLabels) > 0},
		{"create_in", len(r.CreateIn) > 0},
		{"title_prefix", r.TitlePrefix != ""},
		{"max_body", r.MaxBody > 0},
		{"deny", len(r.Deny) > 0},
		{"confirm", len(r.Confirm.Tools) > 0 || len(r.Confirm.Kinds) > 0 || r.Confirm.BulkOver > 0},
	} {
		if rule.on {
			set = append(set, rule.name)
		}
	}
	return set
}

// flowLine is the data-flow guard's line, where the deployment's default
// rules keep it on (they do unless the operator turns it off).
func flowLine(p *policy.Path) string {
	if p == nil || p.Flow == nil || !p.Rules.Flow.On() {
		return ""
	}
	return "- data-flow guard: once a session has read a private repository, text it writes to a public one needs a person's yes " +
		"(else cross_visibility_write)\n"
}
