package seed

import (
	"fmt"
	"slices"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// labelRoles maps the roles labels play to a repository's label names;
// an empty name means the repository has no such label.
type labelRoles struct {
	bug, feature, chore, docs, question string
	duplicate, wontfix                  string
	triage, progress, blocked           string
	high, low, goodFirst, help, deps    string
}

func (l labelRoles) forKind(k kind) string {
	switch k {
	case kindBug:
		return l.bug
	case kindFeature:
		return l.feature
	case kindChore:
		return l.chore
	case kindDocs:
		return l.docs
	case kindQuestion:
		return l.question
	}
	return ""
}

// repoGen generates one repository's issues: curated ones at fixed
// numbers, pull requests at fixed numbers, and the rest composed from the
// repository's vocabulary, each with a plausible life (triage, labels,
// assignees, milestone, comments, closing).
type repoGen struct {
	sd      *seeder
	w       *world
	r       *state.Repo
	v       *vocab
	labels  labelRoles
	start   time.Time
	spacing time.Duration
	count   int
	// typed repositories belong to an organization with issue types.
	typed bool
	// form repositories file most bug reports through an issue form.
	form bool
	// untriagedFrom is the first number nobody has triaged yet (0: none).
	untriagedFrom int
	authors       []*state.Account // weighted by repetition
	triagers      []*state.Account
	assignees     []*state.Account
	curated       map[int]func(created time.Time) *plan
	pulls         []int
	// pullFate says, per pull request in order, "merged", "closed" or "open".
	pullFate func(i int) string
	// closeOdds is the chance, in percent, that issue n is closed by now.
	closeOdds func(n int) int
	milestone func(p *plan, reason string) *state.Milestone

	plans  []*plan
	titles map[string]bool
	facts  map[*plan]bugFacts
}

// createdAt spreads issue n over the repository's period, with jitter.
func (g *repoGen) createdAt(n int) time.Time {
	t := g.start.Add(time.Duration(n-1) * g.spacing)
	return t.Add(time.Duration(g.sd.rng.Int64N(int64(g.spacing / 3)))).Truncate(time.Second)
}

// generate plans every issue of the repository and materializes them.
func (g *repoGen) generate() {
	g.titles, g.facts = map[string]bool{}, map[*plan]bugFacts{}
	for n := 1; n <= g.count; n++ {
		created := g.createdAt(n)
		var p *plan
		switch {
		case g.curated[n] != nil:
			p = g.curated[n](created)
			p.created = created
			g.titles[p.title] = true
		case slices.Contains(g.pulls, n):
			p = g.pull(n, slices.Index(g.pulls, n), created)
		default:
			p = g.issue(n, created)
		}
		g.plans = append(g.plans, p)
	}
	g.sd.materialize(g.r, g.plans)
}

// unique draws titles until one is new; the bound keeps the loop finite
// and the rare repeat gets a distinguishing suffix.
func (g *repoGen) unique(draw func() string) string {
	t := draw()
	for i := 0; i < 20 && g.titles[t]; i++ {
		t = draw()
	}
	for i := 2; g.titles[t]; i++ {
		t = fmt.Sprintf("%s (%d)", t, i)
	}
	g.titles[t] = true
	return t
}

func (g *repoGen) pickKind() kind {
	switch x := g.sd.rng.IntN(100); {
	case x < 44:
		return kindBug
	case x < 70:
		return kindFeature
	case x < 84:
		return kindChore
	case x < 93:
		return kindDocs
	default:
		return kindQuestion
	}
}

// issue composes a generated issue and plans its life.
func (g *repoGen) issue(n int, created time.Time) *plan {
	sd, v := g.sd, g.v
	p := &plan{kind: g.pickKind(), author: pick(sd, g.authors), created: created}
	var thing, area string
	var f bugFacts
	form := false
	switch p.kind {
	case kindBug:
		form = g.form && n < g.untriagedFrom && sd.chance(70)
		p.title = g.unique(func() string { f = sd.bugFacts(v, created); return f.title() })
		if form {
			p.title = "[Bug]: " + p.title
			p.body = ptr(sd.formBugBody(v, f, created))
		} else {
			p.body = ptr(sd.freeBugBody(v, f, created))
		}
		g.facts[p] = f
		thing, area = f.comp.name, f.comp.area
	case kindFeature:
		var it idea
		var c component
		p.title = g.unique(func() string {
			if sd.chance(50) {
				// Written-out ideas span components: no area label.
				it, c = pick(sd, v.ideas), component{}
			} else {
				it, c = sd.wishIdea(v)
			}
			return it.title
		})
		p.body = ptr(sd.featureBody(it))
		if g.form && sd.chance(30) {
			// Filed through the Markdown template, title prefix kept.
			p.title = g.unique(func() string { return "[Feature]: " + it.title })
		}
		thing, area = c.name, c.area
	case kindChore:
		var c component
		p.title = g.unique(func() string {
			c = pick(sd, v.components)
			if c.front {
				return fmt.Sprintf(pick(sd, v.frontChores), c.name)
			}
			return fmt.Sprintf(pick(sd, v.backChores), c.name)
		})
		p.author = pick(sd, g.triagers)
		if sd.chance(65) {
			p.body = ptr(sd.choreBody(c))
		}
		thing, area = c.name, c.area
	case kindDocs:
		var topic string
		p.title = g.unique(func() string {
			topic = pick(sd, v.docTopics)
			return fmt.Sprintf(pick(sd, docsTitles), topic)
		})
		p.body = ptr(sd.docsBody(topic))
		thing = topic
	case kindQuestion:
		var q qa
		p.title = g.unique(func() string { q = pick(sd, v.questions); return q.question })
		p.answer = q.answer
		p.body = ptr(sd.questionBody(v))
		thing = "that"
	}
	g.life(n, p, form, thing, area, f)
	return p
}

// life plans triage, labels, type, assignees, milestone, comments and
// closing for a generated issue.
func (g *repoGen) life(n int, p *plan, form bool, thing, area string, f bugFacts) {
	sd, L := g.sd, g.labels
	author := p.author
	if form {
		// The form applies its labels as the issue is filed.
		p.at(p.created, func(is *state.Issue) { sd.label(is, author, L.bug, L.triage) })
	}
	version, env := f.version, f.env
	if version == "" {
		version, env = g.v.releaseAt(sd, p.created), pick(sd, g.v.backEnvs)
	}
	if g.untriagedFrom > 0 && n >= g.untriagedFrom {
		// Nobody has looked at the newest issues yet.
		if sd.chance(40) {
			other := pick(sd, g.authors)
			p.at(p.created.Add(sd.between(2*time.Hour, 30*time.Hour)), func(is *state.Issue) {
				sd.comment(is, other, fill(pick(sd, g.v.comments(p.kind).others), author, other, version, env, thing, g.ref(n)))
			})
		}
		return
	}

	tri := pick(sd, g.triagers)
	t := p.created.Add(sd.between(90*time.Minute, 40*time.Hour))
	labels := []string{area}
	if !form {
		labels = append(labels, L.forKind(p.kind))
	}
	switch {
	case p.kind == kindBug && sd.chance(22):
		labels = append(labels, L.high)
	case p.kind != kindQuestion && sd.chance(20):
		labels = append(labels, L.low)
	}
	if (p.kind == kindDocs || p.kind == kindChore) && sd.chance(35) {
		labels = append(labels, L.goodFirst)
	} else if p.kind == kindFeature && sd.chance(15) {
		labels = append(labels, L.help)
	}
	p.at(t, func(is *state.Issue) { sd.label(is, tri, labels...) })
	if g.typed && sd.chance(75) {
		typ := map[kind]string{kindBug: "Bug", kindFeature: "Feature"}[p.kind]
		if typ == "" && p.kind != kindQuestion {
			typ = "Task"
		}
		if typ != "" {
			p.at(t, func(is *state.Issue) { sd.setType(is, typ) })
		}
	}

	reason := ""
	if sd.chance(g.closeOdds(n)) {
		switch x := sd.rng.IntN(100); {
		case x < 72 || p.kind == kindQuestion:
			reason = "completed"
		case x < 88:
			reason = "not_planned"
		default:
			reason = "duplicate"
		}
	}
	var assignee *state.Account
	if p.kind != kindQuestion && sd.chance(45) {
		assignee = pick(sd, g.assignees)
		p.at(t.Add(time.Minute), func(is *state.Issue) { sd.s.Assign(is, tri, assignee) })
	}
	if m := g.milestone(p, reason); m != nil {
		p.at(t.Add(2*time.Minute), func(is *state.Issue) { sd.s.SetMilestone(is, tri, m) })
	}
	// At most one status label: triage until someone decides, in progress
	// once assigned, now and then blocked.
	inTriage := form && assignee == nil && reason == "" && sd.chance(50)
	if form && !inTriage {
		p.at(t.Add(3*time.Minute), func(is *state.Issue) { sd.unlabel(is, tri, L.triage) })
	}
	if reason == "" && !inTriage {
		status := ""
		switch x := sd.rng.IntN(100); {
		case assignee != nil:
			status = L.progress
		case x < 25:
			status = L.triage
		case x < 35:
			status = L.blocked
		}
		p.at(t.Add(4*time.Minute), func(is *state.Issue) { sd.label(is, tri, status) })
	}

	last := g.converse(n, p, tri, reason, version, env, thing, t)
	if reason == "" {
		p.fixable = p.kind == kindBug
		return
	}
	p.closing = true
	closer := tri
	if assignee != nil && assignee != g.w.carol {
		closer = assignee
	}
	dup := g.ref(n)
	p.at(last.Add(sd.between(2*time.Hour, 9*24*time.Hour)), func(is *state.Issue) {
		switch reason {
		case "not_planned":
			sd.label(is, closer, L.wontfix)
		case "duplicate":
			sd.comment(is, closer, fmt.Sprintf("Duplicate of #%d", dup))
			sd.label(is, closer, L.duplicate)
		}
		sd.unlabel(is, closer, L.progress, L.triage, L.blocked)
		sd.s.Close(is, closer, reason)
	})
}

// converse plans a generated issue's comments and returns when the last
// one is posted.
func (g *repoGen) converse(n int, p *plan, maintainer *state.Account, reason, version, env, thing string, t time.Time) time.Time {
	sd := g.sd
	pools := g.v.comments(p.kind)
	author := p.author
	type line struct {
		who  *state.Account
		tmpl string
	}
	var lines []line
	if sd.chance(70) || p.answer != "" {
		first := pick(sd, pools.first)
		if p.answer != "" {
			first = p.answer
		}
		lines = append(lines, line{maintainer, first})
		if sd.chance(55) {
			lines = append(lines, line{author, pick(sd, pools.reply)})
		}
		for range sd.rng.IntN(3) {
			lines = append(lines, line{g.bystander(author, maintainer), pick(sd, pools.others)})
		}
		switch {
		case reason == "completed" && sd.chance(60):
			lines = append(lines, line{maintainer, pick(sd, pools.closing)})
		case reason == "not_planned" && len(pools.declined) > 0:
			lines = append(lines, line{maintainer, pick(sd, pools.declined)})
		}
	}
	at := t
	for _, l := range lines {
		at = at.Add(sd.between(40*time.Minute, 3*24*time.Hour))
		body := fill(l.tmpl, author, maintainer, version, env, thing, g.ref(n))
		who := l.who
		p.at(at, func(is *state.Issue) { sd.comment(is, who, body) })
	}
	return at
}

// bystander is someone other than the reporter and the maintainer.
func (g *repoGen) bystander(author, maintainer *state.Account) *state.Account {
	for range 10 {
		if a := pick(g.sd, g.authors); a != author && a != maintainer {
			return a
		}
	}
	return author
}

// ref is an earlier issue (not a pull request) to mention from issue n.
func (g *repoGen) ref(n int) int {
	if n <= 2 {
		return 1
	}
	for range 10 {
		m := 1 + g.sd.rng.IntN(n-1)
		if !slices.Contains(g.pulls, m) {
			return m
		}
	}
	return 1
}
