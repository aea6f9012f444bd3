package seed

import (
	"fmt"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// fleetAdvisories are the advisories Dependabot alerts point at: real
// packages with made-up identifiers (GHSA-emu-...), so nothing reads as a
// real vulnerability report.
var fleetAdvisories = []struct {
	pkg, eco, manifest, severity, summary, vulnerable, patched string
	cvss                                                       float64
}{
	{"golang.org/x/net", "go", "go.mod", "high", "HTTP/2 rapid reset can exhaust server resources", "< 0.17.0", "0.17.0", 7.5},
	{"golang.org/x/crypto", "go", "go.mod", "critical", "SSH authorization bypass through misuse of ServerConfig.PublicKeyCallback", "< 0.31.0", "0.31.0", 9.1},
	{"lodash", "npm", "web/package-lock.json", "medium", "Prototype pollution in zipObjectDeep", "< 4.17.21", "4.17.21", 5.6},
	{"github.com/gin-gonic/gin", "go", "go.mod", "low", "Improper input validation in the Content-Disposition header", "< 1.9.1", "1.9.1", 3.1},
	{"requests", "pip", "tools/requirements.txt", "medium", "Proxy-Authorization header leaked on redirect", "< 2.31.0", "2.31.0", 6.1},
	{"minimist", "npm", "web/package-lock.json", "critical", "Prototype pollution in argument parsing", "< 1.2.6", "", 9.8},
}

var fleetRules = []struct {
	id, name, desc, severity, security, path string
}{
	{"go/sql-injection", "SQL query built from user-controlled sources", "Database query built from user-controlled sources", "error", "critical", "store/query.go"},
	{"go/path-injection", "Uncontrolled data used in path expression", "Accessing paths influenced by users can allow an attacker to access unexpected resources", "error", "high", "server/files.go"},
	{"go/log-injection", "Log entries created from user input", "Building log entries from user-controlled sources is vulnerable to insertion of forged log entries", "error", "medium", "server/handler.go"},
	{"go/unused-variable", "Unused variable", "A variable that is assigned but never read", "note", "", "main.go"},
}

// alerts plants security alerts: Dependabot on most repositories, code
// scanning and secret scanning where they are on (and, where they are off,
// nothing: the routes refuse). Counts and severities rotate with the
// repository's index; some alerts are fixed or dismissed.
func (fs *fleetSeeder) alerts() {
	s, r, i := fs.sd.s, fs.r, fs.i
	base := fs.at(50, 0)
	sha := r.Git.Branches[state.RepoDefaultBranch].SHA
	if !fs.spec.DependabotOff {
		for k := range i % 5 {
			a := fleetAdvisories[(i+k)%len(fleetAdvisories)]
			created := base.Add(time.Duration(k*26) * time.Hour)
			al := &state.DependabotAlert{State: "open", Package: a.pkg, Ecosystem: a.eco, Manifest: a.manifest, Scope: "runtime",
				GHSA: fmt.Sprintf("GHSA-emu%d-%04d-fl%02d", k, 1000+i, i%100), Severity: a.severity, Summary: a.summary,
				VulnerableRange: a.vulnerable, PatchedVersion: a.patched, CVSS: a.cvss, CreatedAt: created}
			if a.eco == "npm" {
				// The web front ends' npm packages are build tools:
				// GitHub marks a devDependency's alert development.
				al.Scope = "development"
			}
			if (i+k)%3 == 0 {
				al.CVE = fmt.Sprintf("CVE-2025-%05d", 40000+i*10+k)
			}
			switch {
			case k == 3:
				fixed := created.Add(48 * time.Hour)
				al.State, al.FixedAt, al.UpdatedAt = "fixed", &fixed, fixed
			case k == 2 && i%2 == 0:
				dis := created.Add(24 * time.Hour)
				al.State, al.DismissedAt, al.DismissedBy, al.DismissedReason, al.UpdatedAt = "dismissed", &dis, fs.w.alice, "tolerable_risk", dis
			}
			s.AddDependabotAlert(r, al)
		}
	}
	if !fs.spec.CodeScanningOff && !(fs.spec.Private && fs.spec.AdvancedSecurityOff) {
		for k := range i % 4 {
			ru := fleetRules[(i+k)%len(fleetRules)]
			created := base.Add(time.Duration(k*31+5) * time.Hour)
			al := &state.CodeScanningAlert{State: "open", RuleID: ru.id, RuleName: ru.name, RuleDescription: ru.desc, Severity: ru.severity,
				SecuritySeverity: ru.security, Tool: "CodeQL", ToolVersion: "2.20.1", Path: ru.path, StartLine: 20 + k*7, EndLine: 20 + k*7,
				CommitSHA: sha, Message: ru.desc + ".", CreatedAt: created}
			if k == 2 {
				fixed := created.Add(72 * time.Hour)
				al.State, al.FixedAt, al.UpdatedAt = "fixed", &fixed, fixed
			}
			s.AddCodeScanningAlert(r, al)
		}
	}
	if !fs.spec.SecretScanningOff && !(fs.spec.Private && fs.spec.AdvancedSecurityOff) && i%3 != 1 {
		for k := range 1 + i%2 {
			created := base.Add(time.Duration(k*40+9) * time.Hour)
			al := &state.SecretScanningAlert{State: "open", SecretType: "github_personal_access_token",
				SecretTypeDisplayName: "GitHub Personal Access Token", Provider: "GitHub",
				Secret: fmt.Sprintf("ghp_%s%04d%02dSecretValueDoNotLeak", SecretCanary, i, k), Validity: "active",
				Path: "deploy/config.env", Line: 3 + k, CommitSHA: sha, CreatedAt: created}
			if i == 0 && k == 0 {
				al.Secret = FleetCanarySecret
			}
			if k == 1 {
				al.SecretType, al.SecretTypeDisplayName, al.Provider, al.Validity = "slack_incoming_webhook_url", "Slack Incoming Webhook URL", "Slack", "unknown"
				al.Secret = "https://hooks.slack.com/services/T0EMU/B0FLEET/" + SecretCanary + fmt.Sprintf("%04d", i)
			}
			if i%5 == 3 && k == 0 {
				res := created.Add(6 * time.Hour)
				al.State, al.Resolution, al.ResolvedAt, al.ResolvedBy, al.UpdatedAt, al.Validity = "resolved", "revoked", &res, fs.w.alice, res, "inactive"
			}
			s.AddSecretScanningAlert(r, al)
		}
	}
}
