package reports

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/github"
)

// How each type's alerts become rows, and how the report's filters become
// GitHub's query parameters.

func dependabotRow(a github.DependabotAlert, repo string) AlertRow {
	r := AlertRow{Repo: repo, Type: Dependabot, Number: a.Number, Summary: a.Advisory.Summary, URL: a.HTMLURL, CreatedAt: a.CreatedAt,
		Severity: dependabotSeverity(a), Package: a.Dependency.Package.Name, Ecosystem: a.Dependency.Package.Ecosystem,
		Manifest: a.Dependency.ManifestPath, Scope: a.Dependency.Scope, GHSA: a.Advisory.GHSAID, VulnerableRange: a.Vulnerability.VulnerableRange}
	if a.Advisory.CVEID != nil {
		r.CVE = *a.Advisory.CVEID
	}
	if p := a.Vulnerability.FirstPatchedVersion; p != nil {
		r.PatchedVersion = p.Identifier
	}
	return r
}

// dependabotSeverity is the advisory's severity; GitHub's advisory
// database says "moderate" where the alerts say "medium".
func dependabotSeverity(a github.DependabotAlert) Severity {
	s := cmp.Or(a.Advisory.Severity, a.Vulnerability.Severity)
	if s == "moderate" {
		s = "medium"
	}
	return Severity(s)
}

func codeScanningRow(a github.CodeScanningAlert, repo string) AlertRow {
	loc := a.MostRecentInstance.Location
	r := AlertRow{Repo: repo, Type: CodeScanning, Number: a.Number, Summary: cmp.Or(a.Rule.Description, a.Rule.Name), URL: a.HTMLURL,
		CreatedAt: a.CreatedAt, Severity: codeScanningSeverity(a), Rule: a.Rule.ID, Tool: a.Tool.Name}
	if loc.Path != "" {
		r.Location = fmt.Sprintf("%s:%d", loc.Path, loc.StartLine)
	}
	return r
}

// ruleSeverities ranks a rule that is not a security rule (no security
// severity level) by its own severity: an error as medium, the rest low,
// so quality findings never outrank a real vulnerability.
var ruleSeverities = map[string]Severity{"error": "medium", "warning": "low", "note": "low", "none": "low"}

func codeScanningSeverity(a github.CodeScanningAlert) Severity {
	if l := a.Rule.SecuritySeverityLevel; l != nil && *l != "" {
		return Severity(*l)
	}
	return cmp.Or(ruleSeverities[a.Rule.Severity], "low")
}

// secretRow ranks a leaked secret critical while GitHub says it still
// works (or cannot tell), else high: a credential anyone may hold.
func secretRow(a github.SecretAlert, repo string) AlertRow {
	sev := Severity("critical")
	if a.Validity == "inactive" {
		sev = "high"
	}
	return AlertRow{Repo: repo, Type: SecretScanning, Number: a.Number, Severity: sev,
		Summary: cmp.Or(a.SecretTypeDisplayName, a.SecretType), URL: a.HTMLURL, CreatedAt: a.CreatedAt,
		SecretType: a.SecretType, Validity: a.Validity}
}

// severityFilter is GitHub's severity parameter for min_severity on list
// l, so fewer pages are read; rows are still checked against min_severity
// (add). "" asks for every severity. Dependabot takes a comma-separated
// list. Code scanning takes one value, and on the organization's list
// only (GitHub.com's repository list documents no severity): critical is
// the one threshold one value says (a rule's own severity never ranks
// critical, see codeScanningSeverity), so the others are filtered here.
// Secret scanning has no such parameter.
func severityFilter(l list, min Severity) string {
	switch {
	case min.rank() <= 1, l.typ == SecretScanning:
		return ""
	case l.typ == CodeScanning:
		if min == "critical" && l.repo == "" {
			return "critical"
		}
		return ""
	}
	var keep []string
	for _, s := range severities[min.rank()-1:] {
		keep = append(keep, string(s))
	}
	return strings.Join(keep, ",")
}

// byRepo counts rows per repository, worst first: most critical, then
// high, medium and low, then by name.
func byRepo(rows []AlertRow) []RepoAlerts {
	out := []RepoAlerts{}
	idx := map[string]int{}
	for _, r := range rows {
		if _, ok := idx[r.Repo]; !ok {
			idx[r.Repo] = len(out)
			out = append(out, RepoAlerts{Repo: r.Repo, Archived: r.Archived})
		}
	}
	for _, r := range rows {
		c := &out[idx[r.Repo]]
		switch r.Severity {
		case "critical":
			c.Critical++
		case "high":
			c.High++
		case "medium":
			c.Medium++
		default:
			c.Low++
		}
		switch r.Type {
		case Dependabot:
			c.Dependabot++
		case CodeScanning:
			c.CodeScanning++
		case SecretScanning:
			c.SecretScanning++
		}
	}
	slices.SortFunc(out, func(a, b RepoAlerts) int {
		return cmp.Or(cmp.Compare(b.Critical, a.Critical), cmp.Compare(b.High, a.High), cmp.Compare(b.Medium, a.Medium),
			cmp.Compare(b.Low, a.Low), byName(a.Repo, b.Repo))
	})
	return out
}

// countAlerts tallies rows per type and severity, with a zero tally for
// each type of types that has none.
func countAlerts(rows []AlertRow, types []AlertType) AlertCounts {
	var out AlertCounts
	slot := map[AlertType]**SeverityCounts{Dependabot: &out.Dependabot, CodeScanning: &out.CodeScanning, SecretScanning: &out.SecretScanning}
	for _, t := range types {
		*slot[t] = &SeverityCounts{}
	}
	for _, r := range rows {
		c := *slot[r.Type]
		if c == nil {
			continue // a type not asked for has no rows
		}
		switch r.Severity {
		case "critical":
			c.Critical++
		case "high":
			c.High++
		case "medium":
			c.Medium++
		default:
			c.Low++
		}
	}
	return out
}

// add adds earlier calls' tallies (nil: none) to c, type by type; a type
// c does not hold was not asked for and stays absent.
func (c *AlertCounts) add(earlier *AlertCounts) {
	if earlier == nil {
		return
	}
	pairs := []struct{ to, from *SeverityCounts }{
		{c.Dependabot, earlier.Dependabot}, {c.CodeScanning, earlier.CodeScanning}, {c.SecretScanning, earlier.SecretScanning}}
	for _, p := range pairs {
		if p.to == nil || p.from == nil {
			continue
		}
		p.to.Critical += p.from.Critical
		p.to.High += p.from.High
		p.to.Medium += p.from.Medium
		p.to.Low += p.from.Low
	}
}

// sortAlerts orders rows by severity (worst first), then repository,
// type and number.
func sortAlerts(rows []AlertRow) {
	slices.SortFunc(rows, func(a, b AlertRow) int {
		return cmp.Or(cmp.Compare(b.Severity.rank(), a.Severity.rank()), byName(a.Repo, b.Repo),
			cmp.Compare(a.Type, b.Type), cmp.Compare(a.Number, b.Number))
	})
}
