package broker

import (
	"context"
	"strings"

	"github.com/ghgate/ghgate/internal/server"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// LockdownOver is the lockdown rule these settings make of def: each
// one set replaces def's.
func (t Tools) LockdownOver(def toolkit.Lockdown) toolkit.Lockdown {
	if t.Lockdown != nil {
		def.On = *t.Lockdown
	}
	if t.AllowIncludeUntrusted != nil {
		def.AllowInclude = *t.AllowIncludeUntrusted
	}
	return def
}

// lockdown is the broker's rule on strangers' text for a call on owner's
// repositories: the route's own lockdown where it sets one, over [tools].
func (b *Broker) lockdown(_ context.Context, owner string) toolkit.Lockdown {
	rule := b.cfg.Tools.LockdownOver(toolkit.Lockdown{})
	if rt := b.router.route(owner); rt != nil && rt.Lockdown != nil {
		rule.On = *rt.Lockdown
	}
	return rule
}

// credentialsLine is the line, in the instructions and the capability
// summary, on the tokens the broker's App routes mint: only what each
// call needs.
func credentialsLine(cfg *Config) string {
	var apps []string
	for _, r := range cfg.Routes {
		if !r.IsApp() {
			continue
		}
		scope := r.Owner + " (all the installation's repositories)"
		if len(r.Repositories) > 0 {
			scope = r.Owner + " (" + strings.Join(r.Repositories, ", ") + ")"
		}
		apps = append(apps, scope)
	}
	if len(apps) == 0 {
		return ""
	}
	return "- GitHub App routes " + strings.Join(apps, "; ") + ": each call's installation token covers those repositories " +
		"and only its tool's permissions; GitHub refuses anything else (403)\n"
}

// lockdownOptions are what the server lists and says of lockdown: the
// [tools] rule, and whether some route sets another.
func lockdownOptions(cfg *Config) server.LockdownOptions {
	rule := cfg.Tools.LockdownOver(toolkit.Lockdown{})
	o := server.LockdownOptions{Rule: rule, AllowInclude: rule.AllowInclude}
	for _, r := range cfg.Routes {
		if r.Lockdown != nil && *r.Lockdown != rule.On {
			o.Varies = true
		}
	}
	return o
}
