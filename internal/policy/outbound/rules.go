// Package outbound is the policy on text ghgate writes to GitHub (titles,
// bodies, comments, review replies): it refuses text holding a
// credential-shaped string, and rewrites @mentions, slash commands and
// links to hosts outside an allowlist so that they read the same but
// notify no one, trigger no bot and link nowhere. What GitHub renders as
// code is not rewritten; where the markdown leaves that in doubt, the
// text is taken for prose (see layout).
package outbound

import (
	"errors"
	"fmt"
	"strings"
)

// Rules is the operator's outbound text policy (TOML-decoded; the zero
// value is the default for a single person's stdio server: secret scan
// on, nothing else).
type Rules struct {
	// Mentions: "" or "allow" leaves @user and @org/team mentions as they
	// are; "neutralize" writes each one as <code>@name</code>, read the
	// same and notifying no one (neutralizeMentions says why not in
	// backticks).
	Mentions string `toml:"mentions"`
	// AllowedMentions are handles ("alice", "acme/triage", any case) left
	// as mentions when neutralising.
	AllowedMentions []string `toml:"allowed_mentions"`
	// SlashCommands: "neutralize" writes a slash command at a line's start
	// ("/close", "/assign @x", as bots read them) in a code span; "" or
	// "allow" leaves them.
	SlashCommands string `toml:"slash_commands"`
	// LinkDomains: nil leaves links alone; set (even empty), links to
	// hosts outside the list (a domain matches itself and its subdomains)
	// are de-linked: "https://evil.example/x" becomes `evil.example/x` in
	// a code span (see delink).
	LinkDomains []string `toml:"link_domains"`
	// SecretScan: nil or true refuses text holding a credential-shaped
	// string; false turns the scan off.
	SecretScan *bool `toml:"secret_scan"`
	// Footer, when set, is appended once to each body (see Apply),
	// separated by a blank line.
	Footer string `toml:"footer"`
}

// The mode words of Mentions and SlashCommands.
const (
	Allow      = "allow"
	Neutralize = "neutralize"
)

// Counts says what Apply changed.
type Counts struct {
	Mentions      int `json:"mentions,omitempty"`
	SlashCommands int `json:"slash_commands,omitempty"`
	Links         int `json:"links,omitempty"`
}

// Zero says whether nothing was changed.
func (c Counts) Zero() bool { return c == Counts{} }

// Scans says whether the rules refuse credential-shaped text.
func (r Rules) Scans() bool { return r.SecretScan == nil || *r.SecretScan }

// Apply returns text rewritten by the rules and what was neutralised, or
// the first credential-shaped string found, with its field set (then the
// text is not to be written at all, and "" is returned for it). field
// names the field ("title", "body", "comment", "changes.body"): the
// footer goes on "body", "comment" and any field ending in ".body", never
// on a title. Text already ending in the footer keeps one footer, and
// rewriting is idempotent: applying the rules to their output changes
// nothing and counts nothing.
func (r Rules) Apply(field, text string) (string, Counts, *Secret) {
	if r.Scans() {
		if sec := Scan(text); sec != nil {
			sec.Field = field
			return "", Counts{}, sec
		}
	}
	footer := strings.TrimRight(r.Footer, blanks)
	if !takesFooter(field) {
		footer = ""
	}
	out, counts := r.neutralize(withoutFooter(text, footer))
	out = withFooter(out, footer)
	if r.Scans() && out != text {
		// Rewriting only wraps and drops schemes, which makes no
		// credential (FuzzApply holds it); the footer was checked by
		// Validate. Scanning again costs little and keeps that true.
		if sec := Scan(out); sec != nil {
			sec.Field = field
			return "", Counts{}, sec
		}
	}
	return out, counts, nil
}

// neutralize applies the rewriting rules until they change nothing more.
// Links go first, so that a mention in a foreign URL goes into the URL's
// code span with it, then mentions, then slash commands (whose line may
// hold a mention). One round nearly always suffices; a second is for
// what a rewrite makes of its neighbours, as when "<code>" cut short a
// string that named no host ("//a.$@b") and it now names one.
func (r Rules) neutralize(s string) (string, Counts) {
	var total Counts
	for range maxRounds {
		var c Counts
		if r.LinkDomains != nil {
			s, c.Links = delink(s, normalizeDomains(r.LinkDomains))
		}
		if r.Mentions == Neutralize {
			allowed := make(map[string]bool, len(r.AllowedMentions))
			for _, h := range r.AllowedMentions {
				allowed[strings.ToLower(h)] = true
			}
			s, c.Mentions = neutralizeMentions(s, allowed)
		}
		if r.SlashCommands == Neutralize {
			s, c.SlashCommands = neutralizeSlash(s)
		}
		if c.Zero() {
			break
		}
		total.Mentions += c.Mentions
		total.SlashCommands += c.SlashCommands
		total.Links += c.Links
	}
	return s, total
}

