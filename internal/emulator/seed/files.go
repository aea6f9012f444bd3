package seed

// Repository files of the demo seed: READMEs and acme/widgets' issue
// templates, in the formats GitHub reads from .github/ISSUE_TEMPLATE
// (an issue form in YAML, a Markdown template with YAML front matter, and
// the chooser's config.yml).

func widgetsFiles() map[string]string {
	return map[string]string{
		"README.md":                                 widgetsReadme,
		".github/ISSUE_TEMPLATE/bug_report.yml":     bugReportForm,
		".github/ISSUE_TEMPLATE/feature_request.md": featureRequestTemplate,
		".github/ISSUE_TEMPLATE/config.yml":         templateChooserConfig,
	}
}

const widgetsReadme = "# widgets\n\n" +
	"Embeddable dashboard widgets for the Acme platform: line, bar and area charts, sortable tables, gauges and maps, " +
	"an editor to arrange them on a grid, a REST API to manage them, and `widgetctl`, the command-line client.\n\n" +
	"## Quick start\n\n" +
	"```sh\n" +
	"widgetctl login --server https://widgets.acme.example\n" +
	"widgetctl dashboards create --name \"Ops overview\"\n" +
	"widgetctl widgets add --dashboard \"Ops overview\" --type chart --query queries/latency.sql\n" +
	"```\n\n" +
	"Embed a dashboard in any page with the SDK:\n\n" +
	"```html\n" +
	"<script src=\"https://widgets.acme.example/sdk/v2/embed.js\" async></script>\n" +
	"<acme-dashboard id=\"ops-overview\" theme=\"auto\"></acme-dashboard>\n" +
	"```\n\n" +
	"## Documentation\n\n" +
	"- [Self-hosting](docs/self-hosting.md)\n" +
	"- [REST API reference](docs/api.md)\n" +
	"- [Theme tokens](docs/themes.md)\n\n" +
	"## Contributing\n\n" +
	"Bug reports and feature requests are welcome: pick a template when you open an issue. " +
	"Run `make test` before sending a pull request.\n\n" +
	"## License\n\nApache-2.0\n"

const bugReportForm = `name: Bug report
description: Something in widgets does not work as documented
title: "[Bug]: "
labels: ["bug", "status: triage"]
body:
  - type: markdown
    attributes:
      value: |
        Thanks for taking the time to report a bug! Please search the
        [existing issues](https://github.com/acme/widgets/issues) first; a
        :+1: on an existing report helps us more than a duplicate.
  - type: textarea
    id: what-happened
    attributes:
      label: What happened?
      description: Also tell us what you expected to happen.
      placeholder: The chart widget renders a blank canvas when...
    validations:
      required: true
  - type: textarea
    id: steps
    attributes:
      label: Steps to reproduce
      value: |
        1.
        2.
        3.
    validations:
      required: true
  - type: textarea
    id: expected
    attributes:
      label: Expected behavior
  - type: input
    id: version
    attributes:
      label: Version
      description: The output of ` + "`widgetctl version`" + `, or the version under Settings → About.
      placeholder: v1.4.2
    validations:
      required: true
  - type: dropdown
    id: browsers
    attributes:
      label: Which browsers are affected?
      multiple: true
      options:
        - Chrome
        - Firefox
        - Safari
        - Edge
        - Not browser related (API or CLI)
  - type: textarea
    id: logs
    attributes:
      label: Relevant log output
      description: Paste console or server logs. They are formatted as code automatically.
      render: shell
  - type: checkboxes
    id: terms
    attributes:
      label: Code of Conduct
      description: By submitting this issue, you agree to follow our [Code of Conduct](https://github.com/acme/widgets/blob/main/CODE_OF_CONDUCT.md).
      options:
        - label: I agree to follow this project's Code of Conduct
          required: true
`

const featureRequestTemplate = `---
name: Feature request
about: Suggest an idea for widgets
title: "[Feature]: "
labels: enhancement
assignees: ''
---

**Is your feature request related to a problem? Please describe.**
A clear and concise description of what the problem is. Ex. I'm always frustrated when [...]

**Describe the solution you'd like**
A clear and concise description of what you want to happen.

**Describe alternatives you've considered**
A clear and concise description of any alternative solutions or features you've considered.

**Additional context**
Add any other context or screenshots about the feature request here.
`

const templateChooserConfig = `blank_issues_enabled: true
contact_links:
  - name: Questions and help
    url: https://github.com/acme/widgets/discussions
    about: Ask and answer questions about using widgets.
  - name: Security vulnerabilities
    url: https://github.com/acme/widgets/security/policy
    about: Please report security issues privately, not in a public issue.
`

const gadgetsReadme = "# gadgets\n\n" +
	"Firmware (ESP-IDF, C) and the companion app (React Native) for the Acme Gadget Hub.\n\n" +
	"## Layout\n\n" +
	"- `firmware/`: the hub firmware; `idf.py build flash monitor` from that directory\n" +
	"- `app/`: the iOS and Android companion app\n" +
	"- `hardware/`: board revisions, BOMs and enclosure drawings\n\n" +
	"Internal only. Ask in #gadget-hub before filing hardware issues.\n"

const notesReadme = "# notes\n\n" +
	"Reading lists, talk drafts and ideas, tracked as issues so I can link them from work.\n"
