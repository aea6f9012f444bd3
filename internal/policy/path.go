package policy

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
)

// A Counter keeps write counts per key and fixed window, shared by every
// replica that uses the same store.
type Counter interface {
	// Count adds n to the count kept under key for the fixed window of
	// length window that holds now (windows aligned to the Unix epoch),
	// unless the count would then pass limit; commit false only asks.
	// It reports whether the n fit and, when they did not, how long
	// until the window ends.
	Count(ctx context.Context, key string, n, limit int, window time.Duration, commit bool) (ok bool, retryAfter time.Duration, err error)
}

// Path admits writes. One Path serves a deployment; what differs per
// client or agent comes in the call's Scope.
type Path struct {
	// Rules apply where the call's scope names none (stdio).
	Rules Rules
	// Shared is the default for scopes that do not say (see Scope.Shared).
	Shared bool
	// Counter keeps quotas; nil with quotas configured refuses the
	// writes they bound (fails closed).
	Counter Counter
	// Confirmations binds a person's answer to the call it was asked for.
	Confirmations *Confirmations
	// Flow remembers private reads per session and resolves visibility.
	Flow *FlowGuard
	// Log receives one line per refusal, neutralisation, dry run and
	// confirmation; Observe, when set, counts them as metrics.
	Log     *slog.Logger
	Observe func(event, tool, rule string)
}

// Call is one tool call's writes, as the tool adapter hands them over.
type Call struct {
	Tool   string
	Writes []Write
	DryRun bool
	// Arguments are the call's normalized arguments, which a
	// confirmation is bound to.
	Arguments []byte
	// Answer is a person's answer the retried call carries, with the
	// state the first round handed out.
	Answer *Answer
	// CanElicit reports whether the client can ask its user.
	CanElicit bool
}

// Answer is what a person said to a confirmation request.
type Answer struct {
	// Action is "accept", "decline" or "cancel" (MCP elicitation).
	Action string
	// Confirmed is the form's yes.
	Confirmed bool
	State     string
}

// Decision is what Admit decided when it did not refuse.
type Decision struct {
	Plan Plan
	// Ask, when set, means a person must confirm first: the call is
	// answered with the question and run again with the answer.
	Ask *Ask
}

// Ask is a confirmation to request.
type Ask struct {
	Message string
	State   string
}

// Plan is what an admitted call will write, as a dry run returns it.
type Plan struct {
	Tool   string        `json:"tool"`
	Writes []PlannedItem `json:"writes"`
	// Neutralized counts what the outbound policy rewrote.
	Neutralized Neutralized `json:"neutralized,omitzero"`
	// Confirmation is "required" when a person would be asked to
	// confirm the real call.
	Confirmation string `json:"confirmation,omitempty"`
}

// PlannedItem is one write of a plan.
type PlannedItem struct {
	Kind          Kind              `json:"kind"`
	Target        string            `json:"target"`
	Summary       string            `json:"summary,omitempty"`
	Text          map[string]string `json:"text,omitempty"`
	LabelsAdded   []string          `json:"labels_added,omitempty"`
	LabelsRemoved []string          `json:"labels_removed,omitempty"`
	// Request is the request the write would send.
	Request string `json:"request,omitempty"`
	// Before is the issue as it stands, where the write changes one and
	// the deployment can read it (a dry run's "before"). Typed, so that
	// the dry run's published schema says what it holds.
	Before *IssueBefore `json:"before,omitempty"`
}

// IssueBefore is an issue as a dry run shows it before the write: the
// fields a write tool changes. Text is not repeated (the agent read it,
// and lockdown may withhold it): its size is. Labels and assignees are
// written even when empty ([]: none).
type IssueBefore struct {
	Title      string   `json:"title"`
	State      string   `json:"state"`
	Labels     []string `json:"labels"`
	Assignees  []string `json:"assignees"`
	Milestone  string   `json:"milestone,omitempty"`
	Locked     bool     `json:"locked,omitempty"`
	BodyLength int      `json:"body_length"`
}

