package seed

import (
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// seedWidgets fills acme/widgets: [DemoWidgetsIssueCount] issues and pull
// requests over January to September 2026, the curated ones at the numbers
// the Demo* constants name, and the sub-issue and dependency links.
func (sd *seeder) seedWidgets(w *world) {
	g := &repoGen{
		sd: sd, w: w, r: w.widgets, v: widgetsVocab(),
		labels: labelRoles{bug: "bug", feature: "enhancement", docs: "documentation", question: "question",
			duplicate: "duplicate", wontfix: "wontfix", triage: "status: triage", progress: "status: in progress",
			blocked: "status: blocked", high: "priority: high", low: "priority: low", goodFirst: "good first issue",
			help: "help wanted", deps: "dependencies"},
		start: demoStart(), spacing: 34 * time.Hour, count: DemoWidgetsIssueCount,
		typed: true, form: true, untriagedFrom: DemoUntriagedFrom,
		authors:   []*state.Account{w.alice, w.alice, w.bob, w.bob, w.carol, w.carol, w.carol, w.dave, w.dave, w.dave},
		triagers:  w.maintainers(),
		assignees: w.members(),
		pulls:     DemoPulls(),
		pullFate: func(i int) string {
			switch {
			case i == 4:
				return "closed"
			case i < 10:
				return "merged"
			}
			return "open"
		},
		closeOdds: func(n int) int {
			switch {
			case n < 60:
				return 62
			case n < 110:
				return 38
			}
			return 12
		},
	}
	g.milestone = func(p *plan, reason string) *state.Milestone {
		switch {
		case p.kind == kindQuestion:
			return nil
		case p.created.Before(day(2026, time.February, 25)) && reason == "completed" && sd.chance(70):
			return w.v140
		case p.created.After(w.v150.CreatedAt) && p.created.Before(day(2026, time.July, 15)) &&
			(reason == "" || reason == "completed") && sd.chance(35):
			return w.v150
		case p.created.After(w.v200.CreatedAt) && reason == "" && p.kind != kindBug && sd.chance(40):
			return w.v200
		}
		return nil
	}
	st := &widgetsStory{sd: sd, w: w}
	g.curated = map[int]func(time.Time) *plan{
		DemoManyCommentsIssue: st.slowDashboards,
		DemoParentIssue:       st.exportEpic,
		13:                    st.exportJobs,
		DemoNestedParentIssue: st.streamCSV,
		15:                    st.pdfTheme,
		16:                    st.exportDocs,
		17:                    st.csvHeader,
		18:                    st.csvFlush,
		20:                    st.csvProgress,
		DemoLockedIssue:       st.dropV1Embed,
		DemoSecondParentIssue: st.a11yAudit,
		41:                    st.a11yTable,
		42:                    st.a11yChart,
		43:                    st.a11yFocus,
		44:                    st.a11yContrast,
		DemoNotPlannedIssue:   st.ie11,
		DemoBlockerIssue:      st.rendererV5,
		DemoChainIssue:        st.pluginsV5,
		DemoBlockedIssue:      st.tooltips,
		DemoHostileIssue:      st.hostile,
		DemoDuplicateIssue:    st.slowDuplicate,
	}
	g.generate()
	sd.widgetsLinks(w, g)
}

// widgetsLinks plans the sub-issue trees and the blocked-by chains, each a
// little after both ends exist.
func (sd *seeder) widgetsLinks(w *world, g *repoGen) {
	r := w.widgets
	after := func(a, b int, d time.Duration) time.Time {
		t := g.plans[a-1].created
		if c := g.plans[b-1].created; c.After(t) {
			t = c
		}
		return t.Add(d)
	}
	for _, child := range []int{13, DemoNestedParentIssue, 15, 16} {
		sd.link(r, DemoParentIssue, child, w.alice, after(DemoParentIssue, child, 25*time.Minute))
	}
	for _, child := range []int{17, 18, 20} {
		sd.link(r, DemoNestedParentIssue, child, w.bob, after(DemoNestedParentIssue, child, 40*time.Minute))
	}
	for _, child := range []int{41, 42, 43, 44} {
		sd.link(r, DemoSecondParentIssue, child, w.alice, after(DemoSecondParentIssue, child, 15*time.Minute))
	}
	sd.block(r, 16, DemoNestedParentIssue, w.alice, after(16, DemoNestedParentIssue, time.Hour))
	sd.block(r, 18, 17, w.bob, after(18, 17, 50*time.Minute))
	sd.block(r, DemoChainIssue, DemoBlockerIssue, w.alice, after(DemoChainIssue, DemoBlockerIssue, 2*time.Hour))
	sd.block(r, DemoBlockedIssue, DemoChainIssue, w.alice, after(DemoBlockedIssue, DemoChainIssue, 3*time.Hour))
	sd.block(r, DemoBlockedIssue, 42, w.bob, after(DemoBlockedIssue, 42, 26*time.Hour))
}
