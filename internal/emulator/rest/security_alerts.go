package rest

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// The alert shapes and list handlers (security.go has the access rules,
// filters and pagination they share).

type dependabotAlertJSON struct {
	Number     int    `json:"number"`
	State      string `json:"state"`
	Dependency struct {
		Package      alertPackageJSON `json:"package"`
		ManifestPath string           `json:"manifest_path"`
		Scope        *string          `json:"scope"`
		Relationship *string          `json:"relationship"`
	} `json:"dependency"`
	SecurityAdvisory      advisoryJSON      `json:"security_advisory"`
	SecurityVulnerability vulnerabilityJSON `json:"security_vulnerability"`
	URL                   string            `json:"url"`
	HTMLURL               string            `json:"html_url"`
	CreatedAt             string            `json:"created_at"`
	UpdatedAt             string            `json:"updated_at"`
	DismissedAt           *string           `json:"dismissed_at"`
	DismissedBy           *userJSON         `json:"dismissed_by"`
	DismissedReason       *string           `json:"dismissed_reason"`
	DismissedComment      *string           `json:"dismissed_comment"`
	FixedAt               *string           `json:"fixed_at"`
	AutoDismissedAt       *string           `json:"auto_dismissed_at"`
	Repository            *repoJSON         `json:"repository,omitempty"`
}

type alertPackageJSON struct {
	Ecosystem string `json:"ecosystem"`
	Name      string `json:"name"`
}

type vulnerabilityJSON struct {
	Package                alertPackageJSON `json:"package"`
	Severity               string           `json:"severity"`
	VulnerableVersionRange string           `json:"vulnerable_version_range"`
	FirstPatchedVersion    *struct {
		Identifier string `json:"identifier"`
	} `json:"first_patched_version"`
}

type advisoryJSON struct {
	GHSAID          string              `json:"ghsa_id"`
	CVEID           *string             `json:"cve_id"`
	Summary         string              `json:"summary"`
	Description     string              `json:"description"`
	Vulnerabilities []vulnerabilityJSON `json:"vulnerabilities"`
	Severity        string              `json:"severity"`
	CVSS            struct {
		Score        float64 `json:"score"`
		VectorString *string `json:"vector_string"`
	} `json:"cvss"`
	CWEs        []struct{}          `json:"cwes"`
	Identifiers []map[string]string `json:"identifiers"`
	References  []map[string]string `json:"references"`
	PublishedAt string              `json:"published_at"`
	UpdatedAt   string              `json:"updated_at"`
	WithdrawnAt *string             `json:"withdrawn_at"`
}

func (c *call) dependabotAlertJSON(r *state.Repo, a *state.DependabotAlert, withRepo bool) dependabotAlertJSON {
	u := c.Links.Repo(r) + "/dependabot/alerts/" + strconv.Itoa(a.Number)
	pkg := alertPackageJSON{Ecosystem: a.Ecosystem, Name: a.Package}
	vuln := vulnerabilityJSON{Package: pkg, Severity: a.Severity, VulnerableVersionRange: a.VulnerableRange}
	if a.PatchedVersion != "" {
		vuln.FirstPatchedVersion = &struct {
			Identifier string `json:"identifier"`
		}{a.PatchedVersion}
	}
	out := dependabotAlertJSON{Number: a.Number, State: a.State, SecurityVulnerability: vuln, URL: u,
		HTMLURL:   c.Links.Web + "/" + r.FullName() + "/security/dependabot/" + strconv.Itoa(a.Number),
		CreatedAt: wire.Timestamp(a.CreatedAt), UpdatedAt: wire.Timestamp(a.UpdatedAt),
		DismissedAt: wire.TimestampPtr(a.DismissedAt), DismissedBy: renderSimpleUser(c.Links, a.DismissedBy),
		FixedAt: wire.TimestampPtr(a.FixedAt)}
	if a.DismissedReason != "" {
		out.DismissedReason = &a.DismissedReason
	}
	scope, rel := a.Scope, "direct"
	out.Dependency.Package, out.Dependency.ManifestPath, out.Dependency.Scope, out.Dependency.Relationship = pkg, a.Manifest, &scope, &rel
	adv := advisoryJSON{GHSAID: a.GHSA, Summary: a.Summary, Description: a.Summary + ".", Vulnerabilities: []vulnerabilityJSON{vuln},
		Severity: a.Severity, CWEs: []struct{}{}, Identifiers: []map[string]string{{"type": "GHSA", "value": a.GHSA}},
		References:  []map[string]string{{"url": "https://github.com/advisories/" + a.GHSA}},
		PublishedAt: wire.Timestamp(a.CreatedAt.AddDate(0, 0, -2)), UpdatedAt: wire.Timestamp(a.CreatedAt.AddDate(0, 0, -1))}
	if a.CVE != "" {
		adv.CVEID = &a.CVE
		adv.Identifiers = append(adv.Identifiers, map[string]string{"type": "CVE", "value": a.CVE})
	}
	adv.CVSS.Score = a.CVSS
	out.SecurityAdvisory = adv
	if withRepo {
		rj := c.repoJSON(r, false)
		out.Repository = &rj
	}
	return out
}

