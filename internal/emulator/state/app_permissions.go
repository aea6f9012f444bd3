package state

import (
	"maps"
	"slices"
	"strings"
)

// NotAccessibleByIntegration is GitHub's message when an installation
// token lacks the permission an operation needs (REST 403, GraphQL
// FORBIDDEN).
const NotAccessibleByIntegration = "Resource not accessible by integration"

// NotAccessibleByPAT is GitHub's message when a fine-grained personal
// access token lacks the permission an operation needs.
const NotAccessibleByPAT = "Resource not accessible by personal access token"

// AppPermissions are GitHub App permissions by name ("issues": "write"),
// as installations are granted them and installation tokens carry them.
type AppPermissions map[string]string

// appLevels are the levels each permission GitHub documents takes (the
// app-permissions schema of GitHub's OpenAPI description). A name not
// here is not a permission.
var appLevels = map[string][]string{
	"actions": {"read", "write"}, "administration": {"read", "write"}, "artifact_metadata": {"read", "write"},
	"attestations": {"read", "write"}, "checks": {"read", "write"}, "code_quality": {"read", "write"},
	"codespaces": {"read", "write"}, "contents": {"read", "write"},
	"custom_properties_for_organizations": {"read", "write"}, "dependabot_secrets": {"read", "write"},
	"deployments": {"read", "write"}, "discussions": {"read", "write"}, "email_addresses": {"read", "write"},
	"enterprise_custom_properties_for_organizations": {"read", "write", "admin"}, "environments": {"read", "write"},
	"followers": {"read", "write"}, "git_ssh_keys": {"read", "write"}, "gpg_keys": {"read", "write"},
	"interaction_limits": {"read", "write"}, "issues": {"read", "write"}, "members": {"read", "write"},
	"merge_queues": {"read", "write"}, "metadata": {"read", "write"}, "organization_administration": {"read", "write"},
	"organization_announcement_banners": {"read", "write"}, "organization_copilot_agent_settings": {"read", "write"},
	"organization_copilot_seat_management": {"read", "write"}, "organization_custom_org_roles": {"read", "write"},
	"organization_custom_properties": {"read", "write", "admin"}, "organization_custom_roles": {"read", "write"},
	"organization_events": {"read"}, "organization_hooks": {"read", "write"}, "organization_packages": {"read", "write"},
	"organization_personal_access_token_requests": {"read", "write"}, "organization_personal_access_tokens": {"read", "write"},
	"organization_plan": {"read"}, "organization_projects": {"read", "write", "admin"}, "organization_secrets": {"read", "write"},
	"organization_self_hosted_runners": {"read", "write"}, "organization_user_blocking": {"read", "write"},
	"packages": {"read", "write"}, "pages": {"read", "write"}, "profile": {"write"}, "pull_requests": {"read", "write"},
	"repository_custom_properties": {"read", "write"}, "repository_hooks": {"read", "write"},
	"repository_projects": {"read", "write", "admin"}, "secret_scanning_alerts": {"read", "write"}, "secrets": {"read", "write"},
	"security_events": {"read", "write"}, "single_file": {"read", "write"}, "starring": {"read", "write"},
	"statuses": {"read", "write"}, "vulnerability_alerts": {"read", "write"}, "workflows": {"write"},
}

// ValidAppPermission reports whether GitHub has a permission name taking
// level.
func ValidAppPermission(name, level string) bool { return slices.Contains(appLevels[name], level) }

// levelRank orders levels; anything else ranks below read.
func levelRank(level string) int {
	switch level {
	case "read":
		return 1
	case "write":
		return 2
	case "admin":
		return 3
	}
	return 0
}

// Covers reports whether p holds name at level or above ("write" covers
// "read").
func (p AppPermissions) Covers(name, level string) bool {
	have := levelRank(p[name])
	return have > 0 && have >= levelRank(level)
}

// Writes reports whether p holds any permission above read.
func (p AppPermissions) Writes() bool {
	for _, level := range p {
		if levelRank(level) > 1 {
			return true
		}
	}
	return false
}

// DefaultInstallationPermissions is what an installation is granted when
// a test names nothing: every permission the emulator enforces, at its
// highest level, so that narrowing is a token's choice.
func DefaultInstallationPermissions() AppPermissions {
	return AppPermissions{
		"actions": "write", "administration": "write", "checks": "write", "contents": "write", "issues": "write",
		"members": "read", "metadata": "read", "organization_projects": "admin", "pull_requests": "write",
		"secret_scanning_alerts": "write", "security_events": "write", "statuses": "write",
		"vulnerability_alerts": "write", "workflows": "write",
	}
}

// An AppNeed is what an operation asks of a GitHub App installation
// token, as GitHub's "Permissions required for GitHub Apps" lists it: any
// one of Sets, each permission of a set at its level or above. No sets
// means metadata, which every installation token holds. Unavailable
// marks an operation installation tokens cannot use at all (it acts for
// a user: notifications, stars, a user's own repositories and boards).
type AppNeed struct {
	Sets        []AppPermissions
	Unavailable bool
}

// Need builds the need of one permission set given as name, level pairs.
func Need(pairs ...string) AppNeed {
	set := AppPermissions{}
	for i := 0; i+1 < len(pairs); i += 2 {
		set[pairs[i]] = pairs[i+1]
	}
	return AppNeed{Sets: []AppPermissions{set}}
}

// Or adds another set that serves as well: GitHub takes issues or
// pull_requests for a comment.
func (n AppNeed) Or(other AppNeed) AppNeed {
	n.Sets = append(slices.Clone(n.Sets), other.Sets...)
	return n
}

// MetBy reports whether p satisfies n.
func (n AppNeed) MetBy(p AppPermissions) bool {
	if n.Unavailable {
		return false
	}
	if len(n.Sets) == 0 {
		return true
	}
	for _, set := range n.Sets {
		ok := true
		for name, level := range set {
			if !p.Covers(name, level) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// Header is n in the form of GitHub's X-Accepted-GitHub-Permissions
// header: sets separated by "; ", a set's permissions by ",".
func (n AppNeed) Header() string {
	if len(n.Sets) == 0 {
		return "metadata=read"
	}
	sets := make([]string, len(n.Sets))
	for i, set := range n.Sets {
		names := slices.Sorted(maps.Keys(set))
		for j, name := range names {
			names[j] = name + "=" + set[name]
		}
		sets[i] = strings.Join(names, ",")
	}
	return strings.Join(sets, "; ")
}

// InstallationGrant is what an installation token was minted with: the
// installation, the permissions (the requested ones, else all the
// installation's) and whether it covers all the installation's
// repositories or a selection. Its repositories are the token's Perms.
type InstallationGrant struct {
	Installation        *Installation
	Permissions         AppPermissions
	RepositorySelection string
}

// Covers reports whether the token's repository set holds r.
func (t *Token) Covers(r *Repo) bool {
	_, ok := t.Perms[strings.ToLower(r.FullName())]
	return ok
}

// HeldTo returns the permissions t is held to and the message GitHub
// refuses it with: an installation token's, or a fine-grained token's
// grants. held is false for a token held to none (classic tokens, and
// fine-grained ones without grants).
func (t *Token) HeldTo() (perms AppPermissions, refusal string, held bool) {
	switch {
	case t == nil:
		return nil, "", false
	case t.App != nil:
		return t.App.Permissions, NotAccessibleByIntegration, true
	case t.FineGrained && t.Grants != nil:
		return t.Grants, NotAccessibleByPAT, true
	}
	return nil, "", false
}
