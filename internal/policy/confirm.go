package policy

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
)

// Confirmations binds a person's answer to the call it was asked about.
// The question goes out with a state: an HMAC over the tool, the call's
// arguments and its plan, with an expiry. The retried call must carry
// that state back, so an answer cannot be reused for other arguments,
// and nothing is kept on the server between the two rounds.
type Confirmations struct {
	key []byte
	now func() time.Time
	ttl time.Duration

	// used holds the answered states this process has spent, for a Path
	// without a Counter; with one, spent states are kept in the store so
	// that replicas agree a yes is used once.
	mu   sync.Mutex
	used map[string]time.Time
}

// spendLocally marks state used in this process; false if it was.
func (cf *Confirmations) spendLocally(state string) bool {
	cf.mu.Lock()
	defer cf.mu.Unlock()
	now := cf.now()
	for s, until := range cf.used {
		if now.After(until) {
			delete(cf.used, s)
		}
	}
	if _, seen := cf.used[state]; seen {
		return false
	}
	if cf.used == nil {
		cf.used = map[string]time.Time{}
	}
	cf.used[state] = now.Add(cf.ttl)
	return true
}

// spend marks an accepted state used, so one yes writes once: a retried
// call carrying the same answer again is asked again.
func (p *Path) spend(ctx context.Context, state string) (bool, error) {
	if p.Counter == nil {
		return p.Confirmations.spendLocally(state), nil
	}
	sum := sha256.Sum256([]byte(state))
	ok, _, err := p.Counter.Count(ctx, "confirm-used|"+base64.RawURLEncoding.EncodeToString(sum[:]), 1, 1, p.Confirmations.ttl, true)
	return ok, err
}

// NewConfirmations signs with key (at least 32 bytes of secret material:
// the deployment's cursor key serves). A question is valid for ten
// minutes.
func NewConfirmations(key []byte, now func() time.Time) (*Confirmations, error) {
	if len(key) < 32 {
		return nil, errors.New("confirmation key must be at least 32 bytes")
	}
	if now == nil {
		now = time.Now
	}
	return &Confirmations{key: append([]byte(nil), key...), now: now, ttl: 10 * time.Minute}, nil
}

func (cf *Confirmations) mac(tool string, args []byte, plan Plan, expiry int64) []byte {
	digest, _ := json.Marshal(plan) // a Plan always encodes
	m := hmac.New(sha256.New, cf.key)
	var exp [8]byte
	binary.BigEndian.PutUint64(exp[:], uint64(expiry))
	for _, part := range [][]byte{[]byte("ghgate-confirm-v1"), []byte(tool), args, digest, exp[:]} {
		var n [4]byte
		binary.BigEndian.PutUint32(n[:], uint32(len(part)))
		m.Write(n[:])
		m.Write(part)
	}
	return m.Sum(nil)
}

func (cf *Confirmations) mint(tool string, args []byte, plan Plan) string {
	expiry := cf.now().Add(cf.ttl).Unix()
	var exp [8]byte
	binary.BigEndian.PutUint64(exp[:], uint64(expiry))
	return base64.RawURLEncoding.EncodeToString(append(exp[:], cf.mac(tool, args, plan, expiry)...))
}

func (cf *Confirmations) valid(state, tool string, args []byte, plan Plan) bool {
	raw, err := base64.RawURLEncoding.DecodeString(state)
	if err != nil || len(raw) != 8+sha256.Size {
		return false
	}
	expiry := int64(binary.BigEndian.Uint64(raw[:8]))
	if cf.now().Unix() > expiry {
		return false
	}
	return hmac.Equal(raw[8:], cf.mac(tool, args, plan, expiry))
}

// confirmReasons says why the operator's rules want a person's yes for
// this call, or nothing.
func confirmReasons(c Call, r Rules) []string {
	var why []string
	if slices.Contains(r.Confirm.Tools, c.Tool) {
		why = append(why, "the operator asks a person to confirm every "+c.Tool)
	}
	for _, k := range r.Confirm.Kinds {
		if slices.ContainsFunc(c.Writes, func(w Write) bool { return w.Kind == k }) {
			why = append(why, "the operator asks a person to confirm "+string(k)+" writes")
		}
	}
	if r.Confirm.BulkOver > 0 && len(c.Writes) > r.Confirm.BulkOver {
		why = append(why, fmt.Sprintf("it makes %d writes, more than the %d the operator allows unconfirmed", len(c.Writes), r.Confirm.BulkOver))
	}
	return why
}