func dependabotMatches(c *call, a *state.DependabotAlert) bool {
	q := c.Req.URL.Query()
	return inList(q.Get("state"), a.State) && inList(q.Get("severity"), a.Severity) && inList(q.Get("ecosystem"), a.Ecosystem) &&
		inList(q.Get("package"), a.Package) && inList(q.Get("manifest"), a.Manifest) && inList(q.Get("scope"), a.Scope)
}

func dependabotRows(c *call, r *state.Repo, rows []alertRow[*state.DependabotAlert]) []alertRow[*state.DependabotAlert] {
	for _, a := range r.Security.Dependabot {
		if dependabotMatches(c, a) {
			rows = append(rows, alertRow[*state.DependabotAlert]{repo: r, alert: a, id: a.ID, created: a.CreatedAt, updated: a.UpdatedAt})
		}
	}
	return rows
}

func (c *call) writeDependabot(rows []alertRow[*state.DependabotAlert], withRepo bool) {
	sortAlerts(c, rows)
	page, ok := pageAlerts(c, rows, false)
	if !ok {
		return
	}
	out := []dependabotAlertJSON{}
	for _, row := range page {
		out = append(out, c.dependabotAlertJSON(row.repo, row.alert, withRepo))
	}
	c.JSON(http.StatusOK, out)
}

// The severity filters GitHub's description documents: Dependabot's lists
// take a comma-separated list of these; the organization's code scanning
// list takes one of its enum (the repository list documents none on
// GitHub.com, and the same one value on GHEC and GHES, which the
// emulator follows). A value outside them is refused with a 422.
var (
	dependabotSeverities   = []string{"low", "medium", "high", "critical"}
	codeScanningSeverities = []string{"critical", "high", "medium", "low", "warning", "note", "error"}
)

// severityValid answers 422 unless the severity filter is absent or each
// of its values (one only, unless list) is among allowed.
func (c *call) severityValid(allowed []string, list bool, doc string) bool {
	v := c.Req.URL.Query().Get("severity")
	if v == "" {
		return true
	}
	values := []string{v}
	if list {
		values = strings.Split(v, ",")
	}
	for _, s := range values {
		if !slices.Contains(allowed, strings.TrimSpace(s)) {
			c.Invalid("Invalid severity: "+strconv.Quote(v)+" is not one of "+strings.Join(allowed, ", "), doc)
			return false
		}
	}
	return true
}

func listRepoDependabotAlerts(c *call) {
	r := c.securityAccess(state.PermWrite)
	if r == nil || !c.dependabotEnabled(r) ||
		!c.severityValid(dependabotSeverities, true, "rest/dependabot/alerts#list-dependabot-alerts-for-a-repository") {
		return
	}
	c.writeDependabot(dependabotRows(c, r, nil), false)
}

func listOrgDependabotAlerts(c *call) {
	org := c.orgSecurityAccess()
	if org == nil || !c.severityValid(dependabotSeverities, true, "rest/dependabot/alerts#list-dependabot-alerts-for-an-organization") {
		return
	}
	var rows []alertRow[*state.DependabotAlert]
	for _, r := range c.orgRepos(org) {
		if !r.Security.DependabotOff {
			rows = dependabotRows(c, r, rows)
		}
	}
	c.writeDependabot(rows, true)
}

