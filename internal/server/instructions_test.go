package server_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/policy"
	"github.com/ghgate/ghgate/internal/server"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// instructionsBudget is the most the instructions may weigh with the
// default toolset, and instructionsAllBudget with every toolset, whatever
// guards the operator turns on: a client that loads tools lazily pays them
// at every session start. The rest is in ghgate://capabilities.
const (
	instructionsBudget    = 1_500
	instructionsAllBudget = 2_000
)

// everyRule sets each rule of the write policy, so the instructions name
// them all.
var everyRule = policy.Rules{
	Quotas:        map[policy.Kind][]string{policy.KindComment: {"20/h"}},
	AllowedLabels: []string{"area: *"},
	CreateIn:      []string{"acme/*"},
	TitlePrefix:   "[bot] ",
	MaxBody:       10_000,
	Deny:          []policy.Kind{policy.KindDelete},
	Confirm:       policy.Confirm{Kinds: []policy.Kind{policy.KindClose}},
}

// appRoutes is a broker's line on its App routes (broker.credentialsLine):
// two of them, one naming its repositories.
const appRoutes = "- GitHub App routes initech (tps, memos); acme (all the installation's repositories): " +
	"each call's installation token covers those repositories and only its tool's permissions; GitHub refuses anything else (403)\n"

// guardedServer is a server with every guard that adds a line to the
// instructions turned on where guarded is set: lockdown on (set otherwise
// for some, include_untrusted offered), a write policy setting every rule,
// and a broker's App routes.
func guardedServer(t *testing.T, toolsets []string, readOnly, guarded bool) *server.Server {
	t.Helper()
	opts := server.Options{Toolsets: toolsets, ReadOnly: readOnly}
	if !guarded {
		return serverWith(t, policy.Rules{}, opts)
	}
	opts.Lockdown = server.LockdownOptions{Rule: toolkit.Lockdown{On: true, AllowInclude: true}, Varies: true, AllowInclude: true}
	opts.Credentials = appRoutes
	return serverWith(t, everyRule, opts)
}

// serverWith is a server whose write path holds rules, as a deployment's
// does (server.NewPolicyPath).
func serverWith(t *testing.T, rules policy.Rules, opts server.Options) *server.Server {
	t.Helper()
	svc := &toolkit.Service{Clients: toolkit.OneClient{}}
	path, err := server.NewPolicyPath(svc, nil, server.PolicyOptions{Rules: rules, Key: []byte("instructions test key")})
	if err != nil {
		t.Fatal(err)
	}
	opts.Policy = path
	srv, err := server.New(svc, opts)
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// The instructions stay within their budget with every guard on, say each
// guard in force, and point to the capability summary, which keeps the
// whole text (what the instructions leave out included).
func TestInstructionsBudget(t *testing.T) {
	for _, c := range []struct {
		name              string
		toolsets          []string
		readOnly, guarded bool
		budget            int
	}{
		{"default", nil, false, false, instructionsBudget},
		{"default, every guard", nil, false, true, instructionsBudget},
		{"default, read-only, every guard", nil, true, true, instructionsBudget},
		{"all", []string{"all"}, false, false, instructionsAllBudget},
		{"all, every guard", []string{"all"}, false, true, instructionsAllBudget},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := guardedServer(t, c.toolsets, c.readOnly, c.guarded)
			cs := servertest.Connect(t, srv.MCP)
			ins := cs.InitializeResult().Instructions
			t.Logf("instructions: %d bytes", len(ins))
			if len(ins) > c.budget {
				t.Errorf("the instructions are %d bytes, over the %d budget:\n%s", len(ins), c.budget, ins)
			}
			want := []string{"ghgate://capabilities", "ghgate://schemas", "ghgate://errors", "Surface fingerprint: " + srv.Fingerprint() + "\n",
				"no cursor is page 1"}
			var not []string
			if c.readOnly {
				want = append(want, "- read-only: no write tool is served")
				not = append(not, "dry_run", "- write policy", "- data-flow guard:")
			} else {
				want = append(want, "dry_run: true", "- a boolean left out is false", "- write policy", "- data-flow guard:")
				not = append(not, "- read-only:")
			}
			if c.guarded {
				want = append(want, "- lockdown: in public repositories", "include_untrusted: true", strings.TrimSuffix(appRoutes, "\n"))
				if !c.readOnly {
					want = append(want, "- write policy (quotas, allowed_labels, create_in, title_prefix, max_body, deny, confirm):")
				}
			} else {
				not = append(not, "- lockdown:", "GitHub App routes", "- write policy (")
			}
			for _, w := range want {
				if !strings.Contains(ins, w) {
					t.Errorf("the instructions lack %q:\n%s", w, ins)
				}
			}
			for _, n := range not {
				if strings.Contains(ins, n) {
					t.Errorf("the instructions say %q:\n%s", n, ins)
				}
			}
			// The capability summary is the whole text, on the same
			// fingerprint: what moved out of the instructions is there.
			res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "ghgate://capabilities"})
			if err != nil {
				t.Fatal(err)
			}
			summary := res.Contents[0].Text
			t.Logf("capability summary: %d bytes", len(summary))
			for _, w := range []string{"Does not:", "source: search", "Tools: ", toolkit.NameSearchIssues, "missing_credential",
				"Values echoed:", "has_more and next_cursor", "dry_run", "Surface fingerprint: " + srv.Fingerprint() + "\n"} {
				if c.readOnly && w == "dry_run" {
					continue
				}
				if !strings.Contains(summary, w) {
					t.Errorf("the capability summary lacks %q, want it", w)
				}
			}
			for _, w := range []string{"- lockdown: in public repositories", appRoutes} {
				if c.guarded && !strings.Contains(summary, w) {
					t.Errorf("the capability summary lacks %q, want the lockdown and App routes lines:\n%s", w, summary)
				}
			}
		})
	}
}

// A deployment that turns the data-flow guard off is not said to have it.
func TestInstructionsOmitAGuardTurnedOff(t *testing.T) {
	off := false
	srv := serverWith(t, policy.Rules{Flow: policy.Flow{Guard: &off}}, server.Options{})
	ins := servertest.Connect(t, srv.MCP).InitializeResult().Instructions
	if strings.Contains(ins, "data-flow guard") {
		t.Errorf("with the data-flow guard off, the instructions name it, want them not to:\n%s", ins)
	}
	if !strings.Contains(ins, "- write policy:") {
		t.Errorf("with the data-flow guard off, the instructions lack %q, want it:\n%s", "- write policy:", ins)
	}
}
