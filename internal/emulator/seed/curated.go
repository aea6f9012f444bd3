package seed

import (
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// widgetsStory holds acme/widgets' hand-written issues: the ones the Demo*
// constants name and the members of their sub-issue trees and dependency
// chains. Each method returns the plan for an issue created at the time
// given.
type widgetsStory struct {
	sd *seeder
	w  *world
}

type said struct {
	who  *state.Account
	text string
}

func hours(n int) time.Duration { return time.Duration(n) * time.Hour }
func days(n int) time.Duration  { return time.Duration(n) * 24 * time.Hour }

// talk plans comments from start on, gap apart.
func (st *widgetsStory) talk(p *plan, start time.Time, gap time.Duration, lines ...said) time.Time {
	at := start
	for _, l := range lines {
		who, text := l.who, l.text
		p.at(at, func(is *state.Issue) { st.sd.comment(is, who, text) })
		at = at.Add(gap)
	}
	return at
}

// triage plans labels, the issue type, assignees and a milestone at t.
func (st *widgetsStory) triage(p *plan, t time.Time, actor *state.Account, typ string, labels []string, assignees []*state.Account, m *state.Milestone) {
	sd := st.sd
	p.at(t, func(is *state.Issue) {
		sd.label(is, actor, labels...)
		if typ != "" {
			sd.setType(is, typ)
		}
		if len(assignees) > 0 {
			sd.s.Assign(is, actor, assignees...)
		}
	})
	if m != nil {
		// A milestone can only be set once it exists.
		if early := m.CreatedAt.Add(26 * time.Hour); t.Before(early) {
			t = early
		}
		p.at(t, func(is *state.Issue) { sd.s.SetMilestone(is, actor, m) })
	}
}

func (st *widgetsStory) closeAt(p *plan, t time.Time, actor *state.Account, reason string, drop ...string) {
	p.closing = true
	p.at(t, func(is *state.Issue) {
		st.sd.unlabel(is, actor, drop...)
		st.sd.s.Close(is, actor, reason)
	})
}

func (st *widgetsStory) slowDashboards(c time.Time) *plan {
	w := st.w
	p := &plan{kind: kindBug, author: w.dave, created: c,
		title: "Dashboard load time regressed about 3x after upgrading to v1.3.7",
		body: ptr("After upgrading from v1.3.6 to v1.3.7, our main operations dashboard (14 widgets, mostly charts) " +
			"takes 9 to 11 seconds to become interactive instead of 3 to 4.\n\n" +
			"Measured with the browser's performance panel, cold cache, same data:\n\n" +
			"| version | first widget | all widgets | requests |\n|---|---|---|---|\n" +
			"| v1.3.6 | 0.8 s | 3.4 s | 31 |\n| v1.3.7 | 1.1 s | 10.2 s | 97 |\n\n" +
			"The request count stands out: every chart seems to fetch its query three times.\n\n" +
			"**Steps to reproduce**\n\n1. Create a dashboard with 10+ chart widgets on the same data source\n" +
			"2. Open it with the cache disabled (DevTools → Network → Disable cache)\n" +
			"3. Count the `POST /api/v2/query` requests\n\n" +
			"**Environment:** self-hosted, Docker image on Kubernetes 1.31, Chrome 132.\n")}
	st.triage(p, c.Add(hours(3)), w.alice, "Bug", []string{"bug", "priority: high", "area: ui"}, nil, nil)
	st.talk(p, c.Add(hours(5)), days(6)+hours(7),
		said{w.alice, "Thanks for the numbers, @dave, that table makes this easy to follow. I can reproduce it: three query requests per chart on v1.3.7, one on v1.3.6."},
		said{w.bob, "Bisected: it starts with the change that moved theme loading into each widget. Every theme update re-runs the data effect, and the theme is applied three times while mounting."},
		said{w.dave, "Interesting. We use a custom theme; would the default theme avoid it?"},
		said{w.bob, "Partly. With the default theme it is two fetches per chart instead of three. Still one too many."},
		said{w.carol, "Our internal sales dashboard shows the same pattern: 18 widgets, 14 s to load. Adding it here instead of opening a new issue."},
		said{w.alice, "Assigning @bob. Let's target v1.4.0 if the fix stays small, otherwise v1.5.0."},
		said{w.bob, "Draft fix: memoize the resolved theme and key the data effect on the query only. Locally: 97 → 33 requests, 10.2 s → 3.6 s."},
		said{w.dave, "Happy to try a preview build on our staging cluster."},
		said{w.bob, "Preview image: `ghcr.io/acme/widgets:pr-1287`. It is the v1.3.7 tag plus the fix."},
		said{w.dave, "Staging results: 3.9 s to interactive, 33 requests. Much better. One chart (the stacked area) still fetches twice."},
		said{w.bob, "The stacked area chart has its own legend effect that also reads the theme. Same fix applies; pushed an update to the preview."},
		said{w.carol, "Confirmed on the sales dashboard with the updated preview: 4.2 s, down from 14."},
		said{w.alice, "The fix touches the widget runtime, which we are also changing for the v5 renderer (#53). Moving this to v1.5.0 so we do not ship it twice."},
		said{w.dave, "Understood, though v1.5.0 is a long way off for us. Any chance of a v1.4.x backport?"},
		said{w.alice, "Fair point. We'll backport the minimal part (the memoized theme) to v1.4.1; the rest lands with v1.5.0."},
		said{w.bob, "The backport is on the v1.4.1 branch. Leaving this open until the full fix ships in v1.5.0."},
	)
	st.triage(p, c.Add(days(31)), w.alice, "", []string{"status: in progress"}, []*state.Account{w.bob}, w.v150)
	return p
}

func (st *widgetsStory) exportEpic(c time.Time) *plan {
	w := st.w
	p := &plan{kind: kindFeature, author: w.alice, created: c,
		title: "Epic: rework the export pipeline (CSV, PDF, PNG)",
		body: ptr("Exports are our most common source of timeouts and support tickets. This epic tracks the rework; each part is a sub-issue.\n\n" +
			"## Goals\n\n- No export blocks a request thread: everything runs as a background job\n" +
			"- CSV streams rows, so memory stays flat whatever the size\n- PDF and PNG use the dashboard's theme\n" +
			"- Limits and timeouts are documented\n\n## Non-goals\n\n- New export formats (tracked separately)\n" +
			"- Scheduled reports (see the scheduler work)\n\n## Rollout\n\n" +
			"Behind the `exports.v2` flag in v1.5.0, on by default in v2.0.0.\n")}
	st.triage(p, c.Add(hours(1)), w.alice, "Feature", []string{"enhancement", "area: api"}, []*state.Account{w.alice}, nil)
	st.triage(p, c.Add(days(14)), w.alice, "", nil, nil, w.v150)
	st.talk(p, c.Add(days(2)), days(9),
		said{w.bob, "I'll take the job queue part (#13) first; it unblocks everything else."},
		said{w.carol, "From the support side: most export tickets are CSVs over 50k rows. Streaming would close about two thirds of them."},
	)
	return p
}

func (st *widgetsStory) exportJobs(c time.Time) *plan {
	w := st.w
	p := &plan{kind: kindChore, author: w.bob, created: c,
		title: "Export: run large exports as background jobs",
		body: ptr("Exports currently run inside the HTTP request and die at the 30 s proxy timeout.\n\n" +
			"- [x] Add an `export_jobs` table and a worker pool (size from `exports.workers`)\n" +
			"- [x] `POST /api/v2/exports` returns `202` with a status URL\n" +
			"- [x] The UI polls the status URL and downloads the file when ready\n" +
			"- [x] Jobs older than 24 h are cleaned up\n")}
	st.triage(p, c.Add(hours(2)), w.bob, "Task", []string{"area: api"}, []*state.Account{w.bob}, w.v140)
	st.talk(p, c.Add(days(12)), days(3),
		said{w.bob, "Worker pool and status API are merged. The UI part is in review."},
		said{w.alice, "Tried it on staging with a 400k-row export: 41 s, no timeout. Nice."},
	)
	st.closeAt(p, c.Add(days(19)), w.bob, "completed")
	return p
}

func (st *widgetsStory) streamCSV(c time.Time) *plan {
	w := st.w
	p := &plan{kind: kindFeature, author: w.alice, created: c,
		title: "Export: stream CSV rows instead of buffering the whole result",
		body: ptr("The CSV exporter builds the whole file in memory before writing it. A 2 million row export peaks at 3.1 GB RSS " +
			"and has taken down a worker twice this month.\n\n" +
			"Stream instead: write rows as query pages arrive, with back-pressure from the client connection. " +
			"The sub-issues split this into reviewable steps.\n")}
	st.triage(p, c.Add(hours(1)), w.alice, "Feature", []string{"enhancement", "area: api", "status: in progress"}, []*state.Account{w.bob}, w.v150)
	st.talk(p, c.Add(days(4)), days(5),
		said{w.bob, "Prototype streams a 2M row export at a flat 60 MB RSS. Splitting it into the header, flushing and progress parts."},
	)
	return p
}

func (st *widgetsStory) pdfTheme(c time.Time) *plan {
	w := st.w
	p := &plan{kind: kindBug, author: w.carol, created: c,
		title: "Export: render PDF exports with the dashboard theme",
		body: ptr("PDF exports always use the light default theme, whatever the dashboard uses. Customers with dark or branded themes " +
			"get reports that look nothing like what they see on screen, and the brand colours in their legends are lost.\n\n" +
			"Expected: the PDF renderer resolves the dashboard's theme tokens the same way the browser does.\n")}
	st.triage(p, c.Add(hours(6)), w.alice, "Bug", []string{"bug", "area: api"}, nil, w.v150)
	return p
}

func (st *widgetsStory) exportDocs(c time.Time) *plan {
	w := st.w
	p := &plan{kind: kindDocs, author: w.carol, created: c,
		title: "Export: document size limits and timeouts",
		body: ptr("Once streaming lands, document the limits: maximum rows per format, the job timeout, how long finished files are kept, " +
			"and what the status API returns when a limit is hit. Support needs a page to link to.\n")}
	st.triage(p, c.Add(hours(4)), w.alice, "Task", []string{"documentation", "good first issue"}, nil, nil)
	return p
}

func (st *widgetsStory) csvHeader(c time.Time) *plan {
	w := st.w
	p := &plan{kind: kindChore, author: w.bob, created: c,
		title: "Stream CSV: send the header row before the first query page arrives",
		body: ptr("Write the header as soon as the query's columns are known, so the download starts immediately and proxies " +
			"do not time out an idle connection while the first page is computed.\n")}
	st.triage(p, c.Add(hours(1)), w.bob, "Task", []string{"area: api"}, []*state.Account{w.bob}, w.v150)
	st.closeAt(p, c.Add(days(9)), w.bob, "completed")
	return p
}

func (st *widgetsStory) csvFlush(c time.Time) *plan {
	w := st.w
	p := &plan{kind: kindChore, author: w.bob, created: c,
		title: "Stream CSV: flush every 1,000 rows and stop when the client disconnects",
		body: ptr("Flush the writer every 1,000 rows (configurable) and watch the request context: when the client goes away, " +
			"cancel the query instead of computing the rest of the export for nobody.\n\n" +
			"- [ ] Flush interval setting\n- [ ] Cancel the query on disconnect\n- [ ] Metric for cancelled exports\n")}
	st.triage(p, c.Add(hours(1)), w.bob, "Task", []string{"area: api", "status: in progress"}, []*state.Account{w.bob}, w.v150)
	return p
}

func (st *widgetsStory) csvProgress(c time.Time) *plan {
	w := st.w
	p := &plan{kind: kindFeature, author: w.carol, created: c,
		title: "Stream CSV: report progress in the export status API",
		body: ptr("With streaming there is no total up front, but we can report rows and bytes written so far. " +
			"The UI would show \"12,400 rows (3.1 MB)…\" instead of a spinner.\n")}
	st.triage(p, c.Add(hours(5)), w.alice, "Feature", []string{"enhancement", "area: api", "help wanted"}, nil, w.v150)
	return p
}

func (st *widgetsStory) dropV1Embed(c time.Time) *plan {
	w := st.w
	p := &plan{kind: kindChore, author: w.alice, created: c,
		title: "Drop support for the legacy v1 embed snippet",
		body: ptr("The v1 embed snippet (`<script src=\".../embed.v1.js\">` with `data-widget-id`) was deprecated in v1.2, two years ago. " +
			"It bypasses the SDK's sandboxing, cannot use themes, and costs us about a day a month in support.\n\n" +
			"## Proposal\n\n- v1.5.0: log a console warning on every v1 embed\n- v2.0.0: remove it; v1 embeds show a link to the migration guide\n\n" +
			"The migration is a two-line change per page; `widgetctl embeds migrate` rewrites them automatically.\n")}
	st.triage(p, c.Add(hours(2)), w.alice, "Task", []string{"area: ui", "enhancement"}, []*state.Account{w.alice}, nil)
	end := st.talk(p, c.Add(hours(20)), hours(19),
		said{w.dave, "This would break more than 200 customer sites for us. Not everyone can redeploy their pages on your schedule."},
		said{w.bob, "The v1 snippet keeps working through all of v1.x. v2.0.0 is at least six months away, and the migration tool handles the rewrite."},
		said{w.dave, "\"At least six months\" is nothing for customers who update their sites once a year. This is a terrible decision and it feels like nobody here has ever run a real deployment."},
		said{w.carol, "Let's keep this constructive please. @dave, would a longer deprecation window, or a compatibility shim you host yourself, work for you?"},
		said{w.dave, "What would work is not breaking things that work. I am done explaining this; every release you break something else."},
		said{w.alice, "We hear the concern, and we'll look at a self-hosted shim for v2.0.0. I am locking this thread because it has become too heated; please open a new issue with concrete migration blockers."},
	)
	reason := "too heated"
	p.at(end, func(is *state.Issue) { st.sd.s.LockIssue(is, w.alice, &reason) })
	st.triage(p, day(2026, time.April, 21).Add(hours(10)), w.alice, "", nil, nil, w.v200)
	return p
}

func (st *widgetsStory) a11yAudit(c time.Time) *plan {
	w := st.w
	p := &plan{kind: kindChore, author: w.alice, created: c,
		title: "Accessibility audit follow-ups (WCAG 2.2 AA)",
		body: ptr("The external accessibility audit came back with 4 findings for the widgets themselves. Each is a sub-issue. " +
			"Target: all fixed by v1.5.0, so the next audit passes.\n\n" +
			"Report: `audits/2026-02-wcag.pdf` in the shared drive (internal).\n")}
	st.triage(p, c.Add(hours(1)), w.alice, "Task", []string{"area: ui", "priority: high"}, []*state.Account{w.carol}, w.v150)
	return p
}

func (st *widgetsStory) a11yTable(c time.Time) *plan {
	w := st.w
	p := &plan{kind: kindBug, author: w.alice, created: c,
		title: "Table widget: sortable headers are not announced as buttons",
		body: ptr("Screen readers read the sortable column headers as plain text, so there is no way to know they can be activated.\n\n" +
			"Fix: render them as `<button>` inside `<th>` with `aria-sort` on the header cell.\n")}
	st.triage(p, c.Add(hours(1)), w.alice, "Bug", []string{"bug", "area: ui", "good first issue"}, nil, w.v150)
	return p
}

func (st *widgetsStory) a11yChart(c time.Time) *plan {
	w := st.w
	p := &plan{kind: kindBug, author: w.alice, created: c,
		title: "Chart widget: expose data points to screen readers",
		body: ptr("Charts are a single `<canvas>` with no text alternative. The audit asks for a data table alternative " +
			"(visually hidden, or behind a \"Show data\" toggle) and keyboard navigation between points.\n")}
	st.triage(p, c.Add(hours(1)), w.alice, "Bug", []string{"bug", "area: ui"}, []*state.Account{w.carol}, w.v150)
	return p
}

func (st *widgetsStory) a11yFocus(c time.Time) *plan {
	w := st.w
	p := &plan{kind: kindBug, author: w.carol, created: c,
		title: "Widget editor: focus is lost after closing the colour picker",
		body: ptr("After closing the colour picker with `Escape`, focus goes to `<body>` instead of back to the swatch that opened it. " +
			"Keyboard users have to tab through the whole page again.\n")}
	st.triage(p, c.Add(hours(1)), w.alice, "Bug", []string{"bug", "area: ui"}, nil, w.v150)
	return p
}

func (st *widgetsStory) a11yContrast(c time.Time) *plan {
	w := st.w
	p := &plan{kind: kindBug, author: w.carol, created: c,
		title: "Theme engine: default palette fails 4.5:1 contrast for small text",
		body: ptr("Axis labels in the default light palette are `#9aa0a6` on white: 2.6:1. Small text needs 4.5:1.\n\n" +
			"Proposed: `#5f6368` (6.0:1) for axis labels and legends.\n")}
	st.triage(p, c.Add(hours(1)), w.alice, "Bug", []string{"bug", "area: ui"}, []*state.Account{w.carol}, w.v150)
	st.talk(p, c.Add(days(3)), days(1), said{w.carol, "Changed the token and updated the visual snapshots."})
	st.closeAt(p, c.Add(days(5)), w.carol, "completed")
	return p
}

func (st *widgetsStory) ie11(c time.Time) *plan {
	w := st.w
	p := &plan{kind: kindFeature, author: w.dave, created: c,
		title: "[Feature]: Support Internet Explorer 11 in the embed SDK",
		body: ptr(st.sd.featureBody(idea{
			problem:     "Some of our customers' intranets still run IE 11 in enterprise mode, and the embed SDK shows a blank area there.",
			solution:    "A legacy build of the SDK (ES5, no web components) that the snippet loads when it detects IE 11.",
			alternative: "Screenshots refreshed by a cron job, which our customers do not like.",
		}))}
	st.triage(p, c.Add(hours(5)), w.bob, "Feature", []string{"enhancement", "area: ui"}, nil, nil)
	st.talk(p, c.Add(hours(9)), hours(30),
		said{w.bob, "Thanks for the detailed request, @dave. IE 11 has been out of support since 2022 and the SDK depends on web components and ES2020; a legacy build would be a second product."},
		said{w.alice, "Agreed, we won't do this. The static image export (PNG) is the suggested fallback for legacy browsers."},
	)
	p.at(c.Add(hours(40)), func(is *state.Issue) { st.sd.label(is, w.alice, "wontfix") })
	st.closeAt(p, c.Add(hours(40)+time.Minute), w.alice, "not_planned")
	return p
}

func (st *widgetsStory) rendererV5(c time.Time) *plan {
	w := st.w
	p := &plan{kind: kindChore, author: w.bob, created: c,
		title: "Upgrade the chart runtime to the v5 renderer",
		body: ptr("The v5 renderer draws incrementally and cuts the render time of large series by about 60% in our benchmarks.\n\n" +
			"- [x] Swap the runtime behind `charts.renderer: v5`\n- [x] Fix the visual snapshot diffs\n" +
			"- [x] Benchmark the 100k-point sample before and after\n")}
	st.triage(p, c.Add(hours(2)), w.bob, "Task", []string{"area: ui", "status: in progress"}, []*state.Account{w.bob}, w.v150)
	st.talk(p, c.Add(days(6)), days(5),
		said{w.bob, "Benchmarks: 100k-point line chart 1.9 s → 0.7 s; memory flat. Snapshots updated."},
		said{w.alice, "Merged. Custom plugins are the remaining work, tracked in #54."},
	)
	st.closeAt(p, c.Add(days(13)), w.bob, "completed", "status: in progress")
	return p
}

func (st *widgetsStory) pluginsV5(c time.Time) *plan {
	w := st.w
	p := &plan{kind: kindChore, author: w.alice, created: c,
		title: "Migrate custom chart plugins to the v5 plugin API",
		body: ptr("Five first-party plugins (annotations, thresholds, forecast band, heatmap legend, sparkline) use the v4 hooks. " +
			"Port them to the v5 plugin API and publish a migration note for third-party plugin authors.\n")}
	st.triage(p, c.Add(hours(2)), w.alice, "Task", []string{"area: ui", "status: blocked"}, []*state.Account{w.bob}, w.v150)
	return p
}

func (st *widgetsStory) tooltips(c time.Time) *plan {
	w := st.w
	p := &plan{kind: kindFeature, author: w.carol, created: c,
		title: "Enable the new chart tooltips by default",
		body: ptr(st.sd.featureBody(idea{
			problem:     "The new tooltips (multi-series, keyboard reachable, pinned on click) are behind `charts.tooltips: v2` and almost nobody finds the flag.",
			solution:    "Make v2 the default once the plugins are on v5 and the screen reader work in #42 is done; keep `v1` as an opt-out for one release.",
			alternative: "Announcing the flag more loudly. It has been in the release notes twice already.",
		}))}
	st.triage(p, c.Add(hours(3)), w.alice, "Feature", []string{"enhancement", "area: ui", "status: blocked"}, nil, w.v150)
	return p
}

func (st *widgetsStory) slowDuplicate(c time.Time) *plan {
	w := st.w
	p := &plan{kind: kindBug, author: w.carol, created: c,
		title: "Dashboards take 10+ seconds to load since 1.3.7",
		body: ptr("Several customers report that large dashboards became much slower after the upgrade to 1.3.7. " +
			"The network tab shows many repeated `POST /api/v2/query` calls for the same widget.\n\n" +
			"Affected dashboards have 12 to 20 widgets; small dashboards look fine.\n")}
	st.talk(p, c.Add(hours(4)), time.Hour,
		said{w.alice, "Duplicate of #9"},
	)
	p.at(c.Add(hours(4)+time.Minute), func(is *state.Issue) { st.sd.label(is, w.alice, "duplicate") })
	st.closeAt(p, c.Add(hours(4)+2*time.Minute), w.alice, "duplicate")
	return p
}

func (st *widgetsStory) hostile(c time.Time) *plan {
	w := st.w
	p := &plan{kind: kindBug, author: w.dave, created: c,
		title: "[Bug]: CSV export of a filtered table widget only contains the first page",
		body:  ptr(hostileBody())}
	p.at(c, func(is *state.Issue) { st.sd.label(is, w.dave, "bug", "status: triage") })
	st.triage(p, c.Add(hours(7)), w.bob, "Bug", []string{"area: api"}, nil, nil)
	st.talk(p, c.Add(hours(8)), hours(20),
		said{w.carol, "I can reproduce the truncation on v1.4.0: the export stops at the page size (50 rows) whenever a filter is active."},
		said{w.bob, "Thanks both. The filter is applied to the paginated query instead of the export query; this is separate from the streaming work."},
	)
	return p
}
