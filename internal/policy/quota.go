package policy

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
)

// quotas checks (commit false) or spends (commit true) every quota the
// call's writes fall under. Each write counts once under its kind, so a
// bulk edit of 30 issues counts 30; a per-issue quota counts the writes
// to each issue apart.
func (p *Path) quotas(ctx context.Context, c Call, scope Scope, r Rules, commit bool) *contract.Error {
	if len(r.Quotas) == 0 {
		return nil
	}
	type bucket struct {
		kind Kind
		q    quota
		key  string
		n    int
	}
	buckets := map[string]*bucket{}
	for _, w := range c.Writes {
		for _, spec := range r.Quotas[w.Kind] {
			q, err := parseQuota(spec)
			if err != nil {
				// Validate refuses such a configuration; fail closed if one
				// got through.
				return refuse(contract.CodePolicyRefused, "quotas."+string(w.Kind), "the quota %q cannot be read", spec)
			}
			key := fmt.Sprintf("quota|%s|%s|%s", scope.Subject, w.Kind, q.Spec)
			if q.PerIssue {
				key += "|" + lower(w.Target.String())
			}
			b := buckets[key]
			if b == nil {
				b = &bucket{kind: w.Kind, q: q, key: key}
				buckets[key] = b
			}
			b.n++
		}
	}
	keys := make([]string, 0, len(buckets))
	for k := range buckets {
		keys = append(keys, k)
	}
	sort.Strings(keys) // one order, so refusals name the same quota each time
	for _, k := range keys {
		b := buckets[k]
		if p.Counter == nil {
			return refuse(contract.CodePolicyRefused, "quotas."+string(b.kind), "quotas are configured but this deployment has no state store to count them")
		}
		ok, retry, err := p.Counter.Count(ctx, b.key, b.n, b.q.Limit, b.q.Window, commit)
		if err != nil {
			return refuse(contract.CodeUpstreamUnavailable, "quotas."+string(b.kind),
				"the quota for %s writes could not be counted; nothing was written", b.kind).WithRetryAfter(1000)
		}
		if !ok {
			per := ""
			if b.q.PerIssue {
				per = " per issue"
			}
			e := refuse(contract.CodeQuotaExceeded, "quotas."+string(b.kind),
				"the operator's quota of %d %s writes%s per %s is spent (this call makes %d); nothing was written",
				b.q.Limit, b.kind, per, windowName(b.q.Window), b.n)
			e.Details.Value = map[string]any{"kind": b.kind, "quota": b.q.Spec}
			e.Temporary = true
			return e.WithRetryAfter(retry.Milliseconds()).
				WithRepair(contract.Repair{NextStep: fmt.Sprintf("wait %s before writing more of kind %s", retry.Round(time.Second), b.kind)})
		}
	}
	return nil
}

func windowName(d time.Duration) string {
	switch d {
	case time.Second:
		return "second"
	case time.Minute:
		return "minute"
	case time.Hour:
		return "hour"
	case 24 * time.Hour:
		return "day"
	}
	return d.String()
}
