package seed

import (
	"fmt"
	"strings"
	"time"
)

// Composers turn a vocabulary into issue titles and bodies. Each draws its
// pieces from the seeder's fixed-seed source, so the text varies from issue
// to issue but not from run to run.

// upper capitalizes the first letter of a sentence.
func upper(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// some picks n distinct items of xs, keeping their order.
func some[T any](sd *seeder, xs []T, n int) []T {
	idx := sd.rng.Perm(len(xs))[:min(n, len(xs))]
	keep := make([]bool, len(xs))
	for _, i := range idx {
		keep[i] = true
	}
	var out []T
	for i, x := range xs {
		if keep[i] {
			out = append(out, x)
		}
	}
	return out
}

// bugFacts are the pieces a bug report and the pull request fixing it share.
type bugFacts struct {
	comp    component
	sym     symptom
	cond    condition
	version string
	env     string
}

func (sd *seeder) bugFacts(v *vocab, created time.Time) bugFacts {
	c := pick(sd, v.components)
	f := bugFacts{comp: c, version: v.releaseAt(sd, created)}
	if c.front {
		f.sym, f.cond, f.env = pick(sd, v.frontSymptoms), pick(sd, v.frontConditions), pick(sd, v.frontEnvs)
	} else {
		f.sym, f.cond, f.env = pick(sd, v.backSymptoms), pick(sd, v.backConditions), pick(sd, v.backEnvs)
	}
	if own := v.ownSymptoms[c.title]; len(own) > 0 {
		f.sym = pick(sd, own)
	}
	return f
}

func (f bugFacts) title() string { return f.comp.title + " " + f.sym.phrase + " " + f.cond.phrase }

// happened is the opening paragraph of a bug report.
func (sd *seeder) happened(v *vocab, f bugFacts) string {
	var first string
	switch sd.rng.IntN(4) {
	case 0:
		first = fmt.Sprintf("Since upgrading to %s, %s %s %s.", f.version, f.comp.name, f.sym.phrase, f.cond.phrase)
	case 1:
		first = fmt.Sprintf("%s %s %s.", upper(f.comp.name), f.sym.phrase, f.cond.phrase)
	case 2:
		first = fmt.Sprintf("We noticed that %s %s %s.", f.comp.name, f.sym.phrase, f.cond.phrase)
	default:
		first = fmt.Sprintf("%s reliably %s %s; it happens on every attempt for us.", upper(f.comp.name), f.sym.phrase, f.cond.phrase)
	}
	parts := append([]string{first}, some(sd, v.details, 1+sd.rng.IntN(2))...)
	return strings.Join(parts, " ") + fmt.Sprintf("\n\nEnvironment: %s.", f.env)
}

func (sd *seeder) lastStep(v *vocab, f bugFacts) string {
	if f.comp.front {
		return pick(sd, v.frontLast)
	}
	return pick(sd, v.backLast)
}

// formBugBody is a bug report as GitHub renders acme/widgets' issue form.
func (sd *seeder) formBugBody(v *vocab, f bugFacts, created time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### What happened?\n\n%s\n\n", sd.happened(v, f))
	fmt.Fprintf(&b, "### Steps to reproduce\n\n1. %s\n2. %s\n3. %s\n\n", f.comp.setup, f.cond.step, sd.lastStep(v, f))
	expected := f.sym.expected
	if sd.chance(20) {
		expected = "_No response_"
	}
	fmt.Fprintf(&b, "### Expected behavior\n\n%s\n\n### Version\n\n%s\n\n", expected, f.version)
	browsers := "Not browser related (API or CLI)"
	if f.comp.front {
		browsers = strings.Join(some(sd, v.browsers, 1+sd.rng.IntN(2)), ", ")
	}
	fmt.Fprintf(&b, "### Which browsers are affected?\n\n%s\n\n### Relevant log output\n\n", browsers)
	if sd.chance(75) {
		fmt.Fprintf(&b, "```%s\n%s\n```\n\n", v.logLang, v.log(sd, f.comp, created))
	} else {
		b.WriteString("_No response_\n\n")
	}
	b.WriteString("### Code of Conduct\n\n- [X] I agree to follow this project's Code of Conduct")
	return b.String()
}

// freeBugBody is a bug report written without a form.
func (sd *seeder) freeBugBody(v *vocab, f bugFacts, created time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n**Steps to reproduce**\n\n1. %s\n2. %s\n3. %s\n\n", sd.happened(v, f), f.comp.setup, f.cond.step, sd.lastStep(v, f))
	fmt.Fprintf(&b, "**Expected:** %s\n\n**Version:** %s\n", f.sym.expected, f.version)
	if sd.chance(60) {
		fmt.Fprintf(&b, "\n<details><summary>Logs</summary>\n\n```%s\n%s\n```\n\n</details>\n", v.logLang, v.log(sd, f.comp, created))
	}
	return b.String()
}

var docsTitles = []string{
	"Document %s",
	"Docs: explain %s",
	"Add a worked example for %s to the docs",
	"The docs on %s are out of date",
}

var featureContext = []string{
	"Happy to help test a preview build.",
	"Several teams asked for this in our internal channel, so I am filing it on their behalf.",
	"We have a few hundred of these deployed, in case scale changes the answer.",
	"If this is already possible and I missed it, a pointer to the docs would be great.",
	"I could send a pull request if you agree on the approach.",
}

// featureBody follows acme/widgets' Markdown feature request template.
func (sd *seeder) featureBody(it idea) string {
	return fmt.Sprintf("**Is your feature request related to a problem? Please describe.**\n%s\n\n"+
		"**Describe the solution you'd like**\n%s\n\n"+
		"**Describe alternatives you've considered**\n%s\n\n"+
		"**Additional context**\n%s\n", it.problem, it.solution, it.alternative, pick(sd, featureContext))
}

// wishIdea composes a feature request from a wish and a component.
func (sd *seeder) wishIdea(v *vocab) (idea, component) {
	c := pick(sd, v.components)
	w := pick(sd, v.backWishes)
	if c.front {
		w = pick(sd, v.frontWishes)
	}
	return idea{
		title: fmt.Sprintf("Support %s in %s", w, c.name),
		problem: fmt.Sprintf("We rely on %s every day and keep running into the lack of %s. "+
			"It comes up in almost every conversation with our users.", c.name, w),
		solution:    fmt.Sprintf("Offer %s in %s, off by default so nothing changes for existing setups, and configurable in the settings and through the API.", w, c.name),
		alternative: "Post-processing the output ourselves, which we have to redo after every upgrade.",
	}, c
}

var choreTasks = []string{
	"List the current call sites and owners",
	"Land the change behind a feature flag",
	"Update the unit and integration tests",
	"Remove the old code path one release later",
	"Note the change in CHANGELOG.md",
	"Compare size and speed before and after",
}

// choreBody is a maintainer's task note with a checklist.
func (sd *seeder) choreBody(c component) string {
	intro := pick(sd, []string{
		"%s has grown a lot over the last releases and is hard to change safely. No user-visible change is intended.",
		"Follow-up from the last retro: %s is where most of our flaky tests and slow reviews come from.",
		"Small cleanup for %s before the next major release, so the breaking changes land on a simpler base.",
	})
	var b strings.Builder
	fmt.Fprintf(&b, intro+"\n\n", upper(c.name))
	for _, t := range some(sd, choreTasks, 3+sd.rng.IntN(2)) {
		fmt.Fprintf(&b, "- [ ] %s\n", t)
	}
	return b.String()
}

// docsBody asks for documentation on a topic.
func (sd *seeder) docsBody(topic string) string {
	why := pick(sd, []string{
		"I had to read the source to find out, and I expect others will too.",
		"Support gets asked about this every week; a page would save everyone time.",
		"The only mention is in an old changelog entry, which is hard to find.",
	})
	page := strings.NewReplacer(" ", "-", "`", "", "'", "").Replace(strings.ToLower(topic))
	return fmt.Sprintf("The documentation does not explain %s. %s\n\nA good place would be `docs/%s.md`, linked from the README. "+
		"An example with the exact request and response would help most.\n", topic, why, strings.TrimPrefix(page, "the-"))
}

// questionBody is a usage question with what the asker tried.
func (sd *seeder) questionBody(v *vocab) string {
	return fmt.Sprintf("%s\n\nWhat I tried so far:\n\n%s\n\n%s\n",
		pick(sd, []string{
			"I went through the docs and the existing issues but could not find a clear answer.",
			"We are rolling widgets out to more teams and this came up several times.",
			"Probably a simple one, but I am stuck.",
		}),
		pick(sd, v.snippets),
		pick(sd, []string{"Thanks in advance!", "Any pointers appreciated.", "Is this supported, or should I file a feature request instead?"}))
}

var fixCauses = []string{
	"a missing guard for empty input",
	"an off-by-one in the batching loop",
	"state shared between renders that should have been per widget",
	"the time zone being read from the server instead of the dashboard",
	"an error path that never released its resources",
}

// fixPullBody describes a pull request fixing bug #n.
func (sd *seeder) fixPullBody(f bugFacts, n int) string {
	return fmt.Sprintf("## Summary\n\n%s %s %s because of %s. This change handles that case explicitly.\n\nFixes #%d\n\n"+
		"## Changes\n\n- Handle the case in `%s`\n- Add a regression test for the scenario in #%d\n\n"+
		"## Testing\n\n- [x] `make test`\n- [x] Checked by hand on %s\n",
		upper(f.comp.name), f.sym.phrase, f.cond.phrase, pick(sd, fixCauses), n, f.comp.file, n, f.env)
}

// depPullBody describes a dependency bump.
func depPullBody(d dep) string {
	return fmt.Sprintf("Bumps `%s` from %s to %s.\n\n## Changes\n\n- Update `%s` and the lock file\n\n"+
		"The upstream changelog lists bug fixes and performance improvements only; no API we use changed. CI is green.\n",
		d.name, d.from, d.to, d.file)
}

var jsFields = []string{"length", "map", "value", "x", "toFixed", "series"}

var backendFailures = []struct{ msg, err string }{
	{"request failed", "context deadline exceeded"},
	{"query failed", "pq: canceling statement due to statement timeout"},
	{"webhook delivery failed", `Post "https://hooks.example.net/widgets": EOF`},
	{"export failed", "write tcp 10.0.4.17:8080->10.0.2.9:51544: write: broken pipe"},
	{"cache refresh failed", "redis: connection pool timeout"},
}

// widgetsLog is a browser console trace or a server log line.
func widgetsLog(sd *seeder, c component, at time.Time) string {
	if c.front {
		return fmt.Sprintf("Uncaught (in promise) TypeError: Cannot read properties of undefined (reading '%s')\n"+
			"    at %s.render (%s.tsx:%d:%d)\n    at renderWidget (runtime.ts:%d:%d)\n    at async refreshAll (dashboard.ts:%d:7)",
			pick(sd, jsFields), c.file, c.file, 40+sd.rng.IntN(400), 5+sd.rng.IntN(40), 60+sd.rng.IntN(60), 3+sd.rng.IntN(20), 100+sd.rng.IntN(80))
	}
	f := pick(sd, backendFailures)
	t := at.Add(-time.Duration(1+sd.rng.IntN(72)) * time.Hour)
	return fmt.Sprintf("time=%s level=ERROR msg=%q component=%s status=500 duration=%d.%03ds err=%q request_id=%08x",
		t.Format(time.RFC3339), f.msg, c.file, 1+sd.rng.IntN(30), sd.rng.IntN(1000), f.err, sd.rng.Uint32())
}