type codeScanningAlertJSON struct {
	Number          int       `json:"number"`
	CreatedAt       string    `json:"created_at"`
	UpdatedAt       string    `json:"updated_at"`
	URL             string    `json:"url"`
	HTMLURL         string    `json:"html_url"`
	InstancesURL    string    `json:"instances_url"`
	State           string    `json:"state"`
	FixedAt         *string   `json:"fixed_at"`
	DismissedBy     *userJSON `json:"dismissed_by"`
	DismissedAt     *string   `json:"dismissed_at"`
	DismissedReason *string   `json:"dismissed_reason"`
	Rule            struct {
		ID                    string   `json:"id"`
		Severity              string   `json:"severity"`
		Tags                  []string `json:"tags"`
		Description           string   `json:"description"`
		Name                  string   `json:"name"`
		SecuritySeverityLevel *string  `json:"security_severity_level"`
	} `json:"rule"`
	Tool struct {
		Name    string  `json:"name"`
		GUID    *string `json:"guid"`
		Version string  `json:"version"`
	} `json:"tool"`
	MostRecentInstance struct {
		Ref         string `json:"ref"`
		AnalysisKey string `json:"analysis_key"`
		Environment string `json:"environment"`
		Category    string `json:"category"`
		State       string `json:"state"`
		CommitSHA   string `json:"commit_sha"`
		Message     struct {
			Text string `json:"text"`
		} `json:"message"`
		Location struct {
			Path        string `json:"path"`
			StartLine   int    `json:"start_line"`
			EndLine     int    `json:"end_line"`
			StartColumn int    `json:"start_column"`
			EndColumn   int    `json:"end_column"`
		} `json:"location"`
		Classifications []string `json:"classifications"`
	} `json:"most_recent_instance"`
	Repository *repoJSON `json:"repository,omitempty"`
}

func (c *call) codeScanningAlertJSON(r *state.Repo, a *state.CodeScanningAlert, withRepo bool) codeScanningAlertJSON {
	u := c.Links.Repo(r) + "/code-scanning/alerts/" + strconv.Itoa(a.Number)
	out := codeScanningAlertJSON{Number: a.Number, CreatedAt: wire.Timestamp(a.CreatedAt), UpdatedAt: wire.Timestamp(a.UpdatedAt),
		URL: u, HTMLURL: c.Links.Web + "/" + r.FullName() + "/security/code-scanning/" + strconv.Itoa(a.Number),
		InstancesURL: u + "/instances", State: a.State, FixedAt: wire.TimestampPtr(a.FixedAt),
		DismissedBy: renderSimpleUser(c.Links, a.DismissedBy), DismissedAt: wire.TimestampPtr(a.DismissedAt)}
	if a.DismissedReason != "" {
		out.DismissedReason = &a.DismissedReason
	}
	out.Rule.ID, out.Rule.Severity, out.Rule.Description, out.Rule.Name = a.RuleID, a.Severity, a.RuleDescription, a.RuleName
	out.Rule.Tags = []string{"security"}
	if a.SecuritySeverity != "" {
		out.Rule.SecuritySeverityLevel = &a.SecuritySeverity
	}
	out.Tool.Name, out.Tool.Version = a.Tool, a.ToolVersion
	in := &out.MostRecentInstance
	in.Ref, in.AnalysisKey, in.Environment, in.Category = "refs/heads/"+state.RepoDefaultBranch, ".github/workflows/codeql.yml:analyze", "{}", ".github/workflows/codeql.yml:analyze"
	in.State, in.CommitSHA, in.Message.Text, in.Classifications = a.State, a.CommitSHA, a.Message, []string{}
	in.Location.Path, in.Location.StartLine, in.Location.EndLine, in.Location.StartColumn, in.Location.EndColumn = a.Path, a.StartLine, a.EndLine, 1, 40
	if withRepo {
		rj := c.repoJSON(r, false)
		out.Repository = &rj
	}
	return out
}

// codeScanningSeverity is what the severity filter compares: the security
// level of a security rule, else the rule's own severity.
func codeScanningSeverity(a *state.CodeScanningAlert) string {
	if a.SecuritySeverity != "" {
		return a.SecuritySeverity
	}
	return a.Severity
}