// Admit applies the write path to a call, in order: kinds denied,
// argument rules, outbound text (a secret refuses; mentions, slash
// commands and foreign links are rewritten in place), quotas, the
// data-flow guard and confirmation. It returns ctx carrying the ticket
// the GitHub client asks of every write. A dry run is checked as the
// real call would be but spends no quota and asks no one.
func (p *Path) Admit(ctx context.Context, c Call) (context.Context, Decision, *contract.Error) {
	scope := p.scope(ctx)
	rules := p.Rules
	if scope.Rules != nil {
		rules = *scope.Rules
	}
	if e := p.admit(ctx, c, scope, rules); e != nil {
		e.Settlement = contract.NotStarted
		p.note(ctx, "refused", c.Tool, ruleOf(e), "code", string(e.Code))
		return ctx, Decision{}, e
	}
	plan, counts, e := p.outbound(c, scope, rules)
	if e != nil {
		e.Settlement = contract.NotStarted
		p.note(ctx, "refused", c.Tool, ruleOf(e), "code", string(e.Code))
		return ctx, Decision{}, e
	}
	if counts != (Neutralized{}) {
		p.note(ctx, "neutralized", c.Tool, "outbound", "mentions", counts.Mentions,
			"slash_commands", counts.SlashCommands, "links", counts.Links)
	}
	if e := p.quotas(ctx, c, scope, rules, false); e != nil {
		p.note(ctx, "refused", c.Tool, ruleOf(e), "code", string(e.Code))
		return ctx, Decision{}, e
	}
	flowAsk, e := p.flow(ctx, c, scope, rules)
	if e != nil {
		p.note(ctx, "refused", c.Tool, ruleOf(e), "code", string(e.Code))
		return ctx, Decision{}, e
	}
	reasons := confirmReasons(c, rules)
	if flowAsk != "" {
		reasons = append(reasons, flowAsk)
	}
	if len(reasons) > 0 {
		plan.Confirmation = "required"
	}
	if c.DryRun {
		p.note(ctx, "dry_run", c.Tool, "")
		return ctx, Decision{Plan: plan}, nil
	}
	if len(reasons) > 0 {
		accepted, ask, e := p.confirm(ctx, c, plan, reasons, flowAsk != "")
		if e != nil {
			return ctx, Decision{}, e
		}
		if !accepted {
			return ctx, Decision{Plan: plan, Ask: ask}, nil
		}
	}
	if e := p.quotas(ctx, c, scope, rules, true); e != nil {
		p.note(ctx, "refused", c.Tool, ruleOf(e), "code", string(e.Code))
		return ctx, Decision{}, e
	}
	return withTicket(ctx, newTicket(c.Writes)), Decision{Plan: plan}, nil
}

func (p *Path) scope(ctx context.Context) Scope {
	s, ok := ScopeFrom(ctx)
	if !ok {
		s = Scope{Subject: "server", Shared: p.Shared}
	}
	if s.Subject == "" {
		s.Subject = "server"
	}
	return s
}

