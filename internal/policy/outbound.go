package policy

import "github.com/ghgate/ghgate/internal/policy/outbound"

// Outbound is the policy on text ghgate writes to GitHub (see package
// outbound).
type Outbound = outbound.Rules

// Neutralized counts what the outbound policy rewrote in a call's text.
type Neutralized = outbound.Counts

// outboundFor is the outbound policy in force: the rules as written, with
// mentions neutralised by default where the deployment serves agents
// other than its operator.
func outboundFor(r Rules, shared bool) outbound.Rules {
	o := r.Outbound
	if shared && o.Mentions == "" {
		o.Mentions = "neutralize"
	}
	return o
}
