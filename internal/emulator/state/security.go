package state

import (
	"strings"
	"time"
)

// RepoSecurity is a repository's security features and their alerts. The
// zero value has every feature on and no alerts, as a new public
// repository of an organization with the features enabled by default.
type RepoSecurity struct {
	// DependabotOff turns Dependabot alerts off (403 on their routes).
	DependabotOff bool
	// CodeScanningOff means no code scanning analysis was ever uploaded
	// (404 "no analysis found"); AdvancedSecurityOff, on a private
	// repository, means code and secret scanning are not licensed (403).
	CodeScanningOff     bool
	AdvancedSecurityOff bool
	// SecretScanningOff turns secret scanning off (404).
	SecretScanningOff bool

	Dependabot     []*DependabotAlert
	CodeScanning   []*CodeScanningAlert
	SecretScanning []*SecretScanningAlert
}

// DependabotAlert is a vulnerable dependency Dependabot found.
type DependabotAlert struct {
	ID              int64 // orders alerts across repositories for cursors
	Number          int
	State           string // open | dismissed | fixed | auto_dismissed
	Package         string
	Ecosystem       string // npm | pip | go | maven | rubygems | nuget | composer | rust
	Manifest        string
	Scope           string // runtime | development
	GHSA            string
	CVE             string // "" when the advisory has none
	Severity        string // low | medium | high | critical
	Summary         string
	VulnerableRange string
	PatchedVersion  string // "" when no fix exists
	CVSS            float64
	CreatedAt       time.Time
	UpdatedAt       time.Time
	DismissedAt     *time.Time
	DismissedBy     *Account
	DismissedReason string
	FixedAt         *time.Time
}

// CodeScanningAlert is a problem a code scanning tool reported.
type CodeScanningAlert struct {
	ID              int64
	Number          int
	State           string // open | dismissed | fixed
	RuleID          string
	RuleName        string
	RuleDescription string
	// Severity is the rule's (none | note | warning | error);
	// SecuritySeverity its security level (low | medium | high |
	// critical), "" for a rule that is not a security rule.
	Severity         string
	SecuritySeverity string
	Tool             string
	ToolVersion      string
	Path             string
	StartLine        int
	EndLine          int
	CommitSHA        string
	Message          string
	CreatedAt        time.Time
	UpdatedAt        time.Time
	FixedAt          *time.Time
	DismissedAt      *time.Time
	DismissedBy      *Account
	DismissedReason  string
}

// SecretScanningAlert is a credential found in a repository. Secret is the
// leaked value itself, which GitHub returns in the alert.
type SecretScanningAlert struct {
	ID                    int64
	Number                int
	State                 string // open | resolved
	Resolution            string // false_positive | wont_fix | revoked | used_in_tests, once resolved
	SecretType            string
	SecretTypeDisplayName string
	Provider              string
	Secret                string
	Validity              string // active | inactive | unknown
	PubliclyLeaked        bool
	Path                  string
	Line                  int
	CommitSHA             string
	CreatedAt             time.Time
	UpdatedAt             time.Time
	ResolvedAt            *time.Time
	ResolvedBy            *Account
}

// AddDependabotAlert numbers and records a Dependabot alert on r.
func (s *State) AddDependabotAlert(r *Repo, a *DependabotAlert) *DependabotAlert {
	a.ID, a.Number = s.nextID(), len(r.Security.Dependabot)+1
	if a.UpdatedAt.IsZero() {
		a.UpdatedAt = a.CreatedAt
	}
	r.Security.Dependabot = append(r.Security.Dependabot, a)
	return a
}

// AddCodeScanningAlert numbers and records a code scanning alert on r.
func (s *State) AddCodeScanningAlert(r *Repo, a *CodeScanningAlert) *CodeScanningAlert {
	a.ID, a.Number = s.nextID(), len(r.Security.CodeScanning)+1
	if a.UpdatedAt.IsZero() {
		a.UpdatedAt = a.CreatedAt
	}
	r.Security.CodeScanning = append(r.Security.CodeScanning, a)
	return a
}

// AddSecretScanningAlert numbers and records a secret scanning alert on r.
func (s *State) AddSecretScanningAlert(r *Repo, a *SecretScanningAlert) *SecretScanningAlert {
	a.ID, a.Number = s.nextID(), len(r.Security.SecretScanning)+1
	if a.UpdatedAt.IsZero() {
		a.UpdatedAt = a.CreatedAt
	}
	r.Security.SecretScanning = append(r.Security.SecretScanning, a)
	return a
}

// Organization roles beyond membership: an owner, or a member of a team
// with the security manager role, may read the organization's security
// alerts.
const (
	OrgRoleOwner           = "owner"
	OrgRoleSecurityManager = "security_manager"
)

// SetOrgRole gives a user a role in an organization.
func (s *State) SetOrgRole(org, user *Account, role string) {
	if s.orgRoles == nil {
		s.orgRoles = map[string]map[string]string{}
	}
	key := strings.ToLower(org.Login)
	if s.orgRoles[key] == nil {
		s.orgRoles[key] = map[string]string{}
	}
	s.orgRoles[key][strings.ToLower(user.Login)] = role
}

// OrgRole is a user's role in an organization ("" for none).
func (s *State) OrgRole(org *Account, login string) string {
	return s.orgRoles[strings.ToLower(org.Login)][strings.ToLower(login)]
}
