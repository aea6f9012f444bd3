package seed

import "time"

// The word lists the seed composes issue text from. Each product (widgets,
// gadgets) has its own vocabulary; compose.go turns a vocabulary into
// titles and bodies.

type kind int

const (
	kindBug kind = iota
	kindFeature
	kindChore
	kindDocs
	kindQuestion
	kindPull
)

// component is a part of the product an issue is about.
type component struct {
	name  string // mid-sentence: "the chart widget"
	title string // at the start of a title: "Chart widget"
	area  string // the label for its area
	front bool   // user-facing (browser, app) rather than server or device
	setup string // the first reproduction step
	file  string // where its stack traces and log lines come from
}

// symptom is what goes wrong, and what should have happened instead.
type symptom struct{ phrase, expected string }

// condition is when it goes wrong, and the step that gets there.
type condition struct{ phrase, step string }

type release struct {
	version string
	at      time.Time
}

// idea is a feature request written out in the feature template's parts.
type idea struct{ title, problem, solution, alternative string }

// qa is a usage question and a maintainer's answer.
type qa struct{ question, answer string }

// dep is a dependency a chore or a pull request bumps.
type dep struct{ name, from, to, file string }

type vocab struct {
	components                  []component
	frontSymptoms, backSymptoms []symptom
	// ownSymptoms, by component title, replace the shared lists for
	// components that only fail in their own ways.
	ownSymptoms                     map[string][]symptom
	frontConditions, backConditions []condition
	releases                        []release
	frontEnvs, backEnvs             []string
	browsers                        []string
	ideas                           []idea
	// Wishes combine with user-facing (front) or other (back) components
	// into further feature requests.
	frontWishes, backWishes []string
	// Chores are task titles for front or back components; %s is the
	// component's name.
	frontChores, backChores []string
	docTopics               []string
	questions               []qa
	deps                    []dep
	// details are extra sentences for a bug report's first paragraph.
	details []string
	// frontLast and backLast are last reproduction steps.
	frontLast, backLast []string
	// snippets are what a question's asker tried.
	snippets []string
	// comments are the comment pools per kind of issue.
	comments func(kind) commentPools
	// log renders a log excerpt for a component.
	log func(sd *seeder, c component, at time.Time) string
	// logLang tags the fenced log block.
	logLang string
}

// releaseAt is the newest release out at t, or sometimes the one before
// (people lag behind).
func (v *vocab) releaseAt(sd *seeder, t time.Time) string {
	i := 0
	for j, r := range v.releases {
		if !r.at.After(t) {
			i = j
		}
	}
	if i > 0 && sd.chance(25) {
		i--
	}
	return v.releases[i].version
}

