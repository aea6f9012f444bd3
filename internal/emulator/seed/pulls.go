package seed

import (
	"fmt"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// pull composes the i-th pull request: a fix for an open generated bug
// when there is one, otherwise a dependency bump, docs or a feature.
func (g *repoGen) pull(n, i int, created time.Time) *plan {
	sd, v, L := g.sd, g.v, g.labels
	p := &plan{kind: kindPull, created: created, author: pick(sd, g.triagers)}
	var label string
	var fixes *plan
	fixesN := 0
	variant := i % 4
	if variant == 0 {
		for j := len(g.plans) - 1; j >= 0; j-- {
			if q := g.plans[j]; q.fixable && !q.closing {
				fixes, fixesN = q, j+1
				break
			}
		}
		if fixes == nil {
			variant = 1
		}
	}
	switch variant {
	case 0:
		f := g.facts[fixes]
		p.title = g.unique(func() string { return fmt.Sprintf("Fix #%d: %s", fixesN, f.title()) })
		p.body = ptr(sd.fixPullBody(f, fixesN))
		label = L.bug
		fixes.fixable = false
	case 1:
		d := pick(sd, v.deps)
		p.title = g.unique(func() string { d = pick(sd, v.deps); return fmt.Sprintf("Bump %s from %s to %s", d.name, d.from, d.to) })
		p.body = ptr(depPullBody(d))
		p.author = g.w.bob
		label = L.deps
	case 2:
		var topic string
		p.title = g.unique(func() string { topic = pick(sd, v.docTopics); return "docs: document " + topic })
		p.body = ptr(sd.docsPullBody(topic))
		if !g.r.Private && sd.chance(50) {
			// An outside contributor; only a public repository has them.
			p.author = g.w.dave
		}
		label = L.docs
	default:
		it, _ := sd.wishIdea(v)
		p.title = g.unique(func() string { it, _ = sd.wishIdea(v); return it.title })
		p.body = ptr(fmt.Sprintf("## Summary\n\n%s\n\n## Changes\n\n- New option, off by default\n- Editor toggle and REST API field\n- Tests and docs\n", it.solution))
		label = L.feature
	}
	labeler := p.author
	if labeler == g.w.dave {
		labeler = g.w.alice
	}
	p.at(created.Add(10*time.Minute), func(is *state.Issue) { sd.label(is, labeler, label) })
	reviewer := g.w.alice
	if p.author == g.w.alice {
		reviewer = g.w.bob
	}
	at := created
	for k := range sd.rng.IntN(3) {
		at = at.Add(sd.between(time.Hour, 30*time.Hour))
		who, body := reviewer, pullComments[k]
		if k == 2 {
			who = p.author
		}
		p.at(at, func(is *state.Issue) { sd.comment(is, who, body) })
	}
	fate := g.pullFate(i)
	if fate == "open" {
		return p
	}
	p.closing = true
	done := at.Add(sd.between(2*time.Hour, 4*24*time.Hour))
	p.at(done, func(is *state.Issue) { sd.merge(is, reviewer, fate == "merged") })
	if fixes != nil && fate == "merged" {
		fixes.closing = true
		fixes.at(done.Add(30*time.Second), func(is *state.Issue) {
			sd.unlabel(is, reviewer, L.progress, L.triage, L.blocked)
			sd.s.Close(is, reviewer, "completed")
		})
	}
	return p
}

// docsPullBody describes a documentation pull request.
func (sd *seeder) docsPullBody(topic string) string {
	return fmt.Sprintf("## Summary\n\nAdds a page on %s, with a worked example, and links it from the README.\n\n"+
		"## Checklist\n\n- [x] Ran `make docs` and checked the rendered page\n- [x] Links checked with `lychee`\n", topic)
}