func codeScanningRows(c *call, r *state.Repo, rows []alertRow[*state.CodeScanningAlert]) []alertRow[*state.CodeScanningAlert] {
	q := c.Req.URL.Query()
	for _, a := range r.Security.CodeScanning {
		st := q.Get("state")
		if st == "closed" {
			if a.State == "open" {
				continue
			}
		} else if st != "" && a.State != st {
			continue
		}
		if !inList(q.Get("severity"), codeScanningSeverity(a)) || (q.Get("tool_name") != "" && q.Get("tool_name") != a.Tool) {
			continue
		}
		rows = append(rows, alertRow[*state.CodeScanningAlert]{repo: r, alert: a, id: a.ID, created: a.CreatedAt, updated: a.UpdatedAt})
	}
	return rows
}

func (c *call) writeCodeScanning(rows []alertRow[*state.CodeScanningAlert], withRepo bool) {
	sortAlerts(c, rows)
	page, ok := pageAlerts(c, rows, true)
	if !ok {
		return
	}
	out := []codeScanningAlertJSON{}
	for _, row := range page {
		out = append(out, c.codeScanningAlertJSON(row.repo, row.alert, withRepo))
	}
	c.JSON(http.StatusOK, out)
}

func listRepoCodeScanningAlerts(c *call) {
	r := c.securityAccess(state.PermWrite)
	if r == nil || !c.codeScanningEnabled(r) ||
		!c.severityValid(codeScanningSeverities, false, "rest/code-scanning/code-scanning#list-code-scanning-alerts-for-a-repository") {
		return
	}
	c.writeCodeScanning(codeScanningRows(c, r, nil), false)
}

func listOrgCodeScanningAlerts(c *call) {
	org := c.orgSecurityAccess()
	if org == nil || !c.severityValid(codeScanningSeverities, false, "rest/code-scanning/code-scanning#list-code-scanning-alerts-for-an-organization") {
		return
	}
	var rows []alertRow[*state.CodeScanningAlert]
	for _, r := range c.orgRepos(org) {
		if codeScanningOn(r) {
			rows = codeScanningRows(c, r, rows)
		}
	}
	c.writeCodeScanning(rows, true)
}

type secretAlertJSON struct {
	Number                int       `json:"number"`
	CreatedAt             string    `json:"created_at"`
	UpdatedAt             *string   `json:"updated_at"`
	URL                   string    `json:"url"`
	HTMLURL               string    `json:"html_url"`
	LocationsURL          string    `json:"locations_url"`
	State                 string    `json:"state"`
	Resolution            *string   `json:"resolution"`
	ResolvedAt            *string   `json:"resolved_at"`
	ResolvedBy            *userJSON `json:"resolved_by"`
	ResolutionComment     *string   `json:"resolution_comment"`
	SecretType            string    `json:"secret_type"`
	SecretTypeDisplayName string    `json:"secret_type_display_name"`
	Provider              *string   `json:"provider"`
	ProviderSlug          *string   `json:"provider_slug"`
	// Secret is the leaked value, as GitHub returns it (unless
	// hide_secret=true); a report must never pass it on.
	Secret                 string    `json:"secret,omitempty"`
	PushProtectionBypassed *bool     `json:"push_protection_bypassed"`
	Validity               string    `json:"validity"`
	PubliclyLeaked         bool      `json:"publicly_leaked"`
	MultiRepo              bool      `json:"multi_repo"`
	IsBase64Encoded        bool      `json:"is_base64_encoded"`
	HasMoreLocations       bool      `json:"has_more_locations"`
	Repository             *repoJSON `json:"repository,omitempty"`
}