// widgetsVocab is acme/widgets' vocabulary: a dashboard widget product.
func widgetsVocab() *vocab {
	return &vocab{
		components: []component{
			{"the chart widget", "Chart widget", "area: ui", true, "Add a line chart widget to a new dashboard", "ChartWidget"},
			{"the table widget", "Table widget", "area: ui", true, "Add a table widget bound to the `orders` sample query", "TableWidget"},
			{"the gauge widget", "Gauge widget", "area: ui", true, "Add a gauge widget with thresholds at 60 and 90", "GaugeWidget"},
			{"the map widget", "Map widget", "area: ui", true, "Add a map widget using the `stores` sample dataset", "MapWidget"},
			{"the widget editor", "Widget editor", "area: ui", true, "Open any widget in the editor (pencil icon)", "WidgetEditor"},
			{"the dashboard grid", "Dashboard grid", "area: ui", true, "Create a dashboard with at least six widgets", "DashboardGrid"},
			{"the theme engine", "Theme engine", "area: ui", true, "Create a custom theme under Settings → Themes", "ThemeProvider"},
			{"the embed SDK", "Embed SDK", "area: ui", true, "Embed a dashboard with `<acme-dashboard>` in a plain HTML page", "EmbedHost"},
			{"the REST API", "REST API", "area: api", false, "Create an API key with the `widgets:write` scope", "api"},
			{"CSV export", "CSV export", "area: api", false, "Open a dashboard with a table widget and choose **Export → CSV**", "export"},
			{"PDF export", "PDF export", "area: api", false, "Schedule a PDF export of any dashboard", "export"},
			{"webhook delivery", "Webhook delivery", "area: api", false, "Register a webhook for `widget.updated` pointing at a request bin", "webhooks"},
			{"`widgetctl import`", "`widgetctl import`", "area: api", false, "Export a dashboard with `widgetctl export --format json`", "widgetctl"},
			{"the query cache", "Query cache", "area: api", false, "Enable the query cache with `cache.ttl: 5m` in `widgets.yaml`", "cache"},
			{"the Postgres data source", "Postgres data source", "area: api", false, "Add a Postgres data source with a read-only role", "datasource"},
			{"scheduled report delivery", "Scheduled report delivery", "area: api", false, "Create a weekly scheduled report for a dashboard", "scheduler"},
		},
		frontSymptoms: []symptom{
			{"renders a blank canvas", "The widget renders its data, or an inline message saying why it cannot."},
			{"throws `TypeError: Cannot read properties of undefined`", "No console errors; missing values are skipped or shown as gaps."},
			{"flickers on every refresh", "The widget updates in place without flashing."},
			{"ignores the dashboard time zone", "Timestamps follow the time zone configured on the dashboard."},
			{"loses unsaved changes", "Unsaved changes are kept, or I am asked before they are discarded."},
			{"overflows its panel", "The content stays inside the panel and scrolls when it does not fit."},
			{"sorts numbers as text", "Numeric columns sort numerically (2 before 10)."},
			{"shows the wrong tooltip values", "The tooltip shows the value of the point under the cursor."},
			{"freezes the browser tab", "The page stays responsive while the widget loads."},
		},
		backSymptoms: []symptom{
			{"returns HTTP 500", "A 2xx response, or a 4xx with a message that says what is wrong."},
			{"times out after 30 seconds", "The request completes, or the work moves to a background job with a status URL."},
			{"drops the last row", "Every row of the result is included."},
			{"counts some rows twice", "Each row appears exactly once."},
			{"leaks goroutines", "The goroutine count returns to its baseline once the request is done."},
			{"ignores the `Accept-Language` header", "Numbers and dates are formatted for the requested locale."},
			{"retries forever on 4xx responses", "Client errors are not retried; server errors are retried with back-off, up to a limit."},
			{"writes a byte order mark into the output", "Plain UTF-8 without a BOM unless one is asked for."},
		},
		frontConditions: []condition{
			{"when the data series is empty", "Point the widget at a query that returns no rows"},
			{"after switching to the dark theme", "Switch the dashboard to the dark theme from the toolbar"},
			{"on Safari 18", "Open the same dashboard in Safari 18.3"},
			{"at 125% browser zoom", "Set the browser zoom to 125%"},
			{"after resizing the panel", "Drag the panel's bottom-right corner to make it about half as wide"},
			{"with more than 10,000 data points", "Load about 12,000 points (the `load-test` sample dataset works)"},
			{"on dashboards shared by link", "Share the dashboard by link and open the link in a private window"},
			{"when the locale is de-DE", "Change the profile language to Deutsch (de-DE) and reload"},
		},
		backConditions: []condition{
			{"for columns with non-ASCII names", "Create a query with a column named `Größe`"},
			{"for results over 10,000 rows", "Run it against a result with more than 10,000 rows"},
			{"when the session token is refreshed mid-request", "Start a long request, then let the session token expire and refresh"},
			{"behind an HTTP proxy", "Set `HTTPS_PROXY` to a corporate proxy and run it again"},
			{"across a daylight saving time change", "Query a range spanning a DST change (2026-03-29 in Europe/Berlin)"},
			{"when two clients update the same widget", "Send two `PATCH /api/v2/widgets/{id}` requests at the same time"},
			{"on the second page of results", "Request `?page=2` of the same list"},
			{"with a read-only API key", "Repeat the call with a read-only API key"},
		},
		releases: []release{
			{"v1.3.7", day(2025, time.December, 1)},
			{"v1.4.0", day(2026, time.March, 3)},
			{"v1.4.1", day(2026, time.April, 14)},
			{"v1.4.2", day(2026, time.June, 2)},
			{"v1.5.0-rc.1", day(2026, time.August, 4)},
		},
		frontEnvs: []string{
			"Chrome 132 on macOS 15.3", "Firefox 135 on Ubuntu 24.04", "Safari 18.3 on macOS 15.3",
			"Edge 132 on Windows 11", "Chrome 133 on Windows 11", "Firefox ESR 128 on Debian 12",
		},
		backEnvs: []string{
			"self-hosted, Docker image `ghcr.io/acme/widgets` on Kubernetes 1.31",
			"self-hosted on Ubuntu 24.04 behind nginx 1.26", "Acme Cloud (eu-west-1)", "Acme Cloud (us-east-1)",
			"self-hosted with Postgres 16.4 and Redis 7.4",
		},
		browsers: []string{"Chrome", "Firefox", "Safari", "Edge"},
		ideas: []idea{
			{"Add keyboard shortcuts to the widget editor",
				"I build a lot of dashboards and keep reaching for the mouse to duplicate, align or delete widgets.",
				"Shortcuts for the common actions: `D` to duplicate, arrow keys to nudge by one grid cell, `Delete` to remove, and `?` to list them.",
				"A browser extension that clicks the buttons for me. It breaks on every release."},
			{"Allow a per-widget refresh interval",
				"Our ops dashboard mixes a live error-rate chart with a monthly revenue table. Refreshing everything every 10 seconds hammers the warehouse for data that changes once a day.",
				"A `refreshInterval` on each widget that overrides the dashboard's, with `off` as an option.",
				"Splitting the dashboard in two, which defeats the point of having one screen."},
			{"Support annotations on time series charts",
				"When latency spikes we want to mark deploys and incidents on the chart so the next person does not have to dig through Slack.",
				"Let users add annotations (time, label, optional link) by clicking the chart, and accept them through the API so our deploy pipeline can post them.",
				"Drawing vertical lines with a second series of fake data points."},
			{"Conditional formatting for table cells",
				"Finance wants negative margins in red and anything above target in green. Today they export to a spreadsheet to do that.",
				"Rules per column: a comparison (`<`, `>`, `between`), a value and a style (text colour, background, bold).",
				"Adding a computed `status` column in SQL and colouring by that, which only works for one colour per row."},
			{"Read-only share links with an expiry date",
				"We share dashboards with customers, but links never expire and anyone with the link can see the data forever.",
				"When creating a share link, let me set an expiry (1 day, 7 days, 30 days, custom) and revoke links from a list.",
				"Rotating the dashboard's share token by hand every month."},
			{"Drill-down from a chart point to a filtered table",
				"Clicking a bar in the 'orders by region' chart should show me the orders behind it.",
				"A drill-down target per chart: another widget or dashboard, with the clicked point's dimensions passed as filters.",
				"Opening the table dashboard and typing the same filter by hand."},
			{"Export a dashboard as PNG",
				"PDF export is great for reports, but for Slack and slides we need an image.",
				"An **Export → PNG** option with the same theme and size choices as PDF, plus an API endpoint for it.",
				"Screenshots, which cut off widgets below the fold."},
			{"Saved filter presets",
				"Our support team switches between the same five filter combinations dozens of times a day.",
				"Let users save the current filter state under a name and pick it from a dropdown; optionally share presets with the team.",
				"Bookmarking URLs with the filters encoded, which breaks whenever a filter is renamed."},
			{"OIDC single sign-on",
				"We use Keycloak for everything else and would like to stop managing separate widget accounts.",
				"Generic OIDC login with group-claim-to-role mapping, configured in `widgets.yaml`.",
				"The SAML integration, which our identity team does not want to maintain."},
			{"Prometheus metrics endpoint",
				"We cannot tell whether slow dashboards come from the widgets server or from the data sources.",
				"Expose `/metrics` with request durations per route, query durations per data source, cache hit ratio and export queue depth.",
				"Parsing the access log with a sidecar."},
			{"Undo and redo in the widget editor",
				"I deleted a widget by accident and had to rebuild it from memory.",
				"An undo history for the editor session (`Ctrl+Z` / `Ctrl+Shift+Z`), at least 20 steps deep.",
				"Duplicating the dashboard before every edit."},
			{"Bulk edit widgets",
				"After renaming a data source we had to update 40 widgets one by one.",
				"Select several widgets on the grid and change their data source, theme or refresh interval at once.",
				"A script against the REST API, which most of our users cannot write."},
		},
		frontWishes: []string{
			"custom number formats", "a compact display mode", "per-user default filters", "SVG export",
			"a fullscreen presentation mode", "right-to-left layouts", "high-contrast colour palettes",
			"configurable empty-state messages",
		},
		backWishes: []string{
			"cursor-based pagination", "gzip compression", "a dry-run mode", "per-tenant quotas",
			"OpenTelemetry traces", "configurable retry back-off",
		},
		frontChores: []string{
			"Refactor %s to use the shared query client",
			"Add integration tests for %s",
			"Remove the deprecated options from %s",
			"Split data fetching from rendering in %s",
			"Measure and reduce the bundle size of %s",
			"Replace hand-written fixtures for %s with recorded ones",
		},
		backChores: []string{
			"Add integration tests for %s",
			"Remove the deprecated options from %s",
			"Add structured logging to %s",
			"Add tracing spans to %s",
			"Cap the memory use of %s",
			"Replace hand-written fixtures for %s with recorded ones",
		},
		docTopics: []string{
			"the webhook signature format", "the REST API's rate limits", "running widgets behind a reverse proxy",
			"theme tokens for the embed SDK", "the `widgetctl import` file format", "export size limits and timeouts",
			"upgrading from v1.3 to v1.4", "query cache invalidation", "API key scopes", "the embed SDK's events",
			"backing up and restoring dashboards", "the `widgets.yaml` cache settings",
		},
		questions: []qa{
			{"How do I embed a dashboard without exposing the API key?",
				"Good question! Create an API key with only the `widgets:read` scope on your backend and hand the page a short-lived embed token from `POST /api/v2/embed-tokens`; the key itself never reaches the browser."},
			{"Is there a way to change the default colour palette for every chart?",
				"Yes: set `defaults.palette` in `widgets.yaml`. Every chart without a palette of its own picks it up after a restart."},
			{"How can I run `widgetctl` in CI without a browser login?",
				"Use `widgetctl login --token \"$WIDGETS_TOKEN\"` with a key from **Settings → API keys**; it skips the browser flow entirely."},
			{"Can I move widgets between two workspaces?",
				"Not directly yet, but `widgetctl export --dashboard <id> --format json` followed by `widgetctl import --workspace <other>` does it, data source mappings included."},
			{"How do I set a different time zone per widget?",
				"Time zones are per dashboard today. A per-widget override is tracked separately; as a workaround, convert in the query with `AT TIME ZONE`."},
			{"What is the recommended way to back up dashboards?",
				"Back up the Postgres database (everything lives there), or export dashboards nightly with `widgetctl export --all --format json` if you only need the definitions."},
			{"Why does the query cache not pick up new rows?",
				"The cache keys on the query text and keeps results for `cache.ttl` (5 minutes by default). Lower the TTL for that data source, or call `POST /api/v2/cache/invalidate` after your loads."},
		},
		deps: []dep{
			{"golang.org/x/net", "0.33.0", "0.38.0", "go.mod"},
			{"echarts", "5.5.1", "5.6.0", "web/package.json"},
			{"vite", "5.4.11", "6.0.7", "web/package.json"},
			{"github.com/jackc/pgx/v5", "5.7.1", "5.7.2", "go.mod"},
			{"@testing-library/react", "16.0.1", "16.1.0", "web/package.json"},
			{"go.opentelemetry.io/otel", "1.33.0", "1.34.0", "go.mod"},
			{"eslint", "9.17.0", "9.18.0", "web/package.json"},
		},
		details: []string{
			"Reloading the page does not help, and clearing the cache only fixes it until the next refresh.",
			"It does not happen with the sample data, only with our own.",
			"Three people on our team see the same thing, so it is not just my machine.",
			"Rolling back to the previous version makes it go away.",
			"It seems to have started with the last upgrade, but I have not bisected it.",
			"Everything else on the same dashboard behaves normally.",
			"We have about 40 dashboards and the busiest ones are hit hardest.",
			"This blocks our weekly report, which goes out on Monday mornings.",
			"It happens roughly one time in three, so it may be timing-related.",
		},
		frontLast: []string{"Wait for the next auto-refresh, or press **Refresh**", "Hover over the most recent data point", "Scroll the widget into view and watch the console"},
		backLast:  []string{"Check the response status and the server log", "Compare the row count of the result with the query's", "Look at the server log around the same time"},
		snippets: []string{
			"```yaml\n# widgets.yaml\nserver:\n  base_url: https://widgets.internal.example\nauth:\n  api_keys:\n    - name: embed\n      scopes: [\"widgets:read\"]\n```",
			"```sh\nwidgetctl login --server https://widgets.internal.example --token \"$WIDGETS_TOKEN\"\nwidgetctl dashboards list --output json\n```",
			"```js\nconst dash = document.querySelector(\"acme-dashboard\");\ndash.setAttribute(\"theme\", \"custom-dark\");\ndash.addEventListener(\"ready\", () => console.log(\"loaded\"));\n```",
		},
		comments: widgetsComments,
		log:      widgetsLog,
		logLang:  "shell",
	}
}
