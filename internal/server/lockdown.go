package server

import "github.com/ghgate/ghgate/internal/tools/toolkit"

// LockdownOptions are what the server says and lists of lockdown (see
// [toolkit.Lockdown]); the rule itself is applied by the Service.
type LockdownOptions struct {
	// Rule is the deployment's own: serve's, or the broker's [tools].
	Rule toolkit.Lockdown
	// Varies is set where some HTTP clients or broker routes have a
	// rule of their own.
	Varies bool
	// AllowInclude lists (and accepts) the read tools' include_untrusted:
	// some caller may use it. Where it is false, the default, the field
	// costs tools/list nothing.
	AllowInclude bool
}

// lockdownLine is the line on lockdown, in the capability summary and the
// instructions: why text is withheld, and how to ask for it (what
// withheld_untrusted holds, its schema says). Nothing where it is off for
// everyone.
func lockdownLine(o LockdownOptions) string {
	var line string
	switch {
	case o.Rule.On:
		line = "- lockdown: in public repositories, bodies and comments by authors not OWNER, MEMBER or COLLABORATOR " +
			"are withheld (titles stay; withheld_untrusted)"
		if o.Varies {
			line += "; not for every client or owner"
		}
	case o.Varies:
		line = "- lockdown: for some clients or owners, strangers' bodies and comments in public repositories are withheld (withheld_untrusted)"
	default:
		return ""
	}
	if o.AllowInclude {
		line += "; include_untrusted: true shows them where allowed, audited"
	}
	return line + "\n"
}