// maxRounds bounds neutralize's rounds. Each round only wraps what the
// last left bare; a text needing more would come out of Apply changeable
// still, which FuzzApply's second application looks for.
const maxRounds = 4

func normalizeDomains(ds []string) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = strings.TrimSuffix(strings.ToLower(d), ".")
	}
	return out
}

const blanks = " \t\r\n"

func takesFooter(field string) bool {
	return field == "body" || field == "comment" || strings.HasSuffix(field, ".body")
}

// withoutFooter is text without footer and the blank line before it,
// when it ends so (a body read back from GitHub and written again).
func withoutFooter(text, footer string) string {
	t := strings.TrimRight(text, blanks)
	switch {
	case footer == "":
		return text
	case t == footer:
		return ""
	case strings.HasSuffix(t, "\n\n"+footer):
		return t[:len(t)-len(footer)-2]
	}
	return text
}

// withFooter appends footer after a blank line, the text's trailing
// blanks and newlines giving way to it.
func withFooter(text, footer string) string {
	if footer == "" {
		return text
	}
	if t := strings.TrimRight(text, blanks); t != "" {
		return t + "\n\n" + footer
	}
	return footer
}

// Validate checks rules as loaded from configuration: the mode words, the
// handles and domains, and that the footer holds no credential.
func (r Rules) Validate() error {
	var errs []error
	for _, m := range []struct{ name, value string }{{"mentions", r.Mentions}, {"slash_commands", r.SlashCommands}} {
		if m.value != "" && m.value != Allow && m.value != Neutralize {
			errs = append(errs, fmt.Errorf("%s = %q: want %q or %q", m.name, m.value, Allow, Neutralize))
		}
	}
	for i, h := range r.AllowedMentions {
		if !validHandle(h) {
			errs = append(errs, fmt.Errorf("allowed_mentions[%d] = %q: want a GitHub login (\"alice\") or a team (\"acme/triage\"), without '@'", i, h))
		}
	}
	for i, d := range r.LinkDomains {
		if !validDomain(d) {
			errs = append(errs, fmt.Errorf("link_domains[%d] = %q: want a host name such as \"docs.github.com\" (no scheme, path, port or '*'; it covers its subdomains)", i, d))
		}
	}
	if sec := Scan(r.Footer); sec != nil {
		errs = append(errs, fmt.Errorf("footer holds a credential-shaped string (%s at byte %d)", sec.Kind, sec.Offset))
	}
	return errors.Join(errs...)
}

// validHandle says whether h is a GitHub login (letters, digits and
// single hyphens, not at either end, then for a managed user '_' and its
// enterprise's short code; at most 39 in all) or org/team (a team slug
// also takes '_').
func validHandle(h string) bool {
	login, team, isTeam := strings.Cut(h, "/")
	if isTeam && (team == "" || !isAlnum(team[0]) || !allBytes(team, func(c byte) bool { return isWordByte(c) || c == '-' })) {
		return false
	}
	if len(login) > 39 {
		return false
	}
	name, short, managed := strings.Cut(login, "_")
	if managed && (isTeam || short == "" || !allBytes(short, isAlnum)) {
		return false
	}
	return len(name) > 0 && name[0] != '-' && name[len(name)-1] != '-' &&
		!strings.Contains(name, "--") && allBytes(name, func(c byte) bool { return isAlnum(c) || c == '-' })
}

// validDomain says whether d is a host name: dot-separated labels of
// letters, digits and hyphens (not at a label's ends), at most 63 bytes
// each and 253 in all.
func validDomain(d string) bool {
	if d == "" || len(d) > 253 {
		return false
	}
	for _, label := range strings.Split(d, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' ||
			!allBytes(label, func(c byte) bool { return isAlnum(c) || c == '-' }) {
			return false
		}
	}
	return true
}