// confirm decides on a call that needs a person's yes: accepted when the
// retried call carries an accepting answer bound to it; otherwise the
// question to ask, or a refusal when no one can be asked.
func (p *Path) confirm(ctx context.Context, c Call, plan Plan, reasons []string, flow bool) (bool, *Ask, *contract.Error) {
	if p.Confirmations == nil || !c.CanElicit {
		p.note(ctx, "confirmation_unavailable", c.Tool, "confirm")
		if flow {
			// The guard's own refusal says more than "no one could be asked".
			return false, nil, refuse(contract.CodeCrossVisibilityWrite, "flow", "%s; no person can be asked to confirm through this client, so nothing was written",
				strings.Join(reasons, "; ")).
				WithRepair(contract.Repair{NextStep: "write this text to a private repository, or ask the operator to allow the pair in policy.flow.allow"})
		}
		return false, nil, refuse(contract.CodeConfirmationUnavailable, "confirm",
			"%s, and this client cannot ask its user (it did not declare elicitation, or it calls over stateless HTTP "+
				"on a protocol before 2026-07-28, where the server cannot send it a question); nothing was written", strings.Join(reasons, "; ")).
			WithRepair(contract.Repair{NextStep: "ask a person to make this change, or use a client that supports MCP elicitation"})
	}
	if a := c.Answer; a != nil {
		if !p.Confirmations.valid(a.State, c.Tool, c.Arguments, plan) {
			// A stale or foreign answer: ask again rather than trust it.
			p.note(ctx, "confirmation_stale", c.Tool, "confirm")
		} else if a.Action == "accept" && a.Confirmed {
			fresh, err := p.spend(ctx, a.State)
			if err != nil {
				return false, nil, refuse(contract.CodeUpstreamUnavailable, "confirm",
					"the person's answer could not be recorded; nothing was written").WithRetryAfter(1000)
			}
			if fresh {
				p.note(ctx, "confirmation_accepted", c.Tool, "confirm")
				return true, nil, nil
			}
			// A yes already spent: this is a repeat, which the person did
			// not see. Ask again.
			p.note(ctx, "confirmation_reused", c.Tool, "confirm")
		} else {
			p.note(ctx, "confirmation_declined", c.Tool, "confirm", "action", a.Action)
			return false, nil, refuse(contract.CodeConfirmationDeclined, "confirm",
				"the person asked to confirm %s did not accept (%s); nothing was written", c.Tool, a.Action).
				WithRepair(contract.Repair{NextStep: "do not repeat this write unless the person asks for it"})
		}
	}
	p.note(ctx, "confirmation_asked", c.Tool, "confirm")
	return false, &Ask{Message: question(c, plan, reasons), State: p.Confirmations.mint(c.Tool, c.Arguments, plan)}, nil
}

// question is what the person is shown: what will change and why they
// are asked. The text written is not repeated in full (it has passed the
// secret scan, but a question is no place for a long body); its size is.
func question(c Call, plan Plan, reasons []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "An agent asks to run %s. It will:\n", c.Tool)
	const shown = 20
	for i, w := range plan.Writes {
		if i == shown {
			fmt.Fprintf(&b, "- and %d more\n", len(plan.Writes)-shown)
			break
		}
		line := w.Summary
		if line == "" {
			line = string(w.Kind)
		}
		fmt.Fprintf(&b, "- %s on %s", line, w.Target)
		if len(w.LabelsAdded) > 0 {
			fmt.Fprintf(&b, "; add labels %s", strings.Join(w.LabelsAdded, ", "))
		}
		if len(w.LabelsRemoved) > 0 {
			fmt.Fprintf(&b, "; remove labels %s", strings.Join(w.LabelsRemoved, ", "))
		}
		for _, f := range sortedKeys(w.Text) {
			t := w.Text[f]
			if f == "title" && len(t) <= 120 {
				fmt.Fprintf(&b, "; title %q", t)
			} else {
				fmt.Fprintf(&b, "; %s of %d bytes", f, len(t))
			}
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "You are asked because %s.", strings.Join(reasons, "; "))
	return b.String()
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// ConfirmSchema is the form a person fills in: one yes.
var ConfirmSchema = json.RawMessage(`{"type":"object","properties":{"confirm":{"type":"boolean","title":"Allow this write","default":false}},"required":["confirm"]}`)