func (c *call) secretAlertJSON(r *state.Repo, a *state.SecretScanningAlert, withRepo bool) secretAlertJSON {
	u := c.Links.Repo(r) + "/secret-scanning/alerts/" + strconv.Itoa(a.Number)
	updated := wire.Timestamp(a.UpdatedAt)
	bypassed := false
	out := secretAlertJSON{Number: a.Number, CreatedAt: wire.Timestamp(a.CreatedAt), UpdatedAt: &updated, URL: u,
		HTMLURL: c.Links.Web + "/" + r.FullName() + "/security/secret-scanning/" + strconv.Itoa(a.Number), LocationsURL: u + "/locations",
		State: a.State, ResolvedAt: wire.TimestampPtr(a.ResolvedAt), ResolvedBy: renderSimpleUser(c.Links, a.ResolvedBy),
		SecretType: a.SecretType, SecretTypeDisplayName: a.SecretTypeDisplayName, Secret: a.Secret, PushProtectionBypassed: &bypassed,
		Validity: a.Validity, PubliclyLeaked: a.PubliclyLeaked}
	if a.Resolution != "" {
		out.Resolution = &a.Resolution
	}
	if a.Provider != "" {
		slug := a.SecretType
		out.Provider, out.ProviderSlug = &a.Provider, &slug
	}
	if c.Req.URL.Query().Get("hide_secret") == "true" {
		out.Secret = ""
	}
	if withRepo {
		rj := c.repoJSON(r, false)
		out.Repository = &rj
	}
	return out
}

func secretRows(c *call, r *state.Repo, rows []alertRow[*state.SecretScanningAlert]) []alertRow[*state.SecretScanningAlert] {
	q := c.Req.URL.Query()
	for _, a := range r.Security.SecretScanning {
		if (q.Get("state") != "" && a.State != q.Get("state")) || !inList(q.Get("secret_type"), a.SecretType) ||
			!inList(q.Get("resolution"), a.Resolution) || !inList(q.Get("validity"), a.Validity) {
			continue
		}
		rows = append(rows, alertRow[*state.SecretScanningAlert]{repo: r, alert: a, id: a.ID, created: a.CreatedAt, updated: a.UpdatedAt})
	}
	return rows
}

func (c *call) writeSecrets(rows []alertRow[*state.SecretScanningAlert], withRepo bool) {
	sortAlerts(c, rows)
	page, ok := pageAlerts(c, rows, true)
	if !ok {
		return
	}
	out := []secretAlertJSON{}
	for _, row := range page {
		out = append(out, c.secretAlertJSON(row.repo, row.alert, withRepo))
	}
	c.JSON(http.StatusOK, out)
}

func listRepoSecretScanningAlerts(c *call) {
	r := c.securityAccess(state.PermAdmin)
	if r == nil || !c.secretScanningEnabled(r) {
		return
	}
	c.writeSecrets(secretRows(c, r, nil), false)
}

func listOrgSecretScanningAlerts(c *call) {
	org := c.orgSecurityAccess()
	if org == nil {
		return
	}
	var rows []alertRow[*state.SecretScanningAlert]
	for _, r := range c.orgRepos(org) {
		if secretScanningOn(r) {
			rows = secretRows(c, r, rows)
		}
	}
	c.writeSecrets(rows, true)
}

// alertNumber reads {alert_number}; a malformed or unknown one is a 404.
func (c *call) alertNumber(count int) (int, bool) {
	n, err := strconv.Atoi(c.Req.PathValue("alert_number"))
	if err != nil || n < 1 || n > count {
		c.NotFound()
		return 0, false
	}
	return n, true
}

func getRepoDependabotAlert(c *call) {
	r := c.securityAccess(state.PermWrite)
	if r == nil || !c.dependabotEnabled(r) {
		return
	}
	if n, ok := c.alertNumber(len(r.Security.Dependabot)); ok {
		c.JSON(http.StatusOK, c.dependabotAlertJSON(r, r.Security.Dependabot[n-1], false))
	}
}

func getRepoCodeScanningAlert(c *call) {
	r := c.securityAccess(state.PermWrite)
	if r == nil || !c.codeScanningEnabled(r) {
		return
	}
	if n, ok := c.alertNumber(len(r.Security.CodeScanning)); ok {
		c.JSON(http.StatusOK, c.codeScanningAlertJSON(r, r.Security.CodeScanning[n-1], false))
	}
}

func getRepoSecretScanningAlert(c *call) {
	r := c.securityAccess(state.PermAdmin)
	if r == nil || !c.secretScanningEnabled(r) {
		return
	}
	if n, ok := c.alertNumber(len(r.Security.SecretScanning)); ok {
		c.JSON(http.StatusOK, c.secretAlertJSON(r, r.Security.SecretScanning[n-1], false))
	}
}