// admit applies the rules that need nothing but the arguments.
func (p *Path) admit(_ context.Context, c Call, _ Scope, r Rules) *contract.Error {
	for _, w := range c.Writes {
		for _, k := range r.Deny {
			if w.Kind == k {
				return refuse(contract.CodePolicyRefused, "deny", "the operator's policy refuses writes of kind %s (%s)", k, w.Target).
					WithRepair(contract.Repair{NextStep: "leave this change to a person; it cannot be made through this gateway"})
			}
		}
		if w.Kind == KindIssueCreate && len(r.CreateIn) > 0 && !matchAny(r.CreateIn, w.Target.Repository()) {
			return refuse(contract.CodePolicyRefused, "create_in", "the operator's policy does not allow opening issues in %s (allowed: %s)",
				w.Target.Repository(), strings.Join(r.CreateIn, ", ")).WithField("repo", "not a repository issues may be opened in").
				WithRepair(contract.Repair{NextStep: "open the issue in one of: " + strings.Join(r.CreateIn, ", ")})
		}
		if len(r.AllowedLabels) > 0 {
			names := append(append([]string(nil), w.LabelsAdded...), w.LabelsRemoved...)
			if w.Kind == KindLabelAdmin && w.Label != "" {
				names = append(names, w.Label)
			}
			for _, l := range names {
				if !matchAny(r.AllowedLabels, l) {
					return refuse(contract.CodePolicyRefused, "allowed_labels", "the operator's policy does not allow the label %q on %s (allowed: %s)",
						l, w.Target, strings.Join(r.AllowedLabels, ", ")).WithField("labels", "a label outside allowed_labels").
						WithRepair(contract.Repair{NextStep: "use only labels matching: " + strings.Join(r.AllowedLabels, ", ")})
				}
			}
		}
		for _, t := range w.Text {
			if t.Value == nil {
				continue
			}
			if r.TitlePrefix != "" && t.Field == "title" && !strings.HasPrefix(*t.Value, r.TitlePrefix) {
				return refuse(contract.CodePolicyRefused, "title_prefix", "the operator's policy wants every title written to begin with %q", r.TitlePrefix).
					WithField("title", "must begin with "+r.TitlePrefix).
					WithRepair(contract.Repair{NextStep: fmt.Sprintf("call again with the title beginning %q", r.TitlePrefix)})
			}
			if r.MaxBody > 0 && t.Field != "title" && len(*t.Value) > r.MaxBody {
				return refuse(contract.CodePolicyRefused, "max_body", "%s is %d bytes; the operator's policy allows %d", t.Field, len(*t.Value), r.MaxBody).
					WithField(t.Field, fmt.Sprintf("at most %d bytes", r.MaxBody)).
					WithRepair(contract.Repair{NextStep: fmt.Sprintf("shorten %s to %d bytes or fewer and call again", t.Field, r.MaxBody)})
			}
		}
	}
	return nil
}

// outbound runs every text field through the outbound policy, rewriting
// it in place, and builds the plan. A credential-shaped string refuses
// the whole call.
func (p *Path) outbound(c Call, scope Scope, r Rules) (Plan, Neutralized, *contract.Error) {
	o := outboundFor(r, scope.Shared)
	plan := Plan{Tool: c.Tool, Writes: make([]PlannedItem, 0, len(c.Writes))}
	var total Neutralized
	for _, w := range c.Writes {
		item := PlannedItem{Kind: w.Kind, Target: w.Target.String(), Summary: w.Summary,
			LabelsAdded: w.LabelsAdded, LabelsRemoved: w.LabelsRemoved, Request: w.Request}
		for _, t := range w.Text {
			if t.Value == nil {
				continue
			}
			out, n, secret := o.Apply(t.Field, *t.Value)
			if secret != nil {
				return Plan{}, total, refuse(contract.CodeSecretInContent, "outbound.secret_scan",
					"%s holds what looks like a credential (%s) at byte %d; nothing was written", t.Field, secret.Kind, secret.Offset).
					WithField(t.Field, fmt.Sprintf("a %s at byte %d", secret.Kind, secret.Offset)).
					WithRepair(contract.Repair{NextStep: "remove the credential from " + t.Field + " and call again; never copy secrets into GitHub"})
			}
			*t.Value = out
			total.Mentions += n.Mentions
			total.SlashCommands += n.SlashCommands
			total.Links += n.Links
			if item.Text == nil {
				item.Text = map[string]string{}
			}
			item.Text[t.Field] = out
		}
		plan.Writes = append(plan.Writes, item)
	}
	plan.Neutralized = total
	return plan, total, nil
}

func refuse(code contract.Code, rule, format string, args ...any) *contract.Error {
	e := contract.Errorf(code, format, args...)
	if e.Details == nil {
		e.Details = &contract.Details{}
	}
	e.Details.Rule = rule
	e.Settlement = contract.NotStarted
	return e
}

func ruleOf(e *contract.Error) string {
	if e.Details != nil {
		return e.Details.Rule
	}
	return ""
}

func (p *Path) note(ctx context.Context, event, tool, rule string, attrs ...any) {
	if p.Observe != nil {
		p.Observe(event, tool, rule)
	}
	if p.Log == nil {
		return
	}
	s := p.scope(ctx)
	p.Log.Info("write policy", append([]any{"event", event, "tool", tool, "rule", rule, "subject", s.Subject}, attrs...)...)
}

// RulesFor is the rules a call or listing in ctx is judged by.
func (p *Path) RulesFor(ctx context.Context) Rules {
	if s, ok := ScopeFrom(ctx); ok && s.Rules != nil {
		return *s.Rules
	}
	return p.Rules
}
